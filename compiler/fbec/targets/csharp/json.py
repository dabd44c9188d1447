"""fbec --csharp --json: each Model's Json, the struct's members in declaration order, inherited ones
first (docs/format.md 8), each value through its codec (runtime/csharp JsonWriter.cs)."""

from __future__ import annotations

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, json_object
from fbec.targets.csharp.context import Context, Raw, braces, codec


def write_json(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    with braces(w, f"public override void Json(JsonBuilder j, {name} v)"):
        w.line("j.Enter(Name);")
        raw = Raw(w, "j")
        json_object(raw, p.fields, lambda fp: raw.line(
            f'{codec(c, s, fp)}.JsonField(j, v.{c.ident.field(s.qualified, fp.name)}, "{fp.name}");'))
        w.line("j.Leave();")


def write_json_reader(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    """FromJson: the members by name in any order, each at most once (the reader refuses a name twice),
    unknown ones skipped; a missing member whose default holds structs is charged that default (the
    plan's default_cost); the struct's own charge and large default are the IR's."""
    with braces(w, f"public override {name} FromJson(JsonSource r)"):
        w.line("r.BeginObject();")
        w.line(f"r.Enter({s.decode_cost}, {s.default_cost if s.large_default else 0});")
        w.line(f"var v = new {name}();")
        charged = [fp for fp in p.fields if fp.default_cost]
        for k, fp in enumerate(charged):
            w.line(f"bool seen{k} = false;")
        w.line("string member;")
        with braces(w, "while ((member = r.NextMember()) != null)"), braces(w, "switch (member)"):
            for fp in p.fields:
                w.line(f'case "{fp.name}":')
                with w.indented():
                    if fp in charged:
                        w.line(f"seen{charged.index(fp)} = true;")
                    w.line(f'v.{c.ident.field(s.qualified, fp.name)} = {codec(c, s, fp)}.JsonField(r, "{fp.name}");')
                    w.line("break;")
            w.line("default:")
            with w.indented():
                w.line("r.Skip();")
                w.line("break;")
        # a missing member's default holds struct values: they are charged (docs/limits.md 3)
        for k, fp in enumerate(charged):
            w.line(f"if (!seen{k})")
            with w.indented():
                w.line(f"r.Spend({fp.default_cost});")
        w.line("r.Leave();")
        w.line("return v;")
