# The schema compiler fbec (pure Python).
#
#   make test-compiler  the compiler's tests (tests/compiler: lexer, parser, resolution,
#                      diagnostics, command line)
.PHONY: test-compiler
TEST_TARGETS += test-compiler
CHECK_TARGETS += test-compiler

test-compiler: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/compiler
