"""`<package>_final_models.h`: the final (compact) model (FORMAT.md 4).

Per struct, a specialisation of the runtime's `FBE::FBody<T>` whose
functions walk the fields in order, base fields first: `size`, `write`,
`read` (best effort: a field that cannot be read takes its schema default)
and `verify`; a struct of fixed size (scalars and such structs only) also
gets `read_fixed`, the unchecked reader of its vector elements. The model
class is
`FBE::<package>::<Struct>FinalModel<TBuffer = FBE::WriteBuffer>`.
"""

from __future__ import annotations

from typing import List, Set

from fbec.model.ir import Field, Package, Schema, Struct
from fbec.targets.base import CodeWriter, Options

from .common import (cpp_type, default_value, field_ident, file_banner, ident, imports, inlined_structs, is_scalar,
                     namespace, qualified, reader_inline, struct_order, writer)


def generate(schema: Schema, package: Package, options: Options) -> str:
    w = writer(options)
    file_banner(w, package, f"Final (compact) model of the package '{package.name}'.")
    w.line("#include <fbe/final.h>")
    w.blank()
    w.line(f'#include "{package.name}.h"')
    for imported in imports(schema, package):
        w.line(f'#include "{imported.name}_final_models.h"')
    w.blank()

    structs = struct_order(package)
    inlined = inlined_structs(schema, package)
    with namespace(w, "FBE"):
        w.blank()
        for s in structs:
            _declaration(w, s, s.qualified in inlined)
        for s in structs:
            _size(w, s)
            _write(w, s)
            _read(w, s, inlined)
            _read_fixed(w, s)
            _verify(w, s, inlined)
        with namespace(w, package.name):
            w.blank()
            for s in structs:
                t = qualified(s.qualified)
                w.line(f"//! Final model of {s.qualified}: serialize(), deserialize(), verify().")
                w.line("template <class TBuffer = FBE::WriteBuffer>")
                w.line(f"class {ident(s.name)}FinalModel : public FBE::FinalModel<{t}, TBuffer> {{}};")
                w.blank()
        w.blank()
    return w.text()


def _declaration(w: CodeWriter, s: Struct, inlined: bool) -> None:
    t = qualified(s.qualified)
    w.line(f"// {s.qualified}: type {s.type_id}")
    w.line("template <>")
    w.line(f"struct FBody<{t}>")
    with w.block("{", "};"):
        w.line(f"static constexpr uint32_t type_id = {s.type_id};")
        w.line(f"static constexpr bool inlined = {'true' if inlined else 'false'};")
        w.line(f"static constexpr std::size_t fixed_size = {s.final_size or 0};")
        w.line(f"static std::size_t size(const {t}& value) noexcept;")
        w.line(f"static uint8_t* write(uint8_t* p, const {t}& value) noexcept;")
        w.line(f"static bool read(FinalDecoder& d, {t}& value);")
        if s.final_size:
            w.line(f"static void read_fixed(const uint8_t* p, {t}& value) noexcept;")
        w.line("static bool verify(FinalDecoder& d);")
    w.blank()


def _size(w: CodeWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    fixed = sum(f.type.final_size for f in s.fields if f.type.final_size is not None)
    terms = [f"FBody<{qualified(s.base)}>::size(value)"] if s.base else []
    terms += [f"FCodec<{cpp_type(f.type)}>::size(value.{field_ident(f.name)})" for f in s.fields if f.type.final_size is None]
    if fixed or not terms:
        terms.insert(0, str(fixed))
    used = any("value" in term for term in terms)
    w.line(f"inline std::size_t FBody<{t}>::size(const {t}& {'value' if used else '/*value*/'}) noexcept")
    with w.block("{", "}"):
        w.line(f"return {terms[0]}" + (";" if len(terms) == 1 else ""))
        w.indent()
        for i, term in enumerate(terms[1:], 1):
            w.line(f"+ {term}" + (";" if i == len(terms) - 1 else ""))
        w.dedent()
    w.blank()


def _write(w: CodeWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    used = bool(s.base or s.fields)
    w.line(f"inline uint8_t* FBody<{t}>::write(uint8_t* p, const {t}& {'value' if used else '/*value*/'}) noexcept")
    with w.block("{", "}"):
        if s.base:
            w.line(f"p = FBody<{qualified(s.base)}>::write(p, value);")
        for f in s.fields:
            w.line(f"p = FCodec<{cpp_type(f.type)}>::write(p, value.{field_ident(f.name)});")
        w.line("return p;")
    w.blank()


def _groups(s: Struct) -> List[List[Field]]:
    """The fields in order, consecutive scalars grouped: such a run is
    checked against the buffer once and then read without checks."""
    groups: List[List[Field]] = []
    for f in s.fields:
        if is_scalar(f.type) and groups and len(groups[-1]) and is_scalar(groups[-1][-1].type):
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


def _run_size(run: List[Field]) -> int:
    return sum(f.type.final_size for f in run)


def _read(w: CodeWriter, s: Struct, inlined: Set[str]) -> None:
    t = qualified(s.qualified)
    used = bool(s.base or s.fields)
    args = "FinalDecoder& d" if used else "FinalDecoder& /*d*/"
    w.line(f"{reader_inline(s, inlined)} bool FBody<{t}>::read({args}, {t}& {'value' if used else '/*value*/'})")
    if not used:
        with w.block("{", "}"):
            w.line("return true;")
        w.blank()
        return
    with w.block("{", "}"):
        w.line("bool ok = true;")
        if s.base:
            w.line(f"if (!read_body<{qualified(s.base)}>(d, value))")
            w.line("    ok = false;")

        def one(f: Field) -> None:
            w.line(f"if (!FCodec<{cpp_type(f.type)}>::read(d, value.{field_ident(f.name)})) {{")
            w.line(f"    value.{field_ident(f.name)} = {default_value(f)};")
            w.line("    ok = false;")
            w.line("}")

        for group in _groups(s):
            if len(group) == 1:
                one(group[0])
                continue
            size = _run_size(group)
            w.line(f"if (FBE_LIKELY(d.remaining() >= {size})) {{")
            w.indent()
            w.line("const uint8_t* p = d.data + d.pos;")
            at = 0
            for f in group:
                w.line(f"value.{field_ident(f.name)} = Scalar<{cpp_type(f.type)}>::get(p + {at});")
                at += f.type.final_size
            w.line(f"d.pos += {size};")
            w.dedent()
            w.line("} else {")
            w.indent()
            for f in group:
                one(f)
            w.dedent()
            w.line("}")
        w.line("return ok;")
    w.blank()


def _read_fixed(w: CodeWriter, s: Struct) -> None:
    """The fields of a fixed-size struct at their offsets, without checks:
    the vector that holds it has checked its elements are in the buffer."""
    if not s.final_size:
        return
    t = qualified(s.qualified)
    w.line(f"FBE_INLINE void FBody<{t}>::read_fixed(const uint8_t* p, {t}& value) noexcept")
    with w.block("{", "}"):
        # Inherited fields first; an empty base or field (0 bytes) has nothing to read.
        at = s.final_size - sum(f.type.final_size for f in s.fields)
        if at:
            w.line(f"FBody<{qualified(s.base)}>::read_fixed(p, value);")
        for f in s.fields:
            if f.type.final_size:
                w.line(f"FCodec<{cpp_type(f.type)}>::read_fixed(p + {at}, value.{f.name});")
            at += f.type.final_size
    w.blank()


def _verify(w: CodeWriter, s: Struct, inlined: Set[str]) -> None:
    t = qualified(s.qualified)
    used = bool(s.base or s.fields)
    w.line(f"{reader_inline(s, inlined)} bool FBody<{t}>::verify(FinalDecoder& {'d' if used else '/*d*/'})")
    with w.block("{", "}"):
        if s.base:
            w.line(f"if (!verify_body<{qualified(s.base)}>(d))")
            w.line("    return false;")

        def one(f: Field) -> None:
            w.line(f"if (!FCodec<{cpp_type(f.type)}>::verify(d))")
            w.line(f'    return d.fail_in("{s.qualified}", "{f.name}");')

        for group in _groups(s):
            if len(group) == 1:
                one(group[0])
                continue
            w.line(f"if (FBE_LIKELY(d.remaining() >= {_run_size(group)})) {{")
            w.line(f"    d.pos += {_run_size(group)};")
            w.line("} else {")
            w.indent()
            for f in group:
                one(f)
            w.dedent()
            w.line("}")
        w.line("return true;")
    w.blank()
