"""Buffers and the shared binary codec helpers used by generated code.

Generated code does the straight-line work (one ``unpack_from`` per fixed
block, offsets as constants); what every type shares lives here: bounds
checked reads of strings, bytes and counts, the decode budget and depth
limit that protect against hostile buffers, and append-style writers.

A decode never reads outside its buffer, never trusts a count beyond what the
remaining bytes can hold, bounds nesting depth (``max_depth``) and charges
every value it materializes against a budget proportional to the input size,
so neither offsets that make many slots share one body nor defaulted structs
can blow up memory (docs/limits.md: the rules and what each value costs).
"""

from __future__ import annotations

import bisect
import operator
import struct
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import DecodeError, EncodeError
from .limits import DEFAULT_LIMITS, Limits

T = TypeVar("T")
E = TypeVar("E")
K = TypeVar("K", bound="set[Any] | dict[Any, Any]")
BytesLike = bytes | bytearray | memoryview

BUDGET_EXCEEDED = "decode budget exceeded"

U32 = struct.Struct("<I")
U32X2 = struct.Struct("<II")
unpack_u32 = U32.unpack_from
unpack_u32x2 = U32X2.unpack_from
pack_u32 = U32.pack
pack_u32_into = U32.pack_into
pack_u32x2_into = U32X2.pack_into


class WriteBuffer:
    """A growable output buffer (a ``bytearray``) as the original's ``WriteBuffer``."""

    __slots__ = ("buffer",)

    def __init__(self, capacity: int = 0) -> None:
        # `capacity` is the original's signature only: a bytearray grows as it is written
        del capacity
        self.buffer = bytearray()

    @property
    def data(self) -> bytes:
        return bytes(self.buffer)

    @property
    def size(self) -> int:
        return len(self.buffer)

    def reset(self) -> None:
        del self.buffer[:]

    def assign(self, data: BytesLike) -> None:
        self.buffer[:] = data

    def __len__(self) -> int:
        return len(self.buffer)

    def __bytes__(self) -> bytes:
        return bytes(self.buffer)


class ReadBuffer:
    """A read-only view of input bytes (copied once into immutable ``bytes``)."""

    __slots__ = ("data",)

    def __init__(self, data: BytesLike = b"") -> None:
        self.data = bytes(data)

    def attach(self, data: BytesLike | WriteBuffer | ReadBuffer) -> None:
        if isinstance(data, WriteBuffer):
            self.data = bytes(data.buffer)
        elif isinstance(data, ReadBuffer):
            self.data = data.data
        else:
            self.data = bytes(data)

    attach_buffer = attach

    @property
    def buffer(self) -> bytes:
        return self.data

    @property
    def size(self) -> int:
        return len(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __bytes__(self) -> bytes:
        return self.data


class Budget:
    """What one decode may still spend (bytes, counted as docs/limits.md says) and its nesting depth."""

    __slots__ = ("budget", "depth", "max_depth")

    def __init__(self, input_size: int, limits: Limits | None = None) -> None:
        lim = DEFAULT_LIMITS if limits is None else limits
        self.budget: int = lim.budget_factor * input_size + lim.budget_slack
        self.depth: int = 0
        self.max_depth: int = lim.max_depth

    def spend(self, cost: int, pos: int | None, field: str | None = None) -> None:
        """Charge ``cost`` bytes for a value materialized at ``pos`` (a buffer offset, or None)."""
        self.budget -= cost
        if self.budget < 0:
            raise DecodeError(BUDGET_EXCEEDED, None, field, pos)

    def enter(self, pos: int | None, cost: int, type_name: str | None = None) -> None:
        """One struct value deeper, costing ``cost`` bytes (leave with ``depth -= 1``)."""
        depth = self.depth = self.depth + 1
        budget = self.budget = self.budget - cost
        if depth > self.max_depth or budget < 0:
            self.refuse(pos, type_name)

    def refuse(self, pos: int | None, type_name: str | None = None) -> None:
        """Raise the error of a struct that went deeper than ``max_depth`` or beyond the budget
        (both already counted: the depth is undone here)."""
        deep = self.depth > self.max_depth
        self.depth -= 1
        if deep:
            raise DecodeError(f"structs nested deeper than {self.max_depth}", type_name, None, pos)
        raise DecodeError(BUDGET_EXCEEDED, type_name, None, pos)


class Reader(Budget):
    """Decoding state of a binary input: the bytes, their usable size, the budget, the depth and, in
    the versioned model, ``mark``: the end of the last out-of-line block read (docs/limits.md 2)."""

    __slots__ = ("data", "mark", "size")

    def __init__(self, data: BytesLike, size: int | None = None, limits: Limits | None = None) -> None:
        self.data: bytes = data if isinstance(data, bytes) else bytes(data)
        n = len(self.data)
        self.size: int = n if size is None or size > n else size
        self.mark: int = 8
        Budget.__init__(self, self.size, limits)


def backwards(r: Reader, what: str, pos: int, field: str | None = None, type_name: str | None = None) -> DecodeError:
    """A versioned block that does not follow the previous one in allocation order (FORMAT.md 3.5):
    it points back into data already read, so two slots would share it (docs/limits.md 2)."""
    return DecodeError(f"{what} at {pos} before the end of the previous block ({r.mark}): out-of-line blocks "
                       "must follow each other in allocation order", type_name, field, pos)


def enum_value(members: dict[int, E], cls: Callable[[int], E], raw: int) -> E:
    """An enum member from its wire value (a dict hit for declared values)."""
    m = members.get(raw)
    return cls(raw) if m is None else m


def out_of_bounds(what: str, pos: int, field: str | None = None) -> DecodeError:
    return DecodeError(what + " beyond the end of the buffer", None, field, pos)


# ---------------------------------------------------------------- versioned model

def struct_header(r: Reader, pos: int, type_id: int, type_name: str, cost: int) -> int:
    """Check and enter the struct body at absolute ``pos`` (charging ``cost``); return its body size."""
    if pos < r.mark:
        raise backwards(r, "struct body", pos, None, type_name)
    if pos + 8 > r.size:
        raise DecodeError("struct header beyond the end of the buffer", type_name, None, pos)
    size, tid = unpack_u32x2(r.data, pos)
    if size < 8:
        raise DecodeError(f"struct body size {size} below 8", type_name, None, pos)
    if pos + size > r.size:
        raise DecodeError(f"struct body of {size} bytes beyond the end of the buffer", type_name, None, pos)
    if tid != type_id:
        raise DecodeError(f"type id {tid} where {type_id} was expected", type_name, None, pos)
    r.mark = pos + size
    depth = r.depth = r.depth + 1
    budget = r.budget = r.budget - cost
    if depth > r.max_depth or budget < 0:
        r.refuse(pos, type_name)
    return size  # type: ignore[no-any-return]


def struct_body(
    r: Reader, layout: struct.Struct, pos: int, type_id: int, type_name: str, cost: int
) -> tuple[Any, ...]:
    """Check and enter the struct body at absolute ``pos``; its header and slots, unpacked with one call.

    ``layout`` is the body as this reader knows it (``u32 size, u32 type id``,
    then every field's slot). The result's item 0 is the body size the writer
    recorded: when it is smaller than ``layout.size`` (an older writer) the
    items of the missing fields are meaningless and callers use defaults; a
    body shorter than ours at the very end of the buffer is zero padded
    (:func:`partial_body`). ``cost`` is what the struct value costs
    (docs/limits.md: its own fields' final minimum sizes). The same checks
    and accounting as :func:`struct_header` (which raises the precise
    error); the caller leaves with ``r.depth -= 1``.
    """
    try:
        t = layout.unpack_from(r.data, pos)
    except struct.error:  # fewer than layout.size bytes left: a short (older) body at the end, or bad data
        return partial_body(r, layout, pos, struct_header(r, pos, type_id, type_name, cost))
    size = t[0]
    if size < 8 or pos + size > r.size or t[1] != type_id or pos < r.mark:
        struct_header(r, pos, type_id, type_name, cost)  # raises
    r.mark = pos + size
    depth = r.depth = r.depth + 1
    budget = r.budget = r.budget - cost
    if depth > r.max_depth or budget < 0:
        r.refuse(pos, type_name)
    return t


def leaf_body(
    r: Reader, layout: struct.Struct, pos: int, type_id: int, type_name: str, cost: int
) -> tuple[Any, ...]:
    """:func:`struct_body` of a struct without struct fields (it cannot nest): no depth to enter or leave.

    The depth limit still counts it: a leaf at level ``max_depth + 1`` is refused.
    """
    try:
        t = layout.unpack_from(r.data, pos)
    except struct.error:
        t = partial_body(r, layout, pos, struct_header(r, pos, type_id, type_name, cost))
        r.depth -= 1
        return t
    size = t[0]
    if size < 8 or pos + size > r.size or t[1] != type_id or pos < r.mark:
        struct_header(r, pos, type_id, type_name, cost)  # raises
    r.mark = pos + size
    budget = r.budget = r.budget - cost
    if budget < 0 or r.depth >= r.max_depth:
        r.depth += 1
        r.refuse(pos, type_name)
    return t


def partial_body(r: Reader, layout: struct.Struct, pos: int, size: int) -> tuple[Any, ...]:
    """Unpack a body shorter than ours (an older writer): missing bytes read as zero."""
    raw = r.data[pos: pos + size] + bytes(layout.size - size)
    return layout.unpack_from(raw, 0)


def present(ends: tuple[int, ...], size: int, base_size: int) -> int:
    """How many fields a body of ``size`` bytes holds (inherited fields count as one block)."""
    return 0 if size < base_size else bisect.bisect_right(ends, size)


first = operator.itemgetter(0)
"""Sort key of map items (ascending by key)."""


def char_order(c: int) -> int:
    """Sort key of a ``char``: C++'s signed char order of std::set / std::map (0x80..0xFF first)."""
    return c - 256 if c >= 0x80 else c


def first_char(item: tuple[int, Any]) -> int:
    """Sort key of map items with a ``char`` key (:func:`char_order`)."""
    c = item[0]
    return c - 256 if c >= 0x80 else c


def _signed(bits: int) -> tuple[Callable[[int], int], Callable[[tuple[int, Any]], int]]:
    """For flags of a signed type, which Python holds unsigned (an ``IntFlag`` has no negative members):
    the value as the signed number it is (the JSON number, the sort key of std::set / std::map), and the
    sort key of map items keyed by such flags."""
    top, full = 1 << (bits - 1), 1 << bits

    def signed(v: int) -> int:
        return v - full if v >= top else int(v)

    def first_signed(item: tuple[int, Any]) -> int:
        v = item[0]
        return v - full if v >= top else v

    return signed, first_signed


signed8, first_signed8 = _signed(8)
signed16, first_signed16 = _signed(16)
signed32, first_signed32 = _signed(32)
signed64, first_signed64 = _signed(64)


def write_plain_seq(w: bytearray, fmt: str, values: Any) -> None:
    """Append ``u32 count`` and the packed values (one fixed-size format character)."""
    n = len(values)
    w += struct.pack(f"<I{n}{fmt}", n, *values)


def check_length(values: Any, length: int, field: str) -> None:
    if len(values) != length:
        raise EncodeError(f"array {field} needs {length} elements, got {len(values)}")


def absent_struct(r: Reader, make: Callable[[], T], field: str, pos: int) -> T:
    """A struct slot holding offset 0 is malformed (docs/limits.md 2): the original read defaults
    and its verify() failed; every reader here refuses it."""
    raise DecodeError("struct offset 0", None, field, pos)


def charge_defaults(r: Budget, missing: tuple[tuple[int, str], ...], present: int, pos: int) -> None:
    """Charge the default struct values of the fields an older writer's body lacks.

    ``missing[k]`` is what the struct-typed fields from index ``k`` on cost as
    defaults (each its final minimum size) and the name of field ``k``;
    ``present`` fields were read, so an error names the first field missing.
    """
    cost, name = missing[present]
    r.spend(cost, pos, name)


def read_string(r: Reader, base: int, off: int, field: str) -> str:
    if not off:
        return ""
    p = base + off
    end = r.size
    if p + 4 > end or p < r.mark:
        raise backwards(r, "string", p, field) if p < r.mark else out_of_bounds("string size", p, field)
    data = r.data
    n = unpack_u32(data, p)[0]
    e = p + 4 + n
    if e > end:
        raise out_of_bounds(f"string of {n} bytes", p, field)
    r.mark = e
    budget = r.budget = r.budget - n
    if budget < 0:
        r.spend(0, p, field)
    raw = data[p + 4: e]
    try:
        return raw.decode()  # UTF-8: the same str as with surrogateescape, which only matters for bad bytes
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape")


def read_bytes(r: Reader, base: int, off: int, field: str) -> bytes:
    if not off:
        return b""
    p = base + off
    if p + 4 > r.size or p < r.mark:
        raise backwards(r, "bytes", p, field) if p < r.mark else out_of_bounds("bytes size", p, field)
    n = unpack_u32(r.data, p)[0]
    e = p + 4 + n
    if e > r.size:
        raise out_of_bounds(f"bytes of {n} bytes", p, field)
    r.mark = e
    r.spend(n, p, field)
    return r.data[p + 4: e]


def read_count(r: Reader, pos: int, item: int, cost: int, field: str) -> int:
    """The element count of a collection block at absolute ``pos`` with ``item``-byte slots;
    each element costs ``cost`` (docs/limits.md: struct elements 0, they are charged as structs)."""
    if pos + 4 > r.size or pos < r.mark:
        raise backwards(r, "collection", pos, field) if pos < r.mark else out_of_bounds("collection size", pos, field)
    n: int = unpack_u32(r.data, pos)[0]
    if n * item > r.size - pos - 4:
        raise DecodeError(f"count {n} exceeds the buffer", None, field, pos)
    r.mark = pos + 4 + n * item
    budget = r.budget = r.budget - n * cost
    if budget < 0:
        r.spend(0, pos, field)
    return n


def distinct(result: K, n: int, field: str, pos: int) -> K:
    """A set, map or hash of ``n`` entries read from a buffer (its block or count at ``pos``),
    refused when two entries read as the same key (docs/limits.md 4): no reader keeps "the first"
    or "the last" of them, in any language."""
    if len(result) != n:
        raise DecodeError("duplicate key: two entries read as the same key", None, field, pos)
    return result


def read_slot(r: Reader, layout: struct.Struct, pos: int, field: str) -> tuple[Any, ...]:
    """Claim and unpack an optional's value slot at absolute ``pos``."""
    claim(r, pos, layout.size, field)
    return layout.unpack_from(r.data, pos)


def claim(r: Reader, pos: int, size: int, field: str) -> None:
    """Claim the out-of-line block [pos, pos + size) (an optional's value slot): it must follow the
    previous block (docs/limits.md 2) and fit the buffer."""
    if pos < r.mark:
        raise backwards(r, "optional value", pos, field)
    if pos + size > r.size:
        raise out_of_bounds("value slot", pos, field)
    r.mark = pos + size


def read_optional(
    r: Reader, base: int, has: int, off: int, field: str, read: Callable[[Reader, int, str], T]
) -> T | None:
    """A present optional's value through its value slot (base moves to the slot)."""
    if not has:
        return None
    if not off:
        raise DecodeError("present optional with offset 0", None, field, base)
    return read(r, base + off, field)


def read_optional_struct(
    r: Reader, base: int, has: int, off: int, field: str, read: Callable[[Reader, int], T], make: Callable[[], T]
) -> T | None:
    """A present optional struct: its value slot (at base + off) holds the body's offset from the slot."""
    if not has:
        return None
    if not off:
        raise DecodeError("present optional with offset 0", None, field, base)
    s = base + off
    claim(r, s, 4, field)
    o = unpack_u32(r.data, s)[0]
    return read(r, s + o) if o else absent_struct(r, make, field, s)


def write_string(w: bytearray, value: str) -> int:
    """Append a length-prefixed UTF-8 string; return its absolute position."""
    p = len(w)
    b = value.encode("utf-8", "surrogateescape")
    w += pack_u32(len(b))
    w += b
    return p


def write_bytes(w: bytearray, value: BytesLike) -> int:
    p = len(w)
    w += pack_u32(len(value))
    w += value
    return p


def alloc(w: bytearray, size: int) -> int:
    """Append ``size`` zero bytes; return their absolute position."""
    p = len(w)
    w += bytes(size)
    return p


# ---------------------------------------------------------------- final model

def final_string(r: Reader, pos: int, field: str) -> tuple[str, int]:
    if pos + 4 > r.size:
        raise out_of_bounds("string size", pos, field)
    n = unpack_u32(r.data, pos)[0]
    e = pos + 4 + n
    if e > r.size:
        raise out_of_bounds(f"string of {n} bytes", pos, field)
    r.spend(n, pos, field)
    return r.data[pos + 4: e].decode("utf-8", "surrogateescape"), e


def final_bytes(r: Reader, pos: int, field: str) -> tuple[bytes, int]:
    if pos + 4 > r.size:
        raise out_of_bounds("bytes size", pos, field)
    n = unpack_u32(r.data, pos)[0]
    e = pos + 4 + n
    if e > r.size:
        raise out_of_bounds(f"bytes of {n} bytes", pos, field)
    r.spend(n, pos, field)
    return r.data[pos + 4: e], e


def final_count(r: Reader, pos: int, item: int, cost: int, field: str) -> int:
    """A final-model count; ``item`` is the smallest encoded size of one element, ``cost`` what
    one element costs (docs/limits.md; at least 1 but for struct elements, charged as structs)."""
    if pos + 4 > r.size:
        raise out_of_bounds("collection size", pos, field)
    n: int = unpack_u32(r.data, pos)[0]
    if n * item > r.size - pos - 4:
        raise DecodeError(f"count {n} exceeds the buffer", None, field, pos)
    r.spend(n * cost, pos, field)
    return n


def final_fixed(r: Reader, layout: struct.Struct, pos: int, field: str) -> tuple[Any, ...]:
    if pos + layout.size > r.size:
        raise out_of_bounds("value", pos, field)
    return layout.unpack_from(r.data, pos)


def final_has(r: Reader, pos: int, field: str) -> int:
    if pos >= r.size:
        raise out_of_bounds("optional flag", pos, field)
    return r.data[pos]


def final_enter(r: Reader, pos: int, cost: int) -> None:
    """Enter a final-model struct value at ``pos`` costing ``cost`` (leave with ``r.depth -= 1``)."""
    r.enter(pos, cost)


def final_leaf(r: Reader, pos: int, cost: int) -> None:
    """Charge a final-model struct without struct fields (no depth to leave; the limit still counts it)."""
    budget = r.budget = r.budget - cost
    if budget < 0 or r.depth >= r.max_depth:
        r.depth += 1
        r.refuse(pos)
