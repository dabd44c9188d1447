"""`fbec compat` on a catalogue of schema changes, each cross-checked with real data.

For every pair the verdict of each model is asserted, and then checked the
hard way: sample values of every struct are written with one version and read
with the other (both directions) through the dynamic codec. A breaking verdict
must show as a failed or different read, a safe or warning verdict must not.
"""

from __future__ import annotations

import json
import math
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fbe import DecodeError
from fbe.dynamic import DynamicCodec
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.tools.compat import BREAKING, SAFE, WARNING, compare_paths
from tools_testlib import REPO, CountingSampler, fbec, shared

BASE = """\
package shop
version 1.0

enum Side : byte { buy; sell; }
flags Perm : uint16 { none = 0; read = 1; write = 2; all = read | write; }

struct Item(10)
{
    [key] int32 sku;
    string name = "x";
    double price;
    Side side = Side.sell;
    Perm perm;
}

struct Special : Item
{
    bool flag;
    int64 extra;
}

message ItemChanged
{
    Item item;
    int32 count;
}

message Ping
{
    uint32 seq;
}
"""

# (id, [(old text, new text) replacements], versioned verdict, final verdict, a change kind that must be listed)
CATALOGUE: list[tuple[str, list[tuple[str, str]], str, str, str | None]] = [
    ("identical", [], SAFE, SAFE, None),
    ("comments-and-layout", [("struct Item(10)\n{", "// items\nstruct   Item(10)   {"),
                             ("int32 count;", "int32 count; // how many")], SAFE, SAFE, None),
    ("version-bump", [("version 1.0", "version 1.1")], SAFE, SAFE, "version-changed"),
    ("field-appended", [("    int32 count;\n", "    int32 count;\n    string note;\n")], SAFE, BREAKING,
     "field-appended"),
    ("field-appended-to-derived", [("    int64 extra;\n", "    int64 extra;\n    uint8 level;\n")], SAFE, BREAKING,
     "field-appended"),
    ("field-appended-to-base", [("    Perm perm;\n", "    Perm perm;\n    int32 qty;\n")], BREAKING, BREAKING,
     "field-inserted"),
    ("field-removed", [('    string name = "x";\n', "")], BREAKING, BREAKING, "field-removed"),
    ("last-field-removed", [("    int32 count;\n", "")], BREAKING, BREAKING, "field-removed"),
    ("field-inserted", [("    Item item;\n", "    Item item;\n    int32 extra;\n")], BREAKING, BREAKING,
     "field-inserted"),
    ("field-inserted-first", [("    [key] int32 sku;\n", "    int16 first;\n    [key] int32 sku;\n")], BREAKING,
     BREAKING, "field-inserted"),
    ("fields-reordered",
     [('    string name = "x";\n    double price;\n', '    double price;\n    string name = "x";\n')],
     BREAKING, BREAKING, "fields-reordered"),
    ("field-retyped-size", [("    double price;\n", "    float price;\n")], BREAKING, BREAKING, "field-retyped"),
    ("field-retyped-sign", [("    int32 count;\n", "    uint32 count;\n")], BREAKING, BREAKING, "field-retyped"),
    ("field-made-optional", [('    string name = "x";\n', "    string? name;\n")], BREAKING, BREAKING,
     "field-retyped"),
    ("field-made-vector", [("    uint32 seq;\n", "    uint32[] seq;\n")], BREAKING, BREAKING, "field-retyped"),
    ("field-renamed", [("    int32 count;\n", "    int32 quantity;\n")], WARNING, WARNING, "field-renamed"),
    ("default-changed", [("    double price;\n", "    double price = 1.5;\n")], WARNING, SAFE, "default-changed"),
    ("key-changed", [("    [key] int32 sku;\n", "    int32 sku;\n"), ('    string name = "x";\n',
                                                                    '    [key] string name = "x";\n')],
     WARNING, WARNING, "keys-changed"),
    ("hidden-added", [("    int32 count;\n", "    [hidden] int32 count;\n")], SAFE, SAFE, "hidden-changed"),
    ("type-number-changed", [("struct Item(10)", "struct Item(11)")], BREAKING, BREAKING, "type-id-changed"),
    ("message-numbering-shifted", [("message ItemChanged\n", "message Extra { int32 a; }\nmessage ItemChanged\n")],
     BREAKING, BREAKING, "type-id-changed"),
    ("enum-value-added", [("enum Side : byte { buy; sell; }", "enum Side : byte { buy; sell; tell; }")], SAFE, SAFE,
     "value-added"),
    ("enum-value-renumbered", [("enum Side : byte { buy; sell; }", "enum Side : byte { buy; sell = 5; }")],
     BREAKING, BREAKING, "value-renumbered"),
    ("enum-value-removed", [("enum Side : byte { buy; sell; }", "enum Side : byte { buy; }"),
                            ("Side side = Side.sell;", "Side side;")], BREAKING, BREAKING, "value-removed"),
    ("enum-value-renamed", [("enum Side : byte { buy; sell; }", "enum Side : byte { buy; offer; }"),
                            ("Side side = Side.sell;", "Side side = Side.offer;")], WARNING, WARNING,
     "value-renamed"),
    ("enum-underlying-changed", [("enum Side : byte", "enum Side : int32")], BREAKING, BREAKING,
     "underlying-type-changed"),
    ("enum-underlying-same-wire", [("enum Side : byte", "enum Side : uint8")], SAFE, SAFE,
     "underlying-type-renamed"),
    ("flags-value-added", [("all = read | write; }", "all = read | write; exec = 4; }")], SAFE, SAFE,
     "value-added"),
    ("flags-value-renumbered", [("write = 2;", "write = 4;")], BREAKING, BREAKING, "value-renumbered"),
    ("flags-underlying-changed", [("flags Perm : uint16", "flags Perm : uint32")], BREAKING, BREAKING,
     "underlying-type-changed"),
    ("base-changed", [("struct Special : Item\n{\n", "struct Special\n{\n    int32 sku;\n")], BREAKING, BREAKING,
     "base-changed"),
    ("struct-added", [("message Ping", "struct Extra(50) { int32 a; }\n\nmessage Ping")], SAFE, SAFE,
     "struct-added"),
    ("message-added-at-end", [("    uint32 seq;\n}\n", "    uint32 seq;\n}\n\nmessage Pong\n{\n    uint32 seq;\n}\n")],
     SAFE, SAFE, "message-added"),
    ("message-removed", [("message Ping\n{\n    uint32 seq;\n}\n", "")], BREAKING, BREAKING, "message-removed"),
    ("struct-removed", [("struct Special : Item\n{\n    bool flag;\n    int64 extra;\n}\n", "")], BREAKING, BREAKING,
     "struct-removed"),
    ("message-to-struct", [("message Ping", "struct Ping")], BREAKING, BREAKING, "message-to-struct"),
    ("struct-to-message", [("struct Special : Item", "message Special : Item")], SAFE, SAFE, "struct-to-message"),
]


def _write(folder: Path, text: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "shop.fbe"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _pair(tmp_path: Path, edits: list[tuple[str, str]]) -> tuple[str, str]:
    new = BASE
    for a, b in edits:
        assert a in new, a
        new = new.replace(a, b)
    return _write(tmp_path / "old", BASE), _write(tmp_path / "new", new)


def _verdict(changes, model: str) -> str:
    worst = SAFE
    for c in changes:
        v = getattr(c, model)
        if v == BREAKING or (v == WARNING and worst == SAFE):
            worst = v
    return worst


# ---------------------------------------------------------------- the cross-check

class Sampler(CountingSampler):
    """Distinctive values for every field, so a misread shows."""

    def primitive(self, name: str) -> Any:
        n = self.n
        if name == "bool":
            return True
        if name in ("float", "double"):
            return n + 0.5
        if name == "decimal":
            return Decimal(n) + Decimal("0.25")
        if name == "string":
            return f"s{n}"
        if name == "bytes":
            return bytes([n % 256]) * 2
        if name == "uuid":
            return uuid.UUID(int=n)
        if name == "char":
            return 65 + n % 26
        if name.startswith("int"):
            return -n - 1
        return n + 1

    def enum(self, values: list[int]) -> int:
        nonzero = [v for v in values if v]
        return nonzero[-1] if nonzero else 0


def _same(a: Any, ta: Any, da: DynamicCodec, b: Any, tb: Any, db: DynamicCodec,
          reader_is_old: bool) -> bool:
    """Does b (read with the other schema) mean what a meant?

    Enum and flags values mean their names: a name that now has another number
    is a misread; a number the reader has no name for is a misread only for a
    new reader (an old reader meeting a newer value is forward compatibility).
    """
    if ta.kind != tb.kind:
        return False
    k = ta.kind

    def same(x: Any, tx: Any, y: Any, ty: Any) -> bool:
        return _same(x, tx, da, y, ty, db, reader_is_old)
    if k == "struct":
        sa, sb = da.structs[ta.name], db.structs.get(tb.name)
        if sb is None:
            return False
        fb = {f.name: f for f in sb.all_fields}
        return all(same(a[f.name], f.type, b[f.name], fb[f.name].type)
                   for f in sa.all_fields if f.name in fb)
    if k in ("enum", "flags"):
        if a != b:
            return False
        ea, eb = da.enums[ta.name].values, db.enums[tb.name].values
        reader = {v.name: v.value for v in eb}
        if k == "enum":
            meant = [v.name for v in ea if v.value == a]
        else:
            meant = [v.name for v in ea if v.value and a & v.value == v.value]
        written = {v.name: v.value for v in ea}
        for name in meant:
            if name in reader and reader[name] != written[name]:
                return False
            if name not in reader and not reader_is_old and not any(
                    v.value == written[name] and v.name not in written for v in eb):
                return False
        return True
    if k == "optional":
        return (a is None) == (b is None) and (a is None or same(a, ta.element, b, tb.element))
    if k in ("array", "vector", "list", "set"):
        return len(a) == len(b) and all(same(x, ta.element, y, tb.element) for x, y in zip(a, b))
    if k in ("map", "hash"):
        return len(a) == len(b) and all(same(x[0], ta.key, y[0], tb.key) and
                                        same(x[1], ta.value, y[1], tb.value) for x, y in zip(a, b))
    if k == "primitive" and ta.name != tb.name:
        return False
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return bool(a == b)


def _reads_agree(writer: DynamicCodec, reader: DynamicCodec, model: str, reader_is_old: bool) -> list[str]:
    """The structs whose data written by `writer` is misread (or unreadable) by `reader`.

    An old reader must also still receive every field it knows (a removed field
    silently reads as its default there); a new reader may default fields that
    old writers do not have (appended fields).
    """
    bad = []
    for q, s in writer.structs.items():
        if q not in reader.structs:
            if not reader_is_old:                     # old readers need not know new types
                bad.append(f"{q}: unknown to the reader")
            continue
        if reader_is_old:
            slots = {(f.offset, f.type) for f in s.all_fields}
            lost = [f.name for f in reader.structs[q].all_fields
                    if (f.offset, f.type) not in slots]
            if lost:
                bad.append(f"{q}: old readers no longer get {lost}")
        sample = Sampler(writer).value(DynamicCodec.ref(s))
        data = writer.encode(sample, q, model)
        mine, _ = writer.decode(data, q, model)
        try:
            theirs, _ = reader.decode(data, q, model, check=True)
        except DecodeError as e:
            bad.append(f"{q}: {e}")
            continue
        if not _same(mine, DynamicCodec.ref(s), writer, theirs, DynamicCodec.ref(reader.structs[q]), reader,
                     reader_is_old):
            bad.append(f"{q}: read differently")
        if s.message and not reader_is_old:       # old receivers need not know new messages
            frames = reader.decode_stream(data, model)
            if frames[0][1] is None or frames[0][1].qualified != q:
                bad.append(f"{q}: a receiver does not dispatch it")
    return bad


def _codec(path: str) -> DynamicCodec:
    return DynamicCodec(compile_schema(path, [], Diagnostics()))


@pytest.mark.parametrize("case", CATALOGUE, ids=[c[0] for c in CATALOGUE])
def test_catalogue(tmp_path: Path, case) -> None:
    name, edits, versioned, final, kind = case
    old, new = _pair(tmp_path, edits)
    changes = compare_paths(old, new)
    kinds = [c.kind for c in changes]
    if kind is None:
        assert changes == []
    else:
        assert kind in kinds, changes
    assert _verdict(changes, "versioned") == versioned, changes
    assert _verdict(changes, "final") == final, changes
    a, b = _codec(old), _codec(new)
    for model, verdict in (("versioned", versioned), ("final", final)):
        problems = _reads_agree(a, b, model, False) + _reads_agree(b, a, model, True)
        if verdict == BREAKING:
            assert problems, f"{name}: {model} data reads the same both ways, but compat says breaking"
        else:
            assert not problems, f"{name}: {model}: {problems}"


def test_cli_exit_codes_and_json(tmp_path: Path) -> None:
    old, new = _pair(tmp_path / "a", [("    int32 count;\n", "    int32 count;\n    string note;\n")])
    status, out, err = fbec("compat", old, new)
    assert status == 0, err
    assert b"appended" in out and b"compatible" in out
    status, out, _ = fbec("compat", "--model=both", old, new)
    assert status == 1
    status, out, _ = fbec("compat", "--json", "--model=final", old, new)
    report = json.loads(out)
    assert status == 1 and report["compatible"] is False
    assert {c["kind"] for c in report["changes"]} >= {"field-appended"}
    old, new = _pair(tmp_path / "b", [("    int32 count;\n", "    int32 quantity;\n")])
    assert fbec("compat", old, new)[0] == 0
    assert fbec("compat", "--strict", old, new)[0] == 1
    old, new = _pair(tmp_path / "c", [('    string name = "x";\n', "")])
    status, out, _ = fbec("compat", old, new)
    assert status == 1 and b"shop.Item.name" in out
    assert fbec("compat", old, str(tmp_path / "missing.fbe"))[0] == 2
    broken = _write(tmp_path / "d", "package shop\nstruct X { Nope n; }\n")
    status, _, err = fbec("compat", old, broken)
    assert status == 1 and "unknown type" in err          # diagnostics: 1, as fbec itself


def test_folders_and_the_reference_schemas(tmp_path: Path) -> None:
    folder = shared("schemas")
    assert compare_paths(str(folder), str(folder)) == []
    status, _, _ = fbec("compat", str(folder), str(folder))
    assert status == 0
    # protoex is proto's next version in spirit: reading both ways is what the cross_reads vectors show
    changes = compare_paths(str(folder / "proto.fbe"), str(folder / "protoex.fbe"))
    assert any(c.kind == "package-renamed" for c in changes)


def test_project_schemas_are_compatible_with_themselves() -> None:
    for path in sorted((REPO / "schemas").rglob("*.fbe")):
        assert compare_paths(str(path), str(path), [str(path.parent)]) == [], path


