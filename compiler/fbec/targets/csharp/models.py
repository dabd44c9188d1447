"""The versioned and final models of a struct: its nested `Model` class (a Fbe.StructModel), whose six
walks print the plan's fields, ends, costs and final steps (fbec.model.plan) and compute none."""

from __future__ import annotations

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, text_struct
from fbec.targets.csharp.context import (
    Context,
    Raw,
    braces,
    codec,
    codec_field,
    direct,
    fixed,
    read_wire,
    wire_method,
    wire_value,
)
from fbec.targets.csharp.json import write_json, write_json_reader


def write_model(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    name = c.ident.type(s.qualified)
    p = c.plan.struct(s.qualified)
    w.line(f"/// <summary>The versioned and final models of {name} (docs/format.md 3 and 4).</summary>")
    with braces(w, f"public {'new ' if s.base else ''}sealed class Model : StructModel<{name}>"):
        w.line("/// <summary>The one instance.</summary>")
        w.line("public static readonly Model Instance = new Model();")
        for fp in p.fields:
            if not isinstance(fp.type, (ir.Primitive, ir.StructRef)):
                w.line(f"private static readonly {c.codec_type(fp.type)} {codec_field(c, s, fp.name)} = "
                       f"{c.codec(fp.type)};")
        w.blank()
        w.line(f'private Model() : base("{s.qualified}", {s.type_id}, {s.final_min_size}) {{ }}')
        w.blank()
        write_versioned(w, c, s, p, name)
        write_final(w, c, s, p, name)
        w.blank()
        write_text(w, c, s, p, name)
        if c.options.json:
            w.blank()
            write_json(w, c, s, p, name)
            w.blank()
            write_json_reader(w, c, s, p, name)


def write_text(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    """The text form: `Name(field=value,...)`, a base's fields as a nested call of the base's name."""
    fields = {fp.name: fp for fp in p.fields}
    with braces(w, f"public override void Text(TextBuilder t, {name} v)"):
        raw = Raw(w)
        text_struct(raw, s, lambda base: f"{c.qualified(base)}.Model.Instance.Text(t, v);",
                    lambda f: raw.line(f"{codec(c, s, fields[f.name])}.Text(t, "
                                       f"v.{c.ident.field(s.qualified, f.name)});"))


def guard(w: CodeWriter, s: ir.Struct, verify: str) -> None:
    """A struct whose default costs more than 4 KiB is made only once the budget pays for it; else it
    is checked without being made, which fails as its read would (docs/limits.md 3)."""
    if s.large_default:
        with w.block(f"if (!r.Affords({s.default_cost}))", ""):
            w.line(verify)


def write_versioned(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    with braces(w, f"public override void WriteBody(Writer w, int bas, int slot, {name} v)"):
        w.line("w.Enter(Name);")
        head = "int b = " if p.fields else ""
        w.line(f"{head}w.StructBody(bas, slot, {s.body_size}, {s.type_id});")
        write_fields(w, c, s, p, final=False)
    w.blank()
    write_body_reader(w, c, s, p, name, verify=False)
    write_body_reader(w, c, s, p, name, verify=True)


def write_fields(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, final: bool) -> None:
    """Each field of v written, then w.Leave(): in the versioned body at its offset from b (the Writer's
    Put of a direct type, else its codec's Field), in the final model one after another (Append,
    FinalField)."""
    for fp in p.fields:
        value = f"v.{c.ident.field(s.qualified, fp.name)}"
        at = "" if final else f"b + {fp.offset}, "
        if direct(fp.type):
            w.line(f"w.{'Append' if final else 'Put'}{wire_method(fp.type)}({at}{wire_value(fp.type, value)});")
        else:
            w.line(f'{codec(c, s, fp)}.{"FinalField(w, " if final else "Field(w, b, "}{at}{value}, "{fp.name}");')
    w.line("w.Leave();")


def write_body_reader(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str, verify: bool) -> None:
    """ReadBody, or VerifyBody: the same checks and charges without making the value (the fields read
    unchecked are not looked at). The inherited fields are read as a group: none of them when the body
    is too short for all of them (all defaults, charged plan.older_cost once: docs/format.md 3.6);
    then each own field the body holds, the first one missing charging the defaults of the rest."""
    head = "void VerifyBody" if verify else f"{name} ReadBody"
    with braces(w, f"public override {head}(Reader r, int bas, int slot)"):
        fields = [fp for fp in p.fields if not verify or fp.missing_cost or not ir.reads_unchecked(fp.type)]
        if not verify:
            guard(w, s, "VerifyBody(r.Clone(), bas, slot);")
        w.line("int n;")
        w.line(f"{'int b = ' if fields else ''}r.StructBody(bas, slot, {s.type_id}, {s.decode_cost}, out n);")
        if not verify:
            w.line(f"var v = new {name}();")
        if p.base_fields and fields:
            with braces(w, f"if (n < {s.base_size})"):
                if p.older_cost:
                    w.line(f'r.Spend({p.older_cost}, b, "{p.fields[0].name}");')
                w.line("r.Leave();")
                w.line("return;" if verify else "return v;")
            for fp in p.base_fields:
                if not verify or not ir.reads_unchecked(fp.type):
                    read_field(w, c, s, fp, verify)
        before = 0   # a body of fewer bytes than a field's end lacks it: the first one missing charges the rest
        for fp in p.own_fields:
            if fp not in fields:
                before = fp.end
                continue
            spend = f'r.Spend({fp.missing_cost}, b, "{fp.name}");'
            first_missing = f"n >= {before}" if before > 8 else ""
            if not verify or not ir.reads_unchecked(fp.type):
                with w.block(f"if (n >= {fp.end})", ""):
                    read_field(w, c, s, fp, verify)
                if fp.missing_cost:
                    with w.block(f"else if ({first_missing})" if first_missing else "else", ""):
                        w.line(spend)
            else:
                cond = f"n >= {before} && n < {fp.end}" if before > 8 else f"n < {fp.end}"
                with w.block(f"if ({cond})", ""):
                    w.line(spend)
            before = fp.end
        w.line("r.Leave();")
        if not verify:
            w.line("return v;")
    w.blank()


def read_field(w: CodeWriter, c: Context, s: ir.Struct, fp: plan.FieldPlan, verify: bool) -> None:
    """One field of a body that holds it, read into v at its offset from b (or checked)."""
    if verify:
        w.line(f'{codec(c, s, fp)}.CheckField(r, b, b + {fp.offset}, "{fp.name}");')
    elif direct(fp.type):
        w.line(f"v.{c.ident.field(s.qualified, fp.name)} = {read_wire(c, fp.type, f'b + {fp.offset}')};")
    else:
        w.line(f"v.{c.ident.field(s.qualified, fp.name)} = "
               f'{codec(c, s, fp)}.Field(r, b, b + {fp.offset}, "{fp.name}");')


def write_final(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, name: str) -> None:
    with braces(w, f"public override void WriteFields(Writer w, {name} v)"):
        w.line("w.Enter(Name);")
        write_fields(w, c, s, p, final=True)
    w.blank()
    with braces(w, f"public override {name} ReadFields(Reader r)"):
        guard(w, s, "VerifyFields(r.Clone());")
        w.line(f"r.Enter({s.decode_cost});")
        w.line(f"var v = new {name}();")
        for k, step in enumerate(p.final_steps):
            if isinstance(step, plan.Run):
                w.line(f'int run{k} = r.Run({step.size}, "{step.description}");')
                for fp, at in zip(step.fields, step.at):
                    assert fixed(fp.type)
                    where = f"run{k} + {at}" if at else f"run{k}"
                    read = read_wire(c, fp.type, where) if direct(fp.type) else f"{codec(c, s, fp)}.At(r.Data, {where})"
                    w.line(f"v.{c.ident.field(s.qualified, fp.name)} = {read};")
            elif direct(step.type):
                taken = f'r.Fixed({step.type.final_size}, "{step.name}")'
                w.line(f"v.{c.ident.field(s.qualified, step.name)} = {read_wire(c, step.type, taken)};")
            else:
                w.line(f"v.{c.ident.field(s.qualified, step.name)} = "
                       f'{codec(c, s, step)}.FinalField(r, "{step.name}");')
        w.line("r.Leave();")
        w.line("return v;")
    w.blank()
    with braces(w, "public override void VerifyFields(Reader r)"):
        w.line(f"r.Enter({s.decode_cost});")
        for step in p.final_steps:
            if isinstance(step, plan.Run):
                w.line(f'r.Run({step.size}, "{step.description}");')
            elif direct(step.type):
                w.line(f'r.Fixed({step.type.final_size}, "{step.name}");')
            else:
                w.line(f'{codec(c, s, step)}.CheckFinalField(r, "{step.name}");')
        w.line("r.Leave();")
