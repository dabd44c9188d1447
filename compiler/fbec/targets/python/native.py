"""The table of the native core (docs/python.md, "Native core"), for both binary models.

Every generated module ends with ``FBE_CORE = fbe.native.core((...))``: one entry per struct the
module's classes can reach (its own structs first, in declaration order, so a class's index is its
position in the package; then the imported structs they hold), each ``(class, type id, body size,
decode cost, fields)``, each field ``(attribute, versioned offset, kind)``. The kinds are read by
``runtime/python-native`` (``Kind::parse``): a struct format character for fixed-size values,
``"s"`` string, ``"y"`` bytes, ``"u"`` uuid, ``"m"`` decimal, ``("e", format, FBE_M_<Enum>)``,
``("S", index)``, ``("o", kind)``, ``("v", kind, item cost, item final minimum size)``,
``("a", kind, length)``; ``"x"`` is a
kind the core does not cover yet (sets, maps, hashes), and a struct holding one stays pure Python.
``fbe.native.core`` gives None without the core, and the classes then run the generated code.
"""

from __future__ import annotations

from fbec.model import ir

from .context import PRIM_FMT, Context, slot_fmt

PRIM_KIND = {"string": '"s"', "bytes": '"y"', "uuid": '"u"', "decimal": '"m"'}


def _element(ctx: Context, t: ir.Type, index: dict[str, int]) -> str:
    """The kind of a collection's element or an optional's value: no collection within."""
    if isinstance(t, (ir.Sequence, ir.Mapping, ir.Array)):
        return '"x"'
    if isinstance(t, ir.Optional_) and isinstance(t.element, (ir.Sequence, ir.Mapping, ir.Array, ir.Optional_)):
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
    if isinstance(t, ir.Sequence) and t.kind != "set":
        return f'("v", {_element(ctx, t.element, index)}, {t.item_cost}, {t.item_min_size})'
    return '"x"'


def core_table(ctx: Context) -> list[str]:
    """``FBE_CORE``: the module's table for the native core (None when the core is not there)."""
    structs = ctx.plan.reached(ctx.package)
    index = {s.qualified: i for i, s in enumerate(structs)}
    code = ctx.writer()
    code.line("# the native core's table (docs/python.md, Native core); None: the classes run the code above")
    with code.block("FBE_CORE: fbe.native.Core | None = fbe.native.core((", "))"):
        for s in structs:
            fields = "".join(f'("{ctx.ident.field(f)}", {f.offset}, {_kind(ctx, f.type, index)}), '
                             for f in s.all_fields)
            code.line(f"({ctx.ref(s.qualified)}, {s.type_id}, {s.body_size}, {s.decode_cost}, ({fields.rstrip()})),")
    return code.text().splitlines()
