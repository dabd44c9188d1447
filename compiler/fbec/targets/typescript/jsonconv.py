"""JSON of fbec --typescript --json (docs/format.md 8): straight-line member code on the runtime's
fbe.JsonWriter and fbe.JsonReader; a field holding an array or a collection by the runtime's walk over
its type spec (fbe.writeJsonField, fbe.readJsonField); the mapping rules (keys, floats, decimals,
bytes) live in the runtime."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import SLOT_KINDS, CodeWriter, Locals, RawText, json_object
from fbec.targets.typescript.context import BIGINTS, Context
from fbec.targets.typescript.models import assign, guarded, struct_costs, within_field
from fbec.targets.typescript.textform import type_spec

VALUE = {"bool": "bool", "string": "string", "bytes": "bytes", "decimal": "decimal", "uuid": "uuid",
         "float": "double", "double": "double", "timestamp": "u64"}
"""The fbe.JsonWriter method of a value that is not an integer, and a timestamp's (an integer's: its slot kind)."""
READ = {"bool": "bool", "string": "string", "bytes": "bytes", "decimal": "decimal", "uuid": "uuid",
        "float": "float", "double": "double", "char": "char"}
"""The fbe.JsonReader method of a primitive's value that is not an integer."""


class Raw(RawText):
    """Literal text of the JSON writer `j`, merged into one `j.raw(...)` call until the next statement."""

    def write(self, text: str) -> str:
        quote = "'" if '"' in text else '"'
        return f"j.raw({quote}{text}{quote});"


def holds_items(t: ir.Type) -> bool:
    """Whether t is an array or a collection (or an optional one): JSON writes and reads a field of type t
    by the runtime's walk over the field's type spec (fbe.writeJsonField, fbe.readJsonField)."""
    return isinstance(t, (ir.Array, ir.Sequence, ir.Mapping)) or isinstance(t, ir.Optional_) and holds_items(t.element)


def json_write(c: Context, raw: Raw, t: ir.Type, x: str, within: str, names: Locals) -> None:
    """Write x (type t: a primitive, an enum, a struct or an optional one) as JSON (docs/format.md 8.2)
    (`within`: where it is, as write_value's)."""
    w = raw.w
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        name = ir.wire_name(t)
        raw.line(f"j.{VALUE.get(name) or SLOT_KINDS[name].lower()}({x});")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        guarded(w, c, t, f"{c.named(t.name)}.fbeWriteJson(j, {x});", within)
    else:
        assert isinstance(t, ir.Optional_)
        o = names("o")
        raw.line(f"const {o} = {x};")
        with w.if_else(f"if ({o} === undefined) {{", "j.null();"):
            json_write(c, raw, t.element, o, within, names)
            raw.flush()


def write_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeWriteJson (the struct's object) and toJson()."""
    plan = c.plan.struct(s.qualified)
    bounded = plan.bounded
    names = Locals()
    with c.member(w, "/** Writes v as a JSON object (docs/format.md 8). */",
                     f"static {c.over}", "fbeWriteJson", [("j", c.rt("JsonWriter", False)), ("v", name)], "void"):
        if not bounded:
            w.line("j.enter();")
        raw = Raw(w)

        def member(f: ir.Field) -> None:
            if holds_items(f.type):
                raw.line(f'{c.rt("writeJsonField")}(j, "{f.name}", {type_spec(c, f.type)}, v.{c.ident.field(f)});')
            else:
                json_write(c, raw, f.type, f"v.{c.ident.field(f)}", within_field(f.name), names)
        json_object(raw, s.all_fields, member)
        if not bounded:
            w.line("j.leave();")
    with c.member(w, "/** This value as FBE JSON (docs/format.md 8): compact, the original's text. */",
                     c.over, "toJson", [], "string"):
        w.line(f"return {c.rt('toJson')}({name}, this);")


# ---------------------------------------------------------------- JSON reading

def json_expr(c: Context, t: ir.Type, x: str, f: str, into: str = "") -> str:
    """The expression reading a primitive, enum or struct from the parsed JSON value x: an integer (an
    enum's by its wire type) in its range (docs/limits.md 7), a struct into the default value `into`
    when given."""
    if isinstance(t, ir.StructRef):
        return f"{c.named(t.name)}.fbeReadJson(r, {x}{', ' + into if into else ''})"
    assert isinstance(t, (ir.Primitive, ir.EnumRef)), t
    name = ir.wire_name(t)
    if name in READ:
        return f'r.{READ[name]}({x}, "{f}")'
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    if name in BIGINTS:
        return f'r.int64({x}, {lo}n, {hi}n, "{f}")'
    return f'r.int({x}, {lo}, {hi}, "{f}")'


def json_read(c: Context, w: CodeWriter, t: ir.Type, x: str, f: str, target: str, within: str,
              in_place: bool = False) -> None:
    """Read the parsed JSON value x (type t: a primitive, an enum, a struct or an optional one) into the
    lvalue target; a struct into the default target holds when `in_place` (as models.read_value)."""
    if isinstance(t, ir.Optional_):
        with w.if_else(f"if ({x} === null) {{", f"{target} = undefined;"):
            json_read(c, w, t.element, x, f, target, within)
        return
    into = target if in_place and isinstance(t, ir.StructRef) else ""
    assign(w, c, t, target, json_expr(c, t, x, f, into), within, bool(into))


def write_json_read(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeReadJson (a struct from its parsed object) and fromJson."""
    with c.member(w, "/**\n"
                     " * Reads a value from its parsed JSON object, into `into` as fbeRead; members the document "
                     "leaves\n * out keep their defaults.\n"
                     " */",
                     f"static {c.over}", "fbeReadJson",
                     [("r", c.rt("JsonReader", False)), ("x", "unknown"), ("into?", name)], name):
        w.line(f"const o = r.struct(x, {struct_costs(s)});" if s.all_fields else f"r.struct(x, {struct_costs(s)});")
        w.line(f"const v = into ?? new {name}();")
        if s.all_fields:
            w.line(f"let m{c.annot('unknown')};")
        for f in c.plan.struct(s.qualified).fields:
            w.line(f'm = r.member(o, "{f.name}");')
            # a missing member keeps its default, charged when it holds struct values (docs/limits.md 3)
            with w.if_else("if (m === undefined) {", f'r.spend({f.default_cost}, "{f.name}");') if f.default_cost \
                    else w.block("if (m !== undefined) {", "}"):
                prop = f"v.{c.ident.field(f.field)}"
                if holds_items(f.type):     # a fixed array into the one the constructor made
                    w.line(f'{prop} = {c.rt("readJsonField")}(r, "{f.name}", {type_spec(c, f.type)}, m, {prop});')
                else:
                    json_read(c, w, f.type, "m", f.name, prop, within_field(f.name), True)
        w.line("r.leave();")
        w.line("return v;")
    with c.member(w, ("/** The value of FBE JSON text (or its UTF-8 bytes); a DecodeError names what is wrong "
                      "and where. */"),
                     f"static {c.over}", "fromJson",
                     [("text", "string | Uint8Array"), ("limits?", c.rt("Limits", False))], name):
        w.line(f"return {c.rt('fromJson')}({name}, text, limits);")
