"""The context of one generated Java or Kotlin file: its package, its imports by use, the names
of IR types, and the syntax of each construct the shared walkers write (a leaf module: the
walkers and both languages import it, it imports neither).

`Context` holds what the languages share and spells each construct as Java does: a method per
construct, returning the text of a line or an expression (`val("n", "r.count()", "int")` is
`int n = r.count();`), or writing lines where the languages lay a construct out differently
(`optional`, `claim_run`), and Java's types and literals. Java's Context (java/syntax.py) adds
only its identifiers; Kotlin's (kotlin/syntax.py) overrides the spelling (`val n = r.count()`),
as the JavaScript target is the TypeScript target without the types.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import reduce
from typing import ClassVar

from fbec.model import ir, plan
from fbec.targets import base
from fbec.targets.base import CodeWriter, DefaultLiterals, GeneratedFile, Locals, Options, float32, generated_header
from fbec.targets.jvm.names import Idents

RUNTIME = "io.github.fbetoolkit.fbe"
# A JDK class named by its full name in a SPELLING template: imported, and named by its simple name.
QUALIFIED = re.compile(r"\bjava\.(?:util|math|io)\.[A-Z]\w*")

# Primitive -> the suffix of its Writer put/append and Reader final methods, and its Reader slot method.
# Java's types that hold no null (every other type of a field or element may).
JAVA_PRIMITIVES = frozenset({"boolean", "byte", "char", "short", "int", "long", "float", "double"})
SLOT = {
    "bool": ("Bool", "bool"), "byte": ("I8", "i8"), "int8": ("I8", "i8"), "uint8": ("I8", "i8"),
    "char": ("Char", "ch"), "wchar": ("I32", "i32"), "int16": ("I16", "i16"), "uint16": ("I16", "i16"),
    "int32": ("I32", "i32"), "uint32": ("I32", "i32"), "int64": ("I64", "i64"), "uint64": ("I64", "i64"),
    "timestamp": ("I64", "i64"), "float": ("F32", "f32"), "double": ("F64", "f64"),
    "uuid": ("Uuid", "uuid"), "decimal": ("Decimal", "decimal"),
}
# Keys whose equality (equals/hashCode) is the readers' rule of the same key (docs/limits.md 4): a
# hash of them is a LinkedHashMap whose own check suffices. Bytes (identity), decimals (1.5 and
# 1.50 differ), floats (-0.0 and 0.0 differ) are hashes in a TreeMap of their order, and structs
# (a subclass is another class) are checked by the writers too.
HASHED = frozenset({
    "bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "timestamp", "string", "uuid",
})


# A doc comment's link to a member, as KDoc writes it (`[fbeRead]`; not an index: `data[offset]`).
LINK = re.compile(r"(?<!\w)\[(\w+)\]")
# What each parameter of a generated codec or root is: its Javadoc @param line (Context.tagged).
PARAMS = {
    "w": "the writer", "j": "the JSON writer", "r": "the reader", "t": "the text so far", "v": "the value",
    "base": "the base of the slot", "slot": "the slot's absolute position", "data": "the buffer",
    "offset": "the root's first byte", "length": "the bytes given", "limits": "the limits (docs/limits.md)",
    "text": "the JSON text",
}

# Java's type of each primitive: unboxed, boxed (the JVM default: Kotlin has its own).
JAVA_TYPES: dict[str, tuple[str, str]] = {
    "bool": ("boolean", "Boolean"), "byte": ("byte", "Byte"), "char": ("char", "Character"),
    "wchar": ("int", "Integer"), "int8": ("byte", "Byte"), "uint8": ("byte", "Byte"),
    "int16": ("short", "Short"), "uint16": ("short", "Short"), "int32": ("int", "Integer"),
    "uint32": ("int", "Integer"), "int64": ("long", "Long"), "uint64": ("long", "Long"),
    "float": ("float", "Float"), "double": ("double", "Double"), "timestamp": ("long", "Long"),
    "string": ("String", "String"), "bytes": ("byte[]", "byte[]"),
}
# The runtime comparator of set elements and map keys whose Java natural order is not the FBE
# order (docs/ir.md `order`); the others order naturally (a null comparator).
JAVA_COMPARATORS = {
    "byte": "U8", "uint8": "U8", "uint16": "U16", "uint32": "U32", "wchar": "U32", "uint64": "U64",
    "timestamp": "U64", "char": "CHAR", "string": "STRING", "bytes": "BYTES", "uuid": "UUID",
    "float": "F32", "double": "F64",
}
# Wire integer -> (Java type, bits).
JAVA_WIRE = {"int8": ("byte", 8), "uint8": ("byte", 8), "int16": ("short", 16), "uint16": ("short", 16),
             "int32": ("int", 32), "uint32": ("int", 32), "int64": ("long", 64), "uint64": ("long", 64)}


def signed(value: int, bits: int) -> int:
    """value as the signed integer of its bits (the runtime holds unsigned wire integers in signed types)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def string_literal(text: str, escaped: str = "") -> str:
    """A string literal of text, ASCII only (every other char as a \\u escape, base.quoted's escapes
    besides); the chars of `escaped` (Kotlin's `$`) get a backslash too."""
    def other(ch: str) -> str:
        o = ord(ch) - 0x10000
        if ch in escaped:
            return "\\" + ch
        if o >= 0:
            return f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}"
        return ch if ord(ch) < 0x7F else f"\\u{ord(ch):04x}"

    return base.quoted(text, lambda o: "\\r" if o == 13 else f"\\u{o:04x}", other)


Names = Locals
"""Fresh local variable names (Java forbids shadowing a local in a nested block, Kotlin warns)."""


def java_int_literal(value: int, java: str) -> str:
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


def java_float_literal(text: str, single: bool) -> str:
    """A Java literal of a real default (infinite or too small values spelt out)."""
    v = float(text)
    if single:
        f = float32(v)
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

def plus(position: str, term: str) -> str:
    return f"{position} + {term}"


def holds_struct(t: ir.Type) -> bool:
    """A struct or an optional struct: its writer may throw from a nested struct."""
    return isinstance(t, ir.StructRef) or isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef)


def reused_struct(t: ir.Type) -> bool:
    """A vector of structs: its elements are read in place (models.reuse_elements)."""
    return isinstance(t, ir.Sequence) and t.kind == "vector" and isinstance(t.element, ir.StructRef)


def kept(t: ir.Type) -> bool:
    """Whether verify reads the value to check it: a set or a map refuses a key twice, which takes
    the keys (such a field is read into a local, as deserialize reads it). Collections hold no
    collections, so only a field's own type can be one."""
    return isinstance(t, ir.Mapping) or isinstance(t, ir.Sequence) and t.kind == "set"


def key_compare(c: Context, t: ir.Type, a: str, b: str) -> str:
    """An int expression ordering two key values as the wire orders them (docs/ir.md `order`): 0 for
    the same key (docs/limits.md 4)."""
    if isinstance(t, ir.Optional_):
        return f"{c.rt('Compare')}.optional({c.comparator(t.element) or 'null'}, {a}, {b})"
    if isinstance(t, ir.Primitive) and t.name in ("float", "double"):
        return f"{c.rt('Compare')}.{'f32' if t.name == 'float' else 'f64'}({a}, {b})"
    order = c.comparator(t)
    if order is not None:
        return f"{order}.compare({a}, {b})"
    if isinstance(t, ir.Primitive) and t.name != "decimal":
        return c.spell("compare", a, b, c.TYPES[t.name][1])
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        return f"{a}.compareTo({b})"
    raise AssertionError(f"a key field of type {t}")


def key_equals(c: Context, t: ir.Type, a: str, b: str) -> str:
    """A boolean expression: two key field values are the same key (as key_compare's 0; a nested
    struct by its own equals, which its hashCode agrees with)."""
    e = t.element if isinstance(t, ir.Optional_) else t
    if isinstance(e, ir.Primitive) and e.name in ("float", "double", "decimal"):
        return f"{key_compare(c, t, a, b)} == 0"
    if isinstance(e, ir.Primitive) and e.name == "bytes":
        return c.spell("bytes_equal", a, b)
    if isinstance(t, ir.Primitive) and t.name not in ("string", "uuid"):
        return f"{a} == {b}"
    return c.spell("equal", a, b)


class SubWriter(CodeWriter):
    """Lines to be put into another writer `base` levels deep: its depth counts from there, so
    lines it measures (Kotlin's fits) know their real indentation."""

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


def summary(t: ir.Enum | ir.Struct) -> str:
    """What a generated class is in the schema, its documentation's first words: `The enum proto.Side
    (on the wire: uint8)`, `The message proto.Order (type id 1, deprecated)`."""
    deprecated = ", deprecated" if t.deprecated else ""
    if isinstance(t, ir.Struct):
        return f"The {'message' if t.message else 'struct'} {t.qualified} (type id {t.type_id}{deprecated})"
    return f"The {t.kind} {t.qualified} (on the wire: {t.wire}{deprecated})"


def doc(w: CodeWriter, *lines: str) -> None:
    """A documentation comment of lines (Javadoc, KDoc): `/**`, ` * line` each (` *` an empty one), ` */`;
    one line as `/** line */`."""
    if len(lines) == 1:
        w.line(f"/** {lines[0]} */")
        return
    w.line("/**")
    for text in lines:
        w.line(f" * {text}" if text else " *")
    w.line(" */")


@contextmanager
def member(w: CodeWriter, head: str, *lines: str) -> Iterator[None]:
    """A documented member: its doc comment (lines), the block that head opens, then a blank line."""
    doc(w, *lines)
    with w.block(head, "}"):
        yield
    w.blank()


class Context(DefaultLiterals):
    """What one generated file needs: its package, its imports by use, the language's names of IR
    types and its syntax (Java's by default; what Kotlin spells otherwise is below the shared ones)."""

    IDENTS: ClassVar[type[Idents]]  # the language's names.Idents
    END: ClassVar[str] = ";"        # what ends a statement
    SPELLS_ZERO = True

    def __init__(self, schema: ir.Schema, package: ir.Package, prefix: str = "") -> None:
        self.schema = schema
        self.package = package
        self.prefix = prefix
        self.plan = plan.of(schema)
        self.out = GeneratedFile("")
        """The file being written: the classes its code uses, imported by use (base.GeneratedFile)."""
        self.ident = self.IDENTS(schema, prefix)       # the identifiers of schema names (names.py)
        self.hidden: frozenset[str] = frozenset()
        """The names inherited fields hide in the class being written (names.Idents.hidden)."""

    def use(self, qualified_class: str) -> str:
        """A class by its simple name, imported (`java.util.TreeSet` -> `TreeSet`)."""
        package, _, name = qualified_class.rpartition(".")
        return self.out.imported(package, name)

    @property
    def imports(self) -> list[str]:
        """The classes the file's code uses, by their full names, sorted."""
        return sorted(f"{package}.{name}" for package, names in self.out.names.items() for name in names)

    def rt(self, name: str) -> str:
        """A runtime class (`Writer`)."""
        return self.use(f"{RUNTIME}.{name}")

    def named(self, qualified: str) -> str:
        """A schema type: its simple name in its own package, fully qualified from another."""
        return self.ident.usable(qualified, self.package.name, self.hidden)

    def hashed(self, t: ir.Type) -> bool:
        """Whether a key of type t is the same key as another exactly when its equals says so."""
        return isinstance(t, ir.EnumRef) or isinstance(t, ir.Primitive) and t.name in HASHED

    def enum_of(self, qualified: str, value: int) -> str:
        """An enum or flags value: its first declared constant, or a new value of the class."""
        e = self.schema.enum(qualified)
        for v in e.values:
            if v.value == value:
                return f"{self.named(qualified)}.{self.ident.value(qualified, v.name)}"
        return self.enum_new(self.named(qualified), self.int_literal(value, e.wire))

    def zero(self, t: ir.Type) -> str:
        """The value of a field without a default (docs/ir.md `none`)."""
        if isinstance(t, ir.Primitive):
            zeros = {"bool": "false", "string": '""', "bytes": self.EMPTY_BYTES, "float": "0.0f", "double": "0.0"}
            if t.name == "uuid":
                return f"{self.rt('Uuids')}.NIL"
            if t.name == "decimal":
                return f"{self.use('java.math.BigDecimal')}.ZERO"
            return zeros.get(t.name) or self.int_literal(0, t.name)
        if isinstance(t, ir.EnumRef):
            return self.enum_of(t.name, 0)
        if isinstance(t, ir.StructRef):
            return self.new(self.named(t.name))
        if isinstance(t, ir.Optional_):
            return "null"
        if isinstance(t, ir.Array):
            return self.zero_array(t)
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        return self.empty(t)

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The initial value of a field of type t with default d."""
        if isinstance(t, ir.Optional_):
            return "null" if d.kind in ("none", "null") else self.default(t.element, d)
        return self.scalar_default(t, d) or self.zero(t)

    def made_default(self, kind: str) -> str:
        return f"{self.rt('Timestamps')}.now()" if kind == "utc" else f"{self.rt('Uuids')}.{kind}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        assert isinstance(t, ir.Primitive)
        return self.int_literal(value, t.name)

    def real_default(self, t: ir.Type, text: str) -> str:
        assert isinstance(t, ir.Primitive)
        if t.name == "decimal":
            return f'{self.rt("Decimals")}.parse("{text}")'
        return self.float_literal(text, t.name == "float")

    def string_default(self, text: str) -> str:
        return self.string_literal(text)

    def uuid_default(self, uuid: str) -> str:
        if uuid == ir.NIL_UUID:
            return f"{self.rt('Uuids')}.NIL"
        return self.uuid_literal(self.use("java.util.UUID"), uuid.replace("-", ""))

    def enum_default(self, enum: str, names: tuple[str, ...]) -> str:
        return self.flags_or([f"{self.named(enum)}.{self.ident.value(enum, n)}" for n in names])

    def flags_default(self, flags: str, value: int) -> str:
        return self.enum_of(flags, value)

    def file(self, name: str, body: CodeWriter, options: Options) -> GeneratedFile:
        """The generated file of the class `name`: the banner, the package and the imports, then body."""
        package = self.ident.package_of(self.package)
        out = CodeWriter(options)
        out.lines(generated_header(self.package))
        out.blank()
        self.preamble(out, package)
        out.lines(body.text())
        self.out.path, self.out.text = package.replace(".", "/") + f"/{name}.{self.EXT}", out.text()
        return self.out

    def stmt(self, text: str) -> str:
        """A statement's line."""
        return text + self.END

    def guarded(self, w: CodeWriter, caught: str, statement: str, handler: str) -> None:
        """statement in a try whose catch of the class `caught` (its simple name) runs handler: a
        nested struct's reader or writer with the field path put in front of the runtime's errors
        (`throw e.at("orders", i)`), a JSON member's reader with the member path."""
        with w.block("try {", f"}} {self.catch(caught)} {{"):
            w.line(self.stmt(statement))
        with w.block("", "}"):
            w.line(self.stmt(handler))

    # ------------------------------------------------------------ the language's syntax

    SPELLING: ClassVar[dict[str, str]] = {
        "catch": "catch ({0} e)", "val": "{2} {0} = {1};", "var": "{2} {0} = {1};", "typed": "{2} {0} = {1};",
        "declare": "{1} {0} =", "new": "new {0}()", "size": "{0}.size()", "length": "{0}.length",
        "get": "{0}.get({1})", "put": "{0}.put({1}, {2});", "key": "{0}.getKey()", "value": "{0}.getValue()",
        "entries": "{0}.entrySet()", "contains": "{0}.containsKey({1})", "pick": "{0} ? {1} : {2}", "as_long": "{0}",
        "upto": "for (int {0} = 0; {0} < {1}; {0}++) {{", "each": "for ({2} {0} : {1}) {{",
        "each_key": "for (String {0}; ({0} = {1}) != null;) {{", "each_key_first": "", "enum_new": "{0}.of({1})",
        "or": "{0}.or({1})", "optional_type": "{0}", "array_type": "{0}[]", "new_collection": "new {0}<>({1})",
        "compare": "{2}.compare({0}, {1})", "bytes_equal": "java.util.Arrays.equals({0}, {1})",
        "equal": "java.util.Objects.equals({0}, {1})",
        "runnable": ", () -> {0})", "unsigned_max": "0xFFFFFFFFFFFFFFFFL", "int_long": "{0}", "long": "{0}L",
        "override": "public {2} {0}({1})", "method": "public {2} {0}({1})", "static": "public static {2} {0}({1})",
        "interface": "public interface {0}", "throws": " throws {0}", "private": "private static {2} {0}({1})",
        "param": "{1} {0}", "same": "{0} == {1}", "getter": "{0}()", "reference": "{0}", "timeout": "long {0}",
        "class": "{0}.class", "set_of": "java.util.Set.of({0})", "default": "default {2} {0}({1})",
        "protected": "protected {2} {0}({1})", "object": "Object",
        "switch": "switch ({0}) {{", "case": "case {0} ->", "otherwise": "default -> {{ {0} }}",
        "other_class": "{0}.getClass() != getClass()", "property": "this.{0}", "bits": "({0} & {1})",
        "empty_text": "{0}.length() == 0", "compared": "c", "lambda_return": "return {0}",
        "lambda_result": "return {0}",
    }
    """How the language writes each simple construct: a format of its parts. `catch` (exception),
    `val`/`var`/`typed` (a local that is not assigned again, one that is, one with its type: name,
    value, Java's type), `declare` (the left side of `val`: name, type), `new` (class), `size`
    (collection), `length` (array), `get` (list, index), `put` (map, key, value: a statement),
    `key`/`value` (a map entry's), `entries` (a map's, as its table holds them), `contains` (map,
    key), `pick` (test, yes, no), `as_long` (an int where the runtime takes a long), `upto` (the
    head of a loop of i from 0 below n), `each` (the head of a loop: x, items, Java's element
    type), `each_key` and `each_key_first` (the head and first statement of a loop over the names
    a call gives until null: name, call), `enum_new` (a value of an enum or flags class that is
    none of its constants: class, literal), `or` (flags set in either), `runnable` (the end of a
    call whose last argument runs a statement: the statement), `override`, `method`, `static` and
    `private` (the head of a method overriding one, of another, of a static one (Kotlin: in the
    companion), of a private static one: name, parameters, what result() makes of the return type),
    `throws` (what a method head says of
    the checked exception it throws, none in Kotlin), `interface` (the head of one: name), `param`
    (name, type), `same` (two references to one object), `other_class` (the object is of another
    class than this one), `property` (a field of this value from inside its class), `bits` (the bits
    two integers both have set), `empty_text` (a StringBuilder holds nothing), `default` and `protected`
    (the head of an interface's method with a body, of a protected override), `object` (any object's type),
    `switch`, `case`, `otherwise` (a switch's head, a case's label, the statement of any other value),
    `getter` (a getter's call: Kotlin's property), `reference` (a parameter in a doc comment), `timeout`
    (a request's, Kotlin's defaulting to 0), `class` (a Class object), `set_of` (a set of the items)."""
    # (each default below is Java's; Kotlin's Context sets its own)
    BRACES: ClassVar[bool] = True           # the statement under an if is a block (Java), else on its line
    NULLS: ClassVar[bool] = True            # a field's type may hold a null it cannot write (Java)
    SMART_CASTS: ClassVar[bool] = False     # a property read twice is a local first, and an optional is read
                                            # into its target by an if expression (Kotlin)
    MAX_LINE: ClassVar[int | None] = None   # the longest line the code writes where it can choose
    OVERRIDE: ClassVar[str] = "@Override"   # the line before a method that overrides one (none: a modifier)
    EMPTY_BYTES: ClassVar[str] = "new byte[0]"  # a new empty bytes value
    ENUM_VALUE: ClassVar[str] = ".value()"      # an enum's wire value
    TO_RUNTIME: ClassVar[dict[str, str]] = {}   # primitive or wire type -> its conversion to the runtime's type
    FROM_RUNTIME: ClassVar[dict[str, str]] = {}  # ... and back
    # primitive -> what the text form prints of it (a format): Java's unsigned types by their unsigned value
    TEXT_CONVERSIONS: ClassVar[dict[str, str]] = {
        "byte": "{} & 0xFF", "uint8": "{} & 0xFF", "uint16": "{} & 0xFFFF", "uint32": "Integer.toUnsignedString({})",
        "uint64": "Long.toUnsignedString({})", "timestamp": "Long.toUnsignedString({})",
    }
    JSON_CONVERSIONS: ClassVar[dict[str, str]] = {}  # primitive or wire type -> what makes a JsonWriter argument
    # the same of a map key (a format)
    KEY_CONVERSIONS: ClassVar[dict[str, str]] = {
        "byte": "{} & 0xFF", "uint8": "{} & 0xFF", "char": "{} & 0xFF", "uint16": "{} & 0xFFFF",
        "uint32": "{} & 0xFFFFFFFFL", "wchar": "{} & 0xFFFFFFFFL",
    }

    def spell(self, construct: str, *parts: str) -> str:
        """A construct's text (SPELLING), the classes it names by their full name imported."""
        return QUALIFIED.sub(lambda m: self.use(m.group(0)), self.SPELLING[construct]).format(*parts)

    def fits(self, w: CodeWriter, text: str, depth: int | None = None) -> bool:
        """Whether text fits on one line at depth (w's, by default)."""
        return self.MAX_LINE is None or len(w.unit) * (w.depth if depth is None else depth) + len(text) <= self.MAX_LINE

    def catch(self, exception: str) -> str:
        return self.spell("catch", exception)

    def override(self, w: CodeWriter, method: str, params: str, returns: str = "", construct: str = "override") -> str:
        """The head of a method overriding one (OVERRIDE's line written before it; construct: a
        protected one's, `protected`): returns its type (none: no result)."""
        if self.OVERRIDE:
            w.line(self.OVERRIDE)
        return self.method(method, params, returns, construct)

    def tagged(self, lines: Sequence[str], params: Sequence[str] = (), returns: str = "") -> list[str]:
        """A doc comment's lines as Javadoc: KDoc's [name] of a member as {@link #name}, the @param line of
        each of params (PARAMS) and its @return (returns: what the method returns) before its @throws lines
        (Kotlin: the lines as they are)."""
        lines = [LINK.sub(r"{@link #\1}", line) for line in lines]
        tags = [f"@param {p.ljust(max(map(len, params)))} {PARAMS[p]}" for p in params]
        tags += [f"@return {returns}"] if returns else []
        text = [line for line in lines if not line.startswith("@throws")]
        if not tags:
            return lines
        return [*text, *([""] if text[-1] else []), *tags, *lines[len(text):]]

    def throws(self, w: CodeWriter, exception: str) -> str:
        """What a method head says of the checked exception it throws (Kotlin: an annotation before it)."""
        return self.spell("throws", exception)

    @contextmanager
    def klass(self, w: CodeWriter, name: str, params: list[tuple[str, str, str]], base: str, args: str,
              kept: bool = False) -> Iterator[None]:
        """A public class extending base, its constructor taking params (name, type, what it is) and
        passing args to base's (kept: the parameters private fields), its members after a blank line."""
        with w.block(f"public class {name} extends {base} {{", "}"):
            if kept:
                for param, type_, _ in params:
                    w.line(f"private final {type_} {param};")
                w.blank()
            width = max(len(param) for param, _, _ in params)
            doc(w, *(f"@param {param.ljust(width)} {text}" for param, _, text in params))
            with w.block(f"public {name}({', '.join(f'{type_} {param}' for param, type_, _ in params)}) {{", "}"):
                w.line(f"super({args});")
                for param, _, _ in params if kept else []:
                    w.line(f"this.{param} = {param};")
            w.blank()
            yield

    def method(self, method: str, params: str, returns: str = "", construct: str = "method") -> str:
        """The head of a public method (or of another SPELLING construct's: `default`): returns its
        type (none: no result)."""
        return self.spell(construct, method, params, self.result(returns))

    def result(self, returns: str) -> str:
        """What a method head says of its return type (none: no result)."""
        return returns or "void"

    def returns(self, w: CodeWriter, head: str, expr: str, value: bool = True) -> None:
        """A method whose body is the one statement expr, returned when value (Java: a block)."""
        with w.block(f"{head} {{", "}"):
            w.line(self.stmt(f"return {expr}" if value else expr))

    def returns_call(self, w: CodeWriter, head: str, call: str, args: list[str], statement: str) -> None:
        """A method returning call(args) whose last argument runs statement (`runnable`)."""
        self.returns(w, head, f"{call}({', '.join(args)}{self.spell('runnable', statement)}")

    def cast(self, w: CodeWriter, value: str, cls: str) -> str:
        """value, known to be of the class cls, as that class from here on (Java: a new local)."""
        w.line(self.val("o", f"({cls}) {value}", cls))
        return "o"

    def key_hash(self, t: ir.Type, a: str) -> str:
        """An int expression: the hash of a key field value, equal for the same key (key_equals)."""
        optional = isinstance(t, ir.Optional_)
        e = t.element if isinstance(t, ir.Optional_) else t
        term: str | None = None
        if isinstance(e, ir.Primitive) and e.name == "bytes":
            return f"{self.use('java.util.Arrays')}.hashCode({a})"
        if isinstance(e, ir.Primitive) and e.name == "decimal":
            term = f"{a}.stripTrailingZeros().hashCode()"          # 1.5 and 1.50 alike
        elif isinstance(e, ir.Primitive) and e.name in ("float", "double"):
            term = f"{JAVA_TYPES[e.name][1]}.hashCode({a} + 0.0{'f' if e.name == 'float' else ''})"   # -0.0 as 0.0
        elif optional or not (isinstance(e, ir.Primitive) and e.name in JAVA_TYPES and e.name != "string"):
            return f"{self.use('java.util.Objects')}.hashCode({a})"
        else:
            return f"{JAVA_TYPES[e.name][1]}.hashCode({a})"
        return f"({a} == null ? 0 : {term})" if optional else term

    def val(self, name: str, expr: str, type_: str) -> str:
        return self.spell("val", name, expr, type_)

    def var(self, name: str, expr: str, type_: str) -> str:
        return self.spell("var", name, expr, type_)

    def typed(self, name: str, expr: str, type_: str) -> str:
        return self.spell("typed", name, expr, type_)

    def declare(self, name: str, type_: str) -> str:
        return self.spell("declare", name, type_)

    def new(self, cls: str) -> str:
        return self.spell("new", cls)

    def size(self, collection: str) -> str:
        return self.spell("size", collection)

    def length(self, array: str) -> str:
        return self.spell("length", array)

    def get(self, lst: str, index: str) -> str:
        return self.spell("get", lst, index)

    def put(self, mapping: str, key: str, value: str) -> str:
        return self.spell("put", mapping, key, value)

    def key(self, entry: str) -> str:
        return self.spell("key", entry)

    def value(self, entry: str) -> str:
        return self.spell("value", entry)

    def entry_set(self, mapping: str) -> str:
        return self.spell("entries", mapping)

    def contains(self, mapping: str, key: str) -> str:
        return self.spell("contains", mapping, key)

    def pick(self, test: str, yes: str, no: str) -> str:
        return self.spell("pick", test, yes, no)

    def as_long(self, expr: str) -> str:
        return self.spell("as_long", expr)

    def upto(self, i: str, n: str) -> str:
        return self.spell("upto", i, n)

    def enum_new(self, cls: str, literal: str) -> str:
        return self.spell("enum_new", cls, literal)

    def flags_or(self, values: list[str]) -> str:
        """Flags set in any of values (an enum default: its one value)."""
        return reduce(lambda a, b: self.spell("or", a, b), values)

    def each_key(self, text: str, call: str) -> tuple[str, str | None]:
        return self.spell("each_key", text, call), self.spell("each_key_first", text, call) or None

    def each(self, w: CodeWriter, x: str, t: ir.Array | ir.Sequence | ir.Mapping, items: str, fit: bool = True) -> str:
        """The head of a loop over items (elements of t, or its entries), x each; with fit, items put
        in a local first when the line would be too long."""
        element = self.element_type(t) if "{2}" in self.SPELLING["each"] else ""
        head = self.spell("each", x, items, element)
        if not fit or self.fits(w, head):
            return head
        w.line(self.declare(f"{x}s", ""))
        with w.indented():
            w.line(items)
        return self.spell("each", x, f"{x}s", element)

    def nullable(self, t: ir.Type, boxed: bool = False) -> bool:
        """Whether a value of t can be null where the type has none (NULLS: Java's reference types; a
        Kotlin type without ? holds no null)."""
        return self.NULLS and not isinstance(t, ir.Optional_) and self.type(t, boxed) not in JAVA_PRIMITIVES

    def if_(self, w: CodeWriter, test: str, statement: str) -> None:
        """One statement when test holds (without braces where the language allows and it fits)."""
        if not self.BRACES and self.fits(w, f"if ({test}) {statement}"):
            w.line(f"if ({test}) {statement}")
            return
        with w.block(f"if ({test}) {{", "}"):
            w.line(self.stmt(statement))

    def to_runtime(self, t: ir.Primitive | ir.EnumRef, value: str) -> str:
        """value as the runtime's type of the slot."""
        if isinstance(t, ir.EnumRef):
            return f"{value}{self.ENUM_VALUE}{self.TO_RUNTIME.get(t.wire, '')}"
        return value + self.TO_RUNTIME.get(t.name, "")

    def from_runtime(self, t: ir.Primitive | ir.EnumRef, expr: str) -> str:
        """The language's value of a runtime read."""
        if isinstance(t, ir.EnumRef):
            return self.enum_new(self.named(t.name), expr + self.FROM_RUNTIME.get(t.wire, ""))
        return expr + self.FROM_RUNTIME.get(t.name, "")

    def local(self, w: CodeWriter, value: str, names: Names, stem: str = "o") -> str:
        """value where it is read twice: itself, or (SMART_CASTS) a new local unless it is one."""
        if not self.SMART_CASTS or value.isidentifier():
            return value
        x = names(stem)
        w.line(self.val(x, value, ""))
        return x

    def keep(self, w: CodeWriter, value: str, t: ir.Type, names: Names, stem: str) -> str:
        """A map key or value read as a local."""
        if self.SMART_CASTS:
            return self.local(w, value, names, stem)
        name = names(stem)
        w.line(self.val(name, value, self.type(t, True)))
        return name

    def into(self, target: str) -> str | None:
        """Where an optional is read when read into target: target itself, or None (a new local)."""
        return target if self.SMART_CASTS else None

    def added(self, w: CodeWriter, value: str, target: str, refusal: str, names: Names) -> None:
        """Add value to the set target; refusal when it holds it already (the value put in a local
        first when the line would be too long)."""
        if not self.fits(w, f"if (!{target}.add({value})) {refusal}"):
            value = self.local(w, value, names, "x")
        self.if_(w, f"!{target}.add({value})", refusal)

    def assign(self, w: CodeWriter, left: str, value: str, right: str = "") -> None:
        """`left value right` (an assignment when left ends with `=`, else a call): on one line when
        it fits, else value on its own line."""
        one = f"{left} {value}{right}" if left.endswith("=") else f"{left}{value}{right}"
        if self.fits(w, one):
            w.line(self.stmt(one))
            return
        w.line(left)
        with w.indented():
            w.line(value)
        if right:
            w.line(right)

    def type(self, t: ir.Type, boxed: bool = False) -> str:
        """The language's type of an IR type (boxed: as a type argument or an optional, Java's)."""
        if isinstance(t, ir.Primitive):
            if t.name == "uuid":
                return self.use("java.util.UUID")
            if t.name == "decimal":
                return self.use("java.math.BigDecimal")
            return self.TYPES[t.name][boxed]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            return self.spell("optional_type", self.type(t.element, True))
        if isinstance(t, ir.Array):
            element = self.type(t.element)
            return self.ARRAYS.get(element) or self.spell("array_type", element)
        if isinstance(t, ir.Sequence):
            return f"{self.collection('Set' if t.kind == 'set' else 'List')}<{self.type(t.element, True)}>"
        return f"{self.collection('Map')}<{self.type(t.key, True)}, {self.type(t.value, True)}>"

    def collection(self, kind: str) -> str:
        """The class of a kind of collection (COLLECTIONS), imported when it is not the language's own."""
        cls = self.COLLECTIONS[kind]
        return self.use(cls) if "." in cls else cls

    def comparator(self, t: ir.Type) -> str | None:
        """The order of set elements or map keys of type t: a Comparator expression, or None (natural)."""
        if isinstance(t, ir.Primitive) and t.name in self.COMPARATORS:
            return f"{self.rt('Compare')}.{self.COMPARATORS[t.name]}"
        if isinstance(t, ir.StructRef):
            return f"{self.named(t.name)}.KEY_ORDER"
        return None

    def empty(self, t: ir.Sequence | ir.Mapping) -> str:
        """A new empty collection of the field's kind: a hash whose keys' equality is the readers' rule
        (and a struct's, checked by the writers) a LinkedHashMap, a set or a map a tree in the wire order."""
        if isinstance(t, ir.Sequence):
            order = self.comparator(t.element) if t.kind == "set" else None
            return self.spell("new_collection", self.collection(t.kind), order or "")
        if t.kind == "hash" and (self.hashed(t.key) or isinstance(t.key, ir.StructRef)):
            return self.spell("new_collection", self.collection("hash"), "")
        return self.spell("new_collection", self.collection("map"), self.comparator(t.key) or "")

    # ------------------------------------------------------------ what each language writes itself

    TYPES: ClassVar[dict[str, tuple[str, str]]] = JAVA_TYPES  # primitive -> its type, and as a type argument
    ARRAYS: ClassVar[dict[str, str]] = {}   # element type -> the language's array of it, if its own
    COMPARATORS: ClassVar[dict[str, str]] = JAVA_COMPARATORS  # primitive -> the runtime's Compare order when the
                                            # language's natural order is not the wire's (docs/ir.md `order`)
    # Set, List, Map and vector, list, set, hash, map (what a new empty one is) -> the class (qualified: imported)
    COLLECTIONS: ClassVar[dict[str, str]] = {
        "Set": "java.util.Set", "List": "java.util.List", "Map": "java.util.Map", "vector": "java.util.ArrayList",
        "list": "java.util.LinkedList", "set": "java.util.TreeSet", "hash": "java.util.LinkedHashMap",
        "map": "java.util.TreeMap",
    }

    EXT: ClassVar[str] = "java"     # the files' extension

    def preamble(self, out: CodeWriter, package: str) -> None:
        """What a file has after its banner: its package and its imports (those used, by use())."""
        out.line(f"package {package};")
        out.blank()
        imports = sorted(i for i in self.imports if i.rpartition(".")[0] not in (package, "java.lang"))
        for group in ("java.", "javax.", ""):
            lines = [i for i in imports if i.startswith(group)]
            imports = [i for i in imports if i not in lines]
            if lines:
                for i in lines:
                    out.line(f"import {i};")
                out.blank()

    def element_type(self, t: ir.Array | ir.Sequence | ir.Mapping) -> str:
        """The type of what a loop over t gives (Java's)."""
        if isinstance(t, ir.Mapping):
            return f"{self.use('java.util.Map')}.Entry<{self.type(t.key, True)}, {self.type(t.value, True)}>"
        return self.type(t.element, True)

    def int_literal(self, value: int, name: str) -> str:
        """A literal of an integer primitive or wire type (unsigned values as the language holds them)."""
        return java_int_literal(value, JAVA_TYPES[name][0])

    def float_literal(self, text: str, single: bool) -> str:
        """A literal of a real default."""
        return java_float_literal(text, single)

    def string_literal(self, text: str) -> str:
        """A string literal."""
        return string_literal(text)

    def uuid_literal(self, uuid: str, hexd: str) -> str:
        """A new UUID of 32 hex digits."""
        return f"new {uuid}(0x{hexd[:16]}L, 0x{hexd[16:]}L)"

    def zero_array(self, t: ir.Array) -> str:
        """A new array whose elements are zero()."""
        element = self.type(t.element)
        e = t.element
        if isinstance(e, ir.Optional_) or isinstance(e, ir.Primitive) and e.name not in (
                "string", "bytes", "uuid", "decimal"):
            # Java's own zero values (0, false, null) are the defaults
            head, bracket, tail = element.partition("[")
            return f"new {head}[{t.length}]" + (bracket + tail if bracket else "")
        items = ", ".join([self.zero(e)] * t.length)
        return f"new {element}[] {{{items}}}"

    def optional(self, w: CodeWriter, t: ir.Optional_, x: str, before: str | None, test: str,
                 read: Callable[[CodeWriter], str]) -> None:
        """Read an optional into the local (or target) x: `before` (a line), then when test holds
        the value read(w) returns (after the statements read writes), else null."""
        w.line(f"{self.type(t)} {x} = null;")
        if before:
            w.line(before)
        with w.block(f"if ({test}) {{", "}"):
            w.line(f"{x} = {read(w)};")

    def reuse_optional(self, w: CodeWriter, t: ir.StructRef, target: str, names: Names,
                       make: Callable[[CodeWriter], None]) -> str:
        """The struct target (an optional) holds, made when null (make: what comes first, the
        budget's check): the expression to read into."""
        with w.block(f"if ({target} == null) {{", "}"):
            make(w)
            w.line(f"{target} = new {self.named(t.name)}();")
        return target

    def claim_run(self, w: CodeWriter, run: plan.Run, names: Names, reading: bool) -> str | None:
        """The Reader.run call claiming a run: the local holding its position when reading."""
        call = f'r.run({run.size}, "{run.description}")'
        if not reading:
            w.line(f"{call};")
            return None
        p = names("p")
        w.line(f"int {p} = {call};")
        return p

    def raw_literal(self, text: str) -> str:
        """The literal of JsonWriter.raw's text (a char when one)."""
        return f"'{text}'" if len(text) == 1 and text not in "'\\" else string_literal(text)

    def long_literal(self, value: int) -> str:
        """A literal of a long bound (the unsigned 64-bit maximum as its bits)."""
        if value == -(1 << 63):
            return "Long.MIN_VALUE"
        if value == (1 << 63) - 1:
            return "Long.MAX_VALUE"
        if value == (1 << 64) - 1:
            return self.spell("unsigned_max")
        return self.spell("int_long" if -(1 << 31) <= value < (1 << 31) else "long", str(value))

    def from_long(self, name: str, expr: str) -> str:
        """A value of an integer primitive or wire type read as a long."""
        java = JAVA_TYPES[name][0]
        return expr if java == "long" else f"({java}) {expr}"

    def counter(self, w: CodeWriter, i: str, test: str, needed: bool, after: bool) -> tuple[str, str | None]:
        """A loop while test holds, counting in i (needed: i is read inside; after: and after the loop):
        the block's opening line and the statement ending each round."""
        if after:
            w.line(f"int {i} = 0;")
            return f"for (; {test}; {i}++) {{", None
        return f"for (int {i} = 0; {test}; {i}++) {{", None

    def switch(self, w: CodeWriter, subject: str, cases: list[tuple[str, Callable[[], None]]], default: str) -> None:
        """The case of subject's value: each case's statements (written by its function) in a block, else
        the statement default."""
        with w.block(self.spell("switch", subject), "}"):
            for label, statements in cases:
                with w.block(f"{self.spell('case', label)} {{", "}"):
                    statements()
            w.line(self.spell("otherwise", self.stmt(default)))
