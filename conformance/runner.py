#!/usr/bin/env python3
"""Cross-language conformance runner.

Starts one testee per language (conformance/testee_protocol.md), feeds every
case — the original's golden vectors from ../shared/vectors when present, and
the project's own cases — and checks the answers byte for byte. Then runs the
cross matrix: what one language writes, every other language must read and
write back identically. Prints a table (language x suite x pass/fail/skip)
and exits 1 on any unexpected failure.

Known failures are listed per language in conformance/failures/<lang>.txt,
one `case-id  # reason` per line; a listed case that passes is an error too,
so the lists only shrink.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import selectors
import struct
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))

BINARY = ("versioned", "final")
MAX_ERROR = 1000            # characters of a hostile case's error message: never the whole input
TEXTUAL = ("json", "text")


# ------------------------------------------------------------------ testees

class TesteeError(Exception):
    pass


STARTUP_SECONDS = 30.0       # what a testee process may take to start, beyond its first request's time


class Testee:
    """One language's testee process, restarted after a crash or a timeout."""

    __test__ = False            # not a pytest test class

    def __init__(self, name: str, command: Sequence[str], timeout: float) -> None:
        self.name, self.command, self.timeout = name, list(command), timeout
        self.proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=sys.stderr, cwd=REPO)
        return self.proc

    def _read(self, proc: subprocess.Popen[bytes], n: int, deadline: float) -> bytes:
        assert proc.stdout is not None
        out = b""
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        try:
            while len(out) < n:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise TesteeError(f"no answer within {self.timeout:g}s")
                chunk = os.read(proc.stdout.fileno(), n - len(out))
                if not chunk:
                    raise TesteeError(f"testee exited (status {proc.wait()})")
                out += chunk
        finally:
            sel.close()
        return out

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        starting = self.proc is None or self.proc.poll() is not None
        proc = self._start()
        assert proc.stdin is not None
        body = json.dumps(request).encode()
        try:
            proc.stdin.write(struct.pack("<I", len(body)) + body)
            proc.stdin.flush()
            # a JVM's or Python's start-up is not the request's time: on a loaded machine it alone
            # took more than the 10 s a request has
            deadline = time.monotonic() + self.timeout + (STARTUP_SECONDS if starting else 0)
            (size,) = struct.unpack("<I", self._read(proc, 4, deadline))
            answer = json.loads(self._read(proc, size, deadline))
        except (TesteeError, BrokenPipeError, ValueError) as e:
            self.kill()
            raise TesteeError(str(e)) from None
        kinds = [k for k in answer if k != "measured"] if isinstance(answer, dict) else []
        if len(kinds) != 1 or kinds[0] not in ("result", "parse_error", "serialize_error", "skipped"):
            raise TesteeError(f"malformed answer {str(answer)[:200]}")
        return answer

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                body = b'{"quit": true}'
                self.proc.stdin.write(struct.pack("<I", len(body)) + body)
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()


class TesteesMissing(Exception):
    """Some language's testee is not built: the conformance suite runs every language or fails."""


def built_testees() -> tuple[dict[str, list[str]], list[str]]:
    """The testees built in this checkout (the command that starts each), and the others, each as
    `name (make target)`."""
    python = {"python": HERE / "testees" / "python_testee.py",
              "python-dynamic": HERE / "testees" / "dynamic_testee.py"}   # fbe.dynamic: no generated code
    out: dict[str, list[str]] = {name: [sys.executable, str(path)] for name, path in python.items()}
    built = REPO / "build" / "conformance"                  # conformance/testees/<lang>/build.py
    missing = []
    if any((REPO / "build" / "python-native" / "lib").glob("fbe_native*")):  # the generated classes' native core
        out["python-native"] = [sys.executable, str(python["python"]), "--native"]
    else:
        missing.append("python-native (make python-native)")
    for name, path, target in (("cpp", built / "cpp_testee", "conformance-build"),
                               ("go", built / "go" / "go_testee", "conformance-build-go"),
                               ("java", built / "java" / "java_testee", "conformance-build-java"),
                               ("js", built / "js" / "js_testee", "conformance-build-js"),
                               ("kotlin", built / "kotlin" / "kotlin_testee", "conformance-build-kotlin"),
                               ("rust", built / "rust" / "rust_testee", "conformance-build-rust"),
                               ("csharp", built / "csharp" / "csharp_testee", "conformance-build-csharp"),
                               ("ruby", built / "ruby" / "ruby_testee", "conformance-build-ruby")):
        if path.exists():
            out[name] = [str(path)]
        else:
            missing.append(f"{name} (make {target})")
    return out, missing


def testee_commands() -> dict[str, list[str]]:
    """Every language's testee (the command that starts it); raises TesteesMissing naming those
    not built and the make target that builds each (`make conformance` builds them all)."""
    commands, missing = built_testees()
    if missing:
        raise TesteesMissing(f"conformance testees not built: {', '.join(missing)}")
    return commands


# ------------------------------------------------------------------ cases

@dataclass
class Case:
    """One request and what a correct testee answers."""
    id: str
    suite: str
    request: dict[str, Any]
    expect: str                                # "result" | "parse_error" | "serialize_error"
    result: Any = None                         # expected result (None: any result; an error's: text it holds,
                                               # a parse_error's as a word: the field it names)
    mask: Sequence[tuple[int, int]] = ()       # byte ranges ignored in binary results
    compare: Callable[[Any, Any], bool] | None = None
    events: list[str] | None = None            # a stream's delivered messages and "error"s, in order
    bound: bool = False                        # measured: peak memory and time within the limits policy
    honest: dict[str, Any] | None = None       # the honest request whose time per byte is the reference
    peak_ratio: dict[str, int] = field(default_factory=dict)   # a testee's own peak bound (docs/limits.md 3)
    required: bool = False                     # a "skipped" answer is a failure (docs/limits.md cases)


def encode_payload(fmt: str, data: bytes) -> Any:
    if fmt in BINARY or fmt == "text":
        return base64.b64encode(data).decode()
    return data.decode("utf-8")


def same_bytes(expected: bytes, got: bytes, mask: Sequence[tuple[int, int]]) -> bool:
    if len(expected) != len(got):
        return False
    e, g = bytearray(expected), bytearray(got)
    for start, length in mask:
        e[start:start + length] = g[start:start + length] = bytes(length)
    return e == g


def manifest() -> dict[str, Any] | None:
    path = SHARED / "vectors" / "MANIFEST.json"
    if not path.exists():
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def vector_cases(m: dict[str, Any]) -> list[Case]:
    """Every vector read in every input format and written in every output format."""
    cases: list[Case] = []
    vectors = SHARED / "vectors"
    for c in m["cases"]:
        files = {f["kind"]: f for f in c["files"]}
        data = {k: (vectors / f["file"]).read_bytes() for k, f in files.items()}
        masks = {"versioned": [tuple(r) for r in files["versioned"].get("unspecified_bytes", [])]}
        unordered = "hash" in c["roundtrip"]
        # The original reads some absent optionals back as their defaults (test_struct_optional_nulls);
        # docs/design.md fixes that defect, so versioned input must give the exact value here too.
        inputs: list[tuple[str, Any]] = [(k, encode_payload(k, data[k])) for k in ("versioned", "final", "json")
                                         if k in data]
        inputs.append(("value", c["value"]))
        for in_fmt, payload in inputs:
            for out_fmt in ("versioned", "final", "json", "text", "value"):
                if out_fmt not in data and out_fmt != "value":
                    continue
                req = {"package": c["package"], "type": c["type"],
                       "input": {"format": in_fmt, "payload": payload}, "output": out_fmt}
                expected: Any = c["value"] if out_fmt == "value" else data[out_fmt]
                compare = None
                if unordered:
                    compare = _unordered_compare(out_fmt, str(SHARED / c["schema"]), f"{c['package']}.{c['type']}")
                if in_fmt == "json" and out_fmt in ("versioned", "final", "value", "text"):
                    continue            # the original's JSON is lossy (decimal, char): json -> json only
                cases.append(Case(f"vector/{c['name']}/{in_fmt}->{out_fmt}", f"vectors {out_fmt}", req, "result",
                                  expected, masks.get(out_fmt, ()), compare))
    return cases


def _unordered_compare(fmt: str, schema: str, qualified: str) -> Callable[[Any, Any], bool]:
    """Hash entries may come in any order: compare what the bytes mean, not the bytes.

    Binary results are decoded with the schema-driven codec of the Python
    runtime (fbe.dynamic, independent of every testee) and compared as
    values with map/hash entries as sets; text results as multisets of bytes.
    """
    def compare(expected: Any, got: Any) -> bool:
        if fmt == "value":
            return _canonical(expected) == _canonical(got)
        if fmt in BINARY:
            codec = _codec(schema)
            try:
                a = codec.to_described(codec.decode(expected, qualified, fmt, check=True)[0], qualified)
                b = codec.to_described(codec.decode(got, qualified, fmt, check=True)[0], qualified)
            except Exception:             # noqa: BLE001 - undecodable output simply does not match
                return False
            return len(expected) == len(got) and _canonical(a) == _canonical(b)
        if fmt == "json":
            return _canonical(json.loads(expected)) == _canonical(json.loads(got))
        return sorted(expected) == sorted(got)
    return compare


_CODECS: dict[str, Any] = {}


def _codec(schema: str) -> Any:
    """The dynamic codec of a schema file (cached)."""
    if schema not in _CODECS:
        for p in (REPO / "compiler", REPO / "runtime" / "python"):
            if str(p) not in sys.path:
                sys.path.insert(0, str(p))
        from fbe.dynamic import DynamicCodec
        from fbec.model.resolve import compile_schema
        from fbec.syntax.diagnostics import Diagnostics
        _CODECS[schema] = DynamicCodec(compile_schema(schema, [], Diagnostics()))
    return _CODECS[schema]


def _canonical(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _canonical(x) for k, x in v.items()}
    if isinstance(v, list):
        items = [_canonical(x) for x in v]
        if all(isinstance(x, list) and len(x) == 2 for x in items):
            return sorted(items, key=lambda x: json.dumps(x, sort_keys=True))
        return items
    return v


def malformed_cases(m: dict[str, Any]) -> list[Case]:
    """Inputs every testee must reject with a parse error, grouped by concern."""
    cases: list[Case] = []
    vectors = SHARED / "vectors"
    for c in m["cases"]:
        for f in c["files"]:
            if f["kind"] not in BINARY:
                continue
            data = (vectors / f["file"]).read_bytes()
            fmt = f["kind"]
            base = {"package": c["package"], "type": c["type"], "output": fmt}

            def add(suite: str, name: str, payload: bytes, base: dict = base, fmt: str = fmt,
                    case: str = c["name"]) -> None:
                req = dict(base, input={"format": fmt, "payload": base64.b64encode(payload).decode()})
                cases.append(Case(f"malformed/{suite}/{case}.{fmt}/{name}", f"malformed: {suite}",
                                  req, "parse_error"))

            # premature end: every proper prefix (a root's own size says how long it is)
            step = max(1, len(data) // 24)
            for n in sorted(set(range(0, len(data), step)) | {len(data) - 1}):
                add("premature end", f"len{n}", data[:n])
            # illegal sizes: the root size field beyond the buffer, below the minimum
            add("illegal lengths", "size+1", struct.pack("<I", len(data) + 1) + data[4:])
            add("illegal lengths", "size0", struct.pack("<I", 0) + data[4:])
            if fmt == "versioned":
                # root struct offset out of range / pointing into the header
                add("offsets out of range", "root-offset-huge", data[:4] + struct.pack("<I", 0x7FFFFFF0) + data[8:])
                add("offsets out of range", "root-offset-zero", data[:4] + struct.pack("<I", 0) + data[8:])
                add("offsets out of range", "root-offset-self", data[:4] + struct.pack("<I", 4) + data[8:])
                # wrong type id in the body header
                off = struct.unpack_from("<I", data, 4)[0]
                if off + 8 <= len(data):
                    patched = bytearray(data)
                    struct.pack_into("<I", patched, off + 4, (c["type_id"] + 1) & 0xFFFFFFFF)
                    add("illegal type", "type-id", bytes(patched))
            else:
                patched = bytearray(data)
                struct.pack_into("<I", patched, 4, (c["type_id"] + 1) & 0xFFFFFFFF)
                add("illegal type", "type-id", bytes(patched))
    return cases


def count_cases() -> list[Case]:
    """Counts far beyond the buffer (a vector of a million elements in a small root)."""
    cases: list[Case] = []
    m = manifest()
    if m is None:
        return cases
    vectors = SHARED / "vectors"
    # proto_account: Account.orders vector; the count sits at the vector's offset (docs/format.md 3.7: 0x68)
    data = bytearray((vectors / "proto_account.fbe.bin").read_bytes())
    struct.pack_into("<I", data, 0x68, 1_000_000)
    cases.append(Case("malformed/illegal counts/proto_account.versioned/orders-1e6", "malformed: illegal counts",
                      {"package": "proto", "type": "Account", "output": "versioned",
                       "input": {"format": "versioned", "payload": base64.b64encode(bytes(data)).decode()}},
                      "parse_error"))
    final = bytearray((vectors / "proto_account.final.bin").read_bytes())
    struct.pack_into("<I", final, 0x34, 0xFFFFFFFF)
    cases.append(Case("malformed/illegal counts/proto_account.final/orders-4e9", "malformed: illegal counts",
                      {"package": "proto", "type": "Account", "output": "final",
                       "input": {"format": "final", "payload": base64.b64encode(bytes(final)).decode()}},
                      "parse_error"))
    return cases


def _event(event: Any, expected: str) -> Any:
    """A stream event as the cases list them: the message's type, or "error"; an expected
    "error: TEXT" is met by an error whose reason holds TEXT (else the reason is shown)."""
    if not isinstance(event, dict):
        return event
    if "message" in event:
        return event["message"]
    if expected.startswith("error: "):
        reason = str(event.get("error", ""))
        return expected if expected[len("error: "):] in reason else "error: " + reason
    return "error"


def hostile_cases() -> list[Case]:
    """conformance/limits.py: the limits policy's malformed and limits sets (docs/limits.md)."""
    if manifest() is None:
        return []
    import limits
    return [Case(c.id, c.suite, c.request, c.expect, result=c.result, compare=c.compare, events=c.events,
                 bound=c.bound, honest=c.honest, peak_ratio=c.peak_ratio, required=True)
            for c in limits.limit_cases()]


def input_size(request: dict[str, Any]) -> int:
    """The size of a request's input in bytes (binary and streams decoded from base64)."""
    inp = request["input"]
    if inp["format"] == "json":
        return len(inp["payload"].encode("utf-8"))
    return len(base64.b64decode(inp["payload"]))


def fastest(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Of two answers to the same measured request, the one that took less time."""
    def seconds(a: dict[str, Any]) -> float:
        m = a.get("measured")
        return float(m["seconds"]) if isinstance(m, dict) else float("inf")
    return new if seconds(new) < seconds(old) else old


def measured_bound(lang: str, case: Case, request: dict[str, Any], answer: dict[str, Any],
                   honest: dict[str, Any] | None,
                   ask: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[Outcome, dict[str, Any]]:
    """check_bound, where a failed time bound is measured again: a busy machine only ever adds time, so the
    hostile and the honest request are each asked up to limits.TIME_RETRIES more times and the fastest
    answers of each compared. Returns the outcome and the answer it was reached with."""
    import limits
    outcome = check_bound(lang, case, answer, honest)
    if honest is None or case.honest is None:
        return outcome, answer
    for _ in range(limits.TIME_RETRIES):
        if outcome.passed or not outcome.detail.startswith("time "):
            break
        honest = fastest(honest, ask(dict(case.honest, measure=True)))
        answer = fastest(answer, ask(request))
        outcome = check_bound(lang, case, answer, honest)
    return outcome, answer


def check_bound(lang: str, case: Case, answer: dict[str, Any], honest: dict[str, Any] | None) -> Outcome:
    """Peak heap bytes and time per input byte of a measured hostile request (conformance/limits.py)."""
    import limits
    m = answer.get("measured")
    if not isinstance(m, dict):
        return Outcome(False, detail="no measurement in the answer (the request asked for \"measure\")")
    n = input_size(case.request)
    peak, seconds = int(m["peak_bytes"]), float(m["seconds"])
    ratio = case.peak_ratio.get(lang, limits.PEAK_RATIO)
    if peak > ratio * n + limits.PEAK_SLACK:
        return Outcome(False, detail=f"peak memory {peak} bytes for {n} input bytes ({peak / n:.1f}x, "
                                     f"bound {ratio}x + {limits.PEAK_SLACK})")
    if honest is not None and case.honest is not None:
        hm = honest.get("measured")
        if not isinstance(hm, dict):
            return Outcome(False, detail="no measurement in the answer to the honest request")
        per_byte = float(hm["seconds"]) / input_size(case.honest)
        if seconds > limits.TIME_RATIO * per_byte * n + limits.TIME_SLACK:
            return Outcome(False, detail=f"time {seconds:.3f}s for {n} input bytes, {seconds / n / per_byte:.0f}x the "
                                         f"time per byte of an honest input (bound {limits.TIME_RATIO}x)")
    return Outcome(True)


# ------------------------------------------------------------------ verify = deserialize

def verify_request(request: dict[str, Any]) -> dict[str, Any] | None:
    """The verify request of a binary read (testee_protocol.md): the same input and limits, output "verify"."""
    if request["input"]["format"] not in BINARY:
        return None
    return dict({k: v for k, v in request.items() if k != "measure"}, output="verify")


def verify_differs(read: dict[str, Any], verified: dict[str, Any]) -> str | None:
    """Why a verify answer is not the one its deserialize gives (docs/limits.md 4), or None."""
    kind, text = next((k, v) for k, v in read.items() if k != "measured")
    vkind, vtext = next(iter(verified.items()))
    if "skipped" in (kind, vkind):
        return None
    if kind == "parse_error":
        if vkind == "parse_error" and vtext == text:
            return None
        return f"verify answered {vkind} {_short(str(vtext))!r} where deserialize gave the parse error {_short(text)!r}"
    if vkind == "result" and vtext == "ok":
        return None
    return f"verify answered {vkind} {_short(str(vtext))!r} where deserialize succeeded"


# ------------------------------------------------------------------ checking

@dataclass
class Outcome:
    passed: bool
    skipped: bool = False
    detail: str = ""


def decode_result(fmt: str, result: Any) -> Any:
    if fmt in BINARY or fmt == "text":
        return base64.b64decode(result)
    if fmt == "json":
        return result.encode("utf-8") if isinstance(result, str) else result
    return result


def check(case: Case, answer: dict[str, Any]) -> Outcome:
    kind, payload = next((k, v) for k, v in answer.items() if k != "measured")
    if kind == "skipped":
        if case.required:
            return Outcome(False, detail=f"skipped a case every testee must handle: {payload}")
        return Outcome(False, True, str(payload))
    if isinstance(payload, str) and payload.startswith("UNEXPECTED"):
        return Outcome(False, detail=f"the testee failed internally: {payload}")
    if case.expect == "parse_error":
        if kind == "parse_error" and case.required and len(str(payload)) > MAX_ERROR:
            return Outcome(False, detail=f"an error message of {len(str(payload))} characters: it quotes too much "
                                         "of the input (docs/limits.md 7)")
        if kind != "parse_error":
            return Outcome(False, detail=f"expected a parse error, got {kind}")
        if case.result is not None and not re.search(rf"\b{re.escape(case.result)}\b", str(payload)):
            return Outcome(False, detail=f"a parse error that does not name {case.result}: {_short(payload)}")
        return Outcome(True)
    if case.expect == "serialize_error":
        if kind != "serialize_error":
            return Outcome(False, detail=f"expected a serialize error naming {case.result}, got {kind}: "
                                         f"{_short(payload)}")
        if case.result is not None and str(case.result) not in str(payload):
            return Outcome(False, detail=f"a serialize error that does not name {case.result}: {_short(payload)}")
        return Outcome(True)
    if kind != "result":
        return Outcome(False, detail=f"{kind}: {payload}")
    if case.events is not None:
        got_events = [_event(e, case.events[i] if i < len(case.events) else "") for i, e in enumerate(payload)] \
            if isinstance(payload, list) else payload
        if got_events != case.events:
            return Outcome(False, detail=f"stream events {got_events}, expected {case.events}")
        return Outcome(True)
    if case.result is None:
        return Outcome(True)
    fmt = case.request["output"]
    got = decode_result(fmt, payload)
    if case.compare is not None:
        ok = case.compare(case.result, got)
    elif isinstance(case.result, bytes):
        ok = isinstance(got, bytes) and same_bytes(case.result, got, case.mask)
    else:
        ok = got == case.result
    return Outcome(ok, detail="" if ok else f"result differs: expected {_short(case.result)}, got {_short(got)}")


def _short(v: Any) -> str:
    text = v.hex() if isinstance(v, bytes) else json.dumps(v) if not isinstance(v, str) else v
    return text if len(text) < 160 else text[:160] + "..."


def load_failures(lang: str) -> dict[str, str]:
    path = HERE / "failures" / f"{lang}.txt"
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        case_id, sep, reason = line.partition("#")
        if not sep or not reason.strip():
            raise SystemExit(f"{path}:{n}: every known failure needs a reason after '#'")
        out[case_id.strip()] = reason.strip()
    return out


# ------------------------------------------------------------------ cross matrix

def cross_cases(writers: dict[str, Testee], m: dict[str, Any] | None, extra_values: Iterable[dict[str, Any]],
                log: Callable[[str], None]) -> list[tuple[str, Case]]:
    """Each writer encodes each value; every other language must decode it and write back the same bytes."""
    values: list[dict[str, Any]] = []
    if m is not None:
        values += [{"name": c["name"], "package": c["package"], "type": c["type"], "value": c["value"],
                    "schema": str(SHARED / c["schema"]), "unordered": "hash" in c["roundtrip"]} for c in m["cases"]]
    values += list(extra_values)
    out: list[tuple[str, Case]] = []
    for writer_name, writer in writers.items():
        for v in values:
            for fmt in ("versioned", "final", "json"):
                req = {"package": v["package"], "type": v["type"],
                       "input": {"format": "value", "payload": v["value"]}, "output": fmt}
                try:
                    answer = writer.ask(req)
                except TesteeError as e:
                    log(f"cross: {writer_name} could not write {v['name']} ({e})")
                    continue
                if "result" not in answer:
                    continue
                produced = decode_result(fmt, answer["result"])
                for reader_name in writers:
                    if reader_name == writer_name:
                        continue
                    read_req = {"package": v["package"], "type": v["type"],
                                "input": {"format": fmt, "payload": encode_payload(fmt, produced)},
                                "output": fmt}
                    compare = _unordered_compare(fmt, v["schema"], f"{v['package']}.{v['type']}") \
                        if v.get("unordered") else None
                    out.append((reader_name, Case(f"cross/{writer_name}->{reader_name}/{v['name']}/{fmt}",
                                                  f"cross {fmt}", read_req, "result", produced, (), compare)))
    return out


# ------------------------------------------------------------------ main

def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--testee", action="append", default=[], metavar="NAME[=COMMAND]",
                    help="run this testee: NAME alone is the built one of that name (default: every "
                         "language's, all built)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    ap.add_argument("--extra-values", metavar="FILE", help="JSON list of generated values for the cross matrix")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every failing case")
    args = ap.parse_args(argv)

    commands: dict[str, list[str]] = {}
    built, _ = built_testees()
    for spec in args.testee:
        name, _, cmd = spec.partition("=")
        if not cmd and name not in built:   # a name alone: the built testee of that name
            print(f"conformance: no built testee {name!r} (built: {', '.join(sorted(built))}); "
                  "give NAME=COMMAND", file=sys.stderr)
            return 1
        commands[name] = cmd.split() if cmd else built[name]
    if not commands:
        try:
            commands = testee_commands()
        except TesteesMissing as e:
            print(f"conformance: {e}", file=sys.stderr)
            return 1
    testees = {name: Testee(name, cmd, args.timeout) for name, cmd in commands.items()}

    m = manifest()
    cases: list[Case] = []
    if m is None:
        if os.environ.get("CI") == "true":
            print(f"conformance: golden vectors not found in {SHARED / 'vectors'} (CI=true: every suite runs)",
                  file=sys.stderr)
            return 1
        print(f"conformance: golden vectors not found in {SHARED / 'vectors'}: vector and malformed suites skipped")
    else:
        cases += vector_cases(m) + malformed_cases(m) + count_cases() + hostile_cases()
    extra: list[dict[str, Any]] = []
    if args.extra_values:
        with open(args.extra_values, encoding="utf-8") as f:
            extra = json.load(f)

    # table[lang][suite] = [pass, fail, skip]
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    problems: list[str] = []
    seen_ids: dict[str, set] = defaultdict(set)

    def record(lang: str, case: Case, outcome: Outcome, failures: dict[str, str]) -> None:
        seen_ids[lang].add(case.id)
        row = table[lang][case.suite]
        listed = case.id in failures
        if outcome.skipped:
            row[2] += 1
        elif outcome.passed:
            row[0] += 1
            if listed:
                problems.append(f"{lang}: {case.id} is listed as a known failure but passes: remove it "
                                f"from conformance/failures/{lang}.txt")
        else:
            row[1] += 1
            if not listed:
                problems.append(f"{lang}: {case.id}: {outcome.detail}")

    honest_answers: dict[tuple[str, str], dict[str, Any] | None] = {}
    verified: dict[tuple[str, str], dict[str, Any]] = {}      # one verify request per binary input and testee

    def verify(lang: str, request: dict[str, Any]) -> dict[str, Any] | None:
        vreq = verify_request(request)
        if vreq is None:
            return None
        key = (lang, json.dumps(vreq, sort_keys=True))
        if key not in verified:
            verified[key] = testees[lang].ask(vreq)
        return verified[key]

    def run(lang: str, case: Case, failures: dict[str, str]) -> None:
        request = dict(case.request, measure=True) if case.bound else case.request
        honest = None
        try:
            if case.bound and case.honest is not None:
                key = (lang, json.dumps(case.honest, sort_keys=True))
                if key not in honest_answers:
                    honest_answers[key] = testees[lang].ask(dict(case.honest, measure=True))
                honest = honest_answers[key]
            answer = testees[lang].ask(request)
            verified_answer = verify(lang, case.request)
        except TesteeError as e:
            record(lang, case, Outcome(False, detail=f"testee failure: {e}"), failures)
            return
        outcome = check(case, answer)
        if outcome.passed and case.bound:
            try:
                outcome, answer = measured_bound(lang, case, request, answer, honest, testees[lang].ask)
            except TesteeError as e:
                outcome = Outcome(False, detail=f"testee failure: {e}")
        differs = verify_differs(answer, verified_answer) if verified_answer is not None else None
        if differs is not None and not outcome.skipped:
            outcome = Outcome(False, detail="; ".join(d for d in (outcome.detail, differs) if d))
        record(lang, case, outcome, failures)

    started = time.monotonic()
    all_failures = {lang: load_failures(lang) for lang in testees}
    for lang in testees:
        for case in cases:
            run(lang, case, all_failures[lang])
    if len(testees) > 1:
        for lang, case in cross_cases(testees, m, extra, print):
            run(lang, case, all_failures[lang])
    elif extra:
        print("conformance: one testee only, cross matrix skipped")
    for t in testees.values():
        t.close()

    print("\n| language | suite | passed | failed | skipped |\n|---|---|---:|---:|---:|")
    for lang in sorted(table):
        for suite in sorted(table[lang]):
            p, f, s = table[lang][suite]
            print(f"| {lang} | {suite} | {p} | {f} | {s} |")
    total = [sum(r[i] for lang in table for r in table[lang].values()) for i in range(3)]
    for lang, failures in all_failures.items():
        for case_id in failures:
            if case_id not in seen_ids[lang]:
                problems.append(f"{lang}: known failure '{case_id}' matches no case: remove it")
    unexpected = len(problems)
    shown = problems if args.verbose else problems[:40]
    for p in shown:
        print("FAIL " + p)
    if len(shown) < len(problems):
        print(f"... and {len(problems) - len(shown)} more (use -v)")
    print(f"\nconformance: {total[0]} passed, {total[1]} failed, {total[2]} skipped "
          f"({unexpected} unexpected) in {time.monotonic() - started:.1f}s; verify = deserialize checked on "
          f"{len(verified)} binary inputs")
    if total[0] == 0:
        print("conformance: no case passed: nothing was checked", file=sys.stderr)
        return 1
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
