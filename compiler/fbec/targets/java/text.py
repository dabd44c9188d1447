"""The text form of fbec --java (docs/format.md 9): per struct `toString()` and the static
`fbeText(StringBuilder, T)` it is made of, on the runtime's Text helpers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm.context import Names
from fbec.targets.jvm.models import elements, entries

if TYPE_CHECKING:
    from fbec.targets.java import Context

# Integer primitives printed through a conversion: unsigned types by their unsigned value.
UNSIGNED = {"byte": "{} & 0xFF", "uint8": "{} & 0xFF", "uint16": "{} & 0xFFFF",
            "uint32": "Integer.toUnsignedString({})", "uint64": "Long.toUnsignedString({})",
            "timestamp": "Long.toUnsignedString({})"}
HELPERS = {"char": "ch", "wchar": "wch", "float": "g", "double": "g", "decimal": "decimal", "string": "string",
           "uuid": "uuid", "bytes": "bytes"}


def text_value(w: CodeWriter, c: Context, t: ir.Type, x: str, names: Names) -> None:
    """Print x (type t)."""
    if isinstance(t, ir.Primitive):
        if t.name in HELPERS:
            w.line(f"{c.rt('Text')}.{HELPERS[t.name]}(t, {x});")
        elif t.name in UNSIGNED:
            w.line(f"t.append({UNSIGNED[t.name].format(x)});")
        else:
            w.line(f"t.append({x});")
    elif isinstance(t, ir.EnumRef):
        w.line(f"t.append({x});")
    elif isinstance(t, ir.StructRef):
        w.line(f"{c.named(t.name)}.fbeText(t, {x});")
    elif isinstance(t, ir.Optional_):
        with w.block(f"if ({x} == null) {{", "} else {"):
            w.line('t.append("null");')
        with w.block("", "}"):
            text_value(w, c, t.element, x, names)
    elif isinstance(t, (ir.Array, ir.Sequence)):
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        i, y = names("i"), names("x")
        size = f"{x}.length" if isinstance(t, ir.Array) else f"{x}.size()"
        items = elements(c, t, x) if isinstance(t, ir.Sequence) else x
        w.line(f'{c.rt("Text")}.count(t, {size}, "{opening}");')
        w.line(f"int {i} = 0;")
        with w.block(f"for ({c.type(t.element, True)} {y} : {items}) {{", "}"):
            with w.block(f"if ({i}++ > 0) {{", "}"):
                w.line("t.append(',');")
            text_value(w, c, t.element, y, names)
        w.line(f't.append("{closing}");')
    else:
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        i, y = names("i"), names("x")
        w.line(f'{c.rt("Text")}.count(t, {x}.size(), "{opening}");')
        w.line(f"int {i} = 0;")
        with w.block(c.each(w, y, t, entries(c, t, x)), "}"):
            with w.block(f"if ({i}++ > 0) {{", "}"):
                w.line("t.append(',');")
            text_value(w, c, t.key, f"{y}.getKey()", names)
            w.line('t.append("->");')
            text_value(w, c, t.value, f"{y}.getValue()", names)
        w.line(f't.append("{closing}");')


def write_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    names = Names()
    w.line("/** @return this value in the original's text form (docs/format.md 9) */")
    w.line("@Override")
    with w.block("public String toString() {", "}"):
        w.line("StringBuilder t = new StringBuilder();")
        w.line("fbeText(t, this);")
        w.line("return t.toString();")
    w.blank()
    w.line("/**")
    w.line(" * Appends v in the original's text form: {@code Name(field=value,...)}, a base struct first.")
    w.line(" *")
    w.line(" * @param t the text so far")
    w.line(" * @param v the value")
    w.line(" */")
    with w.block(f"public static void fbeText(StringBuilder t, {name} v) {{", "}"):
        w.line(f't.append("{s.name}(");')
        fields = s.all_fields
        first = True
        if s.base is not None:
            w.line(f"{c.named(s.base)}.fbeText(t, v);")
            fields = s.fields
            first = False
        for f in fields:
            w.line(f't.append("{"" if first else ","}{f.name}=");')
            first = False
            if f.hidden:
                w.line('t.append("***");')
            else:
                text_value(w, c, f.type, f"v.{c.ident.field(f)}", names)
        w.line("t.append(')');")
    w.blank()
