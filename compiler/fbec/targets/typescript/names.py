"""How a schema name becomes a TypeScript (and JavaScript) identifier: the one place of the
target's renaming rule (docs/javascript.md "Names", docs/targets.md "Names").

A name keeps its spelling unless it clashes in its scope; then it gets a trailing underscore,
another while the result still clashes (base.scope_idents). The scopes:

* a module (one schema package): its types (an enum's type and constant object share the name),
  its enums' `textOf<Name>` functions and the aliases of the modules it imports, clear of
  JavaScript's reserved words, TypeScript's type keywords, the globals the generated code uses
  and the locals and parameters of its functions (which would hide a type inside them). The
  module's own helpers (the protocol classes, the constants of defaults) yield to these.
* a class: its fields, clear of the instance members of the generated class and of
  Object.prototype's;
* an enum or flags object: its values, clear of Object.prototype's members.

JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import ScopedIdents, scope_idents

SCHEMA_CONSTANTS = ("FBE_PACKAGE", "FBE_VERSION", "FBE_FINGERPRINT")
"""The module's constants naming its schema (docs/kafka.md): a Kafka serde reads them by these names."""
# JavaScript's reserved words, TypeScript's type keywords, the globals the generated code uses
# unqualified, its local names and the module's schema constants: a type or an import alias of such a
# name is renamed.
MODULE_RESERVED = frozenset({
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
    "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
    "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
    "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
    "public", "await", "async", "of", "as", "from", "get", "set", "type", "declare", "namespace", "module",
    "any", "unknown", "never", "number", "bigint", "string", "boolean", "symbol", "object", "undefined",
    "NaN", "Infinity", "Object", "Array", "Map", "Set", "Uint8Array", "Error", "Number", "String", "BigInt",
    "Boolean", "Symbol", "Date", "JSON", "Math", "Promise", "Partial", "Record", "globalThis", "arguments",
    "eval", "fbe", "v", "r", "w", "b", "n", "e", "x", "k", "p", "y", "base", "slot", "data", "limits",
    "init", "writer", "constructor", "prototype",
    *SCHEMA_CONSTANTS,
})
# Instance members of generated classes (and what an object literal must not take as a property):
# a field of such a name is renamed.
STRUCT_MEMBERS = frozenset({"constructor", "toFbe", "toFinal", "toJson", "fbeKey", "toString", "toJSON",
                            "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf", "propertyIsEnumerable",
                            "toLocaleString"})
# What an enum's constant object must not take as a property.
ENUM_MEMBERS = frozenset({"__proto__", "constructor", "hasOwnProperty", "valueOf", "toString"})


def module_alias(package: str) -> str:
    """The alias under which code of its own (a test's or a fuzzer's registry of the generated
    modules) imports the module of a package: clear of the reserved words and the runtime's `fbe`."""
    return package + "_" if package in MODULE_RESERVED else package


class Idents(ScopedIdents):
    """The identifiers of one schema's names, each scope worked out once, when first asked."""

    def _package_scope(self, p: ir.Package) -> dict[tuple[str, ...], str]:
        wanted = [(("type", e.name), e.name) for e in (*p.enums, *p.flags)]
        wanted += [(("type", s.name), s.name) for s in p.structs]
        wanted += [(("text", e.name), "textOf" + e.name) for e in (*p.enums, *p.flags)]
        wanted += [(("alias", name), name) for name in p.imports]
        return scope_idents(wanted, MODULE_RESERVED.__contains__)

    def module_names(self, package: str) -> frozenset[str]:
        """Every identifier the module's schema names took (the module's own helpers avoid them)."""
        return frozenset(self.package_scope(package).values())

    def type(self, qualified: str) -> str:
        """A type's identifier in its own module (what it is exported as)."""
        return self.declared("type", qualified)

    def text_of(self, qualified: str) -> str:
        """The text function of an enum or flags type in its own module (`textOfOrderSide`)."""
        return self.declared("text", qualified)

    def alias(self, package: str, imported: str) -> str:
        """The alias under which the module of `package` imports the module of `imported`."""
        return self.package_scope(package)[("alias", imported)]

    def field(self, f: ir.Field) -> str:
        """A field's property name (ScopedIdents.field_ident), clear of the generated class's members."""
        return self.field_ident(f, lambda name: name, lambda s: STRUCT_MEMBERS)

    def value(self, qualified: str, name: str) -> str:
        """An enum or flags value's property name in the type's constant object."""
        wanted = ((v.name, v.name) for v in self.schema.enum(qualified).values)
        return self.scope("values", qualified, lambda: scope_idents(wanted, ENUM_MEMBERS.__contains__))[name]
