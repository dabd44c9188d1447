"""Test helpers: generate code from ../shared schemas into a temp dir, and build
generated objects from the golden vectors' typed value descriptions."""

from __future__ import annotations

import importlib
import os
import struct
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
for p in (REPO / "compiler", REPO / "runtime" / "python"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options
from fbec.targets.python import generate

sys.path.insert(0, str(REPO / "conformance" / "testees"))
from python_testee import Values


def shared_dir() -> Path | None:
    p = Path(os.environ.get("SHARED", str(REPO.parent / "shared")))
    return p if (p / "vectors" / "MANIFEST.json").is_file() else None


def compile_ir(path: Path) -> ir.Schema:
    return compile_schema(str(path), [], Diagnostics())


def generate_into(schema_path: Path, out: Path, options: Options | None = None) -> ir.Schema:
    options = options or Options(final=True, json=True, proto=True)
    schema = compile_ir(schema_path)
    for f in generate(schema, options):
        (out / f.path).write_text(f.text, encoding="utf-8")
    return schema


def load_modules(out: Path, names: list[str]) -> dict[str, Any]:
    if str(out) in sys.path:
        sys.path.remove(str(out))
    sys.path.insert(0, str(out))
    mods = {}
    for n in names:
        sys.modules.pop(n, None)
    for n in names:
        mods[n] = importlib.import_module(n)
    return mods


def f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


class Builder(Values):
    """Typed value description (vectors/README.md) -> generated objects: the
    conformance testee's converter, over one schema and its imports."""

    def __init__(self, schema: ir.Schema, modules: dict[str, Any]) -> None:
        super().__init__({p.name: p for p in schema.packages}, {p.name: schema for p in schema.packages}, modules)
        self.schema = schema

    def struct(self, d: dict[str, Any]) -> Any:
        return self.build(ir.StructRef(d["@type"], None), d)

    def value(self, t: ir.Type, d: Any) -> Any:
        return self.build(t, d)


def masked(data: bytes, ranges: list) -> bytes:
    b = bytearray(data)
    for off, n in ranges:
        b[off: off + n] = bytes(n)
    return bytes(b)
