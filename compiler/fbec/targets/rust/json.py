"""fbec --rust --json: each struct's `fbe::json::JsonStruct` (docs/format.md 8, docs/limits.md 7).

The members are written in declaration order, inherited ones first, each value by its codec
(`fbe::json::JsonValue`: a type is its own codec, but `char`, a `u8` as `byte` is, whose codec is
`fbe::json::Char`); they are read by name in any order, each at most once, unknown ones skipped,
and a missing member whose default holds structs is charged that default (the plan's
`default_cost`). The struct's own charge and large default are the IR's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter
from fbec.targets.rust.layout import FN_CALL_WIDTH, RUSTFMT_WIDTH, call, rust_string

if TYPE_CHECKING:
    from fbec.targets.rust import Context


def codec(c: Context, t: ir.Type) -> str | None:
    """The codec of a field of type t when it is not the field's own type: a type holding a char."""
    own = c.type(t)
    as_char = c.type(t, char="fbe::json::Char")
    return None if as_char == own else as_char


def arm(w: CodeWriter, pattern: str, head: str, args: list[str]) -> None:
    """A match arm `pattern => head(args)?,` as rustfmt lays it out: on one line when it fits (98
    columns: the arm's comma and one more), else in a block, else with one argument a line (the
    chain broken before the method when even its head does not fit after the pattern)."""
    joined = ", ".join(args)
    indent = len(w.unit) * w.depth
    if len(joined) <= FN_CALL_WIDTH and indent + len(f"{pattern} => {head}({joined})?,") <= RUSTFMT_WIDTH - 2:
        w.line(f"{pattern} => {head}({joined})?,")
    elif len(joined) <= FN_CALL_WIDTH and indent + len(w.unit) + len(f"{head}({joined})?") <= RUSTFMT_WIDTH:
        with w.block(f"{pattern} => {{", "}"):
            w.line(f"{head}({joined})?")
    elif indent + len(f"{pattern} => {head}(") <= RUSTFMT_WIDTH:
        with w.block(f"{pattern} => {head}(", ")?,"):
            for a in args:
                w.line(f"{a},")
    else:   # the head does not fit after the pattern: rustfmt breaks the chain before the method
        receiver, _, method = head.partition(".")
        w.line(f"{pattern} => {receiver}")
        with w.indented(), w.block(f".{method}(", ")?,"):
            for a in args:
                w.line(f"{a},")


def write_json(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """`impl fbe::json::JsonStruct`: the struct's members written and read."""
    fields = [(fp, c.ident.field(s.qualified, fp.name), codec(c, fp.type)) for fp in p.fields]
    with w.block(f"impl fbe::json::JsonStruct for {c.ident.type(s.qualified)} {{", "}"):
        w.line(f"const DECODE_COST: usize = {s.decode_cost};")
        if s.large_default:
            w.line(f"const LARGE_DEFAULT: usize = {s.default_cost};")
        w.blank()
        with w.block("fn write_members(&self, j: &mut fbe::json::JsonWriter) -> Result<(), EncodeError> {", "}"):
            text = "{"
            for k, (fp, ident, as_codec) in enumerate(fields):
                text += ("," if k else "") + f'"{fp.name}":'
                w.line(f"j.raw({rust_string(text)});")
                text = ""
                head = f"j.field_as::<{as_codec}>" if as_codec else "j.field"
                call(w, head, [f"&self.{ident}", f'"{fp.name}"'], "?;")
            w.line(f"j.raw({rust_string(text + '}')});")
            w.line("Ok(())")
        w.blank()
        head = "fn read_members<'de, M: fbe::json::Members<'de>>(&mut self, m: &mut M) -> Result<(), M::Error> {"
        with w.block(head, "}"):
            if not fields:
                with w.block("while let Some(name) = m.name()? {", "}"):
                    w.line("m.skip(name)?;")
                w.line("Ok(())")
                return
            w.line(f"let mut seen = [false; {len(fields)}];")
            with w.block("while let Some(name) = m.name()? {", "}"), w.block("match &*name {", "}"):
                for k, (fp, ident, as_codec) in enumerate(fields):
                    method = f"m.field_as::<{as_codec}>" if as_codec else "m.field"
                    arm(w, f'b"{fp.name}"', method, [f"&mut seen[{k}]", f"&mut self.{ident}", f'"{fp.name}"'])
                w.line("_ => m.skip(name)?,")
            # a missing member's default holds struct values: they are charged (docs/limits.md 3)
            for k, (fp, _, _) in enumerate(fields):
                if fp.default_cost:
                    with w.block(f"if !seen[{k}] {{", "}"):
                        w.line(f'm.spend({fp.default_cost}, "{fp.name}")?;')
            w.line("Ok(())")
