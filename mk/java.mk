# Java: the runtime (runtime/java, the Maven artifact io.github.fbetoolkit:fbe-runtime) and
# the fbec --java target (docs/java.md).
#
#   make test-java     the runtime's JUnit 5 tests (mvn test, javac -Xlint:all -Werror) and
#                      fbec --java's output for every schema compiled with javac -Xlint:all
#                      -Werror and run against the golden vectors of $(SHARED) (tests/java)
# MVN is the mvn command; JDK 17 and Maven come from Debian (tools/need-apt.sh), the
# runtime's test dependencies from Maven Central (resolved once into ~/.m2).
.PHONY: test-java
TEST_TARGETS += test-java
MVN ?= mvn

test-java: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	cd runtime/java && $(MVN) -q -B test
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/java
