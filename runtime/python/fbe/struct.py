"""Base pieces of generated types: the struct base class and enum support."""

from __future__ import annotations

import copy
import decimal
import enum
import math
import re
import uuid
from typing import Any, ClassVar, TypeVar

E = TypeVar("E", bound=enum.IntEnum)
M = TypeVar("M", bound=enum.Enum)


class Struct:
    """Base class of every generated struct and message.

    ``fbe_fields`` lists the attribute names of all fields (inherited first);
    ``fbe_type`` is the type id; ``fbe_spec`` describes each field's type for
    the error messages of writers (:func:`explain`). Equality, hashing and ordering use the
    ``[key]`` fields only (generated per class); :meth:`fbe_equal` compares
    every field.
    """

    __slots__ = ()
    fbe_fields: ClassVar[tuple[str, ...]] = ()
    fbe_type: ClassVar[int] = 0
    fbe_spec: ClassVar[tuple[tuple[str, str, Any], ...]] = ()
    """(field name, attribute, type spec) of every field, for :func:`explain` (set by generated code)."""

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
    if kind == "int":
        _, name, lo, hi = spec
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
