"""The text form of fbec --java and --kotlin (docs/format.md 9): per struct the static
`fbeText(t, v)` (Kotlin: in the companion) on the runtime's Text helpers, which each language's
`toString()` calls."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, RawText, text_struct
from fbec.targets.jvm.context import Context, Names
from fbec.targets.jvm.models import declare_codec, elements, entries

# Primitives printed by a Text helper.
HELPERS = {"char": "ch", "wchar": "wch", "float": "g", "double": "g", "decimal": "decimal", "string": "string",
           "uuid": "uuid", "bytes": "bytes"}


def text_value(w: CodeWriter, c: Context, t: ir.Type, x: str, names: Names) -> None:
    """Print x (type t)."""
    if isinstance(t, ir.Primitive):
        value = c.TEXT_CONVERSIONS.get(t.name, "{}").format(x)
        w.line(c.stmt(f"{c.rt('Text')}.{HELPERS[t.name]}(t, {value})" if t.name in HELPERS else f"t.append({value})"))
    elif isinstance(t, ir.EnumRef):
        w.line(c.stmt(f"t.append({x})"))
    elif isinstance(t, ir.StructRef):
        w.line(c.stmt(f"{c.named(t.name)}.fbeText(t, {x})"))
    elif isinstance(t, ir.Optional_):
        o = c.local(w, x, names)
        with w.if_else(f"if ({o} == null) {{", c.stmt('t.append("null")')):
            text_value(w, c, t.element, o, names)
    else:
        assert isinstance(t, (ir.Array, ir.Sequence, ir.Mapping))
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        i, y = names("i"), names("x")
        size = c.length(x) if isinstance(t, ir.Array) else c.size(x)
        w.line(c.stmt(f'{c.rt("Text")}.count(t, {size}, "{opening}")'))
        w.line(c.var(i, "0", "int"))
        items = entries(c, t, x) if isinstance(t, ir.Mapping) else elements(c, t, x)
        with w.block(c.each(w, y, t, items, False), "}"):
            c.if_(w, f"{i}++ > 0", "t.append(',')")
            if isinstance(t, ir.Mapping):
                text_value(w, c, t.key, c.key(y), names)
                w.line(c.stmt('t.append("->")'))
                text_value(w, c, t.value, c.value(y), names)
            else:
                text_value(w, c, t.element, y, names)
        w.line(c.stmt(f't.append("{closing}")'))


class Appends(RawText):
    """The text form's literal text, a `t.append` each (a char literal for one character)."""

    def __init__(self, w: CodeWriter, c: Context) -> None:
        super().__init__(w)
        self.c = c

    def write(self, text: str) -> str:
        return self.c.stmt(f"t.append('{text}')" if len(text) == 1 else f't.append("{text}")')

    def __call__(self, text: str) -> None:
        self.w.line(self.write(text))


def text_fields(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """fbeText(t, v): v in the original's text form, `Name(field=value,...)`, a base struct first."""
    names = Names()
    text_struct(Appends(w, c), s, lambda base: c.stmt(f"{c.named(base)}.fbeText(t, v)"),
                lambda f: text_value(w, c, f.type, f"v.{c.ident.field(f)}", names))


def write_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeText(t, v): v (a name) appended to t in the text form, documented alike in both languages."""
    with declare_codec(w, c, "fbeText", name):
        text_fields(w, c, s)
