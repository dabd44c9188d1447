"""The text form of fbec --typescript (the original's operator<<, docs/format.md 9): per enum a
text function, per struct fbeWriteText and toString(), straight-line on the runtime's fbe.TextWriter."""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter, Locals, text_struct
from fbec.targets.typescript.context import Context, by_value, compare
from fbec.targets.typescript.jsonconv import Raw, items

TEXT = {"bool": "bool", "decimal": "decimal", "uuid": "uuid", "string": "string", "bytes": "bytes", "char": "char",
        "wchar": "wchar", "float": "float", "double": "float"}


def text_function(c: Context, qualified: str) -> str:
    """The text function of an enum or flags type (`textOfOrderSide`), qualified when imported."""
    return c.qualify(qualified, c.ident.text_of(qualified))


def text_items(raw: Raw, names: Locals, count: str, kind: str, loop: str, item: Callable[[str], None]) -> None:
    """A collection's items between its brackets (ir.TEXT_BRACKETS of its kind)."""
    opening, closing = ir.TEXT_BRACKETS[kind]
    raw.line(f't.count({count}, "{opening}");')
    items(raw, names, loop, item, closing)


def text_write(c: Context, raw: Raw, t: ir.Type, x: str, names: Locals) -> None:
    """Print x (type t) in the original's text form."""
    w = raw.w
    if isinstance(t, ir.Primitive):
        raw.line(f"t.{TEXT.get(t.name, 'int')}({x});")
    elif isinstance(t, ir.EnumRef):
        raw.line(f"t.raw({text_function(c, t.name)}({x}));")
    elif isinstance(t, ir.StructRef):
        raw.line(f"{c.named(t.name)}.fbeWriteText(t, {x});")
    elif isinstance(t, ir.Optional_):
        o = names("o")
        raw.line(f"const {o} = {x};")
        with w.if_else(f"if ({o} === undefined) {{", 't.raw("null");'):
            text_write(c, raw, t.element, o, names)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        a, y = names("a"), names("y")
        if isinstance(t, ir.Sequence) and t.kind == "set":
            raw.line(f"const {a} = {c.rt('sortedValues')}({x}, {compare(c, t.element)});")
        else:
            raw.line(f"const {a} = {x};")
        text_items(raw, names, f"{a}.length", t.kind, f"for (const {y} of {a}) {{",
                   lambda _: text_write(c, raw, t.element, y, names))
    else:
        assert isinstance(t, ir.Mapping)
        m, k, y = names("m"), names("k"), names("y")
        if t.kind == "map":
            raw.line(f"const {m} = {c.rt('sortedEntries')}({x}, {compare(c, t.key)});")
            count = f"{m}.length"
        else:
            raw.line(f"const {m} = {x};")
            count = f"{m}.size" if by_value(t.key) else f"{m}.length"

        def entry(_: str) -> None:
            text_write(c, raw, t.key, k, names)
            raw("->")
            text_write(c, raw, t.value, y, names)
        text_items(raw, names, count, t.kind, f"for (const [{k}, {y}] of {m}) {{", entry)


def write_enum_text(w: CodeWriter, c: Context, e: ir.Enum, d: CodeWriter | None) -> None:
    """textOf<Name>: an enum's first declared name with the value, else <unknown>; the names of
    the flags whose bits are all set, joined by |."""
    name = c.ident.type(e.qualified)
    bigint = e.wire in ("int64", "uint64")
    suffix = "n" if bigint else ""
    flags = e.kind == "flags"
    comment = (f"/** The text form of {name} flags: the names of the declared flags whose bits are all set, "
               "joined by | (docs/format.md 9). */" if flags else
               f"/** The text form of a {name} value: its first declared name, else <unknown> (docs/format.md 9). */")
    w.line(comment)
    with w.block(c.method("export function ", c.ident.text_of(e.qualified), [("v", name)], "string"), "}"):
        if flags:
            table = ", ".join(f'[{v.value}{suffix}, "{v.name}"]' for v in e.values)
            w.line(f"return {c.rt('flagsText')}(v, [{table}]);")
        else:
            if e.values:
                with w.block("switch (v) {", "}"):
                    for v in e.text_values:
                        w.line(f"case {v.value}{suffix}:")
                        with w.indented():
                            w.line(f'return "{v.name}";')
            w.line('return "<unknown>";')
    w.blank()
    if d is not None:
        d.line(comment)
        d.line(c.declarations.pop().replace("export function ", "export declare function "))
        d.blank()


def write_struct_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteText and toString()."""
    names = Locals()
    with c.member(w, "/** Writes v in the original's text form (docs/format.md 9). */",
                     f"static {c.over}", "fbeWriteText", [("t", c.rt("TextWriter", False)), ("v", name)], "void"):
        raw = Raw(w, "t")
        text_struct(raw, s, lambda base: f"{c.named(base)}.fbeWriteText(t, v);",
                    lambda f: text_write(c, raw, f.type, f"v.{c.ident.field(f)}", names))
    with c.member(w, ("/** This value in the original's text form (docs/format.md 9); `fbe.encodeUtf8` of it is "
                      "the original's bytes. */"),
                     c.over, "toString", [], "string"):
        w.line(f"const t = new {c.rt('TextWriter')}();")
        w.line(f"{name}.fbeWriteText(t, this);")
        w.line("return t.text;")
