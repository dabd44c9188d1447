# JavaScript/TypeScript: the TCP example (examples/js, node:net) of fbec --typescript --proto.
#
#   make example-js       fbec --typescript --final --proto of examples/cpp/tcp/rpc.fbe into
#                         examples/js/gen (not checked in), compiled with the runtime's tsc, then a
#                         server on a free port of 127.0.0.1 and a client against it, both models
#   make example-js-test  its tests (make test-js runs them): a good client served, clients that
#                         never read their replies and split frame headers bounded; then the
#                         hostile clients of tests/tcp_examples against its server
#                         (docs/tcp-examples.md)
.PHONY: example-js example-js-build example-js-test js-browser-deps
test-js: example-js-test js-browser-deps

# tests/js/test_js_browser.py: Debian's chromium and playwright-core (locked in tests/js/browser)
js-browser-deps:
	@tools/need-apt.sh chromium
	cd tests/js/browser && $(NPM) ci --no-audit --no-fund --loglevel=error

EXAMPLE_JS := examples/js

example-js-build: venv js-runtime
	@rm -rf $(EXAMPLE_JS)/gen $(EXAMPLE_JS)/out
	@PYTHONPATH=compiler $(PYTHON) -m fbec -q --typescript --final --proto --input=examples/cpp/tcp/rpc.fbe \
		--output=$(EXAMPLE_JS)/gen
	@mkdir -p $(EXAMPLE_JS)/node_modules/@fbe-toolkit $(EXAMPLE_JS)/node_modules/@types
	@ln -sfn $(CURDIR)/runtime/js $(EXAMPLE_JS)/node_modules/@fbe-toolkit/fbe
	@ln -sfn $(CURDIR)/runtime/js/node_modules/@types/node $(EXAMPLE_JS)/node_modules/@types/node
	@ln -sfn $(CURDIR)/runtime/js/node_modules/undici-types $(EXAMPLE_JS)/node_modules/undici-types
	runtime/js/node_modules/.bin/tsc -p $(EXAMPLE_JS)/tsconfig.json

example-js: example-js-build
	cd $(EXAMPLE_JS) && $(NODE) out/src/main.js

example-js-test: example-js-build
	cd $(EXAMPLE_JS) && $(NODE) --expose-gc --test out/test/
	$(PYTHON) -m pytest -q -p no:cacheprovider tests/tcp_examples --server "$(NODE) $(EXAMPLE_JS)/out/src/main.js serve" \
		--client "$(NODE) $(EXAMPLE_JS)/out/src/main.js connect {address}"
