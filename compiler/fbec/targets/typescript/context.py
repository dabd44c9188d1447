"""What the TypeScript (and JavaScript) target's modules share, a leaf they all import: the Context
of one generated file (its GeneratedFile and, in JavaScript, that of its declarations; the plan; the
identifiers of schema names) and the TypeScript spelling of types, defaults and comparisons."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager

from fbec.model import ir, plan
from fbec.targets.base import CodeWriter, DefaultLiterals, GeneratedFile, Options
from fbec.targets.typescript.names import Idents

RUNTIME = "@fbe-toolkit/fbe"

BIGINTS = frozenset({"int64", "uint64", "timestamp"})
PRIMITIVE_TYPES = {"bool": "boolean", "string": "string", "bytes": "Uint8Array"}
"""The TypeScript type of a primitive not a number (BIGINTS: bigint, the runtime's: RUNTIME_TYPES)."""
RUNTIME_TYPES = {"uuid": "Uuid", "decimal": "Decimal"}


def ts_string(text: str) -> str:
    """A JavaScript string literal of text."""
    return json.dumps(text).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def by_value(t: ir.Type) -> bool:
    """Whether JavaScript's Map and Set compare values of t by value (numbers, bigints, strings,
    booleans, enums): such sets are Set<T> and such maps Map<K, V>; the others arrays."""
    if isinstance(t, ir.Primitive):
        return t.name not in ("bytes", "uuid", "decimal")
    return isinstance(t, ir.EnumRef)


class Context(DefaultLiterals):
    """What one generated file needs: its package, its GeneratedFile (imports by use, the names the
    module declares), in JavaScript that of its declarations (.d.ts), and TypeScript names of IR types."""

    SPELLS_ZERO = True

    def __init__(self, schema: ir.Schema, package: ir.Package, options: Options, ts: bool = True) -> None:
        self.schema = schema
        self.package = package
        self.options = options
        self.ts = ts                              # TypeScript; else JavaScript and its declarations
        self.ident = Idents(schema)               # the identifiers of schema names (names.py)
        taken = self.ident.module_names(package.name).__contains__
        self.file = GeneratedFile(f"{package.name}.{'ts' if ts else 'js'}", taken=taken)
        self.declarations_file = None if ts else GeneratedFile(f"{package.name}.d.ts", taken=taken)
        self.declarations: list[str] = []        # JavaScript: the members of the class being written
        self.over = ""                            # "override " when the class being written has a base class
        self.constants: dict[str, str] = {}      # expression -> the module constant holding it
        self.can_fail: dict[str, bool] = {}      # struct -> whether writing it can fail (models.can_fail)
        self.plan = plan.of(schema)               # what every struct's codecs read and write (model/plan.py)

    def constant_of(self, stem: str, expression: str) -> str:
        """A module-level constant holding an immutable default (a Decimal, a Uuid), made once."""
        if expression not in self.constants:
            self.constants[expression] = self.file.declare(f"{stem}_{len(self.constants) + 1}")
        return self.constants[expression]

    def qualified(self, module: str, member: str, qualifier: str, value: bool = True) -> str:
        """`qualifier.member`, imported by the declarations (JavaScript) and, used as a value or in
        TypeScript, by the code."""
        d = self.declarations_file
        typed = d.qualified(module, member, qualifier) if d is not None else None
        return self.file.qualified(module, member, qualifier) if value or typed is None else typed

    def rt(self, member: str, value: bool = True) -> str:
        """A member of the runtime; `value`: used as a value (else only as a type)."""
        return self.qualified(RUNTIME, member, "fbe", value)

    def named(self, qualified: str, value: bool = True) -> str:
        """A named schema type, qualified by its module when imported."""
        return self.qualify(qualified, self.ident.type(qualified), value)

    def qualify(self, qualified: str, ident: str, value: bool = True) -> str:
        """An identifier of the module of a schema name (`qualified`), qualified by that module when
        it is not this one."""
        pkg = qualified.rpartition(".")[0]
        if pkg == self.package.name:
            return ident
        return self.qualified(f"./{pkg}.js", ident, self.ident.alias(self.package.name, pkg), value)

    def annot(self, t: str) -> str:
        """A type annotation (`: T`), none in JavaScript."""
        return f": {t}" if self.ts else ""

    def generic(self, *types: str) -> str:
        """Type arguments (`<K, V>`), none in JavaScript."""
        return f"<{', '.join(types)}>" if self.ts else ""

    def method(self, modifiers: str, name: str, params: list[tuple[str, str]], result: str,
               members: list[str] | None = None) -> str:
        """A method's opening line; in JavaScript without types (nor protected and override), its
        declaration kept for the .d.ts in members (default: the class's declarations)."""
        declaration = f"{modifiers}{name}({', '.join(f'{p}: {t}' for p, t in params)}): {result}"
        if self.ts:
            return declaration + " {"
        (self.declarations if members is None else members).append(declaration.replace("override ", "") + ";")
        plain = modifiers.replace("protected ", "").replace("override ", "")
        return f"{plain}{name}({', '.join(p.rstrip('?') for p, _ in params)}) {{"

    def cast(self, expr: str, t: str) -> str:
        """`expr as t` (JavaScript: expr)."""
        return f"{expr} as {t}" if self.ts else expr

    def constructor(self, params: list[tuple[str, str, str]]) -> str:
        """The constructor's opening line of (name, type, default) parameters; in JavaScript its
        declaration kept in the class's declarations."""
        if self.ts:
            return f"constructor({', '.join(f'{p}: {t} = {v}' if v else f'{p}?: {t}' for p, t, v in params)}) {{"
        self.declarations.append(f"constructor({', '.join(f'{p}?: {t}' for p, t, _ in params)});")
        return f"constructor({', '.join(f'{p} = {v}' if v else p for p, _, v in params)}) {{"

    def field(self, w: CodeWriter, declaration: str) -> None:
        """A public field: declared in the TypeScript class, or in the JavaScript declarations."""
        if self.ts:
            w.line(declaration)
        else:
            self.declarations.append(declaration)

    @contextmanager
    def klass(self, w: CodeWriter, d: CodeWriter | None, comment: list[str], name: str, extends: str,
              declared: str | None = None) -> Iterator[None]:
        """An exported class extending `extends` when given (in the JavaScript declarations `d`,
        `declared`, default the same), its members' declarations those its methods, constructor and
        fields keep."""
        w.lines("\n".join(comment))
        self.declarations = []
        with w.block(f"export class {name}{' extends ' + extends if extends else ''} {{", "}"):
            yield
        w.blank()
        if d is None:
            return
        d.lines("\n".join(comment))
        declared = declared or extends
        with d.block(f"export declare class {name}{' extends ' + declared if declared else ''} {{", "}"):
            d.lines("\n".join(self.declarations))
        d.blank()

    @contextmanager
    def member(self, w: CodeWriter, doc: str, modifiers: str, name: str, params: list[tuple[str, str]],
               result: str) -> Iterator[None]:
        """A documented method of the class being written: a blank line, its doc comment, its opening
        line (method), the body written inside, `}`."""
        w.blank()
        w.lines(doc)
        with w.block(self.method(modifiers, name, params, result), "}"):
            yield

    def type(self, t: ir.Type) -> str:
        """One isinstance per IR dataclass."""
        if isinstance(t, ir.Primitive):
            if t.name in RUNTIME_TYPES:
                return self.rt(RUNTIME_TYPES[t.name], False)
            return PRIMITIVE_TYPES.get(t.name, "bigint" if t.name in BIGINTS else "number")
        if isinstance(t, (ir.EnumRef, ir.StructRef)):
            return self.named(t.name, False)
        if isinstance(t, ir.Optional_):
            return self.type(t.element) + " | undefined"
        if isinstance(t, (ir.Array, ir.Sequence)):
            element = self.type(t.element)
            if isinstance(t, ir.Sequence) and t.kind == "set" and by_value(t.element):
                return f"Set<{element}>"
            return f"{element}[]" if isinstance(t.element, (ir.Primitive, ir.EnumRef, ir.StructRef)) \
                else f"({element})[]"
        if by_value(t.key):
            return f"Map<{self.type(t.key)}, {self.type(t.value)}>"
        return f"Array<[{self.type(t.key)}, {self.type(t.value)}]>"

    def bigint(self, t: ir.Type) -> bool:
        """Whether values of t are bigints (64-bit integers, timestamps, 64-bit enums)."""
        if isinstance(t, ir.Primitive):
            return t.name in BIGINTS
        return isinstance(t, ir.EnumRef) and t.wire in BIGINTS

    def enum_value(self, enum: str, name: str) -> str:
        return f"{self.named(enum)}.{self.ident.value(enum, name)}"

    def integer(self, t: ir.Type, value: int) -> str:
        return f"{value}n" if self.bigint(t) else str(value)

    def default(self, t: ir.Type, d: ir.Default) -> str:
        """The expression of a default value of t (a new object each time for mutable ones)."""
        if isinstance(t, ir.Optional_):
            return "undefined" if d.kind in ("none", "null") else self.default(t.element, d)
        return self.scalar_default(t, d) or zero(self, t)

    def made_default(self, kind: str) -> str:
        return f"{self.rt('utc')}()" if kind == "utc" else f"{self.rt('Uuid')}.v{kind[-1]}()"

    def int_default(self, t: ir.Type, value: int) -> str:
        return self.integer(t, value)

    def real_default(self, t: ir.Type, text: str) -> str:
        if isinstance(t, ir.Primitive) and t.name == "decimal":
            return self.constant_of("DECIMAL", f"{self.rt('Decimal')}.parse({ts_string(text)})")
        return js_number(text)

    def string_default(self, text: str) -> str:
        return ts_string(text)

    def uuid_default(self, uuid: str) -> str:
        if uuid == ir.NIL_UUID:
            return f"{self.rt('Uuid')}.NIL"
        return self.constant_of("UUID", f"{self.rt('Uuid')}.parse({ts_string(uuid)})")

    def flags_default(self, flags: str, value: int) -> str:
        return self.integer(self.schema.enum(flags).ref(), value)


def js_number(text: str) -> str:
    """A schema real literal as a JavaScript number literal (its value as a double)."""
    v = float(text)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return repr(v).removesuffix(".0")


def zero(c: Context, t: ir.Type) -> str:
    """The default of a type without a schema default: zero, false, empty, undefined, a new struct."""
    if isinstance(t, ir.Primitive) and t.name in RUNTIME_TYPES:
        return f"{c.rt(RUNTIME_TYPES[t.name])}.{'NIL' if t.name == 'uuid' else 'ZERO'}"
    if isinstance(t, (ir.Primitive, ir.EnumRef)):
        name = ir.wire_name(t)
        number = "0n" if name in BIGINTS else "0"
        return {"bool": "false", "string": '""', "bytes": "new Uint8Array(0)"}.get(name, number)
    if isinstance(t, ir.StructRef):
        return f"new {c.named(t.name)}()"
    if isinstance(t, ir.Optional_):
        return "undefined"
    if isinstance(t, ir.Array):
        element = zero(c, t.element)
        if isinstance(t.element, (ir.StructRef, ir.Primitive)) and element.startswith("new "):
            return f"Array.from({{ length: {t.length} }}, () => {element})"
        return f"new Array{c.generic(c.type(t.element))}({t.length}).fill({element})"
    if isinstance(t, ir.Sequence):
        return f"new Set{c.generic(c.type(t.element))}()" if t.kind == "set" and by_value(t.element) else "[]"
    if by_value(t.key):
        return f"new Map{c.generic(c.type(t.key), c.type(t.value))}()"
    return "[]"


def write_imports(out: CodeWriter, modules: dict[str, str]) -> None:
    """The import lines of a file's modules (GeneratedFile.modules): the runtime's, then the other
    packages' in order."""
    for module in sorted(modules, key=lambda m: (m != RUNTIME, m)):
        out.line(f'import * as {modules[module]} from "{module}";')


COMPARE = {"bool": "compareBool", "string": "compareString", "bytes": "compareBlob", "uuid": "compareUuid",
           "decimal": "compareDecimal", "float": "compareFloat"}


def compare(c: Context, t: ir.Type) -> str:
    """The comparison ordering set elements or map keys of type t (ir.PRIMITIVES order), by which
    readers and writers also find two the same (docs/limits.md 4): a runtime function, or a keyed
    struct's fbeCompareKey."""
    if isinstance(t, ir.Primitive):
        if t.info.order == "signed":
            return c.rt("compareChar")
        return c.rt(COMPARE.get(t.name, "compareValue"))
    if isinstance(t, ir.StructRef):
        return f"{c.named(t.name)}.fbeCompareKey" if c.schema.struct(t.name).key_fields else c.rt("compareSame")
    return c.rt("compareValue")


def unique(t: ir.Type) -> bool:
    """Whether t is a set or map held as a Set or Map (by value), which refuses a repeated element or key."""
    if isinstance(t, ir.Mapping):
        return by_value(t.key)
    return isinstance(t, ir.Sequence) and t.kind == "set" and by_value(t.element)


def new_collection(c: Context, t: ir.Type, name: str) -> str:
    """The declaration of the local `name` a collection of type t is read into: a Set or Map, or an array."""
    value = zero(c, t)      # a Set or Map (unique), else an array
    return f"const {name}{c.annot(c.type(t)) if value == '[]' else ''} = {value};"


def add_item(w: CodeWriter, t: ir.Type, collection: str, item: str, duplicate: str, key: str = "") -> None:
    """Add an element (or the entry key, item) to what new_collection declared: a Set or Map refuses
    one it holds (`duplicate`), an array takes it (refuse_repeated checks it once it is whole)."""
    mapping = isinstance(t, ir.Mapping)
    if not unique(t):
        w.line(f"{collection}.push([{key}, {item}]);" if mapping else f"{collection}.push({item});")
        return
    with w.block(f"if ({collection}.has({key if mapping else item})) {{", "}"):
        w.line(duplicate)
    w.line(f"{collection}.set({key}, {item});" if mapping else f"{collection}.add({item});")


def refuse_repeated(w: CodeWriter, c: Context, t: ir.Type, collection: str, duplicate: str) -> None:
    """`duplicate` when a set or map held as an array, now read, has two elements or keys the same
    (nothing for a Set or Map by value, which add_item filled, nor for a vector or list)."""
    if isinstance(t, ir.Mapping) and not by_value(t.key):
        call = f"{c.rt('repeatedEntries')}({collection}, {compare(c, t.key)})"
    elif isinstance(t, ir.Sequence) and t.kind == "set" and not by_value(t.element):
        call = f"{c.rt('repeated')}({collection}, {compare(c, t.element)})"
    else:
        return
    with w.block(f"if ({call} !== undefined) {{", "}"):
        w.line(duplicate)
