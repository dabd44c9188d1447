"""JSON mapping helpers, docs/format.md section 8.

Writing produces exactly the original's compact JSON (RapidJSON ``Writer``)
for every value the original writes correctly; reading uses the standard
:mod:`json` module and converts the parsed values.

Where the original is wrong the rules are the C++ runtime's
(``runtime/cpp/include/fbe/json.h``, docs/cpp-json-protocol.md), so both
languages write and read the same JSON:

* ``char`` is its byte value 0..255 (key ``"200"``); the original's signed
  forms (4294967240, key ``"-56"``) are read too;
* NaN and infinities are the strings ``"NaN"``, ``"Infinity"``,
  ``"-Infinity"``, read back for ``float`` and ``double``;
* ``decimal`` is the exact value with at least 6 fraction digits, read by an
  exact decimal parser (a JSON number is also accepted);
* enum/flags map keys are the decimal text of the underlying value;
* a map whose key is a struct is an array of ``[key, value]`` pairs;
* float/double map keys are ``%f`` when that reads back to the same value,
  otherwise the shortest round-trip text.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import math
import re
import struct
import uuid as _uuid
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

from .buffer import Budget
from .errors import DecodeError, EncodeError
from .limits import MAX_DEPTH, Limits
from .source import PerClass, Source
from .text import ordered
from .values import DecimalLike, decimal_from_double, decimal_parts, parse_uuid

_MAX96 = 1 << 96
_INF = float("inf")
_D = struct.Struct("<d")
_Q = struct.Struct("<Q")

_ESCAPES: dict[int, str] = {c: f"\\u{c:04X}" for c in range(0x20)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"})
# A byte that is not part of valid UTF-8 is U+DC80..U+DCFF in a str (surrogateescape, as the
# binary readers decode it) and the escape \udcXY in JSON (docs/limits.md, JSON strings).
_ESCAPES.update({c: f"\\u{c:04x}" for c in range(0xDC80, 0xDD00)})
# any other surrogate cannot stand for a byte: it has no UTF-8 form
_NOT_A_BYTE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate_error(value: str) -> EncodeError:
    """The refusal of a str holding a surrogate that stands for no byte (every writer's)."""
    m = _NOT_A_BYTE.search(value)
    assert m is not None
    return EncodeError(f"string {value[:40]!r} holds the lone surrogate U+{ord(m.group()):04X}, which is "
                       "no byte: only U+DC80..U+DCFF stand for the bytes 0x80..0xFF")


def json_string(value: str) -> str:
    """A JSON string literal escaped as RapidJSON does (``/`` and non-ASCII raw).

    A byte that is not part of valid UTF-8 (U+DC80..U+DCFF in the str, as the
    binary readers decode it) is written as the escape ``\\udcXY``, so the
    output is valid UTF-8 and reads back to the same bytes.
    """
    if not value.isascii() and _NOT_A_BYTE.search(value) is not None:
        raise lone_surrogate_error(value)
    return '"' + value.translate(_ESCAPES) + '"'


_M64 = (1 << 64) - 1
_POW10_32 = (1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000)
_POW10 = tuple(10 ** i for i in range(24))


def _cached_power(k: int) -> tuple[int, int]:
    """10^k as a 64-bit significand (rounded to nearest) and binary exponent."""
    num, den = (10 ** k, 1) if k >= 0 else (1, 10 ** -k)
    e = num.bit_length() - den.bit_length() - 64
    while True:
        n, d = (num, den << e) if e >= 0 else (num << -e, den)
        if n < d << 63:
            e -= 1
        elif n >= d << 64:
            e += 1
        else:
            return (2 * n + d) // (2 * d), e


# RapidJSON's table (internal/diyfp.h): 10^-348, 10^-340, ..., 10^340
_CACHED_POWERS = tuple(_cached_power(-348 + 8 * i) for i in range(87))


def _mul(af: int, ae: int, bf: int, be: int) -> tuple[int, int]:
    """DiyFp multiplication: the high 64 bits of the product, rounded."""
    p = af * bf
    return ((p >> 64) + ((p >> 63) & 1)) & _M64, ae + be + 64


def _grisu2(value: float) -> tuple[str, int]:
    """RapidJSON master's Grisu2 (internal/dtoa.h) of a finite value > 0: (digits, K), value ~ digits * 10^K.

    Not always the shortest text (Python's ``repr``): the original (RapidJSON
    master's Writer) and the C++ runtime (fbe/dtoa.h) print these digits.
    """
    bits: int = _Q.unpack(_D.pack(value))[0]
    biased = (bits >> 52) & 0x7FF
    f = bits & 0xFFFFFFFFFFFFF
    if biased:
        f += 1 << 52
        e = biased - 1075
    else:
        e = -1074
    # NormalizedBoundaries
    pf, pe = (f << 1) + 1, e - 1
    while not pf & (1 << 53):
        pf <<= 1
        pe -= 1
    pf <<= 10
    pe -= 10
    if f == 1 << 52:
        mf, me = (f << 2) - 1, e - 2
    else:
        mf, me = (f << 1) - 1, e - 1
    mf <<= me - pe
    # Normalize
    s = 64 - f.bit_length()
    wf, we = f << s, e - s
    # GetCachedPower
    dk = (-61 - pe) * 0.30102999566398114 + 347
    k = int(dk)
    if dk - k > 0.0:
        k += 1
    index = (k >> 3) + 1
    K = 348 - (index << 3)
    cf, ce = _CACHED_POWERS[index]
    Wf, _ = _mul(wf, we, cf, ce)
    Wpf, Wpe = _mul(pf, pe, cf, ce)
    Wmf, _ = _mul(mf, pe, cf, ce)
    Wmf += 1
    Wpf -= 1
    # DigitGen: the first (most significant) digit position j where the rest of Wp
    # below it fits in delta (`<=` in the integer part, `<` below it), found from an
    # estimate instead of digit by digit.
    delta = Wpf - Wmf
    shift = -Wpe
    wp_w = Wpf - Wf
    top = min(len(str(Wpf >> shift)), 9) - 1

    def fits(j: int) -> bool:
        if j >= 0:
            return Wpf % (_POW10_32[j] << shift) <= delta
        scale: int = 10 ** -j
        return (Wpf * scale) & ((1 << shift) - 1) < delta * scale

    # monotonic within the integer part (`<=`) and within the fraction (`<`), not across
    # (a rest equal to delta stops at j = 0, but not at j = -1)
    estimate = math.floor(math.log10(delta) - shift * 0.30102999566398120)
    hi = top if fits(0) else -1
    j = max(min(hi, estimate), 0) if hi >= 0 else min(hi, estimate)
    while not fits(j):
        j -= 1
    while j < hi and fits(j + 1):
        j += 1
    if j >= 0:
        unit = _POW10_32[j] << shift
        d, rest = divmod(Wpf, unit)
        dl, rl, tk, w = delta, rest, unit, wp_w
    else:
        mult: int = 10 ** -j
        d, rest = divmod(Wpf * mult, 1 << shift)
        # the C++ code keeps p2, delta and wp_w scaled by 10^-j in 64 bits; RapidJSON master scales
        # wp_w by 10^-j up to 10^19 (1.1.0 only up to 10^8, and by 0 beyond: a last digit off by one)
        dl, rl, tk = (delta * mult) & _M64, rest & _M64, 1 << shift
        w = (wp_w * mult) & _M64 if -j < 20 else 0
    # GrisuRound: move the last digit down while that stays in range and gets closer to W
    while rl < w and dl - rl >= tk and (rl + tk < w or w - rl > rl + tk - w):
        d -= 1
        rl += tk
    return str(d), K + j


def _shortest_is_grisu(value: float, digits: str, q: int) -> bool:
    """Whether Grisu2 surely prints ``digits`` * 10^q, the shortest text of ``value`` > 0.

    True for a normal value whose shortest text has at most 15 digits (then it
    is the only candidate of its length in the rounding interval, one ulp wide)
    and lies farther than 2^-5 ulp (>= 2^-58 of the value) from both ends of the
    interval (Grisu2's interval is narrower by about 2^-60 of the value at
    most), so Grisu2 finds it; otherwise the caller runs Grisu2.
    """
    if len(digits) > 15:
        return False
    bits: int = _Q.unpack(_D.pack(value))[0]
    biased = bits >> 52
    if not biased:
        return False                    # subnormal: the interval is wide, several candidates
    f = (bits & 0xFFFFFFFFFFFFF) + (1 << 52)
    e = biased - 1075
    lo = 4 * f - (1 if f == 1 << 52 and biased > 1 else 2)
    hi = 4 * f + 2
    # S = digits * 10^q in units of 2^(e-2): compare 8*S with 8*lo + 1 and 8*hi - 1
    n: int = int(digits) * 8
    den = 1
    if q >= 0:
        n *= int(10 ** q)
    else:
        den = int(10 ** -q)
    if e >= 2:
        den <<= e - 2
    else:
        n <<= 2 - e
    return (8 * lo + 1) * den < n < (8 * hi - 1) * den


def json_double(value: float) -> str:
    """A number as RapidJSON master's ``Writer::Double`` prints it (docs/format.md 8.2): Grisu2 digits.

    NaN and infinities, which JSON has no literal for (the original's writer
    fails), are the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"``.
    """
    r = repr(value)
    if "e" not in r:
        # the common case, tested cheaply: repr's text when it surely has Grisu2's digits
        if r[-2:] == ".0":
            if len(r) <= (18 if r[0] == "-" else 17):
                return r                                # an integer of <= 15 digits is exact
        elif r[-1] in "nf":
            return _NONFINITE[r]
        else:
            # r = d / 10^m: as _shortest_is_grisu, inlined (v < 2^52, so 53 - ex > 0)
            d = abs(int(r.replace(".", "")))
            if d < 1000000000000000:
                p = _POW10[len(r) - r.index(".") - 1]
                fr, ex = math.frexp(abs(value))
                # 32 * (S - v) / ulp * p, ulp = 2^(ex - 53)
                diff = ((d << (53 - ex)) - int(fr * 9007199254740992.0) * p) * 32
                lim = p * (7 if fr == 0.5 and diff < 0 else 15)
                if -lim < diff < lim:
                    return r
    neg = r[0] == "-"
    if neg:
        r = r[1:]
    if value == 0.0:
        return "-0.0" if neg else "0.0"
    mant, _, exp = r.partition("e")
    dot = mant.find(".")
    digits = mant[:dot] + mant[dot + 1:] if dot >= 0 else mant
    k = (int(exp) if exp else 0) - (len(mant) - dot - 1 if dot >= 0 else 0)
    stripped = digits.lstrip("0")
    k += len(stripped) - len(stripped.rstrip("0"))
    digits = stripped.rstrip("0")
    if not _shortest_is_grisu(abs(value), digits, k):
        digits, k = _grisu2(abs(value))
    n = len(digits)
    kk = n + k
    if 0 <= k and kk <= 21:
        s = digits + "0" * k + ".0"
    elif 0 < kk <= 21:
        s = digits[:kk] + "." + digits[kk:]
    elif -6 < kk <= 0:
        s = "0." + "0" * (-kk) + digits
    elif n == 1:
        s = digits + "e" + str(kk - 1)
    else:
        s = digits[0] + "." + digits[1:] + "e" + str(kk - 1)
    return "-" + s if neg else s


_NONFINITE = {"nan": '"NaN"', "inf": '"Infinity"', "-inf": '"-Infinity"'}


def json_float(value: float) -> str:
    """A binary32 value: widened to double, then as :func:`json_double`."""
    return json_double(value)


def json_char(value: int) -> str:
    """A ``char`` as its byte value 0..255.

    Deliberate difference (docs/design.md): the original goes through a signed
    char and writes bytes >= 0x80 as 4294967296 - (256 - b); readers accept
    both forms (see :func:`get_int` callers, which keep the low byte).
    """
    return str(value & 0xFF)


def json_char_key(value: int) -> str:
    """A ``char`` map key: the byte value 0..255 (the original writes a signed char, -128..127)."""
    return '"' + str(value & 0xFF) + '"'


def decimal_text(value: DecimalLike) -> str:
    """The exact text of a decimal with at least 6 fraction digits, no sign on zero.

    ``"0.100000"``, ``"-123.456000"``, ``"0.1234567890123456789012345678"``:
    the original's ``%f`` text whenever that was exact. The value is taken as
    the binary writers store it (docs/format.md 2.4): without trailing
    fraction zeros (``1.50000000`` is ``"1.500000"``), a float through the
    original's double -> decimal conversion, a value no decimal holds exactly
    an EncodeError.
    """
    sign, mag, scale = decimal_parts(value)
    digits = str(mag)
    if scale:
        if len(digits) <= scale:
            digits = "0" * (scale + 1 - len(digits)) + digits
        digits = digits[:-scale] + "." + digits[-scale:]
        if scale < 6:
            digits += "0" * (6 - scale)
    else:
        digits += ".000000"
    return "-" + digits if sign and mag else digits


def json_decimal(value: DecimalLike) -> str:
    """A decimal as a JSON string of its exact value (:func:`decimal_text`)."""
    return '"' + decimal_text(value) + '"'


def json_bytes(value: bytes) -> str:
    return '"' + base64.b64encode(value).decode("ascii") + '"'


def json_uuid(value: _uuid.UUID) -> str:
    return '"' + str(value) + '"'


def json_bool(value: bool) -> str:
    return "true" if value else "false"


def _real_key(value: float, f32: bool) -> str:
    if math.isnan(value) or math.isinf(value):
        return json_double(value)
    text = f"{value:f}"
    back = float(text)
    if (to_float32(back) if f32 else back) == value and math.copysign(1.0, back) == math.copysign(1.0, value):
        return '"' + text + '"'
    return '"' + json_double(value) + '"'


def json_double_key(value: float) -> str:
    """A double map key: C ``%f`` (the original's text) when it reads back to the same value,
    otherwise the shortest round-trip text (``1e-7``), so keys stay distinct and exact."""
    return _real_key(value, False)


def json_float_key(value: float) -> str:
    """A float map key: as :func:`json_double_key`, ``%f`` checked by reading back as binary32."""
    return _real_key(value, True)


def json_pairs(pairs: list[str]) -> str:
    """A map with struct keys: a JSON array of ``[key,value]`` pairs (``pairs`` are ``key,value`` texts)."""
    return "[" + ",".join(["[" + p + "]" for p in pairs]) + "]"


def json_writer(cls: Any) -> Callable[[Any], str]:
    """The compact JSON of a generated struct class (docs/format.md 8: every field, inherited first,
    under its schema name), compiled from the class's ``fbe_spec`` (fbe.source) as the generated
    ``fbe_js_<Name>`` it replaced: one ``"".join`` of the members' names and values (:func:`_json`)."""
    source = Source()
    parts: list[str] = []
    for name, attr, spec in cls.fbe_spec:
        parts.append(repr(("," if parts else "{") + json_string(name) + ":"))
        parts.append(_json(spec[1] if spec[0] == "hidden" else spec, "v." + attr, source, 0))
    return source.function("v", f"''.join(({', '.join(parts)}, '}}'))" if parts else "'{}'")


JSON_WRITERS: PerClass[Callable[[Any], str]] = PerClass(json_writer)
"""Each generated struct class's JSON writer, made when it is first written."""

_CALLS = {"float": json_double, "decimal": json_decimal, "string": json_string, "bytes": json_bytes}
"""The function writing a value of each leaf kind of a type spec that :func:`_scalar` does not write out."""


def _json(spec: tuple[Any, ...], x: str, source: Source, depth: int) -> str:
    """The source of an expression writing ``x`` (a name or an attribute) of a type spec as JSON;
    depth numbers an item's local."""
    kind = spec[0]
    if kind == "struct":
        return f"{JSON_WRITERS.named(source, spec[1])}({x})"
    if kind == "optional":
        return f'("null" if {x} is None else {_json(spec[1], x, source, depth)})'
    if kind not in ("array", "vector", "list", "set", "map", "hash"):
        return _scalar(spec, x, source, False)
    k, e = f"k{depth}", f"e{depth}"
    if kind not in ("map", "hash"):
        return f'"[" + ",".join([{_json(spec[1], e, source, depth + 1)} for {e} in {ordered(spec, x, source)}]) + "]"'
    value = _json(spec[2], e, source, depth + 1)
    if spec[1][0] == "struct":  # a struct is not a member name: an array of [key, value] pairs (as C++)
        pairs = f'[{_json(spec[1], k, source, depth + 1)} + "," + {value} for {k}, {e} in {ordered(spec, x, source)}]'
        return f"{source.name(json_pairs)}({pairs})"
    members = f'[{_scalar(spec[1], k, source, True)} + ":" + {value} for {k}, {e} in {ordered(spec, x, source)}]'
    return f'"{{" + ",".join({members}) + "}}"'


def _scalar(spec: tuple[Any, ...], x: str, source: Source, key: bool) -> str:
    """A primitive or enum as JSON, or (key) as a member name (docs/format.md 8.1): an integer, an
    enum's or flags' value (the original cannot compile such keys) its number (flags of a signed
    type: their signed value, the spec's sort key), as the C++ runtime."""
    kind, name = spec[0], spec[1] if len(spec) > 1 else ""
    if kind == "int" and name == "char":
        return f"{source.name(json_char_key if key else json_char)}({x})"
    if kind == "int":
        number = f"str({source.name(spec[5])}({x}))" if len(spec) > 5 else f"str(int({x}))"
        return f"'\"' + {number} + '\"'" if key else number
    if kind == "bool":
        return f"('\"1\"' if {x} else '\"0\"')" if key else f'("true" if {x} else "false")'
    if key and kind == "float":
        return f"{source.name(json_float_key if name == 'float' else json_double_key)}({x})"
    if kind == "uuid":
        return f"'\"' + str({x}) + '\"'"
    return f"{source.name(_CALLS[kind])}({x})"


# ---------------------------------------------------------------- reading

def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (NaN and infinities are the strings \"NaN\", \"Infinity\", \"-Infinity\")")


MAX_JSON_DEPTH = 3 * MAX_DEPTH
"""Nesting limit of a JSON document (arrays and objects): each struct level may add a collection
and a ``[key, value]`` pair, so every document of structs within :data:`MAX_DEPTH` fits."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                raise DecodeError(f"duplicate member name {name!r} in a JSON object")
            seen.add(name)
    return obj


class _MinusZero(int):
    """The JSON integer ``-0``: 0 in an integer field, negative zero in a float or double (docs/limits.md
    7); ``json`` would read it as the int 0 and lose the sign."""

    def __float__(self) -> float:
        return -0.0


MINUS_ZERO = _MinusZero(0)


def _integer(text: str) -> int:
    return MINUS_ZERO if text == "-0" else int(text)


_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object)
_MINUS_ZERO_DECODER = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object, parse_int=_integer)
_MINUS_ZERO = re.compile(r"-0(?![.eE0-9])")   # only documents that may hold the integer -0 take the slower decoder
_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _nesting(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets in strings skipped)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    brackets = _NOT_BRACKET.sub("", _STRING_LITERAL.sub("", text))
    return max(itertools.accumulate(map(_NESTING_STEP.__getitem__, brackets)), default=0)


def string_from_json(value: str) -> str:
    """A parsed JSON string as the FBE string it stands for: each ``\\udcXY`` escape (U+DC80..U+DCFF)
    is the raw byte 0xXY, kept as surrogateescape does (the binary readers' form); any other lone
    surrogate is an error."""
    if _SURROGATE.search(value) is None:
        return value
    m = _NOT_A_BYTE.search(value)
    if m is not None:
        raise DecodeError(f"lone surrogate \\u{ord(m.group()):04x} in a JSON string "
                          "(only \\udc80..\\udcff stand for bytes)")
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")


def _strings_from_json(value: Any) -> Any:
    if isinstance(value, str):
        return string_from_json(value)
    if isinstance(value, list):
        return [_strings_from_json(x) for x in value]
    if isinstance(value, dict):
        obj = {string_from_json(k): _strings_from_json(x) for k, x in value.items()}
        if len(obj) != len(value):
            raise DecodeError("duplicate member name in a JSON object (after its \\udcXY escapes)")
        return obj
    return value


def budget(text: str | bytes, limits: Limits | None = None) -> Budget:
    """The decode budget of one JSON document (docs/limits.md: input size = the text's length in bytes)."""
    size = len(text) if isinstance(text, bytes) or text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    return Budget(size, limits)


def _member_holding(obj: dict[str, Any], node: object) -> str:
    """The member (with its index or key) of a struct's JSON object that holds ``node``."""
    for name, v in obj.items():
        if v is node:
            return name
        if isinstance(v, list):
            for i, x in enumerate(v):
                if x is node or (isinstance(x, list) and any(y is node for y in x)):
                    return f"{name}[{i}]"
        elif isinstance(v, dict):
            for key, x in v.items():
                if x is node:
                    return f"{name}[{key}]"
    return "?"


def unwind(e: DecodeError, type_name: str, obj: object) -> DecodeError:
    """A DecodeError leaving the reader of a struct read from ``obj`` (generated fbe_jr_ functions):
    the member path grows from the inside out (``shop.Product.tags[1].label``), found on this error
    path only, by identity of the inner struct's object."""
    e.within(type_name)
    if e.json_node is None:
        inner = e.field or ""
    else:
        node, below = e.json_node
        inner = _member_holding(obj, node) if isinstance(obj, dict) else "?"
        if below:
            inner += below if below.startswith("[") else "." + below
    e.json_path = type_name + ("." + inner if inner else "")
    e.json_node = (obj, inner)
    return e


def enter(b: Budget, cost: int, type_name: str) -> None:
    """Enter one struct value read from JSON, costing ``cost`` (leave with ``b.depth -= 1``)."""
    depth = b.depth = b.depth + 1
    left = b.budget = b.budget - cost
    if depth > b.max_depth or left < 0:
        b.refuse(None, type_name)


_T = TypeVar("_T", list[Any], dict[str, Any])


def charged(items: _T, b: Budget, cost: int, field: str) -> _T:
    """A JSON array (or object) of collection elements, each costing ``cost`` (docs/limits.md 3)."""
    left = b.budget = b.budget - len(items) * cost
    if left < 0:
        b.spend(0, None, field)
    return items


def charged_str(value: str, b: Budget, field: str) -> str:
    """A string value or key read from JSON, charged its length in bytes (UTF-8, raw bytes as \\udcXY)."""
    if value.isascii():
        n = len(value)
    else:
        try:
            n = len(value.encode("utf-8", "surrogateescape"))
        except UnicodeEncodeError:  # a surrogate outside U+DC80..U+DCFF: refused where it is read
            n = len(value.encode("utf-8", "surrogatepass"))
    left = b.budget = b.budget - n
    if left < 0:
        b.spend(0, None, field)
    return value


def charged_bytes(value: bytes, b: Budget, field: str) -> bytes:
    """A bytes value or key read from JSON (Base64), charged its decoded length."""
    left = b.budget = b.budget - len(value)
    if left < 0:
        b.spend(0, None, field)
    return value


def parse(text: str | bytes) -> Any:
    """Parse JSON text with the standard library; errors become DecodeError.

    As RapidJSON: the bare literals ``NaN``, ``Infinity`` and ``-Infinity`` are
    rejected (JSON has no such literals). A number beyond the double range
    (``1e400``, not JSON to RapidJSON) parses as an infinity, which every
    reader of a number rejects. The rules every reader shares (docs/limits.md):
    the text must be valid UTF-8 (bytes) or hold no surrogate (str), and not
    begin with a byte order mark; the integer ``-0`` is negative zero to a
    float (:data:`MINUS_ZERO`); nesting
    deeper than :data:`MAX_JSON_DEPTH` is refused before parsing; a duplicate
    member name in any object is an error; ``\\udcXY`` escapes are bytes
    (:func:`string_from_json`), other lone surrogate escapes are errors.
    """
    if not isinstance(text, str):
        data = bytes(text)
        try:
            text = data.decode("utf-8")  # UTF-8 only (RFC 8259 8.1): no UTF-16 or 32, no byte order mark
        except UnicodeDecodeError as e:
            raise DecodeError(f"invalid JSON: not valid UTF-8 at byte {e.start} ({e.reason})") from None
    elif not text.isascii() and _SURROGATE.search(text) is not None:
        m = _SURROGATE.search(text)
        assert m is not None
        raise DecodeError(f"invalid JSON: the text holds the lone surrogate U+{ord(m.group()):04X} "
                          f"at {m.start()} (not valid UTF-8)")
    if text.startswith("\ufeff"):
        raise DecodeError("invalid JSON: a byte order mark is not JSON")
    depth = _nesting(text)
    if depth > MAX_JSON_DEPTH:
        raise DecodeError(f"invalid JSON: nesting of {depth} arrays and objects, deeper than {MAX_JSON_DEPTH}")
    try:
        value = (_DECODER if _MINUS_ZERO.search(text) is None else _MINUS_ZERO_DECODER).decode(text)
    except DecodeError:
        raise
    except (ValueError, RecursionError) as e:
        raise DecodeError(f"invalid JSON: {e}") from None
    if _SURROGATE_ESCAPE.search(text) is not None:
        value = _strings_from_json(value)
    return value


def _mismatch(what: str, value: Any, field: str) -> DecodeError:
    return DecodeError(f"JSON {what} expected, got {type(value).__name__}", None, field)


def get_bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _mismatch("boolean", value, field)
    return value


def get_int(value: Any, lo: int, hi: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _mismatch("integer", value, field)
    if not lo <= value <= hi:
        raise DecodeError(f"JSON integer {value} out of range", None, field)
    return value if value is not MINUS_ZERO else 0


_NONFINITE_TEXT = {"NaN": float("nan"), "Infinity": _INF, "-Infinity": -_INF}
_FLT_MAX = 3.4028234663852886e38


def get_float(value: Any, field: str) -> float:
    """A double: any JSON number, or the strings "NaN", "Infinity", "-Infinity"."""
    if isinstance(value, float):
        if value in (_INF, -_INF):                      # 1e400 in the text
            raise DecodeError(f"JSON number {value} out of double range", None, field)
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise DecodeError(f"JSON number {value} out of double range", None, field) from None
    if isinstance(value, str) and value in _NONFINITE_TEXT:
        return _NONFINITE_TEXT[value]
    raise _mismatch("number", value, field)


def to_float32(value: float) -> float:
    """A double rounded to binary32 (beyond the float range: infinity, as a C cast)."""
    try:
        return float(_F32.unpack(_F32.pack(value))[0])
    except OverflowError:
        return math.copysign(_INF, value)


def get_float32(value: Any, field: str) -> float:
    """A binary32 value: the number rounded to float (a finite number beyond the float range
    is an error), or the strings "NaN", "Infinity", "-Infinity"."""
    d = get_float(value, field)
    if abs(d) > _FLT_MAX and d not in (_INF, -_INF):
        raise DecodeError(f"JSON number {d} out of float range", None, field)
    return to_float32(d)


def get_char(value: Any, field: str) -> int:
    """A ``char``: 0..255, or the original's signed-char output 4294967168..4294967295."""
    if (isinstance(value, int) and not isinstance(value, bool)
            and (0 <= value <= 0xFF or 0xFFFFFF80 <= value <= 0xFFFFFFFF)):
        return value & 0xFF
    if isinstance(value, bool) or not isinstance(value, int):
        raise _mismatch("integer", value, field)
    raise DecodeError(f"JSON char {value} out of range", None, field)


def get_str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise _mismatch("string", value, field)
    return value


_DECIMAL_TEXT = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?)([0-9]+))?")

MAX_DECIMAL_TEXT = 64
"""The longest decimal text a reader takes (docs/limits.md 7): our writers' longest is 37 characters
(``"-79228162514264337593543950335.000000"``); longer text is refused before it is parsed."""


def quote_prefix(text: str, n: int = 32) -> str:
    """``text`` in double quotes for an error message, cut to its first ``n`` characters (then
    ``...``): an error never quotes a whole hostile input (docs/limits.md 7)."""
    return '"' + text[:n] + '"' + ("..." if len(text) > n else "")


def parse_decimal(text: str) -> Decimal:
    """Exact decimal text ``[+|-]digits[.digits][e[+|-]digits]`` (docs/format.md 2.4), as every
    runtime reads it: at most 64 characters, and a value some decimal holds exactly (at most 28
    fraction digits once trailing zeros are dropped, a magnitude below 2^96), else ValueError, never
    rounded. The value has no trailing fraction zeros (``"1.50"`` is ``Decimal("1.5")``)."""
    if len(text) > MAX_DECIMAL_TEXT:
        raise ValueError(f"decimal text longer than {MAX_DECIMAL_TEXT} characters: {quote_prefix(text)}")
    m = _DECIMAL_TEXT.fullmatch(text)
    if m is None or not (m.group(2) or m.group(3)):
        raise ValueError(f"invalid decimal {quote_prefix(text)}")
    fraction = m.group(3) or ""
    digits = (m.group(2) + fraction).lstrip("0")
    if not digits:
        return Decimal(0)
    significant = digits.rstrip("0")
    # the value is significant * 10^exponent
    exponent = int(m.group(5) or "0") * (-1 if m.group(4) == "-" else 1) - len(fraction) \
        + len(digits) - len(significant)
    if exponent < -28:
        raise ValueError(f"decimal {quote_prefix(text)} has more than 28 fraction digits")
    if len(significant) + max(exponent, 0) > 29 or int(significant) * 10 ** max(exponent, 0) >= 1 << 96:
        raise ValueError(f"decimal {quote_prefix(text)} out of range: more than 96 bits")
    return Decimal((1 if m.group(1) == "-" else 0, tuple(map(int, significant)), exponent)) if exponent <= 0 \
        else Decimal(int(m.group(1) + significant) * 10 ** exponent)


def get_decimal(value: Any, field: str) -> Decimal:
    """A decimal: its exact text (:func:`parse_decimal`), or a JSON number taken as a
    double and converted as the original writer converts a double (15 digits)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            d = float(value)
            if d in (_INF, -_INF):
                raise OverflowError
            return decimal_from_double(d)
        except OverflowError:
            raise DecodeError(f"JSON number {value} out of decimal range", None, field) from None
    s = get_str(value, field)
    try:
        return parse_decimal(s)
    except ValueError as e:             # bad text, or a value of 2^96 or more (the original's are doubles)
        raise DecodeError(str(e), None, field) from None


_F32 = struct.Struct("<f")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
# the last character before padding has its unused bits zero (RFC 4648 3.5): each byte string one text
_BASE64_END = re.compile(r"(?:[AQgw]==|[AEIMQUYcgkosw048]=|[^=])\Z")


def get_bytes(value: Any, field: str) -> bytes:
    """Bytes from their Base64: the standard alphabet with padding and nothing else (RFC 4648 4), each
    byte string one text (docs/limits.md 7); anything else is refused."""
    s = get_str(value, field)
    if len(s) % 4 or _BASE64.fullmatch(s) is None or s and _BASE64_END.search(s, len(s) - 3) is None:
        raise DecodeError("invalid base64", None, field)
    return binascii.a2b_base64(s)


def get_uuid(value: Any, field: str) -> _uuid.UUID:
    try:
        return parse_uuid(get_str(value, field))
    except ValueError:
        raise DecodeError(f"invalid uuid {value!r}", None, field) from None


def get_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _mismatch("array", value, field)
    return value


def get_array(value: Any, length: int, field: str) -> list[Any]:
    """A fixed array: a JSON array of exactly ``length`` elements (docs/limits.md 7)."""
    items = get_list(value, field)
    if len(items) != length:
        raise DecodeError(f"expected {length} elements, got {len(items)}", None, field)
    return items


def get_object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _mismatch("object", value, field)
    return value


def get_pairs(value: Any, field: str) -> list[Any]:
    """A map with struct keys: an array of ``[key, value]`` arrays."""
    items = get_list(value, field)
    for p in items:
        if not isinstance(p, list) or len(p) != 2:
            raise DecodeError("JSON [key, value] pair expected", None, field)
    return items


def distinct(result: dict[Any, Any], source: Any, field: str) -> dict[Any, Any]:
    """A map read from JSON, refused when two of its keys read as the same key (``"1"`` and
    ``"01"``): neither the first nor the last may win silently."""
    if len(result) != len(source):
        raise DecodeError("two map keys read as the same key", None, field)
    return result


def distinct_set(result: set[Any], source: Any, field: str) -> set[Any]:
    """A set read from JSON, refused when two of its elements read as the same element (``[1, 1]``,
    structs of equal keys), as two map keys and as a binary set (docs/limits.md 4)."""
    if len(result) != len(source):
        raise DecodeError("two set elements read as the same element", None, field)
    return result


_INT_KEY = re.compile(r"[ \t\n\v\f\r]*[+-]?[0-9]+")


def key_int(key: str, lo: int, hi: int, field: str) -> int:
    """An integer key as C ``strtoll``/``strtoull`` reads the whole text, in the type's range."""
    if _INT_KEY.fullmatch(key) is None or (lo >= 0 and "-" in key):
        raise DecodeError(f"invalid integer key {key!r}", None, field)
    v = int(key)
    if not lo <= v <= hi:
        raise DecodeError(f"integer key {key!r} out of range", None, field)
    return v


def key_char(key: str, field: str) -> int:
    return key_int(key, -128, 255, field) & 0xFF


def key_bool(key: str, field: str) -> bool:
    if key in ("1", "true"):
        return True
    if key in ("0", "false"):
        return False
    raise DecodeError(f"invalid bool key {key!r}", None, field)


_REAL_KEY = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEX_KEY = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")
_SPECIAL_KEY = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)


def key_float(key: str, field: str) -> float:
    """A double key: "NaN", "Infinity", "-Infinity" or a number's text (``1.500000``, ``1e-7``).

    Other text is read as the C++ runtime reads it, by ``strtod`` of the whole
    key (leading white space, ``inf``, ``nan``, hexadecimal).
    """
    if key in _NONFINITE_TEXT:
        return _NONFINITE_TEXT[key]
    text = key.lstrip(" \t\n\v\f\r")
    if _REAL_KEY.fullmatch(text) is not None or _SPECIAL_KEY.fullmatch(text) is not None:
        return float(text)
    if _HEX_KEY.fullmatch(text) is not None:
        return float.fromhex(text)
    raise DecodeError(f"invalid number key {key!r}", None, field)


def key_float32(key: str, field: str) -> float:
    """A float key: :func:`key_float` rounded to binary32."""
    return to_float32(key_float(key, field))


# ---------------------------------------------------------------- a struct's JSON reader

def json_reader(cls: Any) -> Callable[[Any, str, Budget], Any]:
    """The reader of a generated struct class from parsed JSON (docs/format.md 8: missing members keep
    their defaults, the constructor's), compiled from the class's ``fbe_spec`` (fbe.source) as the
    generated ``fbe_jr_<Name>`` it replaced: ``f(o, f, b)`` reads the object ``o`` of the member ``f``
    (the root: the struct's name) within the budget ``b``. Entering a value charges its decode cost
    and the default structs of its omitted members (docs/limits.md 3); an error names the member path
    (:func:`unwind`)."""
    codec = cls.fbe_codec
    source = Source()
    name = repr(codec.qualified)
    charges, args = [str(codec.json_cost)], []
    for (field, _, spec), default in zip(cls.fbe_spec, cls.__init__.__defaults__ or ()):
        spec = spec[1] if spec[0] == "hidden" else spec
        member = f"{field!r} in m"
        if _default_cost(spec):
            charges.append(f"(0 if {member} else {_default_cost(spec)})")
        args.append(f"{_read(spec, f'm[{field!r}]', repr(field), source, 0)} if {member} else {source.name(default)}")
    head = [f"m = {source.name(get_object)}(o, f)", f"{source.name(enter)}(b, {' + '.join(charges)}, {name})"]
    if not args:
        return source.statements("o, f, b", [*head, "b.depth -= 1", f"return {source.name(cls)}()"])
    return source.statements("o, f, b", [
        *head,
        "try:",
        f"    v = {source.name(cls)}({', '.join(args)})",
        f"except {source.name(DecodeError)} as e:",
        f"    raise {source.name(unwind)}(e, {name}, o) from None",
        "b.depth -= 1",
        "return v",
    ])


JSON_READERS: PerClass[Callable[[Any, str, Budget], Any]] = PerClass(json_reader)
"""Each generated struct class's JSON reader, made when it is first read."""


def _default_cost(spec: tuple[Any, ...]) -> int:
    """What the default value of a type spec costs a reader (the IR's default_cost): the default structs
    it holds (a struct spec's third item), those of an array's every element."""
    if spec[0] == "struct":
        return spec[2]  # type: ignore[no-any-return]
    if spec[0] == "array":
        return spec[2] * _default_cost(spec[1])  # type: ignore[no-any-return]
    return 0


def _read(spec: tuple[Any, ...], x: str, f: str, source: Source, depth: int) -> str:
    """The source of an expression reading ``x`` (parsed JSON) as a value of a type spec; ``f`` is the
    member's name (a literal) its errors name; depth numbers an item's local. A collection's spec ends
    with what each of its items costs (its length: an array's, whose items are part of its struct's cost)."""
    kind = spec[0]
    if kind == "struct":
        return f"{JSON_READERS.named(source, spec[1])}({x}, {f}, b)"
    if kind == "optional":
        return f"(None if {x} is None else {_read(spec[1], x, f, source, depth)})"
    if kind not in ("array", "vector", "list", "set", "map", "hash"):
        return _read_scalar(spec, x, f, source, False)
    if kind == "array":
        items = f"{source.name(get_array)}({x}, {spec[2]}, {f})"
    elif kind in ("map", "hash") and spec[1][0] == "struct":  # an array of [key, value] pairs
        items = f"{source.name(charged)}({source.name(get_pairs)}({x}, {f}), b, {spec[3]}, {f})"
    elif kind in ("map", "hash"):
        items = f"{source.name(charged)}({source.name(get_object)}({x}, {f}), b, {spec[3]}, {f}).items()"
    else:
        items = f"{source.name(charged)}({source.name(get_list)}({x}, {f}), b, {spec[2]}, {f})"
    k, e = f"k{depth}", f"e{depth}"
    if kind in ("map", "hash"):
        if spec[1][0] == "struct":
            key = _read(spec[1], k, f, source, depth + 1)
        else:
            key = _read_scalar(spec[1], k, f, source, True)
        entries = f"{{{key}: {_read(spec[2], e, f, source, depth + 1)} for {k}, {e} in {items}}}"
        return f"{source.name(distinct)}({entries}, {x}, {f})"
    element = _read(spec[1], e, f, source, depth + 1)
    if kind == "set":
        return f"{source.name(distinct_set)}({{{element} for {e} in {items}}}, {x}, {f})"
    return f"[{element} for {e} in {items}]"


_READ: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "bool": (get_bool, key_bool), "float": (get_float32, key_float32), "double": (get_float, key_float),
    "decimal": (get_decimal, get_decimal), "uuid": (get_uuid, get_uuid), "char": (get_char, key_char),
}
"""The function reading a value and a map key of each leaf of a type spec that :func:`_read_scalar`
does not write out, by its name (a char's, a float's: float or double) or its kind."""


def _read_scalar(spec: tuple[Any, ...], x: str, f: str, source: Source, key: bool) -> str:
    """The source of an expression reading a primitive or an enum from a JSON value ``x``, or (key)
    from a member name (docs/format.md 8.1): an integer, an enum's or flags' value within its range, as
    the class of its spec; flags of a signed type (those with a sort key, spec[5]) as the signed
    number, held as its bits."""
    kind, name = spec[0], spec[1] if len(spec) > 1 else ""
    if kind == "string":
        text = x if key else f"{source.name(get_str)}({x}, {f})"
        return f"{source.name(charged_str)}({text}, b, {f})"
    if kind == "bytes":
        return f"{source.name(charged_bytes)}({source.name(get_bytes)}({x}, {f}), b, {f})"
    if kind != "int" or name == "char":
        return f"{source.name(_READ[name or kind][key])}({x}, {f})"
    lo, hi, mask = spec[2], spec[3], ""
    if len(spec) > 5:  # its range 0..mask (the bits), read from the signed type's
        lo, hi, mask = -(hi + 1) // 2, hi // 2, f" & {hi}"
    number = f"{source.name(key_int if key else get_int)}({x}, {lo}, {hi}, {f}){mask}"
    return f"{source.name(spec[4])}({number})" if len(spec) > 4 else number
