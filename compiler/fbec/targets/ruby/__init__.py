"""fbec.targets.ruby: one Ruby file per schema package, on the runtime gem `fbe` (runtime/ruby).

A package's file is a module (`module Proto`) holding its enums and flags (classes on
`Fbe::Enum` and `Fbe::Flags`, one frozen constant per value, values the schema does not name kept)
and its structs (classes with keyword initialisers, `==`, `eql?`/`hash` by their [key] fields, the
text form as `to_s`, inherited fields first), each with the versioned and final models at the
offsets, sizes and costs the IR and the plan (fbec.model.plan) decided: the generator prints them
and computes none of them. What every type shares (the codecs of each kind of type, the roots,
verify, the limits) lives in the runtime; a struct's code is its fields' calls in order. Files of
imported packages are loaded with `require_relative` from the same folder (docs/ruby.md).
"""

from __future__ import annotations

import contextlib
import math
import re
import textwrap
from dataclasses import dataclass

from fbec.model import ir, plan
from fbec.targets import base
from fbec.targets.base import CodeWriter, GeneratedFile, Options, RawText, generated_header, quoted, text_struct
from fbec.targets.ruby.names import Idents
from fbec.targets.ruby.protocol import write_protocol

PRIMITIVES = {name: f"Fbe::Types::{name.upper()}" for name in ir.PRIMITIVE_SIZES}
DEFAULTS = {"bool": "false", "float": "0.0", "double": "0.0", "decimal": "Fbe::Decimal::ZERO", "string": "+''",
            "bytes": "''.b", "uuid": "Fbe::Uuid::NIL"}
FORMATS = {"bool": "C", "byte": "C", "char": "C", "wchar": "L<", "int8": "c", "uint8": "C", "int16": "s<",
           "uint16": "S<", "int32": "l<", "uint32": "L<", "int64": "q<", "uint64": "Q<", "timestamp": "Q<",
           "float": "e", "double": "E", "decimal": "Q<L<L<", "uuid": "a16"}
PACKED = {"L<": "V", "l<": "V", "S<": "v", "s<": "v"}   # the writers' directives of the same bytes
WORDS = {1: "C", 2: "v", 4: "V", 8: "Q<"}                 # the directive of a word of each width
COLLECTIONS = {"vector": "Sequence", "list": "Sequence", "set": "Sequence", "map": "Mapping", "hash": "Mapping"}


class Context(base.DefaultLiterals):
    SPELLS_ZERO = True

    def __init__(self, schema: ir.Schema, package: ir.Package, options: Options) -> None:
        self.options = options
        self.schema = schema
        self.package = package
        self.plan = plan.of(schema)
        self.ident = Idents(schema)
        self.file = GeneratedFile(f"{self.ident.file(package.name)}.rb")

    def named(self, qualified: str) -> str:
        """A type of this package by its name, another package's through its module."""
        package = qualified.rpartition(".")[0]
        name = self.ident.type(qualified)
        return name if package == self.package.name else f"{self.ident.module(package)}::{name}"

    def codec(self, t: ir.Type) -> str:
        """The runtime codec of t (Fbe::Types)."""
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name]
        if isinstance(t, ir.EnumRef):
            return f"{self.named(t.name)}::FBE_TYPE"
        if isinstance(t, ir.StructRef):
            return f"Fbe::Types::Struct.new({self.named(t.name)})"
        if isinstance(t, ir.Optional_):
            return f"Fbe::Types::Optional.new({self.codec(t.element)})"
        if isinstance(t, ir.Array):
            return f"Fbe::Types::FixedArray.new({self.codec(t.element)}, {integer(t.length)})"
        if isinstance(t, ir.Sequence):
            return f"Fbe::Types::Sequence.new(:{t.kind}, {self.codec(t.element)})"
        return f"Fbe::Types::Mapping.new(:{t.kind}, {self.codec(t.key)}, {self.codec(t.value)})"

    def packed(self, t: ir.Type, value: str) -> tuple[str, str] | None:
        """The Array#pack format of a scalar's slot and the Ruby expression of its checked value (None
        for what its codec writes)."""
        if isinstance(t, ir.EnumRef):
            # a declared enum value's number is looked up, a flags value's bits are in range: their
            # codec's wire is called for anything else (an Integer, an undeclared value, a wrong class)
            named = self.named(t.name)
            if t.kind == "flags":
                return (FORMATS[ir.value_name(t)],
                        f"{value}.is_a?({named}) ? {value}.value : {named}::FBE_TYPE.wire({value})")
            return FORMATS[ir.value_name(t)], f"{named}::FBE_WIRE[{value}] || {named}::FBE_TYPE.wire({value})"
        if not isinstance(t, ir.Primitive) or t.name not in FORMATS:
            return None
        if t.name == "bool":
            return "C", f"{value} ? 1 : 0"
        if t.name == "decimal":
            return FORMATS[t.name], f"*Fbe::Decimal.encode({value})"
        if t.name == "uuid":
            return FORMATS[t.name], f"Fbe::Uuid.to_bytes({value})"
        if t.name in ("float", "double"):  # Array#pack refuses what is no Numeric (TypeError: to_fbe's Explain)
            return FORMATS[t.name], value
        if self.guard(t, value):           # checked before the pack, which wraps what is out of range
            return FORMATS[t.name], value
        return FORMATS[t.name], f"{self.codec(t)}.check({value})"

    def word(self, t: ir.Type) -> Word | None:
        """How a scalar's checked value joins its neighbours in one integer of Array#pack (None for what
        is no integer of at most 4 bytes): its width (the slot's size), and whether it may be negative
        (masked): the range of the integer it is held as (flags: their unsigned bits)."""
        if not isinstance(t, (ir.Primitive, ir.EnumRef)) or t.size > 4:
            return None
        name = value_name(t)
        if name not in ir.INTEGER_RANGES:
            return None
        return Word(t.size, ir.INTEGER_RANGES[name][0] < 0)

    def guard(self, t: ir.Type, value: str) -> str | None:
        """The condition under which an integer's value is written as it is, compared in place (the
        codec's check, called otherwise, raises); None for other types, or when its line would not fit."""
        if not isinstance(t, ir.Primitive) or t.name == "bool":
            return None
        bounds = ir.TIMESTAMP_RANGE if t.name == "timestamp" else ir.INTEGER_RANGES.get(t.name)
        if bounds is None:
            return None
        low, high = (f"{'-' if v < 0 else ''}0x{abs(v):X}" if v else "0" for v in bounds)
        condition = f"{value}.is_a?(Integer) && {value} >= {low} && {value} <= {high}"
        return condition if len(condition) <= 80 else None

    def guard_lines(self, w: CodeWriter, t: ir.Type, value: str) -> None:
        """The integer's guard, when it has one: its codec's check unless the value is in range."""
        condition = self.guard(t, value)
        if condition:
            unless(w, f"{self.codec(t)}.check({value})", condition)

    def raw(self, w: CodeWriter, codec: str, t: ir.Primitive, value: str, text: str) -> None:
        """`text`, the String whose bytes a string or bytes field writes: the value itself when it is a
        String of UTF-8 (a string) or any String (bytes), the codec's raw (which converts or raises) otherwise."""
        w.line(f"{text} = {value}")
        condition = f"{text}.is_a?(String)"
        if t.name == "string":
            condition += f" && {text}.encoding == Encoding::UTF_8"
        unless(w, f"{text} = {codec}.raw({text})", condition)

    def unpacks(self, run: plan.Run) -> bool:
        """Whether String#unpack reads the run's fields as they are (no arrays)."""
        return all(isinstance(fp.type, (ir.Primitive, ir.EnumRef)) for fp in run.fields)

    def run_format(self, run: plan.Run) -> str:
        """The String#unpack format of a run's fields."""
        return counted([FORMATS[value_name(fp.type)]
                        for fp in run.fields if isinstance(fp.type, (ir.Primitive, ir.EnumRef))])

    def read(self, t: ir.Type, pos: str) -> str | None:
        """The value of a scalar at pos read in place (None for what its codec reads: a decimal's flags
        are checked)."""
        if not isinstance(t, (ir.Primitive, ir.EnumRef)) or self.packed(t, "") is None or ir.is_checked(t):
            return None
        if isinstance(t, ir.Primitive) and t.name == "uuid":
            return f"Fbe::Uuid.from_bytes(data.byteslice({pos}, 16))"
        return self.made(t, f"data.unpack1('{FORMATS[value_name(t)]}', offset: {pos})")

    def reads_in_place(self, p: plan.StructPlan) -> bool:
        """Whether a reader of the struct reads a scalar in place (from `data`, the reader's bytes)."""
        return any(self.read(fp.type, "") for fp in p.fields)

    def made(self, t: ir.Type, unpacked: str) -> str:
        """The value of an unpacked scalar of type t."""
        if isinstance(t, ir.EnumRef):
            return f"{self.named(t.name)}.from_wire({unpacked})"
        assert isinstance(t, ir.Primitive)
        if t.name == "bool":
            return f"{unpacked} != 0"
        if t.name == "uuid":
            return f"Fbe::Uuid.from_bytes({unpacked})"
        return unpacked

    def enum_value(self, enum: str, name: str) -> str:
        return f"{self.named(enum)}::{self.ident.value(enum, name)}"

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The Ruby expression of a field's default (a new value each time it is evaluated)."""
        if isinstance(t, ir.Optional_):
            return "nil" if d.kind in ("none", "null") else self.default(t.element, d)
        if isinstance(t, ir.Array):
            return f"Array.new({integer(t.length)}) {{ {self.default(t.element, d)} }}"
        if isinstance(t, ir.Sequence):
            return "Set.new" if t.kind == "set" else "[]"
        if isinstance(t, ir.Mapping):
            return "{}"
        if isinstance(t, ir.StructRef):
            return f"{self.named(t.name)}.new"
        literal = self.scalar_default(t, d)
        if isinstance(t, ir.EnumRef):
            return literal or f"{self.named(t.name)}.default"
        assert isinstance(t, ir.Primitive)
        return literal or DEFAULTS.get(t.name, "0")

    def made_default(self, kind: str) -> str:
        return "Fbe::Timestamp.utc" if kind == "utc" else f"Fbe::Uuid.{kind}"

    def int_default(self, t: ir.Type, value: int) -> str:
        if isinstance(t, ir.EnumRef):
            return self.flags_default(t.name, value)
        name = t.name if isinstance(t, ir.Primitive) else ""
        if name == "decimal":
            return f"BigDecimal('{value}')" if value else DEFAULTS[name]
        return f"{integer(value)}.0" if name in ("float", "double") else integer(value)

    def real_default(self, t: ir.Type, text: str) -> str:
        return f"BigDecimal('{text}')" if ir.is_decimal(t) else float_literal(text)

    def string_default(self, text: str) -> str:
        return f"+{ruby_string(text)}" if text else DEFAULTS["string"]

    def uuid_default(self, uuid: str) -> str:
        return f"'{uuid}'"

    def flags_default(self, flags: str, value: int) -> str:
        return f"{self.named(flags)}.from_wire({value})" if value else f"{self.named(flags)}.default"


def unless(w: CodeWriter, line: str, condition: str) -> None:
    """`line unless condition`, as a block when that is too long (RuboCop's Style/IfUnlessModifier)."""
    modifier(w, "unless", line, condition)


def modifier(w: CodeWriter, keyword: str, line: str, condition: str, last: bool = False) -> None:
    """`line if condition` or `line unless condition`, as a block when that is too long, or as a guard
    clause before the line when it is the method's last (RuboCop's Style/GuardClause)."""
    if len(w.unit) * w.depth + len(line) + len(keyword) + len(condition) + 2 <= 120:
        w.line(f"{line} {keyword} {condition}")
    elif last:
        w.line(f"return {'if' if keyword == 'unless' else 'unless'} {condition}")
        w.blank()
        w.line(line)
    else:
        with w.block(f"{keyword} {condition}", "end"):
            w.line(line)


def value_name(t: ir.Primitive | ir.EnumRef) -> str:
    """The primitive a scalar's value is held as: its own, an enum's wire integer, flags' unsigned bits
    (ir.value_name)."""
    return ir.value_name(t) if isinstance(t, ir.EnumRef) else t.name


def integer(value: int) -> str:
    """An integer literal, its digits grouped by three from 5 digits on (RuboCop's Style/NumericLiterals)."""
    return f"{value:_}" if abs(value) >= 10000 else str(value)


def float_literal(text: str) -> str:
    value = float(text)
    if math.isinf(value):
        return "-Float::INFINITY" if value < 0 else "Float::INFINITY"
    if math.isnan(value):
        return "Float::NAN"
    return repr(value)


def ruby_string(text: str) -> str:
    """A Ruby string literal of text: single-quoted, or double-quoted with the C family's escapes
    (`\\u{7f}` for other control characters) and `#` escaped, which would start an interpolation."""
    if all(0x20 <= ord(ch) != 0x7F for ch in text):
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return quoted(text, lambda code: f"\\u{{{code:x}}}", lambda ch: "\\#" if ch == "#" else ch)


def write_enum(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name = c.ident.type(e.qualified)
    flags = e.kind == "flags"
    w.line(f"# The schema's `{e.kind} {e.name}` (on the wire as {e.wire}).")
    with w.block(f"class {name} < Fbe::{'Flags' if flags else 'Enum'}", "end"):
        if flags:
            w.line(f"BITS = {re.sub(r'[^0-9]', '', e.wire)}")
            w.line(f"SIGNED = {'true' if e.wire.startswith('int') else 'false'}")
            w.blank()
        first: dict[int, str] = {}
        for v in e.values:
            ident = c.ident.value(e.qualified, v.name)
            if flags or v.value not in first:
                first.setdefault(v.value, ident)
                w.line(f"{ident} = new({integer(v.value)})")
            else:
                w.line(f"{ident} = {first[v.value]}")
        if e.values:
            w.blank()
        entries(w, "BY_VALUE = {", [f"{integer(v)} => {first[v]}" for v in first], "}.freeze", " ")
        if flags:
            items = [f"['{v.name}', {integer(v.value)}]" for v in e.values]
            entries(w, "NAMES = [", items, "].freeze")
        else:
            names: dict[int, str] = {}
            for v in e.values:
                names.setdefault(v.value, v.name)
            entries(w, "NAMES = {", [f"{integer(v)} => '{n}'" for v, n in names.items()], "}.freeze", " ")
            w.line("FBE_WIRE = BY_VALUE.invert.compare_by_identity.freeze")
        w.line(f"FBE_TYPE = Fbe::Types::Enum.new(self, {PRIMITIVES[ir.value_name(e)]})")


def entries(w: CodeWriter, head: str, items: list[str], tail: str, pad: str = "") -> None:
    """A literal on one line (`pad` inside its brackets), or one item a line when it is long."""
    line = f"{head}{pad}{', '.join(items)}{pad}{tail}" if items else f"{head}{tail}"
    if len(w.unit) * w.depth + len(line) <= 120:
        w.line(line)
        return
    with w.block(head, tail):
        for k, item in enumerate(items):
            w.line(item + ("," if k < len(items) - 1 else ""))


def aligned(w: CodeWriter, head: str, items: list[str]) -> None:
    """`head` and the items separated by commas, continued on lines aligned after `head` (RuboCop's
    Layout/ArgumentAlignment) when a line would pass 120 characters."""
    lines = [head + items[0]]
    for item in items[1:]:
        if len(w.unit) * w.depth + len(lines[-1]) + len(item) + 3 > 120:
            lines[-1] += ","
            lines.append(" " * len(head) + item)
        else:
            lines[-1] += ", " + item
    w.lines("\n".join(lines))


def constant(w: CodeWriter, name: str, t: ir.Type, c: Context) -> None:
    """`NAME = codec`, its arguments one a line when it is long."""
    line = f"{name} = {c.codec(t)}"
    if len(w.unit) * w.depth + len(line) <= 120:
        w.line(line)
        return
    head, _, _ = c.codec(t).partition("(")
    if isinstance(t, ir.Mapping):
        args = [f":{t.kind}", c.codec(t.key), c.codec(t.value)]
    elif isinstance(t, ir.Sequence):
        args = [f":{t.kind}", c.codec(t.element)]
    elif isinstance(t, ir.Array):
        args = [c.codec(t.element), integer(t.length)]
    else:
        assert isinstance(t, ir.Optional_)
        args = [c.codec(t.element)]
    with w.block(f"{name} = {head}(", ")"):
        for k, a in enumerate(args):
            w.line(a + ("," if k < len(args) - 1 else ""))


def text_lines(w: CodeWriter, head: str, text: str, tail: str, parts: list[str] | None = None) -> None:
    """`head'text'tail`, the text continued with backslashes over lines cut after its commas (or
    between `parts`) when long, each part aligned under the first (RuboCop's
    Layout/LineEndStringConcatenationIndentation)."""
    room = 120 - len(w.unit) * w.depth - len(head) - 2 - max(len(tail), 2)
    if parts is None:
        parts = [p + "," for p in text.split(",")]
        parts[-1] = parts[-1][:-1]
    lines = [""]
    for p in parts:
        if lines[-1] and len(lines[-1]) + len(p) > room:
            lines.append("")
        lines[-1] += p
    for k, line in enumerate(lines):
        w.line((head if k == 0 else " " * len(head)) + f"'{line}'" + (" \\" if k < len(lines) - 1 else tail))


def field_codec(c: Context, s: ir.Struct, f: ir.Field) -> str:
    """What a field's code calls: a runtime constant, an enum's codec, or the class's T_<FIELD> constant."""
    t = f.type
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        return c.codec(t)
    return f"T_{c.ident.field(f.owner, f.name).upper().lstrip('_')}"


def write_struct(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    name = c.ident.type(s.qualified)
    p = c.plan.struct(s.qualified)
    idents = {f.name: c.ident.field(s.qualified, f.name) for f in s.all_fields}
    base = f" : {s.base}" if s.base else ""
    w.line(f"# The schema's `struct {s.name}{base}` (type id {integer(s.type_id)})"
           f"{'; its base fields first' if s.base else ''}.")
    with w.block(f"class {name}{' < ' + c.named(s.base) if s.base else ''}", "end"):
        if not s.base:
            w.line("include Fbe::Value")
            w.blank()
        w.line(f"FBE_NAME = '{s.qualified}'")
        w.line(f"FBE_TYPE_ID = {integer(s.type_id)}")
        w.line(f"FBE_BODY_SIZE = {integer(s.body_size)}")
        w.line(f"FBE_FINAL_MIN = {integer(s.final_min_size)}")
        w.line(f"FBE_COST = {integer(s.decode_cost)}")
        w.line(f"FBE_LEVELS = {'nil' if p.levels is None else integer(p.levels)}")
        text_lines(w, "FBE_UNPACK = ", "", "", directives(whole_unpack(c, p)[0]))
        for f in s.fields:
            codec = field_codec(c, s, f)
            if codec.startswith("T_"):
                constant(w, codec, f.type, c)
        entries(w, "FBE_FIELDS = [", [f"[{ruby_string(f.name)}, {field_codec(c, s, f)}]" for f in s.all_fields],
                "].freeze")
        w.blank()
        if s.fields:
            aligned(w, "attr_accessor ", [f":{idents[f.name]}" for f in s.fields])
            w.blank()
        write_initialize(w, c, s, idents)
        write_members(w, c, s, idents)
        write_versioned(w, c, s, p, idents)
        write_final(w, c, s, p, idents)
        write_text(w, c, s, idents)
        if c.options.json:
            w.blank()
            write_json(w, c, s, idents)
            w.blank()
            write_json_reader(w, c, s, p, idents)


def write_initialize(w: CodeWriter, c: Context, s: ir.Struct, idents: dict[str, str]) -> None:
    args = [f"{idents[f.name]}: {c.default(f.type, f.default)}" for f in s.all_fields]
    if not s.fields:
        return
    head = f"def initialize({', '.join(args)})"
    if len(w.unit) * w.depth + len(head) <= 120:
        w.line(head)
    else:
        w.line("def initialize(")
        with w.indented():
            for k, a in enumerate(args):
                w.line(a + ("," if k < len(args) - 1 else ""))
        w.line(")")
    with w.indented():
        inherited = [idents[f.name] for f in s.all_fields if f.owner != s.qualified]
        if s.base:
            entries(w, "super(", [f"{i}:" for i in inherited], ")")
        for f in s.fields:
            w.line(f"@{idents[f.name]} = {idents[f.name]}")
    w.line("end")
    w.blank()


def write_members(w: CodeWriter, c: Context, s: ir.Struct, idents: dict[str, str]) -> None:
    with w.block("def fbe_values", "end"):
        entries(w, "[", [f"@{idents[f.name]}" for f in s.all_fields], "]")
    w.blank()
    fields = {f.name: f for f in s.all_fields}
    with w.block("def fbe_key", "end"):
        entries(w, "[", [f"{field_codec(c, s, fields[k])}.key(@{idents[k]})" for k in s.keys], "]")
    w.blank()


def write_versioned(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """The body with one Array#pack appended at the writer's end: the header, every scalar at its slot,
    the offsets of the strings before the first field that writes out of line otherwise and their
    blocks (their place is known); room for every other field, whose codec fills its slot after."""
    with w.block("def fbe_write(w)", "end"):
        w.line("buffer = w.buffer")
        w.line("b = buffer.bytesize")
        body = Packed([], [])
        body.add("L<", "FBE_BODY_SIZE", Word(4, False, s.body_size))
        body.add("L<", "FBE_TYPE_ID", Word(4, False, s.type_id))
        blocks = Packed([], [])
        after: list[str | Slots] = []
        written = False              # a field before wrote out of line: the strings after it write later
        place = ["FBE_BODY_SIZE"]    # where the next string's block goes, from b
        at = 8
        for fp in p.fields:
            f = fp.field
            assert fp.offset == at, (s.qualified, f.name)
            at = fp.end
            ivar = f"@{idents[f.name]}"
            slot = c.packed(f.type, ivar)
            if slot:
                c.guard_lines(w, f.type, ivar)
                body.add(*slot, c.word(f.type), fp)
            elif ir.is_text(f.type) and not written:
                text = f"{idents[f.name]}_bytes"
                c.raw(w, field_codec(c, s, f), f.type, ivar, text)
                body.add("L<", " + ".join(place), Word(4, False, s.body_size if len(place) == 1 else None))
                blocks.add("L<", f"{text}.bytesize", Word(4, False))
                blocks.add("a*", text)
                place += ["4", f"{text}.bytesize"]
            elif isinstance(f.type, ir.StructRef) and not written:
                # its body is appended right after the strings placed so far: its offset is known
                body.add("L<", " + ".join(place), Word(4, False, s.body_size if len(place) == 1 else None))
                written = True
                after.append(f"{field_codec(c, s, f)}.check({ivar}).fbe_write(w)")
            else:
                body.add(f"x{f.type.size}")
                written = written or not ir.is_fixed(f.type)
                codec = field_codec(c, s, f)
                if isinstance(f.type, (ir.Optional_, ir.Sequence)):
                    last = after[-1] if after else None
                    if not isinstance(last, Slots) or last.end != fp.offset:
                        last = Slots(fp.offset, fp.end, Packed([], []))
                        after.append(last)
                    if isinstance(f.type, ir.Optional_):
                        last.packed.add("C", f"{ivar}.nil? ? 0 : 1", Word(1, False))
                    last.packed.add("L<", f"{codec}.offset(w, b, {ivar})", Word(4, False))
                    last.end = fp.end
                else:
                    after.append(f"{codec}.write(w, b, b + {integer(fp.offset)}, {ivar})")
        assert at == s.body_size or not p.fields, s.qualified
        body.extend(blocks)
        body.pack(w, "buffer", "b")
        for line in after:
            if isinstance(line, Slots):
                line.packed.put(w, f"buffer[b + {integer(line.offset)}, {integer(line.end - line.offset)}] = ")
            else:
                w.line(line)
        w.line("b")
    w.blank()
    write_read_body(w, c, s, p, idents)
    w.blank()
    write_verify_body(w, c, s, p)
    w.blank()


def write_read_body(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """fbe_read_body: a body of this version (or a newer one) read from what the reader unpacked, an
    older writer's shorter body field by field."""
    if not p.fields:
        with w.block("def fbe_read_body(_r, _b, _n, _values)", "end"):
            w.line("nil")
        return
    whole, older = nested(w, 2), nested(w, 2)
    read_whole(whole, c, s, p, idents)
    read_older(older, c, s, p, idents)
    then, otherwise = (textwrap.dedent(x.text()).splitlines() for x in (whole, older))
    if re.search(r"(?<![@\w])data\b", "\n".join(otherwise)):
        otherwise.insert(0, "data = r.data")
    condition = f"n >= {integer(p.fields[-1].end)}"
    code = re.sub(r"'[^']*'", "''", "\n".join([condition] + then + otherwise))
    names = ", ".join(name if re.search(rf"(?<![@\w]){name}\b", code) else f"_{name}"
                      for name in ("r", "b", "n", "values"))
    with w.block(f"def fbe_read_body({names})", "end"):
        target = then[0].partition(" = ")[0]
        if len(then) == len(otherwise) == 1 and target == otherwise[0].partition(" = ")[0]:
            chosen(w, target, condition, then[0].partition(" = ")[2], otherwise[0].partition(" = ")[2])
            return
        with w.block(f"if {condition}", "end"):
            w.lines("\n".join(then))
            w.label("else")
            w.lines("\n".join(otherwise))


def write_verify_body(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """fbe_verify_body, verify_fbe's walk: the checks fbe_read_body makes, in its order, and no value (the
    reader is verifying: what a field's codec reads is not kept); an older writer's body is read."""
    w.line("# The checks of fbe_read_body, in its order, making no value (verify_fbe).")
    if not p.fields:
        with w.block("def self.fbe_verify_body(_r, _b, _n, _values)", "end"):
            w.line("nil")
        return
    _, unpacked = whole_unpack(c, p)
    checks: list[str] = []
    for fp in p.fields:
        f = fp.field
        at = f"b + {integer(fp.offset)}"
        if fp in unpacked:
            value = f"values[{unpacked.index(fp) + 2}]"
            if isinstance(f.type, ir.StructRef):
                checks.append(f"r.struct_at({c.named(f.type.name)}, b, {value}, {at}, '{f.name}')")
            elif ir.is_text(f.type):
                checks.append(f"r.block(b + {value}, '{f.type.name}', '{f.name}') if {value} != 0")
        else:
            checks.append(f"{field_codec(c, s, f)}.read(r, b, {at}, '{f.name}')")
    older = "allocate.fbe_read_body(r, b, n, values)"
    condition = f"n >= {integer(p.fields[-1].end)}"
    with w.block("def self.fbe_verify_body(r, b, n, values)", "end"):
        if not checks:
            w.line(f"{older} unless {condition}")
            return
        with w.block(f"if {condition}", "end"):
            for line in checks:
                w.line(line)
            w.label("else")
            w.line(older)


def nested(w: CodeWriter, levels: int) -> CodeWriter:
    """A writer whose lines are `levels` deeper than w's (what is long is cut as it would be there)."""
    sub = CodeWriter(Options(indent=2))
    with contextlib.ExitStack() as stack:
        for _ in range(w.depth + levels):
            stack.enter_context(sub.indented())
        stack.pop_all()
    return sub


def whole_unpack(c: Context, p: plan.StructPlan) -> tuple[str, list[plan.FieldPlan]]:
    """FBE_UNPACK, the String#unpack format of a body of this version's header and of every field it
    unpacks (scalars, the offsets of strings and structs; room skipped for the others), and those fields."""
    formats = ["L<", "L<"]
    fields: list[plan.FieldPlan] = []
    for fp in p.fields:
        t = fp.field.type
        if isinstance(t, (ir.Primitive, ir.EnumRef)) and c.read(t, ""):
            formats.append(FORMATS[value_name(t)])
            fields.append(fp)
        elif ir.is_text(t) or isinstance(t, ir.StructRef):
            formats.append("L<")
            fields.append(fp)
        else:
            formats.append(f"x{t.size}")
    while formats[-1].startswith("x"):
        formats.pop()
    return counted(formats), fields


def read_whole(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """A body with every field of this version: its scalars and the offsets of its strings and structs
    are in `values` (the reader unpacked them with FBE_UNPACK), the values they point at and every other
    field are read in order."""
    _, unpacked = whole_unpack(c, p)
    ivars = [f"@{idents[fp.field.name]}" for fp in unpacked]
    if ivars:
        line = f"_, _, {', '.join(ivars)} = values"
        if len(w.unit) * w.depth + len(line) <= 120:
            w.line(line)
        else:
            for k, ivar in enumerate(ivars):
                w.line(f"{ivar} = values[{k + 2}]")
    for fp in p.fields:
        f = fp.field
        ivar = f"@{idents[f.name]}"
        at = f"b + {integer(fp.offset)}"
        if fp in unpacked:
            if isinstance(f.type, ir.StructRef):
                w.line(f"{ivar} = r.struct_at({c.named(f.type.name)}, b, {ivar}, {at}, '{f.name}')")
            elif ir.is_text(f.type):
                if f.type.name == "string":
                    w.line(f"{ivar} = {ivar} == 0 ? +'' : r.string_at(b + {ivar}, '{f.name}')")
                else:
                    w.line(f"{ivar} = {ivar} == 0 ? ''.b : r.block(b + {ivar}, 'bytes', '{f.name}')")
            elif isinstance(f.type, ir.EnumRef):
                named = c.named(f.type.name)
                w.line(f"{ivar} = {named}::BY_VALUE[{ivar}] || {named}.from_wire({ivar})")
            else:
                made = c.made(f.type, ivar)
                if made != ivar:
                    w.line(f"{ivar} = {made}")
        else:
            w.line(f"{ivar} = {field_codec(c, s, f)}.read(r, b, {at}, '{f.name}')")


def read_older(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """A body an older writer wrote, shorter than this version's: the inherited fields all read when the
    body holds them all, else all their defaults (docs/format.md 3.6), then each own field read if it is
    there, its default otherwise, the first one missing charged what it and every one after it cost."""
    before = 8
    if p.base_fields:
        read_base(w, c, s, p, idents)
        before = s.base_size
    for step in p.final_steps:
        fields = step.fields if isinstance(step, plan.Run) else (step,)
        if fields[0].inherited:     # read_base read them; the own fields of its run one by one
            for fp in fields:
                if not fp.inherited:
                    before = read_field(w, c, s, fp, idents, before, p.fields[-1].end)
            continue
        if isinstance(step, plan.Run) and c.unpacks(step) and step.fields[-1].end < p.fields[-1].end:
            with w.block(f"if n >= {integer(step.fields[-1].end)}", "end"):
                unpack(w, c, step, idents,
                       f"data.unpack('{c.run_format(step)}', offset: b + {integer(step.fields[0].offset)})")
                w.label("else")
                for fp in step.fields:
                    before = read_field(w, c, s, fp, idents, before, p.fields[-1].end)
            continue
        for fp in fields:
            before = read_field(w, c, s, fp, idents, before, p.fields[-1].end)


@dataclass
class Slots:
    """Adjacent slots of fields (optionals, vectors, lists, sets) whose codecs append their values and
    return the offset they wrote at: one Array#pack fills them after."""
    offset: int
    end: int
    packed: Packed


@dataclass
class Word:
    """An integer slot that may join its neighbours in one integer of Array#pack: its width in bytes,
    whether its value may be negative (masked to its width when joined), its value when constant."""
    width: int
    signed: bool
    constant: int | None = None


class Packed:
    """The formats and values of one Array#pack."""

    def __init__(self, formats: list[str], values: list[str]) -> None:
        self.items: list[tuple[str, str | None, Word | None]] = []
        self.fields: list[plan.FieldPlan | None] = []   # the field of each item's slot, where it has one
        for f in formats:
            self.add(f, values.pop(0) if not f.startswith("x") else None)

    def add(self, format: str, value: str | None = None, word: Word | None = None,
            field: plan.FieldPlan | None = None) -> None:
        if format.startswith("x"):  # zero bytes: one word of each, which a joined integer may cover
            count = int(format[1:] or 1)
            self.items += [("x", None, Word(1, False, 0))] * count
            self.fields += [None] * count
        else:
            self.items.append((format, value, word))
            self.fields.append(field)

    def extend(self, other: Packed) -> None:
        self.items += other.items
        self.fields += other.fields

    @property
    def values(self) -> list[str]:
        return [v for _, v, _ in self.items if v is not None]

    def pack(self, w: CodeWriter, buffer: str, start: str | None = None, last: bool = False,
             stop: plan.FieldPlan | None = None) -> None:
        """`[values].pack('formats', buffer: buffer)`, the values aligned over lines when long, appended
        to buffer; then each float that is a NaN or beyond the float range written again
        (Fbe::Types::Float#narrow: Array#pack writes every NaN alike, and infinity for what rounds to
        the largest float), found where the plan put it: a versioned body's slot at its offset from
        start; a final field at the fewest bytes from it to the field the pack stopped before (stop,
        None: the struct's end) and the strings' bytes between, from the buffer's end. `last`: the
        method ends there."""
        if self.values:
            self.put(w, "", ", " + ("buffer:" if buffer == "buffer" else f"buffer: {buffer}"))  # Style/HashSyntax
        floats = [k for k, (format, value, _) in enumerate(self.items) if format == FORMATS["float"] and value]
        for k in floats:
            value = self.items[k][1]
            fp = self.fields[k]
            assert fp is not None, value
            if start:
                at = f"{start} + {integer(fp.offset)}"
            else:
                tail = fp.min_from if stop is None else fp.min_from - stop.min_from
                at = " - ".join([f"{buffer}.bytesize", integer(tail)]
                                + [f"{v}.bytesize" for f, v, _ in self.items[k + 1:] if f == "a*"])
            modifier(w, "unless", f"Fbe::Types::FLOAT.narrow({buffer}, {at}, {value})",   # no call if in range
                     f"{value} <= Fbe::Types::FLOAT_MAX && {value} >= Fbe::Types::FLOAT_LOWEST",
                     last and k == floats[-1])
        self.items = []
        self.fields = []

    def joined(self, room: int) -> tuple[list[str], list[str]]:
        """The formats and values, adjacent integers of 1, 2 and 4 bytes joined in one of 2, 4 or 8
        (Array#pack's cost is per value; the bytes are the same: every joined value is in its range,
        a signed one masked to its width). A run joins from its first integer while it has two values
        or more and a width of a directive (the most bytes that do), and its expression fits in room
        characters; a constant run is one literal."""
        formats: list[str] = []
        values: list[str] = []
        items = self.items
        i = 0
        while i < len(items):
            fmt, value, _ = items[i]
            best, width, at = 0, 0, i
            while fmt != "x" and at < len(items):
                word = items[at][2]
                if word is None or width + word.width > 8:
                    break
                width += word.width
                at += 1
                if width in WORDS and sum(1 for _, v, _ in items[i:at] if v is not None) >= 2:
                    best = at
            joined = best and self.word(items[i:best])
            if not joined or len(joined) > room:
                formats.append(fmt)
                if value is not None:
                    values.append(value)
                i += 1
                continue
            formats.append(WORDS[sum(wd.width for _, _, wd in items[i:best] if wd is not None)])
            values.append(joined)
            i = best
        return formats, values

    @staticmethod
    def word(items: list[tuple[str, str | None, Word | None]]) -> str:
        """The Ruby expression of one integer of the items' values, the first in its lowest bytes."""
        constant, terms, shift = 0, [], 0
        for _, v, wd in items:
            assert wd is not None
            if wd.constant is not None:
                constant |= wd.constant << shift
            else:
                assert v is not None
                bare = re.sub(r"\([^()]*\)|\[[^\[\]]*\]", "", v)   # a call's arguments, an index
                term = f"({v})" if " " in bare else v
                term = f"({term} & 0x{(1 << (8 * wd.width)) - 1:X})" if wd.signed else term
                terms.append(f"({term} << {shift})" if shift else term)
            shift += 8 * wd.width
        if constant or not terms:
            terms.insert(0, f"0x{constant:X}" if constant > 9 else str(constant))
        return " | ".join(terms)

    def put(self, w: CodeWriter, head: str, buffer: str = "") -> None:
        """`head[values].pack('formats'buffer)`, the values aligned over lines when long. Each integer
        is packed little-endian by its unsigned directive of one letter where there is one (V, v: the
        same bytes for a value in range, which the writer checked, and a shorter format to parse)."""
        joined, items = self.joined(120 - len(w.unit) * w.depth - len(head) - 30 - len(buffer))  # the pack's tail
        formats = counted([PACKED.get(d, d) for f in joined for d in directives(f)])
        tail = f"].pack('{formats}'{buffer})"
        if len(w.unit) * w.depth + 1 + len(items[-1]) + len(tail) > 120:
            text_lines(w, "pack_format = ", "", "", directives(formats))
            tail = f"].pack(pack_format{buffer})"
        items[-1] += tail
        aligned(w, head + "[", items)


def counted(formats: list[str]) -> str:
    """A pack format of directives, each repeated one counted (`CCEE` is `C2E2`, `x4x5` is `x9`)."""
    out: list[tuple[str, int]] = []    # (directive, count); a string's ('a16', 'a*') is never merged
    for d in (d for f in formats for d in directives(f)):
        bare = d.rstrip("0123456789")
        if out and out[-1][0] == bare and (bare == "x" or bare == d) and not bare.startswith("a"):
            out[-1] = (bare, out[-1][1] + int(d[len(bare):] or 1))
        else:
            out.append((d, 1) if d.startswith("a") else (bare, int(d[len(bare):] or 1)))
    return "".join(d if n == 1 else f"{d}{n}" for d, n in out)


def directives(format: str) -> list[str]:
    """The directives of a pack format, each with its count (`l<`, `x9`, `a*`)."""
    return re.findall(r"[a-zA-Z]<?(?:\d+|\*)?", format)


def unpack(w: CodeWriter, c: Context, run: plan.Run, idents: dict[str, str], unpacked: str) -> None:
    """The fields of a run from one String#unpack, each made the value of its type."""
    ivars = [f"@{idents[fp.field.name]}" for fp in run.fields]
    line = f"{', '.join(ivars)} = {unpacked}"
    if len(w.unit) * w.depth + len(line) <= 120:
        w.line(line)
        for fp, ivar in zip(run.fields, ivars):
            made = c.made(fp.field.type, ivar)
            if made != ivar:
                w.line(f"{ivar} = {made}")
        return
    w.line(f"values = {unpacked}")
    for k, (fp, ivar) in enumerate(zip(run.fields, ivars)):
        w.line(f"{ivar} = {c.made(fp.field.type, f'values[{k}]')}")


def read_base(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """The inherited fields of an older writer's body: all read when it holds them all, else all their
    defaults, charged what every field's default costs (plan.older_cost)."""
    condition = f"n >= {integer(s.base_size)}"
    if s.base_size == p.fields[-1].end:     # no own field: a shorter body lacks an inherited one
        older_defaults(w, c, p, idents)
    elif len(p.base_fields) == 1 and not p.older_cost:
        fp = p.base_fields[0]
        chosen(w, f"@{idents[fp.name]}", condition, field_read(c, s, fp), c.default(fp.type, fp.field.default))
    else:
        with w.block(f"if {condition}", "end"):
            for step in p.final_steps:
                fields = step.fields if isinstance(step, plan.Run) else (step,)
                if isinstance(step, plan.Run) and c.unpacks(step) and step.fields[-1].inherited:
                    unpack(w, c, step, idents,
                           f"data.unpack('{c.run_format(step)}', offset: b + {integer(fields[0].offset)})")
                    continue
                for fp in fields:
                    if fp.inherited:
                        w.line(f"@{idents[fp.name]} = {field_read(c, s, fp)}")
            w.label("else")
            older_defaults(w, c, p, idents)


def older_defaults(w: CodeWriter, c: Context, p: plan.StructPlan, idents: dict[str, str]) -> None:
    if p.older_cost:
        w.line(f"r.spend({integer(p.older_cost)}, b, '{p.fields[0].name}')")
    for fp in p.base_fields:
        w.line(f"@{idents[fp.name]} = {c.default(fp.type, fp.field.default)}")


def field_read(c: Context, s: ir.Struct, fp: plan.FieldPlan) -> str:
    """The value of a field of the versioned body at b, read at its slot."""
    f = fp.field
    at = f"b + {integer(fp.offset)}"
    if ir.is_text(f.type):
        return f"r.{'string' if f.type.name == 'string' else 'bytes'}(b, {at}, '{f.name}')"
    return c.read(f.type, at) or f"{field_codec(c, s, f)}.read(r, b, {at}, '{f.name}')"


def read_field(w: CodeWriter, c: Context, s: ir.Struct, fp: plan.FieldPlan, idents: dict[str, str], before: int,
               whole: int) -> int:
    """One field of a versioned body shorter than whole bytes, or its default when the body ends before
    it; returns its end."""
    f = fp.field
    if fp.end >= whole:     # never in a shorter body: its default
        if fp.missing_cost:
            w.line(f"r.spend({integer(fp.missing_cost)}, b, '{f.name}')"
                   + (f" if n >= {integer(before)}" if before > 8 else ""))
        w.line(f"@{idents[f.name]} = {c.default(f.type, f.default)}")
        return fp.end
    read = field_read(c, s, fp)
    default = c.default(f.type, f.default)
    ivar = f"@{idents[f.name]}"
    if not fp.missing_cost:
        chosen(w, ivar, f"n >= {integer(fp.end)}", read, default)
        return fp.end
    with w.block(f"if n >= {integer(fp.end)}", "end"):
        w.line(f"{ivar} = {read}")
        w.label("else")
        w.line(f"r.spend({integer(fp.missing_cost)}, b, '{f.name}')"
               + (f" if n >= {integer(before)}" if before > 8 else ""))
        w.line(f"{ivar} = {default}")
    return fp.end


def chosen(w: CodeWriter, target: str, condition: str, then: str, otherwise: str) -> None:
    """`target = condition ? then : otherwise`, or as an if expression aligned as RuboCop wants it
    (Style/ConditionalAssignment, Layout/EndAlignment) when that is too long."""
    line = f"{target} = {condition} ? {then} : {otherwise}"
    if otherwise == "nil" and len(w.unit) * w.depth + len(line) > 120:
        line = f"{target} = ({then} if {condition})"     # RuboCop's Style/IfUnlessModifier
    if len(w.unit) * w.depth + len(line) <= 120:
        w.line(line)
        return
    pad = " " * (len(target) + 3)
    w.line(f"{target} = if {condition}")
    w.line(f"{pad}  {then}")
    if otherwise != "nil":      # an if without else is nil (Style/EmptyElse)
        w.line(f"{pad}else")
        w.line(f"{pad}  {otherwise}")
    w.line(f"{pad}end")


def write_final(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """The fields appended in order: each stretch of scalars and strings with one Array#pack, every
    other field by its codec."""
    with w.block("def fbe_write_final(w)" if p.fields else "def fbe_write_final(_w)", "end"):
        if not p.fields:
            w.line("nil")
        stretch = Packed([], [])
        for fp in p.fields:
            f = fp.field
            ivar = f"@{idents[f.name]}"
            slot = c.packed(f.type, ivar)
            if slot:
                c.guard_lines(w, f.type, ivar)
                stretch.add(*slot, c.word(f.type), fp)
            elif ir.is_text(f.type):
                text = f"{idents[f.name]}_bytes"
                c.raw(w, field_codec(c, s, f), f.type, ivar, text)
                stretch.add("L<", f"{text}.bytesize", Word(4, False))
                stretch.add("a*", text)
            elif isinstance(f.type, ir.StructRef):
                stretch.pack(w, "w.buffer", stop=fp)
                w.line(f"{field_codec(c, s, f)}.check({ivar}).fbe_write_final(w)")
            else:
                stretch.pack(w, "w.buffer", stop=fp)
                w.line(f"{field_codec(c, s, f)}.fwrite(w, {ivar})")
        stretch.pack(w, "w.buffer", last=True)
    w.blank()
    with w.block("def fbe_read_final_fields(r)" if p.final_steps else "def fbe_read_final_fields(_r)", "end"):
        if not p.final_steps:
            w.line("nil")
        if c.reads_in_place(p):
            w.line("data = r.data")
        for step in p.final_steps:
            if isinstance(step, plan.Run):
                text_lines(w, f"run = r.run({integer(step.size)}, ", step.description, ")")
                if c.unpacks(step):
                    unpack(w, c, step, idents, f"data.unpack('{c.run_format(step)}', offset: run)")
                    continue
                for fp, at in zip(step.fields, step.at):
                    f = fp.field
                    read = c.read(f.type, f"run + {integer(at)}")
                    if not read:
                        read = f"{field_codec(c, s, f)}.read(r, run, run + {integer(at)}, '{f.name}')"
                    w.line(f"@{idents[f.name]} = {read}")
            else:
                f = step.field
                read = c.read(f.type, f"r.take({f.type.size}, 'value', '{f.name}')")
                if ir.is_text(f.type):
                    read = f"r.final_{'string' if f.type.name == 'string' else 'bytes'}('{f.name}')"
                w.line(f"@{idents[f.name]} = {read or f'{field_codec(c, s, f)}.fread(r, {chr(39)}{f.name}{chr(39)})'}")
    w.blank()
    write_verify_final(w, c, s, p)
    w.blank()


def write_verify_final(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """fbe_verify_final_fields, verify_final's walk: the cursor moved over every field as
    fbe_read_final_fields moves it, with its checks, and no value (the reader is verifying)."""
    w.line("# The checks of fbe_read_final_fields, in its order, making no value (verify_final).")
    with w.block(f"def self.fbe_verify_final_fields({'r' if p.final_steps else '_r'})", "end"):
        if not p.final_steps:
            w.line("nil")
        for step in p.final_steps:
            if isinstance(step, plan.Run):
                # a field a run reads in place cannot fail; one its codec reads (a decimal's flags) can
                checked = [] if c.unpacks(step) else [(fp, at) for fp, at in zip(step.fields, step.at)
                                                      if not c.read(fp.field.type, "")]
                text_lines(w, f"{'run = ' if checked else ''}r.run({integer(step.size)}, ", step.description, ")")
                for fp, at in checked:
                    w.line(f"{field_codec(c, s, fp.field)}.read(r, run, run + {integer(at)}, '{fp.field.name}')")
                continue
            f = step.field
            if c.read(f.type, ""):
                w.line(f"r.take({f.type.size}, 'value', '{f.name}')")
            elif ir.is_text(f.type):
                w.line(f"r.final_block('{f.type.name}', '{f.name}')")
            else:
                w.line(f"{field_codec(c, s, f)}.fread(r, '{f.name}')")


class Raw(RawText):
    def write(self, text: str) -> str:
        return f"out << {ruby_string(text)}"


def write_text(w: CodeWriter, c: Context, s: ir.Struct, idents: dict[str, str]) -> None:
    """The text form: `Name(field=value,...)`, a base's fields printed first by the base's own
    fbe_text, as a nested call of its name (`Balance(Balance(currency="USD",amount=1000),locked=0)`)."""
    with w.block("def fbe_text(out)", "end"):
        raw = Raw(w)
        text_struct(raw, s, lambda base: "super",
                    lambda f: raw.line(f"{field_codec(c, s, f)}.text(out, @{idents[f.name]})"))


def write_json(w: CodeWriter, c: Context, s: ir.Struct, idents: dict[str, str]) -> None:
    """JSON (docs/format.md 8): an object of every field in order, inherited ones first."""
    with w.block("def fbe_json(out)", "end"):
        raw = Raw(w)
        raw("{")
        for k, f in enumerate(s.all_fields):
            raw(("," if k else "") + f'"{f.name}":')
            raw.line(f"{field_codec(c, s, f)}.json(out, @{idents[f.name]})")
        raw("}")
        raw.flush()


def write_json_reader(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, idents: dict[str, str]) -> None:
    """The members of a JSON object, each field's if present (members it does not know are ignored),
    else its default, charged what the plan says a missing member costs."""
    with w.block("def fbe_read_json_members(obj, r)" if p.fields else "def fbe_read_json_members(_obj, _r)", "end"):
        if not p.fields:
            w.line("nil")
        for fp in p.fields:
            f = fp.field
            ivar, name, default = f"@{idents[f.name]}", ruby_string(f.name), c.default(f.type, f.default)
            read = f"{field_codec(c, s, f)}.from_json(obj[{name}], r, {name})"
            if not fp.default_cost:
                chosen(w, ivar, f"obj.key?({name})", read, default)
                continue
            with w.block(f"if obj.key?({name})", "end"):
                w.line(f"{ivar} = {read}")
                w.label("else")
                if fp.default_cost:
                    w.line(f"r.spend({integer(fp.default_cost)}, nil, {name})")
                w.line(f"{ivar} = {default}")


def forward(c: Context) -> list[ir.Struct]:
    """The structs a struct defined before them refers to (recursive types): declared first."""
    defined: set[str] = set()
    early: list[str] = []
    for s in c.package.structs:
        defined.add(s.qualified)
        for f in s.fields:
            for name in ir.struct_refs(f.type):
                if name.rpartition(".")[0] == c.package.name and name not in defined and name not in early:
                    early.append(name)
    return [s for s in c.package.structs if s.qualified in early]


def generate_package(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = Context(schema, package, options)
    body = CodeWriter(Options(indent=2))   # RuboCop's indent, whatever -n says
    with body.block(f"module {c.ident.module(package.name)}", "end"):
        for e in package.enums + package.flags:
            write_enum(body, c, e)
            body.blank()
        declared = forward(c)
        if declared:
            body.line("# Declared first: a struct defined before them holds them.")
        for s in declared:
            body.line(f"{c.ident.type(s.qualified)} = Class.new{'(' + c.named(s.base) + ')' if s.base else ''}")
        if declared:
            body.blank()
        for k, s in enumerate(package.structs):
            if k:
                body.blank()
            write_struct(body, c, s)
        if options.proto:
            body.blank()
            write_protocol(body, c)
    out = CodeWriter(Options(indent=2))
    out.line("# frozen_string_literal: true")
    out.blank()
    out.lines(generated_header(package, "#"))
    out.blank()
    out.line("require 'fbe'")
    for name in package.imports:
        out.line(f"require_relative '{c.ident.file(name)}'")
    out.blank()
    out.lines(body.text())
    c.file.text = out.text()
    return c.file


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [generate_package(schema, schema.main_package, options)]
