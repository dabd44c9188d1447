"""Versioned-model code: per-struct write/read functions and `<Name>Model` classes.

A struct body is written with one ``pack_into`` of a precompiled layout after
its out-of-line data has been appended, and read with one ``unpack_from``
(docs/format.md section 3). Offsets and sizes come from the IR.
"""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import CodeWriter

from .context import (
    Context,
    check_size,
    each,
    encoded,
    fixed_raws,
    is_plain,
    map_order,
    nraw,
    packed_array,
    plain_format,
    set_order,
    slot_fmt,
    struct_read,
    tkey,
)


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


class Versioned:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------ writing

    def write_field(self, code: CodeWriter, t: ir.Type, x: str, base: str, tmp: str, field: str) -> list[str]:
        """Writes the statements that allocate t's out-of-line data; returns the raw values of its slot."""
        c = self.ctx
        if ir.is_fixed(t):
            pre, raws = fixed_raws(t, x, field)
            code.lines("\n".join(pre))
            return raws
        if isinstance(t, ir.Primitive):
            fn = "write_string" if t.name == "string" else "write_bytes"
            code.line(f"{tmp} = fbe.buffer.{fn}(w, {x}) - {base}")
            return [tmp]
        if isinstance(t, ir.StructRef):
            code.line(f"{tmp} = {c.ref(t.name, 'fbe_vw_')}(w, {x}) - {base}")
            return [tmp]
        if isinstance(t, ir.Optional_):
            ow = self.opt_writer(t.element)
            code.line(f"{tmp}v = {x}")
            with code.block(f"if {tmp}v is None:"):
                code.line(f"{tmp}h = {tmp}o = 0")
            with code.block("else:"):
                code.line(f"{tmp}h = 1")
                code.line(f"{tmp}o = {ow}(w, {tmp}v) - {base}")
            return [f"{tmp}h", f"{tmp}o"]
        if isinstance(t, ir.Array):
            e = t.element
            aw = self.array_writer(t)
            code.line(f'{tmp} = {aw}(w, {base}, {x}, "{field}")')
            if packed_array(t):          # the element's raw values, packed element by element
                lay, k = c.layout(slot_fmt(e)), nraw(e)
                return [f'b"".join([{lay}.pack(*{tmp}[i:i + {k}]) for i in range(0, len({tmp}), {k})])']
            return [f"*{tmp}"]
        cw = self.coll_writer(t)
        code.line(f"{tmp} = {cw}(w, {base}, {x})")
        return [tmp]

    def slot_writer(self, t: ir.Type) -> str:
        """fbe_vsw_K(w, b, s, x): write x into the slot at absolute s, offsets relative to b."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            if is_plain(t) or isinstance(t, ir.EnumRef):
                code.line(f"{c.layout(slot_fmt(t))}.pack_into(w, s, x)")
            elif isinstance(t, ir.Primitive) and t.name == "decimal":
                code.line("w[s:s + 16] = fbe.encode_decimal(x)")
            elif isinstance(t, ir.Primitive) and t.name == "uuid":
                code.line("w[s:s + 16] = x.bytes")
            elif isinstance(t, ir.Primitive):
                fn = "write_string" if t.name == "string" else "write_bytes"
                code.line(f"fbe.buffer.pack_u32_into(w, s, fbe.buffer.{fn}(w, x) - b)")
            elif isinstance(t, ir.StructRef):
                code.line(f"fbe.buffer.pack_u32_into(w, s, {c.ref(t.name, 'fbe_vw_')}(w, x) - b)")
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
                code.line(f"{c.ref(e.name, 'fbe_vw_')}(w, x)")
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
                raws = self.write_field(code, t.element, "e", "b", "y", "f")
                code.line(f"out += ({', '.join(raws)},)")
            code.line("return out")

        any_ = c.std("typing", "Any")
        return c.function("fbe_vaw_" + tkey(t), f"(w: bytearray, b: int, x: {c.hint(t)}, f: str) -> list[{any_}]", body)

    def coll_writer(self, t: ir.Type) -> str:
        """fbe_vcw_K(w, b, x) -> int: write a vector/list/set/map/hash block, return its offset from b."""
        def body(code: CodeWriter) -> None:
            code.line("q = len(w)")
            self._coll_writer_body(code, t)

        return self.ctx.function("fbe_vcw_" + tkey(t), f"(w: bytearray, b: int, x: {self.ctx.hint(t)}) -> int", body)

    def write_items(self, code: CodeWriter, t: ir.Sequence | ir.Mapping, x: str) -> bool:
        """A block of scalars (the same bytes in both models: the count, then each item's slots) written
        at once: a plain vector, list or set with one call, others one pack per item, joined. False
        (nothing written) for other items."""
        parts = (t.key, t.value) if isinstance(t, ir.Mapping) else (t.element,)
        if not all(ir.is_scalar(part) for part in parts):
            return False
        fmt = plain_format(t.element, True) if isinstance(t, ir.Sequence) else None
        if fmt and isinstance(t, ir.Sequence):
            code.line(f'fbe.buffer.write_plain_seq(w, "{fmt}", {set_order(t, x)})')
            return True
        lay = self.ctx.layout("".join(slot_fmt(part) for part in parts))
        names = ("k", "e")[-len(parts):]
        raws = ", ".join(raw for part, name in zip(parts, names) for raw in fixed_raws(part, name, "")[1])
        it = map_order(t, x) if isinstance(t, ir.Mapping) else set_order(t, x)
        code.line(f"w += fbe.buffer.pack_u32(len({x}))")
        code.line(f'w += b"".join([{lay}.pack({raws}) for {", ".join(names)} in {it}])')
        return True

    def _coll_writer_body(self, code: CodeWriter, t: ir.Type) -> None:
        c = self.ctx
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        if self.write_items(code, t, "x"):
            code.line("return q - b")
            return
        if isinstance(t, ir.Sequence):
            e = t.element
            it = set_order(t, "x")
            if isinstance(e, ir.StructRef):  # the bodies first, then every offset with one pack
                vw = c.ref(e.name, "fbe_vw_")
                pack = c.file.qualified("struct", "pack_into")
                code.line("n = len(x)")
                code.line("w += bytes(4 + n * 4)")
                code.line(f'{pack}(f"<{{n + 1}}I", w, q, n, *[{vw}(w, e) - b for e in {it}])')
                code.line("return q - b")
                return
            sw = self.slot_writer(e)
            code.line("n = len(x)")
            code.line("w += fbe.buffer.pack_u32(n)")
            code.line(f"w += bytes(n * {e.size})")
            code.line("s = q + 4")
            with code.block(f"for e in {it}:"):
                code.line(f"{sw}(w, b, s, e)")
                code.line(f"s += {e.size}")
            code.line("return q - b")
            return
        assert isinstance(t, ir.Mapping)
        kw, vw = self.slot_writer(t.key), self.slot_writer(t.value)
        it = map_order(t, "x")
        code.line("n = len(x)")
        code.line("w += fbe.buffer.pack_u32(n)")
        code.line(f"w += bytes(n * {t.item_size})")
        code.line("s = q + 4")
        with code.block(f"for k, v in {it}:"):
            code.line(f"{kw}(w, b, s, k)")
            code.line(f"{vw}(w, b, s + {t.key.size}, v)")
            code.line(f"s += {t.item_size}")
        code.line("return q - b")

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
        return f"{self.coll_reader(t)}(r, {base}, {r0}, {field})"

    def slot_reader(self, t: ir.Type) -> str:
        """fbe_vsr_K(r, s, f) -> T: an optional's value read from its value slot at s (the new base)."""
        c = self.ctx

        def body(code: CodeWriter) -> None:
            code.line(f"t = fbe.buffer.read_slot(r, {c.layout(slot_fmt(t))}, s, f)")
            code.line(f"v: {c.hint(t)} = {self.read_expr(t, Raw('t', 0), 's', 'f', 's')}")
            code.line("return v")

        return c.function("fbe_vsr_" + tkey(t), f"(r: fbe.Reader, s: int, f: str) -> {c.hint(t)}", body)

    def coll_reader(self, t: ir.Type) -> str:
        """fbe_vcr_K(r, b, off, f): a vector/list/set/map/hash block at b + off."""
        def body(code: CodeWriter) -> None:
            with code.block("if not off:"):
                code.line("return " + ("{}" if isinstance(t, ir.Mapping) else "set()" if t.kind == "set" else "[]"))
            code.line("q = b + off")
            self._coll_reader_body(code, t)

        return self.ctx.function("fbe_vcr_" + tkey(t), f"(r: fbe.Reader, b: int, off: int, f: str) -> {self.ctx.hint(t)}",
                                 body)

    def _coll_reader_body(self, code: CodeWriter, t: ir.Type) -> None:
        assert isinstance(t, (ir.Sequence, ir.Mapping))
        code.line(f"n = fbe.buffer.read_count(r, q, {t.item_size}, {t.item_cost}, f)")
        code.line("q += 4")
        # a set, map or hash holds each element or key once: two that read the same are refused (docs/limits.md 4)
        value = self.items(t, "n", "q", "b", "f")
        if isinstance(t, ir.Mapping) or t.kind == "set":
            value = f"fbe.buffer.distinct({value}, n, f, b + off)"
        code.line(f"return {value}")

    def items(self, t: ir.Sequence | ir.Mapping, n: str, at: str, base: str, field: str) -> str:
        """The n items of a block at ``at``: a plain vector, list or set with one unpack (plain_items),
        else a comprehension of the items, each unpacked with one layout: the versioned model's slots (offsets from ``base`` where they point out), or the final model's
        fixed values (ir.is_fixed: the same bytes in both models)."""
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

    # ------------------------------------------------------------ structs

    def struct_functions(self, s: ir.Struct) -> list[str]:
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
            if all(ir.is_text(f.type) or ir.is_scalar(f.type) for f in fields) and \
                    any(ir.is_text(f.type) for f in fields):
                self.text_struct_writer(code, s, fmt)
            else:
                code.line(f"w += bytes({s.body_size})")
                raws: list[str] = [str(s.body_size), str(s.type_id)]
                for i, f in enumerate(fields):
                    raws += self.write_field(code, f.type, f"v.{self.ctx.ident.field(f)}", "p", f"o{i}", f.name)
                code.line(f"{lay}.pack_into(w, p, {', '.join(raws)})")
            code.line("return p")
        code.blank(2)

        # reader
        cost = s.decode_cost
        header = f'fbe.buffer.struct_header(r, p, {s.type_id}, "{s.qualified}", {cost})'
        with code.block(f"def fbe_vr_{s.name}(r: fbe.Reader, p: int) -> {cls}:"):
            code.line(f'"""Read the {s.name} body at absolute position p '
                      '(fields missing from older writers get defaults)."""')
            if not fields:
                code.line(header)
                code.line("r.depth -= 1")
                code.line(f"return {cls}()")
            else:
                self._read_body(code, s, lay, cost)
        return code.text().splitlines() + ["", ""]

    def _read_body(self, code: CodeWriter, s: ir.Struct, lay: str, cost: int) -> None:
        """The reader of a struct with fields: one unpack of the body, then every field."""
        c = self.ctx
        cls = self.ctx.ident.type(s.qualified)
        fields = s.all_fields
        plan = c.plan.struct(s.qualified)
        leaf = not plan.nests
        body = f'fbe.buffer.{"leaf_body" if leaf else "struct_body"}(r, {lay}, p, {s.type_id}, "{s.qualified}", {cost})'
        ends = ", ".join(str(f.end) for f in plan.fields)
        ends_c = c.constant(f"({ends},)" if len(fields) == 1 else f"({ends})")
        exprs = []
        idx = 2
        for f in fields:
            exprs.append(self.read_expr(f.type, Raw("t", idx), "p", f'"{f.name}"', f"p + {f.offset}"))
            idx += nraw(f.type)
        code.line(f"t = {body}")
        with struct_read(code, s, leaf, "v"):
            # a body as large as ours or larger (a newer writer: the rest is skipped): every field, no __init__
            with code.block(f"if t[0] >= {s.body_size}:"):
                code.line(f"v = {cls}.__new__({cls})")
                for f, x in zip(fields, exprs):
                    code.line(f"v.{self.ctx.ident.field(f)} = {x}")
            # an older writer's smaller body: the fields it did not know get their defaults
            with code.block("else:"):
                code.line(f"k = fbe.buffer.present({ends_c}, t[0], {s.base_size})")
                # the default struct values of the missing fields are materialized too: charged (docs/limits.md)
                missing = [f.missing_cost for f in plan.fields] + [0]
                if missing[0]:
                    code.line(f"fbe.buffer.charge_defaults(r, {c.constant(repr(tuple(missing)))}, k, p)")
                with code.block(f"v = {cls}(", ")"):
                    for i, (f, x) in enumerate(zip(fields, exprs)):
                        code.line(f"{x} if k > {i} else {self.default_arg(f)},")

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
                raws += self.write_field(code, f.type, x, "p", f"o{i}", f.name)  # a fixed scalar: no statement
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

    def default_arg(self, f: ir.Field) -> str:
        """What to pass to the constructor so that the field gets its schema default."""
        expr, per_instance = self.ctx.default_value(f)
        if not per_instance:
            return expr
        return "fbe.DEFAULT" if isinstance(f.type, ir.Optional_) else "None"
