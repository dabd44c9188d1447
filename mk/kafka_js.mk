# The JavaScript/TypeScript serde of FBE over Kafka (runtime/kafka/js, the npm package
# @fbe-toolkit/fbe-kafka over kafkajs, docs/kafka.md), one of test-kafka's KAFKA_SUITES
# (mk/kafka.mk): it runs under test-kafka's broker.
#
#   make kafka-js      npm ci in runtime/kafka/js (kafkajs, typescript, @types/node and a link to
#                      runtime/js, as its package-lock.json locks them), fbec --typescript --final
#                      --json of schemas/trade.fbe into its gen/, tsc of the package and of its
#                      tests, then node --test: the serde without a broker and kafkajs producers and
#                      consumers through the broker (both models, foreign and invalid records refused
#                      with their offset, a consumer restarted mid-topic, the evolution case with the
#                      evolved schema in gen/evolved, the size limit and dead letters); closes with
#                      `kafka-js: N passed, N failed, N skipped` (alone, it starts a broker of its own)
.PHONY: kafka-js kafka-js-build
KAFKA_SUITES += kafka-js
KAFKA_JS := runtime/kafka/js

# The package, its tests and the matrix client (build-test/test/matrix-client.js); runtime/js is
# built by js-runtime, so npm ci runs no install scripts.
kafka-js-build: venv js-runtime $(KAFKA_EVOLVED)
	cd $(KAFKA_JS) && $(NPM) ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@rm -rf $(KAFKA_JS)/gen $(KAFKA_JS)/build-test $(KAFKA_JS)/dist
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --typescript --final --json --input=schemas/trade.fbe \
		--output=$(KAFKA_JS)/gen
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --typescript --final --input=$(KAFKA_EVOLVED) --output=$(KAFKA_JS)/gen/evolved
	cd $(KAFKA_JS) && ./node_modules/.bin/tsc -p tsconfig.json && ./node_modules/.bin/tsc -p tsconfig.test.json

kafka-js: kafka-js-build kafka-topic-record $(KAFKA_BROKER_JARS)/.copied
	FBE_KAFKA_FINGERPRINT=$(KAFKA_FINGERPRINT) $(KAFKA_ACCEPT_ENV) $(KAFKA_RUN) $(NODE) --test \
		--test-reporter=spec --test-reporter-destination=stdout \
		--test-reporter=./$(KAFKA_JS)/summary-reporter.mjs --test-reporter-destination=stdout \
		$(KAFKA_JS)/build-test/test/*.test.js

# Its client of the cross-language matrix (tests/kafka/test_matrix.py, mk/kafka.mk).
KAFKA_CLIENTS += FBE_KAFKA_CLIENT_JS="$(NODE) $(CURDIR)/$(KAFKA_JS)/build-test/test/matrix-client.js"
kafka-matrix: kafka-js-build
