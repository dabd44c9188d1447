"""JSON mapping helpers, FORMAT.md section 8.

Writing produces exactly the original's compact JSON (RapidJSON ``Writer``);
reading uses the standard :mod:`json` module and converts the parsed values.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import struct
import uuid as _uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import DecodeError, EncodeError
from .values import DecimalLike, decimal_to_double, parse_uuid

_ESCAPES: dict[int, str] = {c: f"\\u{c:04X}" for c in range(0x20)}
_ESCAPES.update({0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r", 0x22: '\\"', 0x5C: "\\\\"})


def json_string(value: str) -> str:
    """A JSON string literal escaped as RapidJSON does (``/`` and non-ASCII raw)."""
    return '"' + value.translate(_ESCAPES) + '"'


def json_double(value: float) -> str:
    """A number as RapidJSON's ``Writer::Double`` prints it (FORMAT.md 8.2)."""
    r = repr(value)
    if "e" not in r:
        if r[-1] == "n" or r[-1] == "f":
            raise EncodeError(f"JSON cannot represent {r}")
        return r
    mant, exp = r.split("e")
    neg = mant[0] == "-"
    if neg:
        mant = mant[1:]
    dot = mant.find(".")
    if dot < 0:
        digits, intlen = mant, len(mant)
    else:
        digits, intlen = mant[:dot] + mant[dot + 1:], dot
    digits = digits.rstrip("0") or "0"
    kk = intlen + int(exp)
    n = len(digits)
    k = kk - n
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


def json_float(value: float) -> str:
    """A binary32 value: widened to double, then as :func:`json_double`."""
    return json_double(value)


def json_char(value: int) -> str:
    """A ``char`` as its byte value 0..255.

    Deliberate difference (DESIGN.md): the original goes through a signed
    char and writes bytes >= 0x80 as 4294967296 - (256 - b); readers accept
    both forms (see :func:`get_int` callers, which keep the low byte).
    """
    return str(value & 0xFF)


def json_char_key(value: int) -> str:
    """A ``char`` map key: the byte value 0..255 (the original writes a signed char, -128..127)."""
    return '"' + str(value & 0xFF) + '"'


def json_decimal(value: DecimalLike) -> str:
    """A decimal as a JSON string of ``%f`` of its double value."""
    return '"' + (f"{decimal_to_double(value):f}") + '"'


def json_bytes(value: bytes) -> str:
    return '"' + base64.b64encode(value).decode("ascii") + '"'


def json_uuid(value: _uuid.UUID) -> str:
    return '"' + str(value) + '"'


def json_bool(value: bool) -> str:
    return "true" if value else "false"


def json_fixed_key(value: float) -> str:
    """A float/double map key: C ``%f``."""
    return '"' + (f"{value:f}") + '"'


# ---------------------------------------------------------------- reading

def parse(text: str | bytes) -> Any:
    """Parse JSON text with the standard library; errors become DecodeError."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise DecodeError(f"invalid JSON: {e}") from None


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
    return value


def get_float(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _mismatch("number", value, field)
    return float(value)


def get_float32(value: Any, field: str) -> float:
    """A binary32 value: the number rounded to float (out of range is an error)."""
    d = get_float(value, field)
    try:
        return float(_F32.unpack(_F32.pack(d))[0])
    except (OverflowError, struct.error):
        raise DecodeError(f"JSON number {d} out of float range", None, field) from None


def unsupported_key(type_name: str) -> Any:
    """Struct map keys have no JSON form in the original (FORMAT.md 8.1)."""
    raise EncodeError(f"JSON cannot use {type_name} as a map key")


def get_str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise _mismatch("string", value, field)
    return value


def get_decimal(value: Any, field: str) -> Decimal:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Decimal(repr(value))
    s = get_str(value, field).strip()
    try:
        d = Decimal(s)
    except InvalidOperation:
        raise DecodeError(f"invalid decimal {s!r}", None, field) from None
    if not d.is_finite():
        raise DecodeError(f"invalid decimal {s!r}", None, field)
    return d


_F32 = struct.Struct("<f")
_B64 = re.compile(r"[A-Za-z0-9+/]*")


def get_bytes(value: Any, field: str) -> bytes:
    """Base64 decoded up to the first character outside the alphabet."""
    s = get_str(value, field)
    m = _B64.match(s)
    body = m.group(0) if m else ""
    body = body[: len(body) - len(body) % 4] + (
        body[len(body) - len(body) % 4:] + "==="[: (4 - len(body) % 4) % 4] if len(body) % 4 else ""
    )
    try:
        return base64.b64decode(body)
    except (binascii.Error, ValueError):
        raise DecodeError("invalid base64", None, field) from None


def get_uuid(value: Any, field: str) -> _uuid.UUID:
    try:
        return parse_uuid(get_str(value, field))
    except ValueError:
        raise DecodeError(f"invalid uuid {value!r}", None, field) from None


def get_list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _mismatch("array", value, field)
    return value


def get_object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _mismatch("object", value, field)
    return value


def key_int(key: str, lo: int, hi: int, field: str) -> int:
    try:
        v = int(key)
    except ValueError:
        raise DecodeError(f"invalid integer key {key!r}", None, field) from None
    if not lo <= v <= hi:
        raise DecodeError(f"integer key {key!r} out of range", None, field)
    return v


def key_char(key: str, field: str) -> int:
    return key_int(key, -128, 255, field) & 0xFF


def key_bool(key: str, field: str) -> bool:
    return key_int(key, 0, 1, field) != 0


def key_float(key: str, field: str) -> float:
    try:
        return float(key)
    except ValueError:
        raise DecodeError(f"invalid number key {key!r}", None, field) from None
