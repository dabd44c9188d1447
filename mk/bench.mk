# C++ benchmark against every peer (bench/cpp, docs/benchmarks.md).
#
#   make bench-cpp     (make bench runs it) time every row with Google Benchmark, count
#                      instructions of the trade and graph rows with callgrind, print
#                      the Markdown tables, write build/bench/results/latest.{json,md,png}
#   make bench-publish copy that run into bench/results/ and refresh the tables and
#                      chart of docs/benchmarks.md, the Go, Java, JavaScript and Rust
#                      tables too (commit the result)
#   make bench-stable  only the callgrind instruction counts (repeatable)
#   make test-bench    build the binary and run every row's round-trip check once
#
# Knobs: BENCH_REPS (repetitions, median reported), BENCH_MIN_TIME (seconds per
# repetition), BENCH_FILTER (regex of benchmark names), STABLE_N (iterations of
# the long callgrind run), FBE_BENCH_OURS (AUTO | ON | OFF: our rows).
.PHONY: bench-deps bench-build bench-cpp bench-time bench-stable bench-report bench-publish test-bench
BENCH_TARGETS += bench-cpp
TEST_TARGETS += test-bench

BENCH_DIR := build/bench
BENCH_BIN := $(BENCH_DIR)/fbe_bench
BENCH_RESULTS := $(BENCH_DIR)/results
BENCH_PY_RESULTS := build/bench-python
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

# Long phases say what they do and, every 15 s, how far they are (bench/progress.py).
bench-build: bench-deps venv
	@mkdir -p $(BENCH_DIR)
	@echo "bench: configuring $(BENCH_DIR) (the first time it looks for every peer and fetches SBE's generator with Maven)"
	@cmake -S bench/cpp -B $(BENCH_DIR) -DCMAKE_BUILD_TYPE=Release -DFBE_BENCH_OURS=$(FBE_BENCH_OURS) \
		>$(BENCH_DIR)/configure.log 2>&1 || { cat $(BENCH_DIR)/configure.log; exit 1; }
	@sed -n 's/^-- fbe_bench: /bench: /p' $(BENCH_DIR)/configure.log
	@echo "bench: building fbe_bench (a cold build compiles every peer's code: several minutes on 2 cores)"
	@$(PYTHON) bench/progress.py "bench: build" --percent $(BENCH_DIR)/build.log --output $(BENCH_DIR)/build.log \
		-- cmake --build $(BENCH_DIR) -j$(JOBS) || { tail -60 $(BENCH_DIR)/build.log; exit 1; }

# Timing: Google Benchmark's repetitions, medians and JSON output.
define bench_time
	@n=$$($(BENCH_BIN) --benchmark_list_tests --benchmark_filter='$(BENCH_FILTER)' | wc -l); \
	echo "bench: timing $$n benchmarks, $(BENCH_REPS) repetitions of at least $(BENCH_MIN_TIME) s each"; \
	$(PYTHON) bench/progress.py "bench: timing" --total $$n --lines $(BENCH_DIR)/time.txt '_median ' \
		--output $(BENCH_DIR)/time.txt -- stdbuf -oL \
		$(BENCH_BIN) --benchmark_filter='$(BENCH_FILTER)' --benchmark_repetitions=$(BENCH_REPS) \
		--benchmark_min_time=$(BENCH_MIN_TIME) --benchmark_report_aggregates_only=true \
		--benchmark_enable_random_interleaving=true \
		--benchmark_out=$(BENCH_DIR)/time.json --benchmark_out_format=json \
		|| { cat $(BENCH_DIR)/time.txt; exit 1; }
endef

# Instructions per operation: the trade rows run once with 1 and once with
# STABLE_N iterations under callgrind (the graph rows with 1 and 3); client requests zero the counters
# before each timed loop and dump them after it: (Ir(N) - Ir(1)) / (N - 1).
define bench_stable
	@rm -rf $(BENCH_DIR)/callgrind && mkdir -p $(BENCH_DIR)/callgrind
	@n=$$($(BENCH_BIN) --stable=$(STABLE_N) --benchmark_list_tests --benchmark_filter='$(BENCH_FILTER)' | wc -l); \
	echo "bench: counting instructions under callgrind: $$n timed loops (about 50 times slower than native)"; \
	GLIBC_TUNABLES=$(BENCH_TUNABLES) $(PYTHON) bench/progress.py "bench: callgrind" --total $$n \
		--files $(BENCH_DIR)/callgrind 'cg.out.*' --output $(BENCH_DIR)/stable.txt -- \
		valgrind --tool=callgrind --quiet \
		--callgrind-out-file=$(BENCH_DIR)/callgrind/cg.out --dump-instr=no --compress-strings=no \
		$(BENCH_BIN) --stable=$(STABLE_N) --benchmark_filter='$(BENCH_FILTER)' \
		--benchmark_out=$(BENCH_DIR)/stable.json --benchmark_out_format=json \
		|| { cat $(BENCH_DIR)/stable.txt; exit 1; }
endef

define bench_report
	@echo "bench: report: the tables, $(BENCH_RESULTS)/latest.{json,md,png}"
	@$(PYTHON) bench/report.py $(1) \
		$$(test -f $(BENCH_DIR)/stable.json && echo --stable $(BENCH_DIR)/stable.json --callgrind $(BENCH_DIR)/callgrind)
endef

bench-time: bench-build
	$(bench_time)

bench-stable: bench-build venv-chart
	$(bench_stable)
	$(call bench_report,--out $(BENCH_DIR)/stable-report)

bench-report: venv-chart
	$(call bench_report,--time $(BENCH_DIR)/time.json --out $(BENCH_RESULTS)/latest --png $(BENCH_RESULTS)/latest.png)

# make bench: timing first, then callgrind (never both at once), then the report.
# The results stay under build/: the checkout changes only by make bench-publish.
bench-cpp: bench-build venv-chart
	$(bench_time)
	$(bench_stable)
	$(call bench_report,--time $(BENCH_DIR)/time.json --out $(BENCH_RESULTS)/latest --png $(BENCH_RESULTS)/latest.png)

# The run's JSON drawn again into bench/results/ (tables, JSON and chart from the
# same figures), docs/benchmarks.md's part rewritten from it, and
# make bench-python's table copied when there is one.
bench-publish: venv-chart bench-publish-go bench-publish-java bench-publish-js bench-publish-rust
	@test -f $(BENCH_RESULTS)/latest.json || { echo "bench-publish: no run in $(BENCH_RESULTS): run make bench first" >&2; exit 1; }
	@$(PYTHON) bench/report.py --result $(BENCH_RESULTS)/latest.json --out bench/results/latest \
		--png bench/results/latest.png --docs docs/benchmarks.md >/dev/null
	@if [ -f $(BENCH_PY_RESULTS)/python.json ]; then cp $(BENCH_PY_RESULTS)/python.json $(BENCH_PY_RESULTS)/python.md bench/results/; fi
	@echo "bench-publish: bench/results/ $$(test -f $(BENCH_PY_RESULTS)/python.json && echo '(with the Python table) ')docs/benchmarks.md"; \
	git status --short bench/results docs/benchmarks.md

# Smoke test for CI: every row's round trip once, no timing. Our rows are
# required here (FBE_BENCH_OURS=ON): generated code that stops compiling fails.
test-bench: FBE_BENCH_OURS = ON
test-bench: bench-build venv-chart
	$(BENCH_BIN) --check
	$(PYTHON) -m pytest -q -p no:cacheprovider bench/test_report.py
