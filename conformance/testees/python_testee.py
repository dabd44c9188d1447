#!/usr/bin/env python3
"""Conformance testee for Python (conformance/testee_protocol.md).

Generates the Python code of every conformance schema into a temporary
folder at start-up (fbec --python --final --json), then answers requests on
stdin/stdout with the generated classes and the `fbe` runtime only.

``--native`` (the testee python-native): the classes' native core is required
(FBE_NATIVE=1, build/python-native/lib, made by make python-native), and binary
input is read with the classes' from_fbe/from_final and verified with the
core's verify (docs/python.md, Native core), so every binary case runs
through the core where it answers.
"""

from __future__ import annotations

import base64
import importlib
import json
import os
import struct
import sys
import tempfile
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
for p in (REPO / "compiler", REPO / "runtime" / "python", REPO / "conformance"):
    sys.path.insert(0, str(p))
NATIVE = "--native" in sys.argv[1:]
if NATIVE:
    os.environ["FBE_NATIVE"] = "1"  # a missing core is an ImportError, not a silent pure-Python run
    sys.path.insert(0, str(REPO / "build" / "python-native" / "lib"))

import fbe
from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options
from fbec.targets.python import generate
from fbec.targets.python.names import Idents
from strategies import INT64_AS_STRING, shortest_float32

from schemas import conformance_schemas

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measuring import measured


class Values:
    """Typed value descriptions (vectors/README.md) <-> generated objects, driven by the IR."""

    def __init__(self, packages: dict[str, ir.Package], schema_of: dict[str, ir.Schema], modules: dict[str, Any]):
        self.packages, self.schema_of, self.modules = packages, schema_of, modules
        self._idents: dict[str, Idents] = {}

    def struct_ir(self, qualified: str) -> ir.Struct:
        return self.schema_of[qualified.rpartition(".")[0]].struct(qualified)

    def idents(self, qualified: str) -> Idents:
        """The Python target's naming of the schema a qualified name is of (made once per package)."""
        pkg = qualified.rpartition(".")[0]
        if pkg not in self._idents:
            self._idents[pkg] = Idents(self.schema_of[pkg])
        return self._idents[pkg]

    def cls(self, qualified: str) -> Any:
        return getattr(self.modules[qualified.rpartition(".")[0]], self.idents(qualified).type(qualified))

    def model(self, qualified: str, fmt: str, limits: fbe.Limits | None) -> Any:
        """The versioned (fmt "versioned") or final model of a struct."""
        name = self.idents(qualified).model(qualified, final=fmt != "versioned")
        return getattr(self.modules[qualified.rpartition(".")[0]], name)(limits=limits)

    # description -> object
    def build(self, t: ir.Type, d: Any) -> Any:
        if d is None:   # an optional's absence, or null where the type has none: the writers refuse that
            return None
        if isinstance(t, ir.Primitive):
            n = t.name
            if n == "bool":
                return bool(d)
            if n == "float":
                return struct.unpack("<f", struct.pack("<f", float(d)))[0]
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
            s = self.struct_ir(t.name)
            names = self.idents(t.name)
            fields = {names.field(f): self.build(f.type, d[f.name]) for f in s.all_fields}
            value = self.cls(t.name)(**fields)
            for name in (name for name, v in fields.items() if v is None):
                setattr(value, name, None)      # the constructor would put a struct's default there
            return value
        if isinstance(t, ir.Optional_):
            return self.build(t.element, d)
        if isinstance(t, (ir.Array, ir.Sequence)):
            items = [self.build(t.element, x) for x in d]
            return set(items) if t.kind == "set" else items
        assert isinstance(t, ir.Mapping)
        return {self.build(t.key, k): self.build(t.value, v) for k, v in d}

    # object -> description
    def describe(self, t: ir.Type, v: Any) -> Any:
        if isinstance(t, ir.Primitive):
            n = t.name
            if n in INT64_AS_STRING:
                return str(int(v))
            if n == "float":
                return shortest_float32(float(v))
            if n == "double":
                return float(v)
            if n == "decimal":
                return "0" if v == 0 else f"{v:f}"
            if n == "bytes":
                return bytes(v).hex()
            if n == "uuid":
                return str(v)
            if n == "bool":
                return bool(v)
            if n == "string":
                return v
            return int(v)
        if isinstance(t, ir.EnumRef):
            return str(int(v)) if t.wire in ("int64", "uint64") else int(v)
        if isinstance(t, ir.StructRef):
            s = self.struct_ir(t.name)
            out: dict[str, Any] = {"@type": t.name}
            names = self.idents(t.name)
            for f in s.all_fields:
                out[f.name] = self.describe(f.type, getattr(v, names.field(f)))
            return out
        if isinstance(t, ir.Optional_):
            return None if v is None else self.describe(t.element, v)
        if isinstance(t, (ir.Array, ir.Sequence)):
            items: list[Any] = list(v)
            if t.kind == "set":
                items = sorted(items)
            return [self.describe(t.element, x) for x in items]
        assert isinstance(t, ir.Mapping)
        return [[self.describe(t.key, k), self.describe(t.value, x)] for k, x in v.items()]


def load(workdir: Path) -> Values:
    schema_of: dict[str, ir.Schema] = {}
    packages: dict[str, ir.Package] = {}
    for path in conformance_schemas():
        schema = compile_schema(str(path), [], Diagnostics())
        for f in generate(schema, Options(final=True, json=True, proto=True)):
            (workdir / f.path).write_text(f.text, encoding="utf-8")
        for p in schema.packages:
            if p.name not in schema_of or p.name == schema.main:
                schema_of[p.name] = schema
                packages[p.name] = p
    sys.path.insert(0, str(workdir))
    modules = {name: importlib.import_module(name) for name in packages}
    return Values(packages, schema_of, modules)


def receive_stream(module: Any, data: bytes, final: bool, limits: fbe.Limits | None) -> dict[str, Any]:
    """Feed a protocol stream to the package's Receiver; the messages it delivered and the errors it
    reported, in order."""
    events: list[Any] = []

    class Recorder(module.FinalReceiver if final else module.Receiver):  # type: ignore[misc, name-defined]
        def on_receive(self, value: Any) -> None:
            events.append({"message": f"{type(value).__module__}.{type(value).__name__}"})

        def on_receive_error(self, error: fbe.FBEError) -> None:
            events.append({"error": str(error)})

    try:
        Recorder(limits=limits).receive(data)
    except fbe.FrameError as e:  # a frame size below the minimum: the rest of the stream is lost
        events.append({"error": str(e)})
    return {"result": events}


def verify(values: Values, qualified: str, fmt: str, data: bytes, limits: fbe.Limits | None) -> dict[str, Any]:
    """The verify request: the verdict of the model's verify(), which answers only true or false (it is
    deserialize() without keeping the value), and the text of deserialize()'s error."""
    if fmt not in ("versioned", "final"):
        return {"skipped": f"verify reads binary input, not {fmt}"}
    model = values.model(qualified, fmt, limits)
    model.attach(data)
    verdict = None
    if NATIVE:  # the core's verdict where it gives one
        core, index = native_entry(values, qualified)
        verdict = (core.verify_final if fmt == "final" else core.verify)(index, data, limits)
    if verdict is None:
        verdict = model.verify()
    if verdict:
        return {"result": "ok"}
    try:
        model.deserialize()
    except fbe.FBEError as e:
        return {"parse_error": str(e)}
    return {"parse_error": "verify() is false where deserialize() succeeds"}


def native_entry(values: Values, qualified: str) -> tuple[Any, int]:
    """The native core of a struct's module and the struct's index in its table."""
    pkg = values.packages[qualified.rpartition(".")[0]]
    index = next(i for i, s in enumerate(pkg.structs) if s.qualified == qualified)
    return values.modules[pkg.name].FBE_CORE, index


def answer(values: Values, req: dict[str, Any]) -> dict[str, Any]:
    qualified = f"{req['package']}.{req['type']}"
    if req["package"] not in values.modules:
        return {"skipped": f"package {req['package']} is not compiled into this testee"}
    t = ir.StructRef(qualified, None)
    cls = values.cls(qualified)
    module = values.modules[req["package"]]
    fmt_in, payload = req["input"]["format"], req["input"]["payload"]
    limits = fbe.Limits(**req["limits"]) if "limits" in req else None
    if fmt_in in ("stream", "final_stream"):
        return receive_stream(module, base64.b64decode(payload), fmt_in == "final_stream", limits)
    if req["output"] == "verify":
        return verify(values, qualified, fmt_in, base64.b64decode(payload), limits)
    try:
        if fmt_in in ("versioned", "final") and NATIVE:  # through the core where it answers
            data = base64.b64decode(payload)
            value = cls.from_final(data, limits) if fmt_in == "final" else cls.from_fbe(data, limits)
        elif fmt_in in ("versioned", "final"):
            model = values.model(qualified, fmt_in, limits)
            model.attach(base64.b64decode(payload))
            value = model.deserialize()[0]
        elif fmt_in == "json":
            value = cls.from_json(payload, limits=limits)
        elif fmt_in == "value":
            value = values.build(t, payload)
        else:
            return {"skipped": f"unknown input format {fmt_in}"}
    except fbe.FBEError as e:
        return {"parse_error": str(e)}
    out = req["output"]
    try:
        if out == "versioned":
            return {"result": base64.b64encode(value.to_fbe()).decode()}
        if out == "final":
            return {"result": base64.b64encode(value.to_final()).decode()}
        if out == "json":
            return {"result": value.to_json()}
        if out == "text":
            return {"result": base64.b64encode(fbe.text_bytes(str(value))).decode()}
        if out == "value":
            return {"result": values.describe(t, value)}
    except fbe.FBEError as e:
        return {"serialize_error": str(e)}
    return {"skipped": f"unknown output format {out}"}


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    with tempfile.TemporaryDirectory(prefix="fbe-testee-") as work:
        values = load(Path(work))
        while True:
            head = stdin.read(4)
            if len(head) < 4:
                return 0
            (size,) = struct.unpack("<I", head)
            req = json.loads(stdin.read(size))
            if req.get("quit"):
                return 0
            try:
                reply = measured(lambda req=req: answer(values, req)) if req.get("measure") else answer(values, req)
            except Exception as e:  # noqa: BLE001 - a bug in the testee or the runtime: report it, keep serving
                reply = {"parse_error": f"UNEXPECTED {type(e).__name__}: {e}"} \
                    if req["input"]["format"] != "value" else {"serialize_error": f"UNEXPECTED {type(e).__name__}: {e}"}
            body = json.dumps(reply).encode()
            stdout.write(struct.pack("<I", len(body)) + body)
            stdout.flush()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
