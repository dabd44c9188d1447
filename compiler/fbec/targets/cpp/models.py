"""`<package>_models.h` and `<package>_final_models.h`: the versioned model (docs/format.md 3) and
the final (compact) model (docs/format.md 4), one walk over the plan's structs each (`generate`).

The versioned model: per struct, a specialisation of the runtime's `FBE::VBody<T>` with its constants
(`cost`: what a value costs the decode budget, docs/limits.md 3) and its table `fields` (each own field's
data member, offset from the IR and name), over which its base, the runtime's `detail::VFields<T, inlined>`,
writes, reads and verifies: `extra`, the bytes of out-of-line data, `write`, the field slots in allocation
order (docs/format.md 3.5), `read`, each field at its offset (docs/format.md 3.6; a run of scalars loaded
before any is stored), and `verify`, the fields that can fail, in order (docs/format.md 5.1); read and
verify are FBE_INLINE for the structs `common.inlined_structs` picks.

A body shorter than the schema's (an older writer's) takes the runtime's out-of-line
`detail::read_older` or `verify_older` over `fields`, which charges the defaulted struct values
the body lacks (each field's default cost, in `fields` when not 0) and checks the budget first.
`verify` and `verify_older` take any decoder: the runtime's `Decoder`, or its `ExactDecoder`, which
charges every value exactly (the runtime's Model uses it when the decoder's count from above exceeds
the budget).
Inherited fields are one block, handled by the base struct's functions.
The model class `FBE::<package>::<Struct>Model<TBuffer = FBE::WriteBuffer>`
is the runtime's `FBE::ViewModel<T, TBuffer>`.

The final model: per struct, a specialisation of the runtime's `FBE::FBody<T>`, whose base
`detail::FFields<T, the data members...>` gives `size` and `write`, and whose functions walk the
plan's final steps, inherited fields first, in place: `read` (best effort: a field that cannot be read takes its
schema default, the runtime's `detail::read_or_default`; the whole struct again out of line through
`detail::FFields::read_each` where its fast path fails) and `verify` (of any decoder: the runtime's FinalDecoder, or
its ExactFinalDecoder, which charges every value exactly), with `cost`, what
a value costs the decode budget; a run of fixed-size fields (the plan's `Run`)
is claimed with one bounds check and read at its offsets. A struct of fixed
size (scalars and such structs only, `fixed_size`) is read as a vector's element by the unchecked
`read_fixed` of `detail::FFields`. The model class is
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
    arguments,
    cpp_type,
    fail_in,
    field_ident,
    guard,
    header_file,
    imported,
    inlined_structs,
    model_ident,
    namespace,
    qualified,
    reader_inline,
    specialisation,
)
from .names import escape

# Per model: the file's header (what it holds, the runtime's header, the package's own headers, the
# imports' suffix), and the doc comment and runtime base of the model class.
MODELS = {False: ("Versioned (FBE) model", "versioned.h", ("", "_field_models"), "_models",
                  ("Versioned model of {}: serialize(), deserialize(), verify(), and the",
                   "field models of the root (`model`, create_begin(), create_end())."), "ViewModel"),
          True: ("Final (compact) model", "final.h", ("",), "_final_models",
                 ("Final model of {}: serialize(), deserialize(), verify().",), "FinalModel")}


def generate(schema: Schema, package: Package, options: Options, final: bool) -> str:
    what, runtime, own, suffix, doc, base = MODELS[final]
    w = header_file(options, package, f"{what} of the package '{package.name}'.", [f"<fbe/{runtime}>"],
                    [f'"{package.name}{header}.h"' for header in own] + imported(schema, package, suffix))
    plans = [plan.of(schema).struct(s.qualified) for s in package.structs]
    m = Walk(schema, inlined_structs(schema, package))
    declaration, parts = PARTS[final]
    with namespace(w, "FBE"):
        w.blank()
        for p in plans:
            declaration(w, m, p)
        for p in plans:
            for part in parts:
                part(w, m, p)
        with namespace(w, escape(package.name)):
            w.blank()
            for name in (p.struct.qualified for p in plans):
                for line in doc:
                    w.line("//! " + line.format(name))
                w.line("template <class TBuffer = FBE::WriteBuffer>")
                w.line(f"class {model_ident(name, final)} : public FBE::{base}<{qualified(name)}, TBuffer> {{}};")
                w.blank()
        w.blank()
    return w.text()


def _declaration(w: CppWriter, m: Walk, p: StructPlan) -> None:
    s = p.struct
    t = qualified(s.qualified)
    comment = f"{s.qualified}: type {s.type_id}, body {s.body_size} bytes"
    # extra, write and verify (FBE_INLINE when inlined): the runtime's detail::VFields over `fields`.
    # fixed_fields: no field (inherited ones included) points out of the body, so a vector of such structs
    # may take VSequence's packed path
    inlined = str(s.qualified in m.inlined).lower()
    with specialisation(w, f"VBody<{t}> : detail::VFields<{t}, {inlined}>", comment, [
            ("uint32_t type_id", s.type_id), ("uint32_t body_size", s.body_size), ("bool fixed_fields", p.fixed),
            ("uint64_t cost", s.decode_cost)]):
        if s.base:
            w.line(f"using base = {qualified(s.base)};")
        w.line(f'static constexpr const char* name = "{s.qualified}";')
        # each field's default cost (when not 0): what an older writer's body that lacks it pays for
        arguments(w, "static constexpr auto fields = std::make_tuple(",
                  [f'FBE::detail::slot(&{t}::{field_ident(f.field)}, {f.field.offset}, "{f.name}"'
                   + (f", {f.default_cost})" if f.default_cost else ")") for f in p.own_fields], ";")


class Walk:
    """A model file's walk: the plan, the structs whose readers are inlined (common.inlined_structs),
    and which steps the fast path of `read` takes: scalars and runs of them, strings, bytes,
    optionals and vectors (not of bool) of those and structs made of them (never recursive ones):
    what a well-formed buffer holds can be checked once for the fixed part and once per length.
    The plan gives the fewest bytes after each step (what a fast reader leaves for the steps that
    follow) and the levels a value holds."""

    def __init__(self, schema: Schema, inlined: set[str] | None = None) -> None:
        self.plan = plan.of(schema)
        self.inlined = inlined or set()
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


def _segments(p: StructPlan, m: Walk) -> list[list[Step]]:
    """The steps in order, consecutive ones the fast path can read together."""
    return [list(group) for _, group in groupby(p.final_steps, m.step_fast)]


def _fast_readers(p: StructPlan, m: Walk) -> list[tuple[str, list[Step]]]:
    """(name, steps) of the fast readers of a struct: `read_fast` over the whole struct when it
    can be read fast, else one per segment of two steps or more that the fast path reads (a run
    alone is one bounds check anyway)."""
    if m.struct_fast(p.struct.qualified):
        return [("read_fast", list(p.final_steps))]
    segments = [seg for seg in _segments(p, m) if len(seg) > 1 and m.step_fast(seg[0])]
    return [(f"read_fast_{_fields(seg)[0].name}_to_{_fields(seg)[-1].name}", seg) for seg in segments]


def _declaration_final(w: CppWriter, m: Walk, p: StructPlan) -> None:
    s = p.struct
    t = qualified(s.qualified)
    # size, write and (fixed_size not 0) read_fixed: the runtime's detail::FFields over the data members
    members = "".join(f", {_member(f)}" for f in p.fields)
    with specialisation(w, f"FBody<{t}> : detail::FFields<{t}{members}>", f"{s.qualified}: type {s.type_id}", [
            ("uint32_t type_id", s.type_id), ("bool inlined", s.qualified in m.inlined),
            ("std::size_t fixed_size", m.fixed_size(p)), ("std::size_t min_size", s.final_min_size),
            ("uint64_t cost", s.decode_cost)]):
        w.line(f"static bool read(FinalDecoder& d, {t}& value);")
        for name, _ in _fast_readers(p, m):
            w.line(f"static bool {name}(const uint8_t*& p, const uint8_t* end, std::size_t rest, {t}& value);")
        w.line("template <class D>")
        w.line("static bool verify(D& d);")


def _read_run(w: CppWriter, run: Run) -> None:
    """The fields of a run, read without checks one after the other from p (the runtime's detail::read_run)."""
    w.line(f"detail::read_run<{', '.join(_member(f) for f in run.fields)}>(p, value);")


def _member(f: FieldPlan) -> str:
    """A field's data member as a pointer, in the struct that declares it (`&::proto::Order::id`)."""
    return f"&{qualified(f.field.owner)}::{field_ident(f.field)}"


def _fast_reader(w: CppWriter, m: Walk, p: StructPlan, name: str, steps: list[Step]) -> None:
    """A fast reader: reads the steps at `p`, which must leave `rest` bytes (and the fewest bytes
    of the fields after the steps) before `end`, and requires `end - p` >= `rest` + the steps'
    fewest bytes and those of the fields after them: scalars and runs need no check and each
    length one, against what the fields after it need at least. False on any problem (nothing
    recorded)."""
    s = p.struct
    t = qualified(s.qualified)
    with w.function(f"{reader_inline(s, m.inlined)} bool FBody<{t}>::{name}(const uint8_t*& p, const uint8_t* end, "
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
                reader = f"FBody<{qualified(step.type.name)}>" if isinstance(step.type, StructRef) else \
                    f"FCodec<{cpp_type(step.type)}>"
                guard(w, f"!{reader}::read_fast(p, end, {after}, value.{field_ident(step.field)})")
        w.line("return true;")


def _read_final(w: CppWriter, m: Walk, p: StructPlan) -> None:
    s = p.struct
    t = qualified(s.qualified)
    readers = _fast_readers(p, m)
    for reader, steps in readers:
        _fast_reader(w, m, p, reader, steps)

    def one(f: FieldPlan) -> None:     # (the field's default when it cannot be read)
        w.line(f"ok &= detail::read_or_default<{_member(f)}>(d, value);")

    def fast_condition(name: str, steps: list[Step], declare: bool) -> str:
        """Writes what the fast reader's condition needs; returns the if that opens its branch."""
        checks = [f"d.remaining() >= {'min_size' if name == 'read_fast' else steps[0].min_from}"]
        levels = m.levels(steps)
        if levels:
            w.line("// (It does not count nesting: taken where the nested structs stay within the depth limit.)")
            checks.append(f"d.depth_left >= {levels}u")
        w.line(f"{'const uint8_t* ' if declare else ''}p = d.data + d.pos;")
        checks.append(f"{name}(p, d.data + d.size, 0, value)")
        return f"if (FBE_LIKELY({' && '.join(checks)})) {{"

    with w.function(f"{reader_inline(s, m.inlined)} bool FBody<{t}>::read(FinalDecoder& d, {t}& value)"):
        if not p.fields:
            w.line("return true;")
        elif readers and readers[0][0] == "read_fast":
            w.line("// The fast path; if anything does not fit, every field is read again, best effort, out of line.")
            with w.block(fast_condition("read_fast", readers[0][1], True), "}"):
                w.line("d.pos = std::size_t(p - d.data);")
                w.line("return true;")
            w.line(apart("FinalDecoder", "read_each(c, value)"))
        else:
            w.line("bool ok = true;")
            declared = False
            for segment in _segments(p, m):
                name = next((n for n, steps in readers if steps == segment), None)
                if name:
                    names = [f.name for f in _fields(segment)]
                    fields = ", ".join(names) if len(names) <= 6 else f"{names[0]} to {names[-1]}"
                    w.line(f"// {fields}: the fast path, or if anything does not fit, one by one, best effort.")
                    with w.block(fast_condition(name, segment, not declared)):
                        w.line("d.pos = std::size_t(p - d.data);")
                    declared = True
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


def _else_each(w: CppWriter, items: Sequence[Any], one: Callable[[Any], None]) -> None:
    """Closes a fast branch: `} else {`, then the items one by one (the best-effort path)."""
    with w.block("} else {", "}"):
        for item in items:
            one(item)


def _verify_final(w: CppWriter, m: Walk, p: StructPlan) -> None:
    s = p.struct
    t = qualified(s.qualified)
    w.line("template <class D>")
    with w.function(f"{reader_inline(s, m.inlined)} bool FBody<{t}>::verify(D& d)"):

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


# Per model: the declaration of a struct's body, then the parts that define its functions.
Part = Callable[[CppWriter, Walk, StructPlan], None]
PARTS: dict[bool, tuple[Part, tuple[Part, ...]]] = {
    False: (_declaration, ()),
    True: (_declaration_final, (_read_final, _verify_final)),
}
