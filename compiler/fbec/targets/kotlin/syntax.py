"""Kotlin's syntax of what the JVM walkers write (fbec.targets.jvm), and Kotlin's types and literals."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import ClassVar

from fbec.model import ir
from fbec.model.plan import Run
from fbec.targets.base import CodeWriter, float32, float32_digits
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
# Primitives and wire types held in an unsigned Kotlin type -> the conversion to the runtime's signed Java
# type of their width, and back.
TO_SIGNED = {"byte": ".toByte()", "uint8": ".toByte()", "uint16": ".toShort()", "uint32": ".toInt()",
             "uint64": ".toLong()"}
FROM_SIGNED = {"byte": ".toUByte()", "uint8": ".toUByte()", "uint16": ".toUShort()", "uint32": ".toUInt()",
               "uint64": ".toULong()"}


MAX_LINE = 120
"""The longest line the generated code writes where it can choose (ktlint's intellij_idea style
with max_line_length 120 wants a signature on one line when it fits)."""


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
    return string_literal(text, "$")


def float_literal(text: str, single: bool) -> str:
    """A Kotlin literal of a real default: the shortest digits that give the same value (Kotlin
    takes no `5.` and warns about digits a Float cannot hold), infinities spelt out."""
    v = float(text)
    kotlin = "Float" if single else "Double"
    if single:
        v = float32(v)
    if math.isinf(v):
        return f"{kotlin}.NEGATIVE_INFINITY" if v < 0 else f"{kotlin}.POSITIVE_INFINITY"
    if v == 0.0:
        digits = "-0.0" if math.copysign(1.0, v) < 0 else "0.0"
    elif single:
        digits = repr(float(float32_digits(v)))
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
    SPELLING: ClassVar[dict[str, str]] = {
        "catch": "catch (e: {0})", "val": "val {0} = {1}", "var": "var {0} = {1}", "typed": "val {0}: {2} = {1}",
        "declare": "val {0} =", "new": "{0}()", "size": "{0}.size", "length": "{0}.size", "get": "{0}[{1}]",
        "put": "{0}[{1}] = {2}", "key": "{0}.key", "value": "{0}.value", "entries": "{0}.entries",
        "contains": "{1} in {0}", "pick": "if ({0}) {1} else {2}", "as_long": "{0}.toLong()",
        "upto": "for ({0} in 0 until {1}) {{", "each": "for ({0} in {1}) {{", "each_key": "while (true) {{",
        "each_key_first": "val {0} = {1} ?: break", "enum_new": "{0}({1})", "or": "{0} or {1}",
        "optional_type": "{0}?", "array_type": "Array<{0}>", "new_collection": "{0}({1})",
        "compare": "{0}.compareTo({1})", "bytes_equal": "{0}.contentEquals({1})", "equal": "{0} == {1}",
        "runnable": ") {{ {0} }}", "unsigned_max": "-1L", "int_long": "{0}L", "long": "{0}L",
        "override": "override fun {0}({1}){2}", "method": "fun {0}({1}){2}", "static": "fun {0}({1}){2}",
        "interface": "interface {0}", "throws": "", "private": "private fun {0}({1}){2}",
        "param": "{0}: {1}", "same": "{0} === {1}", "getter": "{0}", "reference": "[{0}]", "timeout": "{0}: Long = 0",
        "class": "{0}::class.java", "set_of": "setOf({0})", "default": "fun {0}({1}){2}",
        "protected": "override fun {0}({1}){2}", "object": "Any",
        "switch": "when ({0}) {{", "case": "{0} ->", "otherwise": "else -> {0}",
        "other_class": "{0}.javaClass != javaClass", "property": "{0}", "bits": "({0} and {1})",
        "empty_text": "{0}.isEmpty()", "compared": "c{0}", "lambda_return": "return@{1} {0}", "lambda_result": "{0}",
    }
    NULLS = False
    BRACES = False
    SMART_CASTS = True
    MAX_LINE = MAX_LINE
    OVERRIDE = ""
    EMPTY_BYTES = "ByteArray(0)"
    ENUM_VALUE = ".value"
    TO_RUNTIME = TO_SIGNED
    FROM_RUNTIME = FROM_SIGNED

    EXT = "kt"
    TYPES: ClassVar[dict[str, tuple[str, str]]] = {name: (kotlin, kotlin) for name, kotlin in PRIMITIVES.items()}
    ARRAYS = PRIMITIVE_ARRAYS
    COMPARATORS = COMPARATORS
    COLLECTIONS: ClassVar[dict[str, str]] = {
        "Set": "MutableSet", "List": "MutableList", "Map": "MutableMap", "vector": "ArrayList",
        "list": "java.util.LinkedList", "set": "java.util.TreeSet", "hash": "LinkedHashMap", "map": "java.util.TreeMap",
    }

    def preamble(self, out: CodeWriter, package: str) -> None:
        if "_" in package:
            # the schema's package name, kept as it is (ktlint wants none with an underscore)
            out.line('@file:Suppress("ktlint:standard:package-name")')
            out.blank()
        out.line(f"package {package}")
        out.blank()
        imports = sorted(i for i in self.imports if i.rpartition(".")[0] != package)
        if imports:
            # ktlint's order: everything else, then java, javax and kotlin
            rank = [i.startswith("java.") + 2 * i.startswith("javax.") + 3 * i.startswith("kotlin.") for i in imports]
            for _, i in sorted(zip(rank, imports)):
                out.line(f"import {i}")
            out.blank()

    def int_literal(self, value: int, name: str) -> str:
        return int_literal(value, PRIMITIVES[name])

    def float_literal(self, text: str, single: bool) -> str:
        return float_literal(text, single)

    def string_literal(self, text: str) -> str:
        return kotlin_string(text)

    def uuid_literal(self, uuid: str, hexd: str) -> str:
        high, low = signed(int(hexd[:16], 16), 64), signed(int(hexd[16:], 16), 64)
        return f"{uuid}({int_literal(high, 'Long')}, {int_literal(low, 'Long')})"

    def zero_array(self, t: ir.Array) -> str:
        element = self.type(t.element)
        if element in PRIMITIVE_ARRAYS:
            return f"{PRIMITIVE_ARRAYS[element]}({t.length})"     # Kotlin's zeros are the defaults
        if isinstance(t.element, ir.Optional_):
            return f"arrayOfNulls<{element[:-1]}>({t.length})"
        return f"Array<{element}>({t.length}) {{ {self.zero(t.element)} }}"

    def result(self, returns: str) -> str:
        return f": {returns}" if returns else ""

    def returns(self, w: CodeWriter, head: str, expr: str, value: bool = True) -> None:
        """An expression body: on the head's line when it fits, else on the next."""
        if fits(w, w.depth, f"{head} = {expr}"):
            w.line(f"{head} = {expr}")
            return
        w.line(f"{head} =")
        with w.indented():
            w.line(expr)

    def returns_call(self, w: CodeWriter, head: str, call: str, args: list[str], statement: str) -> None:
        """The arguments one per line when the call fits neither on the head's line nor on the next."""
        expr = f"{call}({', '.join(args)}{self.spell('runnable', statement)}"
        if fits(w, w.depth, f"{head} = {expr}") or fits(w, w.depth + 1, expr):
            self.returns(w, head, expr)
            return
        signature(w, w.depth, f"{head} = {call}", args, f" {{ {statement} }}")

    def tagged(self, lines: Sequence[str], params: Sequence[str] = (), returns: str = "") -> list[str]:
        return list(lines)

    def throws(self, w: CodeWriter, exception: str) -> str:
        w.line(f"@Throws({exception}::class)")
        return ""

    @contextmanager
    def klass(self, w: CodeWriter, name: str, params: list[tuple[str, str, str]], base: str, args: str,
              kept: bool = False) -> Iterator[None]:
        """An open class whose primary constructor takes params (kept: as private properties)."""
        declared = ", ".join(f"{'private val ' if kept else ''}{param}: {type_}" for param, type_, _ in params)
        with w.block(f"open class {name}({declared}) : {base}({args}) {{", "}"):
            yield

    def cast(self, w: CodeWriter, value: str, cls: str) -> str:
        w.line(f"{value} as {cls}")       # a smart cast: value is of cls from here on
        return value

    def key_hash(self, t: ir.Type, a: str) -> str:
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

    # ------------------------------------------------------------ the walkers' constructs

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
        with w.if_else(f"{left} if ({test}) {{", f"{lines}\n{expr}" if lines else expr):
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

    # ------------------------------------------------------------ JSON

    # Kotlin's unsigned types print their unsigned value as they are; timestamp is a Long holding one.
    TEXT_CONVERSIONS: ClassVar[dict[str, str]] = {"float": "{}.toDouble()", "timestamp": "{}.toULong()"}
    JSON_CONVERSIONS: ClassVar[dict[str, str]] = {
        "byte": ".toByte()", "uint8": ".toByte()", "int8": ".toLong()", "int16": ".toLong()",
        "uint16": ".toShort()", "int32": ".toLong()", "uint32": ".toInt()", "uint64": ".toLong()",
    }
    KEY_CONVERSIONS: ClassVar[dict[str, str]] = {
        "byte": "{}.toLong()", "uint8": "{}.toLong()", "char": "({}.code and 0xFF).toLong()", "int8": "{}.toLong()",
        "int16": "{}.toLong()", "uint16": "{}.toLong()", "int32": "{}.toLong()", "uint32": "{}.toLong()",
        "wchar": "({}.toLong() and 0xFFFFFFFFL)", "uint64": "{}.toLong()",
    }
    # The conversion of a value read as a Long, per integer primitive or wire type.
    NARROW: ClassVar[dict[str, str]] = {
        "int8": ".toByte()", "int16": ".toShort()", "int32": ".toInt()", "wchar": ".toInt()",
        "byte": ".toUByte()", "uint8": ".toUByte()", "uint16": ".toUShort()", "uint32": ".toUInt()",
        "uint64": ".toULong()",
    }

    def raw_literal(self, text: str) -> str:
        return char_literal(ord(text)) if len(text) == 1 else kotlin_string(text)

    def from_long(self, name: str, expr: str) -> str:
        return expr + self.NARROW.get(name, "")

    def counter(self, w: CodeWriter, i: str, test: str, needed: bool, after: bool) -> tuple[str, str | None]:
        if needed:
            w.line(f"var {i} = 0")
        return f"while ({test}) {{", f"{i}++" if needed else None



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
