#!/usr/bin/env python3
"""Conformance testee for the Python runtime's schema-driven codec, `fbe.dynamic`
(conformance/testee_protocol.md).

No generated code: every conformance schema is compiled to the IR at start-up
and every request is answered by a `DynamicCodec` of the schema that declares
the package. The same vectors, malformed inputs and cross matrix as the
generated-code testees, so `fbec decode/encode` (which run on this codec)
are held to the same bytes.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
for p in (REPO / "compiler", REPO / "runtime" / "python", REPO / "conformance"):
    sys.path.insert(0, str(p))

import fbe
from fbe.dynamic import DynamicCodec
from fbe.protocol import unknown_type
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics

from schemas import conformance_schemas

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measuring import measured


def load() -> dict[str, DynamicCodec]:
    """A codec per package, from the schema that declares it (its imports come along)."""
    codecs: dict[str, DynamicCodec] = {}
    for path in conformance_schemas():
        schema = compile_schema(str(path), [], Diagnostics())
        codec = DynamicCodec(schema)
        for p in schema.packages:
            if p.name not in codecs or p.name == schema.main:
                codecs[p.name] = codec
    return codecs


class StreamRecorder(fbe.Receiver):
    """A Receiver driven by the codec: frames dispatched as a generated Receiver of the package would
    (the runtime's framing and limits), each body decoded by the codec; what it did, in order."""

    def __init__(self, codec: DynamicCodec, package: str, final: bool, limits: fbe.Limits | None) -> None:
        super().__init__(limits)
        self.codec, self.package, self.fbe_final = codec, package, final  # type: ignore[misc]
        self.events: list[dict[str, str]] = []

    def _fbe_frame(self, frame: bytes) -> None:
        tid = fbe.frame_type(frame, self.fbe_final)
        s = self.codec.message_for(tid, self.package)
        if s is None:
            raise unknown_type(tid, len(frame))
        self.codec.decode(frame, s, "final" if self.fbe_final else "versioned", limits=self.limits)
        self.events.append({"message": s.qualified})

    def on_receive_error(self, error: fbe.FBEError) -> None:
        self.events.append({"error": str(error)})


def answer(codecs: dict[str, DynamicCodec], req: dict[str, Any]) -> dict[str, Any]:
    codec = codecs.get(req["package"])
    if codec is None:
        return {"skipped": f"package {req['package']} is not compiled into this testee"}
    q = f"{req['package']}.{req['type']}"
    fmt_in, payload = req["input"]["format"], req["input"]["payload"]
    limits = fbe.Limits(**req["limits"]) if "limits" in req else None
    if fmt_in in ("stream", "final_stream"):
        receiver = StreamRecorder(codec, req["package"], fmt_in == "final_stream", limits)
        try:
            receiver.receive(base64.b64decode(payload))
        except fbe.FrameError as e:  # a frame size below the minimum: the rest of the stream is lost
            receiver.events.append({"error": str(e)})
        return {"result": receiver.events}
    try:
        if fmt_in in ("versioned", "final"):
            value, _ = codec.decode(base64.b64decode(payload), q, fmt_in, limits=limits)
            if req["output"] == "verify":        # fbe.dynamic has no verify of its own: the decode is its check
                return {"result": "ok"}
        elif fmt_in == "json":
            value = codec.from_json(payload, q, limits=limits)
        elif fmt_in == "value":
            try:
                value = codec.from_described(payload, q)
            except fbe.EncodeError as e:   # null where the type has none: refused naming the field, as a writer
                return {"serialize_error": str(e)}
        else:
            return {"skipped": f"unknown input format {fmt_in}"}
    except fbe.FBEError as e:
        return {"parse_error": str(e)}
    out = req["output"]
    try:
        if out in ("versioned", "final"):
            return {"result": base64.b64encode(codec.encode(value, q, out)).decode()}
        if out == "json":
            return {"result": codec.to_json(value, q)}
        if out == "text":
            return {"result": base64.b64encode(fbe.text_bytes(codec.to_text(value, q))).decode()}
        if out == "value":
            return {"result": json.loads(codec.dumps_described(value, q))}
    except fbe.FBEError as e:
        return {"serialize_error": str(e)}
    return {"skipped": f"unknown output format {out}"}


def main() -> int:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    codecs = load()
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return 0
        (size,) = struct.unpack("<I", head)
        req = json.loads(stdin.read(size))
        if req.get("quit"):
            return 0
        try:
            reply = measured(lambda req=req: answer(codecs, req)) if req.get("measure") else answer(codecs, req)
        except Exception as e:  # noqa: BLE001 - a bug in the codec: report it, keep serving
            reply = {"parse_error": f"UNEXPECTED {type(e).__name__}: {e}"} \
                if req["input"]["format"] != "value" else {"serialize_error": f"UNEXPECTED {type(e).__name__}: {e}"}
        body = json.dumps(reply).encode()
        stdout.write(struct.pack("<I", len(body)) + body)
        stdout.flush()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
