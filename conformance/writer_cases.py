"""Values no writer writes, refused naming where they are (docs/limits.md 8; testee_protocol.md,
"Writer errors"): cases every testee runs (conformance/limits.py adds them to the `writer errors`
suite, beside decimal_cases.py's decimal of 1e40).

Built over the reference schema proto.fbe's `proto.Account` (a string, a struct field, a vector of
structs holding strings; `asset` is the only optional):

* a string holding a lone surrogate that stands for no byte (`\\ud800`, `\\udfff`; a description's
  `\\udc80`..`\\udcff` is the byte 0x80..0xFF, as in FBE JSON, docs/limits.md 7) in a field, a
  struct key and a vector element's field: refused in the versioned, final and JSON outputs with
  a serialize_error naming the path (`Account.name`, `Account.orders[1].symbol`);
* null where the type has none (a string, a struct field, a vector's element): the same;
* a description's `\\udcff` written as the byte 0xFF (the string rule's other half: the same
  description is accepted by every testee).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TYPE = "proto.Account"
FORMATS = ("versioned", "final", "json")


def _proto_codec() -> Any:
    """The runner's codec (fbe.dynamic) of the reference schema proto.fbe."""
    from runner import SHARED, _codec

    return _codec(str(SHARED / "schemas" / "proto.fbe"))


def _request(payload: dict[str, Any], fmt: str) -> dict[str, Any]:
    return {"package": "proto", "type": "Account", "input": {"format": "value", "payload": payload},
            "output": fmt}


def writer_cases(add: Callable[..., None]) -> None:
    """Adds the cases through limits.py's `add(name, suite, request, expect, **kw)`."""
    codec = _proto_codec()
    order = codec.default("proto.Order")
    value = dict(codec.default(TYPE), id=7, name="alice", wallet=dict(codec.default("proto.Balance"), currency="USD"),
                 orders=[dict(order, id=1, symbol="EURUSD"), dict(order, id=2, symbol="GBPUSD")])

    def changed(path: tuple[Any, ...], held: Any) -> dict[str, Any]:
        """The description with the value at path (member names and indexes) replaced."""
        copy: Any = codec.to_described(value, TYPE)
        at = copy
        for step in path[:-1]:
            at = at[step]
        at[path[-1]] = held
        return copy

    refused = (("name.lone-surrogate-d800", ("name",), "a\ud800b", "Account.name"),
               ("wallet.currency.lone-surrogate-dfff", ("wallet", "currency"), "\udfff", "Account.wallet.currency"),
               ("orders[1].symbol.lone-surrogate-dc41", ("orders", 1, "symbol"), "\udc41",
                "Account.orders[1].symbol"),
               ("name.null", ("name",), None, "Account.name"),
               ("wallet.null", ("wallet",), None, "Account.wallet"),
               ("orders[1].null", ("orders", 1), None, "Account.orders[1]"))
    for name, path, held, where in refused:
        for fmt in FORMATS:
            add(f"Account.{name}->{fmt}", "writer errors", _request(changed(path, held), fmt), "serialize_error",
                result=where)
    byte = dict(value, name="\udcff")            # the byte 0xFF, held by Python as U+DCFF
    for fmt in FORMATS:
        written = str(codec.to_json(byte, TYPE)).encode() if fmt == "json" else bytes(codec.encode(byte, TYPE, fmt))
        add(f"Account.name.byte-ff->{fmt}", "writer errors", _request(changed(("name",), "\udcff"), fmt), "result",
            result=written)
