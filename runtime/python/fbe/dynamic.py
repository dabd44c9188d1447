"""A schema-driven (dynamic) codec: FBE bytes <-> Python values with no generated code.

The codec is driven by the compiler's IR (docs/ir.md): the
``fbec.model.ir.Schema`` dataclasses, or the JSON of ``fbec --ir`` (parsed,
as text or as a path to the ``.ir.json`` file), which ``fbec.model.ir_json``
loads into them. Types are ``fbec.model.ir`` types; what a primitive does in
each format is one entry of a table keyed by primitive (``PRIMITIVES``),
enums and flags use the entry of their wire integer. It reads and writes both binary
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
import os
import struct as _struct
import sys
import time
import uuid as _uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import Any, Callable, Union

from typing_extensions import Self

from . import jsonfmt
from . import text as _text
from .buffer import (
    Budget,
    Reader,
    alloc,
    char_order,
    claim,
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
from .errors import DecodeError, EncodeError, FrameError
from .limits import MAX_DEPTH, Limits
from .model import decode_final, decode_versioned
from .protocol import MIN_FINAL_FRAME, MIN_VERSIONED_FRAME, frame_type
from .values import NIL_UUID, decode_decimal, encode_decimal

try:
    from fbec.model import ir, ir_json
except ImportError:                     # a checkout: the compiler beside the runtime
    sys.path.append(os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "..", "..", "compiler")))
    from fbec.model import ir, ir_json

__all__ = ["MISSING", "PRIMITIVES", "DynamicCodec", "load_ir"]

TypeArg = Union[str, ir.Type, ir.Struct]
"""A type: a struct name (qualified, or plain in the main package), an IR type or an IR struct."""

_U32 = _struct.Struct("<I")
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


# ---------------------------------------------------------------- what each primitive does

class _Float32(float):
    """A binary32 value that prints as its shortest binary32 text."""


class _DecimalText(str):
    """Decimal text with the wire scale (``"123.456"``, ``"0"``)."""

    def __new__(cls, value: Any) -> Self:
        d = value if isinstance(value, Decimal) else Decimal(str(value))
        return super().__new__(cls, format(d, "f"))


def _check_int(name: str, lo: int, hi: int) -> Callable[[Any, str], int]:
    def check(v: Any, where: str) -> int:
        if isinstance(v, bool):
            v = int(v)
        if not isinstance(v, int):
            raise EncodeError(f"{where}: expected an integer ({name}), got {type(v).__name__}")
        if not lo <= v <= hi:
            raise EncodeError(f"{where}: {v} is out of range for {name} [{lo}, {hi}]")
        return v
    return check


def _check_real(name: str) -> Callable[[Any, str], float]:
    def check(v: Any, where: str) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise EncodeError(f"{where}: expected a number, got {type(v).__name__}")
        return _f32(float(v)) if name == "float" else float(v)
    return check


def _check_decimal(v: Any, where: str) -> Any:
    if isinstance(v, bool) or not isinstance(v, (Decimal, int, float)):
        raise EncodeError(f"{where}: expected a decimal, got {type(v).__name__}")
    return v


def _check_uuid(v: Any, where: str) -> _uuid.UUID:
    if isinstance(v, str):
        v = _uuid.UUID(v)
    if not isinstance(v, _uuid.UUID):
        raise EncodeError(f"{where}: expected a uuid, got {type(v).__name__}")
    return v


def _check_str(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise EncodeError(f"{where}: expected a string, got {type(v).__name__}")
    return v


def _check_bytes(v: Any, where: str) -> bytes:
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise EncodeError(f"{where}: expected bytes, got {type(v).__name__}")
    return bytes(v)


def _int_key(lo: int, hi: int) -> Callable[[str, str], int]:
    return lambda key, where: jsonfmt.key_int(key, lo, hi, where)


def _uuid_order(v: Any) -> bytes:
    return v.bytes if isinstance(v, _uuid.UUID) else _uuid.UUID(v).bytes


@dataclass(frozen=True)
class Primitive:
    """What the dynamic codec does with one primitive in every format (docs/ir.md, Primitives)."""
    name: str
    info: ir.PrimitiveInfo                                  # size, range and ordering, from the IR
    zero: Any                                               # the default-constructed value
    check: Callable[[Any, str], Any]                        # a value to write, checked ("where" for errors)
    layout: _struct.Struct | None                           # fixed-size values: their struct layout
    from_raw: Callable[[Any], Any]                          # unpacked (or 16 raw bytes) -> value
    to_raw: Callable[[Any], Any]                            # checked value -> what the layout packs
    json: Callable[[Any], str]                              # value -> JSON text
    from_json: Callable[[Any, str], Any]                    # parsed JSON value -> value
    json_key: Callable[[Any], str]                          # value -> JSON member name (quoted)
    from_json_key: Callable[[str, str], Any]                # member name -> value
    text: Callable[[Any], str]                              # value -> text format (docs/format.md 9)
    describe: Callable[[Any], Any]                          # value -> golden vectors' value description
    undescribe: Callable[[Any], Any]                        # value description -> value
    order: Callable[[Any], Any]                             # sort key in sets and map keys

    @property
    def final_size(self) -> int | None:
        return self.info.final_size

    def pack(self, v: Any, where: str) -> bytes:
        """The bytes of a fixed-size value, checked (EncodeError names ``where``)."""
        assert self.layout is not None
        try:
            return self.layout.pack(self.to_raw(self.check(v, where)))
        except (InvalidOperation, ValueError, _struct.error) as e:
            if isinstance(e, EncodeError):
                raise
            raise EncodeError(f"{where}: {e}") from None

    def unpack(self, data: bytes, pos: int) -> Any:
        assert self.layout is not None
        return self.from_raw(self.layout.unpack_from(data, pos)[0])


def _same(v: Any) -> Any:
    return v


def _integer(name: str, fmt: str) -> Primitive:
    info = ir.PRIMITIVES[name]
    assert info.range is not None
    lo, hi = info.range
    wide = name in ("int64", "uint64", "timestamp")        # beyond a JSON double: text in descriptions
    return Primitive(
        name, info, 0, _check_int(name, lo, hi), _struct.Struct("<" + fmt), _same, _same,
        json=lambda v: str(int(v)),
        from_json=lambda v, where: jsonfmt.get_int(v, lo, hi, where),
        json_key=lambda v: '"' + str(int(v)) + '"',
        from_json_key=_int_key(lo, hi),
        text=lambda v: str(int(v)),
        describe=(lambda v: str(v)) if wide else _same,
        undescribe=(lambda d: int(d)) if wide else _same,
        order=char_order if info.order == "signed" else _same)


def _primitives() -> dict[str, Primitive]:
    out = {name: _integer(name, fmt) for name, fmt in (
        ("byte", "B"), ("wchar", "I"), ("int8", "b"), ("uint8", "B"), ("int16", "h"), ("uint16", "H"),
        ("int32", "i"), ("uint32", "I"), ("int64", "q"), ("uint64", "Q"), ("timestamp", "Q"))}
    out["wchar"] = replace(out["wchar"], text=_text.fmt_wchar)
    char = _integer("char", "B")
    out["char"] = replace(char, json=jsonfmt.json_char, from_json=jsonfmt.get_char, json_key=jsonfmt.json_char_key,
                           from_json_key=jsonfmt.key_char, text=_text.fmt_char)
    boolean = _integer("bool", "B")
    out["bool"] = replace(boolean, zero=False, from_raw=bool, json=jsonfmt.json_bool, from_json=jsonfmt.get_bool,
                           json_key=lambda v: '"1"' if v else '"0"', from_json_key=jsonfmt.key_bool,
                           text=_text.fmt_bool, undescribe=bool)
    for name, fmt in (("float", "f"), ("double", "d")):
        single = name == "float"
        out[name] = Primitive(
            name, ir.PRIMITIVES[name], 0.0, _check_real(name), _struct.Struct("<" + fmt), _same, _same,
            json=jsonfmt.json_float if single else jsonfmt.json_double,
            from_json=jsonfmt.get_float32 if single else jsonfmt.get_float,
            json_key=jsonfmt.json_float_key if single else jsonfmt.json_double_key,
            from_json_key=jsonfmt.key_float32 if single else jsonfmt.key_float,
            text=_text.fmt_g,
            describe=_describe_float if single else _same,
            undescribe=(lambda d: _f32(float(d))) if single else float,
            order=_same)
    raw16 = _struct.Struct("<16s")
    out["decimal"] = Primitive(
        "decimal", ir.PRIMITIVES["decimal"], Decimal(0), _check_decimal, raw16, decode_decimal, encode_decimal,
        json=jsonfmt.json_decimal, from_json=jsonfmt.get_decimal, json_key=jsonfmt.json_decimal,
        from_json_key=jsonfmt.get_decimal, text=_text.fmt_decimal, describe=_DecimalText,
        undescribe=lambda d: Decimal(str(d)), order=_same)
    out["uuid"] = Primitive(
        "uuid", ir.PRIMITIVES["uuid"], NIL_UUID, _check_uuid, raw16, lambda raw: _uuid.UUID(bytes=raw),
        lambda v: v.bytes, json=jsonfmt.json_uuid, from_json=jsonfmt.get_uuid, json_key=jsonfmt.json_uuid,
        from_json_key=jsonfmt.get_uuid, text=lambda v: '"' + str(v) + '"', describe=str, undescribe=_uuid.UUID,
        order=_uuid_order)
    out["string"] = Primitive(
        "string", ir.PRIMITIVES["string"], "", _check_str, None, _same, _same,
        json=jsonfmt.json_string, from_json=jsonfmt.get_str, json_key=jsonfmt.json_string,
        from_json_key=lambda key, where: key, text=lambda v: '"' + str(v) + '"', describe=_same, undescribe=_same,
        order=lambda v: v.encode("utf-8", "surrogateescape"))
    out["bytes"] = Primitive(
        "bytes", ir.PRIMITIVES["bytes"], b"", _check_bytes, None, _same, _same,
        json=jsonfmt.json_bytes, from_json=jsonfmt.get_bytes, json_key=jsonfmt.json_bytes,
        from_json_key=jsonfmt.get_bytes, text=lambda v: f"bytes[{len(v)}]", describe=lambda v: bytes(v).hex(),
        undescribe=bytes.fromhex, order=_same)
    assert set(out) == set(ir.PRIMITIVES), "a primitive of the IR without an entry"
    return out


def _describe_float(v: Any) -> Any:
    f = float(v)
    return f if math.isnan(f) or math.isinf(f) else _Float32(f)


PRIMITIVES: dict[str, Primitive] = _primitives()
"""Every primitive of the IR: what the codec does with it in each format."""


def _primitive(t: ir.Type) -> Primitive | None:
    """The table entry of a primitive, or of an enum's or flags' wire integer."""
    if isinstance(t, ir.Primitive):
        return PRIMITIVES[t.name]
    if isinstance(t, ir.EnumRef):
        return PRIMITIVES[t.wire]
    return None


# ---------------------------------------------------------------- errors

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


def load_ir(source: Any) -> ir.Schema:
    """The IR dataclasses from themselves, the parsed JSON of ``fbec --ir``, its text or a ``.ir.json`` path."""
    if isinstance(source, ir.Schema):
        return source
    if isinstance(source, dict):
        return ir_json.from_json(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return ir_json.load(source)
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        with open(source, encoding="utf-8") as f:
            return ir_json.load(f.read())
    raise TypeError(f"cannot read an IR from {type(source).__name__}")


def _charged(value: Any, b: Budget, where: str) -> Any:
    """A scalar read from JSON: a string or bytes payload is charged its length (docs/limits.md 3)."""
    if isinstance(value, str):
        return jsonfmt.charged_str(value, b, where)
    if isinstance(value, bytes):
        return jsonfmt.charged_bytes(value, b, where)
    return value


class DynamicCodec:
    """Encode and decode any type of a schema, driven by its IR."""

    def __init__(self, schema: Any) -> None:
        self.ir = load_ir(schema)
        self.main: str = self.ir.main
        self.packages: dict[str, ir.Package] = {p.name: p for p in self.ir.packages}
        self.structs: dict[str, ir.Struct] = {s.qualified: s for p in self.ir.packages for s in p.structs}
        self.enums: dict[str, ir.Enum] = {e.qualified: e for p in self.ir.packages for e in p.enums + p.flags}
        self._enum_names: dict[str, dict[int, str]] = {}

    # ------------------------------------------------------------ lookup

    def struct(self, name: str) -> ir.Struct:
        """A struct by qualified (``proto.Account``) or, in the main package, plain name."""
        s = self.structs.get(name) or self.structs.get(f"{self.main}.{name}")
        if s is None:
            known = ", ".join(sorted(self.structs))
            raise KeyError(f"unknown type '{name}' (known: {known})")
        return s

    def message_for(self, type_id: int, package: str | None = None) -> ir.Struct | None:
        """The type a receiver of ``package`` dispatches ``type_id`` to (the IR's dispatch table)."""
        p = self.packages.get(package or self.main)
        if p is None:
            return None
        for d in p.dispatch:
            if d.type_id == type_id:
                return self.structs[d.type]
        return None

    @staticmethod
    def ref(s: ir.Struct) -> ir.StructRef:
        return s.ref()

    def _type(self, type_: TypeArg) -> ir.Type:
        if isinstance(type_, str):
            return self.struct(type_).ref()
        if isinstance(type_, ir.Struct):
            return type_.ref()
        return type_

    def _root(self, type_: TypeArg) -> ir.Struct:
        t = self._type(type_)
        if not isinstance(t, ir.StructRef):
            raise ValueError("a root must be a struct")  # noqa: TRY004 - the documented error
        return self.structs[t.name]

    # ------------------------------------------------------------ defaults

    def default(self, type_: TypeArg) -> Any:
        """The default-constructed value of a type (a struct: every field's schema default)."""
        return self._zero(self._type(type_))

    def _zero(self, t: ir.Type) -> Any:
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name].zero
        if isinstance(t, ir.EnumRef):
            return 0
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            out: dict[str, Any] = {"@type": s.qualified}
            for f in s.all_fields:
                out[f.name] = self.field_default(f)
            return out
        if isinstance(t, ir.Optional_):
            return None
        if isinstance(t, ir.Array):
            return [self._zero(t.element) for _ in range(t.length)]
        return []

    def field_default(self, f: ir.Field) -> Any:
        """A field's schema default (docs/ir.md, Default)."""
        d, t = f.default, f.type
        k = d.kind
        if k == "none":
            return self._zero(t)
        if k == "null":
            return None
        inner = t.element if isinstance(t, ir.Optional_) else t
        if k in ("bool", "int", "string", "timestamp", "enum", "flags"):
            return d.value
        if k == "real":
            assert d.text is not None
            if isinstance(inner, ir.Primitive) and inner.name == "decimal":
                return Decimal(d.text)
            v = float(d.text)
            return _f32(v) if isinstance(inner, ir.Primitive) and inner.name == "float" else v
        if k == "utc":
            return time.time_ns()
        if k == "uuid":
            return _uuid.UUID(str(d.value))
        if k == "uuid1":
            return _uuid.uuid1()
        if k == "uuid4":
            return _uuid.uuid4()
        raise ValueError(f"unknown default kind {k!r}")

    # ------------------------------------------------------------ versioned decode

    def decode(self, data: bytes, type_: TypeArg, model: str = "versioned",
               check: bool = True, limits: Limits | None = None) -> tuple[Any, int]:
        """Decode one root; returns ``(value, root size)``. Raises :class:`DecodeError`.

        Every decode makes the checks of ``verify()`` (docs/limits.md, section 4): ``check`` is
        accepted for older callers and changes nothing.
        """
        s = self._root(type_)
        data = bytes(data)
        if model == "final":
            return decode_final(lambda r, pos: self._fstruct(r, s, pos), data, s.type_id, limits)
        if model != "versioned":
            raise ValueError(f"unknown model {model!r} (versioned or final)")

        def read(r: Reader, off: int) -> Any:
            return self._vstruct(r, s, off)
        return decode_versioned(read, data, limits)

    # ------------------------------------------------------------ decode costs (docs/limits.md, section 3)

    def struct_cost(self, name: str) -> int:
        """What one struct value costs when it is materialized (the IR's decode_cost)."""
        return self.structs[name].decode_cost

    @staticmethod
    def default_cost(t: ir.Type) -> int:
        """What a field's default value costs beyond its share: the struct values it holds (the IR's)."""
        return ir.default_cost(t)

    @staticmethod
    def element_cost(t: ir.Type) -> int:
        """What one collection element costs (struct elements: charged as structs), from the IR."""
        return ir.element_cost(t)

    def _vstruct(self, r: Reader, s: ir.Struct, p: int) -> dict[str, Any]:
        q = s.qualified
        size = struct_header(r, p, s.type_id, q, self.struct_cost(q))
        out: dict[str, Any] = {"@type": q}
        inherited_missing = s.base is not None and size < s.base_size
        try:
            for f in s.all_fields:
                own = f.owner == q
                if (not own and inherited_missing) or f.offset + f.type.size > size:
                    r.spend(self.default_cost(f.type), p, f.name)
                    out[f.name] = self.field_default(f)
                    continue
                try:
                    out[f.name] = self._vread(r, f.type, p, p + f.offset, f.name)
                except DecodeError as e:
                    _keep_partial(e, partial(out.__setitem__, f.name))
                    raise _err(e, f.name, out, q, f.name)
        finally:
            r.depth -= 1
        return out

    def _vread(self, r: Reader, t: ir.Type, base: int, pos: int, field: str) -> Any:
        prim = _primitive(t)
        if prim is not None:
            if prim.name == "string" or prim.name == "bytes":
                off = self._u32(r, pos, field)
                return read_string(r, base, off, field) if prim.name == "string" else read_bytes(r, base, off, field)
            return self._scalar(r, prim, pos, field)
        if isinstance(t, ir.StructRef):
            off = self._u32(r, pos, field)
            if off == 0:
                raise DecodeError("struct offset 0", None, field, pos)
            return self._vstruct(r, self.structs[t.name], base + off)
        if isinstance(t, ir.Optional_):
            if pos + 5 > r.size:
                raise DecodeError("optional slot beyond the end of the buffer", None, field, pos)
            if not r.data[pos]:
                return None
            off = _U32.unpack_from(r.data, pos + 1)[0]
            if off == 0:
                raise DecodeError("present optional with offset 0", None, field, pos)
            q = base + off
            claim(r, q, t.element.size, field)
            return self._vread(r, t.element, q, q, field)
        if isinstance(t, ir.Array):
            return self._vitems(r, t.element, base, pos, t.length, field)
        off = self._u32(r, pos, field)
        if off == 0:
            return []
        v = base + off
        if isinstance(t, ir.Sequence):
            n = read_count(r, v, t.element.size, self.element_cost(t.element), field)
            items = self._vitems(r, t.element, base, v + 4, n, field)
            if t.kind == "set":
                self._distinct(items, t.element, field, v)
            return items
        assert isinstance(t, ir.Mapping)
        kt, vt = t.key, t.value
        step = kt.size + vt.size
        n = read_count(r, v, step, self.element_cost(kt) + self.element_cost(vt), field)
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            at = v + 4 + i * step
            try:
                key = self._vread(r, kt, base, at, field)
                out.append((key, self._vread(r, vt, base, at + kt.size, field)))
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
        self._distinct([key for key, _ in out], kt, field, v)
        return out

    def _key(self, value: Any, t: ir.Type) -> Any:
        """What makes two keys (set elements) of type t the same, as generated code compares them:
        a struct by its [key] fields (all structs without [key] fields are the same key)."""
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            types = {f.name: f.type for f in s.all_fields}
            return tuple(self._key(value[k], types[k]) for k in s.keys)
        return value

    def _distinct(self, keys: list[Any], t: ir.Type, field: str, pos: int) -> None:
        """Refuses a set, map or hash read from a buffer whose entries hold the same key twice
        (docs/limits.md 4), as generated code and the C++ readers do."""
        if len({self._key(k, t) for k in keys}) != len(keys):
            raise DecodeError("duplicate key: two entries read as the same key", None, field, pos)

    def _vitems(self, r: Reader, e: ir.Type, base: int, first: int, n: int, field: str) -> list[Any]:
        out: list[Any] = []
        for i in range(n):
            try:
                out.append(self._vread(r, e, base, first + i * e.size, field))
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
    def _scalar(r: Reader, prim: Primitive, pos: int, field: str) -> Any:
        size = prim.final_size
        assert size is not None
        if pos < 0 or pos + size > r.size:
            raise DecodeError(f"{prim.name} beyond the end of the buffer", None, field, pos)
        return prim.unpack(r.data, pos)

    # ------------------------------------------------------------ final decode

    def _fstruct(self, r: Reader, s: ir.Struct, pos: int) -> tuple[dict[str, Any], int]:
        q = s.qualified
        final_enter(r, pos, self.struct_cost(q))
        out: dict[str, Any] = {"@type": q}
        try:
            for f in s.all_fields:
                try:
                    out[f.name], pos = self._fread(r, f.type, pos, f.name)
                except DecodeError as e:
                    _keep_partial(e, partial(out.__setitem__, f.name))
                    raise _err(e, f.name, out, q, f.name)
        finally:
            r.depth -= 1
        return out, pos

    def _fread(self, r: Reader, t: ir.Type, pos: int, field: str) -> tuple[Any, int]:
        prim = _primitive(t)
        if prim is not None:
            if prim.name == "string":
                return final_string(r, pos, field)
            if prim.name == "bytes":
                return final_bytes(r, pos, field)
            assert prim.final_size is not None
            return self._scalar(r, prim, pos, field), pos + prim.final_size
        if isinstance(t, ir.StructRef):
            return self._fstruct(r, self.structs[t.name], pos)
        if isinstance(t, ir.Optional_):
            if not final_has(r, pos, field):
                return None, pos + 1
            return self._fread(r, t.element, pos + 1, field)
        if isinstance(t, ir.Array):
            return self._fitems(r, t.element, pos, t.length, field)
        if isinstance(t, ir.Sequence):
            n = final_count(r, pos, t.element.final_min_size, self.element_cost(t.element), field)
            items, end = self._fitems(r, t.element, pos + 4, n, field)
            if t.kind == "set":
                self._distinct(items, t.element, field, pos)
            return items, end
        assert isinstance(t, ir.Mapping)
        n = final_count(r, pos, t.key.final_min_size + t.value.final_min_size,
                        self.element_cost(t.key) + self.element_cost(t.value), field)
        start = pos
        pos += 4
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            try:
                key, pos = self._fread(r, t.key, pos, field)
                value, pos = self._fread(r, t.value, pos, field)
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
            out.append((key, value))
        self._distinct([key for key, _ in out], t.key, field, start)
        return out, pos

    def _fitems(self, r: Reader, e: ir.Type, pos: int, n: int, field: str) -> tuple[list[Any], int]:
        out: list[Any] = []
        for i in range(n):
            try:
                v, pos = self._fread(r, e, pos, field)
            except DecodeError as err:
                _keep_partial(err, out.append)
                raise _err(err, f"[{i}]", out)
            out.append(v)
        return out, pos

    # ------------------------------------------------------------ protocol streams

    def frames(self, data: bytes, model: str = "versioned") -> Iterator[tuple[int, int, int]]:
        """Split a protocol stream: yields ``(offset, size, type_id)`` per frame.

        The frame rules are the runtime's (:func:`fbe.protocol.frame_type`), as a Receiver applies them.
        """
        data = bytes(data)
        final = model == "final"
        minimum = MIN_FINAL_FRAME if final else MIN_VERSIONED_FRAME
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
            try:
                tid = frame_type(data[pos:pos + size], final)
            except FrameError as e:
                raise DecodeError(str(e), None, None, pos + 4) from None
            yield pos, size, tid
            pos += size

    def decode_stream(self, data: bytes, model: str = "versioned",
                      package: str | None = None) -> list[tuple[int, ir.Struct | None, Any]]:
        """Decode every frame of a stream: ``[(offset, message struct or None, value)]``.

        The message type comes from the frame's type id, as a Receiver of
        ``package`` (default: the main package) dispatches it; frames of an
        unknown type id give ``(offset, None, raw frame bytes)``.
        """
        data = bytes(data)
        out: list[tuple[int, ir.Struct | None, Any]] = []
        try:
            for pos, size, tid in self.frames(data, model):
                s = self.message_for(tid, package)
                if s is None:
                    out.append((pos, None, data[pos:pos + size]))
                    continue
                try:
                    value, _ = self.decode(data[pos:pos + size], s, model)
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

    def encode(self, value: Any, type_: TypeArg | None = None, model: str = "versioned") -> bytes:
        """One root of ``value`` (a struct dict; its ``"@type"`` names the type when ``type_`` is None)."""
        if type_ is None:
            if not isinstance(value, dict) or "@type" not in value:
                raise EncodeError("no type given and the value has no '@type'")
            type_ = str(value["@type"])
        s = self._root(type_)
        w = bytearray(8)
        if model == "final":
            self._fwrite_struct(w, s, value, s.qualified, 0)
            _U32.pack_into(w, 4, s.type_id)
        elif model == "versioned":
            p = self._vwrite_struct(w, s, value, s.qualified, 0)
            _U32.pack_into(w, 4, p)
        else:
            raise ValueError(f"unknown model {model!r} (versioned or final)")
        _U32.pack_into(w, 0, len(w))
        return bytes(w)

    def encode_stream(self, values: list[Any], model: str = "versioned") -> bytes:
        """Frames of several values (each a struct dict with ``"@type"``), concatenated."""
        return b"".join(self.encode(v, None, model) for v in values)

    def _fields(self, s: ir.Struct, value: Any, where: str) -> Iterator[tuple[ir.Field, Any, str]]:
        if not isinstance(value, dict):
            raise EncodeError(f"{where}: expected a struct ({s.qualified}), got {type(value).__name__}")
        for f in s.all_fields:
            v = value[f.name] if f.name in value else self.field_default(f)
            yield f, v, f"{where}.{f.name}"

    def _vwrite_struct(self, w: bytearray, s: ir.Struct, value: Any, where: str, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        p = alloc(w, s.body_size)
        _U32.pack_into(w, p, s.body_size)
        _U32.pack_into(w, p + 4, s.type_id)
        for f, v, at in self._fields(s, value, where):
            self._vwrite(w, f.type, p, p + f.offset, v, at, depth)
        return p

    def _vwrite(self, w: bytearray, t: ir.Type, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        prim = _primitive(t)
        if prim is not None:
            if prim.name == "string":
                _U32.pack_into(w, pos, write_string(w, _check_str(v, where)) - base)
            elif prim.name == "bytes":
                _U32.pack_into(w, pos, write_bytes(w, _check_bytes(v, where)) - base)
            else:
                raw = prim.pack(v, where)
                w[pos:pos + len(raw)] = raw
        elif isinstance(t, ir.StructRef):
            p = self._vwrite_struct(w, self.structs[t.name], v, where, depth + 1)
            _U32.pack_into(w, pos, p - base)
        elif isinstance(t, ir.Optional_):
            if v is None:
                w[pos] = 0
                return
            e = t.element
            q = alloc(w, e.size)
            w[pos] = 1
            _U32.pack_into(w, pos + 1, q - base)
            self._vwrite(w, e, q, q, v, where, depth)
        elif isinstance(t, ir.Array):
            items = self._list(v, where, t.length)
            e = t.element
            for i, item in enumerate(items):
                self._vwrite(w, e, base, pos + i * e.size, item, f"{where}[{i}]", depth)
        elif isinstance(t, ir.Sequence):
            e = t.element
            items = self._list(v, where)
            if t.kind == "set":
                self._distinct_elements(items, e, where)
                items = self._sorted(items, e)
            p = alloc(w, 4 + len(items) * e.size)
            _U32.pack_into(w, p, len(items))
            _U32.pack_into(w, pos, p - base)
            for i, item in enumerate(items):
                self._vwrite(w, e, base, p + 4 + i * e.size, item, f"{where}[{i}]", depth)
        else:
            assert isinstance(t, ir.Mapping)
            kt, vt = t.key, t.value
            pairs = self._pairs(v, where)
            self._distinct_pairs(pairs, kt, where)
            if t.kind == "map":
                pairs = self._sorted_pairs(pairs, kt)
            step = kt.size + vt.size
            p = alloc(w, 4 + len(pairs) * step)
            _U32.pack_into(w, p, len(pairs))
            _U32.pack_into(w, pos, p - base)
            for i, (key, val) in enumerate(pairs):
                at = p + 4 + i * step
                self._vwrite(w, kt, base, at, key, f"{where}[{i}].key", depth)
                self._vwrite(w, vt, base, at + kt.size, val, f"{where}[{i}].value", depth)

    def _fwrite_struct(self, w: bytearray, s: ir.Struct, value: Any, where: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        for f, v, at in self._fields(s, value, where):
            self._fwrite(w, f.type, v, at, depth)

    def _fwrite(self, w: bytearray, t: ir.Type, v: Any, where: str, depth: int) -> None:
        prim = _primitive(t)
        if prim is not None:
            if prim.name == "string":
                write_string(w, _check_str(v, where))
            elif prim.name == "bytes":
                write_bytes(w, _check_bytes(v, where))
            else:
                w += prim.pack(v, where)
        elif isinstance(t, ir.StructRef):
            self._fwrite_struct(w, self.structs[t.name], v, where, depth + 1)
        elif isinstance(t, ir.Optional_):
            if v is None:
                w.append(0)
            else:
                w.append(1)
                self._fwrite(w, t.element, v, where, depth)
        elif isinstance(t, (ir.Array, ir.Sequence)):
            items = self._list(v, where, t.length if isinstance(t, ir.Array) else None)
            if t.kind == "set":
                self._distinct_elements(items, t.element, where)
                items = self._sorted(items, t.element)
            if isinstance(t, ir.Sequence):
                w += _U32.pack(len(items))
            for i, item in enumerate(items):
                self._fwrite(w, t.element, item, f"{where}[{i}]", depth)
        else:
            assert isinstance(t, ir.Mapping)
            pairs = self._pairs(v, where)
            self._distinct_pairs(pairs, t.key, where)
            if t.kind == "map":
                pairs = self._sorted_pairs(pairs, t.key)
            w += _U32.pack(len(pairs))
            for i, (key, val) in enumerate(pairs):
                self._fwrite(w, t.key, key, f"{where}[{i}].key", depth)
                self._fwrite(w, t.value, val, f"{where}[{i}].value", depth)

    # ------------------------------------------------------------ value checks (encode)

    def _distinct_pairs(self, pairs: list[tuple[Any, Any]], t: ir.Type, where: str) -> None:
        """A map or hash whose pairs hold the same key twice is not written: no reader reads it
        (docs/limits.md 4)."""
        self._distinct_written([k for k, _ in pairs], t, where, "two entries have the same key")

    def _distinct_elements(self, items: list[Any], t: ir.Type, where: str) -> None:
        """Nor is a set holding the same element twice (docs/limits.md 4)."""
        self._distinct_written(items, t, where, "two elements are the same")

    def _distinct_written(self, keys: list[Any], t: ir.Type, where: str, what: str) -> None:
        # A malformed key is left to the key's writer to report.
        try:
            distinct = {self._key(k, t) for k in keys}
        except (KeyError, TypeError):
            return
        if len(distinct) != len(keys):
            raise EncodeError(f"{where}: {what} (no reader reads it)")

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

    # ------------------------------------------------------------ ordering of sets and maps

    def _sort_key(self, t: ir.Type) -> Callable[[Any], Any]:
        """The original's ordering (std::set / std::map, the IR's ``order`` of a primitive):
        key fields for structs, an absent optional first."""
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name].order
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            keys = [(f.name, self._sort_key(f.type)) for f in s.all_fields if f.name in s.keys]
            return lambda v: tuple(fn(v.get(name)) for name, fn in keys)
        if isinstance(t, ir.Optional_):
            inner = self._sort_key(t.element)
            return lambda v: (0,) if v is None else (1, inner(v))
        return _same

    def _sorted(self, items: list[Any], t: ir.Type) -> list[Any]:
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

    def _sorted_pairs(self, pairs: list[tuple[Any, Any]], t: ir.Type) -> list[tuple[Any, Any]]:
        key = self._sort_key(t)
        try:
            return sorted(pairs, key=lambda kv: key(kv[0]))
        except (TypeError, AttributeError):
            return pairs

    # ------------------------------------------------------------ typed value description

    def to_described(self, value: Any, type_: TypeArg) -> Any:
        """The value as the golden vectors' ``value`` description (JSON-ready)."""
        return self._desc(value, self._type(type_))

    def _desc(self, v: Any, t: ir.Type) -> Any:
        if v is MISSING:
            return None
        prim = _primitive(t)
        if prim is not None:
            return prim.describe(v)
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            out: dict[str, Any] = {"@type": s.qualified}
            for f in s.all_fields:
                if f.name in v:
                    out[f.name] = self._desc(v[f.name], f.type)
            return out
        if isinstance(t, ir.Optional_):
            return None if v is None else self._desc(v, t.element)
        if isinstance(t, (ir.Array, ir.Sequence)):
            return [self._desc(x, t.element) for x in v]
        assert isinstance(t, ir.Mapping)
        return [[self._desc(a, t.key), self._desc(b, t.value)] for a, b in v]

    def from_described(self, d: Any, type_: TypeArg | None = None) -> Any:
        """The inverse of :meth:`to_described` (a ``"@type"`` member picks the type when none is given)."""
        if type_ is None:
            if not isinstance(d, dict) or "@type" not in d:
                raise EncodeError("no type given and the value has no '@type'")
            type_ = str(d["@type"])
        return self._undesc(d, self._type(type_), "value")

    def _undesc(self, d: Any, t: ir.Type, where: str) -> Any:
        prim = _primitive(t)
        if prim is not None:
            try:
                return prim.undescribe(d)
            except (ValueError, TypeError, InvalidOperation) as e:
                raise EncodeError(f"{where}: {e}") from None
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            if not isinstance(d, dict):
                raise EncodeError(f"{where}: expected an object for {s.qualified}")
            return self._struct_from(d, s, where, self._undesc)
        if isinstance(t, ir.Optional_):
            return None if d is None else self._undesc(d, t.element, where)
        if isinstance(t, (ir.Array, ir.Sequence)):
            return [self._undesc(x, t.element, f"{where}[{i}]") for i, x in enumerate(self._list(d, where))]
        assert isinstance(t, ir.Mapping)
        return [(self._undesc(a, t.key, f"{where}[{i}].key"), self._undesc(b, t.value, f"{where}[{i}].value"))
                for i, (a, b) in enumerate(self._pairs(d, where))]

    def _struct_from(self, members: dict[str, Any], s: ir.Struct, where: str,
                     convert: Callable[[Any, ir.Type, str], Any]) -> dict[str, Any]:
        """A struct value from named members; a missing member takes the field's schema default."""
        out: dict[str, Any] = {"@type": s.qualified}
        for f in s.all_fields:
            out[f.name] = convert(members[f.name], f.type, f"{where}.{f.name}") if f.name in members \
                else self.field_default(f)
        return out

    def dumps_described(self, value: Any, type_: TypeArg, indent: int | None = None) -> str:
        """JSON text of :meth:`to_described` (floats exact, decimals with their scale)."""
        return _dump_described(self.to_described(value, type_), indent)

    # ------------------------------------------------------------ JSON mapping (docs/format.md 8)

    def to_json(self, value: Any, type_: TypeArg) -> str:
        """The original's compact JSON of a value."""
        return self._json(value, self._type(type_), 0)

    def _json(self, v: Any, t: ir.Type, depth: int) -> str:
        prim = _primitive(t)
        if prim is not None:
            return prim.json(v)
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            if depth >= MAX_DEPTH:
                raise EncodeError(f"cannot encode {s.qualified}: structs nested deeper than {MAX_DEPTH}")
            return "{" + ",".join(jsonfmt.json_string(f.name) + ":" + self._json(v[f.name], f.type, depth + 1)
                                  for f in s.all_fields if f.name in v and v[f.name] is not MISSING) + "}"
        if isinstance(t, ir.Optional_):
            return "null" if v is None else self._json(v, t.element, depth)
        if isinstance(t, (ir.Array, ir.Sequence)):
            return "[" + ",".join(self._json(x, t.element, depth) for x in v) + "]"
        assert isinstance(t, ir.Mapping)
        if isinstance(t.key, ir.StructRef):
            # a struct is not a member name: an array of [key, value] pairs (as the C++ runtime)
            return jsonfmt.json_pairs([self._json(a, t.key, depth) + "," + self._json(b, t.value, depth)
                                       for a, b in v])
        return "{" + ",".join(self._json_key(a, t.key) + ":" + self._json(b, t.value, depth) for a, b in v) + "}"

    @staticmethod
    def _json_key(v: Any, t: ir.Type) -> str:
        prim = _primitive(t)
        if prim is None:
            raise EncodeError(f"the JSON mapping has no {t.kind} map keys (use the value description instead)")
        return prim.json_key(v)                       # enums and flags: the number, as C++

    def from_json(self, obj: Any, type_: TypeArg, limits: Limits | None = None) -> Any:
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

    def _from_json(self, v: Any, t: ir.Type, where: str, b: Budget) -> Any:
        prim = _primitive(t)
        if prim is not None:
            return _charged(prim.from_json(v, where), b, where)
        if isinstance(t, ir.StructRef):
            s = self.structs[t.name]
            members = jsonfmt.get_object(v, where)
            # the struct, and the default struct values of its omitted members, are charged
            cost = self.struct_cost(t.name) + sum(
                self.default_cost(f.type) for f in s.all_fields if f.name not in members)
            jsonfmt.enter(b, cost, t.name)
            out = self._struct_from(members, s, where, lambda x, ft, w: self._from_json(x, ft, w, b))
            b.depth -= 1
            return out
        if isinstance(t, ir.Optional_):
            return None if v is None else self._from_json(v, t.element, where, b)
        if isinstance(t, (ir.Array, ir.Sequence)):
            items = jsonfmt.get_list(v, where)
            if isinstance(t, ir.Array) and len(items) != t.length:
                raise DecodeError(f"expected {t.length} elements, got {len(items)}", None, where)
            if isinstance(t, ir.Sequence):  # a fixed array's elements are part of its struct's cost
                jsonfmt.charged(items, b, self.element_cost(t.element), where)
            values = [self._from_json(x, t.element, f"{where}[{i}]", b) for i, x in enumerate(items)]
            if isinstance(t, ir.Sequence) and t.kind == "set" and \
                    len({self._key(k, t.element) for k in values}) != len(values):
                raise DecodeError("two set elements read as the same element", None, where)
            return values
        assert isinstance(t, ir.Mapping)
        cost = self.element_cost(t.key) + self.element_cost(t.value)
        if isinstance(t.key, ir.StructRef):
            return [(self._from_json(x, t.key, f"{where}[{i}].key", b),
                     self._from_json(y, t.value, f"{where}[{i}].value", b))
                    for i, (x, y) in enumerate(jsonfmt.charged(jsonfmt.get_pairs(v, where), b, cost, where))]
        obj = jsonfmt.charged(jsonfmt.get_object(v, where), b, cost, where)
        pairs = [(_charged(self._json_key_value(x, t.key, where), b, where),
                  self._from_json(y, t.value, f"{where}[{x}]", b))
                 for x, y in obj.items()]
        jsonfmt.distinct({key: None for key, _ in pairs}, pairs, where)
        return pairs

    @staticmethod
    def _json_key_value(key: str, t: ir.Type, where: str) -> Any:
        prim = _primitive(t)
        if prim is None:
            raise DecodeError(f"the JSON mapping has no {t.kind} map keys", None, where)
        return prim.from_json_key(key, where)

    # ------------------------------------------------------------ text format (docs/format.md 9)

    def to_text(self, value: Any, type_: TypeArg) -> str:
        """The original's ``operator<<`` text (see :func:`fbe.text.text_bytes` for its bytes)."""
        return self._text(value, self._type(type_))

    def _names(self, q: str) -> dict[int, str]:
        names = self._enum_names.get(q)
        if names is None:
            names = {}
            for ev in self.enums[q].values:
                names.setdefault(ev.value, ev.name)
            self._enum_names[q] = names
        return names

    def _text(self, v: Any, t: ir.Type) -> str:
        if v is MISSING:
            return "?"
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name].text(v)
        if isinstance(t, ir.EnumRef):
            if t.kind == "enum":
                return _text.fmt_enum(v, self._names(t.name))
            return _text.fmt_flags(v, [(e.name, e.value) for e in self.enums[t.name].values])
        if isinstance(t, ir.StructRef):
            return self._text_struct(v, self.structs[t.name])
        if isinstance(t, ir.Optional_):
            return "null" if v is None else self._text(v, t.element)
        left, right = ir.TEXT_BRACKETS[t.kind]
        if isinstance(t, (ir.Array, ir.Sequence)):
            inner = ",".join(self._text(x, t.element) for x in v)
            return f"[{t.length if isinstance(t, ir.Array) else len(v)}]{left}{inner}{right}"
        assert isinstance(t, ir.Mapping)
        inner = ",".join(self._text(a, t.key) + "->" + self._text(b, t.value) for a, b in v)
        return f"[{len(v)}]{left}{inner}{right}"

    def _text_struct(self, v: dict[str, Any], s: ir.Struct) -> str:
        parts = []
        if s.base is not None:
            parts.append(self._text_struct(v, self.structs[s.base]))
        for f in s.fields:
            if f.name not in v:
                continue
            parts.append(f"{f.name}=***" if f.hidden else f"{f.name}={self._text(v[f.name], f.type)}")
        return f"{s.name}({','.join(parts)})"


# ---------------------------------------------------------------- described-value JSON output

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
