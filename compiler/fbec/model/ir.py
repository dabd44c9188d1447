"""The resolved intermediate representation (IR) every target reads.

Frozen dataclasses; `ir_json.to_json` writes them in the shape documented in
docs/ir.md and `ir_json.load` reads them back. Everything a generator needs
that does not depend on its language (type ids, slot sizes, offsets, final
minimum sizes, nesting heights, runs of fixed fields, the protocol dispatch
table, evaluated defaults, key fields, value ranges, ordering and text rules)
is decided here once (`resolve.py`, then `facts.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

IR_VERSION = 1

PRIMITIVE_SIZES = {
    "bool": 1, "byte": 1, "char": 1, "wchar": 4,
    "int8": 1, "uint8": 1, "int16": 2, "uint16": 2,
    "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
    "float": 4, "double": 8, "decimal": 16, "timestamp": 8, "uuid": 16,
    "string": 4, "bytes": 4,
}
"""Versioned slot size of every primitive (docs/format.md 2.1)."""

VARIABLE_PRIMITIVES = frozenset({"string", "bytes"})

INTEGER_RANGES = {
    "bool": (0, 1),
    "byte": (0, 0xFF), "char": (0, 0xFF), "wchar": (0, 0xFFFFFFFF),
    "int8": (-0x80, 0x7F), "uint8": (0, 0xFF),
    "int16": (-0x8000, 0x7FFF), "uint16": (0, 0xFFFF),
    "int32": (-0x80000000, 0x7FFFFFFF), "uint32": (0, 0xFFFFFFFF),
    "int64": (-0x8000000000000000, 0x7FFFFFFFFFFFFFFF), "uint64": (0, 0xFFFFFFFFFFFFFFFF),
}
"""Value range of every integer-like type (also the enum/flags underlying types)."""

TIMESTAMP_RANGE = (0, 0xFFFFFFFFFFFFFFFF)
"""Nanoseconds since the epoch, an unsigned 64-bit integer on the wire."""


@dataclass(frozen=True)
class PrimitiveInfo:
    """What every target knows about a primitive, whatever its language (docs/ir.md, Primitives)."""
    name: str
    size: int                          # versioned slot size
    final_size: int | None             # final-model size, None for string/bytes (length + data)
    range: tuple[int, int] | None      # the integer values it holds (bool, integers, char, wchar, timestamp)
    order: str                         # how a set or map key orders it: "value", "signed" (a char compares
                                       # as C++'s signed char: 0x80..0xFF first) or "bytes" (string: its
                                       # UTF-8 bytes, uuid: its 16 bytes)


PRIMITIVES: dict[str, PrimitiveInfo] = {
    name: PrimitiveInfo(
        name, size, None if name in VARIABLE_PRIMITIVES else size,
        TIMESTAMP_RANGE if name == "timestamp" else INTEGER_RANGES.get(name),
        "signed" if name == "char" else "bytes" if name in ("string", "uuid") else "value")
    for name, size in PRIMITIVE_SIZES.items()
}

TEXT_BRACKETS: dict[str, tuple[str, str]] = {
    "array": ("[", "]"), "vector": ("[", "]"), "list": ("<", ">"), "set": ("{", "}"),
    "map": ("<{", "}>"), "hash": ("[{", "}]"),
}
"""Brackets of a collection in the text format (docs/format.md 9): `[n]` then these around the items."""

ENUM_WIRE = {
    "byte": "uint8", "char": "uint8", "wchar": "uint32",
    "int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
    "int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
}
"""Wire integer of each enum/flags underlying type (docs/format.md 2.6)."""


# ---------------------------------------------------------------- types

@dataclass(frozen=True)
class Primitive:
    name: str
    kind: str = field(default="primitive", init=False)

    @property
    def size(self) -> int:
        return PRIMITIVE_SIZES[self.name]

    @property
    def final_size(self) -> int | None:
        return None if self.name in VARIABLE_PRIMITIVES else PRIMITIVE_SIZES[self.name]

    @property
    def final_min_size(self) -> int:
        """The fewest bytes a value takes in the final model (string/bytes: the length)."""
        return PRIMITIVE_SIZES[self.name]

    @property
    def info(self) -> PrimitiveInfo:
        return PRIMITIVES[self.name]


@dataclass(frozen=True)
class EnumRef:
    """A reference to an enum or flags type (`kind` tells which)."""
    kind: str            # "enum" | "flags"
    name: str            # qualified
    wire: str
    size: int

    @property
    def final_size(self) -> int | None:
        return self.size

    @property
    def final_min_size(self) -> int:
        return self.size

    @property
    def bits(self) -> int:
        """The bits of the wire integer (flags are bit sets of this width)."""
        return 8 * self.size

    @property
    def mask(self) -> int:
        """Every bit of the wire integer set: the largest value of flags read as an unsigned bit set."""
        return (1 << self.bits) - 1


@dataclass(frozen=True)
class StructRef:
    name: str            # qualified
    final_size: int | None
    final_min_size: int = 0   # the struct's final_min_size (filled in by facts.py)
    default_cost: int = 0     # the struct's default_cost (filled in by facts.py)
    kind: str = field(default="struct", init=False)
    size: int = field(default=4, init=False)


@dataclass(frozen=True)
class Optional_:
    element: Type
    kind: str = field(default="optional", init=False)
    size: int = field(default=5, init=False)

    @property
    def final_size(self) -> int | None:
        return None

    @property
    def final_min_size(self) -> int:
        return 1                       # the absent flag


@dataclass(frozen=True)
class Array:
    element: Type
    length: int
    kind: str = field(default="array", init=False)

    @property
    def size(self) -> int:
        return self.element.size * self.length

    @property
    def final_size(self) -> int | None:
        e = self.element.final_size
        return None if e is None else e * self.length

    @property
    def final_min_size(self) -> int:
        return self.element.final_min_size * self.length


class _Counted:
    """A collection of a count and its items: a 4-byte slot (an offset) in the versioned model, a
    4-byte count and the items in the final model, which has no fixed size."""

    @property
    def final_size(self) -> int | None:
        return None

    @property
    def final_min_size(self) -> int:
        return 4                       # the count


@dataclass(frozen=True)
class Sequence(_Counted):
    """vector `T[]`, list `T()` or set `T!` (identical encodings)."""
    kind: str            # "vector" | "list" | "set"
    element: Type
    size: int = field(default=4, init=False)

    @property
    def item_size(self) -> int:
        """The versioned bytes of one element (its slot in the block)."""
        return self.element.size

    @property
    def item_min_size(self) -> int:
        """The fewest final-model bytes of one element (a count is bounded by the bytes left over it)."""
        return self.element.final_min_size

    @property
    def item_cost(self) -> int:
        """What a reader charges for one element (docs/limits.md 3)."""
        return element_cost(self.element)


@dataclass(frozen=True)
class Mapping(_Counted):
    """map `V<K>` or hash `V{K}` (identical encodings)."""
    kind: str            # "map" | "hash"
    key: Type
    value: Type
    size: int = field(default=4, init=False)

    @property
    def item_size(self) -> int:
        """The versioned bytes of one entry: the key's slot, then the value's."""
        return self.key.size + self.value.size

    @property
    def item_min_size(self) -> int:
        """The fewest final-model bytes of one entry (a count is bounded by the bytes left over it)."""
        return self.key.final_min_size + self.value.final_min_size

    @property
    def item_cost(self) -> int:
        """What a reader charges for one entry, its key and its value (docs/limits.md 3)."""
        return element_cost(self.key) + element_cost(self.value)


Type = Primitive | EnumRef | StructRef | Optional_ | Array | Sequence | Mapping


# ---------------------------------------------------------------- decode costs (docs/limits.md 3)

ZERO_SIZE_COST = 32
"""What a value of a struct that takes no bytes in the final model (final minimum size 0: no fields, or
only such structs) costs when a reader makes it. No byte of the input pays for it, so a final-model
collection of them is bounded by the budget alone, and the charge must cover what the value costs in
memory: at most 8x its charge, the memory bound's 64 over the budget factor's 8. The most any runtime
spends on one is fbe.dynamic's dict with its list slot, 192 bytes (JavaScript's object 50, Python's 40,
Java's 24): 32 keeps that at 48x the input."""


LARGE_DEFAULT = 4096
"""Above this many bytes of default_cost a struct's value is not made before the budget pays for it
(Struct.large_default): below, the one value a reader makes before charging it stays within the memory
bound's slack (docs/limits.md 9), as does the slice growth that makes room for a few more."""


def decode_share(t: Type) -> int:
    """A field's share of its struct's decode cost: its final minimum size, where a struct value
    (a field, or an element of a fixed array) counts 0 because it is charged as a struct of its own."""
    if isinstance(t, StructRef):
        return 0
    if isinstance(t, Array):
        return t.length * decode_share(t.element)
    return t.final_min_size


def element_cost(t: Type) -> int:
    """What one element of a collection (one key or value of a map) of type `t` costs when a
    reader materializes it; a struct element nothing here (it is charged as a struct)."""
    return 0 if isinstance(t, StructRef) else max(1, decode_share(t))


def default_cost(t: Type, struct_cost: Callable[[str], int] | None = None) -> int:
    """What a default value of type `t` costs beyond its share: the default struct values it holds
    (a struct's `default_cost`, or `struct_cost(name)` while facts.py computes them)."""
    if isinstance(t, StructRef):
        return t.default_cost if struct_cost is None else struct_cost(t.name)
    if isinstance(t, Array):
        return t.length * default_cost(t.element, struct_cost)
    return 0


# ---------------------------------------------------------------- what a type holds

def is_scalar(t: Type) -> TypeGuard[Primitive | EnumRef]:
    """A fixed-size primitive, an enum or flags: one value held inline with the same bytes in both
    models, read without a check of its own."""
    if isinstance(t, Primitive):
        return t.name not in VARIABLE_PRIMITIVES
    return isinstance(t, EnumRef)


def is_text(t: Type) -> TypeGuard[Primitive]:
    """A string or bytes: a u32 size and the data (out of line in the versioned model)."""
    return isinstance(t, Primitive) and t.name in VARIABLE_PRIMITIVES


def wire_name(t: Primitive | EnumRef) -> str:
    """The primitive a primitive or an enum is written as: an enum's or flags' wire integer
    (EnumRef.wire, ENUM_WIRE of its underlying type), a primitive itself (docs/format.md 2)."""
    return t.wire if isinstance(t, EnumRef) else t.name


def value_name(t: EnumRef | Enum) -> str:
    """The primitive an enum's or flags' values are held as: an enum's its wire integer (wire_name),
    flags' the unsigned integer of that width, their bits as a set (EnumRef.mask)."""
    return f"uint{8 * t.size}" if t.kind == "flags" else t.wire


def is_fixed(t: Type) -> bool:
    """A scalar or an array of scalars: held inline with the same bytes in both models, nothing out of
    line (a member of a run of fixed fields)."""
    return is_scalar(t.element if isinstance(t, Array) else t)


def is_decimal(t: Type) -> TypeGuard[Primitive]:
    """A decimal."""
    return isinstance(t, Primitive) and t.name == "decimal"


def is_checked(t: Type) -> bool:
    """A decimal, or an array of them: held like a scalar, but its reader checks the flags (a scale
    0..28 and the sign, nothing else: docs/format.md 2.4), so verify reads it too."""
    return is_decimal(t.element if isinstance(t, Array) else t)


def reads_unchecked(t: Type) -> bool:
    """A fixed value (`is_fixed`) whose reader checks nothing of its own: all but decimals."""
    return is_fixed(t) and not is_checked(t)


def struct_refs(t: Type) -> list[str]:
    """The structs a value of type `t` holds directly (through optionals and collections), in order."""
    if isinstance(t, StructRef):
        return [t.name]
    if isinstance(t, (Optional_, Array, Sequence)):
        return struct_refs(t.element)
    if isinstance(t, Mapping):
        return struct_refs(t.key) + struct_refs(t.value)
    return []


def type_height(t: Type, struct_height: Callable[[str], int | None]) -> int | None:
    """Struct levels in a value of type `t` (a struct counts itself, then `struct_height(name)` levels
    below it); None: unbounded."""
    heights = [struct_height(name) for name in struct_refs(t)]
    if None in heights:
        return None
    return max((1 + h for h in heights if h is not None), default=0)


# ---------------------------------------------------------------- defaults

@dataclass(frozen=True)
class Default:
    """A field default; see the table in docs/ir.md.

    kind: none | null | bool | int | real | string | timestamp | utc | uuid |
    uuid1 | uuid4 | enum | flags.
    """
    kind: str
    value: None | bool | int | str = None
    text: str | None = None          # real: the decimal literal
    type: str | None = None          # enum/flags: qualified type
    names: tuple[str, ...] = ()         # enum: (name,), flags: the combined names

    @property
    def zero(self) -> bool:
        """Whether the field starts as its type's zero value: no default (none, null), false, a
        number equal to 0, "", the epoch, the nil uuid, an enum's or flags' 0 (not utc, uuid1,
        uuid4: made when the value is)."""
        if self.kind == "real":
            return float(self.text or 0) == 0.0
        if self.kind == "uuid":
            return self.value == NIL_UUID
        return self.kind not in ("utc", "uuid1", "uuid4") and not self.value


NO_DEFAULT = Default("none")
NIL_UUID = "00000000-0000-0000-0000-000000000000"


# ---------------------------------------------------------------- declarations

@dataclass(frozen=True)
class EnumValue:
    name: str
    value: int
    hidden: bool = False
    deprecated: bool = False


@dataclass(frozen=True)
class Enum:
    kind: str                 # "enum" | "flags"
    name: str
    qualified: str
    underlying: str
    wire: str
    size: int
    values: tuple[EnumValue, ...]
    hidden: bool = False
    deprecated: bool = False

    def ref(self) -> EnumRef:
        return EnumRef(self.kind, self.qualified, self.wire, self.size)

    @property
    def text_values(self) -> tuple[EnumValue, ...]:
        """Of an enum: the values the text form names (docs/format.md 9), the first declared of each
        value, in declaration order (a later name of the same value is never printed)."""
        first: dict[int, EnumValue] = {}
        for v in self.values:
            first.setdefault(v.value, v)
        return tuple(first.values())

    @property
    def named_flags(self) -> tuple[EnumValue, ...]:
        """Of flags: the values whose names the text form joins with `|` when all their bits are set
        (docs/format.md 9): every value but 0, in declaration order."""
        return tuple(v for v in self.values if v.value != 0)


@dataclass(frozen=True)
class Field:
    name: str
    owner: str                # qualified struct that declares it
    type: Type
    offset: int               # slot position in the versioned body
    key: bool = False
    id: bool = False
    hidden: bool = False
    deprecated: bool = False
    default: Default = NO_DEFAULT
    reset_of: str | None = None
    final_offset: int | None = None   # from the struct's start in the final model, when every field
                                      # before it (inherited ones included) has a fixed final size


@dataclass(frozen=True)
class FixedRun:
    """Consecutive fields (of `Struct.all_fields`) whose values are held inline with the same bytes in
    both models: scalars (fixed-size primitives, enums, flags) and arrays of scalars. A target can
    pack or unpack such a run at once; a field at versioned offset `o` is at `o - offset` within it."""
    fields: tuple[str, ...]   # field names, in order
    offset: int               # versioned offset of the first field (from the body start)
    final_offset: int | None  # final-model offset of the first field, when fixed (Field.final_offset)
    size: int                 # bytes, both models


@dataclass(frozen=True)
class Reject:
    type: str                 # qualified
    global_: bool = False


@dataclass(frozen=True)
class Struct:
    name: str
    qualified: str
    message: bool
    type_id: int
    base: str | None
    body_size: int
    base_size: int
    final_size: int | None
    fields: tuple[Field, ...]
    all_fields: tuple[Field, ...]
    keys: tuple[str, ...]
    hidden: bool = False
    deprecated: bool = False
    request: bool = False
    response: str | None = None
    rejects: tuple[Reject, ...] = ()
    final_min_size: int = 0             # the fewest bytes a value takes in the final model
    height: int | None = 0              # struct levels a value can hold below itself (through fields,
                                        # optionals and collections; a base does not count); None:
                                        # unbounded (it reaches a recursive struct)
    recursive: bool = False             # can contain itself (through fields, collections or its base)
    runs: tuple[FixedRun, ...] = ()
    decode_cost: int = 1                # what a reader charges for one value (docs/limits.md 3):
                                        # max(1, the decode_share of every field), or
                                        # ZERO_SIZE_COST when final_min_size is 0
    default_cost: int = 1               # what a default value costs, the default structs it holds included

    def ref(self) -> StructRef:
        return StructRef(self.qualified, self.final_size, self.final_min_size, self.default_cost)

    @property
    def large_default(self) -> bool:
        """A value's default costs more than LARGE_DEFAULT: a reader that makes a value (a collection's
        element, an optional's) before it reads it first checks that the budget left pays for the
        default, and when not reads no value (docs/limits.md 3)."""
        return self.default_cost > LARGE_DEFAULT

    @property
    def nested_cost(self) -> int:
        """What the default struct values a value holds cost (`default_cost` beyond `decode_cost`). Every
        read of a value costs at least its `default_cost`, so a reader that makes the value with its
        defaults before reading its fields first checks that the budget left, once `decode_cost` is
        charged, covers this (docs/limits.md 3): a refusal it would reach anyway, before the memory."""
        return self.default_cost - self.decode_cost

    @property
    def key_fields(self) -> tuple[Field, ...]:
        """The fields named by `keys`, in `all_fields` order: what the struct's equality, hash and order
        in sets and maps go by (none: every value is the same key)."""
        return tuple(f for f in self.all_fields if f.name in self.keys)

    @property
    def id_field(self) -> Field | None:
        """The `uuid id` field requests, responses and rejects are matched by (docs/format.md 7.6)."""
        return next((f for f in self.all_fields if f.name == "id" and f.type == Primitive("uuid")), None)


@dataclass(frozen=True)
class Version:
    major: int = 0
    minor: int = 0


@dataclass(frozen=True)
class Dispatch:
    """One entry of a Receiver's dispatch table: frames of `type_id` decode as `type`."""
    type_id: int
    type: str                 # qualified


@dataclass(frozen=True)
class Package:
    name: str
    file: str
    domain: str | None
    offset: int
    version: Version
    imports: tuple[str, ...]
    enums: tuple[Enum, ...]
    flags: tuple[Enum, ...]
    structs: tuple[Struct, ...]
    protocol: tuple[str, ...] = ()
    """Qualified names of the types the protocol classes send and receive, in
    declaration order: the package's messages, or all its structs when it has
    no `message` (schemas written before the keyword existed)."""
    dispatch: tuple[Dispatch, ...] = ()
    """What a Receiver of the package dispatches (docs/format.md 7.4): its own protocol types, then
    those of its imports (transitively, depth first, import order); a type id already taken is
    skipped (the first wins, so own types before imported ones)."""

    @property
    def messages(self) -> tuple[Struct, ...]:
        return tuple(s for s in self.structs if s.message)

    @property
    def protocol_types(self) -> tuple[Struct, ...]:
        """The structs named by `protocol`, in its order."""
        by_name = {s.qualified: s for s in self.structs}
        return tuple(by_name[q] for q in self.protocol)


@dataclass(frozen=True)
class Schema:
    """The whole IR: the main package plus everything it imports."""
    main: str
    packages: tuple[Package, ...]       # dependency order, main last

    @property
    def main_package(self) -> Package:
        return self.package(self.main)

    def package(self, name: str) -> Package:
        for p in self.packages:
            if p.name == name:
                return p
        raise KeyError(name)

    def struct(self, qualified: str) -> Struct:
        pkg, _, name = qualified.rpartition(".")
        for s in self.package(pkg).structs:
            if s.name == name:
                return s
        raise KeyError(qualified)

    def enum(self, qualified: str) -> Enum:
        pkg, _, name = qualified.rpartition(".")
        p = self.package(pkg)
        for e in p.enums + p.flags:
            if e.name == name:
                return e
        raise KeyError(qualified)
