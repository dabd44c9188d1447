"""How a schema name becomes a Java identifier: the one place of the target's renaming rule
(docs/java.md "Names", docs/targets.md "Names").

A name keeps its spelling unless it clashes in its scope; then it gets a trailing underscore,
another while the result still clashes (base.scope_idents). The scopes:

* a Java package (one schema package): its classes, clear of Java's keywords, the classes the
  generated code uses by their simple name (java.lang's, the imported java.util and runtime
  classes, the protocol classes of the package), the locals and parameters of generated methods
  (a local hides a class of its name) and the fresh locals the generators number (`e1`, `n2`...);
* a struct's class: its fields, clear of the keywords, its static members, the classes the
  generated code uses by their simple name, the classes of its own package (referred to by their
  simple name) and the first part of every Java package in the schema (others' classes are
  referred to by their full name): Java takes a name in an expression (`side.buy`,
  `Long.compare`, `org.example.market.Side`) for a field of the class before a class or a
  package, so such a field would hide them. A base class's fields are the derived class's too;
* an enum or flags class: its constants, clear of the keywords, its `value` field and the
  classes its code uses by their simple name.

Package names: each part of the domain and the package that is a keyword gets a trailing
underscore. JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

import re

from fbec.targets.jvm import names


class Idents(names.Idents):
    """The identifiers of one schema's names (jvm/names.py) with Java's tables and spelling."""

    KEYWORDS = frozenset({
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "var",
        "record", "yield", "sealed", "permits", "non-sealed", "_",
    })
    # Classes the generated code uses by their simple name (java.lang's, the imported ones, the runtime's,
    # the protocol classes of --proto).
    CLASSES = frozenset({
        "Object", "String", "Boolean", "Byte", "Character", "Short", "Integer", "Long", "Float", "Double",
        "Math", "System", "Override", "SuppressWarnings", "Deprecated", "Comparable", "Class",
        "List", "ArrayList", "LinkedList", "Set", "TreeSet", "Map", "TreeMap", "LinkedHashMap", "Arrays",
        "Objects", "Comparator", "Collection", "UUID", "BigDecimal", "Compare", "Decimals", "DecodeException",
        "EncodeException", "Explain", "NullPointerException", "Limits", "Reader", "Writer", "Timestamps", "Uuids",
        "Utf8", "FrameReceiver",
        "FrameSender", "FrameException", "OutputStream", "IOException", "Text", "StringBuilder", "JsonWriter",
        "JsonReader",
        "Handler", "Receiver", "FinalReceiver", "Sender", "FinalSender", "Proxy", "ProxyHandler",
        "Client", "FinalClient", "FrameClient", "Requests", "CompletableFuture", "Fbe",
        "VersionedRoot", "FinalRoot", "JsonRoot",
    })
    # The locals and parameters of generated methods (a class of such a name would be hidden by them) and
    # the stems the generators number fresh locals from (models.Names: `e1`, `n2`...).
    LOCALS = frozenset({
        "a", "b", "c", "e", "h", "j", "n", "o", "r", "v", "w", "base", "slot", "data", "offset", "length", "limits",
        "other", "value", "from", "name", "text",
    })
    FRESH_LOCAL = re.compile(r"(?:e|i|k|key|m|n|p|s|seen|t|v|x)[0-9]+")
    # Static members of generated structs: a field of such a name is renamed.
    STRUCT_MEMBERS = frozenset({"TYPE_ID", "KEY_ORDER"})

