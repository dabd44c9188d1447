"""fbec --csharp --json: each Model's Json, the struct's members in declaration order, inherited ones
first (docs/format.md 8), each value through its codec (runtime/csharp JsonWriter.cs)."""

from __future__ import annotations

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter
from fbec.targets.csharp.context import Context, Raw, braces, codec


def write_json(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    with braces(w, f"public override void Json(JsonBuilder j, {name} v)"):
        w.line("j.Enter(Name);")
        raw = Raw(w, "j")
        raw("{")
        for k, fp in enumerate(p.fields):
            raw(("," if k else "") + f'"{fp.name}":')
            raw.line(f'{codec(c, s, fp)}.JsonField(j, v.{c.ident.field(s.qualified, fp.name)}, "{fp.name}");')
        raw("}")
        raw.flush()
        w.line("j.Leave();")
