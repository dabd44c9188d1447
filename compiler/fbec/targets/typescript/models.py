"""The binary models of fbec --typescript: straight-line field code at the IR's offsets on the
runtime's fbe.Writer and fbe.Reader (docs/format.md 3 and 4, docs/limits.md).

Errors: the Reader throws a DecodeError naming the field and the offset; a read of a struct
value (a field, an element, an optional's value) is wrapped in a catch that puts the field
(`wallet`, `orders[2]`) in front of the error's path as it leaves, and the root names the type.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from fbec.model import ir
from fbec.model.plan import FieldPlan, StructPlan
from fbec.targets.base import SLOT_KINDS, CodeWriter, Locals, Options
from fbec.targets.typescript.context import (
    Context,
    add_item,
    by_value,
    compare,
    new_collection,
    refuse_repeated,
    unique,
)


def struct_costs(s: ir.Struct) -> str:
    """The arguments of a reader's struct entry: what a value costs, and what its default structs cost
    when it holds any (checked before the value and its defaults are made, ir.Struct.nested_cost)."""
    return f"{s.decode_cost}, {s.nested_cost}" if s.nested_cost else str(s.decode_cost)


def reader_method(slot: str) -> str:
    return slot[:1].lower() + slot[1:]


def repeats(t: ir.Type) -> bool:
    """Whether a set or map held as JavaScript holds values of t can hold one key twice under the
    readers' comparison: arrays (structs, bytes, uuids, decimals) and floats (two doubles that round
    to one float). A Set or Map of the others holds each key once."""
    return not by_value(t) or isinstance(t, ir.Primitive) and t.name == "float"


def can_fail(c: Context, t: ir.Type) -> bool:
    """Whether a writer can refuse a value of type t for its nesting or its keys, so that a struct
    written in it is wrapped in the catch naming where it is: the plan's writer_can_fail, with the sets and
    maps that can hold a key twice (repeats)."""
    def may_repeat(s: ir.Sequence | ir.Mapping) -> bool:
        return repeats(s.key) if isinstance(s, ir.Mapping) else s.kind == "set" and repeats(s.element)
    return c.plan.writer_can_fail(t, may_repeat, c.can_fail)


def guarded(w: CodeWriter, c: Context, t: ir.Type, statement: str, within: str) -> None:
    """A writer's statement writing a value of type t; when it can fail (can_fail), in the catch that
    puts where it is (`within`: within(...) or withinIndex(...)) in front of the error's path."""
    if isinstance(t, ir.StructRef) and can_fail(c, t):
        caught(w, statement, located(c, within))
    else:
        w.line(statement)


def caught(w: CodeWriter, statements: str, thrown: str) -> None:
    """`try { statements } catch (e) { throw thrown; }`: their error with where it happened
    (fbe.within, fbe.withinIndex, fbe.rootOf, fbe.refused of e)."""
    with w.block("try {", "} catch (e) {"):
        w.lines(statements)
    with w.block("", "}"):
        w.line(f"throw {thrown};")


def located(c: Context, within: str) -> str:
    """The runtime's call of `within` (within(e, ...) or withinIndex(e, ...)): e with the field or
    element in front of its path."""
    return c.rt(within.partition("(")[0]) + "(" + within.partition("(")[2]


def ordered(w: CodeWriter, c: Context, t: ir.Sequence | ir.Mapping, var: str, value: str, field: str) -> str:
    """`const var = ` a writer's collection in the order it is written; returns its count expression.
    Sets and maps ascending by `compare` (refused with an EncodeError naming the field and the two
    indexes when a key is there twice), hashes in the order they hold (checked when they can hold a
    key twice: repeats), vectors and lists as they are."""
    if isinstance(t, ir.Sequence) and t.kind == "set":
        value = f'{c.rt("elementsInOrder")}({value}, {compare(c, t.element)}, "{field}")'
    elif isinstance(t, ir.Mapping) and t.kind == "map":
        value = f'{c.rt("entriesInOrder")}({value}, {compare(c, t.key)}, "{field}")'
    elif isinstance(t, ir.Mapping) and repeats(t.key):
        value = f'{c.rt("checkEntries")}({value}, {compare(c, t.key)}, "{field}")'
    w.line(f"const {var} = {value};")
    by_key = isinstance(t, ir.Mapping) and t.kind == "hash" and by_value(t.key)     # a Map
    return var + (".size" if by_key else ".length")


def counter(w: CodeWriter, c: Context, t: ir.Type, names: Locals) -> str | None:
    """A loop's element index, declared when writing an element of type t can fail (for its path)."""
    if not (isinstance(t, ir.StructRef) and can_fail(c, t)):
        return None
    i = names("i")
    w.line(f"let {i} = 0;")
    return i


def plus(a: str, b: int | str) -> str:
    """`a + b` without a `+ 0`."""
    return a if b == 0 or b == "0" else f"{a} + {b}"


def elementary(t: ir.Type) -> bool:
    """A value read or written by one expression: a primitive, an enum or a struct."""
    return isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef))


# ---------------------------------------------------------------- versioned

def write_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, value: str, field: str,
                within: str, names: Locals) -> None:
    """Write `value` of type t: into the versioned model's slot `at` = (base, slot), its absolute position
    and what its offsets count from, or appended in the final model (`at` None, docs/format.md 4.2); a
    value of `field` (`within`: where it is, for the error of a struct that cannot be written)."""
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        kind = SLOT_KINDS[ir.wire_name(t)]
        if at is None:
            w.line(f"w.append{kind}({value});")
        elif ir.is_text(t):
            w.line(f"w.{kind.lower()}({at[0]}, {at[1]}, {value});")
        else:
            w.line(f"w.put{kind}({at[1]}, {value});")
    elif isinstance(t, ir.StructRef):
        call = f"fbeWriteFinal(w, {value})" if at is None else f"fbeWrite(w, {at[0]}, {at[1]}, {value})"
        guarded(w, c, t, f"{c.named(t.name)}.{call};", within)
    elif isinstance(t, ir.Optional_):
        o = names("o")
        w.line(f"const {o} = {value};")
        if at is None:
            with w.if_else(f"if ({o} === undefined) {{", "w.appendBool(false);"):
                w.line("w.appendBool(true);")
                write_value(w, c, t.element, None, o, field, within, names)
            return
        with w.block(f"if ({o} !== undefined) {{", "} else {"):
            s = names("s")
            w.line(f"const {s} = w.optional({at[0]}, {at[1]}, {t.element.size});")
            write_value(w, c, t.element, (s, s), o, field, within, names)
        with w.block("", "}"):
            w.line(f"w.none({at[1]});")      # the Writer does not zero what it allocates
    else:
        mapping = isinstance(t, ir.Mapping)
        a = names("m" if mapping else "a")
        p = "" if at is None else names("p")
        k = names("k") if mapping else ""
        y = names("y")
        if isinstance(t, ir.Array):
            w.line(f"const {a} = {value};")
            w.line(f"{c.rt('checkLength')}({a}, {t.length});")
            if at is not None:
                w.line(f"let {p} = {at[1]};")
        elif at is None:
            w.line(f"w.appendCount({ordered(w, c, t, a, value, field)});")
        else:
            w.line(f"let {p} = w.vector({at[0]}, {at[1]}, {ordered(w, c, t, a, value, field)}, {t.item_size});")
        # an item's parts at their offsets in its slot: a map entry's key and value, or the element
        parts = [(t.key, k, 0), (t.value, y, t.key.size)] if isinstance(t, ir.Mapping) else [(t.element, y, 0)]
        i = None       # the index, counted when writing an item can fail (for its path)
        for part, _, _ in parts:
            i = i or counter(w, c, part, names)
        with w.block(f"for (const {f'[{k}, {y}]' if k else y} of {a}) {{", "}"):
            for part, x, offset in parts:
                write_value(w, c, part, at and (at[0], plus(p, offset)), x, field, within_index(field, i or ""), names)
            if at is not None:      # the next item's slot
                w.line(f"{p} += {t.element.size if isinstance(t, ir.Array) else t.item_size};")
            if i:
                w.line(f"{i}++;")


def read_expr(c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, into: str = "") -> str:
    """The expression reading a primitive, enum or struct: its versioned slot `at` = (base, slot), or
    at the Reader's cursor (`at` None); a struct into the default value `into` when given."""
    if isinstance(t, ir.StructRef):
        args = ["r"] + ([] if at is None else list(at)) + ([into] if into else [])
        return f"{c.named(t.name)}.{'fbeReadFinal' if at is None else 'fbeRead'}({', '.join(args)})"
    if ir.is_text(t):
        kind = SLOT_KINDS[t.name]
        return f'r.final{kind}("{field}")' if at is None else f'r.{kind.lower()}({at[0]}, {at[1]}, "{field}")'
    pos = f'r.fixed({t.size}, "{field}")' if at is None else at[1]
    if isinstance(t, ir.Primitive) and t.name == "decimal":     # the reader checks its flags (docs/format.md 2.4)
        return f'r.decimal({pos}, "{field}")'
    assert isinstance(t, (ir.Primitive, ir.EnumRef))
    return f"r.{reader_method(SLOT_KINDS[ir.wire_name(t)])}({pos})"


def assign(w: CodeWriter, c: Context, t: ir.Type, target: str, expr: str, within: str,
           in_place: bool = False) -> None:
    """`target = expr;` (only `expr;` for a struct read into the value `target` holds, `in_place`); a
    struct read wrapped in the catch that names where it is (`within`)."""
    if isinstance(t, ir.StructRef):
        caught(w, f"{expr};" if in_place else f"{target} = {expr};", located(c, within))
    else:
        w.line(f"{target} = {expr};")


def within_field(field: str) -> str:
    return f'within(e, "{field}")'


def within_index(field: str, index: str) -> str:
    return f'withinIndex(e, "{field}", {index})'


def read_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, target: str,
               within: str, names: Locals, in_place: bool = False) -> None:
    """Read a value into the lvalue `target` (none: a set or map read for its checks only, verify's):
    the versioned model's slot `at` = (base, slot), its absolute position and what its offsets count
    from, or the final model's value at the Reader's cursor (`at` None). `in_place`: target holds the
    default its struct's constructor made (a field of the value being read), and a struct or a fixed
    array is read into it, so that no default is made twice nor kept alive beside the value read."""
    if elementary(t):
        into = target if in_place and isinstance(t, ir.StructRef) else ""
        assign(w, c, t, target, read_expr(c, t, at, field, into), within, bool(into))
    elif isinstance(t, ir.Optional_):
        if at is None:
            with w.block(f'if (r.finalHas("{field}")) {{', "} else {"):
                read_value(w, c, t.element, None, field, target, within, names)
            with w.block("", "}"):
                w.line(f"{target} = undefined;")
            return
        s = names("s")
        w.line(f'const {s} = r.optional({at[0]}, {at[1]}, {t.element.size}, "{field}");')
        with w.if_else(f"if ({s} < 0) {{", f"{target} = undefined;"):
            read_value(w, c, t.element, (s, s), field, target, within, names)
    elif isinstance(t, ir.Array):
        a, i, y = names("a"), names("i"), names("y")
        w.line(f"const {a} = {target};" if in_place else f"const {a}{c.annot(c.type(t))} = [];")
        with w.block(f"for (let {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            where = at and (at[0], plus(at[1], f"{i} * {t.element.size}"))
            if in_place:
                read_value(w, c, t.element, where, field, f"{a}[{i}]", within_index(field, i), names, True)
            else:
                element_into(w, c, t.element, where, field, a, i, y, names)
        if target and not in_place:
            w.line(f"{target} = {a};")
    else:
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        mapping = isinstance(t, ir.Mapping)
        e = "" if at is None else names("e")
        n, a, i = names("n"), names("m" if mapping else "a"), names("i")
        k = names("k") if mapping else ""
        y = names("y")
        if at is None:
            w.line(f'const {n} = r.finalCount({t.item_min_size}, {t.item_cost}, "{field}");')
        else:
            w.line(f'const {e} = r.vector({at[0]}, {at[1]}, {t.item_size}, {t.item_cost}, "{field}");')
            w.line(f"const {n} = r.count;")
        first = "r.pos" if at is None else f"{e} - 4"
        w.line(new_collection(c, t, a))
        with w.block(f"for (let {i} = 0; {i} < {n}; {i}++) {{", "}"):
            pos = f"{e} + {i} * {t.item_size}"
            where = at and (at[0], pos)
            if isinstance(t, ir.Mapping):
                w.line(f"let {k}{c.annot(c.type(t.key))};")
                w.line(f"let {y}{c.annot(c.type(t.value))};")
                read_value(w, c, t.key, where, field, k, within_index(field, i), names)
                read_value(w, c, t.value, at and (at[0], plus(pos, t.key.size)), field, y, within_index(field, i),
                           names)
                add_item(w, t, a, y, f'r.duplicate("{field}", {"r.pos" if at is None else pos});', k)
            elif unique(t):
                w.line(f"const {y} = {read_expr(c, t.element, where, field)};")
                add_item(w, t, a, y, f'r.duplicate("{field}", {first});')
            else:
                element_into(w, c, t.element, where, field, a, i, y, names)
        refuse_repeated(w, c, t, a, f'r.duplicate("{field}", {first});')
        if target:
            w.line(f"{target} = {a};")


def element_into(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, array: str,
                 index: str, temp: str, names: Locals) -> None:
    """Read an element (at its versioned slot `at`, or the cursor) and push it onto `array` (element
    `index` of `field`)."""
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        w.line(f"{array}.push({read_expr(c, t, at, field)});")
        return
    w.line(f"let {temp}{c.annot(c.type(t))};")
    read_value(w, c, t, at, field, temp, within_index(field, index), names)
    w.line(f"{array}.push({temp});")


# ---------------------------------------------------------------- verify: the reads' checks without the values

def kept(t: ir.Type) -> bool:
    """Sets and maps: their duplicate-key rule needs the keys, so verify reads them."""
    return isinstance(t, ir.Mapping) or isinstance(t, ir.Sequence) and t.kind == "set"


def verify_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, within: str,
                 names: Locals) -> None:
    """Check a value as read_value reads it, without the value: at its versioned slot `at` = (base,
    slot), or at the Reader's cursor (`at` None, the final model)."""
    quoted = f'"{field}"'
    if kept(t):
        read_value(w, c, t, at, field, "", within, names)
    elif ir.is_text(t):
        kind = SLOT_KINDS[t.name]
        w.line(f"r.finalSkip{kind}({quoted});" if at is None else f"r.skip{kind}({at[0]}, {at[1]}, {quoted});")
    elif isinstance(t, (ir.Primitive, ir.EnumRef)):
        fixed = f"r.fixed({t.size}, {quoted})"
        if ir.is_decimal(t):
            w.line(f"r.skipDecimal({fixed if at is None else at[1]}, {quoted});")
        elif at is None:
            w.line(f"{fixed};")
    elif isinstance(t, ir.StructRef):
        caught(w, f"{c.named(t.name)}.fbeVerifyFinal(r);" if at is None else
               f"{c.named(t.name)}.fbeVerify(r, {at[0]}, {at[1]});", located(c, within))
    elif isinstance(t, ir.Optional_):
        if at is None:
            with w.block(f"if (r.finalHas({quoted})) {{", "}"):
                verify_value(w, c, t.element, None, field, within, names)
            return
        call = f"r.optional({at[0]}, {at[1]}, {t.element.size}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(f"{call};")
            return
        s = names("s")
        w.line(f"const {s} = {call};")
        with w.block(f"if ({s} >= 0) {{", "}"):
            verify_value(w, c, t.element, (s, s), field, within, names)
    else:
        assert isinstance(t, (ir.Array, ir.Sequence))    # sets and maps are kept
        if isinstance(t, ir.Array):     # its elements at its slot, one after the other
            e, n, i = "" if at is None else at[1], str(t.length), names("i")
        elif at is None:
            e, n, i = "", names("n"), names("i")
            w.line(f"const {n} = r.finalCount({t.item_min_size}, {t.item_cost}, {quoted});")
            if ir.reads_unchecked(t.element):
                # finalCount bounded n by the bytes left: the run of fixed-size elements is there
                w.line(f"r.fixed({n} * {t.element.size}, {quoted});")
                return
        else:
            call = f"r.vector({at[0]}, {at[1]}, {t.item_size}, {t.item_cost}, {quoted})"
            if ir.reads_unchecked(t.element):
                w.line(f"{call};")
                return
            e, n, i = names("e"), names("n"), names("i")
            w.line(f"const {e} = {call};")
            w.line(f"const {n} = r.count;")
        with w.block(f"for (let {i} = 0; {i} < {n}; {i}++) {{", "}"):
            verify_value(w, c, t.element, at and (at[0], plus(e, f"{i} * {t.element.size}")), field,
                         within_index(field, i), names)


# ---------------------------------------------------------------- per struct

def older_body(w: CodeWriter, s: ir.Struct, plan: StructPlan, field: Callable[[FieldPlan], None],
               skip: Callable[[FieldPlan], bool] = lambda f: False) -> None:
    """The fields of the versioned body at `b` of `n` bytes, as an older writer may have left it: the
    base's when the body holds them, then each own field while it does (`field` prints one); what
    is missing is charged to the decode budget (the plan's older_cost and missing_cost)."""
    if plan.base_fields:
        with w.block(f"if (n < {s.base_size}) {{", "}"):
            if plan.older_cost:
                w.line(f'r.spend({plan.older_cost}, b, "{plan.fields[0].name}");')
            w.line("return;")
        for f in plan.base_fields:
            field(f)
    for f in plan.own_fields:
        if skip(f):
            continue
        with w.block(f"if (n < {f.end}) {{", "}"):
            if f.missing_cost:
                w.line(f'r.spend({f.missing_cost}, b, "{f.name}");')
            w.line("return;")
        field(f)


def write_fields(w: CodeWriter, c: Context, s: ir.Struct, plan: StructPlan, names: Locals, final: bool) -> None:
    """The body of fbeWrite (a versioned body at the slot) or fbeWriteFinal (appended): a struct that
    can nest itself enters a level first (and leaves it), each field is written in turn."""
    if not plan.bounded:
        w.line("w.enter();")
    if not final:
        struct = f"w.struct(base, slot, {s.body_size}, {s.type_id})"
        w.line(f"const b = {struct};" if s.all_fields else f"{struct};")
    for f in plan.fields:
        write_value(w, c, f.type, None if final else ("b", plus("b", f.offset)), f"v.{c.ident.field(f.field)}",
                    f.name, within_field(f.name), names)
    if not plan.bounded:
        w.line("w.leave();")


def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The class's codec members: fbeWrite/fbeRead (a versioned body at a slot), the roots
    toFbe/fromFbe/verifyFbe and, with --final, their final twins."""
    q = s.qualified
    plan = c.plan.struct(q)
    names = Locals()
    rt = c.rt

    with c.member(w, "/** Writes v's versioned body, its offset stored in the slot at `slot` (from `base`). */",
                     f"static {c.over}", "fbeWrite",
                     [("w", rt('Writer', False)), ("base", "number"), ("slot", "number"), ("v", name)], "void"):
        write_fields(w, c, s, plan, names, False)

    if s.nested_cost:
        write_lacks(w, c, s, plan)
    write_body_reader(w, c, s, name, "Read", (
        ("/**\n * Reads the versioned body the slot at `slot` points to (from `base`): into `into`, a default\n"
         " * value its parent made, when given, else into a new value.\n */"),
        ("/**\n * Reads the fields present in the body at `b` of `n` bytes into v; the others keep their\n"
         " * defaults, charged to the decode budget (docs/limits.md 3).\n */")),
        lambda body, f: read_value(body, c, f.type, ("b", plus("b", f.offset)), f.name,
                                   f"v.{c.ident.field(f.field)}", within_field(f.name), names, True))
    # verify: fbeRead's checks and charges in the same order without the value (exactly deserialize's);
    # an own field with nothing to check is left out: when absent, the next field's test returns alike
    write_body_reader(w, c, s, name, "Verify", (
        "/** Checks the versioned body the slot at `slot` points to (from `base`) as fbeRead reads it. */",
        "/** Checks the fields present in the body at `b` of `n` bytes as fbeReadBody reads them. */"),
        lambda body, f: verify_value(body, c, f.type, ("b", plus("b", f.offset)), f.name, within_field(f.name), names),
        lambda f: ir.reads_unchecked(f.type) and not f.missing_cost)

    write_roots(w, c, s, name, False)

    if not c.options.final:
        return

    with c.member(w, "/** Appends v's fields (final model, docs/format.md 4.2). */",
                     f"static {c.over}", "fbeWriteFinal", [("w", rt('Writer', False)), ("v", name)], "void"):
        write_fields(w, c, s, plan, names, True)

    with c.member(w, "/** Reads a value's fields at the Reader's cursor (final model), into `into` as fbeRead. */",
                     f"static {c.over}", "fbeReadFinal", [("r", rt('Reader', False)), ("into?", name)], name):
        w.line(f"r.enterFinal({struct_costs(s)});")
        w.line(f"const v = into ?? new {name}();")
        for f in plan.fields:
            read_value(w, c, f.type, None, f.name, f"v.{c.ident.field(f.field)}", within_field(f.name), names, True)
        w.line("r.leave();")
        w.line("return v;")

    with c.member(w, ("/** Checks a value's fields at the Reader's cursor as fbeReadFinal reads them, "
                      "without the value. */"),
                     f"static {c.over}", "fbeVerifyFinal", [("r", rt('Reader', False))], "void"):
        w.line(f"r.enterFinal({struct_costs(s)});")
        for f in plan.fields:
            verify_value(w, c, f.type, None, f.name, within_field(f.name), names)
        w.line("r.leave();")

    write_roots(w, c, s, name, True)

def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    """The roots of one model, each a call of the runtime's of that name with the class (runtime/js's
    roots.ts): toFbe/fromFbe/verifyFbe or toFinal/fromFinal/verifyFinal."""
    rt = c.rt
    if final:
        suffix, what = "Final", "a final root"
        to_doc = "/** This value as a final root (docs/format.md 4.1), into `writer` when given (as toFbe). */"
    else:
        suffix, what = "Fbe", "a versioned root"
        to_doc = ("/**\n * This value as a versioned root (docs/format.md 3.2), written into `writer` when given "
                  "(reused:\n * the bytes returned are its buffer, overwritten by its next use).\n */")
    limits = [("data", "Uint8Array"), ("limits?", rt("Limits", False))]
    roots = [
        (to_doc, c.over, "to", [("writer?", rt("Writer", False))], "Uint8Array", "this, writer"),
        (f"/** The value of {what}; a DecodeError names what is wrong, where and why. */",
         f"static {c.over}", "from", limits, name, "data, limits"),
        (f"/** Undefined exactly when from{suffix} of data succeeds, else its DecodeError (docs/limits.md 4). */",
         f"static {c.over}", "verify", limits, f"{rt('DecodeError', False)} | undefined", "data, limits"),
    ]
    for doc, modifiers, verb, params, result, args in roots:
        with c.member(w, doc, modifiers, verb + suffix, params, result):
            w.line(f"return {rt(verb + suffix)}({name}, {args});")


def write_lacks(w: CodeWriter, c: Context, s: ir.Struct, plan: StructPlan) -> None:
    """fbeLacks, given to the reader's struct entry of a struct holding default structs: the first field
    a body of n bytes lacks whose defaults cost ("" when none does), what a refusal at the entry names, as
    older_body names the charge of the defaults (docs/limits.md 3)."""
    base = s.base is not None and c.schema.struct(s.base).nested_cost
    with c.member(w, "/** The field a refusal of the defaults of a body of `n` bytes names (docs/limits.md 3). */",
                  f"static {'override ' if base else ''}", "fbeLacks", [("n", "number")], "string"):
        if plan.base_fields and plan.older_cost:
            w.line(f'if (n < {s.base_size}) return "{plan.fields[0].name}";')
        for f in plan.own_fields:
            if f.missing_cost:
                w.line(f'if (n < {f.end}) return "{f.name}";')
        w.line('return "";')


def write_body_reader(w: CodeWriter, c: Context, s: ir.Struct, name: str, verb: str, docs: tuple[str, str],
                      field: Callable[[CodeWriter, FieldPlan], None],
                      skip: Callable[[FieldPlan], bool] = lambda f: False) -> None:
    """fbeRead and fbeReadBody, or fbeVerify and fbeVerifyBody (verb; Read makes the value): the entry of
    the struct at the slot, then the fields of its body as an older writer may have left it (older_body:
    field(body, f) prints one, those skip tells left out) in a method of their own, there when the struct
    has fields (an override when its base has some too), its unused parameters named `_`."""
    value = verb == "Read"
    body = CodeWriter(Options(tabs=w.unit == "\t", indent=len(w.unit)))
    older_body(body, s, c.plan.struct(s.qualified), lambda f: field(body, f), skip)
    text = body.text().strip("\n")
    reader = ("r", c.rt("Reader", False))
    with c.member(w, docs[0], f"static {c.over}", f"fbe{verb}",
                  [reader, ("base", "number"), ("slot", "number"), *([("into?", name)] if value else [])],
                  name if value else "void"):
        lacks = f", {name}.fbeLacks" if s.nested_cost else ""
        call = f"r.struct(base, slot, {s.type_id}, {struct_costs(s)}{lacks})"
        w.line(f"const b = {call};" if text else f"{call};")
        if value:
            w.line(f"const v = into ?? new {name}();")
        if text:
            w.line(f"{name}.fbe{verb}Body(r, {'v, ' if value else ''}b, r.u32(b));")
        w.line("r.leave();")
        if value:
            w.line("return v;")
    if not s.all_fields:
        return
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))
    params = [reader, *([("v", name)] if value else []), ("b", "number"), ("n", "number")]
    over = "override " if s.base is not None and c.schema.struct(s.base).all_fields else ""
    with c.member(w, docs[1], f"static {over}", f"fbe{verb}Body",
                  [(p if p in words else "_" + p, t) for p, t in params], "void"):
        w.lines(text)
