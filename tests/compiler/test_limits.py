"""Schemas at and beyond the compiler's limits: a diagnostic with file:line:col, never a traceback.

Struct types nest at most 128 levels (fields of any kind and bases each add a level), as the
readers' depth limit; sizes are 32-bit. A schema at the limit goes through every target.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import run_fbec

LIMIT = 128

# How struct S{i} uses S{i-1}: a field by value, optional, in a vector, in a map, or as its base.
LINKS = {
    "value": "struct S{i} {{ S{j} s; }}",
    "optional": "struct S{i} {{ S{j}? s; }}",
    "vector": "struct S{i} {{ S{j}[] s; }}",
    "map": "struct S{i} {{ int32<S{j}> s; }}",
    "base": "struct S{i} : S{j} {{ int32 x{i}; }}",
}


def chain(levels: int, link: str, reverse: bool) -> str:
    """S0 .. S{levels-1}, each one level above the one before; declared leaf first or root first."""
    decls = ["struct S0 { int32 x; }"] + [LINKS[link].format(i=i, j=i - 1) for i in range(1, levels)]
    if reverse:
        decls.reverse()
    return "package p\n" + "\n".join(decls) + "\n"


def compile_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *targets: str) -> tuple[int, str]:
    (tmp_path / "p.fbe").write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        status, _, err = run_fbec(capsys, "--input=p.fbe", "--output=out", "-q", *targets)
    finally:
        os.chdir(cwd)
    return status, err


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
@pytest.mark.parametrize("link", sorted(LINKS))
def test_at_the_limit_every_target_generates(tmp_path, capsys, link, reverse):
    status, err = compile_text(tmp_path, capsys, chain(LIMIT, link, reverse),
                               "--cpp", "--python", "--final", "--json", "--proto")
    assert (status, err) == (0, "")
    assert (tmp_path / "out/p.py").is_file() and (tmp_path / "out/p_final_models.h").is_file()


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
@pytest.mark.parametrize("link", sorted(set(LINKS) - {"base"}))
def test_nesting_beyond_the_limit_is_a_diagnostic(tmp_path, capsys, link, reverse):
    status, err = compile_text(tmp_path, capsys, chain(340, link, reverse), "--cpp", "--final", "--python")
    assert status == 1 and "Traceback" not in err
    line = 2 + (340 - 1 - LIMIT if reverse else LIMIT)            # S128's line
    column = LINKS[link].format(i=LIMIT, j=LIMIT - 1).index(" s;") + 2
    assert err.splitlines()[0] == (
        f"p.fbe:{line}:{column}: error: struct 'S128' nests struct types 129 levels deep "
        "(S128.s, S127.s, S126.s, ...); readers refuse data nested deeper than 128 levels (a base counts as a level)")
    assert len(err.splitlines()) == 3           # one error for the chain, with its line and caret


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
def test_inheritance_beyond_the_limit_is_a_diagnostic(tmp_path, capsys, reverse):
    status, err = compile_text(tmp_path, capsys, chain(1000, "base", reverse), "--cpp", "--final", "--python")
    assert status == 1 and "Traceback" not in err
    line = 2 + (1000 - 1 - LIMIT if reverse else LIMIT)
    assert err.splitlines()[0] == (
        f"p.fbe:{line}:15: error: struct 'S128' and its bases form a chain of 129 structs (S128 : S127 : S126 : ...); "
        "inheritance is limited to 128 levels")


def test_bases_and_fields_count_together(tmp_path, capsys):
    decls = ["struct S0 { int32 x; }"] + [
        (f"struct S{i} : S{i - 1} {{ int32 x{i}; }}" if i % 2 else f"struct S{i} {{ S{i - 1}? s; }}")
        for i in range(1, LIMIT + 1)]
    status, err = compile_text(tmp_path, capsys, "package p\n" + "\n".join(decls) + "\n", "--cpp", "--final")
    assert status == 1
    assert err.splitlines()[0].startswith("p.fbe:130:21: error: struct 'S128' nests struct types 129 levels deep "
                                          "(S128.s, S127 : S126, S126.s, ...)")

