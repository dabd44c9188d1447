"""fbec.targets.csharp: one C# file per schema package, on the runtime assembly Fbe.dll (runtime/csharp).

A package's file is a namespace holding its enums (C# enums of the schema's underlying type, `[Flags]`
for flags) and structs (a class each, derived from its base's class), each class with its nested
`Model`: the versioned and final models at the offsets, sizes and costs the IR and the plan
(fbec.model.plan) decided (models.py). The generator prints them and computes none of them. Types of
other packages are named by their namespace (`global::Proto.Order`): a user compiles the generated
files of a schema and its imports together (docs/csharp.md).
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options, generated_header
from fbec.targets.csharp.context import KEY_ORDERS, KEY_SAMENESS, PRIMITIVES, Context, braces, member, value_type
from fbec.targets.csharp.models import write_model
from fbec.targets.csharp.proto import USINGS, uses_client, write_protocol


def write_enum(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name, wire = c.ident.type(e.qualified), PRIMITIVES[e.wire]
    kind = "flags" if e.kind == "flags" else "enum"
    w.line(f"/// <summary>The schema's <c>{kind} {e.name}</c> (on the wire as <c>{wire}</c>); values it does not "
           "name are kept.</summary>")
    if e.kind == "flags":
        w.line("[Flags]")
    with braces(w, f"public enum {name} : {wire}"):
        for v in e.values:
            ident = c.ident.value(e.qualified, v.name)
            named = "" if ident == v.name else f'[SchemaName("{v.name}")] '
            w.line(f"{named}{ident} = {v.value},")
    w.blank()


def keyed(t: ir.Type) -> bool:
    """Whether values of t compare as keys in the generated CompareTo: scalars, strings, bytes, structs."""
    return isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef))


def compare(c: Context, t: ir.Type, a: str, b: str) -> str:
    if isinstance(t, ir.Primitive) and t.name in KEY_ORDERS:
        return f"{KEY_ORDERS[t.name]}.Compare({a}, {b})"
    if isinstance(t, ir.Primitive):
        return f"{a}.CompareTo({b})"
    return f"Comparer<{c.type(t)}>.Default.Compare({a}, {b})"


def hash_of(c: Context, t: ir.Type, a: str) -> str:
    if isinstance(t, ir.Primitive) and t.name in KEY_SAMENESS:
        return f"{KEY_SAMENESS[t.name]}.GetHashCode({a})"
    if isinstance(t, ir.Primitive) or isinstance(t, ir.EnumRef) and value_type(t):
        return f"{a}.GetHashCode()"
    return f"EqualityComparer<{c.type(t)}>.Default.GetHashCode({a})"


def write_keys(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """CompareTo, Equals and GetHashCode by the [key] fields in turn (as the original's C#): the order of a
    set of the struct and the sameness of its keys; all values of a struct without [key] fields are the
    same key (docs/limits.md 4)."""
    fields = {f.name: f for f in s.all_fields}
    keys = [(fields[k].type, c.ident.field(s.qualified, k)) for k in s.keys]
    w.line("/// <summary>Compares by the schema's [key] fields in turn (the order of a set of them).</summary>")
    with braces(w, f"public int CompareTo({name} other)"):
        w.line("if (ReferenceEquals(other, null))")
        with w.indented():
            w.line("return 1;")
        for k, (t, ident) in enumerate(keys):
            w.line(f"{'int ' if k == 0 else ''}order = {compare(c, t, ident, 'other.' + ident)};")
            w.line("if (order != 0)")
            with w.indented():
                w.line("return order;")
        w.line("return 0;")
    w.blank()
    member(w, "Whether the [key] fields are the same.", f"public bool Equals({name} other)",
           "return !ReferenceEquals(other, null) && CompareTo(other) == 0;")
    w.blank()
    with braces(w, "public override bool Equals(object obj)"):
        w.line(f"return Equals(obj as {name});")
    w.blank()
    with braces(w, "public override int GetHashCode()"):
        if not keys:
            w.line("return 0;")
        else:
            w.line("int hash = 17;")
            for t, ident in keys:
                w.line(f"hash = unchecked(hash * 31 + {hash_of(c, t, ident)});")
            w.line("return hash;")
    w.blank()


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The roots every class has: ToFbe/ToFinal of the value, FromFbe/FromFinal/VerifyFbe/VerifyFinal of
    a buffer, under the default limits or the caller's."""
    hide = "new " if s.base else ""
    virtual = "override" if s.base else "virtual"
    for model, doc in (("Fbe", "versioned"), ("Final", "final")):
        for summary, head, body in (
                (f"The value as a {doc} root.", f"{virtual} byte[] To{model}()",
                 f"return Model.Instance.To{model}(this);"),
                ((f"Writes the value as a {doc} root into <paramref name=\"w\"/> (reset first): the root is "
                  "<c>w.Buffer[0..w.Size)</c>; a reused writer allocates nothing."),
                 f"{virtual} void Write{model}(Writer w)", f"Model.Instance.Write{model}(w, this);"),
                (f"Reads a value from a {doc} root under the default limits (docs/limits.md).",
                 f"static {hide}{name} From{model}(byte[] data)",
                 f"return Model.Instance.From{model}(data, data.Length, Limits.Default);"),
                ((f"Reads a value from a {doc} root of <paramref name=\"length\"/> bytes under "
                  "<paramref name=\"limits\"/>."),
                 f"static {hide}{name} From{model}(byte[] data, int length, Limits limits)",
                 f"return Model.Instance.From{model}(data, length, limits);"),
                (f"Returns exactly when From{model} reads the root, throws its error otherwise.",
                 f"static {hide}void Verify{model}(byte[] data, int length, Limits limits)",
                 f"Model.Instance.Verify{model}(data, length, limits);")):
            member(w, summary, f"public {head}", body)
            w.blank()


def write_struct(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    name = c.ident.type(s.qualified)
    base = f" : {s.base}" if s.base else ""
    w.line(f"/// <summary>The schema's <c>struct {s.name}{base}</c> (type id {s.type_id}).</summary>")
    comparable = all(keyed(f.type) for f in s.all_fields if f.name in s.keys)
    parents = ([c.named(s.base)] if s.base else []) + (
        [f"IComparable<{name}>", f"IEquatable<{name}>"] if comparable else [])
    with braces(w, f"public class {name}" + (f" : {', '.join(parents)}" if parents else "")):
        w.line("/// <summary>The type id (docs/format.md 6).</summary>")
        w.line(f"public {'new ' if s.base else ''}const uint TypeId = {s.type_id};")
        w.blank()
        for f in s.fields:
            value = c.default(f.type, f.default)
            init = f" = {value};" if value else ""
            w.line(f"public {c.type(f.type)} {c.ident.field(s.qualified, f.name)} {{ get; set; }}{init}")
        if s.fields:
            w.blank()
        write_roots(w, c, s, name)
        if len(parents) > (1 if s.base else 0):
            write_keys(w, c, s, name)
        if c.options.json:
            member(w, "The value as JSON (docs/format.md 8), the original's bytes.",
                   f"public {'override' if s.base else 'virtual'} string ToJson()",
                   "return Model.Instance.ToJson(this);")
            w.blank()
            hide = "new " if s.base else ""
            member(w, "Reads a value from JSON text under the default limits (docs/limits.md 7).",
                   f"public static {hide}{name} FromJson(string json)", "byte[] utf8 = Utf8.Bytes(json);",
                   "return Model.Instance.FromJson(utf8, utf8.Length, Limits.Default);")
            w.blank()
            member(w, ("Reads a value from UTF-8 JSON text of <paramref name=\"length\"/> bytes under "
                       "<paramref name=\"limits\"/>."),
                   f"public static {hide}{name} FromJson(byte[] utf8, int length, Limits limits)",
                   "return Model.Instance.FromJson(utf8, length, limits);")
            w.blank()
        member(w, "The text form (docs/format.md 9), as the original's operator&lt;&lt; prints it.",
               "public override string ToString()", "var t = new TextBuilder();", "Model.Instance.Text(t, this);",
               "return t.ToString();")
        w.blank()
        write_model(w, c, s)
    w.blank()


def generate_package(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    declared: list[ir.Enum | ir.Struct] = [*package.enums, *package.flags, *package.structs]
    types = {Context.type_name(schema, x) for x in declared}
    c = Context(schema, package, GeneratedFile(f"{Context.file_name(schema, package)}.cs", taken=types.__contains__),
                options)
    body = CodeWriter(options)
    for e in package.enums + package.flags:
        write_enum(body, c, e)
    for s in package.structs:
        write_struct(body, c, s)
    if options.proto:
        write_protocol(body, c)
    out = CodeWriter(options)
    out.lines(generated_header(package))
    out.blank()
    usings = ("System", "System.Collections.Generic",
              *(USINGS if options.proto and uses_client(package) else ()), "Fbe")
    for using in usings:
        out.line(f"using {using};")
    out.blank()
    with braces(out, f"namespace {c.ident.namespace(package.name)}"):
        out.lines(body.text().rstrip("\n"))
    c.file.text = out.text()
    return c.file


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [generate_package(schema, schema.main_package, options)]
