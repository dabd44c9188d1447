"""Text (printing) format helpers, docs/format.md section 9.

Printed text is a ``str`` whose UTF-8 encoding with the ``surrogateescape``
error handler gives the original's raw bytes: a ``char`` byte >= 0x80 (which
the original prints raw) is represented by the lone surrogate U+DC80..U+DCFF.
Use :func:`text_bytes` to get the bytes the original would print.
"""

from __future__ import annotations

from collections.abc import Iterable

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
