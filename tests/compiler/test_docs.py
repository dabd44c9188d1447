"""Every schema shown in the README and docs/ compiles (documentation a newcomer pastes must work)."""

from __future__ import annotations

import re
import subprocess
import sys

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


def test_readme_counts_the_diagnostics_tests():
    """The README's "N diagnostics tests" is the number pytest collects from test_diagnostics.py."""
    claimed = re.search(r"(\d+) diagnostics tests", (REPO / "README.md").read_text(encoding="utf-8"))
    assert claimed, "the README no longer states the number of diagnostics tests"
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           str(REPO / "tests" / "compiler" / "test_diagnostics.py")],
                          check=False, capture_output=True, text=True, cwd=REPO, timeout=120)
    collected = re.search(r"^(\d+) tests? collected", done.stdout, re.MULTILINE)
    assert collected, done.stdout + done.stderr
    assert int(claimed.group(1)) == int(collected.group(1)), "update the count in README.md"
