// Tokenises files with the FBE TextMate grammar, exactly as VS Code does
// (vscode-textmate + vscode-oniguruma), and prints the tokens as JSON:
//   NODE_PATH=<folder with node_modules> node tokenize.js GRAMMAR FILE...
// Output: {"FILE": [[line, start, end, text, [scopes...]], ...], ...}
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  const wasmPath = path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm");
  await oniguruma.loadWASM(fs.readFileSync(wasmPath).buffer);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.fbe") return null;
      const text = fs.readFileSync(grammarPath, "utf8");
      return vsctm.parseRawGrammar(text, grammarPath);
    },
  });
  const grammar = await registry.loadGrammar("source.fbe");
  const out = {};
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split(/\r?\n/);
    let state = vsctm.INITIAL;
    const tokens = [];
    lines.forEach((line, i) => {
      const r = grammar.tokenizeLine(line, state);
      for (const t of r.tokens) {
        tokens.push([i + 1, t.startIndex, t.endIndex, line.substring(t.startIndex, t.endIndex), t.scopes]);
      }
      state = r.ruleStack;
    });
    out[file] = tokens;
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
