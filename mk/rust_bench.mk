# The Rust benchmark (bench/rust, docs/benchmarks.md "Rust"): our generated code against prost,
# FlatBuffers, Cap'n Proto, bincode, rkyv (validated) and serde_json, in one criterion run.
#
#   make bench-rust        (make bench runs it) build the bench crate (its build.rs generates
#                          every row's code: fbec, protoc through prost-build, capnp through
#                          capnpc, flatc), check every row's round trip, time every row with
#                          criterion, count instructions per operation under callgrind
#                          (BENCH_RUST_STABLE_N iterations; 0: no counts), print the table with
#                          the goals of issue 25, write build/bench-rust/rust.{json,md}
#                          (make bench-publish copies them)
#   make bench-rust-check  only the build and every row's check
#   make bench-rust-stable only the callgrind instruction counts (repeatable; the table without
#                          times, build/bench-rust/stable/rust.{json,md})
#
# The crate's Cargo.lock pins every peer; after one `cargo fetch --locked` it builds offline. Its
# build goes to build/bench-rust (criterion's figures to build/bench-rust/criterion): the
# checkout stays untouched. A cold build takes several minutes on 2 cores, so make test does not
# build it; make test-rust runs bench/rust/test_report.py.
.PHONY: bench-rust bench-rust-check bench-rust-stable bench-publish-rust
BENCH_TARGETS += bench-rust
BENCH_RUST_DIR := build/bench-rust
BENCH_RUST_FILTER ?= trade
BENCH_RUST_WARMUP ?= 1
BENCH_RUST_TIME ?= 3
BENCH_RUST_STABLE_N ?= 1001
BENCH_RUST_ENV := CARGO_TARGET_DIR=$(abspath $(BENCH_RUST_DIR))/target CARGO_TERM_COLOR=never \
	FBE_PYTHON=$(PYTHON) CRITERION_HOME=$(abspath $(BENCH_RUST_DIR))/criterion

bench-rust-check: venv
	@command -v "$(CARGO)" >/dev/null 2>&1 || { echo "bench-rust: no cargo command (set CARGO=/path/to/cargo; stable Rust 1.95)" >&2; exit 1; }
	@tools/need-apt.sh protobuf-compiler flatbuffers-compiler capnproto libcapnp-dev valgrind
	@mkdir -p $(BENCH_RUST_DIR)
	@cd bench/rust && $(BENCH_RUST_ENV) "$(CARGO)" fetch --locked
	@echo "bench-rust: building the bench crate (a cold build compiles every peer: several minutes on 2 cores)"
	@cd bench/rust && $(BENCH_RUST_ENV) "$(CARGO)" bench --offline --locked --bench trade --no-run \
		--message-format=json-render-diagnostics >$(abspath $(BENCH_RUST_DIR))/build.json
	@$(PYTHON) -c 'import json, shutil, sys; shutil.copy([j["executable"] for j in map(json.loads, open(sys.argv[1])) \
		if j.get("reason") == "compiler-artifact" and j.get("executable") and j["target"]["name"] == "trade"][-1], sys.argv[2])' \
		$(BENCH_RUST_DIR)/build.json $(BENCH_RUST_DIR)/trade
	@$(BENCH_RUST_DIR)/trade --check >$(BENCH_RUST_DIR)/check.txt || { cat $(BENCH_RUST_DIR)/check.txt; exit 1; }
	@grep "^row" $(BENCH_RUST_DIR)/check.txt | sed 's/^row\t/bench-rust: /'

bench-rust: bench-rust-check
	@rm -rf $(BENCH_RUST_DIR)/criterion $(BENCH_RUST_DIR)/instr.json
	@echo "bench-rust: criterion, every row in one run ($(BENCH_RUST_WARMUP) s warm-up, $(BENCH_RUST_TIME) s of samples each)"
	@$(BENCH_RUST_ENV) $(BENCH_RUST_DIR)/trade --bench --warm-up-time $(BENCH_RUST_WARMUP) \
		--measurement-time $(BENCH_RUST_TIME) '$(BENCH_RUST_FILTER)' >$(BENCH_RUST_DIR)/criterion.txt 2>&1 \
		|| { cat $(BENCH_RUST_DIR)/criterion.txt; exit 1; }
	@if [ "$(BENCH_RUST_STABLE_N)" != 0 ]; then \
		echo "bench-rust: instructions per operation under callgrind (N = $(BENCH_RUST_STABLE_N))" && \
		$(PYTHON) bench/rust/report.py --count $(BENCH_RUST_DIR)/trade --n $(BENCH_RUST_STABLE_N) \
			--instr $(BENCH_RUST_DIR)/instr.json; fi
	@$(PYTHON) bench/rust/report.py --criterion $(BENCH_RUST_DIR)/criterion --check $(BENCH_RUST_DIR)/check.txt \
		--instr $(BENCH_RUST_DIR)/instr.json --out $(BENCH_RUST_DIR)

bench-rust-stable: bench-rust-check
	@echo "bench-rust: instructions per operation under callgrind (N = $(BENCH_RUST_STABLE_N))"
	@mkdir -p $(BENCH_RUST_DIR)/stable
	@$(PYTHON) bench/rust/report.py --count $(BENCH_RUST_DIR)/trade --n $(BENCH_RUST_STABLE_N) \
		--instr $(BENCH_RUST_DIR)/stable/instr.json
	@$(PYTHON) bench/rust/report.py --criterion $(BENCH_RUST_DIR)/stable --check $(BENCH_RUST_DIR)/check.txt \
		--instr $(BENCH_RUST_DIR)/stable/instr.json --out $(BENCH_RUST_DIR)/stable --command "make bench-rust-stable"

# make bench-publish (mk/bench.mk) runs this first: the last make bench-rust run's table into
# bench/results/rust.{json,md} and docs/benchmarks.md's Rust part.
bench-publish-rust: venv
	@if [ -f $(BENCH_RUST_DIR)/rust.json ]; then \
		$(PYTHON) bench/rust/report.py --result $(BENCH_RUST_DIR)/rust.json --out bench/results --docs docs/benchmarks.md >/dev/null \
		&& echo "bench-publish: the Rust table into bench/results/rust.{json,md} and docs/benchmarks.md"; \
	else echo "bench-publish: no Rust run in $(BENCH_RUST_DIR) (make bench-rust): the Rust table is left as it is"; fi
