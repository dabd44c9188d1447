"""How a schema name becomes a C++ identifier: the one place of the target's renaming rule
(docs/cpp.md "Names", docs/targets.md "Names").

A name keeps its spelling unless it clashes in its scope; then it gets a trailing underscore,
another while the result still clashes (base.scope_idents). What clashes everywhere: the C++20
keywords and alternative tokens, the names the generated code uses unqualified (`std`, `FBE`,
the <cstdint> types), every macro of the headers it includes (macros.py) and any name C++
reserves to the implementation, which may be a macro (`__FILE__`, `_Exit`: a leading underscore
followed by an upper-case letter or another underscore). The scopes:

* a namespace (one schema package): its types (an enum's constants are scoped by it);
* a struct: its fields, clear of the struct's member functions (`swap`, `string`, `fbe_type`),
  of the struct's own name (C++ does not allow a member of it) and of its base's fields;
* a struct's field model (`FBE::FieldModel<TBuffer, S>`): the fields' identifiers, clear of the
  field model's own members (`get`, `set`, `parent`, `fbe_size`...: FIELD_MODEL_MEMBERS);
* an enum or flags type: its values;
* the models' namespace `FBE::<package>`: each struct's `<Struct>Model` and `<Struct>FinalModel`
  (the struct's C++ name before it), clear of the protocol classes there (`Sender`, `Client`...)
  and of each other (`AFinal`'s model and `A`'s final model are both `AFinalModel`: the second
  gets the underscore).

The generator works inside `naming(schema)` (cpp.generate opens it): the identifiers of its
schema; outside one (a helper called on its own), names are only escaped from the reserved words.
A namespace name is the package's name escaped from the reserved words. JSON member names and the
text form keep the schema's names.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fbec.model import ir
from fbec.targets.base import ScopedIdents, scope_idents
from fbec.targets.cpp.macros import STANDARD_MACROS

# C++20 keywords and alternative tokens, the standard library's names the generated code uses
# unqualified, and the standard macros that would replace a name.
RESERVED = frozenset([
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
    "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete", "do", "double",
    "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
    "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "return", "short",
    "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "assert", "errno", "EOF", "NULL", "stdin",
    "stdout", "stderr", "offsetof",
    # names the generated code uses without qualification (`std::`, `FBE::`, the <cstdint> types)
    "std", "FBE", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "size_t", "ptrdiff_t", "nullptr_t",
]) | STANDARD_MACROS
# Member functions of every generated struct: a field may not take their name.
STRUCT_MEMBERS = frozenset({"swap", "string", "fbe_type"})
# Members of a struct's field model and view (runtime field_model.h and view.h, field_models.py): a
# field's model and its view's accessor may not take their name.
FIELD_MODEL_MEMBERS = frozenset({
    "parent", "get", "set", "verify", "value", "has_value", "size", "empty", "resize", "set_begin", "set_end",
    "get_begin", "get_end", "fbe_offset", "fbe_shift", "fbe_unshift", "fbe_buffer", "fbe_size", "fbe_extra",
    "fbe_type", "fbe_body", "fbe_limit", "body_limit", "shared_body", "slot", "block", "allocate", "relative",
    "read_value", "verify_value", "write_value", "FieldModel", "StructModel", "ValueModel", "FieldModelBase",
    "other",
    # the views' (runtime view.h, View<S> in field_models.py)
    "fbe_body_size", "fbe_field", "fbe_part", "View", "StructView", "ViewBase", "kAbsent", "Verified",
    "VerifiedView",
})
# The protocol classes of a package's FBE::<package> namespace (--proto): the models yield to them.
PROTOCOL_CLASSES = frozenset({"Sender", "Receiver", "Proxy", "Client", "FinalSender", "FinalReceiver",
                              "FinalClient"})


def implementation_reserved(name: str) -> bool:
    """C++ reserves a name with a leading underscore and an upper-case letter or another underscore
    (the compiler's and library's own macros are spelled so: `__FILE__`, `__linux__`, `_GNU_SOURCE`)."""
    return name[:1] == "_" and (name[1:2] == "_" or name[1:2].isupper())


def reserved(name: str) -> bool:
    """Whether a schema name is renamed wherever it is used as written."""
    return name in RESERVED or implementation_reserved(name)


def escape(name: str) -> str:
    """A schema name as a C++ identifier where nothing but the reserved words can clash (a
    namespace; every name outside naming())."""
    return name + "_" if reserved(name) else name


def _scope(names: list[str]) -> dict[str, str]:
    """The identifiers of the names of one scope: a renamed one (`__FILE__` -> `__FILE___`) is no
    longer reserved to the implementation, so only the schema's own names are checked for that."""
    originals = {name for name in names if implementation_reserved(name)}

    def taken(x: str) -> bool:
        return x in RESERVED or x in originals

    return scope_idents(((name, name) for name in names), taken)


class Idents(ScopedIdents):
    """The identifiers of one schema's names, each scope worked out once, when first asked."""

    def _package_scope(self, p: ir.Package) -> dict[tuple[str, ...], str]:
        """A namespace's types and the models' namespace `FBE::<package>`: each struct's `<Struct>Model` and
        `<Struct>FinalModel` (keyed ("model", name, "final" or "")), clear of the protocol classes there."""
        types = _scope([e.name for e in (*p.enums, *p.flags)] + [s.name for s in p.structs])
        wanted = [(("model", s.name, final), types[s.name] + ("FinalModel" if final else "Model"))
                  for final in ("", "final") for s in p.structs]
        models: dict[tuple[str, ...], str] = scope_idents(wanted, PROTOCOL_CLASSES.__contains__)
        return {**{("type", name): ident for name, ident in types.items()}, **models}

    def type(self, qualified: str) -> str:
        """A type's C++ name in its namespace."""
        return self.declared("type", qualified)

    def model(self, qualified: str, final: bool = False) -> str:
        """A struct's model class in FBE::<package> (`OrderModel`, final: `OrderFinalModel`)."""
        return self.declared("model", qualified, "final" if final else "")

    def field(self, f: ir.Field) -> str:
        """A field's data member (in every struct that has it: the struct that declares it decides), clear of
        the struct's member functions and of its own name (C++ allows no member of it)."""
        return self.field_ident(f, str, lambda s: RESERVED | STRUCT_MEMBERS | {self.type(s.qualified)}
                                | {g.name for g in s.fields if implementation_reserved(g.name)})

    def field_model(self, f: ir.Field) -> str:
        """A field's model in its struct's field model (`model.id`): the field's identifier, clear of
        the field model's own members (`get`, `set`, `parent`...)."""
        # (the fields' identifiers are clear of the reserved words already; a renamed one such
        # as `__FILE___` would stay reserved to the implementation however long it grew)
        return self.scope("field model", f.owner, lambda: scope_idents(
            ((g.name, self.field(g)) for g in self.schema.struct(f.owner).fields),
            lambda x: x in FIELD_MODEL_MEMBERS or x in RESERVED))[f.name]

    def value(self, qualified: str, name: str) -> str:
        """An enum or flags value's constant in its type."""
        values = self.scope("values", qualified, lambda: _scope([v.name for v in self.schema.enum(qualified).values]))
        return values[name]


_active: list[Idents] = []


@contextmanager
def naming(schema: ir.Schema) -> Iterator[Idents]:
    """The identifiers of `schema`'s names for the generator functions called inside (cpp.generate)."""
    _active.append(Idents(schema))
    try:
        yield _active[-1]
    finally:
        _active.pop()


def current() -> Idents | None:
    """The naming the generator works in (None outside naming())."""
    return _active[-1] if _active else None
