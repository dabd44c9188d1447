"""The TextMate grammar for .fbe files (editors/vscode).

Two checks: (1) always: the grammar's regexes compile (with the `regex`
module, close to Oniguruma) and every keyword of the language appears in it;
(2) when node and the npm packages vscode-textmate + vscode-oniguruma are
installed (`make test-tools` puts them in build/textmate), every schema of the
project and of ../shared is tokenised exactly as VS Code does and each token
our own lexer finds gets the scope it should.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fbec.syntax.diagnostics import Diagnostics
from fbec.syntax.lexer import ATTR, CHAR, EOF, FLOAT, IDENT, INT, STRING, tokenize_with_comments
from fbec.syntax.parser import BASE_TYPES, DECLARATION_START, RESERVED, VALUE_KEYWORDS
from tools_testlib import REPO, SHARED

EDITOR = REPO / "editors" / "vscode"
GRAMMAR = EDITOR / "syntaxes" / "fbe.tmLanguage.json"
MODULES = Path(os.environ.get("FBE_TEXTMATE_MODULES", REPO / "build" / "textmate" / "node_modules"))
KEYWORDS = (set(RESERVED) | set(VALUE_KEYWORDS) | set(DECLARATION_START) | {"min", "max"} |
            {"domain", "package", "offset", "version", "import", "request", "response", "reject"})


def _patterns(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key in ("match", "begin", "end"):
            if isinstance(node.get(key), str):
                yield node[key]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_extension_manifest() -> None:
    package = json.loads((EDITOR / "package.json").read_text())
    lang = package["contributes"]["languages"][0]
    assert lang["id"] == "fbe" and ".fbe" in lang["extensions"]
    assert (EDITOR / lang["configuration"]).is_file()
    json.loads((EDITOR / lang["configuration"]).read_text())
    grammar = package["contributes"]["grammars"][0]
    assert (EDITOR / grammar["path"]).resolve() == GRAMMAR.resolve()
    assert json.loads(GRAMMAR.read_text())["scopeName"] == grammar["scopeName"] == "source.fbe"


def test_regexes_compile_and_cover_every_keyword() -> None:
    import regex  # tools/requirements/test.txt
    grammar = json.loads(GRAMMAR.read_text())
    sources = list(_patterns(grammar))
    assert len(sources) > 20
    for src in sources:
        regex.compile(src)
    text = "\n".join(sources)
    for word in sorted(KEYWORDS):
        assert regex.search(r"(?<![A-Za-z0-9_])" + word + r"(?![A-Za-z0-9_])", text), f"keyword {word} not in grammar"
    for attr in ("hidden", "deprecated", "key", "id"):
        assert attr in text


def _schemas() -> list[Path]:
    files = sorted((REPO / "schemas").rglob("*.fbe"))
    if (SHARED / "schemas").is_dir():
        files += sorted((SHARED / "schemas").glob("*.fbe"))
    return files


def _tokenise(files: list[Path]) -> dict[str, list[Any]]:
    node = shutil.which("node")
    assert node, "no node command (Node 20 or newer; make test-tools needs it for the grammar)"
    assert (MODULES / "vscode-textmate").is_dir() and (MODULES / "vscode-oniguruma").is_dir(), \
        f"vscode-textmate / vscode-oniguruma not installed in {MODULES} (make test-tools installs them)"
    env = dict(os.environ, NODE_PATH=str(MODULES))
    p = subprocess.run([node, str(EDITOR / "test" / "tokenize.js"), str(GRAMMAR), *map(str, files)],
                       capture_output=True, env=env, timeout=120, check=False)
    assert p.returncode == 0, p.stderr.decode()
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def _expected(kind: str, text: str) -> str:
    if kind in (INT, FLOAT):
        return "constant.numeric"
    if kind in (STRING, CHAR):
        return "string.quoted"
    if kind == ATTR:
        return "variable.other.member.id" if text == "[id]" else "storage.modifier"
    if text in BASE_TYPES:
        return "support.type.primitive"
    if text in DECLARATION_START:
        return "storage.type"
    if text in ("true", "false", "null", "epoch", "utc", "uuid0", "uuid1", "uuid4"):
        return "constant.language"
    if text in ("domain", "package", "offset", "version", "base"):
        return "keyword.other"
    if text == "import":
        return "keyword.control.import"
    return ""


CONTEXTUAL = frozenset({"domain", "package", "offset", "version", "import"})
"""Keywords only where the grammar expects them (docs/schema.md 2.1): elsewhere they name things."""


def _names_of_the_header(lexed: list[Any]) -> set[int]:
    """The indexes of the tokens with a contextual keyword's text that are names: after the header
    (a declaration started), or where the header wants a name (after `package`, `import`, `domain`
    or a dot: `package import`)."""
    names = set()
    header = True
    for i, tok in enumerate(lexed):
        if tok.text in DECLARATION_START or tok.kind == ATTR:
            header = False
        if tok.text in CONTEXTUAL and (not header or i and lexed[i - 1].text in ("package", "import", "domain", ".")):
            names.add(i)
    return names


def test_vscode_tokenises_every_schema() -> None:
    files = _schemas()
    result = _tokenise(files)
    checked = 0
    for path in files:
        tokens = result[str(path)]
        at = {(line, start): scopes for line, start, _, _, scopes in tokens}
        text = path.read_text(encoding="utf-8")
        for line, start, _, piece, scopes in tokens:
            assert not piece.strip() or len(scopes) > 1, f"{path}:{line}:{start + 1}: {piece!r} has no scope"
        lexed, comments = tokenize_with_comments(str(path), text, Diagnostics())
        for c in comments:
            scopes = at.get((c.position.line, c.position.column - 1))
            assert scopes and any(s.startswith("comment.") for s in scopes), f"{path}:{c.position}: {c.text!r}"
            checked += 1
        names_of_header = _names_of_the_header(lexed)
        for i, tok in enumerate(lexed):
            if tok.kind == EOF or i in names_of_header:
                continue
            want = _expected(tok.kind, tok.text)
            if not want:
                continue
            scopes = at.get((tok.position.line, tok.position.column - 1))
            if scopes is None and tok.kind in (INT, FLOAT) and tok.text.startswith("-"):
                continue
            assert scopes and any(s.startswith(want) for s in scopes), \
                f"{path}:{tok.position}: {tok.text!r} has {scopes}, expected {want}"
            checked += 1
        names = [t for t in lexed if t.kind == IDENT and t.text not in KEYWORDS]
        assert names
    assert checked > (500 if (SHARED / "schemas").is_dir() else 200)
