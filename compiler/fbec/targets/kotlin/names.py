"""How a schema name becomes a Kotlin identifier: the one place of the target's renaming rule
(docs/kotlin.md "Names", docs/targets.md "Names").

A name keeps its spelling unless it clashes in its scope; then it gets a trailing underscore,
another while the result still clashes (base.scope_idents). A name made of underscores only,
which Kotlin reserves, gets an `X` in front first (`_` -> `X_`). The scopes:

* a Kotlin package (one schema package): its classes, clear of Kotlin's hard keywords, the
  classes and functions the generated code uses by their simple name (the default imports', the
  imported java.util and runtime classes, the protocol classes of the package), the locals and
  parameters of generated functions (a local hides a class of its name) and the fresh locals the
  generators number (`o1`, `i2`...);
* a struct's class: its properties, clear of the keywords, its companion's members
  (`Companion`, `TYPE_ID`, `KEY_ORDER`), `javaClass`, those classes, the classes of its own
  package and the first part of every Kotlin package in the schema: in an expression Kotlin takes
  a name for a property (or an earlier constructor parameter, in a default) before a class or a
  package, so such a property would hide them. Two properties whose names differ only in the case
  of their first letter would have the same JVM getter (`name`, `Name`: getName): they clash. A
  base class's properties are the derived class's too;
* an enum or flags class: its constants (the companion's properties, with JVM getters too),
  clear of the keywords, its `value`, its own name and the classes its code uses by their
  simple name.

Package names: each part of the domain and the package that is a hard keyword gets a trailing
underscore. JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

import re

from fbec.model import ir
from fbec.targets.jvm import names

UNDERSCORES = re.compile(r"_+")


def getter(name: str) -> str:
    """What the JVM getter of a property is named after (`name` and `Name` are both getName)."""
    return name[:1].upper() + name[1:]


class Idents(names.Idents):
    """The identifiers of one schema's names (jvm/names.py) with Kotlin's tables and spelling."""

    # Kotlin's hard keywords.
    KEYWORDS = frozenset({
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is",
        "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof",
        "val", "var", "when", "while",
    })
    # Classes and functions the generated code uses by their simple name (Kotlin's default imports, the
    # generated files' own imports, the protocol classes of --proto).
    CLASSES = frozenset({
        "Any", "Unit", "Nothing", "Boolean", "Byte", "Short", "Int", "Long", "Float", "Double", "Char", "String",
        "UByte", "UShort", "UInt", "ULong", "Array", "BooleanArray", "ByteArray", "ShortArray", "IntArray",
        "LongArray", "FloatArray", "DoubleArray", "CharArray", "MutableList", "MutableSet", "MutableMap",
        "ArrayList", "LinkedHashMap", "Comparator", "Comparable", "Throws", "JvmStatic", "JvmField",
        "JvmOverloads", "JvmInline", "StringBuilder", "UUID", "BigDecimal", "TreeSet", "TreeMap", "LinkedList",
        "Compare", "Decimals", "DecodeException", "EncodeException", "Explain", "Limits", "Reader", "Writer",
        "Timestamps",
        "Uuids", "Companion", "Utf8", "Text", "JsonWriter", "JsonReader", "FrameReceiver", "FrameSender",
        "FrameException", "OutputStream", "IOException", "Requests", "CompletableFuture", "Deprecated",
        "Suppress", "Handler", "Receiver", "FinalReceiver", "Sender", "FinalSender", "Proxy", "ProxyHandler",
        "Client", "FinalClient", "FrameClient", "Fbe", "VersionedRoot", "FinalRoot", "JsonRoot",
    })
    # The locals and parameters of generated functions (a class of such a name would be hidden by them) and
    # the stems the generators number fresh locals from (models.Names: `o1`, `i2`...).
    LOCALS = frozenset({
        "a", "b", "c", "e", "h", "j", "n", "o", "r", "t", "v", "w", "base", "body", "chunk", "data", "frame",
        "from", "handler", "it", "length", "limits", "name", "notify", "offset", "other", "out", "pendingRequests",
        "receiver", "requests", "sender", "size", "slot", "text", "timeoutMillis", "typeId", "value",
    })
    FRESH_LOCAL = re.compile(r"(?:e|f|i|k|key|m|n|o|p|s|seen|t|v|x)[0-9]+")
    # Members of generated structs a property may not take.
    STRUCT_MEMBERS = frozenset({"TYPE_ID", "KEY_ORDER", "javaClass", "Companion"})

    @classmethod
    def reserved(cls, name: str) -> bool:
        return name in cls.KEYWORDS or UNDERSCORES.fullmatch(name) is not None

    @classmethod
    def escape(cls, name: str) -> str:
        """A renamed name: a trailing underscore, `X` in front of a name of underscores only."""
        return "X" + name if UNDERSCORES.fullmatch(name) else name + "_"

    def same(self, name: str) -> str:
        return getter(name)

    def value_taken(self, qualified: str) -> frozenset[str]:
        return self.ENUM_MEMBERS | self.CLASSES | {self.type(qualified)}


def kotlin_package(p: ir.Package, prefix: str = "") -> str:
    """The Kotlin package of a schema package (`com.chronoxor.proto`, after --package-prefix's)."""
    return Idents.package_name(p, prefix)
