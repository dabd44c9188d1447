"""Text (printing) format helpers, docs/format.md section 9.

Printed text is a ``str`` whose UTF-8 encoding with the ``surrogateescape``
error handler gives the original's raw bytes: a ``char`` byte >= 0x80 (which
the original prints raw) is represented by the lone surrogate U+DC80..U+DCFF.
Use :func:`text_bytes` to get the bytes the original would print.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .buffer import char_order
from .values import DecimalLike, decimal_to_double

_CHARS = tuple(chr(b) if b < 0x80 else chr(0xDC00 + b) for b in range(256))


def text_bytes(text: str) -> bytes:
    """The raw bytes of printed text (UTF-8, lone surrogates back to raw bytes)."""
    return text.encode("utf-8", "surrogateescape")


def fmt_g(value: float) -> str:
    """C ``%g`` (precision 6): C++ stream formatting of float and double."""
    return f"{value:g}"


def fmt_decimal(value: DecimalLike) -> str:
    """A decimal printed as the original does: ``%f`` of its double value."""
    return f"{decimal_to_double(value):f}"


def fmt_char(value: int) -> str:
    """A ``char`` between single quotes (raw byte, no escaping)."""
    return "'" + _CHARS[value & 0xFF] + "'"


def fmt_wchar(value: int) -> str:
    """A ``wchar`` between single quotes: only its low byte, as the original prints."""
    return "'" + _CHARS[value & 0xFF] + "'"


def fmt_bool(value: bool) -> str:
    return "true" if value else "false"


def fmt_enum(value: int, names: dict[int, str]) -> str:
    """The first declared constant name with this value, else ``<unknown>``."""
    return names.get(int(value), "<unknown>")


def fmt_flags(value: int, constants: Iterable[tuple[str, int]]) -> str:
    """Declared constants c with ``value & c == c != 0``, in declaration order, joined by ``|``."""
    v = int(value)
    return "|".join(name for name, c in constants if c and (v & c) == c)


# ---------------------------------------------------------------- a struct's text form

_BRACKETS = {"array": ("[", "]"), "vector": ("[", "]"), "list": ("<", ">"), "set": ("{", "}"),
             "map": ("<{", "}>"), "hash": ("[{", "}]")}
"""Each collection's brackets around its items (the IR's TEXT_BRACKETS)."""

_PRIMITIVES: dict[str, Callable[[Any], str]] = {
    "bool": fmt_bool, "float": "{:g}".format, "decimal": fmt_decimal, "string": '"{}"'.format,
    "uuid": '"{}"'.format, "bytes": lambda x: "bytes[" + str(len(x)) + "]",
}
"""How a value of each leaf kind of a type spec that is not an integer is printed (``{:g}``:
fmt_g; the built-in ``format`` methods print without a Python call)."""


def struct_text(value: Any, cls: Any) -> str:
    """``value`` printed as its declared struct class ``cls`` (generated): ``Name(field=value,...)``
    with the schema's names, a derived struct's base first as ``Base(...)`` (docs/format.md 9),
    by the printers of the class's fields (:func:`_printers`)."""
    printers = _PRINTERS.get(cls)
    if printers is None:
        printers = _PRINTERS[cls] = _printers(cls)
    head, base, fields = printers
    parts = [] if base is None else [struct_text(value, base)]
    for label, attr, printer in fields:
        parts.append(label + printer(getattr(value, attr)))
    return head + ",".join(parts) + ")"


_PRINTERS: dict[Any, tuple[str, Any, list[tuple[str, str, Callable[[Any], str]]]]] = {}
"""Each generated struct class's printers, made when it is first printed."""


def _printers(cls: Any) -> tuple[str, Any, list[tuple[str, str, Callable[[Any], str]]]]:
    """What prints a struct class: ``Name(``, its generated base class (None: fbe.Struct), and each
    field of its own, ``name=``, its attribute and its printer, from the class's ``fbe_spec`` (the
    type spec of every field, inherited first, which fbe.explain reads too)."""
    base = cls.__bases__[0]
    fields = [(name + "=", attr, _printer(spec)) for name, attr, spec in cls.fbe_spec[len(base.fbe_spec):]]
    return cls.fbe_codec.name + "(", base if "fbe_codec" in vars(base) else None, fields


def _printer(spec: tuple[Any, ...]) -> Callable[[Any], str]:
    """The function printing a value of a type spec (fbe.struct.explain's specs: a leaf, or a node
    of them)."""
    kind = spec[0]
    if kind == "int":  # an integer: ("int", name, low, high), an enum's or flags' with its text function
        return spec[4] if len(spec) > 4 else {"char": fmt_char, "wchar": fmt_wchar}.get(spec[1], int.__repr__)
    if kind in _PRIMITIVES:
        return _PRIMITIVES[kind]
    if kind == "struct":
        cls = spec[1]
        return lambda x: struct_text(x, cls)
    if kind == "hidden":
        return lambda x: "***"
    item = _printer(spec[1])
    if kind == "optional":
        return lambda x: "null" if x is None else item(x)
    opening, closing = _BRACKETS[kind]
    if kind in ("map", "hash"):
        value, key = _printer(spec[2]), _order(spec[1])

        def items(x: Any) -> list[str]:
            pairs = x.items() if kind == "hash" else sorted(x.items(), key=lambda kv: key(kv[0]))
            return [item(k) + "->" + value(v) for k, v in pairs]
    else:
        order = _order(spec[1])

        def items(x: Any) -> list[str]:
            return [item(e) for e in (sorted(x, key=order) if kind == "set" else x)]

    return lambda x: "[" + str(len(x)) + "]" + opening + ",".join(items(x)) + closing


def _order(spec: tuple[Any, ...]) -> Callable[[Any], Any]:
    """The sort key of set elements and map keys of a type spec, in the original's order (std::set,
    std::map): a ``char`` as C++'s signed char, flags of a signed type by their signed value (the
    spec's sixth item), anything else its own value."""
    if spec[0] == "int" and spec[1] == "char":
        return char_order
    if spec[0] == "int" and len(spec) > 5:
        return spec[5]  # type: ignore[no-any-return]
    return _same


def _same(x: Any) -> Any:
    return x
