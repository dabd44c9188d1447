"""Kotlin's syntax of what the JVM walkers write (fbec.targets.jvm), and Kotlin's types and literals."""

from __future__ import annotations

import math
import struct as pystruct
from collections.abc import Callable

from fbec.model import ir
from fbec.model.plan import Run
from fbec.targets.base import CodeWriter
from fbec.targets.jvm import context
from fbec.targets.jvm.context import Names, signed, string_literal, sub
from fbec.targets.kotlin.names import Idents

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
# Wire integer -> Kotlin type.
WIRE = {"int8": "Byte", "uint8": "UByte", "int16": "Short", "uint16": "UShort", "int32": "Int", "uint32": "UInt",
        "int64": "Long", "uint64": "ULong"}
BITS = {"Byte": 8, "UByte": 8, "Short": 16, "UShort": 16, "Int": 32, "UInt": 32, "Long": 64, "ULong": 64}
# Unsigned Kotlin type -> the conversion to the runtime's signed Java type of its width, and back.
TO_SIGNED = {"UByte": ".toByte()", "UShort": ".toShort()", "UInt": ".toInt()", "ULong": ".toLong()"}
FROM_SIGNED = {"UByte": ".toUByte()", "UShort": ".toUShort()", "UInt": ".toUInt()", "ULong": ".toULong()"}
# Primitives and wire types held in an unsigned Kotlin type.
UNSIGNED = {"byte": "UByte", "uint8": "UByte", "uint16": "UShort", "uint32": "UInt", "uint64": "ULong"}


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
    return string_literal(text, '"\\$')


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


class Context(context.Context):
    """What one generated Kotlin file needs (jvm.context.Context) and Kotlin's syntax."""

    IDENTS = Idents
    END = ""

    def type(self, t: ir.Type, boxed: bool = False) -> str:
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


    # ------------------------------------------------------------ the walkers' constructs

    def catch(self, exception: str) -> str:
        return f"catch (e: {exception})"

    def val(self, name: str, expr: str, type_: str) -> str:
        return f"val {name} = {expr}"

    def var(self, name: str, expr: str, type_: str) -> str:
        return f"var {name} = {expr}"

    def typed(self, name: str, expr: str, type_: str) -> str:
        return f"val {name}: {type_} = {expr}"

    def new(self, cls: str) -> str:
        return f"{cls}()"

    def size(self, collection: str) -> str:
        return f"{collection}.size"

    def length(self, array: str) -> str:
        return f"{array}.size"

    def get(self, lst: str, index: str) -> str:
        return f"{lst}[{index}]"

    def put(self, mapping: str, key: str, value: str) -> str:
        return f"{mapping}[{key}] = {value}"

    def key(self, entry: str) -> str:
        return f"{entry}.key"

    def value(self, entry: str) -> str:
        return f"{entry}.value"

    def entry_set(self, mapping: str) -> str:
        return f"{mapping}.entries"

    def pick(self, test: str, yes: str, no: str) -> str:
        return f"if ({test}) {yes} else {no}"

    def as_long(self, expr: str) -> str:
        return f"{expr}.toLong()"

    def upto(self, i: str, n: str) -> str:
        return f"for ({i} in 0 until {n}) {{"

    def each(self, w: CodeWriter, x: str, t: ir.Array | ir.Sequence | ir.Mapping, items: str) -> str:
        """The loop's head, items put in a local first when the line would be too long."""
        if fits(w, w.depth, f"for ({x} in {items}) {{"):
            return f"for ({x} in {items}) {{"
        w.line(f"val {x}s =")
        with w.indented():
            w.line(items)
        return f"for ({x} in {x}s) {{"

    def if_(self, w: CodeWriter, test: str, statement: str) -> None:
        w.line(f"if ({test}) {statement}")

    def to_runtime(self, t: ir.Primitive | ir.EnumRef, value: str) -> str:
        if isinstance(t, ir.EnumRef):
            return f"{value}.value" + TO_SIGNED.get(UNSIGNED.get(t.wire, ""), "")
        return value + TO_SIGNED.get(UNSIGNED.get(t.name, ""), "")

    def from_runtime(self, t: ir.Primitive | ir.EnumRef, expr: str) -> str:
        if isinstance(t, ir.EnumRef):
            return f"{self.named(t.name)}({expr}{FROM_SIGNED.get(UNSIGNED.get(t.wire, ''), '')})"
        return expr + FROM_SIGNED.get(UNSIGNED.get(t.name, ""), "")

    def local(self, w: CodeWriter, value: str, names: Names, stem: str = "o") -> str:
        """value as a local: itself when it is one, else a new `val` (so Kotlin smart-casts it)."""
        if value.isidentifier():
            return value
        x = names(stem)
        w.line(f"val {x} = {value}")
        return x

    def keep(self, w: CodeWriter, value: str, t: ir.Type, names: Names, name: str | None, stem: str) -> str:
        return self.local(w, value, names, stem)

    def spare(self, names: Names, stem: str) -> str | None:
        return None

    def into(self, target: str) -> str | None:
        return target

    def added(self, w: CodeWriter, value: str, target: str, refusal: str, names: Names) -> None:
        """The value put in a local first when the line would be too long."""
        if not fits(w, w.depth, f"if (!{target}.add({value})) {refusal}"):
            value = self.local(w, value, names, "x")
        w.line(f"if (!{target}.add({value})) {refusal}")

    def optional(self, w: CodeWriter, t: ir.Optional_, x: str, before: str | None, test: str,
                 read: Callable[[CodeWriter], str]) -> None:
        """`val x: T? = if (test) expr else null` (x: a new local; `target =` when x is a property), with
        the read's statements before expr when it has some."""
        if before:
            w.line(before)
        inner = sub(w)
        expr = read(inner)
        left = f"{x} =" if "." in x else f"val {x}: {self.type(t)} ="
        lines = inner.text().rstrip("\n")
        if not lines and fits(w, w.depth, f"{left} if ({test}) {expr} else null"):
            w.line(f"{left} if ({test}) {expr} else null")
            return
        with w.block(f"{left} if ({test}) {{", "} else {"):
            if lines:
                w.lines(lines)
            w.line(expr)
        with w.block("", "}"):
            w.line("null")

    def reuse_optional(self, w: CodeWriter, t: ir.StructRef, target: str, names: Names,
                       make: Callable[[CodeWriter], None]) -> str:
        """A local holding target's struct (made and put into target when null)."""
        x = names("o")
        w.line(f"var {x} = {target}")
        with w.block(f"if ({x} == null) {{", "}"):
            make(w)
            w.line(f"{x} = {self.named(t.name)}()")
            w.line(f"{target} = {x}")
        return x

    def claim_run(self, w: CodeWriter, run: Run, names: Names, reading: bool) -> str | None:
        """A long description: string literals joined with + (one constant for the compiler), a line each."""
        p = names("p")
        head = f"val {p} = r.run(" if reading else "r.run("
        fields = run.description
        if fits(w, w.depth, f'{head}{run.size}, "{fields}")'):
            w.line(f'{head}{run.size}, "{fields}")')
        else:
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
        return p if reading else None


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
