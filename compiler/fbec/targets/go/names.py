"""How a schema name becomes a Go identifier: the one place of the target's renaming rule
(docs/go.md "Names", docs/targets.md "Names").

Types, fields and enum values are exported: the first letter upper case (`order` -> `Order`); a
name that does not start with a letter gets an `X` in front (`_id` -> `X_id`), as protoc-gen-go
does. An identifier that clashes in its scope gets a trailing underscore, another while it still
clashes (base.scope_idents). The scopes:

* a package's identifiers: its types first, then its enum and flags constants (the enum's type
  and the value: `OrderSideBuy`), then the functions of each struct (`New<T>`, `VerifyFBE<T>`,
  `VerifyFinal<T>`, `FBEVerify<T>`, `FBEVerifyFinal<T>`), then the constants naming the schema
  (`FBEPackage`, `FBEVersion`, `FBEFingerprint`), then the key types of structs keyed
  by several fields (`<T>Key`, `<T>FBEKey` when a type has that name): each clear of those
  before it, so a type keeps its name and what is made from it yields (a struct `SideBuy` keeps
  its name, the constant of `side.buy` becomes `SideBuy_`). The package's protocol types yield
  to all of these;
* a struct: its fields, clear of the methods of generated structs (`Reset`, `String`,
  `MarshalFBE`...), of the embedded base struct's name and of the base's fields;
* a Go package name: the schema package's name in lower case, clear of Go's keywords and
  predeclared names, the packages the generated code imports (`fbe`, `io`, `bytes`, `cmp`,
  `context`) and the locals and parameters of its functions (which would hide an import).

JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import ScopedIdents, scope_idents

# Go's keywords and predeclared identifiers, the packages the generated code imports, the locals and
# parameters of generated functions: a package name among them is renamed.
PACKAGE_RESERVED = frozenset({
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func",
    "go", "goto", "if", "import", "interface", "map", "package", "range", "return", "select", "struct",
    "switch", "type", "var", "any", "bool", "byte", "error", "int", "rune", "string", "uint", "true",
    "false", "nil", "iota", "len", "cap", "new", "make", "append", "copy", "delete", "panic", "recover",
    "print", "println", "complex", "real", "imag", "close", "min", "max", "clear",
    "fbe", "io", "bytes", "cmp", "context",
    "b", "base", "c", "d", "data", "e", "err", "frame", "h", "i", "j", "k", "lim", "m", "n", "o", "ok", "out",
    "p", "r", "s", "slot", "t", "v", "w", "x", "y",
})
# Methods of generated structs: a field of such a name is renamed.
STRUCT_MEMBERS = frozenset({"FBEKey", "FBEKeyCompare", "Reset", "MarshalFBE", "UnmarshalFBE", "AppendFBE", "ReadFBE",
                            "FBEWrite", "FBERead", "MarshalFinal", "UnmarshalFinal", "AppendFinal", "ReadFinal",
                            "FBEWriteFinal", "FBEReadFinal", "MarshalJSON", "UnmarshalJSON", "AppendJSON",
                            "ReadJSON", "FBEWriteJSON", "FBEReadJSON", "FBEWriteText", "String", "TypeID"})
FUNCTIONS = ("New", "VerifyFBE", "VerifyFinal", "FBEVerify", "FBEVerifyFinal")
"""The package-level functions of each struct, by the prefix they put before its type."""
SCHEMA_CONSTANTS = ("Package", "Version", "Fingerprint")
"""The package's constants naming its schema (`FBEPackage`...: docs/kafka.md), after FBE."""


def exported(name: str) -> str:
    """A schema name as an exported Go identifier: its first letter upper case, or `X` in front of
    a name that does not start with a letter."""
    return name[:1].upper() + name[1:] if name[:1].isalpha() else "X" + name


def package_name(name: str) -> str:
    """The Go package (and import) name of a schema package."""
    name = name.lower()
    while name in PACKAGE_RESERVED:
        name += "_"
    return name


class Idents(ScopedIdents):
    """The identifiers of one schema's names, each scope worked out once, when first asked."""

    def _package_scope(self, p: ir.Package) -> dict[tuple[str, ...], str]:
        enums = [*p.enums, *p.flags]
        types = scope_idents([(x, exported(x)) for x in [e.name for e in enums] + [s.name for s in p.structs]],
                             lambda x: False)
        out: dict[tuple[str, ...], str] = {("type", k): v for k, v in types.items()}
        given = set(types.values())
        groups: list[list[tuple[tuple[str, ...], str]]] = [
            [(("const", e.name, v.name), types[e.name] + exported(v.name)) for e in enums for v in e.values],
            [(("func", s.name, prefix), prefix + types[s.name]) for s in p.structs for prefix in FUNCTIONS],
            [(("schema", what), "FBE" + what) for what in SCHEMA_CONSTANTS],
        ]
        for group in groups:
            more = scope_idents(group, given.__contains__)
            out.update(more)
            given |= set(more.values())
        for s in p.structs:
            key = types[s.name] + "Key"
            out[("key", s.name)] = scope_idents([(0, key if key not in given else types[s.name] + "FBEKey")],
                                                given.__contains__)[0]
            given.add(out[("key", s.name)])
        return out

    def package_names(self, package: str) -> frozenset[str]:
        """Every package-level identifier the package's schema names took (its protocol types avoid them)."""
        return frozenset(self.package_scope(package).values())

    def type(self, qualified: str) -> str:
        """A type's identifier in its package."""
        return self.declared("type", qualified)

    def schema_constant(self, package: str, what: str) -> str:
        """The constant of a package's name, version or fingerprint (`FBEFingerprint`; what: an entry
        of SCHEMA_CONSTANTS)."""
        return self.package_scope(package)[("schema", what)]

    def constant(self, qualified: str, value: str) -> str:
        """An enum or flags value's constant in the type's package."""
        return self.declared("const", qualified, value)

    def function(self, prefix: str, qualified: str) -> str:
        """A struct's package-level function (prefix: one of FUNCTIONS) in its package."""
        return self.declared("func", qualified, prefix)

    def key_type(self, qualified: str) -> str:
        """The type holding the value of a struct's several [key] fields, in its package."""
        return self.declared("key", qualified)

    def field(self, f: ir.Field) -> str:
        """A field's identifier (ScopedIdents.field_ident), exported, clear of the generated methods and of
        the embedded base's type name."""
        return self.field_ident(f, exported, lambda s: [*STRUCT_MEMBERS, *([self.type(s.base)] if s.base else [])])
