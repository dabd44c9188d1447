"""The schema fingerprint (docs/kafka.md "Schema fingerprint"): SHA-256 of a package's wire contract.

The contract is a canonical JSON document built from the IR: for the package and every package it
imports (directly or not), its enums and flags (kind, name, underlying type, values) and its structs
(name, type number, base, message/request/response/rejects, and the declared fields in order: name,
type, key, id, default). Nothing else goes in: comments, formatting, file names, the domain, the
package offset (the type numbers already carry it), the version (its own header), [hidden] and
[deprecated], and the sizes and costs the compiler derives from the facts above. The document is
written with sorted keys, no whitespace and UTF-8 (`canonical`), and hashed with SHA-256
(`fingerprint`: 64 lowercase hex digits). Every language's Kafka serde carries the fingerprint the
compiler computes; none recomputes it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from . import ir

FINGERPRINT_FORMAT = 1
"""Bumped if the contract document ever changes shape (then every fingerprint changes)."""


def _type(t: ir.Type) -> dict[str, Any]:
    if isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef)):
        return {"kind": t.kind, "name": t.name}
    if isinstance(t, ir.Optional_):
        return {"kind": t.kind, "element": _type(t.element)}
    if isinstance(t, ir.Array):
        return {"kind": t.kind, "element": _type(t.element), "length": t.length}
    if isinstance(t, ir.Sequence):
        return {"kind": t.kind, "element": _type(t.element)}
    return {"kind": t.kind, "key": _type(t.key), "value": _type(t.value)}


def _default(d: ir.Default) -> dict[str, Any]:
    return {"kind": d.kind, "value": d.value, "text": d.text, "type": d.type, "names": list(d.names)}


def _enum(e: ir.Enum) -> dict[str, Any]:
    return {"kind": e.kind, "name": e.name, "underlying": e.underlying,
            "values": [[v.name, v.value] for v in e.values]}


def _struct(s: ir.Struct) -> dict[str, Any]:
    return {
        "name": s.name, "type_id": s.type_id, "base": s.base, "message": s.message,
        "request": s.request, "response": s.response,
        "rejects": [[r.type, r.global_] for r in s.rejects],
        "fields": [{"name": f.name, "type": _type(f.type), "key": f.key, "id": f.id,
                    "default": _default(f.default)} for f in s.fields],
    }


def _package(p: ir.Package) -> dict[str, Any]:
    return {"enums": [_enum(e) for e in p.enums], "flags": [_enum(e) for e in p.flags],
            "structs": [_struct(s) for s in p.structs]}


def contract(schema: ir.Schema, package: str) -> dict[str, Any]:
    """The document the fingerprint of `package` hashes: it and every package it imports."""
    seen: dict[str, dict[str, Any]] = {}
    todo = [package]
    while todo:
        name = todo.pop()
        if name not in seen:
            p = schema.package(name)
            seen[name] = _package(p)
            todo.extend(p.imports)
    return {"format": FINGERPRINT_FORMAT, "package": package, "packages": seen}


def canonical(schema: ir.Schema, package: str) -> bytes:
    """`contract` as the bytes that are hashed: sorted keys, no whitespace, UTF-8."""
    return json.dumps(contract(schema, package), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def fingerprint(schema: ir.Schema, package: str | None = None) -> str:
    """SHA-256 of `canonical` (the main package's by default), as 64 lowercase hex digits."""
    return hashlib.sha256(canonical(schema, package or schema.main)).hexdigest()
