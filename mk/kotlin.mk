# Kotlin: the fbec --kotlin target over the Java runtime (runtime/java; docs/kotlin.md).
#
#   make test-kotlin   fbec --kotlin's output for every schema compiled by the Kotlin compiler
#                      with -Werror -Wextra (one JVM for every compilation, cached by content
#                      under build/kotlin), checked by ktlint and run against the golden vectors
#                      of $(SHARED); the protocol and the TCP example (tests/kotlin)
#   make example-kotlin  the TCP example (examples/kotlin, java.nio): a server on a free port of
#                      127.0.0.1 and a client against it, both models
# The Kotlin compiler is kotlin-compiler-embeddable and ktlint is ktlint-cli, from Maven Central
# (tools/kotlinc, resolved once into ~/.m2 and run directly by tools/kotlinc/kotlinc.py); JDK 17
# and Maven come from Debian (tools/need-apt.sh).
.PHONY: test-kotlin example-kotlin
TEST_TARGETS += test-kotlin
MVN ?= mvn

test-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/kotlin

example-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" $(PYTHON) examples/kotlin/build.py
