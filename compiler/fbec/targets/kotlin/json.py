"""JSON of fbec --kotlin --json (docs/format.md 8, docs/limits.md 7), as the Java target's on the same
runtime: straight-line member code on the runtime's JsonWriter and JsonReader (Jackson's streaming
parser underneath).

Per struct, in the companion, the pieces other generated classes call (`fbeWriteJson`,
`fbeReadJson`) and `fromJson`; `toJson()` and `writeJson(j)` are members. Readers read into a value
made with the schema's defaults, so a member the text does not hold keeps its default (charged
against the decode budget when it holds structs, docs/limits.md 3); a nested struct's reader is
wrapped so the exception gains the member path on its way out, as in the binary readers. Kotlin's
unsigned types cross to the runtime's signed Java types of their width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm.context import Names
from fbec.targets.jvm.models import elements, entries, nested
from fbec.targets.kotlin.syntax import char_literal, expression_body, fits, kotlin_string

if TYPE_CHECKING:
    from fbec.targets.kotlin.syntax import Context

# Primitive -> the JsonWriter method writing it and the conversion of the Kotlin value to its argument.
WRITE = {
    "bool": ("bool", ""), "byte": ("u8", ".toByte()"), "uint8": ("u8", ".toByte()"), "int8": ("i64", ".toLong()"),
    "int16": ("i64", ".toLong()"), "uint16": ("u16", ".toShort()"), "int32": ("i64", ".toLong()"),
    "uint32": ("u32", ".toInt()"), "int64": ("i64", ""), "uint64": ("u64", ".toLong()"), "timestamp": ("u64", ""),
    "char": ("ch", ""), "wchar": ("u32", ""), "float": ("f32", ""), "double": ("f64", ""),
    "decimal": ("decimal", ""), "uuid": ("uuid", ""), "string": ("string", ""), "bytes": ("bytes", ""),
}
# Map keys: the JsonWriter method and the conversion of the Kotlin key (unsigned types by their value).
KEY_WRITE = {
    "bool": ("keyBool", "{}"), "byte": ("keyI64", "{}.toLong()"), "uint8": ("keyI64", "{}.toLong()"),
    "char": ("keyI64", "({}.code and 0xFF).toLong()"), "int8": ("keyI64", "{}.toLong()"),
    "int16": ("keyI64", "{}.toLong()"), "uint16": ("keyI64", "{}.toLong()"), "int32": ("keyI64", "{}.toLong()"),
    "uint32": ("keyI64", "{}.toLong()"), "wchar": ("keyI64", "({}.toLong() and 0xFFFFFFFFL)"),
    "int64": ("keyI64", "{}"), "uint64": ("keyU64", "{}.toLong()"), "timestamp": ("keyU64", "{}"),
    "float": ("keyF32", "{}"), "double": ("keyF64", "{}"), "decimal": ("keyDecimal", "{}"),
    "uuid": ("keyUuid", "{}"), "string": ("keyString", "{}"), "bytes": ("keyBytes", "{}"),
}
SIGNED = frozenset({"int8", "int16", "int32", "int64"})
# The Kotlin conversion of a value read as a Long, per integer primitive or wire type.
NARROW = {"int8": ".toByte()", "int16": ".toShort()", "int32": ".toInt()", "wchar": ".toInt()", "int64": "",
          "timestamp": "", "byte": ".toUByte()", "uint8": ".toUByte()", "uint16": ".toUShort()",
          "uint32": ".toUInt()", "uint64": ".toULong()"}


class Raw:
    """Literal JSON text merged into one JsonWriter.raw call until the next statement."""

    def __init__(self, w: CodeWriter) -> None:
        self.w, self.pending = w, ""

    def __call__(self, text: str) -> None:
        self.pending += text

    def flush(self) -> None:
        text, self.pending = self.pending, ""
        if len(text) == 1:
            self.w.line(f"j.raw({char_literal(ord(text))})")
        elif text:
            self.w.line(f"j.raw({kotlin_string(text)})")

    def line(self, text: str) -> None:
        self.flush()
        self.w.line(text)


def long_literal(value: int) -> str:
    """A Kotlin Long literal of a bound (the unsigned 64-bit maximum as its bits, -1L)."""
    if value == -(1 << 63):
        return "Long.MIN_VALUE"
    if value == (1 << 63) - 1:
        return "Long.MAX_VALUE"
    if value == (1 << 64) - 1:
        return "-1L"
    return f"{value}L"


# ---------------------------------------------------------------- writing

def json_write(c: Context, raw: Raw, t: ir.Type, x: str, names: Names, field: str, index: str | None = None) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2); field and index (an element's) name it in errors."""
    w = raw.w
    if isinstance(t, ir.Primitive):
        method, conversion = WRITE[t.name]
        raw.line(f"j.{method}({x}{conversion})")
    elif isinstance(t, ir.EnumRef):
        method, conversion = WRITE[t.wire]
        raw.line(f"j.{method}({x}.value{conversion})")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        nested(w, c, f"{c.named(t.name)}.fbeWriteJson(j, {x})", field, index)
    elif isinstance(t, ir.Optional_):
        raw.flush()
        o = c.local(w, x, names)
        with w.block(f"if ({o} == null) {{", "} else {"):
            w.line("j.nil()")
        with w.block("", "}"):
            json_write(c, raw, t.element, o, names, field, index)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        i, y = names("i"), names("x")
        if isinstance(t, ir.Array):
            raw.line(f'{c.rt("Writer")}.checkLength({x}.size, {t.length}, "{field}")')
        items = elements(c, t, x, field) if isinstance(t, ir.Sequence) else x
        raw("[")
        raw.flush()
        w.line(f"var {i} = 0")
        with w.block(c.each(w, y, t, items), "}"):
            w.line(f"if ({i}++ > 0) j.raw(',')")
            json_write(c, raw, t.element, y, names, field, f"{i} - 1")
            raw.flush()
        raw("]")
    elif isinstance(t.key, ir.StructRef):
        # a struct is not a member name: an array of [key, value] pairs (as the other runtimes)
        i, y = names("i"), names("x")
        raw("[")
        raw.flush()
        w.line(f"var {i} = 0")
        with w.block(c.each(w, y, t, entries(c, t, x, field)), "}"):
            w.line(f"if ({i}++ > 0) j.raw(',')")
            raw("[")
            json_write(c, raw, t.key, f"{y}.key", names, field, f"{i} - 1")
            raw(",")
            json_write(c, raw, t.value, f"{y}.value", names, field, f"{i} - 1")
            raw("]")
            raw.flush()
        raw("]")
    else:
        i, y = names("i"), names("x")
        raw("{")
        raw.flush()
        w.line(f"var {i} = 0")
        with w.block(c.each(w, y, t, entries(c, t, x, field)), "}"):
            w.line(f"if ({i}++ > 0) j.raw(',')")
            w.line(json_key(t.key, f"{y}.key"))
            json_write(c, raw, t.value, f"{y}.value", names, field, f"{i} - 1")
            raw.flush()
        raw("}")


def json_key(t: ir.Type, k: str) -> str:
    """Write map key k as a member name and its colon (docs/format.md 8.1)."""
    if isinstance(t, ir.EnumRef):
        method, conversion = KEY_WRITE[t.wire]
        return f"j.{method}({conversion.format(k + '.value')})"
    assert isinstance(t, ir.Primitive), t
    method, conversion = KEY_WRITE[t.name]
    return f"j.{method}({conversion.format(k)})"


# ---------------------------------------------------------------- reading

def integer_read(name: str, key: str | None, f: str) -> str:
    """The expression reading an integer primitive or wire type (from a map key's text with key), enums
    and flags included: a number in the type's range (docs/limits.md 7)."""
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    text = f"{key}, " if key is not None else ""
    if name in SIGNED:
        method = "keyInt" if key is not None else "integer"
        return f"r.{method}({text}{long_literal(lo)}, {long_literal(hi)}, {f}){NARROW[name]}"
    method = "keyUnsigned" if key is not None else "unsigned"
    return f"r.{method}({text}{long_literal(hi)}, {f}){NARROW[name]}"


def primitive_read(t: ir.Primitive, f: str) -> str:
    n = t.name
    if n in ("bool", "decimal", "uuid", "string", "bytes"):
        return f"r.{n}({f})"
    if n in ("float", "double"):
        return f"r.{'f32' if n == 'float' else 'f64'}({f})"
    if n == "char":
        return f"r.ch({f})"
    return integer_read(n, None, f)


def enum_read(c: Context, t: ir.EnumRef, key: str | None, f: str) -> str:
    """An enum or flags value read as its wire integer, in the wire type's range."""
    return f"{c.named(t.name)}({integer_read(t.wire, key, f)})"


def key_read(c: Context, t: ir.Type, key: str, f: str) -> str:
    """The expression reading a map key from its member-name text."""
    if isinstance(t, ir.EnumRef):
        return enum_read(c, t, key, f)
    assert isinstance(t, ir.Primitive), t
    n = t.name
    if n in ("bool", "decimal", "uuid", "string", "bytes"):
        return f"r.key{n[0].upper()}{n[1:]}({key}, {f})"
    if n in ("float", "double"):
        return f"r.key{'F32' if n == 'float' else 'F64'}({key}, {f})"
    if n == "char":
        return f"r.keyChar({key}, {f})"
    return integer_read(n, key, f)


def assign(w: CodeWriter, left: str, value: str, right: str = "") -> None:
    """`left value right` (an assignment, a call): on one line when it fits, else value on its own line."""
    if fits(w, w.depth, f"{left} {value}{right}" if left.endswith("=") else f"{left}{value}{right}"):
        w.line(f"{left} {value}{right}" if left.endswith("=") else f"{left}{value}{right}")
        return
    w.line(left)
    with w.indented():
        w.line(value)
    if right:
        w.line(right)


def catch(w: CodeWriter, c: Context, statement: str, at: str) -> None:
    """statement (a nested struct's reader) with the member path put in front of its errors."""
    with w.block("try {", f"}} catch (e: {c.rt('DecodeException')}) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw e.{at}")


def read_value(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, at: str,
               target: str | None = None) -> str:
    """Write the statements reading the JSON value at the reader's position and return an expression
    of it (to be used at once); at: how a nested struct's error gains the path (`at("f", i)`). An
    optional is read into target when given (and target returned)."""
    f = f'"{field}"'
    if isinstance(t, ir.Primitive):
        return primitive_read(t, f)
    if isinstance(t, ir.EnumRef):
        return enum_read(c, t, None, f)
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        if c.schema.struct(t.name).large_default:     # made once the budget pays for it (docs/limits.md 3)
            cost = c.schema.struct(t.name).default_cost
            w.line(f"if (!r.affords({cost})) r.spend({cost}, {f})")
        w.line(f"val {x} = {name}()")
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
        w.line(f"r.beginArray({q})")
        w.line(f"var {i} = 0")
        with w.block(f"while (r.element({i}, {t.length}, {q})) {{", "}"):
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeReadJson(r, {target}[{i}])", f"at({q}, {i})")
            else:
                assign(w, f"{target}[{i}] =", read_value(w, c, t.element, f.name, names, f"at({q}, {i})"))
            w.line(f"{i}++")
        w.line(f"r.endArray({i}, {t.length}, {q})")
    elif isinstance(t, ir.Sequence):
        i = names("i")
        cost = t.item_cost
        count = indexed(t.element)
        w.line(f"r.beginArray({q})")
        if count:
            w.line(f"var {i} = 0")
        with w.block("while (r.more()) {", "}"):
            if cost:
                w.line(f"r.spend({cost}, {q})")
            value = read_value(w, c, t.element, f.name, names, f"at({q}, {i})")
            if t.kind == "set":
                e = c.local(w, value, names, "e")
                w.line(f"if (!{target}.add({e})) throw r.duplicateElement({q})")
            else:
                assign(w, f"{target}.add(", value, ")")
            if count:
                w.line(f"{i}++")
    elif isinstance(t, ir.Mapping):
        cost = t.item_cost
        if isinstance(t.key, ir.StructRef):
            i = names("i")
            at = f"at({q}, {i})"
            w.line(f"r.beginArray({q})")
            w.line(f"var {i} = 0")             # a struct key: always indexed
            with w.block("while (r.more()) {", "}"):
                w.line(f"r.spend({cost}, {q})")
                w.line(f"r.beginPair({q})")
                k = read_value(w, c, t.key, f.name, names, at)
                value = read_value(w, c, t.value, f.name, names, at)
                v = c.local(w, value, names, "v")
                w.line(f"r.endPair({q})")
                w.line(f"if ({k} in {target}) throw r.duplicateKey({q})")
                w.line(f"{target}[{k}] = {v}")
                w.line(f"{i}++")
        else:
            text, k = names("key"), names("k")
            w.line(f"r.beginObject({q})")
            with w.block("while (true) {", "}"):
                w.line(f"val {text} = r.key({q}) ?: break")
                w.line(f"r.spend({cost}, {q})")
                assign(w, f"val {k} =", key_read(c, t.key, text, q))
                value = read_value(w, c, t.value, f.name, names, f"atKey({q}, {text})")
                v = c.local(w, value, names, "v")
                w.line(f"if ({k} in {target}) throw r.duplicateKey({q})")
                w.line(f"{target}[{k}] = {v}")
    elif isinstance(t, ir.Optional_):
        read_value(w, c, t, f.name, names, f"at({q})", target)
    else:
        assign(w, f"{target} =", read_value(w, c, t, f.name, names, f"at({q})"))


# ---------------------------------------------------------------- per struct

def write_json_members(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """toJson() (in a struct without a base: derived ones inherit it) and writeJson(j)."""
    json_writer = c.rt("JsonWriter")
    derived = s.base is not None
    if not derived:
        w.line("/** This value as JSON (docs/format.md 8): the original's text for every value it writes correctly. */")
        w.line(f"fun toJson(): String = {json_writer}().also {{ writeJson(it) }}.toString()")
        w.blank()
    w.line("/**")
    w.line(" * Writes this value as JSON into [j] (reset first) and returns the text's size in bytes: with a")
    w.line(" * reused writer, writing allocates nothing for the text.")
    w.line(" *")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path); [j] is left empty")
    w.line(" */")
    with w.block(f"{'override' if derived else 'open'} fun writeJson(j: {json_writer}): Int {{", "}"):
        with w.block("try {", f"}} catch (e: {c.rt('EncodeException')}) {{"):
            w.line("j.reset()")
            w.line(f"{name}.fbeWriteJson(j, this)")
            w.line("return j.size()")
        with w.block("", "}"):
            w.line("j.reset()")
            w.line(f'throw e.within("{s.qualified}")')
    w.blank()


def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The companion's fbeWriteJson, fbeReadJson and fromJson."""
    q = s.qualified
    plan = c.plan.struct(q)
    bounded = plan.bounded
    json_writer, json_reader, limits = c.rt("JsonWriter"), c.rt("JsonReader"), c.rt("Limits")
    decode_exception = c.rt("DecodeException")
    names = Names()
    fields = s.all_fields

    w.line("/** Writes [v] as a JSON object, inherited fields first (docs/format.md 8). */")
    with w.block(f"fun fbeWriteJson(j: {json_writer}, v: {name}) {{", "}"):
        if not bounded:
            w.line(f'j.enter("{q}")')
        raw = Raw(w)
        if not fields:
            raw("{}")
        for n, f in enumerate(fields):
            raw(("{" if n == 0 else ",") + f'"{f.name}":')
            json_write(c, raw, f.type, f"v.{c.ident.field(f)}", names, f.name)
        if fields:
            raw("}")
        raw.flush()
        if not bounded:
            w.line("j.leave()")
    w.blank()

    w.line("/**")
    w.line(" * Reads the JSON object at [r]'s position into [v], a value with the schema's defaults: members")
    w.line(" * in any order, unknown ones skipped, missing ones left at their defaults (docs/format.md 8.3).")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md 7)")
    w.line(" */")
    with w.block(f"fun fbeReadJson(r: {json_reader}, v: {name}) {{", "}"):
        w.line(f"r.beginStruct({s.decode_cost})")
        # a missing member's default holds struct values: they are charged (docs/limits.md 3)
        cost = {f.name: f.default_cost for f in plan.fields}
        charged = {name: names("seen") for name, n in cost.items() if n}
        for seen in charged.values():
            w.line(f"var {seen} = false")
        with w.block("while (true) {", "}"):
            w.line("val name = r.member() ?: break")
            with w.block("when (name) {", "}"):
                for f in fields:
                    with w.block(f'"{f.name}" -> {{', "}"):
                        if f.name in charged:
                            w.line(f"{charged[f.name]} = true")
                        read_field(w, c, f, f"v.{c.ident.field(f)}", names)
                w.line("else -> r.skip()")
        for f in fields:
            if f.name in charged:
                w.line(f'if (!{charged[f.name]}) r.spend({cost[f.name]}, "{f.name}")')
        w.line("r.leave()")
    w.blank()

    w.line("/**")
    w.line(" * Reads a value from JSON text under [limits] (docs/limits.md: depth, nesting, budget).")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (type, member path, text offset)")
    w.line(" */")
    w.line("@JvmStatic")
    w.line("@JvmOverloads")
    w.line(f"@Throws({decode_exception}::class)")
    expression_body(w, "fun fromJson", ["text: String", f"limits: {limits} = {limits}.DEFAULT"], f": {name}",
                    f"fromJson({json_reader}.utf8(text), limits)")
    w.blank()
    w.line("/**")
    w.line(" * Reads a value from JSON text in UTF-8 under [limits] (docs/limits.md: depth, nesting, budget).")
    w.line(" *")
    w.line(" * @throws DecodeException at the first problem (type, member path, text offset)")
    w.line(" */")
    w.line("@JvmStatic")
    w.line("@JvmOverloads")
    w.line(f"@Throws({decode_exception}::class)")
    expression_body(w, "fun fromJson", ["text: ByteArray", f"limits: {limits} = {limits}.DEFAULT"], f": {name}",
                    f'{json_reader}.read(text, limits, {name}(), {{ r, v -> fbeReadJson(r, v) }}, "{q}")')
    w.blank()

