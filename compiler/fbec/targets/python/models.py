"""The binary models' code: per-struct write and read functions of the versioned model
(`fbe_vw_`/`fbe_vr_<Name>`, docs/format.md section 3) and the final model's reader (`fbe_fr_`,
section 4; its writer is compiled by the runtime from the class's spec, fbe.final).

The versioned writer (`Models.write`) returns the raw values of a field's slot, its out-of-line
data appended first (`at` = (base, stem): what its offsets count from, the stem of its locals).
The versioned reader is an expression of a slot's raw values (`read_expr`), which the final reader
takes for every fixed value (ir.is_fixed: the same bytes in both models) and every block of them
(`items`). A versioned body is
written with one ``pack_into`` of a precompiled layout after its out-of-line data, and read with one
``unpack_from``; the final reader takes a struct's consecutive fixed-size fields (the plan's final
steps) with one layout each. Offsets and sizes come from the IR.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from fbec.model import ir
from fbec.model.plan import FieldPlan, Run
from fbec.targets.base import CodeWriter, Locals

from .context import (
    EMPTY,
    Context,
    check_size,
    each,
    encoded,
    fixed_raws,
    is_plain,
    is_string,
    nraw,
    ordered,
    packed_array,
    parts,
    plain_format,
    py_tuple,
    set_order,
    slot_fmt,
    struct_read,
    tkey,
)


class Pack(NamedTuple):
    """Fixed-size fields of the final model packed with one layout (fmt), and the string or bytes
    field whose u32 size closes it (its bytes follow the pack)."""
    members: list[ir.Field]
    text: ir.Field | None
    fmt: str


class Raw:
    """The raw unpacked values of one slot: ``tv[start]``, ``tv[start + 1]``... (start None: its one
    raw value is ``tv`` itself)."""

    def __init__(self, tv: str, start: int | str | None) -> None:
        self.tv, self.start = tv, start

    def at(self, n: int) -> str:
        if self.start is None:
            return self.tv
        if isinstance(self.start, int):
            return f"{self.tv}[{self.start + n}]"
        return f"{self.tv}[{self.start} + {n}]" if n else f"{self.tv}[{self.start}]"


class Models:
    """The walks of both binary models over the IR of one package (its Context): the versioned
    model's per-struct functions and per-type helpers (Context.function), the final model's
    per-struct readers."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.tmp = Locals()     # the locals of a final struct's functions

    # ------------------------------------------------------------ writing

    def append(self, t: ir.Primitive | ir.StructRef, x: str) -> str:
        """The call appending a string's or bytes' data or a struct's body to w; it returns where it starts."""
        if isinstance(t, ir.StructRef):
            return f"{self.ctx.ref(t.name, 'fbe_vw_')}(w, {x})"
        return f"fbe.buffer.{'write_string' if is_string(t) else 'write_bytes'}(w, {x})"

    def write(self, code: CodeWriter, t: ir.Type, x: str, field: str, at: tuple[str, str]) -> list[str]:
        """Statements writing the out-of-line data of x (type t) for its versioned slot, returning the
        slot's raw values (at = (base, stem): what its offsets count from, the stem of its locals)."""
        c = self.ctx
        base, tmp = at
        if ir.is_fixed(t):
            pre, raws = fixed_raws(t, x, field)
            code.lines("\n".join(pre))
            return raws
        if isinstance(t, (ir.Primitive, ir.StructRef)):
            code.line(f"{tmp} = {self.append(t, x)} - {base}")
            return [tmp]
        if isinstance(t, ir.Optional_):
            code.line(f"{tmp}v = {x}")
            with code.block(f"if {tmp}v is None:"):
                code.line(f"{tmp}h = {tmp}o = 0")
            with code.block("else:"):
                code.line(f"{tmp}h = 1")
                code.line(f"{tmp}o = {self.opt_writer(t.element)}(w, {tmp}v) - {base}")
            return [f"{tmp}h", f"{tmp}o"]
        if isinstance(t, ir.Array):
            code.line(f'{tmp} = {self.array_writer(t)}(w, {base}, {x}, "{field}")')
            if packed_array(t):          # the element's raw values, packed element by element
                lay, k = c.layout(slot_fmt(t.element)), nraw(t.element)
                return [f'b"".join([{lay}.pack(*{tmp}[i:i + {k}]) for i in range(0, len({tmp}), {k})])']
            return [f"*{tmp}"]
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        code.line(f"{tmp} = {self.coll_writer(t)}(w, {base}, {x})")
        return [tmp]

    def slot_writer(self, t: ir.Type) -> str:
        """fbe_vsw_K(w, b, s, x): write x into the slot at absolute s, offsets relative to b."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            if ir.is_scalar(t):   # its one raw value: as it is, or the 16 bytes of a uuid or decimal
                raw = fixed_raws(t, "x", "")[1][0]
                code.line(f"{c.layout(slot_fmt(t))}.pack_into(w, s, x)" if raw == "x" else f"w[s:s + {t.size}] = {raw}")
            elif isinstance(t, (ir.Primitive, ir.StructRef)):
                code.line(f"fbe.buffer.pack_u32_into(w, s, {self.append(t, 'x')} - b)")
            elif isinstance(t, ir.Optional_):
                ow = self.opt_writer(t.element)
                with code.block("if x is not None:"):
                    code.line("w[s] = 1")
                    code.line(f"fbe.buffer.pack_u32_into(w, s + 1, {ow}(w, x) - b)")
            else:
                raise AssertionError(f"no slot writer for {t}")

        return c.function("fbe_vsw_" + tkey(t), f"(w: bytearray, b: int, s: int, x: {c.hint(t)}) -> None", body)

    def opt_writer(self, e: ir.Type) -> str:
        """fbe_vow_K(w, x) -> int: allocate an optional's value slot and write x into it."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            code.line("q = len(w)")
            if isinstance(e, ir.StructRef):  # the body follows its value slot: the slot holds 4
                code.line('w += b"\\x04\\x00\\x00\\x00"')
                code.line(self.append(e, "x"))
            else:
                code.line(f"w += bytes({e.size})")
                code.line(f"{sw}(w, q, q, x)")
            code.line("return q")

        sw = "" if isinstance(e, ir.StructRef) else self.slot_writer(e)
        return c.function("fbe_vow_" + tkey(e), f"(w: bytearray, x: {c.hint(e)}) -> int", body)

    def array_writer(self, t: ir.Array) -> str:
        """fbe_vaw_K(w, b, x, f) -> list: write the out-of-line data of an array, return its raw slot values."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            code.line(f"fbe.buffer.check_length(x, {t.length}, f)")
            code.line("out: list[Any] = []")
            with code.block("for e in x:"):
                raws = self.write(code, t.element, "e", "f", ("b", "y"))
                code.line(f"out += ({', '.join(raws)},)")
            code.line("return out")

        any_ = c.std("typing", "Any")
        return c.function("fbe_vaw_" + tkey(t), f"(w: bytearray, b: int, x: {c.hint(t)}, f: str) -> list[{any_}]", body)

    def write_items(self, code: CodeWriter, t: ir.Sequence | ir.Mapping, x: str) -> bool:
        """A block of scalars (the same bytes in both models: the count, then each item's slots) written
        at once: a plain vector, list or set with one call, others one pack per item, joined. False
        (nothing written) for other items."""
        if not all(ir.is_scalar(part) for part in parts(t)):
            return False
        fmt = plain_format(t.element, True) if isinstance(t, ir.Sequence) else None
        if fmt and isinstance(t, ir.Sequence):
            code.line(f'fbe.buffer.write_plain_seq(w, "{fmt}", {set_order(t, x)})')
            return True
        lay = self.ctx.layout("".join(slot_fmt(part) for part in parts(t)))
        names = ("k", "e")[-len(parts(t)):]
        raws = ", ".join(raw for part, name in zip(parts(t), names) for raw in fixed_raws(part, name, "")[1])
        code.line(f"w += fbe.buffer.pack_u32(len({x}))")
        code.line(f'w += b"".join([{lay}.pack({raws}) for {", ".join(names)} in {ordered(t, x)}])')
        return True

    def coll_writer(self, t: ir.Sequence | ir.Mapping) -> str:
        """fbe_vcw_K(w, b, x) -> int: write a vector/list/set/map/hash block, return its offset from b."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            code.line("q = len(w)")
            if self.write_items(code, t, "x"):
                pass
            elif isinstance(t, ir.Sequence) and isinstance(t.element, ir.StructRef):
                # the bodies first, then every offset with one pack
                code.line("n = len(x)")
                code.line("w += bytes(4 + n * 4)")
                code.line(f'{c.file.qualified("struct", "pack_into")}(f"<{{n + 1}}I", w, q, n, '
                          f'*[{self.append(t.element, "e")} - b for e in {set_order(t, "x")}])')
            else:
                writers = [self.slot_writer(part) for part in parts(t)]
                names, where = ("k", "v") if isinstance(t, ir.Mapping) else ("e",), ["s"]
                if isinstance(t, ir.Mapping):
                    where.append(f"s + {t.key.size}")
                code.line("n = len(x)")
                code.line("w += fbe.buffer.pack_u32(n)")
                code.line(f"w += bytes(n * {t.item_size})")
                code.line("s = q + 4")
                with code.block(f"for {', '.join(names)} in {ordered(t, 'x')}:"):
                    for writer, s, name in zip(writers, where, names):
                        code.line(f"{writer}(w, b, {s}, {name})")
                    code.line(f"s += {t.item_size}")
            code.line("return q - b")

        return c.function("fbe_vcw_" + tkey(t), f"(w: bytearray, b: int, x: {c.hint(t)}) -> int", body)

    # ------------------------------------------------------------ reading

    def read_expr(self, t: ir.Type, raw: Raw, base: str, field: str, pos: str) -> str:
        """An expression decoding a slot of type t from its raw values (``field`` is an expression,
        ``pos`` one of the slot's absolute position, which a decimal's error names)."""
        c = self.ctx
        r0 = raw.at(0)
        if ir.is_scalar(t):
            return c.scalar(t, r0, pos, field)
        if isinstance(t, ir.Primitive):
            fn = "read_string" if t.name == "string" else "read_bytes"
            return f"fbe.buffer.{fn}(r, {base}, {r0}, {field})"
        if isinstance(t, ir.StructRef):
            absent = f"fbe.buffer.absent_struct(r, {c.ref(t.name)}, {field}, {base})"
            return f"({c.ref(t.name, 'fbe_vr_')}(r, {base} + {r0}) if {r0} else {absent})"
        if isinstance(t, ir.Optional_):
            e = t.element
            if isinstance(e, ir.StructRef):
                vr, make = c.ref(e.name, "fbe_vr_"), c.ref(e.name)
                return f"fbe.buffer.read_optional_struct(r, {base}, {r0}, {raw.at(1)}, {field}, {vr}, {make})"
            sr = self.slot_reader(e)
            return f"fbe.buffer.read_optional(r, {base}, {r0}, {raw.at(1)}, {field}, {sr})"
        if isinstance(t, ir.Array):
            e, packed = t.element, packed_array(t)
            k = nraw(e)
            assert isinstance(raw.start, int)
            if k > 1 and not packed:  # an optional's two raw values: j runs over the first of each
                inner = self.read_expr(e, Raw(raw.tv, "j"), base, field, pos)
                return f"[{inner} for j in range({raw.start}, {raw.start + t.length * k}, {k})]"
            values = f"{raw.tv}[{raw.start}:{raw.start + t.length}]"
            if is_plain(e):
                return f"list({values})"
            # each element y: its one raw value, or (packed) the tuple of them its own layout unpacks
            items = f"{c.layout(slot_fmt(e))}.iter_unpack({r0})" if packed else values
            inner = self.read_expr(e, Raw("y", 0 if packed else None), base, field, f"{pos} + {e.size} * i")
            return f"[{inner} for {each('y', items, ir.is_decimal(e))}]"
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        return f"{self.coll_reader(t)}(r, {base}, {r0}, {field})"

    def slot_reader(self, t: ir.Type) -> str:
        """fbe_vsr_K(r, s, f) -> T: an optional's value read from its value slot at s (the new base)."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            code.line(f"t = fbe.buffer.read_slot(r, {c.layout(slot_fmt(t))}, s, f)")
            code.line(f"v: {c.hint(t)} = {self.read_expr(t, Raw('t', 0), 's', 'f', 's')}")
            code.line("return v")

        return c.function("fbe_vsr_" + tkey(t), f"(r: fbe.Reader, s: int, f: str) -> {c.hint(t)}", body)

    def coll_reader(self, t: ir.Sequence | ir.Mapping) -> str:
        """fbe_vcr_K(r, b, off, f): a vector/list/set/map/hash block at b + off."""
        def body(code: CodeWriter) -> None:
            with code.block("if not off:"):
                code.line(f"return {EMPTY[t.kind]}")
            code.line("q = b + off")
            code.line(f"n = fbe.buffer.read_count(r, q, {t.item_size}, {t.item_cost}, f)")
            code.line("q += 4")
            # a set, map or hash holds each element or key once: two that read the same are refused (docs/limits.md 4)
            value = self.items(t, "n", "q", "b", "f")
            if isinstance(t, ir.Mapping) or t.kind == "set":
                value = f"fbe.buffer.distinct({value}, n, f, b + off)"
            code.line(f"return {value}")

        signature = f"(r: fbe.Reader, b: int, off: int, f: str) -> {self.ctx.hint(t)}"
        return self.ctx.function("fbe_vcr_" + tkey(t), signature, body)

    def items(self, t: ir.Sequence | ir.Mapping, n: str, at: str, base: str, field: str) -> str:
        """The n items of a block at ``at``: a plain vector, list or set with one unpack (plain_items),
        else a comprehension of the items, each unpacked with one layout: the versioned model's slots
        (offsets from ``base`` where they point out), or the final model's fixed values (ir.is_fixed:
        the same bytes in both models)."""
        c = self.ctx
        if isinstance(t, ir.Sequence):
            plain = c.plain_items(t, n, at)
            if plain:
                return plain
            e = t.element
            inner = self.read_expr(e, Raw("e", 0), base, field, f"{at} + {e.size} * i")
            open_, close = ("{", "}") if t.kind == "set" else ("[", "]")
            items = f"{c.layout(slot_fmt(e))}.iter_unpack(r.data[{at}:{at} + {n} * {t.item_size}])"
            return f"{open_}{inner} for {each('e', items, ir.is_decimal(e))}{close}"
        lay = c.layout(slot_fmt(t.key) + slot_fmt(t.value))
        kx = self.read_expr(t.key, Raw("e", 0), base, field, f"{at} + {t.item_size} * i")
        vx = self.read_expr(t.value, Raw("e", nraw(t.key)), base, field, f"{at} + {t.item_size} * i + {t.key.size}")
        items = f"{lay}.iter_unpack(r.data[{at}:{at} + {n} * {t.item_size}])"
        return f"{{{kx}: {vx} for {each('e', items, ir.is_decimal(t.key) or ir.is_decimal(t.value))}}}"

    def read(self, code: CodeWriter, t: ir.Type, target: str, field: str) -> None:
        """Statements reading a final-model value of type t at p into ``target`` and advancing p."""
        c = self.ctx
        f = f'"{field}"'
        if ir.is_fixed(t):
            lay = c.layout(slot_fmt(t))
            tv = self.tmp("t")
            code.line(f"{tv} = fbe.buffer.final_fixed(r, {lay}, p, {f})")
            code.line(f"p += {lay}.size")
            code.line(f"{target} = {self.read_expr(t, Raw(tv, 0), 'p', f, f'p - {lay}.size')}")
            return
        if isinstance(t, ir.StructRef):
            code.line(f"{target}, p = {c.ref(t.name, 'fbe_fr_')}(r, p)")
            return
        if isinstance(t, ir.Primitive):  # a string or bytes
            code.line(f"{target}, p = fbe.buffer.final_{'string' if is_string(t) else 'bytes'}(r, p, {f})")
            return
        decl = f"{target}: {c.hint(t)}"
        if isinstance(t, ir.Optional_):
            h, inner = self.tmp("h"), self.tmp("x")
            code.line(f"{h} = fbe.buffer.final_has(r, p, {f})")
            code.line("p += 1")
            code.line(f"{decl} = None")
            with code.block(f"if {h}:"):
                self.read(code, t.element, inner, field)
                code.line(f"{target} = {inner}")
            return
        assert isinstance(t, (ir.Array, ir.Sequence, ir.Mapping))
        if isinstance(t, ir.Array):  # of values that are not fixed (is_fixed above)
            count, at = str(t.length), ""
        else:
            count = self.tmp("n")
            at = self.tmp("at") if isinstance(t, ir.Mapping) or t.kind == "set" else ""
            if at:
                code.line(f"{at} = p")
            code.line(f"{count} = fbe.buffer.final_count(r, p, {t.item_min_size}, {t.item_cost}, {f})")
            code.line("p += 4")
            if all(ir.is_fixed(part) for part in parts(t)):
                # their bytes are there (final_count): one comprehension, as the versioned model reads a block;
                # a set, map or hash holds each element or key once (docs/limits.md 4)
                value = self.items(t, count, "p", "p", f)
                code.line(f"{decl} = " + (f"fbe.buffer.distinct({value}, {count}, {f}, {at})" if at else value))
                code.line(f"p += {count} * {t.item_min_size}")
                return
        mapping = isinstance(t, ir.Mapping)
        names = [self.tmp(n) for n in ("k", "v")] if mapping else [self.tmp("e")]
        code.line(f"{decl} = {EMPTY[t.kind]}")
        with code.block(f"for _ in range({count}):"):
            for part, name in zip(parts(t), names):
                self.read(code, part, name, field)
            code.line(f"{target}[{names[0]}] = {names[-1]}" if mapping else
                      f"{target}.{'add' if at else 'append'}({names[0]})")
        if at:
            code.line(f"fbe.buffer.distinct({target}, {count}, {f}, {at})")

    # ------------------------------------------------------------ structs

    def construct(self, code: CodeWriter, s: ir.Struct, values: list[str]) -> None:
        """``v``, a struct with every field known: made without __init__ (its defaults would be
        overwritten), each field set."""
        cls = self.ctx.ident.type(s.qualified)
        code.line(f"v = {cls}.__new__({cls})")
        for f, x in zip(s.all_fields, values):
            code.line(f"v.{self.ctx.ident.field(f)} = {x}")

    def versioned_functions(self, s: ir.Struct) -> list[str]:
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        fields = s.all_fields
        fmt = "II"
        for f in fields:           # the header, then every slot in order: the IR's layout, checked
            check_size(slot_fmt(f.type), f.type.size)
            fmt += slot_fmt(f.type)
        check_size(fmt, s.body_size)
        lay = c.layout(fmt)
        code = self.ctx.writer()

        # writer
        with code.block(f"def fbe_vw_{s.name}(w: bytearray, v: {cls}) -> int:"):
            code.line(f'"""Append the body of a {s.name} and its data; return the body position."""')
            code.line("p = len(w)")
            texts = [f for f in fields if ir.is_text(f.type)]
            if texts and all(ir.is_text(f.type) or ir.is_scalar(f.type) for f in fields):
                self.text_struct_writer(code, s, fmt)
            else:
                code.line(f"w += bytes({s.body_size})")
                raws: list[str] = [str(s.body_size), str(s.type_id)]
                for i, f in enumerate(fields):
                    raws += self.write(code, f.type, f"v.{self.ctx.ident.field(f)}", f.name, ("p", f"o{i}"))
                code.line(f"{lay}.pack_into(w, p, {', '.join(raws)})")
            code.line("return p")
        code.blank(2)

        # reader
        with code.block(f"def fbe_vr_{s.name}(r: fbe.Reader, p: int) -> {cls}:"):
            code.line(f'"""Read the {s.name} body at absolute position p '
                      '(fields missing from older writers get defaults)."""')
            if not fields:
                code.line(f'fbe.buffer.struct_header(r, p, {s.type_id}, "{s.qualified}", {s.decode_cost})')
                code.line("r.depth -= 1")
                code.line(f"return {cls}()")
            else:
                self._versioned_read(code, s, lay)
        return code.text().splitlines() + ["", ""]

    def _versioned_read(self, code: CodeWriter, s: ir.Struct, lay: str) -> None:
        """The reader of a struct with fields: one unpack of the body, then every field."""
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        fields = s.all_fields
        plan = c.plan.struct(s.qualified)
        leaf = not plan.nests
        reader = "leaf_body" if leaf else "struct_body"
        body = f'fbe.buffer.{reader}(r, {lay}, p, {s.type_id}, "{s.qualified}", {s.decode_cost})'
        ends_c = c.constant(py_tuple([str(f.end) for f in plan.fields]))
        exprs, idx = [], 2
        for f in fields:
            exprs.append(self.read_expr(f.type, Raw("t", idx), "p", f'"{f.name}"', f"p + {f.offset}"))
            idx += nraw(f.type)
        code.line(f"t = {body}")
        with struct_read(code, s, leaf, "v"):
            # a body as large as ours or larger (a newer writer: the rest is skipped): every field, no __init__
            with code.block(f"if t[0] >= {s.body_size}:"):
                self.construct(code, s, exprs)
            # an older writer's smaller body: the fields it did not know get their defaults
            with code.block("else:"):
                code.line(f"k = fbe.buffer.present({ends_c}, t[0], {s.base_size})")
                # the default struct values of the missing fields are materialized too: charged (docs/limits.md)
                if plan.older_cost:
                    missing = c.constant(repr(tuple([(f.missing_cost, f.name) for f in plan.fields] + [(0, "")])))
                    code.line(f"fbe.buffer.charge_defaults(r, {missing}, k, p)")
                with code.block(f"v = {cls}(", ")"):
                    for i, (f, x) in enumerate(zip(fields, exprs)):
                        code.line(f"{x} if k > {i} else {c.default_arg(f)},")

    def text_struct_writer(self, code: CodeWriter, s: ir.Struct, fmt: str) -> None:
        """A body of fixed fields and strings/bytes: their data follows the body in field order, so every
        offset is known once the values are encoded; the body goes out with one pack that also holds the
        first string's size."""
        c = self.ctx
        raws: list[str] = [str(s.body_size), str(s.type_id)]
        texts: list[str] = []
        off = str(s.body_size)
        for i, f in enumerate(s.all_fields):
            x = f"v.{self.ctx.ident.field(f)}"
            if not ir.is_text(f.type):
                raws += self.write(code, f.type, x, f.name, ("p", f"o{i}"))  # a fixed scalar: no statement
                continue
            if texts:
                code.line(f"o{i} = {off} + 4 + len({texts[-1]})")
                off = f"o{i}"
            t = f"s{i}"
            code.line(f"{t} = {encoded(f.type, x)}")
            texts.append(t)
            raws.append(off)
        code.line(f"w += {c.layout(fmt + 'I')}.pack({', '.join(raws)}, len({texts[0]}))")
        code.line(f"w += {texts[0]}")
        for t in texts[1:]:
            code.line(f"w += fbe.buffer.pack_u32(len({t}))")
            code.line(f"w += {t}")

    def packs(self, s: ir.Struct) -> list[Pack | ir.Field]:
        """The plan's final steps as they are packed: a run of fixed-size fields (or one such field)
        with one layout (checked against the run's size), a ``string``/``bytes`` field closing it (or
        alone) with its u32 size (its bytes follow the run), and every other field on its own."""
        out: list[Pack | ir.Field] = []
        steps = self.ctx.plan.struct(s.qualified).final_steps
        i = 0
        while i < len(steps):
            step = steps[i]
            if isinstance(step, Run):
                run = [m.field for m in step.fields]
            else:
                run = [step.field] if ir.is_fixed(step.type) else []
            fmt = "".join(slot_fmt(f.type) for f in run)
            if run:
                check_size(fmt, step.size if isinstance(step, Run) else step.type.size)
                i += 1
            after = steps[i] if i < len(steps) else None
            if isinstance(after, FieldPlan) and ir.is_text(after.type):
                out.append(Pack(run, after.field, fmt + "I"))
                i += 1
            elif run:
                out.append(Pack(run, None, fmt))
            else:
                assert isinstance(step, FieldPlan)
                out.append(step.field)
                i += 1
        return out

    def final_functions(self, s: ir.Struct) -> list[str]:
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        self.tmp = Locals()
        code = self.ctx.writer()
        leaf = not c.plan.struct(s.qualified).nests
        with code.block(f"def fbe_fr_{s.name}(r: fbe.Reader, p: int) -> tuple[{cls}, int]:"):
            code.line(f'"""Read a {s.name} at p; return it and the position after it."""')
            code.line(f"fbe.buffer.{'final_leaf' if leaf else 'final_enter'}(r, p, {s.decode_cost})")
            with struct_read(code, s, leaf, "v, p"):
                self._final_read(code, s)
        return code.text().splitlines() + ["", ""]

    def _final_read(self, code: CodeWriter, s: ir.Struct) -> None:
        """Every field of a struct read into ``v`` (the reader's body inside its try)."""
        args: list[str] = []
        if any(not isinstance(part, ir.Field) for part in self.packs(s)):
            code.line("data, end = r.data, r.size")
        for part in self.packs(s):
            if isinstance(part, ir.Field):
                args.append(self.tmp("x"))
                self.read(code, part.type, args[-1], part.name)
                continue
            members, text = part.members, part.text
            lay, size, tv = self.ctx.layout(part.fmt), struct.calcsize("<" + part.fmt), self.tmp("t")
            what = "string" if text and is_string(text.type) else "bytes"
            first, what0 = (members[0].name, "value") if members else (text.name if text else "", f"{what} size")
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
                args.append(self.read_expr(m.type, Raw(tv, k), "p", f'"{m.name}"', at))
                k += nraw(m.type)
            if text is not None:
                q, x = self.tmp("q"), self.tmp("x")
                code.line(f"{q} = p + {tv}[{k}]")
                with code.block(f"if {q} > end:"):
                    code.line(f'raise fbe.buffer.out_of_bounds(f"{what} of {{{tv}[{k}]}} bytes", p - 4, "{text.name}")')
                code.line(f"r.budget -= {tv}[{k}]")
                with code.block("if r.budget < 0:"):
                    code.line(f'r.spend(0, p - 4, "{text.name}")')
                code.line(f'{x} = data[p:{q}]' + ('.decode("utf-8", "surrogateescape")' if what == "string" else ""))
                code.line(f"p = {q}")
                args.append(x)
        self.construct(code, s, args)
