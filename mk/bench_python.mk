# Python benchmark on the trade model (bench/python, docs/benchmarks.md "Python").
#
#   make bench-python  install pyperf/msgspec/orjson/protobuf into the venv, generate
#                      our code (fbec --python) and trade_pb2 (protoc), build the native
#                      core (make python-native: the native core rows), time every row
#                      with pyperf, print the Markdown table, write
#                      build/bench-python/python.{json,md} (make bench-publish copies them)
#
# The rows are timed in BENCH_PY_ROUNDS rounds (each: one pyperf worker process
# per benchmark, BENCH_PY_ARGS), appended to one pyperf file: every row's values
# are spread over the whole run, so a load change does not land on one row only.
# The table reports medians over all values. Default: ~1 minute on 2 cores.
.PHONY: bench-python
BENCH_TARGETS += bench-python

BENCH_PY_DIR := build/bench-python
BENCH_PY_ROUNDS ?= 3
BENCH_PY_ARGS ?= --processes 1 --values 4 --warmups 1 --min-time 0.05

bench-python: venv-bench-python python-native
	@tools/need-apt.sh protobuf-compiler
	@rm -rf $(BENCH_PY_DIR)/gen $(BENCH_PY_DIR)/pyperf.json && mkdir -p $(BENCH_PY_DIR)/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec --python --final --json --input=schemas/trade.fbe --output=$(BENCH_PY_DIR)/gen >/dev/null
	@protoc --python_out=$(BENCH_PY_DIR)/gen -Ibench/cpp/schemas bench/cpp/schemas/trade.proto   # the C++ rows' schema
	@for i in $$(seq $(BENCH_PY_ROUNDS)); do \
		echo "bench-python: round $$i/$(BENCH_PY_ROUNDS)"; \
		PYTHONPATH=$(BENCH_PY_DIR)/gen:runtime/python:$(PY_NATIVE)/lib $(PYTHON) bench/python/bench_trade.py -q \
			$(BENCH_PY_ARGS) --append $(BENCH_PY_DIR)/pyperf.json >/dev/null; \
	done
	@PYTHONPATH=$(BENCH_PY_DIR)/gen:runtime/python:$(PY_NATIVE)/lib $(PYTHON) bench/python/bench_trade.py \
		--report $(BENCH_PY_DIR)/pyperf.json --results $(BENCH_PY_DIR) \
		--runs "pyperf: $(BENCH_PY_ROUNDS) rounds × ($(BENCH_PY_ARGS))"
