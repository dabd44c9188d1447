"""Test helpers: generate code from ../shared schemas into a temp dir, and build
generated objects from the golden vectors' typed value descriptions."""

from __future__ import annotations

import importlib
import os
import struct
import sys
import uuid
from decimal import Decimal
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
from fbec.targets.python.context import ident


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


class Builder:
    """Typed value description (vectors/README.md) -> generated objects."""

    def __init__(self, schema: ir.Schema, modules: dict[str, Any]) -> None:
        self.schema = schema
        self.modules = modules

    def cls(self, qualified: str) -> Any:
        pkg, _, name = qualified.rpartition(".")
        return getattr(self.modules[pkg], ident(name))

    def struct(self, d: dict[str, Any]) -> Any:
        s = self.schema.struct(d["@type"])
        kwargs = {ident(f.name): self.value(f.type, d[f.name]) for f in s.all_fields}
        return self.cls(s.qualified)(**kwargs)

    def value(self, t: ir.Type, d: Any) -> Any:
        if isinstance(t, ir.Primitive):
            n = t.name
            if n == "bool":
                return bool(d)
            if n == "float":
                return f32(float(d))
            if n == "double":
                return float(d)
            if n == "decimal":
                return Decimal(d)
            if n == "string":
                return d
            if n == "bytes":
                return bytes.fromhex(d)
            if n == "uuid":
                return uuid.UUID(d)
            return int(d)
        if isinstance(t, ir.EnumRef):
            return self.cls(t.name)(int(d))
        if isinstance(t, ir.StructRef):
            return self.struct(d)
        if isinstance(t, ir.Optional_):
            return None if d is None else self.value(t.element, d)
        if isinstance(t, (ir.Array, ir.Sequence)):
            items = [self.value(t.element, x) for x in d]
            return set(items) if t.kind == "set" else items
        assert isinstance(t, ir.Mapping)
        return {self.value(t.key, k): self.value(t.value, v) for k, v in d}


def masked(data: bytes, ranges: list) -> bytes:
    b = bytearray(data)
    for off, n in ranges:
        b[off: off + n] = bytes(n)
    return bytes(b)
