#!/usr/bin/env python3
"""Cross-runtime agreement on hostile binary input (issue 21).

What one language accepts, every language must read the same way: a check
made in one service is bypassed by another service that reads the same
bytes differently. This drives every built testee (conformance/runner.py's)
with mutated and amplified binary roots and compares their answers:

* seeds: the golden vectors (../shared/vectors, both binary models) and
  values of every struct of the project's schemas/tests/everything.fbe
  (deterministic samples, written by fbe.dynamic), and the limits suite's
  amplification shapes (conformance/limits.py) with random counts;
* mutations, one to four per input: bit flips, byte changes, 32-bit fields
  set to boundary values (0, 8, 0x7FFFFFFF, 0xFFFFFFFF, the buffer size and
  its neighbours ...), truncation and growth, spliced and inserted ranges;
  amplification: a slot made to point at another slot's block (shared
  blocks), counts set to large values, offsets set to 0; half of the inputs
  get a root size fixed to the new length so the mutation reaches past the
  root check.

Input `SEED:I` is made from a random.Random of that text alone: any input
can be made again (`--only SEED:I --show`). Each testee reads each input
and writes it back in the same model (the verdict: accept, refuse or
unwritable, and the bytes), and verifies it (testee_protocol.md, output
`verify`). A disagreement is any of: testees that do not give the same
verdict, accepted inputs written back as different bytes (as different
values for types holding a hash, whose order is free), a verify whose
verdict or error text is not the deserialize's, a crash, a timeout or an
UNEXPECTED answer.

    agreement.py -n 100000 [--seed 1]   the accept/refuse table per testee and every disagreement
                                        (make agreement N=100000)
tests/conformance/test_agreement.py runs a few hundred inputs (make conformance); the
disagreements it may meet are listed in conformance/failures/agreement.txt (the list only shrinks).
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import random
import re
import struct
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "compiler"), str(HERE.parent / "runtime" / "python")]

import limits
from runner import (
    BINARY,
    REPO,
    SHARED,
    Testee,
    TesteeError,
    _canonical,
    _codec,
    built_testees,
    load_failures,
    manifest,
    verify_differs,
)

EVERYTHING = REPO / "schemas" / "tests" / "everything.fbe"
QUICK_SEED, QUICK_COUNT = 1, 400          # make conformance (tests/conformance/test_agreement.py)
KNOWN = HERE / "failures" / "agreement.txt"

P = struct.pack
BOUNDARY_U32 = (0, 1, 2, 3, 4, 7, 8, 12, 16, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x100000,
                0x7FFFFFFF, 0x80000000, 0xFFFFFFF0, 0xFFFFFFFE, 0xFFFFFFFF)
BOUNDARY_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF)


# ------------------------------------------------------------------ seeds

@dataclass(frozen=True)
class Seed:
    name: str
    package: str
    type: str
    fmt: str                 # versioned | final
    data: bytes
    schema: str              # the schema file, for comparing values of types holding a hash


def has_hash(schema: Any, qualified: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a value of the struct can hold a hash, whose entries come in any order."""
    from fbec.model import ir

    def walk(t: ir.Type) -> bool:
        if isinstance(t, ir.Mapping) and t.kind == "hash":
            return True
        if isinstance(t, (ir.Optional_, ir.Array, ir.Sequence)):
            return walk(t.element)
        if isinstance(t, ir.Mapping):
            return walk(t.key) or walk(t.value)
        if isinstance(t, ir.StructRef) and t.name not in seen:
            return has_hash(schema, t.name, seen | {qualified})
        return False
    return any(walk(f.type) for f in schema.struct(qualified).all_fields)


class Sampler:
    """Deterministic value descriptions of any IR type (the vectors' MANIFEST form, conformance/strategies.py):
    full collections, present optionals and boundary numbers, two levels of structs deep."""

    def __init__(self, schema: Any, rng: random.Random) -> None:
        from strategies import Strategies
        self.schema, self.rng, self.order = schema, rng, Strategies(schema)

    def primitive(self, name: str) -> Any:
        from fbec.model import ir
        from strategies import INT64_AS_STRING, shortest_float32
        r = self.rng
        if name == "bool":
            return r.random() < 0.5
        if name in ("char", "wchar") or name in ir.INTEGER_RANGES:
            lo, hi = (0, 255) if name == "char" else (0, 0x10FFFF) if name == "wchar" else ir.INTEGER_RANGES[name]
            v = r.choice((lo, hi, 0, 1, r.randint(lo, hi)))
            return str(v) if name in INT64_AS_STRING else v
        if name == "timestamp":
            return str(r.choice((0, 2**64 - 1, r.randrange(2**64))))
        if name == "float":
            return shortest_float32(r.choice((0.0, -1.5, 3.4e38, 1e-45, r.uniform(-1e6, 1e6))))
        if name == "double":
            return r.choice((0.0, -0.0, 1.7976931348623157e308, 5e-324, r.uniform(-1e12, 1e12)))
        if name == "decimal":
            return self.order._decimal(r.choice((0, 1, 2**96 - 1, r.randrange(2**96))), r.randint(0, 28),
                                       r.random() < 0.5)
        if name == "string":
            return r.choice(("", "a", "ñé€😀", "x" * r.randint(1, 40)))
        if name == "bytes":
            return r.randbytes(r.randint(0, 24)).hex()
        if name == "uuid":
            import uuid
            return str(uuid.UUID(bytes=r.randbytes(16)))
        raise ValueError(name)

    def value(self, t: Any, depth: int) -> Any:
        from fbec.model import ir
        if isinstance(t, ir.Primitive):
            return self.primitive(t.name)
        if isinstance(t, ir.EnumRef):
            e = self.schema.enum(t.name)
            hi = ir.INTEGER_RANGES[e.wire][1]
            v = self.rng.choice([x.value for x in e.values] or [0]) if self.rng.random() < 0.8 else hi
            return str(v) if e.wire in ("int64", "uint64") else v
        if isinstance(t, ir.StructRef):
            return self.struct(t.name, depth + 1)
        if isinstance(t, ir.Optional_):
            return None if self.rng.random() < 0.25 else self.value(t.element, depth)
        if isinstance(t, ir.Array):
            return [self.value(t.element, depth) for _ in range(t.length)]
        n = 0 if depth >= 2 else self.rng.randint(1, 3)
        if isinstance(t, ir.Sequence):
            items = [self.value(t.element, depth) for _ in range(n)]
            if t.kind != "set":
                return items
            key = self.order.sort_key(t.element)
            return sorted({repr(key(x)): x for x in items}.values(), key=key)
        key = self.order.sort_key(t.key)
        pairs = {repr(key(k)): [k, self.value(t.value, depth)] for k in (self.value(t.key, depth) for _ in range(n))}
        return sorted(pairs.values(), key=lambda kv: key(kv[0]))

    def struct(self, qualified: str, depth: int = 0) -> dict[str, Any]:
        from fbec.model import ir
        s = self.schema.struct(qualified)
        out: dict[str, Any] = {"@type": qualified}
        for f in s.all_fields:
            if depth >= 3 and isinstance(f.type, (ir.Optional_, ir.Sequence, ir.Mapping)):
                out[f.name] = None if isinstance(f.type, ir.Optional_) else []
            elif depth >= 3 and isinstance(f.type, ir.StructRef):
                out[f.name] = self.struct(f.type.name, depth)
            else:
                out[f.name] = self.value(f.type, depth)
        return out


def project_seeds(per_struct: int = 2) -> list[Seed]:
    """Values of every struct of everything.fbe and the schema it imports, in both models."""
    codec = _codec(str(EVERYTHING))
    schema = codec.ir
    sampler = Sampler(schema, random.Random("project values"))
    out: list[Seed] = []
    for package in schema.packages:
        for s in package.structs:
            for i in range(per_struct):
                if s.recursive and i:
                    continue
                try:
                    value = codec.from_described(sampler.struct(s.qualified), s.qualified)
                    for fmt in BINARY:
                        data = bytes(codec.encode(value, s.qualified, fmt))
                        out.append(Seed(f"{s.qualified}#{i}.{fmt}", package.name, s.name, fmt, data, str(EVERYTHING)))
                except Exception as e:  # noqa: BLE001 - a value the codec will not write is not a seed
                    print(f"agreement: no seed {s.qualified}#{i}: {e}", file=sys.stderr)
    return out


def vector_seeds() -> list[Seed]:
    m = manifest()
    if m is None:
        return []
    out = []
    for c in m["cases"]:
        for f in c["files"]:
            if f["kind"] in BINARY:
                out.append(Seed(f"{c['name']}.{f['kind']}", c["package"], c["type"], f["kind"],
                                (SHARED / "vectors" / f["file"]).read_bytes(), str(SHARED / c["schema"])))
    return out


def all_seeds() -> list[Seed]:
    return vector_seeds() + project_seeds()


# ------------------------------------------------------------------ inputs

@dataclass
class Input:
    id: str
    seed: Seed
    how: str                 # the mutations, in order
    data: bytes

    def request(self, output: str | None = None) -> dict[str, Any]:
        return {"package": self.seed.package, "type": self.seed.type,
                "input": {"format": self.seed.fmt, "payload": base64.b64encode(self.data).decode()},
                "output": output or self.seed.fmt}


def _u32(data: bytearray, p: int) -> int:
    return int(struct.unpack_from("<I", data, p)[0])


def _offsets(data: bytearray) -> list[int]:
    """Positions of 32-bit values that could be offsets into the buffer (8 <= v < size)."""
    return [p for p in range(len(data) - 3) if 8 <= _u32(data, p) < len(data)]


def _counts(data: bytearray) -> list[int]:
    """Positions of small 32-bit values (1..64) that could be counts or sizes."""
    return [p for p in range(len(data) - 3) if 1 <= _u32(data, p) <= 64]


def mutate(rng: random.Random, data: bytearray, pool: Sequence[Seed]) -> str:
    """One mutation of data in place; what it did."""
    n = len(data)
    op = rng.choice(("flip", "flip", "byte", "u32", "u32", "u32", "cut", "grow", "splice", "insert",
                     "share", "share", "count", "zero"))
    if n < 4 and op not in ("grow", "insert"):
        op = "grow"
    if op == "flip":
        p, bit = rng.randrange(n), rng.randrange(8)
        data[p] ^= 1 << bit
        return f"flip@{p}.{bit}"
    if op == "byte":
        p = rng.randrange(n)
        data[p] = rng.choice(BOUNDARY_BYTES) if rng.random() < 0.5 else rng.randrange(256)
        return f"byte@{p}={data[p]:#x}"
    if op == "u32":
        p = rng.randrange(0, n - 3, 4) if rng.random() < 0.6 else rng.randrange(n - 3)
        old = _u32(data, p)
        v = rng.choice(BOUNDARY_U32 + (n, n - 1, n + 1, n - p, old + 1, old - 1, old * 2, old + 4,
                                       rng.randrange(1 << 32))) & 0xFFFFFFFF
        struct.pack_into("<I", data, p, v)
        return f"u32@{p}={v:#x}"
    if op == "cut":
        k = rng.randrange(n)
        del data[k:]
        return f"cut{k}"
    if op == "grow":
        k = rng.choice((1, 4, 8, rng.randint(1, 64)))
        data += bytes(k) if rng.random() < 0.5 else rng.randbytes(k)
        return f"grow+{k}"
    if op in ("splice", "insert"):
        src = data if rng.random() < 0.7 or not pool else bytearray(rng.choice(pool).data)
        if not src:
            src = bytearray(4)
        q = rng.randrange(len(src))
        k = min(rng.randint(1, 32), len(src) - q)
        chunk = bytes(src[q:q + k])
        p = rng.randrange(n + 1 if op == "insert" else n)
        if op == "insert":
            data[p:p] = chunk
            return f"insert@{p}+{chunk.hex()}"
        data[p:p + k] = chunk
        del data[n:]
        return f"splice@{p}={chunk.hex()}"
    if op == "share":                   # two slots, one block: work and values multiplied by the readers
        offsets = _offsets(data)
        if len(offsets) < 2:
            return mutate(rng, data, pool)
        q, p = rng.sample(offsets, 2)
        struct.pack_into("<I", data, p, _u32(data, q))
        return f"share@{p}=@{q}({_u32(data, p):#x})"
    if op == "count":                   # a count or size far beyond its block
        counts = _counts(data)
        if not counts:
            return mutate(rng, data, pool)
        p = rng.choice(counts)
        v = rng.choice((n // 4, n, n + 1, 0x10000, 0x100000, 0x7FFFFFFF, 0xFFFFFFFF, _u32(data, p) * 1000))
        struct.pack_into("<I", data, p, v & 0xFFFFFFFF)
        return f"count@{p}={v & 0xFFFFFFFF:#x}"
    offsets = _offsets(data)            # zero: an offset slot that says "absent" or points at the header
    if not offsets:
        return mutate(rng, data, pool)
    p = rng.choice(offsets)
    struct.pack_into("<I", data, p, 0)
    return f"zero@{p}"


def amplified(rng: random.Random) -> tuple[Seed, str]:
    """One of the limits suite's amplification shapes with a random count (conformance/limits.py)."""
    n = rng.choice((1, 2, 3, rng.randint(1, 300), rng.randint(300, 4000)))
    shapes = {
        "zero_slots": ("test", "StructVector", limits.zero_slots),
        "old_bodies": ("test", "StructVector", limits.old_bodies),
        "shared_old_body": ("test", "StructVector", limits.shared_old_body),
        "old_orders": ("proto", "AccountMessage", limits.old_orders),
        "shared_order": ("proto", "AccountMessage", limits.shared_order),
    }
    name = rng.choice(sorted(shapes))
    package, type_, make = shapes[name]
    schema = str(SHARED / "schemas" / f"{package}.fbe")
    return Seed(f"{name}({n})", package, type_, "versioned", make(n), schema), f"{name}({n})"


def make_input(seed: int, index: int, pool: Sequence[Seed]) -> Input:
    rng = random.Random(f"{seed}:{index}")
    steps: list[str] = []
    if (SHARED / "schemas").exists() and rng.random() < 0.08:
        base, name = amplified(rng)
        if rng.random() < 0.6:
            return Input(f"{seed}:{index}", base, name, base.data)
    else:
        base = rng.choice(pool)
    data = bytearray(base.data)
    for _ in range(rng.choice((1, 1, 1, 1, 2, 2, 2, 3, 4))):
        steps.append(mutate(rng, data, pool))
    if rng.random() < 0.5 and len(data) >= 4:
        struct.pack_into("<I", data, 0, len(data))
        steps.append("size")
    return Input(f"{seed}:{index}", base, " ".join(steps), bytes(data))


# ------------------------------------------------------------------ answers

@dataclass
class Answer:
    verdict: str             # accept | refuse | unwritable | skipped | failed
    detail: str              # base64 of what it wrote back, or the error text
    verify: str | None = None          # why verify differs from deserialize, or None
    seconds: float = 0.0               # the read and write back (not the verify)
    peak: int | None = None            # measured peak heap bytes (--measure)


def ask(testee: Testee, inp: Input, verify: bool, measure: bool = False) -> Answer:
    start = time.monotonic()
    try:
        a = testee.ask(dict(inp.request(), measure=True) if measure else inp.request())
        seconds = time.monotonic() - start
        v = testee.ask(inp.request("verify")) if verify else None
    except TesteeError as e:
        return Answer("failed", f"testee failure: {e}", None, time.monotonic() - start)
    kind, payload = next((k, x) for k, x in a.items() if k != "measured")
    text = str(payload)
    if text.startswith("UNEXPECTED"):
        return Answer("failed", text, None, seconds)
    verdict = {"result": "accept", "parse_error": "refuse", "serialize_error": "unwritable"}.get(kind, "skipped")
    differs = None
    if v is not None and "skipped" not in v and verdict != "skipped":
        differs = verify_differs(a, v)
    m = a.get("measured")
    return Answer(verdict, text, differs, seconds, int(m["peak_bytes"]) if isinstance(m, dict) else None)


def drive(testees: dict[str, Testee], inputs: Sequence[Input], verify: bool = True, measure: bool = False,
          progress: bool = False) -> dict[str, list[Answer]]:
    """Every input through every testee, one thread per testee (each its own process)."""
    answers: dict[str, list[Answer]] = {name: [] for name in testees}

    def work(name: str) -> None:
        testee, timeout = testees[name], testees[name].timeout
        testee.timeout = max(timeout, 120.0)    # the start-up (Python generates its code) is no answer's time
        try:
            if inputs:
                testee.ask(Input("warm-up", inputs[0].seed, "", inputs[0].seed.data).request())
        except TesteeError:
            pass
        finally:
            testee.timeout = timeout
        for i, inp in enumerate(inputs):
            answers[name].append(ask(testees[name], inp, verify, measure))
            if progress and (i + 1) % 5000 == 0:
                print(f"agreement: {name} {i + 1}/{len(inputs)}", file=sys.stderr, flush=True)

    threads = [threading.Thread(target=work, args=(name,)) for name in testees]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


# ------------------------------------------------------------------ comparing

@dataclass
class Disagreement:
    input: Input
    kind: str                # verdict | value | verify | failed
    answers: dict[str, Answer] = field(default_factory=dict)
    where: str = ""          # value: the field path where the values written back first differ (@N: byte N)
    what: str = ""           # value: the schema type there ("decimal in a vector")

    def signature(self) -> str:
        """The shape of the disagreement, to group alike ones: who said what."""
        groups: dict[str, list[str]] = defaultdict(list)
        outputs: dict[str, int] = {}
        for name, a in sorted(self.answers.items()):
            if a.verdict == "accept":
                outputs.setdefault(a.detail, len(outputs))
                several = len({x.detail for x in self.answers.values() if x.verdict == "accept"}) > 1
                groups[f"accept#{outputs[a.detail]}" if several else "accept"].append(name)
            else:
                groups[a.verdict].append(name)
            if a.verify is not None:
                groups["verify≠deserialize"].append(name)
        what = f" of {self.what}" if self.what else ""
        return f"{self.kind}{what}: " + "; ".join(f"{k} {','.join(v)}" for k, v in sorted(groups.items()))


def path_type(schema: Any, qualified: str, path: str) -> str:
    """The schema type at a field path of a value description ("f10[1][1].f30": "decimal in a map's values")."""
    from fbec.model import ir
    t: Any = None
    s = schema.struct(qualified)
    inside: list[str] = []
    entry: Any = None                       # a map entry: the next index picks its key (0) or value (1)
    for name, index in re.findall(r"([^.\[\]]+)|\[([0-9]+)\]", path):
        while isinstance(t, ir.Optional_):
            t = t.element
        if name:
            if t is not None:
                s = schema.struct(t.name)
            f = next((f for f in s.all_fields if f.name == name), None)
            if f is None:
                return ""
            t = f.type
            continue
        if entry is not None:
            inside.append(f"a {entry.kind} {'key' if index == '0' else 'value'}")
            t, entry = (entry.key if index == "0" else entry.value), None
            continue
        if isinstance(t, ir.Mapping):
            entry = t
        elif isinstance(t, (ir.Array, ir.Sequence)):
            inside.append(f"a {t.kind}")
            t = t.element
    while isinstance(t, ir.Optional_):
        t = t.element
    if t is None or entry is not None:
        return ""
    return getattr(t, "name", t.kind) + "".join(f" in {x}" for x in reversed(inside[-1:]))


VOLATILE = ("utc", "uuid1", "uuid4")       # field defaults that differ on every read (docs/ir.md)


def _normalized(codec: Any, v: Any) -> Any:
    """A value description with the fields of volatile defaults blanked (an input that lacks such a field
    reads as a new uuid or the current time in every language)."""
    if isinstance(v, dict):
        s = codec.structs.get(v.get("@type"))
        volatile = {f.name for f in s.all_fields if f.default.kind in VOLATILE} if s is not None else set()
        return {k: None if k in volatile else _normalized(codec, x) for k, x in v.items()}
    if isinstance(v, list):
        return [_normalized(codec, x) for x in v]
    return v


def _first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two value descriptions first differ (a field path), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            d = _first_difference(a[k], b.get(k), f"{path}.{k}" if path else k)
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length)"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_difference(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        return None
    same = a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    return None if same else (path or "(root)")


def value_difference(inp: Input, outputs: dict[str, str]) -> str | None:
    """Where accepted inputs were written back differently by the testees (the field path; None: they agree).

    Bytes are compared, and where they differ the values fbe.dynamic reads from them: entries of a hash
    may come in any order, and fields whose default is a new uuid or the current time are left out."""
    if len(set(outputs.values())) <= 1:
        return None
    codec = _codec(inp.seed.schema)
    q = f"{inp.seed.package}.{inp.seed.type}"
    unordered = has_hash(codec.ir, q)
    raw: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name, o in outputs.items():
        try:
            v = codec.to_described(codec.decode(base64.b64decode(o), q, inp.seed.fmt)[0], q)
        except Exception as e:  # noqa: BLE001 - what fbe.dynamic cannot read back differs
            return f"{name} wrote what fbe.dynamic does not read ({e})"
        v = _canonical(v) if unordered else v
        raw[name] = json.dumps(v, sort_keys=True)
        values[name] = _normalized(codec, v)
    texts = Counter(json.dumps(v, sort_keys=True) for v in values.values())
    if len(texts) == 1:
        # the same values: a hash in another order and new uuids agree; other bytes do not
        if len(set(raw.values())) > 1 or unordered:
            return None
        first, *others = (base64.b64decode(o) for o in outputs.values())
        at = min(next((i for i, (x, y) in enumerate(zip(first, o)) if x != y), min(len(first), len(o)))
                 for o in others if o != first)
        return f"@{at}"
    common = json.loads(texts.most_common(1)[0][0])
    for v in values.values():
        d = _first_difference(common, v) or _first_difference(v, common)
        if d is not None:
            return d
    return "value"


def compare(inputs: Sequence[Input], answers: dict[str, list[Answer]]) -> list[Disagreement]:
    out = []
    for i, inp in enumerate(inputs):
        got = {name: a[i] for name, a in answers.items() if a[i].verdict != "skipped"}
        verdicts = {a.verdict for a in got.values()}
        kind = None
        if "failed" in verdicts:
            kind = "failed"
        elif len(verdicts) > 1:
            kind = "verdict"
        elif verdicts == {"accept"} and (where := value_difference(inp, {n: a.detail for n, a in got.items()})):
            kind = "value"
        elif any(a.verify is not None for a in got.values()):
            kind = "verify"
        if kind == "value":
            path = where.partition(" ")[0]
            what = "a field, as other bytes of the same value" if path.startswith("@") else \
                path_type(_codec(inp.seed.schema).ir, f"{inp.seed.package}.{inp.seed.type}", path)
            out.append(Disagreement(inp, kind, got, where, what))
        elif kind is not None:
            out.append(Disagreement(inp, kind, got))
    return out


# ------------------------------------------------------------------ reporting

def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def describe(d: Disagreement, full: bool = False) -> str:
    inp = d.input
    hexed = inp.data.hex()
    at = f" at {d.where}" if d.where else ""
    seed = inp.seed
    lines = [f"{inp.id} [{d.kind}{at}] {seed.package}.{seed.type} {seed.fmt}, seed {seed.name}: {inp.how}",
             f"  input ({len(inp.data)} bytes): {hexed if full or len(hexed) <= 240 else hexed[:240] + '...'}"]
    for name, a in sorted(d.answers.items()):
        detail = a.detail
        if a.verdict == "accept":
            detail = base64.b64decode(detail).hex()
        lines.append(f"  {name:15} {a.verdict:10} {detail if full else _short(detail)}"
                     + (f"\n  {'':15} verify: {a.verify}" if a.verify else ""))
    return "\n".join(lines)


WARM_UP = 50        # answers of each testee left out of the time column (start-up, JIT)


def bound(inp: Input) -> int:
    """The peak heap bytes docs/limits.md allows a read of the input (conformance/limits.py)."""
    return limits.PEAK_RATIO * len(inp.data) + limits.PEAK_SLACK


def over_bound(inputs: Sequence[Input], answers: dict[str, list[Answer]]) -> list[tuple[Input, str, int]]:
    """Measured reads above the memory bound: input, testee, peak."""
    return [(inp, name, a.peak) for name, got in sorted(answers.items()) for inp, a in zip(inputs, got)
            if a.peak is not None and a.peak > bound(inp)]


def table(names: Sequence[str], inputs: Sequence[Input], answers: dict[str, list[Answer]]) -> str:
    measured = any(a.peak is not None for got in answers.values() for a in got)
    rows = ["| testee | accept | refuse | unwritable | skipped | failed | verify ≠ deserialize |"
            " slowest read s (input) |"
            + (" largest peak, of the memory bound (input) |" if measured else ""),
            "|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if measured else "")]
    for name in names:
        got = answers[name]
        c = Counter(a.verdict for a in got)
        bad_verify = sum(1 for a in got if a.verify is not None)
        warm = range(WARM_UP if len(got) > WARM_UP else 0, len(got))
        slow = max(warm, key=lambda i: got[i].seconds, default=None)
        row = (f"| {name} | {c['accept']} | {c['refuse']} | {c['unwritable']} | {c['skipped']} | {c['failed']} | "
               f"{bad_verify} | " + (f"{got[slow].seconds:.3f} ({inputs[slow].id}) |" if slow is not None else "|"))
        if measured:
            big = max(range(len(got)), key=lambda i: (got[i].peak or 0) / bound(inputs[i]), default=None)
            row += (f" {100 * (got[big].peak or 0) / bound(inputs[big]):.0f}% ({inputs[big].id}: {got[big].peak} B "
                    f"for {len(inputs[big].data)}) |" if big is not None else " |")
        rows.append(row)
    return "\n".join(rows)


def run(seed: int, count: int, testees: dict[str, Testee], verify: bool = True, measure: bool = False,
        progress: bool = False, only: Sequence[str] = ()
        ) -> tuple[list[Input], dict[str, list[Answer]], list[Disagreement]]:
    """Make the inputs (or just those named `SEED:I`), drive every testee, compare."""
    pool = all_seeds()
    if only:
        inputs = [make_input(int(s), int(i), pool) for s, _, i in (x.partition(":") for x in only)]
    else:
        inputs = [make_input(seed, i, pool) for i in range(count)]
    answers = drive(testees, inputs, verify, measure, progress)
    return inputs, answers, compare(inputs, answers)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--count", type=int, default=QUICK_COUNT, help=f"inputs (default {QUICK_COUNT})")
    ap.add_argument("--seed", type=int, default=QUICK_SEED, help=f"the run's seed (default {QUICK_SEED})")
    ap.add_argument("--only", action="append", default=[], metavar="SEED:I", help="just this input (repeatable)")
    ap.add_argument("--testee", action="append", default=[], metavar="NAME", help="only these built testees")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    ap.add_argument("--no-verify", action="store_true", help="do not send the verify requests")
    ap.add_argument("--measure", action="store_true",
                    help="measure each read's peak heap (slow: the testees collect garbage first) and list the "
                         "reads above the bound of docs/limits.md")
    ap.add_argument("--show", type=int, default=3, help="examples shown per kind of disagreement (default 3)")
    ap.add_argument("--full", action="store_true", help="show inputs and answers in full")
    ap.add_argument("--save", metavar="FILE", help="write every disagreement to FILE (JSON lines)")
    args = ap.parse_args(argv)

    commands, missing = built_testees()
    if args.testee:
        commands = {k: v for k, v in commands.items() if k in args.testee}
    elif missing:
        print(f"agreement: testees not built: {', '.join(missing)}", file=sys.stderr)
        return 1
    if len(commands) < 2:
        print("agreement: fewer than two testees are built (make conformance-build ...)", file=sys.stderr)
        return 1
    testees = {name: Testee(name, cmd, args.timeout) for name, cmd in commands.items()}
    started = time.monotonic()
    try:
        inputs, answers, disagreements = run(args.seed, args.count, testees, not args.no_verify, args.measure,
                                             True, args.only)
    finally:
        for t in testees.values():
            t.close()
    elapsed = time.monotonic() - started
    print(f"\nagreement: {len(inputs)} inputs (seed {args.seed}) through {len(testees)} testees in {elapsed:.0f}s\n")
    print(table(sorted(testees), inputs, answers))
    groups: dict[str, list[Disagreement]] = defaultdict(list)
    for d in disagreements:
        groups[d.signature()].append(d)
    known = load_failures(KNOWN.stem) if args.seed == QUICK_SEED else {}
    print(f"\nagreement: {len(disagreements)} disagreements in {len(groups)} shapes"
          + (f" ({sum(1 for d in disagreements if d.input.id in known)} listed in {KNOWN.name})" if known else ""))
    for sig, ds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n### {len(ds)} x {sig}")
        for d in ds[:args.show]:
            print(describe(d, args.full))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            for d in disagreements:
                f.write(json.dumps({"id": d.input.id, "type": f"{d.input.seed.package}.{d.input.seed.type}",
                                    "format": d.input.seed.fmt, "seed": d.input.seed.name, "how": d.input.how,
                                    "input": d.input.data.hex(), "kind": d.kind, "where": d.where, "what": d.what,
                                    "answers": {n: [a.verdict, a.detail, a.verify] for n, a in d.answers.items()}})
                        + "\n")
    heavy = over_bound(inputs, answers)
    if args.measure:
        print(f"\nagreement: {len(heavy)} reads above {limits.PEAK_RATIO} x the input + {limits.PEAK_SLACK} bytes")
    for inp, name, peak in heavy[:args.show * 10]:
        print(f"  {name:15} {inp.id} {inp.seed.package}.{inp.seed.type} {inp.seed.fmt} ({len(inp.data)} bytes, "
              f"{inp.seed.name}: {inp.how}): peak {peak} bytes")
    return 1 if disagreements or heavy else 0


if __name__ == "__main__":
    sys.exit(main())
