"""JSON of fbec --java --json (docs/format.md 8, docs/limits.md 7): straight-line member code on the
runtime's JsonWriter and JsonReader (Jackson's streaming parser underneath).

Per struct, static pieces other generated classes call (`fbeWriteJson`, `fbeReadJson`) and the
methods users call (`toJson`, `writeJson`, `fromJson`). Readers read into a value made with the
schema's defaults, so a member the text does not hold keeps its default (charged against the
decode budget when it holds structs, docs/limits.md 3); a nested struct's reader is wrapped so the
exception gains the member path on its way out, as in the binary readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm.context import Names
from fbec.targets.jvm.models import elements, entries, nested

if TYPE_CHECKING:
    from fbec.targets.java import Context

# Primitive -> the JsonWriter method writing it.
WRITE = {
    "bool": "bool", "byte": "u8", "uint8": "u8", "int8": "i64", "int16": "i64", "uint16": "u16",
    "int32": "i64", "uint32": "u32", "int64": "i64", "uint64": "u64", "timestamp": "u64", "char": "ch",
    "wchar": "u32", "float": "f32", "double": "f64", "decimal": "decimal", "uuid": "uuid", "string": "string",
    "bytes": "bytes",
}
# Integer wire types of enums and flags -> the JsonWriter method.
WIRE_WRITE = {"int8": "i64", "int16": "i64", "int32": "i64", "int64": "i64", "uint8": "u8", "uint16": "u16",
              "uint32": "u32", "uint64": "u64"}
# Map keys: the JsonWriter method and the conversion of the key (unsigned types by their value).
KEY_WRITE = {
    "bool": ("keyBool", "{}"), "byte": ("keyI64", "{} & 0xFF"), "uint8": ("keyI64", "{} & 0xFF"),
    "char": ("keyI64", "{} & 0xFF"), "int8": ("keyI64", "{}"), "int16": ("keyI64", "{}"),
    "uint16": ("keyI64", "{} & 0xFFFF"), "int32": ("keyI64", "{}"), "uint32": ("keyI64", "{} & 0xFFFFFFFFL"),
    "wchar": ("keyI64", "{} & 0xFFFFFFFFL"), "int64": ("keyI64", "{}"), "uint64": ("keyU64", "{}"),
    "timestamp": ("keyU64", "{}"), "float": ("keyF32", "{}"), "double": ("keyF64", "{}"),
    "decimal": ("keyDecimal", "{}"), "uuid": ("keyUuid", "{}"), "string": ("keyString", "{}"),
    "bytes": ("keyBytes", "{}"),
}
SIGNED = frozenset({"int8", "int16", "int32", "int64"})
# The Java cast of a value read as a long, per integer primitive or wire type.
CAST = {"int8": "(byte) ", "byte": "(byte) ", "uint8": "(byte) ", "int16": "(short) ", "uint16": "(short) ",
        "int32": "(int) ", "uint32": "(int) ", "wchar": "(int) ", "int64": "", "uint64": "", "timestamp": ""}


class Raw:
    """Literal JSON text merged into one JsonWriter.raw call until the next statement."""

    def __init__(self, w: CodeWriter) -> None:
        self.w, self.pending = w, ""

    def __call__(self, text: str) -> None:
        self.pending += text

    def flush(self) -> None:
        from fbec.targets.java import java_string
        text, self.pending = self.pending, ""
        if len(text) == 1 and text not in "'\\":
            self.w.line(f"j.raw('{text}');")
        elif text:
            self.w.line(f"j.raw({java_string(text)});")

    def line(self, text: str) -> None:
        self.flush()
        self.w.line(text)


def long_literal(value: int) -> str:
    """A Java long literal (an unsigned 64-bit bound in hexadecimal)."""
    if value == -(1 << 63):
        return "Long.MIN_VALUE"
    if value == (1 << 63) - 1:
        return "Long.MAX_VALUE"
    if value == (1 << 64) - 1:
        return "0xFFFFFFFFFFFFFFFFL"
    return f"{value}L" if not -(1 << 31) <= value < (1 << 31) else str(value)


# ---------------------------------------------------------------- writing

def json_write(c: Context, raw: Raw, t: ir.Type, x: str, names: Names, field: str, index: str | None = None) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2); field and index (an element's) name it in errors."""
    w = raw.w
    if isinstance(t, ir.Primitive):
        raw.line(f"j.{WRITE[t.name]}({x});")
    elif isinstance(t, ir.EnumRef):
        raw.line(f"j.{WIRE_WRITE[t.wire]}({x}.value());")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        nested(w, c, f"{c.named(t.name)}.fbeWriteJson(j, {x})", field, index)
    elif isinstance(t, ir.Optional_):
        raw.flush()
        with w.block(f"if ({x} == null) {{", "} else {"):
            w.line("j.nil();")
        with w.block("", "}"):
            json_write(c, raw, t.element, x, names, field, index)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        i, y = names("i"), names("x")
        if isinstance(t, ir.Array):
            raw.line(f'{c.rt("Writer")}.checkLength({x}.length, {t.length}, "{field}");')
        items = elements(c, t, x, field) if isinstance(t, ir.Sequence) else x
        raw("[")
        raw.flush()
        w.line(f"int {i} = 0;")
        with w.block(f"for ({c.type(t.element, True)} {y} : {items}) {{", "}"):
            with w.block(f"if ({i}++ > 0) {{", "}"):
                w.line("j.raw(',');")
            json_write(c, raw, t.element, y, names, field, f"{i} - 1")
            raw.flush()
        raw("]")
    elif isinstance(t.key, ir.StructRef):
        # a struct is not a member name: an array of [key, value] pairs (as the other runtimes)
        i, y = names("i"), names("x")
        raw("[")
        raw.flush()
        w.line(f"int {i} = 0;")
        with w.block(c.each(w, y, t, entries(c, t, x, field)), "}"):
            with w.block(f"if ({i}++ > 0) {{", "}"):
                w.line("j.raw(',');")
            raw("[")
            json_write(c, raw, t.key, f"{y}.getKey()", names, field, f"{i} - 1")
            raw(",")
            json_write(c, raw, t.value, f"{y}.getValue()", names, field, f"{i} - 1")
            raw("]")
            raw.flush()
        raw("]")
    else:
        i, y = names("i"), names("x")
        raw("{")
        raw.flush()
        w.line(f"int {i} = 0;")
        with w.block(c.each(w, y, t, entries(c, t, x, field)), "}"):
            with w.block(f"if ({i}++ > 0) {{", "}"):
                w.line("j.raw(',');")
            w.line(json_key(t.key, f"{y}.getKey()"))
            json_write(c, raw, t.value, f"{y}.getValue()", names, field, f"{i} - 1")
            raw.flush()
        raw("}")


def json_key(t: ir.Type, k: str) -> str:
    """Write map key k as a member name and its colon (docs/format.md 8.1)."""
    if isinstance(t, ir.EnumRef):
        method, conversion = KEY_WRITE[t.wire]
        return f"j.{method}({conversion.format(k + '.value()')});"
    assert isinstance(t, ir.Primitive), t
    method, conversion = KEY_WRITE[t.name]
    return f"j.{method}({conversion.format(k)});"


# ---------------------------------------------------------------- reading

def integer_read(name: str, key: str | None, f: str) -> str:
    """The expression reading an integer primitive or wire type (from a map key's text with key), enums
    and flags included: a number in the type's range (docs/limits.md 7)."""
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    text = f"{key}, " if key is not None else ""
    if name in SIGNED:
        method = "keyInt" if key is not None else "integer"
        return f"{CAST[name]}r.{method}({text}{long_literal(lo)}, {long_literal(hi)}, {f})"
    method = "keyUnsigned" if key is not None else "unsigned"
    return f"{CAST[name]}r.{method}({text}{long_literal(hi)}, {f})"


def primitive_read(t: ir.Primitive, f: str) -> str:
    n = t.name
    if n in ("bool", "decimal", "uuid", "string", "bytes"):
        return f"r.{n}({f})"
    if n in ("float", "double"):
        return f"r.{'f32' if n == 'float' else 'f64'}({f})"
    if n == "char":
        return f"r.ch({f})"
    return integer_read(n, None, f)


def key_read(c: Context, t: ir.Type, key: str, f: str) -> str:
    """The expression reading a map key from its member-name text."""
    if isinstance(t, ir.EnumRef):
        return f"{c.named(t.name)}.of({integer_read(t.wire, key, f)})"
    assert isinstance(t, ir.Primitive), t
    n = t.name
    if n in ("bool", "decimal", "uuid", "string", "bytes"):
        return f"r.key{n[0].upper()}{n[1:]}({key}, {f})"
    if n in ("float", "double"):
        return f"r.key{'F32' if n == 'float' else 'F64'}({key}, {f})"
    if n == "char":
        return f"r.keyChar({key}, {f})"
    return integer_read(n, key, f)


def catch(w: CodeWriter, c: Context, statement: str, at: str) -> None:
    """statement (a nested struct's reader) with the member path put in front of its errors."""
    with w.block("try {", f"}} catch ({c.rt('DecodeException')} e) {{"):
        w.line(statement)
    with w.block("", "}"):
        w.line(f"throw e.{at};")


def read_value(w: CodeWriter, c: Context, t: ir.Type, field: str, names: Names, at: str) -> str:
    """Write the statements reading the JSON value at the reader's position and return an expression
    of it (to be used at once); at: how a nested struct's error gains the path (`at("f", i)`)."""
    f = f'"{field}"'
    if isinstance(t, ir.Primitive):
        return primitive_read(t, f)
    if isinstance(t, ir.EnumRef):
        return f"{c.named(t.name)}.of({integer_read(t.wire, None, f)})"
    if isinstance(t, ir.StructRef):
        x, name = names("x"), c.named(t.name)
        if c.schema.struct(t.name).large_default:     # made once the budget pays for it (docs/limits.md 3)
            cost = c.schema.struct(t.name).default_cost
            with w.block(f"if (!r.affords({cost})) {{", "}"):
                w.line(f"r.spend({cost}, {f});")
        w.line(f"{name} {x} = new {name}();")
        catch(w, c, f"{name}.fbeReadJson(r, {x});", at)
        return x
    if isinstance(t, ir.Optional_):
        x = names("x")
        w.line(f"{c.type(t)} {x} = null;")
        with w.block("if (!r.nil()) {", "}"):
            inner = read_value(w, c, t.element, field, names, at)
            w.line(f"{x} = {inner};")
        return x
    raise AssertionError(f"a collection inside a collection: {t}")


def read_field(w: CodeWriter, c: Context, f: ir.Field, target: str, names: Names) -> None:
    """Read member f's value into target (a value made with the schema's defaults)."""
    t = f.type
    q = f'"{f.name}"'
    if isinstance(t, ir.StructRef):
        catch(w, c, f"{c.named(t.name)}.fbeReadJson(r, {target});", f"at({q})")
    elif isinstance(t, ir.Array):
        i = names("i")
        w.line(f"r.beginArray({q});")
        w.line(f"int {i} = 0;")
        with w.block(f"for (; r.element({i}, {t.length}, {q}); {i}++) {{", "}"):
            if isinstance(t.element, ir.StructRef):
                catch(w, c, f"{c.named(t.element.name)}.fbeReadJson(r, {target}[{i}]);", f"at({q}, {i})")
            else:
                w.line(f"{target}[{i}] = {read_value(w, c, t.element, f.name, names, f'at({q}, {i})')};")
        w.line(f"r.endArray({i}, {t.length}, {q});")
    elif isinstance(t, ir.Sequence):
        i = names("i")
        cost = t.item_cost
        w.line(f"r.beginArray({q});")
        with w.block(f"for (int {i} = 0; r.more(); {i}++) {{", "}"):
            if cost:
                w.line(f"r.spend({cost}, {q});")
            value = read_value(w, c, t.element, f.name, names, f"at({q}, {i})")
            if t.kind == "set":
                with w.block(f"if (!{target}.add({value})) {{", "}"):
                    w.line(f"throw r.duplicateElement({q});")
            else:
                w.line(f"{target}.add({value});")
    elif isinstance(t, ir.Mapping):
        cost = t.item_cost
        k = names("k")
        if isinstance(t.key, ir.StructRef):
            i = names("i")
            at = f"at({q}, {i})"
            w.line(f"r.beginArray({q});")
            with w.block(f"for (int {i} = 0; r.more(); {i}++) {{", "}"):
                w.line(f"r.spend({cost}, {q});")
                w.line(f"r.beginPair({q});")
                key = read_value(w, c, t.key, f.name, names, at)
                w.line(f"{c.type(t.key, True)} {k} = {key};")
                value, x = read_value(w, c, t.value, f.name, names, at), names("v")
                w.line(f"{c.type(t.value, True)} {x} = {value};")    # read before the pair's end
                w.line(f"r.endPair({q});")
                with w.block(f"if ({target}.containsKey({k})) {{", "}"):
                    w.line(f"throw r.duplicateKey({q});")
                w.line(f"{target}.put({k}, {x});")
        else:
            text = names("key")
            w.line(f"r.beginObject({q});")
            with w.block(f"for (String {text}; ({text} = r.key({q})) != null;) {{", "}"):
                w.line(f"r.spend({cost}, {q});")
                w.line(f"{c.type(t.key, True)} {k} = {key_read(c, t.key, text, q)};")
                value = read_value(w, c, t.value, f.name, names, f"atKey({q}, {text})")
                with w.block(f"if ({target}.containsKey({k})) {{", "}"):
                    w.line(f"throw r.duplicateKey({q});")
                w.line(f"{target}.put({k}, {value});")
    else:
        w.line(f"{target} = {read_value(w, c, t, f.name, names, f'at({q})')};")


# ---------------------------------------------------------------- per struct

def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteJson, fbeReadJson and the methods users call."""
    q = s.qualified
    plan = c.plan.struct(q)
    bounded = plan.bounded
    json_writer, json_reader, limits = c.rt("JsonWriter"), c.rt("JsonReader"), c.rt("Limits")
    decode_exception = c.rt("DecodeException")
    names = Names()
    fields = s.all_fields

    w.line("/**")
    w.line(" * Writes v as a JSON object, inherited fields first (docs/format.md 8).")
    w.line(" *")
    w.line(" * @param j the writer")
    w.line(" * @param v the value")
    w.line(" */")
    with w.block(f"public static void fbeWriteJson({json_writer} j, {name} v) {{", "}"):
        if not bounded:
            w.line(f'j.enter("{q}");')
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
            w.line("j.leave();")
    w.blank()

    w.line("/**")
    w.line(" * Reads the JSON object at r's position into v, a value with the schema's defaults: members")
    w.line(" * in any order, unknown ones skipped, missing ones left at their defaults (docs/format.md 8.3).")
    w.line(" *")
    w.line(" * @param r the reader")
    w.line(" * @param v the value")
    w.line(" * @throws DecodeException at the first problem (docs/limits.md 7)")
    w.line(" */")
    with w.block(f"public static void fbeReadJson({json_reader} r, {name} v) throws {decode_exception} {{", "}"):
        w.line(f"r.beginStruct({s.decode_cost});")
        # a missing member's default holds struct values: they are charged (docs/limits.md 3)
        cost = {f.name: f.default_cost for f in plan.fields}
        charged = {name: names("seen") for name, n in cost.items() if n}
        for seen in charged.values():
            w.line(f"boolean {seen} = false;")
        with w.block("for (String name; (name = r.member()) != null;) {", "}"), w.block("switch (name) {", "}"):
            for f in fields:
                w.line(f'case "{f.name}":')
                with w.indented():
                    if f.name in charged:
                        w.line(f"{charged[f.name]} = true;")
                    read_field(w, c, f, f"v.{c.ident.field(f)}", names)
                    w.line("break;")
            w.line("default:")
            with w.indented():
                w.line("r.skip();")
                w.line("break;")
        for f in fields:
            if f.name in charged:
                with w.block(f"if (!{charged[f.name]}) {{", "}"):
                    w.line(f'r.spend({cost[f.name]}, "{f.name}");')
        w.line("r.leave();")
    w.blank()

    w.line("/**")
    w.line(" * This value as JSON (docs/format.md 8): the original's text for every value it writes correctly.")
    w.line(" *")
    w.line(" * @return the text")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path)")
    w.line(" */")
    with w.block("public String toJson() {", "}"):
        w.line(f"{json_writer} j = new {json_writer}();")
        w.line("writeJson(j);")
        w.line("return j.toString();")
    w.blank()
    w.line("/**")
    w.line(" * Writes this value as JSON into j (reset first): with a reused writer, writing allocates")
    w.line(" * nothing for the text.")
    w.line(" *")
    w.line(" * @param j the writer; its first {@code size()} bytes are the UTF-8 text")
    w.line(" * @return the text's size in bytes")
    w.line(" * @throws EncodeException for a value no reader reads (type, field path); j is left empty")
    w.line(" */")
    with w.block(f"public int writeJson({json_writer} j) {{", "}"):
        with w.block("try {", f"}} catch ({c.rt('EncodeException')} e) {{"):
            w.line("j.reset();")
            w.line("fbeWriteJson(j, this);")
            w.line("return j.size();")
        with w.block("", "}"):
            w.line("j.reset();")
            w.line(f'throw e.within("{q}");')
    w.blank()
    w.line("/**")
    w.line(" * Reads a value from JSON text under the default limits.")
    w.line(" *")
    w.line(" * @param text the text")
    w.line(" * @return the value")
    w.line(" * @throws DecodeException at the first problem (type, member path, text offset)")
    w.line(" */")
    with w.block(f"public static {name} fromJson(String text) throws {decode_exception} {{", "}"):
        w.line(f"return fromJson({json_reader}.utf8(text), {limits}.DEFAULT);")
    w.blank()
    w.line("/**")
    w.line(" * Reads a value from JSON text in UTF-8 under the default limits.")
    w.line(" *")
    w.line(" * @param text the UTF-8 text")
    w.line(" * @return the value")
    w.line(" * @throws DecodeException at the first problem (type, member path, text offset)")
    w.line(" */")
    with w.block(f"public static {name} fromJson(byte[] text) throws {decode_exception} {{", "}"):
        w.line(f"return fromJson(text, {limits}.DEFAULT);")
    w.blank()
    w.line("/**")
    w.line(" * Reads a value from JSON text in UTF-8 under limits (docs/limits.md: depth, nesting, budget).")
    w.line(" *")
    w.line(" * @param text   the UTF-8 text")
    w.line(" * @param limits the limits")
    w.line(" * @return the value")
    w.line(" * @throws DecodeException at the first problem (type, member path, text offset)")
    w.line(" */")
    with w.block(f"public static {name} fromJson(byte[] text, {limits} limits) throws {decode_exception} {{", "}"):
        w.line(f'return {json_reader}.read(text, limits, new {name}(), {name}::fbeReadJson, "{q}");')
    w.blank()
