"""JSON of fbec --kotlin --json (docs/format.md 8, docs/limits.md 7), as the Java target's on the same
runtime: straight-line member code on the runtime's JsonWriter and JsonReader (Jackson's streaming
parser underneath). Per struct, in the companion, the pieces other generated classes call
(`fbeWriteJson`, `fbeReadJson`) and `fromJson`; `writeJson(j)` is a member (the runtime's JsonRoot
gives `toJson()`). Readers read into a value made with the schema's defaults, so a member the text
does not hold keeps its default (charged against the decode budget when it holds structs,
docs/limits.md 3); a nested struct's reader is wrapped so the exception gains the member path on its
way out, as in the binary readers. Kotlin's unsigned types cross to the runtime's signed Java types
of their width.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.jvm import json, models
from fbec.targets.jvm.context import doc
from fbec.targets.kotlin.syntax import Context, expression_body

# ---------------------------------------------------------------- per struct

def write_json_members(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """writeJson(j): the runtime's JsonRoot documents it and gives toJson()."""
    with w.block(f"override fun writeJson(j: {c.rt('JsonWriter')}): Int {{", "}"):
        models.root_write(w, c, s, "json", f"{name}.")
    w.blank()


def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """The companion's fbeWriteJson, fbeReadJson and fromJson."""
    q = s.qualified
    json_reader, limits = c.rt("JsonReader"), c.rt("Limits")
    decode_exception = c.rt("DecodeException")
    json.write_codecs(w, c, s, name)

    for text, what, body in (
            ("String", "JSON text", f"fromJson({json_reader}.utf8(text), limits)"),
            ("ByteArray", "JSON text in UTF-8",
             f'{json_reader}.read(text, limits, {name}(), {{ r, v -> fbeReadJson(r, v) }}, "{q}")')):
        doc(w, f"Reads a value from {what} under [limits] (docs/limits.md: depth, nesting, budget).", "",
            "@throws DecodeException at the first problem (type, member path, text offset)")
        w.line("@JvmStatic")
        w.line("@JvmOverloads")
        w.line(f"@Throws({decode_exception}::class)")
        expression_body(w, "fun fromJson", [f"text: {text}", f"limits: {limits} = {limits}.DEFAULT"], f": {name}", body)
        w.blank()

