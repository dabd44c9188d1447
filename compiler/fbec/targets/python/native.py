"""The table of the native core (docs/python.md, "Native core"), for both binary models.

Every generated module ends with ``FBE_CORE = fbe.native.core((...))``: one entry per struct the
module's classes can reach (its own structs first, in declaration order, so a class's index is its
position in the package; then the imported structs they hold), each ``(class, type id, body size,
decode cost, base size, fields)``, each field ``(attribute, versioned offset, kind, missing cost)``
(the base size and the missing costs are what an older writer's shorter body is read with: the
plan's ``present`` bound and ``missing_cost``). The kinds are read by ``runtime/python-native``
(``Kind::parse``): a struct format character for fixed-size values, ``"s"`` string, ``"y"`` bytes,
``"u"`` uuid, ``"m"`` decimal, ``("e", format, FBE_M_<Enum>)``, ``("S", index)``, ``("o", kind)``,
``("v", kind, item cost, item final minimum size)``, ``("a", kind, length)``,
``("t", kind, item cost, item final minimum size, sort key)`` a set (the key of ``sorted``, None:
the elements' own order), ``("M", key, value, item cost, item final minimum size, sort key)`` a map
(the key of ``sorted`` over its items) and ``("H", key, value, item cost, item final minimum
size)`` a hash (written in the dict's order); ``"x"`` is a kind the core does not cover (a
collection within a collection), and a struct holding one stays pure Python.
``fbe.native.core`` gives None without the core, and the classes then run the generated code.
"""

from __future__ import annotations

from fbec.model import ir

from .context import PRIM_FMT, Context, items_key, order_key, parts, slot_fmt

PRIM_KIND = {"string": '"s"', "bytes": '"y"', "uuid": '"u"', "decimal": '"m"'}
COUNTED_KIND = {"vector": "v", "list": "v", "set": "t", "map": "M", "hash": "H"}
NESTED = (ir.Sequence, ir.Mapping, ir.Array)


def _element(ctx: Context, t: ir.Type, index: dict[str, int]) -> str:
    """The kind of a collection's element or an optional's value: no collection within."""
    if isinstance(t, NESTED) or isinstance(t, ir.Optional_) and isinstance(t.element, (*NESTED, ir.Optional_)):
        return '"x"'
    return _kind(ctx, t, index)


def _kind(ctx: Context, t: ir.Type, index: dict[str, int]) -> str:
    if isinstance(t, ir.Primitive):
        return PRIM_KIND.get(t.name) or f'"{PRIM_FMT[t.name]}"'
    if isinstance(t, ir.EnumRef):
        return f'("e", "{slot_fmt(t)}", {ctx.ref(t.name, "FBE_M_")})'
    if isinstance(t, ir.StructRef):
        return f'("S", {index[t.name]})'
    if isinstance(t, ir.Optional_):
        return f'("o", {_element(ctx, t.element, index)})'
    if isinstance(t, ir.Array):
        return f'("a", {_element(ctx, t.element, index)}, {t.length})'
    items = "".join(f"{_element(ctx, part, index)}, " for part in parts(t))
    counted = f'"{COUNTED_KIND[t.kind]}", {items}{t.item_cost}, {t.item_min_size}'
    if t.kind in ("set", "map"):   # and the key they are sorted by
        return f"({counted}, {order_key(t.element) if isinstance(t, ir.Sequence) else items_key(t)})"
    return f"({counted})"


def core_table(ctx: Context) -> list[str]:
    """``FBE_CORE``: the module's table for the native core (None when the core is not there)."""
    structs = ctx.plan.reached(ctx.package)
    index = {s.qualified: i for i, s in enumerate(structs)}
    code = ctx.writer()
    code.line("# the native core's table (docs/python.md, Native core); None: the classes run the code above")
    with code.block("FBE_CORE: fbe.native.Core | None = fbe.native.core((", "))"):
        for s in structs:
            fields = "".join(f'("{ctx.ident.field(f.field)}", {f.offset}, {_kind(ctx, f.type, index)}, '
                             f"{f.missing_cost}), " for f in ctx.plan.struct(s.qualified).fields)
            code.line(f"({ctx.ref(s.qualified)}, {s.type_id}, {s.body_size}, {s.decode_cost}, {s.base_size}, "
                      f"({fields.rstrip()})),")
    return code.text().splitlines()
