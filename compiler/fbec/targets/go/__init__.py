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

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options, generated_header, schema_constants
from fbec.targets.go.context import GO_PRIMITIVES, Context, aligned, braced, decl, declared, one_line, write_imports
from fbec.targets.go.jsontext import write_enum_text, write_struct_json, write_struct_text
from fbec.targets.go.models import write_models, write_reset
from fbec.targets.go.names import SCHEMA_CONSTANTS, package_name
from fbec.targets.go.nesting import write_levels
from fbec.targets.go.protocol import write_protocol


def write_schema_constants(w: CodeWriter, c: Context, package: ir.Package) -> None:
    """The package's name, version and fingerprint (what `fbec fingerprint` prints), for a Kafka serde's
    schema (docs/kafka.md)."""
    names = {what: c.ident.schema_constant(package.name, what) for what in SCHEMA_CONSTANTS}
    w.line(f"// {names['Package']}, {names['Version']} and {names['Fingerprint']} name the schema this package "
           "was generated from,")
    w.line("// as fbec fingerprint prints it: what a Kafka serde's schema is made of (docs/kafka.md).")
    values = schema_constants(c.schema, package)
    with w.block("const (", ")"):
        aligned(w, [[names[what], f'= "{values[what.lower()]}"'] for what in SCHEMA_CONSTANTS])
    w.blank()


def write_enum(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name = c.named(e.qualified)
    what = "flags" if e.kind == "flags" else "enum"
    one_line(w, f"// {name} is the {what} {e.qualified} (on the wire: {e.wire}).",
             f"type {name} {GO_PRIMITIVES[e.wire]}")
    if e.values:
        with w.block("const (", ")"):
            aligned(w, [[c.ident.constant(e.qualified, v.name), name, f"= {v.value}"] for v in e.values])
        w.blank()
    write_enum_text(w, c, e)


def write_struct(w: CodeWriter, c: Context, s: ir.Struct, options: Options) -> None:
    name = c.named(s.qualified)
    what = "message" if s.message else "struct"
    with decl(w, f"// {name} is the {what} {s.qualified} (type id {s.type_id}).", f"type {name} struct {{"):
        if s.base is not None:      # embedded: a row of its own, apart from the fields gofmt aligns
            w.line(c.named(s.base))
        aligned(w, [[c.ident.field(f), c.type(f.type)] for f in s.fields])
    declared(w, f"// TypeID is the type id of {s.qualified}.", f"func ({name}) TypeID() uint32 {{",
             f"return {s.type_id}")
    keys, shape = s.key_fields, c.key_type(s.ref())
    if keys and shape is not None:      # FBEKey (docs/go.md): none where the key holds the struct itself
        if len(keys) > 1:
            with decl(w, f"// {shape} is the value of {name}'s [key] fields (FBEKey).", f"type {shape} struct {{"):
                aligned(w, [[c.ident.field(f), c.key_type(f.type) or ""] for f in keys])
        values = ", ".join(c.key_of(f.type, f"v.{c.ident.field(f)}") for f in keys)
        declared(w, "// FBEKey is the value of the [key] fields: a set or a struct-keyed map holds each once.",
                 f"func (v *{name}) FBEKey() {shape} {{",
                 f"return {values}" if len(keys) == 1 else f"return {shape}{{{values}}}")
        with decl(w, ["// FBEKeyCompare orders v and o by their [key] fields in turn, as sets and maps of",
                      f'// {name} are written (docs/ir.md "order"): negative, 0 or positive, and 0 whenever',
                      "// their FBEKey is the same."], f"func (v *{name}) FBEKeyCompare(o *{name}) int {{"):
            compares = [x for x in (c.compare_of(f.type, f"v.{c.ident.field(f)}", f"o.{c.ident.field(f)}")
                                    for f in keys) if x is not None]
            for x in compares[:-1]:
                braced(w, f"if c := {x}; c != 0 {{", "return c")
            w.line(f"return {compares[-1]}" if compares else "return 0")
    new = c.ident.function("New", s.qualified)
    declared(w, f"// {new} is a new {name} with the schema's defaults.", f"func {new}() *{name} {{",
             f"v := new({name})", "v.Reset()", "return v")
    with decl(w, "// Reset sets every field to the schema's default.", f"func (v *{name}) Reset() {{"):
        if s.base is not None:
            w.line(f"v.{c.named(s.base).rpartition('.')[2]}.Reset()")
        for f in s.fields:
            write_reset(w, c, f)
    write_models(w, c, s, name, options.final)
    write_struct_text(w, c, s, name)
    if options.json:
        write_struct_json(w, c, s, name)


def generate_package(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = Context(schema, package)
    body = CodeWriter(Options(tabs=True))       # gofmt indents with tabs, whatever -n says
    write_schema_constants(body, c, package)
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
    write_imports(out, c.file.modules)
    out.lines(body.text())
    c.file.text = out.text()
    return c.file


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [generate_package(schema, schema.main_package, options)]
