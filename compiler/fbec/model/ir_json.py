"""The IR as JSON (`fbec --ir`), in the shape documented in docs/ir.md.

`dumps`/`to_json` write it; `load`/`from_json` read it back into the same
dataclasses (`load(dumps(schema)) == schema`).
"""

from __future__ import annotations

import json
from typing import Any

from . import ir, plan


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
    out.update(size=t.size, final_size=t.final_size, final_min_size=t.final_min_size,
               element_cost=ir.element_cost(t), default_cost=ir.default_cost(t))
    if isinstance(t, (ir.Sequence, ir.Mapping)):
        out.update(item_size=t.item_size, item_min_size=t.item_min_size, item_cost=t.item_cost)
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
        "default": default_json(f.default), "reset_of": f.reset_of, "final_offset": f.final_offset,
    }


def enum_json(e: ir.Enum) -> dict[str, Any]:
    return {
        "kind": e.kind, "name": e.name, "qualified": e.qualified, "underlying": e.underlying,
        "wire": e.wire, "size": e.size, "hidden": e.hidden, "deprecated": e.deprecated,
        "values": [{"name": v.name, "value": v.value, "hidden": v.hidden, "deprecated": v.deprecated}
                   for v in e.values],
    }


def struct_json(s: ir.Struct, p: plan.StructPlan | None = None) -> dict[str, Any]:
    out = {
        "name": s.name, "qualified": s.qualified, "message": s.message, "type_id": s.type_id,
        "base": s.base, "hidden": s.hidden, "deprecated": s.deprecated,
        "request": s.request, "response": s.response,
        "rejects": [{"type": r.type, "global": r.global_} for r in s.rejects],
        "body_size": s.body_size, "base_size": s.base_size, "final_size": s.final_size,
        "final_min_size": s.final_min_size, "height": s.height, "recursive": s.recursive,
        "decode_cost": s.decode_cost, "default_cost": s.default_cost,
        "fields": [field_json(f) for f in s.fields],
        "all_fields": [field_json(f) for f in s.all_fields],
        "keys": list(s.keys),
        "runs": [{"fields": list(r.fields), "offset": r.offset, "final_offset": r.final_offset, "size": r.size}
                 for r in s.runs],
    }
    if p is not None:
        out["plan"] = plan.struct_plan_json(p)
    return out


def package_json(p: ir.Package, of: plan.Plan | None = None) -> dict[str, Any]:
    out = {
        "name": p.name, "file": p.file, "domain": p.domain, "offset": p.offset,
        "version": {"major": p.version.major, "minor": p.version.minor},
        "imports": list(p.imports),
        "enums": [enum_json(e) for e in p.enums],
        "flags": [enum_json(e) for e in p.flags],
        "structs": [struct_json(s, None if of is None else of.struct(s.qualified)) for s in p.structs],
        "protocol": list(p.protocol),
        "dispatch": [{"type_id": d.type_id, "type": d.type} for d in p.dispatch],
    }
    if of is not None:
        out["plan"] = plan.package_plan_json(of, p)
    return out


def primitives_json() -> dict[str, Any]:
    return {name: {"size": p.size, "final_size": p.final_size,
                   "min": p.range[0] if p.range else None, "max": p.range[1] if p.range else None,
                   "order": p.order}
            for name, p in ir.PRIMITIVES.items()}


def to_json(schema: ir.Schema) -> dict[str, Any]:
    return {"version": ir.IR_VERSION, "main": schema.main,
            "primitives": primitives_json(),
            "text_brackets": {kind: list(pair) for kind, pair in ir.TEXT_BRACKETS.items()},
            "packages": [package_json(p, plan.of(schema)) for p in schema.packages]}


def dumps(schema: ir.Schema) -> str:
    return json.dumps(to_json(schema), indent=1) + "\n"


# ---------------------------------------------------------------- reading back

class IRFormatError(ValueError):
    """The JSON is not an IR this version of fbec reads."""


def type_from_json(d: dict[str, Any]) -> ir.Type:
    kind = d["kind"]
    t: ir.Type
    if kind == "primitive":
        t = ir.Primitive(d["name"])
    elif kind in ("enum", "flags"):
        t = ir.EnumRef(kind, d["name"], d["wire"], d["size"])
    elif kind == "struct":
        t = ir.StructRef(d["name"], d["final_size"], d["final_min_size"], d["default_cost"])
    elif kind == "optional":
        t = ir.Optional_(type_from_json(d["element"]))
    elif kind == "array":
        t = ir.Array(type_from_json(d["element"]), d["length"])
    elif kind in ("vector", "list", "set"):
        t = ir.Sequence(kind, type_from_json(d["element"]))
    elif kind in ("map", "hash"):
        t = ir.Mapping(kind, type_from_json(d["key"]), type_from_json(d["value"]))
    else:
        raise IRFormatError(f"unknown type kind {kind!r}")
    return t


def default_from_json(d: dict[str, Any]) -> ir.Default:
    kind = d["kind"]
    if kind == "real":
        return ir.Default(kind, text=d["text"])
    if kind == "enum":
        return ir.Default(kind, d["value"], type=d["type"], names=(d["name"],))
    if kind == "flags":
        return ir.Default(kind, d["value"], type=d["type"], names=tuple(d["names"]))
    return ir.Default(kind, d.get("value"))


def field_from_json(d: dict[str, Any]) -> ir.Field:
    return ir.Field(
        name=d["name"], owner=d["owner"], type=type_from_json(d["type"]), offset=d["offset"],
        key=d["key"], id=d["id"], hidden=d["hidden"], deprecated=d["deprecated"],
        default=default_from_json(d["default"]), reset_of=d["reset_of"], final_offset=d["final_offset"])


def enum_from_json(d: dict[str, Any]) -> ir.Enum:
    return ir.Enum(
        kind=d["kind"], name=d["name"], qualified=d["qualified"], underlying=d["underlying"], wire=d["wire"],
        size=d["size"], hidden=d["hidden"], deprecated=d["deprecated"],
        values=tuple(ir.EnumValue(v["name"], v["value"], v["hidden"], v["deprecated"]) for v in d["values"]))


def struct_from_json(d: dict[str, Any]) -> ir.Struct:
    return ir.Struct(
        name=d["name"], qualified=d["qualified"], message=d["message"], type_id=d["type_id"], base=d["base"],
        hidden=d["hidden"], deprecated=d["deprecated"], request=d["request"], response=d["response"],
        rejects=tuple(ir.Reject(r["type"], r["global"]) for r in d["rejects"]),
        body_size=d["body_size"], base_size=d["base_size"], final_size=d["final_size"],
        final_min_size=d["final_min_size"], height=d["height"], recursive=d["recursive"],
        decode_cost=d["decode_cost"], default_cost=d["default_cost"],
        fields=tuple(field_from_json(f) for f in d["fields"]),
        all_fields=tuple(field_from_json(f) for f in d["all_fields"]),
        keys=tuple(d["keys"]),
        runs=tuple(ir.FixedRun(tuple(r["fields"]), r["offset"], r["final_offset"], r["size"]) for r in d["runs"]))


def package_from_json(d: dict[str, Any]) -> ir.Package:
    return ir.Package(
        name=d["name"], file=d["file"], domain=d["domain"], offset=d["offset"],
        version=ir.Version(d["version"]["major"], d["version"]["minor"]), imports=tuple(d["imports"]),
        enums=tuple(enum_from_json(e) for e in d["enums"]), flags=tuple(enum_from_json(e) for e in d["flags"]),
        structs=tuple(struct_from_json(s) for s in d["structs"]), protocol=tuple(d["protocol"]),
        dispatch=tuple(ir.Dispatch(x["type_id"], x["type"]) for x in d["dispatch"]))


def from_json(d: dict[str, Any]) -> ir.Schema:
    """The dataclasses of a parsed `fbec --ir` document."""
    if d.get("version") != ir.IR_VERSION:
        raise IRFormatError(f"IR version {d.get('version')!r}: this fbec reads version {ir.IR_VERSION}")
    try:
        return ir.Schema(main=d["main"], packages=tuple(package_from_json(p) for p in d["packages"]))
    except (KeyError, TypeError) as e:
        raise IRFormatError(f"not an fbec IR document: {type(e).__name__} {e}") from None


def load(source: str | bytes | dict[str, Any]) -> ir.Schema:
    """The dataclasses of `fbec --ir` output: its JSON text, or the parsed document."""
    return from_json(source if isinstance(source, dict) else json.loads(source))


def read(source: Any) -> ir.Schema:
    """The IR from anything that holds it: the dataclasses themselves, the parsed JSON of
    `fbec --ir`, its text, or the path of an `.ir.json` file (what `fbe.dynamic` accepts)."""
    if isinstance(source, ir.Schema):
        return source
    if isinstance(source, dict):
        return from_json(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return load(source)
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        with open(source, encoding="utf-8") as f:
            return load(f.read())
    raise TypeError(f"cannot read an IR from {type(source).__name__}")
