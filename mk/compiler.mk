# The schema compiler fbec (pure Python).
#
#   make test-compiler  the compiler's tests (tests/compiler: lexer, parser, resolution,
#                      diagnostics, command line, the target toolkit, and ruff + mypy --strict
#                      over compiler/ and runtime/python)
#   make lint          only ruff check and mypy --strict over compiler/ and runtime/python
.PHONY: test-compiler lint
TEST_TARGETS += test-compiler
CHECK_TARGETS += test-compiler

test-compiler: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/compiler

lint: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/compiler/test_lint.py
