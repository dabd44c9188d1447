"""A schema-driven (dynamic) codec: FBE bytes <-> Python values with no generated code.

The codec is driven by the compiler's IR (docs/ir.md): the
``fbec.model.ir.Schema`` dataclasses, or the JSON of ``fbec --ir`` (parsed,
as text or as a path to the ``.ir.json`` file), which ``fbec.model.ir_json``
loads into them (``fbec.model.ir_json.read``). Types are ``fbec.model.ir``
types; each becomes one node (``DynamicCodec.node``, made through ``_NODES``,
the one dispatch on the IR's type classes) with a method per format, holding
the nodes of the types inside it. What a primitive does in each format is one
entry of a table keyed by primitive (``PRIMITIVES``), enums and flags use the
entry of their wire integer. It reads and writes both binary
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import TYPE_CHECKING, Any

# The IR is the compiler's (fbec.model, standard library only): the fbe-toolkit wheel installs fbec
# beside fbe; a checkout puts compiler/ on PYTHONPATH beside runtime/python (docs/tools.md).
from fbec.model import ir, ir_json

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
from .final import integer_code
from .limits import MAX_DEPTH, Limits
from .model import decode_final, decode_versioned
from .protocol import MIN_FINAL_FRAME, MIN_VERSIONED_FRAME, frame_type
from .values import NIL_UUID, decode_decimal, encode_decimal

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["MISSING", "PRIMITIVES", "DynamicCodec", "load_ir"]

TypeArg = str | ir.Type | ir.Struct
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


# A primitive's check: the value to write, or an EncodeError saying what is wrong with it. The binary
# writers and the JSON writer make the same checks (the writers put the field path in front).

def _check_int(name: str, lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool):
            v = int(v)
        if not isinstance(v, int):
            raise EncodeError(f"expected an integer ({name}), got {type(v).__name__}")
        if not lo <= v <= hi:
            raise EncodeError(f"{v} is out of range for {name} [{lo}, {hi}]")
        return v
    return check


def _check_real(name: str) -> Callable[[Any], float]:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise EncodeError(f"expected a number, got {type(v).__name__}")
        return _f32(float(v)) if name == "float" else float(v)
    return check


def _check_decimal(v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, (Decimal, int, float)):
        raise EncodeError(f"expected a decimal, got {type(v).__name__}")
    return v


def _check_uuid(v: Any) -> _uuid.UUID:
    if isinstance(v, str):
        v = _uuid.UUID(v)
    if not isinstance(v, _uuid.UUID):
        raise EncodeError(f"expected a uuid, got {type(v).__name__}")
    return v


def _check_str(v: Any) -> str:
    if not isinstance(v, str):
        raise EncodeError(f"expected a string, got {type(v).__name__}")
    return v


def _check_bytes(v: Any) -> bytes:
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise EncodeError(f"expected bytes, got {type(v).__name__}")
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
    check: Callable[[Any], Any]                             # a value to write, checked (every writer)
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
            return self.layout.pack(self.to_raw(self.check(v)))
        except (InvalidOperation, ValueError, _struct.error) as e:     # a decimal no decimal holds too
            raise EncodeError(f"{where}: {e}") from None

    def unpack(self, data: bytes, pos: int) -> Any:
        assert self.layout is not None
        return self.from_raw(self.layout.unpack_from(data, pos)[0])


def _same(v: Any) -> Any:
    return v


def _integer(name: str) -> Primitive:
    info = ir.PRIMITIVES[name]
    assert info.range is not None
    lo, hi = info.range
    fmt = "B" if name == "bool" else integer_code(lo, hi)
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
    out = {name: _integer(name) for name in (
        "byte", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "timestamp")}
    out["wchar"] = replace(out["wchar"], text=_text.fmt_wchar)
    char = _integer("char")
    out["char"] = replace(char, json=jsonfmt.json_char, from_json=jsonfmt.get_char, json_key=jsonfmt.json_char_key,
                           from_json_key=jsonfmt.key_char, text=_text.fmt_char)
    boolean = _integer("bool")
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


def _json_within(e: EncodeError, step: str) -> EncodeError:
    """An error of the JSON writer on its way up: ``step`` (``.name``, ``[i]``, ``[i].key``) put in
    front of the path it names (``DynamicCodec.to_json`` writes it as the binary writers do)."""
    e.json_path = step + getattr(e, "json_path", "")  # type: ignore[attr-defined]
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



load_ir = ir_json.read
"""The IR dataclasses from themselves, the parsed JSON of ``fbec --ir``, its text or a ``.ir.json`` path."""


def _charged(value: Any, b: Budget, where: str) -> Any:
    """A scalar read from JSON: a string or bytes payload is charged its length (docs/limits.md 3)."""
    if isinstance(value, str):
        return jsonfmt.charged_str(value, b, where)
    if isinstance(value, bytes):
        return jsonfmt.charged_bytes(value, b, where)
    return value


def _offset(r: Reader, pos: int, field: str) -> int:
    """The 4-byte offset (or size) slot at ``pos``, bounds checked."""
    if pos < 0 or pos + 4 > r.size:
        raise DecodeError("offset slot beyond the end of the buffer", None, field, pos)
    return _U32.unpack_from(r.data, pos)[0]  # type: ignore[no-any-return]


def _list(v: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, (list, tuple)):
        raise EncodeError(f"{where}: expected a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise EncodeError(f"{where}: expected {length} elements, got {len(v)}")
    return list(v)


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


# ---------------------------------------------------------------- one node per IR type

class _Node:
    """What the codec does with the values of one IR type, in every format: one method per walk
    (defaults, both binary models, keys and their order, value descriptions, JSON, text).

    :meth:`DynamicCodec.node` makes the node of a type through ``_NODES``, the one dispatch on the
    IR's type classes; a node holds the nodes of the types inside it, so a walk goes from node to
    node without looking at a type again."""

    def __init__(self, codec: DynamicCodec, t: Any) -> None:
        self.t: ir.Type = t
        self.size: int = t.size                           # the versioned slot
        self._order: Callable[[Any], Any] | None = None

    def link(self, codec: DynamicCodec) -> None:
        """Find the nodes of the types inside this one (called once the node is cached, so a
        recursive struct finds itself)."""

    def zero(self) -> Any:
        """The default-constructed value."""
        raise NotImplementedError

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        """The value whose versioned slot is at ``pos`` (offsets count from ``base``)."""
        raise NotImplementedError

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        """The final-model value at ``pos`` and the position after it."""
        raise NotImplementedError

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        """Fill the versioned slot at ``pos`` (data it points to goes to the end of ``w``)."""
        raise NotImplementedError

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        """Append the final-model bytes of ``v``."""
        raise NotImplementedError

    def key(self, v: Any) -> Any:
        """What makes two keys (set elements) the same, as generated code compares them."""
        return v

    def sort_key(self) -> Callable[[Any], Any]:
        """The original's ordering of keys (std::set / std::map, the IR's ``order`` of a primitive)."""
        if self._order is None:
            self._order = self.make_order()
        return self._order

    def make_order(self) -> Callable[[Any], Any]:
        return _same

    def desc(self, v: Any) -> Any:
        """``v`` as the golden vectors' value description (JSON-ready)."""
        raise NotImplementedError

    def undesc(self, d: Any, where: str) -> Any:
        raise NotImplementedError

    def json(self, v: Any, depth: int) -> str:
        raise NotImplementedError

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        raise NotImplementedError

    def json_key(self, v: Any) -> str:
        """``v`` as a JSON member name (quoted), as a map key."""
        raise EncodeError(f"the JSON mapping has no {self.t.kind} map keys (use the value description instead)")

    def from_json_key(self, key: str, where: str) -> Any:
        raise DecodeError(f"the JSON mapping has no {self.t.kind} map keys", None, where)

    def text(self, v: Any) -> str:
        """The text format (docs/format.md 9)."""
        raise NotImplementedError


def _described(n: _Node, v: Any) -> Any:
    return None if v is MISSING else n.desc(v)


def _texted(n: _Node, v: Any) -> str:
    return "?" if v is MISSING else n.text(v)


class _Primitive(_Node):
    """Every format of a primitive but the binary ones: its entry of ``PRIMITIVES``."""

    def __init__(self, codec: DynamicCodec, t: Any, prim: Primitive) -> None:
        super().__init__(codec, t)
        self.prim = prim

    def zero(self) -> Any:
        return self.prim.zero

    def make_order(self) -> Callable[[Any], Any]:
        return self.prim.order

    def desc(self, v: Any) -> Any:
        return self.prim.describe(v)

    def undesc(self, d: Any, where: str) -> Any:
        try:
            return self.prim.undescribe(d)
        except (ValueError, TypeError, InvalidOperation) as e:
            raise EncodeError(f"{where}: {e}") from None

    def json(self, v: Any, depth: int) -> str:
        return self.prim.json(self.prim.check(v))      # the binary writers' checks (Primitive.pack)

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        return _charged(self.prim.from_json(v, where), b, where)

    def json_key(self, v: Any) -> str:
        return self.prim.json_key(self.prim.check(v))

    def from_json_key(self, key: str, where: str) -> Any:
        return self.prim.from_json_key(key, where)

    def text(self, v: Any) -> str:
        return self.prim.text(v)


class _Scalar(_Primitive):
    """A fixed-size primitive: its bytes are the same in both models."""

    def __init__(self, codec: DynamicCodec, t: Any, prim: Primitive) -> None:
        super().__init__(codec, t, prim)
        assert prim.final_size is not None and prim.layout is not None
        self.final_size: int = prim.final_size
        self.unpack_from = prim.layout.unpack_from
        self.from_raw = prim.from_raw
        self.beyond = f"{prim.name} beyond the end of the buffer"

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        if pos < 0 or pos + self.final_size > r.size:
            raise DecodeError(self.beyond, None, field, pos)
        return self.from_raw(self.unpack_from(r.data, pos)[0])

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        return self.vread(r, pos, pos, field), pos + self.final_size

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        raw = self.prim.pack(v, where)
        w[pos:pos + len(raw)] = raw

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        w += self.prim.pack(v, where)


class _Variable(_Primitive):
    """string or bytes: an offset to the length and the bytes (versioned), or the length and the
    bytes in place (final); a string's are UTF-8."""

    def __init__(self, codec: DynamicCodec, t: Any, prim: Primitive) -> None:
        super().__init__(codec, t, prim)
        string = t.name == "string"
        self.read = read_string if string else read_bytes
        self.final = final_string if string else final_bytes
        self.write: Callable[[bytearray, Any], int] = write_string if string else write_bytes
        self.check: Callable[[Any], Any] = _check_str if string else _check_bytes

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        return self.read(r, base, _offset(r, pos, field), field)

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        return self.final(r, pos, field)

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        _U32.pack_into(w, pos, self.written(w, v, where) - base)

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        self.written(w, v, where)

    def written(self, w: bytearray, v: Any, where: str) -> int:
        """Appends the checked value (where it starts): a str holding a surrogate that stands for
        no byte is refused as the JSON writer refuses it."""
        try:
            return self.write(w, self.check(v))
        except UnicodeEncodeError:
            raise EncodeError(f"{where}: {jsonfmt.lone_surrogate_error(v)}") from None
        except EncodeError as e:
            raise EncodeError(f"{where}: {e}") from None


class _Decimal(_Scalar):
    """A decimal: a scale above 28 or a reserved flag bit is refused where it is read
    (docs/format.md 2.4)."""

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        if pos < 0 or pos + 16 > r.size:
            raise DecodeError(self.beyond, None, field, pos)
        return decode_decimal(r.data[pos:pos + 16], pos, field)


def _primitive_node(codec: DynamicCodec, t: ir.Primitive) -> _Node:
    prim = PRIMITIVES[t.name]
    if t.name == "decimal":
        return _Decimal(codec, t, prim)
    return _Scalar(codec, t, prim) if prim.layout is not None else _Variable(codec, t, prim)


class _Enum(_Scalar):
    """An enum or flags: its wire integer, with names in the text format."""

    def __init__(self, codec: DynamicCodec, t: ir.EnumRef) -> None:
        super().__init__(codec, t, PRIMITIVES[t.wire])
        e = codec.enums[t.name]
        self.flags = t.kind == "flags"
        self.values = [(ev.name, ev.value) for ev in e.values]
        self.names: dict[int, str] = {}
        for ev in e.values:
            self.names.setdefault(ev.value, ev.name)

    def zero(self) -> Any:
        return 0

    def make_order(self) -> Callable[[Any], Any]:
        return _same

    def text(self, v: Any) -> str:
        return _text.fmt_flags(v, self.values) if self.flags else _text.fmt_enum(v, self.names)


def _field_default(f: ir.Field, n: _Node) -> Any:
    """A field's schema default (docs/ir.md, Default); ``n`` is the node of its type."""
    d, t = f.default, f.type
    k = d.kind
    if k == "none":
        return n.zero()
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


# Defaults made anew for every value: a time or a uuid of the moment, a mutable collection or struct.
_FRESH_DEFAULTS = ("utc", "uuid1", "uuid4")


class _Slot:
    """One field of a struct as its node walks it."""
    __slots__ = ("default_cost", "end", "f", "fixed", "missing_cost", "name", "node", "offset", "own")

    def __init__(self, f: ir.Field, node: _Node, owner: str) -> None:
        self.f = f
        self.name = f.name
        self.node = node
        self.offset = f.offset
        self.end = f.offset + node.size
        self.own = f.owner == owner
        self.default_cost = ir.default_cost(f.type)
        self.missing_cost = 0   # the default costs of this field and every one after it (_Struct.link)
        # an immutable default (a number, a string, a Decimal, a uuid constant) is made once and shared
        # by every value that takes it: a dict of defaults holds no objects of its own but itself
        # (docs/limits.md 9)
        kind = f.default.kind
        immutable = kind not in _FRESH_DEFAULTS and (kind != "none" or isinstance(node, (_Primitive, _Optional)))
        self.fixed = _field_default(f, node) if immutable else MISSING

    def default(self) -> Any:
        return _field_default(self.f, self.node) if self.fixed is MISSING else self.fixed


class _Struct(_Node):
    """A struct value: a dict with ``"@type"`` first, then every field (inherited ones first)."""

    def __init__(self, codec: DynamicCodec, t: ir.StructRef) -> None:
        super().__init__(codec, t)
        self.s = s = codec.structs[t.name]
        self.q = s.qualified
        self.cost = s.decode_cost
        self.fields: list[_Slot] = []
        self.own: list[_Slot] = []
        self.base: _Struct | None = None
        self.keys: list[tuple[str, _Node]] = []

    def link(self, codec: DynamicCodec) -> None:
        s = self.s
        self.fields = [_Slot(f, codec.node(f.type), s.qualified) for f in s.all_fields]
        missing = 0
        for slot in reversed(self.fields):
            missing += slot.default_cost
            slot.missing_cost = missing
        by_name = {slot.name: slot for slot in self.fields}
        self.own = [by_name[f.name] for f in s.fields]
        if s.base is not None:
            base = codec.node(codec.structs[s.base].ref())
            assert isinstance(base, _Struct)
            self.base = base
        self.keys = [(k, by_name[k].node) for k in s.keys]

    def zero(self) -> Any:
        out: dict[str, Any] = {"@type": self.q}
        for slot in self.fields:
            out[slot.name] = slot.default()
        return out

    # ---------------------------------------------------------------- versioned

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        off = _offset(r, pos, field)
        if off == 0:
            raise DecodeError("struct offset 0", None, field, pos)
        return self.vstruct(r, base + off)

    def vstruct(self, r: Reader, p: int) -> dict[str, Any]:
        q = self.q
        size = struct_header(r, p, self.s.type_id, q, self.cost)
        out: dict[str, Any] = {"@type": q}
        inherited_missing = self.s.base is not None and size < self.s.base_size
        try:
            for k, slot in enumerate(self.fields):
                name = slot.name
                if (not slot.own and inherited_missing) or slot.end > size:
                    # the first field an older writer's body lacks, and so every one after it: their
                    # defaults are charged at once, named after this field (docs/limits.md 3)
                    r.spend(slot.missing_cost, p, name)
                    for rest in self.fields[k:]:
                        out[rest.name] = rest.default()
                    break
                try:
                    out[name] = slot.node.vread(r, p, p + slot.offset, name)
                except DecodeError as e:
                    _keep_partial(e, partial(out.__setitem__, name))
                    raise _err(e, name, out, q, name)
        finally:
            r.depth -= 1
        return out

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        p = self.vwrite_struct(w, v, where, depth + 1)
        _U32.pack_into(w, pos, p - base)

    def vwrite_struct(self, w: bytearray, value: Any, where: str, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        body = self.s.body_size
        p = alloc(w, body)
        _U32.pack_into(w, p, body)
        _U32.pack_into(w, p + 4, self.s.type_id)
        for slot, v, at in self.values(value, where):
            slot.node.vwrite(w, p, p + slot.offset, v, at, depth)
        return p

    def values(self, value: Any, where: str) -> Iterator[tuple[_Slot, Any, str]]:
        """Each field's value to write (a missing one: its default) and where it is."""
        if not isinstance(value, dict):
            raise EncodeError(f"{where}: expected a struct ({self.q}), got {type(value).__name__}")
        for slot in self.fields:
            name = slot.name
            v = value[name] if name in value else slot.default()
            yield slot, v, f"{where}.{name}"

    # ---------------------------------------------------------------- final

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        return self.fstruct(r, pos)

    def fstruct(self, r: Reader, pos: int) -> tuple[dict[str, Any], int]:
        q = self.q
        final_enter(r, pos, self.cost)
        out: dict[str, Any] = {"@type": q}
        try:
            for slot in self.fields:
                name = slot.name
                try:
                    out[name], pos = slot.node.fread(r, pos, name)
                except DecodeError as e:
                    _keep_partial(e, partial(out.__setitem__, name))
                    raise _err(e, name, out, q, name)
        finally:
            r.depth -= 1
        return out, pos

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        self.fwrite_struct(w, v, where, depth + 1)

    def fwrite_struct(self, w: bytearray, value: Any, where: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise EncodeError(f"{where}: nesting deeper than {MAX_DEPTH}")
        for slot, v, at in self.values(value, where):
            slot.node.fwrite(w, v, at, depth)

    # ---------------------------------------------------------------- keys

    def key(self, v: Any) -> Any:
        """A struct by its [key] fields (all structs without [key] fields are the same key)."""
        return tuple(n.key(v[k]) for k, n in self.keys)

    def make_order(self) -> Callable[[Any], Any]:
        keys = [(slot.name, slot.node.sort_key()) for slot in self.fields if slot.name in self.s.keys]
        return lambda v: tuple(fn(v.get(name)) for name, fn in keys)

    # ---------------------------------------------------------------- described values, JSON, text

    def desc(self, v: Any) -> Any:
        out: dict[str, Any] = {"@type": self.q}
        for slot in self.fields:
            if slot.name in v:
                out[slot.name] = _described(slot.node, v[slot.name])
        return out

    def undesc(self, d: Any, where: str) -> Any:
        if not isinstance(d, dict):
            raise EncodeError(f"{where}: expected an object for {self.q}")
        return self.build(d, where, lambda x, n, at: n.undesc(x, at))

    def build(self, members: dict[str, Any], where: str, convert: Callable[[Any, _Node, str], Any]) -> dict[str, Any]:
        """A struct value from named members; a missing member takes the field's schema default."""
        out: dict[str, Any] = {"@type": self.q}
        for slot in self.fields:
            name = slot.name
            out[name] = convert(members[name], slot.node, f"{where}.{name}") if name in members \
                else slot.default()
        return out

    def json(self, v: Any, depth: int) -> str:
        if depth >= MAX_DEPTH:
            raise EncodeError(f"nesting deeper than {MAX_DEPTH}")
        members = []
        name = ""
        try:
            for slot in self.fields:
                name = slot.name
                if name in v and v[name] is not MISSING:
                    members.append(jsonfmt.json_string(name) + ":" + slot.node.json(v[name], depth + 1))
        except EncodeError as e:
            raise _json_within(e, "." + name) from None
        return "{" + ",".join(members) + "}"

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        members = jsonfmt.get_object(v, where)
        # the struct, and the default struct values of its omitted members, are charged
        cost = self.cost + sum(slot.default_cost for slot in self.fields if slot.name not in members)
        jsonfmt.enter(b, cost, self.q)
        out = self.build(members, where, lambda x, n, at: n.from_json(x, at, b))
        b.depth -= 1
        return out

    def text(self, v: Any) -> str:
        parts = []
        if self.base is not None:
            parts.append(self.base.text(v))
        for slot in self.own:
            if slot.name not in v:
                continue
            parts.append(f"{slot.name}=***" if slot.f.hidden else f"{slot.name}={_texted(slot.node, v[slot.name])}")
        return f"{self.s.name}({','.join(parts)})"


class _Optional(_Node):
    """An optional: None or the value (a flag and an offset in the versioned model)."""

    def __init__(self, codec: DynamicCodec, t: ir.Optional_) -> None:
        super().__init__(codec, t)
        self.e: _Node = _NOT_LINKED

    def link(self, codec: DynamicCodec) -> None:
        assert isinstance(self.t, ir.Optional_)
        self.e = codec.node(self.t.element)

    def zero(self) -> Any:
        return None

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        if pos + 5 > r.size:
            raise DecodeError("optional slot beyond the end of the buffer", None, field, pos)
        if not r.data[pos]:
            return None
        off = _U32.unpack_from(r.data, pos + 1)[0]
        if off == 0:
            raise DecodeError("present optional with offset 0", None, field, pos)
        q = base + off
        claim(r, q, self.e.size, field)
        return self.e.vread(r, q, q, field)

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        if not final_has(r, pos, field):
            return None, pos + 1
        return self.e.fread(r, pos + 1, field)

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        if v is None:
            w[pos] = 0
            return
        e = self.e
        q = alloc(w, e.size)
        w[pos] = 1
        _U32.pack_into(w, pos + 1, q - base)
        e.vwrite(w, q, q, v, where, depth)

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        if v is None:
            w.append(0)
        else:
            w.append(1)
            self.e.fwrite(w, v, where, depth)

    def make_order(self) -> Callable[[Any], Any]:
        inner = self.e.sort_key()
        return lambda v: (0,) if v is None else (1, inner(v))

    def desc(self, v: Any) -> Any:
        return None if v is None else _described(self.e, v)

    def undesc(self, d: Any, where: str) -> Any:
        return None if d is None else self.e.undesc(d, where)

    def json(self, v: Any, depth: int) -> str:
        return "null" if v is None else self.e.json(v, depth)

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        return None if v is None else self.e.from_json(v, where, b)

    def text(self, v: Any) -> str:
        return "null" if v is None else _texted(self.e, v)


def _vitems(r: Reader, e: _Node, base: int, first: int, n: int, field: str) -> list[Any]:
    out: list[Any] = []
    step = e.size
    for i in range(n):
        try:
            out.append(e.vread(r, base, first + i * step, field))
        except DecodeError as err:
            _keep_partial(err, out.append)
            raise _err(err, f"[{i}]", out)
    return out


def _fitems(r: Reader, e: _Node, pos: int, n: int, field: str) -> tuple[list[Any], int]:
    out: list[Any] = []
    for i in range(n):
        try:
            v, pos = e.fread(r, pos, field)
        except DecodeError as err:
            _keep_partial(err, out.append)
            raise _err(err, f"[{i}]", out)
        out.append(v)
    return out, pos


def _distinct(keys: list[Any], n: _Node, field: str, pos: int) -> None:
    """Refuses a set, map or hash read from a buffer whose entries hold the same key twice
    (docs/limits.md 4), as generated code and the C++ readers do."""
    if len({n.key(k) for k in keys}) != len(keys):
        raise DecodeError("duplicate key: two entries read as the same key", None, field, pos)


def _distinct_written(keys: list[Any], n: _Node, where: str, what: str) -> None:
    """A set holding the same element twice, or a map or hash whose pairs hold the same key twice,
    is not written: no reader reads it (docs/limits.md 4)."""
    # A malformed key is left to the key's writer to report.
    try:
        distinct = {n.key(k) for k in keys}
    except (KeyError, TypeError):
        return
    if len(distinct) != len(keys):
        raise EncodeError(f"{where}: {what} (no reader reads it)")


def _sorted(items: list[Any], n: _Node) -> list[Any]:
    """A set's elements in ascending order, equal keys once (the first), as std::set keeps them."""
    key = n.sort_key()
    try:
        ordered = sorted(items, key=key)
        out: list[Any] = []
        for item in ordered:
            if not out or key(out[-1]) != key(item):
                out.append(item)
        return out
    except (TypeError, AttributeError):
        return items


def _sorted_pairs(pairs: list[tuple[Any, Any]], n: _Node) -> list[tuple[Any, Any]]:
    key = n.sort_key()
    try:
        return sorted(pairs, key=lambda kv: key(kv[0]))
    except (TypeError, AttributeError):
        return pairs


class _Items(_Node):
    """What an array, a vector, a list and a set share: their elements in a list."""

    def __init__(self, codec: DynamicCodec, t: ir.Array | ir.Sequence) -> None:
        super().__init__(codec, t)
        self.e: _Node = _NOT_LINKED
        self.length: int | None = t.length if isinstance(t, ir.Array) else None
        self.left, self.right = ir.TEXT_BRACKETS[t.kind]

    def link(self, codec: DynamicCodec) -> None:
        assert isinstance(self.t, (ir.Array, ir.Sequence))
        self.e = codec.node(self.t.element)

    def desc(self, v: Any) -> Any:
        e = self.e
        return [_described(e, x) for x in v]

    def undesc(self, d: Any, where: str) -> Any:
        e = self.e
        return [e.undesc(x, f"{where}[{i}]") for i, x in enumerate(_list(d, where))]

    def ordered(self, v: list[Any]) -> list[Any]:
        """The elements in the order every writer writes them (a set's ascending, as std::set)."""
        return v

    def json(self, v: Any, depth: int) -> str:
        e = self.e
        items = []
        try:
            for x in self.ordered(v):
                items.append(e.json(x, depth))
        except EncodeError as err:
            raise _json_within(err, f"[{len(items)}]") from None
        return "[" + ",".join(items) + "]"

    def text(self, v: Any) -> str:
        e = self.e
        inner = ",".join(_texted(e, x) for x in self.ordered(v))
        return f"[{len(v) if self.length is None else self.length}]{self.left}{inner}{self.right}"


class _Array(_Items):
    """A fixed array: its elements inline, in both models."""

    length: int

    def zero(self) -> Any:
        return [self.e.zero() for _ in range(self.length)]

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        return _vitems(r, self.e, base, pos, self.length, field)

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        return _fitems(r, self.e, pos, self.length, field)

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        items = _list(v, where, self.length)
        e = self.e
        for i, item in enumerate(items):
            e.vwrite(w, base, pos + i * e.size, item, f"{where}[{i}]", depth)

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        items = _list(v, where, self.length)
        e = self.e
        for i, item in enumerate(items):
            e.fwrite(w, item, f"{where}[{i}]", depth)

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        items = jsonfmt.get_array(v, self.length, where)
        e = self.e   # a fixed array's elements are part of its struct's cost
        return [e.from_json(x, f"{where}[{i}]", b) for i, x in enumerate(items)]


class _Counted(_Node):
    """A vector, list, set, map or hash: its versioned slot holds the offset of a count and the
    items (0: none), its final bytes are the count and the items."""

    def zero(self) -> Any:
        return []

    def vread(self, r: Reader, base: int, pos: int, field: str) -> Any:
        off = _offset(r, pos, field)
        return [] if off == 0 else self.vbody(r, base, base + off, field)

    def vbody(self, r: Reader, base: int, v: int, field: str) -> list[Any]:
        """The count at ``v`` and the items after it."""
        raise NotImplementedError


class _Sequence(_Items, _Counted):
    """A vector, list or set: a count and the elements (behind an offset in the versioned model);
    a set's elements are distinct, and written in ascending order."""

    def __init__(self, codec: DynamicCodec, t: ir.Sequence) -> None:
        super().__init__(codec, t)
        self.set = t.kind == "set"
        self.cost = ir.element_cost(t.element)
        self.final_min = t.element.final_min_size

    def ordered(self, v: list[Any]) -> list[Any]:
        return _sorted(v, self.e) if self.set else v

    def vbody(self, r: Reader, base: int, v: int, field: str) -> list[Any]:
        e = self.e
        n = read_count(r, v, e.size, self.cost, field)
        items = _vitems(r, e, base, v + 4, n, field)
        if self.set:
            _distinct(items, e, field, v)
        return items

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        e = self.e
        n = final_count(r, pos, self.final_min, self.cost, field)
        items, end = _fitems(r, e, pos + 4, n, field)
        if self.set:
            _distinct(items, e, field, pos)
        return items, end

    def written(self, v: Any, where: str) -> list[Any]:
        items = _list(v, where)
        if self.set:
            _distinct_written(items, self.e, where, "two elements are the same")
        return self.ordered(items)

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        e = self.e
        items = self.written(v, where)
        p = alloc(w, 4 + len(items) * e.size)
        _U32.pack_into(w, p, len(items))
        _U32.pack_into(w, pos, p - base)
        for i, item in enumerate(items):
            e.vwrite(w, base, p + 4 + i * e.size, item, f"{where}[{i}]", depth)

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        e = self.e
        items = self.written(v, where)
        w += _U32.pack(len(items))
        for i, item in enumerate(items):
            e.fwrite(w, item, f"{where}[{i}]", depth)

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        e = self.e
        items = jsonfmt.charged(jsonfmt.get_list(v, where), b, self.cost, where)
        values = [e.from_json(x, f"{where}[{i}]", b) for i, x in enumerate(items)]
        if self.set and len({e.key(k) for k in values}) != len(values):
            raise DecodeError("two set elements read as the same element", None, where)
        return values


class _Mapping(_Counted):
    """A map or hash: a list of (key, value) pairs; a map's are written in ascending key order."""

    def __init__(self, codec: DynamicCodec, t: ir.Mapping) -> None:
        super().__init__(codec, t)
        self.k: _Node = _NOT_LINKED
        self.v: _Node = _NOT_LINKED
        self.map = t.kind == "map"
        self.struct_keys = isinstance(t.key, ir.StructRef)
        self.cost = ir.element_cost(t.key) + ir.element_cost(t.value)
        self.final_min = t.key.final_min_size + t.value.final_min_size
        self.left, self.right = ir.TEXT_BRACKETS[t.kind]

    def link(self, codec: DynamicCodec) -> None:
        assert isinstance(self.t, ir.Mapping)
        self.k = codec.node(self.t.key)
        self.v = codec.node(self.t.value)

    def vbody(self, r: Reader, base: int, v: int, field: str) -> list[Any]:
        kn, vn = self.k, self.v
        step = kn.size + vn.size
        n = read_count(r, v, step, self.cost, field)
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            at = v + 4 + i * step
            try:
                key = kn.vread(r, base, at, field)
                out.append((key, vn.vread(r, base, at + kn.size, field)))
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
        _distinct([key for key, _ in out], kn, field, v)
        return out

    def fread(self, r: Reader, pos: int, field: str) -> tuple[Any, int]:
        kn, vn = self.k, self.v
        n = final_count(r, pos, self.final_min, self.cost, field)
        start = pos
        pos += 4
        out: list[tuple[Any, Any]] = []
        for i in range(n):
            try:
                key, pos = kn.fread(r, pos, field)
                value, pos = vn.fread(r, pos, field)
            except DecodeError as e:
                raise _err(e, f"[{i}]", out)
            out.append((key, value))
        _distinct([key for key, _ in out], kn, field, start)
        return out, pos

    def written(self, v: Any, where: str) -> list[tuple[Any, Any]]:
        pairs = _pairs(v, where)
        _distinct_written([k for k, _ in pairs], self.k, where, "two entries have the same key")
        return self.ordered(pairs)

    def ordered(self, pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
        """The entries in the order every writer writes them (a map's by ascending key, as std::map)."""
        return _sorted_pairs(pairs, self.k) if self.map else pairs

    def vwrite(self, w: bytearray, base: int, pos: int, v: Any, where: str, depth: int) -> None:
        kn, vn = self.k, self.v
        pairs = self.written(v, where)
        step = kn.size + vn.size
        p = alloc(w, 4 + len(pairs) * step)
        _U32.pack_into(w, p, len(pairs))
        _U32.pack_into(w, pos, p - base)
        for i, (key, val) in enumerate(pairs):
            at = p + 4 + i * step
            kn.vwrite(w, base, at, key, f"{where}[{i}].key", depth)
            vn.vwrite(w, base, at + kn.size, val, f"{where}[{i}].value", depth)

    def fwrite(self, w: bytearray, v: Any, where: str, depth: int) -> None:
        kn, vn = self.k, self.v
        pairs = self.written(v, where)
        w += _U32.pack(len(pairs))
        for i, (key, val) in enumerate(pairs):
            kn.fwrite(w, key, f"{where}[{i}].key", depth)
            vn.fwrite(w, val, f"{where}[{i}].value", depth)

    def desc(self, v: Any) -> Any:
        kn, vn = self.k, self.v
        return [[_described(kn, a), _described(vn, b)] for a, b in v]

    def undesc(self, d: Any, where: str) -> Any:
        kn, vn = self.k, self.v
        return [(kn.undesc(a, f"{where}[{i}].key"), vn.undesc(b, f"{where}[{i}].value"))
                for i, (a, b) in enumerate(_pairs(d, where))]

    def json(self, v: Any, depth: int) -> str:
        kn, vn = self.k, self.v
        entries = []
        step = ".key"
        try:
            for a, b in self.ordered(v):
                step = ".key"
                key = kn.json(a, depth) if self.struct_keys else kn.json_key(a)     # enums: the number
                step = ".value"
                entries.append((key, vn.json(b, depth)))
        except EncodeError as e:
            raise _json_within(e, f"[{len(entries)}]{step}") from None
        if self.struct_keys:
            # a struct is not a member name: an array of [key, value] pairs (as the C++ runtime)
            return jsonfmt.json_pairs([key + "," + value for key, value in entries])
        return "{" + ",".join(key + ":" + value for key, value in entries) + "}"

    def from_json(self, v: Any, where: str, b: Budget) -> Any:
        kn, vn = self.k, self.v
        if self.struct_keys:
            return [(kn.from_json(x, f"{where}[{i}].key", b), vn.from_json(y, f"{where}[{i}].value", b))
                    for i, (x, y) in enumerate(jsonfmt.charged(jsonfmt.get_pairs(v, where), b, self.cost, where))]
        obj = jsonfmt.charged(jsonfmt.get_object(v, where), b, self.cost, where)
        pairs = [(_charged(kn.from_json_key(x, where), b, where), vn.from_json(y, f"{where}[{x}]", b))
                 for x, y in obj.items()]
        jsonfmt.distinct({key: None for key, _ in pairs}, pairs, where)
        return pairs

    def text(self, v: Any) -> str:
        kn, vn = self.k, self.v
        inner = ",".join(_texted(kn, a) + "->" + _texted(vn, b) for a, b in self.ordered(v))
        return f"[{len(v)}]{self.left}{inner}{self.right}"


_NOT_LINKED = _Node.__new__(_Node)
"""The placeholder of a node's inner nodes until ``link`` finds them."""

_NODES: dict[type, Callable[[DynamicCodec, Any], _Node]] = {
    ir.Primitive: _primitive_node,
    ir.EnumRef: _Enum,
    ir.StructRef: _Struct,
    ir.Optional_: _Optional,
    ir.Array: _Array,
    ir.Sequence: _Sequence,
    ir.Mapping: _Mapping,
}
"""The one dispatch on the IR's type classes: the node class of each."""


class DynamicCodec:
    """Encode and decode any type of a schema, driven by its IR."""

    def __init__(self, schema: Any) -> None:
        self.ir = load_ir(schema)
        self.main: str = self.ir.main
        self.packages: dict[str, ir.Package] = {p.name: p for p in self.ir.packages}
        self.structs: dict[str, ir.Struct] = {s.qualified: s for p in self.ir.packages for s in p.structs}
        self.enums: dict[str, ir.Enum] = {e.qualified: e for p in self.ir.packages for e in p.enums + p.flags}
        self._nodes: dict[ir.Type, _Node] = {}

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

    def node(self, t: ir.Type) -> _Node:
        """What the codec does with values of type ``t`` (made once per type, through ``_NODES``)."""
        n = self._nodes.get(t)
        if n is None:
            n = _NODES[type(t)](self, t)
            self._nodes[t] = n
            n.link(self)
        return n

    def _type(self, type_: TypeArg) -> ir.Type:
        if isinstance(type_, str):
            return self.struct(type_).ref()
        if isinstance(type_, ir.Struct):
            return type_.ref()
        return type_

    def _root(self, type_: TypeArg) -> _Struct:
        t = self._type(type_)
        if not isinstance(t, ir.StructRef):
            raise ValueError("a root must be a struct")  # noqa: TRY004 - the documented error
        n = self.node(t)
        assert isinstance(n, _Struct)
        return n

    def _key(self, value: Any, t: ir.Type) -> Any:
        """What makes two keys (set elements) of type t the same, as generated code compares them:
        a struct by its [key] fields (all structs without [key] fields are the same key)."""
        return self.node(t).key(value)

    # ------------------------------------------------------------ defaults

    def default(self, type_: TypeArg) -> Any:
        """The default-constructed value of a type (a struct: every field's schema default)."""
        return self.node(self._type(type_)).zero()

    def field_default(self, f: ir.Field) -> Any:
        """A field's schema default (docs/ir.md, Default)."""
        return _field_default(f, self.node(f.type))

    # ------------------------------------------------------------ decode

    def decode(self, data: bytes, type_: TypeArg, model: str = "versioned",
               check: bool = True, limits: Limits | None = None) -> tuple[Any, int]:
        """Decode one root; returns ``(value, root size)``. Raises :class:`DecodeError`.

        Every decode makes the checks of ``verify()`` (docs/limits.md, section 4): ``check`` is
        accepted for older callers and changes nothing.
        """
        root = self._root(type_)
        data = bytes(data)
        if model == "final":
            return decode_final(root.fstruct, data, root.s.type_id, limits)
        if model != "versioned":
            raise ValueError(f"unknown model {model!r} (versioned or final)")
        return decode_versioned(root.vstruct, data, limits)

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
        root = self._root(type_)
        w = bytearray(8)
        if model == "final":
            root.fwrite_struct(w, value, root.q, 0)
            _U32.pack_into(w, 4, root.s.type_id)
        elif model == "versioned":
            p = root.vwrite_struct(w, value, root.q, 0)
            _U32.pack_into(w, 4, p)
        else:
            raise ValueError(f"unknown model {model!r} (versioned or final)")
        _U32.pack_into(w, 0, len(w))
        return bytes(w)

    def encode_stream(self, values: list[Any], model: str = "versioned") -> bytes:
        """Frames of several values (each a struct dict with ``"@type"``), concatenated."""
        return b"".join(self.encode(v, None, model) for v in values)

    # ------------------------------------------------------------ typed value description

    def to_described(self, value: Any, type_: TypeArg) -> Any:
        """The value as the golden vectors' ``value`` description (JSON-ready)."""
        return _described(self.node(self._type(type_)), value)

    def from_described(self, d: Any, type_: TypeArg | None = None) -> Any:
        """The inverse of :meth:`to_described` (a ``"@type"`` member picks the type when none is given)."""
        if type_ is None:
            if not isinstance(d, dict) or "@type" not in d:
                raise EncodeError("no type given and the value has no '@type'")
            type_ = str(d["@type"])
        t = self._type(type_)
        # an EncodeError names the root type and the field path as the writers' do
        return self.node(t).undesc(d, t.name if isinstance(t, ir.StructRef) else "value")

    def dumps_described(self, value: Any, type_: TypeArg, indent: int | None = None) -> str:
        """JSON text of :meth:`to_described` (floats exact, decimals with their scale)."""
        return _dump_described(self.to_described(value, type_), indent)

    # ------------------------------------------------------------ JSON mapping (docs/format.md 8)

    def to_json(self, value: Any, type_: TypeArg) -> str:
        """The original's compact JSON of a value; an EncodeError names the type and the field path as
        the binary writers' do (``shop.Cart.lines[0].price: decimal ... out of range``)."""
        t = self._type(type_)
        try:
            return self.node(t).json(value, 0)
        except EncodeError as e:
            path = getattr(e, "json_path", None)
            if path is None:
                raise
            root = t.name if isinstance(t, ir.StructRef) else "value"
            raise EncodeError(f"{root}{path}: {e}") from None

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
        return self.node(self._type(type_)).from_json(obj, "value", b)

    # ------------------------------------------------------------ text format (docs/format.md 9)

    def to_text(self, value: Any, type_: TypeArg) -> str:
        """The original's ``operator<<`` text (see :func:`fbe.text.text_bytes` for its bytes)."""
        return _texted(self.node(self._type(type_)), value)


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
