# Rust: the runtime crate fbe (runtime/rust, docs/rust.md).
#
#   make test-rust     the crate's checks: cargo fmt --check, cargo clippy --all-targets
#                      -D warnings and cargo test (unit tests, the golden vectors of
#                      $(SHARED) when present, doc tests) and cargo doc -D warnings, with
#                      the committed Cargo.lock;
#                      then fbec --rust's output for every schema through the same three
#                      (tests/rust: a crate in build/rust-gen, the golden vectors read and
#                      written back byte for byte, the protocol streams and the client);
#                      the build helper crate fbe-build (runtime/rust-build) through fmt,
#                      clippy and its tests (tests/package builds a user crate with it)
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
	cd $(RUST_RUNTIME) && $(RUST_ENV) "$(CARGO)" test --offline --locked
	cd $(RUST_RUNTIME) && $(RUST_ENV) RUSTDOCFLAGS="-D warnings" "$(CARGO)" doc --offline --locked --no-deps --quiet
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" fmt --check
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" clippy --offline --locked --all-targets -- -D warnings
	cd runtime/rust-build && $(RUST_ENV) "$(CARGO)" test --offline --locked
	CARGO="$(CARGO)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/rust bench/rust/test_report.py

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
