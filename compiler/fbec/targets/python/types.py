"""Domain types: enums (IntEnum), flags (IntFlag), struct classes and their text form (docs/format.md 9)."""

from __future__ import annotations

import re

from fbec.model import ir

from .context import Context, ident, map_order, member_ident, set_order

IND = "    "


def enum_class(ctx: Context, e: ir.Enum) -> list[str]:
    flags = e.kind == "flags"
    base = ctx.std("enum", "IntFlag" if flags else "IntEnum")
    note = " Deprecated." if e.deprecated else ""
    out = [f"class {ident(e.name)}({base}):",
           f'{IND}"""{e.kind} {e.qualified} ({e.underlying}, stored as {e.wire}).{note}"""', ""]
    for v in e.values:
        out.append(f"{IND}{member_ident(v.name)} = {v.value}")
    out.append("")
    if not flags:
        out += [f"{IND}@classmethod",
                f"{IND}def _missing_(cls, value: object) -> {ident(e.name)} | None:",
                f"{IND * 2}return fbe.enum_missing(cls, value)", ""]
    else:
        out += [f"{IND}def has_flags(self, flags: int) -> bool:",
                f'{IND * 2}"""True when every bit of ``flags`` is set."""',
                f"{IND * 2}return (int(self) & int(flags)) == int(flags)", ""]
    out += [f"{IND}def __str__(self) -> str:", f"{IND * 2}return fbe_tx_{e.name}(self)", "", ""]
    cls = ident(e.name)
    out += [f"FBE_M_{e.name}: fbe.EnumMembers[{cls}] = fbe.EnumMembers({cls})", "", ""]
    if flags:
        pairs = ", ".join(f'("{v.name}", {v.value})' for v in e.values)
        out += [f"FBE_N_{e.name}: tuple[tuple[str, int], ...] = ({pairs}{',' if len(e.values) == 1 else ''})", "", "",
                f"def fbe_tx_{e.name}(value: int) -> str:",
                f'{IND}"""Text form: the declared flags fully set in value, joined by |."""',
                f"{IND}return fbe.text.fmt_flags(value, FBE_N_{e.name})", "", ""]
    else:
        names: dict[int, str] = {}
        for v in e.values:
            names.setdefault(v.value, v.name)
        items = ", ".join(f'{k}: "{n}"' for k, n in names.items())
        out += [f"FBE_N_{e.name}: dict[int, str] = {{{items}}}", "", "",
                f"def fbe_tx_{e.name}(value: int) -> str:",
                f'{IND}"""Text form: the first declared name with this value, else <unknown>."""',
                f'{IND}return FBE_N_{e.name}.get(int(value), "<unknown>")', "", ""]
    return out


def text_expr(ctx: Context, t: ir.Type, x: str, depth: int = 0) -> str:
    """An expression printing x (type t) in the original's text format."""
    if isinstance(t, ir.Primitive):
        n = t.name
        if n == "bool":
            return f'("true" if {x} else "false")'
        if n in ("float", "double"):
            return f"fbe.text.fmt_g({x})"
        if n == "decimal":
            return f"fbe.text.fmt_decimal({x})"
        if n == "char":
            return f"fbe.text.fmt_char({x})"
        if n == "wchar":
            return f"fbe.text.fmt_wchar({x})"
        if n == "string":
            return f"'\"' + {x} + '\"'"
        if n == "uuid":
            return f"'\"' + str({x}) + '\"'"
        if n == "bytes":
            return f'"bytes[" + str(len({x})) + "]"'
        return f"str(int({x}))"
    if isinstance(t, ir.EnumRef):
        return f"{ctx.ref(t.name, 'fbe_tx_')}({x})"
    if isinstance(t, ir.StructRef):
        return f"{ctx.ref(t.name, 'fbe_tx_')}({x})"
    if isinstance(t, ir.Optional_):
        return f'("null" if {x} is None else {text_expr(ctx, t.element, x, depth)})'
    e = f"e{depth}"
    if isinstance(t, (ir.Array, ir.Sequence)):
        opn, cls = ir.TEXT_BRACKETS[t.kind]
        it = set_order(t, x)
        inner = text_expr(ctx, t.element, e, depth + 1)
        return f'"[" + str(len({x})) + "]{opn}" + ",".join([{inner} for {e} in {it}]) + "{cls}"'
    assert isinstance(t, ir.Mapping)
    k, v = f"k{depth}", f"v{depth}"
    opn, cls = ir.TEXT_BRACKETS[t.kind]
    it = map_order(t, x)
    kx = text_expr(ctx, t.key, k, depth + 1)
    vx = text_expr(ctx, t.value, v, depth + 1)
    return f'"[" + str(len({x})) + "]{opn}" + ",".join([{kx} + "->" + {vx} for {k}, {v} in {it}]) + "{cls}"'


def text_function(ctx: Context, s: ir.Struct) -> list[str]:
    cls = ident(s.name)
    parts: list[str] = []
    first = True
    own = s.fields
    if s.base is not None:
        parts.append(f"{ctx.ref(s.base, 'fbe_tx_')}(v)")
        first = False
    else:
        own = s.all_fields
    for f in own:
        sep = "" if first else ","
        first = False
        if f.hidden:
            parts.append(f'"{sep}{f.name}=***"')
        else:
            parts.append(f'"{sep}{f.name}="')
            parts.append(text_expr(ctx, f.type, f"v.{ident(f.name)}"))
    out = [f"def fbe_tx_{s.name}(v: {cls}) -> str:",
           f'{IND}"""{s.name} in the original text format (docs/format.md section 9)."""']
    if not parts:
        out.append(f'{IND}return "{s.name}()"')
    else:
        out.append(f'{IND}return "".join((')
        out.append(f'{IND * 2}"{s.name}(",')
        for p in parts:
            out.append(f"{IND * 2}{p},")
        out.append(f'{IND * 2}")",')
        out.append(f"{IND}))")
    return out + ["", ""]


def _natural(name: str) -> list[object]:
    """Natural sort key (``f2`` before ``f10``), the order ruff expects for ``__slots__``."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", name)]


def struct_class(ctx: Context, s: ir.Struct) -> list[str]:
    o = ctx.options
    cls = ident(s.name)
    base = ctx.ref(s.base) if s.base else "fbe.Struct"
    kind = "message" if s.message else "struct"
    out = [f"class {cls}({base}):",
           f'{IND}"""{kind} {s.qualified} (type {s.type_id}).', "",
           (f"{IND}Keyword construction: ``{cls}({', '.join(ident(f.name) + '=...' for f in s.all_fields[:3])}"
           f"{', ...' if len(s.all_fields) > 3 else ''})``; omitted fields get their schema defaults."),
           ]
    deprecated = [f.name for f in s.all_fields if f.deprecated]
    if s.deprecated:
        out += ["", f"{IND}Deprecated."]
    if deprecated:
        out += ["", f"{IND}Deprecated fields: {', '.join(deprecated)}."]
    out += [f'{IND}"""', ""]
    own = ", ".join(f'"{n}"' for n in sorted((ident(f.name) for f in s.fields), key=_natural))
    out.append(f"{IND}__slots__ = ({own}{',' if len(s.fields) == 1 else ''})")
    allf = ", ".join(f'"{ident(f.name)}"' for f in s.all_fields)
    out.append(f"{IND}fbe_fields: {ctx.std('typing', 'ClassVar')}[tuple[str, ...]] = "
               f"({allf}{',' if len(s.all_fields) == 1 else ''})")
    out.append(f"{IND}fbe_type: ClassVar[int] = {s.type_id}")
    out.append("")
    for f in s.fields:
        out.append(f"{IND}{ident(f.name)}: {ctx.hint(f.type)}")
    if s.fields:
        out.append("")

    # constructor
    params = []
    body = []
    for f in s.all_fields:
        n = ident(f.name)
        hint = ctx.hint(f.type)
        expr, per_instance = ctx.default_value(f)
        if not per_instance:
            params.append(f"{n}: {hint} = {expr}")
            body.append(f"self.{n} = {n}")
        elif isinstance(f.type, ir.Optional_):
            params.append(f"{n}: {hint} | fbe.Default = fbe.DEFAULT")
            body.append(f"self.{n} = {expr} if {n} is fbe.DEFAULT else {n}")
        else:
            params.append(f"{n}: {hint} | None = None")
            body.append(f"self.{n} = {expr} if {n} is None else {n}")
    if params:
        out.append(f"{IND}def __init__(")
        out.append(f"{IND * 2}self,")
        for p in params:
            out.append(f"{IND * 2}{p},")
        out.append(f"{IND}) -> None:")
        out += [IND * 2 + b for b in body]
    else:
        out += [f"{IND}def __init__(self) -> None:", f"{IND * 2}pass"]
    out.append("")

    # key-based equality, hashing and ordering
    keys = [ident(k) for k in s.keys]
    mine = "(" + "".join(f"self.{k}, " for k in keys).rstrip(", ") + ("," if len(keys) == 1 else "") + ")"
    theirs = mine.replace("self.", "other.")
    out += [f"{IND}def __eq__(self, other: object) -> bool:",
            f"{IND * 2}if not isinstance(other, {cls}):",
            f"{IND * 3}return NotImplemented",
            f"{IND * 2}return {mine} == {theirs}" if keys else f"{IND * 2}return True", "",
            f"{IND}def __hash__(self) -> int:",
            f"{IND * 2}return hash({mine})", ""]
    for op, sym in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")):
        out += [f"{IND}def __{op}__(self, other: object) -> bool:",
                f"{IND * 2}if not isinstance(other, {cls}):",
                f"{IND * 3}return NotImplemented",
                f"{IND * 2}return {mine} {sym} {theirs}", ""]
    out += [f"{IND}def __str__(self) -> str:", f"{IND * 2}return fbe_tx_{s.name}(self)", ""]

    # shortcuts
    out += [f"{IND}def to_fbe(self) -> bytes:",
            f'{IND * 2}"""This value as a versioned root (docs/format.md section 3)."""',
            f"{IND * 2}return bytes(fbe.encode_versioned(fbe_vw_{s.name}, {ctx.writable(s.qualified, 'self')}))", "",
            f"{IND}@classmethod",
            f"{IND}def from_fbe(cls, data: bytes | bytearray | memoryview, limits: fbe.Limits | None = None) -> {cls}:",
            f'{IND * 2}"""Decode a versioned root; raises fbe.DecodeError on bad input (docs/limits.md)."""',
            f"{IND * 2}return fbe.decode_versioned(fbe_vr_{s.name}, data, limits)[0]", ""]
    if o.final:
        out += [f"{IND}def to_final(self) -> bytes:",
                f'{IND * 2}"""This value as a final root (docs/format.md section 4)."""',
                f"{IND * 2}return bytes(fbe.encode_final(fbe_fw_{s.name}, {ctx.writable(s.qualified, 'self')}, {s.type_id}))", "",
                f"{IND}@classmethod",
                f"{IND}def from_final(cls, data: bytes | bytearray | memoryview, limits: fbe.Limits | None = None) -> {cls}:",
                f'{IND * 2}"""Decode a final root; raises fbe.DecodeError on bad input (docs/limits.md)."""',
                f"{IND * 2}return fbe.decode_final(fbe_fr_{s.name}, data, {s.type_id}, limits)[0]", ""]
    if o.json:
        read = f'fbe_jr_{s.name}(fbe.jsonfmt.parse(text), "{s.name}", fbe.jsonfmt.budget(text, limits))'
        out += [f"{IND}def to_json(self) -> str:",
                f'{IND * 2}"""Compact JSON exactly as the original writes it (docs/format.md section 8)."""',
                f"{IND * 2}try:",
                f"{IND * 3}return fbe_js_{s.name}({ctx.writable(s.qualified, 'self')})",
                f"{IND * 2}except (TypeError, AttributeError, ValueError, OverflowError, KeyError, RecursionError) as e:",
                f"{IND * 3}raise fbe.EncodeError(fbe.explain(self, e)) from None", "",
                f"{IND}@classmethod",
                f"{IND}def from_json(cls, text: str | bytes, limits: fbe.Limits | None = None) -> {cls}:",
                f'{IND * 2}"""Parse JSON (missing members keep their defaults); raises fbe.DecodeError (docs/limits.md)."""',
                f'{IND * 2}return {ctx.readable(s.qualified, read)}', ""]
    return out + [""]
