# Cross-language conformance (issue 7): the runner feeds every testee the
# golden vectors, malformed inputs and generated values.
.PHONY: conformance conformance-build test-conformance
TEST_TARGETS += test-conformance
CONFORMANCE_BUILD_TARGETS ?=

conformance-build: $(CONFORMANCE_BUILD_TARGETS)

conformance: deps-python conformance-build
	$(PYTHON) conformance/runner.py
	$(PYTHON) -m pytest -q tests/conformance

test-conformance: conformance
