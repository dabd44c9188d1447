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
from fbec.targets.jvm.context import doc, sub
from fbec.targets.jvm.members import write_key_order
from fbec.targets.kotlin.json import write_json, write_json_members
from fbec.targets.kotlin.syntax import Context, signature

# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool, json: bool) -> None:
    """The members (reset, writeFbe, readFbe and the final twins; writeJson), then the companion object
    with the codecs, the roots and the text form."""
    models.write_reset(w, c, s)
    write_members(w, c, s, name, "Fbe", "versioned")
    if final:
        write_members(w, c, s, name, "Final", "final")
    if json:
        write_json_members(w, c, s, name)
    inner = sub(w)
    write_companion(inner, c, s, name, final)
    if json:
        write_json(inner, c, s, name)
    text.write_text(inner, c, s, name)
    with w.block("companion object {", "}"):
        w.lines(inner.text())


def write_members(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """write{suffix}(w), overriding the runtime's VersionedRoot or FinalRoot (which documents it and gives
    to{suffix}()), and read{suffix}(data, offset, length, limits) into this value, both open so a derived
    struct writes and reads its own fields (an override takes no default arguments: its base's stand)."""
    with w.block(f"override fun write{suffix}(w: {c.rt('Writer')}): Int {{", "}"):
        models.root_write(w, c, s, model, f"{name}.")
    w.blank()
    doc(w, *next(lines for _, into, lines in models.root_readers(model, suffix) if into == "this"))
    if s.base is None:
        w.line("@JvmOverloads")
    w.line(f"@Throws({c.rt('DecodeException')}::class)")
    signature(w, w.depth, f"{'open' if s.base is None else 'override'} fun read{suffix}",
              root_params(c, s.base is None), " {")
    with w.block("", "}"):
        models.root_read(w, c, s, suffix == "Fbe", "this", name, f"{name}.")
    w.blank()


def root_params(c: Context, defaults: bool) -> list[str]:
    """The parameters of a root reader (data, offset, length, limits), with their default arguments or
    without."""
    limits = c.rt("Limits")
    if not defaults:
        return ["data: ByteArray", "offset: Int", "length: Int", f"limits: {limits}"]
    return ["data: ByteArray", "offset: Int = 0", "length: Int = data.size", f"limits: {limits} = {limits}.DEFAULT"]


def write_companion(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    q = s.qualified

    w.line(f"/** The type id of {q}. */")
    w.line(f"const val TYPE_ID = {s.type_id}")
    w.blank()
    head = f"val KEY_ORDER: Comparator<{name}> = Comparator {{"
    write_key_order(w, c, s, name, f"{head} _, _ -> 0 }}", (f"{head} a, b ->", "}"), "@JvmField")

    models.write_codecs(w, c, s, name, final, partial(write_roots, w, c, s, name))


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """fromFbe/verifyFbe, or their final twins (suffix Final), in the companion object (depth 2): the
    static root readers (models.root_readers)."""
    versioned = suffix == "Fbe"
    decode_exception = c.rt("DecodeException")
    for method, into, lines in models.root_readers(model, suffix):
        if into == "this":      # a member (write_members)
            continue
        doc(w, *lines)
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.line(f"@Throws({decode_exception}::class)")
        signature(w, w.depth, f"fun {method}{suffix}", root_params(c, True), f": {name} {{" if into else " {")
        with w.block("", "}"):
            models.root_read(w, c, s, versioned, into, name)
        w.blank()
