"""Checks of values before they are written (docs/limits.md): struct nesting depth.

Only structs that can hold themselves (directly or through other structs,
collections and optionals) can nest deeper than the readers accept
(fbe.MAX_DEPTH); for every struct that can reach such a struct (the plan's
``bounded`` is false), the writers
(to_fbe, to_final, to_json, the models and the Senders) first walk the value
with ``fbe_dn_<Name>`` (the plan's depth walk) and refuse it when it is too deep (the JSON
readers count depth as they read, as the binary readers). Other structs nest only as deep as the
schema says, which the compiler bounds: no walk, no cost.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import nested_spec

from .context import Context, order_key, parts


def _walk_expr(ctx: Context, t: ir.Type, x: str, n: int) -> str | None:
    """Whether the structs in value x of type t (at depth d + 1) stay within the limit; None
    when t holds no struct."""
    if isinstance(t, ir.StructRef):
        return f"{ctx.ref(t.name, 'fbe_dn_')}({x}, d + 1)"
    if isinstance(t, ir.Optional_):
        inner = _walk_expr(ctx, t.element, x, n)
        return None if inner is None else f"({x} is None or {inner})"
    if isinstance(t, (ir.Array, ir.Sequence, ir.Mapping)):
        names = [f"k{n}", f"v{n}"] if isinstance(t, ir.Mapping) else [f"e{n}"]
        walks = [e for e in (_walk_expr(ctx, part, name, n + 1) for part, name in zip(parts(t), names)) if e]
        items = f"{x}.items()" if isinstance(t, ir.Mapping) else x
        return f"all([{' and '.join(walks)} for {', '.join(names)} in {items}])" if walks else None
    return None


def depth_function(ctx: Context, s: ir.Struct) -> list[str]:
    """fbe_dn_<Name>(v, d) for a struct the depth walk visits (none for the others)."""
    if s.qualified not in ctx.depth_walked:
        return []

    walks = (_walk_expr(ctx, f.type, "v." + ctx.ident.field(f), 0) for f in s.all_fields)
    parts = ["d <= fbe.MAX_DEPTH", *(e for e in walks if e is not None)]
    code = ctx.writer()
    with code.block(f"def fbe_dn_{s.name}(v: {ctx.ident.type(s.qualified)}, d: int) -> bool:"):
        code.line('"""Whether v, a struct at depth d (the root is 1), nests at most fbe.MAX_DEPTH structs."""')
        code.line(f"return ({parts[0]}" + (")" if len(parts) == 1 else ""))
        with code.indented():
            for i, part in enumerate(parts[1:], 2):
                code.line(f"and {part}" + (")" if i == len(parts) else ""))
    return code.text().splitlines() + ["", ""]


# ---------------------------------------------------------------- type specs: the text form, error messages

def _spec(ctx: Context, t: ir.Type) -> str:
    """The type spec of fbe.struct.explain for a value of type t (a tuple expression)."""
    return nested_spec(t, lambda t: _leaf_spec(ctx, t), lambda kind, parts: f'("{kind}", {", ".join(parts)})')


def _leaf_spec(ctx: Context, t: ir.Type) -> str:
    if isinstance(t, ir.Primitive):   # an integer with its range (the IR's primitive table)
        n, r = t.name, t.info.range
        if n in ("float", "double"):
            return f'("float", "{n}")'
        return f'("{n}",)' if n == "bool" or r is None else f'("int", "{n}", {r[0]}, {r[1]})'
    if isinstance(t, ir.EnumRef):  # and its text function, and the sort key of signed flags (order_key)
        lo, hi = ir.INTEGER_RANGES[t.wire]
        if t.kind == "flags":
            lo, hi = 0, t.mask     # flags are written as unsigned bit sets
        order = f", {order_key(t)}" if order_key(t) else ""
        return f'("int", "{t.name.rpartition(".")[2]} ({t.wire})", {lo}, {hi}, {ctx.ref(t.name, "fbe_tx_")}{order})'
    assert isinstance(t, ir.StructRef)
    return f'("struct", {ctx.ref(t.name)})'


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
