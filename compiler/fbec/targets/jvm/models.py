"""The binary models of fbec --java and --kotlin: straight-line field code at the plan's offsets on
the runtime's Writer and Reader (docs/format.md 3 and 4, docs/limits.md), the statements of the
codecs whose declarations each language writes (java/models.py, kotlin/models.py).

Readers read into a value made with the schema's defaults (a field an older writer did not write
keeps its default), overwriting every field and reusing its objects, and throw DecodeException at
the first problem; a nested struct's reader is wrapped so the exception gains the field path on
its way out (`e.at("orders", i)`). Verify makes the reader's checks in the same order without the
value, so it accepts exactly what the reader reads.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run
from fbec.targets.base import CodeWriter, Options
from fbec.targets.jvm.context import SLOT, Context, Names, holds_struct, kept, member, plus, reused_struct, sub


def catch(w: CodeWriter, c: Context, statement: str, field: str, index: str | None,
          exception: str = "DecodeException") -> None:
    """statement (a nested struct's reader; its writer with EncodeException) with the field path put
    in front of its errors."""
    at = f'e.at("{field}", {index})' if index is not None else f'e.at("{field}")'
    c.guarded(w, c.rt(exception), statement, f"throw {at}")


def paid_first(w: CodeWriter, c: Context, t: ir.StructRef, verify: str, field: str, index: str | None) -> None:
    """Before a value of struct t is made (an element, an optional's value) when its default is large
    (ir.Struct.large_default): if the budget left does not pay for the default, verify (the value's
    check, which fails as its read would: docs/limits.md 3) runs instead, before the value is made."""
    struct = c.schema.struct(t.name)
    if struct.large_default:
        with w.block(f"if (!r.affords({struct.default_cost})) {{", "}"):
            catch(w, c, verify, field, index)


def elements(c: Context, t: ir.Sequence | ir.Array, value: str, field: str | None = None) -> str:
    """What a writer iterates: a set in its order, a vector or list (or array) as it is. With field
    (the writers), a set holding an element twice under the readers' rule throws (docs/limits.md 4)."""
    if isinstance(t, ir.Sequence) and t.kind == "set":
        order = c.comparator(t.element) or "null"
        if field is not None:
            return f'{c.rt("Compare")}.distinct({value}, {order}, "{field}")'
        return f"{c.rt('Compare')}.ordered({value}, {order})"
    return value


def entries(c: Context, t: ir.Mapping, value: str, field: str | None = None) -> str:
    """What a writer iterates: a map's entries in key order, a hash's as its table holds them. With
    field (the writers), a map or hash holding a key twice under the readers' rule throws: a hash
    only where the key's equality is not that rule (docs/limits.md 4)."""
    if t.kind == "map":
        order = c.comparator(t.key) or "null"
        if field is not None:
            return f'{c.rt("Compare")}.distinct({value}, {order}, "{field}")'
        return f"{c.rt('Compare')}.ordered({value}, {order})"
    if field is not None and not c.hashed(t.key):
        return f'{c.rt("Compare")}.distinctHash({value}, {c.comparator(t.key) or "null"}, "{field}")'
    return c.entry_set(value)


# ---------------------------------------------------------------- versioned

def write_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, value: str, names: Names,
                field: str, index: str | None = None) -> None:
    """Write value of type t: into the versioned model's slot `at` = (base, slot), its absolute position
    and what its offsets count from, or appended in the final model (`at` None, docs/format.md 4.2);
    field and index (an element's) name it in errors."""
    if isinstance(t, ir.Primitive) and ir.is_text(t):
        w.line(c.stmt(f"w.append{t.name.capitalize()}({value})" if at is None else
                      f"w.{t.name}({at[0]}, {at[1]}, {value})"))
    elif isinstance(t, (ir.Primitive, ir.EnumRef)):
        kind = SLOT[ir.wire_name(t)][0]
        converted = c.to_runtime(t, value)
        w.line(c.stmt(f"w.append{kind}({converted})" if at is None else f"w.put{kind}({at[1]}, {converted})"))
    elif isinstance(t, ir.StructRef):
        call = f"fbeWriteFinal(w, {value})" if at is None else f"fbeWrite(w, {at[0]}, {at[1]}, {value})"
        catch(w, c, f"{c.named(t.name)}.{call}", field, index, "EncodeException")
    elif isinstance(t, ir.Optional_):
        o = c.local(w, value, names)
        if at is None:
            w.line(c.stmt(f"w.appendBool({o} != null)"))
        with w.block(f"if ({o} != null) {{", "}"):
            where = None
            if at is not None:
                s = names("s")
                w.line(c.val(s, f"w.optional({at[0]}, {at[1]}, {t.element.size})", "int"))
                where = (s, s)
            write_value(w, c, t.element, where, o, names, field, index)
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(c.stmt(f'{c.rt("Writer")}.checkLength({c.length(value)}, {t.length}, "{field}")'))
        with w.block(c.upto(i, str(t.length)), "}"):
            where = at and (at[0], plus(at[1], f"{i} * {t.element.size}"))
            write_value(w, c, t.element, where, f"{value}[{i}]", names, field, i)
    else:
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        item = t.item_size
        k: str | None      # the count of items written, when an error names it
        if at is None:
            e, x = "", names("x")
            structs = holds_struct(t.element) if isinstance(t, ir.Sequence) else holds_struct(t.key) or holds_struct(
                t.value)
            k = names("i") if structs else None
            w.line(c.stmt(f"w.appendCount({c.size(value)})"))
        else:
            e, k, x = names("e"), names("i"), names("x")
            w.line(c.val(e, f"w.vector({at[0]}, {at[1]}, {c.size(value)}, {item})", "int"))
        if k is not None:
            w.line(c.var(k, "0", "int"))
        items = elements(c, t, value, field) if isinstance(t, ir.Sequence) else entries(c, t, value, field)
        with w.block(c.each(w, x, t, items), "}"):
            where = at and (at[0], f"{e} + {k} * {item}")
            if isinstance(t, ir.Sequence):
                write_value(w, c, t.element, where, x, names, field, k)
            else:
                write_value(w, c, t.key, where, c.key(x), names, field, k)
                write_value(w, c, t.value, where and (where[0], f"{where[1]} + {t.key.size}"), c.value(x), names,
                            field, k)
            if k is not None:
                w.line(c.stmt(f"{k}++"))


def read_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, names: Names,
               index: str | None, target: str | None = None) -> str:
    """Write the statements reading a value and return an expression of it, to be used at once (it may
    read: evaluation order is allocation order): the versioned model's slot `at` = (base, slot), its
    absolute position and what its offsets count from, or the final model's value at the Reader's
    cursor (`at` None). An optional is read into target when given (and target returned)."""
    quoted = f'"{field}"'
    if isinstance(t, ir.Primitive) and ir.is_text(t):
        return f"r.final{t.name.capitalize()}({quoted})" if at is None else f"r.{t.name}({at[0]}, {at[1]}, {quoted})"
    if isinstance(t, ir.Primitive) and ir.is_decimal(t) and at is not None:
        return f"r.decimal({at[1]}, {quoted})"      # the reader checks a decimal's flags (docs/format.md 2.4)
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        kind = SLOT[ir.wire_name(t)]
        return c.from_runtime(t, f"r.final{kind[0]}({quoted})" if at is None else f"r.{kind[1]}({at[1]})")
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        where = "" if at is None else f", {at[0]}, {at[1]}"
        paid_first(w, c, t, f"{name}.fbeVerify{'Final' if at is None else ''}(r{where})", field, index)
        w.line(c.val(x, c.new(name), name))
        catch(w, c, f"{name}.fbeRead{'Final' if at is None else ''}(r{where}, {x})", field, index)
        return x
    if isinstance(t, ir.Optional_):
        x = target or names("x")
        if at is None:
            c.optional(w, t, x, None, f"r.finalHas({quoted})",
                       lambda inner: read_value(inner, c, t.element, None, field, names, index))
            return x
        s = names("s")
        before = c.val(s, f"r.optional({at[0]}, {at[1]}, {t.element.size}, {quoted})", "int")
        c.optional(w, t, x, before, f"{s} >= 0", lambda inner: read_value(inner, c, t.element, (s, s), field, names,
                                                                           index))
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def reuse_elements(w: CodeWriter, c: Context, t: ir.Sequence, target: str, n: str, names: Names,
                   read: Callable[[str, str], None], verify: Callable[[str], None]) -> None:
    """The loop over a vector of structs reading into the elements target holds (new ones past
    its end, the rest removed): a read of the same shape allocates no struct. read(x, i) writes
    the statements reading element i into x."""
    assert isinstance(t.element, ir.StructRef)
    name = c.named(t.element.name)
    old, i, x = names("m"), names("i"), names("x")
    w.line(c.val(old, c.size(target), "int"))
    with w.block(c.upto(i, n), "}"):
        struct = c.schema.struct(t.element.name)
        if struct.large_default:
            # a new element only once the budget pays for its default: else its check fails as its read
            # would, before the value is made (docs/limits.md 3)
            with w.block(f"if ({i} >= {old} && !r.affords({struct.default_cost})) {{", "}"):
                verify(i)
        w.line(c.val(x, c.pick(f"{i} < {old}", c.get(target, i), c.new(name)), name))
        read(x, i)
        c.if_(w, f"{i} >= {old}", f"{target}.add({x})")
    c.if_(w, f"{old} > {n}", f"{target}.subList({n}, {old}).clear()")


def read_field(w: CodeWriter, c: Context, f: ir.Field, at: tuple[str, str] | None, target: str, names: Names) -> None:
    """Read field f into target, overwriting what it holds and reusing its objects: nested structs, an
    optional struct, the elements of a vector of structs, the collections (emptied). The field is at
    its versioned slot `at` = (base, slot), or at the Reader's cursor (`at` None, the final model)."""
    t = f.type
    quoted = f'"{f.name}"'

    def call(name: str, op: str, where: tuple[str, str] | None, into: str = "") -> str:
        """A struct's fbeRead/fbeVerify at its slot `where`, or its final twin at the cursor."""
        args = ("" if where is None else f", {where[0]}, {where[1]}") + (f", {into}" if into else "")
        return f"{name}.fbe{op}{'Final' if where is None else ''}(r{args})"

    if isinstance(t, ir.StructRef):
        catch(w, c, call(c.named(t.name), "Read", at, target), f.name, None)
    elif isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef):
        name, element = c.named(t.element.name), t.element
        if at is None:
            test, where = f"r.finalHas({quoted})", None
        else:
            s = names("s")
            w.line(c.val(s, f"r.optional({at[0]}, {at[1]}, {t.element.size}, {quoted})", "int"))
            test, where = f"{s} >= 0", (s, s)
        with w.block(f"if ({test}) {{", "} else {"):
            x = c.reuse_optional(w, element, target, names, lambda w: paid_first(
                w, c, element, call(name, "Verify", where), f.name, None))
            catch(w, c, call(name, "Read", where, x), f.name, None)
        with w.block("", "}"):
            w.line(c.stmt(f"{target} = null"))
    elif isinstance(t, ir.Array):
        c.if_(w, f"{c.length(target)} != {t.length}", f"{target} = {c.zero(t)}")
        i = names("i")
        with w.block(c.upto(i, str(t.length)), "}"):
            where = at and (at[0], plus(at[1], f"{i} * {t.element.size}"))
            if isinstance(t.element, ir.StructRef):
                catch(w, c, call(c.named(t.element.name), "Read", where, f"{target}[{i}]"), f.name, i)
            else:
                w.line(c.stmt(f"{target}[{i}] = {read_value(w, c, t.element, where, f.name, names, i)}"))
    elif isinstance(t, (ir.Sequence, ir.Mapping)):
        mapping = isinstance(t, ir.Mapping)
        e = "" if at is None else names("e")
        n = names("n")
        i = names("i") if mapping else ""
        if at is None:
            w.line(c.val(n, f"r.finalCount({t.item_min_size}, {t.item_cost}, {quoted})", "int"))
        else:
            w.line(c.val(e, f"r.vector({at[0]}, {at[1]}, {t.item_size}, {t.item_cost}, {quoted})", "int"))
            w.line(c.val(n, "r.count()", "int"))
        if isinstance(t, ir.Sequence) and reused_struct(t):
            assert isinstance(t.element, ir.StructRef)
            name, size = c.named(t.element.name), t.element.size
            reuse_elements(w, c, t, target, n, names, lambda x, i: catch(
                w, c, call(name, "Read", at and (at[0], f"{e} + {i} * {size}"), x), f.name, i), lambda i: catch(
                w, c, call(name, "Verify", at and (at[0], f"{e} + {i} * {size}")), f.name, i))
            return
        w.line(c.stmt(f"{target}.clear()"))
        i = i or names("i")
        with w.block(c.upto(i, n), "}"):
            if at is not None:
                pos = f"{e} + {i} * {t.item_size}"
            elif mapping or t.kind == "set":
                pos = names("p")
                w.line(c.val(pos, "r.pos()", "int"))
            else:
                pos = ""
            if isinstance(t, ir.Mapping):
                k = c.keep(w, read_value(w, c, t.key, at and (at[0], pos), f.name, names, i), t.key, names, "k")
                value = read_value(w, c, t.value, at and (at[0], f"{pos} + {t.key.size}"), f.name, names, i)
                w.line(c.put(target, k, value))
                c.if_(w, f"{c.size(target)} != {i} + 1", f"throw r.duplicateKey({quoted}, {pos})")
            else:
                value = read_value(w, c, t.element, at and (at[0], pos), f.name, names, i)
                if t.kind == "set":
                    c.added(w, value, target, f"throw r.duplicateKey({quoted}, {pos})", names)
                else:
                    w.line(c.stmt(f"{target}.add({value})"))
    else:
        value = read_value(w, c, t, at, f.name, names, None, c.into(target))
        if value != target:
            w.line(c.stmt(f"{target} = {value}"))


# ---------------------------------------------------------------- final

# ---------------------------------------------------------------- verify

def verify_value(w: CodeWriter, c: Context, t: ir.Type, at: tuple[str, str] | None, field: str, names: Names,
                 index: str | None) -> None:
    """Check a value as read_value reads it: the same Reader calls in the same order, without the
    value (docs/limits.md 4: verify accepts exactly what deserialize reads); at its versioned slot
    `at` = (base, slot), or at the Reader's cursor (`at` None, the final model)."""
    quoted = f'"{field}"'
    if at is not None and ir.reads_unchecked(t):
        return
    if ir.is_text(t) or ir.is_decimal(t):      # a decimal: its flags (docs/format.md 2.4)
        kind = {"string": "String", "bytes": "Bytes"}.get(t.name, "Decimal")
        if at is None:
            w.line(c.stmt(f"r.finalSkip{kind}({quoted})"))
        else:
            w.line(c.stmt(f"r.skipDecimal({at[1]}, {quoted})" if kind == "Decimal" else
                          f"r.skip{kind}({at[0]}, {at[1]}, {quoted})"))
    elif ir.is_scalar(t):
        w.line(c.stmt(f"r.fixed({t.size}, {quoted})"))      # the final model's (a versioned slot is unchecked)
    elif isinstance(t, ir.StructRef):
        where = "" if at is None else f", {at[0]}, {at[1]}"
        catch(w, c, f"{c.named(t.name)}.fbeVerify{'Final' if at is None else ''}(r{where})", field, index)
    elif isinstance(t, ir.Optional_):
        if at is None:
            with w.block(f"if (r.finalHas({quoted})) {{", "}"):
                verify_value(w, c, t.element, None, field, names, index)
            return
        call = f"r.optional({at[0]}, {at[1]}, {t.element.size}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(c.stmt(call))
            return
        s = names("s")
        w.line(c.val(s, call, "int"))
        with w.block(f"if ({s} >= 0) {{", "}"):
            verify_value(w, c, t.element, (s, s), field, names, index)
    else:
        raise AssertionError(f"a collection inside a collection: {t}")


def verify_kept(w: CodeWriter, c: Context, t: ir.Type, names: Names) -> str:
    """A local collection a set or a map is read into (kept: its keys find one read twice)."""
    local = names("t")
    assert isinstance(t, (ir.Sequence, ir.Mapping))
    w.line(c.typed(local, c.empty(t), c.type(t)))
    return local


def verify_field(w: CodeWriter, c: Context, f: ir.Field, at: tuple[str, str] | None, names: Names) -> None:
    """Check field f as read_field reads it: at its versioned slot `at` = (base, slot), or at the
    Reader's cursor (`at` None, the final model)."""
    t = f.type
    quoted = f'"{f.name}"'
    if kept(t):
        read_field(w, c, f, at, verify_kept(w, c, t, names), names)
    elif isinstance(t, ir.Array):
        if at is not None and ir.reads_unchecked(t.element):
            return      # nothing to check
        i = names("i")
        with w.block(c.upto(i, str(t.length)), "}"):
            verify_value(w, c, t.element, at and (at[0], plus(at[1], f"{i} * {t.element.size}")), f.name, names, i)
    elif isinstance(t, ir.Sequence):
        if at is None:
            e = ""
            call = f"r.finalCount({t.item_min_size}, {t.item_cost}, {quoted})"
            if ir.reads_unchecked(t.element):
                # finalCount bounded the count by the bytes left, so the run of fixed-size elements is there
                w.line(c.stmt(f"r.fixed({c.as_long(call)}, {t.element.size}, {quoted})"))
                return
            n = names("n")
            w.line(c.val(n, call, "int"))
        else:
            call = f"r.vector({at[0]}, {at[1]}, {t.item_size}, {t.item_cost}, {quoted})"
            if ir.reads_unchecked(t.element):
                w.line(c.stmt(call))
                return
            e, n = names("e"), names("n")
            w.line(c.val(e, call, "int"))
            w.line(c.val(n, "r.count()", "int"))
        i = names("i")
        with w.block(c.upto(i, n), "}"):
            verify_value(w, c, t.element, at and (at[0], f"{e} + {i} * {t.element.size}"), f.name, names, i)
    else:
        verify_value(w, c, t, at, f.name, names, None)


# ---------------------------------------------------------------- the codecs' bodies

def versioned_write(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeWrite(w, base, slot, v): v's versioned body, its offset stored in the slot."""
    bounded = c.plan.struct(s.qualified).bounded
    if not bounded:
        w.line(c.stmt(f'w.enter("{s.qualified}")'))
    call = f"w.struct(base, slot, {s.body_size}, {s.type_id})"
    w.line(c.val("b", call, "int") if s.all_fields else c.stmt(call))
    for f in s.all_fields:
        write_value(w, c, f.type, ("b", f"b + {f.offset}"), f"v.{c.ident.field(f)}", names, f.name)
    if not bounded:
        w.line(c.stmt("w.leave()"))



# ---------------------------------------------------------------- explaining a refused write

def explained(c: Context, s: ir.Struct) -> bool:
    """Whether a writer can refuse a value of s for what one of its fields holds (it has fbeExplain)."""
    return any(explains(c, f.type, c.nullable(f.type), frozenset({s.qualified})) for f in s.all_fields)


def caught(c: Context, s: ir.Struct) -> str:
    """What a root writer catches: Java's NullPointerException too where a field can hold a null."""
    exception = c.rt("EncodeException")
    if c.NULLS and explained(c, s):
        return c.catch(f"{exception} | NullPointerException")
    return c.catch(exception)


def refused(c: Context, s: ir.Struct, explain: str) -> str:
    """What a root writer throws when the write failed: the exception with the root type named, or
    (when a field can be refused) runtime Explain.refused, which runs the value's fbeExplain (the
    call explain) to name the field the writer refused (docs/limits.md 8)."""
    if not explained(c, s):
        return c.stmt(f'throw e.within("{s.qualified}")')
    return c.stmt(f'throw {c.rt("Explain")}.refused(e, "{s.qualified}"{c.spell("runnable", explain)}')


def expected(t: ir.Type) -> str:
    """A type as an error says the field expects it: the schema's name of it."""
    if isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef)):
        return t.name
    if isinstance(t, ir.Array):
        return "array"
    assert isinstance(t, (ir.Sequence, ir.Mapping))
    return t.kind


def explains(c: Context, t: ir.Type, nullable: bool, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a value of t has anything a writer refuses: a null (nullable), a string or decimal, a
    fixed array (its length), a struct or collection holding any of these."""
    if nullable or isinstance(t, ir.Array):
        return True
    if isinstance(t, ir.Primitive):
        return t.name in ("string", "decimal")
    if isinstance(t, ir.StructRef):
        if t.name in seen:
            return True
        s = c.schema.struct(t.name)
        return any(explains(c, f.type, c.nullable(f.type), seen | {t.name}) for f in s.all_fields)
    if isinstance(t, ir.Optional_):
        return explains(c, t.element, False, seen)
    if isinstance(t, ir.Sequence):
        return explains(c, t.element, c.nullable(t.element, True), seen)
    if isinstance(t, ir.Mapping):
        return (explains(c, t.key, c.nullable(t.key, True), seen)
                or explains(c, t.value, c.nullable(t.value, True), seen))
    return False


def explain_value(w: CodeWriter, c: Context, t: ir.Type, value: str, names: Names, field: str, index: str | None,
                  nullable: bool) -> None:
    """Check value of type t as the writers take it, in their order (runtime Explain: a null where the
    type has none when nullable, a string's lone surrogate, a decimal no decimal holds, a fixed
    array's length), then the values it holds; field and index (an element's) name it."""
    explain = c.rt("Explain")
    at = f'"{field}", {index}' if index is not None else f'"{field}"'
    if isinstance(t, ir.Primitive) and t.name in ("string", "decimal"):
        w.line(c.stmt(f"{explain}.{t.name}({value}, {at})"))
        return
    if nullable:
        w.line(c.stmt(f'{explain}.present({value}, "{expected(t)}", {at})'))
    if isinstance(t, ir.StructRef):
        if explains(c, t, False):
            catch(w, c, f"{c.named(t.name)}.fbeExplain({value})", field, index, "EncodeException")
    elif isinstance(t, ir.Optional_):
        if explains(c, t.element, False):
            o = c.local(w, value, names)
            with w.block(f"if ({o} != null) {{", "}"):
                explain_value(w, c, t.element, o, names, field, index, False)
    elif isinstance(t, ir.Array):
        w.line(c.stmt(f'{c.rt("Writer")}.checkLength({c.length(value)}, {t.length}, "{field}")'))
        element = c.nullable(t.element)
        if explains(c, t.element, element):
            i = names("i")
            with w.block(c.upto(i, str(t.length)), "}"):
                explain_value(w, c, t.element, f"{value}[{i}]", names, field, i, element)
    elif isinstance(t, (ir.Sequence, ir.Mapping)):
        if isinstance(t, ir.Sequence):
            parts = [(t.element, "")]
        else:
            parts = [(t.key, "key"), (t.value, "value")]
        checked = [(part, how, c.nullable(part, True)) for part, how in parts]
        if not any(explains(c, part, element) for part, _, element in checked):
            return
        i, x = names("i"), names("x")
        w.line(c.var(i, "0", "int"))
        items = value if isinstance(t, ir.Sequence) else c.entry_set(value)
        with w.block(c.each(w, x, t, items), "}"):
            for part, how, element in checked:
                if explains(c, part, element):
                    item = x if not how else c.key(x) if how == "key" else c.value(x)
                    explain_value(w, c, part, item, names, field, i, element)
            w.line(c.stmt(f"{i}++"))


def explain_fields(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeExplain(v): v's fields checked in the writers' order (explain_value)."""
    for f in s.all_fields:
        t = f.type
        if explains(c, t, c.nullable(t)):
            explain_value(w, c, t, f"v.{c.ident.field(f)}", names, f.name, None, c.nullable(t))

def _older(w: CodeWriter, c: Context, cost: int, field: str, defaults: str | None) -> None:
    """What a body that ends before a field does: its defaults' cost spent, then return."""
    if cost:
        w.line(c.stmt(f'r.spend({cost}, b, "{field}")'))
    if defaults is not None:
        w.line(c.stmt(defaults))
    w.line(c.stmt("r.leave()"))
    w.line(c.stmt("return"))


def versioned_read(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeRead(r, base, slot, v): the versioned body into v; the fields an older writer's shorter
    body does not hold take their defaults (their cost spent)."""
    plan = c.plan.struct(s.qualified)
    call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
    if s.all_fields:
        w.line(c.val("b", call, "int"))
        w.line(c.val("n", "r.i32(b)", "int"))
    else:
        w.line(c.stmt(call))
    if plan.base_fields:
        with w.block(f"if (n < {s.base_size}) {{", "}"):
            _older(w, c, plan.older_cost, plan.fields[0].name, "v.reset()")
        for fp in plan.base_fields:
            read_field(w, c, fp.field, ("b", f"b + {fp.offset}"), f"v.{c.ident.field(fp.field)}", names)
    for k, fp in enumerate(plan.own_fields):
        with w.block(f"if (n < {fp.end}) {{", "}"):
            _older(w, c, fp.missing_cost, fp.name, f"fbeDefaults(v, {k})")
        read_field(w, c, fp.field, ("b", f"b + {fp.offset}"), f"v.{c.ident.field(fp.field)}", names)
    w.line(c.stmt("r.leave()"))


def versioned_verify(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeVerify(r, base, slot): fbeRead's checks without the value (sets and maps aside: they are
    read into locals to find a key twice)."""
    plan = c.plan.struct(s.qualified)
    call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
    body = sub(w)
    if plan.base_fields:
        with body.block(f"if (n < {s.base_size}) {{", "}"):
            _older(body, c, plan.older_cost, plan.fields[0].name, None)
        for fp in plan.base_fields:
            verify_field(body, c, fp.field, ("b", f"b + {fp.offset}"), names)
    for fp in plan.own_fields:
        if ir.reads_unchecked(fp.type) and not fp.missing_cost:
            continue    # nothing to check, and when absent the next field's test returns alike
        with body.block(f"if (n < {fp.end}) {{", "}"):
            _older(body, c, fp.missing_cost, fp.name, None)
        verify_field(body, c, fp.field, ("b", f"b + {fp.offset}"), names)
    text = body.text().strip("\n")
    if text:
        w.line(c.val("b", call, "int"))
        w.line(c.val("n", "r.i32(b)", "int"))
        w.lines(text)
    else:
        w.line(c.stmt(call))
    w.line(c.stmt("r.leave()"))


def final_write_fields(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeWriteFinal(w, v): v's fields appended (final model, docs/format.md 4.2)."""
    bounded = c.plan.struct(s.qualified).bounded
    if not bounded:
        w.line(c.stmt(f'w.enter("{s.qualified}")'))
    for f in s.all_fields:
        write_value(w, c, f.type, None, f"v.{c.ident.field(f)}", names, f.name)
    if not bounded:
        w.line(c.stmt("w.leave()"))


def final_read_fields(w: CodeWriter, c: Context, s: ir.Struct, names: Names, reading: bool) -> None:
    """fbeReadFinal(r, v) (reading) or fbeVerifyFinal(r): the plan's final steps, each run of
    fixed-size fields claimed with one check."""
    w.line(c.stmt(f"r.enter({s.decode_cost})"))
    for step in c.plan.struct(s.qualified).final_steps:
        if isinstance(step, FieldPlan):
            if reading:
                read_field(w, c, step.field, None, f"v.{c.ident.field(step.field)}", names)
            else:
                verify_field(w, c, step.field, None, names)
        else:
            final_run(w, c, step, names, reading)
    w.line(c.stmt("r.leave()"))


def final_run(w: CodeWriter, c: Context, run: Run, names: Names, reading: bool) -> None:
    """Claim a run of fixed-size fields with one check (Reader.run, which fails with the error of
    the first field that is not there, as the per-field code does) and, reading, read each field
    at its offset in the run."""
    p = c.claim_run(w, run, names, reading)
    if p is None:
        return
    for f, at in zip(run.fields, run.at):
        slot = plus(p, str(at)) if at else p
        read_field(w, c, f.field, (slot, slot), f"v.{c.ident.field(f.field)}", names)


# ---------------------------------------------------------------- the codecs of a struct

def defaults_fields(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """fbeDefaults(v, from): the own fields from the from-th on back to the schema's defaults, as a
    new value has them (collections emptied in place): what fbeRead gives the fields an older
    writer's shorter body does not hold."""
    for k, fp in enumerate(c.plan.struct(s.qualified).own_fields):
        target = f"v.{c.ident.field(fp.field)}"
        if isinstance(fp.type, (ir.Sequence, ir.Mapping)):
            c.if_(w, f"from <= {k}", f"{target}.clear()")
        else:
            c.if_(w, f"from <= {k}", f"{target} = {c.default(fp.type, fp.field.default)}")


FAILS = "@throws DecodeException at the first problem (docs/limits.md)"
# Each codec of a struct (write_codecs' order): its parameters and the lines of its documentation, one
# text for both languages.
CODECS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "fbeWrite": (("w", "base", "slot", "v"),
                 ("Writes v's versioned body, its offset stored in the slot at slot (from base).",)),
    "fbeExplain": (("v",), (
        "Throws the EncodeException of the first field of v a writer refuses, naming its field path:",
        "run after a write failed, to explain it (docs/limits.md 8).")),
    "fbeRead": (("r", "base", "slot", "v"), (
        "Reads the versioned body the slot at slot points to (from base) into v, overwriting every",
        "field and reusing what v holds (nested structs, an optional struct, the elements of a vector",
        "of structs, the collections); fields an older writer did not write take the schema's",
        "defaults. After an error v is left part read (the roots reset it).", "", FAILS)),
    "fbeVerify": (("r", "base", "slot"), (
        "Checks the versioned body the slot at slot points to (from base) as [fbeRead] reads it,",
        "without building the value: the same checks in the same order, the same errors.", "", FAILS)),
    "fbeWriteFinal": (("w", "v"), ("Appends v's fields (final model, docs/format.md 4.2).",)),
    "fbeReadFinal": (("r", "v"), (
        "Reads v's fields at the reader's cursor (final model) into v, overwriting every field and",
        "reusing what v holds as [fbeRead] does. After an error v is left part read.", "", FAILS)),
    "fbeVerifyFinal": (("r",), (
        "Checks the fields at the reader's cursor (final model) as [fbeReadFinal] reads them,",
        "without building the value: the same checks in the same order, the same errors.", "", FAILS)),
    "fbeWriteJson": (("j", "v"), ("Writes v as a JSON object, inherited fields first (docs/format.md 8).",)),
    "fbeReadJson": (("r", "v"), (
        "Reads the JSON object at r's position into v, a value with the schema's defaults: members",
        "in any order, unknown ones skipped, missing ones left at their defaults (docs/format.md 8.3).", "",
        "@throws DecodeException at the first problem (docs/limits.md 7)")),
    "fbeText": (("t", "v"), (
        "Appends v in the original's text form to t, Name(field=value,...), a base struct first.",)),
}

def declare_codec(w: CodeWriter, c: Context, codec: str, name: str) -> AbstractContextManager[None]:
    """A codec of the struct whose class is name (CODECS): its documentation and its static head (Kotlin:
    in the companion), a reader's throwing DecodeException, then the block of its statements."""
    params, lines = CODECS[codec]

    def type_of(param: str) -> str:
        if param == "v":
            return name
        if param == "t":
            return "StringBuilder"
        if param == "r":
            return c.rt("JsonReader" if codec.endswith("Json") else "Reader")
        if param in ("w", "j"):
            return c.rt("Writer" if param == "w" else "JsonWriter")
        return c.TYPES["int32"][0]      # base, slot

    head = c.spell("static", codec, ", ".join(c.spell("param", p, type_of(p)) for p in params), c.result(""))
    throws = c.spell("throws", c.rt("DecodeException")) if "r" in params else ""
    return member(w, f"{head}{throws} {{", *c.tagged(lines, params))


def write_reset(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """reset() (the runtime's VersionedRoot documents it): a derived struct's base's fields first, then its
    own fields' defaults (fbeDefaults); a derived struct without own fields inherits its base's."""
    own = bool(c.plan.struct(s.qualified).own_fields)
    if s.base is not None and not own:
        return
    with w.block(f"{c.override(w, 'reset', '')} {{", "}"):
        if s.base is not None:
            w.line(c.stmt("super.reset()"))
        if own:
            w.line(c.stmt("fbeDefaults(this, 0)"))
    w.blank()


def write_defaults(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeDefaults(v, from), private, when s has own fields: the schema's defaults of the own fields from the
    from-th on, what fbeRead gives the fields a shorter (older) body does not hold, as a new value has them
    (collections emptied in place)."""
    if c.plan.struct(s.qualified).own_fields:
        params = f"{c.spell('param', 'v', name)}, {c.spell('param', 'from', c.TYPES['int32'][0])}"
        with member(w, f"{c.spell('private', 'fbeDefaults', params, c.result(''))} {{",
                    "Sets v's own fields from the from-th on to the schema's defaults."):
            defaults_fields(w, c, s)


def write_codecs(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool,
                 roots: Callable[[str, str], None]) -> None:
    """The codecs of struct s (its class: name) in the order both languages declare them (declare_codec):
    fbeWrite, fbeExplain (when a writer can refuse a field's value: explained), the defaults
    (write_defaults: fbeDefaults, which fbeRead calls), fbeRead, fbeVerify and the versioned roots (roots("Fbe",
    "versioned")); with final, fbeWriteFinal, fbeReadFinal, fbeVerifyFinal and the final roots
    (roots("Final", "final"))."""
    names = Names()
    with declare_codec(w, c, "fbeWrite", name):
        versioned_write(w, c, s, names)
    if explained(c, s):
        with declare_codec(w, c, "fbeExplain", name):
            explain_fields(w, c, s, Names())
    write_defaults(w, c, s, name)
    with declare_codec(w, c, "fbeRead", name):
        versioned_read(w, c, s, names)
    with declare_codec(w, c, "fbeVerify", name):
        versioned_verify(w, c, s, names)
    roots("Fbe", "versioned")
    if not final:
        return
    with declare_codec(w, c, "fbeWriteFinal", name):
        final_write_fields(w, c, s, names)
    with declare_codec(w, c, "fbeReadFinal", name):
        final_read_fields(w, c, s, names, True)
    with declare_codec(w, c, "fbeVerifyFinal", name):
        final_read_fields(w, c, s, names, False)
    roots("Final", "final")


def root_readers(model: str, suffix: str) -> tuple[tuple[str, str | None, tuple[str, ...]], ...]:
    """The root readers of a model (suffix Fbe or Final): from{suffix} into a new value (v, static),
    read{suffix} into this value (this) and verify{suffix} into none (static), each with the lines of
    its documentation, one text for both languages."""
    failed = "@throws DecodeException at the first problem (type, field path, offset)"
    return (("from", "v", (f"Reads a {model} root of length bytes at data[offset] under limits.", "", failed)),
            ("read", "this", (
                f"Reads a {model} root of length bytes at data[offset] under limits into this value,",
                "overwriting every field and reusing its nested structs, optional structs, the elements of",
                "its vectors of structs and its collections: a server reading into one value allocates",
                "little more than the strings while the messages keep their shape.", "",
                f"{failed}; this value is reset")),
            ("verify", None, (
                f"Checks a {model} root without building the value: returns exactly when [from{suffix}]",
                "succeeds and otherwise throws the exception it throws (docs/limits.md 4). Only sets and maps",
                "are read, into locals, to find a key read twice.", "",
                "@throws DecodeException why the root cannot be read")))


def root_interfaces(c: Context, options: Options) -> list[str]:
    """The runtime's interfaces a struct without a base implements, by the models and JSON it has:
    they document the writers' members and give their shorter forms (toFbe, toFinal, toJson)."""
    wanted = (("VersionedRoot", True), ("FinalRoot", options.final), ("JsonRoot", options.json))
    return [c.rt(root) for root, has in wanted if has]


def root_write(w: CodeWriter, c: Context, s: ir.Struct, model: str, call: str = "") -> None:
    """The body of a root's writer (model: versioned, final or json) into the writer w or j, which it
    resets first: a value a writer refuses leaves it empty, and the error names the field (refused);
    call: what the codecs are called on (`Order.`, or nothing)."""
    into = "j" if model == "json" else "w"
    body = {"versioned": ("w.beginVersioned()", f"{call}fbeWrite(w, 0, 4, this)", "return w.endVersioned()"),
            "final": ("w.beginFinal()", f"{call}fbeWriteFinal(w, this)", f"return w.endFinal({s.type_id})"),
            "json": ("j.reset()", f"{call}fbeWriteJson(j, this)", "return j.size()")}[model]
    with w.block("try {", f"}} {caught(c, s)} {{"):
        for statement in body:
            w.line(c.stmt(statement))
    with w.block("", "}"):
        w.line(c.stmt(f"{into}.reset()"))
        w.line(refused(c, s, f"{call}fbeExplain(this)"))


def root_read(w: CodeWriter, c: Context, s: ir.Struct, versioned: bool, into: str | None, cls: str = "",
              call: str = "") -> None:
    """The body of a root's reader into a value (into: `v`, a new value of cls it returns, or `this`,
    reset when the read fails) or of its verify (into None), its errors naming the root type
    (`e.within`); call: what the codecs are called on (`Order.`, or nothing)."""
    reader = c.rt("Reader")
    with w.block("try {", f"}} {c.catch(c.rt('DecodeException'))} {{"):
        if versioned:
            w.line(c.val("r", f"{reader}.versioned(data, offset, length, limits)", reader))
        else:
            w.line(c.val("r", f"{reader}.finalRoot(data, offset, length, {s.type_id}, limits)", reader))
        if into == "v":
            w.line(c.val("v", c.new(cls), cls))
        if versioned:
            w.line(c.stmt(f"{call}fbeRead(r, r.base(), r.base() + 4, {into})" if into else
                          f"{call}fbeVerify(r, r.base(), r.base() + 4)"))
        else:
            w.line(c.stmt(f"{call}fbeReadFinal(r, {into})" if into else f"{call}fbeVerifyFinal(r)"))
            w.line(c.stmt("r.endFinal()"))
        if into == "v":
            w.line(c.stmt("return v"))
    with w.block("", "}"):
        if into == "this":
            w.line(c.stmt("reset()"))
        w.line(c.stmt(f'throw e.within("{s.qualified}")'))
