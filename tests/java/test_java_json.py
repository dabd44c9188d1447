"""The Java runtime's JSON numbers against the Python runtime's (runtime/python/fbe/jsonfmt.py), on
random values: the text of doubles and floats (RapidJSON master's Grisu2 digits, docs/format.md
8.4; runtime/java's Dtoa, ported from the Go runtime), of double and float map keys, and decimal text
read and written back. Python writes the cases and its answers; tests/java/json/NumbersCheck.java
computes Java's and compares. Run by `make test-java`."""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
from pathlib import Path

from fbe.jsonfmt import decimal_text, json_double, json_double_key, json_float_key, parse_decimal

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import java_runtime

JAVAC = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
JAVA = str(Path(JAVAC).resolve().parent / "java")

DOUBLES = 100_000
FLOATS = 20_000
KEYS = 10_000
DECIMALS = 10_000


def double(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def float32(bits: int) -> float:
    return float(struct.unpack("<f", struct.pack("<I", bits))[0])


def bits_of(value: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def random_decimal(rng: random.Random) -> str:
    """Decimal text of every shape: signs, long integer and fraction parts, exponents."""
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


def test_java_json_numbers_match_python(tmp_path: Path) -> None:
    assert Path(JAVAC).exists(), f"no javac at {JAVAC} (set JAVAC; make test-java installs the JDK)"
    classpath = java_runtime.classpath()
    r = subprocess.run([JAVAC, "-Xlint:all", "-Werror", "-cp", classpath, "-d", str(tmp_path / "classes"),
                        str(REPO / "tests" / "java" / "json" / "NumbersCheck.java")],
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = cases(seed=16)
    path = tmp_path / "cases.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), classpath]), "NumbersCheck", str(path)],
                       capture_output=True, text=True, check=False, timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    assert f"{len(lines)} cases compared with Python, 0 differ" in r.stdout, r.stdout[-2000:]
    print(r.stdout.strip().splitlines()[-1])
