"""JSON of fbec --java --json (docs/format.md 8, docs/limits.md 7): straight-line member code on the
runtime's JsonWriter and JsonReader (Jackson's streaming parser underneath). Per struct, static
pieces other generated classes call (`fbeWriteJson`, `fbeReadJson`) and the methods users call
(`writeJson`, `fromJson`; the runtime's JsonRoot gives `toJson()`). Readers read into a value made
with the schema's defaults, so a member the text does not hold keeps its default (charged against
the decode budget when it holds structs, docs/limits.md 3); a nested struct's reader is wrapped so
the exception gains the member path on its way out, as in the binary readers.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import json, models
from fbec.targets.jvm.context import member

# ---------------------------------------------------------------- per struct

def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteJson, fbeReadJson and the methods users call."""
    q = s.qualified
    json_writer, json_reader, limits = c.rt("JsonWriter"), c.rt("JsonReader"), c.rt("Limits")
    decode_exception = c.rt("DecodeException")
    json.write_codecs(w, c, s, name)

    w.line("@Override")     # the runtime's JsonRoot documents it and gives toJson()
    with w.block(f"public int writeJson({json_writer} j) {{", "}"):
        models.root_write(w, c, s, "json")
    w.blank()
    failed, value = "@throws DecodeException at the first problem (type, member path, text offset)", "the value"
    with member(w, f"public static {name} fromJson(String text) throws {decode_exception} {{",
                *c.tagged(["Reads a value from JSON text under the default limits.", "", failed], ("text",), value)):
        w.line(f"return fromJson({json_reader}.utf8(text), {limits}.DEFAULT);")
    with member(w, f"public static {name} fromJson(byte[] text) throws {decode_exception} {{",
                *c.tagged(["As fromJson(text, limits), under the default limits."], ("text",), value)):
        w.line(f"return fromJson(text, {limits}.DEFAULT);")
    with member(w, f"public static {name} fromJson(byte[] text, {limits} limits) throws {decode_exception} {{",
                *c.tagged(["Reads a value from JSON text in UTF-8 under limits (docs/limits.md: depth, nesting,",
                           "budget).", "", failed], ("text", "limits"), value)):
        w.line(f'return {json_reader}.read(text, limits, new {name}(), {name}::fbeReadJson, "{q}");')
