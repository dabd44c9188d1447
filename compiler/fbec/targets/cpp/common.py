"""What the C++ generators share: C++ spellings of IR types, literals and
defaults, names, file banners and which readers are forced inline.

Everything here is a pure function of the IR: offsets, sizes, minimum sizes,
recursion, type ids and defaults come from the IR as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager

from fbec.model import ir, plan
from fbec.model.ir import (
    Array,
    Default,
    EnumRef,
    Field,
    Optional_,
    Package,
    Primitive,
    Schema,
    Struct,
    StructRef,
    Type,
)
from fbec.targets.base import CodeWriter, DefaultLiterals, Options, generated_header, nested_spec, quoted
from fbec.targets.cpp.names import STRUCT_MEMBERS, current, escape

# The C++ types of the primitives (an enum's or flags' integer wire type, IR `wire`, among them).
PRIMITIVES: dict[str, str] = {
    **{name: name + "_t" for name in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")},
    "bool": "bool", "byte": "uint8_t", "char": "char", "wchar": "wchar_t", "float": "float", "double": "double",
    "decimal": "FBE::decimal_t", "timestamp": "uint64_t", "uuid": "FBE::uuid_t", "string": "std::string",
    "bytes": "FBE::buffer_t",
}

# The standard templates of an IR node kind (base.nested_spec: an array's length after its element).
TEMPLATES = {"optional": "std::optional", "array": "std::array", "vector": "std::vector", "list": "std::list",
             "set": "std::set", "map": "std::map", "hash": "std::unordered_map"}


def type_ident(qualified: str) -> str:
    """A type's C++ name in its namespace (names.py)."""
    names = current()
    return names.type(qualified) if names else escape(qualified.rpartition(".")[2])


def field_ident(f: Field) -> str:
    """A field's data member (names.py)."""
    names = current()
    return names.field(f) if names else escape(f.name) if f.name not in STRUCT_MEMBERS else f.name + "_"


def model_ident(qualified: str, final: bool = False) -> str:
    """A struct's model class in FBE::<package> (names.py)."""
    names = current()
    return names.model(qualified, final) if names else type_ident(qualified) + ("FinalModel" if final else "Model")


def qualified(name: str) -> str:
    """`proto.Order` -> `::proto::Order`."""
    return f"::{escape(name.rpartition('.')[0])}::{type_ident(name)}"


def cpp_type(t: Type) -> str:
    """The C++ type of an IR type."""
    def leaf(t: Type) -> str:
        assert isinstance(t, (Primitive, EnumRef, StructRef))
        return PRIMITIVES[t.name] if isinstance(t, Primitive) else qualified(t.name)
    return nested_spec(t, leaf, lambda kind, parts: f"{TEMPLATES[kind]}<{', '.join(parts)}>")


def param_type(t: Type) -> str:
    """Constructor parameter type: scalars by value, the rest by const reference."""
    return cpp_type(t) if ir.is_scalar(t) else f"const {cpp_type(t)}&"


# ---------------------------------------------------------------- literals

def int_literal(value: int, cpp: str) -> str:
    if cpp == "int64_t":
        return "INT64_MIN" if value == -(1 << 63) else f"INT64_C({value})"
    if cpp == "uint64_t":
        return f"UINT64_C({value})"
    if cpp == "int32_t" and value == -(1 << 31):
        return "INT32_MIN"
    if cpp == "uint32_t":
        return f"{value}u"
    return str(value)


def char_literal(value: int, wide: bool) -> str:
    prefix = "L" if wide else ""
    if 32 <= value < 127 and chr(value) not in "'\\":
        return f"{prefix}'{chr(value)}'"
    return f"static_cast<{'wchar_t' if wide else 'char'}>({value:#x})"


def string_literal(text: str) -> str:
    """A C++ string literal of the UTF-8 bytes of `text`: base.quoted's, with every byte but printable
    ASCII other than `?` (no trigraph) an octal escape of three digits (never ambiguous), `\\n` too."""
    def other(ch: str) -> str:
        return ch if " " <= ch < "\x7f" and ch != "?" else "".join(f"\\{b:03o}" for b in ch.encode("utf-8"))

    return quoted(text, lambda o: f"\\{o:03o}", other, short=False)


def real_literal(text: str, cpp: str) -> str:
    if cpp == "FBE::decimal_t":
        return f'FBE::decimal_t("{text}")'
    literal = text if any(c in text for c in ".eE") else text + ".0"
    if cpp == "float":
        if abs(float(text)) <= 3.4028234663852886e38:
            return literal + "f"
        return f"static_cast<float>({literal})"
    return literal


def value_ident(type_name: str, name: str) -> str:
    """An enum or flags value's constant in its type (names.py)."""
    names = current()
    return names.value(type_name, name) if names else escape(name)


class CppDefaults(DefaultLiterals):
    """A field default's C++ literal, zero spelled too (`false`, `0`, `""`)."""

    SPELLS_ZERO = True

    def made_default(self, kind: str) -> str:
        return {"utc": "FBE::utc()", "uuid1": "FBE::uuid_t::sequential()", "uuid4": "FBE::uuid_t::random()"}[kind]

    def int_default(self, t: Type, value: int) -> str:
        if isinstance(t, Primitive) and t.name in ("char", "wchar"):
            return char_literal(value, t.name == "wchar")
        return int_literal(value, cpp_type(t))

    def real_default(self, t: Type, text: str) -> str:
        return real_literal(text, cpp_type(t))

    def string_default(self, text: str) -> str:
        return string_literal(text)

    def uuid_default(self, uuid: str) -> str:
        return f'FBE::uuid_t("{uuid}")'

    def enum_value(self, enum: str, name: str) -> str:
        return f"{qualified(enum)}::{value_ident(enum, name)}"

    def flags_default(self, flags: str, value: int) -> str:
        return f"static_cast<{qualified(flags)}>({int_literal(value, 'uint64_t')})"


def default_expr(t: Type, d: Default) -> str | None:
    """The C++ expression of a field default, or None for value-initialisation `{}`."""
    if d.kind == "null":
        return "std::nullopt"
    return CppDefaults().scalar_default(t.element if isinstance(t, Optional_) else t, d)


def assign_default(target: str, f: Field) -> str:
    """The statement giving `target` (field `f` of a value) the value it takes when it is not in the
    input: its default, or its type's value-initialised one; a struct or fixed array through
    FBE::detail::assign_default, which puts no value of a large type on the stack."""
    expr = default_expr(f.type, f.default)
    if expr is None and isinstance(f.type, (StructRef, Array)):
        return f"FBE::detail::assign_default({target});"
    return f"{target} = {'{}' if expr is None else expr};"


# ---------------------------------------------------------------- declarations

# Readers of a struct whose whole read (its fields, its base and the structs
# it contains, all the way down) weighs at most this much are forced inline:
# a small root's read is then one function whose decoder state lives in
# registers. Larger or recursive structs get ordinary functions, so big
# schemas do not multiply their code at every use.
INLINE_WEIGHT = 64


def inlined_structs(schema: Schema, package: Package) -> set[str]:
    """The structs of the package whose read/verify functions are FBE_INLINE
    (`VBody<T>::inlined`, `FBody<T>::inlined`): the plan's read weight at most INLINE_WEIGHT."""
    weights = {s.qualified: plan.of(schema).read_weight(s.qualified) for s in package.structs}
    return {name for name, weight in weights.items() if weight is not None and weight <= INLINE_WEIGHT}


def reader_inline(s: Struct, inlined: set[str]) -> str:
    """How a struct's read/verify functions are declared inline."""
    return "FBE_INLINE" if s.qualified in inlined else "inline"


class CppWriter(CodeWriter):
    """A CodeWriter that writes C++ function definitions."""

    def braced(self, opening: str) -> AbstractContextManager[CodeWriter]:
        """`opening`, then the lines written inside between `{` and `}` on lines of their own."""
        self.line(opening)
        return self.block("{", "}")

    @contextmanager
    def function(self, head: str, blank: bool = True) -> Iterator[None]:
        """A definition: `head`, the body written inside between braces, a blank line (unless not `blank`: the
        last member of a class). A parameter the body
        does not name (string literals and comments aside) is left unnamed, `const T& /*value*/`, as
        -Wunused-parameter asks."""
        at = len(self._lines)
        with self.braced(head):
            yield
        body = re.sub(r'"(?:[^"\\]|\\.)*"|//.*', "", "\n".join(self._lines[at + 1:]))
        closing = head.rindex(")")
        opening = head.rindex("(", 0, closing) + 1
        params, depth = [""], 0
        for c in head[opening:closing]:     # split at the commas outside a template's <>
            depth += (c == "<") - (c == ">")
            if c == "," and not depth:
                params.append("")
            else:
                params[-1] += c
        for i, param in enumerate(params):
            name = re.search(r"(\w+)\s*(=.*)?$", param)
            if name and not re.search(rf"(?<![\w.>:]){name[1]}\b", body):
                params[i] = f"{param[:name.start(1)]}/*{name[1]}*/{param[name.end(1):]}"
        self._lines[at] = self._lines[at].replace(head, head[:opening] + ",".join(params) + head[closing:])
        if blank:
            self.blank()


def guard(w: CppWriter, condition: str, then: str = "return false;", keyword: str = "if") -> None:
    """`if (condition)` and its one statement below it, unbraced (`keyword`: "else if")."""
    with w.block(f"{keyword} ({condition})"):
        w.line(then)


def fail_in(f: Field) -> str:
    """A binary reader's return that records the field that failed (the decoder's `fail_in`)."""
    return f'return d.fail_in("{f.owner}", "{f.name}");'


def apart(decoder: str, call: str) -> str:
    """A reader's return through the runtime's `call_apart` (the out-of-line path), `call` on its decoder `c`."""
    return f"return call_apart(d, [&]({decoder}& c) {{ return {call}; }});"


def arguments(w: CppWriter, call: str, args: list[str], end: str) -> None:
    """`call` (a function call up to its opening parenthesis or its first arguments) with more arguments `args`,
    each on a line of its own."""
    if not args:
        w.line(f"{call}){end}")
    else:
        w.line(call if call.endswith("(") else call + ",")
    with w.indented():
        for i, arg in enumerate(args):
            w.line(arg + ("," if i < len(args) - 1 else f"){end}"))


def imports(schema: Schema, package: Package) -> list[Package]:
    return [schema.package(name) for name in package.imports]


def header_file(options: Options, package: Package, what: str, *groups: Iterable[str]) -> CppWriter:
    """The start of a header: the generated file's banner, `what` it holds, `#pragma once`, then each group
    of included headers (`<fbe/json.h>`, `"market.h"`) and a blank line."""
    w = CppWriter(options)
    w.lines(generated_header(package))
    w.line(f"// {what}")
    w.blank()
    w.line("#pragma once")
    w.blank()
    for group in groups:
        for header in group:
            w.line(f"#include {header}")
        w.blank()
    return w


def imported(schema: Schema, package: Package, suffix: str) -> list[str]:
    """The headers `"<import><suffix>.h"` of the package's imports."""
    return [f'"{p.name}{suffix}.h"' for p in imports(schema, package)]


@contextmanager
def deprecated_used(w: CppWriter, used: bool) -> Iterator[None]:
    """What is written inside uses deprecated types or fields when `used` (they are still converted, sent
    and received): without the compiler's warnings of it."""
    if used:
        w.line("#pragma GCC diagnostic push")
        w.line('#pragma GCC diagnostic ignored "-Wdeprecated-declarations"')
        w.blank()
    yield
    if used:
        w.line("#pragma GCC diagnostic pop")


@contextmanager
def specialisation(w: CppWriter, name: str, comment: str | None,
                   constants: Iterable[tuple[str, int | bool]] = ()) -> Iterator[None]:
    """An explicit specialisation `template <> struct name` (`// comment` above it): its `constants`
    (declaration, value), then what the block writes."""
    if comment:
        w.line(f"// {comment}")
    w.line("template <>")
    w.line(f"struct {name}")
    with w.block("{", "};"):
        for declaration, value in constants:
            w.line(f"static constexpr {declaration} = {str(value).lower()};")     # a bool: true, false
        yield
    w.blank()


@contextmanager
def namespace(w: CppWriter, name: str) -> Iterator[None]:
    """A namespace block; its content is not indented. `name` is C++ (a package name through names.escape())."""
    w.line(f"namespace {name} {{")
    w.blank()
    yield
    w.blank()
    w.line(f"}} // namespace {name}")
    w.blank()
