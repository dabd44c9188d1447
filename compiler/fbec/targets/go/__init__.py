"""fbec.targets.go: Go code for a schema package: `fbec --go [--final] [--json] [--proto]`.

Generated per schema package, a Go package `<name>/<name>.go`:
enums and flags as typed integer constants, structs with exported fields
(a base struct embedded), `Reset()` / `New<Name>()` setting the schema
defaults, the versioned model (models.py; `--final`: the final model
too), the original's text form as `String()` and, with `--json`, FBE JSON
as `MarshalJSON`/`UnmarshalJSON` (jsontext.py), and with `--proto` the
protocol (protocol.py), on the runtime `github.com/fbe-toolkit/fbe/runtime/go/fbe`
(docs/go.md).

Imported schema packages are imported as `<GO_MODULE>/<package>`: the output
folder is meant to be the root of a module of that name (docs/go.md).
"""

from __future__ import annotations

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, GeneratedFile, Imports, Options, generated_header
from fbec.targets.go.jsontext import write_enum_text, write_struct_json, write_struct_text
from fbec.targets.go.models import write_models
from fbec.targets.go.names import Idents, package_name
from fbec.targets.go.nesting import write_levels
from fbec.targets.go.protocol import write_protocol

RUNTIME = "github.com/fbe-toolkit/fbe/runtime/go/fbe"
GO_MODULE = "fbegen"
"""The module path the generated packages import each other under (the output folder's module)."""

GO_PRIMITIVES = {
    "bool": "bool", "byte": "byte", "char": "byte", "wchar": "uint32", "int8": "int8", "uint8": "uint8",
    "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32", "int64": "int64",
    "uint64": "uint64", "float": "float32", "double": "float64", "string": "string", "bytes": "[]byte",
}
RUNTIME_PRIMITIVES = {"timestamp": "Timestamp", "uuid": "UUID", "decimal": "Decimal"}


class Context:
    """What one generated file needs: its package, imports by use, and Go names of IR types."""

    def __init__(self, schema: ir.Schema, package: ir.Package) -> None:
        self.schema = schema
        self.package = package
        self.imports = Imports()
        self.ident = Idents(schema)               # the identifiers of schema names (names.py)
        self.plan = plan.of(schema)
        self.can_fail: dict[str, bool] = {}
        """Per struct, whether writing it can fail (models.can_fail)."""
        self.depth_checked = False
        """Whether the writer being generated counts its level (nesting.check)."""
        self.levels_walks: set[str] = set()
        """The bounded structs whose fbeLevels walk the generated code calls (nesting.write_levels)."""

    def rt(self, member: str) -> str:
        return self.imports.attr(RUNTIME, member, "fbe")

    def named(self, qualified: str) -> str:
        """A named schema type, qualified by its Go package when imported."""
        return self.qualify(qualified, self.ident.type(qualified))

    def qualify(self, qualified: str, ident: str) -> str:
        """An identifier of the package of a schema name (`qualified`), qualified by its Go package
        when that is not this one."""
        pkg = qualified.rpartition(".")[0]
        if pkg == self.package.name:
            return ident
        return self.imports.attr(f"{GO_MODULE}/{pkg}", ident, package_name(pkg))

    def key_fields(self, t: ir.StructRef) -> list[ir.Field]:
        s = self.schema.struct(t.name)
        return [f for f in s.all_fields if f.name in s.keys]

    def keyed(self, t: ir.Type) -> bool:
        """Whether t is a struct with [key] fields (it gets FBEKey, docs/go.md)."""
        return isinstance(t, ir.StructRef) and bool(self.key_fields(t)) and self.key_type(t) is not None

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
        if isinstance(t, ir.Primitive):
            return self.rt("BytesKey")
        if not isinstance(t, ir.StructRef) or self.key_type(t) is None:
            return None
        if self.key_fields(t):
            return f"(*{self.type(t)}).FBEKey"
        return f"{self.rt('SameKey')}[{self.type(t)}]"

    def order_func(self, t: ir.Type) -> str | None:
        """The function ordering elements of type t (t not comparable) as the wire does, by their
        key (docs/ir.md "order"): bytes by their bytes, a struct by its [key] fields in turn
        (FBEKeyCompare), structs without [key] fields all equal; None when t has no key_func."""
        if isinstance(t, ir.Primitive):
            return self.rt("CompareBytes")
        if not isinstance(t, ir.StructRef) or self.key_type(t) is None:
            return None
        if self.key_fields(t):
            return f"(*{self.type(t)}).FBEKeyCompare"
        return f"{self.rt('CompareSame')}[{self.type(t)}]"

    def compare_of(self, t: ir.Type, a: str, b: str) -> str | None:
        """The expression ordering [key] field values a and b of type t (negative, 0, positive) in
        the wire order; None when every value is the same key (a struct without [key] fields)."""
        from fbec.targets.go.models import compare_func
        if isinstance(t, ir.Primitive):
            named = compare_func(self, t)
            if named is not None:
                return f"{named}({a}, {b})"
            if t.name == "bytes":
                return f"{self.imports.attr('bytes', 'Compare')}({a}, {b})"
            return f"{self.imports.attr('cmp', 'Compare')}({a}, {b})"
        if isinstance(t, ir.EnumRef):
            return f"{self.imports.attr('cmp', 'Compare')}({a}, {b})"
        if isinstance(t, ir.Optional_):
            e = t.element
            if isinstance(e, ir.StructRef):
                order = self.order_func(e)
                return f"{self.rt('CompareOptionalOf')}({a}, {b}, {order})"
            order = compare_func(self, e)
            if isinstance(e, ir.Primitive) and e.name == "bytes":
                order = self.imports.attr("bytes", "Compare")
            elif order is None:
                order = f"{self.imports.attr('cmp', 'Compare')}[{self.type(e)}]"
            return f"{self.rt('CompareOptional')}({a}, {b}, {order})"
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

    def constant(self, qualified_enum: str, value: str) -> str:
        """The Go constant of an enum or flags value."""
        return self.qualify(qualified_enum, self.ident.constant(qualified_enum, value))

    def default(self, t: ir.Type, d: ir.Default) -> str | None:
        """The Go expression of a non-zero default of type t, or None when the zero value is the default."""
        k = d.kind
        if k in ("none", "null"):
            return None
        if k == "bool":
            return "true" if d.value else None
        if k == "int":
            return None if d.value == 0 else str(d.value)
        if k == "real":
            assert d.text is not None
            if isinstance(t, ir.Primitive) and t.name == "decimal":
                return f'{self.rt("MustDecimal")}("{d.text}")'
            return d.text if float(d.text) != 0.0 else None
        if k == "string":
            assert isinstance(d.value, str)
            return go_string(d.value) if d.value else None
        if k == "timestamp":
            return f"{d.value}" if d.value else None
        if k == "utc":
            return f"{self.rt('UTC')}()"
        if k == "uuid":
            return None if d.value == "00000000-0000-0000-0000-000000000000" else f'{self.rt("MustUUID")}("{d.value}")'
        if k == "uuid1":
            return f"{self.rt('NewUUID1')}()"
        if k == "uuid4":
            return f"{self.rt('NewUUID4')}()"
        if k == "enum":
            assert d.type is not None
            return self.constant(d.type, d.names[0]) if d.value else None
        if k == "flags":
            assert d.type is not None
            if not d.value:
                return None
            return " | ".join(self.constant(d.type, n) for n in d.names) if d.names else f"{self.named(d.type)}({d.value})"
        raise AssertionError(f"default kind {k}")


def go_string(text: str) -> str:
    """A Go interpreted string literal of text (valid UTF-8 kept, the rest escaped)."""
    out = []
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append("\\uFFFD")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells in columns as gofmt aligns them (each cell but the last padded to its column)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [" ".join([cell.ljust(w) for cell, w in zip(row, widths)] + [row[-1]]).rstrip() for row in rows]


def write_enum(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name = c.named(e.qualified)
    what = "flags" if e.kind == "flags" else "enum"
    w.line(f"// {name} is the {what} {e.qualified} (on the wire: {e.wire}).")
    w.line(f"type {name} {GO_PRIMITIVES[e.wire]}")
    w.blank()
    if e.values:
        with w.block("const (", ")"):
            for line in aligned([[c.ident.constant(e.qualified, v.name), name, f"= {v.value}"] for v in e.values]):
                w.line(line)
        w.blank()
    write_enum_text(w, c, e)
    w.blank()


def write_struct(w: CodeWriter, c: Context, s: ir.Struct, options: Options) -> None:
    name = c.named(s.qualified)
    what = "message" if s.message else "struct"
    w.line(f"// {name} is the {what} {s.qualified} (type id {s.type_id}).")
    rows: list[list[str]] = []
    if s.base is not None:
        rows.append([c.named(s.base)])
    rows += [[c.ident.field(f), c.type(f.type)] for f in s.fields]
    with w.block(f"type {name} struct {{", "}"):
        # gofmt aligns consecutive fields; an embedded base is a row of its own.
        if s.base is not None:
            w.line(rows[0][0])
            rows = rows[1:]
        if rows:
            for line in aligned(rows):
                w.line(line)
    w.blank()
    w.line(f"// TypeID is the type id of {s.qualified}.")
    with w.block(f"func ({name}) TypeID() uint32 {{", "}"):
        w.line(f"return {s.type_id}")
    w.blank()
    if c.keyed(s.ref()):
        keys = c.key_fields(s.ref())
        shape = c.key_type(s.ref())
        if len(keys) > 1:
            w.line(f"// {shape} is the value of {name}'s [key] fields (FBEKey).")
            with w.block(f"type {shape} struct {{", "}"):
                for line in aligned([[c.ident.field(f), c.key_type(f.type) or ""] for f in keys]):
                    w.line(line)
            w.blank()
        w.line("// FBEKey is the value of the [key] fields: a set or a struct-keyed map holds each once.")
        with w.block(f"func (v *{name}) FBEKey() {shape} {{", "}"):
            values = [c.key_of(f.type, f"v.{c.ident.field(f)}") for f in keys]
            w.line(f"return {values[0]}" if len(keys) == 1 else f"return {shape}{{" + ", ".join(values) + "}")
        w.blank()
        w.line("// FBEKeyCompare orders v and o by their [key] fields in turn, as sets and maps of")
        w.line(f'// {name} are written (docs/ir.md "order"): negative, 0 or positive, and 0 whenever')
        w.line("// their FBEKey is the same.")
        with w.block(f"func (v *{name}) FBEKeyCompare(o *{name}) int {{", "}"):
            compares = [x for x in (c.compare_of(f.type, f"v.{c.ident.field(f)}", f"o.{c.ident.field(f)}") for f in keys)
                        if x is not None]
            for x in compares[:-1]:
                with w.block(f"if c := {x}; c != 0 {{", "}"):
                    w.line("return c")
            w.line(f"return {compares[-1]}" if compares else "return 0")
        w.blank()
    new = c.ident.function("New", s.qualified)
    w.line(f"// {new} is a new {name} with the schema's defaults.")
    with w.block(f"func {new}() *{name} {{", "}"):
        w.line(f"v := new({name})")
        w.line("v.Reset()")
        w.line("return v")
    w.blank()
    w.line("// Reset sets every field to the schema's default.")
    with w.block(f"func (v *{name}) Reset() {{", "}"):
        if s.base is not None:
            w.line(f"v.{c.named(s.base).rpartition('.')[2]}.Reset()")
        for f in s.fields:
            write_reset(w, c, f)
    w.blank()
    write_models(w, c, s, name, options.final)
    write_struct_text(w, c, s, name)
    if options.json:
        write_struct_json(w, c, s, name)


def write_reset(w: CodeWriter, c: Context, f: ir.Field) -> None:
    target = "v." + c.ident.field(f)
    t = f.type
    if isinstance(t, ir.Optional_):
        value = c.default(t.element, f.default)
        if value is None and f.default.kind != "none" and f.default.kind != "null":
            value = zero(c, t.element)
        if value is None:
            w.line(f"{target} = nil")
        else:
            w.line(f"{target} = {c.rt('Ptr')}[{c.type(t.element)}]({value})")
        return
    if isinstance(t, ir.StructRef):
        w.line(f"{target}.Reset()")
        return
    if isinstance(t, ir.Array):
        if isinstance(t.element, ir.StructRef):
            with w.block(f"for i := range {target} {{", "}"):
                w.line(f"{target}[i].Reset()")
        else:
            w.line(f"{target} = {c.type(t)}{{}}")
        return
    if isinstance(t, (ir.Sequence, ir.Mapping)):
        if isinstance(t, ir.Mapping) and c.comparable(t.key):
            w.line(f"clear({target})")
        else:
            w.line(f"{target} = {target}[:0]")
        return
    value = c.default(t, f.default)
    if value is None:
        value = zero(c, t)
    w.line(f"{target} = {value}")


def zero(c: Context, t: ir.Type) -> str:
    if isinstance(t, ir.Primitive):
        if t.name == "bool":
            return "false"
        if t.name == "string":
            return '""'
        if t.name == "bytes":
            return "nil"
        if t.name in ("uuid", "decimal"):
            return c.type(t) + "{}"
        return "0"
    if isinstance(t, ir.EnumRef):
        return "0"
    return c.type(t) + "{}"


def generate_package(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = Context(schema, package)
    body = CodeWriter(Options(tabs=True))       # gofmt indents with tabs, whatever -n says
    for e in package.enums + package.flags:
        write_enum(body, c, e)
    for s in package.structs:
        write_struct(body, c, s, options)
    write_levels(body, c)
    if options.proto:
        write_protocol(body, c, options.final)
    out = CodeWriter(Options(tabs=True))
    out.lines(generated_header(package))
    out.line("// Code generated by fbec. DO NOT EDIT.")
    out.blank()
    out.line(f"// Package {package_name(package.name)} is the FBE schema package {package.name}.")
    out.line(f"package {package_name(package.name)}")
    out.blank()
    if c.imports.modules:
        std = sorted(m for m in c.imports.modules if "." not in m.partition("/")[0] and m.partition("/")[0] != GO_MODULE)
        other = sorted(set(c.imports.modules) - set(std))
        with out.block("import (", ")"):
            for m in std:
                out.line(f'"{m}"')
            if std and other:
                out.blank()
            for m in other:
                last = m.rpartition("/")[2]
                alias = "" if m == RUNTIME or last == m.rpartition("/")[2] and not m.startswith(GO_MODULE + "/") \
                    else ("" if package_name(last) == last else package_name(last) + " ")
                out.line(f'{alias}"{m}"')
        out.blank()
    out.lines(body.text())
    name = package_name(package.name)
    return GeneratedFile(f"{name}/{name}.go", out.text())


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [generate_package(schema, schema.main_package, options)]
