"""Base pieces of generated types: the struct base class and enum support."""

from __future__ import annotations

import copy
import decimal
import enum
import math
import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from . import jsonfmt
from .buffer import Budget, BytesLike
from .errors import EncodeError
from .final import FINAL_WRITERS
from .limits import MAX_DEPTH, Limits
from .model import (
    FinalRead,
    FinalWrite,
    VersionedRead,
    VersionedWrite,
    decode_final,
    decode_versioned,
    encode_final,
    encode_versioned,
    writable,
)
from .native import Core
from .source import PerClass, Source
from .text import fmt_enum, fmt_flags, sort_key, struct_text

if TYPE_CHECKING:
    from typing_extensions import Self

E = TypeVar("E", bound=enum.IntEnum)
M = TypeVar("M", bound=enum.Enum)
T = TypeVar("T")


class Codec(Generic[T]):
    """What one generated struct is read and written with: its generated functions of each model
    and of JSON, and its entry in the module's native core (docs/python.md, Native core), asked
    first. Its class's shortcuts (``to_fbe``, ``from_json``...), its model classes and the protocol
    classes run them; the generated module gives each class its codec at its end (:func:`bind`).

    ``struct`` is the generated class, ``qualified`` the schema's name of the struct with its package
    (a JSON error's path starts with it) and ``name`` without (its text form and a JSON root's errors
    name it), ``type_id`` its type id; ``final`` (generated with --final) its final reader, whose writer
    is compiled from the class's spec (fbe.final.final_writer) when it is first written; ``json_cost``
    (generated with JSON) what reading one value from JSON charges (its decode cost, docs/limits.md 3:
    the JSON reader and writer are compiled from the class's spec, fbe.jsonfmt.json_reader and
    json_writer); ``depth`` (for a struct that can nest without a bound) has a writer check a value's
    nesting before it takes it (docs/limits.md 1: :func:`depth_walk`).
    """

    __slots__ = ("core", "depth", "final", "final_read", "index", "json_cost", "name", "qualified", "struct",
                 "type_id", "versioned")

    def __init__(
        self,
        struct: type[Struct],
        qualified: str,
        core: Core | None,
        index: int,
        versioned: tuple[VersionedWrite[T], VersionedRead[T]],
        final: FinalRead[T] | None = None,
        json_cost: int | None = None,
        depth: bool = False,
    ) -> None:
        self.struct = struct
        self.qualified = qualified
        self.name = qualified.rpartition(".")[2]
        self.type_id = struct.fbe_type
        self.core = core
        self.index = index
        self.versioned = versioned
        self.final_read = final
        self.final: tuple[FinalWrite[T], FinalRead[T]] | None = None  # made when first used (_final)
        self.json_cost = json_cost
        self.depth = depth

    def writable(self, value: T) -> T:
        """``value``, once its structs are known to nest within fbe.MAX_DEPTH (fbe.writable)."""
        return writable(_DEPTH_WALKS(self.struct)(value, 1), value) if self.depth else value

    def _final(self) -> tuple[FinalWrite[T], FinalRead[T]]:
        if self.final is None:
            if self.final_read is None:
                raise TypeError(f"{self.name} has no final model (generated without --final)")
            self.final = (FINAL_WRITERS(self.struct), self.final_read)
        return self.final

    def encode(self, value: T, final: bool) -> bytearray:
        """``value`` as a root of either model, by the generated Python code."""
        if final:
            return encode_final(self._final()[0], self.writable(value), self.type_id)
        return encode_versioned(self.versioned[0], self.writable(value))

    def decode(self, data: BytesLike, final: bool, limits: Limits | None) -> tuple[T, int]:
        """A root of either model by the generated Python code: (value, size)."""
        if final:
            return decode_final(self._final()[1], data, self.type_id, limits)
        return decode_versioned(self.versioned[1], data, limits)


class Struct:
    """Base class of every generated struct and message.

    ``fbe_fields`` lists the attribute names of all fields (inherited first: its spec's, set by :func:`bind`);
    ``fbe_type`` is the type id; ``fbe_spec`` describes each field's type for
    the error messages of writers (:func:`explain`); ``fbe_codec`` is what its values are read and
    written with (:class:`Codec`). Equality, hashing and ordering use the
    ``[key]`` fields only (``fbe_key`` and ``fbe_order``, made per class by :func:`bind`); :meth:`fbe_equal`
    compares every field.
    """

    __slots__ = ()
    fbe_fields: ClassVar[tuple[str, ...]] = ()
    fbe_type: ClassVar[int] = 0
    fbe_spec: ClassVar[tuple[tuple[str, str, Any], ...]] = ()
    """(field name, attribute, type spec) of every field, for :func:`explain` (set by generated code)."""
    fbe_codec: ClassVar[Codec[Any]]

    def fbe_key(self) -> tuple[Any, ...]:
        """The values of the ``[key]`` fields, which equality and hashing compare (none: every value
        of the type is equal, as the original)."""
        return ()

    def fbe_order(self) -> tuple[Any, ...]:
        """What ``<`` compares: the order of the original's std::set, a ``char`` key field as C++'s
        signed char, flags of a signed type by their signed value (generated where it is not
        ``fbe_key``'s)."""
        return ()

    # The class of the left operand decides which fields are compared (a struct derived from it
    # has more); a value that is not of that class is NotImplemented, as Python asks.
    def __eq__(self, other: object) -> bool:
        cls = type(self)
        if not isinstance(other, cls):
            return NotImplemented
        return cls.fbe_key(self) == cls.fbe_key(other)

    def __hash__(self) -> int:
        return hash(type(self).fbe_key(self))

    def __lt__(self, other: object) -> bool:
        cls = type(self)
        if not isinstance(other, cls):
            return NotImplemented
        return cls.fbe_order(self) < cls.fbe_order(other)

    def __le__(self, other: object) -> bool:
        cls = type(self)
        if not isinstance(other, cls):
            return NotImplemented
        return cls.fbe_order(self) <= cls.fbe_order(other)

    def __gt__(self, other: object) -> bool:
        cls = type(self)
        if not isinstance(other, cls):
            return NotImplemented
        return cls.fbe_order(self) > cls.fbe_order(other)

    def __ge__(self, other: object) -> bool:
        cls = type(self)
        if not isinstance(other, cls):
            return NotImplemented
        return cls.fbe_order(self) >= cls.fbe_order(other)

    if TYPE_CHECKING:  # each generated class has its own, made by bind() (below)

        def to_fbe(self) -> bytes: ...

        @classmethod
        def from_fbe(cls, data: BytesLike, limits: Limits | None = None) -> Self: ...

        def to_final(self) -> bytes: ...

        @classmethod
        def from_final(cls, data: BytesLike, limits: Limits | None = None) -> Self: ...

        def to_json(self) -> str: ...

        @classmethod
        def from_json(cls, text: str | bytes, limits: Limits | None = None) -> Self: ...

    def __str__(self) -> str:
        """The original's text format (docs/format.md section 9), as the generated class prints it."""
        return struct_text(self, self.fbe_codec.struct)

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.fbe_fields)
        return f"{type(self).__name__}({inner})"

    def fbe_equal(self, other: object) -> bool:
        """True when ``other`` has the same type and every field is equal (not only the keys)."""
        if type(other) is not type(self):
            return False
        return all(_deep_equal(getattr(self, n), getattr(other, n)) for n in self.fbe_fields)

    def clone(self) -> Any:
        """A deep copy (the original's ``clone()``)."""
        return copy.deepcopy(self)

    def fbe_copy(self) -> Any:
        """A shallow copy."""
        c = type(self).__new__(type(self))
        for n in self.fbe_fields:
            setattr(c, n, getattr(self, n))
        return c


def bind(
    cls: type[Struct],
    qualified: str,
    core: Core | None,
    index: int,
    versioned: tuple[VersionedWrite[Any], VersionedRead[Any]],
    final: FinalRead[Any] | None = None,
    json_cost: int | None = None,
    depth: bool = False,
    keys: tuple[str, ...] = (),
) -> None:
    """Give a generated struct class (generated at the end of its module) its ``fbe_codec``
    (:class:`Codec`, the arguments are its), its ``fbe_fields`` (the attributes of its spec) and its
    shortcuts: ``to_fbe``/``from_fbe``, with ``final`` (the final reader) ``to_final``/``from_final``,
    with ``json_cost`` ``to_json``/``from_json``; with ``keys`` (the attributes of its ``[key]`` fields, a base's first)
    ``fbe_key`` and ``fbe_order`` (:func:`_keys`).

    The shortcuts are made for each class, as dataclasses make their methods: closures over the
    class's codec. One method of fbe.Struct would look the codec up on every call, a class
    attribute Python 3.11 does not cache, which made the native core's calls ~30 ns (7 %) slower.
    """
    c = Codec(cls, qualified, core, index, versioned, final, json_cost, depth)
    cls.fbe_codec = c
    cls.fbe_fields = tuple(attr for _, attr, _ in cls.fbe_spec)
    json = () if json_cost is None else _json(c)
    shortcuts = [*_binary(c, False), *(_binary(c, True) if final else ()), *json]
    for method in shortcuts:  # (a classmethod has no __name__ of its own before Python 3.10)
        setattr(cls, getattr(method, "__func__", method).__name__, method)
    if keys:
        _keys(cls, keys)


def _keys(cls: type[Struct], keys: tuple[str, ...]) -> None:
    """A keyed class's ``fbe_key`` (the key fields' values, which equality and hashing compare) and
    ``fbe_order`` (what its ordering compares, where that is not the same: a ``char`` key field as
    C++'s signed char, flags of a signed type by their signed value, the sort keys of the fields'
    specs), compiled (fbe.source) as the generated methods they replaced."""
    source = Source()
    specs = {attr: spec[1] if spec[0] == "hidden" else spec for _, attr, spec in cls.fbe_spec}
    values, orders = [], []
    for attr in keys:
        order = sort_key(specs[attr])
        values.append(f"self.{attr}")
        orders.append(f"self.{attr}" if order is None else f"{source.name(order)}(self.{attr})")
    cls.fbe_key = source.function("self", f"({', '.join(values)},)")  # type: ignore[method-assign]
    if orders != values:
        cls.fbe_order = source.function("self", f"({', '.join(orders)},)")  # type: ignore[method-assign]
    else:
        cls.fbe_order = cls.fbe_key  # type: ignore[method-assign]


def _binary(c: Codec[Any], final: bool) -> tuple[Callable[..., Any], classmethod[Any, Any, Any]]:
    """``to_fbe`` and ``from_fbe`` (final: ``to_final`` and ``from_final``) of a class: the native
    core's answer when it answers, else the generated Python code's."""
    core, index = c.core, c.index
    native_write = None if core is None else core.to_final if final else core.to_fbe
    native_read = None if core is None else core.from_final if final else core.from_fbe

    def write(self: Struct) -> bytes:
        if native_write is not None:
            data = native_write(index, self)
            if data is not None:
                return data
        return bytes(c.encode(self, final))

    def read(cls: type[Struct], data: BytesLike, limits: Limits | None = None) -> Any:
        if native_read is not None:
            v = native_read(index, data, limits)
            if v is not None:
                return v
        return c.decode(data, final, limits)[0]

    name, model, section = ("final", "final", 4) if final else ("fbe", "versioned", 3)
    write.__name__, read.__name__ = f"to_{name}", f"from_{name}"
    write.__doc__ = f"This value as a {model} root (docs/format.md section {section})."
    read.__doc__ = f"Decode a {model} root; raises fbe.DecodeError on bad input (docs/limits.md)."
    return write, classmethod(read)


def _json(c: Codec[Any]) -> tuple[Callable[..., Any], classmethod[Any, Any, Any]]:
    """``to_json`` and ``from_json`` of a class (the writer and the reader compiled when first asked
    for: fbe.jsonfmt.json_writer, json_reader)."""
    write: Callable[[Any], str] | None = None
    read: Callable[[Any, str, Budget], Any] | None = None

    def to_json(self: Struct) -> str:
        """Compact JSON exactly as the original writes it (docs/format.md section 8)."""
        nonlocal write
        if write is None:
            write = jsonfmt.JSON_WRITERS(c.struct)
        try:
            return write(c.writable(self))
        except (TypeError, AttributeError, ValueError, OverflowError, KeyError, RecursionError) as e:
            raise EncodeError(explain(self, e)) from None

    def from_json(cls: type[Struct], text: str | bytes, limits: Limits | None = None) -> Any:
        """Parse JSON (missing members keep their defaults); raises fbe.DecodeError (docs/limits.md)."""
        nonlocal read
        if read is None:
            read = jsonfmt.JSON_READERS(c.struct)
        return read(jsonfmt.parse(text), c.name, jsonfmt.budget(text, limits))

    return to_json, classmethod(from_json)


def _deep_equal(a: Any, b: Any) -> bool:
    if isinstance(a, Struct):
        return a.fbe_equal(b)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_deep_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        if not isinstance(b, dict) or len(a) != len(b):
            return False
        bi = list(b.items())
        for k, v in a.items():
            if not any(_deep_equal(k, k2) and _deep_equal(v, v2) for k2, v2 in bi):
                return False
        return True
    if isinstance(a, (set, frozenset)):
        if not isinstance(b, (set, frozenset)) or len(a) != len(b):
            return False
        return all(any(_deep_equal(x, y) for y in b) for x in a)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def enum_missing(cls: type[E], value: object) -> E | None:
    """``_missing_`` of generated enums: keep undeclared values (docs/format.md 2.6)."""
    if isinstance(value, int) and not isinstance(value, bool):
        member = int.__new__(cls, value)
        member._name_ = None  # type: ignore[assignment]
        member._value_ = value
        return member
    return None


class Enum(enum.IntEnum):
    """Base class of every generated enum: a value no constant has is kept (docs/format.md 2.6),
    ``Side(42)``, and prints ``<unknown>``. ``str()`` is the text form (docs/format.md 9): the first
    name the schema declares with the value, from the class's ``fbe_names`` (set by the generated
    module: the schema's names, which a member renamed for Python does not keep)."""

    fbe_names: ClassVar[dict[int, str]]

    @classmethod
    def _missing_(cls, value: object) -> Any:
        return enum_missing(cls, value)

    def __str__(self) -> str:
        return fmt_enum(self, self.fbe_names)


class Flags(enum.IntFlag):
    """Base class of every generated flags class (any bits are kept, as IntFlag keeps them).
    ``str()`` is the text form (docs/format.md 9): the declared flags fully set, joined by ``|``,
    from the class's ``fbe_names`` (the schema's names and values in declaration order)."""

    fbe_names: ClassVar[tuple[tuple[str, int], ...]]

    def has_flags(self, flags: int) -> bool:
        """True when every bit of ``flags`` is set."""
        return (int(self) & int(flags)) == int(flags)

    def __str__(self) -> str:
        return fmt_flags(self, self.fbe_names)


class EnumMembers(dict[int, M]):
    """Wire value -> member of one generated enum/flags class (``FBE_M_<Name>``).

    Declared values are a plain dict hit; any other value (kept as docs/format.md
    2.6 asks) is made by the class on each lookup and not stored, so hostile
    input cannot grow the map.
    """

    __slots__ = ("cls",)

    def __init__(self, cls: type[M]) -> None:
        super().__init__({m.value: m for m in cls.__members__.values()})
        self.cls = cls

    def __missing__(self, value: int) -> M:
        return self.cls(value)


class Default(enum.Enum):
    DEFAULT = 0


DEFAULT = Default.DEFAULT
"""Sentinel for optional constructor arguments whose schema default is made per instance."""


# ---------------------------------------------------------------- explaining a failed write

_FLT_MAX = 3.4028234663852886e38
_NO_BYTE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _got(v: Any) -> str:
    return f"got {type(v).__name__} {_shown(v)}"


def _problem(v: Any, spec: Any) -> tuple[str, str] | None:
    """(path below v, problem) of the first part of v that its type spec does not allow."""
    kind = spec[0]
    if kind == "int":  # (an enum's or flags' spec also holds its text function and sort key)
        name, lo, hi = spec[1:4]
        if not isinstance(v, int):
            return "", f"expected an integer ({name}), {_got(v)}"
        if not lo <= v <= hi:
            return "", f"{v} is out of range for {name}"
        return None
    if kind == "bool":
        return None if isinstance(v, (bool, int)) else ("", f"expected a bool, {_got(v)}")
    if kind == "float":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return "", f"expected a number ({spec[1]}), {_got(v)}"
        try:
            x = float(v)
        except OverflowError:  # an int beyond every double
            return "", f"{v!r} is out of range for {spec[1]}"
        if spec[1] == "float" and not math.isinf(x) and not math.isnan(x) and abs(x) > _FLT_MAX:
            return "", f"{v!r} is out of range for float"
        return None
    if kind == "decimal":
        if isinstance(v, bool) or not isinstance(v, (int, float, decimal.Decimal)):
            return "", f"expected a Decimal, {_got(v)}"
        from .values import decimal_parts

        try:
            decimal_parts(v)
        except (ValueError, ArithmeticError) as e:
            return "", str(e)
        return None
    if kind == "string":
        if not isinstance(v, str):
            return "", f"expected a str, {_got(v)}"
        m = _NO_BYTE.search(v)
        if m is not None:
            return "", (f"the string holds the lone surrogate U+{ord(m.group()):04X}, which stands for no byte "
                        "(only U+DC80..U+DCFF stand for the bytes 0x80..0xFF)")
        return None
    if kind == "bytes":
        return None if isinstance(v, (bytes, bytearray, memoryview)) else ("", f"expected bytes, {_got(v)}")
    if kind == "uuid":
        return None if isinstance(v, uuid.UUID) else ("", f"expected a uuid.UUID, {_got(v)}")
    if kind == "struct":
        cls = spec[1]
        if not isinstance(v, cls):
            return "", f"expected {cls.__name__}, {_got(v)}"
        for name, attr, field_spec in cls.fbe_spec:
            found = _problem(getattr(v, attr, None), field_spec)
            if found is not None:
                return "." + name + found[0], found[1]
        return None
    if kind == "optional":
        return None if v is None else _problem(v, spec[1])
    if kind == "hidden":  # a field the text form hides: its value's spec
        return _problem(v, spec[1])
    if kind in ("array", "vector", "list", "set"):
        if kind == "set" and not isinstance(v, (set, frozenset)):
            return "", f"expected a set, {_got(v)}"
        if kind != "set" and not isinstance(v, (list, tuple)):
            return "", f"expected a list, {_got(v)}"
        if kind == "array" and len(v) != spec[2]:
            return "", f"expected {spec[2]} elements, got {len(v)}"
        for i, x in enumerate(sorted(v, key=repr) if kind == "set" else v):
            found = _problem(x, spec[1])
            if found is not None:
                return (f"[{i}]" if kind != "set" else f"{{{_shown(x)}}}") + found[0], found[1]
        return None
    if kind in ("map", "hash"):
        if not isinstance(v, dict):
            return "", f"expected a dict, {_got(v)}"
        for key, x in v.items():
            found = _problem(key, spec[1])
            if found is not None:
                return f"[{_shown(key)}] (the key)" + found[0], found[1]
            found = _problem(x, spec[2])
            if found is not None:
                return f"[{_shown(key)}]" + found[0], found[1]
        return None
    return None


def depth_walk(cls: type[Struct]) -> Callable[[Any, int], bool]:
    """Whether ``v``, a struct of class ``cls`` at depth ``d`` (the root is 1), nests at most
    MAX_DEPTH structs: the writers' check of a struct that can nest without a bound (docs/limits.md
    1), compiled from the class's ``fbe_spec`` (fbe.source) as the generated ``fbe_dn_<Name>`` it
    replaced: every struct the value holds walked one level deeper (:func:`_walk`)."""
    source = Source()
    walks = [_walk(spec, "v." + attr, source, 0) for _, attr, spec in cls.fbe_spec]
    return source.function("v, d", " and ".join([f"d <= {MAX_DEPTH}", *filter(None, walks)]))


_DEPTH_WALKS: PerClass[Callable[[Any, int], bool]] = PerClass(depth_walk)
"""Each struct class's depth walk, made when a writer first checks one of its values."""


def _walk(spec: tuple[Any, ...], x: str, source: Source, n: int) -> str | None:
    """The source of an expression: whether the structs in ``x`` of a type spec (at depth d + 1) stay
    within the limit; None when the spec holds no struct."""
    kind = spec[0]
    if kind == "hidden":
        return _walk(spec[1], x, source, n)
    if kind == "struct":
        return f"{_DEPTH_WALKS.named(source, spec[1])}({x}, d + 1)"
    if kind == "optional":
        inner = _walk(spec[1], x, source, n)
        return None if inner is None else f"({x} is None or {inner})"
    if kind not in ("array", "vector", "list", "set", "map", "hash"):
        return None
    names = [f"k{n}", f"v{n}"] if kind in ("map", "hash") else [f"e{n}"]
    walks = [w for w in (_walk(part, name, source, n + 1) for part, name in zip(spec[1:], names)) if w]
    items = f"{x}.items()" if kind in ("map", "hash") else x
    return f"all([{' and '.join(walks)} for {', '.join(names)} in {items}])" if walks else None


def explain(value: Any, error: BaseException | None = None) -> str:
    """Why a value cannot be written, naming its type, the field path and the problem in plain words
    (``cannot encode Product.id: 1099511627776 is out of range for int32``).

    Called by the writers only after their fast path failed: it walks the value against the
    generated ``fbe_spec`` of its type; when that finds nothing the writer's own error is shown.
    """
    name = type(value).__name__
    found = _problem(value, ("struct", type(value))) if isinstance(value, Struct) else None
    if found is not None:
        return f"cannot encode {name}{found[0]}: {found[1]}"
    if error is None:
        return f"cannot encode {name}"
    text = str(error)
    return text if text.startswith("cannot encode ") else f"cannot encode {name}: {text}"
