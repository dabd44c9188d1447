# Python: the runtime package fbe (runtime/python/fbe) and the fbec --python target.
#
#   make test-python   the runtime and generated-code tests (tests/python; mypy --strict
#                      and ruff over the generated modules)
.PHONY: test-python
TEST_TARGETS += test-python
CHECK_TARGETS += test-python

test-python: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/python

# The Python TCP example (examples/python, asyncio): fbec --python --final --proto of
# examples/cpp/tcp/rpc.fbe into examples/python/gen (not checked in).
#
#   make example-python       a server on a free port of 127.0.0.1 and a client against it, both models
#   make example-python-test  (in make test) the example run, then the hostile clients of
#                             tests/tcp_examples against its server (docs/tcp-examples.md)
.PHONY: example-python example-python-gen example-python-test
TEST_TARGETS += example-python-test
EXAMPLE_PY_RUN := env PYTHONPATH=$(CURDIR)/runtime/python $(PYTHON) examples/python/tcp_example.py

example-python-gen: venv
	@rm -rf examples/python/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --python --final --proto --input=examples/cpp/tcp/rpc.fbe \
		--output=examples/python/gen

example-python: example-python-gen
	$(EXAMPLE_PY_RUN)

example-python-test: example-python-gen
	$(EXAMPLE_PY_RUN)
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "$(EXAMPLE_PY_RUN) serve" \
		--client "$(EXAMPLE_PY_RUN) connect {address}"
