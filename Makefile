# The project's make targets (`make help` lists every one):
#
#   make test          every test suite, fast ones first and the heavy ones last,
#                      in two lanes side by side (TEST_LANES=1: one after the other);
#                      goes on after a failing suite and closes with one line,
#                      `make test: N passed, N failed, N skipped` (logs: build/test-results/)
#   make check         the fast lane: compiler, golden output and Python suites;
#                      installs the project venv, and g++ with RapidJSON for the
#                      C++ generator's compile tests
#   make bench         the main job: the benchmark table on the trade model
#                      (results under build/bench; `make bench-publish` updates the README)
#   make venv          the project venv alone (build/venv)
#   make help          this list
#
# Python: every tool runs in the project's virtual environment VENV
# (build/venv), made by tools/venv.sh from PYTHON (any Python 3.10 or newer,
# Debian's /usr/bin/python3 included) and filled from tools/requirements/*.txt.
# Nothing is ever installed into PYTHON itself.
#
# Knobs: PYTHON (interpreter the venv is made from), VENV, SHARED (the
# original's reference material, ../shared), JOBS (parallel build jobs),
# PYTEST_WORKERS (pytest-xdist workers of the big Python suites; default JOBS).
# Per-part targets live in mk/*.mk; each adds its suites to TEST_TARGETS and
# its fast Python suites to CHECK_TARGETS.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
MAKEFLAGS += --no-print-directory
PYTHON ?= python3
VENV ?= build/venv
SHARED ?= $(abspath ../shared)
JOBS ?= $(shell nproc)
PYTEST_WORKERS ?= $(JOBS)
export SHARED

# Recipes run Python as $(PYTHON), the venv's interpreter; VENV_FROM is the
# interpreter the venv is made from (PYTHON as given).
VENV_FROM := $(PYTHON)
override PYTHON := $(abspath $(VENV))/bin/python

TEST_TARGETS :=
CHECK_TARGETS :=
BENCH_TARGETS :=

.PHONY: all test check bench help venv venv-chart venv-bench-python venv-fuzz deps-python
all: test

# The venv with the test tools; the other venv-* targets add the packages only
# the benchmarks (chart: matplotlib; bench-python: the Python peers) or the
# fuzzers need, when those targets run.
venv:
	@tools/venv.sh $(VENV_FROM) $(VENV) test
venv-chart:
	@tools/venv.sh $(VENV_FROM) $(VENV) test chart
venv-bench-python:
	@tools/venv.sh $(VENV_FROM) $(VENV) test bench-python
venv-fuzz:
	@tools/venv.sh $(VENV_FROM) $(VENV) test fuzz
deps-python: venv

include $(sort $(wildcard mk/*.mk))

# Suite order of make test: the fast suites first, the ones that build much
# C++ or install the benchmark peers last, test-bench last of all; any other
# suite runs in between.
TEST_ORDER_FIRST := test-project test-compiler test-golden test-python test-tools
TEST_ORDER_LAST := test-conformance test-cpp test-cpp-proto test-fuzz test-bench
TEST_SUITES = $(filter $(TEST_TARGETS),$(TEST_ORDER_FIRST)) \
	$(filter-out $(TEST_ORDER_FIRST) $(TEST_ORDER_LAST),$(TEST_TARGETS)) \
	$(filter $(TEST_TARGETS),$(TEST_ORDER_LAST))
CHECK_SUITES = $(filter $(TEST_TARGETS),test-project test-compiler test-golden) \
	$(filter-out test-project test-compiler test-golden,$(CHECK_TARGETS))

# With TEST_LANES=2 (the default on two cores or more) make test runs the suites
# after test-golden in two lanes side by side: the suites that share runtime/js's
# node_modules and dist/ (js-runtime rebuilds dist/), Maven's repository and the Java runtime's build (under
# build/java-runtime; test-kafka installs runtime/java) one after the other in one
# lane, every other suite in the other (each builds in folders of its own, and
# Go's build cache is safe to share).
# The first suites make the venv every other suite reads. TEST_LANES=1 runs every
# suite one after the other, its output shown as it comes.
TEST_LANES ?= $(if $(filter 1,$(JOBS)),1,2)
TEST_SERIAL = $(filter $(TEST_TARGETS),test-project test-compiler test-golden)
TEST_LANE_JVM_JS = $(filter $(TEST_SUITES),test-java test-kotlin test-kafka test-js test-packages test-conformance)
TEST_LANE_OTHERS = $(filter-out $(TEST_SERIAL) $(TEST_LANE_JVM_JS),$(TEST_SUITES))

test:
ifeq ($(TEST_LANES),1)
	@$(VENV_FROM) tools/run_suites.py --label "make test" --logs build/test-results --make "$(MAKE)" $(TEST_SUITES)
else
	@$(VENV_FROM) tools/run_suites.py --label "make test" --logs build/test-results --make "$(MAKE)" $(TEST_SERIAL) \
		--lane "$(TEST_LANE_OTHERS)" --lane "$(TEST_LANE_JVM_JS)"
endif

check:
	@$(VENV_FROM) tools/run_suites.py --label "make check" --logs build/check-results --make "$(MAKE)" $(CHECK_SUITES)

bench: $(BENCH_TARGETS)

# The `make <target>  text` lines of the header comments of this Makefile and
# of every mk/*.mk (with their indented continuation lines).
help:
	@for f in Makefile $(sort $(wildcard mk/*.mk)); do \
		awk '!/^#/ { exit } /^#   make [a-z]/ { keep = 1 } !/^#   make / && !/^#     / { keep = 0 } \
			keep { sub(/^#   /, "  "); print }' $$f; done
	@echo
	@echo "make test runs: $(strip $(TEST_SUITES))"
	@echo "make check runs: $(strip $(CHECK_SUITES))"
