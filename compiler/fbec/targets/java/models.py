"""The binary models of fbec --java: straight-line field code at the IR's offsets on the runtime's
Writer and Reader (docs/format.md 3 and 4, docs/limits.md).

Per struct, static codecs that other generated classes call (`fbeWrite`/`fbeRead` of a versioned
body at a slot, `fbeWriteFinal`/`fbeReadFinal` of final-model fields) and the roots users call
(`toFbe`, `writeFbe`, `fromFbe`, `verifyFbe` and their final twins). The codecs are static,
overloaded by the struct's class, so a field declared as a base struct is written as that struct
whatever subclass it holds. Readers read into a value made with the schema's defaults (so a
field an older writer did not write keeps its default) and throw DecodeException at the first
problem; a nested struct's reader is wrapped so the exception gains the field path on its way
out (`e.at("orders", i)`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run
from fbec.targets.base import CodeWriter, Options

if TYPE_CHECKING:
    from fbec.targets.java import Context

# Primitive -> the suffix of its Writer put/append and Reader final methods, and its Reader slot method.
SLOT = {
    "bool": ("Bool", "bool"), "byte": ("I8", "i8"), "int8": ("I8", "i8"), "uint8": ("I8", "i8"),
    "char": ("Char", "ch"), "wchar": ("I32", "i32"), "int16": ("I16", "i16"), "uint16": ("I16", "i16"),
    "int32": ("I32", "i32"), "uint32": ("I32", "i32"), "int64": ("I64", "i64"), "uint64": ("I64", "i64"),
    "timestamp": ("I64", "i64"), "float": ("F32", "f32"), "double": ("F64", "f64"),
    "uuid": ("Uuid", "uuid"), "decimal": ("Decimal", "decimal"),
}


class Names:
    """Fresh local variable names (Java forbids shadowing a local in a nested block)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


def plus(position: str, term: str) -> str:
    return f"{position} + {term}"


def catch(w: CodeWriter, c: Context, statement: str, field: str, index: str | None) -> None:
    """statement (a nested struct's reader) with the field path put in front of its errors."""
    at = f'e.at("{field}", {index})' if index is not None else f'e.at("{field}")'
    with w.block("try {", f"}} catch ({c.rt('DecodeException')} e) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw {at};")


def paid_first(w: CodeWriter, c: Context, t: ir.StructRef, verify: str, field: str, index: str | None,
               also: str = "") -> None:
    """Before a value of struct t is made (an element, an optional's value) when its default is large
    (ir.Struct.large_default): if the budget left does not pay for the default, verify (the value's
    check, which fails as its read would: docs/limits.md 3) runs instead, before the value is made."""
    struct = c.schema.struct(t.name)
    if struct.large_default:
        with w.block(f"if ({also}!r.affords({struct.default_cost})) {{", "}"):
            catch(w, c, verify, field, index)


def elements(c: Context, t: ir.Sequence, value: str, field: str | None = None) -> str:
    """What a writer iterates: a set in its order, a vector or list as it is. With field (the
    writers), a set holding an element twice under the readers' rule throws (docs/limits.md 4)."""
    if t.kind == "set":
        if field is not None:
            return f'{c.rt("Compare")}.distinct({value}, {c.comparator(t.element)}, "{field}")'
        return f"{c.rt('Compare')}.ordered({value}, {c.comparator(t.element)})"
    return value


def entries(c: Context, t: ir.Mapping, value: str, field: str | None = None) -> str:
    """What a writer iterates: a map's entries in key order, a hash's as its table holds them. With
    field (the writers), a map or hash holding a key twice under the readers' rule throws: a hash
    only where the key's Java equality is not that rule (docs/limits.md 4)."""
    if t.kind == "map":
        order = c.comparator(t.key)
        if field is not None:
            return f'{c.rt("Compare")}.distinct({value}, {order}, "{field}")'
        return f"{c.rt('Compare')}.ordered({value}, {order})"
    if field is not None and not c.hashed(t.key):
        order = c.comparator(t.key)
        return f'{c.rt("Compare")}.distinctHash({value}, {order}, "{field}")'
    return f"{value}.entrySet()"


def nested(w: CodeWriter, c: Context, statement: str, field: str, index: str | None) -> None:
    """statement (a nested struct's writer) with the field path put in front of its errors."""
    at = f'e.at("{field}", {index})' if index is not None else f'e.at("{field}")'
    with w.block("try {", f"}} catch ({c.rt('EncodeException')} e) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw {at};")


def holds_struct(t: ir.Type) -> bool:
    """A struct or an optional struct: its writer may throw from a nested struct."""
    return isinstance(t, ir.StructRef) or isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef)


def entry_type(c: Context, t: ir.Mapping) -> str:
    return f"{c.use('java.util.Map')}.Entry<{c.type(t.key, True)}, {c.type(t.value, True)}>"


# ---------------------------------------------------------------- versioned

def write_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, value: str, names: Names,
                field: str, index: str | None = None) -> None:
    """Write value of type t into the slot at absolute position slot (offsets from base); field and
    index (an element's) name it in errors."""
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            w.line(f"w.string({base}, {slot}, {value});")
        elif t.name == "bytes":
            w.line(f"w.bytes({base}, {slot}, {value});")
        else:
            w.line(f"w.put{SLOT[t.name][0]}({slot}, {value});")
    elif isinstance(t, ir.EnumRef):
        w.line(f"w.put{SLOT[t.wire][0]}({slot}, {value}.value());")
    elif isinstance(t, ir.StructRef):
        nested(w, c, f"{c.named(t.name)}.fbeWrite(w, {base}, {slot}, {value});", field, index)
    elif isinstance(t, ir.Optional_):
        with w.block(f"if ({value} != null) {{", "}"):
            s = names("s")
            w.line(f"int {s} = w.optional({base}, {slot}, {t.element.size});")
            write_value(w, c, t.element, s, s, value, names, field, index)
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(f'{c.rt("Writer")}.checkLength({value}.length, {t.length}, "{field}");')
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            write_value(w, c, t.element, base, plus(slot, f"{i} * {t.element.size}"), f"{value}[{i}]", names, field,
                        i)
    elif isinstance(t, ir.Sequence):
        e, i, x = names("e"), names("i"), names("x")
        w.line(f"int {e} = w.vector({base}, {slot}, {value}.size(), {t.element.size});")
        w.line(f"int {i} = 0;")
        with w.block(f"for ({c.type(t.element, True)} {x} : {elements(c, t, value, field)}) {{", "}"):
            write_value(w, c, t.element, base, f"{e} + {i} * {t.element.size}", x, names, field, i)
            w.line(f"{i}++;")
    else:
        item = t.item_size
        e, i, x = names("e"), names("i"), names("x")
        w.line(f"int {e} = w.vector({base}, {slot}, {value}.size(), {item});")
        w.line(f"int {i} = 0;")
        with w.block(f"for ({entry_type(c, t)} {x} : {entries(c, t, value, field)}) {{", "}"):
            write_value(w, c, t.key, base, f"{e} + {i} * {item}", f"{x}.getKey()", names, field, i)
            write_value(w, c, t.value, base, f"{e} + {i} * {item} + {t.key.size}", f"{x}.getValue()", names, field, i)
            w.line(f"{i}++;")


def read_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, field: str, names: Names,
               index: str | None) -> str:
    """Write the statements reading the slot at absolute position slot (offsets from base) and return
    an expression of the value, to be used at once (it may read: evaluation order is allocation order)."""
    quoted = f'"{field}"'
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            return f"r.string({base}, {slot}, {quoted})"
        if t.name == "bytes":
            return f"r.bytes({base}, {slot}, {quoted})"
        if t.name == "decimal":         # the reader checks its flags (docs/format.md 2.4)
            return f"r.decimal({slot}, {quoted})"
        return f"r.{SLOT[t.name][1]}({slot})"
    if isinstance(t, ir.EnumRef):
        return f"{c.named(t.name)}.of(r.{SLOT[t.wire][1]}({slot}))"
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        paid_first(w, c, t, f"{name}.fbeVerify(r, {base}, {slot});", field, index)
        w.line(f"{name} {x} = new {name}();")
        catch(w, c, f"{name}.fbeRead(r, {base}, {slot}, {x});", field, index)
        return x
    if isinstance(t, ir.Optional_):
        x, s = names("x"), names("s")
        w.line(f"{c.type(t)} {x} = null;")
        w.line(f"int {s} = r.optional({base}, {slot}, {t.element.size}, {quoted});")
        with w.block(f"if ({s} >= 0) {{", "}"):
            inner = read_value(w, c, t.element, s, s, field, names, index)
            w.line(f"{x} = {inner};")
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
    w.line(f"int {old} = {target}.size();")
    with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
        if c.schema.struct(t.element.name).large_default:
            # a new element only once the budget pays for its default: else its check fails as its read
            # would, before the value is made (docs/limits.md 3)
            with w.block(f"if ({i} >= {old} && !r.affords({c.schema.struct(t.element.name).default_cost})) {{", "}"):
                verify(i)
        w.line(f"{name} {x} = {i} < {old} ? {target}.get({i}) : new {name}();")
        read(x, i)
        with w.block(f"if ({i} >= {old}) {{", "}"):
            w.line(f"{target}.add({x});")
    with w.block(f"if ({old} > {n}) {{", "}"):
        w.line(f"{target}.subList({n}, {old}).clear();")


def reused_struct(t: ir.Type) -> bool:
    """A vector of structs: its elements are read in place (reuse_elements)."""
    return isinstance(t, ir.Sequence) and t.kind == "vector" and isinstance(t.element, ir.StructRef)


def read_field(w: CodeWriter, c: Context, f: ir.Field, base: str, slot: str, target: str, names: Names) -> None:
    """Read field f's slot into target, overwriting what it holds and reusing its objects: nested
    structs, an optional struct, the elements of a vector of structs, the collections (emptied)."""
    t = f.type
    quoted = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeRead(r, {base}, {slot}, {target});", f.name, None)
    elif isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef):
        name, s = c.named(t.element.name), names("s")
        w.line(f"int {s} = r.optional({base}, {slot}, {t.element.size}, {quoted});")
        with w.block(f"if ({s} >= 0) {{", "} else {"):
            with w.block(f"if ({target} == null) {{", "}"):
                paid_first(w, c, t.element, f"{name}.fbeVerify(r, {s}, {s});", f.name, None)
                w.line(f"{target} = new {name}();")
            catch(w, c, f"{name}.fbeRead(r, {s}, {s}, {target});", f.name, None)
        with w.block("", "}"):
            w.line(f"{target} = null;")
    elif isinstance(t, ir.Array):
        with w.block(f"if ({target}.length != {t.length}) {{", "}"):
            w.line(f"{target} = {c.zero(t)};")
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            at = plus(slot, f"{i} * {t.element.size}")
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeRead(r, {base}, {at}, {target}[{i}]);", f.name, i)
            else:
                w.line(f"{target}[{i}] = {read_value(w, c, t.element, base, at, f.name, names, i)};")
    elif isinstance(t, ir.Sequence):
        e, n = names("e"), names("n")
        w.line(f"int {e} = r.vector({base}, {slot}, {t.item_size}, {t.item_cost}, {quoted});")
        w.line(f"int {n} = r.count();")
        if reused_struct(t):
            assert isinstance(t.element, ir.StructRef)
            name = c.named(t.element.name)
            reuse_elements(w, c, t, target, n, names, lambda x, i: catch(
                w, c, f"{name}.fbeRead(r, {base}, {e} + {i} * {t.element.size}, {x});", f.name, i), lambda i: catch(
                w, c, f"{name}.fbeVerify(r, {base}, {e} + {i} * {t.element.size});", f.name, i))
            return
        w.line(f"{target}.clear();")
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            at = f"{e} + {i} * {t.element.size}"
            value = read_value(w, c, t.element, base, at, f.name, names, i)
            if t.kind == "set":
                with w.block(f"if (!{target}.add({value})) {{", "}"):
                    w.line(f"throw r.duplicateKey({quoted}, {at});")
            else:
                w.line(f"{target}.add({value});")
    elif isinstance(t, ir.Mapping):
        item = t.item_size
        cost = t.item_cost
        e, n, i, k = names("e"), names("n"), names("i"), names("k")
        w.line(f"int {e} = r.vector({base}, {slot}, {item}, {cost}, {quoted});")
        w.line(f"int {n} = r.count();")
        w.line(f"{target}.clear();")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            at = f"{e} + {i} * {item}"
            key = read_value(w, c, t.key, base, at, f.name, names, i)
            w.line(f"{c.type(t.key, True)} {k} = {key};")
            value = read_value(w, c, t.value, base, f"{at} + {t.key.size}", f.name, names, i)
            w.line(f"{target}.put({k}, {value});")
            with w.block(f"if ({target}.size() != {i} + 1) {{", "}"):
                w.line(f"throw r.duplicateKey({quoted}, {at});")
    else:
        w.line(f"{target} = {read_value(w, c, t, base, slot, f.name, names, None)};")


# ---------------------------------------------------------------- final

def final_write(w: CodeWriter, c: Context, t: ir.Type, value: str, names: Names, field: str,
                index: str | None = None) -> None:
    """Append value of type t (docs/format.md 4.2); field and index (an element's) name it in errors."""
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            w.line(f"w.appendString({value});")
        elif t.name == "bytes":
            w.line(f"w.appendBytes({value});")
        else:
            w.line(f"w.append{SLOT[t.name][0]}({value});")
    elif isinstance(t, ir.EnumRef):
        w.line(f"w.append{SLOT[t.wire][0]}({value}.value());")
    elif isinstance(t, ir.StructRef):
        nested(w, c, f"{c.named(t.name)}.fbeWriteFinal(w, {value});", field, index)
    elif isinstance(t, ir.Optional_):
        w.line(f"w.appendBool({value} != null);")
        with w.block(f"if ({value} != null) {{", "}"):
            final_write(w, c, t.element, value, names, field, index)
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(f'{c.rt("Writer")}.checkLength({value}.length, {t.length}, "{field}");')
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            final_write(w, c, t.element, f"{value}[{i}]", names, field, i)
    elif isinstance(t, ir.Sequence):
        x = names("x")
        k = names("i") if holds_struct(t.element) else None
        w.line(f"w.appendCount({value}.size());")
        if k is not None:
            w.line(f"int {k} = 0;")
        with w.block(f"for ({c.type(t.element, True)} {x} : {elements(c, t, value, field)}) {{", "}"):
            final_write(w, c, t.element, x, names, field, k)
            if k is not None:
                w.line(f"{k}++;")
    else:
        x = names("x")
        k = names("i") if holds_struct(t.key) or holds_struct(t.value) else None
        w.line(f"w.appendCount({value}.size());")
        if k is not None:
            w.line(f"int {k} = 0;")
        with w.block(f"for ({entry_type(c, t)} {x} : {entries(c, t, value, field)}) {{", "}"):
            final_write(w, c, t.key, f"{x}.getKey()", names, field, k)
            final_write(w, c, t.value, f"{x}.getValue()", names, field, k)
            if k is not None:
                w.line(f"{k}++;")


def final_read(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, index: str | None) -> str:
    """Write the statements reading the value at the Reader's cursor and return an expression of it
    (to be used at once)."""
    quoted = f'"{field}"'
    if isinstance(t, ir.Primitive):
        if t.name == "string":
            return f"r.finalString({quoted})"
        if t.name == "bytes":
            return f"r.finalBytes({quoted})"
        return f"r.final{SLOT[t.name][0]}({quoted})"
    if isinstance(t, ir.EnumRef):
        return f"{c.named(t.name)}.of(r.final{SLOT[t.wire][0]}({quoted}))"
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        paid_first(w, c, t, f"{name}.fbeVerifyFinal(r);", field, index)
        w.line(f"{name} {x} = new {name}();")
        catch(w, c, f"{name}.fbeReadFinal(r, {x});", field, index)
        return x
    if isinstance(t, ir.Optional_):
        x = names("x")
        w.line(f"{c.type(t)} {x} = null;")
        with w.block(f"if (r.finalHas({quoted})) {{", "}"):
            inner = final_read(w, c, t.element, field, names, index)
            w.line(f"{x} = {inner};")
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def final_read_field(w: CodeWriter, c: Context, f: ir.Field, target: str, names: Names) -> None:
    """Read field f at the Reader's cursor into target, overwriting what it holds and reusing its
    objects as read_field does."""
    t = f.type
    quoted = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeReadFinal(r, {target});", f.name, None)
    elif isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef):
        name = c.named(t.element.name)
        with w.block(f"if (r.finalHas({quoted})) {{", "} else {"):
            with w.block(f"if ({target} == null) {{", "}"):
                paid_first(w, c, t.element, f"{name}.fbeVerifyFinal(r);", f.name, None)
                w.line(f"{target} = new {name}();")
            catch(w, c, f"{name}.fbeReadFinal(r, {target});", f.name, None)
        with w.block("", "}"):
            w.line(f"{target} = null;")
    elif isinstance(t, ir.Array):
        with w.block(f"if ({target}.length != {t.length}) {{", "}"):
            w.line(f"{target} = {c.zero(t)};")
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeReadFinal(r, {target}[{i}]);", f.name, i)
            else:
                w.line(f"{target}[{i}] = {final_read(w, c, t.element, f.name, names, i)};")
    elif isinstance(t, ir.Sequence):
        n = names("n")
        w.line(f"int {n} = r.finalCount({t.item_min_size}, {t.item_cost}, {quoted});")
        if reused_struct(t):
            assert isinstance(t.element, ir.StructRef)
            name = c.named(t.element.name)
            reuse_elements(w, c, t, target, n, names, lambda x, i: catch(
                w, c, f"{name}.fbeReadFinal(r, {x});", f.name, i), lambda i: catch(
                w, c, f"{name}.fbeVerifyFinal(r);", f.name, i))
            return
        w.line(f"{target}.clear();")
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            at = names("p")
            if t.kind == "set":
                w.line(f"int {at} = r.pos();")
            value = final_read(w, c, t.element, f.name, names, i)
            if t.kind == "set":
                with w.block(f"if (!{target}.add({value})) {{", "}"):
                    w.line(f"throw r.duplicateKey({quoted}, {at});")
            else:
                w.line(f"{target}.add({value});")
    elif isinstance(t, ir.Mapping):
        item = t.item_min_size
        cost = t.item_cost
        n, i, k = names("n"), names("i"), names("k")
        w.line(f"int {n} = r.finalCount({item}, {cost}, {quoted});")
        w.line(f"{target}.clear();")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            at = names("p")
            w.line(f"int {at} = r.pos();")
            key = final_read(w, c, t.key, f.name, names, i)
            w.line(f"{c.type(t.key, True)} {k} = {key};")
            value = final_read(w, c, t.value, f.name, names, i)
            w.line(f"{target}.put({k}, {value});")
            with w.block(f"if ({target}.size() != {i} + 1) {{", "}"):
                w.line(f"throw r.duplicateKey({quoted}, {at});")
    else:
        w.line(f"{target} = {final_read(w, c, t, f.name, names, None)};")


# ---------------------------------------------------------------- verify

def kept(t: ir.Type) -> bool:
    """Whether verify reads the value to check it: a set or a map refuses a key twice, which takes
    the keys (such a field is read into a local, as deserialize reads it). Collections hold no
    collections, so only a field's own type can be one."""
    return isinstance(t, ir.Mapping) or isinstance(t, ir.Sequence) and t.kind == "set"


def verify_value(w: CodeWriter, c: Context, t: ir.Type, base: str, slot: str, field: str, names: Names,
                 index: str | None) -> None:
    """Check the slot at slot as read_value reads it: the same Reader calls in the same order,
    without the value (docs/limits.md 4: verify accepts exactly what deserialize reads)."""
    quoted = f'"{field}"'
    if ir.reads_unchecked(t):
        return
    if isinstance(t, ir.Primitive):
        kind = {"string": "String", "bytes": "Bytes"}.get(t.name)
        w.line(f"r.skip{kind}({base}, {slot}, {quoted});" if kind else f"r.skipDecimal({slot}, {quoted});")
    elif isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeVerify(r, {base}, {slot});", field, index)
    else:
        assert isinstance(t, ir.Optional_), f"a collection inside a collection: {t}"
        call = f"r.optional({base}, {slot}, {t.element.size}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(f"{call};")
            return
        s = names("s")
        w.line(f"int {s} = {call};")
        with w.block(f"if ({s} >= 0) {{", "}"):
            verify_value(w, c, t.element, s, s, field, names, index)


def verify_field(w: CodeWriter, c: Context, f: ir.Field, base: str, slot: str, names: Names) -> None:
    """Check field f's slot as read_field reads it."""
    t = f.type
    quoted = f'"{f.name}"'
    if kept(t):
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        local = names("t")
        w.line(f"{c.type(t)} {local} = {c.empty(t)};")
        read_field(w, c, f, base, slot, local, names)
    elif isinstance(t, ir.Array):
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            verify_value(w, c, t.element, base, plus(slot, f"{i} * {t.element.size}"), f.name, names, i)
    elif isinstance(t, ir.Sequence):
        call = f"r.vector({base}, {slot}, {t.item_size}, {t.item_cost}, {quoted})"
        if ir.reads_unchecked(t.element):
            w.line(f"{call};")
            return
        e, n, i = names("e"), names("n"), names("i")
        w.line(f"int {e} = {call};")
        w.line(f"int {n} = r.count();")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            verify_value(w, c, t.element, base, f"{e} + {i} * {t.element.size}", f.name, names, i)
    else:
        verify_value(w, c, t, base, slot, f.name, names, None)


def final_verify(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, index: str | None) -> None:
    """Check the value at the Reader's cursor as final_read reads it, without the value."""
    quoted = f'"{field}"'
    if ir.is_text(t) or ir.is_decimal(t):      # a decimal: its flags (docs/format.md 2.4)
        kind = {"string": "String", "bytes": "Bytes"}.get(t.name, "Decimal")
        w.line(f"r.finalSkip{kind}({quoted});")
    elif ir.is_scalar(t):
        w.line(f"r.fixed({t.size}, {quoted});")
    elif isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeVerifyFinal(r);", field, index)
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
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        local = names("t")
        w.line(f"{c.type(t)} {local} = {c.empty(t)};")
        final_read_field(w, c, f, local, names)
    elif isinstance(t, ir.Array):
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {t.length}; {i}++) {{", "}"):
            final_verify(w, c, t.element, f.name, names, i)
    elif isinstance(t, ir.Sequence):
        n = names("n")
        call = f"r.finalCount({t.item_min_size}, {t.item_cost}, {quoted})"
        if ir.reads_unchecked(t.element):
            # finalCount bounded the count by the bytes left, so the run of fixed-size elements is there
            w.line(f"r.fixed({call}, {t.element.size}, {quoted});")
            return
        w.line(f"int {n} = {call};")
        i = names("i")
        with w.block(f"for (int {i} = 0; {i} < {n}; {i}++) {{", "}"):
            final_verify(w, c, t.element, f.name, names, i)
    else:
        final_verify(w, c, t, f.name, names, None)


# ---------------------------------------------------------------- runs of fixed-size fields

def final_run(w: CodeWriter, c: Context, run: Run, names: Names, read: Callable[[ir.Field, str], None] | None) -> None:
    """Claim a run of fixed-size fields with one check (Reader.run, which fails with the error of
    the first field that is not there, as the per-field code does) and read each field at its
    offset in the run with read(f, slot) (None: verify, nothing to read)."""
    call = f'r.run({run.size}, "{run.description}")'
    if read is None:
        w.line(f"{call};")
        return
    p = names("p")
    w.line(f"int {p} = {call};")
    for f, at in zip(run.fields, run.at):
        read(f.field, plus(p, str(at)) if at else p)


# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    q = s.qualified
    plan = c.plan.struct(q)
    bounded = plan.bounded
    writer, reader, limits = c.rt("Writer"), c.rt("Reader"), c.rt("Limits")
    decode_exception = c.rt("DecodeException")
    names = Names()

    w.line("/**")
    w.line(" * Writes v's versioned body, its offset stored in the slot at slot (from base).")
    w.line(" *")
    w.line(" * @param w    the writer")
    w.line(" * @param base the base of the slot")
    w.line(" * @param slot the slot's absolute position")
    w.line(" * @param v    the value")
    w.line(" */")
    with w.block(f"public static void fbeWrite({writer} w, int base, int slot, {name} v) {{", "}"):
        if not bounded:
            w.line(f'w.enter("{q}");')
        call = f"w.struct(base, slot, {s.body_size}, {s.type_id})"
        w.line(f"int b = {call};" if s.all_fields else f"{call};")
        for f in s.all_fields:
            write_value(w, c, f.type, "b", f"b + {f.offset}", f"v.{c.ident.field(f)}", names, f.name)
        if not bounded:
            w.line("w.leave();")
    w.blank()

    write_defaults(w, c, s, name)
    w.line("/**")
    w.line(" * Reads the versioned body the slot at slot points to (from base) into v, overwriting every")
    w.line(" * field and reusing what v holds (nested structs, an optional struct, the elements of a vector")
    w.line(" * of structs, the collections); fields an older writer did not write take the schema's")
    w.line(" * defaults. After an error v is left part read (the roots reset it).")
    w.line(" *")
    w.line(" * @param r    the reader")
    w.line(" * @param base the base of the slot")
    w.line(" * @param slot the slot's absolute position")
    w.line(" * @param v    the value")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"public static void fbeRead({reader} r, int base, int slot, {name} v) throws {decode_exception} {{",
                 "}"):
        call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
        if s.all_fields:
            w.line(f"int b = {call};")
            w.line("int n = r.i32(b);")
        else:
            w.line(f"{call};")
        if plan.base_fields:
            with w.block(f"if (n < {s.base_size}) {{", "}"):
                if plan.older_cost:
                    w.line(f'r.spend({plan.older_cost}, b, "");')
                w.line("v.reset();")
                w.line("r.leave();")
                w.line("return;")
            for fp in plan.base_fields:
                read_field(w, c, fp.field, "b", f"b + {fp.offset}", f"v.{c.ident.field(fp.field)}", names)
        for k, fp in enumerate(plan.own_fields):
            with w.block(f"if (n < {fp.end}) {{", "}"):
                if fp.missing_cost:
                    w.line(f'r.spend({fp.missing_cost}, b, "{fp.name}");')
                w.line(f"fbeDefaults(v, {k});")
                w.line("r.leave();")
                w.line("return;")
            read_field(w, c, fp.field, "b", f"b + {fp.offset}", f"v.{c.ident.field(fp.field)}", names)
        w.line("r.leave();")
    w.blank()
    write_verify(w, c, s, names)

    write_roots(w, c, s, name, "Fbe", "versioned", writer, reader, limits, decode_exception)
    if not final:
        return

    w.line("/**")
    w.line(" * Appends v's fields (final model, docs/format.md 4.2).")
    w.line(" *")
    w.line(" * @param w the writer")
    w.line(" * @param v the value")
    w.line(" */")
    with w.block(f"public static void fbeWriteFinal({writer} w, {name} v) {{", "}"):
        if not bounded:
            w.line(f'w.enter("{q}");')
        for f in s.all_fields:
            final_write(w, c, f.type, f"v.{c.ident.field(f)}", names, f.name)
        if not bounded:
            w.line("w.leave();")
    w.blank()
    w.line("/**")
    w.line(" * Reads v's fields at the reader's cursor (final model) into v, overwriting every field and")
    w.line(" * reusing what v holds as {@link #fbeRead} does. After an error v is left part read.")
    w.line(" *")
    w.line(" * @param r the reader")
    w.line(" * @param v the value")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"public static void fbeReadFinal({reader} r, {name} v) throws {decode_exception} {{", "}"):
        w.line(f"r.enter({s.decode_cost});")
        for step in plan.final_steps:
            if isinstance(step, FieldPlan):
                final_read_field(w, c, step.field, f"v.{c.ident.field(step.field)}", names)
            else:
                final_run(w, c, step, names, lambda f, at: read_field(w, c, f, at, at, f"v.{c.ident.field(f)}", names))
        w.line("r.leave();")
    w.blank()
    w.line("/**")
    w.line(" * Checks the fields at the reader's cursor (final model) as {@link #fbeReadFinal} reads them,")
    w.line(" * without building the value: the same checks in the same order, the same errors.")
    w.line(" *")
    w.line(" * @param r the reader")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"public static void fbeVerifyFinal({reader} r) throws {decode_exception} {{", "}"):
        w.line(f"r.enter({s.decode_cost});")
        for step in plan.final_steps:
            if isinstance(step, FieldPlan):
                final_verify_field(w, c, step.field, names)
            else:
                final_run(w, c, step, names, None)
        w.line("r.leave();")
    w.blank()
    write_roots(w, c, s, name, "Final", "final", writer, reader, limits, decode_exception)


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str, writer: str,
                reader: str, limits: str, decode_exception: str) -> None:
    """toFbe/writeFbe/fromFbe/verifyFbe, or their final twins (suffix Final)."""
    q = s.qualified
    versioned = suffix == "Fbe"
    section = "3.2" if versioned else "4.1"
    w.line("/**")
    w.line(f" * This value as a {model} root (docs/format.md {section}).")
    w.line(" *")
    w.line(" * @return the bytes")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path)")
    w.line(" */")
    with w.block(f"public byte[] to{suffix}() {{", "}"):
        w.line(f"{writer} w = new {writer}();")
        w.line(f"write{suffix}(w);")
        w.line("return w.toByteArray();")
    w.blank()
    w.line("/**")
    w.line(f" * Writes this value as a {model} root into w (reset first): with a reused writer,")
    w.line(" * serializing allocates nothing for the bytes.")
    w.line(" *")
    w.line(" * @param w the writer; its first {@code size()} bytes are the root")
    w.line(" * @return the root's size")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path); w is left empty")
    w.line(" */")
    with w.block(f"public int write{suffix}({writer} w) {{", "}"):
        with w.block("try {", f"}} catch ({c.rt('EncodeException')} e) {{"):
            if versioned:
                w.line("w.beginVersioned();")
                w.line("fbeWrite(w, 0, 4, this);")
                w.line("return w.endVersioned();")
            else:
                w.line("w.beginFinal();")
                w.line("fbeWriteFinal(w, this);")
                w.line(f"return w.endFinal({s.type_id});")
        with w.block("", "}"):
            w.line("w.reset();")
            w.line(f'throw e.within("{q}");')
    w.blank()
    w.line("/**")
    w.line(f" * Reads a {model} root under the default limits.")
    w.line(" *")
    w.line(" * @param data the root")
    w.line(" * @return the value")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset)")
    w.line(" */")
    with w.block(f"public static {name} from{suffix}(byte[] data) throws {decode_exception} {{", "}"):
        w.line(f"return from{suffix}(data, 0, data.length, {limits}.DEFAULT);")
    w.blank()
    w.line("/**")
    w.line(f" * Reads a {model} root of length bytes at data[offset] under limits.")
    w.line(" *")
    w.line(" * @param data   the buffer")
    w.line(" * @param offset the root's first byte")
    w.line(" * @param length the bytes given")
    w.line(" * @param limits the limits (docs/limits.md)")
    w.line(" * @return the value")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset)")
    w.line(" */")
    with w.block(f"public static {name} from{suffix}(byte[] data, int offset, int length, {limits} limits) "
                 f"throws {decode_exception} {{", "}"):
        with w.block("try {", f"}} catch ({decode_exception} e) {{"):
            if versioned:
                w.line(f"{reader} r = {reader}.versioned(data, offset, length, limits);")
                w.line(f"{name} v = new {name}();")
                w.line("fbeRead(r, r.base(), r.base() + 4, v);")
            else:
                w.line(f"{reader} r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits);")
                w.line(f"{name} v = new {name}();")
                w.line("fbeReadFinal(r, v);")
                w.line("r.endFinal();")
            w.line("return v;")
        with w.block("", "}"):
            w.line(f'throw e.within("{q}");')
    w.blank()
    override = s.base is not None
    w.line("/**")
    w.line(f" * Reads a {model} root into this value under the default limits, reusing what it holds.")
    w.line(" *")
    w.line(" * @param data the root")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset); this value is reset")
    w.line(" */")
    if override:
        w.line("@Override")
    with w.block(f"public void read{suffix}(byte[] data) throws {decode_exception} {{", "}"):
        w.line(f"read{suffix}(data, 0, data.length, {limits}.DEFAULT);")
    w.blank()
    w.line("/**")
    w.line(f" * Reads a {model} root of length bytes at data[offset] under limits into this value,")
    w.line(" * overwriting every field and reusing its nested structs, optional structs, the elements of")
    w.line(" * its vectors of structs and its collections: a server reading into one value allocates")
    w.line(" * little more than the strings while the messages keep their shape.")
    w.line(" *")
    w.line(" * @param data   the buffer")
    w.line(" * @param offset the root's first byte")
    w.line(" * @param length the bytes given")
    w.line(" * @param limits the limits (docs/limits.md)")
    w.line(" * @throws DecodeException at the first problem (type, field path, offset); this value is reset")
    w.line(" *                         to the schema's defaults")
    w.line(" */")
    if override:
        w.line("@Override")
    with w.block(f"public void read{suffix}(byte[] data, int offset, int length, {limits} limits) "
                 f"throws {decode_exception} {{", "}"):
        with w.block("try {", f"}} catch ({decode_exception} e) {{"):
            if versioned:
                w.line(f"{reader} r = {reader}.versioned(data, offset, length, limits);")
                w.line("fbeRead(r, r.base(), r.base() + 4, this);")
            else:
                w.line(f"{reader} r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits);")
                w.line("fbeReadFinal(r, this);")
                w.line("r.endFinal();")
        with w.block("", "}"):
            w.line("reset();")
            w.line(f'throw e.within("{q}");')
    w.blank()
    w.line("/**")
    w.line(f" * Checks a {model} root under the default limits (see the four-argument form).")
    w.line(" *")
    w.line(" * @param data the root")
    w.line(" * @throws DecodeException why the root cannot be read")
    w.line(" */")
    with w.block(f"public static void verify{suffix}(byte[] data) throws {decode_exception} {{", "}"):
        w.line(f"verify{suffix}(data, 0, data.length, {limits}.DEFAULT);")
    w.blank()
    w.line("/**")
    w.line(f" * Checks a {model} root without building the value: returns exactly when from{suffix}")
    w.line(" * succeeds and otherwise throws the exception it throws (docs/limits.md 4). Only sets and maps")
    w.line(" * are read, into locals, to find a key read twice.")
    w.line(" *")
    w.line(" * @param data   the buffer")
    w.line(" * @param offset the root's first byte")
    w.line(" * @param length the bytes given")
    w.line(" * @param limits the limits (docs/limits.md)")
    w.line(" * @throws DecodeException why the root cannot be read")
    w.line(" */")
    with w.block(f"public static void verify{suffix}(byte[] data, int offset, int length, {limits} limits) "
                 f"throws {decode_exception} {{", "}"):
        with w.block("try {", f"}} catch ({decode_exception} e) {{"):
            if versioned:
                w.line(f"{reader} r = {reader}.versioned(data, offset, length, limits);")
                w.line("fbeVerify(r, r.base(), r.base() + 4);")
            else:
                w.line(f"{reader} r = {reader}.finalRoot(data, offset, length, {s.type_id}, limits);")
                w.line("fbeVerifyFinal(r);")
                w.line("r.endFinal();")
        with w.block("", "}"):
            w.line(f'throw e.within("{q}");')
    w.blank()


def write_verify(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeVerify: fbeRead's checks without the value (sets and maps aside: they are read into
    locals to find a key twice)."""
    plan = c.plan.struct(s.qualified)
    reader, decode_exception = c.rt("Reader"), c.rt("DecodeException")
    w.line("/**")
    w.line(" * Checks the versioned body the slot at slot points to (from base) as {@link #fbeRead} reads")
    w.line(" * it, without building the value: the same checks in the same order, the same errors.")
    w.line(" *")
    w.line(" * @param r    the reader")
    w.line(" * @param base the base of the slot")
    w.line(" * @param slot the slot's absolute position")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md)")
    w.line(" */")
    with w.block(f"public static void fbeVerify({reader} r, int base, int slot) throws {decode_exception} {{", "}"):
        call = f"r.struct(base, slot, {s.type_id}, {s.decode_cost})"
        body = CodeWriter(Options(tabs=w.unit == "\t", indent=len(w.unit)))
        if plan.base_fields:
            with body.block(f"if (n < {s.base_size}) {{", "}"):
                if plan.older_cost:
                    body.line(f'r.spend({plan.older_cost}, b, "");')
                body.line("r.leave();")
                body.line("return;")
            for fp in plan.base_fields:
                verify_field(body, c, fp.field, "b", f"b + {fp.offset}", names)
        for fp in plan.own_fields:
            if ir.reads_unchecked(fp.type) and not fp.missing_cost:
                continue    # nothing to check, and when absent the next field's test returns alike
            with body.block(f"if (n < {fp.end}) {{", "}"):
                if fp.missing_cost:
                    body.line(f'r.spend({fp.missing_cost}, b, "{fp.name}");')
                body.line("r.leave();")
                body.line("return;")
            verify_field(body, c, fp.field, "b", f"b + {fp.offset}", names)
        text = body.text().strip("\n")
        if text:
            w.line(f"int b = {call};")
            w.line("int n = r.i32(b);")
            w.lines(text)
        else:
            w.line(f"{call};")
        w.line("r.leave();")
    w.blank()


def write_defaults(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """reset() and fbeDefaults(v, from): the schema's defaults of the fields, what fbeRead gives the
    fields a shorter (older) body does not hold, as a new value has them (collections emptied in
    place)."""
    own = [f for f in s.all_fields if f.owner == s.qualified]
    w.line("/** Sets every field to the schema's default, as a new value has them (collections emptied in place). */")
    if s.base is not None:
        w.line("@Override")
    with w.block("public void reset() {", "}"):
        if s.base is not None:
            w.line("super.reset();")
        if own:
            w.line("fbeDefaults(this, 0);")
    w.blank()
    if not own:
        return
    w.line("/** Sets the own fields from the from-th on to the schema's defaults. */")
    with w.block(f"private static void fbeDefaults({name} v, int from) {{", "}"):
        for k, f in enumerate(own):
            target = f"v.{c.ident.field(f)}"
            with w.block(f"if (from <= {k}) {{", "}"):
                if isinstance(f.type, (ir.Sequence, ir.Mapping)):
                    w.line(f"{target}.clear();")
                else:
                    w.line(f"{target} = {c.default(f.type, f.default)};")
    w.blank()
