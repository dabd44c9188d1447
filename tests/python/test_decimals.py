"""Decimals read and written one way (docs/format.md 2.4): every reader refuses a scale above 28 or
a reserved flag bit, naming the type, the field and the offset, and verify() says what
deserialize() says; every writer stores the value without trailing fraction zeros. The same
buffers are conformance cases (conformance/decimal_cases.py) run against every language."""

from __future__ import annotations

import struct
from decimal import Decimal
from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe.dynamic import DynamicCodec
from fbe_testlib import REPO, compile_ir

ONE_AND_A_HALF = struct.pack("<QII", 15, 0, 1 << 16)      # 1.5: magnitude 15, scale 1


def raw(magnitude: int, flags: int) -> bytes:
    return struct.pack("<QII", magnitude, 0, flags)


BAD_FLAGS = [
    (29 << 16, "decimal scale 29 above 28"),
    (255 << 16, "decimal scale 255 above 28"),
    (0x80000000 | 40 << 16, "decimal scale 40 above 28"),
    (1 << 16 | 1, r"decimal flags 0x00010001: reserved bits set"),
    (1 << 16 | 0x01000000, r"decimal flags 0x01010000: reserved bits set"),
]


@pytest.fixture(scope="module")
def codec() -> DynamicCodec:
    return DynamicCodec(compile_ir(REPO / "schemas" / "tests" / "everything.fbe"))


def value(everything: Any) -> Any:
    """An Everything whose f15 is 1.5 and whose set f51 and map f52 hold decimals too."""
    m = everything.mods["everything"]
    return m.Everything(f15=Decimal("1.5"), f51={Decimal("2.5"), Decimal(3)}, f52={Decimal("4.25"): 1})


@pytest.mark.parametrize("model", ["versioned", "final"])
@pytest.mark.parametrize("flags, error", BAD_FLAGS)
def test_every_reader_refuses_a_bad_scale_or_reserved_bits(everything: Any, codec: DynamicCodec, model: str,
                                                           flags: int, error: str) -> None:
    m = everything.mods["everything"]
    v = value(everything)
    data = v.to_fbe() if model == "versioned" else v.to_final()
    for old, new_flags, field in ((ONE_AND_A_HALF, flags, "f15"), (raw(25, 1 << 16), flags, "f51"),
                                  (raw(425, 2 << 16), flags, "f52")):
        at = data.find(old)
        assert at > 0 and data.count(old) == 1
        bad = data[:at] + raw(struct.unpack_from("<Q", old)[0], new_flags) + data[at + 16:]
        read = m.Everything.from_fbe if model == "versioned" else m.Everything.from_final
        with pytest.raises(fbe.DecodeError, match=error) as e:
            read(bad)
        assert (e.value.type, e.value.field, e.value.offset) == ("everything.Everything", field, at)
        model_class = m.EverythingModel if model == "versioned" else m.EverythingFinalModel
        reader = model_class()
        reader.attach(bad)
        assert not reader.verify()                        # verify() is deserialize() without the value
        with pytest.raises(fbe.DecodeError, match=error) as d:
            codec.decode(bad, "everything.Everything", model)
        assert d.value.offset == at and str(d.value).startswith(str(e.value).split(" (")[0])


def test_a_zero_with_a_sign_or_a_scale_and_trailing_zeros_are_read(everything: Any) -> None:
    """What .NET writes (0.00, -0, 1.50) is a decimal of scale 0..28: read, and written back in the
    one form of its value."""
    m = everything.mods["everything"]
    data = value(everything).to_fbe()
    for flags, magnitude, read in ((2 << 16, 150, Decimal("1.50")), (0x80000000, 0, Decimal(0)),
                                   (0x80000000 | 28 << 16, 0, Decimal(0))):
        v = m.Everything.from_fbe(data.replace(ONE_AND_A_HALF, raw(magnitude, flags)))
        assert v.f15 == read
        # f15's slot (offset 69, as below): searching the whole buffer also met the uuid and
        # timestamp defaults (uuid1, uuid4, utc), whose bytes change from run to run
        assert v.to_fbe()[69:85] == (ONE_AND_A_HALF if magnitude else bytes(16))


@pytest.mark.parametrize("text, written", [
    ("130.00", raw(130, 0)), ("1.50", ONE_AND_A_HALF), ("-0.000", bytes(16)), ("1E+3", raw(1000, 0)),
    ("0.1000000000000000000000000000", raw(1, 1 << 16)),
])
def test_writers_store_the_value_without_trailing_fraction_zeros(everything: Any, codec: DynamicCodec, text: str,
                                                                 written: bytes) -> None:
    m = everything.mods["everything"]
    v = m.Everything(f15=Decimal(text))
    assert v.to_fbe()[69:85] == written and v.to_final()[61:77] == written
    d = codec.default("everything.Everything")
    d["f15"] = Decimal(text)
    assert bytes(codec.encode(d, "everything.Everything", "versioned"))[69:85] == written


def test_a_value_no_decimal_holds_is_not_written(everything: Any, codec: DynamicCodec) -> None:
    """Refused by every writer, the error naming the field (docs/limits.md 8): fbe.dynamic's binary
    writers named none before (`decimal 1E-29 has more than 28 fraction digits`)."""
    m = everything.mods["everything"]
    for bad in (Decimal("1E-29"), Decimal(2) ** 96):
        with pytest.raises(fbe.EncodeError, match=r"Everything\.f15\b"):
            m.Everything(f15=bad).to_fbe()
        with pytest.raises(fbe.EncodeError, match=r"Everything\.f15\b"):
            m.Everything(f15=bad).to_json()
    # fbe.dynamic: its JSON writer names the field as its binary writers do, in a field, a list's
    # element and a map's key (before, only `decimal 1E-29 has more than 28 fraction digits`)
    for field, bad_value, where in (("f15", Decimal("1E-29"), "f15"), ("f15", Decimal(2) ** 96, "f15"),
                                    ("f51", [Decimal(1), Decimal(2) ** 96], "f51[1]"),
                                    ("f52", [(Decimal(1), 1), (Decimal("1E-29"), 2)], "f52[0].key")):
        d = codec.default("everything.Everything")
        d[field] = bad_value
        errors = []
        for fmt in ("versioned", "final", "json"):
            with pytest.raises(fbe.EncodeError) as refused:
                if fmt == "json":
                    codec.to_json(d, "everything.Everything")
                else:
                    codec.encode(d, "everything.Everything", fmt)
            errors.append(str(refused.value))
        assert errors[0].startswith(f"everything.Everything.{where}: decimal "), errors[0]
        assert errors[1] == errors[2] == errors[0], errors


def test_json_decimal_text_is_exact_and_bounded(everything: Any, codec: DynamicCodec, tmp_path: Path) -> None:
    m = everything.mods["everything"]
    assert m.Everything.from_json('{"f15":"1.50"}').f15 == Decimal("1.5")
    for text, error in (("1e-29", "more than 28 fraction digits"), ("1" * 30, "more than 96 bits"),
                        ("1" * 100000, "longer than 64 characters")):
        with pytest.raises(fbe.DecodeError, match=error) as e:
            m.Everything.from_json('{"f15":"' + text + '"}')
        assert len(str(e.value)) < 120
        with pytest.raises(fbe.DecodeError, match=error):
            codec.from_json('{"f15":"' + text + '"}', "everything.Everything")
