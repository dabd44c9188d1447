# Python: the runtime package fbe (runtime/python/fbe) and the fbec --python target.
#
#   make test-python   the runtime and generated-code tests (tests/python; mypy --strict
#                      and ruff over the generated modules)
#   make test-python-oldest  the same under the oldest Python supported (3.10)
.PHONY: test-python
TEST_TARGETS += test-python
CHECK_TARGETS += test-python

test-python: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/python

# The oldest Python the package supports (pyproject.toml's requires-python) runs the same suite:
# nothing else would notice a newer API creeping into fbec, the runtime or the generated code.
# PYTHON_OLDEST: pyenv's newest 3.10, else python3.10 on PATH (a pyenv shim there may not run);
# its own venv (build/venv-oldest).
#
#   make test-python-oldest   tests/python under Python 3.10
.PHONY: test-python-oldest
TEST_TARGETS += test-python-oldest
PYTHON_OLDEST ?= $(or $(lastword $(sort $(wildcard $(or $(PYENV_ROOT),$(HOME)/.pyenv)/versions/3.10.*/bin/python3.10))),\
	$(shell command -v python3.10 2>/dev/null))
test-python-oldest:
	@[ -n "$(PYTHON_OLDEST)" ] || { echo "error: no Python 3.10 (the oldest supported): put python3.10 on PATH," \
		"pyenv install 3.10, or set PYTHON_OLDEST" >&2; exit 1; }
	@tools/venv.sh "$(PYTHON_OLDEST)" build/venv-oldest test
	build/venv-oldest/bin/python -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/python

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
