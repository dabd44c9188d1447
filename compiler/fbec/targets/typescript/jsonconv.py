"""JSON of fbec --typescript --json (docs/format.md 8): straight-line member code on the runtime's
fbe.JsonWriter; the mapping rules (keys, floats, decimals, bytes) live in the runtime."""

from __future__ import annotations

from fbec.model import ir
from fbec.targets.base import SLOT_KINDS, CodeWriter, Locals, RawText, json_object
from fbec.targets.typescript.context import BIGINTS, Context, add_item, new_collection, refuse_repeated
from fbec.targets.typescript.models import (
    assign,
    can_fail,
    guarded,
    in_order,
    struct_costs,
    within_field,
    within_index,
)

VALUE = {"bool": "bool", "string": "string", "bytes": "bytes", "decimal": "decimal", "uuid": "uuid",
         "float": "double", "double": "double"}
"""The fbe.JsonWriter method of a primitive's value that is not an integer."""
READ = {"bool": "bool", "string": "string", "bytes": "bytes", "decimal": "decimal", "uuid": "uuid",
        "float": "float", "double": "double", "char": "char"}
"""The fbe.JsonReader method of a primitive's value that is not an integer (a map key's: key<Method>)."""


def integer(t: ir.Primitive | ir.EnumRef) -> str:
    """The fbe.JsonWriter method suffix of an integer (an enum's or flags' by its wire type), which
    refuses what fbe.Writer refuses: `U8`, `I32`, `U64` (a timestamp)."""
    name = ir.wire_name(t)
    return "U64" if name == "timestamp" else SLOT_KINDS[name]


class Raw(RawText):
    """Literal text of the writer (`j`, or `t` for the text form), merged into one `.raw(...)`
    call until the next statement."""

    def __init__(self, w: CodeWriter, target: str = "j") -> None:
        super().__init__(w)
        self.target = target

    def write(self, text: str) -> str:
        quote = "'" if '"' in text else '"'
        return f"{self.target}.raw({quote}{text}{quote});"


def json_write(c: Context, raw: Raw, t: ir.Type, x: str, field: str, within: str, names: Locals) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2), a value of `field` (`within`: as write_value's)."""
    w = raw.w
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        raw.line(f"j.{VALUE.get(ir.wire_name(t)) or integer(t).lower()}({x});")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        guarded(w, c, t, f"{c.named(t.name)}.fbeWriteJson(j, {x});", within)
    elif isinstance(t, ir.Optional_):
        o = names("o")
        raw.line(f"const {o} = {x};")
        with w.if_else(f"if ({o} === undefined) {{", "j.null();"):
            json_write(c, raw, t.element, o, field, within, names)
            raw.flush()
    else:   # a collection: the runtime's j.items writes its items in order, each by a function of its own
        assert isinstance(t, (ir.Array, ir.Sequence, ir.Mapping))
        raw.flush()
        mapping = isinstance(t, ir.Mapping)
        pairs = isinstance(t, ir.Mapping) and isinstance(t.key, ir.StructRef)    # [key, value] pairs: a struct
        k, y = names("k") if mapping else "", names("y")                        # is not a member name
        parts = [t.key, t.value] if isinstance(t, ir.Mapping) else [t.element]
        indexed = any(isinstance(p, ir.StructRef) and can_fail(c, p) for p in parts)
        i = names("i") if indexed else ""      # the item's index, for the path of a struct's error
        params = (f"[{k}, {y}]" if mapping else y) + (f", {i}" if i else "")
        brackets = ', "{", "}"' if mapping and not pairs else ""
        with w.block(f"j.items({in_order(c, t, x, field, True)}, ({params}) => {{", f"}}{brackets});"):
            if not isinstance(t, ir.Mapping):
                json_write(c, raw, t.element, y, field, within_index(field, i), names)
            elif pairs:
                raw("[")
                json_write(c, raw, t.key, k, field, within_index(field, i), names)
                raw(",")
                json_write(c, raw, t.value, y, field, within_index(field, i), names)
                raw("]")
            else:
                raw.line(f"j.{key_method(t.key)}({k});")
                json_write(c, raw, t.value, y, field, within_index(field, i), names)
            raw.flush()


def key_method(t: ir.Type) -> str:
    """The writer method of a map key of type t (docs/format.md 8.1): a char's is its integer's."""
    assert isinstance(t, (ir.Primitive, ir.EnumRef))
    name = ir.wire_name(t)
    return "key" + (READ[name].title() if name in READ and name != "char" else integer(t))


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
        json_object(raw, s.all_fields, lambda f: json_write(c, raw, f.type, f"v.{c.ident.field(f)}", f.name,
                                                            within_field(f.name), names))
        if not bounded:
            w.line("j.leave();")
    with c.member(w, "/** This value as FBE JSON (docs/format.md 8): compact, the original's text. */",
                     c.over, "toJson", [], "string"):
        w.line(f"return {c.rt('toJson')}({name}, this);")


# ---------------------------------------------------------------- JSON reading

def scalar_read(t: ir.Type, x: str, f: str, key: bool = False) -> str:
    """The expression reading a primitive's or enum's value from the parsed JSON value x or, with key,
    a map key from its member-name text x: an integer (an enum's by its wire type) in its range
    (docs/limits.md 7)."""
    assert isinstance(t, (ir.Primitive, ir.EnumRef)), t
    name = ir.wire_name(t)
    if name in READ:
        return f'r.{"key" + READ[name].title() if key else READ[name]}({x}, "{f}")'
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    if name in BIGINTS:
        return f'r.{"keyInt64" if key else "int64"}({x}, {lo}n, {hi}n, "{f}")'
    return f'r.{"keyInt" if key else "int"}({x}, {lo}, {hi}, "{f}")'


def json_expr(c: Context, t: ir.Type, x: str, f: str, into: str = "") -> str:
    """The expression reading a primitive, enum or struct from the parsed JSON value x (a struct into
    the default value `into` when given)."""
    if isinstance(t, ir.StructRef):
        return f"{c.named(t.name)}.fbeReadJson(r, {x}{', ' + into if into else ''})"
    return scalar_read(t, x, f)


def json_read(c: Context, w: CodeWriter, t: ir.Type, x: str, f: str, target: str, within: str,
              names: Locals, in_place: bool = False) -> None:
    """Read the parsed JSON value x (type t) into the lvalue target; a struct or a fixed array into the
    default target holds when `in_place` (as models.read_value)."""
    if isinstance(t, (ir.Primitive, ir.EnumRef, ir.StructRef)):
        into = target if in_place and isinstance(t, ir.StructRef) else ""
        assign(w, c, t, target, json_expr(c, t, x, f, into), within, bool(into))
    elif isinstance(t, ir.Array) and in_place:
        e, a, i = names("e"), names("a"), names("i")
        w.line(f'const {e} = r.fixed({x}, {t.length}, "{f}");')
        w.line(f"const {a} = {target};")
        with w.block(f"for (let {i} = 0; {i} < {e}.length; {i}++) {{", "}"):
            json_read(c, w, t.element, f"{e}[{i}]", f, f"{a}[{i}]", within_index(f, i), names, True)
    elif isinstance(t, ir.Optional_):
        with w.if_else(f"if ({x} === null) {{", f"{target} = undefined;"):
            json_read(c, w, t.element, x, f, target, within, names)
    elif isinstance(t, (ir.Array, ir.Sequence)):
        e, a, i, y = names("e"), names("a"), names("i"), names("y")
        w.line(f'const {e} = r.fixed({x}, {t.length}, "{f}");' if isinstance(t, ir.Array) else
               f'const {e} = r.array({x}, {t.item_cost}, "{f}");')
        w.line(new_collection(c, t, a))
        with w.block(f"for (let {i} = 0; {i} < {e}.length; {i}++) {{", "}"):
            w.line(f"let {y}{c.annot(c.type(t.element))};")
            json_read(c, w, t.element, f"{e}[{i}]", f, y, within_index(f, i), names)
            add_item(w, t, a, y, f'r.duplicate("{f}", "element");')
        refuse_repeated(w, c, t, a, f'r.duplicate("{f}", "element");')
        w.line(f"{target} = {a};")
    else:
        assert isinstance(t, ir.Mapping)
        cost = t.item_cost
        e, m, i, k, y, key = names("e"), names("m"), names("i"), names("k"), names("y"), names("key")
        w.line(new_collection(c, t, m))
        if isinstance(t.key, ir.StructRef):
            w.line(f'const {e} = r.pairs({x}, {cost}, "{f}");')
            with w.block(f"for (let {i} = 0; {i} < {e}.length; {i}++) {{", "}"):
                w.line(f"let {k}{c.annot(c.type(t.key))};")
                w.line(f"let {y}{c.annot(c.type(t.value))};")
                bang = "!" if c.ts else ""
                json_read(c, w, t.key, f"{e}[{i}]{bang}[0]", f, k, within_index(f, i), names)
                json_read(c, w, t.value, f"{e}[{i}]{bang}[1]", f, y, within_index(f, i), names)
                w.line(f"{m}.push([{k}, {y}]);")
        else:
            w.line(f'const {e} = r.object({x}, {cost}, "{f}");')
            with w.block(f"for (const {key} of Object.keys({e})) {{", "}"):
                w.line(f"const {k} = {scalar_read(t.key, key, f, True)};")
                w.line(f"let {y}{c.annot(c.type(t.value))};")
                json_read(c, w, t.value, f"{e}[{key}]", f, y, f'within(e, "{f}[" + {key} + "]")', names)
                add_item(w, t, m, y, f'r.duplicate("{f}", "key");', k)
        refuse_repeated(w, c, t, m, f'r.duplicate("{f}", "key");')
        w.line(f"{target} = {m};")


def write_json_read(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """fbeReadJson (a struct from its parsed object) and fromJson."""
    names = Locals()
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
                json_read(c, w, f.type, "m", f.name, f"v.{c.ident.field(f.field)}", within_field(f.name), names,
                          True)
        w.line("r.leave();")
        w.line("return v;")
    with c.member(w, ("/** The value of FBE JSON text (or its UTF-8 bytes); a DecodeError names what is wrong "
                      "and where. */"),
                     f"static {c.over}", "fromJson",
                     [("text", "string | Uint8Array"), ("limits?", c.rt("Limits", False))], name):
        w.line(f"return {c.rt('fromJson')}({name}, text, limits);")
