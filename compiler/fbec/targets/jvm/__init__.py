"""fbec.targets.jvm: what the Java and Kotlin targets share (issue 22 item 3): one JVM generator.

Both languages run on one runtime (`io.github.fbetoolkit.fbe`, runtime/java), so their generated
code makes the same decisions: the same runtime calls in the same order at the plan's offsets,
the same checks, the same locals. The walkers here (models.py: both binary models and verify;
jsonc.py: JSON; text.py: the text form) make those decisions once, over the plan
(fbec.model.plan), and ask the file's context (context.Context, Java's spelling, subclassed by
fbec.targets.java.syntax for Java's identifiers and by fbec.targets.kotlin.syntax for Kotlin's
spelling) for the text of each construct: a local, a loop, a try/catch, a value crossing to the
runtime's type. The language packages keep what is
only theirs: the declarations of classes, enums and members, and their documentation.

This package is not a target of its own (fbec has no --jvm): `generate_package` is what each
language's `generate` calls with its Context and writers.
"""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter, GeneratedFile, Options, schema_constants
from fbec.targets.jvm import protocol
from fbec.targets.jvm.context import Context


def generate_package(schema: ir.Schema, options: Options, context: type[Context],
                     enum: Callable[..., str], struct: Callable[..., str],
                     client: protocol.Part) -> list[GeneratedFile]:
    """The files of the schema's main package: a class per enum, flags and struct (each written by
    enum or struct, which give its name), and with --proto the protocol's (client: the language's writer
    of the Client)."""
    package = schema.main_package
    out = []
    for t in [*package.enums, *package.flags, *package.structs]:
        c, w = context(schema, package, options.package_prefix), CodeWriter(options)
        if isinstance(t, ir.Struct):
            c.hidden = c.ident.hidden(t)
            out.append(c.file(struct(c, w, t, options), w, options))
        else:
            out.append(c.file(enum(c, w, t, options), w, options))
    return out + (protocol.write_protocol(schema, package, options, context, client) if options.proto else [])


SCHEMA_CLASS = "Fbe"
"""The class (Kotlin: object) of a package's name, version and fingerprint (names.py keeps types clear of it)."""
SCHEMA_DOCS = {"package": "The schema package's name.", "version": "The schema package's version.",
               "fingerprint": "The schema's fingerprint: SHA-256 of the package's wire contract, in hex."}


def write_schema_class(schema: ir.Schema, options: Options, context: type[Context], doc: list[str], head: str,
                       constant: Callable[[str, str], str], tail: Callable[[CodeWriter], None] | None) -> GeneratedFile:
    """The class `Fbe` of the package's name, version and fingerprint (what `fbec fingerprint` prints),
    for a Kafka serde's schema (docs/kafka.md): doc is its comment's lines, head opens it,
    `constant(name, value)` declares a constant (after its comment; Kotlin's: a blank line between
    them), tail (Java's) writes what follows them."""
    package = schema.main_package
    c, w = context(schema, package, options.package_prefix), CodeWriter(options)
    values = schema_constants(schema, package)
    w.line("/**")
    for line in doc:
        w.line(f" * {line}")
    w.line(" */")
    with w.block(head, "}"):
        for i, (key, text) in enumerate(SCHEMA_DOCS.items()):
            if i and tail is None:
                w.blank()
            w.line(f"/** {text} */")
            w.line(constant(key.upper(), values[key]))
        if tail is not None:
            tail(w)
    return c.file(SCHEMA_CLASS, w, options)
