# Java: the runtime (runtime/java, the Maven artifact io.github.fbetoolkit:fbe-runtime) and
# the fbec --java target (docs/java.md).
#
#   make test-java     the runtime's JUnit 5 tests (mvn test, javac -Xlint:all -Werror) and
#                      fbec --java's output for every schema compiled with javac -Xlint:all
#                      -Werror (tests/java), the JUnit 5 tests of the generated code
#                      (tests/java/junit_java.py: the golden vectors of $(SHARED), the protocol,
#                      the duplicate-key rule...), then JAVA_FUZZ_QUICK inputs of the Jazzer
#                      target (seed JAVA_FUZZ_SEED)
#   make example-java  the TCP example (examples/java, java.nio): a server on a free port of
#                      127.0.0.1 and a client against it, both models, then the hostile clients
#                      of tests/tcp_examples against its server (docs/tcp-examples.md); make
#                      test-java runs it, and bench-java-check
#   make bench-java    the JMH benchmark against protobuf-java, FlatBuffers, SBE, Kryo and
#                      Jackson (bench/java; make bench runs it; knobs further below)
#   make fuzz-java     Jazzer (coverage-guided, from Maven Central) on the generated readers and
#                      receivers (fuzz/java, seeded from the golden vectors) for FUZZ_SECONDS, its
#                      corpus kept in build/fuzz/java/corpus; make fuzz runs it. A failing input is
#                      left in build/fuzz/crashes/java-* with a Java reproducer beside it
# MVN is the mvn command; JDK 17 and Maven come from Debian (tools/need-apt.sh), the
# runtime's dependency (jackson-core) and test dependencies from Maven Central (resolved once into
# ~/.m2; tools/java_runtime.py gives the jars to what compiles the runtime with javac).
.PHONY: test-java fuzz-java fuzz-java-build example-java
TEST_TARGETS += test-java
MVN ?= mvn
JAVA_FUZZ_QUICK ?= 5000
JAVA_FUZZ_SEED ?= 1

test-java: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	cd runtime/java && $(MVN) -q -B -Dstyle.color=never test
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/java
	MVN="$(MVN)" $(PYTHON) tests/java/junit_java.py
	@$(MAKE) fuzz-java-build
	MVN="$(MVN)" $(PYTHON) fuzz/java/jazzer.py build/fuzz/java --name java --runs $(JAVA_FUZZ_QUICK) --seed $(JAVA_FUZZ_SEED)
	@$(MAKE) example-java
	@$(MAKE) bench-java-check

# fbec --java --final --proto of examples/cpp/tcp/rpc.fbe into examples/java/gen (not checked in),
# compiled with the runtime's sources and TcpExample.java into examples/java/classes
example-java: venv
	@tools/need-apt.sh openjdk-17-jdk-headless
	@rm -rf examples/java/gen examples/java/classes
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --proto --input=examples/cpp/tcp/rpc.fbe \
		--output=examples/java/gen
	@javac -Xlint:all -Werror -cp "$$($(PYTHON) tools/java_runtime.py deps)" -d examples/java/classes \
		$$(find examples/java/gen runtime/java/src/main -name '*.java') examples/java/TcpExample.java
	java -cp "examples/java/classes:$$($(PYTHON) tools/java_runtime.py deps)" TcpExample
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples \
		--server "java -cp examples/java/classes:$$($(PYTHON) tools/java_runtime.py deps) TcpExample serve" \
		--client "java -cp examples/java/classes:$$($(PYTHON) tools/java_runtime.py deps) TcpExample connect {address}"

fuzz-java-build: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	@$(PYTHON) fuzz/java/build.py build/fuzz/java

fuzz: fuzz-java
fuzz-java: fuzz-java-build
	MVN="$(MVN)" $(PYTHON) fuzz/java/jazzer.py build/fuzz/java --name java --seconds $(FUZZ_SECONDS)

# The Java benchmark (bench/java, docs/benchmarks.md "Java"): our generated Java and Kotlin code
# against protobuf-java, FlatBuffers, SBE, Kryo and Jackson on the trade model, JMH in one run.
#
#   make bench-java        (make bench runs it) generate every row's code into build/bench-java,
#                          check every row, run JMH (-prof gc) over every row that passed, and
#                          write build/bench-java/java.{json,md} with the goals (make
#                          bench-publish copies them into bench/results and docs/benchmarks.md)
#   make bench-java-check  only the generation and every row's check (make test-java runs it)
#
# Knobs: BENCH_JAVA_FORKS (1), BENCH_JAVA_WARMUPS (3 iterations of BENCH_JAVA_WARMUP_TIME, 1s),
# BENCH_JAVA_ITERATIONS (5 of BENCH_JAVA_TIME, 1s), BENCH_JAVA_ROWS (the row ids to time: all that
# pass), BENCH_JAVA_ARGS (more JMH options). The project (bench/java/pom.xml pins JMH and the
# peers) is copied to build/bench-java and built there with the generated code (fbec; protoc and
# flatc from Debian; SBE's Java codecs with sbe-all) and runtime/java's sources; then the Kotlin
# rows (bench/java/kotlin.py: fbec --kotlin --package-prefix=fbebench.kotlin and KotlinRows.kt,
# by the Kotlin compiler of tools/kotlinc) against it.
.PHONY: bench-java bench-java-check bench-publish-java
BENCH_TARGETS += bench-java
BENCH_JAVA_DIR := build/bench-java
BENCH_JAVA_FORKS ?= 1
BENCH_JAVA_WARMUPS ?= 3
BENCH_JAVA_WARMUP_TIME ?= 1s
BENCH_JAVA_ITERATIONS ?= 5
BENCH_JAVA_TIME ?= 1s
BENCH_JAVA_ROWS ?=
BENCH_JAVA_ARGS ?=
BENCH_JAVA_SRC := $(BENCH_JAVA_DIR)/src/main/java
BENCH_JAVA_CP = $(BENCH_JAVA_DIR)/target/classes:$$(cat $(BENCH_JAVA_DIR)/kotlin-classpath.txt):$$(cat $(BENCH_JAVA_DIR)/classpath.txt)

bench-java-check: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven protobuf-compiler flatbuffers-compiler
	@rm -rf $(BENCH_JAVA_DIR)/src $(BENCH_JAVA_DIR)/target $(BENCH_JAVA_DIR)/kotlin-gen $(BENCH_JAVA_DIR)/kotlin-classpath.txt \
		&& mkdir -p $(BENCH_JAVA_DIR)
	@cp -r bench/java/. $(BENCH_JAVA_DIR)/ && cp -r runtime/java/src/main/java/. $(BENCH_JAVA_SRC)/
	@echo "bench-java: resolving JMH and the peers (mvn), generating every row's code"
	@cd $(BENCH_JAVA_DIR) && $(MVN) -q -B -Dstyle.color=never dependency:build-classpath \
		-Dmdep.outputFile=classpath.txt >mvn.log 2>&1 || { cat mvn.log; exit 1; }
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --java --final --json --input=schemas/trade.fbe --output=$(BENCH_JAVA_SRC)
	@protoc --java_out=$(BENCH_JAVA_SRC) -I bench/cpp/schemas trade.proto
	@flatc --java -o $(BENCH_JAVA_SRC) bench/cpp/schemas/trade.fbs
	@java -Dsbe.target.language=Java -Dsbe.output.dir=$(BENCH_JAVA_SRC) -Dsbe.generate.ir=false \
		-Dsbe.validation.warnings.fatal=false -cp "$$(tr ':' '\n' <$(BENCH_JAVA_DIR)/classpath.txt | grep sbe-all)" \
		uk.co.real_logic.sbe.SbeTool bench/cpp/schemas/trade-sbe.xml >$(BENCH_JAVA_DIR)/sbe.log 2>&1 \
		|| { cat $(BENCH_JAVA_DIR)/sbe.log; exit 1; }
	@cd $(BENCH_JAVA_DIR) && $(MVN) -q -B -Dstyle.color=never compile >mvn.log 2>&1 \
		|| { cat mvn.log; exit 1; }
	@MVN="$(MVN)" $(PYTHON) bench/java/kotlin.py $(BENCH_JAVA_DIR)
	@rc=0; java -cp "$(BENCH_JAVA_CP)" fbebench.Check >$(BENCH_JAVA_DIR)/check.txt || rc=$$?; \
		sed -n 's/^row\t\([^\t]*\)\t[^\t]*\t\([^\t]*\)\t\([^\t]*\).*/bench-java: row \1: \2 \3/p' $(BENCH_JAVA_DIR)/check.txt; \
		exit $$rc
	@$(PYTHON) -m pytest -q -p no:cacheprovider bench/java/test_report.py

bench-java: bench-java-check
	@rows="$(BENCH_JAVA_ROWS)"; [ -n "$$rows" ] || rows=$$(sed -n 's/^ok-rows\t//p' $(BENCH_JAVA_DIR)/check.txt); \
	verify=; for v in $$(sed -n 's/^verify-rows\t//p' $(BENCH_JAVA_DIR)/check.txt | tr ',' ' '); do \
		case ",$$rows," in *",$$v,"*) verify=$${verify:+$$verify,}$$v;; esac; done; \
	echo "bench-java: JMH over $$rows (verify: $$verify), $(BENCH_JAVA_FORKS) fork(s), $(BENCH_JAVA_WARMUPS) x $(BENCH_JAVA_WARMUP_TIME) warmup, $(BENCH_JAVA_ITERATIONS) x $(BENCH_JAVA_TIME)"; \
	java -cp "$(BENCH_JAVA_CP)" org.openjdk.jmh.Main 'fbebench\.(Trade|Verify)Bench' -p row=$$rows -p verifyRow=$$verify \
		-f $(BENCH_JAVA_FORKS) -wi $(BENCH_JAVA_WARMUPS) -w $(BENCH_JAVA_WARMUP_TIME) -i $(BENCH_JAVA_ITERATIONS) \
		-r $(BENCH_JAVA_TIME) -prof gc -rf json -rff $(BENCH_JAVA_DIR)/jmh.json $(BENCH_JAVA_ARGS) >$(BENCH_JAVA_DIR)/jmh.txt 2>&1 \
		|| { tail -50 $(BENCH_JAVA_DIR)/jmh.txt; exit 1; }
	@$(PYTHON) bench/java/report.py --jmh $(BENCH_JAVA_DIR)/jmh.json --check $(BENCH_JAVA_DIR)/check.txt \
		--pom bench/java/pom.xml --results $(BENCH_JAVA_DIR) \
		--runs "JMH $(BENCH_JAVA_FORKS) fork(s), $(BENCH_JAVA_WARMUPS) x $(BENCH_JAVA_WARMUP_TIME) warmup, $(BENCH_JAVA_ITERATIONS) x $(BENCH_JAVA_TIME) measurement"

# make bench-publish (mk/bench.mk) runs this first: the last make bench-java run's table into
# bench/results/java.{json,md} and docs/benchmarks.md's Java part.
bench-publish-java: venv
	@if [ -f $(BENCH_JAVA_DIR)/java.json ]; then \
		$(PYTHON) bench/java/report.py --result $(BENCH_JAVA_DIR)/java.json --out bench/results --readme docs/benchmarks.md >/dev/null \
		&& echo "bench-publish: the Java table into bench/results/java.{json,md} and docs/benchmarks.md"; \
	else echo "bench-publish: no Java run in $(BENCH_JAVA_DIR) (make bench-java): the Java table is left as it is"; fi
