# Python benchmark on the trade model (bench/python, docs/benchmarks.md "Python").
#
#   make bench-python  install pyperf/msgspec/orjson/protobuf, generate our code
#                      (fbec --python) and trade_pb2 (protoc), time every row with
#                      pyperf, print the Markdown table, write
#                      bench/results/python.{json,md}
#
# Knob: BENCH_PY_ARGS (pyperf options; default ~40 s on 2 cores).
.PHONY: bench-python
BENCH_TARGETS += bench-python

BENCH_PY_DIR := build/bench-python
BENCH_PY_ARGS ?= --processes 3 --values 5 --warmups 1 --min-time 0.05

bench-python:
	@tools/need-apt.sh protobuf-compiler
	@tools/need-pip.sh pyperf msgspec orjson google.protobuf=protobuf
	@rm -rf $(BENCH_PY_DIR)/gen $(BENCH_PY_DIR)/pyperf.json && mkdir -p $(BENCH_PY_DIR)/gen
	@PYTHONPATH=compiler $(PYTHON) -m fbec --python --final --json --input=schemas/trade.fbe --output=$(BENCH_PY_DIR)/gen >/dev/null
	@protoc --python_out=$(BENCH_PY_DIR)/gen -Ibench/python bench/python/trade.proto
	@PYTHONPATH=$(BENCH_PY_DIR)/gen:runtime/python $(PYTHON) bench/python/bench_trade.py -q \
		$(BENCH_PY_ARGS) -o $(BENCH_PY_DIR)/pyperf.json --results bench/results
