# fbec tools: decode/encode, compat, format and the editor grammar (docs/tools.md).
#
#   make test-tools    the tools' tests (tests/tools), the editor grammar tokenising every
#                      schema with vscode-textmate (npm packages in build/textmate)
#   make test-tools-py the same without installing the npm packages (make check)
#
# The npm packages vscode-textmate + vscode-oniguruma are installed into
# build/textmate, never committed; without npm only the grammar's Python check runs.
.PHONY: test-tools test-tools-py textmate-deps
TEST_TARGETS += test-tools
CHECK_TARGETS += test-tools-py
TEXTMATE_DIR := build/textmate

textmate-deps:
	@if command -v npm >/dev/null 2>&1; then \
	  if [ ! -d $(TEXTMATE_DIR)/node_modules/vscode-textmate ] || [ ! -d $(TEXTMATE_DIR)/node_modules/vscode-oniguruma ]; then \
	    echo "installing npm packages vscode-textmate vscode-oniguruma into $(TEXTMATE_DIR)"; \
	    mkdir -p $(TEXTMATE_DIR); \
	    npm install --prefix $(TEXTMATE_DIR) --no-audit --no-fund --silent vscode-textmate@9 vscode-oniguruma@2 \
	      || echo "warning: npm install failed: the grammar is only checked by its Python test"; \
	  fi; \
	else echo "npm not found: the grammar is only checked by its Python test"; fi

TOOLS_PYTEST = $(PYTHON) -m pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) tests/tools

test-tools: textmate-deps venv
	$(TOOLS_PYTEST)

test-tools-py: venv
	$(TOOLS_PYTEST)
