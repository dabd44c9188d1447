"""The text form of fbec --kotlin (docs/format.md 9), as the Java target's: per struct `toString()`
and the companion's `fbeText(StringBuilder, T)` it is made of, on the Java runtime's Text helpers.
Kotlin's unsigned types print their unsigned value as they are."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm import text
from fbec.targets.kotlin.syntax import Context


def write_to_string(w: CodeWriter, name: str) -> None:
    """The member toString(): the text form."""
    w.line("/** This value in the original's text form (docs/format.md 9): `Name(field=value,...)`. */")
    w.line(f"override fun toString(): String = StringBuilder().also {{ {name}.fbeText(it, this) }}.toString()")
    w.blank()


def write_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The companion's fbeText(t, v)."""
    w.line("/** Appends [v] in the original's text form to [t]: `Name(field=value,...)`, a base struct first. */")
    with w.block(f"fun fbeText(t: StringBuilder, v: {name}) {{", "}"):
        text.text_fields(w, c, s)
    w.blank()
