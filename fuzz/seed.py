#!/usr/bin/env python3
"""Seeds the fuzz corpora from the golden vectors and the project's schemas.

Each C++ target reads a selector byte first (see the target's source); the
seeds put the right selector before each vector so the fuzzer starts from
valid buffers of every type it exercises.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))

# (package.Type -> selector index) of fuzz_models.cpp and fuzz_json.cpp
MODEL_TYPES = {"proto.Account": 0, "proto.Order": 1, "test.StructNested": 2, "test.StructArray": 3,
               "test.StructVector": 4, "test.StructSet": 5, "test.StructMap": 6, "test.StructHashEx": 7}
JSON_TYPES = {"proto.Account": 0, "test.StructNested": 1, "test.StructMap": 2, "test.StructHashEx": 3}


def long_numbers() -> list[tuple[str, str]]:
    """JSON documents holding numbers of hundreds of digits, in known members and unknown ones: RapidJSON
    1.1.0's full-precision conversion read out of bounds on them (issue 21), so the JSON target starts
    from that class of input."""
    zeros = "0" * 400
    numbers = {"tiny": f"0.{zeros}1", "tiny-exp": f"1.{zeros}1e-300", "long-int": "9" * 400 + ".5",
               "long-frac": f"0.3{zeros}4e-5", "negative": f"-0.{zeros}25e100"}
    out = []
    for name, n in numbers.items():
        out.append((f"long-{name}-unknown", '{"unknown":' + n + "}"))
        out.append((f"long-{name}-array", "[" + n + "," + n + "]"))
        out.append((f"long-{name}-members", '{"id":' + n + ',"f1":' + n + ',"balance":' + n + "}"))
    return out


def main() -> int:
    out = Path(sys.argv[1])
    for name in ("models", "json", "receiver", "python"):
        (out / name).mkdir(parents=True, exist_ok=True)
    for name, text in long_numbers():
        for selector in JSON_TYPES.values():
            (out / "json" / f"{name}.{selector}").write_bytes(bytes([selector]) + text.encode())
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.exists():
        print(f"fuzz: no golden vectors in {SHARED}: corpora start empty")
        for name in ("models", "json", "receiver", "python"):
            (out / name / "empty").write_bytes(b"\0")
        return 0
    cases = json.loads(manifest.read_text())["cases"]
    for c in cases:
        q = f"{c['package']}.{c['type']}"
        for f in c["files"]:
            data = (SHARED / "vectors" / f["file"]).read_bytes()
            if f["kind"] in ("versioned", "final"):
                final = f["kind"] == "final"
                (out / "python" / f["file"]).write_bytes(bytes([final]) + q.encode() + b"\0" + data)
                if q in MODEL_TYPES:
                    selector = MODEL_TYPES[q] << 1 | int(final)
                    (out / "models" / f["file"]).write_bytes(bytes([selector]) + data)
            elif f["kind"] == "json" and q in JSON_TYPES:
                (out / "json" / f["file"]).write_bytes(bytes([JSON_TYPES[q]]) + data)
    for stream, final in (("protocol.fbe.bin", 0), ("protocol.final.bin", 1)):
        data = (SHARED / "vectors" / stream).read_bytes()
        for chunk in (1, 7, 64):
            (out / "receiver" / f"{stream}.{chunk}").write_bytes(bytes([(chunk - 1) << 1 | final]) + data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
