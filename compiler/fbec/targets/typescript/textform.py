"""The text form of fbec --typescript (the original's operator<<, docs/format.md 9): per enum a
text function, per struct toString() on the runtime's walk over its fbeFields() (fbe.textOf), the
fields' type specs (type_spec), which the JSON of arrays and collections walks too."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, nested_spec
from fbec.targets.typescript.context import Context, ts_string


def text_function(c: Context, qualified: str) -> str:
    """The text function of an enum or flags type (`textOfOrderSide`), qualified when imported."""
    return c.qualify(qualified, c.ident.text_of(qualified))


def type_spec(c: Context, t: ir.Type) -> str:
    """The fbe.TypeSpec of t: what fbe.refused checks a field's value against, the text form prints and
    the JSON walk reads and writes (a collection's with the cost of each item)."""
    def leaf(t: ir.Type) -> str:
        if isinstance(t, ir.Primitive):
            return ts_string(t.name)
        if isinstance(t, ir.EnumRef):
            return f'["enum", {ts_string(t.name)}, "{t.wire}", {text_function(c, t.name)}]'
        assert isinstance(t, ir.StructRef)
        return f'["struct", {ts_string(t.name)}, {c.named(t.name)}]'
    return nested_spec(t, leaf, lambda kind, parts: f'["{kind}", {", ".join(parts)}]', costs=True)


def write_enum_text(w: CodeWriter, c: Context, e: ir.Enum, d: CodeWriter | None) -> None:
    """textOf<Name>: an enum's first declared name with the value, else <unknown>; the names of
    the flags whose bits are all set, joined by |."""
    name = c.ident.type(e.qualified)
    bigint = e.wire in ("int64", "uint64")
    suffix = "n" if bigint else ""
    flags = e.kind == "flags"
    comment = (f"/** The text form of {name} flags: the names of the declared flags whose bits are all set, "
               "joined by | (docs/format.md 9). */" if flags else
               f"/** The text form of {name} values: a value's first declared name, else <unknown> "
               "(docs/format.md 9). */")
    w.line(comment)
    with w.block(c.method("export function ", c.ident.text_of(e.qualified), [("v", name)], "string"), "}"):
        pairs = [f'[{v.value}{suffix}, "{v.name}"]' for v in (e.values if flags else e.text_values)]
        call = f"return {c.rt('flagsText' if flags else 'enumText')}(v, ["
        if len(w.unit + call + ", ".join(pairs)) < 118:
            w.line(f"{call}{', '.join(pairs)}]);")
        else:       # one value a line
            with w.block(call, "]);"):
                w.lines("\n".join(p + "," for p in pairs))
    w.blank()
    if d is not None:
        d.line(comment)
        d.line(c.declarations.pop().replace("export function ", "export declare function "))
        d.blank()


def write_struct_text(w: CodeWriter, c: Context, name: str) -> None:
    """toString(): the runtime's walk over the class's fbeFields() (fbe.textOf)."""
    with c.member(w, ("/** This value in the original's text form (docs/format.md 9); `fbe.encodeUtf8` of it is "
                      "the original's bytes. */"),
                     c.over, "toString", [], "string"):
        w.line(f"return {c.rt('textOf')}(this, {name});")
