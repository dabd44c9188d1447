"""The binary models of fbec --go: straight-line field code at the IR's offsets on the runtime's
fbe.Writer and fbe.Reader (docs/format.md 3 and 4, docs/limits.md)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run, StructPlan
from fbec.targets.base import SLOT_KINDS, CodeWriter, Locals, Options
from fbec.targets.go.context import GO_PRIMITIVES, Context, compare, compare_func, decl, declared, entered, leave, zero
from fbec.targets.go.nesting import check, counting

# Primitive -> the fbe.Writer Put/Append and fbe.Reader method suffix of its slot.
SLOT = {**SLOT_KINDS, "uuid": "UUID"}


def arg1(expr: str) -> str:
    """A sum of terms as gofmt prints it as a call's only argument (`b + 8`, `e + i*4`)."""
    terms = expr.split("+")
    if len(terms) == 1:
        return expr.replace("*", " * ") if "*" in expr else expr
    return " + ".join(terms)


def sorted_keys(w: CodeWriter, c: Context, t: ir.Mapping, value: str, field: str, writer: str, names: Locals) -> str:
    """The keys of the Go map value in the order they are written (fbe.SortedKeys). A map keyed by
    decimals can hold one value twice (1.5 and 1.50 built from their parts): its writer sorts the
    keys first and refuses two of the same value, naming their places in that order
    (docs/limits.md 4)."""
    keys = f"{c.rt('SortedKeys')}({value}, {compare(c, t.key)})"
    if not ir.is_decimal(t.key):
        return keys
    ks = names("ks")
    w.line(f"{ks} := {keys}")
    leave(w, f"i, k := {c.rt('RepeatedDecimal')}({ks}); k >= 0", [], f'{writer}.SameKeys("{field}", i, k)')
    return ks


def map_key(w: CodeWriter, t: ir.Mapping, k: str) -> None:
    """A decimal key read into a Go map is held normalized (fbe.Decimal.Normalize), so the map
    holds each value once and a key read as 1.50 is found as 1.5 (docs/limits.md 4)."""
    if ir.is_decimal(t.key):
        w.line(f"{k} = {k}.Normalize()")


# ---------------------------------------------------------------- versioned

def write_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, value: str, field: str,
                names: Locals, unwind: list[str]) -> None:
    """Write value of type t: into the versioned model's slot `at` = (base, slot), its absolute position
    and what its offsets count from, or appended in the final model (`at` None, docs/format.md 4.2); a
    value that cannot be written stops the writer (docs/limits.md 1 and 4), naming the path (unwind)."""
    def put(kind: str, arg: str) -> None:
        if at is None:
            w.line(f"w.Append{kind}({arg})")
        else:
            w.line(f"w.{kind}({at[0]}, {at[1]}, {arg})" if kind in ("String", "Blob")
                   else f"w.Put{kind}({at[1]}, {arg})")

    if isinstance(t, (ir.Primitive, ir.EnumRef)):      # an enum as its wire type
        put(SLOT[ir.wire_name(t)], value if isinstance(t, ir.Primitive) else f"{GO_PRIMITIVES[t.wire]}({value})")
    elif isinstance(t, ir.StructRef):
        check(w, c, t, "w", value, unwind)
        w.line(f"({value}).FBEWriteFinal(w)" if at is None else f"({value}).FBEWrite(w, {at[0]}, {at[1]})")
        stops(w, c, t, "w", unwind)
    elif isinstance(t, ir.Optional_):
        if at is None:
            w.line(f"w.AppendBool({value} != nil)")
        with w.block(f"if {value} != nil {{", "}"):
            where = None
            if at is not None:
                s = names("s")
                w.line(f"{s} := w.Optional({at[0]}, {at[1]}, {t.element.size})")
                where = (s, s)
            inner_value = value if isinstance(t.element, ir.StructRef) else f"*{value}"
            write_value(w, c, t.element, where, inner_value, field, names, unwind)
    elif isinstance(t, ir.Array):
        i = names("i")
        with w.block(f"for {i} := range {value} {{", "}"):
            where = at and (at[0], f"{at[1]}+{i}*{t.element.size}")
            write_value(w, c, t.element, where, f"{value}[{i}]", field, names, [f"w.UnwindIndex({i})", *unwind])
    else:
        refuse_repeated(w, c, t, value, field, "w")
        value = in_order(w, c, t, value, names)
        keys = sorted_keys(w, c, t, value, field, "w", names) if isinstance(t, ir.Mapping) and c.comparable(t.key) \
            else ""
        item = t.item_size
        e, i = ("" if at is None else names("e")), names("i")
        w.line(f"w.AppendCount(len({value}))" if at is None
               else f"{e} := w.Vector({at[0]}, {at[1]}, len({value}), {item})")
        entry = [f"w.UnwindIndex({i})", *unwind]
        first = at and (at[0], f"{e}+{i}*{item}")       # an element's slot, or an entry's key's
        if isinstance(t, ir.Sequence):
            with w.block(f"for {i} := range {value} {{", "}"):
                write_value(w, c, t.element, first, f"{value}[{i}]", field, names, entry)
        elif keys:
            k, x = names("k"), names("x")
            loop_index = i if at is not None or can_fail(c, t.key) or can_fail(c, t.value) else "_"
            with w.block(f"for {loop_index}, {k} := range {keys} {{", "}"):
                w.line(f"{x} := {value}[{k}]")
                write_value(w, c, t.key, first, k, field, names, entry)
                write_value(w, c, t.value, at and (at[0], f"{e}+{i}*{item}+{t.key.size}"), x, field, names, entry)
        else:
            with w.block(f"for {i} := range {value} {{", "}"):
                write_value(w, c, t.key, first, f"{value}[{i}].Key", field, names, entry)
                write_value(w, c, t.value, at and (at[0], f"{e}+{i}*{item}+{t.key.size}"), f"{value}[{i}].Value",
                            field, names, entry)


def repeated_call(c: Context, t: ir.Sequence | ir.Mapping, value: str) -> str | None:
    """The call finding two elements of a set (a slice), or two keys of a map held as pairs, that
    are the same (fbe.Repeated and its kin: their indexes i < k, or -1, -1): elements Go compares
    with == in their wire order, others by their key (Context.key_func) in their key order
    (Context.order_func). None for what needs no check (not a set; a Go map holds each key once)
    or cannot have one (a key holding itself). Readers and writers share it (docs/limits.md 4)."""
    if isinstance(t, ir.Sequence):
        if t.kind != "set":
            return None
        if ir.is_decimal(t.element):
            return f"{c.rt('RepeatedDecimal')}({value})"
        if c.comparable(t.element):
            order = compare_func(c, t.element)
            if order is None:
                return f"{c.rt('Repeated')}({value})"
            return f"{c.rt('RepeatedFunc')}({value}, {order})"
        key, order = c.key_func(t.element), c.order_func(t.element)
        return None if key is None or order is None else f"{c.rt('RepeatedKey')}({value}, {key}, {order})"
    if c.comparable(t.key):
        return None
    key, order = c.key_func(t.key), c.order_func(t.key)
    return None if key is None or order is None else f"{c.rt('RepeatedPairKey')}({value}, {key}, {order})"


def refuse_repeated(w: CodeWriter, c: Context, t: ir.Sequence | ir.Mapping, value: str, field: str,
                    writer: str) -> None:
    """A writer's check that a set holds each element, or a map held as pairs each key, once: no
    reader reads it otherwise (docs/limits.md 4). The writer records the error and stops."""
    same = "Elements" if isinstance(t, ir.Sequence) else "Keys"
    repeated(w, c, t, value, "i", f'{writer}.Same{same}("{field}", i, k)')


def repeated(w: CodeWriter, c: Context, t: ir.Sequence | ir.Mapping, value: str, i: str, report: str) -> None:
    """`if i, k := <the runtime's test>; k >= 0 { report; return }`: elements or keys i and k of value
    are the same (nothing when t's values cannot repeat)."""
    call = repeated_call(c, t, value)
    if call is not None:
        leave(w, f"{i}, k := {call}; k >= 0", [], report)


def in_order(w: CodeWriter, c: Context, t: ir.Sequence | ir.Mapping, value: str, names: Locals) -> str:
    """A set, or a map held as pairs, in the order it is written: ascending by element or key, as
    std::set and std::map (docs/limits.md 7), whatever order the slice holds (fbe.Sorted and its kin:
    the slice itself when it is in order, else a sorted copy). Anything else as it is."""
    if isinstance(t, ir.Sequence) and t.kind == "set":
        order = f"{c.rt('Sorted')}({value}, {compare(c, t.element)})" if c.comparable(t.element) else \
            None if c.order_func(t.element) is None else f"{c.rt('SortedBy')}({value}, {c.order_func(t.element)})"
    elif isinstance(t, ir.Mapping) and t.kind == "map" and not c.comparable(t.key) and c.order_func(t.key):
        order = f"{c.rt('SortedPairs')}({value}, {c.order_func(t.key)})"
    else:
        return value
    if order is None:
        return value
    s = names("s")
    w.line(f"{s} := {order}")
    return s


def can_fail(c: Context, t: ir.Type) -> bool:
    """Whether writing a value of type t can fail, so that the writer stops after it and names the
    field (Writer.Unwind): the plan's writer_can_fail, with the sets and the maps held as pairs that
    refuse_repeated checks, and maps keyed by decimals (1.5 and 1.50 are one key)."""
    def may_repeat(s: ir.Sequence | ir.Mapping) -> bool:
        return repeated_call(c, s, "") is not None or isinstance(s, ir.Mapping) and ir.is_decimal(s.key)
    return c.plan.writer_can_fail(t, may_repeat, c.can_fail)


def stops(w: CodeWriter, c: Context, t: ir.Type, writer: str, unwind: list[str]) -> None:
    """After writing a struct value of type t that can fail: stop, naming the path on the way out
    (unwind: the writer's Unwind calls, innermost first)."""
    if can_fail(c, t):
        leave(w, f"{writer}.Failed()", unwind)


def paid_first(w: CodeWriter, c: Context, types: list[ir.Type], unwind: list[str],
               charge: Callable[[ir.StructRef, int], str]) -> None:
    """Before values of the struct types among types are made (a slice grown, an optional's pointer, a
    map's value), for each whose default is large (ir.Struct.large_default): if the budget left does
    not pay for that default, `charge(t, its cost)` (a binary reader checks the value without making it,
    FBEVerify<T>; JSON's spends the cost), which fails as its read would (docs/limits.md 3), and leave."""
    for t in types:
        if isinstance(t, ir.StructRef) and c.schema.struct(t.name).large_default:
            cost = c.schema.struct(t.name).default_cost
            leave(w, f"!r.Affords({cost})", unwind, charge(t, cost))


def fails(w: CodeWriter, unwind: list[str]) -> None:
    """Leave the reader function when a nested value failed, naming the path on the way out."""
    leave(w, "r.Failed()", unwind)


# ---------------------------------------------------------------- reading and verifying

def verify_name(c: Context, t: ir.StructRef, final: bool) -> str:
    """The generated verify function of a struct (qualified by its Go package when imported)."""
    return c.qualify(t.name, c.ident.function("FBEVerifyFinal" if final else "FBEVerify", t.name))


def kept(c: Context, t: ir.Type) -> bool:
    """Whether verify must build the value to check it: a set or map refuses a key twice, which
    takes the keys (such fields are read into a local, as deserialize reads them)."""
    if isinstance(t, ir.Sequence):
        return repeated_call(c, t, "") is not None or kept(c, t.element)
    if isinstance(t, ir.Mapping):
        return c.comparable(t.key) or repeated_call(c, t, "") is not None or kept(c, t.key) or kept(c, t.value)
    if isinstance(t, (ir.Optional_, ir.Array)):
        return kept(c, t.element)
    return False


def read_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, dst: str | None, field: str,
               names: Locals, unwind: list[str]) -> None:
    """Read a value into the lvalue dst, reusing what dst holds (an optional's pointer, a slice's
    array, a map): the versioned model's slot `at` = (base, slot), its absolute position and what
    its offsets count from, or the final model's value at the Reader's cursor (`at` None).
    With dst None, verify the value: the same Reader calls in the same order, without the value
    (docs/limits.md 4: verify accepts exactly what deserialize reads), the checks only (the Reader's
    Skip<Kind>); a value verify must build to check it (kept) is read into a local."""
    quoted = f'"{field}"'
    if dst is None and kept(c, t):
        dst = names("t")
        w.line(f"var {dst} {c.type(t)}")
    elif dst is None and at is not None and ir.reads_unchecked(t):
        return
    into, skip = ("", "Skip") if dst is None else (f"{dst} = ", "")

    def paid(e: ir.Type, where: tuple[str, str] | None, unwind_: list[str]) -> None:
        paid_first(w, c, [e], unwind_,
                   lambda s, _: f"{verify_name(c, s, where is None)}(r{where and ', ' + ', '.join(where) or ''})")

    if ir.is_text(t):
        old = f"{dst}, " if t.name == "bytes" and dst is not None else ""
        args = quoted if at is None else f"{at[0]}, {at[1]}, {quoted}"
        w.line(f"{into}r.{'' if at else 'Final'}{skip}{SLOT[t.name]}({old}{args})")
    elif isinstance(t, (ir.Primitive, ir.EnumRef)):
        decimal = ir.is_decimal(t)

        def value(pos: str) -> str:
            if decimal:     # the reader checks a decimal's flags (docs/format.md 2.4)
                return f"r.{skip}Decimal({pos}, {quoted})"
            get = f"r.{SLOT[ir.wire_name(t)]}({pos})"
            return get if isinstance(t, ir.Primitive) else f"{c.type(t)}({get})"

        if at is not None:
            w.line(into + value(at[1] if decimal else arg1(at[1])))
        elif dst is None and not decimal:
            w.line(f"r.Fixed({t.size}, {quoted})")
        else:
            p = names("p")
            with w.block(f"if {p} := r.Fixed({t.size}, {quoted}); {p} >= 0 {{", "}"):
                w.line(into + value(p))
    elif isinstance(t, ir.StructRef):
        args = "" if at is None else f", {at[0]}, {at[1]}"
        if dst is None:
            w.line(f"{verify_name(c, t, at is None)}(r{args})")
        else:
            w.line(f"{dst}.FBEReadFinal(r)" if at is None else f"{dst}.FBERead(r{args})")
        fails(w, unwind)
    elif isinstance(t, ir.Optional_):
        has = f"r.FinalHas({quoted})" if at is None else f"r.Optional({at[0]}, {at[1]}, {t.element.size}, {quoted})"
        if dst is None and at is not None and ir.reads_unchecked(t.element):
            w.line(has)
            return
        inner = dst if dst is None or isinstance(t.element, ir.StructRef) else f"*{dst}"
        where = None
        if at is not None:
            s, ok = names("s"), names("ok")
            has, where = f"{s}, {ok} := {has}; {ok}", (s, s)
        with w.block(f"if {has} {{", "}" if dst is None else "} else {"):
            if dst is not None:     # verify makes nothing, so pays for nothing
                paid(t.element, where, unwind)
                w.line(f"{dst} = {c.rt('Reuse')}({dst})")
            read_value(w, c, t.element, where, inner, field, names, unwind)
        if dst is not None:
            with w.block("", "}"):
                w.line(f"{dst} = nil")
    elif isinstance(t, ir.Array):
        i = names("i")
        where = at and (at[0], f"{at[1]}+{i}*{t.element.size}")
        for_range(w, i, dst or str(t.length), lambda body: read_value(
            body, c, t.element, where, dst and f"{dst}[{i}]", field, names, [f"r.UnwindIndex({i})", *unwind]))
    else:
        assert isinstance(t, (ir.Sequence, ir.Mapping)), t
        item = t.item_min_size if at is None else t.item_size
        count = (f"r.FinalCount({item}, {t.item_cost}, {quoted})" if at is None
                 else f"r.Vector({at[0]}, {at[1]}, {item}, {t.item_cost}, {quoted})")
        # verify of items whose readers check nothing: the count's check covers them (a final map's items
        # are sized one by one)
        unchecked = dst is None and (ir.reads_unchecked(t.element) if isinstance(t, ir.Sequence)
                                     else ir.reads_unchecked(t.key) and ir.reads_unchecked(t.value))
        if unchecked and at is not None:
            w.line(count)
            return
        e = "" if at is None else names("e")
        n, i = names("n"), names("i")
        w.line(f"{n} := {count}" if at is None else f"{e}, {n} := {count}")
        if unchecked and isinstance(t, ir.Sequence):
            # FinalCount bounded n by the bytes left, so the run of fixed-size elements is there.
            w.line(f"r.Fixed({n}*{t.element.size}, {quoted})")
            return
        inner_unwind = [f"r.UnwindIndex({i})", *unwind]
        key_at = f"{e}+{i}*{item}"       # the versioned slot of an element, or of an entry's key
        key_slot = at and (at[0], key_at)
        value_slot = (at and (at[0], f"{key_at}+{t.key.size}")) if isinstance(t, ir.Mapping) else None
        if dst is None:     # verify: each element, or each entry's key and value, checked at its slot
            parts = ([(t.element, key_slot)] if isinstance(t, ir.Sequence)
                     else [(t.key, key_slot), (t.value, value_slot)])

            def checked(body: CodeWriter) -> None:
                for part, where in parts:
                    read_value(body, c, part, where, None, field, names, inner_unwind)
            for_range(w, i, n, checked)
            return
        if isinstance(t, ir.Sequence):
            # scalars sized at once (n is bounded by the bytes left), structs grown one by one as they are
            # read (fbe.Grow): a Go struct can be much larger than its slot, and a bad one stops the read
            w.line(f"{dst} = " + (f"{dst}[:0]" if isinstance(t.element, ir.StructRef)
                                  else f"{c.rt('Resize')}({dst}, {n})"))
            with w.block(f"for {i} := range {n} {{", "}"):
                if isinstance(t.element, ir.StructRef):
                    paid(t.element, key_slot, inner_unwind)
                    w.line(f"{dst} = {c.rt('Grow')}({dst})")
                read_value(w, c, t.element, key_slot, f"{dst}[{i}]", field, names, inner_unwind)
        else:
            # a value whose default is large is made once the budget pays for it, after its key
            late = isinstance(t.value, ir.StructRef) and c.schema.struct(t.value.name).large_default
            if c.comparable(t.key):
                w.line(f"{c.rt('Empty')}(&{dst}, {n})")
                k, x = names("k"), names("x")
                loop = f"for {i} := 0; {i} < {n}; {i}++ {{" if at is None else f"for {i} := range {n} {{"
                with w.block(loop, "}"):     # final: i may serve only the error path
                    w.line(f"var {k} {c.type(t.key)}")
                    read_value(w, c, t.key, key_slot, k, field, names, inner_unwind)
                    map_key(w, t, k)
                    paid(t.value, value_slot, inner_unwind)
                    w.line(f"var {x} {c.type(t.value)}")
                    read_value(w, c, t.value, value_slot, x, field, names, inner_unwind)
                    leave(w, f"_, dup := {dst}[{k}]; dup", [],
                          f'r.DuplicateKey("{field}", {"r.Pos" if at is None else key_at})')
                    w.line(f"{dst}[{k}] = {x}")
            else:
                # a map held as pairs (keys Go cannot compare: bytes, structs), a slice grown one pair at a
                # time (fbe.Grow): no pair is made before the bytes before it have paid (docs/limits.md 3)
                w.line(f"{dst} = {dst}[:0]")
                with w.block(f"for {i} := range {n} {{", "}"):
                    paid(t.key, key_slot, inner_unwind)
                    k = names("k") if late else f"{dst}[{i}].Key"
                    if late:
                        w.line(f"var {k} {c.type(t.key)}")
                        read_value(w, c, t.key, key_slot, k, field, names, inner_unwind)
                        paid(t.value, value_slot, inner_unwind)
                    w.line(f"{dst} = {c.rt('Grow')}({dst})")
                    if late:
                        w.line(f"{dst}[{i}].Key = {k}")
                    else:
                        read_value(w, c, t.key, key_slot, k, field, names, inner_unwind)
                    read_value(w, c, t.value, value_slot, f"{dst}[{i}].Value", field, names, inner_unwind)
        # a set read with an element twice, or a map held as pairs with a key twice (docs/limits.md: no
        # reader keeps "the first" or "the last"); a Go map checks as it is filled
        repeated(w, c, t, dst, "_", f'r.DuplicateKey("{field}", {"r.Pos" if at is None else f"{e}-4"})')


def for_range(w: CodeWriter, i: str, n: str, body: Callable[[CodeWriter], None]) -> None:
    """`for i := range n` around the lines body writes (`for range n` when they do not use i: a final
    model's items whose checks name no index; a versioned item's slot always does)."""
    inner = CodeWriter(Options(tabs=True))
    body(inner)
    text = inner.text().strip("\n")
    with w.block(f"for {i} := range {n} {{" if i in _words(text) else f"for range {n} {{", "}"):
        w.lines(text)



def write_body_reader(w: CodeWriter, c: Context, s: ir.Struct, names: Locals, doc: list[str], opening: str,
                      read: bool) -> None:
    """FBERead or, not read, FBEVerify<Name> (doc, opening): the struct's entry at the slot, then the fields
    of its versioned body at b of n bytes as an older writer may have left it (read_value each): the base's
    when the body holds them, then each own field while it does; what is missing is charged to the decode
    budget (the plan's older_cost and missing_cost). Read, a body shorter than the schema's (an older
    writer's) first sets every field to the schema's default (Reset), so the fields it lacks keep them; the
    test costs the usual body nothing, being the one of a failed entry (n 0). Verify leaves out a group of
    fields with nothing to check (when absent, the next group's test returns alike), and a body with nothing
    to check is entered and left."""
    plan = c.plan.struct(s.qualified)
    body = CodeWriter(Options(tabs=True))
    # what a body holds or lacks as one: the base's fields (all or none), then each own field
    groups = [(s.base_size, plan.base_fields)] if plan.base_fields else []
    for end, fields in groups + [(f.end, (f,)) for f in plan.own_fields]:
        cost, name = fields[0].missing_cost, fields[0].name
        if not read and not cost and all(ir.reads_unchecked(f.type) and not kept(c, f.type) for f in fields):
            continue
        with body.block(f"if n < {end} {{", "}"):
            if cost:
                body.line(f'r.Spend({cost}, b, "{name}")')
            body.line("return")
        for f in fields:
            read_value(body, c, f.type, ("b", f"b+{f.offset}"), f"v.{c.ident.field(f.field)}" if read else None,
                       f.name, names, [f'r.Unwind("{f.name}")'])
    text = body.text().strip("\n")
    call = f"r.Struct(base, slot, {s.type_id}, {s.decode_cost})"
    with decl(w, doc, opening):
        if text or read:
            w.line(f"{'b' if 'b' in _words(text) else '_'}, n := {call}")
            if read and plan.fields:
                with w.block(f"if n < {s.body_size} {{", "}"):
                    leave(w, "n == 0", [])
                    w.line("v.Reset() // an older writer's body: the fields it lacks take the schema's defaults")
                w.line("defer r.Leave()")
            else:
                entered(w, "n == 0", "r.Leave()")
            w.lines(text)
        else:
            with w.block(f"if _, n := {call}; n != 0 {{", "}"):
                w.line("r.Leave()")


def final_body(w: CodeWriter, c: Context, s: ir.Struct, names: Locals, read: bool) -> None:
    """FBEReadFinal's body or, not read, FBEVerifyFinal<Name>'s: the struct's level entered, then its fields
    at the Reader's cursor (read_value), a run of fixed-size fields claimed at once (final_run; verify skips
    it)."""
    entered(w, f"!r.Enter({s.decode_cost})", "r.Leave()")
    for step in c.plan.struct(s.qualified).final_steps:
        if isinstance(step, FieldPlan):
            read_value(w, c, step.type, None, f"v.{c.ident.field(step.field)}" if read else None, step.name, names,
                       [f'r.Unwind("{step.name}")'])
        elif not read:
            w.line(f'r.SkipRun({step.size}, "{step.description}")')
        else:
            with final_run(w, step, names) as d:
                for f, at in zip(step.fields, step.at):
                    run_read(w, c, f.type, d, at, f"v.{c.ident.field(f.field)}", names)


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)

# ---------------------------------------------------------------- runs of fixed-size fields

@contextmanager
def final_run(w: CodeWriter, run: Run, names: Locals) -> Iterator[str]:
    """Claim a run of two or more fixed-size fields of a final root with one check (Reader.Run,
    which fails as Fixed field by field would: at the first field not there) and read them inside
    the block from the run's bytes it yields (run_read), whose length one bounds check proves."""
    d = names("d")
    with w.block(f'if {d} := r.Run({run.size}, "{run.description}"); {d} != nil {{', "}"):
        w.line(f"_ = {d}[{run.size - 1}] // one bounds check for the run")
        yield d


def run_read(w: CodeWriter, c: Context, t: ir.Type, d: str, at: int | str, dst: str, names: Locals) -> None:
    """Read the scalar, enum or array of scalars at offset at of the run's bytes d into dst
    (fbe.GetI32 and its kin)."""
    part = f"{d}[{at}:]" if at else d
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        get = f"{c.rt('Get' + SLOT[ir.wire_name(t)])}({part})"
        w.line(f"{dst} = {get if isinstance(t, ir.Primitive) else f'{c.type(t)}({get})'}")
    else:
        assert isinstance(t, ir.Array), t
        i = names("i")
        with w.block(f"for {i} := range {dst} {{", "}"):
            run_read(w, c, t.element, d, f"{at}+{i}*{t.element.size}" if at else f"{i}*{t.element.size}",
                     f"{dst}[{i}]", names)


# ---------------------------------------------------------------- per struct

def write_fields(w: CodeWriter, c: Context, s: ir.Struct, plan: StructPlan, names: Locals, final: bool) -> None:
    """The body of FBEWrite (a versioned body at the slot) or FBEWriteFinal (appended): a struct that
    can nest itself enters a level first, each field is written in turn."""
    with counting(w, c, plan, "w"):
        if not final:
            struct = f"w.Struct(base, slot, {s.body_size}, {s.type_id})"
            w.line(f"b := {struct}" if s.all_fields else struct)
        for f in plan.fields:
            write_value(w, c, f.type, None if final else ("b", f"b+{f.offset}"), f"v.{c.ident.field(f.field)}",
                        f.name, names, [f'w.Unwind("{f.name}")'])


def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    """The struct's codec methods: FBEWrite/FBERead (a versioned body at a slot), the roots
    MarshalFBE/UnmarshalFBE/VerifyFBE and, with final, their final twins."""
    q = s.qualified
    plan = c.plan.struct(q)
    names = Locals()
    fbe_verify, fbe_verify_final = c.ident.function("FBEVerify", q), c.ident.function("FBEVerifyFinal", q)

    with decl(w, "// FBEWrite writes v's versioned body, its offset stored in the slot at slot (from base).",
                 f"func (v *{name}) FBEWrite(w *{c.rt('Writer')}, base, slot int) {{"):
        write_fields(w, c, s, plan, names, False)

    write_body_reader(w, c, s, names, [
        "// FBERead reads v from the versioned body the slot at slot points to (from base),",
        "// overwriting every field and reusing what v holds (slices, maps, optional pointers);",
        "// fields an older writer did not write take the schema's defaults. After an error",
        "// (the Reader's) v is left part read: the roots reset it."],
        f"func (v *{name}) FBERead(r *{c.rt('Reader')}, base, slot int) {{", True)
    # FBEVerify<Name>: FBERead's checks without the value (no allocation but for sets and maps)
    write_body_reader(w, c, s, names, [
        f"// {fbe_verify} checks the versioned body the slot at slot points to (from base) as",
        "// FBERead reads it, without building the value."],
        f"func {fbe_verify}(r *{c.rt('Reader')}, base, slot int) {{", False)
    write_roots(w, c, s, name, False, fbe_verify)
    if not final:
        return

    with decl(w, "// FBEWriteFinal appends v's fields (final model, docs/format.md 4.2).",
                 f"func (v *{name}) FBEWriteFinal(w *{c.rt('Writer')}) {{"):
        write_fields(w, c, s, plan, names, True)
    with decl(w, ["// FBEReadFinal reads v's fields at the Reader's cursor (final model), overwriting every",
                  "// field and reusing what v holds; after an error v is left part read (the roots reset it)."],
                 f"func (v *{name}) FBEReadFinal(r *{c.rt('Reader')}) {{"):
        final_body(w, c, s, names, True)
    with decl(w, [f"// {fbe_verify_final} checks v's fields at the Reader's cursor as FBEReadFinal reads them,",
                  "// without building the value."], f"func {fbe_verify_final}(r *{c.rt('Reader')}) {{"):
        final_body(w, c, s, names, False)
    write_roots(w, c, s, name, True, fbe_verify_final)

def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool, fbe_verify: str) -> None:
    """The roots of one model: Marshal, Append, Unmarshal, Read and the package-level Verify."""
    q = s.qualified
    # FBEWriteFinal, FBEReadFinal and FBEVerifyFinal<Name> (no args) or the versioned ones (the body's offset
    # in the slot at 4, counted from 0)
    model, args = ("Final", "") if final else ("", ", 0, 4")
    if final:
        suffix, what, section, verify = "Final", "a final root", "4.1", c.ident.function("VerifyFinal", q)
        begin_w, end_w, append_doc = "BeginFinal()", f"EndFinal({s.type_id})", "returns w's bytes."
        begin_r, end_r = f"r.BeginFinal(data, {s.type_id}, lim)", "r.EndFinal()"
    else:
        suffix, what, section, verify = "FBE", "a versioned root", "3.2", c.ident.function("VerifyFBE", q)
        begin_w, end_w = "BeginVersioned()", "EndVersioned()"
        append_doc = "returns w's bytes:\n// with a reused Writer, serializing allocates nothing."
        begin_r, end_r = "r.BeginVersioned(data, lim)", ""
    declared(w, f"// Marshal{suffix} is v as {what} (docs/format.md {section}).",
             f"func (v *{name}) Marshal{suffix}() ([]byte, error) {{", f"var w {c.rt('Writer')}",
             f"return v.Append{suffix}(&w)")
    declared(w, f"// Append{suffix} writes v as {what} into w (reset first) and {append_doc}",
             f"func (v *{name}) Append{suffix}(w *{c.rt('Writer')}) ([]byte, error) {{", f"w.{begin_w}",
             f"v.FBEWrite{model}(w{args})", f'w.Within("{q}")', f"return w.{end_w}")

    def body() -> None:
        w.line(begin_r)
        w.line(f"v.FBERead{model}(&r{args})")
        w.lines(end_r)
        with w.block("if r.Failed() {", "}"):
            w.line("v.Reset()")
            w.line(f'r.Within("{q}")')
    read_root(w, c, name, suffix, what, ("", ""), "Reader", body)
    declared(w, [f"// {verify} is nil exactly when Unmarshal{suffix} of data succeeds (docs/limits.md 4);",
                 "// it builds no value."], f"func {verify}(data []byte, lim *{c.rt('Limits')}) error {{",
             f"var r {c.rt('Reader')}", begin_r, f"{fbe_verify}(&r{args})", end_r, f'r.Within("{q}")', "return r.Err()")


def read_root(w: CodeWriter, c: Context, name: str, suffix: str, what: str, notes: tuple[str, str], reader: str,
              body: Callable[[], None]) -> None:
    """Unmarshal<suffix> (under fbe.DefaultLimits) and Read<suffix> (under lim): a Reader r, body, r's error."""
    declared(w, f"// Unmarshal{suffix} reads v from {what} under fbe.DefaultLimits{notes[0]}.",
             f"func (v *{name}) Unmarshal{suffix}(data []byte) error {{", f"return v.Read{suffix}(data, nil)")
    with decl(w, f"// Read{suffix} reads v from {what} under lim (nil: fbe.DefaultLimits{notes[1]}).",
                 f"func (v *{name}) Read{suffix}(data []byte, lim *{c.rt('Limits')}) error {{"):
        w.line(f"var r {c.rt(reader)}")
        body()
        w.line("return r.Err()")


def write_reset(w: CodeWriter, c: Context, f: ir.Field) -> None:
    """A field set to the schema's default (Reset): a struct reset in place, a slice's or
    map's storage kept, an optional's value made when it has a default."""
    target, t = "v." + c.ident.field(f), f.type
    if isinstance(t, ir.Optional_):
        value = None if f.default.kind in ("none", "null") else c.scalar_default(t.element, f.default, present=True)
        w.line(f"{target} = " + ("nil" if value is None else f"{c.rt('Ptr')}[{c.type(t.element)}]({value})"))
    elif isinstance(t, ir.StructRef):
        w.line(f"{target}.Reset()")
    elif isinstance(t, ir.Array) and isinstance(t.element, ir.StructRef):
        with w.block(f"for i := range {target} {{", "}"):
            w.line(f"{target}[i].Reset()")
    elif isinstance(t, ir.Mapping) and c.comparable(t.key):
        w.line(f"clear({target})")
    elif isinstance(t, (ir.Sequence, ir.Mapping)):
        w.line(f"{target} = {target}[:0]")
    else:       # a scalar's default, else its zero (an array's: its type's {})
        w.line(f"{target} = {c.scalar_default(t, f.default) or zero(c, t)}")
