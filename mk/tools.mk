# fbec tools: decode/encode, compat, format and the editor grammar (docs/tools.md).
#
#   make test-tools    the tools' tests (tests/tools), the editor grammar tokenising every
#                      schema with vscode-textmate (npm packages in build/textmate)
#   make test-tools-py the same but the grammar's tokenising (make check: it installs nothing
#                      beyond the venv, so that one test is deselected, not skipped)
#
# The npm packages vscode-textmate + vscode-oniguruma are installed into
# build/textmate, never committed; test-tools needs node and npm (NPM names the command).
.PHONY: test-tools test-tools-py textmate-deps
TEST_TARGETS += test-tools
CHECK_TARGETS += test-tools-py
TEXTMATE_DIR := build/textmate

NPM ?= npm

textmate-deps:
	@command -v $(NPM) >/dev/null || { echo "test-tools: no npm command (set NPM; Node 20 or newer)" >&2; exit 1; }
	@if [ ! -d $(TEXTMATE_DIR)/node_modules/vscode-textmate ] || [ ! -d $(TEXTMATE_DIR)/node_modules/vscode-oniguruma ]; then \
	  echo "installing npm packages vscode-textmate vscode-oniguruma into $(TEXTMATE_DIR)"; \
	  mkdir -p $(TEXTMATE_DIR); \
	  $(NPM) install --prefix $(TEXTMATE_DIR) --no-audit --no-fund --silent vscode-textmate@9 vscode-oniguruma@2; \
	fi

TOOLS_PYTEST = $(PYTHON) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/tools

test-tools: textmate-deps venv
	$(TOOLS_PYTEST)

test-tools-py: venv
	$(TOOLS_PYTEST) --deselect tests/tools/test_grammar.py::test_vscode_tokenises_every_schema
