# The schema compiler fbec (pure Python).
.PHONY: test-compiler
TEST_TARGETS += test-compiler

test-compiler: deps-python
	$(PYTHON) -m pytest -q tests/compiler
