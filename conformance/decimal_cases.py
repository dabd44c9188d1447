"""Decimals read and written one way in every language (docs/format.md 2.4, docs/limits.md 7).

Built at run time over schemas/tests/decimals.fbe, whose `decimals.Prices` holds a decimal in
every place a value can be (a field, an optional, an array, a vector, a list, a set, map values,
map keys, a hash, optionals in a vector):

* binary roots, both models, with one decimal's flags patched: a scale of 29 or 255, a reserved
  bit: refused by every reader, wherever the decimal is; a scale of 28 and a signed zero: read;
* the scale a writer puts on the wire: a value held with trailing fraction zeros (bytes of 1.50,
  a value description "130.00") is written without them, in both models and in JSON;
* JSON decimal text: exact or refused (more than 28 fraction digits, 2^96 or more, an exponent
  out of range), at most 64 characters; a megabyte of digits (a member and a map key) refused in
  time linear in its length;
* writer errors: a value description holding a decimal no decimal holds (1e40, in a field, a
  vector's element, an optional in a vector) is refused in every output format with a
  serialize_error naming the field's path (testee_protocol.md, docs/limits.md 8).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from decimal import Decimal
from typing import Any

P = struct.pack
TYPE = "decimals.Prices"
HONEST_REPEAT = 200            # map entries of the honest JSON the megabyte cases are timed against


def _decimals_codec() -> Any:
    """The runner's codec (fbe.dynamic) of schemas/tests/decimals.fbe."""
    from runner import REPO, _codec

    return _codec(str(REPO / "schemas" / "tests" / "decimals.fbe"))


def raw(magnitude: int, scale: int, negative: bool = False, extra: int = 0) -> bytes:
    """A decimal's 16 wire bytes: magnitude, then the flags (scale, sign and any other bits)."""
    return P("<QII", magnitude & (1 << 64) - 1, magnitude >> 64, scale << 16 | negative << 31 | extra)


# Every decimal of the value has its own magnitude, so its bytes occur once in a root.
def sample(codec: Any) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The value whose decimals the cases patch, and the 16 bytes of one decimal of each field."""
    d = Decimal
    value = dict(codec.default(TYPE), price=d("1.25"), maybePrice=d("2.5"), pair=[d("3.5"), d("4.5")],
                 priceVector=[d("5.5")], priceList=[d("6.5")], priceSet=[d("7.5")], priceById=[(1, d("8.5"))],
                 idByPrice=[(d("9.5"), 2)], priceByPrice=[(d("10.5"), d("11.5"))], maybePrices=[None, d("12.5")])
    at = {"price": raw(125, 2), "maybePrice": raw(25, 1), "pair": raw(45, 1), "priceVector": raw(55, 1),
          "priceList": raw(65, 1), "priceSet": raw(75, 1), "priceById": raw(85, 1), "idByPrice": raw(95, 1),
          "priceByPrice": raw(105, 1), "maybePrices": raw(125, 1)}
    return value, at


def decimal_cases(add: Callable[..., None]) -> None:
    """Adds the cases through limits.py's `add(name, suite, request, expect, **kw)`."""
    from limits import _binary  # limits.py imports this module: its helpers are taken here

    codec = _decimals_codec()
    value, at = sample(codec)

    def binary(fmt: str, data: bytes, out: str | None = None) -> dict[str, Any]:
        return _binary("decimals", "Prices", fmt, data, out)

    def patch(data: bytes, old: bytes, new: bytes) -> bytes:
        assert data.count(old) == 1, (old.hex(), data.hex())
        return data.replace(old, new)

    flags = "malformed: decimal flags"
    scale = "decimal: writer scale"
    for fmt in ("versioned", "final"):
        good = bytes(codec.encode(value, TYPE, fmt))
        for field_name, old in at.items():
            magnitude = struct.unpack_from("<Q", old)[0]
            add(f"decimal flags/Prices.{field_name}.{fmt}/scale-29", flags,
                binary(fmt, patch(good, old, raw(magnitude, 29))), "parse_error")
        price = at["price"]
        for name, new in (("scale-255", raw(125, 255)), ("negative-scale-40", raw(125, 40, True)),
                          ("reserved-bit-0", raw(125, 2, extra=1)), ("reserved-bit-15", raw(125, 2, extra=1 << 15)),
                          ("reserved-bit-24", raw(125, 2, extra=1 << 24)),
                          ("reserved-bit-30", raw(125, 2, True, 1 << 30))):
            add(f"decimal flags/Prices.price.{fmt}/{name}", flags, binary(fmt, patch(good, price, new)),
                "parse_error")
        # what .NET may write, read as its value and written in the one form of it
        for name, new, written in (("scale-28", raw(125 * 10 ** 26, 28), price),
                                   ("trailing-zeros-1.50", raw(150, 2), raw(15, 1)),
                                   ("negative-zero-scale-3", raw(0, 3, True), bytes(16)),
                                   ("negative-zero", raw(0, 0, True), bytes(16))):
            add(f"writer scale/Prices.price.{fmt}/{name}", scale, binary(fmt, patch(good, price, new)),
                "result", result=patch(good, price, written))
        # a value description with trailing zeros ("130.00", scale 2 in Go's, JS's and Java's values)
        described = codec.to_described(dict(value, price=Decimal(130)), TYPE)
        described["price"] = "130.00"
        add(f"writer scale/Prices.price.value-130.00->{fmt}", scale,
            {"package": "decimals", "type": "Prices", "input": {"format": "value", "payload": described},
             "output": fmt}, "result", result=patch(good, price, raw(130, 0)))
    # JSON of a value read with trailing zeros: the one form too ("1.500000", not "1.50000000")
    versioned = bytes(codec.encode(value, TYPE, "versioned"))
    add("writer scale/Prices.price.versioned->json/1.50000000", scale,
        binary("versioned", patch(versioned, at["price"], raw(150000000, 8)), "json"), "result",
        result=str(codec.to_json(dict(value, price=Decimal("1.5")), TYPE)).encode())

    json_cases(add, codec, value)
    writer_errors(add, codec, value)


def writer_errors(add: Callable[..., None], codec: Any, value: dict[str, Any]) -> None:
    """A decimal beyond 96 bits where a value description puts it: no writer writes it, and the
    refusal names where it is (a language whose decimal cannot hold it refuses it as it reads the
    description, naming the field as its writers do)."""
    big = "1" + "0" * 40                                  # 1e40, as the digits a description holds
    described = codec.to_described(value, TYPE)
    for where, field_name, held in (("price", "price", big), ("priceVector[1]", "priceVector", ["5.5", big]),
                                    ("maybePrices[1]", "maybePrices", [None, big])):
        payload = dict(described, **{field_name: held})
        for fmt in ("versioned", "final", "json"):
            add(f"Prices.{where}.1e40->{fmt}", "writer errors",
                {"package": "decimals", "type": "Prices", "input": {"format": "value", "payload": payload},
                 "output": fmt}, "serialize_error", result=f"Prices.{where}")


def json_cases(add: Callable[..., None], codec: Any, value: dict[str, Any]) -> None:
    text = str(codec.to_json(value, TYPE))
    member = '"price":"1.250000"'
    assert text.count(member) == 1, text

    def with_price(price: str) -> str:
        return text.replace(member, '"price":"' + price + '"')

    from limits import _json

    def request(json_text: str) -> dict[str, Any]:
        return _json("decimals", "Prices", json_text)

    suite = "malformed: decimal text"
    for name, price in (("more-than-28-fraction-digits", "0.00000000000000000000000000001"),
                        ("1e-29", "1e-29"), ("29-fraction-digits-last-not-0", "7.92281625142643375935439503355"),
                        ("2^96", "79228162514264337593543950336"), ("1e29", "1e29"),
                        ("exponent-out-of-range", "1e99999999999999999999"),
                        ("65-characters", "0" * 64 + "1"), ("not-a-number", "1.2.3"), ("empty", "")):
        add(f"decimal text/Prices.price/{name}", suite, request(with_price(price)), "parse_error")
    exact = "decimal: exact text"
    for name, price, read in (("2^96-1-scale-28", "7.9228162514264337593543950335", "7.9228162514264337593543950335"),
                              ("zero-exponent-out-of-range", "0e99999999999999999999", "0"),
                              ("trailing-zeros-beyond-28", "0.10000000000000000000000000000000", "0.1"),
                              ("64-characters", "0" * 63 + "1", "1"),
                              ("exponent", "-12.5e-3", "-0.0125"), ("negative-zero", "-0.000", "0")):
        add(f"exact text/Prices.price/{name}", exact, request(with_price(price)), "result",
            result=str(codec.to_json(dict(value, price=Decimal(read)), TYPE)).encode())
    # a megabyte of digits, as a member and as a map key: refused by its length, in linear time
    honest_value = dict(value, priceById=[(i, Decimal(i) / 4) for i in range(HONEST_REPEAT)])
    honest = request(str(codec.to_json(honest_value, TYPE)))
    digits = "1" * (1 << 20)
    key = '"9.500000"'                                     # idByPrice's key
    assert text.count(key) == 1, key
    for name, json_text in (("megabyte-of-digits", with_price(digits)),
                            ("megabyte-with-28-fraction-digits", with_price(digits + "." + "1" * 28)),
                            ("megabyte-map-key", text.replace(key, '"' + digits + '"'))):
        add(f"decimal text/Prices/{name}", suite, request(json_text), "parse_error", bound=True, honest=honest)
