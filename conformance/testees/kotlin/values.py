"""Values.kt of the Kotlin conformance testee: per struct of the conformance schemas, reading it from
a value description (vectors/README.md, "Value descriptions") and writing it as one, driven by the
IR. Scalars go through the helpers of Describe.kt; only the field code is generated here, as the
Go testee's values.py does (Kotlin's unsigned types and value-class enums cannot be reached by
reflection the way the Java testee's public fields are)."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, Options
from fbec.targets.jvm.context import Names
from fbec.targets.kotlin.names import Idents

# Primitive -> the Kotlin expression of its value from the JsonNode {} (the generated types' Kotlin types).
READ = {
    "bool": "D.bool({})", "int8": "D.int({}, -128, 127).toByte()", "byte": "D.int({}, 0, 255).toUByte()",
    "uint8": "D.int({}, 0, 255).toUByte()", "int16": "D.int({}, -32768, 32767).toShort()",
    "uint16": "D.int({}, 0, 65535).toUShort()", "int32": "D.int({}, -2147483648, 2147483647).toInt()",
    "uint32": "D.int({}, 0, 4294967295).toUInt()", "wchar": "D.int({}, 0, 4294967295).toInt()",
    "char": "D.int({}, 0, 255).toInt().toChar()", "int64": "D.text({}).toLong()", "uint64": "D.text({}).toULong()",
    "timestamp": "java.lang.Long.parseUnsignedLong(D.text({}))", "float": "D.real({}).toFloat()",
    "double": "D.real({})", "decimal": "java.math.BigDecimal(D.text({}))", "string": "D.text({})",
    "bytes": "D.hex({})", "uuid": "io.github.fbetoolkit.fbe.Uuids.parse(D.text({}))",
}
# Primitive -> the statement writing the value {} with the JsonGenerator g.
WRITE = {
    "bool": "g.writeBoolean({})", "int8": "g.writeNumber({}.toInt())", "byte": "g.writeNumber({}.toInt())",
    "uint8": "g.writeNumber({}.toInt())", "int16": "g.writeNumber({}.toInt())", "uint16": "g.writeNumber({}.toInt())",
    "int32": "g.writeNumber({})", "uint32": "g.writeNumber({}.toLong())",
    "wchar": "g.writeNumber(Integer.toUnsignedLong({}))", "char": "g.writeNumber({}.code and 0xFF)",
    "int64": "g.writeString({}.toString())", "uint64": "g.writeString({}.toString())",
    "timestamp": "g.writeString(java.lang.Long.toUnsignedString({}))", "float": "g.writeNumber(D.floatText({}))",
    "double": "g.writeNumber(D.doubleText({}))", "decimal": "g.writeString({}.toPlainString())",
    "string": "D.string(g, {})", "bytes": "g.writeString(D.hex({}))", "uuid": "g.writeString({}.toString())",
}


def qualified_class(schema: ir.Schema, qualified: str) -> str:
    return Idents(schema).qualified_type(qualified)


def function(prefix: str, qualified: str) -> str:
    return prefix + qualified.replace(".", "_")


def read(schema: ir.Schema, t: ir.Type, src: str) -> str:
    """The Kotlin expression of the value of type t (a scalar, an enum, a struct or an optional)
    described by the JsonNode src (an enum is built from its wire type's Kotlin value)."""
    if isinstance(t, ir.Primitive):
        return READ[t.name].format(src)
    if isinstance(t, ir.EnumRef):
        return f"{qualified_class(schema, t.name)}({READ[t.wire].format(src)})"
    if isinstance(t, ir.StructRef):
        return f"{function('read_', t.name)}({src})"
    assert isinstance(t, ir.Optional_), t
    return f"if ({src}.isNull) null else {read(schema, t.element, src)}"


def read_field(w: CodeWriter, schema: ir.Schema, t: ir.Type, src: str, target: str, names: Names) -> None:
    """target (a property of a new value) = what src describes; collections filled in place."""
    if isinstance(t, ir.Array):
        i, e = names("i"), names("e")
        with w.block(f"D.list({src}, {t.length}).forEachIndexed {{ {i}, {e} ->", "}"):
            w.line(f'{target}[{i}] = D.at("[${i}]") {{ {read(schema, t.element, e)} }}')
    elif isinstance(t, ir.Sequence):
        i, e = names("i"), names("e")
        w.line(f"{target}.clear()")
        with w.block(f"D.list({src}, -1).forEachIndexed {{ {i}, {e} ->", "}"):
            w.line(f'{target}.add(D.at("[${i}]") {{ {read(schema, t.element, e)} }})')
    elif isinstance(t, ir.Mapping):
        e, kv = names("e"), names("kv")
        w.line(f"{target}.clear()")
        with w.block(f"D.list({src}, -1).forEach {{ {e} ->", "}"):
            w.line(f"val {kv} = D.list({e}, 2)")
            w.line(f"{target}[{read(schema, t.key, f'{kv}[0]')}] = {read(schema, t.value, f'{kv}[1]')}")
    else:
        w.line(f"{target} = {read(schema, t, src)}")


def write(w: CodeWriter, schema: ir.Schema, t: ir.Type, x: str, names: Names) -> None:
    """Describe x (type t) with the JsonGenerator g."""
    if isinstance(t, ir.Primitive):
        w.line(WRITE[t.name].format(x))
    elif isinstance(t, ir.EnumRef):
        w.line(WRITE[t.wire].format(f"{x}.value"))
    elif isinstance(t, ir.StructRef):
        w.line(f"{function('write_', t.name)}(g, {x})")
    elif isinstance(t, ir.Optional_):
        o = names("o")
        w.line(f"val {o} = {x}")
        with w.block(f"if ({o} == null) {{", "} else {"):
            w.line("g.writeNull()")
        with w.block("", "}"):
            write(w, schema, t.element, o, names)
    elif isinstance(t, (ir.Array, ir.Sequence)):
        e = names("e")
        w.line("g.writeStartArray()")
        with w.block(f"for ({e} in {x}) {{", "}"):
            write(w, schema, t.element, e, names)
        w.line("g.writeEndArray()")
    else:
        e = names("e")
        w.line("g.writeStartArray()")
        with w.block(f"for ({e} in {x}.entries) {{", "}"):
            w.line("g.writeStartArray()")
            write(w, schema, t.key, f"{e}.key", names)
            write(w, schema, t.value, f"{e}.value", names)
            w.line("g.writeEndArray()")
        w.line("g.writeEndArray()")


def struct_functions(w: CodeWriter, schema: ir.Schema, s: ir.Struct) -> None:
    cls = qualified_class(schema, s.qualified)
    names = Names()
    with w.block(f"fun {function('read_', s.qualified)}(d: JsonNode): {cls} {{", "}"):
        w.line(f'D.struct(d, "{s.qualified}")')
        w.line(f"val v = {cls}()")
        for f in s.all_fields:
            x = names("x")
            with w.block(f'd.get("{f.name}")?.let {{ {x} ->', "}"), w.block(f'D.at(".{f.name}") {{', "}"):
                read_field(w, schema, f.type, x, f"v.{Idents(schema).field(f)}", names)
        w.line("return v")
    w.blank()
    if not s.all_fields:
        w.line('@Suppress("UNUSED_PARAMETER")')
    with w.block(f"fun {function('write_', s.qualified)}(g: JsonGenerator, v: {cls}) {{", "}"):
        w.line("g.writeStartObject()")
        w.line(f'g.writeStringField("@type", "{s.qualified}")')
        for f in s.all_fields:
            w.line(f'g.writeFieldName("{f.name}")')
            write(w, schema, f.type, f"v.{Idents(schema).field(f)}", names)
        w.line("g.writeEndObject()")
    w.blank()


def values_file(schemas: list[ir.Schema]) -> str:
    """Values.kt: the functions of every struct of the schemas' packages (imports too: their structs
    are fields) and VALUES, each struct's pair of them by its qualified name."""
    body = CodeWriter(Options())
    entries: dict[str, str] = {}
    for schema in schemas:
        for package in schema.packages:
            for s in package.structs:
                if s.qualified in entries:
                    continue
                struct_functions(body, schema, s)
                cls = qualified_class(schema, s.qualified)
                entries[s.qualified] = (f"Described({{ d -> {function('read_', s.qualified)}(d) }}, "
                                        f"{{ g, v -> {function('write_', s.qualified)}(g, v as {cls}) }})")
    out = CodeWriter(Options())
    out.line("// Generated by conformance/testees/kotlin/build.py (values.py). Do not edit.")
    out.blank()
    out.line("import com.fasterxml.jackson.core.JsonGenerator")
    out.line("import com.fasterxml.jackson.databind.JsonNode")
    out.blank()
    with out.block("val VALUES: Map<String, Described> = mapOf(", ")"):
        for q, e in sorted(entries.items()):
            out.line(f'"{q}" to {e},')
    out.blank()
    out.lines(body.text())
    return out.text()
