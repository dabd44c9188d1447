# C++ benchmark against every peer (bench/cpp, docs/benchmarks.md).
#
#   make bench         (bench-cpp) time every row with Google Benchmark, count
#                      instructions of the trade rows with callgrind, print the
#                      Markdown table, write bench/results/latest.{json,md,png}
#   make bench-stable  only the callgrind instruction counts (repeatable)
#   make test-bench    build the binary and run every row's round-trip check once
#
# Knobs: BENCH_REPS (repetitions, median reported), BENCH_MIN_TIME (seconds per
# repetition), BENCH_FILTER (regex of benchmark names), STABLE_N (iterations of
# the long callgrind run), FBE_BENCH_OURS (AUTO | ON | OFF: our rows).
.PHONY: bench-deps bench-build bench-cpp bench-time bench-stable bench-report test-bench
BENCH_TARGETS += bench-cpp
TEST_TARGETS += test-bench

BENCH_DIR := build/bench
BENCH_BIN := $(BENCH_DIR)/fbe_bench
BENCH_REPS ?= 5
BENCH_MIN_TIME ?= 0.1
BENCH_FILTER ?= .
STABLE_N ?= 1001
FBE_BENCH_OURS ?= AUTO
BENCH_APT := g++ cmake make valgrind maven openjdk-17-jre-headless \
	libbenchmark-dev protobuf-compiler libprotobuf-dev capnproto libcapnp-dev \
	flatbuffers-compiler libflatbuffers-dev rapidjson-dev libcereal-dev libmsgpack-cxx-dev
# Callgrind counts a `rep movsb/stosb` as one instruction whatever its length:
# keep glibc's memcpy/memset on their vector loops so counts reflect the work.
BENCH_TUNABLES := glibc.cpu.x86_rep_movsb_threshold=1000000000:glibc.cpu.x86_rep_stosb_threshold=1000000000

bench-deps:
	@tools/need-apt.sh $(BENCH_APT)

bench-build: bench-deps
	@mkdir -p $(BENCH_DIR)
	@cmake -S bench/cpp -B $(BENCH_DIR) -DCMAKE_BUILD_TYPE=Release -DFBE_BENCH_OURS=$(FBE_BENCH_OURS) \
		>$(BENCH_DIR)/configure.log 2>&1 || { cat $(BENCH_DIR)/configure.log; exit 1; }
	@sed -n 's/^-- fbe_bench: /bench: /p' $(BENCH_DIR)/configure.log
	@cmake --build $(BENCH_DIR) -j$(JOBS) >$(BENCH_DIR)/build.log 2>&1 || { cat $(BENCH_DIR)/build.log; exit 1; }

# Timing: Google Benchmark's repetitions, medians and JSON output.
define bench_time
	$(BENCH_BIN) --benchmark_filter='$(BENCH_FILTER)' --benchmark_repetitions=$(BENCH_REPS) \
		--benchmark_min_time=$(BENCH_MIN_TIME) --benchmark_report_aggregates_only=true \
		--benchmark_enable_random_interleaving=true \
		--benchmark_out=$(BENCH_DIR)/time.json --benchmark_out_format=json >$(BENCH_DIR)/time.txt 2>&1 \
		|| { cat $(BENCH_DIR)/time.txt; exit 1; }
endef

# Instructions per operation: the trade rows run once with 1 and once with
# STABLE_N iterations under callgrind; client requests zero the counters
# before each timed loop and dump them after it: (Ir(N) - Ir(1)) / (N - 1).
define bench_stable
	@rm -rf $(BENCH_DIR)/callgrind && mkdir -p $(BENCH_DIR)/callgrind
	GLIBC_TUNABLES=$(BENCH_TUNABLES) valgrind --tool=callgrind --quiet \
		--callgrind-out-file=$(BENCH_DIR)/callgrind/cg.out --dump-instr=no --compress-strings=no \
		$(BENCH_BIN) --stable=$(STABLE_N) --benchmark_filter='$(BENCH_FILTER)' \
		--benchmark_out=$(BENCH_DIR)/stable.json --benchmark_out_format=json >$(BENCH_DIR)/stable.txt 2>&1 \
		|| { cat $(BENCH_DIR)/stable.txt; exit 1; }
endef

define bench_report
	@$(MAKE) venv-bench
	$(PYTHON) bench/report.py $(1) \
		$$(test -f $(BENCH_DIR)/stable.json && echo --stable $(BENCH_DIR)/stable.json --callgrind $(BENCH_DIR)/callgrind)
endef

bench-time: bench-build
	$(bench_time)

bench-stable: bench-build
	$(bench_stable)
	$(call bench_report,--out $(BENCH_DIR)/stable-report)

bench-report:
	$(call bench_report,--time $(BENCH_DIR)/time.json --out bench/results/latest --png bench/results/latest.png)

# make bench: timing first, then callgrind (never both at once), then the report.
bench-cpp: bench-build
	$(bench_time)
	$(bench_stable)
	$(call bench_report,--time $(BENCH_DIR)/time.json --out bench/results/latest --png bench/results/latest.png)

# Smoke test for CI: every row's round trip once, no timing. Our rows are
# required here (FBE_BENCH_OURS=ON): generated code that stops compiling fails.
test-bench: FBE_BENCH_OURS = ON
test-bench: bench-build venv
	$(BENCH_BIN) --check
	$(PYTHON) -m pytest -q -p no:cacheprovider bench/test_report.py
