# The Python serde of FBE over Kafka (fbe.kafka over confluent-kafka, docs/kafka.md), one of
# test-kafka's KAFKA_SUITES (mk/kafka.mk): it runs under test-kafka's broker.
#
#   make kafka-python  the tests of tests/kafka/python: the serde's headers, gate and refusals
#                      without a broker, then producers and consumers through the broker (both
#                      models, foreign and invalid records refused with their offset, a consumer
#                      restarted mid-topic); closes with `kafka-python: N passed, N failed, N skipped`
#                      (alone, it starts a broker of its own)
.PHONY: kafka-python
KAFKA_SUITES += kafka-python

kafka-python: venv $(KAFKA_BROKER_JARS)/.copied
	$(KAFKA_RUN) $(PYTHON) -m pytest -qq -p no:cacheprovider tests/kafka/python
