"""The binary models of fbec --kotlin: straight-line field code at the IR's offsets on the Java
runtime's Writer and Reader (docs/format.md 3 and 4, docs/limits.md), as the Java target's.

Per struct, in its companion object, the codecs other generated classes call (`fbeWrite`/`fbeRead`/
`fbeVerify` of a versioned body at a slot, `fbeWriteFinal`/`fbeReadFinal`/`fbeVerifyFinal` of
final-model fields) and the roots users call (`fromFbe`, `verifyFbe` and their final twins);
`writeFbe(w)`, `readFbe(data, offset, length, limits)` and `reset()` (and the final twins) are
members overriding the runtime's VersionedRoot (FinalRoot), which documents them and gives their
shorter forms (`toFbe()`, `readFbe(data)`), open so a derived struct writes and reads its own
fields. The codecs are per class, so a field declared as a base struct is written as that struct
whatever subclass it holds. Readers overwrite every field of the value they read into, reusing its
objects, as the Java target's (a field an older writer did not write takes its default) and throw
DecodeException at the first problem; a nested struct's reader is wrapped so the exception gains the
field path on its way out (`e.at("orders", i)`). Verify makes the reader's checks in the same order
without the value (the Java target's helpers decide what a type needs checked), so it accepts
exactly what the reader reads. Kotlin's unsigned types cross to the runtime's signed Java types of
their width (`toByte()`, `toUByte()`), at no cost.
"""

from __future__ import annotations

from functools import partial

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm import models, text
from fbec.targets.jvm.context import doc, member, sub
from fbec.targets.jvm.members import write_key_order
from fbec.targets.kotlin.json import write_json, write_json_members
from fbec.targets.kotlin.syntax import Context, signature

# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool, json: bool) -> None:
    """The members (reset, writeFbe, readFbe and the final twins; writeJson), then the companion object
    with the codecs, the roots and the text form."""
    write_reset(w, c, s)
    write_members(w, c, s, name, "Fbe", "versioned")
    if final:
        write_members(w, c, s, name, "Final", "final")
    if json:
        write_json_members(w, c, s, name)
    inner = sub(w)
    write_companion(inner, c, s, name, final)
    if json:
        write_json(inner, c, s, name)
    text.write_text(inner, c, s, name,
                    "Appends [v] in the original's text form to [t]: `Name(field=value,...)`, a base struct first.")
    with w.block("companion object {", "}"):
        w.lines(inner.text())


def write_members(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """write{suffix}(w), overriding the runtime's VersionedRoot or FinalRoot (which documents it and gives
    to{suffix}()), open so a derived struct writes its own fields; then read{suffix}(data, ...) into this
    value."""
    with w.block(f"override fun write{suffix}(w: {c.rt('Writer')}): Int {{", "}"):
        models.root_write(w, c, s, model, f"{name}.")
    w.blank()
    write_read_into(w, c, s, name, suffix, model, s.base is not None)


def write_read_into(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str,
                    derived: bool) -> None:
    """read{suffix}(data, offset, length, limits): a root read into this value, as the Java target's."""
    limits, decode_exception = c.rt("Limits"), c.rt("DecodeException")
    doc(w, f"Reads a {model} root of [length] bytes at `data[offset]` under [limits] into this value,",
        "overwriting every property and reusing its nested structs, optional structs, the elements of",
        "its vectors of structs and its collections: a server reading into one value allocates little",
        "more than the strings while the messages keep their shape.", "",
        "@throws DecodeException at the first problem (type, field path, offset); this value is then",
        "  reset to the schema's defaults")
    if derived:
        params = ["data: ByteArray", "offset: Int", "length: Int", f"limits: {limits}"]
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, f"override fun read{suffix}", params, " {")
    else:
        params = ["data: ByteArray", "offset: Int = 0", "length: Int = data.size",
                  f"limits: {limits} = {limits}.DEFAULT"]
        w.line("@JvmOverloads")
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, f"open fun read{suffix}", params, " {")
    with w.block("", "}"):
        models.root_read(w, c, s, suffix == "Fbe", "this", name, f"{name}.")
    w.blank()


def write_reset(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """reset() (the runtime's VersionedRoot documents it): every property to the schema's default, what
    readFbe leaves after an error; a derived struct's resets its base's properties first."""
    own = bool(c.plan.struct(s.qualified).own_fields)
    if s.base is not None and not own:
        return
    if not own:
        w.line("override fun reset() = Unit")
        w.blank()
        return
    with w.block("override fun reset() {", "}"):
        if s.base is not None:
            w.line("super.reset()")
        w.line("fbeDefaults(this, 0)")
    w.blank()


def write_defaults(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeDefaults(v, from): the schema's defaults of the own fields from the from-th on, what fbeRead
    gives the fields a shorter (older) body does not hold, as a new value has them (collections
    emptied in place)."""
    if c.plan.struct(s.qualified).own_fields:
        with member(w, f"private fun fbeDefaults(v: {name}, from: Int) {{",
                    "Sets [v]'s own properties from the [from]-th on to the schema's defaults."):
            models.defaults_fields(w, c, s)


def write_companion(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    q = s.qualified
    writer, reader = c.rt("Writer"), c.rt("Reader")

    w.line(f"/** The type id of {q}. */")
    w.line(f"const val TYPE_ID = {s.type_id}")
    w.blank()
    head = f"val KEY_ORDER: Comparator<{name}> = Comparator {{"
    write_key_order(w, c, s, name, f"{head} _, _ -> 0 }}", (f"{head} a, b ->", "}"), "@JvmField")

    codecs = {
        "fbeWrite": (f"fun fbeWrite(w: {writer}, base: Int, slot: Int, v: {name}) {{",
                     "Writes [v]'s versioned body, its offset stored in the slot at [slot] (from [base])."),
        "fbeExplain": (
            f"fun fbeExplain(v: {name}) {{",
            "Throws the EncodeException of the first field of [v] a writer refuses (a string holding a lone",
            "surrogate, a decimal beyond 96 bits, a fixed array of another length), naming its field path:",
            "run after a write failed, to explain it (docs/limits.md 8)."),
        "fbeRead": (
            f"fun fbeRead(r: {reader}, base: Int, slot: Int, v: {name}) {{",
            "Reads the versioned body the slot at [slot] points to (from [base]) into [v], overwriting every",
            "field and reusing what [v] holds (nested structs, an optional struct, the elements of a vector",
            "of structs, the collections); fields an older writer did not write take the schema's",
            "defaults. After an error [v] is left part read (the roots reset it).", "",
            "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeVerify": (
            f"fun fbeVerify(r: {reader}, base: Int, slot: Int) {{",
            "Checks the versioned body the slot at [slot] points to (from [base]) as [fbeRead] reads it,",
            "without building the value: the same checks in the same order, the same errors.", "",
            "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeWriteFinal": (f"fun fbeWriteFinal(w: {writer}, v: {name}) {{",
                          "Appends [v]'s fields (final model, docs/format.md 4.2)."),
        "fbeReadFinal": (
            f"fun fbeReadFinal(r: {reader}, v: {name}) {{",
            "Reads [v]'s fields at the reader's cursor (final model) into [v], overwriting every field and",
            "reusing what [v] holds as [fbeRead] does. After an error [v] is left part read.", "",
            "@throws DecodeException at the first problem (docs/limits.md)"),
        "fbeVerifyFinal": (
            f"fun fbeVerifyFinal(r: {reader}) {{",
            "Checks the fields at the reader's cursor (final model) as [fbeReadFinal] reads them, without",
            "building the value: the same checks in the same order, the same errors.", "",
            "@throws DecodeException at the first problem (docs/limits.md)"),
    }
    models.write_codecs(w, c, s, final, lambda codec: member(w, *codecs[codec]),
                        partial(write_defaults, w, c, s, name), partial(write_roots, w, c, s, name))


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """fromFbe/verifyFbe, or their final twins (suffix Final), in the companion object (depth 2)."""
    versioned = suffix == "Fbe"
    limits, decode_exception = c.rt("Limits"), c.rt("DecodeException")
    params = ["data: ByteArray", "offset: Int = 0", "length: Int = data.size", f"limits: {limits} = {limits}.DEFAULT"]
    for into, head, tail, lines in (
            ("v", f"fun from{suffix}", f": {name} {{", (
                f"Reads a {model} root of [length] bytes at `data[offset]` under [limits].",
                "", "@throws DecodeException at the first problem (type, field path, offset)")),
            (None, f"fun verify{suffix}", " {", (
                f"Checks a {model} root without building the value: returns exactly when [from{suffix}]",
                "succeeds and otherwise throws the exception it throws (docs/limits.md 4). Only sets and maps",
                "are read, into locals, to find a key read twice.", "",
                "@throws DecodeException why the root cannot be read"))):
        doc(w, *lines)
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, head, params, tail)
        with w.block("", "}"):
            models.root_read(w, c, s, versioned, into, name)
        w.blank()
