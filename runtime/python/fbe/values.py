"""Scalar value helpers: decimal (docs/format.md 2.4), uuid (2.3), timestamps (2.2).

* ``decimal`` values are :class:`decimal.Decimal` in memory. Exact decimals
  are stored exactly (trailing fraction zeros removed, as the original writer
  never produces them); a ``float`` is converted with the original writer's
  double -> decimal algorithm so the bytes match the original's.
* ``uuid`` values are :class:`uuid.UUID`; the 16 wire bytes are ``UUID.bytes``.
* ``timestamp`` values are ``int`` nanoseconds since the Unix epoch (UTC).
"""

from __future__ import annotations

import datetime as _dt
import struct
import time
import uuid as _uuid
from decimal import Decimal

from .errors import DecodeError, EncodeError

DecimalLike = Decimal | float | int

_D = struct.Struct("<d")
_Q = struct.Struct("<Q")
_DEC = struct.Struct("<QII")
ZERO16 = bytes(16)
_POW10F = tuple(float(10 ** i) for i in range(29))
_MASK96 = (1 << 96) - 1
_MAX96 = 1 << 96
_TWO64F = 1.8446744073709552e19


def _double_parts(value: float) -> tuple[int, int, int]:
    """The original writer's double -> (sign, magnitude, scale), docs/format.md 2.4."""
    bits = _Q.unpack(_D.pack(value))[0]
    x = ((bits >> 52) & 0x7FF) - 1022
    if x < -94 or x > 96:
        return 0, 0, 0
    sign = bits >> 63
    d = -value if sign else value
    p = 14 - ((x * 19728) >> 16)
    if p >= 0:
        p = min(p, 28)
        d = d * _POW10F[p]
    elif p != -1 or d >= 1e15:
        d = d / _POW10F[-p]
    else:
        p = 0
    if d < 1e14 and p < 28:
        d = d * 10.0
        p += 1
    m = int(d)
    f = d - m
    if f > 0.5 or (f == 0.5 and m & 1):
        m += 1
    if m == 0:
        return 0, 0, 0
    if p < 0:
        return sign, (m * 10 ** (-p)) & _MASK96, 0
    budget = min(14, p)
    for z, div in ((8, 100000000), (4, 10000), (2, 100), (1, 10)):
        if z <= budget and m % div == 0:
            m //= div
            p -= z
            budget -= z
    return sign, m, p


def _short(value: object) -> str:
    """At most 32 characters of a value's text for an error message (docs/limits.md 7)."""
    text = str(value)
    return text if len(text) <= 32 else text[:32] + "..."


def _decimal_parts(value: Decimal) -> tuple[int, int, int]:
    """An exact Decimal -> (sign, magnitude, scale) in the one form writers store (docs/format.md
    2.4): no trailing fraction zeros, zero unsigned. A value no decimal holds exactly (more than 28
    fraction digits, a magnitude of 2^96 or more) is an EncodeError, never rounded."""
    sign, digits, exp = value.as_tuple()
    if not isinstance(exp, int):
        raise EncodeError(f"decimal {value} is not finite")
    n = len(digits)
    while n and digits[n - 1] == 0:          # trailing zeros: the value is digits[:n] * 10^exp
        n -= 1
        exp += 1
    if n == 0:
        return 0, 0, 0
    if exp < -28:
        raise EncodeError(f"decimal {_short(value)} has more than 28 fraction digits")
    if n + max(exp, 0) > 29:
        raise EncodeError(f"decimal {_short(value)} out of range: more than 96 bits")
    mag = int("".join(map(str, digits[:n])))
    if exp > 0:
        mag *= 10 ** exp
    if mag >= _MAX96:
        raise EncodeError(f"decimal {_short(value)} out of range: more than 96 bits")
    return sign, mag, max(-exp, 0)


def decimal_parts(value: DecimalLike) -> tuple[int, int, int]:
    """(sign, 96-bit magnitude, scale) that the writer stores for ``value``."""
    if isinstance(value, float):
        sign, mag, scale = _double_parts(value)
        while scale and mag % 10 == 0:      # 0.9999999999999999 -> 10, scale 1: the one form is 1
            mag //= 10
            scale -= 1
        return sign, mag, scale
    if isinstance(value, Decimal):
        return _decimal_parts(value)
    if isinstance(value, int):
        return _decimal_parts(Decimal(value))
    raise EncodeError(f"expected a decimal, got {type(value).__name__}")


def encode_decimal(value: DecimalLike) -> bytes:
    """The 16 wire bytes of a decimal value (docs/format.md 2.4)."""
    sign, mag, scale = decimal_parts(value)
    if not mag:
        return ZERO16
    return _DEC.pack(mag & 0xFFFFFFFFFFFFFFFF, mag >> 64, (scale << 16) | (sign << 31))


DECIMAL_RESERVED = 0x7F00FFFF
"""The flag bits of a decimal that are neither its scale nor its sign: always 0 (docs/format.md 2.4)."""


def decimal_flags_error(flags: int) -> str | None:
    """Why a decimal's flags word is refused (a scale above 28, reserved bits set), or None."""
    scale = (flags >> 16) & 0xFF
    if scale > 28:
        return f"decimal scale {scale} above 28"
    if flags & DECIMAL_RESERVED:
        return f"decimal flags 0x{flags:08X}: reserved bits set"
    return None


def decode_decimal(raw: bytes, offset: int | None = None, field: str | None = None) -> Decimal:
    """An exact Decimal from 16 wire bytes; the exponent is minus the wire scale. A scale above 28
    or a reserved flag bit is a DecodeError naming ``field`` and ``offset`` (the bytes' position)."""
    lo, hi, flags = _DEC.unpack(raw)
    if flags & DECIMAL_RESERVED or flags & 0xFF0000 > 0x1C0000:
        raise DecodeError(decimal_flags_error(flags) or "", None, field, offset)
    mag = lo | (hi << 64)
    scale = (flags >> 16) & 0xFF
    if not mag and not scale:
        return Decimal(0)
    return Decimal(("-" if flags >> 31 else "") + str(mag) + "E-" + str(scale))


def decimal_from_double(value: float) -> Decimal:
    """What the original holds after writing ``value`` (15 significant digits)."""
    return decode_decimal(encode_decimal(float(value)))


def decimal_to_double(value: DecimalLike) -> float:
    """The original reader's decimal -> double conversion (used by JSON and text).

    The parts are taken as stored on the wire: an exact Decimal keeps its own
    scale when it fits, a float goes through the writer's conversion first.
    """
    if isinstance(value, Decimal):
        sign, digits, exp = value.as_tuple()
        if isinstance(exp, int) and -255 <= exp <= 0 and len(digits) <= 29:
            mag = int("".join(map(str, digits))) if digits else 0
            if mag < _MAX96:
                return _parts_to_double(sign, mag, -exp)
    sign, mag, scale = decimal_parts(value)
    return _parts_to_double(sign, mag, scale)


def _parts_to_double(sign: int, mag: int, scale: int) -> float:
    d = (float(mag & 0xFFFFFFFFFFFFFFFF) + float(mag >> 64) * _TWO64F) / (
        _POW10F[scale] if scale < 29 else float(10 ** scale)
    )
    return -d if sign else d


# ---------------------------------------------------------------- uuid

NIL_UUID = _uuid.UUID(int=0)


def uuid1() -> _uuid.UUID:
    """A new time-based uuid (schema constant ``uuid1``)."""
    return _uuid.uuid1()


def uuid4() -> _uuid.UUID:
    """A new random uuid (schema constant ``uuid4``)."""
    return _uuid.uuid4()


def parse_uuid(text: str) -> _uuid.UUID:
    """The original's lenient uuid parser (docs/format.md 2.3).

    Skips ``-``, ``{`` and ``}``, takes hex digit pairs, stops after 16 bytes
    and zero-fills a short string; a non-hex digit raises ``ValueError``.
    """
    digits = [c for c in text if c not in "-{}"]
    out = bytearray(16)
    i = 0
    while i < 16 and 2 * i + 1 < len(digits):
        out[i] = int(digits[2 * i] + digits[2 * i + 1], 16)
        i += 1
    return _uuid.UUID(bytes=bytes(out))


# ---------------------------------------------------------------- timestamps

EPOCH = 0


def utc() -> int:
    """The current UTC time in nanoseconds since the epoch (schema constant ``utc``)."""
    return time.time_ns()


def timestamp_to_datetime(ns: int) -> _dt.datetime:
    """A timezone-aware UTC datetime (microsecond precision) from nanoseconds."""
    return _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(microseconds=ns // 1000)


def timestamp_from_datetime(value: _dt.datetime) -> int:
    """Nanoseconds since the epoch; a naive datetime is taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
    return (delta.days * 86400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
