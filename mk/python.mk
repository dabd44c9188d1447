# Python: the runtime package fbe (runtime/python/fbe) and the fbec --python target.
#
#   make test-python   the runtime and generated-code tests (tests/python; mypy --strict
#                      and ruff over the generated modules)
.PHONY: test-python
TEST_TARGETS += test-python
CHECK_TARGETS += test-python

test-python: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/python
