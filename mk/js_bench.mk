# The JavaScript benchmark (bench/js, docs/benchmarks.md "JavaScript"): our generated code
# (fbec --typescript) against protobufjs (static code), avsc, msgpackr (records), FlatBuffers
# and JSON.stringify/parse, in one node process with tinybench.
#
#   make bench-js        (make bench runs it) generate every row's code into build/bench-js,
#                        check every row's round trip, time every row with tinybench
#                        (BENCH_JS_ROUNDS rounds of BENCH_JS_TIME ms per task, process CPU
#                        time; BENCH_JS_ARGS=--clock=wall for the wall clock), print the
#                        table with the goals (bench/js/report.py), write
#                        build/bench-js/{run,js}.json and js.md (make bench-publish copies them)
#   make bench-js-check  only the generation, every row's check and the report's tests (make
#                        test-js runs it)
#
# bench/js (package.json, package-lock.json: the peers, tinybench and protobufjs-cli) is copied
# to build/bench-js, installed there with npm ci and built with the runtime's tsc alongside the
# generated code (fbec, pbjs/pbts, flatc from Debian): the checkout stays untouched.
.PHONY: bench-js bench-js-check bench-js-deps bench-publish-js
BENCH_TARGETS += bench-js
test-js: bench-js-check

BENCH_JS_DIR := build/bench-js
BENCH_JS_ROUNDS ?= 5
BENCH_JS_TIME ?= 400
BENCH_JS_FILTER ?= .
BENCH_JS_ARGS ?=
BENCH_JS_SCHEMAS := bench/cpp/schemas

# npm ci only when the lock changed since the last install (node_modules stays otherwise).
$(BENCH_JS_DIR)/node_modules/.installed: bench/js/package.json bench/js/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "bench-js: no npm command (set NPM)" >&2; exit 1; }
	@mkdir -p $(BENCH_JS_DIR)
	@cp bench/js/package.json bench/js/package-lock.json $(BENCH_JS_DIR)/
	cd $(BENCH_JS_DIR) && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

bench-js-deps: $(BENCH_JS_DIR)/node_modules/.installed

bench-js-check: venv js-runtime bench-js-deps
	@tools/need-apt.sh flatbuffers-compiler
	@rm -rf $(BENCH_JS_DIR)/gen $(BENCH_JS_DIR)/src $(BENCH_JS_DIR)/out && mkdir -p $(BENCH_JS_DIR)/gen
	@cp -r bench/js/tsconfig.json bench/js/src $(BENCH_JS_DIR)/
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --typescript --final --json --input=schemas/trade.fbe \
		--output=$(BENCH_JS_DIR)/gen
	@cd $(BENCH_JS_DIR) && ./node_modules/.bin/pbjs -t static-module -w es6 --dependency protobufjs/minimal.js \
		--no-verify --no-convert --no-delimited --no-service -o gen/pb.js $(abspath $(BENCH_JS_SCHEMAS))/trade.proto \
		&& ./node_modules/.bin/pbts -o gen/pb.d.ts gen/pb.js
	@flatc --ts --ts-flat-files -o $(BENCH_JS_DIR)/gen $(BENCH_JS_SCHEMAS)/trade.fbs
	@mkdir -p $(BENCH_JS_DIR)/node_modules/@fbe-toolkit
	@ln -sfn $(CURDIR)/runtime/js $(BENCH_JS_DIR)/node_modules/@fbe-toolkit/fbe
	runtime/js/node_modules/.bin/tsc -p $(BENCH_JS_DIR)/tsconfig.json
	@cp $(BENCH_JS_DIR)/gen/pb.js $(BENCH_JS_DIR)/out/gen/
	cd $(BENCH_JS_DIR) && $(NODE) out/src/main.js --check
	@$(PYTHON) -m pytest -q -p no:cacheprovider bench/js/test_report.py

bench-js: bench-js-check
	cd $(BENCH_JS_DIR) && $(NODE) out/src/main.js --rounds $(BENCH_JS_ROUNDS) --time $(BENCH_JS_TIME) --filter '$(BENCH_JS_FILTER)' \
		$(BENCH_JS_ARGS) --out run.json
	@$(PYTHON) bench/js/report.py --run $(BENCH_JS_DIR)/run.json --results $(BENCH_JS_DIR)

# make bench-publish (mk/bench.mk) runs this first: the last make bench-js run's table into
# bench/results/js.{json,md} and docs/benchmarks.md's JavaScript part.
bench-publish-js: venv
	@if [ -f $(BENCH_JS_DIR)/js.json ]; then \
		$(PYTHON) bench/js/report.py --result $(BENCH_JS_DIR)/js.json --out bench/results --readme docs/benchmarks.md >/dev/null \
		&& echo "bench-publish: the JavaScript table into bench/results/js.{json,md} and docs/benchmarks.md"; \
	else echo "bench-publish: no JavaScript run in $(BENCH_JS_DIR) (make bench-js): the JavaScript table is left as it is"; fi
