"""How a schema name becomes a C# identifier: the one place of the target's renaming rule
(docs/csharp.md "Names", docs/targets.md "Names").

Namespaces, types, properties and enum members are PascalCase (`proto` -> `Proto`, `order_side` ->
`OrderSide`, `orderId` -> `OrderId`), as .NET's naming guidelines want them. An identifier that
clashes in its scope gets a trailing underscore, another while it still clashes
(base.scope_idents). The scopes:

* a namespace: its types, clear of C#'s keywords, of the runtime's and the standard library's
  names the generated code uses unqualified (`Writer`, `Reader`, `List`, `Guid`...) and of `Model`,
  the class nested in every generated class (C# refuses a member named as its class);
* a class: its properties, inherited ones with the base's identifiers, clear of the class's own
  name (C# refuses a member named as its class), of the members the generated code gives every
  class (`Model`, `ToFbe`, `FromFinal`, `Equals`...), of the runtime names its code uses in
  expressions (`Codecs`, `Limits`...) and of the inherited ones;
* an enum: its members, clear of the keywords (and of `value__`, the CLR's field of an enum).

JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import TableIdents, scope_idents
from fbec.targets.rust.names import camel as pascal  # the same words, each capitalized

KEYWORDS = frozenset({
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class", "const",
    "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event", "explicit", "extern",
    "false", "finally", "fixed", "float", "for", "foreach", "goto", "if", "implicit", "in", "int", "interface",
    "internal", "is", "lock", "long", "namespace", "new", "null", "object", "operator", "out", "override",
    "params", "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed", "short",
    "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true", "try", "typeof",
    "uint", "ulong", "unchecked", "unsafe", "ushort", "using", "virtual", "void", "volatile", "while",
    "global", "var", "dynamic", "value", "value__",
})
# Names the generated code uses unqualified in a namespace: a type of such a name is renamed.
NAMESPACE_USES = frozenset({
    "System", "Fbe", "Object", "String", "Math", "Array", "Func", "Action", "Exception", "Guid", "Decimal",
    "DateTime", "Type", "Enum", "FlagsAttribute", "Flags", "List", "Dictionary", "SortedSet", "SortedDictionary",
    "Comparer", "EqualityComparer", "IComparable", "IEquatable", "StringComparer", "Collections", "Generic",
    "Writer", "Reader", "Codec", "Codecs", "FixedCodec", "StructModel", "Keys", "Limits", "Timestamp", "Uuid",
    "Decimals", "Utf8", "Bits", "Defaults", "DecodeException", "EncodeException", "FbeException", "ErrorKind",
    "Text", "TextWriter", "Nullable", "Model",
    # the protocol's Client (proto.USINGS)
    "Threading", "Tasks", "Task", "TimeSpan", "CancellationToken", "Requests",
})
# Members every generated class has: a property of such a name is renamed.
CLASS_MEMBERS = frozenset({
    "Model", "TypeId", "ToFbe", "FromFbe", "VerifyFbe", "ToFinal", "FromFinal", "VerifyFinal", "WriteFbe",
    "WriteFinal", "ToJson", "FromJson", "Equals", "GetHashCode", "ToString", "CompareTo", "GetType",
    "MemberwiseClone", "Finalize", "ReferenceEquals", "Clone", "WriteText",
    # the runtime's and the standard library's names the class's code uses in expressions (a property
    # would hide them there, in the nested Model too)
    "Codecs", "Keys", "Limits", "Comparer", "EqualityComparer", "StringComparer", "Defaults", "Timestamp",
    "Uuid", "Writer", "Reader", "Instance", "Guid", "Utf8", "JsonSource", "JsonBuilder", "TextBuilder",
})


class Idents(TableIdents):
    """The identifiers of one schema's generated C# code."""

    def __init__(self, schema: ir.Schema) -> None:
        super().__init__()
        self.namespaces = scope_idents(((p.name, ".".join(pascal(x) for x in p.name.split(".")))
                                        for p in schema.packages),
                                       lambda x: x in KEYWORDS or x in NAMESPACE_USES)
        for p in schema.packages:
            self.scope_types(p, pascal, lambda x: x in KEYWORDS or x in NAMESPACE_USES)
        for p in schema.packages:
            for s in p.structs:     # bases first: a derived class keeps its base's identifiers
                inherited = {f.name: self.fields[(s.base, f.name)]
                             for f in s.all_fields if s.base and f.owner != s.qualified}
                taken = frozenset(inherited.values()) | CLASS_MEMBERS | {self.types[s.qualified]} | KEYWORDS
                own = scope_idents(((f.name, pascal(f.name)) for f in s.fields), taken.__contains__)
                self.fields.update({(s.qualified, k): v for k, v in {**inherited, **own}.items()})
            for e in p.enums + p.flags:
                self.scope(self.values, e.qualified, ((v.name, pascal(v.name)) for v in e.values),
                           lambda x: x in KEYWORDS)

    def namespace(self, package: str) -> str:
        return self.namespaces[package]
