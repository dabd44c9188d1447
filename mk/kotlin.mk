# Kotlin: the fbec --kotlin target over the Java runtime (runtime/java; docs/kotlin.md).
#
#   make test-kotlin   fbec --kotlin's output for every schema compiled by the Kotlin compiler
#                      with -Werror -Wextra (one JVM for every compilation, cached by content
#                      under build/kotlin), checked by ktlint, the TCP example run (tests/kotlin),
#                      the JUnit 5 tests of the generated code (tests/kotlin/junit_kotlin.py: the
#                      golden vectors of $(SHARED), the protocol, the duplicate-key rule...); and
#                      KOTLIN_FUZZ_QUICK inputs of the Jazzer target (seed KOTLIN_FUZZ_SEED)
#   make fuzz-kotlin   Jazzer (coverage-guided) on the generated Kotlin readers and receivers
#                      (fuzz/kotlin: the Java target's FuzzReaders over the Kotlin classes, seeded
#                      from the golden vectors) for FUZZ_SECONDS, its corpus kept in
#                      build/fuzz/kotlin/corpus; make fuzz runs it. A failing input is left in
#                      build/fuzz/crashes/kotlin-* with a Java reproducer beside it
#   make example-kotlin  the TCP example (examples/kotlin, java.nio): a server on a free port of
#                      127.0.0.1 and a client against it, both models, then the hostile clients
#                      of tests/tcp_examples against its server (docs/tcp-examples.md; make
#                      test-kotlin runs those too)
# The Kotlin compiler is kotlin-compiler-embeddable and ktlint is ktlint-cli, from Maven Central
# (tools/kotlinc, resolved once into ~/.m2 and run directly by tools/kotlinc/kotlinc.py); JDK 17
# and Maven come from Debian (tools/need-apt.sh).
.PHONY: test-kotlin example-kotlin fuzz-kotlin fuzz-kotlin-build
TEST_TARGETS += test-kotlin
MVN ?= mvn
KOTLIN_FUZZ_QUICK ?= 5000
KOTLIN_FUZZ_SEED ?= 1
KOTLIN_FUZZ = MVN="$(MVN)" $(PYTHON) fuzz/java/jazzer.py build/fuzz/kotlin --name kotlin
KOTLIN_TCP_HOSTILE = $(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples \
	--server "$$(MVN="$(MVN)" $(PYTHON) examples/kotlin/build.py --command serve)" \
	--client "$$(MVN="$(MVN)" $(PYTHON) examples/kotlin/build.py --command connect {address})"

test-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/kotlin
	$(KOTLIN_TCP_HOSTILE)
	MVN="$(MVN)" $(PYTHON) tests/kotlin/junit_kotlin.py
	@$(MAKE) fuzz-kotlin-build
	$(KOTLIN_FUZZ) --runs $(KOTLIN_FUZZ_QUICK) --seed $(KOTLIN_FUZZ_SEED)

example-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	MVN="$(MVN)" $(PYTHON) examples/kotlin/build.py
	$(KOTLIN_TCP_HOSTILE)

fuzz-kotlin-build: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	@MVN="$(MVN)" $(PYTHON) fuzz/kotlin/build.py build/fuzz/kotlin

fuzz: fuzz-kotlin
fuzz-kotlin: fuzz-kotlin-build
	$(KOTLIN_FUZZ) --seconds $(FUZZ_SECONDS)
