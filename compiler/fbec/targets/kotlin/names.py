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
from fbec.targets.base import NameClash, import_closure, scope_idents

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
    "Compare", "Decimals", "DecodeException", "EncodeException", "Limits", "Reader", "Writer", "Timestamps",
    "Uuids", "Companion", "Utf8", "Text", "JsonWriter", "JsonReader", "FrameReceiver", "FrameSender",
    "FrameException", "OutputStream", "IOException", "Requests", "CompletableFuture", "Deprecated",
    "Suppress", "Handler", "Receiver", "FinalReceiver", "Sender", "FinalSender", "Proxy", "ProxyHandler",
    "Client", "FinalClient",
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
# The property of generated enum and flags classes.
ENUM_MEMBERS = frozenset({"value"})
UNDERSCORES = re.compile(r"_+")


def escape(name: str) -> str:
    """A renamed name: a trailing underscore, `X` in front of a name of underscores only."""
    return "X" + name if UNDERSCORES.fullmatch(name) else name + "_"


def _reserved(name: str) -> bool:
    return name in KEYWORDS or UNDERSCORES.fullmatch(name) is not None


def keyword_free(name: str) -> str:
    """One part of a Kotlin package name (a keyword gets a trailing underscore)."""
    return escape(name) if _reserved(name) else name


def kotlin_package(p: ir.Package, prefix: str = "") -> str:
    """The Kotlin package of a schema package: its domain, then its name (`com.chronoxor.proto`),
    after prefix when one is given (fbec --package-prefix: `bench.com.chronoxor.proto`)."""
    parts = (prefix.split(".") if prefix else []) + (p.domain.split(".") if p.domain else []) + [p.name]
    return ".".join(keyword_free(x) for x in parts)


def _type_taken(name: str) -> bool:
    return _reserved(name) or name in CLASSES or name in LOCALS or FRESH_LOCAL.fullmatch(name) is not None


def getter(name: str) -> str:
    """What the JVM getter of a property is named after (`name` and `Name` are both getName)."""
    return name[:1].upper() + name[1:]


class Idents:
    """The identifiers of one schema's names, each scope worked out once, when first asked."""

    def __init__(self, schema: ir.Schema, prefix: str = "") -> None:
        self.schema = schema
        self.prefix = prefix
        self._types: dict[str, dict[str, str]] = {}
        self._fields: dict[str, dict[str, str]] = {}
        self._values: dict[str, dict[str, str]] = {}
        self._frames: dict[str, dict[str, str]] = {}

    def _roots(self, package: str) -> frozenset[str]:
        """The first parts of the packages the code of `package` can refer to: its own and its
        imports' (a field is named in its own package's view, the same in every schema that has it)."""
        return frozenset(kotlin_package(p, self.prefix).partition(".")[0]
                         for p in import_closure(self.schema, self.schema.package(package)))

    def package(self, name: str) -> str:
        """The Kotlin package of a schema package."""
        return kotlin_package(self.schema.package(name), self.prefix)

    def _package_types(self, package: str) -> dict[str, str]:
        if package not in self._types:
            p = self.schema.package(package)
            names = [e.name for e in (*p.enums, *p.flags)] + [s.name for s in p.structs]
            self._types[package] = scope_idents(((name, name) for name in names), _type_taken, escape)
        return self._types[package]

    def type(self, qualified: str) -> str:
        """A type's class name (its simple name, in its package)."""
        package, _, name = qualified.rpartition(".")
        return self._package_types(package)[name]

    def qualified_type(self, qualified: str) -> str:
        """A type's class by its full name (`com.chronoxor.proto.Order`)."""
        return f"{self.package(qualified.rpartition('.')[0])}.{self.type(qualified)}"

    def field(self, f: ir.Field) -> str:
        """A property's name (in every class that has it: the struct that declares it decides)."""
        if f.owner not in self._fields:
            s = self.schema.struct(f.owner)
            taken = set(KEYWORDS | STRUCT_MEMBERS | CLASSES | self._roots(s.qualified.rpartition(".")[0]))
            taken |= set(self._package_types(s.qualified.rpartition(".")[0]).values())
            inherited: set[str] = set()
            if s.base is not None:
                inherited = {getter(self.field(g)) for g in self.schema.struct(s.base).all_fields}

            def clashes(name: str) -> bool:
                return name in taken or _reserved(name) or getter(name) in inherited

            self._fields[f.owner] = scope_idents(((g.name, g.name) for g in s.fields), clashes, escape, getter)
        return self._fields[f.owner][f.name]

    def value(self, qualified: str, name: str) -> str:
        """An enum or flags value's constant in its class's companion."""
        if qualified not in self._values:
            e = self.schema.enum(qualified)
            taken = KEYWORDS | ENUM_MEMBERS | CLASSES | {self.type(qualified)}

            def clashes(x: str) -> bool:
                return x in taken or _reserved(x)

            self._values[qualified] = scope_idents(((v.name, v.name) for v in e.values), clashes, escape, getter)
        return self._values[qualified][name]

    def frame_method(self, package: str, qualified: str) -> str:
        """The ProxyHandler method of a message the package's Proxy dispatches: onOrderMessageFrame,
        onMarketFailureFrame (an import's), clear of onFrame and of each other (messages Self and
        self: onSelfFrame and onSelfFrame_)."""
        if package not in self._frames:
            wanted = []
            for d in self.schema.package(package).dispatch:
                pkg, _, name = d.type.rpartition(".")
                prefix = "" if pkg == package else pkg[:1].upper() + pkg[1:]
                wanted.append((d.type, f"on{prefix}{name[:1].upper()}{name[1:]}Frame"))
            self._frames[package] = scope_idents(wanted, {"onFrame"}.__contains__)
        return self._frames[package][qualified]

    def hidden(self, s: ir.Struct) -> frozenset[str]:
        """The names a field hides in the class of s without being renamed for it: the fields it
        inherits from a base of another package (named in that package, which does not know this
        one's classes). The class refers to a class of such a name by its full name."""
        package = s.qualified.rpartition(".")[0]
        return frozenset(self.field(f) for f in s.all_fields if f.owner.rpartition(".")[0] != package)

    def usable(self, qualified: str, package: str, hidden: frozenset[str]) -> str:
        """How code of `package` refers to a type where the names `hidden` are fields: its simple
        name in its own package, else its full name; NameClash when the first part of that is
        hidden too (no name reaches the class)."""
        simple = self.type(qualified)
        if qualified.rpartition(".")[0] == package and simple not in hidden:
            return simple
        full = self.qualified_type(qualified)
        if full.partition(".")[0] in hidden:
            raise NameClash(f"{qualified} cannot be named where fields {simple!r} and {full.partition('.')[0]!r} "
                            f"are inherited from another package: rename one of them in the schema")
        return full
