"""Shared state and naming for the Python target.

Everything here reads the IR only: slot sizes, offsets, type ids, defaults
and keys come from `fbec.model.ir`; this module only turns them into Python
names, type hints and literal expressions.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, DefaultLiterals, GeneratedFile, Options, float32

from .names import PRIM_HINT, Idents, module_name

# struct format character of every fixed-size primitive (little-endian layouts)
PRIM_FMT = {
    "bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
    "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
    "float": "f", "double": "d", "timestamp": "Q", "uuid": "16s", "decimal": "16s",
    "string": "I", "bytes": "I",
}
# an empty collection of each kind
EMPTY = {"array": "[]", "vector": "[]", "list": "[]", "set": "set()", "map": "{}", "hash": "{}"}
# how a scalar's Python value x becomes its raw value where it is not that value itself
CONVERTED = {"decimal": "fbe.encode_decimal({x})", "uuid": "{x}.bytes"}


def is_string(t: ir.Type) -> bool:
    return isinstance(t, ir.Primitive) and t.name == "string"


def is_plain(t: ir.Type) -> bool:
    """Fixed-size values whose raw struct value is the Python value (no conversion)."""
    return ir.is_scalar(t) and isinstance(t, ir.Primitive) and t.name not in CONVERTED


SPELLED_OUT_ARRAY = 8
"""Arrays up to this length have their element's format written out (`iii`, `16s16s`, `BIBI`); longer
ones a repeat count (`1000i`), or one bytes item when the element takes several (`packed_array`), so
the generated code does not grow with the length."""


def packed_array(t: ir.Type) -> bool:
    """A long array of uuids, decimals or optionals: its slot is one bytes item, split into elements
    with the element's own layout (iter_unpack) and joined from them."""
    return isinstance(t, ir.Array) and t.length > SPELLED_OUT_ARRAY and len(slot_fmt(t.element)) > 1


def slot_fmt(t: ir.Type) -> str:
    """The struct format of a versioned slot of type t."""
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        fmt = PRIM_FMT[ir.wire_name(t)]
        # flags are bit sets: read and written unsigned (Python's IntFlag has no negative members)
        return fmt.upper() if isinstance(t, ir.EnumRef) and t.kind == "flags" else fmt
    if isinstance(t, ir.Optional_):
        return "BI"
    if isinstance(t, ir.Array):
        element = slot_fmt(t.element)
        if t.length > SPELLED_OUT_ARRAY:
            return f"{t.length}{element}" if len(element) == 1 else f"{t.size}s"
        return element * t.length
    return "I"


@contextmanager
def struct_read(code: CodeWriter, s: ir.Struct, leaf: bool, result: str) -> Iterator[None]:
    """A struct reader's statements (either model's) inside `try:`: a DecodeError gets the struct's
    name (`e.within`), then the reader leaves the depth it entered (a leaf entered none) and returns
    `result`."""
    with code.block("try:"):
        yield
    with code.block("except fbe.DecodeError as e:"):
        code.line(f'raise e.within("{s.qualified}") from None')
    if not leaf:
        code.line("r.depth -= 1")
    code.line(f"return {result}")


def fixed_raws(t: ir.Type, x: str, field: str) -> tuple[list[str], list[str]]:
    """The raw values of x, a fixed value of type t (ir.is_fixed: the same bytes in both models), as
    struct packs them: the statements checking it first (an array's length), then the values."""
    if not isinstance(t, ir.Array):
        return [], [CONVERTED[t.name].format(x=x) if isinstance(t, ir.Primitive) and t.name in CONVERTED else x]
    check = [f'fbe.buffer.check_length({x}, {t.length}, "{field}")']
    conv = fixed_raws(t.element, "e", field)[1][0]
    if conv == "e":
        return check, [f"*{x}"]
    return check, [f'b"".join([{conv} for e in {x}])' if packed_array(t) else f"*[{conv} for e in {x}]"]


def py_tuple(items: list[str]) -> str:
    """A tuple display of the items (one item: with its trailing comma)."""
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def encoded(t: ir.Type, x: str) -> str:
    """The bytes of x, a ``string`` (UTF-8, lone surrogates kept) or ``bytes`` value."""
    return f'{x}.encode("utf-8", "surrogateescape")' if is_string(t) else x


def plain_format(e: ir.Type, enums: bool) -> str | None:
    """The one struct format character of a collection's element that is its Python value as it is
    (an enum's too, when written: `enums`), or None: such a vector, list or set goes out and in with
    one call (fbe.buffer.write_plain_seq, ``struct.unpack_from``)."""
    fmt = slot_fmt(e)
    return fmt if (is_plain(e) or enums and isinstance(e, ir.EnumRef)) and len(fmt) == 1 else None


def each(var: str, items: str, decimal: bool) -> str:
    """A comprehension's ``for`` clause over items; with ``i``, the item's index, for a decimal's error."""
    return f"i, {var} in enumerate({items})" if decimal else f"{var} in {items}"


def nraw(t: ir.Type) -> int:
    """How many values ``struct`` unpacks for a slot of type t."""
    if isinstance(t, ir.Optional_):
        return 2
    if isinstance(t, ir.Array):
        return 1 if packed_array(t) else nraw(t.element) * t.length
    return 1


def check_size(fmt: str, expected: int) -> None:
    """The IR's slot sizes and our layouts must agree (never recomputed, only checked)."""
    got = struct.calcsize("<" + fmt)
    if got != expected:
        raise AssertionError(f"layout {fmt!r} is {got} bytes, the IR says {expected}")


def order_key(t: ir.Type) -> str | None:
    """The sort key of a value of type t whose order is not the Python value's (_order), else None."""
    order = _order(t)
    return order[0] if order else None


def _order(t: ir.Type) -> tuple[str, str] | None:
    """The sort keys of a set element and of map items whose order is not the Python value's: a ``char``
    orders as C++'s signed char (the IR's primitive table), flags of a signed type as their signed value
    (Python holds them unsigned: an ``IntFlag`` has no negative members)."""
    if isinstance(t, ir.Primitive) and t.info.order == "signed":
        return "fbe.buffer.char_order", "fbe.buffer.first_char"
    if isinstance(t, ir.EnumRef) and t.kind == "flags" and (ir.PRIMITIVES[t.wire].range or (0, 0))[0] < 0:
        return f"fbe.buffer.signed{t.bits}", f"fbe.buffer.first_signed{t.bits}"
    return None


def set_order(t: ir.Array | ir.Sequence, x: str) -> str:
    """The elements of a set (or the items of a vector/list) in the original's order:
    ascending as std::set, a ``char`` as C++'s signed char, flags of a signed type by their signed value."""
    if t.kind != "set":
        return x
    order = _order(t.element)
    return f"sorted({x}, key={order[0]})" if order else f"sorted({x})"


def items_key(t: ir.Mapping) -> str:
    """The sort key of a map's items: std::map order, :func:`set_order`'s of its keys."""
    order = _order(t.key)
    return order[1] if order else "fbe.buffer.first"


def map_order(t: ir.Mapping, x: str) -> str:
    """The items of a map in std::map order (:func:`items_key`); a hash's as stored."""
    if t.kind != "map":
        return f"{x}.items()"
    return f"sorted({x}.items(), key={items_key(t)})"


def ordered(t: ir.Array | ir.Sequence | ir.Mapping, x: str) -> str:
    """A collection's items in the original's order: set_order's elements, map_order's key-value pairs."""
    return map_order(t, x) if isinstance(t, ir.Mapping) else set_order(t, x)


def parts(t: ir.Array | ir.Sequence | ir.Mapping) -> tuple[ir.Type, ...]:
    """What one item of a collection holds, in the order of its slots: its element, or a key and a value."""
    return (t.key, t.value) if isinstance(t, ir.Mapping) else (t.element,)


def tkey(t: ir.Type) -> str:
    """A stable identifier fragment naming a type (for shared helper functions)."""
    if isinstance(t, ir.Primitive):
        return t.name
    if isinstance(t, (ir.EnumRef, ir.StructRef)):
        return t.name.replace(".", "_")
    if isinstance(t, ir.Optional_):
        return "o_" + tkey(t.element)
    if isinstance(t, ir.Array):
        return f"a{t.length}_" + tkey(t.element)
    return t.kind[0] + "_" + "__".join(tkey(part) for part in parts(t))


class Context(DefaultLiterals):
    """The package being generated, name resolution and the emitted helpers."""

    SPELLS_ZERO = True
    BOOLS = ("False", "True")

    def __init__(self, schema: ir.Schema, package: ir.Package, options: Options) -> None:
        self.schema = schema
        self.package = package
        self.options = options
        self.helpers: dict[str, list[str]] = {}
        self.helper_order: list[str] = []
        self.constants: dict[str, str] = {}
        self.layouts: dict[str, str] = {}
        self.file = GeneratedFile(f"{module_name(package.name)}.py")  # its imports: what the code uses
        self.ident = Idents(schema)  # the identifiers of schema names (names.py)
        self.aliases: set[str] = set()  # module aliases of names an __init__ parameter hides (types.py)
        self.plan = plan.of(schema)

    # ------------------------------------------------------------ names

    def module_alias(self, pkg: str) -> str:
        return "pkg_" + pkg

    def ref(self, qualified: str, prefix: str = "", local: str = "") -> str:
        """A class (prefix ""), per-type function (prefix "fbe_vr_" ...) or the module's `local` name
        of a qualified type (a model class), qualified by its module when imported."""
        pkg, _, name = qualified.rpartition(".")
        local = local or (prefix + name if prefix else self.ident.type(qualified))
        if pkg == self.package.name:
            return local
        return self.file.qualified(module_name(pkg), local, self.module_alias(pkg))

    def writer(self) -> CodeWriter:
        """A code writer indenting as the options say (``-n INDENT``, ``-t``)."""
        return CodeWriter(self.options)

    def std(self, module: str, name: str) -> str:
        """``name`` from a standard-library module (``from typing import Any``), imported by use."""
        return self.file.imported(module, name)

    def hint(self, t: ir.Type) -> str:
        if isinstance(t, ir.Primitive):
            if t.name == "uuid":
                return self.file.qualified("uuid", "UUID")
            if t.name == "decimal":
                return self.std("decimal", "Decimal")
            return PRIM_HINT[t.name]
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.ref(t.name)
        if isinstance(t, ir.Optional_):
            return self.hint(t.element) + " | None"
        if isinstance(t, (ir.Array, ir.Sequence)):
            return f"{'set' if t.kind == 'set' else 'list'}[{self.hint(t.element)}]"
        assert isinstance(t, ir.Mapping)
        return f"dict[{self.hint(t.key)}, {self.hint(t.value)}]"

    def scalar(self, t: ir.Primitive | ir.EnumRef, raw: str, pos: str, field: str) -> str:
        """The value of a scalar from its raw value (the same in both models); pos and field are
        expressions of its absolute position and its field's name, which a decimal's error names."""
        if isinstance(t, ir.EnumRef):
            return f"{self.ref(t.name, 'FBE_M_')}[{raw}]"  # a dict hit for declared values (fbe.EnumMembers)
        if t.name == "decimal":
            return f"fbe.decode_decimal({raw}, {pos}, {field})"
        if t.name == "uuid":
            return f"{self.file.qualified('uuid', 'UUID')}(bytes={raw})"
        return raw

    def plain_items(self, t: ir.Sequence, n: str, at: str) -> str | None:
        """A vector, list or set of ``n`` plain values read at ``at`` with one unpack (plain_format), or None."""
        fmt = plain_format(t.element, False)
        if fmt is None:
            return None
        unpack = self.file.qualified("struct", "unpack_from")
        return ("set" if t.kind == "set" else "list") + f'({unpack}(f"<{{{n}}}{fmt}", r.data, {at}))'

    # ------------------------------------------------------------ emitted pieces

    def function(self, name: str, signature: str, body: Callable[[CodeWriter], None]) -> str:
        """A shared helper function, ``def <name><signature>:`` and the statements ``body`` writes,
        emitted once (the module lists them in the order they were finished); its name."""
        if name not in self.helpers:
            self.helpers[name] = []
            code = self.writer()
            with code.block(f"def {name}{signature}:"):
                body(code)
            self.helpers[name] = code.text().splitlines()
            self.helper_order.append(name)
        return name

    def layout(self, fmt: str) -> str:
        """A module-level precompiled ``struct.Struct`` for a little-endian format."""
        fmt = "<" + fmt
        if fmt not in self.layouts:
            self.layouts[fmt] = f"FBE_L{len(self.layouts)}"
        return self.layouts[fmt]

    def constant(self, expr: str) -> str:
        """A module-level constant holding ``expr`` (evaluated once at import)."""
        if expr not in self.constants:
            self.constants[expr] = f"FBE_C{len(self.constants)}"
        return self.constants[expr]

    # ------------------------------------------------------------ defaults

    def default_value(self, f: ir.Field) -> tuple[str, bool]:
        """(expression, per_instance) of a field's default.

        ``per_instance`` is True when the default must be made for each
        instance (mutable containers, structs, ``utc``, ``uuid1``/``uuid4``).
        """
        t, d = f.type, f.default
        if d.kind in ("null", "none"):
            return ("None", False) if d.kind == "null" else self.zero_value(t)  # an optional's zero: None
        expr = self.scalar_default(t.element if isinstance(t, ir.Optional_) else t, d)
        assert expr is not None
        return expr, d.kind in ("utc", "uuid1", "uuid4")

    def default_arg(self, f: ir.Field) -> str:
        """What to pass to the constructor so that the field gets its schema default."""
        expr, per_instance = self.default_value(f)
        if not per_instance:
            return expr
        return "fbe.DEFAULT" if isinstance(f.type, ir.Optional_) else "None"

    def zero_value(self, t: ir.Type) -> tuple[str, bool]:
        if isinstance(t, ir.Primitive):
            return {"string": '""', "bytes": 'b""', "uuid": "fbe.NIL_UUID"}.get(t.name) or self.int_default(t, 0), False
        if isinstance(t, ir.EnumRef):
            return self.flags_default(t.name, 0), False
        if isinstance(t, ir.StructRef):
            return f"{self.ref(t.name)}()", True
        if isinstance(t, ir.Array):
            return f"[{self.zero_value(t.element)[0]} for _ in range({t.length})]", True
        if isinstance(t, ir.Optional_):
            return "None", False
        return EMPTY[t.kind], True

    def made_default(self, kind: str) -> str:
        return f"fbe.{kind}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        name = t.name if isinstance(t, ir.Primitive) else ""
        if name in ("float", "double"):
            return repr(float(value))
        if name == "decimal":
            return self.constant(f"{self.std('decimal', 'Decimal')}({value})")
        return self.BOOLS[bool(value)] if name == "bool" else repr(value)

    def real_default(self, t: ir.Type, text: str) -> str:
        if isinstance(t, ir.Primitive) and t.name == "decimal":
            decimal = self.std("decimal", "Decimal")
            return self.constant(f"{decimal}({int(text)})" if text.lstrip("-").isdigit() else f'{decimal}("{text}")')
        return repr(float32(float(text)) if isinstance(t, ir.Primitive) and t.name == "float" else float(text))

    def string_default(self, text: str) -> str:
        return repr(text)

    def uuid_default(self, uuid: str) -> str:
        if uuid == ir.NIL_UUID:
            return "fbe.NIL_UUID"
        return self.constant(f'{self.file.qualified("uuid", "UUID")}("{uuid}")')

    def enum_value(self, enum: str, name: str) -> str:
        return f"{self.ref(enum)}.{self.ident.value(enum, name)}"

    def flags_default(self, flags: str, value: int) -> str:
        """Its first member of the value, else the value made at import."""
        cls = self.ref(flags)
        m = next((self.ident.value(flags, v.name) for v in self.schema.enum(flags).values if v.value == value), None)
        return f"{cls}.{m}" if m else self.constant(f"{cls}({value})")

    def model_class(self, s: ir.Struct, final: bool) -> list[str]:
        """The model class of a struct (`OrderModel`, final: `OrderFinalModel`): its struct class, whose
        ``fbe_codec`` (codec_lines) the runtime's model runs and whose type id is the model's."""
        code = self.writer()
        base, what = ("FinalModel", "Final model") if final else ("Model", "Versioned model")
        with code.block(f"class {self.ident.model(s.qualified, final)}(fbe.{base}[{self.ident.type(s.qualified)}]):"):
            code.line(f'"""{what} of {s.name}: ' + ("compact, no versioning (docs/format.md section 4)." if final
                      else "serialize, deserialize, verify (docs/format.md section 3).") + '"""')
            code.blank()
            code.line(f"fbe_struct = {self.ident.type(s.qualified)}")
        return code.text().splitlines() + ["", ""]

    def codec_lines(self) -> list[str]:
        """Each struct class's codec (fbe.bind): its generated functions, which its shortcuts
        (``to_fbe``...), its models and the protocol classes run, its entry in the native core and
        its key fields."""
        if not self.package.structs:
            return []
        code = self.writer()
        code.line("# each class's generated functions and its native core entry, which its to_fbe, from_fbe... run")
        for index, s in enumerate(self.package.structs):
            args = [self.ident.type(s.qualified), f'"{s.qualified}"', "FBE_CORE", str(index),
                    f"(fbe_vw_{s.name}, fbe_vr_{s.name})"]
            if self.options.final:
                args.append(f"final=fbe_fr_{s.name}")  # its writer the runtime's (fbe.final)
            if self.options.json:
                args.append(f"json_cost={s.decode_cost}")
            if not self.plan.struct(s.qualified).bounded:
                args.append("depth=True")
            if s.key_fields:   # fbe_key and fbe_order, which equality, hashing and ordering compare
                args.append("keys=" + py_tuple([f'"{self.ident.field(f)}"' for f in s.key_fields]))
            with code.block("fbe.bind(", ")"):
                for arg in args:
                    code.line(f"{arg},")
        return code.text().splitlines()
