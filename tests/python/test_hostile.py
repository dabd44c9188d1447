"""Hostile input: every decoder raises fbe.DecodeError (never IndexError, struct.error,
MemoryError, RecursionError or a hang) and allocates only what the buffer justifies."""

from __future__ import annotations

import random
import struct
import time
from pathlib import Path
from typing import Any, Callable

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
    start = time.monotonic()
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
    assert time.monotonic() - start < 120


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
    """Many vector slots pointing at one body: the decode budget stops the amplification."""
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
    with pytest.raises(fbe.DecodeError, match="budget"):
        proto.Account.from_fbe(bytes(acc))
    # a few shared slots are fine (the budget is proportional to the buffer)
    struct.pack_into("<I", acc, vec_pos, 3)
    assert len(proto.Account.from_fbe(bytes(acc)).orders) == 3


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


def test_stream_garbage(gen: Any) -> None:
    rnd = random.Random(7)
    proto = gen.mods["proto"]
    for _ in range(300):
        data = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200)))
        frame = struct.pack("<I", 16 + len(data)) + struct.pack("<I", 8) + data + bytes(8)
        for cls in (proto.Receiver, proto.FinalReceiver, proto.Proxy):
            r = cls()
            try:
                r.receive(frame[: len(frame)])
            except (fbe.DecodeError, fbe.FrameError):
                pass


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
