"""fbe.dynamic on hostile buffers: only DecodeError, bounded counts, depth and work."""

from __future__ import annotations

import random
import struct
import time
from pathlib import Path

import pytest
from fbe import DecodeError
from tools_testlib import codec_for, codec_from_text, shared

NODE = "package graph\nstruct Node { int32 id; Node? next; Node[] kids; }\n"


@pytest.mark.parametrize("name,q", [("proto_account", "proto.Account"), ("test_struct_optional_values",
                                                                         "test.StructOptional"),
                                    ("test_struct_hash", "test.StructHash")])
@pytest.mark.parametrize("model", ["versioned", "final"])
def test_every_truncation_fails_cleanly(name: str, q: str, model: str) -> None:
    schema = "proto.fbe" if q.startswith("proto") else "test.fbe"
    dc = codec_for(str(shared("schemas", schema)))
    data = shared("vectors", f"{name}.{'fbe' if model == 'versioned' else 'final'}.bin").read_bytes()
    step = max(1, len(data) // 300)
    for n in range(0, len(data), step):
        with pytest.raises(DecodeError) as info:
            dc.decode(data[:n], q, model)
        assert info.value.offset is None or 0 <= info.value.offset <= len(data)


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_random_corruption_never_crashes(model: str) -> None:
    dc = codec_for(str(shared("schemas", "test.fbe")))
    data = shared("vectors", f"test_struct_nested_values.{'fbe' if model == 'versioned' else 'final'}.bin") \
        .read_bytes()
    rng = random.Random(8)
    start = time.process_time()
    for _ in range(300):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] = rng.choice((0, 0xFF, rng.randrange(256)))
        try:
            dc.decode(bytes(b), "test.StructNested", model)
        except DecodeError:
            pass
    assert time.process_time() - start < 60


def test_huge_count_is_rejected_at_once() -> None:
    dc = codec_for(str(shared("schemas", "proto.fbe")))
    data = bytearray(shared("vectors", "proto_account.fbe.bin").read_bytes())
    data[0x68:0x6C] = struct.pack("<I", 0xFFFFFFFF)           # orders count (docs/format.md 3.7)
    with pytest.raises(DecodeError) as info:
        dc.decode(bytes(data), "proto.Account")
    assert info.value.offset == 0x68
    assert "count" in str(info.value)
    assert isinstance(getattr(info.value, "partial", None), dict)   # what could be decoded
    assert info.value.partial["name"] == "Test"
    final = bytearray(shared("vectors", "proto_account.final.bin").read_bytes())
    final[0x34:0x38] = struct.pack("<I", 0xFFFFFFFF)
    with pytest.raises(DecodeError):
        dc.decode(bytes(final), "proto.Account", "final")


def test_shared_bodies_cannot_blow_up(tmp_path: Path) -> None:
    """Every element of every vector points at the same body: n^levels decodes without a work budget;
    refused as soon as a second slot points back at a body already read (docs/limits.md 2)."""
    dc = codec_from_text(tmp_path, {"graph.fbe": NODE})
    body = 8 + 4 + 5 + 4
    n, levels = 60, 6
    buf = bytearray(8)
    bodies = []
    for _ in range(levels):
        p = len(buf)
        buf += struct.pack("<II", body, 1) + struct.pack("<iBI", 0, 0, 0) + b"\0\0\0\0"
        bodies.append(p)
    for level in range(levels - 1):
        p = bodies[level]
        v = len(buf)
        buf += struct.pack("<I", n) + b"".join(struct.pack("<I", bodies[level + 1] - p) for _ in range(n))
        struct.pack_into("<I", buf, p + 17, v - p)
    struct.pack_into("<II", buf, 0, len(buf), 8)
    start = time.process_time()
    with pytest.raises(DecodeError) as info:
        dc.decode(bytes(buf), "graph.Node")
    assert "allocation order" in str(info.value)
    assert time.process_time() - start < 5


def test_final_depth_is_bounded(tmp_path: Path) -> None:
    dc = codec_from_text(tmp_path, {"graph.fbe": NODE})
    levels = 5000
    fields = (b"\0\0\0\0" + b"\1") * levels              # id, next present, ... nested forever
    data = struct.pack("<II", 8 + len(fields), 1) + fields
    with pytest.raises(DecodeError) as info:
        dc.decode(data, "graph.Node", "final")
    assert "deep" in str(info.value)


def test_versioned_depth_is_bounded(tmp_path: Path) -> None:
    dc = codec_from_text(tmp_path, {"graph.fbe": NODE})
    value = None
    for i in range(200):
        value = {"id": i, "next": value, "kids": []}
    from fbe import EncodeError
    with pytest.raises(EncodeError):
        dc.encode(value, "graph.Node")
    shallow = None
    for i in range(100):
        shallow = {"id": i, "next": shallow, "kids": []}
    data = dc.encode(shallow, "graph.Node")
    assert dc.decode(data, "graph.Node")[0]["id"] == 99


def test_error_path_names_the_field() -> None:
    dc = codec_for(str(shared("schemas", "proto.fbe")))
    data = bytearray(shared("vectors", "proto_account.fbe.bin").read_bytes())
    data[0xF2:0xF6] = struct.pack("<I", 1000)                  # orders[2].symbol length
    from fbe.dynamic import path_text
    with pytest.raises(DecodeError) as info:
        dc.decode(bytes(data), "proto.Account")
    assert path_text(info.value) == "orders[2].symbol"
    assert info.value.offset == 0xF2
    partial = info.value.partial
    assert len(partial["orders"]) == 3 and partial["orders"][1]["id"] == 2 and "symbol" not in partial["orders"][2]
