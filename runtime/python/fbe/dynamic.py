"""A schema-driven (dynamic) codec: FBE bytes <-> Python values with no generated code.

The codec is driven by the compiler's IR (docs/ir.md), given either as the
JSON of ``fbec --ir`` (a ``dict``, or a path to the ``.ir.json`` file) or as
the ``fbec.model.ir.Schema`` dataclasses. It reads and writes both binary
models (docs/format.md sections 3 and 4), protocol streams (section 7), the JSON
mapping (section 8), the text format (section 9) and the typed value
description of the golden vectors (``../shared/vectors/README.md``).

Values in memory:

=====================  ==================================================
schema type            Python value
=====================  ==================================================
struct / message       ``dict``: ``"@type"`` (qualified name) first, then
                       every field (inherited ones first) by name
bool                   ``bool``
integers, char, wchar, ``int`` (enums and flags: the underlying number;
timestamp, enum, flags char: the byte value; timestamp: nanoseconds)
float, double          ``float`` (a float is rounded to binary32)
decimal                :class:`decimal.Decimal`
string                 ``str`` (bytes that are not UTF-8 as lone surrogates)
bytes                  ``bytes``
uuid                   :class:`uuid.UUID`
optional               ``None`` or the value
array, vector, list,   ``list`` in wire order
set
map, hash              ``list`` of ``(key, value)`` pairs in wire order
=====================  ==================================================

Decoding never trusts the input: every read is bounds checked, counts are
bounded by the remaining bytes, nesting depth is bounded and every value
materialized is charged against the decode budget, with the same costs as
generated code (docs/limits.md; the runtime's :class:`fbe.buffer.Reader`). Errors are
:class:`fbe.DecodeError` with the type, field, absolute offset and a
``path`` (``"Account.orders[2].symbol"``); the error's ``partial``
attribute holds what was decoded before the error.

Deliberate behaviour (as the runtime): an absent optional decodes as
``None`` (the original returns the schema default), a struct offset of 0 or
a body beyond the buffer is an error (the original silently keeps defaults),
and decoding always makes the checks of ``verify()`` (docs/limits.md 4).
Fields beyond an older writer's ``body_size`` take their schema default
(schema evolution, docs/format.md 3.6).
"""

from __future__ import annotations

import json
import math
import struct as _struct
import time
import uuid as _uuid
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any, Callable

from typing_extensions import Self

from . import jsonfmt
from . import text as _text
from .buffer import (
    Budget,
    Reader,
    alloc,
    final_bytes,
    final_count,
    final_enter,
    final_has,
    final_string,
    read_bytes,
    read_count,
    read_string,
    struct_header,
    write_bytes,
    write_string,
)
from .errors import DecodeError, EncodeError
from .limits import MAX_DEPTH, Limits
from .model import decode_final, decode_versioned
from .protocol import MIN_FINAL_FRAME, MIN_VERSIONED_FRAME
from .values import NIL_UUID, decode_decimal, encode_decimal

__all__ = ["MISSING", "DynamicCodec", "load_ir"]

TypeNode = dict[str, Any]

_FMT = {
    "bool": "B", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
    "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
    "float": "f", "double": "d", "timestamp": "Q",
}
_LAYOUT = {k: _struct.Struct("<" + v) for k, v in _FMT.items()}
_U32 = _LAYOUT["uint32"]
_RANGES = {
    "bool": (0, 1), "byte": (0, 0xFF), "char": (0, 0xFF), "wchar": (0, 0xFFFFFFFF),
    "int8": (-0x80, 0x7F), "uint8": (0, 0xFF), "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
    "timestamp": (0, 0xFFFFFFFFFFFFFFFF),
}
_WIDE = frozenset(("int64", "uint64", "timestamp"))
_F32 = _struct.Struct("<f")


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()
"""Marks a value that could not be decoded (in ``DecodeError.partial``)."""


def _f32(value: float) -> float:
    """Round a double to binary32 (keeps inf/nan)."""
    try:
        return float(_F32.unpack(_F32.pack(value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def float32_text(value: float) -> str:
    """The shortest decimal text that reads back as the same binary32 value."""
    if math.isnan(value) or math.isinf(value):
        return repr(value)
    for digits in range(1, 10):
        s = f"{value:.{digits}g}"
        if _f32(float(s)) == value:
            return repr(float(s))
    return repr(value)


def _err(e: DecodeError, step: str, partial: Any, type_name: str | None = None,
         field: str | None = None) -> DecodeError:
    """Record one step of the path and the partial value on the way up."""
    path = getattr(e, "path", None)
    if path is None:
        path = []
        e.path = path  # type: ignore[attr-defined]
    path.insert(0, step)
    if type_name is not None and e.type is None:
        e.type = type_name
    if field is not None and e.field is None:
        e.field = field
    e.partial = partial  # type: ignore[attr-defined]
    return e


def _keep_partial(e: DecodeError, put: Callable[[Any], None]) -> None:
    """Hand the partial value an inner decoder recorded in ``e`` (if any) to ``put``."""
    part = getattr(e, "partial", MISSING)
    if part is not MISSING:
        put(part)


def path_text(e: DecodeError) -> str:
    """``Account.orders[2].symbol`` for an error raised by this codec."""
    out = ""
    for step in getattr(e, "path", []):
        out += step if step.startswith("[") or not out else "." + step
    return out


def load_ir(source: Any) -> dict[str, Any]:
    """The IR as JSON dicts from a dict, a ``.ir.json`` path or ``fbec.model.ir.Schema``."""
    if isinstance(source, dict):
        return source
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        with open(source, encoding="utf-8") as f:
            return json.load(f)  # type: ignore[no-any-return]
    if hasattr(source, "packages") and hasattr(source, "main"):
        import importlib  # the compiler, only when given its dataclasses
        ir_json = importlib.import_module("fbec.model.ir_json")
        return dict(ir_json.to_json(source))
    raise TypeError(f"cannot read an IR from {type(source).__name__}")


class DynamicCodec:
    """Encode and decode any type of a schema, driven by its IR."""

    def __init__(self, ir: Any) -> None:
        self.ir = load_ir(ir)
        self.main: str = self.ir["main"]
        self.packages: dict[str, dict[str, Any]] = {p["name"]: p for p in self.ir["packages"]}
        self.structs: dict[str, dict[str, Any]] = {}
        self.enums: dict[str, dict[str, Any]] = {}
        for p in self.ir["packages"]:
            for s in p["structs"]:
                self.structs[s["qualified"]] = s
            for e in p["enums"] + p["flags"]:
                self.enums[e["qualified"]] = e
        self._min_final: dict[str, int] = {}
        self._struct_cost: dict[str, int] = {}
        self._default_cost: dict[str, int] = {}
        self._enum_names: dict[str, dict[int, str]] = {}

    # ------------------------------------------------------------ lookup

    def struct(self, name: str) -> dict[str, Any]:
        """A struct by qualified (``proto.Account``) or, in the main package, plain name."""
        s = self.structs.get(name) or self.structs.get(f"{self.main}.{name}")
        if s is None:
            known = ", ".join(sorted(self.structs))
            raise KeyError(f"unknown type '{name}' (known: {known})")
        return s

    def message_for(self, type_id: int, package: str | None = None) -> dict[str, Any] | None:
        """The message a receiver of ``package`` dispatches ``type_id`` to (docs/format.md 7.4)."""
        seen: set[str] = set()

        def look(pkg: str) -> dict[str, Any] | None:
            if pkg in seen or pkg not in self.packages:
                return None
            seen.add(pkg)
            p = self.packages[pkg]
            for s in p["structs"]:
                if s["message"] and s["type_id"] == type_id:
                    return dict(s)
            for imp in p["imports"]:
                found = look(imp)
                if found is not None:
                    return found
            return None
        return look(package or self.main)

    @staticmethod
    def ref(s: dict[str, Any]) -> TypeNode:
        return {"kind": "struct", "name": s["qualified"], "size": 4, "final_size": s["final_size"]}

    def _type(self, type_: str | TypeNode | dict[str, Any]) -> TypeNode:
        if isinstance(type_, str):
            return self.ref(self.struct(type_))
        if "qualified" in type_:
            return self.ref(type_)
        return type_

    # ------------------------------------------------------------ defaults

    def default(self, type_: str | TypeNode) -> Any:
        """The default-constructed value of a type (a struct: every field's schema default)."""
        return self._zero(self._type(type_))

    def _zero(self, t: TypeNode) -> Any:
        k = t["kind"]
        if k == "primitive":
            n = t["name"]
            if n == "bool":
                return False
            if n in ("float", "double"):
                return 0.0
            if n == "decimal":
                return Decimal(0)
            if n == "string":
                return ""
            if n == "bytes":
                return b""
            if n == "uuid":
                return NIL_UUID
            return 0
        if k in ("enum", "flags"):
            return 0
        if k == "struct":
            s = self.structs[t["name"]]
            out: dict[str, Any] = {"@type": s["qualified"]}
            for f in s["all_fields"]:
                out[f["name"]] = self.field_default(f)
            return out
        if k == "optional":
            return None
        if k == "array":
            return [self._zero(t["element"]) for _ in range(t["length"])]
        return []

    def field_default(self, f: dict[str, Any]) -> Any:
        """A field's schema default (docs/ir.md, Default)."""
        d = f["default"]
        k = d["kind"]
        t = f["type"]
        if k == "none":
            return self._zero(t)
        if k == "null":
            return None
        inner = t["element"] if t["kind"] == "optional" else t
        if k in ("bool", "int", "string", "timestamp", "enum", "flags"):
            return d["value"]
        if k == "real":
            if inner["kind"] == "primitive" and inner["name"] == "decimal":
                return Decimal(d["text"])
            v = float(d["text"])
            return _f32(v) if inner.get("name") == "float" else v
        if k == "utc":
            return time.time_ns()
        if k == "uuid":
            return _uuid.UUID(d["value"])
        if k == "uuid1":
            return _uuid.uuid1()
        if k == "uuid4":
            return _uuid.uuid4()
        raise ValueError(f"unknown default kind {k!r}")

    # ------------------------------------------------------------ versioned decode

    def decode(self, data: bytes, type_: str | TypeNode, model: str = "versioned",
               check: bool = True, limits: Limits | None = None) -> tuple[Any, int]:
        """Decode one root; returns ``(value, root size)``. Raises :class:`DecodeError`.

        Every decode makes the checks of ``verify()`` (docs/limits.md, section 4): ``check`` is
        accepted for older callers and changes nothing.
        """
        t = self._type(type_)
        if t["kind"] != "struct":
            raise ValueError("a root must be a struct")
        s = self.structs[t["name"]]
        data = bytes(data)
        if model == "final":
            return decode_final(lambda r, pos: self._fstruct(r, s, pos), data, s["type_id"], limits)
        if model != "versioned":
            raise ValueError(f"unknown model {model!r} (versioned or final)")

        def read(r: Reader, off: int) -> Any:
            return self._vstruct(r, s, off)
        return decode_versioned(read, data, limits)

    # ------------------------------------------------------------ decode costs (docs/limits.md, section 3)

    def _value_min(self, t: TypeNode) -> int:
        """A field's share of its struct's cost: its final minimum size, struct values counting 0."""
        k = t["kind"]
        if k == "struct":
            return 0
        if k == "optional":
            return 1
        if k == "array":
            return int(t["length"]) * self._value_min(t["element"])
        if t.get("final_size") is not None:
            return int(t["final_size"])
        return 4                                        # string, bytes, collections: the size

    def struct_cost(self, name: str) -> int:
        """What one struct value costs when it is materialized."""
        if name not in self._struct_cost:
            self._struct_cost[name] = max(1, sum(self._value_min(f["type"]) for f in self.structs[name]["all_fields"]))
        return self._struct_cost[name]

    def default_cost(self, t: TypeNode) -> int:
        """What a field's default value costs beyond its share: the struct values it holds.

        TODO(IR): from the IR's ``final_min_size`` once it carries it.
        """
        k = t["kind"]
        if k == "array":
            return int(t["length"]) * self.default_cost(t["element"])
        if k != "struct":
            return 0
        name = t["name"]
        if name not in self._default_cost:
            self._default_cost[name] = self.struct_cost(name) + sum(
                self.default_cost(f["type"]) for f in self.structs[name]["all_fields"])
        return self._default_cost[name]

    def element_cost(self, t: TypeNode) -> int:
        """What one collection element costs (struct elements: charged as structs)."""
        return 0 if t["kind"] == "struct" else max(1, self._value_min(t))

    def _vstruct(self, r: Reader, s: dict[str, Any], p: int) -> dict[str, Any]:
        q = s["qualified"]
        size = struct_header(r, p, s["type_id"], q, self.struct_cost(q))
        out: dict[str, Any] = {"@type": q}
        inherited_missing = s["base"] is not None and size < s["base_size"]
        try:
            for f in s["all_fields"]:
                t = f["type"]
                own = f["owner"] == q
                if (not own and inherited_missing) or f["offset"] + t["size"] > size:
                    r.spend(self.default_cost(t), p, f["name"])
                    out[f["name"]] = self.field_default(f)
                    continue
                try:
                    out[f["name"]] = self._vread(r, t, p, p + f["offset"], f["name"])
                except DecodeError as e:
                    _keep_partial(e, lambda part, name=f["name"]: out.__setitem__(name, part))
                    raise _err(e, f["name"], out, q, f["name"])
        finally:
            r.depth -= 1
        return out

    def _vread(self, r: Reader, t: TypeNode, base: int, pos: int, field: str) -> Any:
        k = t["kind"]
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n == "string" or n == "bytes":
                off = self._u32(r, pos, field)
                return read_string(r, base, off, field) if n == "string" else read_bytes(r, base, off, field)
            return self._scalar(r, n, pos, field)
        if k == "struct":
            off = self._u32(r, pos, field)
            if off == 0:
                raise DecodeError("struct offset 0", None, field, pos)
            return self._vstruct(r, self.structs[t["name"]], base + off)
        if k == "optional":
            if pos + 5 > r.size:
                raise DecodeError("optional slot beyond the end of the buffer", None, field, pos)
            if not r.data[pos]:
                return None
            off = _U32.unpack_from(r.data, pos + 1)[0]
            if off == 0:
                raise DecodeError("present optional with offset 0", None, field, pos)
            q = base + off
            return self._vread(r, t["element"], q, q, field)
        if k == "array":
            e = t["element"]
            return self._vitems(r, e, base, pos, t["length"], e["size"], field)
        off = self._u32(r, pos, field)
        if off == 0:
            return []
        v = base + off
        if k in ("vector", "list", "set"):
            e = t["element"]
            n = read_count(r, v, e["size"], self.element_cost(e), field)
            return self._vitems(r, e, base, v + 4, n, e["size"], field)
        kt, vt = t["key"], t["value"]
        step = kt["size"] + vt["size"]
        n = read_count(r, v, step, self.element_cost(kt) + self.element_cost(vt), field)
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            at = v + 4 + i * step
            try:
                key = self._vread(r, kt, base, at, field)
                out.append((key, self._vread(r, vt, base, at + kt["size"], field)))
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
        return out

    def _vitems(self, r: Reader, e: TypeNode, base: int, first: int, n: int, step: int, field: str) -> list[Any]:
        out: list[Any] = []
        for i in range(n):
            try:
                out.append(self._vread(r, e, base, first + i * step, field))
            except DecodeError as err:
                _keep_partial(err, out.append)
                raise _err(err, f"[{i}]", out)
        return out

    @staticmethod
    def _u32(r: Reader, pos: int, field: str) -> int:
        if pos < 0 or pos + 4 > r.size:
            raise DecodeError("offset slot beyond the end of the buffer", None, field, pos)
        return _U32.unpack_from(r.data, pos)[0]  # type: ignore[no-any-return]

    @staticmethod
    def _scalar(r: Reader, n: str, pos: int, field: str) -> Any:
        if n == "uuid" or n == "decimal":
            if pos < 0 or pos + 16 > r.size:
                raise DecodeError(f"{n} beyond the end of the buffer", None, field, pos)
            raw = r.data[pos:pos + 16]
            return _uuid.UUID(bytes=raw) if n == "uuid" else decode_decimal(raw)
        layout = _LAYOUT[n]
        if pos < 0 or pos + layout.size > r.size:
            raise DecodeError(f"{n} beyond the end of the buffer", None, field, pos)
        v = layout.unpack_from(r.data, pos)[0]
        return bool(v) if n == "bool" else v

    # ------------------------------------------------------------ final decode

    def _fstruct(self, r: Reader, s: dict[str, Any], pos: int) -> tuple[dict[str, Any], int]:
        q = s["qualified"]
        final_enter(r, pos, self.struct_cost(q))
        out: dict[str, Any] = {"@type": q}
        try:
            for f in s["all_fields"]:
                try:
                    out[f["name"]], pos = self._fread(r, f["type"], pos, f["name"])
                except DecodeError as e:
                    _keep_partial(e, lambda part, name=f["name"]: out.__setitem__(name, part))
                    raise _err(e, f["name"], out, q, f["name"])
        finally:
            r.depth -= 1
        return out, pos

    def _fread(self, r: Reader, t: TypeNode, pos: int, field: str) -> tuple[Any, int]:
        k = t["kind"]
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n == "string":
                return final_string(r, pos, field)
            if n == "bytes":
                return final_bytes(r, pos, field)
            v = self._scalar(r, n, pos, field)
            return v, pos + (16 if n in ("uuid", "decimal") else _LAYOUT[n].size)
        if k == "struct":
            return self._fstruct(r, self.structs[t["name"]], pos)
        if k == "optional":
            if not final_has(r, pos, field):
                return None, pos + 1
            return self._fread(r, t["element"], pos + 1, field)
        if k == "array":
            return self._fitems(r, t["element"], pos, t["length"], field)
        if k in ("vector", "list", "set"):
            e = t["element"]
            n = final_count(r, pos, self.min_final_size(e), self.element_cost(e), field)
            return self._fitems(r, e, pos + 4, n, field)
        kt, vt = t["key"], t["value"]
        n = final_count(r, pos, self.min_final_size(kt) + self.min_final_size(vt),
                        self.element_cost(kt) + self.element_cost(vt), field)
        pos += 4
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            try:
                key, pos = self._fread(r, kt, pos, field)
                value, pos = self._fread(r, vt, pos, field)
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
            out.append((key, value))
        return out, pos

    def _fitems(self, r: Reader, e: TypeNode, pos: int, n: int, field: str) -> tuple[list[Any], int]:
        out: list[Any] = []
        for i in range(n):
            try:
                v, pos = self._fread(r, e, pos, field)
            except DecodeError as err:
                _keep_partial(err, out.append)
                raise _err(err, f"[{i}]", out)
            out.append(v)
        return out, pos

    def min_final_size(self, t: TypeNode) -> int:
        """The fewest bytes a value of ``t`` takes in the final model (bounds counts)."""
        if t.get("final_size") is not None:
            return int(t["final_size"])
        k = t["kind"]
        if k == "primitive":
            return 4                                    # string / bytes: the length
        if k == "optional":
            return 1
        if k == "array":
            return int(t["length"]) * self.min_final_size(t["element"])
        if k == "struct":
            name = t["name"]
            if name not in self._min_final:
                self._min_final[name] = 0               # recursion through a struct: count it as 0
                self._min_final[name] = sum(self.min_final_size(f["type"])
                                            for f in self.structs[name]["all_fields"])
            return self._min_final[name]
        return 4                                        # collections: the count

    # ------------------------------------------------------------ protocol streams

    def frames(self, data: bytes, model: str = "versioned") -> Iterator[tuple[int, int, int]]:
        """Split a protocol stream: yields ``(offset, size, type_id)`` per frame."""
        data = bytes(data)
        minimum = MIN_FINAL_FRAME if model == "final" else MIN_VERSIONED_FRAME
        pos = 0
        while pos < len(data):
            if pos + 4 > len(data):
                raise DecodeError(f"truncated frame size ({len(data) - pos} bytes left)", None, None, pos)
            size = _U32.unpack_from(data, pos)[0]
            if size < minimum:
                raise DecodeError(f"frame size {size} below the minimum {minimum}", None, None, pos)
            if pos + size > len(data):
                raise DecodeError(f"frame of {size} bytes runs past the end of the stream "
                                  f"({len(data) - pos} bytes left)", None, None, pos)
            if model == "final":
                tid = _U32.unpack_from(data, pos + 4)[0]
            else:
                off = _U32.unpack_from(data, pos + 4)[0]
                if off < 8 or off + 8 > size:
                    raise DecodeError(f"frame struct offset {off} outside the frame", None, None, pos + 4)
                tid = _U32.unpack_from(data, pos + off + 4)[0]
            yield pos, size, tid
            pos += size

    def decode_stream(self, data: bytes, model: str = "versioned",
                      package: str | None = None) -> list[tuple[int, dict[str, Any] | None, Any]]:
        """Decode every frame of a stream: ``[(offset, message struct or None, value)]``.

        The message type comes from the frame's type id, as a Receiver of
        ``package`` (default: the main package) dispatches it; frames of an
        unknown type id give ``(offset, None, raw frame bytes)``.
        """
        data = bytes(data)
        out: list[tuple[int, dict[str, Any] | None, Any]] = []
        try:
            for pos, size, tid in self.frames(data, model):
                s = self.message_for(tid, package)
                if s is None:
                    out.append((pos, None, data[pos:pos + size]))
                    continue
                try:
                    value, _ = self.decode(data[pos:pos + size], s["qualified"], model)
                except DecodeError as e:
                    if e.offset is not None:
                        e.offset += pos
                    part = getattr(e, "partial", MISSING)
                    if part is not MISSING:
                        out.append((pos, s, part))
                    e.partial = out  # type: ignore[attr-defined]
                    raise
                out.append((pos, s, value))
        except DecodeError as e:
            if not hasattr(e, "partial"):
                e.partial = out  # type: ignore[attr-defined]
            raise
        return out

    # ------------------------------------------------------------ encode

    def encode(self, value: Any, type_: str | TypeNode | None = None, model: str = "versioned") -> bytes:
        """One root of ``value`` (a struct dict; its ``"@type"`` names the type when ``type_`` is None)."""
        if type_ is None:
            if not isinstance(value, dict) or "@type" not in value:
                raise EncodeError("no type given and the value has no '@type'")
            type_ = value["@type"]
        t = self._type(type_)
        if t["kind"] != "struct":
            raise ValueError("a root must be a struct")
        s = self.structs[t["name"]]
        w = bytearray(8)
        if model == "final":
            self._fwrite_struct(w, s, value, s["qualified"], 0)
            _U32.pack_into(w, 4, s["type_id"])
        elif model == "versioned":
            p = self._vwrite_struct(w, s, value, s["qualified"], 0)
            _U32.pack_into(w, 4, p)
        else:
            raise ValueError(f"unknown model {model!r} (versioned or final)")
        _U32.pack_into(w, 0, len(w))
        return bytes(w)

    def encode_stream(self, values: list[Any], model: str = "versioned") -> bytes:
        """Frames of several values (each a struct dict with ``"@type"``), concatenated."""
        return b"".join(self.encode(v, None, model) for v in values)

    def _fields(self, s: dict[str, Any], value: Any, where: str) -> Iterator[tuple[dict[str, Any], Any, str]]:
        if not isinstance(value, dict):
            raise EncodeError(f"{where}: expected a struct ({s['qualified']}), got {type(value).__name__}")
        for f in s["all_fields"]:
            name = f["name"]
            v = value[name] if name in value else self.field_default(f)
            yield f, v, f"{where}.{name}"

    def _vwrite_struct(self, w: bytearray, s: dict[str, Any], value: Any, where: str, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        p = alloc(w, s["body_size"])
        _U32.pack_into(w, p, s["body_size"])
        _U32.pack_into(w, p + 4, s["type_id"])
        for f, v, at in self._fields(s, value, where):
            self._vwrite(w, f["type"], p, p + f["offset"], v, at, depth)
        return p

    def _vwrite(self, w: bytearray, t: TypeNode, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        k = t["kind"]
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n == "string":
                _U32.pack_into(w, pos, write_string(w, self._str(v, where)) - base)
            elif n == "bytes":
                _U32.pack_into(w, pos, write_bytes(w, self._bytes(v, where)) - base)
            else:
                raw = self._scalar_bytes(n, v, where)
                w[pos:pos + len(raw)] = raw
        elif k == "struct":
            p = self._vwrite_struct(w, self.structs[t["name"]], v, where, depth + 1)
            _U32.pack_into(w, pos, p - base)
        elif k == "optional":
            if v is None:
                w[pos] = 0
                return
            e = t["element"]
            q = alloc(w, e["size"])
            w[pos] = 1
            _U32.pack_into(w, pos + 1, q - base)
            self._vwrite(w, e, q, q, v, where, depth)
        elif k == "array":
            items = self._list(v, where, t["length"])
            e = t["element"]
            for i, item in enumerate(items):
                self._vwrite(w, e, base, pos + i * e["size"], item, f"{where}[{i}]", depth)
        elif k in ("vector", "list", "set"):
            e = t["element"]
            items = self._list(v, where)
            if k == "set":
                items = self._sorted(items, e)
            p = alloc(w, 4 + len(items) * e["size"])
            _U32.pack_into(w, p, len(items))
            _U32.pack_into(w, pos, p - base)
            for i, item in enumerate(items):
                self._vwrite(w, e, base, p + 4 + i * e["size"], item, f"{where}[{i}]", depth)
        else:
            kt, vt = t["key"], t["value"]
            pairs = self._pairs(v, where)
            if k == "map":
                pairs = self._sorted_pairs(pairs, kt)
            step = kt["size"] + vt["size"]
            p = alloc(w, 4 + len(pairs) * step)
            _U32.pack_into(w, p, len(pairs))
            _U32.pack_into(w, pos, p - base)
            for i, (key, val) in enumerate(pairs):
                at = p + 4 + i * step
                self._vwrite(w, kt, base, at, key, f"{where}[{i}].key", depth)
                self._vwrite(w, vt, base, at + kt["size"], val, f"{where}[{i}].value", depth)

    def _fwrite_struct(self, w: bytearray, s: dict[str, Any], value: Any, where: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        for f, v, at in self._fields(s, value, where):
            self._fwrite(w, f["type"], v, at, depth)

    def _fwrite(self, w: bytearray, t: TypeNode, v: Any, where: str, depth: int) -> None:
        k = t["kind"]
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n == "string":
                write_string(w, self._str(v, where))
            elif n == "bytes":
                write_bytes(w, self._bytes(v, where))
            else:
                w += self._scalar_bytes(n, v, where)
        elif k == "struct":
            self._fwrite_struct(w, self.structs[t["name"]], v, where, depth + 1)
        elif k == "optional":
            if v is None:
                w.append(0)
            else:
                w.append(1)
                self._fwrite(w, t["element"], v, where, depth)
        elif k in ("array", "vector", "list", "set"):
            items = self._list(v, where, t["length"] if k == "array" else None)
            if k == "set":
                items = self._sorted(items, t["element"])
            if k != "array":
                w += _U32.pack(len(items))
            for i, item in enumerate(items):
                self._fwrite(w, t["element"], item, f"{where}[{i}]", depth)
        else:
            pairs = self._pairs(v, where)
            if k == "map":
                pairs = self._sorted_pairs(pairs, t["key"])
            w += _U32.pack(len(pairs))
            for i, (key, val) in enumerate(pairs):
                self._fwrite(w, t["key"], key, f"{where}[{i}].key", depth)
                self._fwrite(w, t["value"], val, f"{where}[{i}].value", depth)

    # ------------------------------------------------------------ value checks (encode)

    @staticmethod
    def _str(v: Any, where: str) -> str:
        if not isinstance(v, str):
            raise EncodeError(f"{where}: expected a string, got {type(v).__name__}")
        return v

    @staticmethod
    def _bytes(v: Any, where: str) -> bytes:
        if not isinstance(v, (bytes, bytearray, memoryview)):
            raise EncodeError(f"{where}: expected bytes, got {type(v).__name__}")
        return bytes(v)

    @staticmethod
    def _list(v: Any, where: str, length: int | None = None) -> list[Any]:
        if not isinstance(v, (list, tuple)):
            raise EncodeError(f"{where}: expected a list, got {type(v).__name__}")
        if length is not None and len(v) != length:
            raise EncodeError(f"{where}: expected {length} elements, got {len(v)}")
        return list(v)

    @staticmethod
    def _pairs(v: Any, where: str) -> list[tuple[Any, Any]]:
        if isinstance(v, dict):
            return list(v.items())
        if not isinstance(v, (list, tuple)):
            raise EncodeError(f"{where}: expected a list of [key, value] pairs, got {type(v).__name__}")
        out = []
        for i, pair in enumerate(v):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise EncodeError(f"{where}[{i}]: expected a [key, value] pair")
            out.append((pair[0], pair[1]))
        return out

    @staticmethod
    def _scalar_bytes(n: str, v: Any, where: str) -> bytes:
        try:
            if n == "uuid":
                if isinstance(v, str):
                    v = _uuid.UUID(v)
                if not isinstance(v, _uuid.UUID):
                    raise EncodeError(f"{where}: expected a uuid, got {type(v).__name__}")
                return v.bytes
            if n == "decimal":
                if isinstance(v, bool) or not isinstance(v, (Decimal, int, float)):
                    raise EncodeError(f"{where}: expected a decimal, got {type(v).__name__}")
                return encode_decimal(v)
            if n in ("float", "double"):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise EncodeError(f"{where}: expected a number, got {type(v).__name__}")
                v = float(v)
                if n == "float":
                    v = _f32(v)
                return _LAYOUT[n].pack(v)
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, int):
                raise EncodeError(f"{where}: expected an integer ({n}), got {type(v).__name__}")
            lo, hi = _RANGES[n]
            if not lo <= v <= hi:
                raise EncodeError(f"{where}: {v} is out of range for {n} [{lo}, {hi}]")
            return _LAYOUT[n].pack(v)
        except (InvalidOperation, ValueError, _struct.error) as e:
            if isinstance(e, EncodeError):
                raise
            raise EncodeError(f"{where}: {e}") from None

    # ------------------------------------------------------------ ordering of sets and maps

    def _sort_key(self, t: TypeNode) -> Callable[[Any], Any]:
        """The original's ordering (std::set / std::map): key fields for structs, signed char."""
        k = t["kind"]
        if k == "primitive":
            n = t["name"]
            if n == "char":
                return lambda v: (v & 0xFF) - 256 if (v & 0xFF) >= 0x80 else v
            if n == "uuid":
                return lambda v: v.bytes if isinstance(v, _uuid.UUID) else _uuid.UUID(v).bytes
            if n == "string":
                return lambda v: v.encode("utf-8", "surrogateescape")
            return lambda v: v
        if k == "struct":
            s = self.structs[t["name"]]
            keys = [(f["name"], self._sort_key(f["type"])) for f in s["all_fields"] if f["name"] in s["keys"]]
            return lambda v: tuple(fn(v.get(name)) for name, fn in keys)
        if k == "optional":
            inner = self._sort_key(t["element"])
            return lambda v: (0,) if v is None else (1, inner(v))
        return lambda v: v

    def _sorted(self, items: list[Any], t: TypeNode) -> list[Any]:
        """A set's elements in ascending order, equal keys once (the first), as std::set keeps them."""
        key = self._sort_key(t)
        try:
            ordered = sorted(items, key=key)
            out: list[Any] = []
            for item in ordered:
                if not out or key(out[-1]) != key(item):
                    out.append(item)
            return out
        except (TypeError, AttributeError):
            return items

    def _sorted_pairs(self, pairs: list[tuple[Any, Any]], t: TypeNode) -> list[tuple[Any, Any]]:
        key = self._sort_key(t)
        try:
            return sorted(pairs, key=lambda kv: key(kv[0]))
        except (TypeError, AttributeError):
            return pairs

    # ------------------------------------------------------------ typed value description

    def to_described(self, value: Any, type_: str | TypeNode) -> Any:
        """The value as the golden vectors' ``value`` description (JSON-ready)."""
        return self._desc(value, self._type(type_))

    def _desc(self, v: Any, t: TypeNode) -> Any:
        k = t["kind"]
        if v is MISSING:
            return None
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n in _WIDE:
                return str(v)
            if n == "float":
                f = float(v)
                return f if math.isnan(f) or math.isinf(f) else _Float32(f)
            if n == "decimal":
                return _DecimalText(v)
            if n == "bytes":
                return bytes(v).hex()
            if n == "uuid":
                return str(v)
            return v
        if k == "struct":
            s = self.structs[t["name"]]
            out: dict[str, Any] = {"@type": s["qualified"]}
            for f in s["all_fields"]:
                if f["name"] in v:
                    out[f["name"]] = self._desc(v[f["name"]], f["type"])
            return out
        if k == "optional":
            return None if v is None else self._desc(v, t["element"])
        if k in ("array", "vector", "list", "set"):
            return [self._desc(x, t["element"]) for x in v]
        return [[self._desc(a, t["key"]), self._desc(b, t["value"])] for a, b in v]

    def from_described(self, d: Any, type_: str | TypeNode | None = None) -> Any:
        """The inverse of :meth:`to_described` (a ``"@type"`` member picks the type when none is given)."""
        if type_ is None:
            if not isinstance(d, dict) or "@type" not in d:
                raise EncodeError("no type given and the value has no '@type'")
            type_ = d["@type"]
        return self._undesc(d, self._type(type_), "value")

    def _undesc(self, d: Any, t: TypeNode, where: str) -> Any:
        k = t["kind"]
        try:
            if k == "primitive" or k in ("enum", "flags"):
                n = t["name"] if k == "primitive" else t["wire"]
                if n in _WIDE:
                    return int(d)
                if n == "float":
                    return _f32(float(d))
                if n == "double":
                    return float(d)
                if n == "decimal":
                    return Decimal(str(d))
                if n == "bytes":
                    return bytes.fromhex(d)
                if n == "uuid":
                    return _uuid.UUID(d)
                if n == "bool":
                    return bool(d)
                return d
        except (ValueError, TypeError, InvalidOperation) as e:
            raise EncodeError(f"{where}: {e}") from None
        if k == "struct":
            s = self.structs[t["name"]]
            if not isinstance(d, dict):
                raise EncodeError(f"{where}: expected an object for {s['qualified']}")
            return self._struct_from(d, s, where, self._undesc)
        if k == "optional":
            return None if d is None else self._undesc(d, t["element"], where)
        if k in ("array", "vector", "list", "set"):
            return [self._undesc(x, t["element"], f"{where}[{i}]") for i, x in enumerate(self._list(d, where))]
        return [(self._undesc(a, t["key"], f"{where}[{i}].key"), self._undesc(b, t["value"], f"{where}[{i}].value"))
                for i, (a, b) in enumerate(self._pairs(d, where))]

    def _struct_from(self, members: dict[str, Any], s: dict[str, Any], where: str,
                     convert: Callable[[Any, TypeNode, str], Any]) -> dict[str, Any]:
        """A struct value from named members; a missing member takes the field's schema default."""
        out: dict[str, Any] = {"@type": s["qualified"]}
        for f in s["all_fields"]:
            name = f["name"]
            out[name] = convert(members[name], f["type"], f"{where}.{name}") if name in members \
                else self.field_default(f)
        return out

    def dumps_described(self, value: Any, type_: str | TypeNode, indent: int | None = None) -> str:
        """JSON text of :meth:`to_described` (floats exact, decimals with their scale)."""
        return _dump_described(self.to_described(value, type_), indent)

    # ------------------------------------------------------------ JSON mapping (docs/format.md 8)

    def to_json(self, value: Any, type_: str | TypeNode) -> str:
        """The original's compact JSON of a value."""
        return self._json(value, self._type(type_), 0)

    def _json(self, v: Any, t: TypeNode, depth: int) -> str:
        k = t["kind"]
        if k == "primitive":
            n = t["name"]
            if n == "bool":
                return jsonfmt.json_bool(v)
            if n == "char":
                return jsonfmt.json_char(v)
            if n == "float":
                return jsonfmt.json_float(v)
            if n == "double":
                return jsonfmt.json_double(v)
            if n == "decimal":
                return jsonfmt.json_decimal(v)
            if n == "string":
                return jsonfmt.json_string(v)
            if n == "bytes":
                return jsonfmt.json_bytes(v)
            if n == "uuid":
                return jsonfmt.json_uuid(v)
            return str(int(v))
        if k in ("enum", "flags"):
            return str(int(v))
        if k == "struct":
            s = self.structs[t["name"]]
            if depth >= MAX_DEPTH:
                raise EncodeError(f"cannot encode {s['qualified']}: structs nested deeper than {MAX_DEPTH}")
            return "{" + ",".join(jsonfmt.json_string(f["name"]) + ":" + self._json(v[f["name"]], f["type"], depth + 1)
                                  for f in s["all_fields"] if f["name"] in v and v[f["name"]] is not MISSING) + "}"
        if k == "optional":
            return "null" if v is None else self._json(v, t["element"], depth)
        if k in ("array", "vector", "list", "set"):
            return "[" + ",".join(self._json(x, t["element"], depth) for x in v) + "]"
        if t["key"]["kind"] == "struct":
            # a struct is not a member name: an array of [key, value] pairs (as the C++ runtime)
            return jsonfmt.json_pairs([self._json(a, t["key"], depth) + "," + self._json(b, t["value"], depth)
                                       for a, b in v])
        return "{" + ",".join(self._json_key(a, t["key"]) + ":" + self._json(b, t["value"], depth) for a, b in v) + "}"

    def _json_key(self, v: Any, t: TypeNode) -> str:
        k = t["kind"]
        if k in ("enum", "flags"):
            return jsonfmt.json_string(str(int(v)))     # the original cannot; the number, as C++
        if k != "primitive":
            raise EncodeError(f"the JSON mapping has no {k} map keys (use the value description instead)")
        n = t["name"]
        if n == "string":
            return jsonfmt.json_string(v)
        if n == "char":
            return jsonfmt.json_char_key(v)
        if n == "bool":
            return '"1"' if v else '"0"'
        if n == "float":
            return jsonfmt.json_float_key(v)
        if n == "double":
            return jsonfmt.json_double_key(v)
        if n == "decimal":
            return jsonfmt.json_decimal(v)
        if n == "uuid":
            return jsonfmt.json_uuid(v)
        if n == "bytes":
            return jsonfmt.json_bytes(v)
        return '"' + str(int(v)) + '"'

    def from_json(self, obj: Any, type_: str | TypeNode, limits: Limits | None = None) -> Any:
        """A value from the JSON mapping (parsed ``obj`` or JSON text), docs/format.md 8.3.

        Unknown members are ignored; missing members take the field's schema
        default; a value of the wrong JSON type is an error (the original sets
        it to zero and reports failure).
        """
        if isinstance(obj, (str, bytes)):
            b = jsonfmt.budget(obj, limits)
            obj = jsonfmt.parse(obj)
        else:  # already parsed: the budget of its compact text
            b = jsonfmt.budget(json.dumps(obj, separators=(",", ":")), limits)
        return self._from_json(obj, self._type(type_), "value", b)

    def _from_json(self, v: Any, t: TypeNode, where: str, b: Budget) -> Any:
        k = t["kind"]
        if k == "primitive" or k in ("enum", "flags"):
            n = t["name"] if k == "primitive" else t["wire"]
            if n == "bool":
                return jsonfmt.get_bool(v, where)
            if n == "char":
                return jsonfmt.get_char(v, where)
            if n in _RANGES:
                lo, hi = _RANGES[n]
                return jsonfmt.get_int(v, lo, hi, where)
            if n == "float":
                return jsonfmt.get_float32(v, where)
            if n == "double":
                return jsonfmt.get_float(v, where)
            if n == "decimal":
                return jsonfmt.get_decimal(v, where)
            if n == "string":
                return jsonfmt.get_str(v, where)
            if n == "bytes":
                return jsonfmt.get_bytes(v, where)
            if n == "uuid":
                return jsonfmt.get_uuid(v, where)
        if k == "struct":
            s = self.structs[t["name"]]
            members = jsonfmt.get_object(v, where)
            # the struct, and the default struct values of its omitted members, are charged
            cost = self.struct_cost(t["name"]) + sum(
                self.default_cost(f["type"]) for f in s["all_fields"] if f["name"] not in members)
            jsonfmt.enter(b, cost, t["name"])
            out = self._struct_from(members, s, where, lambda x, ft, w: self._from_json(x, ft, w, b))
            b.depth -= 1
            return out
        if k == "optional":
            return None if v is None else self._from_json(v, t["element"], where, b)
        if k in ("array", "vector", "list", "set"):
            items = jsonfmt.get_list(v, where)
            if k == "array" and len(items) != t["length"]:
                raise DecodeError(f"expected {t['length']} elements, got {len(items)}", None, where)
            return [self._from_json(x, t["element"], f"{where}[{i}]", b) for i, x in enumerate(items)]
        if t["key"]["kind"] == "struct":
            return [(self._from_json(x, t["key"], f"{where}[{i}].key", b),
                     self._from_json(y, t["value"], f"{where}[{i}].value", b))
                    for i, (x, y) in enumerate(jsonfmt.get_pairs(v, where))]
        obj = jsonfmt.get_object(v, where)
        pairs = [(self._json_key_value(x, t["key"], where), self._from_json(y, t["value"], f"{where}[{x}]", b))
                 for x, y in obj.items()]
        jsonfmt.distinct({key: None for key, _ in pairs}, pairs, where)
        return pairs

    def _json_key_value(self, key: str, t: TypeNode, where: str) -> Any:
        k = t["kind"]
        if k in ("enum", "flags"):
            lo, hi = _RANGES[t["wire"]]
            return jsonfmt.key_int(key, lo, hi, where)
        if k != "primitive":
            raise DecodeError(f"the JSON mapping has no {k} map keys", None, where)
        n = t["name"]
        if n == "string":
            return key
        if n == "char":
            return jsonfmt.key_char(key, where)
        if n == "bool":
            return jsonfmt.key_bool(key, where)
        if n == "float":
            return jsonfmt.key_float32(key, where)
        if n == "double":
            return jsonfmt.key_float(key, where)
        if n == "decimal":
            return jsonfmt.get_decimal(key, where)
        if n == "uuid":
            return jsonfmt.get_uuid(key, where)
        if n == "bytes":
            return jsonfmt.get_bytes(key, where)
        lo, hi = _RANGES[n]
        return jsonfmt.key_int(key, lo, hi, where)

    # ------------------------------------------------------------ text format (docs/format.md 9)

    def to_text(self, value: Any, type_: str | TypeNode) -> str:
        """The original's ``operator<<`` text (see :func:`fbe.text.text_bytes` for its bytes)."""
        return self._text(value, self._type(type_))

    def _names(self, q: str) -> dict[int, str]:
        names = self._enum_names.get(q)
        if names is None:
            names = {}
            for ev in self.enums[q]["values"]:
                names.setdefault(ev["value"], ev["name"])
            self._enum_names[q] = names
        return names

    def _text(self, v: Any, t: TypeNode) -> str:
        if v is MISSING:
            return "?"
        k = t["kind"]
        if k == "primitive":
            n = t["name"]
            if n == "bool":
                return _text.fmt_bool(v)
            if n == "char":
                return _text.fmt_char(v)
            if n == "wchar":
                return _text.fmt_wchar(v)
            if n in ("float", "double"):
                return _text.fmt_g(v)
            if n == "decimal":
                return _text.fmt_decimal(v)
            if n == "string":
                return '"' + str(v) + '"'
            if n == "uuid":
                return '"' + str(v) + '"'
            if n == "bytes":
                return f"bytes[{len(v)}]"
            return str(int(v))
        if k == "enum":
            return _text.fmt_enum(v, self._names(t["name"]))
        if k == "flags":
            return _text.fmt_flags(v, [(e["name"], e["value"]) for e in self.enums[t["name"]]["values"]])
        if k == "struct":
            return self._text_struct(v, self.structs[t["name"]])
        if k == "optional":
            return "null" if v is None else self._text(v, t["element"])
        if k in ("array", "vector", "list", "set"):
            inner = ",".join(self._text(x, t["element"]) for x in v)
            n = t["length"] if k == "array" else len(v)
            left, right = {"array": ("[", "]"), "vector": ("[", "]"), "list": ("<", ">"), "set": ("{", "}")}[k]
            return f"[{n}]{left}{inner}{right}"
        inner = ",".join(self._text(a, t["key"]) + "->" + self._text(b, t["value"]) for a, b in v)
        return f"[{len(v)}]<{{{inner}}}>" if k == "map" else f"[{len(v)}][{{{inner}}}]"

    def _text_struct(self, v: dict[str, Any], s: dict[str, Any]) -> str:
        parts = []
        if s["base"] is not None:
            parts.append(self._text_struct(v, self.structs[s["base"]]))
        for f in s["fields"]:
            name = f["name"]
            if name not in v:
                continue
            parts.append(f"{name}=***" if f["hidden"] else f"{name}={self._text(v[name], f['type'])}")
        return f"{s['name']}({','.join(parts)})"


# ---------------------------------------------------------------- described-value JSON output

class _Float32(float):
    """A binary32 value that prints as its shortest binary32 text."""


class _DecimalText(str):
    """Decimal text with the wire scale (``"123.456"``, ``"0"``)."""

    def __new__(cls, value: Any) -> Self:
        d = value if isinstance(value, Decimal) else Decimal(str(value))
        return super().__new__(cls, format(d, "f"))


def _dump_described(obj: Any, indent: int | None) -> str:
    """json.dumps with float32 values written by their shortest binary32 text."""
    marker = "\u0000f32:"

    def prep(x: Any) -> Any:
        if isinstance(x, _Float32):
            return marker + float32_text(float(x))
        if isinstance(x, dict):
            return {a: prep(b) for a, b in x.items()}
        if isinstance(x, list):
            return [prep(y) for y in x]
        if isinstance(x, _DecimalText):
            return str(x)
        return x

    text = json.dumps(prep(obj), indent=indent, ensure_ascii=False)
    out = []
    i = 0
    quoted = json.dumps(marker)[:-1]                  # '"\u0000f32:' as JSON writes it
    while True:
        j = text.find(quoted, i)
        if j < 0:
            out.append(text[i:])
            break
        end = text.find('"', j + len(quoted))
        out.append(text[i:j])
        out.append(text[j + len(quoted):end])
        i = end + 1
    return "".join(out)

