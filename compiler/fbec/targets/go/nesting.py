"""The writers' depth rule below structs that can nest without a bound (docs/limits.md 1).

The writer of a struct whose nesting has no bound in the schema (the IR's `height` None:
recursive structs and what holds them) counts its level (Writer.Enter). A bounded struct's
writer counts nothing, so that the writers of bounded schemas pay nothing; where an unbounded
writer writes a bounded struct value, it checks the levels that value holds instead: at once
when they are fixed (a struct of height 0, one level), otherwise only when the struct's height
could reach beyond MaxDepth (Writer.Near), by the value's fbeLevels walk (exact: a reader
counts the levels a value has, not those its type could have). A bounded struct of another
package (whose unexported walk cannot be called) is checked by its height alone, which may
refuse a value a few levels short of the limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from fbec.model import ir
from fbec.model.plan import StructPlan
from fbec.targets.base import CodeWriter, Locals
from fbec.targets.go.context import Context, braced, decl, entered, leave


def check(w: CodeWriter, c: Context, t: ir.StructRef, writer: str, value: str, unwind: list[str]) -> None:
    """Before an unbounded struct's writer (c.depth_checked) writes the bounded struct value of
    type t: stop, naming the path, when its levels go beyond MaxDepth."""
    levels = c.plan.struct(t.name).levels
    if not c.depth_checked or levels is None:
        return
    if t.name in c.levels_walks:
        cond = f'{writer}.Near({levels}) && !{writer}.Fits({value}.fbeLevels(), "{t.name}")'
    else:
        cond = f'!{writer}.Fits({levels}, "{t.name}")'
    leave(w, cond, unwind)


@contextmanager
def counting(w: CodeWriter, c: Context, plan: StructPlan, writer: str) -> Iterator[None]:
    """The body of a struct's writer (binary or JSON): one that can nest without a bound enters a
    level first (Writer.Enter, left on the way out) and, while inside, checks the bounded struct
    values it writes (check)."""
    if not plan.bounded:
        entered(w, f'!{writer}.Enter("{plan.struct.qualified}")', f"{writer}.Leave()")
    c.depth_checked = not plan.bounded
    yield
    c.depth_checked = False


def _levels(w: CodeWriter, c: Context, t: ir.Type, x: str, names: Locals) -> None:
    """Statements raising n to the levels of the structs in x (of type t) that it holds."""
    if not any(r in c.levels_walks for r in ir.struct_refs(t)):
        # Each struct it holds has a fixed number of levels: only whether there is one counts.
        levels = f"n = max(n, {c.plan.levels(t)})"
        if isinstance(t, (ir.StructRef, ir.Array)):
            w.line(levels)
        else:
            braced(w, f"if {x} != nil {{" if isinstance(t, ir.Optional_) else f"if len({x}) > 0 {{", levels)
    elif isinstance(t, ir.StructRef):
        w.line(f"n = max(n, {x}.fbeLevels())")
    elif isinstance(t, ir.Optional_):
        with w.block(f"if {x} != nil {{", "}"):
            _levels(w, c, t.element, x, names)
    elif isinstance(t, ir.Mapping) and c.comparable(t.key):
        y = names("y")
        with w.block(f"for _, {y} := range {x} {{", "}"):
            _levels(w, c, t.value, y, names)
    else:       # an array's or sequence's elements, a map held as pairs' keys and values
        assert isinstance(t, (ir.Array, ir.Sequence, ir.Mapping)), t
        i = names("i")
        parts = [(t.key, ".Key"), (t.value, ".Value")] if isinstance(t, ir.Mapping) else [(t.element, "")]
        with w.block(f"for {i} := range {x} {{", "}"):
            for part, member in parts:
                if ir.struct_refs(part):
                    _levels(w, c, part, f"{x}[{i}]{member}", names)


def write_levels(w: CodeWriter, c: Context) -> None:
    """The fbeLevels walks of the package's bounded structs that unbounded writers (and these
    walks) call (Context.levels_walks), in package order."""
    for s in c.package.structs:
        if s.qualified in c.levels_walks:
            with decl(w, ["// fbeLevels is the number of struct levels v holds, itself included: the writers of",
                          "// structs that can nest without a bound check it near MaxDepth (docs/limits.md 1)."],
                         f"func (v *{c.named(s.qualified)}) fbeLevels() int {{"):
                w.line("n := 0")
                names = Locals()
                for f in s.all_fields:
                    if ir.struct_refs(f.type):
                        _levels(w, c, f.type, f"v.{c.ident.field(f)}", names)
                w.line("return n + 1")
