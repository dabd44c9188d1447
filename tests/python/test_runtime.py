"""Unit tests of the runtime package `fbe` (no generated code)."""

from __future__ import annotations

import datetime as dt
import struct
import uuid
from decimal import Decimal

import fbe
import pytest
from fbe import jsonfmt, text, values
from fbe.buffer import Reader, read_count, read_string

try:
    from hypothesis import given
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is installed by make test-python
    given = None


# ---------------------------------------------------------------- decimal (docs/format.md 2.4)

@pytest.mark.parametrize("value, mag, scale, sign", [
    (0.1, 1, 1, 0), (1.5, 15, 1, 0), (-123.456, 123456, 3, 1), (123456.123456, 123456123456, 6, 0),
    (1e20, 100000000000000000000, 0, 0), (1 / 3, 333333333333333, 15, 0), (1.5e-28, 2, 28, 0),
    (1e-29, 0, 0, 0), (0.0, 0, 0, 0), (-0.0, 0, 0, 0), (float("inf"), 0, 0, 0), (float("nan"), 0, 0, 0),
    (8e28, 0, 0, 0), (7.92e28, 79200000000000000000000000000, 0, 0),
])
def test_double_to_decimal_examples(value: float, mag: int, scale: int, sign: int) -> None:
    raw = fbe.encode_decimal(value)
    lo, hi, flags = struct.unpack("<QII", raw)
    assert (lo | hi << 64, (flags >> 16) & 0xFF, flags >> 31) == (mag, scale, sign)
    assert flags & ~0x80FF0000 == 0


def test_zero_is_sixteen_zero_bytes() -> None:
    for v in (0.0, -0.0, Decimal(0), Decimal("-0.000"), 0):
        assert fbe.encode_decimal(v) == bytes(16)


def test_exact_decimal_keeps_all_digits() -> None:
    d = Decimal("1234567890.123456789012345678")
    assert fbe.decode_decimal(fbe.encode_decimal(d)) == d
    big = Decimal(79228162514264337593543950335)
    assert fbe.decode_decimal(fbe.encode_decimal(big)) == big
    with pytest.raises(fbe.EncodeError):
        fbe.encode_decimal(big + 1)
    with pytest.raises(fbe.EncodeError):
        fbe.encode_decimal(Decimal("NaN"))


def test_exact_decimal_normalised_like_the_original() -> None:
    assert fbe.encode_decimal(Decimal("1.500")) == fbe.encode_decimal(1.5)
    assert fbe.encode_decimal(Decimal("1E+3")) == fbe.encode_decimal(1000.0)
    assert fbe.encode_decimal(Decimal("1.000000000000000000000000000000000")) == fbe.encode_decimal(1)
    assert fbe.encode_decimal(Decimal("1E-28")) == bytes([1] + [0] * 13 + [28, 0])


def test_a_value_no_decimal_holds_is_not_written() -> None:
    """Never rounded (docs/format.md 2.4): more than 28 fraction digits, or 2^96 and more."""
    for value in (Decimal("1.5E-28"), Decimal(1) / Decimal(300), Decimal.from_float(0.1), Decimal("1E+29"),
                  Decimal("1E+999999999"), Decimal("7" * 100000)):
        with pytest.raises(fbe.EncodeError, match="more than 28 fraction digits|more than 96 bits") as e:
            fbe.encode_decimal(value)
        assert len(str(e.value)) < 100


@pytest.mark.parametrize("flags, error", [
    (29 << 16, "decimal scale 29 above 28"), (255 << 16, "decimal scale 255 above 28"),
    (0x80000000 | 40 << 16, "decimal scale 40 above 28"),
    (1, "decimal flags 0x00000001: reserved bits set"), (0x01000000 | 2 << 16, "decimal flags 0x01020000"),
    (0x40000000, "decimal flags 0x40000000"),
])
def test_a_decimal_with_a_scale_above_28_or_reserved_bits_is_refused(flags: int, error: str) -> None:
    raw = struct.pack("<QII", 15, 0, flags)
    with pytest.raises(fbe.DecodeError, match=error) as e:
        fbe.decode_decimal(raw, 40, "price")
    assert e.value.offset == 40 and e.value.field == "price"


def test_a_decimal_zero_with_a_sign_or_a_scale_reads_as_zero() -> None:
    for flags in (0x80000000, 28 << 16, 0x80000000 | 3 << 16):
        assert fbe.decode_decimal(struct.pack("<QII", 0, 0, flags)) == 0
    assert fbe.decode_decimal(struct.pack("<QII", 150, 0, 2 << 16)) == Decimal("1.50")


def test_decimal_to_double_reader() -> None:
    assert fbe.decimal_to_double(Decimal("123456.123456")) == 123456.123456
    assert fbe.decimal_to_double(Decimal("-123.456")) == -123.456
    assert fbe.decimal_from_double(1 / 3) == Decimal("0.333333333333333")


if given is not None:
    @given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e27, max_value=1e27))
    def test_double_decimal_bytes_match_decimal_path(x: float) -> None:
        # writing the double, or the Decimal the original would hold, gives the same bytes
        raw = fbe.encode_decimal(x)
        assert fbe.encode_decimal(fbe.decode_decimal(raw)) == raw

    @given(st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-10**15, max_value=10**15))
    def test_exact_decimal_roundtrip(d: Decimal) -> None:
        assert fbe.decode_decimal(fbe.encode_decimal(d)) == d


# ---------------------------------------------------------------- uuid, timestamps

def test_uuid_parser_is_lenient() -> None:
    u = uuid.UUID("123e4567-e89b-12d3-a456-426655440000")
    assert fbe.parse_uuid("{123E4567-E89B-12D3-A456-426655440000}") == u
    assert fbe.parse_uuid("123e4567e89b12d3a456426655440000") == u
    assert fbe.parse_uuid("12") == uuid.UUID("12000000-0000-0000-0000-000000000000")
    with pytest.raises(ValueError):
        fbe.parse_uuid("zz")
    assert u.bytes == bytes.fromhex("123e4567e89b12d3a456426655440000")


def test_timestamps() -> None:
    ns = 1577836800123456789
    d = fbe.timestamp_to_datetime(ns)
    assert d == dt.datetime(2020, 1, 1, 0, 0, 0, 123456, tzinfo=dt.timezone.utc)
    assert fbe.timestamp_from_datetime(d) == ns - 789
    assert fbe.timestamp_from_datetime(dt.datetime(1970, 1, 1)) == 0
    assert abs(fbe.utc() - fbe.timestamp_from_datetime(dt.datetime.now(dt.timezone.utc))) < 10**10


# ---------------------------------------------------------------- JSON (docs/format.md 8)

@pytest.mark.parametrize("value, out", [
    (1000.0, "1000.0"), (10000000000.0, "10000000000.0"), (1e20, "100000000000000000000.0"), (0.0, "0.0"),
    (-0.0, "-0.0"), (1.23456, "1.23456"), (1 / 3, "0.3333333333333333"), (1e-6, "0.000001"),
    (1.234e-6, "0.000001234"), (1e-7, "1e-7"), (-2.5e-10, "-2.5e-10"), (1e-300, "1e-300"),
    (-1.23456e125, "-1.23456e125"), (1e21, "1e21"), (5e-324, "5e-324"), (123.45600128173828, "123.45600128173828"),
])
def test_json_double(value: float, out: str) -> None:
    assert jsonfmt.json_double(value) == out


def test_json_writes_nan_as_strings() -> None:
    # the original's writer fails; as the C++ runtime: the strings of the Protobuf JSON convention
    assert [jsonfmt.json_double(v) for v in (float("nan"), float("inf"), float("-inf"))] == [
        '"NaN"', '"Infinity"', '"-Infinity"']


def test_json_strings_and_scalars() -> None:
    assert jsonfmt.json_string('a"b\\c\x01\x1f\n\t/é\x7f') == '"a\\"b\\\\c\\u0001\\u001F\\n\\t/é\x7f"'
    assert jsonfmt.json_char(0xC8) == "200"  # the original: 4294967240 (signed char), docs/design.md fixes it
    assert jsonfmt.json_char_key(0xC8) == '"200"'  # the original: "-56"
    assert jsonfmt.key_char("-56", "f") == jsonfmt.key_char("200", "f") == 0xC8
    assert jsonfmt.json_decimal(Decimal("-123.456")) == '"-123.456000"'
    assert jsonfmt.json_decimal(Decimal("0.0000001")) == '"0.0000001"'  # exact (the original: "0.000000")
    assert jsonfmt.json_bytes(b"ABC") == '"QUJD"'
    assert jsonfmt.json_double_key(1.5) == '"1.500000"'
    assert jsonfmt.get_bytes("QUJD", "f") == b"ABC"
    assert jsonfmt.get_bytes("QUI=", "f") == b"AB"
    for lenient in ("QUJD====", "QUI"):  # the original reads them; docs/limits.md 7: strict Base64
        with pytest.raises(fbe.DecodeError, match="invalid base64"):
            jsonfmt.get_bytes(lenient, "f")
    assert jsonfmt.get_float32(123.456, "f") == struct.unpack("<f", struct.pack("<f", 123.456))[0]
    with pytest.raises(fbe.DecodeError):
        jsonfmt.get_int(2**40, -(2**31), 2**31 - 1, "f")
    with pytest.raises(fbe.DecodeError):
        jsonfmt.get_bool(1, "f")


# ---------------------------------------------------------------- text (docs/format.md 9)

def test_text_formats() -> None:
    assert [text.fmt_g(x) for x in (1000.0, 1.23456, 1 / 3, 1e10, 1e-300, -2.5e-10, -0.0, float("inf"))] == [
        "1000", "1.23456", "0.333333", "1e+10", "1e-300", "-2.5e-10", "-0", "inf"]
    assert text.fmt_decimal(Decimal("123456.123456")) == "123456.123456"
    assert fbe.text_bytes(text.fmt_char(0)) == b"'\x00'"
    assert fbe.text_bytes(text.fmt_char(0xC8)) == b"'\xc8'"
    assert fbe.text_bytes(text.fmt_wchar(0x0444)) == b"'D'"
    assert text.fmt_flags(6, [("unknown", 0), ("initialized", 2), ("calculated", 4), ("good", 6)]) == \
        "initialized|calculated|good"
    assert text.fmt_flags(0, [("unknown", 0)]) == ""
    assert text.fmt_enum(5, {0: "a"}) == "<unknown>"


# ---------------------------------------------------------------- buffers and limits

def test_reader_bounds() -> None:
    data = struct.pack("<II", 4, 100) + b"abc"
    r = Reader(data)
    with pytest.raises(fbe.DecodeError) as e:
        read_string(r, 0, 4, "name")
    assert e.value.field == "name" and e.value.offset == 4
    assert "name" in str(e.value)
    r = Reader(struct.pack("<I", 0xFFFFFFFF) + bytes(12))
    with pytest.raises(fbe.DecodeError):
        read_count(r, 0, 1, 1, "v")


def test_buffers() -> None:
    w = fbe.WriteBuffer()
    w.buffer += b"abc"
    assert w.size == 3 and bytes(w) == b"abc"
    r = fbe.ReadBuffer()
    r.attach_buffer(w)
    assert r.size == 3 and r.data == b"abc"
    w.reset()
    assert w.size == 0


def test_exception_hierarchy() -> None:
    assert issubclass(fbe.DecodeError, fbe.FBEError)
    assert issubclass(fbe.EncodeError, fbe.FBEError)
    assert issubclass(fbe.FrameError, fbe.FBEError)
    assert issubclass(fbe.RequestError, fbe.FBEError)
    e = fbe.DecodeError("bad", "proto.Account", "name", 12)
    assert str(e) == "bad (proto.Account.name, offset 12)"


def test_values_module() -> None:
    assert values.NIL_UUID.int == 0
    assert values.uuid1().version == 1 and values.uuid4().version == 4


@pytest.mark.parametrize("offset", [0, 4, 7])
def test_versioned_frame_struct_offset_inside_the_header_is_refused(offset: int) -> None:
    """The root struct of a frame starts after the 8-byte frame header (as the C++ Receiver checks)."""
    frame = struct.pack("<II", 24, offset) + struct.pack("<II", 8, 7) + bytes(8)
    with pytest.raises(fbe.FrameError, match=f"struct offset {offset} outside the frame"):
        fbe.protocol.frame_type(frame, False)
    assert fbe.protocol.frame_type(struct.pack("<II", 24, 8) + struct.pack("<II", 8, 7) + bytes(8), False) == 7
