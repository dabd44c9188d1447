"""`<package>_models.h`: the versioned model (docs/format.md 3).

Per struct, a specialisation of the runtime's `FBE::VBody<T>` with four
straight-line functions over the fields, each at the offset the IR gives:

* `extra`  - bytes of out-of-line data (the size is computed once);
* `write`  - the field slots, in order (allocation order of docs/format.md 3.5);
* `read`   - each field if the body holds it (`size` = the body size found
             in the buffer), else its schema default (docs/format.md 3.6);
* `verify` - the fields that can fail, in order (docs/format.md 5.1).
* `cost`   - what a value costs the decode budget (docs/limits.md 3); a
             body of an older writer charges its defaulted struct values
             too, and checks the budget (read_older, verify_older).

`verify` and `verify_older` take any decoder: the runtime's `Decoder`, or
its `ExactDecoder`, which charges every value exactly (the runtime's Model
uses it when the decoder's count from above exceeds the budget).

Inherited fields are one block, handled by the base struct's functions.
The model class `FBE::<package>::<Struct>Model<TBuffer = FBE::WriteBuffer>`
is the runtime's `FBE::Model<T, TBuffer>`.
"""

from __future__ import annotations

from itertools import groupby

from fbec.model import ir, plan
from fbec.model.ir import Package, Schema, Struct
from fbec.targets.base import Options

from .common import (
    CppWriter,
    apart,
    assign_default,
    cpp_type,
    fail_in,
    field_ident,
    guard,
    inlined_structs,
    model_header,
    model_ident,
    namespace,
    qualified,
    read_scalars,
    reader_inline,
    return_sum,
    specialisation,
    struct_order,
)
from .names import escape


def generate(schema: Schema, package: Package, options: Options) -> str:
    w = model_header(schema, package, options, "Versioned (FBE) model", "versioned.h", ("", "_field_models"),
                     "_models")

    structs = struct_order(package)
    inlined = inlined_structs(schema, package)
    with namespace(w, "FBE"):
        w.blank()
        for s in structs:
            _declaration(w, plan.of(schema).struct(s.qualified), s.qualified in inlined)
        for s in structs:
            _extra(w, s)
            _write(w, s)
            _read(w, schema, s, inlined)
            _verify(w, schema, s, inlined)
        with namespace(w, escape(package.name)):
            w.blank()
            for s in structs:
                t = qualified(s.qualified)
                w.line(f"//! Versioned model of {s.qualified}: serialize(), deserialize(), verify(), and the")
                w.line("//! field models of the root (`model`, create_begin(), create_end()).")
                w.line("template <class TBuffer = FBE::WriteBuffer>")
                w.line(f"class {model_ident(s.qualified)} : public FBE::ViewModel<{t}, TBuffer> {{}};")
                w.blank()
        w.blank()
    return w.text()


def _declaration(w: CppWriter, p: plan.StructPlan, inlined: bool) -> None:
    s = p.struct
    t = qualified(s.qualified)
    with specialisation(w, "VBody", s, f"type {s.type_id}, body {s.body_size} bytes"):
        w.line(f"static constexpr uint32_t body_size = {s.body_size};")
        # No field (inherited ones included) points out of the body: a vector
        # of such structs may take VSequence's packed path.
        w.line(f"static constexpr bool fixed_fields = {'true' if p.fixed else 'false'};")
        w.line(f"static constexpr bool inlined = {'true' if inlined else 'false'};")
        w.line(f"static constexpr uint64_t cost = {s.decode_cost};")
        w.line(f"static std::size_t extra(const {t}& value) noexcept;")
        w.line(f"static void write(Encoder& e, std::size_t body, const {t}& value) noexcept;")
        w.line(f"static bool read(Decoder& d, std::size_t body, uint32_t size, {t}& value);")
        w.line("template <class D>")
        w.line("static bool verify(D& d, std::size_t body, uint32_t size);")
        if s.base or s.fields:
            w.line(f"static bool read_older(Decoder& d, std::size_t body, uint32_t size, {t}& value);")
            w.line("template <class D>")
            w.line("static bool verify_older(D& d, std::size_t body, uint32_t size);")


def _extra(w: CppWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    terms = [f"VBody<{qualified(s.base)}>::extra(value)"] if s.base else []
    terms += [f"VCodec<{cpp_type(f.type)}>::extra(value.{field_ident(f)})"
              for f in s.fields if not ir.is_fixed(f.type)]
    with w.function(f"inline std::size_t VBody<{t}>::extra(const {t}& value) noexcept"):
        return_sum(w, terms or ["0"])


def _write(w: CppWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    with w.function(f"inline void VBody<{t}>::write(Encoder& e, std::size_t body, const {t}& value) noexcept"):
        if s.base:
            w.line(f"VBody<{qualified(s.base)}>::write(e, body, value);")
        for f in s.fields:
            w.line(f"VCodec<{cpp_type(f.type)}>::write(e, body, body + {f.offset}, value.{field_ident(f)});")


def _charge_defaults(w: CppWriter, schema: Schema, s: Struct) -> None:
    """An older writer's body is shorter than the struct: charge the struct and the defaults of the
    struct values it lacks, and check the budget (docs/limits.md 3; what bodies of this schema's size
    hold costs at most their bytes, which the runtime counts; the exact count charged the struct
    when it entered it)."""
    defaults = " + ".join(_default_terms(schema, s)) or "0"
    guard(w, f'!d.charge_older(VBody<{qualified(s.qualified)}>::cost, {defaults}, "{s.qualified}", body)')


def _default_terms(schema: Schema, s: Struct) -> list[str]:
    """C++ terms of what the defaults of the fields beyond a body of `size` bytes cost (the plan's
    default cost of each own field, and of all the base's for a body without them)."""
    terms = []
    if s.base:
        cost = plan.of(schema).struct(s.base).older_cost
        if cost:
            terms.append(f"(size < {s.base_size} ? {cost}u : 0u)")
    for f in plan.of(schema).struct(s.qualified).own_fields:
        if f.default_cost:
            terms.append(f"(size < {f.end} ? {f.default_cost}u : 0u)")
    return terms


def _read(w: CppWriter, schema: Schema, s: Struct, inlined: set[str]) -> None:
    t = qualified(s.qualified)
    args = f"Decoder& d, std::size_t body, uint32_t size, {t}& value"
    with w.function(f"{reader_inline(s, inlined)} bool VBody<{t}>::read({args})"):
        if not (s.base or s.fields):
            w.line("return true;")
            return
        # A body shorter than this schema's (an older writer) takes the
        # out-of-line path; the rest is straight-line code for the whole body
        # (enter() checked that it lies in the buffer): every field at its
        # offset, no size checks.
        guard(w, f"FBE_UNLIKELY(size < {s.body_size})", apart("Decoder", "read_older(c, body, size, value)"))
        if s.base:
            guard(w, f"!read_body<{qualified(s.base)}>(d, body, size, value)")
        for unchecked, group in groupby(s.fields, lambda f: ir.is_scalar(f.type) and not ir.is_decimal(f.type)):
            fields = list(group)
            if unchecked and len(fields) > 1:     # consecutive scalars: read_scalars
                read_scalars(w, [(f, f"d.data + body + {f.offset}") for f in fields])
                continue
            for f in fields:
                codec = f"VCodec<{cpp_type(f.type)}>::read(d, body, body + {f.offset}, value.{field_ident(f)})"
                if unchecked:     # a decimal's flags are checked
                    w.line(f"{codec};")
                else:
                    guard(w, f"!{codec}", fail_in(f))
        w.line("return true;")
    # The body of an older writer: the fields it holds, the schema defaults
    # for the others (docs/format.md 3.6).
    with w.function(f"FBE_NOINLINE inline bool VBody<{t}>::read_older({args})"):
        _charge_defaults(w, schema, s)
        if s.base:
            b = qualified(s.base)
            w.line(f"// Inherited fields: all of them, or none when the body is older than {s.base}.")
            guard(w, f"size < {s.base_size}", f"FBE::detail::assign_default(static_cast<{b}&>(value));")
            guard(w, f"!read_body<{b}>(d, body, size, value)", "return false;", "else if")
        for fp in plan.of(schema).struct(s.qualified).own_fields:
            f = fp.field
            codec = f"VCodec<{cpp_type(f.type)}>::read(d, body, body + {f.offset}, value.{field_ident(f)})"
            guard(w, f"size < {fp.end}", assign_default(f"value.{field_ident(f)}", f))
            if ir.is_scalar(f.type) and not ir.is_decimal(f.type):     # a decimal's flags are checked
                with w.block("else"):
                    w.line(f"{codec};")
            else:
                guard(w, f"!{codec}", fail_in(f), "else if")
        w.line("return true;")


def _verify(w: CppWriter, schema: Schema, s: Struct, inlined: set[str]) -> None:
    t = qualified(s.qualified)
    checked = [f for f in plan.of(schema).struct(s.qualified).own_fields if not ir.reads_unchecked(f.type)]
    # A shorter body (an older writer) takes verify_older, which charges the
    # defaults as read_older does: the same error at the same place.
    w.line("template <class D>")
    with w.function(f"{reader_inline(s, inlined)} bool VBody<{t}>::verify(D& d, std::size_t body, uint32_t size)"):
        if not (s.base or s.fields):
            w.line("return true;")
            return
        # Fixed-size fields always pass; a shorter body takes the out-of-line path.
        guard(w, f"FBE_UNLIKELY(size < {s.body_size})", apart("D", "verify_older(c, body, size)"))
        if s.base:
            guard(w, f"!verify_body<{qualified(s.base)}>(d, body, size)")
        for f in checked:
            guard(w, f"!VCodec<{cpp_type(f.type)}>::verify(d, body, body + {f.offset})", fail_in(f.field))
        w.line("return true;")
    w.line("template <class D>")
    with w.function(f"FBE_NOINLINE inline bool VBody<{t}>::verify_older(D& d, std::size_t body, uint32_t size)"):
        _charge_defaults(w, schema, s)
        if s.base:
            guard(w, f"size < {s.base_size}", "return true;")
            guard(w, f"!verify_body<{qualified(s.base)}>(d, body, size)")
        # A field beyond the body ends the walk (older writer).
        for f in checked:
            guard(w, f"size < {f.end}", "return true;")
            guard(w, f"!VCodec<{cpp_type(f.type)}>::verify(d, body, body + {f.offset})", fail_in(f.field))
        w.line("return true;")
