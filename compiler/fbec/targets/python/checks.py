"""The type specs of a struct's fields (``<Name>.fbe_spec``), which the runtime reads: the text
form, a writer's error message, and the writers' depth check (docs/limits.md 1). Only structs that
can hold themselves (directly or through other structs, collections and optionals) can nest deeper
than the readers accept (fbe.MAX_DEPTH); for every struct that can reach such a struct (the plan's
``bounded`` is false: ``fbe.bind(..., depth=True)``), the writers (to_fbe, to_final, to_json, the
models and the Senders) first walk the value (``fbe.struct.depth_walk``, over its spec) and refuse
it when it is too deep (the JSON readers count depth as they read, as the binary readers). Other
structs nest only as deep as the schema says, which the compiler bounds: no walk, no cost.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import nested_spec

from .context import Context, order_key


def _spec(ctx: Context, t: ir.Type) -> str:
    """The type spec of fbe.struct.explain for a value of type t (a tuple expression); a vector's, list's,
    set's, map's or hash's ends with what a reader charges for each item (the JSON reader's)."""

    def node(kind: str, parts: list[str]) -> str:
        if isinstance(t, (ir.Sequence, ir.Mapping)) and kind == t.kind:  # (a collection is a field's type)
            parts = [*parts, str(t.item_cost)]
        return f'("{kind}", {", ".join(parts)})'

    return nested_spec(t, lambda t: _leaf_spec(ctx, t), node)


def _leaf_spec(ctx: Context, t: ir.Type) -> str:
    if isinstance(t, ir.Primitive):   # an integer with its range (the IR's primitive table)
        n, r = t.name, t.info.range
        if n in ("float", "double"):
            return f'("float", "{n}")'
        return f'("{n}",)' if n == "bool" or r is None else f'("int", "{n}", {r[0]}, {r[1]})'
    if isinstance(t, ir.EnumRef):  # and its class (its text form), and the sort key of signed flags (order_key)
        lo, hi = ir.INTEGER_RANGES[t.wire]
        if t.kind == "flags":
            lo, hi = 0, t.mask     # flags are written as unsigned bit sets
        order = f", {order_key(t)}" if order_key(t) else ""
        return f'("int", "{t.name.rpartition(".")[2]} ({t.wire})", {lo}, {hi}, {ctx.ref(t.name)}{order})'
    assert isinstance(t, ir.StructRef)   # and what its default value costs a reader (docs/limits.md 3)
    return f'("struct", {ctx.ref(t.name)}, {t.default_cost})'


def spec_lines(ctx: Context, s: ir.Struct) -> list[str]:
    """``<Name>.fbe_spec``: each field's type, read by fbe.text.struct_text (the text form: a hidden
    field's spec is inside ``("hidden", ...)``) and by fbe.struct.explain after a write failed."""

    cls = ctx.ident.type(s.qualified)
    if not s.all_fields:
        return []
    code = ctx.writer()
    with code.block(f"{cls}.fbe_spec = (", ")"):
        for f in s.all_fields:
            spec = f'("hidden", {_spec(ctx, f.type)})' if f.hidden else _spec(ctx, f.type)
            code.line(f'("{f.name}", "{ctx.ident.field(f)}", {spec}),')
    return code.text().splitlines() + [""]
