"""fbec.targets.kotlin: Kotlin code for a schema package over the Java runtime: `fbec --kotlin`.

Generated per schema package, a Kotlin package (the schema's `domain` and package name,
`com.chronoxor.proto`, as the Java target's) with a file per enum, flags and struct, calling the
runtime `io.github.fbetoolkit.fbe` (runtime/java) that generated Java calls too (docs/kotlin.md):

* enums and flags as `@JvmInline value class`es of their wire type (`OrderSide(val value: UByte)`),
  a companion constant per declared value, undeclared values kept (as the Java target's value
  classes);
* structs as open classes: a primary constructor of `var` properties with the schema's defaults
  as default arguments (named arguments build a value), equality and hash over the `[key]`
  fields and `KEY_ORDER` (as the Java target and the original), `toString()` the original's text
  form (jvm/text.py, as the Java target's).
  Not data classes: any schema that imports a package may derive from its structs
  (`protoex.Balance : proto.Balance`), and a data class cannot be derived from;
* unsigned integers as Kotlin's unsigned types (`UByte`, `UInt`...), optionals as nullable types,
  `MutableList`/`MutableSet`/`MutableMap` for the collections (sets and maps sorted in the wire
  order, hashes in insertion order), fixed arrays as Kotlin arrays;
* the versioned model (models.py; `--final`: the final model too): `writeFbe(w)`, `readFbe(...)`
  (the runtime's VersionedRoot gives `toFbe()` and the shorter reads), `T.fromFbe(data)`,
  `T.verifyFbe(data)` and their final twins (FinalRoot);
* with `--json` JSON (json.py): `writeJson(j)` (JsonRoot gives `toJson()`), `T.fromJson(text)`;
* with `--proto` the protocol (protocol.py): Handler, Receiver, Sender, Proxy, Client and the final
  twins on the runtime's FrameReceiver, FrameSender and FrameClient.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options
from fbec.targets.jvm import SCHEMA_CLASS, generate_package, write_schema_class
from fbec.targets.jvm.context import doc, signed, summary
from fbec.targets.jvm.members import flags_text, write_equality
from fbec.targets.jvm.models import root_interfaces
from fbec.targets.kotlin.models import write_models
from fbec.targets.kotlin.names import kotlin_package
from fbec.targets.kotlin.protocol import client
from fbec.targets.kotlin.syntax import BITS, WIRE, Context, fits, int_literal, signature

__all__ = ["Context", "generate", "kotlin_package"]

def when_literal(value: int, kotlin: str) -> str:
    """The `when` branch literal of a wire value compared with `value` (widened to Int when narrower)."""
    if kotlin in ("Byte", "Short", "UByte", "UShort"):
        return str(signed(value, BITS[kotlin]) if kotlin in ("Byte", "Short") else value & ((1 << BITS[kotlin]) - 1))
    return int_literal(value, kotlin)


def write_enum(c: Context, w: CodeWriter, e: ir.Enum, options: Options) -> str:
    name = c.named(e.qualified)
    kotlin = WIRE[e.wire]
    flags = e.kind == "flags"
    narrow = kotlin in ("Byte", "Short", "UByte", "UShort")
    subject = "value.toInt()" if narrow else "value"
    firsts = e.text_values
    doc(w, f"{summary(e)}: a constant per", f"declared value; `{name}(value)` keeps any other value as it is.")
    w.line("@JvmInline")
    with w.block(f"value class {name}(val value: {kotlin}) : Comparable<{name}> {{", "}"):
        if flags:
            # Kotlin's and/or of Byte and Short are experimental: through Int
            a, b = ("value.toInt()", "other.value.toInt()") if kotlin in ("Byte", "Short") else ("value", "other.value")
            into, out = ("(", f").to{kotlin}()") if kotlin in ("Byte", "Short") else ("", "")
            for op, what in (("or", "The flags set in this or in [other]."), ("and", "The flags set in both.")):
                w.line(f"/** {what} */")
                w.line(f"infix fun {op}(other: {name}): {name} = {name}({into}{a} {op} {b}{out})")
                w.blank()
            w.line("/** Whether every flag of [other] is set in this. */")
            w.line(f"fun has(other: {name}): Boolean = ({a} and {b}) == {b}")
            w.blank()
        w.line(f"override fun compareTo(other: {name}): Int = value.compareTo(other.value)")
        w.blank()
        w.line("/** The text form (docs/format.md 9). */")
        if flags:
            with w.block("override fun toString(): String {", "}"):
                flags_text(w, c, e, subject, lambda v: when_literal(v, kotlin))
        elif firsts:
            with w.block(f"override fun toString(): String = when ({subject}) {{", "}"):
                for v in firsts:
                    w.line(f'{when_literal(v.value, kotlin)} -> "{v.name}"')
                w.line('else -> "<unknown>"')
        else:
            w.line('override fun toString(): String = "<unknown>"')
        if e.values:
            w.blank()
            with w.block("companion object {", "}"):
                for v in e.values:
                    w.line(f"val {c.ident.value(e.qualified, v.name)} = {name}({int_literal(v.value, kotlin)})")
    return name


def write_to_string(w: CodeWriter, name: str) -> None:
    """The member toString(): the text form (the companion's fbeText)."""
    w.line("/** This value in the original's text form (docs/format.md 9): `Name(field=value,...)`. */")
    w.line(f"override fun toString(): String = StringBuilder().also {{ {name}.fbeText(it, this) }}.toString()")
    w.blank()


def write_struct(c: Context, w: CodeWriter, s: ir.Struct, options: Options) -> str:
    name = c.named(s.qualified)
    doc(w, f"{summary(s)}: every property starts", "at the schema's default, and named arguments set any of them.")
    inherited = [f for f in s.all_fields if f.owner != s.qualified]
    params = [f"{'' if f in inherited else 'var '}{c.ident.field(f)}: {c.type(f.type)} = {c.default(f.type, f.default)}"
              for f in s.all_fields]
    derived = s.base is not None
    if s.base is not None:      # a derived struct calls its base's constructor
        supertypes = [f"{c.named(s.base)}({', '.join(c.ident.field(f) for f in inherited)})"]
    else:                       # the runtime's interfaces of the roots
        supertypes = root_interfaces(c, options)
    # several supertypes go one per line after the first (ktlint), each but the last with its comma
    listed = [f"{t}," for t in supertypes[:-1]] + [f"{supertypes[-1]} {{"]
    head = f"open class {c.ident.type(s.qualified)}" + (f"({', '.join(params)})" if params else "")
    flat = not any(f.deprecated for f in s.all_fields)
    if flat and len(listed) == 1 and fits(w, w.depth, f"{head} : {listed[0]}"):
        w.line(f"{head} : {listed[0]}")
    elif flat and (derived or len(listed) > 1) and fits(w, w.depth, f"{head} :"):
        w.line(f"{head} :")                                 # the supertypes on lines of their own
        for line in listed:
            w.line(w.unit + line)
    else:
        w.line(f"open class {c.ident.type(s.qualified)}(")
        with w.indented():
            for f, param in zip(s.all_fields, params):
                if f.deprecated:
                    w.line("/** Deprecated in the schema. */")
                w.line(param + ",")
        if derived:     # the supertype's arguments one per line when its call does not fit
            signature(w, w.depth, f") : {c.named(s.base or '')}", [c.ident.field(f) for f in inherited], " {")
        else:
            w.line(f") : {listed[0]}")
            for line in listed[1:]:
                w.line(w.unit + line)
    with w.block("", "}"):
        write_equality(w, c, s, name)
        write_to_string(w, name)
        write_models(w, c, s, name, options.final, options.json)
    return c.ident.type(s.qualified)




def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    files = generate_package(schema, options, Context, write_enum, write_struct, client)
    doc = ["The schema of this package, as `fbec fingerprint` prints it: a Kafka",
           f"serde's schema is `FbeSchema.of({SCHEMA_CLASS}::class.java)` (docs/kafka.md)."]
    constant = 'const val {} = "{}"'.format
    return [*files, write_schema_class(schema, options, Context, doc, f"object {SCHEMA_CLASS} {{", constant, None)]
