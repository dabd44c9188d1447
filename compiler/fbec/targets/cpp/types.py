"""`<package>.h`: enums, flags and structs as plain C++ types.

The API is the original's: `enum class` enums and flags (with bit operators
and printing), plain structs in the package namespace with public fields, a
constructor taking every field in order (a derived struct takes its base
object first), `==`/`<`/`std::hash` on the `[key]` fields, `swap`, and
`operator<<` in the text format of docs/format.md 9.
"""

from __future__ import annotations

from fbec.model.ir import Enum, Package, Schema, Struct
from fbec.targets.base import Options

from . import nesting
from .common import (
    PRIMITIVES,
    CppWriter,
    arguments,
    cpp_type,
    default_expr,
    field_ident,
    header_file,
    imported,
    int_literal,
    namespace,
    param_type,
    qualified,
    specialisation,
    type_ident,
    value_ident,
)
from .names import escape


def generate(schema: Schema, package: Package, options: Options) -> str:
    std = ("array", "cstdint", "functional", "list", "map", "optional", "ostream", "set", "string",
           "unordered_map", "vector")
    w = header_file(options, package, f"Types of the package '{package.name}'.",
                    ["<fbe/buffer.h>", "<fbe/decimal.h>", "<fbe/members.h>", "<fbe/text.h>", "<fbe/uuid.h>"],
                    [f"<{header}>" for header in std] + imported(schema, package, ""))

    structs = package.structs     # in the order C++ declares them (docs/ir.md: a struct after those it holds)
    with namespace(w, escape(package.name)):
        w.blank()
        if package.version.major or package.version.minor:
            w.line(f'constexpr const char* version = "{package.version.major}.{package.version.minor}";')
            w.blank()
        for e in package.enums:
            _enum(w, e, False)
        for f in package.flags:
            _enum(w, f, True)
        for s in structs:
            w.line(f"struct {type_ident(s.qualified)};")
        w.blank()
    w.blank()

    if structs:
        with namespace(w, "std"):
            w.blank()
            for s in structs:
                with specialisation(w, f"hash<{qualified(s.qualified)}>", None):
                    w.line(f"std::size_t operator()(const {qualified(s.qualified)}& value) const noexcept;")
        w.blank()

    with namespace(w, escape(package.name)):
        w.blank()
        for s in structs:
            _struct(w, s)
        for s in structs:
            _struct_functions(w, s)
    w.blank()

    for s in structs:
        _hash_function(w, s)
    nesting.generate(w, schema, package)
    return w.text()


# ---------------------------------------------------------------- enums and flags

def _enum(w: CppWriter, e: Enum, flags: bool) -> None:
    """An enum or flags type and its `operator<<` (docs/format.md 9): the runtime's print_enum or print_flags
    over a list of its named values (an enum's first name of each value; a flags' non-zero ones), which may be
    empty."""
    wire = PRIMITIVES[e.wire]
    name = type_ident(e.qualified)
    w.line(f"enum class {name} : {wire}")
    with w.block("{", "};"):
        for v in e.values:
            w.line(f"{value_ident(e.qualified, v.name)} = {int_literal(v.value, wire)},")
    w.blank()
    if flags:
        w.line(f"FBE_ENUM_FLAGS({name})")
        w.blank()
    printer = f"FBE::print_{'flags' if flags else 'enum'}(stream, static_cast<{wire}>(value), {{"
    with (w.function(f"inline std::ostream& operator<<(std::ostream& stream, {name} value)"),
          w.block(f"return {printer}", "});")):
        for v in e.named_flags if flags else e.text_values:
            w.line(f'{{{int_literal(v.value, wire)}, "{v.name}"}},')


# ---------------------------------------------------------------- structs

def _struct(w: CppWriter, s: Struct) -> None:
    fields = list(s.fields)
    base = qualified(s.base) if s.base else None
    name = type_ident(s.qualified)
    w.line(f"struct {name}" + (f" : public {base}" if base else ""))
    with w.block("{", "};"):
        for f in fields:
            expr = default_expr(f.type, f.default)
            w.line(f"{cpp_type(f.type)} {field_ident(f)}" + ("{};" if expr is None else f" = {expr};"))
        if fields:
            w.blank()
        w.line(f"static constexpr uint32_t fbe_type() noexcept {{ return {s.type_id}; }}")
        w.blank()
        w.line(f"{name}() = default;")
        # the constructor taking every field (a derived struct's base object first)
        params = ([f"const {base}& base"] if base else []) + [f"{param_type(f.type)} arg_{f.name}" for f in fields]
        if params:
            w.line(f"{'explicit ' if len(params) == 1 else ''}{name}({', '.join(params)})")
            inits = ([f"{base}(base)"] if base else []) + [f"{field_ident(f)}(arg_{f.name})" for f in fields]
            with w.indented():
                for i, init in enumerate(inits):
                    w.line((": " if i == 0 else ", ") + init)
            w.line("{}")
        w.blank()
        # Equality and ordering on the key fields (IR `keys`, inherited ones included), the others through them,
        # the text form and swap: the runtime's (fbe/members.h, fbe/text.h) over the members they name.
        keys = "".join(f", &{name}::{field_ident(f)}" for f in s.key_fields)
        for op, body in (("==", f"FBE::equal_members(*this, other{keys})"), ("!=", "!(*this == other)"),
                         ("<", f"FBE::less_members(*this, other{keys})"), ("<=", "!(other < *this)"),
                         (">", "other < *this"), (">=", "!(*this < other)")):
            w.line(f"bool operator{op}(const {name}& other) const noexcept {{ return {body}; }}")
        w.blank()
        w.line("std::string string() const { return FBE::to_text(*this); }")
        w.blank()
        with w.function(f"void swap({name}& other) noexcept"):
            arguments(w, "FBE::swap_members(*this, other", [f"&{name}::{field_ident(f)}" for f in s.all_fields], ";")
        # Parameters unnamed here and the body outside: clang's -Wshadow
        # would take a parameter for a field of the same name.
        w.line(f"friend void swap({name}&, {name}&) noexcept;")
        w.blank()
        w.line(f"friend std::ostream& operator<<(std::ostream&, const {name}&);")
    w.blank()


def _struct_functions(w: CppWriter, s: Struct) -> None:
    fields = list(s.fields)
    base = qualified(s.base) if s.base else None
    name = type_ident(s.qualified)

    w.line(f"inline void swap({name}& a, {name}& b) noexcept {{ a.swap(b); }}")
    w.blank()

    # Text format (docs/format.md 9): Name(base,f1=v1,...); hidden fields print ***.
    parts = [f"static_cast<const {base}&>(value)"] if base else []
    parts += [f'FBE::hidden("{f.name}")' if f.hidden else f'FBE::field("{f.name}", value.{field_ident(f)})'
              for f in fields]
    with w.function(f"inline std::ostream& operator<<(std::ostream& stream, const {name}& value)"):
        arguments(w, f'return FBE::print_struct(stream, "{s.name}"', parts, ";")


def _hash_function(w: CppWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    keys = "".join(f", &{t}::{field_ident(f)}" for f in s.key_fields)
    with w.function(f"inline std::size_t std::hash<{t}>::operator()(const {t}& value) const noexcept"):
        w.line(f"return FBE::hash_members(value{keys});")
