"""Every link of the README and docs/ reaches a file of the repository, and an anchor a heading.

A user has the repository only: nothing may point into ../shared (the
original's reference material, read by tests) or at a section that does not
exist.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")  # inline code: `operator[](i)` is not a link; [`x`](y.md) still is


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    found = set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        if m := re.match(r"^#{1,6}\s+(.*)$", line):
            text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def links(doc: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", doc.read_text(encoding="utf-8")))
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_resolve(doc: Path) -> None:
    broken = []
    for target in links(doc):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists() or REPO not in path.parents:
            broken.append(f"{target}: no such file in the repository")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading with that anchor in {path.name}")
    assert not broken, f"{doc.name}:\n" + "\n".join(broken)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_reference_into_shared(doc: Path) -> None:
    """The original's spec lives in ../shared, which users do not have: docs/format.md, schema.md, design.md instead."""
    text = doc.read_text(encoding="utf-8")
    stale = sorted(set(re.findall(r"\b(?:FORMAT|SCHEMA|DESIGN)\.md\b|\.\./shared/spec", text)))
    assert not stale, f"{doc.name} refers to {stale}"


def test_the_checker_sees_broken_links(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text("# Title here\n[a](x.md#title-here) [b](missing.md) ![c](x.md#nope)\n```\n[d](ignored.md)\n```\n")
    assert links(doc) == ["x.md#title-here", "missing.md", "x.md#nope"]
    assert anchors(doc) == {"title-here"}
    assert anchors(REPO / "docs" / "format.md") >= {"35-allocation-order",
                                                    "10-where-the-original-is-wrong-or-surprising"}
