# JavaScript/TypeScript: the runtime package @fbe-toolkit/fbe (runtime/js) and fbec --typescript.
#
#   make test-js       npm ci (when the lock changed) and tsc build of runtime/js, its unit tests
#                      (node --test), then fbec --typescript's output for every schema through tsc --strict and
#                      every golden vector of $(SHARED) read and written back (tests/js)
# NODE and NPM are the node and npm commands (Node 20 or newer); npm ci installs what
# runtime/js/package-lock.json locks (typescript and @types/node, to build and test; the runtime
# itself has no dependencies).
.PHONY: test-js js-runtime
TEST_TARGETS += test-js

NODE ?= node
NPM ?= npm

# npm ci only when the lock changed since the last install: a second npm ci deletes node_modules, under
# the feet of a suite running beside it (make -j, or a conformance build while tests/js runs).
runtime/js/node_modules/.installed: runtime/js/package.json runtime/js/package-lock.json
	@command -v $(NPM) >/dev/null || { echo "test-js: no npm command (set NPM)" >&2; exit 1; }
	cd runtime/js && $(NPM) ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

js-runtime: runtime/js/node_modules/.installed
	@command -v $(NODE) >/dev/null || { echo "test-js: no node command (set NODE; Node 20 or newer)" >&2; exit 1; }
	cd runtime/js && $(NODE) prepare.mjs  # dist/ from src/ (what npm's prepare script runs)

test-js: venv js-runtime
	cd runtime/js && ./node_modules/.bin/tsc -p tsconfig.test.json && $(NODE) --test build-test/test/
	NODE="$(NODE)" $(PYTHON) -m pytest -q -p no:cacheprovider tests/js
