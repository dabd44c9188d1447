"""The final model's writer (docs/format.md section 4) of a generated struct class, compiled from the
class's ``fbe_spec`` (fbe.source) as the generated ``fbe_fw_<Name>`` it replaced: its fields back to
back, each run of consecutive fixed-size fields (scalars and arrays of them, the same bytes in both
models) packed with one layout, the string or bytes field after a run (its u32 size) in the same pack.
A decimal is packed on its own, as the final reader reads it (the plan's final steps).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from .buffer import (
    char_order,
    check_length,
    first,
    first_char,
    first_signed8,
    first_signed16,
    first_signed32,
    first_signed64,
    pack_u32,
    signed8,
    signed16,
    signed32,
    signed64,
    write_bytes,
    write_plain_seq,
    write_string,
)
from .source import PerClass, Source
from .text import sort_key
from .values import encode_decimal

FinalWrite = Callable[[bytearray, Any], None]

_INTEGER_CODES = {0xFF: "b", 0xFFFF: "h", 0xFFFF_FFFF: "i", 0xFFFF_FFFF_FFFF_FFFF: "q"}
"""struct's code of an integer by the span of the range its spec holds (hi - lo: the whole range of
its wire integer of 1, 2, 4 or 8 bytes, a flags' too, 0..every bit), signed; unsigned in upper case."""

_CODES = {"bool": "?", "float": "f", "double": "d", "uuid": "16s", "decimal": "16s"}
"""struct's code of every other fixed-size scalar (a float's by the name its spec holds)."""

_ITEMS_KEYS: dict[Any, Callable[[Any], Any]] = {
    None: first, char_order: first_char, signed8: first_signed8, signed16: first_signed16,
    signed32: first_signed32, signed64: first_signed64,
}
"""The sort key of a map's items by the sort key of its keys (fbe.text.sort_key; None: their own order)."""


def _leaf(spec: tuple[Any, ...]) -> tuple[Any, ...]:
    return spec[1] if spec[0] == "hidden" else spec


def _is_scalar(spec: tuple[Any, ...]) -> bool:
    return spec[0] in ("int", "float", "bool", "uuid", "decimal")


def _is_fixed(spec: tuple[Any, ...]) -> bool:
    """A scalar or an array of scalars: the same bytes in both models, nothing out of line."""
    return _is_scalar(spec[1] if spec[0] == "array" else spec)


def _is_checked(spec: tuple[Any, ...]) -> bool:
    """A decimal or an array of them: read on its own (its flags are checked), so packed on its own."""
    return bool((spec[1] if spec[0] == "array" else spec)[0] == "decimal")


def _format(spec: tuple[Any, ...]) -> str:
    """The struct format of a fixed value, from its spec: an integer's from the range it holds
    (``("int", "int32", -2147483648, 2147483647)``), an array's with a repeat count (``3i``) or, when
    its element is 16 bytes, as one bytes item (``48s``: a uuid's or decimal's are joined)."""
    kind: str = spec[0]
    if kind == "array":
        element, length = _format(spec[1]), spec[2]
        return f"{length}{element}" if len(element) == 1 else f"{16 * length}s"
    if kind == "int":
        return integer_code(spec[2], spec[3])
    return _CODES[spec[1] if kind == "float" else kind]


def integer_code(lo: int, hi: int) -> str:
    """struct's code of a wire integer whose whole range is lo..hi (fbe.dynamic's integers too)."""
    code = _INTEGER_CODES[hi - lo]
    return code if lo < 0 else code.upper()


class _Writer:
    """The source of one class's final writer: its statements, its locals and the layouts it packs with."""

    def __init__(self) -> None:
        self.source = Source()
        self.lines: list[str] = []
        self.layouts: dict[str, str] = {}
        self.locals = 0

    def line(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def local(self, stem: str) -> str:
        self.locals += 1
        return f"{stem}{self.locals}"

    def layout(self, fmt: str) -> str:
        if fmt not in self.layouts:
            self.layouts[fmt] = self.source.name(struct.Struct("<" + fmt))
        return self.layouts[fmt]

    def raw(self, spec: tuple[Any, ...], x: str) -> str:
        """A scalar's raw value as struct packs it."""
        if spec[0] == "decimal":
            return f"{self.source.name(encode_decimal)}({x})"
        return f"{x}.bytes" if spec[0] == "uuid" else x

    def fixed(self, indent: int, spec: tuple[Any, ...], x: str, field: str) -> list[str]:
        """The raw values of a fixed value, after the statement checking an array's length."""
        if spec[0] != "array":
            return [self.raw(spec, x)]
        self.line(indent, f"{self.source.name(check_length)}({x}, {spec[2]}, {field!r})")
        conv = self.raw(spec[1], "e")
        if conv == "e":
            return [f"*{x}"]
        return [f'b"".join([{conv} for e in {x}])']  # 16-byte values: one bytes item (_format)

    def ordered(self, spec: tuple[Any, ...], x: str) -> str:
        """A collection's items in the original's order: a set's ascending (std::set), a map's items
        by key (std::map), by the sort key of a ``char`` or of flags of a signed type."""
        kind = spec[0]
        key = sort_key(spec[1])
        if kind == "set":
            return f"sorted({x})" if key is None else f"sorted({x}, key={self.source.name(key)})"
        if kind == "map":
            return f"sorted({x}.items(), key={self.source.name(_ITEMS_KEYS[key])})"
        return f"{x}.items()" if kind == "hash" else x

    def write(self, indent: int, spec: tuple[Any, ...], x: str, field: str) -> None:
        """Statements appending the final encoding of x (of a type spec) to w."""
        kind = spec[0]
        if _is_fixed(spec):
            raws = self.fixed(indent, spec, x, field)
            self.line(indent, f"w += {self.layout(_format(spec))}.pack({', '.join(raws)})")
        elif kind == "struct":
            self.line(indent, f"{FINAL_WRITERS.named(self.source, spec[1])}(w, {x})")
        elif kind in ("string", "bytes"):
            self.line(indent, f"{self.source.name(write_string if kind == 'string' else write_bytes)}(w, {x})")
        elif kind == "optional":
            y = self.local("y")
            self.line(indent, f"{y} = {x}")
            self.line(indent, f"if {y} is None:")
            self.line(indent + 1, "w.append(0)")
            self.line(indent, "else:")
            self.line(indent + 1, "w.append(1)")
            self.write(indent + 1, spec[1], y, field)
        elif kind == "array":
            self.line(indent, f"{self.source.name(check_length)}({x}, {spec[2]}, {field!r})")
            e = self.local("e")
            self.line(indent, f"for {e} in {x}:")
            self.write(indent + 1, spec[1], e, field)
        else:
            self.collection(indent, spec, x, field)

    def collection(self, indent: int, spec: tuple[Any, ...], x: str, field: str) -> None:
        """A vector, list, set, map or hash: its count, then its items; a block of scalars at once (a
        vector, list or set of one format character with one call, others one pack per item, joined)."""
        parts = spec[1:3] if spec[0] in ("map", "hash") else spec[1:2]
        if all(_is_scalar(part) for part in parts):
            fmt = "".join(_format(part) for part in parts)
            if len(parts) == 1 and len(fmt) == 1:
                self.line(indent, f"{self.source.name(write_plain_seq)}(w, {fmt!r}, {self.ordered(spec, x)})")
                return
            stems = ("k", "e")[-len(parts):]
            raws = ", ".join(self.raw(part, name) for part, name in zip(parts, stems))
            self.line(indent, f"w += {self.source.name(pack_u32)}(len({x}))")
            items = f"{self.layout(fmt)}.pack({raws}) for {', '.join(stems)} in {self.ordered(spec, x)}"
            self.line(indent, f'w += b"".join([{items}])')
            return
        names = [self.local(stem) for stem in (("k", "v") if len(parts) == 2 else ("e",))]
        self.line(indent, f"w += {self.source.name(pack_u32)}(len({x}))")
        self.line(indent, f"for {', '.join(names)} in {self.ordered(spec, x)}:")
        for part, name in zip(parts, names):
            self.write(indent + 1, part, name, field)

    def pack(self, members: list[tuple[str, str, tuple[Any, ...]]], text: tuple[str, str, Any] | None) -> None:
        """A run of fixed fields (and the string or bytes field closing it) with one pack."""
        raws: list[str] = []
        for name, attr, spec in members:
            raws += self.fixed(0, spec, "v." + attr, name)
        fmt = "".join(_format(spec) for _, _, spec in members)
        tail = ""
        if text is not None:
            tail = self.local("s")
            encode = '.encode("utf-8", "surrogateescape")' if text[2][0] == "string" else ""
            self.line(0, f"{tail} = v.{text[1]}{encode}")
            raws.append(f"len({tail})")
            fmt += "I"
        self.line(0, f"w += {self.layout(fmt)}.pack({', '.join(raws)})")
        if tail:
            self.line(0, f"w += {tail}")


def final_writer(cls: Any) -> FinalWrite:
    """``f(w, v)``: append the final encoding of ``v``, a ``cls`` (fields back to back)."""
    writer = _Writer()
    fields = [(name, attr, _leaf(spec)) for name, attr, spec in getattr(cls, "fbe_spec", ())]
    run: list[tuple[str, str, tuple[Any, ...]]] = []
    for field in fields:
        spec = field[2]
        if _is_fixed(spec):
            if run and (_is_checked(spec) or _is_checked(run[-1][2])):   # a decimal is packed alone
                writer.pack(run, None)
                run = []
            run.append(field)
            continue
        if spec[0] in ("string", "bytes"):
            writer.pack(run, field)
        else:
            if run:
                writer.pack(run, None)
            writer.write(0, spec, "v." + field[1], field[0])
        run = []
    if run:
        writer.pack(run, None)
    return writer.source.statements("w, v", writer.lines or ["pass"])


FINAL_WRITERS: PerClass[FinalWrite] = PerClass(final_writer)
"""Each generated struct class's final writer, made when it is first written."""
