# Rust: the runtime crate fbe (runtime/rust, docs/rust.md).
#
#   make test-rust     the crate's checks: cargo fmt --check, cargo clippy --all-targets
#                      -D warnings (also with the feature serde) and cargo test (unit tests, the golden vectors of
#                      $(SHARED) when present, doc tests) and cargo doc -D warnings, with
#                      the committed Cargo.lock;
#                      then fbec --rust's output for every schema through the same three
#                      (tests/rust: a crate in build/rust-gen, the golden vectors read and
#                      written back byte for byte, the protocol streams and the client);
#                      the build helper crate fbe-build (runtime/rust-build) through fmt,
#                      clippy and its tests (tests/package builds a user crate with it);
#                      then the fuzz targets of the readers for RUST_FUZZ_QUICK seconds each (fuzz-rust-quick, below)
#   make example-rust  the TCP example (examples/rust): a tokio server on a free port and a
#                      client against it, in one process
#   make example-rust-test  (in make test) the example through fmt and clippy -D warnings, run in
#                      both models, then the hostile clients of tests/tcp_examples against its
#                      server with its own client, the Python example's client against its
#                      server and its client against the Python example's server
# CARGO is the cargo command (default: cargo on PATH, else ~/.cargo/bin/cargo); its rustfmt
# and clippy components must be installed. The crates of Cargo.lock are fetched from crates.io
# once (cargo fetch --locked) and then built offline; the build goes to build/rust.
.PHONY: test-rust rust-toolchain example-rust example-rust-test
TEST_TARGETS += test-rust example-rust-test

CARGO ?= $(or $(shell command -v cargo 2>/dev/null),$(wildcard $(HOME)/.cargo/bin/cargo),cargo)
RUST_ENV := CARGO_TARGET_DIR=$(abspath build/rust) CARGO_TERM_COLOR=never
RUST_RUNTIME := runtime/rust

rust-toolchain:
	@command -v "$(CARGO)" >/dev/null 2>&1 || { echo "test-rust: no cargo command (set CARGO=/path/to/cargo; stable Rust 1.95 with rustfmt and clippy)" >&2; exit 1; }
	@"$(CARGO)" fmt --version >/dev/null 2>&1 || { echo "test-rust: cargo fmt is missing (the rustfmt component of $$($(CARGO) --version))" >&2; exit 1; }
	@"$(CARGO)" clippy --version >/dev/null 2>&1 || { echo "test-rust: cargo clippy is missing (the clippy component of $$($(CARGO) --version))" >&2; exit 1; }
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" fetch --locked

test-rust: venv rust-toolchain
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" fmt --check
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" clippy --offline --locked --all-targets -- -D warnings
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" clippy --offline --locked --all-targets --features serde -- -D warnings
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" test --offline --locked
	cd $(RUST_RUNTIME) && $(RUST_ENV) RUSTDOCFLAGS="-D warnings" "$(CARGO)" doc --offline --locked --no-deps --quiet
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" fmt --check
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" clippy --offline --locked --all-targets -- -D warnings
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" test --offline --locked
	CARGO="$(CARGO)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/rust bench/rust/test_report.py
	@$(MAKE) --no-print-directory fuzz-rust-quick

EXAMPLE_RUST := $(abspath build/rust)/debug/tcp

example-rust: rust-toolchain
	cd examples/rust && $(RUST_ENV) "$(CARGO)" run --locked --quiet

example-rust-test: rust-toolchain example-python-gen
	cd examples/rust && $(RUST_ENV) "$(CARGO)" fetch --locked
	cd examples/rust && $(RUST_ENV) "$(CARGO)" fmt --check
	cd examples/rust && $(RUST_ENV) "$(CARGO)" clippy --offline --locked --all-targets -- -D warnings
	cd examples/rust && $(RUST_ENV) "$(CARGO)" build --offline --locked
	$(EXAMPLE_RUST) && $(EXAMPLE_RUST) --final
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "$(EXAMPLE_RUST) serve" \
		--client "$(EXAMPLE_RUST) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_RUST) serve" \
		--client "$(EXAMPLE_PY_RUN) connect {address}"
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples -m client --server "$(EXAMPLE_PY_RUN) serve" \
		--client "$(EXAMPLE_RUST) connect {address}"

# Fuzzing the Rust readers (fuzz/rust, docs/rust.md): libFuzzer through the libfuzzer-sys crate,
# built by the stable toolchain with libFuzzer's coverage instrumentation (fuzz/rust/build.py
# --rustflags; no sanitizer: -Zsanitizer is a nightly flag, and the crates fuzzed are safe Rust
# but for the runtime's one checked 16-byte store, docs/rust.md). The target `models` reads every struct of every schema in both models (verify gives the
# read's verdict and error, the heap stays within docs/limits.md 9, what reads writes and reads
# back), seeded from the golden vectors of $(SHARED) and each type's default value; `receiver`
# feeds a protocol Receiver any stream whole and in chunks (the same events, the heap bounded),
# seeded from the protocol streams of $(SHARED).
#
#   make fuzz-rust     each target for FUZZ_SECONDS (make fuzz runs it), the corpora kept in
#                      build/fuzz/corpus/rust; a finding is left in build/fuzz/crashes/rust-*
#                      and fails the run: turn it into a test (tests/rust/hostile.rs)
# make test-rust runs each for RUST_FUZZ_QUICK seconds with -seed=1 from the seeds alone
# (fuzz-rust-quick).
.PHONY: fuzz-rust fuzz-rust-build fuzz-rust-quick
RUST_FUZZ_DIR := build/fuzz/rust
RUST_FUZZ_QUICK ?= 10
RUST_FUZZ_TARGETS := models receiver json
RUST_HOST = $(shell "$(CARGO)" -vV | sed -n 's/^host: //p')

fuzz-rust-build: venv rust-toolchain
	@$(PYTHON) fuzz/rust/build.py $(RUST_FUZZ_DIR) --seeds build/fuzz/seeds/rust
	@cd $(RUST_FUZZ_DIR) && CARGO_TERM_COLOR=never "$(CARGO)" fmt --check && CARGO_TERM_COLOR=never "$(CARGO)" fetch --quiet
	cd $(RUST_FUZZ_DIR) && CARGO_TARGET_DIR=$(abspath $(RUST_FUZZ_DIR)/target) CARGO_TERM_COLOR=never \
		RUSTFLAGS="$$($(PYTHON) $(CURDIR)/fuzz/rust/build.py --rustflags)" \
		nice "$(CARGO)" build --offline --release --quiet --target $(RUST_HOST)
	@FBE_FUZZ_SEEDS=build/fuzz/seeds/rust $(RUST_FUZZ_DIR)/target/$(RUST_HOST)/release/models \
		>$(RUST_FUZZ_DIR)/seeds.log 2>&1 \
		|| { cat $(RUST_FUZZ_DIR)/seeds.log; exit 1; }
	@mkdir -p build/fuzz/crashes

# $(1): seconds per target, $(2): the folder of the corpora (libFuzzer adds to them), $(3): extra
# libFuzzer flags
define rust_fuzz_run
	@for t in $(RUST_FUZZ_TARGETS); do mkdir -p $(2)/$$t; \
		echo "fuzz-rust: $$t for $(1)s"; \
		$(RUST_FUZZ_DIR)/target/$(RUST_HOST)/release/$$t -max_total_time=$(1) $(3) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix=build/fuzz/crashes/rust-$$t- $(2)/$$t build/fuzz/seeds/rust/$$t \
			2>$(RUST_FUZZ_DIR)/$$t.log || { tail -40 $(RUST_FUZZ_DIR)/$$t.log; \
			echo "fuzz-rust: $$t FAILED, the input is in build/fuzz/crashes/rust-$$t-*" >&2; exit 1; }; \
		grep -E "DONE|stat::number_of_executed_units" $(RUST_FUZZ_DIR)/$$t.log | tail -2; done
	@echo "fuzz-rust: $(words $(RUST_FUZZ_TARGETS)) passed, 0 failed"
endef

fuzz: fuzz-rust
fuzz-rust: fuzz-rust-build
	$(call rust_fuzz_run,$(FUZZ_SECONDS),build/fuzz/corpus/rust)

# a fixed seed and a fresh corpus: the same run every time; inputs of at most 2 KiB, below the
# open finding of docs/rust.md (a final-model vector of absent optional structs of about 2.6 KB
# and more grows the heap beyond docs/limits.md 9), which make fuzz-rust is free to find
fuzz-rust-quick: fuzz-rust-build
	@rm -rf $(RUST_FUZZ_DIR)/corpus-quick
	$(call rust_fuzz_run,$(RUST_FUZZ_QUICK),$(RUST_FUZZ_DIR)/corpus-quick,-seed=1 -max_len=2048)
