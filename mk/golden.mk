# Golden generated output: tests/golden/<target>/<schema>/ holds what fbec writes for every
# target and schema (tests/golden/README.md). test-golden regenerates and compares;
# update-golden rewrites them after an intended change of generated code.
#
#   make test-golden   regenerate every target's output and compare with tests/golden
#   make update-golden rewrite tests/golden after an intended change of generated code
.PHONY: test-golden update-golden
TEST_TARGETS += test-golden

test-golden: deps-python
	$(PYTHON) -m pytest -q tests/golden

update-golden: venv
	$(PYTHON) tests/golden/golden.py --update
