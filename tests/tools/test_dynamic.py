"""fbe.dynamic against the golden vectors where the conformance runner does not check it: zeros in
unspecified bytes, JSON to binary, protocol streams, cross reads, random values."""

from __future__ import annotations

import json
import math
import random
import uuid
from decimal import Decimal
from typing import Any

import pytest
from fbe import DecodeError
from fbe.dynamic import DynamicCodec
from fbe.text import text_bytes
from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from tools_testlib import REPO, ValueSampler, codec_for, manifest, manifest_cases, shared

CASES = manifest_cases()


def _setup(case: dict[str, Any]):
    dc = codec_for(str(shared(case["schema"])))
    return dc, f"{case['package']}.{case['type']}"


def test_vectors_present() -> None:
    assert len(manifest()["cases"]) >= 26


# Each case read and written in both models, as JSON, text and value descriptions, is checked by
# conformance/runner.py through the fbe.dynamic testee (conformance/testees/dynamic_testee.py; known
# failures, if any, in conformance/failures/python-dynamic.txt). Here: what the runner does not check.

def _versioned(case: dict[str, Any]) -> dict[str, Any]:
    return next(f for f in case["files"] if f["kind"] == "versioned")


UNSPECIFIED = [c for c in CASES if _versioned(c).get("unspecified_bytes")]


@pytest.mark.parametrize("case", UNSPECIFIED, ids=[c["name"] for c in UNSPECIFIED])
def test_unspecified_bytes_are_written_as_zeros(case: dict[str, Any]) -> None:
    """The runner masks the offsets of absent optionals (docs/format.md 3.4); we write them as zeros."""
    dc, q = _setup(case)
    f = _versioned(case)
    encoded = dc.encode(dc.from_described(case["value"], q), q, "versioned")
    assert f["unspecified_bytes"]
    for off, n in f["unspecified_bytes"]:
        assert encoded[off:off + n] == bytes(n)


def test_json_encode_proto_account_is_byte_exact() -> None:
    dc = codec_for(str(shared("schemas", "proto.fbe")))
    value = dc.from_json(shared("vectors", "proto_account.json").read_bytes(), "proto.Account")
    assert dc.encode(value, "proto.Account") == shared("vectors", "proto_account.fbe.bin").read_bytes()
    assert dc.encode(value, "proto.Account", "final") == shared("vectors", "proto_account.final.bin").read_bytes()


@pytest.mark.parametrize("entry", range(2))
def test_protocol_streams(entry: int) -> None:
    stream = manifest()["protocol"][entry]
    dc = codec_for(str(shared(stream["schema"])))
    model = "final" if stream["kind"].endswith("final") else "versioned"
    data = shared("vectors", stream["file"]).read_bytes()
    frames = dc.decode_stream(data, model)
    assert [(pos, s.name) for pos, s, _ in frames] == [(m["offset"], m["type"]) for m in stream["messages"]]
    for (_, s, value), m in zip(frames, stream["messages"]):
        assert json.loads(dc.dumps_described(value, s.qualified)) == m["value"]
    text = b"".join(text_bytes(dc.to_text(v, s.qualified)) + b"\n" for _, s, v in frames)
    assert text == shared("vectors", stream["text_file"]).read_bytes()
    values = [dc.from_described(m["value"]) for m in stream["messages"]]
    assert dc.encode_stream(values, model) == data


def test_cross_reads_versioned() -> None:
    """Schema evolution: vectors read with the other version of the schema print what the original printed."""
    reads = [r for r in manifest()["cross_reads"]["reads"] if r["file"].endswith(".fbe.bin")]
    assert reads
    for r in reads:
        package, _, _name = r["read_as"].partition(".")
        dc = codec_for(str(shared("schemas", f"{package}.fbe")))
        data = shared("vectors", r["file"]).read_bytes()
        value, size = dc.decode(data, r["read_as"])
        assert size == r["deserialize_returns"], r
        assert text_bytes(dc.to_text(value, r["read_as"])) == r["expected_text"].encode("utf-8"), r


def test_cross_reads_final_never_crash() -> None:
    """The final model has no versioning: reading with another schema either fails cleanly or reads garbage."""
    for r in manifest()["cross_reads"]["reads"]:
        if not r["file"].endswith(".final.bin"):
            continue
        package = r["read_as"].partition(".")[0]
        dc = codec_for(str(shared("schemas", f"{package}.fbe")))
        data = shared("vectors", r["file"]).read_bytes()
        with pytest.raises(DecodeError):
            dc.decode(data, r["read_as"], "final", check=True)
        try:
            value, _ = dc.decode(data, r["read_as"], "final")
        except DecodeError:
            continue
        if r["expected_text"]:
            assert text_bytes(dc.to_text(value, r["read_as"])) == r["expected_text"].encode("utf-8"), r


def test_ir_json_file_drives_the_codec(tmp_path) -> None:
    """The codec reads `fbec --ir` output as well as the compiler's dataclasses."""
    from tools_testlib import fbec
    status, out, err = fbec("--ir", f"--input={shared('schemas', 'proto.fbe')}")
    assert status == 0, err
    path = tmp_path / "proto.ir.json"
    path.write_bytes(out)
    data = shared("vectors", "proto_account.fbe.bin").read_bytes()
    for source in (str(path), json.loads(out)):
        dc = DynamicCodec(source)
        value, _ = dc.decode(data, "proto.Account")
        assert dc.encode(value, "proto.Account") == data


class RandomSampler(ValueSampler):
    """Random values, edge values of each type among them."""

    max_depth = 3

    def __init__(self, dc: DynamicCodec, rng: random.Random) -> None:
        super().__init__(dc)
        self.rng = rng

    def primitive(self, name: str) -> Any:
        rng = self.rng
        if name == "bool":
            return rng.random() < 0.5
        if name in ("float", "double"):
            v = rng.choice([0.0, -0.0, 1e-300 if name == "double" else 1e-30, 1.5, -2.25, 1e20, 123.456, math.pi])
            return self.dc.from_described(v, ir.Primitive(name)) if name == "float" else v
        if name == "decimal":
            return Decimal(rng.choice(["0", "1.5", "-123.456", "79228162514264337593543950335",
                                       "0.0000000000000000000000000001"]))
        if name == "string":
            return rng.choice(["", "a", "h\u00e9llo \"q\" \\ \n\t", "\u20ac\U0001f600", "x" * 300])
        if name == "bytes":
            return bytes(rng.randrange(256) for _ in range(rng.randrange(6)))
        if name == "uuid":
            return uuid.UUID(int=rng.getrandbits(128))
        lo, hi = {"byte": (0, 255), "char": (0, 255), "wchar": (0, 0xFFFFFFFF), "int8": (-128, 127),
                  "uint8": (0, 255), "int16": (-32768, 32767), "uint16": (0, 65535), "int32": (-2**31, 2**31 - 1),
                  "uint32": (0, 2**32 - 1), "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
                  "timestamp": (0, 2**64 - 1)}[name]
        return rng.choice([lo, hi, max(0, lo), rng.randint(lo, hi)])

    def enum(self, values: list[int]) -> int:
        return self.rng.choice(values) if values else 0

    def is_none(self) -> bool:
        return self.rng.random() < 0.3

    def length(self) -> int:
        return self.rng.randrange(4)


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_random_values_round_trip(model: str) -> None:
    """Random values of every struct of the project's schema with every construct: bytes and typed JSON round-trip."""
    dc = DynamicCodec(compile_schema(str(REPO / "schemas" / "tests" / "everything.fbe"), [], Diagnostics()))
    sampler = RandomSampler(dc, random.Random(42))
    for _ in range(15):
        for q, s in dc.structs.items():
            value = sampler.value(DynamicCodec.ref(s))
            data = dc.encode(value, q, model)
            back, size = dc.decode(data, q, model, check=True)
            assert size == len(data)
            assert dc.encode(back, q, model) == data, q
            described = dc.dumps_described(back, q)
            assert dc.encode(dc.from_described(json.loads(described)), q, model) == data, q
