"""fbec.targets.java: Java code for a schema package: `fbec --java [--final] [--json] [--proto]`.

Generated per schema package, a Java package (the schema's `domain` and package name,
`com.chronoxor.proto`) with a file per enum, flags and struct: enums and flags as final value
classes (a constant per declared value, `of(wire)` for any value, undeclared ones kept), structs
as plain mutable classes with public fields (a base struct is the superclass), the schema's
defaults as field initializers, `equals`/`hashCode`/`KEY_ORDER` over the `[key]` fields, and the
versioned model (models.py; `--final`: the final model too) on the runtime
`io.github.fbetoolkit.fbe` (runtime/java, docs/java.md); with `--json` JSON (json.py); with `--proto`
the protocol's Handler, Receiver and Sender (protocol.py).
"""

from __future__ import annotations

import math
import struct as pystruct

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, GeneratedFile, Options, generated_header
from fbec.targets.java.json import write_json
from fbec.targets.java.models import write_models
from fbec.targets.java.names import Idents, java_package
from fbec.targets.java.protocol import write_protocol
from fbec.targets.java.text import write_text

RUNTIME = "io.github.fbetoolkit.fbe"

# Java type of each primitive: unboxed, boxed.
PRIMITIVES: dict[str, tuple[str, str]] = {
    "bool": ("boolean", "Boolean"), "byte": ("byte", "Byte"), "char": ("char", "Character"),
    "wchar": ("int", "Integer"), "int8": ("byte", "Byte"), "uint8": ("byte", "Byte"),
    "int16": ("short", "Short"), "uint16": ("short", "Short"), "int32": ("int", "Integer"),
    "uint32": ("int", "Integer"), "int64": ("long", "Long"), "uint64": ("long", "Long"),
    "float": ("float", "Float"), "double": ("double", "Double"), "timestamp": ("long", "Long"),
    "string": ("String", "String"), "bytes": ("byte[]", "byte[]"),
}
# The runtime comparator of set elements and map keys whose Java natural order is not the FBE
# order (docs/ir.md `order`); the others order naturally (a null comparator).
COMPARATORS = {
    "byte": "U8", "uint8": "U8", "uint16": "U16", "uint32": "U32", "wchar": "U32", "uint64": "U64",
    "timestamp": "U64", "char": "CHAR", "string": "STRING", "bytes": "BYTES", "uuid": "UUID",
    "float": "F32", "double": "F64",
}
# Keys whose Java equality (equals/hashCode) is the readers' rule of the same key (docs/limits.md
# 4): a hash of them is a LinkedHashMap whose own check suffices. Bytes (identity), decimals (1.5
# and 1.50 differ), floats (-0.0 and 0.0 differ) are hashes in a TreeMap of their order, and
# structs (a subclass is another class) are checked by the writers too.
HASHED = frozenset({
    "bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "timestamp", "string", "uuid",
})
# Wire integer -> (Java type, bits).
WIRE = {"int8": ("byte", 8), "uint8": ("byte", 8), "int16": ("short", 16), "uint16": ("short", 16),
        "int32": ("int", 32), "uint32": ("int", 32), "int64": ("long", 64), "uint64": ("long", 64)}


def signed(value: int, bits: int) -> int:
    """value as the signed integer of its bits (Java holds unsigned wire integers in signed types)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def int_literal(value: int, java: str) -> str:
    """A Java literal of an integer of the Java type (unsigned values wrapped into its signed range)."""
    bits = {"byte": 8, "short": 16, "char": 16, "int": 32, "long": 64}[java]
    if java == "char":
        return f"(char) {value & 0xFFFF}"
    v = signed(value, bits)
    if java == "long":
        return f"{v}L"
    if java == "int":
        return str(v)
    return f"({java}) {v}"


def java_string(text: str) -> str:
    """A Java string literal of text, ASCII only (every other char as a \\u escape)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch in '"\\':
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


def float_literal(text: str, single: bool) -> str:
    """A Java literal of a real default (infinite or too small values spelt out)."""
    v = float(text)
    if single:
        try:
            f = pystruct.unpack("<f", pystruct.pack("<f", v))[0]
        except OverflowError:
            f = math.copysign(math.inf, v)
        if math.isinf(f):
            return "Float.NEGATIVE_INFINITY" if f < 0 else "Float.POSITIVE_INFINITY"
        if f == 0.0 and v != 0.0:
            return "-0.0f" if v < 0 else "0.0f"
        return (text if any(c in text for c in ".eE") else text + ".0") + "f"
    if math.isinf(v):
        return "Double.NEGATIVE_INFINITY" if v < 0 else "Double.POSITIVE_INFINITY"
    if v == 0.0 and any(c in "123456789" for c in text.partition("e")[0].partition("E")[0]):
        return "-0.0" if v < 0 else "0.0"
    return text if any(c in text for c in ".eE") else text + ".0"


class Context:
    """What one generated file needs: its package, its imports by use, Java names of IR types."""

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
        """A class by its simple name, imported (`java.util.List` -> `List`)."""
        self.imports.add(qualified_class)
        return qualified_class.rpartition(".")[2]

    def rt(self, name: str) -> str:
        """A runtime class (`Writer`)."""
        return self.use(f"{RUNTIME}.{name}")

    def named(self, qualified: str) -> str:
        """A schema type: its simple name in its own package, fully qualified from another."""
        return self.ident.usable(qualified, self.package.name, self.hidden)

    def type(self, t: ir.Type, boxed: bool = False) -> str:
        """The Java type of an IR type (boxed: as a type argument or an optional)."""
        if isinstance(t, ir.Primitive):
            if t.name == "uuid":
                return self.use("java.util.UUID")
            if t.name == "decimal":
                return self.use("java.math.BigDecimal")
            return PRIMITIVES[t.name][1 if boxed else 0]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            return self.type(t.element, True)
        if isinstance(t, ir.Array):
            return self.type(t.element) + "[]"
        if isinstance(t, ir.Sequence):
            outer = "java.util.Set" if t.kind == "set" else "java.util.List"
            return f"{self.use(outer)}<{self.type(t.element, True)}>"
        return f"{self.use('java.util.Map')}<{self.type(t.key, True)}, {self.type(t.value, True)}>"

    def comparator(self, t: ir.Type) -> str:
        """The order of set elements or map keys of type t: a Comparator expression, or `null` (natural)."""
        if isinstance(t, ir.Primitive):
            if t.name in COMPARATORS:
                return f"{self.rt('Compare')}.{COMPARATORS[t.name]}"
            return "null"
        if isinstance(t, ir.StructRef):
            return f"{self.named(t.name)}.KEY_ORDER"
        return "null"

    def hashed(self, t: ir.Type) -> bool:
        """Whether a key of type t is the same key as another exactly when Java's equals says so."""
        return isinstance(t, ir.EnumRef) or isinstance(t, ir.Primitive) and t.name in HASHED

    def empty(self, t: ir.Sequence | ir.Mapping) -> str:
        """A new empty collection of the field's kind."""
        if isinstance(t, ir.Sequence):
            if t.kind == "vector":
                return f"new {self.use('java.util.ArrayList')}<>()"
            if t.kind == "list":
                return f"new {self.use('java.util.LinkedList')}<>()"
            order = self.comparator(t.element)
            return f"new {self.use('java.util.TreeSet')}<>({'' if order == 'null' else order})"
        order = self.comparator(t.key)
        if t.kind == "hash" and (self.hashed(t.key) or isinstance(t.key, ir.StructRef)):
            return f"new {self.use('java.util.LinkedHashMap')}<>()"
        return f"new {self.use('java.util.TreeMap')}<>({'' if order == 'null' else order})"

    def wire_literal(self, wire: str, value: int) -> str:
        return int_literal(value, WIRE[wire][0])

    def enum_of(self, qualified: str, value: int) -> str:
        """An enum or flags value: its first declared constant, or `E.of(value)`."""
        e = self.schema.enum(qualified)
        for v in e.values:
            if v.value == value:
                return f"{self.named(qualified)}.{self.ident.value(qualified, v.name)}"
        return f"{self.named(qualified)}.of({self.wire_literal(e.wire, value)})"

    def zero(self, t: ir.Type) -> str:
        """The value of a field without a default (docs/ir.md `none`)."""
        if isinstance(t, ir.Primitive):
            name = t.name
            if name == "bool":
                return "false"
            if name == "string":
                return '""'
            if name == "bytes":
                return "new byte[0]"
            if name == "uuid":
                return f"{self.rt('Uuids')}.NIL"
            if name == "decimal":
                return f"{self.use('java.math.BigDecimal')}.ZERO"
            if name == "float":
                return "0.0f"
            if name == "double":
                return "0.0"
            return int_literal(0, PRIMITIVES[name][0])
        if isinstance(t, ir.EnumRef):
            return self.enum_of(t.name, 0)
        if isinstance(t, ir.StructRef):
            return f"new {self.named(t.name)}()"
        if isinstance(t, ir.Optional_):
            return "null"
        if isinstance(t, ir.Array):
            element = self.type(t.element)
            e = t.element
            if isinstance(e, ir.Optional_) or isinstance(e, ir.Primitive) and e.name not in (
                    "string", "bytes", "uuid", "decimal"):
                # Java's own zero values (0, false, null) are the defaults
                head, bracket, tail = element.partition("[")
                return f"new {head}[{t.length}]" + (bracket + tail if bracket else "")
            items = ", ".join([self.zero(e)] * t.length)
            return f"new {element}[] {{{items}}}"
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
            return int_literal(d.value, PRIMITIVES[t.name][0])
        if k == "real":
            assert d.text is not None and isinstance(t, ir.Primitive)
            if t.name == "decimal":
                return f'{self.rt("Decimals")}.parse("{d.text}")'
            return float_literal(d.text, t.name == "float")
        if k == "string":
            assert isinstance(d.value, str)
            return java_string(d.value)
        if k == "timestamp":
            assert isinstance(d.value, int)
            return int_literal(d.value, "long")
        if k == "utc":
            return f"{self.rt('Timestamps')}.now()"
        if k == "uuid":
            assert isinstance(d.value, str)
            hexd = d.value.replace("-", "")
            if int(hexd, 16) == 0:
                return f"{self.rt('Uuids')}.NIL"
            return f"new {self.use('java.util.UUID')}(0x{hexd[:16]}L, 0x{hexd[16:]}L)"
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
            first, *rest = [f"{self.named(d.type)}.{self.ident.value(d.type, n)}" for n in d.names]
            return first + "".join(f".or({x})" for x in rest)
        raise AssertionError(f"default kind {k}")


# ---------------------------------------------------------------- files

def write_file(c: Context, body: CodeWriter, options: Options) -> str:
    out = CodeWriter(options)
    out.lines(generated_header(c.package))
    out.blank()
    out.line(f"package {java_package(c.package, c.prefix)};")
    out.blank()
    mine = java_package(c.package, c.prefix)
    imports = sorted(i for i in c.imports if i.rpartition(".")[0] not in (mine, "java.lang"))
    if imports:
        for group in (["java."], ["javax."], [""]):
            lines = [i for i in imports if any(i.startswith(g) for g in group)]
            imports = [i for i in imports if i not in lines]
            if lines:
                for i in lines:
                    out.line(f"import {i};")
                out.blank()
    out.lines(body.text())
    return out.text()


def path_of(c: Context, name: str) -> str:
    return java_package(c.package, c.prefix).replace(".", "/") + f"/{name}.java"


def write_enum(schema: ir.Schema, package: ir.Package, e: ir.Enum, options: Options) -> GeneratedFile:
    c = Context(schema, package, options.package_prefix)
    w = CodeWriter(options)
    name = c.named(e.qualified)
    java, bits = WIRE[e.wire]
    boxed = {"byte": "Byte", "short": "Short", "int": "Integer", "long": "Long"}[java]
    unsigned = e.wire.startswith("uint")
    flags = e.kind == "flags"
    what = "flags" if flags else "enum"
    w.line("/**")
    w.line(f" * The {what} {e.qualified} (on the wire: {e.wire}{', deprecated' if e.deprecated else ''}): a constant per")
    w.line(" * declared value; {@link #of} keeps any other value as it is.")
    w.line(" */")
    with w.block(f"public final class {name} implements Comparable<{name}> {{", "}"):
        for v in e.values:
            w.line(f"public static final {name} {c.ident.value(e.qualified, v.name)} = new {name}({int_literal(v.value, java)});")
        if e.values:
            w.blank()
        w.line(f"private final {java} value;")
        w.blank()
        with w.block(f"private {name}({java} value) {{", "}"):
            w.line("this.value = value;")
        w.blank()
        w.line("/**")
        w.line(f" * The {what} value of a wire integer: a declared constant, or a new value.")
        w.line(" *")
        w.line(" * @param value the wire integer")
        w.line(" * @return the value")
        w.line(" */")
        with w.block(f"public static {name} of({java} value) {{", "}"):
            seen: set[int] = set()
            firsts = []
            for v in e.values:
                s = signed(v.value, bits)
                if s not in seen:
                    seen.add(s)
                    firsts.append((s, v))
            if java == "long":
                for s, v in firsts:
                    with w.block(f"if (value == {s}L) {{", "}"):
                        w.line(f"return {c.ident.value(e.qualified, v.name)};")
                w.line(f"return new {name}(value);")
            elif firsts:
                with w.block("switch (value) {", "}"):
                    for s, v in firsts:
                        w.line(f"case {s}:")
                        with w.indented():
                            w.line(f"return {c.ident.value(e.qualified, v.name)};")
                    w.line("default:")
                    with w.indented():
                        w.line(f"return new {name}(value);")
            else:
                w.line(f"return new {name}(value);")
        w.blank()
        w.line("/** @return the wire integer */")
        with w.block(f"public {java} value() {{", "}"):
            w.line("return value;")
        w.blank()
        if flags:
            w.line("/** @param other flags @return the flags set in this or in other */")
            with w.block(f"public {name} or({name} other) {{", "}"):
                w.line(f"return of(({java}) (value | other.value));" if java in ("byte", "short")
                       else "return of(value | other.value);")
            w.blank()
            w.line("/** @param other flags @return the flags set in both */")
            with w.block(f"public {name} and({name} other) {{", "}"):
                w.line(f"return of(({java}) (value & other.value));" if java in ("byte", "short")
                       else "return of(value & other.value);")
            w.blank()
            w.line("/** @param other flags @return whether every flag of other is set in this */")
            with w.block(f"public boolean has({name} other) {{", "}"):
                w.line("return (value & other.value) == other.value;")
            w.blank()
        w.line("@Override")
        with w.block("public boolean equals(Object other) {", "}"):
            w.line(f"return other instanceof {name} && (({name}) other).value == value;")
        w.blank()
        w.line("@Override")
        with w.block("public int hashCode() {", "}"):
            w.line(f"return {boxed}.hashCode(value);")
        w.blank()
        w.line("@Override")
        with w.block(f"public int compareTo({name} other) {{", "}"):
            if unsigned:
                w.line(f"return {boxed}.compareUnsigned(value, other.value);")
            else:
                w.line(f"return {boxed}.compare(value, other.value);")
        w.blank()
        w.line("/** The text form (docs/format.md 9). */")
        w.line("@Override")
        with w.block("public String toString() {", "}"):
            if flags:
                w.line("StringBuilder out = new StringBuilder();")
                for v in e.values:
                    if v.value == 0:
                        continue
                    lit = int_literal(v.value, java)
                    with w.block(f"if ((value & {lit}) == {lit}) {{", "}"):
                        w.line(f'out.append(out.length() == 0 ? "" : "|").append("{v.name}");')
                w.line("return out.toString();")
            else:
                for s, v in firsts:
                    suffix = "L" if java == "long" else ""
                    with w.block(f"if (value == {s}{suffix}) {{", "}"):
                        w.line(f'return "{v.name}";')
                w.line('return "<unknown>";')
    return GeneratedFile(path_of(c, name), write_file(c, w, options))


def write_struct(schema: ir.Schema, package: ir.Package, s: ir.Struct, options: Options) -> GeneratedFile:
    c = Context(schema, package, options.package_prefix)
    c.hidden = c.ident.hidden(s)
    w = CodeWriter(options)
    name = c.named(s.qualified)
    what = "message" if s.message else "struct"
    w.line(f"/** The {what} {s.qualified} (type id {s.type_id}{', deprecated' if s.deprecated else ''}). */")
    extends = f" extends {c.named(s.base)}" if s.base is not None else ""
    inner = CodeWriter(options)
    with w.block(f"public class {c.ident.type(s.qualified)}{extends} {{", "}"):
        write_struct_body(inner, c, s, name, options)
        w.lines(inner.text())
    return GeneratedFile(path_of(c, c.ident.type(s.qualified)), write_file(c, w, options))


def write_struct_body(w: CodeWriter, c: Context, s: ir.Struct, name: str, options: Options) -> None:
    w.line(f"/** The type id of {s.qualified}. */")
    w.line(f"public static final int TYPE_ID = {s.type_id};")
    w.blank()
    for f in s.fields:
        if f.deprecated:
            w.line("/** Deprecated in the schema. */")
        w.line(f"public {c.type(f.type)} {c.ident.field(f)} = {c.default(f.type, f.default)};")
    if s.fields:
        w.blank()
    write_keys(w, c, s, name)
    write_text(w, c, s, name)
    write_models(w, c, s, name, options.final)
    if options.json:
        write_json(w, c, s, name)


def key_compare(c: Context, t: ir.Type, a: str, b: str) -> str:
    """An int expression ordering two key values as the wire orders them (docs/ir.md `order`): 0 for
    the same key (docs/limits.md 4)."""
    if isinstance(t, ir.Primitive):
        if t.name in ("float", "double"):
            return f"{c.rt('Compare')}.{'f32' if t.name == 'float' else 'f64'}({a}, {b})"
        order = c.comparator(t)
        if order != "null":
            return f"{order}.compare({a}, {b})"
        boxed = PRIMITIVES[t.name][1] if t.name in PRIMITIVES else c.type(t)
        if t.name == "decimal":
            return f"{a}.compareTo({b})"
        return f"{boxed}.compare({a}, {b})"
    if isinstance(t, ir.EnumRef):
        return f"{a}.compareTo({b})"
    if isinstance(t, ir.StructRef):
        return f"{c.named(t.name)}.KEY_ORDER.compare({a}, {b})"
    if isinstance(t, ir.Optional_):
        return f"{c.rt('Compare')}.optional({c.comparator(t.element)}, {a}, {b})"
    raise AssertionError(f"a key field of type {t}")


def key_equals(c: Context, t: ir.Type, a: str, b: str) -> str:
    """A boolean expression: two key field values are the same key (as key_compare's 0; a nested
    struct by its own equals, which its hashCode agrees with)."""
    by_value = ("float", "double", "decimal")
    if isinstance(t, ir.Optional_) and isinstance(t.element, ir.Primitive) and t.element.name in by_value:
        return f"{key_compare(c, t, a, b)} == 0"
    if isinstance(t, ir.Optional_):
        t = t.element
        if isinstance(t, ir.Primitive) and t.name == "bytes":
            return f"{c.use('java.util.Arrays')}.equals({a}, {b})"
        return f"{c.use('java.util.Objects')}.equals({a}, {b})"
    if isinstance(t, ir.Primitive) and t.name == "bytes":
        return f"{c.use('java.util.Arrays')}.equals({a}, {b})"
    if isinstance(t, ir.Primitive) and t.name in by_value:
        return f"{key_compare(c, t, a, b)} == 0"
    if isinstance(t, ir.Primitive) and t.name not in ("string", "uuid"):
        return f"{a} == {b}"
    return f"{c.use('java.util.Objects')}.equals({a}, {b})"


def key_hash(c: Context, t: ir.Type, a: str) -> str:
    """An int expression: the hash of a key field value, equal for the same key (key_equals)."""
    optional = isinstance(t, ir.Optional_)
    e = t.element if isinstance(t, ir.Optional_) else t
    term: str | None = None
    if isinstance(e, ir.Primitive) and e.name == "bytes":
        return f"{c.use('java.util.Arrays')}.hashCode({a})"
    if isinstance(e, ir.Primitive) and e.name == "decimal":
        term = f"{a}.stripTrailingZeros().hashCode()"          # 1.5 and 1.50 alike
    elif isinstance(e, ir.Primitive) and e.name in ("float", "double"):
        term = f"{PRIMITIVES[e.name][1]}.hashCode({a} + 0.0{'f' if e.name == 'float' else ''})"   # -0.0 as 0.0
    elif optional or not (isinstance(e, ir.Primitive) and e.name in PRIMITIVES and e.name != "string"):
        return f"{c.use('java.util.Objects')}.hashCode({a})"
    else:
        return f"{PRIMITIVES[e.name][1]}.hashCode({a})"
    return f"({a} == null ? 0 : {term})" if optional else term


def write_keys(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """equals/hashCode over the [key] fields (structs without keys are all equal, as the original's),
    and KEY_ORDER: the order of sets and maps of this struct."""
    keys = [f for f in s.all_fields if f.name in s.keys]
    comparator = c.use("java.util.Comparator")
    w.line("/** The order of sets and maps of " + name + ": by the [key] fields, as the wire orders them. */")
    if not keys:
        w.line(f"public static final {comparator}<{name}> KEY_ORDER = (a, b) -> 0;")
    else:
        with w.block(f"public static final {comparator}<{name}> KEY_ORDER = (a, b) -> {{", "};"):
            for k, f in enumerate(keys):
                expr = key_compare(c, f.type, f"a.{c.ident.field(f)}", f"b.{c.ident.field(f)}")
                if k == len(keys) - 1:
                    w.line(f"return {expr};")
                elif k == 0:
                    w.line(f"int c = {expr};")
                    with w.block("if (c != 0) {", "}"):
                        w.line("return c;")
                else:
                    w.line(f"c = {expr};")
                    with w.block("if (c != 0) {", "}"):
                        w.line("return c;")
    w.blank()
    w.line("/** Equal when the [key] fields are (structs without keys are all equal, as the original's). */")
    w.line("@Override")
    with w.block("public boolean equals(Object other) {", "}"):
        with w.block("if (this == other) {", "}"):
            w.line("return true;")
        with w.block("if (other == null || other.getClass() != getClass()) {", "}"):
            w.line("return false;")
        if not keys:
            w.line("return true;")
        else:
            w.line(f"{name} o = ({name}) other;")
            terms = [key_equals(c, f.type, f"this.{c.ident.field(f)}", f"o.{c.ident.field(f)}") for f in keys]
            w.line("return " + "\n        && ".join(terms).replace("\n        ", " ") + ";")
    w.blank()
    w.line("@Override")
    with w.block("public int hashCode() {", "}"):
        if not keys:
            w.line(f'return "{s.qualified}".hashCode();')
        else:
            w.line("int h = 17;")
            for f in keys:
                w.line(f"h = h * 31 + {key_hash(c, f.type, f'this.{c.ident.field(f)}')};")
            w.line("return h;")
    w.blank()


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    package = schema.main_package
    out = [write_enum(schema, package, e, options) for e in package.enums + package.flags]
    out += [write_struct(schema, package, s, options) for s in package.structs]
    if options.proto:
        out += write_protocol(schema, package, options)
    return out
