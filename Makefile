# make test  — every test suite (installs what it needs)
# make bench — the benchmark table on the trade model (the main job)
# Per-language targets live in mk/*.mk; each appends to TEST_TARGETS / BENCH_TARGETS.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
PYTHON ?= python3
SHARED ?= $(abspath ../shared)
JOBS ?= $(shell nproc)
export SHARED

TEST_TARGETS :=
BENCH_TARGETS :=

.PHONY: all test bench deps-python
all: test

deps-python:
	@tools/need-pip.sh pytest hypothesis

include $(sort $(wildcard mk/*.mk))

test: $(TEST_TARGETS)
	@echo "make test: all suites passed ($(TEST_TARGETS))"

bench: $(BENCH_TARGETS)
