"""`fbec format`: canonical layout, comments kept, idempotent, same IR, --check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fbec.model import ir_json
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.syntax.lexer import tokenize, tokenize_with_comments
from fbec.tools.format import FormatError, format_text
from tools_testlib import REPO, SHARED, fbec


def _schema_folders() -> list[Path]:
    folders = sorted({p.parent for p in (REPO / "schemas").rglob("*.fbe")})
    if (SHARED / "schemas").is_dir():
        folders.append(SHARED / "schemas")
    return folders


def _ir(path: Path, dirs: list[str]) -> dict[str, Any]:
    data = ir_json.to_json(compile_schema(str(path), dirs, Diagnostics()))
    for p in data["packages"]:
        p.pop("file")
    return data


def _all_schemas() -> list[Path]:
    return [p for folder in _schema_folders() for p in sorted(folder.glob("*.fbe"))]


def test_there_are_schemas() -> None:
    assert len(_all_schemas()) >= 4
    if not (SHARED / "schemas").is_dir():
        pytest.skip(f"{SHARED / 'schemas'} not found: only the project's schemas were formatted")


@pytest.mark.parametrize("folder", _schema_folders(), ids=lambda p: str(p.relative_to(p.parents[1])))
def test_every_schema_formats_to_the_same_ir(folder: Path, tmp_path: Path) -> None:
    """Format every schema of a folder, re-parse, compare the IR, format again: same text."""
    import_dirs = [str(REPO / "schemas"), str(REPO / "schemas" / "tests")]
    for src in folder.glob("*.fbe"):
        text = src.read_text(encoding="utf-8")
        formatted = format_text(text, str(src))
        (tmp_path / src.name).write_text(formatted, encoding="utf-8")
        assert format_text(formatted) == formatted, f"{src}: formatting is not idempotent"
        _, before = tokenize_with_comments(str(src), text, Diagnostics())
        _, after = tokenize_with_comments("x", formatted, Diagnostics())
        assert [c.text for c in before] == [c.text for c in after], f"{src}: comments changed"
    for src in folder.glob("*.fbe"):
        assert _ir(tmp_path / src.name, [str(tmp_path)] + import_dirs) == _ir(src, import_dirs), src


def test_reference_schemas_are_already_canonical() -> None:
    folder = SHARED / "schemas"
    if not folder.is_dir():
        pytest.skip(f"{folder} not found (set SHARED to the shared folder)")
    for src in folder.glob("*.fbe"):
        text = src.read_text(encoding="utf-8")
        assert format_text(text) == text, src


def test_project_schemas_pass_the_ci_check() -> None:
    """The CI command of docs/tools.md, `fbec format --check --diff schemas/`, on the project's own schemas."""
    status, out, err = fbec("format", "--check", "--diff", str(REPO / "schemas"))
    assert status == 0, out.decode() + err.decode()


ODD = """\
/* head
 * block with stars */
domain  a.b   // dom
package   odd offset 5 /* inline */
version 1.0
// before enum


enum E:byte{a;b=  1 ; c;}   // trailing
flags F { x = 1; y = 2 ; xy = x|y; }
[request] [response(Resp)] [reject( *Rej , Rej2)]
message Req { uuid [id] = uuid1; int32 /* odd */ v =
  5; // after
  // last in body

}
message Resp { uuid [id]; }
message Rej { uuid [id]; } message Rej2{uuid [id];}
struct S(+3):Req{ [hidden][key] int64 k; [deprecated] double ? < string > m; byte[ 4 ] arr; int32~ r; string! s;
 E e = E.b;


  F f = F.x | F.y; }
// tail comment
"""

ODD_FORMATTED = """\
/* head
 * block with stars */
domain a.b // dom
package odd offset 5 /* inline */
version 1.0

// before enum

enum E : byte
{
    a;
    b = 1;
    c;
} // trailing

flags F
{
    x = 1;
    y = 2;
    xy = x | y;
}

[request]
[response(Resp)]
[reject(*Rej, Rej2)]
message Req
{
    uuid [id] = uuid1;
    int32 v = 5; /* odd */ // after
    // last in body
}

message Resp
{
    uuid [id];
}

message Rej
{
    uuid [id];
}

message Rej2
{
    uuid [id];
}

struct S(+3) : Req
{
    [hidden] [key] int64 k;
    [deprecated] double?<string> m;
    byte[4] arr;
    int32~ r;
    string! s;
    E e = E.b;

    F f = F.x | F.y;
}
// tail comment
"""


def test_odd_layout(tmp_path: Path) -> None:
    out = format_text(ODD)
    assert out == ODD_FORMATTED
    assert format_text(out) == out
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "odd.fbe").write_text(ODD)
    (tmp_path / "b" / "odd.fbe").write_text(out)
    assert _ir(tmp_path / "a" / "odd.fbe", []) == _ir(tmp_path / "b" / "odd.fbe", [])


def test_syntax_error_is_reported_and_file_untouched(tmp_path: Path) -> None:
    with pytest.raises(FormatError):
        format_text("package p\nstruct S { int32 }\n")
    bad = tmp_path / "bad.fbe"
    bad.write_text("package p\nstruct S { int32 }\n")
    status, _, err = fbec("format", str(bad))
    assert status == 1 and "bad.fbe:2" in err
    assert bad.read_text() == "package p\nstruct S { int32 }\n"


def test_cli_check_and_rewrite(tmp_path: Path) -> None:
    messy = tmp_path / "m.fbe"
    messy.write_text("package m\nstruct S{int32 a;}\n")
    tidy = tmp_path / "t.fbe"
    tidy.write_text("package t\n\nstruct S\n{\n    int32 a;\n}\n")
    status, out, _ = fbec("format", "--check", str(tmp_path))
    assert status == 1 and b"would reformat" in out and b"m.fbe" in out and b"t.fbe" not in out
    status, out, _ = fbec("format", "--check", "--diff", str(messy))
    assert status == 1 and b"+struct S" in out
    status, out, _ = fbec("format", "--stdout", str(messy))
    assert status == 0 and out == b"package m\n\nstruct S\n{\n    int32 a;\n}\n"
    assert messy.read_text() == "package m\nstruct S{int32 a;}\n"
    status, out, _ = fbec("format", str(tmp_path))
    assert status == 0 and b"formatted" in out
    assert messy.read_text() == "package m\n\nstruct S\n{\n    int32 a;\n}\n"
    assert fbec("format", "--check", str(tmp_path))[0] == 0


def test_keep_comments_does_not_change_tokens() -> None:
    for src in _all_schemas():
        text = src.read_text(encoding="utf-8")
        d1, d2 = Diagnostics(), Diagnostics()
        tokens, comments = tokenize_with_comments(str(src), text, d1)
        assert tokens == tokenize(str(src), text, d2)
        assert [d.message for d in d1.items] == [d.message for d in d2.items]
        for c in comments:
            line = text.splitlines()[c.position.line - 1]
            assert line[c.position.column - 1:].startswith(c.text.splitlines()[0])


