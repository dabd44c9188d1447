"""fbe.dynamic's writers make one set of checks (docs/limits.md 8): what its binary writers refuse, its
JSON writer refuses too, with the same error naming the root type and the field path. Before, the
JSON writer checked only what its text needed: a Decimal in an int32 map value was written as
"2.5", an int32 of 2**40 as 1099511627776, and None in a string failed with an AttributeError."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import fbe
import pytest
from fbe.dynamic import DynamicCodec
from fbe_testlib import REPO, compile_ir, shared_dir

TYPE = "everything.Everything"


@pytest.fixture(scope="module")
def codec() -> DynamicCodec:
    return DynamicCodec(compile_ir(REPO / "schemas" / "tests" / "everything.fbe"))


def refusals(codec: DynamicCodec, value: Any, type_: str = TYPE) -> list[str]:
    """The errors of the versioned, final and JSON writers."""
    errors = []
    for fmt in ("versioned", "final", "json"):
        with pytest.raises(fbe.EncodeError) as refused:
            if fmt == "json":
                codec.to_json(value, type_)
            else:
                codec.encode(value, type_, fmt)
        errors.append(str(refused.value))
    return errors


@pytest.mark.parametrize(("field", "held", "error"), [
    ("f52", [(Decimal(1), Decimal("2.5"))], "everything.Everything.f52[0].value: expected an integer (int32)"),
    ("f9", 1 << 40, "everything.Everything.f9: 1099511627776 is out of range for int32"),
    ("f43", [(1, 2)], "everything.Everything.f43[0].value: expected a string, got int"),
    ("f17", None, "everything.Everything.f17: expected a string, got NoneType"),
    ("f17", "a\ud800", "everything.Everything.f17: string 'a\\ud800' holds the lone surrogate U+D800"),
    ("f20", 7, "everything.Everything.f20: expected a uuid, got int"),
])
def test_every_writer_refuses_the_same_values(codec: DynamicCodec, field: str, held: Any, error: str) -> None:
    value = dict(codec.default(TYPE), **{field: held})
    errors = refusals(codec, value)
    assert errors[0].startswith(error), errors
    assert errors[1] == errors[2] == errors[0], errors


def test_a_byte_in_a_string_is_written_by_every_writer(codec: DynamicCodec) -> None:
    """U+DC80..U+DCFF in a str is a byte that is not UTF-8 (as the readers give it): written, not refused."""
    value = dict(codec.default(TYPE), f17="a\udcff")
    for fmt in ("versioned", "final"):
        assert codec.decode(codec.encode(value, TYPE, fmt), TYPE, fmt)[0]["f17"] == "a\udcff"
    assert '"f17":"a\\udcff"' in codec.to_json(value, TYPE)


def test_a_description_with_null_where_the_type_has_none_names_the_field() -> None:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared (the reference schemas) not found")
    codec = DynamicCodec(compile_ir(shared / "schemas" / "proto.fbe"))
    described = codec.to_described(codec.default("proto.Account"), "proto.Account")
    with pytest.raises(fbe.EncodeError, match=r"^proto\.Account\.wallet: expected an object for proto\.Balance"):
        codec.from_described(dict(described, wallet=None), "proto.Account")
    assert refusals(codec, codec.from_described(dict(described, name=None), "proto.Account"), "proto.Account") \
        == ["proto.Account.name: expected a string, got NoneType"] * 3
