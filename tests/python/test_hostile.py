"""Hostile input: every decoder raises fbe.DecodeError (never IndexError, struct.error,
MemoryError, RecursionError or a hang) and allocates only what the buffer justifies."""

from __future__ import annotations

import random
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe_testlib import generate_into, load_modules

SMALL = 300  # files up to this size get every byte position corrupted; larger ones a sample


def decoders(gen: Any, c: dict[str, Any], kind: str) -> list[Callable[[bytes], Any]]:
    mod = gen.mods[c["package"]]
    cls = getattr(mod, c["type"])
    if kind == "versioned":
        model = getattr(mod, c["type"] + "Model")
        return [cls.from_fbe, lambda d: _verify(model, d)]
    model = getattr(mod, c["type"] + "FinalModel")
    return [cls.from_final, lambda d: _verify(model, d)]


def _verify(model: Any, data: bytes) -> bool:
    m = model()
    m.attach(data)
    result = m.verify()
    assert isinstance(result, bool)
    return result


def survive(fn: Callable[[bytes], Any], data: bytes) -> None:
    try:
        v = fn(data)
    except fbe.DecodeError:
        return
    if isinstance(v, fbe.Struct):  # whatever decodes must also print and re-encode
        str(v)
        v.to_fbe()


def binary_files(manifest: dict[str, Any]) -> list[tuple]:
    out = []
    for c in manifest["cases"]:
        for f in c["files"]:
            if f["kind"] in ("versioned", "final"):
                out.append((c, f))
    return out


def test_truncations_at_every_length(manifest: dict[str, Any], gen: Any, shared: Path) -> None:
    for c, f in binary_files(manifest):
        data = (shared / "vectors" / f["file"]).read_bytes()
        for fn in decoders(gen, c, f["kind"]):
            for n in range(len(data)):
                cut = data[:n]
                try:
                    fn(cut)
                except fbe.DecodeError:
                    continue
                # a versioned root may still verify when only unreferenced bytes were cut
                assert f["kind"] == "versioned" or fn.__name__ == "<lambda>", (f["file"], n)


def test_single_byte_corruptions(manifest: dict[str, Any], gen: Any, shared: Path) -> None:
    rnd = random.Random(42)
    # CPU time, not wall time: the bound is on the decoders' work, not on how busy the machine is
    start = time.process_time()
    for c, f in binary_files(manifest):
        data = (shared / "vectors" / f["file"]).read_bytes()
        positions = list(range(len(data))) if len(data) <= SMALL else rnd.sample(range(len(data)), SMALL)
        fns = decoders(gen, c, f["kind"])
        for pos in positions:
            for val in {0x00, 0xFF, data[pos] ^ 0x80}:
                bad = bytearray(data)
                bad[pos] = val
                for fn in fns:
                    survive(fn, bytes(bad))
    assert time.process_time() - start < 120


def test_oversized_counts(gen: Any) -> None:
    proto = gen.mods["proto"]
    data = bytearray(proto.Account(orders=[proto.Order(id=1)]).to_fbe())
    # the orders vector offset is the last slot of the Account body (body at 8, slot at 8 + 26)
    off = struct.unpack_from("<I", data, 8 + 26)[0]
    for count in (1000, 0x7FFFFFFF, 0xFFFFFFFF):
        struct.pack_into("<I", data, 8 + off, count)
        with pytest.raises(fbe.DecodeError) as e:
            proto.Account.from_fbe(bytes(data))
        assert e.value.type == "proto.Account" and e.value.field == "orders"
        m = proto.AccountModel()
        m.attach(bytes(data))
        assert not m.verify()
    final = bytearray(proto.Account(orders=[proto.Order(id=1)]).to_final())
    pos = 8 + 4 + 4 + 1 + 4 + 8 + 1  # id, name "", state, wallet (currency "", amount), asset flag
    assert struct.unpack_from("<I", final, pos)[0] == 1
    struct.pack_into("<I", final, pos, 0xFFFFFFFF)
    with pytest.raises(fbe.DecodeError):
        proto.Account.from_final(bytes(final))


def test_shared_bodies_are_bounded(gen: Any) -> None:
    """Many vector slots pointing at one body: refused, blocks must follow in allocation order (docs/limits.md 2)."""
    proto = gen.mods["proto"]
    n = 20000
    body = proto.Order(id=1, symbol="S" * 200).to_fbe()[8:]  # order body (34) + symbol data
    acc = bytearray(proto.Account().to_fbe())
    # rebuild: Account body, then a vector of n slots all pointing at one Order body
    vec_pos = len(acc)
    acc += struct.pack("<I", n) + bytes(4 * n)
    order_pos = len(acc)
    acc += body
    for i in range(n):
        struct.pack_into("<I", acc, vec_pos + 4 + 4 * i, order_pos - 8)
    struct.pack_into("<I", acc, 8 + 26, vec_pos - 8)
    struct.pack_into("<I", acc, 0, len(acc))
    with pytest.raises(fbe.DecodeError, match="allocation order"):
        proto.Account.from_fbe(bytes(acc))
    # two slots sharing a body are refused just as well: the second points back into the first
    struct.pack_into("<I", acc, vec_pos, 2)
    with pytest.raises(fbe.DecodeError, match="allocation order") as e:
        proto.Account.from_fbe(bytes(acc))
    assert e.value.type == "proto.Order"
    struct.pack_into("<I", acc, vec_pos, 1)
    assert len(proto.Account.from_fbe(bytes(acc)).orders) == 1


DEEP = """
package deep
struct Node { int32 id; Node? next; }
"""


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("deep")
    (out / "deep.fbe").write_text(DEEP)
    generate_into(out / "deep.fbe", out)
    return load_modules(out, ["deep"])["deep"]


def versioned_chain(levels: int) -> bytes:
    """Node -> next -> Node ... written by hand (body 17 bytes + 4-byte value slot per level)."""
    out = bytearray(struct.pack("<II", 0, 8))
    for i in range(levels):
        len(out)
        last = i == levels - 1
        out += struct.pack("<IIiBI", 17, 1, i, 0 if last else 1, 0 if last else 17)
        if not last:
            out += struct.pack("<I", 4)
    struct.pack_into("<I", out, 0, len(out))
    return bytes(out)


def test_nesting_depth_is_bounded(deep: Any) -> None:
    ok = versioned_chain(fbe.MAX_DEPTH - 1)
    node = deep.Node.from_fbe(ok)
    assert node.next is not None and node.next.id == 1
    for levels in (fbe.MAX_DEPTH + 1, 5000, 100000):
        with pytest.raises(fbe.DecodeError, match="deep"):
            deep.Node.from_fbe(versioned_chain(levels))
    # final model: each level is `has_value 1 | id`
    final = bytearray(struct.pack("<II", 0, 1))
    for i in range(10000):
        final += struct.pack("<iB", i, 1)
    final += struct.pack("<iB", 0, 0)
    struct.pack_into("<I", final, 0, len(final))
    with pytest.raises(fbe.DecodeError, match="deep"):
        deep.Node.from_final(bytes(final))
    m = deep.NodeModel()
    m.attach(versioned_chain(5000))
    assert m.verify() is False


def test_json_hostile(gen: Any) -> None:
    proto = gen.mods["proto"]
    for text in ["", "[", "{" * 100000 + "}" * 100000, '{"id": "x"}', '{"orders": {}}', '{"state": 300}',
                 '{"wallet": null}', "[1,2]", '{"id": 1e400}', '{"asset": {"amount": "x"}}']:
        with pytest.raises(fbe.DecodeError):
            proto.Account.from_json(text)


def test_json_error_names_type_and_field(gen: Any) -> None:
    proto = gen.mods["proto"]
    with pytest.raises(fbe.DecodeError) as e:
        proto.Account.from_json('{"wallet": {"amount": "x"}}')
    assert e.value.type == "proto.Balance" and e.value.field == "amount"


def _frames(sender_cls: Any, values: list[Any]) -> list[bytes]:
    frames: list[bytes] = []
    sender = sender_cls()
    sender.on_send = lambda buf, off, size: frames.append(bytes(buf[off:off + size])) or size
    for v in values:
        sender.send(v)
    return frames


def _garbage(rnd: random.Random, good: list[bytes], final: bool) -> bytes:
    """A frame of random bytes whose type id is a known message half of the time, or a good frame
    with one byte changed after its size."""
    if rnd.random() < 0.5:
        frame = bytearray(rnd.choice(good))
        pos = rnd.randrange(4, len(frame))
        frame[pos] = rnd.choice((0x00, 0xFF, frame[pos] ^ 0x80, frame[pos] ^ 0x01))
        return bytes(frame)
    data = bytearray(rnd.randrange(256) for _ in range(rnd.randrange(8, 200)))
    if rnd.random() < 0.5:
        struct.pack_into("<I", data, 4, rnd.choice((1, 2, 3)))  # the body's type id (versioned)
    if final:
        return struct.pack("<II", 8 + len(data), rnd.choice((1, 2, 3, 77))) + bytes(data)
    return struct.pack("<II", 8 + len(data), 8) + bytes(data)


def _recording(cls: Any, events: list[Any]) -> Any:
    """A receiver (or proxy) of cls that appends what it delivers and the errors it reports to events."""
    return type("Recording", (cls,), {
        "on_receive": lambda self, v: events.append(v),
        "on_proxy": lambda self, model, tid, buf, off, size: events.append(model),
        "on_receive_error": lambda self, e: events.append(e),
    })()


def test_stream_garbage(gen: Any) -> None:
    """Each garbage frame has exactly one outcome, and the right one: delivered when its body decodes,
    reported to on_receive_error otherwise (no message has its type id, or its body does not decode);
    the stream goes on with the next frame."""
    rnd = random.Random(7)
    proto = gen.mods["proto"]
    values = [proto.OrderMessage(body=proto.Order(id=1, symbol="EURUSD")),
              proto.BalanceMessage(body=proto.Balance(currency="USD", amount=2.5)),
              proto.AccountMessage(body=proto.Account(id=3, name="A", orders=[proto.Order(id=4)]))]
    seen: dict[str, int] = {"unknown": 0, "delivered": 0, "error": 0}
    for cls, sender, final in ((proto.Receiver, proto.Sender, False), (proto.FinalReceiver, proto.FinalSender, True),
                               (proto.Proxy, proto.Sender, False)):
        good = _frames(sender, values)
        events: list[Any] = []
        r = _recording(cls, events)
        for _ in range(300):
            frame = _garbage(rnd, good, final)
            events.clear()
            r.receive(frame + good[0])  # a good frame after it: the stream must go on
            assert len(events) == 2, events
            assert events[-1].fbe_equal(values[0]) if cls is not proto.Proxy else events[-1].verify()
            outcome = events[0]
            try:
                tid: int | None = fbe.frame_type(frame, final)
            except fbe.FrameError:
                tid = None
            if isinstance(outcome, fbe.FBEError):
                assert isinstance(outcome, (fbe.DecodeError, fbe.FrameError)), outcome
                if tid is not None and tid not in cls._fbe_handlers:
                    seen["unknown"] += 1
                    assert str(outcome) == f"no message has type id {tid} (frame of {len(frame)} bytes skipped)"
                    continue
                seen["error"] += 1
                if tid is not None and not isinstance(outcome, fbe.FrameError):
                    message = cls._fbe_handlers[tid][0]   # the body did not decode: verify() says so too
                    with pytest.raises(fbe.DecodeError):
                        message.from_final(frame) if final else message.from_fbe(frame)
                continue
            seen["delivered"] += 1
            if cls is proto.Proxy:
                assert outcome.buffer.data == frame
                continue
            assert type(outcome).fbe_type == tid
            model = getattr(proto, type(outcome).__name__ + ("FinalModel" if final else "Model"))()
            model.attach(frame)
            assert model.verify()
            assert model.deserialize()[0].fbe_equal(outcome)
    assert all(n > 20 for n in seen.values()), seen


def test_struct_offset_zero(gen: Any) -> None:
    """A struct slot with offset 0: verify() fails (as the original) and so does deserialize (the original
    read defaults: docs/limits.md section 2)."""
    proto = gen.mods["proto"]
    data = bytearray(proto.Account(wallet=proto.Balance(currency="USD")).to_fbe())
    struct.pack_into("<I", data, 8 + 17, 0)  # Account.wallet slot
    with pytest.raises(fbe.DecodeError, match="struct offset 0"):
        proto.Account.from_fbe(bytes(data))
    m = proto.AccountModel()
    m.attach(bytes(data))
    assert not m.verify()
