"""What the Go target's modules share, a leaf they all import: the Context of one generated file
(its GeneratedFile, the plan, the identifiers of schema names) and the Go spelling of IR types,
defaults and comparisons."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, DefaultLiterals, GeneratedFile, quoted
from fbec.targets.go.names import Idents, package_name

RUNTIME = "github.com/fbe-toolkit/fbe/runtime/go/fbe"
GO_MODULE = "fbegen"
"""The module path the generated packages import each other under (the output folder's module)."""

GO_PRIMITIVES = {
    "bool": "bool", "byte": "byte", "char": "byte", "wchar": "uint32", "int8": "int8", "uint8": "uint8",
    "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64",
    "uint64": "uint64", "float": "float32", "double": "float64", "string": "string", "bytes": "[]byte",
}
RUNTIME_PRIMITIVES = {"timestamp": "Timestamp", "uuid": "UUID", "decimal": "Decimal"}


class Context(DefaultLiterals):
    """What one generated file needs: its package, its GeneratedFile (imports by use, the names the
    file declares) and the Go names of IR types."""

    def __init__(self, schema: ir.Schema, package: ir.Package) -> None:
        self.schema = schema
        self.package = package
        self.ident = Idents(schema)               # the identifiers of schema names (names.py)
        taken = self.ident.package_names(package.name)
        name = package_name(package.name)
        # what the file declares (the protocol's types) is clear of the schema's names and their New<T>
        self.file = GeneratedFile(f"{name}/{name}.go", taken=lambda x: x in taken or "New" + x in taken)
        self.plan = plan.of(schema)
        self.can_fail: dict[str, bool] = {}
        """Per struct, whether writing it can fail (models.can_fail)."""
        self.depth_checked = False
        """Whether the writer being generated counts its level (nesting.check)."""
        self.levels_walks = frozenset(s.qualified for s in self.plan.depth_walk(package.name) if s.height)
        """The structs of the plan's depth walk that are bounded and hold structs (height neither None nor 0):
        their levels are counted by an fbeLevels walk (nesting.write_levels), not fixed by their height."""

    def rt(self, member: str) -> str:
        return self.file.qualified(RUNTIME, member, "fbe")

    def named(self, qualified: str) -> str:
        """A named schema type, qualified by its Go package when imported."""
        return self.qualify(qualified, self.ident.type(qualified))

    def qualify(self, qualified: str, ident: str) -> str:
        """An identifier of the package of a schema name (`qualified`), qualified by its Go package
        when that is not this one."""
        pkg = qualified.rpartition(".")[0]
        if pkg == self.package.name:
            return ident
        return self.file.qualified(f"{GO_MODULE}/{pkg}", ident, package_name(pkg))

    def key_fields(self, t: ir.StructRef) -> tuple[ir.Field, ...]:
        return self.schema.struct(t.name).key_fields

    def key_type(self, t: ir.Type, outer: frozenset[str] = frozenset()) -> str | None:
        """The comparable Go type a set element, map key or [key] field of type t is compared by
        (docs/limits.md 4): bytes by their value, an optional as "null" or its value's key, a
        struct by its [key] fields, a struct without them as the one key every value shares.
        None when a struct's key holds the struct itself (no Go type can)."""
        if self.comparable(t):
            return self.type(t)
        if isinstance(t, ir.Primitive):
            return "string"
        if isinstance(t, ir.Optional_):
            inner = self.key_type(t.element, outer)
            return None if inner is None else f"{self.rt('MaybeKey')}[{inner}]"
        if not isinstance(t, ir.StructRef) or t.name in outer:
            return None
        fields = self.key_fields(t)
        types = [self.key_type(f.type, outer | {t.name}) for f in fields]
        if any(k is None for k in types):
            return None
        if not types:
            return "struct{}"
        return types[0] if len(types) == 1 else self.key_name(t)

    def key_name(self, t: ir.StructRef) -> str:
        """The struct type a key of several fields is held in: <Name>Key (<Name>FBEKey when the
        schema has a type of that name)."""
        return self.qualify(t.name, self.ident.key_type(t.name))

    def key_func(self, t: ir.Type) -> str | None:
        """The function fbe.RepeatedKey compares elements of type t by (t not comparable), or
        None when t's key has no Go type (key_type)."""
        return self._by_key(t, "BytesKey", "FBEKey", "SameKey")

    def order_func(self, t: ir.Type) -> str | None:
        """The function ordering elements of type t (t not comparable) as the wire does, by their
        key (docs/ir.md "order"): bytes by their bytes, a struct by its [key] fields in turn
        (FBEKeyCompare), structs without [key] fields all equal; None when t has no key_func."""
        return self._by_key(t, "CompareBytes", "FBEKeyCompare", "CompareSame")

    def _by_key(self, t: ir.Type, of_bytes: str, method: str, of_keyless: str) -> str | None:
        """A function of elements of type t by their key: the runtime's `of_bytes` for bytes, a
        struct's `method` over its [key] fields, the runtime's `of_keyless` for a struct without."""
        if isinstance(t, ir.Primitive):
            return self.rt(of_bytes)
        if not isinstance(t, ir.StructRef) or self.key_type(t) is None:
            return None
        if self.key_fields(t):
            return f"(*{self.type(t)}).{method}"
        return f"{self.rt(of_keyless)}[{self.type(t)}]"

    def compare_of(self, t: ir.Type, a: str, b: str) -> str | None:
        """The expression ordering [key] field values a and b of type t (negative, 0, positive) in
        the wire order; None when every value is the same key (a struct without [key] fields)."""
        if isinstance(t, (ir.Primitive, ir.EnumRef)):
            return f"{compare(self, t, False)}({a}, {b})"
        if isinstance(t, ir.Optional_):
            if isinstance(t.element, ir.StructRef):
                return f"{self.rt('CompareOptionalOf')}({a}, {b}, {self.order_func(t.element)})"
            return f"{self.rt('CompareOptional')}({a}, {b}, {compare(self, t.element)})"
        assert isinstance(t, ir.StructRef), t
        return f"{a}.FBEKeyCompare(&{b})" if self.key_fields(t) else None

    def key_of(self, t: ir.Type, value: str) -> str:
        """The key (of type key_type(t)) of a [key] field's value: a decimal normalized, the same
        key as every decimal of its value (docs/limits.md 4)."""
        if isinstance(t, ir.Primitive) and t.name == "decimal":
            return f"{value}.Normalize()"
        if self.comparable(t):
            return value
        if isinstance(t, ir.Optional_):
            e = t.element
            if isinstance(e, ir.Primitive) and e.name == "decimal":
                return f"{self.rt('OptionalKeyOf')}({value}, {self.rt('DecimalKey')})"
            if self.comparable(e):
                return f"{self.rt('OptionalKey')}({value})"
            return f"{self.rt('OptionalKeyOf')}({value}, {self.key_func(t.element)})"  # key_type is not None
        if isinstance(t, ir.Primitive):
            return f"string({value})"
        assert isinstance(t, ir.StructRef), t
        return f"{value}.FBEKey()" if self.key_fields(t) else "struct{}{}"

    def comparable(self, t: ir.Type) -> bool:
        """Whether a Go map can be keyed by the type (bytes and structs cannot)."""
        if isinstance(t, ir.Primitive):
            return t.name != "bytes"
        return isinstance(t, ir.EnumRef)

    def type(self, t: ir.Type) -> str:
        """One isinstance per IR dataclass."""
        if isinstance(t, ir.Primitive):
            if t.name in RUNTIME_PRIMITIVES:
                return self.rt(RUNTIME_PRIMITIVES[t.name])
            return GO_PRIMITIVES[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            return "*" + self.type(t.element)
        if isinstance(t, ir.Array):
            return f"[{t.length}]{self.type(t.element)}"
        if isinstance(t, ir.Sequence):
            return "[]" + self.type(t.element)
        if self.comparable(t.key):
            return f"map[{self.type(t.key)}]{self.type(t.value)}"
        return f"[]{self.rt('Pair')}[{self.type(t.key)}, {self.type(t.value)}]"

    def enum_value(self, enum: str, name: str) -> str:
        """The Go constant of an enum or flags value."""
        return self.qualify(enum, self.ident.constant(enum, name))

    def flags_default(self, flags: str, value: int) -> str:
        return f"{self.named(flags)}({value})"

    def made_default(self, kind: str) -> str:
        return f"{self.rt({'utc': 'UTC', 'uuid1': 'NewUUID1', 'uuid4': 'NewUUID4'}[kind])}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        return str(value)

    def real_default(self, t: ir.Type, text: str) -> str:
        return f'{self.rt("MustDecimal")}("{text}")' if isinstance(t, ir.Primitive) and t.name == "decimal" else text

    def string_default(self, text: str) -> str:
        return go_string(text)

    def uuid_default(self, uuid: str) -> str:
        return f'{self.rt("MustUUID")}("{uuid}")'


def go_string(text: str) -> str:
    """A Go interpreted string literal of text (valid UTF-8 kept, the rest escaped)."""
    return quoted(text, lambda o: f"\\x{o:02x}", lambda ch: "\\uFFFD" if 0xD800 <= ord(ch) <= 0xDFFF else ch)


def aligned(w: CodeWriter, rows: list[list[str]]) -> None:
    """Rows of cells in columns as gofmt aligns them (each cell but the last padded to its column)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for row in rows:
        w.line(" ".join([cell.ljust(n) for cell, n in zip(row, widths)] + [row[-1]]).rstrip())


ZEROS = {"bool": "false", "string": '""', "bytes": "nil"}
"""The zero value of a primitive not a number (uuid and decimal: their type's {})."""


def zero(c: Context, t: ir.Type) -> str:
    if isinstance(t, ir.Primitive) and t.name not in ("uuid", "decimal"):
        return ZEROS.get(t.name, "0")
    return "0" if isinstance(t, ir.EnumRef) else c.type(t) + "{}"


COMPARE_FUNCS = {"char": "CompareChar", "bool": "CompareBool", "uuid": "CompareUUID", "decimal": "CompareDecimal"}
"""The primitives Go compares with == but whose wire order is not Go's < (char signed, bool, uuid,
decimal): the runtime function ordering each."""


def compare_func(c: Context, t: ir.Type) -> str | None:
    """The runtime function ordering t when Go's < does not (COMPARE_FUNCS); None for the others
    (integers, floats, strings, timestamps, enums and flags: < is their order)."""
    if isinstance(t, ir.Primitive) and t.name in COMPARE_FUNCS:
        return c.rt(COMPARE_FUNCS[t.name])
    return None


def compare(c: Context, t: ir.Type, generic: bool = True) -> str:
    """The comparison function ordering values of the primitive or enum type t in the wire order (ir.PRIMITIVES
    order): bytes by their bytes, compare_func's, else cmp.Compare (with its type argument unless `generic` is
    False, where a call infers it)."""
    if isinstance(t, ir.Primitive) and t.name == "bytes":
        return c.file.qualified("bytes", "Compare")
    return compare_func(c, t) or c.file.qualified("cmp", "Compare") + (f"[{c.type(t)}]" if generic else "")


def braced(w: CodeWriter, opening: str, *body: str) -> None:
    """`opening`, the lines body one level deeper and `}`."""
    with w.block(opening, "}"):
        w.lines("\n".join(body))


def leave(w: CodeWriter, cond: str, unwind: list[str], *first: str) -> None:
    """`if cond {`: the lines `first`, then the path named on the way out (unwind: the Unwind calls,
    innermost first) and return."""
    braced(w, f"if {cond} {{", *first, *unwind, "return")


def entered(w: CodeWriter, cond: str, leave_call: str) -> None:
    """`if cond { return }`, then `defer leave_call`: a step in (depth, a struct's budget) that the
    function leaves on its way out."""
    leave(w, cond, [])
    w.line(f"defer {leave_call}")


@contextmanager
def decl(w: CodeWriter, doc: str | list[str], opening: str) -> Iterator[None]:
    """A documented declaration: its doc comment's lines, `opening`, the lines written inside one
    level deeper, `}` and a blank line."""
    w.lines(doc if isinstance(doc, str) else "\n".join(doc))
    with w.block(opening, "}"):
        yield
    w.blank()


def one_line(w: CodeWriter, doc: str, declaration: str) -> None:
    """A documented declaration of one line, and a blank line."""
    w.lines(doc)
    w.line(declaration)
    w.blank()


def declared(w: CodeWriter, doc: str | list[str], opening: str, *body: str) -> None:
    """A documented declaration (decl) of the lines body (as CodeWriter.lines: "" writes nothing, "\\nx" a
    blank line and x)."""
    with decl(w, doc, opening):
        for line in body:
            w.lines(line)


def write_imports(w: CodeWriter, modules: dict[str, str]) -> None:
    """The import block of a file's modules (GeneratedFile.modules: module -> qualifier): the standard
    library's, then the others, each sorted; a module named otherwise than its last part is named."""
    if not modules:
        return
    std = sorted(m for m in modules if "." not in m.partition("/")[0] and m.partition("/")[0] != GO_MODULE)
    other = sorted(set(modules) - set(std))
    with w.block("import (", ")"):
        for m in std + [""] + other if std and other else std + other:
            w.line(m and (f'"{m}"' if modules[m] == m.rpartition("/")[2] else f'{modules[m]} "{m}"'))
    w.blank()
