"""How a schema name becomes a Python identifier: the one place of the target's renaming rule
(docs/python.md "Names", docs/targets.md "Names").

A name keeps its spelling unless it clashes in its scope; then it gets a trailing underscore,
another while the result still clashes (base.scope_idents). The scopes:

* a module (one schema package): its classes, clear of Python's keywords, the builtins and the
  imported names the generated code uses (`len`, `sorted`, `int`, `fbe`, `Decimal`, `Any`...),
  its own module names (`PACKAGE`, `VERSION`, `FINGERPRINT`, the protocol classes) and the locals of its
  functions (one or two lower-case letters, numbered or not: `v`, `p`, `t1`, `o4h`; and `data`,
  `value`...), which would hide a class inside them; the names the generated code makes from a
  type's (`fbe_vr_Order`, `FBE_M_Side`, `pkg_market`) start with `fbe_`, `FBE_` or `pkg_`: a
  class named so gets an `X` in front. Then each struct's model classes (`<Name>Model`, `<Name>FinalModel`), which
  yield to the classes;
* a struct's class: its fields (attributes and keyword arguments of `__init__`), clear of the
  keywords, the class's members (`to_fbe`, `from_json`, `fbe_fields`, `clone`...), the names its
  class body and `__init__` use (`self`, `int`, `ClassVar`, `fbe`, and what the hints of its
  fields use: `str`, `list`, `dict`, a class of the module, an imported module's `pkg_` alias, and
  its own class's name: Python takes a name in a class body for the class's attribute first),
  Python's special names (`__init__`, `__slots__`...) and names Python would mangle (`__x`: renamed
  `__x__`); a base class's fields are the derived class's too. A default made in `__init__` calls
  what a field hides there (`range`, an inherited field's name) through a module alias (types.py);
* an enum or flags class: its members, clear of the keywords, `name`, `value`, `mro`, `has_flags`,
  `fbe_names`, int's attributes (`real`, `imag`...), the class's own name and the names Enum keeps
  for itself (`_x_`, `__x__`, and `__x`, which gets an `m` in front); its class body uses no name.

A module (file) name: a keyword, or a module the generated code imports, gets a trailing
underscore. JSON member names and the text form keep the schema's names.
"""

from __future__ import annotations

import keyword
import re

from fbec.model import ir
from fbec.targets.base import ScopedIdents, scope_idents

PRIM_HINT = {
    "bool": "bool", "byte": "int", "char": "int", "wchar": "int", "int8": "int", "uint8": "int",
    "int16": "int", "uint16": "int", "int32": "int", "uint32": "int", "int64": "int", "uint64": "int",
    "float": "float", "double": "float", "timestamp": "int", "string": "str", "bytes": "bytes",
}

KEYWORDS = frozenset(keyword.kwlist)
# Names the generated code imports (and the module names it imports them from).
IMPORTED = frozenset({"fbe", "uuid", "Decimal", "struct", "typing", "Any", "ClassVar", "Callable", "annotations"})
# The builtins the generated module uses: its readers' and writers' calls (the JSON and text forms, the
# final writer and the depth walk are compiled by the runtime, in their own namespace) and its hints.
BUILTINS = frozenset({
    "bool", "bytearray", "bytes", "dict", "enumerate", "float", "frozenset", "int", "len", "list", "range", "set",
    "sorted", "str", "tuple", "type",
})
# What every generated struct class body and its __init__ use by name, whatever its fields, besides the
# hints of its fields (hint_names): `fbe_type: ClassVar[int]`, `self`, and `fbe` (`fbe.DEFAULT`, the
# marker of an optional made per instance); a field of such a name would hide it there. (A default made
# per instance names what a field hides through an alias: types.py, FBE_R_<name>.) Its readers, writers,
# JSON, text form and depth walk run outside it (the module's functions, or the runtime's, compiled in
# their own namespace: fbe.source). An enum or flags class body uses no name.
STRUCT_BODY = frozenset({"fbe", "ClassVar", "int", "self"})
# Module-level names of generated code.
MODULE_NAMES = frozenset({"PACKAGE", "VERSION", "FINGERPRINT", "Sender", "Receiver", "Proxy", "Client", "FinalSender",
                          "FinalReceiver", "FinalClient"})
# Locals and parameters of generated functions (with LOCAL below).
LOCALS = frozenset({"self", "cls", "end", "data", "encode", "other", "value", "limits", "text", "flags", "model",
                    "buffer", "offset", "size"})
LOCAL = re.compile(r"[a-z]{1,2}[0-9]*[hvo]?")
GENERATED_PREFIX = ("fbe_", "FBE_", "pkg_")
# Members of generated struct classes (and of fbe.Struct).
STRUCT_MEMBERS = frozenset({"to_fbe", "from_fbe", "to_final", "from_final", "to_json", "from_json", "fbe_fields",
                            "fbe_type", "fbe_spec", "fbe_codec", "fbe_key", "fbe_order", "fbe_equal", "clone",
                            "fbe_copy"})
# Members of generated enum and flags classes, of Python's Enum and of int (their base) that a member
# may not take.
ENUM_MEMBERS = frozenset({"name", "value", "mro", "has_flags", "fbe_names", "real", "imag", "numerator", "denominator",
                          "conjugate", "bit_length", "bit_count", "to_bytes", "from_bytes", "as_integer_ratio",
                          "is_integer"})
# Python's special names a class has or uses (a field of such a name would replace them).
SPECIAL = frozenset({
    "__class__", "__delattr__", "__dir__", "__doc__", "__eq__", "__format__", "__ge__", "__getattribute__",
    "__getstate__", "__gt__", "__hash__", "__init__", "__init_subclass__", "__le__", "__lt__", "__ne__", "__new__",
    "__reduce__", "__reduce_ex__", "__repr__", "__setattr__", "__sizeof__", "__str__", "__subclasshook__",
    "__slots__", "__dict__", "__weakref__", "__module__", "__qualname__", "__annotations__", "__match_args__",
    "__class_getitem__", "__set_name__", "__get__", "__set__", "__delete__", "__call__", "__len__", "__iter__",
    "__next__", "__contains__", "__getitem__", "__setitem__", "__delitem__", "__bool__", "__enter__", "__exit__",
    "__copy__", "__deepcopy__", "__setstate__", "__index__", "__int__", "__float__", "__missing__", "__fspath__",
    "__await__", "__aiter__", "__anext__", "__aenter__", "__aexit__",
})
# What a class of the module may not be named (besides LOCAL's pattern and the generated prefixes).
TYPE_TAKEN = KEYWORDS | IMPORTED | BUILTINS | MODULE_NAMES | LOCALS
MODULES = KEYWORDS | frozenset({"fbe", "struct", "uuid", "typing", "collections", "decimal", "enum"})
"""What a package's module may not be named: a keyword could not be imported, and a module the
generated code imports (the runtime, the standard library's) would be shadowed by it."""


def module_name(package: str) -> str:
    """The module (file) name of a schema package."""
    while package in MODULES:
        package += "_"
    return package


def hint_names(t: ir.Type, idents: Idents, package: str) -> set[str]:
    """The names a field's type hint (Context.hint) and its default use, in the module of `package`."""
    if isinstance(t, ir.Primitive):
        return {"uuid" if t.name == "uuid" else "Decimal" if t.name == "decimal" else PRIM_HINT[t.name]}
    if isinstance(t, (ir.EnumRef, ir.StructRef)):
        pkg = t.name.rpartition(".")[0]
        return {idents.type(t.name) if pkg == package else "pkg_" + pkg}
    if isinstance(t, ir.Optional_):
        return hint_names(t.element, idents, package)
    if isinstance(t, (ir.Array, ir.Sequence)):
        outer = "set" if isinstance(t, ir.Sequence) and t.kind == "set" else "list"
        return {outer} | hint_names(t.element, idents, package)
    return {"dict"} | hint_names(t.key, idents, package) | hint_names(t.value, idents, package)


def _mangled(name: str) -> bool:
    """Python rewrites `__x` (not `__x__`) in a class body to `_Class__x`."""
    return name.startswith("__") and not name.endswith("__")


def _type_taken(name: str) -> bool:
    return name in TYPE_TAKEN or LOCAL.fullmatch(name) is not None or name.startswith(GENERATED_PREFIX)


def _type_escape(name: str) -> str:
    """A renamed class: an `X` in front of a name that starts like the generated code's own
    (`fbe_vr_Order` -> `Xfbe_vr_Order`), a trailing underscore after any other."""
    return "X" + name if name.startswith(GENERATED_PREFIX) else name + "_"


def _enum_escape(name: str) -> str:
    return "m" + name if name.startswith("__") else name + "_"


def _enum_reserved(name: str) -> bool:
    """The names Enum does not make members: _sunder_, __dunder__ and __private."""
    sunder = len(name) > 2 and name[0] == "_" and name[1] != "_" and name[-1] == "_" and name[-2] != "_"
    dunder = len(name) > 4 and name.startswith("__") and name.endswith("__")
    return sunder or dunder or _mangled(name)


class Idents(ScopedIdents):
    """The identifiers of one schema's names, each scope worked out once, when first asked."""

    def _package_scope(self, p: ir.Package) -> dict[tuple[str, ...], str]:
        names = [e.name for e in (*p.enums, *p.flags)] + [s.name for s in p.structs]
        types = scope_idents(((name, name) for name in names), _type_taken, _type_escape)
        out: dict[tuple[str, ...], str] = {("type", k): v for k, v in types.items()}
        given = set(types.values())
        models = [(("model", s.name), s.name + "Model") for s in p.structs]
        models += [(("final", s.name), s.name + "FinalModel") for s in p.structs]
        out.update(scope_idents(models, lambda x: _type_taken(x) or x in given, _type_escape))
        return out

    def type(self, qualified: str) -> str:
        """A type's class name in its module."""
        return self.declared("type", qualified)

    def model(self, qualified: str, final: bool = False) -> str:
        """A struct's model class (`OrderModel`, final: `OrderFinalModel`) in its module."""
        return self.declared("final" if final else "model", qualified)

    def field(self, f: ir.Field) -> str:
        """A field's attribute name (in every class that has it: the struct that declares it decides)."""
        return self.scope("fields", f.owner, lambda: self._fields(self.schema.struct(f.owner)))[f.name]

    def _fields(self, s: ir.Struct) -> dict[str, str]:
        package = s.qualified.rpartition(".")[0]
        taken = set(KEYWORDS | STRUCT_MEMBERS | STRUCT_BODY | SPECIAL) | {self.type(s.qualified)}
        for g in s.all_fields:
            taken |= hint_names(g.type, self, package)
        if s.base is not None:
            taken |= {self.field(g) for g in self.schema.struct(s.base).all_fields}

        def clashes(name: str) -> bool:
            return name in taken or _mangled(name)

        return scope_idents(((g.name, g.name) for g in s.fields), clashes)

    def handler(self, package: str, qualified: str) -> str:
        """What a protocol handler method of the package's Receiver and Proxy is named after
        (`on_receive_<it>`): a message's name in lower case, `<package>_` before an imported one's,
        clear of each other (messages `Self` and `self`: `self` and `self_`)."""
        def make() -> dict[str, str]:
            wanted = []
            for d in self.schema.package(package).dispatch:
                pkg, _, name = d.type.rpartition(".")
                wanted.append((d.type, name.lower() if pkg == package else f"{pkg}_{name.lower()}"))
            return scope_idents(wanted, lambda x: False)

        return self.scope("handlers", package, make)[qualified]

    def value(self, qualified: str, name: str) -> str:
        """An enum or flags value's member name in its class."""
        def make() -> dict[str, str]:
            taken = KEYWORDS | ENUM_MEMBERS | {self.type(qualified)}

            def clashes(x: str) -> bool:
                return x in taken or _enum_reserved(x)

            wanted = ((v.name, v.name) for v in self.schema.enum(qualified).values)
            return scope_idents(wanted, clashes, _enum_escape)

        return self.scope("values", qualified, make)[name]
