# fbec tools: decode/encode, compat, format and the editor grammar (docs/tools.md).
# The grammar test tokenises every schema with vscode-textmate + vscode-oniguruma
# (npm packages, installed into build/textmate, never committed); without npm
# only its Python check runs.
.PHONY: test-tools textmate-deps
TEST_TARGETS += test-tools
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

test-tools: textmate-deps
	@tools/need-pip.sh pytest regex
	$(PYTHON) -m pytest -q tests/tools
