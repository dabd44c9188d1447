# C++ JSON (RapidJSON), protocol (Sender/Receiver/Proxy/Client) and the TCP
# example over asio: tests/cpp_proto and examples/cpp/tcp.
#
#   make test-cpp-proto        pytest of the generators (tests/cpp_proto/test_generators.py),
#                              then build + ctest in build/cpp_proto (Release) and
#                              build/cpp_proto-clang-asan (clang++, ASan + UBSan; UBSan
#                              ignores RapidJSON 1.1.0's own headers: fuzz/cpp/ubsan-ignore.txt),
#                              each followed by the hostile clients of tests/tcp_examples
#                              against its tcp_server (docs/tcp-examples.md)
#   make test-cpp-proto-fast   build/cpp_proto only
#   make test-cpp-proto-generators  the generators' pytest alone (make check)
#   make bench-cpp-tcp         TCP loopback benchmark: messages/s and latency percentiles
.PHONY: deps-cpp-proto test-cpp-proto test-cpp-proto-generators test-cpp-proto-fast test-cpp-proto-asan bench-cpp-tcp
TEST_TARGETS += test-cpp-proto
CHECK_TARGETS += test-cpp-proto-generators

CPP_PROTO_BUILD ?= build/cpp_proto
CPP_PROTO_ASAN_BUILD ?= build/cpp_proto-clang-asan
CPP_PROTO_ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-fsanitize-ignorelist=$(CURDIR)/fuzz/cpp/ubsan-ignore.txt

deps-cpp-proto:
	@tools/need-apt.sh cmake g++ clang libclang-rt-14-dev make python3 libgtest-dev rapidjson-dev libasio-dev

# $(1): build folder, $(2): build type, $(3): extra C++ flags, $(4): extra CMake options, $(5): C++ compiler,
# $(6): tests/tcp_examples' option for the build (--memory-bounds, or --sanitized)
define cpp_proto_build_and_test
	cmake -S tests/cpp_proto -B $(1) -DCMAKE_CXX_COMPILER=$(5) -DCMAKE_BUILD_TYPE=$(2) -DCMAKE_CXX_FLAGS="$(3)" -DFBE_SHARED="$(SHARED)" $(4) >/dev/null
	cmake --build $(1) -j$(JOBS)
	cd $(1) && ctest --output-on-failure -j$(JOBS)
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server $(1)/tcp/tcp_server \
		--client "$(1)/tcp/tcp_client --messages 200 --port {port}" $(6)
endef

test-cpp-proto-fast: deps-cpp-proto venv
	$(call cpp_proto_build_and_test,$(CPP_PROTO_BUILD),Release,,,g++,--memory-bounds)

test-cpp-proto-asan: deps-cpp-proto venv
	$(call cpp_proto_build_and_test,$(CPP_PROTO_ASAN_BUILD),Debug,$(CPP_PROTO_ASAN_FLAGS),-DFBE_PROTO_BENCH=OFF,clang++,--sanitized)

test-cpp-proto-generators: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/cpp_proto

test-cpp-proto: test-cpp-proto-generators test-cpp-proto-fast test-cpp-proto-asan

bench-cpp-tcp: deps-cpp-proto
	cmake -S tests/cpp_proto -B $(CPP_PROTO_BUILD) -DCMAKE_BUILD_TYPE=Release -DFBE_SHARED="$(SHARED)" >/dev/null
	cmake --build $(CPP_PROTO_BUILD) -j$(JOBS) --target tcp_server tcp_bench
	$(CPP_PROTO_BUILD)/tcp/tcp_bench --messages 200000
