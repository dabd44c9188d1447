"""`fbec decode` / `fbec encode` end to end (subprocess), including bad input."""

from __future__ import annotations

import base64
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from tools_testlib import REPO, fbec, shared


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
    # cut after 100 bytes, with the root size saying so (a root larger than its buffer fails at offset 0)
    data = struct.pack("<I", 100) + shared("vectors", "proto_account.fbe.bin").read_bytes()[4:100]
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
    assert status == 1 and "invalid JSON" in err
    status, _, err = fbec("encode", f"--input={_proto()}", stdin=b'{"id": 1}')
    assert status == 2 and "@type" in err


def test_option_style_cli_still_works() -> None:
    status, out, err = fbec("--ir", f"--input={_proto()}")
    assert status == 0, err
    assert json.loads(out)["main"] == "proto"


def test_decode_of_one_root_without_type_says_to_pass_type() -> None:
    status, root, err = fbec("encode", f"--input={_proto()}", "--type=proto.Balance", stdin=b'{"currency":"USD"}')
    assert status == 0, err
    status, out, err = fbec("decode", f"--input={_proto()}", stdin=root)
    assert status == 2 and out == b""
    assert err == ("fbec decode: error: the input is one buffer with type id 2, not a stream of messages the "
                   "schema's Receiver dispatches: pass --type=TYPE to decode it as a single root (the schema's "
                   "structs with that type id: proto.Balance, proto.BalanceMessage)\n")


def test_encode_of_deep_json_is_one_line_error() -> None:
    status, out, err = fbec("encode", f"--input={_proto()}", "--type=proto.Order", stdin=b"[" * 1000 + b"]" * 1000)
    assert (status, out) == (1, b"")
    assert err == "fbec encode: error: invalid JSON: nesting of 1000 arrays and objects, deeper than 384\n"


def test_encode_hex_ends_with_a_newline() -> None:
    status, out, err = fbec("encode", f"--input={_proto()}", "--type=proto.Balance", "--to=hex",
                            stdin=b'{"currency":"USD"}')
    assert status == 0, err
    data = bytes.fromhex(out.decode().rstrip("\n"))
    assert out == data.hex().encode() + b"\n" and int.from_bytes(data[:4], "little") == len(data)


@pytest.mark.parametrize("command,status", [
    (["compat", "--json", "schemas/trade.fbe", "schemas/tests/everything.fbe"], 1),     # 1: incompatible
    (["--ir", "--input=BIG"], 0),
    (["decode", "--input=schemas/trade.fbe", "--format=text"], 0),
])
def test_closed_output_pipe_is_quiet(command: list[str], status: int, tmp_path: Path) -> None:
    """`fbec ... | head -c 400`: no BrokenPipeError traceback, the status of a program stopped by SIGPIPE.
    Each command writes far more than a pipe holds, so it is writing when the reader goes."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")]))
    big = tmp_path / "big.fbe"
    big.write_text("package big\n" + "".join(f"struct S{i} {{ int32 a; string b; }}\n" for i in range(3000)))
    command = [c.replace("BIG", str(big)) for c in command]
    stream = b""
    if command[0] == "decode":
        _, stream, err = fbec("encode", "--input=schemas/trade.fbe", stdin=b"\n".join(
            b'{"@type":"proto.BalanceMessage","body":{"currency":"USD","amount":%d}}' % i for i in range(20000)))
        assert stream, err
    p = subprocess.Popen([sys.executable, "-m", "fbec", *command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=str(REPO), env=env)
    assert p.stdout is not None and p.stderr is not None and p.stdin is not None
    if stream:
        p.stdin.write(stream)
    p.stdin.close()
    assert len(p.stdout.read(400)) == 400
    p.stdout.close()                                    # as `head -c 400` does
    err = p.stderr.read().decode()
    # 141 when a write meets the closed pipe; Python's text layer may also drop the rest of one big
    # write silently (the command's own status). Either way: no BrokenPipeError traceback, nothing on stderr.
    assert p.wait(timeout=60) in (status, 141) and err == ""


@pytest.mark.parametrize("tool", ["decode", "encode", "compat", "format"])
def test_every_tool_states_its_exit_status_in_help(tool: str) -> None:
    status, out, _ = fbec(tool, "--help")
    assert status == 0 and "Exit status: 0" in " ".join(out.decode().split())
