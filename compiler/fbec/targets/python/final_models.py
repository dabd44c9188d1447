"""Final-model code: per-struct sequential write/read functions and `<Name>FinalModel` classes.

Consecutive fixed-size fields are packed and unpacked with one precompiled
layout (docs/format.md section 4).
"""

from __future__ import annotations

import struct

from fbec.model import ir
from fbec.model.facts import is_fixed_run_member as _fixed_run_member

from .context import (
    Context,
    check_size,
    element_cost,
    ident,
    is_plain,
    map_order,
    nests,
    nraw,
    packed_array,
    set_order,
    slot_fmt,
    struct_cost,
)

IND = "    "


def _is_text(t: ir.Type) -> bool:
    return isinstance(t, ir.Primitive) and t.name in ("string", "bytes")


def _is_string(t: ir.Type) -> bool:
    return isinstance(t, ir.Primitive) and t.name == "string"


class Final:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.n = 0

    def tmp(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    # ------------------------------------------------------------ raw values of fixed fields

    def raw_values(self, t: ir.Type, x: str, field: str) -> tuple[list[str], list[str]]:
        if is_plain(t) or isinstance(t, ir.EnumRef):
            return [], [x]
        if isinstance(t, ir.Primitive) and t.name == "decimal":
            return [], [f"fbe.encode_decimal({x})"]
        if isinstance(t, ir.Primitive) and t.name == "uuid":
            return [], [f"{x}.bytes"]
        assert isinstance(t, ir.Array)
        check = [f'fbe.buffer.check_length({x}, {t.length}, "{field}")']
        e = t.element
        if isinstance(e, ir.Primitive) and e.name in ("decimal", "uuid"):
            conv = "fbe.encode_decimal(e)" if e.name == "decimal" else "e.bytes"
            return check, [f'b"".join([{conv} for e in {x}])' if packed_array(t) else f"*[{conv} for e in {x}]"]
        return check, [f"*{x}"]

    def conv(self, t: ir.Type, tv: str, start: int) -> str:
        c = self.ctx
        if is_plain(t):
            return f"{tv}[{start}]"
        if isinstance(t, ir.EnumRef):
            return c.enum_from_raw(t.name, f"{tv}[{start}]")
        if isinstance(t, ir.Primitive) and t.name == "decimal":
            return f"fbe.decode_decimal({tv}[{start}])"
        if isinstance(t, ir.Primitive) and t.name == "uuid":
            return f"{c.imports.attr('uuid', 'UUID')}(bytes={tv}[{start}])"
        assert isinstance(t, ir.Array)
        e = t.element
        if packed_array(t):
            return f"[{self.conv(e, 'y', 0)} for y in {c.layout(slot_fmt(e))}.iter_unpack({tv}[{start}])]"
        if is_plain(e):
            return f"list({tv}[{start}:{start + t.length}])"
        return f"[{self.conv(e, tv, 0).replace(tv + '[0]', 'y')} for y in {tv}[{start}:{start + t.length}]]"

    # ------------------------------------------------------------ writing

    def write(self, t: ir.Type, x: str, field: str, depth: int) -> list[str]:
        """Statements appending the final encoding of x (type t) to w."""
        c = self.ctx
        if _fixed_run_member(t):
            pre, raws = self.raw_values(t, x, field)
            return pre + [f"w += {c.layout(slot_fmt(t))}.pack({', '.join(raws)})"]
        if isinstance(t, ir.Primitive):
            fn = "write_string" if t.name == "string" else "write_bytes"
            return [f"fbe.buffer.{fn}(w, {x})"]
        if isinstance(t, ir.StructRef):
            return [f"{c.ref(t.name, 'fbe_fw_')}(w, {x})"]
        if isinstance(t, ir.Optional_):
            y = self.tmp("y")
            return [f"{y} = {x}", f"if {y} is None:", f"{IND}w.append(0)", "else:", f"{IND}w.append(1)"] + [
                IND + s for s in self.write(t.element, y, field, depth + 1)
            ]
        if isinstance(t, ir.Array):
            e = self.tmp("e")
            return [f'fbe.buffer.check_length({x}, {t.length}, "{field}")', f"for {e} in {x}:"] + [
                IND + s for s in self.write(t.element, e, field, depth + 1)
            ]
        if isinstance(t, ir.Sequence):
            it = set_order(t, x)
            el = t.element
            if (is_plain(el) or isinstance(el, ir.EnumRef)) and len(slot_fmt(el)) == 1:
                return [f'fbe.buffer.write_plain_seq(w, "{slot_fmt(el)}", {it})']
            e = self.tmp("e")
            return [f"w += fbe.buffer.pack_u32(len({x}))", f"for {e} in {it}:"] + [
                IND + s for s in self.write(el, e, field, depth + 1)
            ]
        assert isinstance(t, ir.Mapping)
        it = map_order(t, x)
        k, v = self.tmp("k"), self.tmp("v")
        return (
            [f"w += fbe.buffer.pack_u32(len({x}))", f"for {k}, {v} in {it}:"]
            + [IND + s for s in self.write(t.key, k, field, depth + 1)]
            + [IND + s for s in self.write(t.value, v, field, depth + 1)]
        )

    # ------------------------------------------------------------ reading

    def read(self, t: ir.Type, target: str, field: str, annotate: bool = True) -> list[str]:
        """Statements reading a value of type t at p into ``target`` and advancing p."""
        c = self.ctx
        f = f'"{field}"'
        if _fixed_run_member(t):
            lay = c.layout(slot_fmt(t))
            tv = self.tmp("t")
            return [f"{tv} = fbe.buffer.final_fixed(r, {lay}, p, {f})", f"p += {lay}.size",
                    f"{target} = {self.conv(t, tv, 0)}"]
        if isinstance(t, ir.Primitive):
            fn = "final_string" if t.name == "string" else "final_bytes"
            return [f"{target}, p = fbe.buffer.{fn}(r, p, {f})"]
        if isinstance(t, ir.StructRef):
            return [f"{target}, p = {c.ref(t.name, 'fbe_fr_')}(r, p)"]
        hint = c.hint(t)
        decl = f"{target}: {hint}" if annotate else target
        if isinstance(t, ir.Optional_):
            h = self.tmp("h")
            inner = self.tmp("x")
            return [f"{h} = fbe.buffer.final_has(r, p, {f})", "p += 1", f"{decl} = None", f"if {h}:"] + [
                IND + s for s in self.read(t.element, inner, field)
            ] + [f"{IND}{target} = {inner}"]
        if isinstance(t, (ir.Array, ir.Sequence)):
            el = t.element
            if isinstance(t, ir.Array):
                count = str(t.length)
                pre: list[str] = []
            else:
                count = self.tmp("n")
                pre = [f"{count} = fbe.buffer.final_count(r, p, {el.final_min_size}, {element_cost(el)}, {f})",
                       "p += 4"]
                if is_plain(el) and len(slot_fmt(el)) == 1:
                    wrap = "set" if t.kind == "set" else "list"
                    unpack = self.ctx.imports.attr("struct", "unpack_from")
                    return pre + [f'{decl} = {wrap}({unpack}(f"<{{{count}}}{slot_fmt(el)}", r.data, p))',
                                  f"p += {count} * {el.final_size}"]
            is_set = isinstance(t, ir.Sequence) and t.kind == "set"
            e = self.tmp("e")
            add = "add" if is_set else "append"
            return pre + [f"{decl} = {'set()' if is_set else '[]'}", f"for _ in range({count}):"] + [
                IND + s for s in self.read(el, e, field)
            ] + [f"{IND}{target}.{add}({e})"]
        assert isinstance(t, ir.Mapping)
        count = self.tmp("n")
        k, v = self.tmp("k"), self.tmp("v")
        item = t.key.final_min_size + t.value.final_min_size
        cost = element_cost(t.key) + element_cost(t.value)
        return [f"{count} = fbe.buffer.final_count(r, p, {item}, {cost}, {f})", "p += 4",
                f"{decl} = {{}}", f"for _ in range({count}):"] + [
            IND + s for s in self.read(t.key, k, field)] + [
            IND + s for s in self.read(t.value, v, field)] + [f"{IND}{target}[{k}] = {v}"]

    # ------------------------------------------------------------ structs

    def runs(self, s: ir.Struct) -> list[tuple[list[ir.Field], ir.Field | None] | ir.Field]:
        """The fields in the order they are encoded: the IR's runs of fixed fields packed with one
        layout (checked against the run's size), a ``string``/``bytes`` field closing a run (or
        alone) with its u32 size (its bytes follow the run), and every other field on its own."""
        out: list[tuple[list[ir.Field], ir.Field | None] | ir.Field] = []
        starts = {r.fields[0]: r for r in s.runs}
        fields = list(s.all_fields)
        i = 0
        while i < len(fields):
            run: list[ir.Field] = []
            if fields[i].name in starts:
                r = starts[fields[i].name]
                run = fields[i:i + len(r.fields)]
                check_size("".join(slot_fmt(f.type) for f in run), r.size)
                i += len(run)
            if i < len(fields) and _is_text(fields[i].type):
                out.append((run, fields[i]))
                i += 1
            elif run:
                out.append((run, None))
            else:
                out.append(fields[i])
                i += 1
        return out

    def struct_functions(self, s: ir.Struct) -> list[str]:
        c = self.ctx
        cls = ident(s.name)
        fields = s.all_fields
        self.n = 0
        # writer: one pack per run
        out = [f"def fbe_fw_{s.name}(w: bytearray, v: {cls}) -> None:",
               f'{IND}"""Append the final encoding of a {s.name} (fields back to back)."""']
        body: list[str] = []
        for part in self.runs(s):
            if isinstance(part, ir.Field):
                body += self.write(part.type, f"v.{ident(part.name)}", part.name, 0)
                continue
            members, text = part
            fmt = ""
            raws: list[str] = []
            for m in members:
                pre, rs = self.raw_values(m.type, f"v.{ident(m.name)}", m.name)
                body += pre
                raws += rs
                fmt += slot_fmt(m.type)
            tail = ""
            if text is not None:
                tail = self.tmp("s")
                x = f"v.{ident(text.name)}"
                enc = f'{x}.encode("utf-8", "surrogateescape")' if _is_string(text.type) else x
                body.append(f"{tail} = {enc}")
                raws.append(f"len({tail})")
                fmt += "I"
            body.append(f"w += {c.layout(fmt)}.pack({', '.join(raws)})")
            if tail:
                body.append(f"w += {tail}")
        out += [IND + x for x in body]
        out += ["", ""]

        # reader
        leaf = not nests(s)
        out += [f"def fbe_fr_{s.name}(r: fbe.Reader, p: int) -> tuple[{cls}, int]:",
                f'{IND}"""Read a {s.name} at p; return it and the position after it."""']
        enter = "final_leaf" if leaf else "final_enter"
        out.append(f"{IND}fbe.buffer.{enter}(r, p, {struct_cost(s)})")
        body = []
        args: list[str] = []
        if any(not isinstance(part, ir.Field) for part in self.runs(s)):
            body.append("data, end = r.data, r.size")
        for part in self.runs(s):
            if isinstance(part, ir.Field):
                target = self.tmp("x")
                body += self.read(part.type, target, part.name)
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
                first, what0 = text.name, ("string size" if _is_string(text.type) else "bytes size")
            body += [f"if p + {size} > end:",
                     f'{IND}raise fbe.buffer.out_of_bounds("{what0}", p, "{first}")',
                     f"{tv} = {lay}.unpack_from(data, p)", f"p += {size}"]
            k = 0
            for m in members:
                args.append(self.conv(m.type, tv, k))
                k += nraw(m.type)
            if text is not None:
                what = "string" if _is_string(text.type) else "bytes"
                q, x = self.tmp("q"), self.tmp("x")
                raw = f"data[p:{q}]"
                body += [f"{q} = p + {tv}[{k}]",
                         f"if {q} > end:",
                         f'{IND}raise fbe.buffer.out_of_bounds(f"{what} of {{{tv}[{k}]}} bytes", p - 4, "{text.name}")',
                         f"r.budget -= {tv}[{k}]",
                         "if r.budget < 0:",
                         f'{IND}r.spend(0, p - 4, "{text.name}")',
                         f'{x} = {raw}.decode("utf-8", "surrogateescape")' if what == "string" else f"{x} = {raw}",
                         f"p = {q}"]
                args.append(x)
        # every field is known: the instance without __init__ (its defaults would be overwritten)
        body.append(f"v = {cls}.__new__({cls})")
        body += [f"v.{ident(f.name)} = {x}" for f, x in zip(fields, args)]
        out += [f"{IND}try:"] + [IND * 2 + x for x in body]
        out += [f"{IND}except fbe.DecodeError as e:",
                f'{IND * 2}raise e.within("{s.qualified}") from None']
        if not leaf:
            out.append(f"{IND}r.depth -= 1")
        out += [f"{IND}return v, p", "", ""]
        return out

    def model_class(self, s: ir.Struct) -> list[str]:
        cls = ident(s.name)
        return [
            f"class {s.name}FinalModel(fbe.FinalModel[{cls}]):",
            f'{IND}"""Final model of {s.name}: compact, no versioning (docs/format.md section 4)."""',
            "",
            f"{IND}fbe_type = {s.type_id}",
            "",
            f"{IND}def _encode(self, value: {cls}) -> bytearray:",
            f"{IND * 2}return fbe.encode_final(fbe_fw_{s.name}, {self.ctx.writable(s.qualified, 'value')}, {s.type_id})",
            "",
            f"{IND}def _decode(self, data: bytes) -> tuple[{cls}, int]:",
            f"{IND * 2}return fbe.decode_final(fbe_fr_{s.name}, data, {s.type_id}, self.limits)",
            "", "",
        ]
