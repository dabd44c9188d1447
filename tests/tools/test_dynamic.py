"""fbe.dynamic against every golden vector: decode, encode, JSON, text, streams, cross reads."""

from __future__ import annotations

import json
from typing import Any, Dict

import pytest
from fbe import DecodeError
from fbe.text import text_bytes
from tools_testlib import codec_for, manifest, manifest_cases, shared

CASES = manifest_cases()
IDS = [c["name"] for c in CASES]


def _setup(case: Dict[str, Any]):
    dc = codec_for(str(shared(case["schema"])))
    return dc, f"{case['package']}.{case['type']}"


def _file(case: Dict[str, Any], kind: str) -> Dict[str, Any]:
    for f in case["files"]:
        if f["kind"] == kind:
            return f
    pytest.skip(f"{case['name']} has no {kind} file")


def _masked(data: bytes, ranges) -> bytes:
    out = bytearray(data)
    for off, n in ranges or []:
        out[off:off + n] = bytes(n)
    return bytes(out)


def test_vectors_present() -> None:
    assert len(manifest()["cases"]) >= 26


@pytest.mark.parametrize("model", ["versioned", "final"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_decode_matches_manifest_value(case: Dict[str, Any], model: str) -> None:
    dc, q = _setup(case)
    f = _file(case, model)
    data = shared("vectors", f["file"]).read_bytes()
    value, size = dc.decode(data, q, model, check=True)
    assert size == len(data)
    assert json.loads(dc.dumps_described(value, q)) == case["value"]


@pytest.mark.parametrize("model", ["versioned", "final"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_encode_from_manifest_value_is_byte_exact(case: Dict[str, Any], model: str) -> None:
    dc, q = _setup(case)
    f = _file(case, model)
    data = shared("vectors", f["file"]).read_bytes()
    encoded = dc.encode(dc.from_described(case["value"], q), q, model)
    assert _masked(encoded, f.get("unspecified_bytes")) == _masked(data, f.get("unspecified_bytes"))
    # the unspecified bytes (absent optionals' offsets) are written as zeros
    for off, n in f.get("unspecified_bytes") or []:
        assert encoded[off:off + n] == bytes(n)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_json_and_text_output_match_the_original(case: Dict[str, Any]) -> None:
    dc, q = _setup(case)
    value, _ = dc.decode(shared("vectors", _file(case, "versioned")["file"]).read_bytes(), q)
    text = shared("vectors", _file(case, "text")["file"]).read_bytes()
    if case["roundtrip"] == "ok" or "hash" in case["roundtrip"]:
        assert text_bytes(dc.to_text(value, q)) == text
    if any(f["kind"] == "json" for f in case["files"]):
        js = shared("vectors", _file(case, "json")["file"]).read_bytes()
        assert dc.to_json(value, q).encode("utf-8", "surrogateescape") == js


@pytest.mark.parametrize("case", [c for c in CASES if any(f["kind"] == "json" for f in c["files"])],
                         ids=[c["name"] for c in CASES if any(f["kind"] == "json" for f in c["files"])])
def test_json_reads_back(case: Dict[str, Any]) -> None:
    """JSON -> value -> JSON is the identity on the original's output; and bytes agree where JSON is lossless."""
    dc, q = _setup(case)
    js = shared("vectors", _file(case, "json")["file"]).read_bytes()
    value = dc.from_json(js, q)
    assert dc.to_json(value, q).encode("utf-8", "surrogateescape") == js


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
    assert [(pos, s["name"]) for pos, s, _ in frames] == [(m["offset"], m["type"]) for m in stream["messages"]]
    for (_, s, value), m in zip(frames, stream["messages"]):
        assert json.loads(dc.dumps_described(value, s["qualified"])) == m["value"]
    text = b"".join(text_bytes(dc.to_text(v, s["qualified"])) + b"\n" for _, s, v in frames)
    assert text == shared("vectors", stream["text_file"]).read_bytes()
    values = [dc.from_described(m["value"]) for m in stream["messages"]]
    assert dc.encode_stream(values, model) == data


def test_cross_reads_versioned() -> None:
    """Schema evolution: vectors read with the other version of the schema print what the original printed."""
    reads = [r for r in manifest()["cross_reads"]["reads"] if r["file"].endswith(".fbe.bin")]
    assert reads
    for r in reads:
        package, _, name = r["read_as"].partition(".")
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
