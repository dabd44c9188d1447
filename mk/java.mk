# Java: the runtime (runtime/java, the Maven artifact io.github.fbetoolkit:fbe-runtime) and
# the fbec --java target (docs/java.md).
#
#   make test-java     the runtime's JUnit 5 tests (mvn test, javac -Xlint:all -Werror) and
#                      fbec --java's output for every schema compiled with javac -Xlint:all
#                      -Werror and run against the golden vectors of $(SHARED) (tests/java),
#                      then JAVA_FUZZ_QUICK runs of the mutation fuzzer (fixed seed)
#   make example-java  the TCP example (examples/java, java.nio): a server on a free port of
#                      127.0.0.1 and a client against it, both models (make test-java runs it)
#   make fuzz-java     the mutation fuzzer of the generated readers and receivers (fuzz/java,
#                      seeded from the golden vectors) for FUZZ_SECONDS; make fuzz runs it.
#                      A failing input is left in build/fuzz/crashes/java-*.bin
# MVN is the mvn command; JDK 17 and Maven come from Debian (tools/need-apt.sh), the
# runtime's dependency (jackson-core) and test dependencies from Maven Central (resolved once into
# ~/.m2; tools/java_runtime.py gives the jars to what compiles the runtime with javac).
.PHONY: test-java fuzz-java fuzz-java-build example-java
TEST_TARGETS += test-java
MVN ?= mvn
JAVA_FUZZ_QUICK ?= 20000
JAVA_FUZZ_SEED ?= 1

test-java: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	cd runtime/java && $(MVN) -q -B -Dstyle.color=never test
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/java
	@$(MAKE) fuzz-java-build
	java -cp "build/fuzz/java/classes:$$($(PYTHON) tools/java_runtime.py deps)" FuzzReaders build/fuzz/java/targets.txt runs=$(JAVA_FUZZ_QUICK) \
		$(JAVA_FUZZ_SEED) build/fuzz/crashes
	@$(MAKE) example-java

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

fuzz-java-build: venv
	@tools/need-apt.sh openjdk-17-jdk-headless
	@$(PYTHON) fuzz/java/build.py build/fuzz/java

fuzz: fuzz-java
fuzz-java: fuzz-java-build
	java -cp "build/fuzz/java/classes:$$($(PYTHON) tools/java_runtime.py deps)" FuzzReaders build/fuzz/java/targets.txt seconds=$(FUZZ_SECONDS) \
		$$(date +%s) build/fuzz/crashes
