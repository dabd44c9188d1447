# FBE over Apache Kafka (docs/kafka.md, issue 29): the Java Serializer/Deserializer/Serde
# (runtime/kafka/java, the Maven artifact io.github.fbetoolkit:fbe-kafka) tested against a real
# single-node broker in KRaft mode that the JUnit tests start on 127.0.0.1 and stop.
#
#   make test-kafka   copy the broker's jars (org.apache.kafka:kafka_2.13 and its dependencies, from
#                     Maven Central, pinned by tests/kafka/broker/pom.xml) into build/kafka/broker,
#                     install runtime/java into ~/.m2, generate fbec --java --final of
#                     schemas/trade.fbe into build/kafka/java-gen and run the module's JUnit tests
#                     with that schema's fingerprint (fbec fingerprint); closes with
#                     `kafka-java: N passed, N failed, N skipped` (tests/kafka/surefire_summary.py)
.PHONY: test-kafka
TEST_TARGETS += test-kafka
KAFKA_BROKER_JARS := $(CURDIR)/build/kafka/broker
KAFKA_JAVA_GEN := $(CURDIR)/build/kafka/java-gen

test-kafka: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	@rm -rf $(KAFKA_BROKER_JARS) $(KAFKA_JAVA_GEN)
	@echo "test-kafka: the broker's jars (mvn dependency:copy-dependencies) into $(KAFKA_BROKER_JARS)"
	@cd tests/kafka/broker && $(MVN) -q -B -Dstyle.color=never dependency:copy-dependencies \
		-DoutputDirectory=$(KAFKA_BROKER_JARS)
	cd runtime/java && $(MVN) -q -B -Dstyle.color=never install -Dmaven.test.skip=true
	PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --input=schemas/trade.fbe --output=$(KAFKA_JAVA_GEN)
	@rm -rf runtime/kafka/java/target/surefire-reports
	fingerprint=$$(PYTHONPATH=compiler $(PYTHON) -m fbec fingerprint schemas/trade.fbe | sed -n 's/^proto [^ ]* //p'); \
	rc=0; (cd runtime/kafka/java && $(MVN) -q -B -Dstyle.color=never test -Dfbe.fingerprint=$$fingerprint \
		-Dfbe.generated=$(KAFKA_JAVA_GEN) -Dfbe.kafka.broker.jars=$(KAFKA_BROKER_JARS)) || rc=$$?; \
	$(PYTHON) tests/kafka/surefire_summary.py kafka-java runtime/kafka/java; exit $$rc
