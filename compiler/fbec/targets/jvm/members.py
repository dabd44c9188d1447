"""Members of the classes of fbec --java and --kotlin decided once, which each language spells (its
Context: the method heads, the cast, a key's hash):

* KEY_ORDER, the order of sets and maps of a struct: by its [key] fields, as the wire orders them;
* equals and hashCode over a struct's [key] fields: two values are equal when each key field is
  the same key (key_equals: the rule the readers refuse a key read twice by, docs/limits.md 4),
  structs without keys are all equal (as the original's), and the hash agrees with that equality;
* a flags value's text form (docs/format.md 9).
"""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm.context import Context, key_compare, key_equals


def write_key_order(w: CodeWriter, c: Context, s: ir.Struct, name: str, none: str, block: tuple[str, str],
                    annotation: str = "") -> None:
    """KEY_ORDER of the struct s (its class: name), then a blank line: the declaration `none` when s
    has no [key] fields, else the lambda between `block`'s lines, in which the first key field that
    compares unequal decides (key_compare); annotation, if any, the line before the declaration."""
    w.line(f"/** The order of sets and maps of {name}: by the [key] fields, as the wire orders them. */")
    if annotation:
        w.line(annotation)
    compares = [key_compare(c, f.type, f"a.{c.ident.field(f)}", f"b.{c.ident.field(f)}") for f in s.key_fields]
    if not compares:
        w.line(none)
    else:
        with w.block(*block):
            local = ""
            for k, expr in enumerate(compares[:-1]):    # a local the language names alike each time is assigned again
                again, local = local == c.spell("compared", str(k)), c.spell("compared", str(k))
                w.line(c.stmt(f"{local} = {expr}") if again else c.val(local, expr, c.TYPES["int32"][0]))
                c.if_(w, f"{local} != 0", c.spell("lambda_return", local, "Comparator"))
            w.line(c.stmt(c.spell("lambda_result", compares[-1])))
    w.blank()


def write_equality(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """equals(other) and hashCode() of the struct s (its class: name), then a blank line."""
    keys = s.key_fields
    boolean, integer = c.TYPES["bool"][0], c.TYPES["int32"][0]
    w.line("/** Equal when the [key] fields are (structs without keys are all equal, as the original's). */")
    other = c.spell("param", "other", c.spell("optional_type", c.spell("object")))
    with w.block(c.override(w, "equals", other, boolean) + " {", "}"):
        c.if_(w, c.spell("same", "this", "other"), "return true")
        c.if_(w, f"other == null || {c.spell('other_class', 'other')}", "return false")
        if not keys:
            w.line(c.stmt("return true"))
        else:
            o = c.cast(w, "other", name)
            terms = [key_equals(c, f.type, f"this.{c.ident.field(f)}", f"{o}.{c.ident.field(f)}") for f in keys]
            w.line(c.stmt("return " + " && ".join(terms)))
    w.blank()
    head = c.override(w, "hashCode", "", integer)
    if not keys:
        c.returns(w, head, f'"{s.qualified}".hashCode()')
    else:
        with w.block(head + " {", "}"):
            w.line(c.var("h", "17", integer))
            for f in keys:
                w.line(c.stmt(f"h = h * 31 + {c.key_hash(f.type, c.spell('property', c.ident.field(f)))}"))
            w.line(c.stmt("return h"))
    w.blank()


def flags_text(w: CodeWriter, c: Context, e: ir.Enum, value: str, literal: Callable[[int], str]) -> None:
    """The statements of a flags class's toString: the names of the flags set in value, joined by |
    (docs/format.md 9); literal(v) is a flag's wire value as value is compared with it."""
    w.line(c.val("out", c.new("StringBuilder"), "StringBuilder"))
    for v in e.named_flags:
        bits = literal(v.value)
        with w.block(f"if ({c.spell('bits', value, bits)} == {bits}) {{", "}"):
            w.line(c.stmt(f'out.append({c.pick(c.spell("empty_text", "out"), chr(34) * 2, chr(34) + "|" + chr(34))})'
                          f'.append("{v.name}")'))
    w.line(c.stmt("return out.toString()"))
