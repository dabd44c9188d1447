# The native core of the Python package: runtime/python-native, a Rust extension module
# (PyO3) that reads and writes through the table every generated module holds (docs/python.md,
# "Native core").
#
#   make python-native       build the module fbe_native into build/python-native/lib
#                            (cargo build --release --locked); Python uses it when that folder
#                            is on PYTHONPATH (FBE_NATIVE=0 turns it off, FBE_NATIVE=1 requires it)
#   make test-python-native  cargo fmt --check and cargo clippy -D warnings over the crate, then
#                            tests/python_native with FBE_NATIVE=1: the differential test of the
#                            core against the generated pure-Python readers and writers
#                            (FBE_NATIVE_MUTANTS mutants per input, default 40)
#   make fuzz-python-native  (part of make fuzz) the long differential run (PY_NATIVE_FUZZ_MUTANTS
#                            mutants per input, default 2000), then the differential test once
#                            under AddressSanitizer: the core built by nightly Rust with
#                            -Zsanitizer=address (build/python-native/asan-lib), loaded into
#                            Python with gcc's ASan runtime preloaded and PYTHONMALLOC=malloc,
#                            so that ASan sees the Python objects' memory too (a read just past
#                            a generated object's memory in the core's slot access was reported
#                            as a heap-buffer-overflow when tried)
# Needs cargo (CARGO, as make test-rust) with rustfmt and clippy, and for fuzz-python-native a
# nightly toolchain (rustup's cargo +nightly) and gcc's libasan: fails when one is missing.
.PHONY: python-native test-python-native fuzz-python-native
TEST_TARGETS += test-python-native

PY_NATIVE := build/python-native
PY_NATIVE_ENV := CARGO_TARGET_DIR=$(abspath $(PY_NATIVE)/target) CARGO_TERM_COLOR=never PYO3_PYTHON=$(PYTHON)

python-native: venv
	@command -v "$(CARGO)" >/dev/null 2>&1 || { echo "python-native: no cargo command (set CARGO=/path/to/cargo; stable Rust 1.95)" >&2; exit 1; }
	cd runtime/python-native && $(PY_NATIVE_ENV) "$(CARGO)" build --release --locked --quiet
	@rm -rf $(PY_NATIVE)/lib && mkdir -p $(PY_NATIVE)/lib
	cp $(PY_NATIVE)/target/release/libfbe_native.so \
		$(PY_NATIVE)/lib/fbe_native$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

test-python-native: python-native
	cd runtime/python-native && $(PY_NATIVE_ENV) "$(CARGO)" fmt --check
	cd runtime/python-native && $(PY_NATIVE_ENV) "$(CARGO)" clippy --release --locked --quiet -- -D warnings
	FBE_NATIVE=1 PYTHONPATH=$(PY_NATIVE)/lib $(PYTHON) -m pytest -q -p no:cacheprovider tests/python_native

PY_NATIVE_FUZZ_MUTANTS ?= 2000
PY_NATIVE_ASAN_TARGET := x86_64-unknown-linux-gnu

fuzz: fuzz-python-native
fuzz-python-native: python-native
	FBE_NATIVE=1 FBE_NATIVE_MUTANTS=$(PY_NATIVE_FUZZ_MUTANTS) PYTHONPATH=$(PY_NATIVE)/lib \
		$(PYTHON) -m pytest -q -p no:cacheprovider tests/python_native -k "not no_leak"
	cd runtime/python-native && CARGO_TARGET_DIR=$(abspath $(PY_NATIVE)/asan-target) CARGO_TERM_COLOR=never \
		PYO3_PYTHON=$(PYTHON) RUSTFLAGS="-Zsanitizer=address" \
		"$(CARGO)" +nightly build --release --locked --quiet --target $(PY_NATIVE_ASAN_TARGET)
	@rm -rf $(PY_NATIVE)/asan-lib && mkdir -p $(PY_NATIVE)/asan-lib
	cp $(PY_NATIVE)/asan-target/$(PY_NATIVE_ASAN_TARGET)/release/libfbe_native.so \
		$(PY_NATIVE)/asan-lib/fbe_native$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	@asan=$$(gcc -print-file-name=libasan.so); [ -f "$$asan" ] || { echo "fuzz-python-native: no libasan.so (gcc)" >&2; exit 1; }; \
		echo "fuzz-python-native: tests/python_native under AddressSanitizer ($$asan)"; \
		LD_PRELOAD=$$asan ASAN_OPTIONS=detect_leaks=0 PYTHONMALLOC=malloc FBE_NATIVE=1 PYTHONPATH=$(PY_NATIVE)/asan-lib \
		$(PYTHON) -m pytest -q -s -p no:cacheprovider tests/python_native -k "not no_leak"  # -s: ASan's report on stderr
