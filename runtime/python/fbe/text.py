"""Text (printing) format helpers, docs/format.md section 9.

Printed text is a ``str`` whose UTF-8 encoding with the ``surrogateescape``
error handler gives the original's raw bytes: a ``char`` byte >= 0x80 (which
the original prints raw) is represented by the lone surrogate U+DC80..U+DCFF.
Use :func:`text_bytes` to get the bytes the original would print.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any

from .buffer import char_order
from .source import PerClass, Source
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
    "decimal": fmt_decimal, "uuid": '"{}"'.format, "bytes": lambda x: "bytes[" + str(len(x)) + "]",
}
"""How a value of each leaf kind of a type spec that :func:`_expr` does not write out is printed
(the built-in ``format`` method prints without a Python call)."""


def struct_text(value: Any, cls: Any) -> str:
    """``value`` printed as its declared struct class ``cls`` (generated): ``Name(field=value,...)``
    with the schema's names, a derived struct's base first as ``Base(...)`` (docs/format.md 9),
    by the function made for the class when it is first printed (:func:`_struct_printer`)."""
    return _PRINTERS(cls)(value)


def _struct_printer(cls: Any) -> Callable[[Any], str]:
    """The function printing a struct class (fbe.source: compiled from the class's ``fbe_spec``,
    the type spec of every field, inherited first, which fbe.explain reads too): it joins ``Name(``,
    its generated base class's text (none for fbe.Struct) and each field of its own as ``name=``
    and its value's text (:func:`_expr`). One call per struct, as the generated ``fbe_tx_<Name>``
    functions it replaced, not one per field."""
    base = cls.__bases__[0]
    own = cls.fbe_spec[len(base.fbe_spec):]
    source = Source()
    parts = [repr(cls.fbe_codec.name + "(")]
    if "fbe_codec" in vars(base):
        parts.append(f"{_PRINTERS.named(source, base)}(v)")
    for name, attr, spec in own:
        parts += [repr(("," if len(parts) > 1 else "") + name + "="), _expr(spec, "v." + attr, source, 0)]
    parts.append('")"')
    return source.function("v", f"''.join(({', '.join(parts)},))")


_PRINTERS: PerClass[Callable[[Any], str]] = PerClass(_struct_printer)
"""Each generated struct class's printer, made when it is first printed."""


def _expr(spec: tuple[Any, ...], x: str, source: Source, depth: int) -> str:
    """The source of an expression printing ``x`` (a name or an attribute) of a type spec: an
    integer, a string, a float, a bool, an optional or a collection's items written out, any other
    value by its printer (:func:`_printer`); depth numbers an item's local."""
    kind = spec[0]
    if kind == "int" and len(spec) > 4:  # an enum's or flags' (its class: spec[4]), by its names' table
        names = spec[4].fbe_names
        if isinstance(names, dict):
            return f'{source.name(names)}.get(int({x}), "<unknown>")'
        return f"{source.name(fmt_flags)}({x}, {source.name(names)})"
    if kind == "int" and spec[1] not in ("char", "wchar"):
        return f"str(int({x}))"
    if kind == "string":
        return f"'\"' + {x} + '\"'"
    if kind == "float":
        return f'f"{{{x}:g}}"'
    if kind == "bool":
        return f'("true" if {x} else "false")'
    if kind == "optional":
        return f'("null" if {x} is None else {_expr(spec[1], x, source, depth)})'
    if kind == "struct":
        return f"{_PRINTERS.named(source, spec[1])}({x})"
    if kind not in _BRACKETS:
        return f"{source.name(_printer(spec))}({x})"
    opening, closing = _BRACKETS[kind]
    k, e = f"k{depth}", f"e{depth}"
    if kind in ("map", "hash"):
        item = f'{_expr(spec[1], k, source, depth + 1)} + "->" + {_expr(spec[2], e, source, depth + 1)}'
        each = f"{k}, {e} in {ordered(spec, x, source)}"
    else:
        item, each = _expr(spec[1], e, source, depth + 1), f"{e} in {ordered(spec, x, source)}"
    return f'"[" + str(len({x})) + {"]" + opening!r} + ",".join([{item} for {each}]) + {closing!r}'


def ordered(spec: tuple[Any, ...], x: str, source: Source) -> str:
    """The source of the items of ``x``, a collection of a type spec, in the original's order (the
    text form's and JSON's): a set's elements and a map's items sorted as std::set and std::map
    hold them (:func:`sort_key`), a hash's items as the dict holds them, others as they are."""
    kind, key = spec[0], sort_key(spec[1])
    if kind == "hash":
        return f"{x}.items()"
    if kind == "map":
        return f"sorted({x}.items(), key={source.name(itemgetter(0) if key is None else _first(key))})"
    if kind == "set":
        return f"sorted({x})" if key is None else f"sorted({x}, key={source.name(key)})"
    return x


def _first(key: Callable[[Any], Any]) -> Callable[[tuple[Any, Any]], Any]:
    """The sort key of a map's items: its key's."""
    return lambda item: key(item[0])


def _printer(spec: tuple[Any, ...]) -> Callable[[Any], str]:
    """The function printing a value of a leaf of a type spec (fbe.struct.explain's specs) that
    :func:`_expr` does not write out: a ``char`` or ``wchar``, a hidden field, another primitive."""
    kind = spec[0]
    if kind == "int":
        return {"char": fmt_char, "wchar": fmt_wchar}[spec[1]]
    if kind == "hidden":
        return lambda x: "***"
    return _PRIMITIVES[kind]


def sort_key(spec: tuple[Any, ...]) -> Callable[[Any], Any] | None:
    """The sort key of set elements, map keys and [key] fields of a type spec, in the original's order
    (std::set, std::map): a ``char`` as C++'s signed char, flags of a signed type by their signed
    value (the spec's sixth item); None: the value's own order."""
    if spec[0] == "int" and spec[1] == "char":
        return char_order
    if spec[0] == "int" and len(spec) > 5:
        return spec[5]  # type: ignore[no-any-return]
    return None
