# The Python serde of FBE over Kafka (fbe.kafka over confluent-kafka, docs/kafka.md), one of
# test-kafka's KAFKA_SUITES (mk/kafka.mk): it runs under test-kafka's broker.
#
#   make kafka-python  the tests of tests/kafka/python: the serde's headers, gate and refusals
#                      without a broker, then producers and consumers through the broker (both
#                      models, foreign and invalid records refused with their offset, a consumer
#                      restarted mid-topic, the evolution case, the size limit and dead letters);
#                      closes with `kafka-python: N passed, N failed, N skipped` (alone, it starts a
#                      broker of its own)
.PHONY: kafka-python kafka-python-build
KAFKA_SUITES += kafka-python

# fbec --python --json of schemas/trade.fbe for the matrix client (tests/kafka/python/matrix_client.py).
kafka-python-build: venv
	@rm -rf build/kafka/python-gen && mkdir -p build/kafka/python-gen
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --python --final --json --input=schemas/trade.fbe \
		--output=build/kafka/python-gen

kafka-python: venv kafka-topic-record $(KAFKA_BROKER_JARS)/.copied
	FBE_KAFKA_EVOLVED=$(KAFKA_EVOLVED) $(KAFKA_ACCEPT_ENV) $(KAFKA_RUN) $(PYTHON) -m pytest -qq -p no:cacheprovider tests/kafka/python

# Its client of the cross-language matrix (tests/kafka/test_matrix.py, mk/kafka.mk).
KAFKA_CLIENTS += FBE_KAFKA_CLIENT_PYTHON="$(PYTHON) $(CURDIR)/tests/kafka/python/matrix_client.py $(CURDIR)/build/kafka/python-gen"
kafka-matrix: kafka-python-build
