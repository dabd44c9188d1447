# Python: the runtime package fbe (runtime/python/fbe) and the fbec --python target.
.PHONY: test-python
TEST_TARGETS += test-python

test-python:
	@tools/need-pip.sh pytest hypothesis mypy ruff
	$(PYTHON) -m pytest -q tests/python
