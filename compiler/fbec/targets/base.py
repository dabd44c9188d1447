"""What every target shares: options, generated files (their imports by use and name collisions), a
code writer, fresh locals, reserved names and the banner.

A target is a package `fbec.targets.<lang>` exposing
`generate(schema: Schema, options: Options) -> list[GeneratedFile]`.
It reads the IR (`fbec.model.ir`) and nothing else.
"""

from __future__ import annotations

import math
import os
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from fbec import __version__
from fbec.model import plan
from fbec.model.ir import Array, Default, Field, Mapping, Optional_, Package, Schema, Sequence, Struct, Type, is_decimal

T = TypeVar("T")


@dataclass(frozen=True)
class Options:
    final: bool = False        # --final: final-model code
    json: bool = False         # --json: JSON conversion
    proto: bool = False        # --proto / --sender: protocol classes
    indent: int = 4            # -n INDENT
    tabs: bool = False         # -t: indent with tabs
    package_prefix: str = ""   # --package-prefix: put before the Java and Kotlin packages (dotted)
    rust_serde: bool = False   # --rust-serde: the Rust types derive serde's traits under a `serde` feature


class GeneratedFile:
    """One file a target generates: its path and its text and, while its code is written, the imports
    that code uses and the names the file declares (protobuf-go's `GeneratedFile` is the model).

    `GeneratedFile(path, text)` is a finished file: what `generate` returns and fbec writes. A target
    writing one makes `f = GeneratedFile(path)` and, wherever its code names something another module
    declares, writes what the file gives back:

    * `f.qualified(module, member, qualifier)`: `qualifier.member` (Python `struct.Struct`, Go
      `binary.LittleEndian` from `"encoding/binary"`, TypeScript `fbe.Uuid`); the file imports `module`
      under `qualifier` (by default the module's last part: `encoding/binary` -> `binary`);
    * `f.imported(module, name)`: `name` itself (Python's `from decimal import Decimal`);

    so a module is imported exactly when the code uses it, never by searching the finished text. At the
    end the target writes the import block from `f.modules` (each module and its qualifier, in the order
    first used) and `f.names` in its language's syntax and order, and sets `f.text`.

    Name collisions are the file's: the target's naming module gives qualifiers clear of the schema's
    names, and the file keeps its names apart: a qualifier another module of the file has already, or
    a name its code declared, gets a trailing underscore until it is free; `f.declare(name)` gives a
    top-level name of the generated code (a constant, a protocol class) clear of what `taken` names
    (the schema's names in that scope), of the other names declared and of the qualifiers: the same
    name each time it is asked for.
    """

    def __init__(self, path: str, text: str = "", taken: Callable[[str], bool] = lambda _: False) -> None:
        self.path = path           # relative to the output folder
        self.text = text
        self.modules: dict[str, str] = {}
        self.names: dict[str, set[str]] = {}
        self._taken = taken
        self._declared: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"GeneratedFile({self.path!r}, {len(self.text)} characters)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GeneratedFile) and (self.path, self.text) == (other.path, other.text)

    __hash__ = None  # type: ignore[assignment]

    def qualified(self, module: str, member: str, qualifier: str | None = None) -> str:
        """`member` of `module` as the code names it (`qualifier.member`), importing `module`."""
        if module not in self.modules:
            name = qualifier or module.rpartition("/")[2]
            while name in self.modules.values() or name in self._declared.values():
                name += "_"
            self.modules[module] = name
        return f"{self.modules[module]}.{member}"

    def imported(self, module: str, name: str) -> str:
        """`name` itself, imported from `module` (Python `from decimal import Decimal`)."""
        self.names.setdefault(module, set()).add(name)
        return name

    def declare(self, name: str) -> str:
        """A top-level name of the file's own code, clear of what `taken` names and of the other
        names declared (a trailing underscore until it is); the same for the same `name`."""
        if name not in self._declared:
            given = name
            while self._taken(given) or given in self._declared.values() or given in self.modules.values():
                given += "_"
            self._declared[name] = given
        return self._declared[name]


class Locals:
    """Fresh names of the locals of generated code (nested loops, temporaries): `stem` and a number
    counting up (`i1`, `e2`), so no two are the same within what one `Locals` names."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"


class CodeWriter:
    """Builds a text file line by line with managed indentation.

    `w.line("x")` writes one line at the current depth; `with w.block("{", "}")`
    indents between an opening and closing line (indentation is only ever
    paired by a block); `w.label("public:")` writes a line one level out;
    `w.blank()` writes one empty line (never two in a row; `w.blank(2)` two).
    """

    def __init__(self, options: Options = Options()) -> None:
        self._unit = "\t" if options.tabs else " " * options.indent
        self._depth = 0
        self._lines: list[str] = []

    def line(self, text: str = "") -> None:
        self._lines.append(self._unit * self._depth + text if text else "")

    def lines(self, text: str) -> None:
        for item in text.splitlines():
            self.line(item)

    def label(self, text: str) -> None:
        """A line one level out from the current depth: an access specifier
        (`public:`) or a case label inside its block."""
        self._lines.append(self._unit * max(self._depth - 1, 0) + text)

    def blank(self, lines: int = 1) -> None:
        """End what was written with `lines` empty lines (Python's two between top-level
        definitions), counting those already there; never at the start of the file."""
        trailing = 0
        while trailing < len(self._lines) and self._lines[-1 - trailing] == "":
            trailing += 1
        if trailing < len(self._lines):
            self._lines += [""] * max(0, lines - trailing)

    @property
    def depth(self) -> int:
        """The current indentation level (how long a line written now is: `depth * len(unit)` more)."""
        return self._depth

    @property
    def unit(self) -> str:
        """One level of indentation (`-n INDENT` spaces, or a tab with `-t`)."""
        return self._unit

    def block(self, opening: str, closing: str = "") -> _Block:
        """Lines written inside are one level deeper, between `opening` and `closing` (each omitted when empty)."""
        return _Block(self, opening, closing)

    def indented(self) -> _Block:
        """Lines written inside are one level deeper (a continuation, an initializer list)."""
        return _Block(self, "", "")

    def if_else(self, opening: str, then: str) -> _Block:
        """`opening`, then's lines one level deeper and `} else {`: lines written inside are the else
        branch, closed by `}` (C, Go, JavaScript...)."""
        with self.block(opening, "} else {"):
            self.lines(then)
        return self.block("", "}")

    def text(self) -> str:
        while self._lines and self._lines[-1] == "":
            self._lines.pop()
        return "\n".join(self._lines) + "\n"


class RawText:
    """Literal text a generated writer writes (JSON's, the text form's), merged into one call until
    the next statement: `raw("Name(")` adds text, `raw.line(statement)` writes what is pending, then
    the statement. A target's subclass says how the call is spelled (`write`)."""

    def __init__(self, w: CodeWriter) -> None:
        self.w, self.pending = w, ""

    def write(self, text: str) -> str:
        """The statement that writes the literal text."""
        raise NotImplementedError

    def __call__(self, text: str) -> None:
        self.pending += text

    def flush(self) -> None:
        text, self.pending = self.pending, ""
        if text:
            self.w.line(self.write(text))

    def line(self, text: str) -> None:
        self.flush()
        self.w.line(text)


class Named(Protocol):
    """A field of the IR or of the plan: what a JSON object names it by."""

    @property
    def name(self) -> str: ...


NamedField = TypeVar("NamedField", bound=Named)


def json_object(raw: RawText, fields: Iterable[NamedField], value: Callable[[NamedField], None]) -> None:
    """A struct value as a JSON object (docs/format.md 8), `{"f1":...,"f2":...}`: the literal text
    through `raw` (written out at the end), `value(f)` where a field's value goes."""
    raw("{")
    for k, f in enumerate(fields):
        raw(("," if k else "") + f'"{f.name}":')
        value(f)
    raw("}")
    raw.flush()


def text_struct(raw: RawText, s: Struct, base: Callable[[str], str], value: Callable[[Field], None]) -> None:
    """A struct value in the original's text form (docs/format.md 9), `Name(base,f1=...,f2=***)`:
    the literal text through `raw`, the statement `base(qualified)` where the base struct's fields
    go, `value(f)` where a field's value goes (a hidden field's is `***`)."""
    raw(f"{s.name}(")
    fields = s.all_fields
    if s.base is not None:
        raw.line(base(s.base))
        fields = s.fields
    for i, f in enumerate(fields):
        raw(("," if i or s.base is not None else "") + f"{f.name}=")
        if f.hidden:
            raw("***")
        else:
            value(f)
    raw(")")
    raw.flush()



def quoted(text: str, control: Callable[[int], str], other: Callable[[str], str] = lambda ch: ch,
           short: bool = True) -> str:
    """A double-quoted string literal of text with the C family's escapes: a backslash before `"` and
    `\\`, `\\n` and `\\t` (with `short`; else control's, as C++'s octal), control(code) for the other
    control chars (below 0x20, and 0x7F), other(char) for every other char."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n" and short:
            out.append("\\n")
        elif ch == "\t" and short:
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(control(ord(ch)))
        else:
            out.append(other(ch))
    return '"' + "".join(out) + '"'


class FileContext:
    """What the code of one generated file is written with: the schema and its plan, the package the
    file holds, the file (its imports by use) and the options. A target's context adds its naming
    module's identifiers (`ident`) and its language's spelling of types."""

    def __init__(self, schema: Schema, package: Package, file: GeneratedFile, options: Options) -> None:
        self.schema = schema
        self.package = package
        self.plan = plan.of(schema)
        self.file = file
        self.options = options


class DefaultLiterals:
    """A field default (docs/ir.md's table) as a literal of the target's language: `scalar_default`
    is the one dispatch on the default's kind, the target spells each kind by the methods below. A
    language whose every scalar type has a zero value of its own (Go, Rust, C#) leaves the field at
    it: the dispatch gives None where the default is that zero (`Default.zero`); one that spells the
    zero too (`SPELLS_ZERO`: C++, Java, Kotlin, TypeScript, Python, Ruby) gets None only for no default.
    An optional's explicit default is present (docs/format.md 3.6): its value is spelled, zero or not
    (`present`), and only `null` (or no default) leaves the optional absent."""

    SPELLS_ZERO: ClassVar[bool] = False
    BOOLS: ClassVar[tuple[str, str]] = ("false", "true")

    def scalar_default(self, t: Type, d: Default, *, present: bool = False) -> str | None:
        """The literal of the default d of the scalar type t, or None (see the class); `present`: the
        value of an optional of t (spelled even where it is the zero)."""
        k = d.kind
        if k in ("utc", "uuid1", "uuid4"):
            return self.made_default(k)
        spelled = self.SPELLS_ZERO or present or k == "real" and is_decimal(t)     # (a decimal written
        if k in ("none", "null") or d.zero and not spelled:                       # 0.0 has a scale:
            return None                                                           # not the zero's bytes)
        if k == "bool":
            return self.BOOLS[bool(d.value)]
        if k == "real":
            assert d.text is not None
            return self.real_default(t, d.text)
        if k == "string":
            assert isinstance(d.value, str)
            return self.string_default(d.value)
        if k == "uuid":
            assert isinstance(d.value, str)
            return self.uuid_default(d.value)
        assert isinstance(d.value, int)
        if k in ("int", "timestamp"):
            return self.int_default(t, d.value)
        assert d.type is not None
        return self.enum_default(d.type, d.names) if d.names else self.flags_default(d.type, d.value)

    def made_default(self, kind: str) -> str:
        """What makes the value of a default made as the field is: utc (now), uuid1, uuid4."""
        raise NotImplementedError

    def int_default(self, t: Type, value: int) -> str:
        """A literal of the number t (an integer, real or timestamp) from an integer."""
        raise NotImplementedError

    def real_default(self, t: Type, text: str) -> str | None:
        """A literal of the number t (a float, double or decimal) from its decimal text."""
        raise NotImplementedError

    def string_default(self, text: str) -> str:
        raise NotImplementedError

    def uuid_default(self, uuid: str) -> str:
        """A uuid from its text (8-4-4-4-12 hex digits)."""
        raise NotImplementedError

    def enum_default(self, enum: str, names: tuple[str, ...]) -> str:
        """An enum's value or a combination of flags, by their names, of the type `enum` (qualified):
        each `enum_value`, joined by `|`."""
        return " | ".join(self.enum_value(enum, name) for name in names)

    def enum_value(self, enum: str, name: str) -> str:
        """The value `name` of the enum or flags type `enum` (qualified)."""
        raise NotImplementedError

    def flags_default(self, flags: str, value: int) -> str:
        """The flags type `flags` (qualified) of a value no combination of its names gives."""
        raise NotImplementedError


SLOT_KINDS = {
    "bool": "Bool", "byte": "U8", "char": "U8", "uint8": "U8", "int8": "I8", "int16": "I16", "uint16": "U16",
    "int32": "I32", "uint32": "U32", "wchar": "U32", "int64": "I64", "uint64": "U64", "float": "F32",
    "double": "F64", "timestamp": "Timestamp", "uuid": "Uuid", "decimal": "Decimal", "string": "String",
    "bytes": "Blob",
}
"""A primitive's slot kind as the Go and JS runtimes' Writer and Reader methods spell it (Go's
`PutI32`, `GetU8`, `String`; JavaScript's `putI32`, `r.u8`, `appendBlob`)."""


def float32(v: float) -> float:
    """v rounded to a float's precision (an infinity where it is too large for one)."""
    try:
        f: float = struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        f = math.copysign(math.inf, v)
    return f


def float32_digits(v: float) -> str:
    """The fewest significant digits (`%g`) that read back as v rounded to a float (a finite one)."""
    f = float32(v)
    return next(d for d in (f"{f:.{p}g}" for p in range(1, 10)) if float32(float(d)) == f)


def nested_spec(t: Type, leaf: Callable[[Type], str], node: Callable[[str, list[str]], str],
                costs: bool = False) -> str:
    """t spelled as nested nodes, as a runtime's type spec (what its error explanations check a
    value against): `node(kind, parts)` for an optional, array or collection, parts spelled alike
    (the element, then an array's length; a map's or hash's key and value; with `costs`, a vector's,
    list's, set's, map's or hash's last part what a reader charges for each item); `leaf(t)` for a
    primitive, enum or struct."""
    cost = [str(t.item_cost)] if costs and isinstance(t, (Sequence, Mapping)) else []
    if isinstance(t, Mapping):
        return node(t.kind, [nested_spec(t.key, leaf, node, costs), nested_spec(t.value, leaf, node, costs), *cost])
    if isinstance(t, (Optional_, Array, Sequence)):
        length = [str(t.length)] if isinstance(t, Array) else []
        return node(t.kind, [nested_spec(t.element, leaf, node, costs), *length, *cost])
    return leaf(t)

class _Block:
    def __init__(self, writer: CodeWriter, opening: str, closing: str) -> None:
        self._w, self._open, self._close = writer, opening, closing

    def __enter__(self) -> CodeWriter:
        if self._open:
            self._w.line(self._open)
        self._w._depth += 1
        return self._w

    def __exit__(self, *exc: object) -> None:
        self._w._depth -= 1
        if self._close:
            self._w.line(self._close)


class ReservedNames:
    """A target's table of names a schema name may not take in code: the
    language's keywords, the standard names the generated code uses
    unqualified, the generated code's own members. Calling it escapes a
    schema name, as protobuf does: one in the table gets `suffix`
    (`new` -> `new_`); JSON and the text format keep the schema name.
    """

    def __init__(self, *tables: Iterable[str], suffix: str = "_") -> None:
        self.names: frozenset[str] = frozenset().union(*tables)
        self.suffix = suffix

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def __or__(self, more: Iterable[str]) -> ReservedNames:
        """This table and `more` (a narrower scope: a struct's members, an enum's constants)."""
        return ReservedNames(self.names, more, suffix=self.suffix)

    def __call__(self, name: str) -> str:
        return name + self.suffix if name in self.names else name


K = TypeVar("K")


class NameClash(Exception):
    """A schema name no renaming can make usable in a target's code: fbec refuses the schema with
    this message, which names the clash (`fbec: error: --java: ...`)."""


class ScopedIdents:
    """The identifiers of one schema's names, each scope worked out once, when first asked: the base
    of each target's `names.Idents`, which says how a scope is made (`scope_idents` over its names)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._scopes: dict[tuple[str, str], dict[Any, str]] = {}

    def scope(self, kind: str, owner: str, make: Callable[[], dict[Any, str]]) -> dict[Any, str]:
        """The identifiers of one scope (`kind`: a package's types, a struct's fields...; `owner`: whose),
        made by `make()` when first asked."""
        key = (kind, owner)
        if key not in self._scopes:
            self._scopes[key] = make()
        return self._scopes[key]

    def package_scope(self, package: str) -> dict[tuple[str, ...], str]:
        """The identifiers of a package's top-level names (its module's, its namespace's), keyed by
        (what, name, ...): what the target's `_package_scope` makes of the package."""
        return self.scope("package", package, lambda: self._package_scope(self.schema.package(package)))

    def _package_scope(self, p: Package) -> dict[tuple[str, ...], str]:
        raise NotImplementedError

    def declared(self, what: str, qualified: str, *more: str) -> str:
        """The identifier of a name the package of `qualified` declares (`what`: a type, its model...)."""
        package, _, name = qualified.rpartition(".")
        return self.package_scope(package)[(what, name, *more)]

    def field_ident(self, f: Field, spell: Callable[[str], str], taken: Callable[[Struct], Iterable[str]]) -> str:
        """A field's identifier in every struct that has it (the struct that declares it decides): its name
        spelled, clear of what `taken(struct)` holds (the generated members) and of its base's fields'."""
        def make() -> dict[str, str]:
            s = self.schema.struct(f.owner)
            clear = set(taken(s))
            if s.base is not None:
                clear |= {self.field_ident(g, spell, taken) for g in self.schema.struct(s.base).all_fields}
            return scope_idents(((g.name, spell(g.name)) for g in s.fields), clear.__contains__)

        return self.scope("fields", f.owner, make)[f.name]


def scope_idents(wanted: Iterable[tuple[K, str]], taken: Callable[[str], bool],
                 escape: Callable[[str], str] = lambda x: x + "_",
                 same: Callable[[str], str] = lambda x: x) -> dict[K, str]:
    """The identifiers of the names of one scope of generated code (a namespace, a class's members,
    an enum's constants): `wanted` gives each name (a key) and the identifier it would take. That
    identifier is given when `taken` says it is free (not a keyword, not a name the generated code
    uses in the scope) and no earlier name of the scope took it; every other name gets `escape` of
    it (a trailing underscore), again and again while the result is taken or given. So a name
    changes only when it clashes, and whether it does never depends on a name that does not clash
    (docs/targets.md "Names"). Two identifiers clash when `same` maps them to the same text (the
    JVM getter of a Kotlin property: `name` and `Name` are both getName)."""
    items = list(wanted)
    out: dict[K, str] = {}
    given: set[str] = set()
    for key, ident in items:
        if not taken(ident) and same(ident) not in given:
            out[key] = ident
            given.add(same(ident))
    for key, ident in items:
        if key not in out:
            while taken(ident) or same(ident) in given:
                ident = escape(ident)
            out[key] = ident
            given.add(same(ident))
    return out



class TableIdents:
    """The identifiers of a schema's names, made once scope by scope (scope_idents) and looked up by
    the generators: a type's by its qualified name, a field's by (struct, name), an enum's or flags
    type's value's by (type, name)."""

    def __init__(self) -> None:
        self.types: dict[str, str] = {}
        self.fields: dict[tuple[str, str], str] = {}
        self.values: dict[tuple[str, str], str] = {}

    @staticmethod
    def scope(table: dict[tuple[str, str], str], owner: str, wanted: Iterable[tuple[str, str]],
              taken: Callable[[str], bool]) -> None:
        """The identifiers of one member scope (a struct's fields, a type's values) into table."""
        table.update({(owner, k): v for k, v in scope_idents(wanted, taken).items()})

    def scope_types(self, package: Package, spell: Callable[[str], str], taken: Callable[[str], bool]) -> None:
        """The identifiers of a package's types (its enums', flags' and structs': one scope) into types."""
        decls = [(e.qualified, e.name) for e in package.enums + package.flags] + [(s.qualified, s.name)
                                                                              for s in package.structs]
        self.types.update(scope_idents(((q, spell(n)) for q, n in decls), taken))

    def type(self, qualified: str) -> str:
        return self.types[qualified]

    def field(self, struct: str, name: str) -> str:
        return self.fields[(struct, name)]

    def value(self, enum: str, name: str) -> str:
        return self.values[(enum, name)]

# ---------------------------------------------------------------- analysis helpers

def import_closure(schema: Schema, package: Package) -> list[Package]:
    """`package`, then every package it imports, transitively: depth first, in import order,
    each once (the order of the IR's dispatch table)."""
    out: list[Package] = []
    seen: set[str] = set()

    def visit(p: Package) -> None:
        if p.name in seen:
            return
        seen.add(p.name)
        out.append(p)
        for name in p.imports:
            visit(schema.package(name))

    visit(package)
    return out


@dataclass(frozen=True)
class Message:
    """A message of a package's protocol as Go's and TypeScript's Senders and Receivers name it."""
    struct: Struct
    named: str       # its type in the language, qualified when imported ("market.Failure")
    suffix: str      # of its methods (`Send<Suffix>`, `On<Suffix>`): "PlaceOrder", "MarketFailure"


def protocol_messages(schema: Schema, package: Package, named: Callable[[str], str],
                      capitalized: Callable[[str], str], package_prefix: Callable[[str], str],
                      taken: Iterable[str] = ()) -> tuple[list[Message], list[Message]]:
    """What a package's Sender sends (its protocol types, then its imports', import_closure's order) and
    what its Receiver dispatches (the IR's dispatch table), each with its type as named(qualified) and
    the suffix of its methods: its name capitalized, an imported one's after its package's prefix, a
    trailing underscore until it is unique (and not one of `taken`), so the package's own types keep
    the plain names."""
    suffixes: dict[str, str] = {}
    used = set(taken)
    for s in (s for p in import_closure(schema, package) for s in p.protocol_types):
        pkg = s.qualified.rpartition(".")[0]
        suffix = capitalized(s.name) if pkg == package.name else package_prefix(pkg) + capitalized(s.name)
        while suffix in used:
            suffix += "_"
        used.add(suffix)
        suffixes[s.qualified] = suffix

    def message(qualified: str) -> Message:
        return Message(schema.struct(qualified), named(qualified), suffixes[qualified])

    dispatch = [message(d.type) for d in package.dispatch]
    return [message(q) for q in suffixes], dispatch


def client_answers(sent: list[Message], dispatched: list[Message]) -> tuple[set[str], dict[str, bool]]:
    """What a Client (Go's, TypeScript's) matches by id (docs/format.md 7.6), over the messages its
    Sender sends and its Receiver dispatches: the requests it waits for the response of (a [request]
    with an id whose response is among them), and each dispatched message with an id that answers one
    (their response or a reject), with whether it is a global reject (it answers a request of any type)."""
    known = {m.struct.qualified for m in (*sent, *dispatched)}
    waiting = [m.struct for m in sent if m.struct.request and m.struct.response in known and m.struct.id_field]
    answers = {s.response for s in waiting} | {r.type for s in waiting for r in s.rejects}
    everyone = {r.type for s in waiting for r in s.rejects if r.global_}
    return ({s.qualified for s in waiting}, {m.struct.qualified: m.struct.qualified in everyone for m in dispatched
                                             if m.struct.qualified in answers and m.struct.id_field})


def schema_constants(schema: Schema, package: Package) -> dict[str, str]:
    """What the code of a package says of its schema (docs/kafka.md "Schema fingerprint"): its name,
    version (`1.0`) and fingerprint (the plan's: what `fbec fingerprint` prints), by those keys. A
    Kafka serde's schema is made of them."""
    v = package.version
    return {"package": package.name, "version": f"{v.major}.{v.minor}",
            "fingerprint": plan.of(schema).fingerprint(package.name)}


def generated_header(package: Package, comment: str = "//") -> str:
    """The 'generated, do not edit' banner every generated file starts with, in the language's
    line-comment syntax. It names the schema file without its folder, so the output does not
    depend on where fbec ran."""
    source = os.path.basename(package.file)
    return f"{comment} Automatically generated by fbec {__version__} from {source}. Do not edit.\n"
