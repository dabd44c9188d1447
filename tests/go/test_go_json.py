"""The Go runtime's JSON numbers against the Python runtime's (runtime/python/fbe/jsonfmt.py), on
random values: the text of doubles and floats (RapidJSON master's Grisu2 digits, docs/format.md
8.4), of double and float map keys, and decimal text read and written back. Python writes the
cases and its answers; runtime/go's TestJSONAgainstPython computes its own and compares. Run by
`make test-go`."""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
from pathlib import Path

from fbe.jsonfmt import decimal_text, json_double, json_double_key, json_float_key, parse_decimal

REPO = Path(__file__).resolve().parents[2]
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}

DOUBLES = 200_000
FLOATS = 50_000
KEYS = 20_000
DECIMALS = 20_000


def double(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def float32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def bits_of(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def random_decimal(rng: random.Random) -> str:
    sign = rng.choice(["", "", "-", "+"])
    whole = "".join(rng.choice("0123456789") for _ in range(rng.choice([0, 1, 3, 15, 28, 29, 30, 35])))
    fraction = "".join(rng.choice("0123456789") for _ in range(rng.choice([0, 1, 6, 20, 28, 29, 31, 40])))
    text = sign + whole + ("." + fraction if fraction or rng.random() < 0.1 else "")
    if rng.random() < 0.3:
        text += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.choice([0, 1, 5, 28, 29, 40, 1234567]))
    return text


def cases(seed: int) -> list[str]:
    rng = random.Random(seed)
    lines: list[str] = []
    for i in range(DOUBLES):
        if i % 4 == 0:
            bits = bits_of(rng.uniform(-1e6, 1e6))           # the common range of prices and amounts
        elif i % 4 == 1:
            bits = bits_of(round(rng.uniform(-1e4, 1e4), rng.randrange(1, 9)))
        else:
            bits = rng.getrandbits(64)                        # every exponent, subnormals, NaN payloads
        lines.append(f"d\t{bits:x}\t{json_double(double(bits))}")
    for _ in range(FLOATS):
        value = float32(rng.getrandbits(32))
        lines.append(f"d\t{bits_of(value):x}\t{json_double(value)}")
    for _ in range(KEYS):
        bits = rng.getrandbits(64) if rng.random() < 0.5 else bits_of(rng.uniform(-1e9, 1e9))
        lines.append(f"kd\t{bits:x}\t{json_double_key(double(bits))}")
        bits32 = rng.getrandbits(32)
        lines.append(f"kf\t{bits32:x}\t{json_float_key(float32(bits32))}")
    for _ in range(DECIMALS):
        text = random_decimal(rng)
        try:
            want = decimal_text(parse_decimal(text))
        except ValueError:
            want = "error"
        lines.append(f"dec\t{text}\t{want}")
    return lines


def test_go_json_numbers_match_python(tmp_path: Path) -> None:
    assert Path(GO).exists(), f"no go command at {GO} (set GO)"
    path = tmp_path / "cases.tsv"
    lines = cases(seed=15)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run([GO, "test", "-count=1", "-v", "-run", "TestJSONAgainstPython", "./fbe"],
                       cwd=REPO / "runtime" / "go", env={**GO_ENV, "FBE_JSON_CASES": str(path)},
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    assert f"{len(lines)} cases compared with Python, 0 differ" in r.stdout, r.stdout[-2000:]
