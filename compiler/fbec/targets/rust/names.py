"""How a schema name becomes a Rust identifier: the one place of the target's renaming rule
(docs/rust.md "Names", docs/targets.md "Names").

Types and enum variants are UpperCamelCase (`order_side` -> `OrderSide`, `FLAG_VALUE_1` ->
`FlagValue1`), fields and modules snake_case (`orderId` -> `order_id`), flags constants and enum
aliases SCREAMING_SNAKE_CASE, as rustc's lints want them. An identifier that clashes in its scope
gets a trailing underscore, another while it still clashes (base.scope_idents). The scopes:

* a package's module: its types, clear of Rust's keywords and the names the generated code uses
  unqualified (`Option`, `Vec`, `Default`, `BTreeMap`...);
* a struct: its fields (inherited ones first), clear of the keywords and of the locals of the
  generated readers (`r`, `b`, `n`...);
* an enum: its variants, clear of `Unknown` (the arm of values the schema does not name); its
  aliases (a second name of a value) are associated constants;
* a flags type: its constants.

JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

import re

from fbec.model import ir
from fbec.targets.base import TableIdents, scope_idents

KEYWORDS = frozenset({
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct",
    "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract",
    "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
    "gen", "union",
})
# Names the generated code uses unqualified in a module: a type of such a name is renamed.
MODULE_USES = frozenset({"Option", "Some", "None", "Vec", "Default", "Result", "Ok", "Err", "Clone", "Copy",
                         "Debug", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "BTreeMap", "BTreeSet",
                         "HashMap", "fbe", "std", "String", "Box", "Sized", "Reader", "Writer",
                         "DecodeError", "EncodeError"})
# Locals and parameters of the generated readers and writers: a field of such a name is renamed.
LOCALS = frozenset({"r", "w", "b", "n", "v", "base", "slot", "present"})


def words(name: str) -> list[str]:
    """The words of a name: split at underscores and at each change to upper case."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    return [w for w in re.split(r"[_\s]+", spaced) if w]


def camel(name: str) -> str:
    out = "".join(w[:1].upper() + w[1:].lower() if w.isupper() or w.islower() else w[:1].upper() + w[1:]
                  for w in words(name))
    return out if out[:1].isalpha() else "X" + out


def snake(name: str) -> str:
    out = "_".join(w.lower() for w in words(name))
    return out if out[:1].isalpha() or out[:1] == "_" else "x" + out


def screaming(name: str) -> str:
    return snake(name).upper()


def escape(ident: str) -> str:
    return ident + "_"


class Idents(TableIdents):
    """The identifiers of one schema's generated Rust code."""

    def __init__(self, schema: ir.Schema) -> None:
        super().__init__()
        self.modules = scope_idents(((p.name, snake(p.name)) for p in schema.packages),
                                    lambda x: x in KEYWORDS or x in MODULE_USES)
        for p in schema.packages:
            self.scope_types(p, camel, lambda x: x in KEYWORDS or x in MODULE_USES)
            for s in p.structs:
                self.scope(self.fields, s.qualified, ((f.name, snake(f.name)) for f in s.all_fields),
                           lambda x: x in KEYWORDS or x in LOCALS or re.fullmatch(r"run\d+", x) is not None)
            for e in p.enums:
                first = first_names(e)
                self.scope(self.values, e.qualified,
                           [(v.name, camel(v.name) if v.name in first else screaming(v.name)) for v in e.values],
                           lambda x: x in KEYWORDS or x == "Unknown")
            for e in p.flags:
                self.scope(self.values, e.qualified, ((v.name, screaming(v.name)) for v in e.values),
                           lambda x: x in KEYWORDS)

    def module(self, package: str) -> str:
        return self.modules[package]


def first_names(e: ir.Enum) -> set[str]:
    """The names of an enum that are the first declared with their value: its variants."""
    seen: dict[int, str] = {}
    for v in e.values:
        seen.setdefault(v.value, v.name)
    return set(seen.values())
