# Kafka benchmark (bench/kafka, docs/kafka.md "Benchmark", issue 29): records per second produced
# and consumed and bytes per record (value + headers) for the trade sample through ONE local broker
# (tests/kafka/broker.py), same kafka-clients producer and consumer, the serializer the only change:
# our FbeSerde (versioned and final model), Jackson, protobuf-java. In make bench, not in make test.
#
#   make bench-kafka  copy bench/kafka to build/bench-kafka with runtime/java's and
#                     runtime/kafka/java's sources, bench/java's Domain.java (the trade sample and
#                     the touch of every field, as make bench-java), the FBE Java of
#                     schemas/trade.fbe (fbec) and the Protobuf messages (protoc,
#                     bench/cpp/schemas/trade.proto); build it; check every row's round trip
#                     (fbebench.kafka.Rows, its sizes into rows.txt); start a broker and run JMH
#                     (fbebench.kafka.KafkaBench) under it; print the table (bench/kafka/report.py:
#                     medians of the measured iterations, ratios to FBE final)
#   make bench-kafka-check  only the build, every row's check and report.py's test
#
# Knobs: BENCH_KAFKA_ROWS (fbe,fbe-final,fbe-final-nogate,jackson,protobuf; -nogate: FbeSerde
# without its headers, the codec alone), BENCH_KAFKA_WARMUPS (3 iterations of BENCH_KAFKA_WARMUP_TIME,
# 2s), BENCH_KAFKA_ITERATIONS (5 of BENCH_KAFKA_TIME, 2s), BENCH_KAFKA_ARGS (more JMH options).
.PHONY: bench-kafka bench-kafka-check
BENCH_TARGETS += bench-kafka
BENCH_KAFKA_DIR := build/bench-kafka
BENCH_KAFKA_SRC := $(BENCH_KAFKA_DIR)/src/main/java
BENCH_KAFKA_ROWS ?= fbe,fbe-final,fbe-final-nogate,jackson,protobuf
BENCH_KAFKA_WARMUPS ?= 3
BENCH_KAFKA_WARMUP_TIME ?= 2s
BENCH_KAFKA_ITERATIONS ?= 5
BENCH_KAFKA_TIME ?= 2s
BENCH_KAFKA_ARGS ?=
BENCH_KAFKA_CP = $(BENCH_KAFKA_DIR)/target/classes:$$(cat $(BENCH_KAFKA_DIR)/classpath.txt)

bench-kafka-check: venv $(KAFKA_BROKER_JARS)/.copied
	@tools/need-apt.sh openjdk-17-jdk-headless maven protobuf-compiler
	@rm -rf $(BENCH_KAFKA_DIR) && mkdir -p $(BENCH_KAFKA_DIR)
	@cp -r bench/kafka/. $(BENCH_KAFKA_DIR)/
	@cp -r runtime/java/src/main/java/. runtime/kafka/java/src/main/java/. $(BENCH_KAFKA_SRC)/
	@cp bench/java/src/main/java/fbebench/Domain.java $(BENCH_KAFKA_SRC)/fbebench/
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --input=schemas/trade.fbe --output=$(BENCH_KAFKA_SRC)
	@protoc --java_out=$(BENCH_KAFKA_SRC) -I bench/cpp/schemas trade.proto
	@echo "bench-kafka: building bench/kafka in $(BENCH_KAFKA_DIR) (mvn)"
	@cd $(BENCH_KAFKA_DIR) && $(MVN) -q -B -Dstyle.color=never compile dependency:build-classpath \
		-Dmdep.outputFile=classpath.txt >mvn.log 2>&1 || { cat mvn.log; exit 1; }
	@FBE_KAFKA_FINGERPRINT=$(KAFKA_FINGERPRINT) java -cp "$(BENCH_KAFKA_CP)" fbebench.kafka.Rows >$(BENCH_KAFKA_DIR)/rows.txt; \
		rc=$$?; cat $(BENCH_KAFKA_DIR)/rows.txt; exit $$rc
	@$(PYTHON) -m pytest -q -p no:cacheprovider bench/kafka/test_report.py

bench-kafka: bench-kafka-check
	@echo "bench-kafka: JMH over $(BENCH_KAFKA_ROWS), 1 fork each, $(BENCH_KAFKA_WARMUPS) x $(BENCH_KAFKA_WARMUP_TIME) warmup, $(BENCH_KAFKA_ITERATIONS) x $(BENCH_KAFKA_TIME), one local broker"
	@FBE_KAFKA_FINGERPRINT=$(KAFKA_FINGERPRINT) $(PYTHON) tests/kafka/broker.py run --jars $(KAFKA_BROKER_JARS) -- \
		java -cp "$(BENCH_KAFKA_CP)" org.openjdk.jmh.Main 'fbebench\.kafka\.KafkaBench' -p row=$(BENCH_KAFKA_ROWS) \
		-f 1 -wi $(BENCH_KAFKA_WARMUPS) -w $(BENCH_KAFKA_WARMUP_TIME) -i $(BENCH_KAFKA_ITERATIONS) -r $(BENCH_KAFKA_TIME) \
		-rf json -rff $(BENCH_KAFKA_DIR)/jmh.json $(BENCH_KAFKA_ARGS) >$(BENCH_KAFKA_DIR)/jmh.txt 2>&1 \
		|| { tail -50 $(BENCH_KAFKA_DIR)/jmh.txt; exit 1; }
	@$(PYTHON) bench/kafka/report.py --jmh $(BENCH_KAFKA_DIR)/jmh.json --rows $(BENCH_KAFKA_DIR)/rows.txt \
		--runs "JMH 1 fork per row and operation, $(BENCH_KAFKA_WARMUPS) x $(BENCH_KAFKA_WARMUP_TIME) warmup, $(BENCH_KAFKA_ITERATIONS) x $(BENCH_KAFKA_TIME) measured"
