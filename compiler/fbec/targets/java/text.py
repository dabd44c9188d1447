"""The text form of fbec --java (docs/format.md 9): per struct `toString()` and the static
`fbeText(StringBuilder, T)` it is made of, on the runtime's Text helpers."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.java.syntax import Context
from fbec.targets.jvm import text
from fbec.targets.jvm.context import doc


def write_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    w.line("/** @return this value in the original's text form (docs/format.md 9) */")
    w.line("@Override")
    with w.block("public String toString() {", "}"):
        w.line("StringBuilder t = new StringBuilder();")
        w.line("fbeText(t, this);")
        w.line("return t.toString();")
    w.blank()
    doc(w, "Appends v in the original's text form: {@code Name(field=value,...)}, a base struct first.", "",
        "@param t the text so far", "@param v the value")
    with w.block(f"public static void fbeText(StringBuilder t, {name} v) {{", "}"):
        text.text_fields(w, c, s)
    w.blank()
