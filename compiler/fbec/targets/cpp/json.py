"""`fbec --cpp --json`: `<package>_json.h`, JSON conversion through RapidJSON.

The runtime header `fbe/json.h` maps every primitive, enum, flags and
container (docs/format.md 8); this file adds, per struct of the package, a
`FBE::JSON::ValueWriter` and a `FBE::JSON::ValueReader` specialisation:
members in declaration order, inherited fields flattened in front (the base
is written with scope = false, i.e. without its braces). Both count struct
levels (FBE::Limits::max_depth, as the binary readers); the reader walks the
object's members once, refuses a member name seen twice, gives the fields
without a member their defaults, and charges the struct, the defaults' struct
values and (through the runtime) everything else it reads against the decode
budget (docs/limits.md 3); a failure leaves its member path in
FBE::JSON::last_error().
"""

from __future__ import annotations

from fbec.model import plan
from fbec.model.ir import Package, Schema, Struct
from fbec.targets.base import Options

from .common import (
    CppWriter,
    arguments,
    assign_default,
    deprecated_used,
    field_ident,
    guard,
    header_file,
    imported,
    namespace,
    qualified,
    specialisation,
)


def generate(schema: Schema, package: Package, options: Options) -> str:
    w = header_file(options, package, f"JSON conversion of the package '{package.name}' (RapidJSON).",
                    [f'"{package.name}.h"', *imported(schema, package, "_json")], ["<fbe/json.h>"])
    deprecated = any(s.deprecated or any(f.deprecated for f in s.fields) for s in package.structs)
    with deprecated_used(w, deprecated), namespace(w, "FBE"), namespace(w, "JSON"):
        for s in package.structs:
            cpp = qualified(s.qualified)
            with specialisation(w, f"Fields<{cpp}>", None):
                w.line(f'static constexpr const char* name = "{s.qualified}";')
                fields = [f'FBE::JSON::field(&{qualified(f.owner)}::{field_ident(f)}, "{f.name}")'
                          for f in s.all_fields]
                arguments(w, "static constexpr auto fields = std::make_tuple(", fields, ";")
            w.blank()

            w.line("template <class TJson>")
            w.line(f"struct ValueReader<TJson, {cpp}> : StructReader<TJson, {cpp}>")
            with w.block("{", "};"):
                w.line("//! What a value costs the decode budget when read (docs/limits.md 3).")
                w.line(f"static constexpr uint64_t cost = {s.decode_cost};")
                if s.large_default:
                    w.line("//! What its default costs: the budget left pays for it before an element is made.")
                    w.line(f"static constexpr uint64_t default_cost = {s.default_cost};")
                w.blank()
                w.line("//! The members of the object (inherited ones first): detail::read_fields, then the defaults.")
                with w.function(f"static bool read_members(const TJson& json, {cpp}& value)", False):
                    _read_members(w, schema, s)
            w.blank()
    return w.text()


def _read_members(w: CppWriter, schema: Schema, s: Struct) -> None:
    """read_members' body: the object's members, one pass, then the defaults of the fields without one."""
    fields = list(s.all_fields)
    if not fields:
        w.line("return true;")
        return
    w.line(f"bool seen[{len(fields)}] = {{}};")
    w.line("bool result = true;")
    with w.block("const auto read = [&](std::size_t i, const TJson& member) {", "};"), w.braced("switch (i)"):
        for i, f in enumerate(fields):
            w.line(f'case {i}: return detail::read_member<TJson>(member, value.{field_ident(f)}, "{f.name}");')
        w.line("default: return true;")
    guard(w, f"!detail::read_fields<{qualified(s.qualified)}>(json, seen, result, read)")
    # omitted members (JSON of an older schema version): defaults, their structs charged
    costs = [f.default_cost for f in plan.of(schema).struct(s.qualified).fields]
    charged = any(costs)
    if charged:
        w.line("uint64_t defaults = 0;")
    for i, (f, cost) in enumerate(zip(fields, costs)):
        if not cost:
            guard(w, f"!seen[{i}]", assign_default(f"value.{field_ident(f)}", f))
            continue
        with w.braced(f"if (!seen[{i}])"):
            w.line(assign_default(f"value.{field_ident(f)}", f))
            w.line(f"defaults += {cost};")
    w.line("return (defaults == 0 || detail::charge_defaults(defaults)) && result;" if charged
           else "return result;")
