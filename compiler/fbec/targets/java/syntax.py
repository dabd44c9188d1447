"""Java's syntax of what the JVM walkers write (fbec.targets.jvm), and Java's types and literals."""

from __future__ import annotations

import math
import struct as pystruct
from collections.abc import Callable

from fbec.model import ir
from fbec.model.plan import Run
from fbec.targets.base import CodeWriter
from fbec.targets.java.names import Idents
from fbec.targets.jvm import context
from fbec.targets.jvm.context import Names, signed, string_literal

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
# Wire integer -> (Java type, bits).
WIRE = {"int8": ("byte", 8), "uint8": ("byte", 8), "int16": ("short", 16), "uint16": ("short", 16),
        "int32": ("int", 32), "uint32": ("int", 32), "int64": ("long", 64), "uint64": ("long", 64)}


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
    return string_literal(text)


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


class Context(context.Context):
    """What one generated Java file needs (jvm.context.Context) and Java's syntax."""

    IDENTS = Idents
    END = ";"

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

    # ------------------------------------------------------------ the walkers' constructs

    def catch(self, exception: str) -> str:
        return f"catch ({exception} e)"

    def val(self, name: str, expr: str, type_: str) -> str:
        return f"{type_} {name} = {expr};"

    var = typed = val

    def new(self, cls: str) -> str:
        return f"new {cls}()"

    def size(self, collection: str) -> str:
        return f"{collection}.size()"

    def length(self, array: str) -> str:
        return f"{array}.length"

    def get(self, lst: str, index: str) -> str:
        return f"{lst}.get({index})"

    def put(self, mapping: str, key: str, value: str) -> str:
        return f"{mapping}.put({key}, {value});"

    def key(self, entry: str) -> str:
        return f"{entry}.getKey()"

    def value(self, entry: str) -> str:
        return f"{entry}.getValue()"

    def entry_set(self, mapping: str) -> str:
        return f"{mapping}.entrySet()"

    def pick(self, test: str, yes: str, no: str) -> str:
        return f"{test} ? {yes} : {no}"

    def as_long(self, expr: str) -> str:
        return expr

    def upto(self, i: str, n: str) -> str:
        return f"for (int {i} = 0; {i} < {n}; {i}++) {{"

    def each(self, w: CodeWriter, x: str, t: ir.Array | ir.Sequence | ir.Mapping, items: str) -> str:
        if isinstance(t, ir.Mapping):
            element = f"{self.use('java.util.Map')}.Entry<{self.type(t.key, True)}, {self.type(t.value, True)}>"
        else:
            element = self.type(t.element, True)
        return f"for ({element} {x} : {items}) {{"

    def if_(self, w: CodeWriter, test: str, statement: str) -> None:
        with w.block(f"if ({test}) {{", "}"):
            w.line(statement + ";")

    def to_runtime(self, t: ir.Primitive | ir.EnumRef, value: str) -> str:
        return f"{value}.value()" if isinstance(t, ir.EnumRef) else value

    def from_runtime(self, t: ir.Primitive | ir.EnumRef, expr: str) -> str:
        return f"{self.named(t.name)}.of({expr})" if isinstance(t, ir.EnumRef) else expr

    def local(self, w: CodeWriter, value: str, names: Names, stem: str = "o") -> str:
        return value

    def keep(self, w: CodeWriter, value: str, t: ir.Type, names: Names, name: str | None, stem: str) -> str:
        assert name is not None
        w.line(f"{self.type(t, True)} {name} = {value};")
        return name

    def spare(self, names: Names, stem: str) -> str | None:
        return names(stem)

    def into(self, target: str) -> str | None:
        return None

    def added(self, w: CodeWriter, value: str, target: str, refusal: str, names: Names) -> None:
        self.if_(w, f"!{target}.add({value})", refusal)

    def optional(self, w: CodeWriter, t: ir.Optional_, x: str, before: str | None, test: str,
                 read: Callable[[CodeWriter], str]) -> None:
        w.line(f"{self.type(t)} {x} = null;")
        if before:
            w.line(before)
        with w.block(f"if ({test}) {{", "}"):
            w.line(f"{x} = {read(w)};")

    def reuse_optional(self, w: CodeWriter, t: ir.StructRef, target: str, names: Names,
                       make: Callable[[CodeWriter], None]) -> str:
        with w.block(f"if ({target} == null) {{", "}"):
            make(w)
            w.line(f"{target} = new {self.named(t.name)}();")
        return target

    def claim_run(self, w: CodeWriter, run: Run, names: Names, reading: bool) -> str | None:
        call = f'r.run({run.size}, "{run.description}")'
        if not reading:
            w.line(f"{call};")
            return None
        p = names("p")
        w.line(f"int {p} = {call};")
        return p
