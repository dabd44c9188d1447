"""The binary models of fbec --java: the codecs' declarations and documentation around the JVM
walkers' statements (fbec.targets.jvm.models), on the runtime's Writer and Reader (docs/format.md 3
and 4, docs/limits.md).

Per struct, static codecs that other generated classes call (`fbeWrite`/`fbeRead` of a versioned
body at a slot, `fbeWriteFinal`/`fbeReadFinal` of final-model fields) and the roots users call
(`writeFbe`, `readFbe`, `fromFbe`, `verifyFbe` and their final twins; the runtime's VersionedRoot
and FinalRoot, which a struct without a base implements, document the first two and give their
shorter forms, `toFbe()` and `readFbe(data)` among them). The codecs are static,
overloaded by the struct's class, so a field declared as a base struct is written as that struct
whatever subclass it holds. Readers read into a value made with the schema's defaults (so a
field an older writer did not write keeps its default) and throw DecodeException at the first
problem; a nested struct's reader is wrapped so the exception gains the field path on its way
out (`e.at("orders", i)`).
"""

from __future__ import annotations

from functools import partial

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import models
from fbec.targets.jvm.context import doc, member

# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    """The codecs (fbec.targets.jvm.models.write_codecs) as static methods, and the roots."""
    writer, reader, decode_exception = c.rt("Writer"), c.rt("Reader"), c.rt("DecodeException")
    codecs = {
        "fbeWrite": (
            f"public static void fbeWrite({writer} w, int base, int slot, {name} v) {{",
            "Writes v's versioned body, its offset stored in the slot at slot (from base).", "",
            "@param w    the writer", "@param base the base of the slot",
            "@param slot the slot's absolute position", "@param v    the value"),
        "fbeExplain": (
            f"public static void fbeExplain({name} v) {{",
            "Throws the EncodeException of the first field of v a writer refuses (a null where the type has",
            "none, a string holding a lone surrogate, a decimal beyond 96 bits, a fixed array of another",
            "length), naming its field path: run after a write failed, to explain it (docs/limits.md 8).", "",
            "@param v the value"),
        "fbeRead": (
            f"public static void fbeRead({reader} r, int base, int slot, {name} v) throws {decode_exception} {{",
            "Reads the versioned body the slot at slot points to (from base) into v, overwriting every",
            "field and reusing what v holds (nested structs, an optional struct, the elements of a vector",
            "of structs, the collections); fields an older writer did not write take the schema's",
            "defaults. After an error v is left part read (the roots reset it).", "", "@param r    the reader",
            "@param base the base of the slot", "@param slot the slot's absolute position",
            "@param v    the value", "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeVerify": (
            f"public static void fbeVerify({reader} r, int base, int slot) throws {decode_exception} {{",
            "Checks the versioned body the slot at slot points to (from base) as {@link #fbeRead} reads",
            "it, without building the value: the same checks in the same order, the same errors.", "",
            "@param r    the reader", "@param base the base of the slot",
            "@param slot the slot's absolute position",
            "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeWriteFinal": (
            f"public static void fbeWriteFinal({writer} w, {name} v) {{",
            "Appends v's fields (final model, docs/format.md 4.2).", "", "@param w the writer",
            "@param v the value"),
        "fbeReadFinal": (
            f"public static void fbeReadFinal({reader} r, {name} v) throws {decode_exception} {{",
            "Reads v's fields at the reader's cursor (final model) into v, overwriting every field and",
            "reusing what v holds as {@link #fbeRead} does. After an error v is left part read.", "",
            "@param r the reader", "@param v the value",
            "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeVerifyFinal": (
            f"public static void fbeVerifyFinal({reader} r) throws {decode_exception} {{",
            "Checks the fields at the reader's cursor (final model) as {@link #fbeReadFinal} reads them,",
            "without building the value: the same checks in the same order, the same errors.", "",
            "@param r the reader", "@throws DecodeException at the first problem (docs/limits.md)"),
    }
    models.write_codecs(w, c, s, final, lambda codec: member(w, *codecs[codec]),
                        partial(write_defaults, w, c, s, name), partial(write_roots, w, c, s, name))


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """write{suffix} (the runtime's VersionedRoot or FinalRoot documents it and gives to{suffix}()), then
    from{suffix}, read{suffix} into this value and verify{suffix} (suffix Fbe or Final)."""
    writer, limits, decode_exception = c.rt("Writer"), c.rt("Limits"), c.rt("DecodeException")
    versioned = suffix == "Fbe"
    w.line("@Override")
    with w.block(f"public int write{suffix}({writer} w) {{", "}"):
        models.root_write(w, c, s, model)
    w.blank()
    given = ("@param data   the buffer", "@param offset the root's first byte", "@param length the bytes given",
             "@param limits the limits (docs/limits.md)")
    failed = "@throws DecodeException at the first problem (type, field path, offset)"
    reset = f"{failed}; this value is reset"
    # each root reader (into: a new value v, this value, none: verify) with the default limits, then given them
    for method, returns, into, short, full in (
            ("from", f"static {name}", "v", (f"Reads a {model} root under the default limits.", "",
                                              "@param data the root", "@return the value", failed),
             (f"Reads a {model} root of length bytes at data[offset] under limits.", "", *given, "@return the value",
              failed)),
            ("read", "void", "this",
             (f"Reads a {model} root into this value under the default limits, reusing what it holds.", "",
              "@param data the root", reset),
             (f"Reads a {model} root of length bytes at data[offset] under limits into this value,",
              "overwriting every field and reusing its nested structs, optional structs, the elements of",
              "its vectors of structs and its collections: a server reading into one value allocates",
              "little more than the strings while the messages keep their shape.", "", *given, reset,
              "                        to the schema's defaults")),
            ("verify", "static void", None,
             (f"Checks a {model} root under the default limits (see the four-argument form).", "",
              "@param data the root", "@throws DecodeException why the root cannot be read"),
             (f"Checks a {model} root without building the value: returns exactly when from{suffix}",
              "succeeds and otherwise throws the exception it throws (docs/limits.md 4). Only sets and maps",
              "are read, into locals, to find a key read twice.", "", *given,
              "@throws DecodeException why the root cannot be read"))):
        for params, lines in (("byte[] data", short), (f"byte[] data, int offset, int length, {limits} limits", full)):
            doc(w, *lines)
            if into == "this" and s.base is not None:
                w.line("@Override")
            with w.block(f"public {returns} {method}{suffix}({params}) throws {decode_exception} {{", "}"):
                if lines is full:
                    models.root_read(w, c, s, versioned, into, name)
                else:
                    w.line(f"{'return ' if into == 'v' else ''}{method}{suffix}(data, 0, data.length, "
                           f"{limits}.DEFAULT);")
            w.blank()


def write_defaults(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """reset() (the runtime's VersionedRoot documents it) and fbeDefaults(v, from): the schema's
    defaults of the fields, what fbeRead gives the fields a shorter (older) body does not hold, as a
    new value has them (collections emptied in place)."""
    own = bool(c.plan.struct(s.qualified).own_fields)
    w.line("@Override")
    with w.block("public void reset() {", "}"):
        if s.base is not None:
            w.line("super.reset();")
        if own:
            w.line("fbeDefaults(this, 0);")
    w.blank()
    if own:
        with member(w, f"private static void fbeDefaults({name} v, int from) {{",
                    "Sets the own fields from the from-th on to the schema's defaults."):
            models.defaults_fields(w, c, s)
