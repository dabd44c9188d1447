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
# Needs cargo (CARGO, as make test-rust) with rustfmt and clippy: fails when it is missing.
.PHONY: python-native test-python-native
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
