"""`<package>_field_models.h`: the original's field models of the versioned model (docs/cpp.md
"Field models").

Per struct, a specialisation `FBE::FieldModel<TBuffer, S>` of the runtime's `FBE::StructModel`
(runtime/cpp/include/fbe/field_model.h): one member per own field, the model of its slot at the
offset the plan gives (`model.id`, `model.orders`...), and `parent`, the model of the base
struct's fields, for a struct that has one. The runtime does the rest (set_begin/get_begin...,
the fields' get/set); nothing here computes an offset or a size. `<package>_models.h` includes
this file, and its model classes (`FBE::ViewModel`) hold the root's field model as `model`.

Per struct also the view `FBE::View<S, Verified>` (runtime fbe/view.h, docs/cpp.md "Views"): the
read-only value that reads a field in place with one comparison against the body found (none in a
verified view, `FBE::VerifiedView<S>`); one accessor per own field (the field model's member name),
`parent()` for the base's fields.
"""

from __future__ import annotations

from fbec.model import plan
from fbec.model.ir import Field, Package, Primitive, Schema, Struct, is_scalar
from fbec.targets.base import CodeWriter, Options

from .common import cpp_type, default_expr, header_file, imported, namespace, qualified
from .names import current, escape


def generate(schema: Schema, package: Package, options: Options) -> str:
    w = header_file(options, package, f"Field models (in-place views) of the package '{package.name}'.",
                    ["<fbe/field_model.h>", "<fbe/view.h>"],
                    [f'"{package.name}.h"', *imported(schema, package, "_field_models")])
    with namespace(w, "FBE"):
        w.blank()
        for s in package.structs:
            _struct(w, plan.of(schema).struct(s.qualified))
        for s in package.structs:
            _view(w, plan.of(schema).struct(s.qualified))
    return w.text()


def field_model_ident(f: Field) -> str:
    """A field's member in its struct's field model (names.py; outside naming(), escaped from the reserved
    words only, as common.py's helpers)."""
    names = current()
    return names.field_model(f) if names else escape(f.name)


def _struct(w: CodeWriter, p: plan.StructPlan) -> None:
    s: Struct = p.struct
    t = qualified(s.qualified)
    base = f"StructModel<TBuffer, {t}>"
    w.line(f"//! Field model of {s.qualified}: the fields' models at their offsets in the body.")
    w.line("template <class TBuffer>")
    w.line(f"class FieldModel<TBuffer, {t}> : public {base}")
    with w.block("{", "};"):
        w.label("public:")
        w.line(f"using {base}::StructModel;")
        w.line("FieldModel(const FieldModel& other) noexcept")
        with w.indented():
            w.line(": FieldModel(other.fbe_buffer(), other.fbe_offset(), other.fbe_limit(), other.shared_body())")
        w.line("{}")
        w.line("FieldModel& operator=(const FieldModel& other) noexcept { return detail::assign_copy(*this, other); }")
        w.blank()
        # (each member made by every constructor from its initializer: its slot's offset, the body's end)
        if s.base:
            w.line(f"FieldModel<TBuffer, {qualified(s.base)}> parent"
                   "{this->fbe_buffer(), 8, nullptr, this->body_limit()};")
        for f in p.own_fields:
            w.line(f"FieldModel<TBuffer, {cpp_type(f.type)}> {field_model_ident(f.field)}"
                   f"{{this->fbe_buffer(), {f.offset}, this->body_limit()}};")
    w.blank()


def _view(w: CodeWriter, p: plan.StructPlan) -> None:
    s: Struct = p.struct
    t = qualified(s.qualified)
    base = f"StructView<{t}, Verified>"
    w.line(f"//! View of {s.qualified}: its fields read in place, each checked against the body found")
    w.line("//! (Verified: made from a root verified_view() checked as a whole).")
    w.line("template <bool Verified>")
    w.line(f"class View<{t}, Verified> : public {base}")
    with w.block("{", "};"):
        w.label("public:")
        w.line(f"using {base}::StructView;")
        w.blank()
        if s.base:
            b = qualified(s.base)
            w.line(f"View<{b}, Verified> parent() const noexcept {{ return this->template fbe_part<{b}>(); }}")
        for f in p.own_fields:
            ft = f.field.type
            cpp = cpp_type(ft)
            # (a scalar's or a string's read gives its default when the body lacks it)
            default = _view_default(f.field) if is_scalar(ft) or ft == Primitive("string") else None
            args = f"{f.offset}" + (f", {default}" if default is not None else "")
            w.line(f"ViewResult<{cpp}, Verified> {field_model_ident(f.field)}() const noexcept "
                   f"{{ return this->template fbe_field<{cpp}>({args}); }}")
    w.blank()


def _view_default(f: Field) -> str | None:
    """What a view's accessor reads when the body lacks the field: its default, as a function when the
    default is made when read (utc, uuid1, uuid4) or is not a constant of its type (decimal, uuid)."""
    expr = default_expr(f.type, f.default)
    if expr is None:
        return None
    if f.default.kind in ("utc", "uuid", "uuid1", "uuid4") or cpp_type(f.type) == "FBE::decimal_t":
        return f"[] {{ return {expr}; }}"
    return expr
