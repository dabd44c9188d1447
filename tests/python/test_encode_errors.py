"""EncodeError names the type, the field path and the value's problem in plain words (issue 14 item 4),
for every writer: to_fbe, to_final, to_json, the models and the Senders. The explanation is made only
after the fast path failed (fbe.explain walks the value against the generated fbe_spec)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import fbe
import pytest
from fbe_testlib import generate_into, load_modules

SCHEMA = """\
package shop

enum Kind : byte { small; large; }
flags Marks : int16 { new = 1; hot = 2; }

struct Tag { string label; }

message Product
{
    int32 id;
    string name;
    Tag[] tags;
    Kind kind;
    Marks marks;
    float weight;
    string<int32> names;
    decimal price;
    Tag? extra;
    byte[2] pair;
    uuid ref;
}
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("shop")
    path = out / "shop.fbe"
    path.write_text(SCHEMA, encoding="utf-8")
    generate_into(path, out)
    return load_modules(out, ["shop"])["shop"]


def writers(shop: Any, value: Any) -> list[Any]:
    return [value.to_fbe, value.to_final, lambda: shop.ProductModel().serialize(value),
            lambda: shop.ProductFinalModel().serialize(value), lambda: shop.Sender().send(value)]


@pytest.mark.parametrize("fields, message", [
    # the three cases: internals ('i' format requires..., 'int' object has no attribute ...) before
    ({"id": 2**40}, "cannot encode Product.id: 1099511627776 is out of range for int32"),
    ({"name": 5}, "cannot encode Product.name: expected a str, got int 5"),
    ({"tags": [1, 2]}, "cannot encode Product.tags[0]: expected Tag, got int 1"),
    ({"tags": [{"label": "x"}]}, "cannot encode Product.tags[0]: expected Tag, got dict {'label': 'x'}"),
    ({"id": "7"}, "cannot encode Product.id: expected an integer (int32), got str '7'"),
    ({"kind": 300}, "cannot encode Product.kind: 300 is out of range for Kind (uint8)"),
    ({"marks": -1}, "cannot encode Product.marks: -1 is out of range for Marks (int16)"),
    ({"weight": 1e300}, "cannot encode Product.weight: 1e+300 is out of range for float"),
    ({"weight": "heavy"}, "cannot encode Product.weight: expected a number (float), got str 'heavy'"),
    ({"names": {1: b"x"}}, "cannot encode Product.names[1]: expected a str, got bytes b'x'"),
    ({"names": {2**40: "x"}},
     "cannot encode Product.names[1099511627776] (the key): 1099511627776 is out of range for int32"),
    ({"price": Decimal(2**100)}, "cannot encode Product.price: "),
    ({"price": "1.5"}, "cannot encode Product.price: expected a Decimal, got str '1.5'"),
    ({"extra": 5}, "cannot encode Product.extra: expected Tag, got int 5"),
    ({"pair": [1]}, "cannot encode Product.pair: expected 2 elements, got 1"),
    ({"pair": [1, 256]}, "cannot encode Product.pair[1]: 256 is out of range for byte"),
    ({"ref": "not-a-uuid"}, "cannot encode Product.ref: expected a uuid.UUID, got str 'not-a-uuid'"),
    ({"name": "\ud800"}, "cannot encode Product.name: the string holds the lone surrogate U+D800"),
])
def test_encode_errors_name_the_field_and_the_problem(shop: Any, fields: dict[str, Any], message: str) -> None:
    value = shop.Product(**fields)
    for write in writers(shop, value):
        with pytest.raises(fbe.EncodeError) as info:
            write()
        assert str(info.value).startswith(message), str(info.value)


def test_an_int_beyond_every_double(shop: Any) -> None:
    """A float field given an int no double holds (its explanation raised OverflowError)."""
    for write in writers(shop, shop.Product(weight=10**400)):
        with pytest.raises(fbe.EncodeError) as info:
            write()
        assert str(info.value) == f"cannot encode Product.weight: {10**400} is out of range for float"


@pytest.mark.parametrize("fields, message", [
    ({"name": 5}, "cannot encode Product.name: expected a str, got int 5"),
    ({"tags": [None]}, "cannot encode Product.tags[0]: expected Tag, got NoneType None"),
    ({"names": {1: b"x"}}, "cannot encode Product.names[1]: expected a str, got bytes b'x'"),
    ({"name": "x\udc41"}, "cannot encode Product.name: the string holds the lone surrogate U+DC41"),
])
def test_to_json_errors_name_the_field_and_the_problem(shop: Any, fields: dict[str, Any], message: str) -> None:
    with pytest.raises(fbe.EncodeError) as info:
        shop.Product(**fields).to_json()
    assert str(info.value).startswith(message), str(info.value)


def test_nested_paths(shop: Any) -> None:
    value = shop.Product(tags=[shop.Tag(label="a"), shop.Tag(label=3)])
    with pytest.raises(fbe.EncodeError, match=r"^cannot encode Product\.tags\[1\]\.label: expected a str, got int 3$"):
        value.to_fbe()
    assert fbe.explain(shop.Product()) == "cannot encode Product"       # nothing wrong found: no invented path
