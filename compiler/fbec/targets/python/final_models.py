"""Final-model code: per-struct sequential write/read functions and `<Name>FinalModel` classes.

Consecutive fixed-size fields are packed and unpacked with one precompiled
layout (docs/format.md section 4).
"""

from __future__ import annotations

import struct

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run
from fbec.targets.base import CodeWriter, Locals

from .context import (
    Context,
    check_size,
    encoded,
    fixed_raws,
    is_string,
    map_order,
    nraw,
    set_order,
    slot_fmt,
    struct_read,
)
from .models import Raw, Versioned


class Final:
    """The final model's walks; a fixed value (ir.is_fixed: the same bytes in both models) is read
    from its raw values as the versioned model reads it (Versioned.read_expr)."""

    def __init__(self, ctx: Context, versioned: Versioned) -> None:
        self.ctx, self.versioned = ctx, versioned
        self.tmp = Locals()     # a struct's function's locals

    # ------------------------------------------------------------ writing

    def write(self, code: CodeWriter, t: ir.Type, x: str, field: str, depth: int) -> None:
        """Statements appending the final encoding of x (type t) to w."""
        c = self.ctx
        if ir.is_fixed(t):
            pre, raws = fixed_raws(t, x, field)
            code.lines("\n".join(pre))
            code.line(f"w += {c.layout(slot_fmt(t))}.pack({', '.join(raws)})")
            return
        if isinstance(t, ir.Primitive):
            fn = "write_string" if t.name == "string" else "write_bytes"
            code.line(f"fbe.buffer.{fn}(w, {x})")
            return
        if isinstance(t, ir.StructRef):
            code.line(f"{c.ref(t.name, 'fbe_fw_')}(w, {x})")
            return
        if isinstance(t, ir.Optional_):
            y = self.tmp("y")
            code.line(f"{y} = {x}")
            with code.block(f"if {y} is None:"):
                code.line("w.append(0)")
            with code.block("else:"):
                code.line("w.append(1)")
                self.write(code, t.element, y, field, depth + 1)
            return
        if isinstance(t, ir.Array):
            e = self.tmp("e")
            code.line(f'fbe.buffer.check_length({x}, {t.length}, "{field}")')
            with code.block(f"for {e} in {x}:"):
                self.write(code, t.element, e, field, depth + 1)
            return
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        if self.versioned.write_items(code, t, x):
            return
        code.line(f"w += fbe.buffer.pack_u32(len({x}))")
        if isinstance(t, ir.Sequence):
            e = self.tmp("e")
            with code.block(f"for {e} in {set_order(t, x)}:"):
                self.write(code, t.element, e, field, depth + 1)
            return
        k, v = self.tmp("k"), self.tmp("v")
        with code.block(f"for {k}, {v} in {map_order(t, x)}:"):
            self.write(code, t.key, k, field, depth + 1)
            self.write(code, t.value, v, field, depth + 1)

    # ------------------------------------------------------------ reading

    def read(self, code: CodeWriter, t: ir.Type, target: str, field: str, annotate: bool = True) -> None:
        """Statements reading a value of type t at p into ``target`` and advancing p."""
        c = self.ctx
        f = f'"{field}"'
        if ir.is_fixed(t):
            lay = c.layout(slot_fmt(t))
            tv = self.tmp("t")
            code.line(f"{tv} = fbe.buffer.final_fixed(r, {lay}, p, {f})")
            code.line(f"p += {lay}.size")
            code.line(f"{target} = {self.versioned.read_expr(t, Raw(tv, 0), 'p', f, f'p - {lay}.size')}")
            return
        if isinstance(t, ir.Primitive):
            fn = "final_string" if t.name == "string" else "final_bytes"
            code.line(f"{target}, p = fbe.buffer.{fn}(r, p, {f})")
            return
        if isinstance(t, ir.StructRef):
            code.line(f"{target}, p = {c.ref(t.name, 'fbe_fr_')}(r, p)")
            return
        hint = c.hint(t)
        decl = f"{target}: {hint}" if annotate else target
        if isinstance(t, ir.Optional_):
            h = self.tmp("h")
            inner = self.tmp("x")
            code.line(f"{h} = fbe.buffer.final_has(r, p, {f})")
            code.line("p += 1")
            code.line(f"{decl} = None")
            with code.block(f"if {h}:"):
                self.read(code, t.element, inner, field)
                code.line(f"{target} = {inner}")
            return
        if isinstance(t, ir.Array):  # of values that are not fixed (is_fixed above)
            count, at = str(t.length), ""
        else:
            assert isinstance(t, (ir.Sequence, ir.Mapping))
            count = self.tmp("n")
            at = self.tmp("at") if isinstance(t, ir.Mapping) or t.kind == "set" else ""
            if at:
                code.line(f"{at} = p")
            code.line(f"{count} = fbe.buffer.final_count(r, p, {t.item_min_size}, {t.item_cost}, {f})")
            code.line("p += 4")
            if all(ir.is_fixed(x) for x in ((t.key, t.value) if isinstance(t, ir.Mapping) else (t.element,))):
                # their bytes are there (final_count): one comprehension, as the versioned model reads a block;
                # a set, map or hash holds each element or key once (docs/limits.md 4)
                value = self.versioned.items(t, count, "p", "p", f)
                code.line(f"{decl} = " + (f"fbe.buffer.distinct({value}, {count}, {f}, {at})" if at else value))
                code.line(f"p += {count} * {t.item_min_size}")
                return
        if isinstance(t, ir.Mapping):
            k, v = self.tmp("k"), self.tmp("v")
            code.line(f"{decl} = {{}}")
            with code.block(f"for _ in range({count}):"):
                self.read(code, t.key, k, field)
                self.read(code, t.value, v, field)
                code.line(f"{target}[{k}] = {v}")
        else:
            assert isinstance(t, (ir.Array, ir.Sequence))
            e = self.tmp("e")
            code.line(f"{decl} = {'set()' if at else '[]'}")
            with code.block(f"for _ in range({count}):"):
                self.read(code, t.element, e, field)
                code.line(f"{target}.{'add' if at else 'append'}({e})")
        if at:
            code.line(f"fbe.buffer.distinct({target}, {count}, {f}, {at})")

    # ------------------------------------------------------------ structs

    def packs(self, s: ir.Struct) -> list[tuple[list[ir.Field], ir.Field | None] | ir.Field]:
        """The plan's final steps as they are packed: a run of fixed-size fields (or one such field)
        with one layout (checked against the run's size), a ``string``/``bytes`` field closing it (or
        alone) with its u32 size (its bytes follow the run), and every other field on its own."""
        out: list[tuple[list[ir.Field], ir.Field | None] | ir.Field] = []
        steps = self.ctx.plan.struct(s.qualified).final_steps
        i = 0
        while i < len(steps):
            step = steps[i]
            run: list[ir.Field] = []
            if isinstance(step, Run):
                run = [m.field for m in step.fields]
                check_size("".join(slot_fmt(f.type) for f in run), step.size)
                i += 1
            elif ir.is_fixed(step.type):
                run = [step.field]
                check_size(slot_fmt(step.type), step.type.size)
                i += 1
            after = steps[i] if i < len(steps) else None
            if isinstance(after, FieldPlan) and ir.is_text(after.type):
                out.append((run, after.field))
                i += 1
            elif run:
                out.append((run, None))
            else:
                assert isinstance(step, FieldPlan)
                out.append(step.field)
                i += 1
        return out

    def struct_functions(self, s: ir.Struct) -> list[str]:
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        self.tmp = Locals()
        code = self.ctx.writer()
        # writer: one pack per run
        with code.block(f"def fbe_fw_{s.name}(w: bytearray, v: {cls}) -> None:"):
            code.line(f'"""Append the final encoding of a {s.name} (fields back to back)."""')
            for part in self.packs(s):
                if isinstance(part, ir.Field):
                    self.write(code, part.type, f"v.{self.ctx.ident.field(part)}", part.name, 0)
                    continue
                members, text = part
                fmt = ""
                raws: list[str] = []
                for m in members:
                    pre, rs = fixed_raws(m.type, f"v.{self.ctx.ident.field(m)}", m.name)
                    code.lines("\n".join(pre))
                    raws += rs
                    fmt += slot_fmt(m.type)
                tail = ""
                if text is not None:
                    tail = self.tmp("s")
                    x = f"v.{self.ctx.ident.field(text)}"
                    code.line(f"{tail} = {encoded(text.type, x)}")
                    raws.append(f"len({tail})")
                    fmt += "I"
                code.line(f"w += {c.layout(fmt)}.pack({', '.join(raws)})")
                if tail:
                    code.line(f"w += {tail}")
        code.blank(2)

        # reader
        leaf = not c.plan.struct(s.qualified).nests
        with code.block(f"def fbe_fr_{s.name}(r: fbe.Reader, p: int) -> tuple[{cls}, int]:"):
            code.line(f'"""Read a {s.name} at p; return it and the position after it."""')
            enter = "final_leaf" if leaf else "final_enter"
            code.line(f"fbe.buffer.{enter}(r, p, {s.decode_cost})")
            with struct_read(code, s, leaf, "v, p"):
                self._read_body(code, s)
        return code.text().splitlines() + ["", ""]

    def _read_body(self, code: CodeWriter, s: ir.Struct) -> None:
        """Every field of a struct read into ``v`` (the reader's body inside its try)."""
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        args: list[str] = []
        if any(not isinstance(part, ir.Field) for part in self.packs(s)):
            code.line("data, end = r.data, r.size")
        for part in self.packs(s):
            if isinstance(part, ir.Field):
                target = self.tmp("x")
                self.read(code, part.type, target, part.name)
                args.append(target)
                continue
            members, text = part
            fmt = "".join(slot_fmt(m.type) for m in members) + ("I" if text is not None else "")
            lay = c.layout(fmt)
            size = struct.calcsize("<" + fmt)
            tv = self.tmp("t")
            if members:
                first, what0 = members[0].name, "value"
            else:
                assert text is not None
                first, what0 = text.name, ("string size" if is_string(text.type) else "bytes size")
            with code.block(f"if p + {size} > end:"):
                code.line(f'raise fbe.buffer.out_of_bounds("{what0}", p, "{first}")')
            code.line(f"{tv} = {lay}.unpack_from(data, p)")
            at = ""
            if any(ir.is_checked(m.type) for m in members):
                # a decimal is a step of its own (the plan's final_steps), first in its pack: where the
                # pack starts is where it is, which its error names
                assert len(members) == 1, members
                at = self.tmp("at")
                code.line(f"{at} = p")
            code.line(f"p += {size}")
            k = 0
            for m in members:
                args.append(self.versioned.read_expr(m.type, Raw(tv, k), "p", f'"{m.name}"', at))
                k += nraw(m.type)
            if text is not None:
                what = "string" if is_string(text.type) else "bytes"
                q, x = self.tmp("q"), self.tmp("x")
                raw = f"data[p:{q}]"
                code.line(f"{q} = p + {tv}[{k}]")
                with code.block(f"if {q} > end:"):
                    code.line(f'raise fbe.buffer.out_of_bounds(f"{what} of {{{tv}[{k}]}} bytes", p - 4, "{text.name}")')
                code.line(f"r.budget -= {tv}[{k}]")
                with code.block("if r.budget < 0:"):
                    code.line(f'r.spend(0, p - 4, "{text.name}")')
                code.line(f'{x} = {raw}.decode("utf-8", "surrogateescape")' if what == "string" else f"{x} = {raw}")
                code.line(f"p = {q}")
                args.append(x)
        # every field is known: the instance without __init__ (its defaults would be overwritten)
        code.line(f"v = {cls}.__new__({cls})")
        for f, x in zip(s.all_fields, args):
            code.line(f"v.{self.ctx.ident.field(f)} = {x}")
