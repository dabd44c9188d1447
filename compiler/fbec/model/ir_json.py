"""The IR as JSON (`fbec --ir`), in the shape documented in docs/ir.md."""

from __future__ import annotations

import json
from typing import Any

from . import ir


def type_json(t: ir.Type) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": t.kind}
    if isinstance(t, ir.Primitive):
        out["name"] = t.name
    elif isinstance(t, ir.EnumRef):
        out.update(name=t.name, wire=t.wire)
    elif isinstance(t, ir.StructRef):
        out["name"] = t.name
    elif isinstance(t, ir.Optional_):
        out["element"] = type_json(t.element)
    elif isinstance(t, ir.Array):
        out.update(element=type_json(t.element), length=t.length)
    elif isinstance(t, ir.Sequence):
        out["element"] = type_json(t.element)
    else:
        out.update(key=type_json(t.key), value=type_json(t.value))
    out.update(size=t.size, final_size=t.final_size)
    return out


def default_json(d: ir.Default) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": d.kind}
    if d.kind in ("bool", "int", "string", "timestamp", "uuid"):
        out["value"] = d.value
    elif d.kind == "real":
        out["text"] = d.text
    elif d.kind == "enum":
        out.update(type=d.type, name=d.names[0], value=d.value)
    elif d.kind == "flags":
        out.update(type=d.type, names=list(d.names), value=d.value)
    return out


def field_json(f: ir.Field) -> dict[str, Any]:
    return {
        "name": f.name, "owner": f.owner, "type": type_json(f.type), "offset": f.offset,
        "key": f.key, "id": f.id, "hidden": f.hidden, "deprecated": f.deprecated,
        "default": default_json(f.default), "reset_of": f.reset_of,
    }


def enum_json(e: ir.Enum) -> dict[str, Any]:
    return {
        "kind": e.kind, "name": e.name, "qualified": e.qualified, "underlying": e.underlying,
        "wire": e.wire, "size": e.size, "hidden": e.hidden, "deprecated": e.deprecated,
        "values": [{"name": v.name, "value": v.value, "hidden": v.hidden, "deprecated": v.deprecated}
                   for v in e.values],
    }


def struct_json(s: ir.Struct) -> dict[str, Any]:
    return {
        "name": s.name, "qualified": s.qualified, "message": s.message, "type_id": s.type_id,
        "base": s.base, "hidden": s.hidden, "deprecated": s.deprecated,
        "request": s.request, "response": s.response,
        "rejects": [{"type": r.type, "global": r.global_} for r in s.rejects],
        "body_size": s.body_size, "base_size": s.base_size, "final_size": s.final_size,
        "fields": [field_json(f) for f in s.fields],
        "all_fields": [field_json(f) for f in s.all_fields],
        "keys": list(s.keys),
    }


def package_json(p: ir.Package) -> dict[str, Any]:
    return {
        "name": p.name, "file": p.file, "domain": p.domain, "offset": p.offset,
        "version": {"major": p.version.major, "minor": p.version.minor},
        "imports": list(p.imports),
        "enums": [enum_json(e) for e in p.enums],
        "flags": [enum_json(e) for e in p.flags],
        "structs": [struct_json(s) for s in p.structs],
        "protocol": list(p.protocol),
    }


def to_json(schema: ir.Schema) -> dict[str, Any]:
    return {"version": ir.IR_VERSION, "main": schema.main,
            "packages": [package_json(p) for p in schema.packages]}


def dumps(schema: ir.Schema) -> str:
    return json.dumps(to_json(schema), indent=1) + "\n"
