# FBE over Apache Kafka (docs/kafka.md, issue 29): every language's serde tested against one real
# single-node broker in KRaft mode on 127.0.0.1 (tests/kafka/broker.py starts and stops it).
#
#   make test-kafka   copy the broker's jars (org.apache.kafka:kafka_2.13 and its dependencies, from
#                     Maven Central, pinned by tests/kafka/broker/pom.xml) into build/kafka/broker,
#                     start ONE broker and run every target of KAFKA_SUITES under it (make -k: a
#                     failing language does not stop the others), with FBE_KAFKA_BOOTSTRAP=host:port
#                     in their environment; each closes with `kafka-<lang>: N passed, N failed, N
#                     skipped`, the lines tools/run_suites.py adds up
#   make kafka-java   the Java serde (runtime/kafka/java): install runtime/java into ~/.m2, generate
#                     fbec --java --final of schemas/trade.fbe into build/kafka/java-gen, run the
#                     module's JUnit tests with that schema's fingerprint (fbec fingerprint)
#   make kafka-go     the Go serde (runtime/kafka/go, franz-go): generate fbec --go --final --json of
#                     schemas/trade.fbe into its internal/gen (the evolved schema into
#                     internal/evolved), gofmt -l, go vet, go test with the fingerprint in
#                     FBE_KAFKA_FINGERPRINT and the accepted lists of KAFKA_ACCEPT_ENV
#                     (tests/kafka/go_summary.py closes it)
#   make kafka-topic-record  the evolution case's topic record and accepted lists (below), which
#                     every language's suite reads
#   make kafka-matrix every language's producer read by every other's consumer, both models
#                     (tests/kafka/test_matrix.py, pytest): each language's matrix client command in
#                     FBE_KAFKA_CLIENT_<LANGUAGE> (KAFKA_CLIENTS), built by its kafka-<lang>-build
#
# A language joins by adding its target to KAFKA_SUITES: a recipe that reads FBE_KAFKA_BOOTSTRAP,
# prefixes its test command with $(KAFKA_RUN) (run alone, `make kafka-<lang>` starts a broker of
# its own; under test-kafka's broker KAFKA_RUN is empty) and closes with its summary line. Topic
# names start with the language (java-..., go-...): the broker is shared.
.PHONY: test-kafka kafka-java kafka-go kafka-matrix kafka-java-build kafka-go-build kafka-topic-record
TEST_TARGETS += test-kafka
KAFKA_SUITES := kafka-java kafka-go kafka-matrix
KAFKA_BROKER_JARS := $(CURDIR)/build/kafka/broker
KAFKA_JAVA_GEN := $(CURDIR)/build/kafka/java-gen
# schemas/trade.fbe with a field appended to Account, version 1.1: the producer and consumer on a
# newer schema of the Java tests' evolution case (its Java in package evolved.com.chronoxor.proto)
KAFKA_EVOLVED := $(CURDIR)/build/kafka/evolved/trade.fbe
KAFKA_TOPIC = PYTHONPATH=compiler $(PYTHON) -m fbec topic
KAFKA_GO := runtime/kafka/go
KAFKA_RUN = $(if $(FBE_KAFKA_BOOTSTRAP),,$(PYTHON) $(CURDIR)/tests/kafka/broker.py run --jars $(KAFKA_BROKER_JARS) --)

$(KAFKA_EVOLVED): schemas/trade.fbe
	@mkdir -p $(dir $@) && sed -e 's/^version 1.0$$/version 1.1/' \
		-e '/^    Order\[\] orders;$$/a\    string note = "evolved";' $< > $@

# The topic record of the evolution case (fbec topic add: trade.fbe, then the evolved schema) and
# each schema's `fbec topic accept` list (comma-separated, in build/kafka/accept.txt and
# accept-evolved.txt), made again by every run (the compiler may have changed). KAFKA_ACCEPT_ENV
# puts the lists in a command's environment: FBE_KAFKA_ACCEPT (trade.fbe's) and
# FBE_KAFKA_ACCEPT_EVOLVED (the evolved schema's), what the Go, Python and JS tests read.
kafka-topic-record: venv $(KAFKA_EVOLVED)
	@rm -f build/kafka/accounts.json build/kafka/accept.txt build/kafka/accept-evolved.txt
	$(KAFKA_TOPIC) add build/kafka/accounts.json schemas/trade.fbe
	$(KAFKA_TOPIC) add build/kafka/accounts.json $(KAFKA_EVOLVED)
	$(KAFKA_TOPIC) accept build/kafka/accounts.json schemas/trade.fbe | paste -sd, > build/kafka/accept.txt
	$(KAFKA_TOPIC) accept build/kafka/accounts.json $(KAFKA_EVOLVED) | paste -sd, > build/kafka/accept-evolved.txt
KAFKA_ACCEPT_ENV = FBE_KAFKA_ACCEPT=$$(cat $(CURDIR)/build/kafka/accept.txt) \
	FBE_KAFKA_ACCEPT_EVOLVED=$$(cat $(CURDIR)/build/kafka/accept-evolved.txt)

# The fingerprint of schemas/trade.fbe's package proto, in a recipe's shell.
KAFKA_FINGERPRINT = $$(PYTHONPATH=compiler $(PYTHON) -m fbec fingerprint schemas/trade.fbe | sed -n 's/^proto [^ ]* //p')

test-kafka: venv $(KAFKA_BROKER_JARS)/.copied
	$(PYTHON) tests/kafka/broker.py run --jars $(KAFKA_BROKER_JARS) -- \
		$(MAKE) --no-print-directory -k $(KAFKA_SUITES)

$(KAFKA_BROKER_JARS)/.copied: tests/kafka/broker/pom.xml
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	@rm -rf $(KAFKA_BROKER_JARS)
	@echo "test-kafka: the broker's jars (mvn dependency:copy-dependencies) into $(KAFKA_BROKER_JARS)"
	@cd tests/kafka/broker && $(MVN) -q -B -Dstyle.color=never dependency:copy-dependencies \
		-DoutputDirectory=$(KAFKA_BROKER_JARS)
	@touch $@

# The generated Java (with JSON, for the matrix client) and the module's classes; the module's
# classpath into build/kafka/java-classpath.
kafka-java-build: venv $(KAFKA_BROKER_JARS)/.copied $(KAFKA_EVOLVED)
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	@rm -rf $(KAFKA_JAVA_GEN) runtime/kafka/java/target/surefire-reports
	cd runtime/java && $(MVN) -q -B -Dstyle.color=never install -Dmaven.test.skip=true
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --json --input=schemas/trade.fbe --output=$(KAFKA_JAVA_GEN)
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --package-prefix=evolved --input=$(KAFKA_EVOLVED) \
		--output=$(KAFKA_JAVA_GEN)
	cd runtime/kafka/java && $(MVN) -q -B -Dstyle.color=never test-compile dependency:build-classpath \
		-Dfbe.generated=$(KAFKA_JAVA_GEN) -Dmdep.outputFile=$(CURDIR)/build/kafka/java-classpath

# surefire:test alone: kafka-java-build compiled the tests.
# The topic record of the evolution case (kafka-topic-record) gives each side's accepted fingerprints.
kafka-java: kafka-java-build kafka-topic-record
	fingerprint=$(KAFKA_FINGERPRINT); rc=0; \
	(cd runtime/kafka/java && $(KAFKA_RUN) $(MVN) -q -B \
		-Dstyle.color=never surefire:test -Dfbe.fingerprint=$$fingerprint \
		-Dfbe.accept=$$(cat $(CURDIR)/build/kafka/accept.txt) \
		-Dfbe.accept.evolved=$$(cat $(CURDIR)/build/kafka/accept-evolved.txt)) || rc=$$?; \
	$(PYTHON) tests/kafka/surefire_summary.py kafka-java runtime/kafka/java; exit $$rc

# The generated Go (with JSON) in the module's internal/gen and the matrix client build/kafka/go-client.
kafka-go-build: venv $(KAFKA_EVOLVED)
	@test -x "$(GO)" || { echo "kafka-go: no go command (set GO=/path/to/go; Go 1.26 or newer)" >&2; exit 1; }
	@rm -rf $(KAFKA_GO)/internal/gen $(KAFKA_GO)/internal/evolved
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --go --final --json --input=schemas/trade.fbe --output=$(KAFKA_GO)/internal/gen
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --go --final --input=$(KAFKA_EVOLVED) --output=$(KAFKA_GO)/internal/evolved
	cd $(KAFKA_GO) && $(GO_ENV) $(GO) build -o $(CURDIR)/build/kafka/go-client ./internal/matrixclient

kafka-go: kafka-go-build kafka-topic-record $(KAFKA_BROKER_JARS)/.copied
	@cd $(KAFKA_GO) && unformatted="$$($(GO_ENV) $(dir $(GO))gofmt -l .)" && \
		{ test -z "$$unformatted" || { echo "gofmt -l: $$unformatted" >&2; exit 1; }; }
	cd $(KAFKA_GO) && $(GO_ENV) $(GO) vet ./...
	fingerprint=$(KAFKA_FINGERPRINT); cd $(KAFKA_GO) && FBE_KAFKA_FINGERPRINT=$$fingerprint $(KAFKA_ACCEPT_ENV) \
		$(KAFKA_RUN) env $(GO_ENV) $(GO) test -count=1 -json ./... | $(PYTHON) $(CURDIR)/tests/kafka/go_summary.py kafka-go

# The cross-language matrix (tests/kafka/test_matrix.py): a language's client command in
# FBE_KAFKA_CLIENT_<LANGUAGE>, its build a prerequisite. The Java client's JVM compiles with C1 alone and
# the serial collector: a short process, about a third less CPU at start.
KAFKA_CLIENTS = FBE_KAFKA_CLIENT_JAVA="java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp $$(cat $(CURDIR)/build/kafka/java-classpath):$(CURDIR)/runtime/kafka/java/target/test-classes:$(CURDIR)/runtime/kafka/java/target/classes io.github.fbetoolkit.kafka.MatrixClient" \
	FBE_KAFKA_CLIENT_GO=$(CURDIR)/build/kafka/go-client
kafka-matrix: kafka-java-build kafka-go-build $(KAFKA_BROKER_JARS)/.copied
	fingerprint=$(KAFKA_FINGERPRINT); FBE_KAFKA_FINGERPRINT=$$fingerprint $(KAFKA_CLIENTS) \
		$(KAFKA_RUN) $(PYTHON) -m pytest -q -p no:cacheprovider tests/kafka/test_matrix.py
