"""The limits policy (docs/limits.md) in Python: the hardening issue's reproducers (issue 13 items 1
and 5), each a test that failed before the policy was implemented, with the cost of every hostile
decode measured (peak traced memory and time against the input size)."""

from __future__ import annotations

import struct
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import fbe
import pytest

P = struct.pack

# Peak memory of one decode, over its input size (docs/limits.md, "Measured, not described"): the
# budget lets a decode materialize at most budget_factor (8) bytes of final-model minimum per input
# byte, and a Python object costs a few times its final minimum. Measured: generated
# code 25x (binary) and 48x (JSON, the parsed document included), fbe.dynamic's dicts 90x and 115x.
MEMORY_RATIO = 64
DYNAMIC_MEMORY_RATIO = 160
MEMORY_SLACK = 1 << 20
# Time of a hostile decode per input byte, over the time per byte of an honest decode of the same
# type (measured: 14x, as the budget allows 8x the materialized values and defaults cost more).
TIME_RATIO = 40
N = 20_000  # elements of the hostile cases: large enough to measure ratios, small enough to be quick


def measure(fn: Callable[[], Any]) -> tuple[Any, int, float]:
    """Run fn under tracemalloc: (its result or the exception it raised, peak traced bytes, seconds)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    start = time.perf_counter()
    try:
        result: Any = fn()
    except Exception as e:  # noqa: BLE001 - the caller asserts which
        result = e
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, peak, seconds


def assert_memory_bound(peak: int, input_size: int, ratio: int = MEMORY_RATIO) -> None:
    assert peak <= ratio * input_size + MEMORY_SLACK, (peak, input_size, peak / input_size)


# ---------------------------------------------------------------- the reproducers, made small

def struct_vector_root(slots: list[int], tail: bytes = b"") -> bytes:
    """test.StructVector whose f9 holds the given element offsets (relative to the body), then tail."""
    body = P("<II", 48, 130) + b"".join(P("<I", 48 if i == 8 else 0) for i in range(10))
    root = body + P("<I", len(slots)) + b"".join(P("<I", s) for s in slots) + tail
    return P("<II", 8 + len(root), 8) + root


def zero_slots(n: int) -> bytes:
    """Issue 13 item 1: f9 = n struct slots of offset 0."""
    return struct_vector_root([0] * n)


def old_bodies(n: int) -> bytes:
    """Issue 13 item 1: f9 = n slots, each pointing at its own 8-byte body (an older writer's
    StructSimple: every field defaulted). verify() passed on these before the policy."""
    first = 48 + 4 + 4 * n  # body offsets are relative to the StructVector body
    return struct_vector_root([first + 8 * i for i in range(n)], P("<II", 8, 110) * n)


def shared_old_body(n: int) -> bytes:
    """n slots sharing one 8-byte body."""
    return struct_vector_root([48 + 4 + 4 * n] * n, P("<II", 8, 110))


def verifies(model: Any, data: bytes, limits: fbe.Limits | None = None) -> bool:
    m = model() if limits is None else model(limits=limits)
    m.attach(data)
    result = m.verify()
    assert isinstance(result, bool)
    return result


def test_offset_zero_struct_field_is_rejected_by_every_reader(gen: Any) -> None:
    proto = gen.mods["proto"]
    data = bytearray(proto.Account(wallet=proto.Balance(currency="USD")).to_fbe())
    struct.pack_into("<I", data, 8 + 17, 0)  # the Account.wallet slot
    with pytest.raises(fbe.DecodeError, match="offset 0") as e:
        proto.Account.from_fbe(bytes(data))
    assert (e.value.type, e.value.field, e.value.offset) == ("proto.Account", "wallet", 8)
    assert not verifies(proto.AccountModel, bytes(data))
    m = proto.AccountModel()
    m.attach(bytes(data))
    with pytest.raises(fbe.DecodeError, match="offset 0"):
        m.deserialize()


def test_offset_zero_struct_elements(gen: Any) -> None:
    test = gen.mods["test"]
    data = zero_slots(10 * N)
    result, peak, _ = measure(lambda: test.StructVector.from_fbe(data))
    assert isinstance(result, fbe.DecodeError) and "offset 0" in str(result), result
    assert result.type == "test.StructVector" and result.field == "f9"
    assert not verifies(test.StructVectorModel, data)
    assert_memory_bound(peak, len(data))


def test_present_optional_struct_with_offset_zero_body(gen: Any) -> None:
    """StructVector.f10 (StructSimple?[]): a present element whose value slot holds body offset 0."""
    test = gen.mods["test"]
    body = P("<II", 48, 130) + b"".join(P("<I", 48 if i == 9 else 0) for i in range(10))
    root = body + P("<I", 1) + P("<BI", 1, 48 + 9) + P("<I", 0)  # present, value slot after the block: body 0
    data = P("<II", 8 + len(root), 8) + root
    with pytest.raises(fbe.DecodeError, match="offset 0"):
        test.StructVector.from_fbe(data)
    assert not verifies(test.StructVectorModel, data)


def test_older_writers_bodies_are_charged(gen: Any) -> None:
    test = gen.mods["test"]
    data = old_bodies(N)
    result, peak, _ = measure(lambda: test.StructVector.from_fbe(data))
    assert isinstance(result, fbe.DecodeError) and "budget" in str(result), result
    assert result.type is not None and result.offset is not None
    assert not verifies(test.StructVectorModel, data)
    assert_memory_bound(peak, len(data))
    # a few of them are versioning, not an attack: accepted, every field defaulted
    few = old_bodies(10)
    value = test.StructVector.from_fbe(few)
    assert len(value.f9) == 10 and value.f9[9].f32 == "Initial string!" and value.f9[9].f44.wallet.currency == ""
    assert verifies(test.StructVectorModel, few)


def test_shared_bodies_are_refused(gen: Any) -> None:
    """Slots sharing one body: the second points back into data already read (docs/limits.md 2)."""
    test = gen.mods["test"]
    data = shared_old_body(N)
    result, peak, _ = measure(lambda: test.StructVector.from_fbe(data))
    assert isinstance(result, fbe.DecodeError) and "allocation order" in str(result), result
    assert_memory_bound(peak, len(data))
    assert not verifies(test.StructVectorModel, data)


def test_hostile_time_is_linear_in_the_input(gen: Any) -> None:
    """Time per input byte of the worst binary case above, against an honest buffer of the same type."""
    test = gen.mods["test"]
    honest = test.StructVector(f9=[test.StructSimple(id=i) for i in range(300)]).to_fbe()
    hostile = old_bodies(len(honest) // 12)
    best_honest = min(measure(lambda: test.StructVector.from_fbe(honest))[2] for _ in range(3)) / len(honest)
    best_hostile = min(measure(lambda: test.StructVector.from_fbe(hostile))[2] for _ in range(3)) / len(hostile)
    assert best_hostile <= TIME_RATIO * best_honest, (best_hostile / best_honest)


def test_json_empty_objects_are_charged(gen: Any) -> None:
    test = gen.mods["test"]
    text = '{"f9":[' + ",".join(["{}"] * N) + "]}"
    result, peak, _ = measure(lambda: test.StructVector.from_json(text))
    assert isinstance(result, fbe.DecodeError) and "budget" in str(result), result
    assert_memory_bound(peak, len(text))
    few = '{"f9":[' + ",".join(["{}"] * 10) + "]}"
    assert len(test.StructVector.from_json(few).f9) == 10


def test_limits_are_configurable(gen: Any) -> None:
    test = gen.mods["test"]
    few = old_bodies(10)
    tight = fbe.Limits(budget_factor=1, budget_slack=0)
    with pytest.raises(fbe.DecodeError, match="budget"):
        test.StructVector.from_fbe(few, limits=tight)
    assert not verifies(test.StructVectorModel, few, tight)
    assert verifies(test.StructVectorModel, few)
    generous = fbe.Limits(budget_factor=1000)
    assert len(test.StructVector.from_fbe(old_bodies(2000), limits=generous).f9) == 2000
    text = '{"f9":[' + ",".join(["{}"] * 10) + "]}"
    with pytest.raises(fbe.DecodeError, match="budget"):
        test.StructVector.from_json(text, limits=tight)
    proto = gen.mods["proto"]
    acc = proto.Account(wallet=proto.Balance(currency="EUR")).to_fbe()
    assert proto.Account.from_fbe(acc, limits=fbe.Limits(max_depth=2)).wallet.currency == "EUR"
    with pytest.raises(fbe.DecodeError, match="deep"):
        proto.Account.from_fbe(acc, limits=fbe.Limits(max_depth=1))
    final = proto.Account(wallet=proto.Balance(currency="EUR")).to_final()
    with pytest.raises(fbe.DecodeError, match="deep"):
        proto.Account.from_final(final, limits=fbe.Limits(max_depth=1))
    assert fbe.DEFAULT_LIMITS == fbe.Limits(max_depth=128, budget_factor=8, budget_slack=4096,
                                            max_frame_size=64 << 20)


# ---------------------------------------------------------------- honest data fits in 1x (binary), 2x (JSON)

HONEST_BINARY = fbe.Limits(budget_factor=1, budget_slack=0)
HONEST_JSON = fbe.Limits(budget_factor=2, budget_slack=0)


def test_golden_vectors_fit_the_honest_budget(manifest: dict[str, Any], gen: Any, shared: Path) -> None:
    checked = 0
    for c in manifest["cases"]:
        cls = getattr(gen.mods[c["package"]], c["type"])
        # a struct that takes no bytes in the final model costs 32 (docs/limits.md 3), which no input
        # pays for: test.StructEmpty's 8-byte root, 16-byte versioned root and '{}' are its only vectors
        slack = 32 if c["type"] == "StructEmpty" else 0
        binary, text = (replace(lim, budget_slack=slack) for lim in (HONEST_BINARY, HONEST_JSON))
        for f in c["files"]:
            data = (shared / "vectors" / f["file"]).read_bytes()
            if f["kind"] == "versioned":
                cls.from_fbe(data, limits=binary)
            elif f["kind"] == "final":
                cls.from_final(data, limits=binary)
            elif f["kind"] == "json":
                cls.from_json(data, limits=text)
            else:
                continue
            checked += 1
    assert checked > 50


def test_written_values_fit_the_honest_budget(gen: Any, everything: Any) -> None:
    test, proto = gen.mods["test"], gen.mods["proto"]
    values = [
        test.StructSimple(), test.StructOptional(), test.StructNested(), test.StructBytes(),
        test.StructVector(f9=[test.StructSimple()] * 3, f10=[None, test.StructSimple()]),
        test.StructArray(), test.StructList(), test.StructSet(), test.StructMap(), test.StructHash(),
        proto.Account(orders=[proto.Order(id=i, symbol="S") for i in range(50)], asset=proto.Balance()),
    ]
    for v in values:
        cls = type(v)
        assert cls.from_fbe(v.to_fbe(), limits=HONEST_BINARY).fbe_equal(v)
        assert cls.from_final(v.to_final(), limits=HONEST_BINARY).fbe_equal(v)
        cls.from_json(v.to_json(), limits=HONEST_JSON)


# ---------------------------------------------------------------- fbec encode / decode (fbe.dynamic)

def test_dynamic_codec_charges_the_same(gen: Any, shared: Path) -> None:
    from fbe.dynamic import DynamicCodec
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics

    codec = DynamicCodec(compile_schema(str(shared / "schemas" / "test.fbe"), [], Diagnostics()))
    for data, what in ((zero_slots(1000), "offset 0"), (old_bodies(N), "budget"),
                       (shared_old_body(N), "allocation order")):
        result, peak, _ = measure(lambda data=data: codec.decode(data, "test.StructVector", "versioned"))
        assert isinstance(result, fbe.DecodeError) and what in str(result), result
        assert_memory_bound(peak, len(data), DYNAMIC_MEMORY_RATIO)
    assert len(codec.decode(old_bodies(10), "test.StructVector", "versioned")[0]["f9"]) == 10
    text = '{"f9":[' + ",".join(["{}"] * N) + "]}"
    result, peak, _ = measure(lambda: codec.from_json(text, "test.StructVector"))
    assert isinstance(result, fbe.DecodeError) and "budget" in str(result), result
    assert_memory_bound(peak, len(text), DYNAMIC_MEMORY_RATIO)


# ---------------------------------------------------------------- Receiver frames (issue 13 item 5)

class Recording:
    """Mixin: record what a receiver delivered and which errors it reported."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.events: list[Any] = []

    def on_receive(self, value: Any) -> None:
        self.events.append(value)

    def on_receive_error(self, error: fbe.FBEError) -> None:
        self.events.append(error)


def test_receiver_refuses_a_frame_above_max_frame_size(gen: Any) -> None:
    proto = gen.mods["proto"]
    receiver_cls = type("R", (Recording, proto.Receiver), {})
    order = proto.OrderMessage(body=proto.Order(id=7, symbol="EURUSD"))
    sender = proto.Sender()
    frames: list[bytes] = []
    sender.on_send = lambda buf, off, size: frames.append(bytes(buf[off:off + size])) or size  # type: ignore
    sender.send(order)
    good = frames[0]
    r = receiver_cls()
    r.receive(b"\xff\xff\xff\xff")  # 4 GiB announced: refused before anything is buffered
    assert len(r.events) == 1 and isinstance(r.events[0], fbe.FrameError), r.events
    assert "max_frame_size" in str(r.events[0])
    chunk = bytes(1 << 20)
    for _ in range(8):  # its body is skipped as it arrives, never held
        r.receive(chunk)
        assert r.pending_size() == 0
    small = receiver_cls(limits=fbe.Limits(max_frame_size=64))
    big = P("<I", 1000) + bytes(996)
    small.receive(big[:10])
    small.receive(big[10:] + good)  # the rest of the refused frame, then a good one: delivered
    assert [type(e).__name__ for e in small.events] == ["FrameError", "OrderMessage"]
    assert small.events[1].body.symbol == "EURUSD"


def test_receiver_memory_for_a_huge_announced_frame(gen: Any) -> None:
    proto = gen.mods["proto"]
    r = type("R", (Recording, proto.Receiver), {})()
    data = P("<I", 0x7FFFFFFF) + bytes(4 << 20)
    _, peak, _ = measure(lambda: r.receive(data))
    assert peak < 1 << 20, peak  # nothing proportional to the announced size or the skipped bytes
    assert isinstance(r.events[0], fbe.FrameError)


def test_receiver_charges_each_frame(gen: Any) -> None:
    """A frame is one decode: the reproducers arrive over a stream and are refused the same way."""
    proto, test = gen.mods["proto"], gen.mods["test"]
    _ = proto
    receiver_cls = type("R", (Recording, test.Receiver), {})
    r = receiver_cls()
    data = old_bodies(N)
    _, peak, _ = measure(lambda: r.receive(data))
    assert len(r.events) == 1 and isinstance(r.events[0], fbe.DecodeError) and "budget" in str(r.events[0])
    assert_memory_bound(peak, len(data))
    r.events.clear()
    r.receive(zero_slots(10) + old_bodies(10))
    assert isinstance(r.events[0], fbe.DecodeError) and "offset 0" in str(r.events[0])
    assert isinstance(r.events[1], test.StructVector) and len(r.events[1].f9) == 10


def test_receiver_default_raises_after_delivering_the_rest(gen: Any) -> None:
    """Without on_receive_error, receive() raises the first error once every other frame was handled."""
    test = gen.mods["test"]
    got: list[Any] = []
    r = type("R", (test.Receiver,), {"on_receive": lambda self, v: got.append(v)})()
    with pytest.raises(fbe.DecodeError, match="offset 0"):
        r.receive(zero_slots(10) + old_bodies(3) + zero_slots(1) + old_bodies(4))
    assert [len(v.f9) for v in got] == [3, 4]


# ---------------------------------------------------------------- verify() == deserialize() (docs/limits.md 4)

def _outcome(fn: Callable[[], Any]) -> bool:
    try:
        fn()
    except fbe.DecodeError:
        return False
    return True


@pytest.fixture(scope="module")
def seeds(gen: Any) -> list[tuple[Any, str, bytes]]:
    """(type, model suffix, buffer) to mutate: the trade model, test structs, the hostile shapes."""
    test, proto = gen.mods["test"], gen.mods["proto"]
    values = [proto.Account(id=1, name="n", wallet=proto.Balance(currency="EUR", amount=1.5), asset=proto.Balance(),
                            orders=[proto.Order(id=i, symbol="S" * i) for i in range(3)]),
              test.StructOptional(), test.StructVector(f9=[test.StructSimple()], f10=[None, test.StructSimple()]),
              test.StructMap(), test.StructList()]
    out = []
    for v in values:
        out.append((type(v), "Model", v.to_fbe()))
        out.append((type(v), "FinalModel", v.to_final()))
    out += [(test.StructVector, "Model", old_bodies(40)), (test.StructVector, "Model", shared_old_body(40))]
    return out


@pytest.fixture(scope="module")
def dynamic_codec(shared: Path) -> Any:
    from fbe.dynamic import DynamicCodec
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics

    return DynamicCodec(compile_schema(str(shared / "schemas" / "test.fbe"), [], Diagnostics()))


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis comes with the test requirements
    given = None


if given is not None:
    @settings(max_examples=400, deadline=None)
    @given(pick=st.integers(0, 1_000_000), edits=st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)),
                                                         max_size=4),
           cut=st.integers(0, 64), tight=st.booleans())
    def test_verify_is_deserialize(gen: Any, seeds: list[tuple[Any, str, bytes]], dynamic_codec: Any, pick: int,
                                   edits: list[tuple[int, int]], cut: int, tight: bool) -> None:
        cls, kind, data = seeds[pick % len(seeds)]
        buf = bytearray(data)
        for pos, byte in edits:
            buf[pos % len(buf)] = byte
        if cut:
            buf = buf[: max(0, len(buf) - cut)]
        limits = fbe.Limits(budget_factor=1, budget_slack=64) if tight else None
        model = getattr(gen.mods[cls.__module__], cls.__name__ + kind)(limits=limits)
        model.attach(bytes(buf))
        verified = model.verify()
        assert verified == _outcome(model.deserialize)
        read = cls.from_fbe if kind == "Model" else cls.from_final
        assert verified == _outcome(lambda: read(bytes(buf), limits=limits))
        # fbe.dynamic computes the costs on its own, from the IR: it must accept exactly the same buffers
        qualified = f"{cls.__module__}.{cls.__name__}"
        model_name = "versioned" if kind == "Model" else "final"
        assert verified == _outcome(lambda: dynamic_codec.decode(bytes(buf), qualified, model_name, limits=limits))


def _least_budget(decode: Callable[[fbe.Limits], Any]) -> int:
    """The smallest budget (budget_factor 0, budget_slack n) with which decode succeeds: what it charges."""
    lo, hi = 0, 1 << 22
    assert _outcome(lambda: decode(fbe.Limits(budget_factor=0, budget_slack=hi)))
    while lo < hi:
        mid = (lo + hi) // 2
        if _outcome(lambda mid=mid: decode(fbe.Limits(budget_factor=0, budget_slack=mid))):
            hi = mid
        else:
            lo = mid + 1
    return lo


def test_generated_and_dynamic_charge_the_same(gen: Any, dynamic_codec: Any) -> None:
    """The exact charge of each decode, generated code against fbe.dynamic (two computations of the costs
    of docs/limits.md 3), in the three formats; and never more than the input (2x for JSON)."""
    test, proto = gen.mods["test"], gen.mods["proto"]
    values = [
        proto.Account(id=1, name="ñame", wallet=proto.Balance(currency="EUR", amount=1.5), asset=proto.Balance(),
                      orders=[proto.Order(id=i, symbol="S" * i) for i in range(4)]),
        test.StructSimple(), test.StructOptional(), test.StructNested(), test.StructBytes(f1=b"abc", f3=b"\xff"),
        test.StructArray(), test.StructVector(f1=[1, 2], f3=[b"x"], f4=[None, b"yz"], f9=[test.StructSimple()],
                                              f10=[None, test.StructSimple()]),
        test.StructList(), test.StructSet(), test.StructMap(), test.StructHash(),
    ]
    for v in values:
        _charges_agree(v, dynamic_codec)


def _charges_agree(v: Any, dynamic_codec: Any) -> None:
    cls = type(v)
    q = f"{cls.__module__}.{cls.__name__}"
    data, final, text = v.to_fbe(), v.to_final(), v.to_json()
    charged = _least_budget(lambda lim: cls.from_fbe(data, limits=lim))
    assert charged == _least_budget(lambda lim: dynamic_codec.decode(data, q, "versioned", limits=lim)), q
    assert charged <= len(data), q
    charged = _least_budget(lambda lim: cls.from_final(final, limits=lim))
    assert charged == _least_budget(lambda lim: dynamic_codec.decode(final, q, "final", limits=lim)), q
    assert charged <= len(final), q
    charged = _least_budget(lambda lim: cls.from_json(text, limits=lim))
    assert charged == _least_budget(lambda lim: dynamic_codec.from_json(text, q, limits=lim)), q
    assert charged <= 2 * len(text.encode()), q
