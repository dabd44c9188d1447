"""Hypothesis strategies for random values of any IR type, as value descriptions.

The description format is the one of the golden vectors' MANIFEST.json (typed
JSON: 64-bit integers as strings, bytes as hex, decimals as exact strings whose
fraction length is the scale, maps as [key, value] pairs in wire order), so a
generated value can be handed to any language's testee.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from fbec.model import ir
from hypothesis import strategies as st

INT64_AS_STRING = ("int64", "uint64", "timestamp")
MAX_COLLECTION = 3


def float32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


def shortest_float32(x: float) -> float:
    """The shortest decimal that reads back as the same binary32 value (the MANIFEST's float form)."""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    for digits in range(1, 18):
        candidate = float(f"{x:.{digits}g}")
        try:
            if float32(candidate) == x:
                return candidate
        except OverflowError:           # near the float maximum a short text can round above it
            continue
    return x


class Strategies:
    def __init__(self, schema: ir.Schema, allow_nan: bool = False, max_depth: int = 2) -> None:
        self.schema, self.allow_nan, self.max_depth = schema, allow_nan, max_depth
        self._structs: dict[str, Any] = {}

    # ------------------------------------------------------------ scalars

    def primitive(self, name: str) -> st.SearchStrategy[Any]:
        if name == "bool":
            return st.booleans()
        if name in ir.INTEGER_RANGES and name not in ("char", "wchar"):
            lo, hi = ir.INTEGER_RANGES[name]
            s = st.one_of(st.sampled_from([lo, hi, 0]), st.integers(lo, hi))
            return s.map(str) if name in INT64_AS_STRING else s
        if name == "char":
            return st.integers(0, 255)
        if name == "wchar":
            return st.integers(0, 0x10FFFF)
        if name == "timestamp":
            return st.integers(0, 2**64 - 1).map(str)
        if name == "float":
            return st.floats(width=32, allow_nan=self.allow_nan, allow_infinity=self.allow_nan).map(shortest_float32)
        if name == "double":
            return st.floats(allow_nan=self.allow_nan, allow_infinity=self.allow_nan)
        if name == "decimal":
            return st.builds(self._decimal, st.integers(0, 2**96 - 1), st.integers(0, 28), st.booleans())
        if name == "string":
            return st.text(max_size=12)
        if name == "bytes":
            return st.binary(max_size=12).map(bytes.hex)
        if name == "uuid":
            return st.uuids().map(str)
        raise ValueError(name)

    @staticmethod
    def _decimal(magnitude: int, scale: int, negative: bool) -> str:
        if magnitude == 0:
            return "0"                       # zero is written without sign or scale
        # Writers normalise (no trailing zeros in the fraction, docs/format.md 2.4), so the
        # description of a generated value is the normalised one.
        d = Decimal(magnitude).scaleb(-scale).normalize()
        text = f"{d:f}"
        return "-" + text if negative else text

    def enum(self, ref: ir.EnumRef) -> st.SearchStrategy[Any]:
        e = self.schema.enum(ref.name)
        lo, hi = ir.INTEGER_RANGES[e.wire]
        declared = [v.value for v in e.values]
        s = st.one_of(st.sampled_from(declared), st.integers(lo, hi)) if declared else st.integers(lo, hi)
        return s.map(str) if e.wire in ("int64", "uint64") else s

    # ------------------------------------------------------------ composites

    def type(self, t: ir.Type, depth: int = 0) -> st.SearchStrategy[Any]:
        if isinstance(t, ir.Primitive):
            return self.primitive(t.name)
        if isinstance(t, ir.EnumRef):
            return self.enum(t)
        if isinstance(t, ir.StructRef):
            return self.struct(t.name, depth + 1)
        if isinstance(t, ir.Optional_):
            return st.one_of(st.none(), self.type(t.element, depth))
        if isinstance(t, ir.Array):
            return st.lists(self.type(t.element, depth), min_size=t.length, max_size=t.length)
        size = 0 if depth >= self.max_depth else MAX_COLLECTION
        if isinstance(t, ir.Sequence):
            if t.kind == "set":
                order = self.sort_key(t.element)
                return self._unique(self.type(t.element, depth), order, size).map(
                    lambda xs: sorted(xs, key=order))
            return st.lists(self.type(t.element, depth), max_size=size)
        assert isinstance(t, ir.Mapping)
        key = self.sort_key(t.key)
        pairs = self._unique(st.tuples(self.type(t.key, depth), self.type(t.value, depth)),
                             lambda kv: key(kv[0]), size)
        if t.kind == "map":
            pairs = pairs.map(lambda xs: sorted(xs, key=lambda kv: key(kv[0])))
        return pairs.map(lambda xs: [list(kv) for kv in xs])

    @staticmethod
    def _unique(s: st.SearchStrategy[Any], key: Callable[[Any], Any], size: int) -> st.SearchStrategy[list[Any]]:
        return st.lists(s, max_size=size, unique_by=key)

    def struct(self, qualified: str, depth: int = 0) -> st.SearchStrategy[dict[str, Any]]:
        s = self.schema.struct(qualified)
        fields = {f.name: (self.type(f.type, depth) if depth < self.max_depth else self._minimal(f.type))
                  for f in s.all_fields}
        return st.fixed_dictionaries({"@type": st.just(qualified), **fields})

    def _minimal(self, t: ir.Type) -> st.SearchStrategy[Any]:
        """Past the depth limit: nulls, empty collections, and structs with minimal fields."""
        if isinstance(t, ir.Optional_):
            return st.none()
        if isinstance(t, (ir.Sequence, ir.Mapping)):
            return st.just([])
        if isinstance(t, ir.StructRef):
            s = self.schema.struct(t.name)
            return st.fixed_dictionaries({"@type": st.just(t.name),
                                          **{f.name: self._minimal(f.type) for f in s.all_fields}})
        if isinstance(t, ir.Array):
            return st.lists(self._minimal(t.element), min_size=t.length, max_size=t.length)
        return self.type(t, self.max_depth)

    # ------------------------------------------------------------ ordering (wire order of sets and maps)

    def sort_key(self, t: ir.Type) -> Callable[[Any], Any]:
        """The order of the original's std::set / std::map: by value, structs by their [key] fields."""
        if isinstance(t, ir.Primitive):
            if t.name in INT64_AS_STRING:
                return int
            if t.name == "decimal":
                return Decimal
            if t.name == "string":
                return lambda s: s.encode("utf-8")
            if t.name == "bytes":
                return bytes.fromhex
            if t.name == "uuid":
                return lambda u: bytes.fromhex(u.replace("-", ""))
            if t.name == "char":
                return lambda c: c - 256 if c >= 128 else c     # C++ char is signed on our ABIs
            return lambda x: x
        if isinstance(t, ir.EnumRef):
            return int
        if isinstance(t, ir.StructRef):
            s = self.schema.struct(t.name)
            keys = [(f.name, self.sort_key(f.type)) for f in s.all_fields if f.key]
            return lambda v: tuple(k(v[name]) for name, k in keys)
        return lambda x: str(x)
