# C++: header-only runtime (runtime/cpp), the --cpp generator, GoogleTest
# suites (tests/cpp) and the example (examples/cpp).
#
#   make test-cpp        configure + build + ctest in build/cpp (g++, Release,
#                        C++17), then the same with clang++ under
#                        AddressSanitizer + UndefinedBehaviorSanitizer in
#                        build/cpp-clang-asan (Debug, C++20): both compilers'
#                        warnings (-Werror) and both standards are checked
#   make test-cpp-fast   build/cpp only
#   make test-cpp-generator  the generator's Python unit tests (tests/cpp/test_*.py),
#                      which compile generated headers with g++ and RapidJSON
#                      (make check; installs both)
.PHONY: deps-cpp deps-cpp-generator test-cpp test-cpp-fast test-cpp-asan test-cpp-generator
TEST_TARGETS += test-cpp
CHECK_TARGETS += test-cpp-generator

CPP_BUILD ?= build/cpp
CPP_ASAN_BUILD ?= build/cpp-clang-asan
CPP_ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

deps-cpp:
	@tools/need-apt.sh cmake g++ clang libclang-rt-14-dev make python3 libgtest-dev

# $(1): build folder, $(2): build type, $(3): C++ standard, $(4): extra C++ flags, $(5): C++ compiler
define cpp_build_and_test
	cmake -S . -B $(1) -DCMAKE_CXX_COMPILER=$(5) -DCMAKE_BUILD_TYPE=$(2) -DCMAKE_CXX_STANDARD=$(3) -DCMAKE_CXX_FLAGS="$(4)" \
		-DFBE_SHARED="$(SHARED)" >/dev/null
	cmake --build $(1) -j$(JOBS)
	cd $(1) && ctest --output-on-failure -j$(JOBS)
endef

test-cpp-fast: deps-cpp
	$(call cpp_build_and_test,$(CPP_BUILD),Release,17,,g++)

test-cpp-asan: deps-cpp
	$(call cpp_build_and_test,$(CPP_ASAN_BUILD),Debug,20,$(CPP_ASAN_FLAGS),clang++)

# The generator tests compile generated headers, JSON ones included, with g++.
deps-cpp-generator:
	@tools/need-apt.sh g++ rapidjson-dev

test-cpp-generator: venv deps-cpp-generator
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/cpp

test-cpp: test-cpp-generator test-cpp-fast test-cpp-asan
