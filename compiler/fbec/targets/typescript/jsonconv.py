"""JSON of fbec --typescript --json (docs/format.md 8): straight-line member code on the runtime's
fbe.JsonWriter; the mapping rules (keys, floats, decimals, bytes) live in the runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbec.model import ir
from fbec.targets.base import CodeWriter
from fbec.targets.typescript.models import Names, compare

if TYPE_CHECKING:
    from fbec.targets.typescript import Context

VALUE = {"bool": "bool", "string": "string", "bytes": "bytes", "decimal": "decimal", "uuid": "uuid",
         "float": "double", "double": "double"}
KEY = {"bool": "keyBool", "string": "keyString", "bytes": "keyBytes", "decimal": "keyDecimal", "uuid": "keyUuid",
       "float": "keyFloat", "double": "keyDouble"}


class Raw:
    """Literal text of the writer, merged into one `j.raw(...)` until the next statement."""

    def __init__(self, w: CodeWriter) -> None:
        self.w, self.pending = w, ""

    def __call__(self, text: str) -> None:
        self.pending += text

    def flush(self) -> None:
        if self.pending:
            quote = "'" if '"' in self.pending else '"'
            self.w.line(f"j.raw({quote}{self.pending}{quote});")
            self.pending = ""

    def line(self, text: str) -> None:
        self.flush()
        self.w.line(text)


def by_value(t: ir.Type) -> bool:
    from fbec.targets.typescript import by_value as bv
    return bv(t)


def json_write(c: Context, raw: Raw, t: ir.Type, x: str, names: Names) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2)."""
    w = raw.w
    if isinstance(t, ir.Primitive):
        raw.line(f"j.{VALUE.get(t.name, 'int')}({x});")
    elif isinstance(t, ir.EnumRef):
        raw.line(f"j.int({x});")
    elif isinstance(t, ir.StructRef):
        raw.line(f"{c.named(t.name)}.fbeWriteJson(j, {x});")
    elif isinstance(t, ir.Optional_):
        o = names("o")
        raw.line(f"const {o} = {x};")
        with w.block(f"if ({o} === undefined) {{", "} else {"):
            w.line("j.null();")
        with w.block("", "}"):
            json_write(c, raw, t.element, o, names)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        a, y, first = names("a"), names("y"), names("first")
        if isinstance(t, ir.Sequence) and t.kind == "set" and by_value(t.element):
            raw.line(f"const {a} = {c.rt('sortedValues')}({x}, {compare(c, t.element)});")
        else:
            raw.line(f"const {a} = {x};")
        raw("[")
        raw.line(f"let {first} = true;")
        with w.block(f"for (const {y} of {a}) {{", "}"):
            with w.block(f"if (!{first}) {{", "}"):
                w.line('j.raw(",");')
            w.line(f"{first} = false;")
            json_write(c, raw, t.element, y, names)
            raw.flush()
        raw("]")
    else:
        assert isinstance(t, ir.Mapping)
        m, k, y, first = names("m"), names("k"), names("y"), names("first")
        if by_value(t.key) and t.kind == "map":
            raw.line(f"const {m} = {c.rt('sortedEntries')}({x}, {compare(c, t.key)});")
        else:
            raw.line(f"const {m} = {x};")
        pairs = isinstance(t.key, ir.StructRef)     # a struct is not a member name: [key, value] pairs
        raw("[" if pairs else "{")
        raw.line(f"let {first} = true;")
        with w.block(f"for (const [{k}, {y}] of {m}) {{", "}"):
            with w.block(f"if (!{first}) {{", "}"):
                w.line('j.raw(",");')
            w.line(f"{first} = false;")
            if pairs:
                raw("[")
                json_write(c, raw, t.key, k, names)
                raw(",")
            else:
                raw.line(f"j.{key_method(t.key)}({k});")
            json_write(c, raw, t.value, y, names)
            if pairs:
                raw("]")
            raw.flush()
        raw("]" if pairs else "}")


def key_method(t: ir.Type) -> str:
    """The writer method of a map key of type t (docs/format.md 8.1)."""
    if isinstance(t, ir.Primitive):
        return KEY.get(t.name, "keyInt")
    return "keyInt"


def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteJson (the struct's object) and toJson()."""
    from fbec.targets.typescript import field_name
    over = "override " if s.base is not None else ""
    bounded = s.height is not None and not s.recursive
    names = Names()
    w.blank()
    w.line("/** Writes v as a JSON object (docs/format.md 8). */")
    with w.block(c.method(f"static {over}", "fbeWriteJson", [("j", c.rt("JsonWriter", False)), ("v", name)], "void"),
                 "}"):
        if not bounded:
            w.line("j.enter();")
        raw = Raw(w)
        raw("{")
        for i, f in enumerate(s.all_fields):
            raw(("," if i else "") + f'"{f.name}":')
            json_write(c, raw, f.type, f"v.{field_name(f)}", names)
        raw("}")
        raw.flush()
        if not bounded:
            w.line("j.leave();")
    w.blank()
    w.line("/** This value as FBE JSON (docs/format.md 8): compact, the original's text. */")
    with w.block(c.method(over, "toJson", [], "string"), "}"):
        w.line(f"const j = new {c.rt('JsonWriter')}();")
        with w.block("try {", "} catch (e) {"):
            w.line(f"{name}.fbeWriteJson(j, this);")
        with w.block("", "}"):
            w.line(f'throw {c.rt("rootOf")}(e, "{s.qualified}");')
        w.line("return j.text;")
