"""JSON reading code (docs/format.md section 8): fbe_jr_<Name> reads a struct from parsed JSON (the runtime
writes it: fbe.jsonfmt.json_writer compiles a writer from the class's fbe_spec)."""

from __future__ import annotations

from fbec.model import ir

from .context import Context, signed_flags

# How a primitive's value x (a map key k) is read (f: the field's name, b: the budget); a primitive not
# listed is an integer
READ = {"bool": "fbe.jsonfmt.get_bool({x}, {f})", "float": "fbe.jsonfmt.get_float32({x}, {f})",
        "double": "fbe.jsonfmt.get_float({x}, {f})", "decimal": "fbe.jsonfmt.get_decimal({x}, {f})",
        "string": "fbe.jsonfmt.charged_str(fbe.jsonfmt.get_str({x}, {f}), b, {f})",
        "bytes": "fbe.jsonfmt.charged_bytes(fbe.jsonfmt.get_bytes({x}, {f}), b, {f})",
        "uuid": "fbe.jsonfmt.get_uuid({x}, {f})", "char": "fbe.jsonfmt.get_char({x}, {f})"}
READ_KEY = {**READ, "string": "fbe.jsonfmt.charged_str({x}, b, {f})", "char": "fbe.jsonfmt.key_char({x}, {f})",
            "bool": "fbe.jsonfmt.key_bool({x}, {f})", "float": "fbe.jsonfmt.key_float32({x}, {f})",
            "double": "fbe.jsonfmt.key_float({x}, {f})"}


def scalar_read(ctx: Context, t: ir.Primitive | ir.EnumRef, x: str, f: str, key: bool) -> str:
    """A primitive or enum read from a JSON value, or (key) from a member name."""
    table, integer = (READ_KEY, "fbe.jsonfmt.key_int") if key else (READ, "fbe.jsonfmt.get_int")
    if isinstance(t, ir.Primitive):
        lo, hi = t.info.range or (0, 0)
        return table.get(t.name, f"{integer}({{x}}, {lo}, {hi}, {{f}})").format(x=x, f=f)
    lo, hi = ir.INTEGER_RANGES[t.wire]
    mask = f" & {t.mask}" if signed_flags(t) else ""  # held unsigned: the signed number's bits
    return f"{ctx.ref(t.name)}({integer}({x}, {lo}, {hi}, {f}){mask})"


def read_expr(ctx: Context, t: ir.Type, x: str, f: str, depth: int = 0) -> str:
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        return scalar_read(ctx, t, x, f, False)
    if isinstance(t, ir.StructRef):
        return f"{ctx.ref(t.name, 'fbe_jr_')}({x}, {f}, b)"
    if isinstance(t, ir.Optional_):
        return f"(None if {x} is None else {read_expr(ctx, t.element, x, f, depth)})"
    e = f"e{depth}"
    if isinstance(t, (ir.Array, ir.Sequence)):
        inner = read_expr(ctx, t.element, e, f, depth + 1)
        if isinstance(t, ir.Array):  # a fixed array's elements are part of its struct's cost
            src = f"fbe.jsonfmt.get_array({x}, {t.length}, {f})"
        else:
            src = f"fbe.jsonfmt.charged(fbe.jsonfmt.get_list({x}, {f}), b, {t.item_cost}, {f})"
        if isinstance(t, ir.Sequence) and t.kind == "set":
            return f"fbe.jsonfmt.distinct_set({{{inner} for {e} in {src}}}, {x}, {f})"
        return f"[{inner} for {e} in {src}]"
    assert isinstance(t, ir.Mapping)
    k, v = f"k{depth}", f"v{depth}"
    vx = read_expr(ctx, t.value, v, f, depth + 1)
    if isinstance(t.key, ir.StructRef):   # [key, value] pairs
        kx, items, each = read_expr(ctx, t.key, k, f, depth + 1), f"fbe.jsonfmt.get_pairs({x}, {f})", ""
    else:
        assert isinstance(t.key, (ir.Primitive, ir.EnumRef))
        kx, items, each = scalar_read(ctx, t.key, k, f, True), f"fbe.jsonfmt.get_object({x}, {f})", ".items()"
    items = f"fbe.jsonfmt.charged({items}, b, {t.item_cost}, {f}){each}"
    return f"fbe.jsonfmt.distinct({{{kx}: {vx} for {k}, {v} in {items}}}, {x}, {f})"


def json_functions(ctx: Context, s: ir.Struct) -> list[str]:
    cls = ctx.ident.type(s.qualified)
    fields = s.all_fields
    w = ctx.writer()
    with w.block(f"def fbe_jr_{s.name}(o: {ctx.std('typing', 'Any')}, f: str, b: fbe.Budget) -> {cls}:"):
        w.line(f'"""A {s.name} from parsed JSON; missing members keep their defaults."""')
        w.line(("m = " if fields else "") + "fbe.jsonfmt.get_object(o, f)")
        # the struct, and the default struct values of omitted members, are charged (docs/limits.md)
        omitted = [f'(0 if "{f.name}" in m else {f.default_cost})'
                   for f in ctx.plan.struct(s.qualified).fields if f.default_cost]
        w.line(f"fbe.jsonfmt.enter(b, {' + '.join([str(s.decode_cost), *omitted])}, \"{s.qualified}\")")
        if fields:
            with w.block("try:"), w.block(f"v = {cls}(", ")"):
                for f in fields:
                    fx = read_expr(ctx, f.type, f'm["{f.name}"]', f'"{f.name}"')
                    w.line(f'{fx} if "{f.name}" in m else {ctx.default_arg(f)},')
            with w.block("except fbe.DecodeError as e:"):
                w.line(f'raise fbe.jsonfmt.unwind(e, "{s.qualified}", o) from None')
        w.line("b.depth -= 1")
        w.line("return v" if fields else f"return {cls}()")
    return w.text().splitlines() + ["", ""]
