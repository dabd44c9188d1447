"""fbec.targets.typescript: TypeScript code for a schema package: `fbec --typescript`.

Generated per schema package, `<package>.ts` (an ES module): enums and flags as a
type and a constant object of their values, structs as classes with typed fields
and the schema's defaults (a base struct is the base class), and the binary
models (models.py): the versioned model always, the final model with `--final`; the
text form, JSON with `--json` and the protocol with `--proto`.
The code imports the runtime `@fbe-toolkit/fbe` (runtime/js) as `fbe` and other
schema packages as `./<package>.js` (docs/javascript.md).

Representation (docs/javascript.md): 64-bit integers and timestamps are `bigint`,
the other integers, chars and floats `number`; `decimal` is `fbe.Decimal`, `uuid`
`fbe.Uuid`, `bytes` `Uint8Array`; an optional is `T | undefined`; arrays, vectors
and lists are `T[]`; sets are `Set<T>` and maps/hashes `Map<K, V>` when JavaScript
compares the element or key by value (numbers, bigints, strings, booleans, enums),
otherwise `T[]` and `Array<[K, V]>` (structs, bytes, uuids, decimals).
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options, generated_header, schema_constants
from fbec.targets.typescript.context import BIGINTS, Context, compare, ts_string, write_imports
from fbec.targets.typescript.jsonconv import write_json, write_json_read
from fbec.targets.typescript.models import write_models
from fbec.targets.typescript.names import SCHEMA_CONSTANTS
from fbec.targets.typescript.protocol import write_protocol
from fbec.targets.typescript.textform import type_spec, write_enum_text, write_struct_text


def write_schema_constants(w: CodeWriter, c: Context, package: ir.Package, d: CodeWriter | None) -> None:
    """The package's name, version and fingerprint (what `fbec fingerprint` prints), for a Kafka serde's
    schema (docs/kafka.md: `FbeSchema.of(module)`); in JavaScript their declarations in `d` too."""
    values = schema_constants(c.schema, package)
    comment = "/** The schema of this module, as fbec fingerprint prints it (docs/kafka.md). */"
    for out, declare in ((w, ""), (d, "declare ")) if d is not None else ((w, ""),):
        out.line(comment)
        for name in SCHEMA_CONSTANTS:
            out.line(f'export {declare}const {name} = "{values[name.removeprefix("FBE_").lower()]}";')
        out.blank()


def write_enum(w: CodeWriter, c: Context, e: ir.Enum, d: CodeWriter | None) -> None:
    """The enum's type and constant object; in JavaScript the object, its declarations in `d`."""
    name = c.ident.type(e.qualified)
    what = "flags" if e.kind == "flags" else "enum"
    ts = "bigint" if e.wire in BIGINTS else "number"
    suffix = "n" if ts == "bigint" else ""
    comment = f"/** The {what} {e.qualified} (on the wire: {e.wire}). Values that are not declared are kept. */"
    for out in (w, d) if d is not None else (w,):
        out.line(comment)
    (w if d is None else d).line(f"export type {name} = {ts};")     # a type: in the declarations of JavaScript
    if d is not None:
        with d.block(f"export declare const {name}: {{", "};"):
            for v in e.values:
                d.line(f"readonly {c.ident.value(e.qualified, v.name)}: {v.value}{suffix};")
        d.blank()
    closing = "} as const;" if c.ts else "};"
    if e.values:
        with w.block(f"export const {name} = {{", closing):
            for v in e.values:
                w.line(f"{c.ident.value(e.qualified, v.name)}: {v.value}{suffix},")
    else:
        w.line(f"export const {name} = {{{closing}")
    w.blank()
    write_enum_text(w, c, e, d)


def write_struct(w: CodeWriter, c: Context, s: ir.Struct, d: CodeWriter | None) -> None:
    """The struct's class; in JavaScript without types, its declaration in `d`."""
    name = c.ident.type(s.qualified)
    what = "message" if s.message else "struct"
    comment = f"/** The {what} {s.qualified} (type id {s.type_id}). */"
    over = "override " if s.base is not None and c.ts else ""
    c.over = "override " if s.base is not None else ""
    keys = s.key_fields
    base = (c.named(s.base), c.named(s.base, False)) if s.base is not None else ("", "")
    with c.klass(w, d, [comment], name, *base):
        statics = (("fbeType", "number", f"The type id of {s.qualified}.", str(s.type_id)),
                   ("fbeName", "string", "The schema name, as the text form and errors name the struct.",
                    ts_string(s.qualified)))
        for static, ts, doc, value in statics:
            w.line(f"/** {doc} */")
            w.line(f"static {over}readonly {static}: {ts} = {value};" if c.ts else f"static {static} = {value};")
            c.declarations.append(f"static readonly {static}: {ts};")
        w.blank()
        for f in s.fields:
            c.field(w, f"{c.ident.field(f)}: {c.type(f.type)};")
        if s.fields and c.ts:
            w.blank()
        w.line("/** A value with the schema's defaults, then the fields of `init`. */")
        with w.block(c.constructor([("init", f"Partial<{name}>", "")]), "}"):
            if s.base is not None:
                w.line("super();")
            for f in s.fields:
                w.line(f"this.{c.ident.field(f)} = {c.default(f.type, f.default)};")
            with w.block("if (init !== undefined) {", "}"):
                w.line("Object.assign(this, init);")
        if keys:
            key_over = "override " if s.base and c.schema.struct(s.base).key_fields else ""
            with c.member(w, "/** The [key] fields as one string: a set, or a map keyed by this struct, holds each key "
                          "once. */", key_over, "fbeKey", [], "string"):
                values = ", ".join(key_value(f.type, "this." + c.ident.field(f)) for f in keys)
                w.line(f"return {c.rt('keysOf')}({values});")
            with c.member(w, "/**\n * Orders values by their [key] fields in turn, as sets of them and maps keyed by "
                          "them are written;\n * 0 for the same key, which no set or map holds twice "
                          "(docs/limits.md 4).\n */",
                          f"static {key_over}", "fbeCompareKey", [("a", name), ("b", name)], "number"):
                terms = [key_compare(c, f.type, "a." + c.ident.field(f), "b." + c.ident.field(f)) for f in keys]
                w.line(f"return {' || '.join(t for t in terms if t) or '0'};")
        write_fields(w, c, s, name)
        write_models(w, c, s, name)
        if c.options.json:
            write_json(w, c, s, name)
            write_json_read(w, c, s, name)
        write_struct_text(w, c, name)


def write_fields(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeFields: each field's schema name and type (and property when renamed or hidden, then "hidden"),
    which the text form (fbe.textOf) walks, and fbe.refused after a root writer failed, to name the field
    and the type it expects."""
    with c.member(w, "/** Each field's name and type, as the text form (fbe.textOf) and fbe.refused walk them. */",
                     f"static {c.over}", "fbeFields", [], f"readonly {c.rt('FieldSpec', False)}[]"):
        if not s.all_fields:
            w.line("return [];")
            return
        with w.block("return [", "];"):
            for f in s.all_fields:
                prop = c.ident.field(f)
                spec = [ts_string(f.name), type_spec(c, f.type)]
                if prop != f.name or f.hidden:
                    spec.append(ts_string(prop))
                if f.hidden:
                    spec.append('"hidden"')
                w.line(f"[{', '.join(spec)}],")


def key_value(t: ir.Type, x: str) -> str:
    """A [key] field's value as fbeKey compares it: a float as the 32-bit value written."""
    if isinstance(t, ir.Primitive) and t.name == "float":
        return f"Math.fround({x})"
    if isinstance(t, ir.Optional_) and isinstance(t.element, ir.Primitive) and t.element.name == "float":
        return f"({x} === undefined ? undefined : Math.fround({x}))"
    return x


def key_compare(c: Context, t: ir.Type, a: str, b: str) -> str | None:
    """The expression ordering [key] field values a and b of type t in the wire order (0: the same
    key); None for a struct without [key] fields, whose values are all the same key."""
    if isinstance(t, ir.Optional_):
        return f"{c.rt('compareOptional')}({a}, {b}, {compare(c, t.element)})"
    if isinstance(t, ir.StructRef) and not c.schema.struct(t.name).key_fields:
        return None
    return f"{compare(c, t)}({a}, {b})"


def generate_package(schema: ir.Schema, package: ir.Package, options: Options, ts: bool) -> list[GeneratedFile]:
    """`<package>.ts`, or `<package>.js` and its declarations `<package>.d.ts`."""
    c = Context(schema, package, options, ts)
    unit = Options(indent=2, tabs=options.tabs)     # 2 spaces (-t: tabs), whatever -n says
    body = CodeWriter(unit)
    declarations = None if ts else CodeWriter(unit)
    write_schema_constants(body, c, package, declarations)
    for e in package.enums + package.flags:
        write_enum(body, c, e, declarations)
    for s in package.structs:
        write_struct(body, c, s, declarations)
    if options.proto:
        write_protocol(body, c, declarations)
    constants = [f"const {name} = {expression};" for expression, name in c.constants.items()]
    c.file.text = _assembled(unit, package, c.file, body,
                             ["// Immutable defaults, made once.", *constants] if constants else [])
    if declarations is None or c.declarations_file is None:
        return [c.file]
    c.declarations_file.text = _assembled(unit, package, c.declarations_file, declarations, [])
    return [c.file, c.declarations_file]


def _assembled(unit: Options, package: ir.Package, file: GeneratedFile, body: CodeWriter, head: list[str]) -> str:
    """A file's text: the generated header, its imports (file.modules), the lines of head, the body."""
    out = CodeWriter(unit)
    out.lines(generated_header(package))
    out.blank()
    write_imports(out, file.modules)
    out.blank()
    if head:
        out.lines("\n".join(head))
        out.blank()
    out.lines(body.text())
    return out.text()


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return generate_package(schema, schema.main_package, options, ts=True)
