"""The leaf every other module of the C# target imports: the Context of one generated file and the C#
spelling of IR types, their codecs (runtime/csharp's Fbe.Codecs), key orders and defaults."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, DefaultLiterals, FileContext, GeneratedFile, Options, RawText, float32_digits
from fbec.targets.csharp.names import Idents
from fbec.targets.jvm.context import string_literal  # Java's escapes are C#'s

PRIMITIVES = {
    "bool": "bool", "byte": "byte", "char": "byte", "wchar": "uint", "int8": "sbyte", "uint8": "byte",
    "int16": "short", "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long", "uint64": "ulong",
    "float": "float", "double": "double", "decimal": "decimal", "string": "string", "bytes": "byte[]",
    "timestamp": "Timestamp", "uuid": "Guid",
}
# The runtime codec of each primitive (Fbe.Codecs).
CODECS = {
    "bool": "Bool", "byte": "Byte", "char": "Char", "wchar": "WChar", "int8": "SByte", "uint8": "Byte",
    "int16": "Int16", "uint16": "UInt16", "int32": "Int32", "uint32": "UInt32", "int64": "Int64",
    "uint64": "UInt64", "float": "Single", "double": "Double", "decimal": "Decimal", "string": "String",
    "bytes": "Bytes", "timestamp": "Timestamp", "uuid": "Guid",
}
# The Writer's Put/Append and the Reader's Get method of each fixed primitive: what a struct's walks call
# for such a field directly, without its codec (a fixed value cannot fail to write, nor read once its
# bytes are inside the body or run).
WIRE_METHODS = {
    "bool": "Bool", "byte": "Byte", "char": "Byte", "wchar": "UInt32", "int8": "SByte", "uint8": "Byte",
    "int16": "Int16", "uint16": "UInt16", "int32": "Int32", "uint32": "UInt32", "int64": "Int64",
    "uint64": "UInt64", "float": "Single", "double": "Double", "timestamp": "UInt64", "uuid": "Guid",
}
# Set elements and map keys whose order or sameness is not .NET's default (Fbe.Keys).
KEY_ORDERS = {"char": "Keys.Char", "float": "Keys.Single", "double": "Keys.Double", "uuid": "Keys.Guid",
              "string": "Keys.String", "bytes": "Keys.Bytes"}
KEY_SAMENESS = {"float": "Keys.Single", "double": "Keys.Double", "string": "StringComparer.Ordinal",
                "bytes": "Keys.Bytes"}
REAL_SUFFIXES = {"float": "f", "double": ".0", "decimal": "m"}


class Context(FileContext, DefaultLiterals):
    def __init__(self, schema: ir.Schema, package: ir.Package, file: GeneratedFile, options: Options) -> None:
        super().__init__(schema, package, file, options)
        self.ident = Idents(schema)

    @staticmethod
    def file_name(schema: ir.Schema, package: ir.Package) -> str:
        """The file of a package: its namespace."""
        return Idents(schema).namespace(package.name)

    @staticmethod
    def type_name(schema: ir.Schema, t: ir.Enum | ir.Struct) -> str:
        """The identifier of a type of the schema."""
        return Idents(schema).type(t.qualified)

    def named(self, qualified: str) -> str:
        """A type of this package by its name, another package's by its namespace."""
        package = qualified.rpartition(".")[0]
        name = self.ident.type(qualified)
        return name if package == self.package.name else f"global::{self.ident.namespace(package)}.{name}"

    def qualified(self, qualified: str) -> str:
        """A schema type in an expression, where a property of the type's name would hide it: by its
        namespace from the global one."""
        package = qualified.rpartition(".")[0]
        return f"global::{self.ident.namespace(package)}.{self.ident.type(qualified)}"

    def type(self, t: ir.Type) -> str:
        """The C# type of t."""
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name)
        if isinstance(t, ir.Optional_):
            return self.type(t.element) + ("?" if value_type(t.element) else "")
        if isinstance(t, ir.Array):
            return f"{self.type(t.element)}[]"
        if isinstance(t, ir.Sequence):
            return f"{'SortedSet' if t.kind == 'set' else 'List'}<{self.type(t.element)}>"
        return f"{'SortedDictionary' if t.kind == 'map' else 'Dictionary'}<{self.type(t.key)}, {self.type(t.value)}>"

    def codec_type(self, t: ir.Type) -> str:
        """The type of t's codec: a FixedCodec where the value is read without a check of its own."""
        return f"{'FixedCodec' if fixed(t) else 'Codec'}<{self.type(t)}>"

    def codec(self, t: ir.Type) -> str:
        """The expression of t's codec (runtime/csharp Codecs.cs)."""
        if isinstance(t, ir.Primitive):
            return f"Codecs.{CODECS[t.name]}"
        if isinstance(t, ir.EnumRef):
            name, wire = self.named(t.name), PRIMITIVES[t.wire]
            kind = "Flags" if t.kind == "flags" else "Enum"
            return f"Codecs.{kind}<{name}, {wire}>(Codecs.{CODECS[t.wire]}, x => ({name})x, x => ({wire})x)"
        if isinstance(t, ir.StructRef):
            return f"{self.qualified(t.name)}.Model.Instance"
        if isinstance(t, ir.Optional_):
            return f"Codecs.{'Optional' if value_type(t.element) else 'OptionalRef'}({self.codec(t.element)})"
        if isinstance(t, ir.Array):
            return f"Codecs.{'FixedArray' if fixed(t) else 'Array'}({self.codec(t.element)}, {t.length})"
        if isinstance(t, ir.Sequence):
            if t.kind == "set":
                return f"Codecs.Set({self.codec(t.element)}, {self.key_order(t.element)})"
            return f"Codecs.{'List' if t.kind == 'list' else 'Vector'}({self.codec(t.element)})"
        if t.kind == "map":
            return f"Codecs.Map({self.codec(t.key)}, {self.codec(t.value)}, {self.key_order(t.key)})"
        return f"Codecs.Hash({self.codec(t.key)}, {self.codec(t.value)}, {self.key_sameness(t.key)})"

    def key_order(self, t: ir.Type) -> str:
        """The IComparer of set elements or map keys of type t (docs/format.md 3.4)."""
        if isinstance(t, ir.Primitive) and t.name in KEY_ORDERS:
            return KEY_ORDERS[t.name]
        return f"Comparer<{self.type(t)}>.Default"

    def key_sameness(self, t: ir.Type) -> str:
        """The IEqualityComparer of a hash's keys of type t."""
        if isinstance(t, ir.Primitive) and t.name in KEY_SAMENESS:
            return KEY_SAMENESS[t.name]
        return f"EqualityComparer<{self.type(t)}>.Default"

    def enum_value(self, enum: str, name: str) -> str:
        return f"{self.qualified(enum)}.{self.ident.value(enum, name)}"

    def flags_default(self, flags: str, value: int) -> str:
        return f"({self.named(flags)})({value})"

    def empty(self, t: ir.Type) -> str | None:
        """The value a field of type t holds when the schema gives no default: None for a value type
        (C#'s own default) and an optional (null)."""
        if isinstance(t, ir.Primitive):
            return {"string": '""', "bytes": "new byte[0]"}.get(t.name)
        if isinstance(t, ir.StructRef):
            return f"new {self.named(t.name)}()"
        if isinstance(t, ir.Array):
            element = self.empty(t.element)
            if element is None:
                spelled, rank = self.type(t.element), ""
                while spelled.endswith("[]"):   # an array of arrays: the length goes first
                    spelled, rank = spelled[:-2], rank + "[]"
                return f"new {spelled}[{t.length}]{rank}"
            return f"Defaults.Array({t.length}, () => {element})"
        if isinstance(t, (ir.Sequence, ir.Mapping)):
            order = (self.key_order(t.element) if isinstance(t, ir.Sequence) else self.key_order(t.key))
            if t.kind == "set" or t.kind == "map":
                return f"new {self.type(t)}({order})"
            if isinstance(t, ir.Mapping):
                return f"new {self.type(t)}({self.key_sameness(t.key)})"
            return f"new {self.type(t)}()"
        return None

    def default(self, t: ir.Type, d: ir.Default) -> str | None:
        """The C# expression of a field's initial value, or None when it is C#'s default."""
        k = d.kind
        if isinstance(t, ir.Optional_):
            return None if k in ("none", "null") else self.scalar_default(t.element, d, present=True)
        if isinstance(t, ir.Array):
            element = self.default(t.element, d)
            if element is None or k in ("none", "null"):
                return self.empty(t)
            return f"Defaults.Array({t.length}, () => {element})"
        return self.scalar_default(t, d) or self.empty(t)

    def made_default(self, kind: str) -> str:
        return "Timestamp.Utc()" if kind == "utc" else f"Uuid.{kind.capitalize()}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        name = t.name if isinstance(t, ir.Primitive) else ""
        if name == "timestamp":
            return f"new Timestamp({value}UL)"
        return f"{value}{REAL_SUFFIXES[name]}" if name in REAL_SUFFIXES else integer_literal(t, value)

    def real_default(self, t: ir.Type, text: str) -> str:
        assert isinstance(t, ir.Primitive)
        if t.name == "decimal":
            return f"{text}m"     # 0.0m keeps its scale (on the wire: docs/format.md)
        return float_literal(text, t.name == "float")

    def string_default(self, text: str) -> str:
        return string_literal(text)

    def uuid_default(self, uuid: str) -> str:
        return f'new Guid("{uuid}")'


def value_type(t: ir.Type) -> bool:
    """Whether the C# type of t is a value type (an optional of it is a Nullable)."""
    return isinstance(t, ir.EnumRef) or isinstance(t, ir.Primitive) and not ir.is_text(t)


def fixed(t: ir.Type) -> bool:
    """Whether t is read without a check of its own (a FixedCodec: scalars but decimals, their arrays)."""
    if isinstance(t, ir.Array):
        return fixed(t.element)
    return ir.is_scalar(t) and not ir.is_checked(t) and not ir.is_text(t)


def direct(t: ir.Type) -> bool:
    """Whether a field of type t is written and read by the Writer's and Reader's own methods (a fixed
    primitive or an enum), not through its codec."""
    if isinstance(t, ir.EnumRef):
        return True
    return isinstance(t, ir.Primitive) and t.name in WIRE_METHODS


def wire_method(t: ir.Type) -> str:
    """The suffix of the Writer's Put/Append and the Reader's Get of a direct type: its wire type's."""
    assert isinstance(t, (ir.Primitive, ir.EnumRef))
    return WIRE_METHODS[ir.wire_name(t)]


def wire_value(t: ir.Type, value: str) -> str:
    """The value of a direct type as its wire type."""
    if isinstance(t, ir.EnumRef):
        return f"({PRIMITIVES[t.wire]}){value}"
    assert isinstance(t, ir.Primitive)
    return f"{value}.Nanoseconds" if t.name == "timestamp" else value


def read_wire(c: Context, t: ir.Type, at: str) -> str:
    """The value of a direct type at position `at` of the reader's data."""
    read = f"Reader.Get{wire_method(t)}(r.Data, {at})"
    if isinstance(t, ir.EnumRef):
        return f"({c.qualified(t.name)}){read}"
    assert isinstance(t, ir.Primitive)
    return f"new Timestamp({read})" if t.name == "timestamp" else read


def integer_literal(t: ir.Type, value: object) -> str:
    assert isinstance(value, int)
    name = t.name if isinstance(t, ir.Primitive) else ""
    if name in ("uint64", "timestamp") or value > 0x7FFFFFFFFFFFFFFF:
        return f"{value}UL"
    if name == "uint32" and value > 0x7FFFFFFF:
        return f"{value}U"
    if name == "int64" and not -0x80000000 <= value <= 0x7FFFFFFF:
        return f"{value}L"
    return str(value)


def float_literal(text: str, single: bool) -> str:
    value = float(text)
    kind = "float" if single else "double"
    if single and abs(value) > 3.4028234663852886e38 or math.isinf(value):
        return f"{kind}.NegativeInfinity" if value < 0 else f"{kind}.PositiveInfinity"
    if single:
        return float32_digits(value) + "f"
    digits = repr(value)
    return digits if any(c in digits for c in ".e") else digits + ".0"


@contextmanager
def braces(w: CodeWriter, head: str) -> Iterator[CodeWriter]:
    """`head`, then a block in braces on lines of their own (C#'s layout)."""
    w.line(head)
    with w.block("{", "}"):
        yield w


def member(w: CodeWriter, summary: str, head: str, *body: str) -> None:
    """A documented member: `/// <summary>summary</summary>`, head, then the statements of body in braces."""
    w.line(f"/// <summary>{summary}</summary>")
    with braces(w, head):
        for statement in body:
            w.line(statement)


def codec(c: Context, s: ir.Struct, fp: plan.FieldPlan) -> str:
    """The codec a field is read and written with: a primitive's or a struct's own, else the Model's
    static field of the field's name."""
    if isinstance(fp.type, ir.Primitive):
        return c.codec(fp.type)
    if isinstance(fp.type, ir.StructRef):
        return "Instance" if fp.type.name == s.qualified else c.codec(fp.type)
    return codec_field(c, s, fp.name)


def codec_field(c: Context, s: ir.Struct, name: str) -> str:
    return f"{c.ident.field(s.qualified, name)}Codec"


class Raw(RawText):
    """Literal text of the text form (`t.Raw(...)`) or of JSON (`j.Raw(...)`)."""

    def __init__(self, w: CodeWriter, target: str = "t") -> None:
        super().__init__(w)
        self.target = target

    def write(self, text: str) -> str:
        return f"{self.target}.Raw({string_literal(text)});"
