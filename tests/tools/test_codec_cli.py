"""`fbec decode` / `fbec encode` end to end (subprocess), including bad input."""

from __future__ import annotations

import base64
import json

import pytest
from tools_testlib import fbec, shared


def _proto() -> str:
    return str(shared("schemas", "proto.fbe"))


def test_decode_json_text_value() -> None:
    data = shared("vectors", "proto_account.fbe.bin")
    status, out, err = fbec("decode", f"--input={_proto()}", "--type=proto.Account", str(data))
    assert status == 0, err
    assert out == shared("vectors", "proto_account.json").read_bytes() + b"\n"
    status, out, _ = fbec("decode", f"--input={_proto()}", "--type=Account", "--format=text", str(data))
    assert out == shared("vectors", "proto_account.txt").read_bytes() + b"\n"
    status, out, _ = fbec("decode", f"--input={_proto()}", "--type=Account", "--format=value", str(data))
    assert json.loads(out)["orders"][2]["price"] == 1.5


@pytest.mark.parametrize("how", ["hex", "base64"])
def test_decode_hex_and_base64_from_stdin(how: str) -> None:
    raw = shared("vectors", "proto_account.final.bin").read_bytes()
    text = raw.hex().encode() if how == "hex" else base64.b64encode(raw)
    for flag in ([], [f"--binary={how}"]):
        status, out, err = fbec("decode", f"--input={_proto()}", "--type=proto.Account", "--model=final", *flag,
                                stdin=text + b"\n")
        assert status == 0, err
        assert out == shared("vectors", "proto_account.json").read_bytes() + b"\n"


@pytest.mark.parametrize("model,ext", [("versioned", "fbe"), ("final", "final")])
def test_decode_stream_without_type(model: str, ext: str) -> None:
    status, out, err = fbec("decode", f"--input={_proto()}", f"--model={model}", "--format=text",
                            str(shared("vectors", f"protocol.{ext}.bin")))
    assert status == 0, err
    assert out == shared("vectors", f"protocol.{ext}.txt").read_bytes()


def test_decode_malformed_reports_offset_and_prints_partial() -> None:
    data = shared("vectors", "proto_account.fbe.bin").read_bytes()[:100]
    status, out, err = fbec("decode", f"--input={_proto()}", "--type=proto.Account", stdin=data)
    assert status == 1
    assert "offset 97" in err and "Account.asset.currency" in err
    assert out.startswith(b'{"id":1,"name":"Test"')


def test_decode_bad_usage() -> None:
    status, _, err = fbec("decode", f"--input={_proto()}", "--type=proto.Nope", stdin=b"\0" * 16)
    assert status == 2 and "unknown type 'proto.Nope'" in err
    status, _, err = fbec("decode", "--input=/nonexistent.fbe", "--type=X", stdin=b"")
    assert status == 2 and "does not exist" in err
    status, _, err = fbec("decode", f"--input={_proto()}", "--type=Account", "--binary=hex", stdin=b"zz")
    assert status == 2 and "not valid hex" in err


@pytest.mark.parametrize("model,ext", [("versioned", "fbe"), ("final", "final")])
def test_encode_from_json_and_value(model: str, ext: str) -> None:
    want = shared("vectors", f"proto_account.{ext}.bin").read_bytes()
    js = shared("vectors", "proto_account.json").read_bytes()
    status, out, err = fbec("encode", f"--input={_proto()}", "--type=proto.Account", f"--model={model}", stdin=js)
    assert status == 0, err
    assert out == want
    status, value, _ = fbec("decode", f"--input={_proto()}", "--type=Account", f"--model={model}",
                            "--format=value", stdin=want)
    status, out, err = fbec("encode", f"--input={_proto()}", f"--model={model}", "--to=hex", stdin=value)
    assert status == 0, err
    assert out == want.hex().encode() + b"\n"


def test_encode_stream_from_value_lines() -> None:
    stream = shared("vectors", "protocol.fbe.bin").read_bytes()
    status, lines, err = fbec("decode", f"--input={_proto()}", "--format=value", stdin=stream)
    assert status == 0, err
    assert len(lines.splitlines()) == 3
    status, out, err = fbec("encode", f"--input={_proto()}", stdin=lines)
    assert status == 0, err
    assert out == stream


def test_encode_errors() -> None:
    status, _, err = fbec("encode", f"--input={_proto()}", "--type=proto.Order", stdin=b'{"id": "x"}')
    assert status == 1 and "integer" in err
    status, _, err = fbec("encode", f"--input={_proto()}", "--type=proto.Order", stdin=b'{"id": 1} trailing')
    assert status == 2 and "invalid JSON" in err
    status, _, err = fbec("encode", f"--input={_proto()}", stdin=b'{"id": 1}')
    assert status == 2 and "@type" in err


def test_option_style_cli_still_works() -> None:
    status, out, err = fbec("--ir", f"--input={_proto()}")
    assert status == 0, err
    assert json.loads(out)["main"] == "proto"
