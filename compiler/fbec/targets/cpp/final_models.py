"""`<package>_final_models.h`: the final (compact) model (docs/format.md 4).

Per struct, a specialisation of the runtime's `FBE::FBody<T>` whose
functions walk the fields in order, base fields first: `size`, `write`,
`read` (best effort: a field that cannot be read takes its schema default)
and `verify`; a struct of fixed size (scalars and such structs only) also
gets `read_fixed`, the unchecked reader of its vector elements. The model
class is
`FBE::<package>::<Struct>FinalModel<TBuffer = FBE::WriteBuffer>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Union

from fbec.model import plan
from fbec.model.ir import Field, Optional_, Package, Primitive, Schema, Struct, StructRef, Type
from fbec.targets.base import CodeWriter, Options, runs_of

from .common import (
    cpp_type,
    default_value,
    field_ident,
    file_banner,
    ident,
    imports,
    inlined_structs,
    is_scalar,
    namespace,
    qualified,
    reader_inline,
    scalar_size,
    struct_order,
    writer,
)


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
    layout = Layout(schema)
    with namespace(w, "FBE"):
        w.blank()
        for s in structs:
            _declaration(w, s, s.qualified in inlined, layout)
        for s in structs:
            _size(w, s)
            _write(w, s)
            _read(w, s, inlined, layout)
            _read_fixed(w, s)
            _verify(w, s, inlined)
        with namespace(w, ident(package.name)):
            w.blank()
            for s in structs:
                t = qualified(s.qualified)
                w.line(f"//! Final model of {s.qualified}: serialize(), deserialize(), verify().")
                w.line("template <class TBuffer = FBE::WriteBuffer>")
                w.line(f"class {ident(s.name)}FinalModel : public FBE::FinalModel<{t}, TBuffer> {{}};")
                w.blank()
        w.blank()
    return w.text()


Item = Union[Field, str]
"""What a struct body reads, in order: the base (its qualified name), then the fields."""


class Layout:
    """Which structs have a `read_fast`, with the facts the fast path needs
    from the IR: the fewest bytes a value takes (`final_min_size`), how deep
    its struct nesting goes (`height`) and recursion.

    The fast path reads scalars, strings, bytes, optionals of those and
    structs made of them (never recursive ones): what a well-formed buffer
    holds can be checked once for the fixed part and once per length."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.structs: dict[str, Struct] = {s.qualified: s for p in schema.packages for s in p.structs}
        self._fast: dict[str, bool] = {}

    def items(self, s: Struct) -> list[Item]:
        return ([s.base] if s.base else []) + list(s.fields)

    def item_min(self, item: Item) -> int:
        """The fewest bytes the item takes in the final model (the IR's final_min_size)."""
        return self.structs[item].final_min_size if isinstance(item, str) else item.type.final_min_size

    def fast(self, t: Type) -> bool:
        """A value of type `t` can be read by the fast path."""
        if is_scalar(t) or isinstance(t, Primitive):
            return True
        if isinstance(t, StructRef):
            return self.struct_fast(t.name)
        if isinstance(t, Optional_):
            return self.fast(t.element)
        return False

    def struct_fast(self, name: str) -> bool:
        """The struct has a `read_fast`: it is not recursive and its base and fields can be read fast."""
        if name not in self._fast:
            s = self.structs.get(name)
            self._fast[name] = False
            self._fast[name] = (s is not None and not s.recursive
                                and all(self.item_fast(i) for i in self.items(s)))
        return self._fast[name]

    def item_fast(self, item: Item) -> bool:
        return self.struct_fast(item) if isinstance(item, str) else self.fast(item.type)

    def height(self, items: list[Item]) -> int:
        """Struct levels below the items, from the IR (FStruct counts each
        against the reader's max_depth; a base is read within its struct and does not
        count). Fast items never reach a recursive struct: the height is bounded."""
        heights = [self.structs[i].height if isinstance(i, str) else plan.of(self.schema).levels(i.type) for i in items]
        bounded = [h for h in heights if h is not None]
        assert len(bounded) == len(heights), "a fast reader over a recursive struct"
        return max(bounded, default=0)


def _declaration(w: CodeWriter, s: Struct, inlined: bool, layout: Layout) -> None:
    t = qualified(s.qualified)
    w.line(f"// {s.qualified}: type {s.type_id}")
    w.line("template <>")
    w.line(f"struct FBody<{t}>")
    with w.block("{", "};"):
        w.line(f"static constexpr uint32_t type_id = {s.type_id};")
        w.line(f"static constexpr bool inlined = {'true' if inlined else 'false'};")
        w.line(f"static constexpr std::size_t fixed_size = {s.final_size or 0};")
        w.line(f"static constexpr std::size_t min_size = {s.final_min_size};")
        w.line(f"static std::size_t size(const {t}& value) noexcept;")
        w.line(f"static uint8_t* write(uint8_t* p, const {t}& value) noexcept;")
        w.line(f"static bool read(FinalDecoder& d, {t}& value);")
        if s.final_size:
            w.line(f"static void read_fixed(const uint8_t* p, {t}& value) noexcept;")
        for name, _ in _fast_readers(s, layout):
            w.line(f"static bool {name}(const uint8_t*& p, const uint8_t* end, std::size_t rest, {t}& value);")
        w.line("static bool verify(FinalDecoder& d);")
    w.blank()


def _size(w: CodeWriter, s: Struct) -> None:
    t = qualified(s.qualified)
    fixed = sum(f.type.final_size for f in s.fields if f.type.final_size is not None)
    terms = [f"FBody<{qualified(s.base)}>::size(value)"] if s.base else []
    terms += [f"FCodec<{cpp_type(f.type)}>::size(value.{field_ident(f.name)})"
              for f in s.fields if f.type.final_size is None]
    if fixed or not terms:
        terms.insert(0, str(fixed))
    used = any("value" in term for term in terms)
    w.line(f"inline std::size_t FBody<{t}>::size(const {t}& {'value' if used else '/*value*/'}) noexcept")
    with w.block("{", "}"):
        w.line(f"return {terms[0]}" + (";" if len(terms) == 1 else ""))
        with w.indented():
            for i, term in enumerate(terms[1:], 1):
                w.line(f"+ {term}" + (";" if i == len(terms) - 1 else ""))
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


def _groups(s: Struct) -> list[list[Field]]:
    """The fields in order, consecutive scalars grouped: such a run is
    checked against the buffer once and then read without checks."""
    return runs_of(s.fields, lambda f: is_scalar(f.type))


def _run_size(run: Sequence[Item]) -> int:
    return sum(scalar_size(f.type) for f in run if isinstance(f, Field))


def _item_name(item: Item) -> str:
    return "base" if isinstance(item, str) else item.name


def _segments(s: Struct, layout: Layout) -> list[list[Item]]:
    """The items in order, consecutive ones the fast path can read grouped."""
    return runs_of(layout.items(s), layout.item_fast)


def _fast_run(segment: list[Item], layout: Layout) -> bool:
    """A segment read by a fast reader of its own: two items or more, not only
    scalars (a run of scalars is one bounds check anyway)."""
    return (len(segment) > 1 and layout.item_fast(segment[0])
            and not all(isinstance(i, Field) and is_scalar(i.type) for i in segment))


def _fast_readers(s: Struct, layout: Layout) -> list[tuple[str, list[Item]]]:
    """(name, items) of the fast readers of a struct: `read_fast` over the
    whole body when it can be read fast, else one per run of such fields."""
    if layout.struct_fast(s.qualified):
        return [("read_fast", layout.items(s))]
    runs = [seg for seg in _segments(s, layout) if _fast_run(seg, layout)]
    return [(f"read_fast_{_item_name(run[0])}_to_{_item_name(run[-1])}", run) for run in runs]


def _fast_reader(w: CodeWriter, s: Struct, inlined: set[str], name: str, items: list[Item], layout: Layout) -> None:
    """A fast reader: reads the items at `p`, which must leave `rest` bytes
    before `end`, and requires `end - p` >= `rest` + the items' fewest bytes:
    scalars need no check and each length one, against what the items after
    it need at least. False on any problem (nothing recorded)."""
    t = qualified(s.qualified)
    variable = any(not (isinstance(i, Field) and is_scalar(i.type)) for i in items)
    p = "p" if items else "/*p*/"
    end, rest = ("end", "rest") if variable else ("/*end*/", "/*rest*/")
    value = "value" if items else "/*value*/"
    w.line(f"{reader_inline(s, inlined)} bool FBody<{t}>::{name}(const uint8_t*& {p}, const uint8_t* {end}, "
           f"std::size_t {rest}, {t}& {value})")
    with w.block("{", "}"):
        mins = [layout.item_min(i) for i in items]
        at = 0  # bytes of scalars read since p last moved
        for k, item in enumerate(items):
            if isinstance(item, Field) and is_scalar(item.type):
                offset = f" + {at}" if at else ""
                w.line(f"value.{field_ident(item.name)} = Scalar<{cpp_type(item.type)}>::get(p{offset});")
                at += scalar_size(item.type)
                continue
            if at:
                w.line(f"p += {at};")
                at = 0
            after = sum(mins[k + 1:])
            rest = f"rest + {after}" if after else "rest"
            if isinstance(item, str):
                call = f"FBody<{qualified(item)}>::read_fast(p, end, {rest}, value)"
            elif isinstance(item.type, StructRef):
                call = f"FBody<{qualified(item.type.name)}>::read_fast(p, end, {rest}, value.{field_ident(item.name)})"
            else:
                call = f"FCodec<{cpp_type(item.type)}>::read_fast(p, end, {rest}, value.{field_ident(item.name)})"
            with w.block(f"if (!{call})"):
                w.line("return false;")
        if at:
            w.line(f"p += {at};")
        w.line("return true;")
    w.blank()


def _read(w: CodeWriter, s: Struct, inlined: set[str], layout: Layout) -> None:
    t = qualified(s.qualified)
    used = bool(s.base or s.fields)
    readers = _fast_readers(s, layout)
    for reader, items in readers:
        _fast_reader(w, s, inlined, reader, items, layout)
    args = "FinalDecoder& d" if used else "FinalDecoder& /*d*/"
    w.line(f"{reader_inline(s, inlined)} bool FBody<{t}>::read({args}, {t}& {'value' if used else '/*value*/'})")
    if not used:
        with w.block("{", "}"):
            w.line("return true;")
        w.blank()
        return

    def one(item: Item) -> None:
        if isinstance(item, str):
            with w.block(f"if (!read_body<{qualified(item)}>(d, value))"):
                w.line("ok = false;")
            return
        w.line(f"if (!FCodec<{cpp_type(item.type)}>::read(d, value.{field_ident(item.name)})) {{")
        with w.indented():
            w.line(f"value.{field_ident(item.name)} = {default_value(item)};")
            w.line("ok = false;")
        w.line("}")

    def fast_condition(name: str, items: list[Item], declare: bool) -> None:
        checks = [f"d.remaining() >= {'min_size' if name == 'read_fast' else sum(layout.item_min(i) for i in items)}"]
        height = layout.height(items)
        if height:
            w.line("// (It does not count nesting: taken where the nested structs stay within the depth limit.)")
            checks.append(f"d.depth_left >= {height}u")
        w.line(f"{'const uint8_t* ' if declare else ''}p = d.data + d.pos;")
        checks.append(f"{name}(p, d.data + d.size, 0, value)")
        w.line(f"if (FBE_LIKELY({' && '.join(checks)})) {{")

    with w.block("{", "}"):
        if readers and readers[0][0] == "read_fast":
            w.line("// The fast path; if anything does not fit, every field is read again, best effort.")
            fast_condition("read_fast", readers[0][1], True)
            with w.indented():
                w.line("d.pos = std::size_t(p - d.data);")
                w.line("return true;")
            w.line("}")
            w.line("bool ok = true;")
            for item in readers[0][1]:
                one(item)
            w.line("return ok;")
        else:
            w.line("bool ok = true;")
            declared = False
            for segment in _segments(s, layout):
                name = next((n for n, items in readers if items == segment), None)
                if name:
                    names = [_item_name(i) for i in segment]
                    fields = ", ".join(names) if len(names) <= 6 else f"{names[0]} to {names[-1]}"
                    w.line(f"// {fields}: the fast path, or if anything does not fit, one by one, best effort.")
                    fast_condition(name, segment, not declared)
                    declared = True
                    with w.indented():
                        w.line("d.pos = std::size_t(p - d.data);")
                    _else_each(w, segment, one)
                    continue
                for group in _scalar_groups(segment):
                    if len(group) == 1:
                        one(group[0])
                        continue
                    size = _run_size(group)
                    with w.block(f"if (FBE_LIKELY(d.remaining() >= {size})) {{"):
                        w.line(f"{'' if declared else 'const uint8_t* '}p = d.data + d.pos;")
                        at = 0
                        for f in group:
                            assert isinstance(f, Field)
                            w.line(f"value.{field_ident(f.name)} = Scalar<{cpp_type(f.type)}>::get(p + {at});")
                            at += scalar_size(f.type)
                        w.line(f"d.pos += {size};")
                    _else_each(w, group, one)
            w.line("return ok;")
    w.blank()


def _scalar_groups(items: list[Item]) -> list[list[Item]]:
    """Consecutive scalar fields grouped: such a run is checked against the
    buffer once and then read without checks."""
    return runs_of(items, lambda item: isinstance(item, Field) and is_scalar(item.type))


def _read_fixed(w: CodeWriter, s: Struct) -> None:
    """The fields of a fixed-size struct at their offsets, without checks:
    the vector that holds it has checked its elements are in the buffer."""
    if not s.final_size:
        return
    t = qualified(s.qualified)
    w.line(f"FBE_INLINE void FBody<{t}>::read_fixed(const uint8_t* p, {t}& value) noexcept")
    with w.block("{", "}"):
        # Inherited fields first; an empty base or field (0 bytes) has nothing to read.
        base_size = s.fields[0].final_offset if s.fields else s.final_size
        if base_size:
            assert s.base, s.qualified
            w.line(f"FBody<{qualified(s.base)}>::read_fixed(p, value);")
        end = base_size or 0
        for f in s.fields:
            # every offset of a fixed struct is known; the fields follow each other
            size = f.type.final_size
            assert f.final_offset == end and size is not None, (s.qualified, f.name)
            if size:
                w.line(f"FCodec<{cpp_type(f.type)}>::read_fixed(p + {f.final_offset}, value.{field_ident(f.name)});")
            end += size
        assert end == s.final_size, s.qualified
    w.blank()


def _else_each(w: CodeWriter, items: Sequence[Any], one: Callable[[Any], None]) -> None:
    """Closes a fast branch: `} else {`, then the items one by one (the best-effort path)."""
    with w.block("} else {", "}"):
        for item in items:
            one(item)


def _verify(w: CodeWriter, s: Struct, inlined: set[str]) -> None:
    t = qualified(s.qualified)
    used = bool(s.base or s.fields)
    w.line(f"{reader_inline(s, inlined)} bool FBody<{t}>::verify(FinalDecoder& {'d' if used else '/*d*/'})")
    with w.block("{", "}"):
        if s.base:
            with w.block(f"if (!verify_body<{qualified(s.base)}>(d))"):
                w.line("return false;")

        def one(f: Field) -> None:
            with w.block(f"if (!FCodec<{cpp_type(f.type)}>::verify(d))"):
                w.line(f'return d.fail_in("{s.qualified}", "{f.name}");')

        for group in _groups(s):
            if len(group) == 1:
                one(group[0])
                continue
            w.line(f"if (FBE_LIKELY(d.remaining() >= {_run_size(group)})) {{")
            with w.indented():
                w.line(f"d.pos += {_run_size(group)};")
            _else_each(w, group, one)
        w.line("return true;")
    w.blank()
