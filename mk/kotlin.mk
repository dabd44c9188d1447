# Kotlin: the fbec --kotlin target over the Java runtime (runtime/java; docs/kotlin.md).
#
#   make test-kotlin   fbec --kotlin's output for every schema compiled by the Kotlin compiler
#                      with -Werror (one JVM for every compilation, cached by content under
#                      build/kotlin) and run against the golden vectors of $(SHARED) (tests/kotlin)
# The Kotlin compiler is kotlin-compiler-embeddable from Maven Central (tools/kotlinc/pom.xml,
# resolved once into ~/.m2 and run directly by tools/kotlinc/kotlinc.py); JDK 17 and Maven come
# from Debian (tools/need-apt.sh).
.PHONY: test-kotlin
TEST_TARGETS += test-kotlin
MVN ?= mvn

test-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/kotlin
