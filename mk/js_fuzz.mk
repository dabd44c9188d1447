# JavaScript/TypeScript: the seeded mutation fuzzer of the fbec --typescript readers and receivers
# (fuzz/js; not coverage-guided: Jazzer.js does not run here, docs/javascript.md "Fuzzing").
#
#   make fuzz-js   the fuzzer for FUZZ_SECONDS with a new seed, which it prints (make fuzz runs it);
#                  a failing input is left in build/fuzz/crashes/js-*.bin
# make test-js runs JS_FUZZ_QUICK inputs with seed JS_FUZZ_SEED (fuzz-js-quick).
.PHONY: fuzz-js fuzz-js-build fuzz-js-quick
test-js: fuzz-js-quick
fuzz: fuzz-js

JS_FUZZ_QUICK ?= 10000
JS_FUZZ_SEED ?= 1
JS_FUZZ := cd build/fuzz/js && $(NODE) out/fuzz.js crashes=$(CURDIR)/build/fuzz/crashes vectors=$(SHARED)/vectors

fuzz-js-build: venv js-runtime
	@SHARED="$(SHARED)" $(PYTHON) fuzz/js/build.py build/fuzz/js

fuzz-js-quick: fuzz-js-build
	$(JS_FUZZ) runs=$(JS_FUZZ_QUICK) seed=$(JS_FUZZ_SEED)

fuzz-js: fuzz-js-build
	$(JS_FUZZ) seconds=$(FUZZ_SECONDS) seed=$$(date +%s)
