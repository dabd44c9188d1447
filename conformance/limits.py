"""The hostile cases of the limits policy (docs/limits.md), made small: inputs every testee must reject
or bound, with the bound asserted.

Built by the runner at run time (no files are committed): binary roots, JSON texts and protocol
streams over the reference schemas' `test.StructVector` and `proto` messages (issue 13's reproducers).
A case with a bound asks the testee to measure (`"measure": true`, conformance/testee_protocol.md)
and the runner checks its peak heap bytes against the input size, and its time per input byte
against an honest input of the same type.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from agreement_cases import agreement_cases
from decimal_cases import decimal_cases
from default_cases import default_cases
from writer_cases import writer_cases

P = struct.pack

# docs/limits.md, "Measured, not described": the bounds every language meets. The budget lets a decode
# materialize 8 bytes (final-model minimum) per input byte; an object in memory costs a few times its
# final minimum (Python's are the largest: 25x the input measured, 48x for JSON with its parsed tree).
PEAK_RATIO = 64
PEAK_SLACK = 1 << 20
# Seconds per input byte of a hostile decode over those of an honest one of the same type (plus slack
# for the testee's fixed costs and a busy machine).
TIME_RATIO = 40
TIME_SLACK = 0.25
# A time bound that fails is measured this many more times before it counts (the fastest of each side).
TIME_RETRIES = 2

N = 20_000  # elements of the hostile cases
# docs/limits.md 3: C++ holds an optional struct as the original's std::optional<T>, inline in a vector, so an
# absent element (one byte of a final root) takes sizeof(std::optional<T>) bytes, 560 for test.StructSimple
# (x86-64, libstdc++), and up to 3 times that while the vector grows (the old block and the new one)
CPP_INLINE_OPTIONAL_RATIO = 3 * 560
# docs/limits.md 9: fbe.dynamic holds a struct as a dict of every field (test.StructSimple's 46 and the dicts
# of its struct fields: 2.7 KB) where its charge, every language's (one verdict), is 281 bytes: its own bound
DYNAMIC_DICT_RATIO = 128


@dataclass
class LimitCase:
    """One hostile request and what every testee must do with it."""

    id: str
    suite: str
    request: dict[str, Any]
    expect: str                                   # "result" | "parse_error" | "serialize_error"
    events: list[str] | None = None               # stream cases: delivered messages and "error", in order
    bound: bool = False                           # measure and check peak memory and time
    honest: dict[str, Any] | None = field(default=None)   # the honest request timed for comparison
    peak_ratio: dict[str, int] = field(default_factory=dict)   # a testee's own bound (docs/limits.md 3), else 64x
    result: Any = None                            # the expected result (None: any result; a parse error's:
                                                  # the field it names)
    compare: Callable[[Any, Any], bool] | None = None    # how to compare it (None: equal bytes)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _binary(pkg: str, type_: str, fmt: str, data: bytes, out: str | None = None) -> dict[str, Any]:
    return {"package": pkg, "type": type_, "input": {"format": fmt, "payload": _b64(data)}, "output": out or fmt}


def _json(pkg: str, type_: str, text: str) -> dict[str, Any]:
    return {"package": pkg, "type": type_, "input": {"format": "json", "payload": text}, "output": "json"}


def _stream(data: bytes, limits: dict[str, int] | None = None) -> dict[str, Any]:
    req: dict[str, Any] = {"package": "proto", "type": "OrderMessage",
                           "input": {"format": "stream", "payload": _b64(data)}, "output": "events"}
    if limits:
        req["limits"] = limits
    return req


# ---------------------------------------------------------------- test.StructVector (body 48: f1..f10 offsets)

def struct_vector_root(slots: list[int], tail: bytes = b"", field_index: int = 8) -> bytes:
    """A versioned test.StructVector whose f9 (or another vector field) holds the given element slots."""
    body = P("<II", 48, 130) + b"".join(P("<I", 48 if i == field_index else 0) for i in range(10))
    root = body + P("<I", len(slots)) + b"".join(P("<I", s) for s in slots) + tail
    return P("<II", 8 + len(root), 8) + root


def zero_slots(n: int) -> bytes:
    """f9 = n struct slots holding offset 0 (issue 13 item 1)."""
    return struct_vector_root([0] * n)


def old_bodies(n: int) -> bytes:
    """f9 = n slots, each with its own 8-byte body: an older writer's StructSimple, every field defaulted."""
    first = 48 + 4 + 4 * n
    return struct_vector_root([first + 8 * i for i in range(n)], P("<II", 8, 110) * n)


def older_than_base() -> bytes:
    """A test.StructNested root whose body is an 8-byte header only: written before even its base
    test.StructOptional had fields."""
    return P("<II", 16, 8) + P("<II", 8, 112)


def shared_old_body(n: int) -> bytes:
    """f9 = n slots sharing one 8-byte body."""
    return struct_vector_root([48 + 4 + 4 * n] * n, P("<II", 8, 110))


def optional_offset_zero() -> bytes:
    """f10 (StructSimple?[]) with one present element whose value slot holds body offset 0."""
    body = P("<II", 48, 130) + b"".join(P("<I", 48 if i == 9 else 0) for i in range(10))
    root = body + P("<I", 1) + P("<BI", 1, 48 + 9) + P("<I", 0)   # the value slot follows the vector block
    return P("<II", 8 + len(root), 8) + root


def absent_optionals_final(n: int) -> bytes:
    """A final test.StructVector whose f10 (StructSimple?[]) holds n absent elements, one byte each (the
    Rust fuzzer's finding: an element held inline took the struct's size in memory)."""
    body = P("<I", 0) * 9 + P("<I", n) + bytes(n)
    return P("<II", 8 + len(body), 130) + body


def empty_objects(n: int) -> str:
    return '{"f9":[' + ",".join(["{}"] * n) + "]}"


def pairs_offset_zero(n: int) -> bytes:
    """A versioned test.StructHashEx whose f1 (StructSimple -> StructNested, a map of struct keys) declares n
    pairs whose 8-byte slots hold offset 0: the first key is malformed, and a reader that made the pairs
    before reading them held n pairs of default structs for 8 bytes each."""
    body = P("<IIII", 16, 142, 16, 0) + P("<I", n) + bytes(8 * n)
    return P("<II", 8 + len(body), 8) + body


# ---------------------------------------------------------------- hostile (schemas/tests/hostile.fbe)

EMPTIES, WIDE, WIDES = 2, 3, 4   # type ids


def empties_final(count: int, tail: int = 0) -> bytes:
    """A final hostile.Empties whose vector declares `count` elements that take no bytes, and `tail`
    bytes after the count that the root's size covers (so they count in the input's size)."""
    return P("<III", 12 + tail, EMPTIES, count) + bytes(tail)


def wides_old_bodies(n: int) -> bytes:
    """A versioned hostile.Wides of n elements, each an older writer's 8-byte body: every Wide a default
    of 1,000,000 int32 (4 MB) that the few bytes ask for."""
    first = 12 + 4 + 4 * n
    body = P("<III", 12, WIDES, 12) + P("<I", n) + b"".join(P("<I", first + 8 * i) for i in range(n))
    body += P("<II", 8, WIDE) * n
    return P("<II", 8 + len(body), 8) + body


# ---------------------------------------------------------------- proto frames

def frame(root: bytes) -> bytes:
    """A versioned root is a frame as it is (its first u32 is its size)."""
    return root


def order_message(order_id: int = 7) -> bytes:
    """proto.OrderMessage{body: Order{id, symbol "EURUSD"}} as a versioned frame."""
    symbol = b"EURUSD"
    order = P("<IIiIBBdd", 34, 1, order_id, 34, 0, 0, 1.5, 100.0) + P("<I", len(symbol)) + symbol
    msg = P("<III", 12, 1, 12) + order                   # OrderMessage body: size, type 1, body offset
    return P("<II", 8 + len(msg), 8) + msg


def account_message(orders: list[int] | None = None, wallet_offset: int | None = None,
                    tail: bytes = b"") -> bytes:
    """proto.AccountMessage{body: Account} with the given order slots (offsets from the Account body)."""
    # Account body: size 30, type 3, id, name, state, wallet, asset flag + offset, orders
    orders = orders or []
    account_size = 30
    wallet_at = account_size                     # a Balance body right after the Account body
    balance = P("<IIId", 20, 2, 0, 0.0)           # currency offset 0 = "", amount 0
    orders_at = wallet_at + len(balance)
    account = P("<IIiIBIBII", account_size, 3, 1, 0, 0x02,
                wallet_at if wallet_offset is None else wallet_offset, 0, 0, orders_at if orders else 0)
    block = P("<I", len(orders)) + b"".join(P("<I", o) for o in orders) if orders else b""
    msg = P("<III", 12, 3, 12) + account + balance + block + tail
    return P("<II", 8 + len(msg), 8) + msg


def old_orders(n: int) -> bytes:
    """An Account with n orders, each an older writer's 8-byte Order body (every field defaulted)."""
    orders_block = 30 + 20                       # offset of the orders block from the Account body
    first = orders_block + 4 + 4 * n
    return account_message([first + 8 * i for i in range(n)], tail=P("<II", 8, 1) * n)


def shared_order(n: int) -> bytes:
    """An Account whose n order slots share one Order body."""
    orders_block = 30 + 20
    return account_message([orders_block + 4 + 4 * n] * n, tail=P("<II", 8, 1))


# ---------------------------------------------------------------- the cases

def limit_cases() -> list[LimitCase]:
    cases: list[LimitCase] = []

    def add(name: str, suite: str, request: dict[str, Any], expect: str, **kw: Any) -> None:
        cases.append(LimitCase(f"{suite.split(':')[0]}/{name}", suite, request, expect, **kw))

    # offset-0 struct slots: refused by every reader (docs/limits.md 2)
    off0 = "malformed: struct offset 0"
    add("struct offset 0/StructVector.f9-zero-slots", off0, _binary("test", "StructVector", "versioned",
                                                                    zero_slots(3)), "parse_error")
    add("struct offset 0/StructVector.f10-optional-body-0", off0,
        _binary("test", "StructVector", "versioned", optional_offset_zero()), "parse_error")
    add("struct offset 0/AccountMessage.wallet-0", off0,
        _binary("proto", "AccountMessage", "versioned", account_message(wallet_offset=0)), "parse_error")
    add("struct offset 0/stream-then-good-frame", off0,
        _stream(account_message(wallet_offset=0) + order_message()), "result",
        events=["error", "proto.OrderMessage"])

    # the model notice (docs/format.md 7.4): the end of the stream, naming both models
    notice = "malformed: model notice"
    add("model notice/versioned-stream-final-notice", notice, _stream(P("<I", 2) + order_message()), "result",
        events=["error: the other end reads final frames and refused ours: this end sends versioned frames"])
    add("model notice/versioned-stream-versioned-notice", notice, _stream(order_message() + P("<I", 1)), "result",
        events=["proto.OrderMessage", "error: the other end (reading versioned frames too) refused a frame of ours"])

    # out-of-line blocks in allocation order: no two slots share a block (docs/limits.md 2)
    order = "malformed: allocation order"
    add(f"allocation order/StructVector.f9-shared-body-{N}", order,
        _binary("test", "StructVector", "versioned", shared_old_body(N)), "parse_error")
    add("allocation order/StructVector.f9-two-slots-one-body", order,
        _binary("test", "StructVector", "versioned", shared_old_body(2)), "parse_error")
    add("allocation order/stream-shared-order-body-then-good-frame", order,
        _stream(shared_order(2) + order_message()), "result", events=["error", "proto.OrderMessage"])

    # the decode budget (docs/limits.md 3), with the bound measured
    budget = "limits: decode budget"
    honest_vector = honest_struct_vector()
    honest_bin = _binary("test", "StructVector", "versioned", honest_vector)
    add("decode budget/StructVector.f9-zero-slots-1e5", budget,
        _binary("test", "StructVector", "versioned", zero_slots(5 * N)), "parse_error", bound=True, honest=honest_bin)
    add(f"decode budget/StructVector.f9-old-bodies-{N}", budget,
        _binary("test", "StructVector", "versioned", old_bodies(N)), "parse_error", bound=True, honest=honest_bin,
        peak_ratio={"python-dynamic": DYNAMIC_DICT_RATIO})
    add("decode budget/StructVector.f9-old-bodies-10", budget,
        _binary("test", "StructVector", "versioned", old_bodies(10)), "result")
    honest_json = _json("test", "StructVector", honest_struct_vector_json())
    add(f"decode budget/StructVector.json-empty-objects-{N}", budget,
        _json("test", "StructVector", empty_objects(N)), "parse_error", bound=True, honest=honest_json,
        peak_ratio={"python-dynamic": DYNAMIC_DICT_RATIO})
    add("decode budget/StructVector.json-empty-objects-10", budget,
        _json("test", "StructVector", empty_objects(10)), "result")
    tight = {"budget_factor": 1, "budget_slack": 0}
    add("decode budget/StructVector.f9-old-bodies-10-budget-1x", budget,
        dict(_binary("test", "StructVector", "versioned", old_bodies(10)), limits=tight), "parse_error")
    # values that take no bytes (docs/limits.md 3): a struct without fields costs 32, so a final vector
    # of them is bounded by the budget: 4 + 32 x 130 <= 8 x 12 + 4096 < 4 + 32 x 131 in every reader
    add("decode budget/Empties.final-1MiB-declaring-4G-elements", budget,
        _binary("hostile", "Empties", "final", empties_final(0xFFFFFFFF, 1 << 20)), "parse_error", bound=True,
        honest=_binary("hostile", "Empties", "final", empties_final(100)))
    for count, expect in ((130, "result"), (131, "parse_error")):
        add(f"decode budget/Empties.final-{count}", budget,
            _binary("hostile", "Empties", "final", empties_final(count)), expect)
    # a default is charged before it is made (docs/limits.md 3): an older writer's 8-byte body of a Wide
    # asks for 4 MB, which the budget of a 36-byte input refuses before any reader allocates it
    add("decode budget/Wides.old-body-of-4MB-defaults", budget,
        _binary("hostile", "Wides", "versioned", wides_old_bodies(1)), "parse_error", bound=True,
        honest=_binary("hostile", "Wides", "versioned", wides_old_bodies(0)))
    add("decode budget/Wides.json-4MB-default", budget, _json("hostile", "Wides", '{"items":[{}]}'), "parse_error",
        bound=True, honest=_json("hostile", "Wides", '{"items":[]}'))
    add("decode budget/Wides.old-body-of-4MB-defaults-paid", budget,
        dict(_binary("hostile", "Wides", "versioned", wides_old_bodies(1)), limits={"budget_slack": 4_000_100}),
        "result")
    # an absent optional struct takes a pointer in memory, not the struct (docs/limits.md 3): one byte of
    # input each here; C++ keeps the original's std::optional<T> elements, held inline, within its own bound
    add(f"decode budget/StructVector.f10-final-{N}-absent-structs", budget,
        _binary("test", "StructVector", "final", absent_optionals_final(N)), "result", bound=True,
        honest=_binary("test", "StructVector", "final", honest_struct_vector(fmt="final")),
        peak_ratio={"cpp": CPP_INLINE_OPTIONAL_RATIO})
    # a map held as pairs (struct or bytes keys) makes each pair once the bytes before it are read, never the
    # count's worth up front (docs/limits.md 3): Go made them all first, 100,000 default pairs for 800 KB
    add(f"decode budget/StructHashEx.f1-{5 * N}-pairs-offset-0", budget,
        _binary("test", "StructHashEx", "versioned", pairs_offset_zero(5 * N)), "parse_error", bound=True,
        honest=_binary("test", "StructHashEx", "versioned", pairs_offset_zero(0)))
    # a body older than its base: every field takes its default, the derived struct's own included
    # (306 for the struct + 692 for the defaults' structs = 998 > 62 x 16 bytes, <= 63 x 16); the
    # defaults are charged at once, and the error names the first field the body lacks (docs/limits.md 3)
    for factor, expect, named in ((62, "parse_error", "id"), (63, "result", None)):
        add(f"decode budget/StructNested.body-older-than-its-base-budget-{factor}x", budget,
            dict(_binary("test", "StructNested", "versioned", older_than_base()),
                 limits={"budget_factor": factor, "budget_slack": 0}), expect, result=named)

    # the decode budget is charged exactly, as docs/limits.md 3 counts: every testee reads each input with
    # a budget of its exact charge (fbe.dynamic's least budget) and refuses it with one byte less
    for name, request in least_budget_inputs():
        exact = least_budget(request)
        for slack, expect in ((exact, "result"), (exact - 1, "parse_error")):
            add(f"least budget/{name}-budget-{slack}", "limits: least budget",
                dict(request, limits={"budget_factor": 0, "budget_slack": slack}), expect)

    # sets, maps and hashes holding the same key twice (docs/limits.md 4): refused, never "the first"
    # (C++ std::set/std::map) or "the last" (a Python dict); next to each, the same value with
    # distinct keys, which every testee reads
    dup = "malformed: duplicate keys"
    for pkg, type_, field_name, good, bad in duplicate_keys():
        for fmt in ("versioned", "final"):
            add(f"duplicate keys/{type_}.{field_name}.{fmt}", dup, _binary(pkg, type_, fmt, bad[fmt]), "parse_error")
            add(f"duplicate keys/{type_}.{field_name}.{fmt}-distinct", dup, _binary(pkg, type_, fmt, good[fmt]),
                "result")
    for field_name, good_json, bad_json in duplicate_set_elements_json():
        add(f"duplicate keys/StructSet.{field_name}.json", dup, _json("test", "StructSet", bad_json), "parse_error")
        add(f"duplicate keys/StructSet.{field_name}.json-distinct", dup, _json("test", "StructSet", good_json),
            "result")

    # decimals: one verdict and one encoding (docs/format.md 2.4), text in linear time (docs/limits.md 7)
    decimal_cases(add)
    writer_cases(add)       # a lone surrogate and null where a value is required (docs/limits.md 8)
    # optional fields with an explicit zero default: present when an older writer left them out (docs/format.md 3.6)
    default_cases(add)
    agreement_cases(add)    # inputs one language read otherwise than the others (conformance/agreement.py)

    # frames (docs/limits.md 6)
    frames = "limits: frames"
    honest_stream = _stream(order_message() * 2000)
    add("frames/4GiB-header", frames, _stream(b"\xff\xff\xff\xff" + bytes(1 << 16)), "result",
        events=["error"], bound=True, honest=honest_stream)
    add("frames/too-large-then-good-frame", frames,
        _stream(P("<I", 2000) + bytes(1996) + order_message(), {"max_frame_size": 1024}), "result",
        events=["error", "proto.OrderMessage"])
    add(f"frames/old-order-bodies-{N}", frames, _stream(old_orders(N) + order_message()), "result",
        events=["proto.AccountMessage", "proto.OrderMessage"], bound=True, honest=honest_stream)
    add(f"frames/old-order-bodies-{N}-budget-1x", frames,
        _stream(old_orders(N) + order_message(), tight), "result", events=["error", "proto.OrderMessage"])

    from json_cases import frame_cases, json_cases  # issue 21: one verdict for JSON, flags and frames
    return cases + frame_cases() + json_cases()


def _test_codec() -> Any:
    """The runner's schema-driven codec (fbe.dynamic) of the reference schema test.fbe."""
    from runner import SHARED, _codec

    return _codec(str(SHARED / "schemas" / "test.fbe"))


def _everything_codec() -> Any:
    """The runner's codec of the project's schemas/tests/everything.fbe (a conformance schema)."""
    from runner import REPO, _codec

    return _codec(str(REPO / "schemas" / "tests" / "everything.fbe"))


def duplicate_keys() -> list[tuple[str, str, str, dict[str, bytes], dict[str, bytes]]]:
    """(package, type, field, roots with two distinct keys, the same roots with the second key's bytes
    replaced by the first key's) per format. Struct keys compare by their [key] fields
    (StructSimple.id; everything.Route by venue and leg), bytes keys by their value (the reference schemas
    have none: everything.fbe's f49 and f50), decimals by their value (everything.fbe's f51 and f52: 1.5
    and 1.50, 0 and -0). tests/python/test_duplicate_keys.py builds the same buffers."""
    codec = _test_codec()
    a, b = P("<I", 0x5A5A5A5A), P("<I", 0x5B5B5B5B)

    def simple(id_: int, **fields: Any) -> dict[str, Any]:
        return dict(codec.default("test.StructSimple"), id=id_, **fields)

    nested = codec.default("test.StructNested")
    cases = [
        ("StructSet", "f1", [0xA7, 0xA8], b"\xa7\xa8", b"\xa7\xa7"),
        ("StructSet", "f4", [simple(0x5A5A5A5A), simple(0x5B5B5B5B, f2=True)], b, a),
        ("StructMap", "f1", [(0x5A5A5A5A, 10), (0x5B5B5B5B, 20)], b, a),
        ("StructHash", "f1", [("kA", 1), ("kB", 2)], b"kB", b"kA"),
        ("StructHashEx", "f1", [(simple(0x5A5A5A5A), nested), (simple(0x5B5B5B5B, f3=9), nested)], b, a),
    ]
    out = []
    for type_, field_name, entries, old, new in cases:
        value = codec.default(f"test.{type_}")
        value[field_name] = entries
        good = {fmt: bytes(codec.encode(value, f"test.{type_}", fmt)) for fmt in ("versioned", "final")}
        assert all(data.count(old) == 1 for data in good.values()), (type_, field_name)
        out.append(("test", type_, field_name, good, {fmt: data.replace(old, new) for fmt, data in good.items()}))
    everything = _everything_codec()
    for field_name, entries in (("f49", [(b"kA", 1), (b"kB", 2)]), ("f50", [(b"kA", "x"), (b"kB", "y")])):
        value = everything.default("everything.Everything")
        value[field_name] = entries
        good = {fmt: bytes(everything.encode(value, "everything.Everything", fmt)) for fmt in ("versioned", "final")}
        assert all(data.count(b"kB") == 1 for data in good.values()), field_name
        out.append(("everything", "Everything", field_name, good,
                    {fmt: data.replace(b"kB", b"kA") for fmt, data in good.items()}))
    # a key of two fields (everything.Route: [key] venue, weight, [key] leg): two routes are one key when
    # venue and leg both are, whatever their weights; each field alone tells two keys apart
    def route(venue: bytes, weight: float, leg: int) -> dict[str, Any]:
        return dict(everything.default("everything.Route"), venue=venue.decode(), weight=weight, leg=leg)

    for name, one, other, old, new in (
            ("leg", route(b"kA", 1.0, 0x5A5A5A5A), route(b"kA", 2.0, 0x5B5B5B5B), b, a),
            ("venue", route(b"kA", 1.0, 7), route(b"kB", 2.0, 7), b"kB", b"kA")):
        for field_name, entries in (("routes", [one, other]), ("ranks", [(one, 1), (other, 2)]),
                                    ("names", [(one, "x"), (other, "y")])):
            value = everything.default("everything.Routes")
            value[field_name] = entries
            good = {fmt: bytes(everything.encode(value, "everything.Routes", fmt)) for fmt in ("versioned", "final")}
            assert all(data.count(old) == 1 for data in good.values()), (field_name, name)
            out.append(("everything", "Routes", f"{field_name}-{name}", good,
                        {fmt: data.replace(old, new) for fmt, data in good.items()}))
    # decimals are the same key when their values are: 2.5 made 1.50 beside 1.5, or -0.000 beside 0
    # (the writers normalize: only bytes made so hold them)
    def decimal(magnitude: int, scale: int, negative: bool = False) -> bytes:
        return P("<QII", magnitude, 0, scale << 16 | negative << 31)

    for name, field_name, first, to in (("f51-1.50", "f51", 1.5, None), ("f51-0", "f51", 0, decimal(0, 3, True)),
                                        ("f52-1.50", "f52", 1.5, None)):
        one, other = Decimal(str(first)), Decimal("2.5")
        entries: list[Any] = [one, other] if field_name == "f51" else [(one, 1), (other, 2)]
        value = everything.default("everything.Everything")
        value[field_name] = entries
        good = {fmt: bytes(everything.encode(value, "everything.Everything", fmt)) for fmt in ("versioned", "final")}
        old = decimal(25, 1)
        assert all(data.count(old) == 1 for data in good.values()), name
        new = decimal(150, 2) if to is None else to
        out.append(("everything", "Everything", name, good,
                    {fmt: data.replace(old, new) for fmt, data in good.items()}))
    return out


def duplicate_set_elements_json() -> list[tuple[str, str, str]]:
    """(field, JSON of a test.StructSet with two distinct elements, the same with the same element
    twice): refused like a binary set and like two JSON map keys that read the same."""
    codec = _test_codec()
    a, b = 0x5A5A5A5A, 0x5B5B5B5B
    out = []
    for field_name, entries in (("f1", [0xA7, 0xA8]),
                                ("f4", [dict(codec.default("test.StructSimple"), id=a),
                                        dict(codec.default("test.StructSimple"), id=b, f2=True)])):
        value = codec.default("test.StructSet")
        value[field_name] = entries
        text = str(codec.to_json(value, "test.StructSet"))
        old, new = (str(0xA8), str(0xA7)) if field_name == "f1" else (str(b), str(a))
        assert text.count(old) == 1, text
        out.append((field_name, text, text.replace(old, new)))
    return out


def least_budget_inputs() -> list[tuple[str, dict[str, Any]]]:
    """Inputs whose exact charge differs from their size (docs/limits.md 3): an older writer's bodies with
    their defaults, structs and strings in each model, structs that cost more than their bytes (zero-size
    ones, a message wrapping a struct), JSON with omitted members."""
    from json_cases import final_order_message
    from runner import REPO, _codec

    test = _test_codec()
    vector = test.default("test.StructVector")
    vector["f9"] = [dict(test.default("test.StructSimple"), id=i, f31=f"s{i}" * i) for i in range(5)]
    hostile = _codec(str(REPO / "schemas" / "tests" / "hostile.fbe"))
    empties = hostile.default("hostile.Empties")
    empties["items"] = [hostile.default("hostile.Empty")] * 3
    return [
        ("StructVector.versioned-old-bodies-23", _binary("test", "StructVector", "versioned", old_bodies(23))),
        ("StructVector.versioned-5-structs", _binary("test", "StructVector", "versioned",
                                                     bytes(test.encode(vector, "test.StructVector", "versioned")))),
        ("StructVector.final-5-structs", _binary("test", "StructVector", "final",
                                                 bytes(test.encode(vector, "test.StructVector", "final")))),
        ("Empties.versioned-3", _binary("hostile", "Empties", "versioned",
                                        bytes(hostile.encode(empties, "hostile.Empties", "versioned")))),
        ("Empties.final-3", _binary("hostile", "Empties", "final",
                                    bytes(hostile.encode(empties, "hostile.Empties", "final")))),
        ("OrderMessage.final", _binary("proto", "OrderMessage", "final", final_order_message())),
        ("StructVector.json-5-structs", _json("test", "StructVector", str(test.to_json(vector, "test.StructVector")))),
        ("StructVector.json-empty-objects-10", _json("test", "StructVector", empty_objects(10))),
        *json_collections_of_scalars(),
    ]


def json_collections_of_scalars() -> list[tuple[str, dict[str, Any]]]:
    """JSON of every collection kind (vector, list, set, map, hash) holding bytes, optionals, buffers, enums
    and flags: each item is charged its own cost (docs/limits.md 3), which the struct inputs above do not
    show apart from the structs' charges."""
    items = {"f1": "[1,2,3]", "f2": "[null,4]", "f3": '["AQI=",""]', "f4": '[null,"AA=="]', "f5": "[1,0,4]",
             "f6": "[null,3]", "f7": "[1,5]", "f8": "[null,2]"}
    entries = {"f1": '{"1":7,"2":8}', "f2": '{"1":null,"2":9}', "f3": '{"1":"AQI=","2":""}', "f4": '{"1":null}',
               "f5": '{"1":1,"2":4}', "f6": '{"1":null,"2":3}', "f7": '{"1":5}', "f8": '{"1":null,"2":2}'}
    hash_entries = {name: text.replace('"1"', '"a"').replace('"2"', '"b"') for name, text in entries.items()}
    sets = {"f1": "[1,2,3]", "f2": "[0,1,4]", "f3": "[1,2,5]"}

    def text(members: dict[str, str]) -> str:
        return "{" + ",".join(f'"{name}":{value}' for name, value in members.items()) + "}"

    return [(f"{name}.json-scalar-items", _json("test", name, text(members)))
            for name, members in (("StructVector", items), ("StructList", items), ("StructSet", sets),
                                  ("StructMap", entries), ("StructHash", hash_entries))]


def least_budget(request: dict[str, Any]) -> int:
    """The least budget (budget_factor 0, budget_slack n) with which fbe.dynamic reads the request's input:
    its exact charge, which every testee must make."""
    from fbe.limits import Limits
    from runner import REPO, SHARED, _codec

    package, fmt, payload = request["package"], request["input"]["format"], request["input"]["payload"]
    schema = SHARED / "schemas" / f"{package}.fbe"
    codec = _codec(str(schema if schema.exists() else REPO / "schemas" / "tests" / f"{package}.fbe"))
    qualified = f"{package}.{request['type']}"

    def reads(n: int) -> bool:
        limits = Limits(budget_factor=0, budget_slack=n)
        try:
            if fmt == "json":
                codec.from_json(payload, qualified, limits=limits)
            else:
                codec.decode(base64.b64decode(payload), qualified, fmt, limits=limits)
        except Exception:             # noqa: BLE001 - fbe's DecodeError: the budget refused it
            return False
        return True

    lo, hi = 0, 1 << 24
    assert reads(hi), request
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reads(mid) else (mid + 1, hi)
    return lo


def honest_struct_vector(n: int = 300, fmt: str = "versioned") -> bytes:
    """A test.StructVector with n StructSimple of full bodies: what our writers write (for timing)."""
    codec = _test_codec()
    value = codec.default("test.StructVector")
    value["f9"] = [dict(codec.default("test.StructSimple"), id=i) for i in range(n)]
    return bytes(codec.encode(value, "test.StructVector", fmt))


def honest_struct_vector_json(n: int = 100) -> str:
    codec = _test_codec()
    value = codec.default("test.StructVector")
    value["f9"] = [dict(codec.default("test.StructSimple"), id=i) for i in range(n)]
    return str(codec.to_json(value, "test.StructVector"))

