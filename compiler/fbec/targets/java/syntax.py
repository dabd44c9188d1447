"""Java's syntax of what the JVM walkers write (fbec.targets.jvm), and Java's types and literals."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import ClassVar

from fbec.model import ir
from fbec.model.plan import Run
from fbec.targets.base import CodeWriter
from fbec.targets.java.names import Idents
from fbec.targets.jvm import context
from fbec.targets.jvm.context import Names, float32, signed, string_literal

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


class Context(context.Context):
    """What one generated Java file needs (jvm.context.Context) and Java's syntax."""

    IDENTS = Idents
    END = ";"
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
    }
    NULLS = True
    BRACES = True
    SMART_CASTS = False
    SPARES = True
    MAX_LINE = None
    EMPTY_BYTES = "new byte[0]"
    ENUM_VALUE = ".value()"
    TO_RUNTIME: ClassVar[dict[str, str]] = {}
    FROM_RUNTIME: ClassVar[dict[str, str]] = {}

    EXT = "java"
    TYPES = PRIMITIVES
    ARRAYS: ClassVar[dict[str, str]] = {}
    COMPARATORS = COMPARATORS
    COLLECTIONS: ClassVar[dict[str, str]] = {
        "Set": "java.util.Set", "List": "java.util.List", "Map": "java.util.Map", "vector": "java.util.ArrayList",
        "list": "java.util.LinkedList", "set": "java.util.TreeSet", "hash": "java.util.LinkedHashMap",
        "map": "java.util.TreeMap",
    }

    def preamble(self, out: CodeWriter, package: str) -> None:
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
        if isinstance(t, ir.Mapping):
            return f"{self.use('java.util.Map')}.Entry<{self.type(t.key, True)}, {self.type(t.value, True)}>"
        return self.type(t.element, True)

    def int_literal(self, value: int, name: str) -> str:
        return int_literal(value, PRIMITIVES[name][0])

    def float_literal(self, text: str, single: bool) -> str:
        return float_literal(text, single)

    def string_literal(self, text: str) -> str:
        return java_string(text)

    def uuid_literal(self, uuid: str, hexd: str) -> str:
        return f"new {uuid}(0x{hexd[:16]}L, 0x{hexd[16:]}L)"

    def zero_array(self, t: ir.Array) -> str:
        element = self.type(t.element)
        e = t.element
        if isinstance(e, ir.Optional_) or isinstance(e, ir.Primitive) and e.name not in (
                "string", "bytes", "uuid", "decimal"):
            # Java's own zero values (0, false, null) are the defaults
            head, bracket, tail = element.partition("[")
            return f"new {head}[{t.length}]" + (bracket + tail if bracket else "")
        items = ", ".join([self.zero(e)] * t.length)
        return f"new {element}[] {{{items}}}"

    # ------------------------------------------------------------ the walkers' constructs

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

    # ------------------------------------------------------------ JSON

    # Integer primitives printed through a conversion: unsigned types by their unsigned value.
    TEXT_CONVERSIONS: ClassVar[dict[str, str]] = {
        "byte": "{} & 0xFF", "uint8": "{} & 0xFF", "uint16": "{} & 0xFFFF", "uint32": "Integer.toUnsignedString({})",
        "uint64": "Long.toUnsignedString({})", "timestamp": "Long.toUnsignedString({})",
    }
    JSON_CONVERSIONS: ClassVar[dict[str, str]] = {}
    KEY_CONVERSIONS: ClassVar[dict[str, str]] = {"byte": "{} & 0xFF", "uint8": "{} & 0xFF", "char": "{} & 0xFF", "uint16": "{} & 0xFFFF",
                       "uint32": "{} & 0xFFFFFFFFL", "wchar": "{} & 0xFFFFFFFFL"}

    def raw_literal(self, text: str) -> str:
        return f"'{text}'" if len(text) == 1 and text not in "'\\" else java_string(text)

    def from_long(self, name: str, expr: str) -> str:
        java = PRIMITIVES[name][0]
        return expr if java == "long" else f"({java}) {expr}"

    def counter(self, w: CodeWriter, i: str, test: str, needed: bool, after: bool) -> tuple[str, str | None]:
        if after:
            w.line(f"int {i} = 0;")
            return f"for (; {test}; {i}++) {{", None
        return f"for (int {i} = 0; {test}; {i}++) {{", None

    def switch(self, w: CodeWriter, subject: str, cases: list[tuple[str, Callable[[], None]]], default: str) -> None:
        with w.block(f"switch ({subject}) {{", "}"):
            for label, statements in cases:
                w.line(f"case {label}:")
                with w.indented():
                    statements()
                    w.line("break;")
            w.line("default:")
            with w.indented():
                w.line(f"{default};")
                w.line("break;")
