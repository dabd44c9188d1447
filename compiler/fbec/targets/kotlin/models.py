"""The binary models of fbec --kotlin: straight-line field code at the IR's offsets on the Java
runtime's Writer and Reader (docs/format.md 3 and 4, docs/limits.md), as the Java target's.

Per struct, in its companion object, the codecs other generated classes call (`fbeWrite`/`fbeRead`/
`fbeVerify` of a versioned body at a slot, `fbeWriteFinal`/`fbeReadFinal`/`fbeVerifyFinal` of
final-model fields) and the roots users call (`fromFbe`, `verifyFbe` and their final twins);
`toFbe()`, `writeFbe(w)`, `readFbe(data, ...)` and `reset()` (and the final twins) are members,
open so a derived struct writes and reads its own fields. The codecs are per class, so a field
declared as a base struct is written as that struct whatever subclass it holds. Readers overwrite
every field of the value they read into, reusing its objects, as the Java target's (a field an
older writer did not write takes its default) and throw DecodeException at the first problem; a
nested struct's reader is wrapped so the exception gains the field path on its way out
(`e.at("orders", i)`). Verify makes the reader's checks in the same order without the value (the
Java target's helpers decide what a type needs checked), so it accepts exactly what the reader
reads. Kotlin's unsigned types cross to the runtime's signed Java types of
their width (`toByte()`, `toUByte()`), at no cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run
from fbec.targets.base import CodeWriter, Options
from fbec.targets.java.models import kept

if TYPE_CHECKING:
    from fbec.targets.kotlin import Context

# Primitive -> the suffix of its Writer put/append and Reader final methods, and its Reader slot method.
SLOT = {
    "bool": ("Bool", "bool"), "byte": ("I8", "i8"), "int8": ("I8", "i8"), "uint8": ("I8", "i8"),
    "char": ("Char", "ch"), "wchar": ("I32", "i32"), "int16": ("I16", "i16"), "uint16": ("I16", "i16"),
    "int32": ("I32", "i32"), "uint32": ("I32", "i32"), "int64": ("I64", "i64"), "uint64": ("I64", "i64"),
    "timestamp": ("I64", "i64"), "float": ("F32", "f32"), "double": ("F64", "f64"),
    "uuid": ("Uuid", "uuid"), "decimal": ("Decimal", "decimal"),
}
# Primitives held in an unsigned Kotlin type: the conversion to the runtime's type, and back.
UNSIGNED = {"byte": "UByte", "uint8": "UByte", "uint16": "UShort", "uint32": "UInt", "uint64": "ULong"}
WIRE_UNSIGNED = {"uint8": "UByte", "uint16": "UShort", "uint32": "UInt", "uint64": "ULong"}
TO_SIGNED = {"UByte": ".toByte()", "UShort": ".toShort()", "UInt": ".toInt()", "ULong": ".toLong()"}
FROM_SIGNED = {"UByte": ".toUByte()", "UShort": ".toUShort()", "UInt": ".toUInt()", "ULong": ".toULong()"}


class Names:
    """Fresh local variable names (Kotlin warns when a local shadows another)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


def plus(position: str, term: str) -> str:
    return f"{position} + {term}"


class SubWriter(CodeWriter):
    """Lines to be put into another writer `base` levels deep: its depth counts from there, so
    lines it measures (fits) know their real indentation."""

    def __init__(self, options: Options, base: int) -> None:
        super().__init__(options)
        self.base = base

    @property
    def depth(self) -> int:
        return self.base + super().depth


def sub(w: CodeWriter, deeper: int = 1) -> CodeWriter:
    """A writer of lines to be put into w `deeper` levels below its current depth (same indentation unit)."""
    unit = w.unit
    return SubWriter(Options(indent=len(unit), tabs=unit == "\t"), w.depth + deeper)


def to_runtime(t: ir.Primitive | ir.EnumRef, value: str) -> str:
    """value as the runtime's Java type of the slot."""
    if isinstance(t, ir.EnumRef):
        return f"{value}.value" + TO_SIGNED.get(WIRE_UNSIGNED.get(t.wire, ""), "")
    return value + TO_SIGNED.get(UNSIGNED.get(t.name, ""), "")


def from_runtime(c: Context, t: ir.Primitive | ir.EnumRef, expr: str) -> str:
    """The Kotlin value of a runtime read."""
    if isinstance(t, ir.EnumRef):
        return f"{c.named(t.name)}({expr}{FROM_SIGNED.get(WIRE_UNSIGNED.get(t.wire, ''), '')})"
    return expr + FROM_SIGNED.get(UNSIGNED.get(t.name, ""), "")


def local(w: CodeWriter, value: str, names: Names, stem: str = "o") -> str:
    """value as a local: itself when it is one, else a new `val` (so Kotlin smart-casts it)."""
    if value.isidentifier():
        return value
    x = names(stem)
    w.line(f"val {x} = {value}")
    return x


def added(w: CodeWriter, value: str, target: str, refusal: str, names: Names) -> None:
    """`if (!target.add(value)) refusal`, the value put in a local first when the line would be too long."""
    from fbec.targets.kotlin import fits
    if not fits(w, w.depth, f"if (!{target}.add({value})) {refusal}"):
        value = local(w, value, names, "x")
    w.line(f"if (!{target}.add({value})) {refusal}")


def catch(w: CodeWriter, c: Context, statement: str, field: str, index: str | None) -> None:
    """statement (a nested struct's reader) with the field path put in front of its errors."""
    at = f'e.at("{field}", {index})' if index is not None else f'e.at("{field}")'
    with w.block("try {", f"}} catch (e: {c.rt('DecodeException')}) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw {at}")


def elements(c: Context, t: ir.Sequence, value: str, field: str | None = None) -> str:
    """What a writer iterates: a set in its order, a vector or list as it is. With field (the
    writers), a set holding an element twice under the readers' rule throws (docs/limits.md 4)."""
    if t.kind == "set":
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
        order = c.comparator(t.key) or "null"
        return f'{c.rt("Compare")}.distinctHash({value}, {order}, "{field}")'
    return f"{value}.entries"


def iterate(w: CodeWriter, x: str, items: str) -> str:
    """The head of a for loop over items: items put in a local first when the line would be too long."""
    from fbec.targets.kotlin import fits
    if fits(w, w.depth, f"for ({x} in {items}) {{"):
        return f"for ({x} in {items}) {{"
    w.line(f"val {x}s =")
    with w.indented():
        w.line(items)
    return f"for ({x} in {x}s) {{"


def nested(w: CodeWriter, c: Context, statement: str, field: str, index: str | None) -> None:
    """statement (a nested struct's writer) with the field path put in front of its errors."""
    at = f'e.at("{field}", {index})' if index is not None else f'e.at("{field}")'
    with w.block("try {", f"}} catch (e: {c.rt('EncodeException')}) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw {at}")


def holds_struct(t: ir.Type) -> bool:
    """A struct or an optional struct: its writer may throw from a nested struct."""
    return isinstance(t, ir.StructRef) or isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef)


def optional_value(w: CodeWriter, c: Context, t: ir.Optional_, test: str, inner: CodeWriter, expr: str,
                   x: str) -> None:
    """`val x: T? = if (test) expr else null` (x: a new local; `target =` when x is a property), with
    inner's statements before expr when it has some."""
    from fbec.targets.kotlin import fits
    left = f"{x} =" if "." in x else f"val {x}: {c.type(t)} ="
    lines = inner.text().rstrip("\n")
    if not lines and fits(w, w.depth, f"{left} if ({test}) {expr} else null"):
        w.line(f"{left} if ({test}) {expr} else null")
        return
    if not lines:
        lines = ""
    with w.block(f"{left} if ({test}) {{", "} else {"):
        if lines:
            w.lines(lines)
        w.line(expr)
    with w.block("", "}"):
        w.line("null")


# ---------------------------------------------------------------- versioned

def write_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, value: str, names: Names,
                field: str, index: str | None = None) -> None:
    """Write value of type t into the slot at absolute position slot (offsets from base); field and
    index (an element's) name it in errors."""
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            w.line(f"w.string({base}, {slot}, {value})")
        elif t.name == "bytes":
            w.line(f"w.bytes({base}, {slot}, {value})")
        else:
            w.line(f"w.put{SLOT[t.name][0]}({slot}, {to_runtime(t, value)})")
    elif isinstance(t, ir.EnumRef):
        w.line(f"w.put{SLOT[t.wire][0]}({slot}, {to_runtime(t, value)})")
    elif isinstance(t, ir.StructRef):
        nested(w, c, f"{c.named(t.name)}.fbeWrite(w, {base}, {slot}, {value})", field, index)
    elif isinstance(t, ir.Optional_):
        o = local(w, value, names)
        with w.block(f"if ({o} != null) {{", "}"):
            s = names("s")
            w.line(f"val {s} = w.optional({base}, {slot}, {t.element.size})")
            write_value(w, c, t.element, s, s, o, names, field, index)
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(f'{c.rt("Writer")}.checkLength({value}.size, {t.length}, "{field}")')
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            write_value(w, c, t.element, base, plus(slot, f"{i} * {t.element.size}"), f"{value}[{i}]", names, field,
                        i)
    elif isinstance(t, ir.Sequence):
        e, i, x = names("e"), names("i"), names("x")
        w.line(f"val {e} = w.vector({base}, {slot}, {value}.size, {t.element.size})")
        w.line(f"var {i} = 0")
        with w.block(iterate(w, x, elements(c, t, value, field)), "}"):
            write_value(w, c, t.element, base, f"{e} + {i} * {t.element.size}", x, names, field, i)
            w.line(f"{i}++")
    else:
        item = t.item_size
        e, i, x = names("e"), names("i"), names("x")
        w.line(f"val {e} = w.vector({base}, {slot}, {value}.size, {item})")
        w.line(f"var {i} = 0")
        with w.block(iterate(w, x, entries(c, t, value, field)), "}"):
            write_value(w, c, t.key, base, f"{e} + {i} * {item}", f"{x}.key", names, field, i)
            write_value(w, c, t.value, base, f"{e} + {i} * {item} + {t.key.size}", f"{x}.value", names, field, i)
            w.line(f"{i}++")


def read_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, field: str, names: Names,
               index: str | None, target: str | None = None) -> str:
    """Write the statements reading the slot at absolute position slot (offsets from base) and return
    an expression of the value, to be used at once (it may read: evaluation order is allocation order).
    An optional is read into target when given (and target returned)."""
    quoted = f'"{field}"'
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            return f"r.string({base}, {slot}, {quoted})"
        if t.name == "bytes":
            return f"r.bytes({base}, {slot}, {quoted})"
        if t.name == "decimal":         # the reader checks its flags (docs/format.md 2.4)
            return f"r.decimal({slot}, {quoted})"
        return from_runtime(c, t, f"r.{SLOT[t.name][1]}({slot})")
    if isinstance(t, ir.EnumRef):
        return from_runtime(c, t, f"r.{SLOT[t.wire][1]}({slot})")
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        paid_first(w, c, t, f"{name}.fbeVerify(r, {base}, {slot})", field, index)
        w.line(f"val {x} = {name}()")
        catch(w, c, f"{name}.fbeRead(r, {base}, {slot}, {x})", field, index)
        return x
    if isinstance(t, ir.Optional_):
        x, s = target or names("x"), names("s")
        w.line(f"val {s} = r.optional({base}, {slot}, {t.element.size}, {quoted})")
        inner = sub(w)
        expr = read_value(inner, c, t.element, s, s, field, names, index)
        optional_value(w, c, t, f"{s} >= 0", inner, expr, x)
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def reuse_elements(w: CodeWriter, c: Context, t: ir.Sequence, target: str, n: str, names: Names,
                   read: Callable[[str, str], None], verify: Callable[[str], None]) -> None:
    """The loop over a vector of structs reading into the elements target holds (new ones past its
    end, the rest removed), as the Java target's: a read of the same shape allocates no struct.
    read(x, i) writes the statements reading element i into x."""
    assert isinstance(t.element, ir.StructRef)
    name = c.named(t.element.name)
    old, i, x = names("m"), names("i"), names("x")
    w.line(f"val {old} = {target}.size")
    with w.block(f"for ({i} in 0 until {n}) {{", "}"):
        struct = c.schema.struct(t.element.name)
        if struct.large_default:
            # a new element only once the budget pays for its default: else its check fails as its read
            # would, before the value is made (docs/limits.md 3)
            with w.block(f"if ({i} >= {old} && !r.affords({struct.default_cost})) {{", "}"):
                verify(i)
        w.line(f"val {x} = if ({i} < {old}) {target}[{i}] else {name}()")
        read(x, i)
        w.line(f"if ({i} >= {old}) {target}.add({x})")
    w.line(f"if ({old} > {n}) {target}.subList({n}, {old}).clear()")


def reused_struct(t: ir.Type) -> bool:
    """A vector of structs: its elements are read in place (reuse_elements)."""
    return isinstance(t, ir.Sequence) and t.kind == "vector" and isinstance(t.element, ir.StructRef)


def paid_first(w: CodeWriter, c: Context, t: ir.StructRef, verify: str, field: str, index: str | None) -> None:
    """Before a value of struct t is made (an element, an optional's value) when its default is large
    (ir.Struct.large_default): if the budget left does not pay for the default, verify (the value's
    check, which fails as its read would: docs/limits.md 3) runs instead, before the value is made."""
    struct = c.schema.struct(t.name)
    if struct.large_default:
        with w.block(f"if (!r.affords({struct.default_cost})) {{", "}"):
            catch(w, c, verify, field, index)


def reuse_optional(w: CodeWriter, c: Context, t: ir.StructRef, target: str, names: Names, verify: str,
                   field: str) -> str:
    """A local holding target's struct, made (and put into target) when target is null, once the budget
    pays for it (paid_first: verify runs when it does not)."""
    x = names("o")
    w.line(f"var {x} = {target}")
    with w.block(f"if ({x} == null) {{", "}"):
        paid_first(w, c, t, verify, field, None)
        w.line(f"{x} = {c.named(t.name)}()")
        w.line(f"{target} = {x}")
    return x


def reuse_array(w: CodeWriter, c: Context, t: ir.Array, target: str) -> None:
    """target made anew when it is not of the schema's length (a value a program built wrongly)."""
    w.line(f"if ({target}.size != {t.length}) {target} = {c.zero(t)}")


def read_field(w: CodeWriter, c: Context, f: ir.Field, base: str, slot: str, target: str, names: Names) -> None:
    """Read field f's slot into target, overwriting what it holds and reusing its objects (as the
    Java target's): nested structs, an optional struct, the elements of a vector of structs, the
    collections (emptied)."""
    t = f.type
    quoted = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeRead(r, {base}, {slot}, {target})", f.name, None)
    elif isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef):
        s = names("s")
        w.line(f"val {s} = r.optional({base}, {slot}, {t.element.size}, {quoted})")
        with w.block(f"if ({s} >= 0) {{", "} else {"):
            x = reuse_optional(w, c, t.element, target, names, f"{c.named(t.element.name)}.fbeVerify(r, {s}, {s})",
                               f.name)
            catch(w, c, f"{c.named(t.element.name)}.fbeRead(r, {s}, {s}, {x})", f.name, None)
        with w.block("", "}"):
            w.line(f"{target} = null")
    elif isinstance(t, ir.Array):
        reuse_array(w, c, t, target)
        i = names("i")
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            at = plus(slot, f"{i} * {t.element.size}")
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeRead(r, {base}, {at}, {target}[{i}])", f.name, i)
            else:
                w.line(f"{target}[{i}] = {read_value(w, c, t.element, base, at, f.name, names, i)}")
    elif isinstance(t, ir.Sequence):
        e, n = names("e"), names("n")
        w.line(f"val {e} = r.vector({base}, {slot}, {t.item_size}, {t.item_cost}, {quoted})")
        w.line(f"val {n} = r.count()")
        if reused_struct(t):
            assert isinstance(t.element, ir.StructRef)
            name, size = c.named(t.element.name), t.element.size
            reuse_elements(w, c, t, target, n, names, lambda x, i: catch(
                w, c, f"{name}.fbeRead(r, {base}, {e} + {i} * {size}, {x})", f.name, i), lambda i: catch(
                w, c, f"{name}.fbeVerify(r, {base}, {e} + {i} * {size})", f.name, i))
            return
        w.line(f"{target}.clear()")
        i = names("i")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            at = f"{e} + {i} * {t.element.size}"
            value = read_value(w, c, t.element, base, at, f.name, names, i)
            if t.kind == "set":
                added(w, value, target, f"throw r.duplicateKey({quoted}, {at})", names)
            else:
                w.line(f"{target}.add({value})")
    elif isinstance(t, ir.Mapping):
        item = t.item_size
        cost = t.item_cost
        e, n, i = names("e"), names("n"), names("i")
        w.line(f"val {e} = r.vector({base}, {slot}, {item}, {cost}, {quoted})")
        w.line(f"val {n} = r.count()")
        w.line(f"{target}.clear()")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            at = f"{e} + {i} * {item}"
            k = local(w, read_value(w, c, t.key, base, at, f.name, names, i), names, "k")
            value = read_value(w, c, t.value, base, f"{at} + {t.key.size}", f.name, names, i)
            w.line(f"{target}[{k}] = {value}")
            w.line(f"if ({target}.size != {i} + 1) throw r.duplicateKey({quoted}, {at})")
    elif isinstance(t, ir.Optional_):
        read_value(w, c, t, base, slot, f.name, names, None, target)
    else:
        w.line(f"{target} = {read_value(w, c, t, base, slot, f.name, names, None)}")


# ---------------------------------------------------------------- final

def final_write(w: CodeWriter, c: Context, t: ir.Type, value: str, names: Names, field: str,
                index: str | None = None) -> None:
    """Append value of type t (docs/format.md 4.2); field and index (an element's) name it in errors."""
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            w.line(f"w.appendString({value})")
        elif t.name == "bytes":
            w.line(f"w.appendBytes({value})")
        else:
            w.line(f"w.append{SLOT[t.name][0]}({to_runtime(t, value)})")
    elif isinstance(t, ir.EnumRef):
        w.line(f"w.append{SLOT[t.wire][0]}({to_runtime(t, value)})")
    elif isinstance(t, ir.StructRef):
        nested(w, c, f"{c.named(t.name)}.fbeWriteFinal(w, {value})", field, index)
    elif isinstance(t, ir.Optional_):
        o = local(w, value, names)
        w.line(f"w.appendBool({o} != null)")
        with w.block(f"if ({o} != null) {{", "}"):
            final_write(w, c, t.element, o, names, field, index)
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(f'{c.rt("Writer")}.checkLength({value}.size, {t.length}, "{field}")')
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            final_write(w, c, t.element, f"{value}[{i}]", names, field, i)
    elif isinstance(t, ir.Sequence):
        x = names("x")
        k = names("i") if holds_struct(t.element) else None
        w.line(f"w.appendCount({value}.size)")
        if k is not None:
            w.line(f"var {k} = 0")
        with w.block(iterate(w, x, elements(c, t, value, field)), "}"):
            final_write(w, c, t.element, x, names, field, k)
            if k is not None:
                w.line(f"{k}++")
    else:
        x = names("x")
        k = names("i") if holds_struct(t.key) or holds_struct(t.value) else None
        w.line(f"w.appendCount({value}.size)")
        if k is not None:
            w.line(f"var {k} = 0")
        with w.block(iterate(w, x, entries(c, t, value, field)), "}"):
            final_write(w, c, t.key, f"{x}.key", names, field, k)
            final_write(w, c, t.value, f"{x}.value", names, field, k)
            if k is not None:
                w.line(f"{k}++")


def final_read(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, index: str | None,
               target: str | None = None) -> str:
    """Write the statements reading the value at the Reader's cursor and return an expression of it
    (to be used at once). An optional is read into target when given (and target returned)."""
    quoted = f'"{field}"'
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            return f"r.finalString({quoted})"
        if t.name == "bytes":
            return f"r.finalBytes({quoted})"
        return from_runtime(c, t, f"r.final{SLOT[t.name][0]}({quoted})")
    if isinstance(t, ir.EnumRef):
        return from_runtime(c, t, f"r.final{SLOT[t.wire][0]}({quoted})")
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        paid_first(w, c, t, f"{name}.fbeVerifyFinal(r)", field, index)
        w.line(f"val {x} = {name}()")
        catch(w, c, f"{name}.fbeReadFinal(r, {x})", field, index)
        return x
    if isinstance(t, ir.Optional_):
        x = target or names("x")
        inner = sub(w)
        expr = final_read(inner, c, t.element, field, names, index)
        optional_value(w, c, t, f"r.finalHas({quoted})", inner, expr, x)
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def final_read_field(w: CodeWriter, c: Context, f: ir.Field, target: str, names: Names) -> None:
    """Read field f at the Reader's cursor into target, overwriting what it holds and reusing its
    objects as read_field does."""
    t = f.type
    quoted = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeReadFinal(r, {target})", f.name, None)
    elif isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef):
        with w.block(f"if (r.finalHas({quoted})) {{", "} else {"):
            x = reuse_optional(w, c, t.element, target, names, f"{c.named(t.element.name)}.fbeVerifyFinal(r)", f.name)
            catch(w, c, f"{c.named(t.element.name)}.fbeReadFinal(r, {x})", f.name, None)
        with w.block("", "}"):
            w.line(f"{target} = null")
    elif isinstance(t, ir.Array):
        reuse_array(w, c, t, target)
        i = names("i")
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeReadFinal(r, {target}[{i}])", f.name, i)
            else:
                w.line(f"{target}[{i}] = {final_read(w, c, t.element, f.name, names, i)}")
    elif isinstance(t, ir.Sequence):
        n = names("n")
        w.line(f"val {n} = r.finalCount({t.item_min_size}, {t.item_cost}, {quoted})")
        if reused_struct(t):
            assert isinstance(t.element, ir.StructRef)
            name = c.named(t.element.name)
            reuse_elements(w, c, t, target, n, names, lambda x, i: catch(
                w, c, f"{name}.fbeReadFinal(r, {x})", f.name, i), lambda i: catch(
                w, c, f"{name}.fbeVerifyFinal(r)", f.name, i))
            return
        w.line(f"{target}.clear()")
        i = names("i")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            if t.kind == "set":
                at = names("p")
                w.line(f"val {at} = r.pos()")
                value = final_read(w, c, t.element, f.name, names, i)
                added(w, value, target, f"throw r.duplicateKey({quoted}, {at})", names)
            else:
                w.line(f"{target}.add({final_read(w, c, t.element, f.name, names, i)})")
    elif isinstance(t, ir.Mapping):
        item = t.item_min_size
        cost = t.item_cost
        n, i = names("n"), names("i")
        w.line(f"val {n} = r.finalCount({item}, {cost}, {quoted})")
        w.line(f"{target}.clear()")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            at = names("p")
            w.line(f"val {at} = r.pos()")
            k = local(w, final_read(w, c, t.key, f.name, names, i), names, "k")
            value = final_read(w, c, t.value, f.name, names, i)
            w.line(f"{target}[{k}] = {value}")
            w.line(f"if ({target}.size != {i} + 1) throw r.duplicateKey({quoted}, {at})")
    elif isinstance(t, ir.Optional_):
        final_read(w, c, t, f.name, names, None, target)
    else:
        w.line(f"{target} = {final_read(w, c, t, f.name, names, None)}")


# ---------------------------------------------------------------- verify

def verify_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, field: str, names: Names,
                 index: str | None) -> None:
    """Check the slot at slot as read_value reads it: the same Reader calls in the same order,
    without the value (docs/limits.md 4: verify accepts exactly what deserialize reads), as the
    Java target's."""
    quoted = f'"{field}"'
    if ir.reads_unchecked(t):
        return
    if isinstance(t, ir.Primitive):
        kind = {"string": "String", "bytes": "Bytes"}.get(t.name)
        w.line(f"r.skip{kind}({base}, {slot}, {quoted})" if kind else f"r.skipDecimal({slot}, {quoted})")
    elif isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeVerify(r, {base}, {slot})", field, index)
    else:
        assert isinstance(t, ir.Optional_), f"a collection inside a collection: {t}"
        call = f"r.optional({base}, {slot}, {t.element.size}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(call)
            return
        s = names("s")
        w.line(f"val {s} = {call}")
        with w.block(f"if ({s} >= 0) {{", "}"):
            verify_value(w, c, t.element, s, s, field, names, index)


def verify_kept(w: CodeWriter, c: Context, t: ir.Type, names: Names) -> str:
    """A local collection a set or a map is read into (kept: its keys find one read twice)."""
    local = names("t")
    assert isinstance(t, (ir.Sequence, ir.Mapping))
    w.line(f"val {local}: {c.type(t)} = {c.empty(t)}")
    return local


def verify_field(w: CodeWriter, c: Context, f: ir.Field, base: str, slot: str, names: Names) -> None:
    """Check field f's slot as read_field reads it."""
    t = f.type
    quoted = f'"{f.name}"'
    if kept(t):
        read_field(w, c, f, base, slot, verify_kept(w, c, t, names), names)
    elif isinstance(t, ir.Array):
        if ir.reads_unchecked(t.element):
            return
        i = names("i")
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            verify_value(w, c, t.element, base, plus(slot, f"{i} * {t.element.size}"), f.name, names, i)
    elif isinstance(t, ir.Sequence):
        call = f"r.vector({base}, {slot}, {t.item_size}, {t.item_cost}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(call)
            return
        e, n, i = names("e"), names("n"), names("i")
        w.line(f"val {e} = {call}")
        w.line(f"val {n} = r.count()")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            verify_value(w, c, t.element, base, f"{e} + {i} * {t.element.size}", f.name, names, i)
    else:
        verify_value(w, c, t, base, slot, f.name, names, None)


def final_verify(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, index: str | None) -> None:
    """Check the value at the Reader's cursor as final_read reads it, without the value."""
    quoted = f'"{field}"'
    if ir.is_text(t) or ir.is_decimal(t):      # a decimal: its flags (docs/format.md 2.4)
        kind = {"string": "String", "bytes": "Bytes"}.get(t.name, "Decimal")
        w.line(f"r.finalSkip{kind}({quoted})")
    elif ir.is_scalar(t):
        w.line(f"r.fixed({t.size}, {quoted})")
    elif isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeVerifyFinal(r)", field, index)
    elif isinstance(t, ir.Optional_):
        with w.block(f"if (r.finalHas({quoted})) {{", "}"):
            final_verify(w, c, t.element, field, names, index)
    else:
        raise AssertionError(f"a collection inside a collection: {t}")


def final_verify_field(w: CodeWriter, c: Context, f: ir.Field, names: Names) -> None:
    """Check field f at the Reader's cursor as final_read_field reads it."""
    t = f.type
    quoted = f'"{f.name}"'
    if kept(t):
        final_read_field(w, c, f, verify_kept(w, c, t, names), names)
    elif isinstance(t, ir.Array):
        i = names("i")
        with w.block(f"for ({i} in 0 until {t.length}) {{", "}"):
            final_verify(w, c, t.element, f.name, names, i)
    elif isinstance(t, ir.Sequence):
        call = f"r.finalCount({t.item_min_size}, {t.item_cost}, {quoted})"
        if ir.reads_unchecked(t.element):
            # finalCount bounded the count by the bytes left, so the run of fixed-size elements is there
            w.line(f"r.fixed({call}.toLong(), {t.element.size}, {quoted})")
            return
        n, i = names("n"), names("i")
        w.line(f"val {n} = {call}")
        with w.block(f"for ({i} in 0 until {n}) {{", "}"):
            final_verify(w, c, t.element, f.name, names, i)
    else:
        final_verify(w, c, t, f.name, names, None)


def write_verify(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeVerify: fbeRead's checks without the value (sets and maps aside: they are read into
    locals to find a key twice), as the Java target's."""
    plan = c.plan.struct(s.qualified)
    reader = c.rt("Reader")
    w.line("/**")
    w.line(" * Checks the versioned body the slot at [slot] points to (from [base]) as [fbeRead] reads it,")
    w.line(" * without building the value: the same checks in the same order, the same errors.")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"fun fbeVerify(r: {reader}, base: Int, slot: Int) {{", "}"):
        call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
        body = sub(w)
        if plan.base_fields:
            with body.block(f"if (n < {s.base_size}) {{", "}"):
                if plan.older_cost:
                    body.line(f'r.spend({plan.older_cost}, b, "")')
                body.line("r.leave()")
                body.line("return")
            for fp in plan.base_fields:
                verify_field(body, c, fp.field, "b", f"b + {fp.offset}", names)
        for fp in plan.own_fields:
            if ir.reads_unchecked(fp.type) and not fp.missing_cost:
                continue    # nothing to check, and when absent the next field's test returns alike
            with body.block(f"if (n < {fp.end}) {{", "}"):
                if fp.missing_cost:
                    body.line(f'r.spend({fp.missing_cost}, b, "{fp.name}")')
                body.line("r.leave()")
                body.line("return")
            verify_field(body, c, fp.field, "b", f"b + {fp.offset}", names)
        text = body.text().strip("\n")
        if text:
            w.line(f"val b = {call}")
            w.line("val n = r.i32(b)")
            w.lines(text)
        else:
            w.line(call)
        w.line("r.leave()")
    w.blank()


# ---------------------------------------------------------------- runs of fixed-size fields

def final_run(w: CodeWriter, run: Run, names: Names, read: Callable[[ir.Field, str], None] | None) -> None:
    """Claim a run of fixed-size fields with one check (Reader.run, which fails with the error of
    the first field that is not there, as the per-field code does; the plan's runs) and read each
    field at its offset in the run with read(f, slot) (None: verify, nothing to read)."""
    from fbec.targets.kotlin import fits
    p = names("p")
    head = "r.run(" if read is None else f"val {p} = r.run("
    fields = run.description
    if fits(w, w.depth, f'{head}{run.size}, "{fields}")'):
        w.line(f'{head}{run.size}, "{fields}")')
    else:
        # a long description: string literals joined with + (one constant for the compiler), a line each
        with w.block(head, ")"):
            w.line(f"{run.size},")
            pieces = [""]
            for part in fields.split(","):
                joined = f"{pieces[-1]},{part}" if pieces[-1] else part
                if pieces[-1] and not fits(w, w.depth + 1, f'"{joined}," +'):
                    pieces[-1] += ","
                    pieces.append(part)
                else:
                    pieces[-1] = joined
            for k, piece in enumerate(pieces):
                last = k == len(pieces) - 1
                w.line(("" if k == 0 else w.unit) + f'"{piece}"' + ("," if last else " +"))
    if read is None:
        return
    for f, at in zip(run.fields, run.at):
        read(f.field, plus(p, str(at)) if at else p)


# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool, json: bool) -> None:
    """The members (toFbe, writeFbe and the final twins; toJson, writeJson), then the companion object
    with the codecs, the roots and the text form."""
    from fbec.targets.kotlin.json import write_json, write_json_members
    from fbec.targets.kotlin.text import write_text
    writer = c.rt("Writer")
    derived = s.base is not None
    exception = c.rt("EncodeException")
    write_reset(w, s)
    write_members(w, c, s, name, "Fbe", "versioned", writer, derived, exception)
    if final:
        write_members(w, c, s, name, "Final", "final", writer, derived, exception)
    if json:
        write_json_members(w, c, s, name)
    inner = sub(w)
    write_companion(inner, c, s, name, final)
    if json:
        write_json(inner, c, s, name)
    write_text(inner, c, s, name)
    with w.block("companion object {", "}"):
        w.lines(inner.text())


def write_members(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str, writer: str,
                  derived: bool, exception: str) -> None:
    """to{suffix}() (in a struct without a base: derived ones inherit it), write{suffix}(w) and
    read{suffix}(data, ...) into this value."""
    versioned = suffix == "Fbe"
    section = "3.2" if versioned else "4.1"
    if not derived:
        w.line(f"/** This value as a {model} root (docs/format.md {section}). */")
        with w.block(f"fun to{suffix}(): ByteArray {{", "}"):
            w.line(f"val w = {writer}()")
            w.line(f"write{suffix}(w)")
            w.line("return w.toByteArray()")
        w.blank()
    w.line("/**")
    w.line(f" * Writes this value as a {model} root into [w] (reset first) and returns its size: the")
    w.line(" * root is `w.buffer()[0 until size]`; with a reused writer, serializing allocates nothing.")
    w.line(" *")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path); [w] is left empty")
    w.line(" */")
    modifier = "override" if derived else "open"
    with w.block(f"{modifier} fun write{suffix}(w: {writer}): Int {{", "}"):
        with w.block("try {", f"}} catch (e: {exception}) {{"):
            if versioned:
                w.line("w.beginVersioned()")
                w.line(f"{name}.fbeWrite(w, 0, 4, this)")
                w.line("return w.endVersioned()")
            else:
                w.line("w.beginFinal()")
                w.line(f"{name}.fbeWriteFinal(w, this)")
                w.line(f"return w.endFinal({s.type_id})")
        with w.block("", "}"):
            w.line("w.reset()")
            w.line(f'throw e.within("{s.qualified}")')
    w.blank()
    write_read_into(w, c, s, name, suffix, model, derived)


def write_read_into(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str,
                    derived: bool) -> None:
    """read{suffix}(data, offset, length, limits): a root read into this value, as the Java target's."""
    from fbec.targets.kotlin import signature
    reader, limits, decode_exception = c.rt("Reader"), c.rt("Limits"), c.rt("DecodeException")
    w.line("/**")
    w.line(f" * Reads a {model} root of [length] bytes at `data[offset]` under [limits] into this value,")
    w.line(" * overwriting every property and reusing its nested structs, optional structs, the elements of")
    w.line(" * its vectors of structs and its collections: a server reading into one value allocates little")
    w.line(" * more than the strings while the messages keep their shape.")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset); this value is then")
    w.line(" *   reset to the schema's defaults")
    w.line(" */")
    if derived:
        params = ["data: ByteArray", "offset: Int", "length: Int", f"limits: {limits}"]
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, f"override fun read{suffix}", params, " {")
    else:
        params = ["data: ByteArray", "offset: Int = 0", "length: Int = data.size",
                  f"limits: {limits} = {limits}.DEFAULT"]
        w.line("@JvmOverloads")
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, f"open fun read{suffix}", params, " {")
    with w.block("", "}"):
        with w.block("try {", f"}} catch (e: {decode_exception}) {{"):
            if suffix == "Fbe":
                w.line(f"val r = {reader}.versioned(data, offset, length, limits)")
                w.line(f"{name}.fbeRead(r, r.base(), r.base() + 4, this)")
            else:
                w.line(f"val r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits)")
                w.line(f"{name}.fbeReadFinal(r, this)")
                w.line("r.endFinal()")
        with w.block("", "}"):
            w.line("reset()")
            w.line(f'throw e.within("{s.qualified}")')
    w.blank()


def write_reset(w: CodeWriter, s: ir.Struct) -> None:
    """reset(): every property to the schema's default, as a new value has them (what readFbe leaves
    after an error); open, a derived struct's resets its base's properties first."""
    own = any(f.owner == s.qualified for f in s.all_fields)
    if s.base is not None and not own:
        return
    w.line("/** Sets every property to the schema's default, as a new value has them (collections emptied in place). */")
    if s.base is None:
        head = "open fun reset()"
        if not own:
            w.line(f"{head} = Unit")
            w.blank()
            return
    else:
        head = "override fun reset()"
    with w.block(f"{head} {{", "}"):
        if s.base is not None:
            w.line("super.reset()")
        w.line("fbeDefaults(this, 0)")
    w.blank()


def write_defaults(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeDefaults(v, from): the schema's defaults of the own fields from the from-th on, what fbeRead
    gives the fields a shorter (older) body does not hold, as a new value has them (collections
    emptied in place)."""
    from fbec.targets.kotlin import fits
    own = [f for f in s.all_fields if f.owner == s.qualified]
    if not own:
        return
    w.line("/** Sets [v]'s own properties from the [from]-th on to the schema's defaults. */")
    with w.block(f"private fun fbeDefaults(v: {name}, from: Int) {{", "}"):
        for k, f in enumerate(own):
            target = f"v.{c.ident.field(f)}"
            if isinstance(f.type, (ir.Sequence, ir.Mapping)):
                w.line(f"if (from <= {k}) {target}.clear()")
            elif fits(w, w.depth, f"if (from <= {k}) {target} = {c.default(f.type, f.default)}"):
                w.line(f"if (from <= {k}) {target} = {c.default(f.type, f.default)}")
            else:
                with w.block(f"if (from <= {k}) {{", "}"):
                    w.line(f"{target} = {c.default(f.type, f.default)}")
    w.blank()


def write_companion(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    from fbec.targets.kotlin import key_compare
    q = s.qualified
    plan = c.plan.struct(q)
    bounded = plan.bounded
    writer, reader = c.rt("Writer"), c.rt("Reader")
    names = Names()

    w.line(f"/** The type id of {q}. */")
    w.line(f"const val TYPE_ID = {s.type_id}")
    w.blank()
    keys = [f for f in s.all_fields if f.name in s.keys]
    w.line(f"/** The order of sets and maps of {name}: by the [key] fields, as the wire orders them. */")
    w.line("@JvmField")
    if not keys:
        w.line(f"val KEY_ORDER: Comparator<{name}> = Comparator {{ _, _ -> 0 }}")
    else:
        with w.block(f"val KEY_ORDER: Comparator<{name}> = Comparator {{ a, b ->", "}"):
            for k, f in enumerate(keys):
                expr = key_compare(c, f.type, f"a.{c.ident.field(f)}", f"b.{c.ident.field(f)}")
                if k == len(keys) - 1:
                    w.line(expr)
                else:
                    w.line(f"val c{k} = {expr}")
                    w.line(f"if (c{k} != 0) return@Comparator c{k}")
    w.blank()

    w.line("/** Writes [v]'s versioned body, its offset stored in the slot at [slot] (from [base]). */")
    with w.block(f"fun fbeWrite(w: {writer}, base: Int, slot: Int, v: {name}) {{", "}"):
        if not bounded:
            w.line(f'w.enter("{q}")')
        call = f"w.struct(base, slot, {s.body_size}, {s.type_id})"
        w.line(f"val b = {call}" if s.all_fields else call)
        for f in s.all_fields:
            write_value(w, c, f.type, "b", f"b + {f.offset}", f"v.{c.ident.field(f)}", names, f.name)
        if not bounded:
            w.line("w.leave()")
    w.blank()

    write_defaults(w, c, s, name)
    w.line("/**")
    w.line(" * Reads the versioned body the slot at [slot] points to (from [base]) into [v], overwriting every")
    w.line(" * field and reusing what [v] holds (nested structs, an optional struct, the elements of a vector")
    w.line(" * of structs, the collections); fields an older writer did not write take the schema's")
    w.line(" * defaults. After an error [v] is left part read (the roots reset it).")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"fun fbeRead(r: {reader}, base: Int, slot: Int, v: {name}) {{", "}"):
        call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
        if s.all_fields:
            w.line(f"val b = {call}")
            w.line("val n = r.i32(b)")
        else:
            w.line(call)
        if plan.base_fields:
            with w.block(f"if (n < {s.base_size}) {{", "}"):
                if plan.older_cost:
                    w.line(f'r.spend({plan.older_cost}, b, "")')
                w.line("v.reset()")
                w.line("r.leave()")
                w.line("return")
            for fp in plan.base_fields:
                read_field(w, c, fp.field, "b", f"b + {fp.offset}", f"v.{c.ident.field(fp.field)}", names)
        for k, fp in enumerate(plan.own_fields):
            with w.block(f"if (n < {fp.end}) {{", "}"):
                if fp.missing_cost:
                    w.line(f'r.spend({fp.missing_cost}, b, "{fp.name}")')
                w.line(f"fbeDefaults(v, {k})")
                w.line("r.leave()")
                w.line("return")
            read_field(w, c, fp.field, "b", f"b + {fp.offset}", f"v.{c.ident.field(fp.field)}", names)
        w.line("r.leave()")
    w.blank()
    write_verify(w, c, s, names)
    write_roots(w, c, s, name, "Fbe", "versioned")
    if not final:
        return

    w.line("/** Appends [v]'s fields (final model, docs/format.md 4.2). */")
    with w.block(f"fun fbeWriteFinal(w: {writer}, v: {name}) {{", "}"):
        if not bounded:
            w.line(f'w.enter("{q}")')
        for f in s.all_fields:
            final_write(w, c, f.type, f"v.{c.ident.field(f)}", names, f.name)
        if not bounded:
            w.line("w.leave()")
    w.blank()
    w.line("/**")
    w.line(" * Reads [v]'s fields at the reader's cursor (final model) into [v], overwriting every field and")
    w.line(" * reusing what [v] holds as [fbeRead] does. After an error [v] is left part read.")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"fun fbeReadFinal(r: {reader}, v: {name}) {{", "}"):
        w.line(f"r.enter({s.decode_cost})")
        for step in plan.final_steps:
            if isinstance(step, FieldPlan):
                final_read_field(w, c, step.field, f"v.{c.ident.field(step.field)}", names)
            else:
                final_run(w, step, names, lambda f, at: read_field(w, c, f, at, at, f"v.{c.ident.field(f)}", names))
        w.line("r.leave()")
    w.blank()
    w.line("/**")
    w.line(" * Checks the fields at the reader's cursor (final model) as [fbeReadFinal] reads them, without")
    w.line(" * building the value: the same checks in the same order, the same errors.")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"fun fbeVerifyFinal(r: {reader}) {{", "}"):
        w.line(f"r.enter({s.decode_cost})")
        for step in plan.final_steps:
            if isinstance(step, FieldPlan):
                final_verify_field(w, c, step.field, names)
            else:
                final_run(w, step, names, None)
        w.line("r.leave()")
    w.blank()
    write_roots(w, c, s, name, "Final", "final")


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """fromFbe/verifyFbe, or their final twins (suffix Final), in the companion object (depth 2)."""
    from fbec.targets.kotlin import signature
    q = s.qualified
    versioned = suffix == "Fbe"
    reader, limits, decode_exception = c.rt("Reader"), c.rt("Limits"), c.rt("DecodeException")
    params = ["data: ByteArray", "offset: Int = 0", "length: Int = data.size", f"limits: {limits} = {limits}.DEFAULT"]
    w.line("/**")
    w.line(f" * Reads a {model} root of [length] bytes at `data[offset]` under [limits].")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset)")
    w.line(" */")
    w.line("@JvmStatic")
    w.line("@JvmOverloads")
    w.line(f"@Throws({decode_exception}::class)")
    signature(w, w.depth, f"fun from{suffix}", params, f": {name} {{")
    with w.block("", "}"):
        with w.block("try {", f"}} catch (e: {decode_exception}) {{"):
            if versioned:
                w.line(f"val r = {reader}.versioned(data, offset, length, limits)")
                w.line(f"val v = {name}()")
                w.line("fbeRead(r, r.base(), r.base() + 4, v)")
            else:
                w.line(f"val r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits)")
                w.line(f"val v = {name}()")
                w.line("fbeReadFinal(r, v)")
                w.line("r.endFinal()")
            w.line("return v")
        with w.block("", "}"):
            w.line(f'throw e.within("{q}")')
    w.blank()
    w.line("/**")
    w.line(f" * Checks a {model} root without building the value: returns exactly when [from{suffix}]")
    w.line(" * succeeds and otherwise throws the exception it throws (docs/limits.md 4). Only sets and maps")
    w.line(" * are read, into locals, to find a key read twice.")
    w.line(" *")
    w.line(" * @throws DecodeException why the root cannot be read")
    w.line(" */")
    w.line("@JvmStatic")
    w.line("@JvmOverloads")
    w.line(f"@Throws({decode_exception}::class)")
    signature(w, w.depth, f"fun verify{suffix}", params, " {")
    with w.block("", "}"):
        with w.block("try {", f"}} catch (e: {decode_exception}) {{"):
            if versioned:
                w.line(f"val r = {reader}.versioned(data, offset, length, limits)")
                w.line("fbeVerify(r, r.base(), r.base() + 4)")
            else:
                w.line(f"val r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits)")
                w.line("fbeVerifyFinal(r)")
                w.line("r.endFinal()")
        with w.block("", "}"):
            w.line(f'throw e.within("{q}")')
    w.blank()
