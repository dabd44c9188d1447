"""`<package>_final_models.h`: the final (compact) model (docs/format.md 4).

Per struct, a specialisation of the runtime's `FBE::FBody<T>` whose
functions walk the plan's final steps, inherited fields first, in place:
`size`, `write`, `read` (best effort: a field that cannot be read takes its
schema default) and `verify` (of any decoder: the runtime's FinalDecoder, or
its ExactFinalDecoder, which charges every value exactly), with `cost`, what
a value costs the decode budget; a run of fixed-size fields (the plan's `Run`)
is claimed with one bounds check and read at its offsets. A struct of fixed
size (scalars and such structs only) also gets `read_fixed`, the unchecked
reader of its vector elements. The model class is
`FBE::<package>::<Struct>FinalModel<TBuffer = FBE::WriteBuffer>`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from fbec.model import ir, plan
from fbec.model.ir import Array, Optional_, Package, Primitive, Schema, StructRef, Type
from fbec.model.plan import FieldPlan, Run, Step, StructPlan
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
    w = model_header(schema, package, options, "Final (compact) model", "final.h", ("",), "_final_models")

    structs = [plan.of(schema).struct(s.qualified) for s in struct_order(package)]
    inlined = inlined_structs(schema, package)
    layout = Layout(schema)
    with namespace(w, "FBE"):
        w.blank()
        for p in structs:
            _declaration(w, p, p.struct.qualified in inlined, layout)
        for p in structs:
            _size(w, p)
            _write(w, p)
            _read(w, p, inlined, layout)
            _read_fixed(w, p, layout)
            _verify(w, p, inlined)
        with namespace(w, escape(package.name)):
            w.blank()
            for p in structs:
                s = p.struct
                t = qualified(s.qualified)
                w.line(f"//! Final model of {s.qualified}: serialize(), deserialize(), verify().")
                w.line("template <class TBuffer = FBE::WriteBuffer>")
                w.line(f"class {model_ident(s.qualified, True)} : public FBE::FinalModel<{t}, TBuffer> {{}};")
                w.blank()
        w.blank()
    return w.text()


class Layout:
    """Which steps the fast path of `read` takes: scalars and runs of them, strings, bytes,
    optionals and vectors (not of bool) of those and structs made of them (never recursive ones):
    what a well-formed buffer holds can be checked once for the fixed part and once per length. The plan gives the fewest
    bytes after each step (what a fast reader leaves for the steps that follow) and the levels
    a value holds."""

    def __init__(self, schema: Schema) -> None:
        self.plan = plan.of(schema)
        self._fast: dict[str, bool] = {}

    def fast(self, t: Type) -> bool:
        """A value of type `t` can be read by the fast path."""
        if ir.is_scalar(t) or isinstance(t, Primitive):
            return True
        if isinstance(t, StructRef):
            return self.struct_fast(t.name)
        if isinstance(t, Optional_):
            return self.fast(t.element)
        if isinstance(t, ir.Sequence) and t.kind == "vector" and t.element != ir.Primitive("bool"):
            return self.fast(t.element)     # FSequence::read_fast
        return False

    def struct_fast(self, name: str) -> bool:
        """The struct has a `read_fast`: it is not recursive, it takes bytes (one that takes none is charged
        to the decode budget, which only FStruct::read counts) and its fields can be read fast."""
        if name not in self._fast:
            p = self.plan.struct(name)
            self._fast[name] = False
            self._fast[name] = (not p.struct.recursive and p.struct.final_min_size > 0
                                and all(self.step_fast(step) for step in p.final_steps))
        return self._fast[name]

    def step_fast(self, step: Step) -> bool:
        return isinstance(step, Run) or self.fast(step.type)

    def fixed_size(self, p: StructPlan) -> int:
        """FBody's fixed_size: the final bytes of every value of a struct of fixed size, or 0 when
        they differ or a value holds a decimal, whose reader checks its flags (docs/format.md 2.4):
        such a struct has no unchecked read_fixed."""
        def holds_decimal(t: Type) -> bool:
            if isinstance(t, Array):
                return holds_decimal(t.element)
            if isinstance(t, StructRef):
                return any(holds_decimal(f.type) for f in self.plan.struct(t.name).fields)
            return ir.is_decimal(t)
        return 0 if not p.struct.final_size or any(holds_decimal(f.type) for f in p.fields) else p.struct.final_size

    def levels(self, steps: Sequence[Step]) -> int:
        """Struct levels below the steps (FStruct counts each against the reader's max_depth). Fast
        steps never reach a recursive struct: the levels are bounded."""
        levels = [self.plan.levels(f.type) for f in _fields(steps)]
        assert None not in levels, "a fast reader over a recursive struct"
        return max((n for n in levels if n is not None), default=0)


def _fields(steps: Sequence[Step]) -> list[FieldPlan]:
    return [f for step in steps for f in (step.fields if isinstance(step, Run) else (step,))]


def _segments(p: StructPlan, layout: Layout) -> list[list[Step]]:
    """The steps in order, consecutive ones the fast path can read together."""
    return [list(group) for _, group in groupby(p.final_steps, layout.step_fast)]


def _fast_readers(p: StructPlan, layout: Layout) -> list[tuple[str, list[Step]]]:
    """(name, steps) of the fast readers of a struct: `read_fast` over the whole struct when it
    can be read fast, else one per segment of two steps or more that the fast path reads (a run
    alone is one bounds check anyway)."""
    if layout.struct_fast(p.struct.qualified):
        return [("read_fast", list(p.final_steps))]
    segments = [seg for seg in _segments(p, layout) if len(seg) > 1 and layout.step_fast(seg[0])]
    return [(f"read_fast_{_fields(seg)[0].name}_to_{_fields(seg)[-1].name}", seg) for seg in segments]


def _declaration(w: CppWriter, p: StructPlan, inlined: bool, layout: Layout) -> None:
    s = p.struct
    t = qualified(s.qualified)
    with specialisation(w, "FBody", s, f"type {s.type_id}"):
        w.line(f"static constexpr bool inlined = {'true' if inlined else 'false'};")
        w.line(f"static constexpr std::size_t fixed_size = {layout.fixed_size(p)};")
        w.line(f"static constexpr std::size_t min_size = {s.final_min_size};")
        w.line(f"static constexpr uint64_t cost = {s.decode_cost};")
        w.line(f"static std::size_t size(const {t}& value) noexcept;")
        w.line(f"static uint8_t* write(uint8_t* p, const {t}& value) noexcept;")
        w.line(f"static bool read(FinalDecoder& d, {t}& value);")
        if layout.fixed_size(p):
            w.line(f"static void read_fixed(const uint8_t* p, {t}& value) noexcept;")
        for name, _ in _fast_readers(p, layout):
            w.line(f"static bool {name}(const uint8_t*& p, const uint8_t* end, std::size_t rest, {t}& value);")
        if layout.struct_fast(s.qualified):
            w.line(f"static bool read_fields(FinalDecoder& d, {t}& value);")
        w.line("template <class D>")
        w.line("static bool verify(D& d);")


def _size(w: CppWriter, p: StructPlan) -> None:
    t = qualified(p.struct.qualified)
    terms = [f"FCodec<{cpp_type(f.type)}>::size(value.{field_ident(f.field)})"
             for f in p.fields if f.type.final_size is None]
    if p.final_fixed_size or not terms:
        terms.insert(0, str(p.final_fixed_size))
    with w.function(f"inline std::size_t FBody<{t}>::size(const {t}& value) noexcept"):
        return_sum(w, terms)


def _write(w: CppWriter, p: StructPlan) -> None:
    t = qualified(p.struct.qualified)
    with w.function(f"inline uint8_t* FBody<{t}>::write(uint8_t* p, const {t}& value) noexcept"):
        for f in p.fields:
            w.line(f"p = FCodec<{cpp_type(f.type)}>::write(p, value.{field_ident(f.field)});")
        w.line("return p;")


def _read_run(w: CppWriter, run: Run) -> None:
    """The fields of a run, read without checks at their offsets from p (its scalars: read_scalars)."""
    for f, at in zip(run.fields, run.at):
        if not ir.is_scalar(f.type):
            w.line(f"FCodec<{cpp_type(f.type)}>::read_fixed(p{f' + {at}' if at else ''}, value.{field_ident(f.field)});")
    read_scalars(w, [(f.field, f"p + {at}" if at else "p") for f, at in zip(run.fields, run.at) if ir.is_scalar(f.type)])


def _fast_reader(w: CppWriter, p: StructPlan, inlined: set[str], name: str, steps: list[Step]) -> None:
    """A fast reader: reads the steps at `p`, which must leave `rest` bytes (and the fewest bytes
    of the fields after the steps) before `end`, and requires `end - p` >= `rest` + the steps'
    fewest bytes and those of the fields after them: scalars and runs need no check and each
    length one, against what the fields after it need at least. False on any problem (nothing
    recorded)."""
    s = p.struct
    t = qualified(s.qualified)
    with w.function(f"{reader_inline(s, inlined)} bool FBody<{t}>::{name}(const uint8_t*& p, const uint8_t* end, "
                    f"std::size_t rest, {t}& value)"):
        for step in steps:
            if isinstance(step, Run):
                _read_run(w, step)
                w.line(f"p += {step.size};")
            elif ir.reads_unchecked(step.type) and ir.is_scalar(step.type):
                w.line(f"value.{field_ident(step.field)} = Scalar<{cpp_type(step.type)}>::get(p);")
                w.line(f"p += {step.type.final_size};")
            else:
                after = f"rest + {step.min_after}" if step.min_after else "rest"
                if isinstance(step.type, StructRef):
                    call = f"FBody<{qualified(step.type.name)}>::read_fast(p, end, {after}, value.{field_ident(step.field)})"
                else:
                    call = f"FCodec<{cpp_type(step.type)}>::read_fast(p, end, {after}, value.{field_ident(step.field)})"
                guard(w, f"!{call}")
        w.line("return true;")


def _read(w: CppWriter, p: StructPlan, inlined: set[str], layout: Layout) -> None:
    s = p.struct
    t = qualified(s.qualified)
    readers = _fast_readers(p, layout)
    for reader, steps in readers:
        _fast_reader(w, p, inlined, reader, steps)

    def one(f: FieldPlan) -> None:
        with w.block(f"if (!FCodec<{cpp_type(f.type)}>::read(d, value.{field_ident(f.field)})) {{", "}"):
            w.line(assign_default(f"value.{field_ident(f.field)}", f.field))
            w.line("ok = false;")

    def fast_condition(name: str, steps: list[Step], declare: bool) -> None:
        checks = [f"d.remaining() >= {'min_size' if name == 'read_fast' else steps[0].min_from}"]
        levels = layout.levels(steps)
        if levels:
            w.line("// (It does not count nesting: taken where the nested structs stay within the depth limit.)")
            checks.append(f"d.depth_left >= {levels}u")
        w.line(f"{'const uint8_t* ' if declare else ''}p = d.data + d.pos;")
        checks.append(f"{name}(p, d.data + d.size, 0, value)")
        w.line(f"if (FBE_LIKELY({' && '.join(checks)})) {{")

    with w.function(f"{reader_inline(s, inlined)} bool FBody<{t}>::read(FinalDecoder& d, {t}& value)"):
        if not p.fields:
            w.line("return true;")
        elif readers and readers[0][0] == "read_fast":
            w.line("// The fast path; if anything does not fit, every field is read again, best effort, out of line.")
            fast_condition("read_fast", readers[0][1], True)
            with w.indented():
                w.line("d.pos = std::size_t(p - d.data);")
                w.line("return true;")
            w.line("}")
            w.line(apart("FinalDecoder", "read_fields(c, value)"))
        else:
            w.line("bool ok = true;")
            declared = False
            for segment in _segments(p, layout):
                name = next((n for n, steps in readers if steps == segment), None)
                if name:
                    names = [f.name for f in _fields(segment)]
                    fields = ", ".join(names) if len(names) <= 6 else f"{names[0]} to {names[-1]}"
                    w.line(f"// {fields}: the fast path, or if anything does not fit, one by one, best effort.")
                    fast_condition(name, segment, not declared)
                    declared = True
                    with w.indented():
                        w.line("d.pos = std::size_t(p - d.data);")
                    _else_each(w, _fields(segment), one)
                    continue
                for step in segment:
                    if isinstance(step, FieldPlan):
                        one(step)
                        continue
                    with w.block(f"if (FBE_LIKELY(d.remaining() >= {step.size})) {{"):
                        w.line(f"{'' if declared else 'const uint8_t* '}p = d.data + d.pos;")
                        _read_run(w, step)
                        w.line(f"d.pos += {step.size};")
                    _else_each(w, step.fields, one)
            w.line("return ok;")
    if readers and readers[0][0] == "read_fast":
        with w.function(f"FBE_NOINLINE inline bool FBody<{t}>::read_fields(FinalDecoder& d, {t}& value)"):
            w.line("bool ok = true;")
            for f in p.fields:
                one(f)
            w.line("return ok;")


def _read_fixed(w: CppWriter, p: StructPlan, layout: Layout) -> None:
    """The fields of a fixed-size struct at their offsets, without checks:
    the vector that holds it has checked its elements are in the buffer."""
    s = p.struct
    if not layout.fixed_size(p):
        return
    t = qualified(s.qualified)
    with w.function(f"FBE_INLINE void FBody<{t}>::read_fixed(const uint8_t* p, {t}& value) noexcept"):
        for f in p.fields:
            if f.type.final_size:   # an empty struct or array (0 bytes) has nothing to read
                w.line(f"FCodec<{cpp_type(f.type)}>::read_fixed(p + {f.field.final_offset}, value.{field_ident(f.field)});")


def _else_each(w: CppWriter, items: Sequence[Any], one: Callable[[Any], None]) -> None:
    """Closes a fast branch: `} else {`, then the items one by one (the best-effort path)."""
    with w.block("} else {", "}"):
        for item in items:
            one(item)


def _verify(w: CppWriter, p: StructPlan, inlined: set[str]) -> None:
    s = p.struct
    t = qualified(s.qualified)
    w.line("template <class D>")
    with w.function(f"{reader_inline(s, inlined)} bool FBody<{t}>::verify(D& d)"):

        def one(f: FieldPlan) -> None:
            guard(w, f"!FCodec<{cpp_type(f.type)}>::verify(d)", fail_in(f.field))

        for step in p.final_steps:
            if isinstance(step, FieldPlan):
                one(step)
                continue
            with w.block(f"if (FBE_LIKELY(d.remaining() >= {step.size})) {{"):
                w.line(f"d.pos += {step.size};")
            _else_each(w, step.fields, one)
        w.line("return true;")
