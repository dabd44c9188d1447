"""fbec.targets.kotlin: Kotlin code for a schema package over the Java runtime: `fbec --kotlin`.

Generated per schema package, a Kotlin package (the schema's `domain` and package name,
`com.chronoxor.proto`, as the Java target's) with a file per enum, flags and struct, calling the
runtime `io.github.fbetoolkit.fbe` (runtime/java) that generated Java calls too (docs/kotlin.md):

* enums and flags as `@JvmInline value class`es of their wire type (`OrderSide(val value: UByte)`),
  a companion constant per declared value, undeclared values kept (as the Java target's value
  classes);
* structs as open classes: a primary constructor of `var` properties with the schema's defaults
  as default arguments (named arguments build a value), equality and hash over the `[key]`
  fields and `KEY_ORDER` (as the Java target and the original), `toString()` the original's text
  form (text.py, as the Java target's).
  Not data classes: any schema that imports a package may derive from its structs
  (`protoex.Balance : proto.Balance`), and a data class cannot be derived from;
* unsigned integers as Kotlin's unsigned types (`UByte`, `UInt`...), optionals as nullable types,
  `MutableList`/`MutableSet`/`MutableMap` for the collections (sets and maps sorted in the wire
  order, hashes in insertion order), fixed arrays as Kotlin arrays;
* the versioned model (models.py; `--final`: the final model too): `toFbe()`, `writeFbe(w)`,
  `T.fromFbe(data)`, `T.verifyFbe(data)` and their final twins;
* with `--json` JSON (json.py): `toJson()`, `writeJson(j)`, `T.fromJson(text)`;
* with `--proto` the protocol (protocol.py): Handler, Receiver, Sender, Proxy, Client and the final
  twins on the runtime's FrameReceiver, FrameSender and Requests.
"""

from __future__ import annotations

import math
import struct as pystruct

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, GeneratedFile, Options, generated_header
from fbec.targets.kotlin.models import write_models
from fbec.targets.kotlin.names import Idents, kotlin_package
from fbec.targets.kotlin.protocol import write_protocol
from fbec.targets.kotlin.text import write_to_string

RUNTIME = "io.github.fbetoolkit.fbe"

# Kotlin type of each primitive (uuid and decimal are imported classes).
PRIMITIVES: dict[str, str] = {
    "bool": "Boolean", "byte": "UByte", "char": "Char", "wchar": "Int", "int8": "Byte", "uint8": "UByte",
    "int16": "Short", "uint16": "UShort", "int32": "Int", "uint32": "UInt", "int64": "Long",
    "uint64": "ULong", "float": "Float", "double": "Double", "timestamp": "Long", "string": "String",
    "bytes": "ByteArray",
}
# Kotlin's array of each primitive that has one (the others are Array<T>).
PRIMITIVE_ARRAYS = {
    "Boolean": "BooleanArray", "Byte": "ByteArray", "Short": "ShortArray", "Int": "IntArray",
    "Long": "LongArray", "Float": "FloatArray", "Double": "DoubleArray", "Char": "CharArray",
}
# The runtime comparator of set elements and map keys whose Kotlin natural order is not the FBE
# order (docs/ir.md `order`); the others (unsigned types included) order naturally (no comparator).
COMPARATORS = {
    "wchar": "U32", "timestamp": "U64", "char": "CHAR", "string": "STRING", "bytes": "BYTES", "uuid": "UUID",
    "float": "F32", "double": "F64",
}
# Keys whose equality (equals/hashCode) is the readers' rule of the same key (docs/limits.md 4): a
# hash of them is a LinkedHashMap whose own check suffices. Bytes (identity), decimals (1.5 and
# 1.50 differ), floats (-0.0 and 0.0 differ) are hashes in a TreeMap of their order, and structs
# (a subclass is another class) are checked by the writers too.
HASHED = frozenset({
    "bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "timestamp", "string", "uuid",
})
# Wire integer -> Kotlin type.
WIRE = {"int8": "Byte", "uint8": "UByte", "int16": "Short", "uint16": "UShort", "int32": "Int", "uint32": "UInt",
        "int64": "Long", "uint64": "ULong"}
BITS = {"Byte": 8, "UByte": 8, "Short": 16, "UShort": 16, "Int": 32, "UInt": 32, "Long": 64, "ULong": 64}
# Unsigned Kotlin type -> the conversion to the runtime's signed Java type of its width, and back.
TO_SIGNED = {"UByte": ".toByte()", "UShort": ".toShort()", "UInt": ".toInt()", "ULong": ".toLong()"}
FROM_SIGNED = {"UByte": ".toUByte()", "UShort": ".toUShort()", "UInt": ".toUInt()", "ULong": ".toULong()"}


def signed(value: int, bits: int) -> int:
    """value as the signed integer of its bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def int_literal(value: int, kotlin: str) -> str:
    """A Kotlin literal of an integer of the Kotlin type (where that type is expected)."""
    if kotlin == "Char":
        return char_literal(value & 0xFFFF)
    bits = BITS[kotlin]
    if kotlin.startswith("U"):
        return f"{value & ((1 << bits) - 1)}u" + ("L" if kotlin == "ULong" else "")
    v = signed(value, bits)
    if v == -(1 << (bits - 1)) and bits >= 32:
        return f"{kotlin}.MIN_VALUE"
    return f"{v}L" if kotlin == "Long" else str(v)


def char_literal(code: int) -> str:
    ch = chr(code)
    if ch in "'\\":
        return f"'\\{ch}'"
    if 0x20 <= code < 0x7F:
        return f"'{ch}'"
    return f"'\\u{code:04x}'"


def kotlin_string(text: str) -> str:
    """A Kotlin string literal of text, ASCII only (every other char as a \\u escape)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch in '"\\$':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
        else:
            out.append(f"\\u{o:04x}")
    return '"' + "".join(out) + '"'


def _float32(v: float) -> float:
    try:
        f: float = pystruct.unpack("<f", pystruct.pack("<f", v))[0]
    except OverflowError:
        f = math.copysign(math.inf, v)
    return f


def float_literal(text: str, single: bool) -> str:
    """A Kotlin literal of a real default: the shortest digits that give the same value (Kotlin
    takes no `5.` and warns about digits a Float cannot hold), infinities spelt out."""
    v = float(text)
    kotlin = "Float" if single else "Double"
    if single:
        v = _float32(v)
    if math.isinf(v):
        return f"{kotlin}.NEGATIVE_INFINITY" if v < 0 else f"{kotlin}.POSITIVE_INFINITY"
    if v == 0.0:
        digits = "-0.0" if math.copysign(1.0, v) < 0 else "0.0"
    elif single:
        digits = repr(float(next(d for d in (f"{v:.{p}g}" for p in range(1, 10)) if _float32(float(d)) == v)))
    else:
        digits = repr(v)
    mantissa, e, exponent = digits.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if e:
        mantissa += "e" + str(int(exponent))
    return mantissa + ("f" if single else "")


class Context:
    """What one generated file needs: its package, its imports by use, Kotlin names of IR types."""

    def __init__(self, schema: ir.Schema, package: ir.Package, prefix: str = "") -> None:
        self.schema = schema
        self.package = package
        self.prefix = prefix
        self.plan = plan.of(schema)
        self.imports: set[str] = set()
        self.ident = Idents(schema, prefix)       # the identifiers of schema names (names.py)
        self.hidden: frozenset[str] = frozenset()
        """The names inherited fields hide in the class being written (names.Idents.hidden)."""

    def use(self, qualified_class: str) -> str:
        """A class by its simple name, imported (`java.util.TreeSet` -> `TreeSet`)."""
        self.imports.add(qualified_class)
        return qualified_class.rpartition(".")[2]

    def rt(self, name: str) -> str:
        """A runtime class (`Writer`)."""
        return self.use(f"{RUNTIME}.{name}")

    def named(self, qualified: str) -> str:
        """A schema type: its simple name in its own package, fully qualified from another."""
        return self.ident.usable(qualified, self.package.name, self.hidden)

    def type(self, t: ir.Type) -> str:
        """The Kotlin type of an IR type."""
        if isinstance(t, ir.Primitive):
            if t.name == "uuid":
                return self.use("java.util.UUID")
            if t.name == "decimal":
                return self.use("java.math.BigDecimal")
            return PRIMITIVES[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            return self.type(t.element) + "?"
        if isinstance(t, ir.Array):
            element = self.type(t.element)
            return PRIMITIVE_ARRAYS.get(element, f"Array<{element}>")
        if isinstance(t, ir.Sequence):
            outer = "MutableSet" if t.kind == "set" else "MutableList"
            return f"{outer}<{self.type(t.element)}>"
        return f"MutableMap<{self.type(t.key)}, {self.type(t.value)}>"

    def comparator(self, t: ir.Type) -> str | None:
        """The order of set elements or map keys of type t: a Comparator expression, or None (natural)."""
        if isinstance(t, ir.Primitive) and t.name in COMPARATORS:
            return f"{self.rt('Compare')}.{COMPARATORS[t.name]}"
        if isinstance(t, ir.StructRef):
            return f"{self.named(t.name)}.KEY_ORDER"
        return None

    def hashed(self, t: ir.Type) -> bool:
        """Whether a key of type t is the same key as another exactly when its equals says so."""
        return isinstance(t, ir.EnumRef) or isinstance(t, ir.Primitive) and t.name in HASHED

    def empty(self, t: ir.Sequence | ir.Mapping) -> str:
        """A new empty collection of the field's kind."""
        if isinstance(t, ir.Sequence):
            if t.kind == "vector":
                return "ArrayList()"
            if t.kind == "list":
                return f"{self.use('java.util.LinkedList')}()"
            return f"{self.use('java.util.TreeSet')}({self.comparator(t.element) or ''})"
        if t.kind == "hash" and (self.hashed(t.key) or isinstance(t.key, ir.StructRef)):
            return "LinkedHashMap()"
        return f"{self.use('java.util.TreeMap')}({self.comparator(t.key) or ''})"

    def enum_of(self, qualified: str, value: int) -> str:
        """An enum or flags value: its first declared constant, or `E(value)`."""
        e = self.schema.enum(qualified)
        for v in e.values:
            if v.value == value:
                return f"{self.named(qualified)}.{self.ident.value(qualified, v.name)}"
        return f"{self.named(qualified)}({int_literal(value, WIRE[e.wire])})"

    def zero(self, t: ir.Type) -> str:
        """The value of a field without a default (docs/ir.md `none`)."""
        if isinstance(t, ir.Primitive):
            name = t.name
            if name == "bool":
                return "false"
            if name == "string":
                return '""'
            if name == "bytes":
                return "ByteArray(0)"
            if name == "uuid":
                return f"{self.rt('Uuids')}.NIL"
            if name == "decimal":
                return f"{self.use('java.math.BigDecimal')}.ZERO"
            if name == "float":
                return "0.0f"
            if name == "double":
                return "0.0"
            return int_literal(0, PRIMITIVES[name])
        if isinstance(t, ir.EnumRef):
            return self.enum_of(t.name, 0)
        if isinstance(t, ir.StructRef):
            return f"{self.named(t.name)}()"
        if isinstance(t, ir.Optional_):
            return "null"
        if isinstance(t, ir.Array):
            element = self.type(t.element)
            if element in PRIMITIVE_ARRAYS:
                return f"{PRIMITIVE_ARRAYS[element]}({t.length})"     # Kotlin's zeros are the defaults
            if isinstance(t.element, ir.Optional_):
                return f"arrayOfNulls<{element[:-1]}>({t.length})"
            return f"Array<{element}>({t.length}) {{ {self.zero(t.element)} }}"
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        return self.empty(t)

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The initial value of a field of type t with default d."""
        k = d.kind
        if isinstance(t, ir.Optional_):
            return "null" if k in ("none", "null") else self.default(t.element, d)
        if k == "none" or k == "null":
            return self.zero(t)
        if k == "bool":
            return "true" if d.value else "false"
        if k == "int":
            assert isinstance(d.value, int) and isinstance(t, ir.Primitive)
            return int_literal(d.value, PRIMITIVES[t.name])
        if k == "real":
            assert d.text is not None and isinstance(t, ir.Primitive)
            if t.name == "decimal":
                return f'{self.rt("Decimals")}.parse("{d.text}")'
            return float_literal(d.text, t.name == "float")
        if k == "string":
            assert isinstance(d.value, str)
            return kotlin_string(d.value)
        if k == "timestamp":
            assert isinstance(d.value, int)
            return int_literal(d.value, "Long")
        if k == "utc":
            return f"{self.rt('Timestamps')}.now()"
        if k == "uuid":
            assert isinstance(d.value, str)
            hexd = d.value.replace("-", "")
            if int(hexd, 16) == 0:
                return f"{self.rt('Uuids')}.NIL"
            high, low = signed(int(hexd[:16], 16), 64), signed(int(hexd[16:], 16), 64)
            return f"{self.use('java.util.UUID')}({int_literal(high, 'Long')}, {int_literal(low, 'Long')})"
        if k == "uuid1":
            return f"{self.rt('Uuids')}.uuid1()"
        if k == "uuid4":
            return f"{self.rt('Uuids')}.uuid4()"
        if k == "enum":
            assert d.type is not None and isinstance(d.value, int)
            return f"{self.named(d.type)}.{self.ident.value(d.type, d.names[0])}"
        if k == "flags":
            assert d.type is not None and isinstance(d.value, int)
            if not d.names:
                return self.enum_of(d.type, d.value)
            return " or ".join(f"{self.named(d.type)}.{self.ident.value(d.type, n)}" for n in d.names)
        raise AssertionError(f"default kind {k}")


# ---------------------------------------------------------------- files

MAX_LINE = 120
"""The longest line the generated code writes where it can choose (ktlint's intellij_idea style
with max_line_length 120 wants a signature on one line when it fits)."""


def fits(w: CodeWriter, depth: int, text: str) -> bool:
    """Whether text fits on one line at depth (levels of w's indentation)."""
    return len(w.unit) * depth + len(text) <= MAX_LINE


def expression_body(w: CodeWriter, head: str, params: list[str], tail: str, body: str) -> None:
    """`head(params)tail = body`: on one line when it fits, else the body on the next line (and the
    parameters one per line when the signature does not fit either)."""
    if fits(w, w.depth, f"{head}({', '.join(params)}){tail} = {body}"):
        w.line(f"{head}({', '.join(params)}){tail} = {body}")
        return
    signature(w, w.depth, head, params, f"{tail} =")
    with w.indented():
        w.line(body)


def signature(w: CodeWriter, depth: int, head: str, params: list[str], tail: str) -> None:
    """`head(params)tail` on one line when it fits, else a parameter per line with trailing commas."""
    one = f"{head}({', '.join(params)}){tail}"
    if fits(w, depth, one):
        w.line(one)
        return
    w.line(f"{head}(")
    with w.indented():
        for p in params:
            w.line(p + ",")
    w.line(f"){tail}")


def write_file(c: Context, body: CodeWriter, options: Options) -> str:
    out = CodeWriter(options)
    out.lines(generated_header(c.package))
    out.blank()
    if "_" in kotlin_package(c.package, c.prefix):
        # the schema's package name, kept as it is (ktlint wants none with an underscore)
        out.line('@file:Suppress("ktlint:standard:package-name")')
        out.blank()
    out.line(f"package {kotlin_package(c.package, c.prefix)}")
    out.blank()
    mine = kotlin_package(c.package, c.prefix)
    imports = sorted(i for i in c.imports if i.rpartition(".")[0] != mine)
    if imports:
        # ktlint's order: everything else, then java, javax and kotlin
        rank = [i.startswith("java.") + 2 * i.startswith("javax.") + 3 * i.startswith("kotlin.") for i in imports]
        for _, i in sorted(zip(rank, imports)):
            out.line(f"import {i}")
        out.blank()
    out.lines(body.text())
    return out.text()


def path_of(c: Context, name: str) -> str:
    return kotlin_package(c.package, c.prefix).replace(".", "/") + f"/{name}.kt"


def when_literal(value: int, kotlin: str) -> str:
    """The `when` branch literal of a wire value compared with `value` (widened to Int when narrower)."""
    if kotlin in ("Byte", "Short", "UByte", "UShort"):
        return str(signed(value, BITS[kotlin]) if kotlin in ("Byte", "Short") else value & ((1 << BITS[kotlin]) - 1))
    return int_literal(value, kotlin)


def write_enum(schema: ir.Schema, package: ir.Package, e: ir.Enum, options: Options) -> GeneratedFile:
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    name = c.named(e.qualified)
    kotlin = WIRE[e.wire]
    bits = BITS[kotlin]
    flags = e.kind == "flags"
    what = "flags" if flags else "enum"
    narrow = kotlin in ("Byte", "Short", "UByte", "UShort")
    subject = "value.toInt()" if narrow else "value"
    seen: set[int] = set()
    firsts = []
    for v in e.values:
        s = v.value & ((1 << bits) - 1)
        if s not in seen:
            seen.add(s)
            firsts.append(v)
    w.line("/**")
    w.line(f" * The {what} {e.qualified} (on the wire: {e.wire}{', deprecated' if e.deprecated else ''}): a constant per")
    w.line(f" * declared value; `{name}(value)` keeps any other value as it is.")
    w.line(" */")
    w.line("@JvmInline")
    with w.block(f"value class {name}(val value: {kotlin}) : Comparable<{name}> {{", "}"):
        if flags:
            signed_narrow = kotlin in ("Byte", "Short")
            for op, doc in (("or", "The flags set in this or in [other]."), ("and", "The flags set in both.")):
                w.line(f"/** {doc} */")
                if signed_narrow:      # Kotlin's and/or of Byte and Short are experimental: through Int
                    w.line(f"infix fun {op}(other: {name}): {name} = "
                           f"{name}((value.toInt() {op} other.value.toInt()).to{kotlin}())")
                else:
                    w.line(f"infix fun {op}(other: {name}): {name} = {name}(value {op} other.value)")
                w.blank()
            w.line("/** Whether every flag of [other] is set in this. */")
            if signed_narrow:
                w.line(f"fun has(other: {name}): Boolean = (value.toInt() and other.value.toInt()) == other.value.toInt()")
            else:
                w.line(f"fun has(other: {name}): Boolean = (value and other.value) == other.value")
            w.blank()
        w.line(f"override fun compareTo(other: {name}): Int = value.compareTo(other.value)")
        w.blank()
        w.line("/** The text form (docs/format.md 9). */")
        if flags:
            with w.block("override fun toString(): String {", "}"):
                w.line("val out = StringBuilder()")
                for v in e.values:
                    if v.value == 0:
                        continue
                    lit = when_literal(v.value, kotlin)
                    with w.block(f"if (({subject} and {lit}) == {lit}) {{", "}"):
                        w.line(f'out.append(if (out.isEmpty()) "" else "|").append("{v.name}")')
                w.line("return out.toString()")
        elif firsts:
            with w.block(f"override fun toString(): String = when ({subject}) {{", "}"):
                for v in firsts:
                    w.line(f'{when_literal(v.value, kotlin)} -> "{v.name}"')
                w.line('else -> "<unknown>"')
        else:
            w.line('override fun toString(): String = "<unknown>"')
        if e.values:
            w.blank()
            with w.block("companion object {", "}"):
                for v in e.values:
                    w.line(f"val {c.ident.value(e.qualified, v.name)} = {name}({int_literal(v.value, kotlin)})")
    return GeneratedFile(path_of(c, name), write_file(c, w, options))


def write_struct(schema: ir.Schema, package: ir.Package, s: ir.Struct, options: Options) -> GeneratedFile:
    c = Context(schema, package, options.package_prefix)
    c.hidden = c.ident.hidden(s)
    w = CodeWriter(options)
    name = c.named(s.qualified)
    what = "message" if s.message else "struct"
    w.line("/**")
    w.line(f" * The {what} {s.qualified} (type id {s.type_id}{', deprecated' if s.deprecated else ''}): every property starts")
    w.line(" * at the schema's default, and named arguments set any of them.")
    w.line(" */")
    inherited = [f for f in s.all_fields if f.owner != s.qualified]
    params = [f"{'' if f in inherited else 'var '}{c.ident.field(f)}: {c.type(f.type)} = {c.default(f.type, f.default)}"
              for f in s.all_fields]
    call = f"{c.named(s.base)}({', '.join(c.ident.field(f) for f in inherited)})" if s.base is not None else ""
    supertype = f" : {call}" if call else ""
    head = f"open class {c.ident.type(s.qualified)}" + (f"({', '.join(params)})" if params else "")
    flat = not any(f.deprecated for f in s.all_fields)
    if flat and fits(w, w.depth, f"{head}{supertype} {{"):
        w.line(f"{head}{supertype} {{")
    elif flat and call and fits(w, w.depth, f"{head} :"):
        w.line(f"{head} :")                                 # the supertype on a line of its own
        w.line(f"{w.unit}{call} {{")
    else:
        w.line(f"open class {c.ident.type(s.qualified)}(")
        with w.indented():
            for f, param in zip(s.all_fields, params):
                if f.deprecated:
                    w.line("/** Deprecated in the schema. */")
                w.line(param + ",")
        if fits(w, w.depth, f"){supertype} {{"):
            w.line(f"){supertype} {{")
        else:
            w.line(f") : {c.named(s.base or '')}(")
            with w.indented():
                for f in inherited:
                    w.line(f"{c.ident.field(f)},")
            w.line(") {")
    with w.block("", "}"):
        write_keys(w, c, s, name)
        write_to_string(w, name)
        write_models(w, c, s, name, options.final, options.json)
    return GeneratedFile(path_of(c, c.ident.type(s.qualified)), write_file(c, w, options))


def key_compare(c: Context, t: ir.Type, a: str, b: str) -> str:
    """An Int expression ordering two key values as the wire orders them (docs/ir.md `order`): 0 for
    the same key (docs/limits.md 4)."""
    if isinstance(t, ir.StructRef):
        return f"{c.named(t.name)}.KEY_ORDER.compare({a}, {b})"
    if isinstance(t, ir.Optional_):
        return f"{c.rt('Compare')}.optional({c.comparator(t.element) or 'null'}, {a}, {b})"
    if isinstance(t, ir.Primitive) and t.name in ("float", "double"):
        return f"{c.rt('Compare')}.{'f32' if t.name == 'float' else 'f64'}({a}, {b})"
    order = c.comparator(t)
    if order is not None:
        return f"{order}.compare({a}, {b})"
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        return f"{a}.compareTo({b})"
    raise AssertionError(f"a key field of type {t}")


def key_equals(c: Context, t: ir.Type, a: str, b: str) -> str:
    """A Boolean expression: two key field values are the same key (as key_compare's 0; a nested
    struct by its own equals, which its hashCode agrees with)."""
    e = t.element if isinstance(t, ir.Optional_) else t
    if isinstance(e, ir.Primitive) and e.name in ("float", "double", "decimal"):
        return f"{key_compare(c, t, a, b)} == 0"
    if isinstance(e, ir.Primitive) and e.name == "bytes":
        return f"{a}.contentEquals({b})"
    return f"{a} == {b}"


def key_hash(c: Context, t: ir.Type, a: str) -> str:
    """An Int expression: the hash of a key field value, equal for the same key (key_equals)."""
    optional = isinstance(t, ir.Optional_)
    e = t.element if isinstance(t, ir.Optional_) else t
    q = "?." if optional else "."
    if isinstance(e, ir.Primitive) and e.name == "bytes":
        term = f"{a}{q}contentHashCode()"
    elif isinstance(e, ir.Primitive) and e.name == "decimal":
        term = f"{a}{q}stripTrailingZeros(){q}hashCode()"          # 1.5 and 1.50 alike
    elif isinstance(e, ir.Primitive) and e.name in ("float", "double"):
        zero = "0.0f" if e.name == "float" else "0.0"
        term = f"{a}{q}plus({zero}){q}hashCode()" if optional else f"({a} + {zero}).hashCode()"   # -0.0 as 0.0
    else:
        term = f"{a}{q}hashCode()"
    return f"({term} ?: 0)" if optional else term


def write_keys(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """equals/hashCode over the [key] fields (structs without keys are all equal, as the original's)."""
    keys = [f for f in s.all_fields if f.name in s.keys]
    w.line("/** Equal when the [key] fields are (structs without keys are all equal, as the original's). */")
    with w.block("override fun equals(other: Any?): Boolean {", "}"):
        w.line("if (this === other) return true")
        w.line("if (other == null || other.javaClass != javaClass) return false")
        if not keys:
            w.line("return true")
        else:
            w.line(f"other as {name}")
            terms = [key_equals(c, f.type, f"this.{c.ident.field(f)}", f"other.{c.ident.field(f)}") for f in keys]
            w.line("return " + " && ".join(terms))
    w.blank()
    if not keys:
        w.line(f'override fun hashCode(): Int = "{s.qualified}".hashCode()')
        w.blank()
        return
    with w.block("override fun hashCode(): Int {", "}"):
        w.line("var h = 17")
        for f in keys:
            w.line(f"h = h * 31 + {key_hash(c, f.type, c.ident.field(f))}")
        w.line("return h")
    w.blank()


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    package = schema.main_package
    out = [write_enum(schema, package, e, options) for e in package.enums + package.flags]
    out += [write_struct(schema, package, s, options) for s in package.structs]
    if options.proto:
        out += write_protocol(schema, package, options)
    return out
