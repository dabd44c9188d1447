# Cross-language conformance (issue 7): the runner feeds every testee the
# golden vectors, malformed inputs and the cross matrix; tests/conformance
# sends hypothesis-generated values through every testee.
#
#   make conformance         build the testees, run the runner and the generated cases
#   make conformance-build   build the C++ testee only (build/conformance/cpp_testee)
#   make conformance-build-go  build the Go testee (build/conformance/go/go_testee; mk/go.mk's GO)
#   make conformance-build-java  build the Java testee (build/conformance/java/java_testee; JDK 17 and Maven)
#   make conformance-build-js  build the JavaScript/TypeScript testee (build/conformance/js/js_testee; mk/js.mk)
#   make conformance-build-kotlin  build the Kotlin testee (build/conformance/kotlin/kotlin_testee; JDK 17 and Maven)
#   make conformance-build-rust  build the Rust testee (build/conformance/rust/rust_testee; mk/rust.mk's CARGO)
#   make conformance-build-csharp  build the C# testee (build/conformance/csharp/csharp_testee; Mono, mk/csharp.mk)
#   make conformance-build-ruby  build the Ruby testee (build/conformance/ruby/ruby_testee; Debian's ruby, mk/ruby.mk)
#   make agreement N=100000 [SEED=7]  N mutated and amplified binary roots through every built testee
#                      (conformance/agreement.py): the accept/refuse table per testee and every
#                      disagreement (make conformance runs a few hundred: tests/conformance/test_agreement.py)
.PHONY: conformance conformance-build conformance-build-go conformance-build-java conformance-build-js test-conformance
.PHONY: conformance-build-kotlin conformance-build-rust conformance-build-csharp conformance-build-ruby agreement
N ?= 100000
SEED ?= 7
TEST_TARGETS += test-conformance
CONFORMANCE_BUILD ?= build/conformance/testee

conformance-build: deps-cpp
	@tools/need-apt.sh rapidjson-dev
	cmake -S conformance/testees/cpp -B $(CONFORMANCE_BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(CONFORMANCE_BUILD) -j$(JOBS)

conformance-build-go: venv
	GO="$(GO)" $(PYTHON) conformance/testees/go/build.py build/conformance/go

conformance-build-java: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	$(PYTHON) conformance/testees/java/build.py build/conformance/java

conformance-build-js: venv js-runtime
	NODE="$(NODE)" $(PYTHON) conformance/testees/js/build.py build/conformance/js

conformance-build-kotlin: venv
	@tools/need-apt.sh openjdk-17-jdk-headless maven
	$(PYTHON) conformance/testees/kotlin/build.py build/conformance/kotlin

conformance-build-rust: venv rust-toolchain
	CARGO="$(CARGO)" $(PYTHON) conformance/testees/rust/build.py build/conformance/rust

conformance-build-csharp: venv csharp-toolchain
	$(PYTHON) tests/csharp/build.py --testee build/conformance/csharp

conformance-build-ruby: venv ruby-toolchain
	$(PYTHON) conformance/testees/ruby/build.py build/conformance/ruby

conformance: venv conformance-build conformance-build-go conformance-build-java conformance-build-js \
		conformance-build-kotlin conformance-build-rust conformance-build-csharp conformance-build-ruby
	$(PYTHON) conformance/runner.py
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/conformance

conformance: python-native  # the testee python-native: the generated classes through their native core

test-conformance: conformance

agreement: venv
	nice $(PYTHON) conformance/agreement.py -n $(N) --seed $(SEED)
