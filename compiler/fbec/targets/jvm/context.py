"""The context of one generated Java or Kotlin file: its package, its imports by use, the names
of IR types, and the syntax of each construct the shared walkers write (a leaf module: the
walkers and both languages import it, it imports neither).

`Context` holds what the languages share; each language subclasses it (java/syntax.py,
kotlin/syntax.py) with its spelling: a method per construct, returning the text of a line or an
expression (`val("n", "r.count()", "int")` is `int n = r.count();` in Java and
`val n = r.count()` in Kotlin), or writing lines where the languages lay a construct out
differently (`optional`, `claim_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, Options
from fbec.targets.jvm.names import Idents

RUNTIME = "io.github.fbetoolkit.fbe"

# Primitive -> the suffix of its Writer put/append and Reader final methods, and its Reader slot method.
SLOT = {
    "bool": ("Bool", "bool"), "byte": ("I8", "i8"), "int8": ("I8", "i8"), "uint8": ("I8", "i8"),
    "char": ("Char", "ch"), "wchar": ("I32", "i32"), "int16": ("I16", "i16"), "uint16": ("I16", "i16"),
    "int32": ("I32", "i32"), "uint32": ("I32", "i32"), "int64": ("I64", "i64"), "uint64": ("I64", "i64"),
    "timestamp": ("I64", "i64"), "float": ("F32", "f32"), "double": ("F64", "f64"),
    "uuid": ("Uuid", "uuid"), "decimal": ("Decimal", "decimal"),
}
# Keys whose equality (equals/hashCode) is the readers' rule of the same key (docs/limits.md 4): a
# hash of them is a LinkedHashMap whose own check suffices. Bytes (identity), decimals (1.5 and
# 1.50 differ), floats (-0.0 and 0.0 differ) are hashes in a TreeMap of their order, and structs
# (a subclass is another class) are checked by the writers too.
HASHED = frozenset({
    "bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "timestamp", "string", "uuid",
})


def signed(value: int, bits: int) -> int:
    """value as the signed integer of its bits (the runtime holds unsigned wire integers in signed types)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def string_literal(text: str, escaped: str = '"\\') -> str:
    """A string literal of text, ASCII only (every other char as a \\u escape); the chars of
    `escaped` get a backslash (Kotlin's `$` too)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch in escaped:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append(f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}")
        else:
            out.append(f"\\u{o:04x}")
    return '"' + "".join(out) + '"'


class Names:
    """Fresh local variable names (Java forbids shadowing a local in a nested block, Kotlin warns)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


def plus(position: str, term: str) -> str:
    return f"{position} + {term}"


def holds_struct(t: ir.Type) -> bool:
    """A struct or an optional struct: its writer may throw from a nested struct."""
    return isinstance(t, ir.StructRef) or isinstance(t, ir.Optional_) and isinstance(t.element, ir.StructRef)


def reused_struct(t: ir.Type) -> bool:
    """A vector of structs: its elements are read in place (models.reuse_elements)."""
    return isinstance(t, ir.Sequence) and t.kind == "vector" and isinstance(t.element, ir.StructRef)


def kept(t: ir.Type) -> bool:
    """Whether verify reads the value to check it: a set or a map refuses a key twice, which takes
    the keys (such a field is read into a local, as deserialize reads it). Collections hold no
    collections, so only a field's own type can be one."""
    return isinstance(t, ir.Mapping) or isinstance(t, ir.Sequence) and t.kind == "set"


class SubWriter(CodeWriter):
    """Lines to be put into another writer `base` levels deep: its depth counts from there, so
    lines it measures (Kotlin's fits) know their real indentation."""

    def __init__(self, options: Options, base: int) -> None:
        super().__init__(options)
        self.base = base

    @property
    def depth(self) -> int:
        return self.base + super().depth


def sub(w: CodeWriter, deeper: int = 1) -> CodeWriter:
    """A writer of lines to be put into w `deeper` levels below its current depth (same indentation unit)."""
    unit = w.unit
    return SubWriter(Options(indent=len(unit), tabs=unit == "\t"), w.depth + deeper)


class Context:
    """What one generated file needs: its package, its imports by use, the language's names of IR
    types and its syntax (the methods a language defines are below the shared ones)."""

    IDENTS: ClassVar[type[Idents]]  # the language's names.Idents
    END: ClassVar[str]              # what ends a statement (Java's `;`)

    def __init__(self, schema: ir.Schema, package: ir.Package, prefix: str = "") -> None:
        self.schema = schema
        self.package = package
        self.prefix = prefix
        self.plan = plan.of(schema)
        self.imports: set[str] = set()
        self.ident = self.IDENTS(schema, prefix)       # the identifiers of schema names (names.py)
        self.hidden: frozenset[str] = frozenset()
        """The names inherited fields hide in the class being written (names.Idents.hidden)."""

    def use(self, qualified_class: str) -> str:
        """A class by its simple name, imported (`java.util.TreeSet` -> `TreeSet`)."""
        self.imports.add(qualified_class)
        return qualified_class.rpartition(".")[2]

    def rt(self, name: str) -> str:
        """A runtime class (`Writer`)."""
        return self.use(f"{RUNTIME}.{name}")

    def named(self, qualified: str) -> str:
        """A schema type: its simple name in its own package, fully qualified from another."""
        return self.ident.usable(qualified, self.package.name, self.hidden)

    def hashed(self, t: ir.Type) -> bool:
        """Whether a key of type t is the same key as another exactly when its equals says so."""
        return isinstance(t, ir.EnumRef) or isinstance(t, ir.Primitive) and t.name in HASHED

    def stmt(self, text: str) -> str:
        """A statement's line."""
        return text + self.END

    def guarded(self, w: CodeWriter, exception: str, statement: str, at: str) -> None:
        """statement (a nested struct's reader or writer) with the field path put in front of the
        errors of the runtime class `exception` (`e.at("orders", i)`)."""
        with w.block("try {", f"}} {self.catch(self.rt(exception))} {{"):
            w.line(self.stmt(statement))
        with w.block("", "}"):
            w.line(self.stmt(f"throw {at}"))

    # ------------------------------------------------------------ the language's syntax

    def type(self, t: ir.Type, boxed: bool = False) -> str:
        """The language's type of an IR type (boxed: as a type argument, Java's)."""
        raise NotImplementedError

    def comparator(self, t: ir.Type) -> str | None:
        """The order of set elements or map keys of type t: a Comparator expression, or natural."""
        raise NotImplementedError

    def empty(self, t: ir.Sequence | ir.Mapping) -> str:
        """A new empty collection of the field's kind."""
        raise NotImplementedError

    def zero(self, t: ir.Type) -> str:
        """The value of a field without a default (docs/ir.md `none`)."""
        raise NotImplementedError

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The initial value of a field of type t with default d."""
        raise NotImplementedError

    def catch(self, exception: str) -> str:
        """The catch clause of an exception as `e`."""
        raise NotImplementedError

    def val(self, name: str, expr: str, type_: str) -> str:
        """A new local that is not assigned again (type_: Java's declared type)."""
        raise NotImplementedError

    def var(self, name: str, expr: str, type_: str) -> str:
        """A new local assigned again later."""
        raise NotImplementedError

    def typed(self, name: str, expr: str, type_: str) -> str:
        """A new local of a declared type."""
        raise NotImplementedError

    def new(self, cls: str) -> str:
        """A new value of a class by its no-argument constructor."""
        raise NotImplementedError

    def size(self, collection: str) -> str:
        """A collection's size."""
        raise NotImplementedError

    def length(self, array: str) -> str:
        """An array's length."""
        raise NotImplementedError

    def get(self, lst: str, index: str) -> str:
        """A list's element."""
        raise NotImplementedError

    def put(self, mapping: str, key: str, value: str) -> str:
        """The statement putting a map entry."""
        raise NotImplementedError

    def key(self, entry: str) -> str:
        """A map entry's key."""
        raise NotImplementedError

    def value(self, entry: str) -> str:
        """A map entry's value."""
        raise NotImplementedError

    def entry_set(self, mapping: str) -> str:
        """What iterates a map's entries as its table holds them."""
        raise NotImplementedError

    def pick(self, test: str, yes: str, no: str) -> str:
        """A conditional expression."""
        raise NotImplementedError

    def as_long(self, expr: str) -> str:
        """An int expression where the runtime takes a long."""
        raise NotImplementedError

    def upto(self, i: str, n: str) -> str:
        """The head of a loop of i from 0 below n (the block's opening line)."""
        raise NotImplementedError

    def each(self, w: CodeWriter, x: str, t: ir.Array | ir.Sequence | ir.Mapping, items: str) -> str:
        """The head of a loop over items (elements of t, or its entries), x each."""
        raise NotImplementedError

    def if_(self, w: CodeWriter, test: str, statement: str) -> None:
        """One statement when test holds."""
        raise NotImplementedError

    def to_runtime(self, t: ir.Primitive | ir.EnumRef, value: str) -> str:
        """value as the runtime's type of the slot."""
        raise NotImplementedError

    def from_runtime(self, t: ir.Primitive | ir.EnumRef, expr: str) -> str:
        """The language's value of a runtime read."""
        raise NotImplementedError

    def local(self, w: CodeWriter, value: str, names: Names, stem: str = "o") -> str:
        """value where it is read more than once (Kotlin puts a property in a local to smart-cast it)."""
        raise NotImplementedError

    def keep(self, w: CodeWriter, value: str, t: ir.Type, names: Names, name: str | None, stem: str) -> str:
        """A map key read as a local (name: the one spare() gave, if any)."""
        raise NotImplementedError

    def spare(self, names: Names, stem: str) -> str | None:
        """A local's name taken before it is known to be needed (Java numbers them so)."""
        raise NotImplementedError

    def into(self, target: str) -> str | None:
        """Where an optional is read when read into target: target itself, or None (a new local)."""
        raise NotImplementedError

    def added(self, w: CodeWriter, value: str, target: str, refusal: str, names: Names) -> None:
        """Add value to the set target; refusal when it holds it already."""
        raise NotImplementedError

    def optional(self, w: CodeWriter, t: ir.Optional_, x: str, before: str | None, test: str,
                 read: Callable[[CodeWriter], str]) -> None:
        """Read an optional into the local (or target) x: `before` (a line), then when test holds
        the value read(w) returns (after the statements read writes), else null."""
        raise NotImplementedError

    def reuse_optional(self, w: CodeWriter, t: ir.StructRef, target: str, names: Names,
                       make: Callable[[CodeWriter], None]) -> str:
        """The struct target (an optional) holds, made when null (make: what comes first, the
        budget's check): the expression to read into."""
        raise NotImplementedError

    def claim_run(self, w: CodeWriter, run: plan.Run, names: Names, reading: bool) -> str | None:
        """The Reader.run call claiming a run: the local holding its position when reading."""
        raise NotImplementedError
