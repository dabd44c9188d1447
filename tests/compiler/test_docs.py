"""Every schema shown in the README and docs/ compiles (documentation a newcomer pastes must work)."""

from __future__ import annotations

import re

import pytest
from conftest import REPO
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import CompileError, Diagnostics

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"```[a-z]*\n((?:domain|package) .*?)```", re.DOTALL)
SNIPPETS = [(doc, n, text) for doc in DOCS for n, text in enumerate(BLOCK.findall(doc.read_text()))]
STUBS = {"market": "package market\nstruct Instrument { [key] string symbol; }\nmessage Failure { uuid [id]; }\n",
         "proto": "package proto\nstruct Order { int32 id; }\nstruct Balance { string currency; }\n"}


@pytest.mark.parametrize("doc,n,text", SNIPPETS, ids=[f"{d.name}#{n}" for d, n, _ in SNIPPETS])
def test_documented_schema_compiles(tmp_path, doc, n, text):
    for name, stub in STUBS.items():
        (tmp_path / f"{name}.fbe").write_text(stub)
    path = tmp_path / "doc.fbe"
    path.write_text(text)
    diag = Diagnostics()
    try:
        compile_schema(str(path), [], diag)
    except CompileError:
        pytest.fail(f"{doc.name} snippet {n} does not compile:\n{diag.render()}")


def test_docs_have_schemas():
    assert len(SNIPPETS) >= 2   # README and docs/schema.md at least
