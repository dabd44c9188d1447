"""The scopes of the Java and Kotlin targets' names (docs/java.md and docs/kotlin.md "Names",
docs/targets.md "Names"): how a schema name becomes an identifier of generated JVM code. Each
language's names.py gives its tables and spelling (java/names.py, kotlin/names.py)."""

from __future__ import annotations

import re
from typing import ClassVar

from fbec.model import ir
from fbec.targets.base import NameClash, ScopedIdents, import_closure, scope_idents


class Idents(ScopedIdents):
    """The identifiers of one schema's names, each scope worked out once, when first asked: the
    scopes of the Java and Kotlin targets, whose names.py give the tables (keywords, the classes
    the generated code uses by their simple name, its locals, the generated members) and their
    spelling (by default Java's)."""

    KEYWORDS: ClassVar[frozenset[str]]
    CLASSES: ClassVar[frozenset[str]]
    LOCALS: ClassVar[frozenset[str]]
    FRESH_LOCAL: ClassVar[re.Pattern[str]]
    STRUCT_MEMBERS: ClassVar[frozenset[str]]
    # The field (Kotlin: property) of every generated enum and flags class: a constant of such a name
    # is renamed.
    ENUM_MEMBERS: ClassVar[frozenset[str]] = frozenset({"value"})

    def __init__(self, schema: ir.Schema, prefix: str = "") -> None:
        super().__init__(schema)
        self.prefix = prefix

    # the language's spelling (Kotlin's differ)

    @classmethod
    def reserved(cls, name: str) -> bool:
        """Whether a name is a keyword wherever it is used."""
        return name in cls.KEYWORDS

    @classmethod
    def escape(cls, name: str) -> str:
        """A renamed name (once more while it clashes)."""
        return name + "_"

    def same(self, name: str) -> str:
        """What two members that would be the same member are alike in (Java: the name itself)."""
        return name

    @classmethod
    def package_name(cls, p: ir.Package, prefix: str = "") -> str:
        """The language's package of a schema package: its domain, then its name (`com.chronoxor.proto`),
        after prefix when one is given (fbec --package-prefix: `bench.com.chronoxor.proto`); each part
        that is a keyword renamed."""
        parts = (prefix.split(".") if prefix else []) + (p.domain.split(".") if p.domain else []) + [p.name]
        return ".".join(cls.escape(x) if cls.reserved(x) else x for x in parts)

    def package_of(self, p: ir.Package) -> str:
        """The language's package of a schema package."""
        return self.package_name(p, self.prefix)

    def value_taken(self, qualified: str) -> frozenset[str]:
        """What an enum's constants are clear of besides the keywords."""
        return self.ENUM_MEMBERS | self.CLASSES

    # the scopes

    def _type_taken(self, name: str) -> bool:
        return (self.reserved(name) or name in self.CLASSES or name in self.LOCALS
                or self.FRESH_LOCAL.fullmatch(name) is not None)

    def _roots(self, package: str) -> frozenset[str]:
        """The first parts of the packages the code of `package` can refer to: its own and its
        imports' (a field is named in its own package's view, the same in every schema that has it)."""
        return frozenset(self.package_of(p).partition(".")[0]
                         for p in import_closure(self.schema, self.schema.package(package)))

    def package(self, name: str) -> str:
        """The package of a schema package (`com.chronoxor.proto`)."""
        return self.package_of(self.schema.package(name))

    def _package_scope(self, p: ir.Package) -> dict[tuple[str, ...], str]:
        names = [e.name for e in (*p.enums, *p.flags)] + [s.name for s in p.structs]
        return scope_idents(((("type", name), name) for name in names), self._type_taken, self.escape)

    def type(self, qualified: str) -> str:
        """A type's class name (its simple name, in its package)."""
        return self.declared("type", qualified)

    def qualified_type(self, qualified: str) -> str:
        """A type's class by its full name (`com.chronoxor.proto.Order`)."""
        return f"{self.package(qualified.rpartition('.')[0])}.{self.type(qualified)}"

    def field(self, f: ir.Field) -> str:
        """A field's name (in every class that has it: the struct that declares it decides)."""
        return self.scope("fields", f.owner, lambda: self._fields(self.schema.struct(f.owner)))[f.name]

    def _fields(self, s: ir.Struct) -> dict[str, str]:
        package = s.qualified.rpartition(".")[0]
        taken = set(self.STRUCT_MEMBERS | self.CLASSES | self._roots(package))
        taken |= set(self.package_scope(package).values())
        inherited: set[str] = set()
        if s.base is not None:
            inherited = {self.same(self.field(g)) for g in self.schema.struct(s.base).all_fields}

        def clashes(name: str) -> bool:
            return self.reserved(name) or name in taken or self.same(name) in inherited

        return scope_idents(((g.name, g.name) for g in s.fields), clashes, self.escape, self.same)

    def value(self, qualified: str, name: str) -> str:
        """An enum or flags value's constant in its class."""
        def make() -> dict[str, str]:
            taken = self.value_taken(qualified)

            def clashes(x: str) -> bool:
                return self.reserved(x) or x in taken

            wanted = ((v.name, v.name) for v in self.schema.enum(qualified).values)
            return scope_idents(wanted, clashes, self.escape, self.same)

        return self.scope("values", qualified, make)[name]

    def frame_method(self, package: str, qualified: str) -> str:
        """The ProxyHandler method of a message the package's Proxy dispatches: onOrderMessageFrame,
        onMarketFailureFrame (an import's), clear of onFrame and of each other (messages Self and
        self: onSelfFrame and onSelfFrame_)."""
        def make() -> dict[str, str]:
            wanted = []
            for d in self.schema.package(package).dispatch:
                pkg, _, name = d.type.rpartition(".")
                prefix = "" if pkg == package else pkg[:1].upper() + pkg[1:]
                wanted.append((d.type, f"on{prefix}{name[:1].upper()}{name[1:]}Frame"))
            return scope_idents(wanted, {"onFrame"}.__contains__)

        return self.scope("frames", package, make)[qualified]

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
