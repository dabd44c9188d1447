"""JSON of fbec --java --json and --kotlin --json (docs/format.md 8, docs/limits.md 7): straight-line
member code on the runtime's JsonWriter and JsonReader (Jackson's streaming parser underneath): the
codecs other generated classes call (write_codecs), the statements of the methods each language
declares (java/json.py, kotlin/json.py).

Readers read into a value made with the schema's defaults, so a member the text does not hold
keeps its default (charged against the decode budget when it holds structs, docs/limits.md 3); a
nested struct's reader is wrapped so the exception gains the member path on its way out, as in the
binary readers.
"""

from __future__ import annotations

from functools import partial

from fbec.model import ir
from fbec.targets.base import CodeWriter, RawText, json_object
from fbec.targets.jvm.context import Context, Names
from fbec.targets.jvm.models import catch as guarded
from fbec.targets.jvm.models import declare_codec, elements, entries

# Primitive or wire type -> the JsonWriter method writing it.
WRITE = {
    "bool": "bool", "byte": "u8", "uint8": "u8", "int8": "i64", "int16": "i64", "uint16": "u16",
    "int32": "i64", "uint32": "u32", "int64": "i64", "uint64": "u64", "timestamp": "u64", "char": "ch",
    "wchar": "u32", "float": "f32", "double": "f64", "decimal": "decimal", "uuid": "uuid", "string": "string",
    "bytes": "bytes",
}
# Map keys: the JsonWriter method (the language converts the key: unsigned types by their value).
KEY_WRITE = {
    "bool": "keyBool", "byte": "keyI64", "uint8": "keyI64", "char": "keyI64", "int8": "keyI64", "int16": "keyI64",
    "uint16": "keyI64", "int32": "keyI64", "uint32": "keyI64", "wchar": "keyI64", "int64": "keyI64",
    "uint64": "keyU64", "timestamp": "keyU64", "float": "keyF32", "double": "keyF64", "decimal": "keyDecimal",
    "uuid": "keyUuid", "string": "keyString", "bytes": "keyBytes",
}
SIGNED = frozenset({"int8", "int16", "int32", "int64"})


class Raw(RawText):
    """Literal JSON text merged into one JsonWriter.raw call until the next statement."""

    def __init__(self, w: CodeWriter, c: Context) -> None:
        super().__init__(w)
        self.c = c

    def write(self, text: str) -> str:
        return self.c.stmt(f"j.raw({self.c.raw_literal(text)})")

    def line(self, text: str) -> None:
        super().line(self.c.stmt(text))


# ---------------------------------------------------------------- writing

def json_write(c: Context, raw: Raw, t: ir.Type, x: str, names: Names, field: str, index: str | None = None) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2); field and index (an element's) name it in errors."""
    w = raw.w
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        name = ir.wire_name(t)
        value = f"{x}{c.ENUM_VALUE}" if isinstance(t, ir.EnumRef) else x
        raw.line(f"j.{WRITE[name]}({value}{c.JSON_CONVERSIONS.get(name, '')})")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        guarded(w, c, f"{c.named(t.name)}.fbeWriteJson(j, {x})", field, index, "EncodeException")
    elif isinstance(t, ir.Optional_):
        raw.flush()
        o = c.local(w, x, names)
        with w.if_else(f"if ({o} == null) {{", c.stmt("j.nil()")):
            json_write(c, raw, t.element, o, names, field, index)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        i, y = names("i"), names("x")
        if isinstance(t, ir.Array):
            raw.line(f'{c.rt("Writer")}.checkLength({c.length(x)}, {t.length}, "{field}")')
        items = elements(c, t, x, field)
        raw("[")
        raw.flush()
        w.line(c.var(i, "0", "int"))
        with w.block(c.each(w, y, t, items), "}"):
            c.if_(w, f"{i}++ > 0", "j.raw(',')")
            json_write(c, raw, t.element, y, names, field, f"{i} - 1")
            raw.flush()
        raw("]")
    else:
        assert isinstance(t, ir.Mapping)
        # a struct is not a member name: an array of [key, value] pairs (as the other runtimes)
        pairs = isinstance(t.key, ir.StructRef)
        i, y = names("i"), names("x")
        raw("[" if pairs else "{")
        raw.flush()
        w.line(c.var(i, "0", "int"))
        with w.block(c.each(w, y, t, entries(c, t, x, field)), "}"):
            c.if_(w, f"{i}++ > 0", "j.raw(',')")
            if pairs:
                raw("[")
                json_write(c, raw, t.key, c.key(y), names, field, f"{i} - 1")
                raw(",")
            else:
                w.line(json_key(c, t.key, c.key(y)))
            json_write(c, raw, t.value, c.value(y), names, field, f"{i} - 1")
            if pairs:
                raw("]")
            raw.flush()
        raw("]" if pairs else "}")


def json_key(c: Context, t: ir.Type, k: str) -> str:
    """Write map key k as a member name and its colon (docs/format.md 8.1)."""
    assert isinstance(t, (ir.Primitive, ir.EnumRef)), t
    name = ir.wire_name(t)
    value = f"{k}{c.ENUM_VALUE}" if isinstance(t, ir.EnumRef) else k
    return c.stmt(f"j.{KEY_WRITE[name]}({c.KEY_CONVERSIONS.get(name, '{}').format(value)})")


# ---------------------------------------------------------------- reading

def integer_read(c: Context, name: str, key: str | None, f: str) -> str:
    """The expression reading an integer primitive or wire type (from a map key's text with key), enums
    and flags included: a number in the type's range (docs/limits.md 7)."""
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    text = f"{key}, " if key is not None else ""
    if name in SIGNED:
        method = "keyInt" if key is not None else "integer"
        return c.from_long(name, f"r.{method}({text}{c.long_literal(lo)}, {c.long_literal(hi)}, {f})")
    method = "keyUnsigned" if key is not None else "unsigned"
    return c.from_long(name, f"r.{method}({text}{c.long_literal(hi)}, {f})")


def key_read(c: Context, t: ir.Type, key: str | None, f: str) -> str:
    """The expression reading a value (a map key from its member-name text: key)."""
    if isinstance(t, ir.EnumRef):
        return c.enum_new(c.named(t.name), integer_read(c, t.wire, key, f))
    assert isinstance(t, ir.Primitive), t
    n = t.name
    if n in ("bool", "decimal", "uuid", "string", "bytes"):
        return f"r.key{n[0].upper()}{n[1:]}({key}, {f})" if key is not None else f"r.{n}({f})"
    if n in ("float", "double"):
        bits = "32" if n == "float" else "64"
        return f"r.keyF{bits}({key}, {f})" if key is not None else f"r.f{bits}({f})"
    if n == "char":
        return f"r.keyChar({key}, {f})" if key is not None else f"r.ch({f})"
    return integer_read(c, n, key, f)


def catch(w: CodeWriter, c: Context, statement: str, at: str) -> None:
    """statement (a nested struct's reader) with the member path put in front of its errors."""
    c.guarded(w, c.rt("DecodeException"), statement, f"throw e.{at}")


def read_value(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, at: str,
               target: str | None = None) -> str:
    """Write the statements reading the JSON value at the reader's position and return an expression
    of it (to be used at once); at: how a nested struct's error gains the path (`at("f", i)`). An
    optional is read into target when given (and target returned)."""
    f = f'"{field}"'
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        return key_read(c, t, None, f)
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        if c.schema.struct(t.name).large_default:     # made once the budget pays for it (docs/limits.md 3)
            cost = c.schema.struct(t.name).default_cost
            c.if_(w, f"!r.affords({cost})", f"r.spend({cost}, {f})")
        w.line(c.val(x, c.new(name), name))
        catch(w, c, f"{name}.fbeReadJson(r, {x})", at)
        return x
    if isinstance(t, ir.Optional_):
        x = target or names("x")
        c.optional(w, t, x, None, "!r.nil()", lambda inner: read_value(inner, c, t.element, field, names, at))
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def indexed(t: ir.Type) -> bool:
    """Whether reading a value of t can fail in a nested struct (whose error gains the index)."""
    return isinstance(t, ir.StructRef) or isinstance(t, ir.Optional_) and indexed(t.element)


def read_field(w: CodeWriter, c: Context, f: ir.Field, target: str, names: Names) -> None:
    """Read member f's value into target (a value made with the schema's defaults)."""
    t = f.type
    q = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeReadJson(r, {target})", f"at({q})")
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(c.stmt(f"r.beginArray({q})"))
        head, step = c.counter(w, i, f"r.element({i}, {t.length}, {q})", True, True)
        with w.block(head, "}"):
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeReadJson(r, {target}[{i}])", f"at({q}, {i})")
            else:
                c.assign(w, f"{target}[{i}] =", read_value(w, c, t.element, f.name, names, f"at({q}, {i})"))
            if step:
                w.line(step)
        w.line(c.stmt(f"r.endArray({i}, {t.length}, {q})"))
    elif isinstance(t, ir.Sequence):
        i = names("i")
        w.line(c.stmt(f"r.beginArray({q})"))
        head, step = c.counter(w, i, "r.more()", indexed(t.element), False)
        with w.block(head, "}"):
            if t.item_cost:
                w.line(c.stmt(f"r.spend({t.item_cost}, {q})"))
            value = read_value(w, c, t.element, f.name, names, f"at({q}, {i})")
            if t.kind == "set":
                c.if_(w, f"!{target}.add({c.local(w, value, names, 'e')})", f"throw r.duplicateElement({q})")
            else:
                c.assign(w, f"{target}.add(", value, ")")
            if step:
                w.line(step)
    elif isinstance(t, ir.Mapping):
        cost = t.item_cost
        if isinstance(t.key, ir.StructRef):
            i = names("i")
            at = f"at({q}, {i})"
            w.line(c.stmt(f"r.beginArray({q})"))
            head, step = c.counter(w, i, "r.more()", True, False)     # a struct key: always indexed
            with w.block(head, "}"):
                w.line(c.stmt(f"r.spend({cost}, {q})"))
                w.line(c.stmt(f"r.beginPair({q})"))
                k = c.keep(w, read_value(w, c, t.key, f.name, names, at), t.key, names, "k")
                v = c.keep(w, read_value(w, c, t.value, f.name, names, at), t.value, names, "v")
                w.line(c.stmt(f"r.endPair({q})"))        # the value read before the pair's end
                c.if_(w, c.contains(target, k), f"throw r.duplicateKey({q})")
                w.line(c.put(target, k, v))
                if step:
                    w.line(step)
        else:
            text = names("key")
            k = names("k")
            w.line(c.stmt(f"r.beginObject({q})"))
            head, first = c.each_key(text, f"r.key({q})")
            with w.block(head, "}"):
                if first:
                    w.line(first)
                w.line(c.stmt(f"r.spend({cost}, {q})"))
                c.assign(w, c.declare(k, c.type(t.key, True)), key_read(c, t.key, text, q))
                value = read_value(w, c, t.value, f.name, names, f"atKey({q}, {text})")
                v = c.local(w, value, names, "v")
                c.if_(w, c.contains(target, k), f"throw r.duplicateKey({q})")
                w.line(c.put(target, k, v))
    else:
        value = read_value(w, c, t, f.name, names, f"at({q})", c.into(target))
        if value != target:
            c.assign(w, f"{target} =", value)


# ---------------------------------------------------------------- the pieces' bodies

def write_object(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeWriteJson(j, v): v as a JSON object, inherited fields first (docs/format.md 8)."""
    bounded = c.plan.struct(s.qualified).bounded
    fields = s.all_fields
    if not bounded:
        w.line(c.stmt(f'j.enter("{s.qualified}")'))
    raw = Raw(w, c)
    json_object(raw, fields, lambda f: json_write(c, raw, f.type, f"v.{c.ident.field(f)}", names, f.name))
    if not bounded:
        w.line(c.stmt("j.leave()"))


def read_object(w: CodeWriter, c: Context, s: ir.Struct, names: Names) -> None:
    """fbeReadJson(r, v): the JSON object at r's position into v, a value with the schema's defaults:
    members in any order, unknown ones skipped, missing ones left at their defaults (docs/format.md 8.3)."""
    fields = s.all_fields
    w.line(c.stmt(f"r.beginStruct({s.decode_cost})"))
    # a missing member's default holds struct values: they are charged (docs/limits.md 3)
    cost = {f.name: f.default_cost for f in c.plan.struct(s.qualified).fields}
    charged = {name: names("seen") for name, n in cost.items() if n}
    for seen in charged.values():
        w.line(c.var(seen, "false", "boolean"))

    def member(f: ir.Field) -> None:
        if f.name in charged:
            w.line(c.stmt(f"{charged[f.name]} = true"))
        read_field(w, c, f, f"v.{c.ident.field(f)}", names)

    head, first = c.each_key("name", "r.member()")
    with w.block(head, "}"):
        if first:
            w.line(first)
        c.switch(w, "name", [(f'"{f.name}"', partial(member, f)) for f in fields], "r.skip()")
    for f in fields:
        if f.name in charged:
            c.if_(w, f"!{charged[f.name]}", f'r.spend({cost[f.name]}, "{f.name}")')
    w.line(c.stmt("r.leave()"))


def write_codecs(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteJson(j, v) (write_object) and fbeReadJson(r, v) (read_object), static (Kotlin: in the
    companion), of the struct s (its class: name), documented alike in both languages."""
    names = Names()
    with declare_codec(w, c, "fbeWriteJson", name):
        write_object(w, c, s, names)
    with declare_codec(w, c, "fbeReadJson", name):
        read_object(w, c, s, names)
