"""JSON (fbec --go --json) and the text form of fbec --go: straight-line member code on the
runtime's fbe.JSONWriter, fbe.JSONReader and fbe.TextWriter (docs/format.md 8 and 9,
docs/limits.md 7)."""

from __future__ import annotations

from collections.abc import Callable

from fbec.model import ir
from fbec.targets.base import CodeWriter, Locals, RawText, json_object, text_struct
from fbec.targets.go.context import Context, braced, compare, decl, declared, entered, leave
from fbec.targets.go.models import (
    fails,
    in_order,
    paid_first,
    read_root,
    refuse_repeated,
    repeated,
    sorted_keys,
    stops,
)
from fbec.targets.go.nesting import check, counting

SIGNED = frozenset({"int8", "int16", "int32", "int64"})
RUNTIME_VALUES = {"float": "Float32", "double": "Float64", "decimal": "Decimal", "uuid": "UUID", "string": "String",
                  "bytes": "Bytes", "bool": "Bool"}
JSON_CALLS = {**{n: "Int(int64({}))" for n in SIGNED}, "int64": "Int({})", "uint64": "Uint({})",
              **{n: "Uint(uint64({}))" for n in ("byte", "char", "wchar", "uint8", "uint16", "uint32", "timestamp")},
              **{n: method + "({})" for n, method in RUNTIME_VALUES.items()}}
"""The JSONWriter's call writing a primitive's value (a map key's: Key and the call)."""
TEXT_CALLS = {**JSON_CALLS, "char": "Char({})", "wchar": "WChar({})", "float": "Float(float64({}))",
              "double": "Float({})"}
"""The TextWriter's call writing a primitive's value."""


class Raw(RawText):
    """Literal text of a writer (`j` or `t`), merged into one Raw call until the next statement."""

    def __init__(self, w: CodeWriter, target: str, quote: str) -> None:
        super().__init__(w)
        self.target, self.quote = target, quote

    def write(self, text: str) -> str:
        if len(text) == 1 and self.target == "j":
            return f"j.Byte('{text}')"
        return f"{self.target}.Raw({self.quote}{text}{self.quote})"


# ---------------------------------------------------------------- JSON and text writing

def items(raw: Raw, t: ir.Type, x: str, json_brackets: str, loop: str, i: str, item: Callable[[], None]) -> None:
    """A JSON array or object (json_brackets: "[]" or "{}") or, raw's writer `t`, the text form of collection x
    (its count, then ir.TEXT_BRACKETS of its kind): the loop's items, a comma before all but the first (the
    loop's index i is 0), between the opening and the closing text."""
    if raw.target == "j":
        raw(json_brackets[0])
        closing = json_brackets[1]
    else:
        opening, closing = ir.TEXT_BRACKETS[t.kind]
        raw.line(f't.Count(len({x}), "{opening}")')
    raw.flush()
    with raw.w.block(loop, "}"):
        braced(raw.w, f"if {i} > 0 {{", raw.write(","))
        item()
        raw.flush()
    raw(closing)


def write_value(c: Context, raw: Raw, t: ir.Type, x: str, field: str, names: Locals, unwind: list[str]) -> None:
    """Write x (type t) as JSON (docs/format.md 8.2) or, raw's writer `t`, in the original's text form
    (docs/format.md 9): the same walk over the same items. A value JSON cannot write stops its writer
    (docs/limits.md 1 and 4), naming the path (unwind); the text form writes any value."""
    w, json = raw.w, raw.target == "j"
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        if json:
            raw.line(scalar_write(t, x))
        elif isinstance(t, ir.Primitive):
            raw.line("t." + TEXT_CALLS[t.name].format(x))
        else:
            raw.line(f"t.Raw({f'({x})' if x.startswith('*') else x}.String())")
    elif isinstance(t, ir.StructRef):
        raw.flush()
        check(w, c, t, "j", x, unwind)      # nothing in the text form: its writer counts no level
        raw.line(f"{x}.FBEWriteJSON(j)" if json else f"{x}.FBEWriteText(t)")
        if json:
            stops(w, c, t, "j", unwind)
    elif isinstance(t, ir.Optional_):
        raw.flush()
        with w.if_else(f"if {x} == nil {{", "j.Null()" if json else 't.Raw("null")'):
            write_value(c, raw, t.element, x if isinstance(t.element, ir.StructRef) else f"*{x}", field, names, unwind)
            raw.flush()
    elif isinstance(t, (ir.Array, ir.Sequence)):
        i = names("i")
        if isinstance(t, ir.Sequence):
            raw.flush()
            if json:
                refuse_repeated(w, c, t, x, field, "j")
            x = in_order(w, c, t, x, names)
        items(raw, t, x, "[]", f"for {i} := range {x} {{", i, lambda: write_value(
            c, raw, t.element, f"{x}[{i}]", field, names, [f"j.UnwindIndex({i})", *unwind]))
    else:
        # a map: a JSON object of its keys as member names or, a struct not being a member name, an array of
        # [key, value] pairs (as the C++ and Python runtimes); the text form's key->value items. A Go map's
        # keys in order, a map held as pairs in order (and checked, for JSON)
        i, pairs = names("i"), json and isinstance(t.key, ir.StructRef)
        if c.comparable(t.key):
            k, v = names("k"), names("x")
            if json and ir.is_decimal(t.key):
                raw.flush()     # the check comes before the map's text
            keys = (sorted_keys(w, c, t, x, field, "j", names) if json
                    else f"{c.rt('SortedKeys')}({x}, {compare(c, t.key)})")
            loop, key, value = f"for {i}, {k} := range {keys} {{", k, v
        else:
            raw.flush()
            if json:
                refuse_repeated(w, c, t, x, field, "j")
            x = in_order(w, c, t, x, names)
            loop, key, value, v = f"for {i} := range {x} {{", f"{x}[{i}].Key", f"{x}[{i}].Value", ""
        inner = [f"j.UnwindIndex({i})", *unwind]

        def entry() -> None:
            if json and not pairs:
                w.line(scalar_write(t.key, key, "Key"))
            else:
                raw("[" if pairs else "")
                write_value(c, raw, t.key, key, field, names, inner)
                raw("," if pairs else "->")
            if v:
                raw.line(f"{v} := {x}[{key}]")
            write_value(c, raw, t.value, value, field, names, inner)
            if pairs:
                raw("]")
        items(raw, t, x, "[]" if pairs else "{}", loop, i, entry)


def scalar_write(t: ir.Type, x: str, of: str = "") -> str:
    """The JSON writer's call writing a primitive's or enum's value x or, with of="Key", map key x
    as a member name and its colon (docs/format.md 8.1)."""
    if isinstance(t, ir.EnumRef):       # converted from the enum's type, whatever its wire type
        return f"j.{of}" + ("Int(int64({}))" if t.wire in SIGNED else "Uint(uint64({}))").format(x)
    assert isinstance(t, ir.Primitive), t
    return f"j.{of}" + JSON_CALLS[t.name].format(x)


# ---------------------------------------------------------------- JSON reading

def scalar_read(c: Context, t: ir.Type, f: str, key: str | None = None, dst: str = "") -> str:
    """The expression reading a primitive's or enum's JSON value (dst: its old value, for bytes) or,
    with key, a map key from its member-name text: an integer or enum in its type's range (docs/limits.md
    7: the unsigned form of a signed type's flags is refused)."""
    of, text = ("Key", f"{key}, ") if key is not None else ("", "")
    assert isinstance(t, (ir.Primitive, ir.EnumRef)), t
    name = ir.wire_name(t)      # an enum's wire type is an integer's
    if name in ("bool", "float", "double", "decimal", "uuid", "string"):
        return f"r.{of}{RUNTIME_VALUES[name]}({text}{f})"
    if name == "bytes":
        return f"r.Bytes({dst}, {f})"
    if name == "char":
        return f"r.{of}Char({text}{f})"
    lo, hi = ir.PRIMITIVES[name].range or (0, 0)
    go = c.type(t)
    if name in SIGNED:
        call, plain = f"r.{of}Int({text}{lo}, {hi}, {f})", go == "int64"
    else:
        call, plain = f"r.{of}Uint({text}{hi}, {f})", go == "uint64"
    return call if plain else f"{go}({call})"  # a timestamp is fbe.Timestamp: converted


def afford(w: CodeWriter, c: Context, types: list[ir.Type], f: str, unwind: list[str]) -> None:
    """models.paid_first for JSON: a default the budget does not pay for is charged (r.Spend), which fails."""
    paid_first(w, c, types, unwind, lambda _, cost: f"r.Spend({cost}, {f})")


def json_read(w: CodeWriter, c: Context, t: ir.Type, dst: str, field: str, names: Locals,
              unwind: list[str]) -> None:
    """Read the JSON value at the reader's position into the lvalue dst (docs/format.md 8.3)."""
    f = f'"{field}"'
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        w.line(f"{dst} = {scalar_read(c, t, f, dst=dst)}")
    elif isinstance(t, ir.StructRef):
        w.line(f"{dst}.FBEReadJSON(r)")
        fails(w, unwind)
    elif isinstance(t, ir.Optional_):
        with w.if_else("if r.Null() {", f"{dst} = nil"):
            afford(w, c, [t.element], f, unwind)
            w.line(f"{dst} = {c.rt('Reuse')}({dst})")
            json_read(w, c, t.element, dst if isinstance(t.element, ir.StructRef) else f"*{dst}", field, names,
                      unwind)
    elif isinstance(t, ir.Array):
        i = names("i")
        with w.block(f"if r.BeginArray({f}) {{", "}"):
            w.line(f"{i} := 0")
            with w.block(f"for ; r.Element({i}, {t.length}, {f}); {i}++ {{", "}"):
                json_read(w, c, t.element, f"{dst}[{i}]", field, names, [f"r.UnwindIndex({i})", *unwind])
            w.line(f"r.EndArray({i}, {t.length}, {f})")
    elif isinstance(t, ir.Mapping) and c.comparable(t.key):
        key, k, x = names("key"), names("k"), names("x")
        with w.block(f"if r.BeginObject({f}) {{", "}"):
            w.line(f"{c.rt('Empty')}(&{dst}, 0)")
            with w.block("for r.More() {", "}"):
                w.line(f"r.Spend({t.item_cost}, {f})")
                w.line(f"{key} := r.Name()")
                w.line(f"{k} := {scalar_read(c, t.key, f, key)}")
                afford(w, c, [t.value], f, [f"r.UnwindKey({key})", *unwind])
                w.line(f"var {x} {c.type(t.value)}")
                json_read(w, c, t.value, x, field, names, [f"r.UnwindKey({key})", *unwind])
                leave(w, f"_, dup := {dst}[{k}]; dup", [], f"r.DuplicateKey({f})")
                w.line(f"{dst}[{k}] = {x}")
    else:
        # a slice, grown an item at a time: elements, or a map's pairs (a struct key's as [key, value]
        # arrays, a bytes key's as an object's members); a map's entry spends even what costs 0
        named = isinstance(t, ir.Mapping) and not isinstance(t.key, ir.StructRef)
        i, key = names("i"), names("key") if named else ""
        inner = [f"r.UnwindIndex({i})", *unwind]
        with w.block(f"if r.Begin{'Object' if named else 'Array'}({f}) {{", "}"):
            w.line(f"{dst} = {dst}[:0]")
            with w.block(f"for {i} := 0; r.More(); {i}++ {{", "}"):
                if t.item_cost or isinstance(t, ir.Mapping):
                    w.line(f"r.Spend({t.item_cost}, {f})")
                afford(w, c, [t.element] if isinstance(t, ir.Sequence) else [t.value] if named else [t.key, t.value],
                       f, inner)
                w.line(f"{dst} = {c.rt('Grow')}({dst})")
                if isinstance(t, ir.Sequence):
                    json_read(w, c, t.element, f"{dst}[{i}]", field, names, inner)
                elif named:
                    w.line(f"{key} := r.Name()")
                    w.line(f"{dst}[{i}].Key = r.KeyBytes({dst}[{i}].Key, {key}, {f})")
                    json_read(w, c, t.value, f"{dst}[{i}].Value", field, names, [f"r.UnwindKey({key})", *unwind])
                else:
                    with w.block(f"if r.BeginPair({f}) {{", "}"):
                        json_read(w, c, t.key, f"{dst}[{i}].Key", field, names, inner)
                        json_read(w, c, t.value, f"{dst}[{i}].Value", field, names, inner)
                        w.line(f"r.EndPair({f})")
            # a set read with an element twice, or a map held as pairs with a key twice (docs/limits.md 7);
            # a Go map checks as it is filled
            repeated(w, c, t, dst, "_", f"r.Duplicate{'Element' if isinstance(t, ir.Sequence) else 'Key'}({f})")


# ---------------------------------------------------------------- per type

def write_enum_text(w: CodeWriter, c: Context, e: ir.Enum) -> None:
    """String() of an enum (the first declared name with the value) or flags (the names set)."""
    name = c.named(e.qualified)
    flags = e.kind == "flags"
    doc = ["// String is the text form of v: the names of the declared flags whose bits are all set,",
           "// joined by |, in declaration order (docs/format.md 9)."] if flags else \
        "// String is the text form of v: the first declared name with its value, else <unknown> (docs/format.md 9)."
    with decl(w, doc, f"func (v {name}) String() string {{"):
        if not e.values:
            w.line('return ""' if flags else 'return "<unknown>"')
        else:       # the runtime's walk over the constants (an enum's: each value once)
            with w.block(f"return {c.rt('FlagsText' if flags else 'EnumText')}(v, []{c.rt('FlagName')}[{name}]{{",
                         "})"):
                for v in e.values if flags else e.text_values:
                    w.line(f'{{Value: {c.ident.constant(e.qualified, v.name)}, Name: "{v.name}"}},')


def write_struct_json(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """FBEWriteJSON, FBEReadJSON and the roots MarshalJSON/AppendJSON/UnmarshalJSON/ReadJSON."""
    q = s.qualified
    plan = c.plan.struct(q)
    names = Locals()
    fields = s.all_fields

    with decl(w, "// FBEWriteJSON writes v as a JSON object, inherited fields first (docs/format.md 8).",
              f"func (v *{name}) FBEWriteJSON(j *{c.rt('JSONWriter')}) {{"), counting(w, c, plan, "j"):
        raw = Raw(w, "j", "`")
        json_object(raw, fields, lambda f: write_value(c, raw, f.type, f"v.{c.ident.field(f)}", f.name, names,
                                                       [f'j.Unwind("{f.name}")']))

    with decl(w, ["// FBEReadJSON reads v from the JSON object at r's position: members in any order, unknown",
                  "// ones skipped, missing ones left at their defaults (docs/format.md 8.3, docs/limits.md 7)."],
                 f"func (v *{name}) FBEReadJSON(r *{c.rt('JSONReader')}) {{"):
        w.line("v.Reset()")
        entered(w, f"!r.BeginStruct({s.decode_cost})", "r.Leave()")
        if not fields:
            braced(w, "for r.More() {", "r.Skip(r.Name())")
        else:
            w.line(f"var seen [{len(fields)}]bool")
            with w.block("for r.More() {", "}"), w.block("switch name := r.Name(); name {", "}"):
                for n, f in enumerate(fields):
                    w.label(f'case "{f.name}":')
                    w.line(f"r.Once(&seen[{n}], name)")
                    json_read(w, c, f.type, f"v.{c.ident.field(f)}", f.name, names, [f'r.Unwind("{f.name}")'])
                w.label("default:")
                w.line("r.Skip(name)")
            # a missing member's default holds struct values: they are charged (docs/limits.md 3)
            for n, fp in enumerate(plan.fields):
                if fp.default_cost:
                    braced(w, f"if !seen[{n}] {{", f'r.Spend({fp.default_cost}, "{fp.name}")')

    declared(w, "// MarshalJSON is v as FBE JSON (docs/format.md 8): json.Marshal(v) writes it.",
             f"func (v {name}) MarshalJSON() ([]byte, error) {{", "return v.AppendJSON(nil)")
    declared(w, ["// AppendJSON appends v as FBE JSON to dst: with a reused dst, writing allocates nothing",
                 "// but what maps need to order their keys."],
             f"func (v *{name}) AppendJSON(dst []byte) ([]byte, error) {{", f"j := {c.rt('JSONWriter')}{{B: dst}}",
             "v.FBEWriteJSON(&j)", f'j.Within("{q}")', "return j.Result(len(dst))")
    read_root(w, c, name, "JSON", "FBE JSON", (": json.Unmarshal(data, &v) reads it", "; docs/limits.md"),
              "JSONReader", lambda: w.lines(f'r.Begin(data, lim)\nv.FBEReadJSON(&r)\nr.End()\nr.Within("{q}")'))


def write_struct_text(w: CodeWriter, c: Context, s: ir.Struct, name: str) -> None:
    """FBEWriteText and String(): the original's operator<< text (docs/format.md 9)."""
    names = Locals()
    with decl(w, "// FBEWriteText writes v in the original's text form (docs/format.md 9).",
                 f"func (v *{name}) FBEWriteText(t *{c.rt('TextWriter')}) {{"):
        raw = Raw(w, "t", '"')
        text_struct(raw, s, lambda base: f"v.{c.named(base).rpartition('.')[2]}.FBEWriteText(t)",
                    lambda f: write_value(c, raw, f.type, f"v.{c.ident.field(f)}", f.name, names, []))
    declared(w, "// String is v in the original's text form (docs/format.md 9).", f"func (v {name}) String() string {{",
             f"var t {c.rt('TextWriter')}", "v.FBEWriteText(&t)", "return string(t.B)")
