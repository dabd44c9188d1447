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
from fbec.targets.jvm.context import doc

# ---------------------------------------------------------------- per struct

def write_models(w: CodeWriter, c: Context, s: ir.Struct, name: str, final: bool) -> None:
    """The codecs (fbec.targets.jvm.models.write_codecs) as static methods, and the roots."""
    models.write_reset(w, c, s)
    models.write_codecs(w, c, s, name, final, partial(write_roots, w, c, s, name))


def write_roots(w: CodeWriter, c: Context, s: ir.Struct, name: str, suffix: str, model: str) -> None:
    """write{suffix} (the runtime's VersionedRoot or FinalRoot documents it and gives to{suffix}()), then
    the root readers (models.root_readers), each with the default limits, then given them."""
    writer, limits, decode_exception = c.rt("Writer"), c.rt("Limits"), c.rt("DecodeException")
    versioned = suffix == "Fbe"
    w.line("@Override")
    with w.block(f"public int write{suffix}({writer} w) {{", "}"):
        models.root_write(w, c, s, model)
    w.blank()
    given = f"byte[] data, int offset, int length, {limits} limits"
    for method, into, lines in models.root_readers(model, suffix):
        returns = ("" if into == "this" else "static ") + (name if into == "v" else "void")
        value = "the value" if into == "v" else ""
        for params, text in (("byte[] data", [f"As the four-argument [{method}{suffix}], under the default limits."]),
                             (given, lines)):
            doc(w, *c.tagged(text, [p.split()[1] for p in params.split(", ")], value))
            if into == "this" and s.base is not None:     # a derived struct's read into this value
                w.line("@Override")
            with w.block(f"public {returns} {method}{suffix}({params}) throws {decode_exception} {{", "}"):
                if params == given:
                    models.root_read(w, c, s, versioned, into, name)
                else:
                    w.line(f"{'return ' if value else ''}{method}{suffix}(data, 0, data.length, {limits}.DEFAULT);")
            w.blank()
