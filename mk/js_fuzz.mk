# JavaScript/TypeScript: the fuzzers of the fbec --typescript readers and receivers (fuzz/js,
# docs/javascript.md "Fuzzing"): jsfuzz (npm, coverage-guided; fuzz/js/jsfuzz.ts) and our own
# seeded mutation fuzzer (fuzz/js/fuzz.ts), with the same checks (fuzz/js/checks.ts).
#
#   make fuzz-js   jsfuzz for FUZZ_SECONDS on the corpus kept in build/fuzz/jsfuzz/corpus, then the
#                  mutation fuzzer for FUZZ_SECONDS with a new seed, which it prints (make fuzz runs
#                  it); a failing input is left in build/fuzz/crashes/js-*
# make test-js runs JSFUZZ_QUICK inputs of jsfuzz from the seed corpus and JS_FUZZ_QUICK of the
# mutation fuzzer, with seed JS_FUZZ_SEED (fuzz-js-quick): the same inputs every run.
.PHONY: fuzz-js fuzz-js-build fuzz-js-quick jsfuzz-deps
test-js: fuzz-js-quick
fuzz: fuzz-js

JS_FUZZ_QUICK ?= 10000
JSFUZZ_QUICK ?= 3000
JS_FUZZ_SEED ?= 1
JSFUZZ_DIR := build/fuzz/jsfuzz
JS_FUZZ := cd build/fuzz/js && $(NODE) out/fuzz.js crashes=$(CURDIR)/build/fuzz/crashes vectors=$(SHARED)/vectors
# jsfuzz on a corpus folder (its first argument), with Math.random seeded by JSFUZZ_SEED
# (seed.cjs) and stopped by the target after JSFUZZ_RUNS inputs or JSFUZZ_SECONDS; a crash is
# left in build/fuzz/crashes/js-jsfuzz.bin. Without the versifier (for text protocols), which
# grew jsfuzz's own heap past 3 GB within seconds on these inputs. jsfuzz's timeout (wall clock
# per input) also runs while its worker starts, which took over its default 30 s at load 20 and was
# reported as a crash before any input ran: JSFUZZ_TIMEOUT seconds (an input takes milliseconds).
JSFUZZ_TIMEOUT ?= 300
JSFUZZ = cd $(JSFUZZ_DIR) && NODE_OPTIONS="-r ./seed.cjs" $(NODE) node_modules/jsfuzz/build/src/index.js out/jsfuzz.js \
	--versifier=false --timeout=$(JSFUZZ_TIMEOUT) --exact-artifact-path=$(CURDIR)/build/fuzz/crashes/js-jsfuzz.bin

# npm ci only when the lock changed since the last install (node_modules stays otherwise).
$(JSFUZZ_DIR)/node_modules/.installed: fuzz/js/package.json fuzz/js/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "fuzz-js: no npm command (set NPM)" >&2; exit 1; }
	@mkdir -p $(JSFUZZ_DIR)
	@cp fuzz/js/package.json fuzz/js/package-lock.json $(JSFUZZ_DIR)/
	cd $(JSFUZZ_DIR) && $(NPM) ci --no-audit --no-fund --loglevel=error
	@touch $@

jsfuzz-deps: $(JSFUZZ_DIR)/node_modules/.installed

fuzz-js-build: venv js-runtime jsfuzz-deps
	@SHARED="$(SHARED)" $(PYTHON) fuzz/js/build.py build/fuzz/js --jsfuzz $(JSFUZZ_DIR)
	@mkdir -p build/fuzz/crashes

fuzz-js-quick: fuzz-js-build
	$(JS_FUZZ) runs=$(JS_FUZZ_QUICK) seed=$(JS_FUZZ_SEED)
	@rm -rf $(JSFUZZ_DIR)/quick && $(JS_FUZZ) seeds=$(CURDIR)/$(JSFUZZ_DIR)/quick
	export JSFUZZ_RUNS=$(JSFUZZ_QUICK) JSFUZZ_SEED=$(JS_FUZZ_SEED); $(JSFUZZ) quick

fuzz-js: fuzz-js-build
	@[ -d $(JSFUZZ_DIR)/corpus ] || $(JS_FUZZ) seeds=$(CURDIR)/$(JSFUZZ_DIR)/corpus
	export JSFUZZ_SECONDS=$(FUZZ_SECONDS) JSFUZZ_SEED=$$(date +%s); echo "fuzz js: jsfuzz seed $$JSFUZZ_SEED"; $(JSFUZZ) corpus
	$(JS_FUZZ) seconds=$(FUZZ_SECONDS) seed=$$(date +%s)
