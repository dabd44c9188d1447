"""Base pieces of generated types: the struct base class and enum support."""

from __future__ import annotations

import copy
import enum
import math
from typing import Any, ClassVar, TypeVar

E = TypeVar("E", bound=enum.IntEnum)
M = TypeVar("M", bound=enum.Enum)


class Struct:
    """Base class of every generated struct and message.

    ``fbe_fields`` lists the attribute names of all fields (inherited first);
    ``fbe_type`` is the type id. Equality, hashing and ordering use the
    ``[key]`` fields only (generated per class); :meth:`fbe_equal` compares
    every field.
    """

    __slots__ = ()
    fbe_fields: ClassVar[tuple[str, ...]] = ()
    fbe_type: ClassVar[int] = 0

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
