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

import json
import math

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, GeneratedFile, Imports, Options, generated_header
from fbec.targets.typescript.names import Idents

RUNTIME = "@fbe-toolkit/fbe"

BIGINTS = frozenset({"int64", "uint64", "timestamp"})
PRIMITIVE_TYPES = {
    "bool": "boolean", "byte": "number", "char": "number", "wchar": "number", "int8": "number",
    "uint8": "number", "int16": "number", "uint16": "number", "int32": "number", "uint32": "number",
    "int64": "bigint", "uint64": "bigint", "float": "number", "double": "number", "timestamp": "bigint",
    "string": "string", "bytes": "Uint8Array",
}
RUNTIME_TYPES = {"uuid": "Uuid", "decimal": "Decimal"}


def ts_string(text: str) -> str:
    """A JavaScript string literal of text."""
    return json.dumps(text).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def by_value(t: ir.Type) -> bool:
    """Whether JavaScript's Map and Set compare values of t by value (numbers, bigints, strings,
    booleans, enums): such sets are Set<T> and such maps Map<K, V>; the others arrays."""
    if isinstance(t, ir.Primitive):
        return t.name not in ("bytes", "uuid", "decimal")
    return isinstance(t, ir.EnumRef)


class Context:
    """What one generated file needs: its package, imports by use, and TypeScript names of IR types."""

    def __init__(self, schema: ir.Schema, package: ir.Package, options: Options, ts: bool = True) -> None:
        self.schema = schema
        self.package = package
        self.options = options
        self.ts = ts                              # TypeScript; else JavaScript and its declarations
        self.imports = Imports()                  # what the code uses (in TypeScript: its types too)
        self.type_imports = Imports()             # JavaScript: what only the declarations (.d.ts) use
        self.declarations: list[str] = []        # JavaScript: the members of the class being written
        self.constants: dict[str, str] = {}      # expression -> the module constant holding it
        self.can_fail: dict[str, bool] = {}      # struct -> whether writing it can fail (models.can_fail)
        self.plan = plan.of(schema)               # what every struct's codecs read and write (model/plan.py)
        self.ident = Idents(schema)               # the identifiers of schema names (names.py)

    def constant_of(self, stem: str, expression: str) -> str:
        """A module-level constant holding an immutable default (a Decimal, a Uuid), made once."""
        if expression not in self.constants:
            name = f"{stem}_{len(self.constants) + 1}"
            while name in self.ident.module_names(self.package.name):
                name += "_"
            self.constants[expression] = name
        return self.constants[expression]

    def _imports(self, value: bool) -> Imports:
        return self.imports if value or self.ts else self.type_imports

    def rt(self, member: str, value: bool = True) -> str:
        """A member of the runtime; `value`: used as a value (else only as a type)."""
        return self._imports(value).attr(RUNTIME, member, "fbe")

    def named(self, qualified: str, value: bool = True) -> str:
        """A named schema type, qualified by its module when imported."""
        pkg = qualified.rpartition(".")[0]
        if pkg == self.package.name:
            return self.ident.type(qualified)
        return self._imports(value).attr(f"./{pkg}.js", self.ident.type(qualified), self.ident.alias(self.package.name, pkg))

    def annot(self, t: str) -> str:
        """A type annotation (`: T`), none in JavaScript."""
        return f": {t}" if self.ts else ""

    def generic(self, *types: str) -> str:
        """Type arguments (`<K, V>`), none in JavaScript."""
        return f"<{', '.join(types)}>" if self.ts else ""

    def method(self, modifiers: str, name: str, params: list[tuple[str, str]], result: str) -> str:
        """A method's opening line; in JavaScript without types, its declaration kept for the .d.ts."""
        declaration = f"{modifiers}{name}({', '.join(f'{p}: {t}' for p, t in params)}): {result}"
        if self.ts:
            return declaration + " {"
        self.declarations.append(declaration.replace("override ", "") + ";")
        return f"{modifiers.replace('override ', '')}{name}({', '.join(p.rstrip('?') for p, _ in params)}) {{"

    def type(self, t: ir.Type) -> str:
        """One isinstance per IR dataclass."""
        if isinstance(t, ir.Primitive):
            if t.name in RUNTIME_TYPES:
                return self.rt(RUNTIME_TYPES[t.name], False)
            return PRIMITIVE_TYPES[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name, False)
        if isinstance(t, ir.Optional_):
            return self.type(t.element) + " | undefined"
        if isinstance(t, (ir.Array, ir.Sequence)):
            element = self.type(t.element)
            if isinstance(t, ir.Sequence) and t.kind == "set" and by_value(t.element):
                return f"Set<{element}>"
            return f"{element}[]" if isinstance(t.element, (ir.Primitive, ir.EnumRef, ir.StructRef)) \
                else f"({element})[]"
        if by_value(t.key):
            return f"Map<{self.type(t.key)}, {self.type(t.value)}>"
        return f"Array<[{self.type(t.key)}, {self.type(t.value)}]>"

    def bigint(self, t: ir.Type) -> bool:
        """Whether values of t are bigints (64-bit integers, timestamps, 64-bit enums)."""
        if isinstance(t, ir.Primitive):
            return t.name in BIGINTS
        return isinstance(t, ir.EnumRef) and t.wire in BIGINTS

    def constant(self, qualified_enum: str, value: str) -> str:
        return f"{self.named(qualified_enum)}.{self.ident.value(qualified_enum, value)}"

    def integer(self, t: ir.Type, value: int) -> str:
        return f"{value}n" if self.bigint(t) else str(value)

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The expression of a default value of t (a new object each time for mutable ones)."""
        if isinstance(t, ir.Optional_):
            if d.kind in ("none", "null"):
                return "undefined"
            return self.default(t.element, d)
        k = d.kind
        if isinstance(t, ir.Primitive):
            if k == "bool":
                return "true" if d.value else "false"
            if k == "int":
                assert isinstance(d.value, int)
                return self.integer(t, d.value)
            if k == "real":
                assert d.text is not None
                if t.name == "decimal":
                    return self.constant_of("DECIMAL", f"{self.rt('Decimal')}.parse({ts_string(d.text)})")
                return js_number(d.text)
            if k == "string":
                assert isinstance(d.value, str)
                return ts_string(d.value)
            if k == "timestamp":
                return f"{d.value}n"
            if k == "utc":
                return f"{self.rt('utc')}()"
            if k == "uuid":
                assert isinstance(d.value, str)
                if d.value == "00000000-0000-0000-0000-000000000000":
                    return f"{self.rt('Uuid')}.NIL"
                return self.constant_of("UUID", f"{self.rt('Uuid')}.parse({ts_string(d.value)})")
            if k == "uuid1":
                return f"{self.rt('Uuid')}.v1()"
            if k == "uuid4":
                return f"{self.rt('Uuid')}.v4()"
            return zero(self, t)
        if isinstance(t, ir.EnumRef):
            if k == "enum":
                assert d.type is not None
                return self.constant(d.type, d.names[0])
            if k == "flags":
                assert d.type is not None and isinstance(d.value, int)
                if d.names:
                    return " | ".join(self.constant(d.type, name) for name in d.names)
                return self.integer(t, d.value)
            if k == "int":
                assert isinstance(d.value, int)
                return self.integer(t, d.value)
            return zero(self, t)
        return zero(self, t)


def js_number(text: str) -> str:
    """A schema real literal as a JavaScript number literal (its value as a double)."""
    v = float(text)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v).removesuffix(".0")


def zero(c: Context, t: ir.Type) -> str:
    """The default of a type without a schema default: zero, false, empty, undefined, a new struct."""
    if isinstance(t, ir.Primitive):
        if t.name == "bool":
            return "false"
        if t.name == "string":
            return '""'
        if t.name == "bytes":
            return "new Uint8Array(0)"
        if t.name == "uuid":
            return f"{c.rt('Uuid')}.NIL"
        if t.name == "decimal":
            return f"{c.rt('Decimal')}.ZERO"
        return "0n" if t.name in BIGINTS else "0"
    if isinstance(t, ir.EnumRef):
        return "0n" if t.wire in BIGINTS else "0"
    if isinstance(t, ir.StructRef):
        return f"new {c.named(t.name)}()"
    if isinstance(t, ir.Optional_):
        return "undefined"
    if isinstance(t, ir.Array):
        element = zero(c, t.element)
        if isinstance(t.element, (ir.StructRef, ir.Primitive)) and element.startswith("new "):
            return f"Array.from({{ length: {t.length} }}, () => {element})"
        return f"new Array{c.generic(c.type(t.element))}({t.length}).fill({element})"
    if isinstance(t, ir.Sequence):
        return f"new Set{c.generic(c.type(t.element))}()" if t.kind == "set" and by_value(t.element) else "[]"
    if by_value(t.key):
        return f"new Map{c.generic(c.type(t.key), c.type(t.value))}()"
    return "[]"


def write_enum(w: CodeWriter, c: Context, e: ir.Enum, d: CodeWriter | None) -> None:
    """The enum's type and constant object; in JavaScript the object, its declarations in `d`."""
    name = c.ident.type(e.qualified)
    what = "flags" if e.kind == "flags" else "enum"
    ts = "bigint" if e.wire in BIGINTS else "number"
    suffix = "n" if ts == "bigint" else ""
    comment = f"/** The {what} {e.qualified} (on the wire: {e.wire}). Values that are not declared are kept. */"
    for out in (w, d) if d is not None else (w,):
        out.line(comment)
    if d is not None:
        d.line(f"export type {name} = {ts};")
        with d.block(f"export declare const {name}: {{", "};"):
            for v in e.values:
                d.line(f"readonly {c.ident.value(e.qualified, v.name)}: {v.value}{suffix};")
        d.blank()
    else:
        w.line(f"export type {name} = {ts};")
    closing = "} as const;" if c.ts else "};"
    if e.values:
        with w.block(f"export const {name} = {{", closing):
            for v in e.values:
                w.line(f"{c.ident.value(e.qualified, v.name)}: {v.value}{suffix},")
    else:
        w.line(f"export const {name} = {{{closing}")
    w.blank()
    from fbec.targets.typescript.textform import write_enum_text
    write_enum_text(w, c, e, d)


def write_struct(w: CodeWriter, c: Context, s: ir.Struct, d: CodeWriter | None) -> None:
    """The struct's class; in JavaScript without types, its declaration in `d`."""
    from fbec.targets.typescript.jsonconv import write_json, write_json_read
    from fbec.targets.typescript.models import write_models
    from fbec.targets.typescript.textform import write_struct_text
    name = c.ident.type(s.qualified)
    what = "message" if s.message else "struct"
    comment = f"/** The {what} {s.qualified} (type id {s.type_id}). */"
    w.line(comment)
    extends = f" extends {c.named(s.base)}" if s.base is not None else ""
    over = "override " if s.base is not None and c.ts else ""
    c.declarations = []
    keys = [f for f in s.all_fields if f.name in s.keys]
    with w.block(f"export class {name}{extends} {{", "}"):
        w.line(f"/** The type id of {s.qualified}. */")
        w.line(f"static {over}readonly fbeType: number = {s.type_id};" if c.ts else f"static fbeType = {s.type_id};")
        w.blank()
        if c.ts:
            for f in s.fields:
                w.line(f"{c.ident.field(f)}: {c.type(f.type)};")
            if s.fields:
                w.blank()
        w.line("/** A value with the schema's defaults, then the fields of `init`. */")
        with w.block(f"constructor(init?: Partial<{name}>) {{" if c.ts else "constructor(init) {", "}"):
            if s.base is not None:
                w.line("super();")
            for f in s.fields:
                w.line(f"this.{c.ident.field(f)} = {c.default(f.type, f.default)};")
            with w.block("if (init !== undefined) {", "}"):
                w.line("Object.assign(this, init);")
        if keys:
            w.blank()
            w.line("/** The [key] fields as one string: a set, or a map keyed by this struct, holds each key once. */")
            key_over = "override " if s.base and has_keys(c, s.base) and c.ts else ""
            with w.block(f"{key_over}fbeKey(){c.annot('string')} {{", "}"):
                w.line(f"return {c.rt('keysOf')}({', '.join(key_value(f.type, 'this.' + c.ident.field(f)) for f in keys)});")
            w.blank()
            w.line("/**")
            w.line(" * Orders values by their [key] fields in turn, as sets of them and maps keyed by them are written;")
            w.line(" * 0 for the same key, which no set or map holds twice (docs/limits.md 4).")
            w.line(" */")
            over = "override " if s.base and has_keys(c, s.base) else ""
            with w.block(c.method(f"static {over}", "fbeCompareKey", [("a", name), ("b", name)], "number"), "}"):
                terms = [key_compare(c, f.type, "a." + c.ident.field(f), "b." + c.ident.field(f)) for f in keys]
                w.line(f"return {' || '.join(t for t in terms if t) or '0'};")
        write_fields(w, c, s, name)
        write_models(w, c, s, name)
        if c.options.json:
            write_json(w, c, s, name)
            write_json_read(w, c, s, name)
        write_struct_text(w, c, s, name)
    w.blank()
    if d is None:
        return
    d.line(comment)
    with d.block(f"export declare class {name}{' extends ' + c.named(s.base, False) if s.base else ''} {{", "}"):
        d.line("static readonly fbeType: number;")
        for f in s.fields:
            d.line(f"{c.ident.field(f)}: {c.type(f.type)};")
        d.line(f"constructor(init?: Partial<{name}>);")
        if keys:
            d.line("fbeKey(): string;")
        for line in c.declarations:
            d.line(line)
    d.blank()


def type_spec(c: Context, t: ir.Type) -> str:
    """The fbe.TypeSpec of t: what fbe.refused checks a field's value against."""
    if isinstance(t, ir.Primitive):
        return ts_string(t.name)
    if isinstance(t, ir.EnumRef):
        return f'["enum", {ts_string(t.name)}, "{t.wire}"]'
    if isinstance(t, ir.StructRef):
        return f'["struct", {ts_string(t.name)}, {c.named(t.name)}]'
    if isinstance(t, ir.Optional_):
        return f'["optional", {type_spec(c, t.element)}]'
    if isinstance(t, ir.Array):
        return f'["array", {type_spec(c, t.element)}, {t.length}]'
    if isinstance(t, ir.Sequence):
        return f'["{t.kind}", {type_spec(c, t.element)}]'
    return f'["{t.kind}", {type_spec(c, t.key)}, {type_spec(c, t.value)}]'


def write_fields(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeFields: each field's schema name and type (and property when renamed), which only
    fbe.refused reads, after a root writer failed, to name the field and the type it expects."""
    over = "override " if s.base is not None else ""
    w.blank()
    w.line("/** Each field's name and type: read only to explain a value a writer refused (fbe.refused). */")
    with w.block(c.method(f"static {over}", "fbeFields", [], f"readonly {c.rt('FieldSpec', False)}[]"), "}"):
        if not s.all_fields:
            w.line("return [];")
            return
        with w.block("return [", "];"):
            for f in s.all_fields:
                prop = c.ident.field(f)
                renamed = "" if prop == f.name else f", {ts_string(prop)}"
                w.line(f"[{ts_string(f.name)}, {type_spec(c, f.type)}{renamed}],")


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
    from fbec.targets.typescript.models import compare
    if isinstance(t, ir.Optional_):
        return f"{c.rt('compareOptional')}({a}, {b}, {compare(c, t.element)})"
    if isinstance(t, ir.StructRef) and not has_keys(c, t.name):
        return None
    return f"{compare(c, t)}({a}, {b})"


def has_keys(c: Context, qualified: str) -> bool:
    s = c.schema.struct(qualified)
    return bool(s.keys) or (s.base is not None and has_keys(c, s.base))


def imports_of(c: Context, out: CodeWriter, modules: set[str]) -> None:
    if RUNTIME in modules:
        out.line(f'import * as fbe from "{RUNTIME}";')
    for module in sorted(m for m in modules if m != RUNTIME):
        out.line(f'import * as {c.ident.alias(c.package.name, module[2:-3])} from "{module}";')


def generate_package(schema: ir.Schema, package: ir.Package, options: Options, ts: bool) -> list[GeneratedFile]:
    """`<package>.ts`, or `<package>.js` and its declarations `<package>.d.ts`."""
    c = Context(schema, package, options, ts)
    unit = Options(indent=2, tabs=options.tabs)     # 2 spaces (-t: tabs), whatever -n says
    body = CodeWriter(unit)
    declarations = None if ts else CodeWriter(unit)
    for e in package.enums + package.flags:
        write_enum(body, c, e, declarations)
    for s in package.structs:
        write_struct(body, c, s, declarations)
    if options.proto:
        from fbec.targets.typescript.protocol import write_protocol
        write_protocol(body, c, declarations)
    out = CodeWriter(unit)
    out.lines(generated_header(package))
    out.blank()
    imports_of(c, out, c.imports.modules)
    out.blank()
    if c.constants:
        out.line("// Immutable defaults, made once.")
        for expression, name in c.constants.items():
            out.line(f"const {name} = {expression};")
        out.blank()
    out.lines(body.text())
    if declarations is None:
        return [GeneratedFile(f"{package.name}.ts", out.text())]
    d = CodeWriter(unit)
    d.lines(generated_header(package))
    d.blank()
    imports_of(c, d, c.imports.modules | c.type_imports.modules)
    d.blank()
    d.lines(declarations.text())
    return [GeneratedFile(f"{package.name}.js", out.text()), GeneratedFile(f"{package.name}.d.ts", d.text())]


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return generate_package(schema, schema.main_package, options, ts=True)
