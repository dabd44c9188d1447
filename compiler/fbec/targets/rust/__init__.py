"""fbec.targets.rust: one Rust module per schema package, on the runtime crate `fbe` (runtime/rust).

A package's module holds its enums (a Rust enum with an `Unknown` arm for the values the schema
does not name), flags (`bitflags` types) and structs (inherited fields first), each struct with
`fbe::Struct`: the versioned and final models at the offsets, sizes and costs the IR and the plan
(fbec.model.plan) decided. The generator prints them and computes none of them. Modules of other
packages are referred to as siblings (`super::proto::Order`): a user puts the generated files of
a schema and its imports side by side in one module (docs/rust.md). The text form is generated
with every struct; `--json` adds JSON (json.py) and `--proto` the protocol (proto.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from fbec.model import ir, plan
from fbec.targets import base
from fbec.targets.base import CodeWriter, GeneratedFile, Options, float32_digits, generated_header
from fbec.targets.rust.json import write_json
from fbec.targets.rust.layout import RUSTFMT_WIDTH, STRUCT_LIT_WIDTH, call, rust_string
from fbec.targets.rust.names import Idents, first_names
from fbec.targets.rust.proto import write_protocol

PRIMITIVES = {
    "bool": "bool", "byte": "u8", "char": "u8", "wchar": "u32", "int8": "i8", "uint8": "u8", "int16": "i16",
    "uint16": "u16", "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64", "float": "f32",
    "double": "f64", "decimal": "fbe::Decimal", "string": "fbe::BString", "bytes": "fbe::Bytes",
    "timestamp": "fbe::Timestamp", "uuid": "fbe::Uuid",
}
LARGE_ARRAY = 4096
SERDE_DERIVE = '#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]'
SERDE_TEXT = '#[cfg_attr(feature = "serde", serde(serialize_with = "fbe::serde_text"))]'
SERDE_ARRAY = '#[cfg_attr(feature = "serde", serde(with = "fbe::serde_array"))]'  # serde's own: <= 32


class Context(base.FileContext, base.DefaultLiterals):
    def __init__(self, schema: ir.Schema, package: ir.Package, file: GeneratedFile, options: Options) -> None:
        super().__init__(schema, package, file, options)
        self.ident = Idents(schema)

    def named(self, qualified: str) -> str:
        """A type of this package by its name, another package's through its sibling module."""
        package = qualified.rpartition(".")[0]
        name = self.ident.type(qualified)
        return name if package == self.package.name else f"super::{self.ident.module(package)}::{name}"

    def collection(self, name: str) -> str:
        return self.file.imported("std::collections", name)

    def type(self, t: ir.Type, char: str = "u8") -> str:
        """The Rust type of t; with `char`, its JSON codec: `char` stands for char, and a hash held
        as `fbe::Pairs` is `fbe::json::HashPairs` (its entries in their own order)."""
        if isinstance(t, ir.Primitive):
            return char if t.name == "char" else PRIMITIVES[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            element = self.type(t.element, char)
            # an absent struct takes a pointer, not the struct's size (docs/limits.md 3, docs/rust.md)
            return f"Option<Box<{element}>>" if isinstance(t.element, ir.StructRef) else f"Option<{element}>"
        if isinstance(t, ir.Array):
            element = self.type(t.element, char)
            return f"Box<[{element}; {t.length}]>" if boxed(t) else f"[{element}; {t.length}]"
        if isinstance(t, ir.Sequence):
            if t.kind != "set":
                return f"Vec<{self.type(t.element, char)}>"
            set_type = self.collection('BTreeSet') if ordered(t.element) else 'fbe::Set'
            return f"{set_type}<{self.key(t.element, char)}>"
        key, value = self.key(t.key, char) if t.kind == "map" else self.type(t.key, char), self.type(t.value, char)
        if ordered(t.key):
            return f"{self.collection('BTreeMap' if t.kind == 'map' else 'HashMap')}<{key}, {value}>"
        codec = "fbe::json::HashPairs" if char != "u8" and t.kind == "hash" else "fbe::Pairs"
        return f"{codec}<{key}, {value}>"

    def key(self, t: ir.Type, char: str) -> str:
        """A set element or map key: a char is fbe::Char, ordered as C++'s signed char (its own JSON
        codec too)."""
        return "fbe::Char" if is_char(t) else self.type(t, char)

    def enum_value(self, enum: str, name: str) -> str:
        return f"{self.named(enum)}::{self.ident.value(enum, name)}"

    def flags_default(self, flags: str, value: int) -> str:
        return f"{self.named(flags)}::from_bits_retain({value})"

    def default(self, t: ir.Type, d: ir.Default) -> str | None:
        """The Rust expression of a field's default, or None when it is the type's `Default`."""
        k = d.kind
        if isinstance(t, ir.Optional_):
            return None if k in ("none", "null") else f"Some({self.scalar_default(t.element, d, present=True)})"
        if isinstance(t, ir.Array):
            inner = self.default(t.element, d)
            if boxed(t):
                return f"fbe::boxed_array(|_| {inner or 'Default::default()'})"
            return f"std::array::from_fn(|_| {inner or 'Default::default()'})" if inner or t.length > 32 else None
        return self.scalar_default(t, d)

    def made_default(self, kind: str) -> str:
        return "fbe::Timestamp::utc()" if kind == "utc" else f"fbe::{kind}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        if isinstance(t, ir.Primitive) and t.name in ("float", "double"):
            return f"{value}.0"
        return f"fbe::Timestamp({value})" if isinstance(t, ir.Primitive) and t.name == "timestamp" else str(value)

    def real_default(self, t: ir.Type, text: str) -> str:
        assert isinstance(t, ir.Primitive)
        return f'fbe::Decimal::literal("{text}")' if t.name == "decimal" else float_literal(text, t.name == "float")

    def string_default(self, text: str) -> str:
        return f"fbe::BString::from({rust_string(text)})"

    def uuid_default(self, uuid: str) -> str:
        return f"fbe::Uuid::from_u128(0x{uuid.replace('-', '')})"


def boxed(t: ir.Array) -> bool:
    """A fixed array of more than 4 KiB is boxed: no value of it is made on the stack."""
    return t.size > LARGE_ARRAY


def is_char(t: ir.Type) -> bool:
    """A char, which as a set element or map key is an fbe::Char: ordered as C++'s signed char."""
    return isinstance(t, ir.Primitive) and t.name == "char"


def ordered(t: ir.Type) -> bool:
    """A key a Rust ordered (and hashed) container holds: every scalar but floats, strings, bytes."""
    if isinstance(t, ir.Primitive):
        return t.name not in ("float", "double")
    return isinstance(t, ir.EnumRef)


def float_literal(text: str, single: bool) -> str:
    value = float(text)
    if single:
        if abs(value) > 3.4028234663852886e38:
            return "f32::NEG_INFINITY" if value < 0 else "f32::INFINITY"
        digits = float32_digits(value)
    else:
        if math.isinf(value):
            return "f64::NEG_INFINITY" if value < 0 else "f64::INFINITY"
        digits = repr(value)
    if "e" in digits:
        mantissa, _, exponent = digits.partition("e")
        digits = f"{mantissa if '.' in mantissa else mantissa + '.0'}e{int(exponent)}"
    elif "." not in digits:
        digits += ".0"
    return digits


def struct_literal(w: CodeWriter, head: str, fields: list[str], tail: str) -> None:
    """`head { fields }tail` on one line, or one field a line as rustfmt writes a longer literal."""
    one_line = f"{head} {{ {', '.join(fields)} }}{tail}" if fields else f"{head} {{}}{tail}"
    if len(", ".join(fields)) <= STRUCT_LIT_WIDTH and len(w.unit) * w.depth + len(one_line) <= RUSTFMT_WIDTH:
        w.line(one_line)
        return
    with w.block(f"{head} {{", f"}}{tail}"):
        for f in fields:
            w.line(f"{f},")


def serde_derive(w: CodeWriter, c: Context) -> bool:
    """With --rust-serde, serde's derives under the user's crate feature `serde` (docs/rust.md);
    whether they were written."""
    if c.options.rust_serde:
        w.line(SERDE_DERIVE)
    return c.options.rust_serde


def holds_string(t: ir.Type) -> bool:
    """Whether a value of t holds strings of its own (not a struct's), which serde gets as bytes
    (`fbe::BString`'s) and --rust-serde has written as text (`fbe::serde_text`)."""
    if isinstance(t, ir.Mapping):
        return holds_string(t.key) or holds_string(t.value)
    if isinstance(t, (ir.Optional_, ir.Array, ir.Sequence)):
        return holds_string(t.element)
    return isinstance(t, ir.Primitive) and t.name == "string"


def write_enum(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name, wire = c.ident.type(e.qualified), PRIMITIVES[e.wire]
    variants = [v for v in e.values if v.name in first_names(e)]
    aliases = [v for v in e.values if v.name not in first_names(e)]
    w.line(f"/// The schema's `enum {e.name}` (on the wire as `{wire}`).")
    w.line("#[derive(Clone, Copy, Debug)]")
    with w.block(f"pub enum {name} {{", "}"):
        for v in variants:
            w.line(f"{c.ident.value(e.qualified, v.name)},")
        w.line("/// A value the schema does not name: the format keeps it.")
        w.line(f"Unknown({wire}),")
    w.blank()
    with w.block(f"impl {name} {{", "}"):
        for v in aliases:
            first = next(x for x in variants if x.value == v.value)
            w.line(f"/// `{v.name}`, the same value as `{first.name}`.")
            w.line(f"pub const {c.ident.value(e.qualified, v.name)}: Self = Self::"
                   f"{c.ident.value(e.qualified, first.name)};")
            w.blank()
        arms = [(c.ident.value(e.qualified, v.name), str(v.value)) for v in variants]
        # a byte enum's from_wire is a table lookup (write_byte_table), its match a private const fn
        by_table = bool(variants) and wire in ("u8", "i8")
        if by_table:
            write_byte_table(w, wire)
            of_wire = ("The value of the wire integer `v` (what `OF_BYTE` holds).", f"const fn named(v: {wire})")
        else:
            of_wire = ("The value of the wire integer `v`.", f"pub const fn from_wire(v: {wire})")
        conversions = [(of_wire[0], f"{of_wire[1]} -> Self", "v",
                        [(value, f"Self::{ident}") for ident, value in arms], ("v", "Self::Unknown(v)")),
                       ("The wire integer.", f"pub const fn to_wire(self) -> {wire}", "self",
                        [(f"Self::{ident}", value) for ident, value in arms], ("Self::Unknown(v)", "v"))]
        for i, (doc, signature, subject, cases, (unknown, result)) in enumerate(conversions):
            if i:
                w.blank()
            w.line(f"/// {doc}")
            with w.block(f"{signature} {{", "}"):
                if not cases:     # a match of one arm is a let (clippy's match_single_binding)
                    w.lines(f"let {unknown} = {subject};\n{result}" if subject == "self" else result)
                    continue
                with w.block(f"match {subject} {{", "}"):
                    for pattern, value in [*cases, (unknown, result)]:
                        w.line(f"{pattern} => {value},")
    w.blank()
    for trait, sig, body in [
        ("Default", "fn default() -> Self", "Self::from_wire(0)"),
        ("PartialEq", "fn eq(&self, other: &Self) -> bool", "self.to_wire() == other.to_wire()"),
        ("PartialOrd", "fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering>", "Some(self.cmp(other))"),
        ("Ord", "fn cmp(&self, other: &Self) -> std::cmp::Ordering", "self.to_wire().cmp(&other.to_wire())"),
        ("std::hash::Hash", "fn hash<H: std::hash::Hasher>(&self, state: &mut H)", "self.to_wire().hash(state);"),
    ]:
        with w.block(f"impl {trait} for {name} {{", "}"), w.block(f"{sig} {{", "}"):
            w.line(body)
        w.blank()
        if trait == "PartialEq":
            w.line(f"impl Eq for {name} {{}}")
            w.blank()
    w.line(f"fbe::scalar_value!({name}, {wire});")
    w.blank()
    if c.options.rust_serde:    # a value by its name, else its number: a JSON map key (docs/rust.md)
        w.line('#[cfg(feature = "serde")]')
        call(w, "fbe::serde_enum!", [name, wire, *(ident for ident, _ in arms)], ";")
        w.blank()
    with w.block(f"impl fbe::text::Text for {name} {{", "}"), \
            w.block("fn text(&self, t: &mut fbe::text::TextWriter) {", "}"):
        if variants:
            with w.block("let name = match self.to_wire() {", "};"):
                for v in variants:
                    w.line(f'{v.value} => "{v.name}",')
                w.line('_ => "<unknown>",')
            w.line("t.raw(name);")
        else:
            w.line('t.raw("<unknown>");')
    w.blank()


def write_byte_table(w: CodeWriter, wire: str) -> None:
    """An enum on the wire as one byte: the value of every byte in a table of 256 that its match
    (`named`) fills at compile time, so that `from_wire` is one load where the match is a chain of
    compares and selects (docs/rust.md, "Performance")."""
    w.line("/// The value of every wire byte, made at compile time: `from_wire` is one load.")
    with w.block("const OF_BYTE: [Self; 256] = {", "};"):
        w.lines("let mut table = [Self::Unknown(0); 256];\nlet mut v = 0;")
        with w.block("while v < 256 {", "}"):
            w.lines(f"table[v] = Self::named(v as u8{' as i8' if wire == 'i8' else ''});\nv += 1;")
        w.line("table")
    w.blank()
    w.line("/// The value of the wire integer `v`.")
    with w.block(f"pub const fn from_wire(v: {wire}) -> Self {{", "}"):
        w.line(f"Self::OF_BYTE[v{'' if wire == 'u8' else ' as u8'} as usize]")
    w.blank()


SIGNED = {"int8", "int16", "int32", "int64"}


def text_of(w: CodeWriter, c: Context, t: ir.Type, place: str, depth: int) -> None:
    """The statements that write the text (docs/format.md 9) of the value at `place` (`self.f`, or
    `*v1` for an element) to the TextWriter `t`; collections loop with the locals of their depth."""
    plain = place.removeprefix("*")     # method calls dereference themselves
    ref = place[1:] if place.startswith("*") else "&" + place
    if isinstance(t, ir.Primitive):
        n = t.name
        simple = {"bool": f"t.bool({place})", "char": f"t.char({place})", "wchar": f"t.wchar({place})",
                  "float": f"t.float(f64::from({place}))", "double": f"t.float({place})",
                  "decimal": f"t.decimal({ref})", "string": f"t.string({ref})", "bytes": f"t.bytes({plain}.len())",
                  "timestamp": f"t.uint({plain}.0)", "uuid": f"t.uuid({ref})"}
        wide = {"int64": f"t.int({place})", "uint64": f"t.uint({place})"}   # no conversion to their own type
        integer = f"t.int(i64::from({place}))" if n in SIGNED else f"t.uint(u64::from({place}))"
        w.line((simple.get(n) or wide.get(n) or integer) + ";")
        return
    if isinstance(t, (ir.EnumRef, ir.StructRef)):
        w.line(f"fbe::text::Text::text({ref}, t);")
        return
    d = depth + 1
    if isinstance(t, ir.Optional_):
        w.line(f"if let Some(v{d}) = {ref} {{")
        with w.indented():
            text_of(w, c, t.element, f"*v{d}", d)
        w.line("} else {")
        with w.indented():
            w.line('t.raw("null");')
        w.line("}")
        return
    open_, close = ir.TEXT_BRACKETS[t.kind]
    w.line(f"let c{d} = {ref};")
    w.line(f't.count(c{d}.len(), "{open_}");')
    pattern = f"(k{d}, v{d})" if isinstance(t, ir.Mapping) else f"v{d}"
    with w.block(f"for (i{d}, {pattern}) in c{d}.iter().enumerate() {{", "}"):
        w.line(f"t.sep(i{d});")
        if isinstance(t, ir.Mapping):
            text_of(w, c, t.key, f"k{d}.0" if is_char(t.key) and t.kind == "map" else f"*k{d}", d)
            w.line('t.raw("->");')
            text_of(w, c, t.value, f"*v{d}", d)
        else:
            text_of(w, c, t.element, f"v{d}.0" if is_char(t.element) and t.kind == "set" else f"*v{d}", d)
    w.line(f't.raw("{close}");')


def write_text(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """fbe::text::Text: `Name(field=value,...)`, a base's fields printed first as a nested call of
    the base's name (`Balance(Balance(currency="USD",amount=1000),locked=0)`)."""
    chain = [s]
    while chain[-1].base:
        base = chain[-1].base
        assert base is not None
        chain.append(c.schema.struct(base))
    pending = "".join(f"{x.name}(" for x in chain)
    with w.block(f"impl fbe::text::Text for {c.ident.type(s.qualified)} {{", "}"), \
            w.block("fn text(&self, t: &mut fbe::text::TextWriter) {", "}"):
        for level, x in enumerate(reversed(chain)):
            own = [f for f in s.all_fields if f.owner == x.qualified]
            for k, f in enumerate(own):
                pending += ("," if k or level else "") + f"{f.name}="
                w.line(f"t.raw({rust_string(pending)});")
                pending = ""
                if f.hidden:
                    w.line('t.raw("***");')
                else:
                    text_of(w, c, f.type, f"self.{c.ident.field(s.qualified, f.name)}", 0)
            pending += ")" if level < len(chain) - 1 else ""
        w.line(f"t.raw({rust_string(pending + ')')});")
    w.blank()


def write_flags(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    name, wire = c.ident.type(e.qualified), PRIMITIVES[e.wire]
    with w.block("fbe::bitflags::bitflags! {", "}"):
        w.line(f"/// The schema's `flags {e.name}` (on the wire as `{wire}`); bits it does not name are kept.")
        w.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]")
        if serde_derive(w, c):  # bitflags' own text form ("A | B | 0x80"), unnamed bits kept
            w.line('#[cfg_attr(feature = "serde", serde(transparent))]')
        with w.block(f"pub struct {name}: {wire} {{", "}"):
            for v in e.values:
                w.line(f"const {c.ident.value(e.qualified, v.name)} = {v.value};")
    w.blank()
    with w.block(f"impl Default for {name} {{", "}"), w.block("fn default() -> Self {", "}"):
        w.line("Self::empty()")
    w.blank()
    w.line(f"fbe::scalar_value!(flags {name}, {wire});")
    w.blank()
    with w.block(f"impl fbe::text::Text for {name} {{", "}"), \
            w.block("fn text(&self, t: &mut fbe::text::TextWriter) {", "}"):
        w.line(f"let {'mut ' if e.values else ''}names = fbe::text::FlagNames::new(self.bits());")
        for v in e.values:
            w.line(f'names.add({v.value}, "{v.name}");')
        w.line("names.write(t);")
    w.blank()


def write_struct(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    name = c.ident.type(s.qualified)
    p = c.plan.struct(s.qualified)
    defaults = {f.name: c.default(f.type, f.default) for f in s.all_fields}
    derive = "Clone, Debug, PartialEq" + ("" if any(defaults.values()) else ", Default")
    base = f" : {s.base}" if s.base else ""
    w.line(f"/// The schema's `struct {s.name}{base}` (type id {s.type_id})"
           f"{'; its base fields first' if s.base else ''}.")
    w.line(f"#[derive({derive})]")
    serde_derive(w, c)
    if not s.all_fields:
        w.line(f"pub struct {name} {{}}")
    else:
        with w.block(f"pub struct {name} {{", "}"):
            for f in s.all_fields:
                if c.options.rust_serde and isinstance(f.type, ir.Array) and f.type.length > 32:
                    w.line(SERDE_ARRAY)     # its strings as text too
                elif c.options.rust_serde and holds_string(f.type):
                    w.line(SERDE_TEXT)
                w.line(f"pub {c.ident.field(s.qualified, f.name)}: {c.type(f.type)},")
    w.blank()
    if any(defaults.values()):
        with w.block(f"impl Default for {name} {{", "}"), w.block("fn default() -> Self {", "}"):
            struct_literal(w, name, [f"{c.ident.field(s.qualified, f.name)}: {defaults[f.name] or 'Default::default()'}"
                                     for f in s.all_fields], "")
        w.blank()
    with w.block(f"impl fbe::Struct for {name} {{", "}"):
        w.line(f'const NAME: &\'static str = "{s.qualified}";')
        w.line(f"const TYPE_ID: u32 = {s.type_id};")
        w.line(f"const FINAL_MIN: usize = {s.final_min_size};")
        if s.large_default:
            w.line(f"const DEFAULT_COST: usize = {s.default_cost};")
        if c.plan.charges_within_bytes(s.qualified):
            w.line("const CHARGES_WITHIN_BYTES: bool = true;")
        w.blank()
        write_versioned(w, c, s, p)
        write_final(w, c, s, p)
    w.blank()
    if p.fields:
        with w.block(f"impl {name} {{", "}"):
            write_older_reader(w, c, s, p)
        w.blank()
    write_key_order(w, c, s)
    write_text(w, c, s)
    if c.options.json:
        write_json(w, c, s, p)
        w.blank()


def keyed(t: ir.Type) -> bool:
    """Whether values of t compare as keys (fbe::KeyOrd): scalars, strings, structs and their sequences."""
    if isinstance(t, ir.Sequence) and t.kind == "set" or isinstance(t, ir.Mapping):
        return False
    if isinstance(t, (ir.Optional_, ir.Array, ir.Sequence)):
        return keyed(t.element)
    return True


def write_key_order(w: CodeWriter, c: Context, s: ir.Struct) -> None:
    """fbe::KeyOrd: a struct as a set element or map key compares by its [key] fields in turn, and
    all structs without [key] fields are the same key (docs/limits.md 4)."""
    fields = {f.name: f for f in s.all_fields}
    if not all(keyed(fields[k].type) for k in s.keys):
        return
    idents = [c.ident.field(s.qualified, k) for k in s.keys]
    with w.block(f"impl fbe::KeyOrd for {c.ident.type(s.qualified)} {{", "}"), \
            w.block(f"fn key_cmp(&self, {'other' if s.keys else '_other'}: &Self) -> std::cmp::Ordering {{", "}"):
        if not idents:
            w.line("std::cmp::Ordering::Equal")
        for k, ident in enumerate(idents):
            last = k == len(idents) - 1
            call(w, "fbe::KeyOrd::key_cmp" if last else "let order = fbe::KeyOrd::key_cmp",
                 [f"&self.{ident}", f"&other.{ident}"], "" if last else ";")
            if not last:
                with w.block("if order != std::cmp::Ordering::Equal {", "}"):
                    w.line("return order;")
    w.blank()


def write_versioned(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    w.line("#[inline(always)]")
    with w.block("fn write_body("):   # broken as rustfmt breaks it
        w.lines("&self,\nw: &mut BodyWriter<'_>,\nbase: usize,\nslot: &mut [u8],")
    with w.block(") -> Result<(), EncodeError> {", "}"):
        enter(w, p)
        # the body as one block: its header, the fixed fields at their offsets and the other fields'
        # slots are stored into it at constant offsets, no bounds check at run time
        fixed = [fp for fp in p.fields if ir.reads_unchecked(fp.type)]
        b = "b" if len(fixed) < len(p.fields) else "_"
        body = "body" if p.fields else "_"
        w.line(f"let ({b}, {body}) = w.struct_block::<{s.body_size}>(base, slot, {s.type_id});")
        for fp in fixed:
            w.line(f"fbe::Fixed::put_at(&self.{c.ident.field(s.qualified, fp.name)}, body, {fp.offset});")
        for fp in p.fields:
            if fp not in fixed:
                call(w, "w.field", [f"&self.{c.ident.field(s.qualified, fp.name)}", "b",
                                    f"&mut body[{fp.offset}..]", f'"{fp.name}"'], "?;")
        if not p.bounded:
            w.line("w.leave();")
        w.line("Ok(())")
    w.blank()
    write_body_size(w, c, s, p)
    write_body_reader(w, c, s, p, verify=False)
    write_body_reader(w, c, s, p, verify=True)


def enter(w: CodeWriter, p: plan.StructPlan) -> None:
    """A writer's depth rule (docs/limits.md 1): a struct whose nesting is bounded checks the levels
    its value can hold at once and counts nothing; any other counts its level."""
    w.line(f"w.fits({p.levels}, Self::NAME)?;" if p.bounded else "w.enter(Self::NAME)?;")


def guard(w: CodeWriter, s: ir.Struct, verify: str) -> None:
    """A struct whose default costs more than 4 KiB is made only once the budget pays for it; else it
    is checked without being made, which fails as its read would (docs/limits.md 3)."""
    if s.large_default:
        with w.block("if !r.affords(Self::DEFAULT_COST) {", "}"):
            w.line(verify)


def body_fields(p: plan.StructPlan, verify: bool) -> list[plan.FieldPlan]:
    """The fields read_body_into reads, or verify_body looks at (those with a check or a charge)."""
    return [fp for fp in p.fields if not verify or fp.missing_cost or not ir.reads_unchecked(fp.type)]


def write_body_reader(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, verify: bool) -> None:
    """read_body_into, or verify_body: the same checks and charges without making the value (the
    fields read unchecked are not looked at). A body of this version's size or more holds every
    field: read_body_into reads them at their offsets in one `[u8; N]` (no check per field), a
    shorter one (an older writer's) in read_older (write_older_reader)."""
    w.line("#[inline(always)]")
    with w.block("fn verify_body(" if verify else "fn read_body_into("):   # broken as rustfmt breaks it
        w.lines(("" if verify else "&mut self,\n") + "r: &mut Reader<'_>,\nbase: usize,\nslot: usize,\noff: usize,")
    with w.block(") -> Result<(), DecodeError> {", "}"):
        fields = body_fields(p, verify)
        if not fields:
            w.line(f"r.struct_at(base, slot, off, {s.type_id}, {s.decode_cost})?;")
            w.line("r.leave();")
            w.line("Ok(())")
            return
        if not verify:
            guard(w, s, "Self::verify_body(&mut r.clone(), base, slot, off)?;")
        if verify:   # a compare per field costs less here than the full body's check
            w.line(f"let (b, n) = r.struct_at(base, slot, off, {s.type_id}, {s.decode_cost})?;")
            fields_by_size(w, c, s, p, verify)
        else:
            w.line("let older = |r: &mut Reader<'_>, b, n| self.read_older(r, b, n);")
            entered = f"r.struct_full::<{s.body_size}>(base, slot, off, {s.type_id}, {s.decode_cost}, older)?"
            b = "_" if p.fixed else "b"   # every field read from `body` at its offset
            with w.block(f"let Some(({b}, body)) = {entered} else {{", "};"):
                w.line("return Ok(());")
            for fp in fields:
                if ir.reads_unchecked(fp.type):
                    w.line(f"self.{c.ident.field(s.qualified, fp.name)} = fbe::Fixed::at(body, {fp.offset});")
                else:
                    call(w, "r.field_into_at", [f"&mut self.{c.ident.field(s.qualified, fp.name)}", "b", "body",
                                                str(fp.offset), f'"{fp.name}"'], "?;")
            w.line("r.leave();")
            w.line("Ok(())")
    w.blank()


def write_older_reader(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """read_older: a versioned body of fewer bytes than this version's (an older writer's), out of
    line: the fields it holds, the others their defaults."""
    w.line("#[cold]")
    w.line("#[inline(never)]")
    with w.block("fn read_older(&mut self, r: &mut Reader<'_>, b: usize, n: usize) -> Result<(), DecodeError> {", "}"):
        fields_by_size(w, c, s, p, verify=False)


def fields_by_size(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan, verify: bool) -> None:
    """The fields a body of `n` bytes holds read (or checked): the inherited ones as a group, none of
    them when the body is too short for all of them (all defaults, charged plan.older_cost once:
    docs/format.md 3.6), then the own ones one by one, the first one missing charging the defaults
    of the rest."""
    fields = body_fields(p, verify)
    if any(not verify or not ir.reads_unchecked(fp.type) for fp in fields):
        w.line("let body = r.body(b, n);")   # the fields' slots at their offsets: one bounds check
    if not verify:   # an older writer's shorter body: the fields it lacks take their defaults
        with w.block(f"if n < {s.body_size} {{", "}"):
            w.line("*self = Self::default();")
    if p.base_fields:
        with w.block(f"if n < {s.base_size} {{", "}"):
            if p.older_cost:   # every field's defaults, named after the first one (the first missing)
                w.line(f'r.spend({p.older_cost}, b, "{p.fields[0].name}")?;')
            w.line("r.leave();")
            w.line("return Ok(());")
        for fp in p.base_fields:
            if fp in fields and (not verify or not ir.reads_unchecked(fp.type)):
                body_field(w, c, s, fp, verify)
    before = 0   # a body of fewer bytes than a field's end lacks it: the first one missing charges the rest
    for fp in p.own_fields:
        if fp in fields and (not verify or not ir.reads_unchecked(fp.type)):
            w.line(f"if n >= {fp.end} {{")
            with w.indented():
                body_field(w, c, s, fp, verify)
            if fp.missing_cost:
                w.line(f"}} else if n >= {before} {{" if before > 8 else "} else {")
        elif fp in fields:
            w.line(f"if ({before}..{fp.end}).contains(&n) {{" if before > 8 else f"if n < {fp.end} {{")
        if fp in fields:
            if fp.missing_cost:
                with w.indented():
                    w.line(f'r.spend({fp.missing_cost}, b, "{fp.name}")?;')
            w.line("}")
        before = fp.end
    w.line("r.leave();")
    w.line("Ok(())")


def body_field(w: CodeWriter, c: Context, s: ir.Struct, fp: plan.FieldPlan, verify: bool) -> None:
    """One field of a body of `n` bytes that holds it, read at its offset in `body` (or checked)."""
    if verify:
        call(w, f"r.check_at::<{c.type(fp.type)}>", ["b", "body", str(fp.offset), f'"{fp.name}"'], "?;")
    elif ir.reads_unchecked(fp.type):
        w.line(f"self.{c.ident.field(s.qualified, fp.name)} = fbe::Fixed::at(body, {fp.offset});")
    else:
        call(w, "r.field_into_at", [f"&mut self.{c.ident.field(s.qualified, fp.name)}", "b", "body",
                                    str(fp.offset), f'"{fp.name}"'], "?;")


def write_body_size(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """body_size: the versioned model's size walk, the body's size and a term per field that
    allocates (those not stored in the body), which the root's bytes are made of."""
    terms = [f"fbe::Value::extra_size(&self.{c.ident.field(s.qualified, fp.name)})"
             for fp in p.fields if not ir.reads_unchecked(fp.type)]
    size_sum(w, str(s.body_size), terms, "fn body_size(&self) -> usize {")


def size_sum(w: CodeWriter, first: str, terms: list[str], head: str) -> None:
    """A size walk's function: `first` plus each term."""
    w.line("#[inline(always)]")
    with w.block(head, "}"):
        if not terms:
            w.line(first)
        else:
            w.line(f"let mut n = {first};")
            for term in terms:
                w.line(f"n += {term};")
            w.line("n")
    w.blank()


def write_final_size(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """fields_size: the final model's size walk, a term per step of write_fields (a run's size, a
    field's final_size), which the root's bytes are made of before anything is stored."""
    terms = [final_size_term(c, s, step) for step in p.final_steps]
    w.line("#[inline(always)]")
    with w.block("fn fields_size(&self) -> usize {", "}"):
        if len(terms) <= 1:
            w.line(terms[0] if terms else "0")
        else:
            w.line("let mut n = 0;")
            for term in terms:
                w.line(f"n += {term};")
            w.line("n")
    w.blank()


def final_size_term(c: Context, s: ir.Struct, step: plan.Step) -> str:
    """What a final step adds to the size walk: a run's size, a field's final_size."""
    if isinstance(step, plan.Run):
        return str(step.size)
    return f"fbe::Value::final_size(&self.{c.ident.field(s.qualified, step.name)})"


def write_final_steps(w: CodeWriter, c: Context, s: ir.Struct, steps: Iterable[tuple[int, plan.Step]]) -> None:
    """The stores of final steps (numbered as in the plan's final_steps) through the writer `w`."""
    for k, step in steps:
        if isinstance(step, plan.Run):
            w.line(f"let run{k} = w.append_run::<{step.size}>();")
            for fp, at in zip(step.fields, step.at):
                w.line(f"fbe::Fixed::put_at(&self.{c.ident.field(s.qualified, fp.name)}, run{k}, {at});")
        else:
            call(w, "w.final_field", [f"&self.{c.ident.field(s.qualified, step.name)}", f'"{step.name}"'], "?;")


def text_after_fixed(steps: tuple[plan.Step, ...], k: int) -> plan.FieldPlan | None:
    """Final step k + 1 when it is a string or bytes and step k a fixed-size field read without a check
    of its own: the two are read as a pair, with one compare of the bytes left for the value and the
    length (`Reader::final_fixed_text_into`)."""
    if k + 1 >= len(steps):
        return None
    step, text = steps[k], steps[k + 1]
    fixed = isinstance(step, plan.FieldPlan) and ir.reads_unchecked(step.type)
    return text if fixed and isinstance(text, plan.FieldPlan) and ir.is_text(text.type) else None


def write_final(w: CodeWriter, c: Context, s: ir.Struct, p: plan.StructPlan) -> None:
    """write_fields, claiming the bytes of each of the plan's final claims of several steps at once
    (`w.part`: one bounds check, none for the stores into it), then the rest of write_final's codecs."""
    w.line("#[inline(always)]")
    with w.block("fn write_fields(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {", "}"):
        enter(w, p)
        numbered = list(enumerate(p.final_steps))
        for claim in p.final_claims:
            steps, numbered = numbered[:len(claim)], numbered[len(claim):]
            if len(claim) == 1:
                write_final_steps(w, c, s, steps)
            elif len(claim) == len(p.final_steps):
                w.line("let mut w = w.part(self.fields_size()); // the fields' bytes, claimed at once")
                write_final_steps(w, c, s, steps)
                w.line("w.finish();")
            else:
                with w.block("{", "}"):
                    w.line("let mut n = 0;")
                    for _, step in steps:
                        w.line(f"n += {final_size_term(c, s, step)};")
                    w.line("let mut w = w.part(n); // these fields' bytes, claimed at once")
                    write_final_steps(w, c, s, steps)
                    w.line("w.finish();")
        if not p.bounded:
            w.line("w.leave();")
        w.line("Ok(())")
    w.blank()
    write_final_size(w, c, s, p)
    w.line("#[inline(always)]")
    with w.block("fn read_fields_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {", "}"):
        guard(w, s, "Self::verify_fields(&mut r.clone())?;")
        w.line(f"r.enter({s.decode_cost})?;")
        k = 0
        while k < len(p.final_steps):
            step, text = p.final_steps[k], text_after_fixed(p.final_steps, k)
            if isinstance(step, plan.Run):
                call(w, f"let run{k} = r.run", [str(step.size), f'"{step.description}"'], "?;")
                for fp, at in zip(step.fields, step.at):
                    w.line(f"self.{c.ident.field(s.qualified, fp.name)} = fbe::Fixed::at(run{k}, {at});")
            elif text is not None:
                call(w, "r.final_fixed_text_into", [f"&mut self.{c.ident.field(s.qualified, step.name)}",
                                                    f"&mut self.{c.ident.field(s.qualified, text.name)}",
                                                    f'"{step.name}"', f'"{text.name}"'], "?;")
                k += 1
            else:
                call(w, "r.final_field_into", [f"&mut self.{c.ident.field(s.qualified, step.name)}",
                                               f'"{step.name}"'], "?;")
            k += 1
        w.line("r.leave();")
        w.line("Ok(())")
    w.blank()
    w.line("#[inline(always)]")
    with w.block("fn verify_fields(r: &mut Reader<'_>) -> Result<(), DecodeError> {", "}"):
        w.line(f"r.enter({s.decode_cost})?;")
        for step in p.final_steps:
            if isinstance(step, plan.Run):
                call(w, "r.run", [str(step.size), f'"{step.description}"'], "?;")
            else:
                call(w, f"r.final_check::<{c.type(step.type)}>", [f'"{step.name}"'], "?;")
        w.line("r.leave();")
        w.line("Ok(())")


def generate_package(schema: ir.Schema, package: ir.Package, options: Options) -> GeneratedFile:
    c = Context(schema, package, GeneratedFile(f"{Idents(schema).module(package.name)}.rs"), options)
    body = CodeWriter(Options(indent=4))   # rustfmt's indent, whatever -n says
    for e in package.enums:
        write_enum(body, c, e)
    for e in package.flags:
        write_flags(body, c, e)
    for s in package.structs:
        write_struct(body, c, s)
    if options.proto:
        write_protocol(body, c)
    out = CodeWriter(Options(indent=4))
    out.lines(generated_header(package))
    out.blank()
    out.line(f"//! The FBE schema package `{package.name}`: its types and their versioned and final models.")
    out.blank()
    uses = {module: sorted(names) for module, names in c.file.names.items()}
    if package.structs:
        fbe = {*uses.get("fbe", []), "BodyWriter", "DecodeError", "EncodeError", "Reader", "SizedWriter"}
        uses["fbe"] = sorted(fbe, key=lambda n: (n[0].isupper(), n))   # rustfmt's order: functions first
    for module, names in sorted(uses.items()):   # rustfmt's order
        out.line(f"use {module}::{names[0]};" if len(names) == 1 else f"use {module}::{{{', '.join(names)}}};")
    out.blank()
    out.lines(body.text())
    c.file.text = out.text()
    return c.file


def generate(schema: ir.Schema, options: Options) -> list[GeneratedFile]:
    return [generate_package(schema, schema.main_package, options)]
