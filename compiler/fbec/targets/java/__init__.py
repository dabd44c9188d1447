"""fbec.targets.java: Java code for a schema package: `fbec --java [--final] [--json] [--proto]`.

Generated per schema package, a Java package (the schema's `domain` and package name,
`com.chronoxor.proto`) with a file per enum, flags and struct: enums and flags as final value
classes (a constant per declared value, `of(wire)` for any value, undeclared ones kept), structs
as plain mutable classes with public fields (a base struct is the superclass), the schema's
defaults as field initializers, `equals`/`hashCode`/`KEY_ORDER` over the `[key]` fields, and the
versioned model (models.py; `--final`: the final model too) on the runtime
`io.github.fbetoolkit.fbe` (runtime/java, docs/java.md); with `--json` JSON (json.py); with `--proto`
the protocol's Handler, Receiver and Sender (protocol.py).
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options
from fbec.targets.java.json import write_json
from fbec.targets.java.models import write_models
from fbec.targets.java.protocol import client
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import SCHEMA_CLASS, generate_package, text, write_schema_class
from fbec.targets.jvm.context import JAVA_WIRE, doc, java_int_literal, signed, summary
from fbec.targets.jvm.members import flags_text, write_equality, write_key_order
from fbec.targets.jvm.models import root_interfaces

__all__ = ["Context", "generate"]

# ---------------------------------------------------------------- files

def write_enum(c: Context, w: CodeWriter, e: ir.Enum, options: Options) -> str:
    name = c.named(e.qualified)
    java, bits = JAVA_WIRE[e.wire]
    boxed = {"byte": "Byte", "short": "Short", "int": "Integer", "long": "Long"}[java]
    unsigned = e.wire.startswith("uint")
    flags = e.kind == "flags"
    doc(w, f"{summary(e)}: a constant per", "declared value; {@link #of} keeps any other value as it is.")
    with w.block(f"public final class {name} implements Comparable<{name}> {{", "}"):
        for v in e.values:
            w.line(f"public static final {name} {c.ident.value(e.qualified, v.name)} = "
                   f"new {name}({java_int_literal(v.value, java)});")
        if e.values:
            w.blank()
        w.line(f"private final {java} value;")
        w.blank()
        with w.block(f"private {name}({java} value) {{", "}"):
            w.line("this.value = value;")
        w.blank()
        doc(w, f"The {e.kind} value of a wire integer: a declared constant, or a new value.", "",
            "@param value the wire integer", "@return the value")
        with w.block(f"public static {name} of({java} value) {{", "}"):
            long = "L" if java == "long" else ""
            firsts = [(f"{signed(v.value, bits)}{long}", v) for v in e.text_values]
            returned(w, java != "long", [(s, c.ident.value(e.qualified, v.name)) for s, v in firsts],
                     f"new {name}(value)")
        w.blank()
        members = [("@return the wire integer", "value", "", java, "value")]
        if flags:
            members += [(f"@param other flags @return {what}", op, f"{name} other", name,
                         f"of(({java}) (value {sign} other.value))" if java in ("byte", "short")
                         else f"of(value {sign} other.value)")
                        for op, sign, what in (("or", "|", "the flags set in this or in other"),
                                               ("and", "&", "the flags set in both"))]
            members.append(("@param other flags @return whether every flag of other is set in this", "has",
                            f"{name} other", "boolean", "(value & other.value) == other.value"))
        for text, method, params, returns, expr in members:
            w.line(f"/** {text} */")
            c.returns(w, c.method(method, params, returns), expr)
            w.blank()
        compare = "compareUnsigned" if unsigned else "compare"
        for method, params, returns, expr in (
                ("equals", "Object other", "boolean", f"other instanceof {name} && (({name}) other).value == value"),
                ("hashCode", "", "int", f"{boxed}.hashCode(value)"),
                ("compareTo", f"{name} other", "int", f"{boxed}.{compare}(value, other.value)")):
            c.returns(w, c.override(w, method, params, returns), expr)
            w.blank()
        w.line("/** The text form (docs/format.md 9). */")
        w.line("@Override")
        with w.block("public String toString() {", "}"):
            if flags:
                flags_text(w, c, e, "value", lambda v: java_int_literal(v, java))
            else:
                returned(w, False, [(s, f'"{v.name}"') for s, v in firsts], '"<unknown>"')
    return name


def returned(w: CodeWriter, switch: bool, cases: list[tuple[str, str]], default: str) -> None:
    """Return the expression of the first case whose literal `value` equals, else default: a switch
    (when switch and there are cases) or a chain of ifs."""
    if switch and cases:
        with w.block("switch (value) {", "}"):
            for label, expr in [*cases, ("", default)]:
                w.line(f"case {label}:" if label else "default:")
                with w.indented():
                    w.line(f"return {expr};")
        return
    for label, expr in cases:
        with w.block(f"if (value == {label}) {{", "}"):
            w.line(f"return {expr};")
    w.line(f"return {default};")


def write_struct(c: Context, w: CodeWriter, s: ir.Struct, options: Options) -> str:
    name = c.named(s.qualified)
    doc(w, f"{summary(s)}.")
    if s.base is not None:
        parents = f"extends {c.named(s.base)}"
    else:
        parents = f"implements {', '.join(root_interfaces(c, options))}"
    inner = CodeWriter(options)
    with w.block(f"public class {c.ident.type(s.qualified)} {parents} {{", "}"):
        write_struct_body(inner, c, s, name, options)
        w.lines(inner.text())
    return c.ident.type(s.qualified)


def write_struct_body(w: CodeWriter, c: Context, s: ir.Struct, name: str, options: Options) -> None:
    w.line(f"/** The type id of {s.qualified}. */")
    w.line(f"public static final int TYPE_ID = {s.type_id};")
    w.blank()
    for f in s.fields:
        if f.deprecated:
            w.line("/** Deprecated in the schema. */")
        w.line(f"public {c.type(f.type)} {c.ident.field(f)} = {c.default(f.type, f.default)};")
    if s.fields:
        w.blank()
    write_keys(w, c, s, name)
    write_to_string(w)
    text.write_text(w, c, s, name)
    write_models(w, c, s, name, options.final)
    if options.json:
        write_json(w, c, s, name)




def write_to_string(w: CodeWriter) -> None:
    """toString(): the text form (fbeText)."""
    w.line("/** @return this value in the original's text form (docs/format.md 9) */")
    w.line("@Override")
    with w.block("public String toString() {", "}"):
        w.line("StringBuilder t = new StringBuilder();")
        w.line("fbeText(t, this);")
        w.line("return t.toString();")
    w.blank()


def write_keys(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """KEY_ORDER, the order of sets and maps of this struct, then equals/hashCode over the [key]
    fields (jvm.members)."""
    head = f"public static final {c.use('java.util.Comparator')}<{name}> KEY_ORDER = (a, b) ->"
    write_key_order(w, c, s, name, f"{head} 0;", (f"{head} {{", "};"))
    write_equality(w, c, s, name)


def write_private_constructor(w: CodeWriter) -> None:
    w.blank()
    with w.block(f"private {SCHEMA_CLASS}() {{", "}"):
        pass


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [*generate_package(schema, options, Context, write_enum, write_struct, client),
            write_schema_class(schema, options, Context,
                               ["The schema of this package, as {@code fbec fingerprint} prints it: a Kafka",
                                f"serde's schema is {{@code FbeSchema.of({SCHEMA_CLASS}.class)}} (docs/kafka.md)."],
                               f"public final class {SCHEMA_CLASS} {{",
                               lambda name, value: f'public static final String {name} = "{value}";',
                               write_private_constructor)]
