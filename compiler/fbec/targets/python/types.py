"""Domain types: enums (fbe.Enum), flags (fbe.Flags) and their text form (docs/format.md 9), struct classes."""

from __future__ import annotations

import re

from fbec.model import ir
from fbec.targets.base import CodeWriter

from .context import Context, py_tuple


def enum_class(ctx: Context, e: ir.Enum) -> list[str]:
    """An enum's class (fbe.Enum: undeclared values kept) or a flags' (fbe.Flags: has_flags), the
    members of its wire values (FBE_M_) and the names of its text form (``fbe_names``: an enum's first
    name of each value, flags' every name and value; the runtime's ``__str__`` prints them)."""
    note = " Deprecated." if e.deprecated else ""
    cls = ctx.ident.type(e.qualified)
    code = ctx.writer()
    with code.block(f"class {cls}(fbe.{'Flags' if e.kind == 'flags' else 'Enum'}):"):
        code.line(f'"""{e.kind} {e.qualified} ({e.underlying}, stored as {e.wire}).{note}"""')
        code.blank()
        for v in e.values:
            code.line(f"{ctx.ident.value(e.qualified, v.name)} = {v.value}")
    code.blank(2)
    code.line(f"FBE_M_{e.name}: fbe.EnumMembers[{cls}] = fbe.EnumMembers({cls})")
    if e.kind == "flags":
        code.line(f"{cls}.fbe_names = " + py_tuple([f'("{v.name}", {v.value})' for v in e.values]))
    else:
        code.line(f"{cls}.fbe_names = {{" + ", ".join(f'{v.value}: "{v.name}"' for v in e.text_values) + "}")
    return code.text().splitlines() + ["", ""]


def _natural(name: str) -> list[object]:
    """Natural sort key (``f2`` before ``f10``), the order ruff expects for ``__slots__``."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", name)]


def struct_class(ctx: Context, s: ir.Struct) -> list[str]:
    cls = ctx.ident.type(s.qualified)
    base = ctx.ref(s.base) if s.base else "fbe.Struct"
    code = ctx.writer()
    for name in _hidden_in_init(ctx, s):
        if name not in ctx.aliases:
            ctx.aliases.add(name)
            code.line(f"FBE_R_{name} = {name}  # {cls}.__init__ takes a field {name}, which hides it there")
            code.blank(2)
    with code.block(f"class {cls}({base}):"):
        _struct_head(ctx, code, s)
        _constructor(ctx, code, s)
    return code.text().splitlines() + ["", ""]


def _struct_head(ctx: Context, code: CodeWriter, s: ir.Struct) -> None:
    """The docstring, __slots__, the class variables and the field annotations."""
    cls = ctx.ident.type(s.qualified)
    kind = "message" if s.message else "struct"
    code.line(f'"""{kind} {s.qualified} (type {s.type_id}).')
    code.blank()
    code.line(f"Keyword construction: ``{cls}({', '.join(ctx.ident.field(f) + '=...' for f in s.all_fields[:3])}"
              f"{', ...' if len(s.all_fields) > 3 else ''})``; omitted fields get their schema defaults.")
    deprecated = [f.name for f in s.all_fields if f.deprecated]
    notes = ["Deprecated."] if s.deprecated else []
    for note in notes + ([f"Deprecated fields: {', '.join(deprecated)}."] if deprecated else []):
        code.blank()
        code.line(note)
    code.line('"""')
    code.blank()
    own = [f'"{n}"' for n in sorted(map(ctx.ident.field, s.fields), key=_natural)]
    code.line(f"__slots__ = {py_tuple(own)}")
    code.line(f"fbe_type: {ctx.std('typing', 'ClassVar')}[int] = {s.type_id}")
    code.blank()
    for f in s.fields:
        code.line(f"{ctx.ident.field(f)}: {ctx.hint(f.type)}")
    code.blank()


_CALLED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?=[.(])")
"""A name an expression calls or takes an attribute of (``Balance()``, ``fbe.utc()``, ``range(3)``),
not a comprehension's variable (``_``)."""


def _hidden_in_init(ctx: Context, s: ir.Struct) -> list[str]:
    """The names a default made per instance in __init__'s body uses (a class, `set`, `range`, a
    module) that a parameter of __init__ hides: a field the struct inherits, named by its base (which
    does not know the names its derived structs use), or a field the struct's hints do not take
    (`range`). The body calls them through a module alias (FBE_R_<name>) instead."""
    params = {ctx.ident.field(f) for f in s.all_fields}
    made = [expr for expr, per_instance in map(ctx.default_value, s.all_fields) if per_instance]
    used = [name for expr in made for name in _CALLED.findall(expr)]
    return [name for name in dict.fromkeys(used) if name in params]


def _constructor(ctx: Context, code: CodeWriter, s: ir.Struct) -> None:
    """__init__ with every field a keyword argument defaulting to the schema's default."""
    params = []
    body = []
    hidden = _hidden_in_init(ctx, s)
    for f in s.all_fields:
        n = ctx.ident.field(f)
        hint = ctx.hint(f.type)
        expr, per_instance = ctx.default_value(f)
        if per_instance:
            expr = _CALLED.sub(lambda m: "FBE_R_" + m.group() if m.group() in hidden else m.group(), expr)
        if not per_instance:
            params.append(f"{n}: {hint} = {expr}")
            body.append(f"self.{n} = {n}")
            continue
        # made for each instance: a parameter left out is a marker (an optional's may be None)
        marker, value = ("fbe.Default", "fbe.DEFAULT") if isinstance(f.type, ir.Optional_) else ("None", "None")
        params.append(f"{n}: {hint} | {marker} = {value}")
        body.append(f"self.{n} = {expr} if {n} is {value} else {n}")
    if not params:
        with code.block("def __init__(self) -> None:"):
            code.line("pass")
        return
    with code.block("def __init__(", ") -> None:"):
        code.line("self,")
        for p in params:
            code.line(f"{p},")
    with code.indented():
        for b in body:
            code.line(b)
