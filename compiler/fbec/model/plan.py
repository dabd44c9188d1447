"""The plan: how every struct is written and read, decided once from the IR (docs/ir.md, "The plan").

`facts.py` completes the IR with what follows from the types; the plan arranges it the way a
generator walks a struct, for both models:

* the versioned body: every field's slot in order (`FieldPlan`), the bytes a body must have to
  hold it (`end`: an older writer's shorter body lacks it), what its default costs the decode
  budget and what the defaults of it and every field after it cost (`missing_cost`: charged
  when a body ends before it);
* the final model: the fields in order, each run of two or more fixed-size fields as one
  `Run`, claimed with one bounds check and read at its offsets within the run;
* the writers' depth rule: whether a struct's nesting is bounded (its writers count nothing),
  whether its readers count levels at all, the levels a value of a type holds, and which structs
  a writer's depth check walks.

A target prints the plan: it computes no size, offset, cost, run or walk of its own
(tests/compiler/test_toolkit.py fails when one does). `fbec --ir` carries the plan of every
struct (`plan_json`), so a generator outside the compiler prints the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from . import fingerprint as fingerprints
from . import ir


@dataclass(frozen=True)
class FieldPlan:
    """One field of a struct (of `all_fields`, inherited ones first) as its readers and writers see it."""
    field: ir.Field
    inherited: bool       # declared by a base struct
    end: int              # versioned: the body bytes that hold the slot (offset + slot size); a body of
                          # fewer bytes (an older writer's) lacks the field
    default_cost: int     # what the field's default costs a reader beyond the struct's own charge (the
                          # default struct values it holds): a JSON member that is absent
    missing_cost: int     # the default_cost of this field and every field after it: what a versioned
                          # body that ends before `end` costs in defaults
    min_from: int         # final: the fewest bytes of this field and every field after it
    min_after: int        # final: the fewest bytes of the fields after it (what a reader of this one
                          # must leave in the buffer)

    @property
    def name(self) -> str:
        return self.field.name

    @property
    def type(self) -> ir.Type:
        return self.field.type

    @property
    def offset(self) -> int:
        """The slot's position in the versioned body (from its start, the header included)."""
        return self.field.offset


@dataclass(frozen=True)
class Run:
    """Two or more consecutive fixed-size fields (scalars and arrays of scalars) of the final model
    whose readers check nothing (not decimals, whose flags are checked: docs/format.md 2.4): a
    reader claims their bytes with one bounds check and reads each at its offset in the run."""
    fields: tuple[FieldPlan, ...]
    at: tuple[int, ...]       # each field's offset within the run
    size: int                 # bytes of the run (the same in both models)
    final_offset: int | None  # the run's offset in the final struct, when fixed
    description: str          # what a runtime reader names the first missing field from:
                              # name=size, or name=size*count for an array, comma separated

    @property
    def min_from(self) -> int:
        """The fewest final bytes of the run and every field after it."""
        return self.fields[0].min_from

    @property
    def min_after(self) -> int:
        """The fewest final bytes of the fields after the run."""
        return self.fields[-1].min_after


Step = FieldPlan | Run
"""What a final-model reader reads next: one field, or a run of fixed-size fields."""


@dataclass(frozen=True)
class StructPlan:
    struct: ir.Struct
    fields: tuple[FieldPlan, ...]   # all_fields, in order
    final_steps: tuple[Step, ...]   # the fields in order, runs of fixed-size fields as one step
    final_fixed_size: int           # the final bytes of the fields whose final size is fixed
    bounded: bool                   # its nesting has a bound (height not None): its writers count nothing
    nests: bool                     # it can hold a struct (height not 0): its readers count levels
    levels: int | None              # struct levels in a value, itself included (None: unbounded)

    @property
    def base_fields(self) -> tuple[FieldPlan, ...]:
        return tuple(f for f in self.fields if f.inherited)

    @property
    def own_fields(self) -> tuple[FieldPlan, ...]:
        return tuple(f for f in self.fields if not f.inherited)

    @property
    def older_cost(self) -> int:
        """What the defaults of a versioned body without even the base's fields cost: all of them."""
        return self.fields[0].missing_cost if self.fields else 0

    @property
    def final_claims(self) -> tuple[tuple[Step, ...], ...]:
        """The final steps grouped as a bounds-checked writer claims their bytes: each stretch of two
        or more steps whose sizes cost nothing to add up again (runs, fixed-size fields, strings and
        bytes: no walk of a struct, an optional or a collection) is claimed at once, with one check,
        and written into its claim without one; any other step is claimed alone."""
        out: list[tuple[Step, ...]] = []
        for cheap, group in groupby(self.final_steps, _sized_at_once):
            stretch = tuple(group)
            if cheap and len(stretch) > 1:
                out.append(stretch)
            else:
                out += [(step,) for step in stretch]
        return tuple(out)

    @property
    def fixed(self) -> bool:
        """No field (inherited ones included) points out of the versioned body, and none is a decimal
        (ir.is_checked): every field is read without a check of its own."""
        return all(ir.reads_unchecked(f.type) for f in self.fields)


def _sized_at_once(step: Step) -> bool:
    """A final step whose size is a constant, or a string's or bytes' length and 4."""
    return isinstance(step, Run) or ir.is_fixed(step.type) or ir.is_text(step.type)


def _field_plans(s: ir.Struct) -> tuple[FieldPlan, ...]:
    costs = [ir.default_cost(f.type) for f in s.all_fields]
    mins = [f.type.final_min_size for f in s.all_fields]
    return tuple(FieldPlan(f, f.owner != s.qualified, f.offset + f.type.size, costs[k], sum(costs[k:]),
                           sum(mins[k:]), sum(mins[k + 1:]))
                 for k, f in enumerate(s.all_fields))


def _description(f: ir.Field) -> str:
    t = f.type
    return f"{f.name}={t.element.size}*{t.length}" if isinstance(t, ir.Array) else f"{f.name}={t.size}"


def _elements_pay(t: ir.Type) -> bool:
    """Whether every element, key or value of a collection in `t` is a struct (charged as one) or
    takes bytes of its own, its decode share (docs/limits.md 3)."""
    if isinstance(t, ir.Sequence):
        parts = [t.element]
    elif isinstance(t, ir.Mapping):
        parts = [t.key, t.value]
    elif isinstance(t, (ir.Optional_, ir.Array)):
        return _elements_pay(t.element)
    else:
        return True
    return all((isinstance(e, ir.StructRef) or ir.decode_share(e) > 0) and _elements_pay(e) for e in parts)


def _final_steps(s: ir.Struct, fields: tuple[FieldPlan, ...]) -> tuple[Step, ...]:
    """The fields in order, the IR's runs of fixed-size fields (ir.Struct.runs) as one step each: a
    run split around its decimals, which are read on their own (ir.is_checked), and what is left of
    two fields or more."""
    starts = {r.fields[0]: r for r in s.runs if len(r.fields) > 1}
    out: list[Step] = []
    i = 0
    while i < len(fields):
        run = starts.get(fields[i].name)
        if run is None:
            out.append(fields[i])
            i += 1
            continue
        members = fields[i:i + len(run.fields)]
        assert tuple(m.name for m in members) == run.fields, run
        assert sum(m.type.final_min_size for m in members) == run.size, run
        for checked, group in groupby(members, lambda m: ir.is_checked(m.type)):
            part = list(group)
            if checked or len(part) == 1:
                out += part
                continue
            at = tuple(m.offset - part[0].offset for m in part)
            final_offset = None if run.final_offset is None else run.final_offset + part[0].offset - run.offset
            size = sum(m.type.final_min_size for m in part)
            out.append(Run(tuple(part), at, size, final_offset, ",".join(_description(m.field) for m in part)))
        i += len(members)
    return tuple(out)


class Plan:
    """The plan of every struct of a schema (`of(schema)` keeps one per schema)."""

    def __init__(self, schema: ir.Schema) -> None:
        self.schema = schema
        self._structs = {s.qualified: s for p in schema.packages for s in p.structs}
        self._plans: dict[str, StructPlan] = {}
        self._weights: dict[str, int | None] = {}
        self._fingerprints: dict[str, str] = {}

    def fingerprint(self, package: str) -> str:
        """The package's schema fingerprint (model/fingerprint.py), what `fbec fingerprint` prints: the
        constant a target writes into the package's code for the Kafka serdes (docs/kafka.md)."""
        if package not in self._fingerprints:
            self._fingerprints[package] = fingerprints.fingerprint(self.schema, package)
        return self._fingerprints[package]

    def struct(self, qualified: str) -> StructPlan:
        if qualified not in self._plans:
            s = self._structs[qualified]
            fields = _field_plans(s)
            self._plans[qualified] = StructPlan(
                s, fields, _final_steps(s, fields),
                sum(f.type.final_size or 0 for f in s.all_fields),
                s.height is not None, s.height != 0, None if s.height is None else 1 + s.height)
        return self._plans[qualified]

    def read_weight(self, qualified: str) -> int | None:
        """How much code a reader of the struct holds when every read below it is written out: 1 per
        scalar, 2 per string or bytes, 1 per optional and 2 per array, collection or struct value
        beside what its elements weigh, its base's fields included; None when it reaches a recursive
        struct (its reads cannot all be written out). A target inlines the reads of light structs."""
        if qualified not in self._weights:
            s = self._structs[qualified]
            self._weights[qualified] = None     # a cycle: the struct is recursive
            if not s.recursive:
                weights = [self._type_weight(f.type) for f in s.all_fields]
                if None not in weights:
                    self._weights[qualified] = sum(w for w in weights if w is not None)
        return self._weights[qualified]

    def _type_weight(self, t: ir.Type) -> int | None:
        if isinstance(t, ir.StructRef):
            w = self.read_weight(t.name)
            return None if w is None else 2 + w
        if isinstance(t, (ir.Primitive, ir.EnumRef)):
            return 2 if ir.is_text(t) else 1
        if isinstance(t, ir.Mapping):
            k, v = self._type_weight(t.key), self._type_weight(t.value)
            return None if k is None or v is None else 2 + k + v
        e = self._type_weight(t.element)
        return None if e is None else (1 if isinstance(t, ir.Optional_) else 2) + e

    def charges_within_bytes(self, qualified: str) -> bool:
        """Whether every value of the struct, read from final-model bytes, costs a reader at most the
        bytes it takes there (docs/limits.md 3): every struct it reaches has fields of its own that take
        bytes (their decode share 1 or more: one of none costs 1, or 32, beyond what they take), and every
        element, key or value of a collection it reaches is a struct or takes bytes of its own (an array of
        structs costs 1 and takes none of its own). Then a final root's budget of at least its size pays
        for everything read from it, and a reader may count the charges from above (C++ does)."""
        seen: set[str] = set()
        todo = [qualified]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            fields = self._structs[name].all_fields
            if sum(ir.decode_share(f.type) for f in fields) == 0 or not all(_elements_pay(f.type) for f in fields):
                return False
            todo += [r for f in fields for r in ir.struct_refs(f.type)]
        return True

    def levels(self, t: ir.Type) -> int | None:
        """Struct levels in a value of type `t` (a struct counts itself); None: unbounded."""
        return ir.type_height(t, lambda name: self._structs[name].height)

    def reached(self, package: ir.Package) -> list[ir.Struct]:
        """The package's structs, then every struct of another package they reach (a base, a
        field's type at any depth), in the order first met: what the package's code reads and
        writes (the Python native core's table)."""
        order = list(package.structs)
        seen = {s.qualified for s in order}
        for s in order:     # grows while it is walked
            for name in ([s.base] if s.base else []) + [n for f in s.all_fields for n in ir.struct_refs(f.type)]:
                if name not in seen:
                    seen.add(name)
                    order.append(self._structs[name])
        return order

    def depth_walk(self, package: str | None = None) -> list[ir.Struct]:
        """The structs a writer's depth check walks (docs/limits.md 1): those that can nest without a
        bound (height None) and every struct they hold, in schema order. With `package`, only that
        package's structs, reached within it: a walk that cannot enter another package's code
        checks a struct of it by its levels."""
        def mine(name: str) -> bool:
            return package is None or name.rpartition(".")[0] == package

        walked = {q for q, s in self._structs.items() if s.height is None and mine(q)}
        stack = list(walked)
        while stack:
            for f in self._structs[stack.pop()].all_fields:
                for ref in ir.struct_refs(f.type):
                    if mine(ref) and ref not in walked:
                        walked.add(ref)
                        stack.append(ref)
        return [s for s in self._structs.values() if s.qualified in walked]

    def writer_can_fail(self, t: ir.Type, may_repeat: Callable[[ir.Sequence | ir.Mapping], bool],
                        memo: dict[str, bool]) -> bool:
        """Whether a writer can refuse a value of type t, so that the generated writer stops after it
        and names the field: a struct that can nest without a bound (its depth is checked), or a set
        or map for which `may_repeat` holds (the language holds it in a container that can hold a key
        twice, checked on write: docs/limits.md 4), at any depth. `memo` keeps the answer per struct
        (for this `may_repeat`); a bounded struct is in no cycle, so the walk ends."""
        def can_fail(t: ir.Type) -> bool:
            if isinstance(t, ir.StructRef):
                if t.name not in memo:
                    s = self._structs[t.name]
                    memo[t.name] = s.height is None or any(can_fail(f.type) for f in s.all_fields)
                return memo[t.name]
            if isinstance(t, ir.Sequence):
                return may_repeat(t) or can_fail(t.element)
            if isinstance(t, ir.Mapping):
                return may_repeat(t) or can_fail(t.key) or can_fail(t.value)
            if isinstance(t, (ir.Optional_, ir.Array)):
                return can_fail(t.element)
            return False
        return can_fail(t)


_plans: dict[int, tuple[ir.Schema, Plan]] = {}


def of(schema: ir.Schema) -> Plan:
    """The plan of `schema`, made once (a generator and its parts ask for it again and again)."""
    kept = _plans.get(id(schema))
    if kept is None or kept[0] is not schema:
        if len(_plans) > 16:
            _plans.clear()
        kept = _plans[id(schema)] = (schema, Plan(schema))
    return kept[1]


# ---------------------------------------------------------------- fbec --ir

def step_json(step: Step) -> dict[str, Any]:
    if isinstance(step, FieldPlan):
        return {"field": step.name}
    return {"run": [f.name for f in step.fields], "at": list(step.at), "size": step.size,
            "final_offset": step.final_offset, "description": step.description}


def struct_plan_json(p: StructPlan) -> dict[str, Any]:
    return {
        "bounded": p.bounded, "nests": p.nests, "levels": p.levels,
        "fields": [{"name": f.name, "inherited": f.inherited, "end": f.end, "default_cost": f.default_cost,
                    "missing_cost": f.missing_cost, "min_from": f.min_from, "min_after": f.min_after}
                   for f in p.fields],
        "final_steps": [step_json(step) for step in p.final_steps],
        "final_claims": [len(claim) for claim in p.final_claims],
        "final_fixed_size": p.final_fixed_size,
    }


def package_plan_json(plan: Plan, package: ir.Package) -> dict[str, Any]:
    return {"depth_walk": [s.qualified for s in plan.depth_walk(package.name)]}
