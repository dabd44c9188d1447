"""The text form of fbec --kotlin (docs/format.md 9), as the Java target's: per struct `toString()`
and the companion's `fbeText(StringBuilder, T)` it is made of, on the Java runtime's Text helpers.
Kotlin's unsigned types print their unsigned value as they are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm.context import Names
from fbec.targets.jvm.models import elements, entries

if TYPE_CHECKING:
    from fbec.targets.kotlin.syntax import Context

HELPERS = {"char": "ch", "wchar": "wch", "float": "g", "double": "g", "decimal": "decimal", "string": "string",
           "uuid": "uuid", "bytes": "bytes"}


def text_value(w: CodeWriter, c: Context, t: ir.Type, x: str, names: Names) -> None:
    """Print x (type t)."""
    if isinstance(t, ir.Primitive):
        if t.name in HELPERS:
            value = f"{x}.toDouble()" if t.name == "float" else x
            w.line(f"{c.rt('Text')}.{HELPERS[t.name]}(t, {value})")
        elif t.name == "timestamp":                 # a Long holding an unsigned value
            w.line(f"t.append({x}.toULong())")
        else:
            w.line(f"t.append({x})")
    elif isinstance(t, ir.EnumRef):
        w.line(f"t.append({x})")
    elif isinstance(t, ir.StructRef):
        w.line(f"{c.named(t.name)}.fbeText(t, {x})")
    elif isinstance(t, ir.Optional_):
        o = c.local(w, x, names)
        with w.block(f"if ({o} == null) {{", "} else {"):
            w.line('t.append("null")')
        with w.block("", "}"):
            text_value(w, c, t.element, o, names)
    elif isinstance(t, (ir.Array, ir.Sequence)):
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        i, y = names("i"), names("x")
        items = elements(c, t, x) if isinstance(t, ir.Sequence) else x
        w.line(f'{c.rt("Text")}.count(t, {x}.size, "{opening}")')
        w.line(f"var {i} = 0")
        with w.block(f"for ({y} in {items}) {{", "}"):
            w.line(f"if ({i}++ > 0) t.append(',')")
            text_value(w, c, t.element, y, names)
        w.line(f't.append("{closing}")')
    else:
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        i, y = names("i"), names("x")
        w.line(f'{c.rt("Text")}.count(t, {x}.size, "{opening}")')
        w.line(f"var {i} = 0")
        with w.block(f"for ({y} in {entries(c, t, x)}) {{", "}"):
            w.line(f"if ({i}++ > 0) t.append(',')")
            text_value(w, c, t.key, f"{y}.key", names)
            w.line('t.append("->")')
            text_value(w, c, t.value, f"{y}.value", names)
        w.line(f't.append("{closing}")')


def write_to_string(w: CodeWriter, name: str) -> None:
    """The member toString(): the text form."""
    w.line("/** This value in the original's text form (docs/format.md 9): `Name(field=value,...)`. */")
    w.line(f"override fun toString(): String = StringBuilder().also {{ {name}.fbeText(it, this) }}.toString()")
    w.blank()


def write_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The companion's fbeText(t, v)."""
    names = Names()
    w.line("/** Appends [v] in the original's text form to [t]: `Name(field=value,...)`, a base struct first. */")
    with w.block(f"fun fbeText(t: StringBuilder, v: {name}) {{", "}"):
        w.line(f't.append("{s.name}(")')
        fields = s.all_fields
        first = True
        if s.base is not None:
            w.line(f"{c.named(s.base)}.fbeText(t, v)")
            fields = s.fields
            first = False
        for f in fields:
            w.line(f't.append("{"" if first else ","}{f.name}=")')
            first = False
            if f.hidden:
                w.line('t.append("***")')
            else:
                text_value(w, c, f.type, f"v.{c.ident.field(f)}", names)
        w.line("t.append(')')")
    w.blank()
