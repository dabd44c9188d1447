# The project's own machinery: make's test runner, the venv on a stock Python.
#
#   make test-project  the project's own checks (tests/project): the closing line of
#                      make test (tools/run_suites.py), every link of the README and docs/
#   make test-stock-python  the make check suites in a venv of STOCK_PYTHON
#                      (/usr/bin/python3: Debian's, PEP 668 in force) with the pyenv
#                      interpreters removed from PATH: nothing is needed from the
#                      machine's Python but Python itself
.PHONY: test-project test-stock-python
TEST_TARGETS += test-project test-stock-python
CHECK_TARGETS += test-project

STOCK_PYTHON ?= /usr/bin/python3
STOCK_VENV ?= build/venv-stock
PATH_WITHOUT_PYENV := $(shell printf '%s' "$$PATH" | tr : '\n' | grep -v '/\.pyenv/' | paste -sd:)

test-project: venv
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/project

test-stock-python:
	@if [ ! -x $(STOCK_PYTHON) ] && [ $(STOCK_PYTHON) = /usr/bin/python3 ]; then tools/need-apt.sh python3; fi
	@test -x $(STOCK_PYTHON) || { echo "stock-python: no interpreter at STOCK_PYTHON=$(STOCK_PYTHON)" >&2; exit 1; }
	@echo "stock-python: $(STOCK_PYTHON) ($$($(STOCK_PYTHON) -V)), venv $(STOCK_VENV), PATH without pyenv," \
		"$$(ls /usr/lib/python3*/EXTERNALLY-MANAGED >/dev/null 2>&1 && echo 'PEP 668 in force' || echo 'no PEP 668 marker')"
	@env PATH="$(PATH_WITHOUT_PYENV)" $(MAKE) -k PYTHON=$(STOCK_PYTHON) VENV=$(STOCK_VENV) $(CHECK_SUITES)
