#!/usr/bin/env python3
"""The JUnit 5 tests of fbec --java's code (tests/java/**/*Test.java), run by `make test-java`.

fbec --java --final --json --proto writes the code of the schemas the tests use into
build/tests-java/gen: ../shared's (the golden vectors' and the protocol streams'), schemas/trade.fbe
under --package-prefix=trade (its package, com.chronoxor.proto, is ../shared proto.fbe's too),
schemas/tests/market.fbe and everything.fbe, tests/java/keys/keys.fbe, tests/java/generated/*.fbe and
the corpus of hostile names (schemas/tests/hostile_names.fbe). javac -Xlint:all -Werror compiles it with the tests
against runtime/java and JUnit (tools/junit); the cases the tests read are written beside it (the
golden vectors of ../shared's MANIFEST.json and the hostile names' value as a vector of the
reference codec, the JSON numbers with the Python runtime's answers); then the JUnit Platform
Launcher runs every test and closes with `java-generated: N passed, N failed, N skipped`. Without
../shared (a user's checkout) what needs it is left out, and `java-shared: 0 passed, 0 failed, N
skipped` says what (under CI=true tools/run_suites.py counts them failed).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import struct
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
OUT = REPO / "build" / "tests-java"
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "runtime" / "python"), str(REPO / "tools"),
                str(REPO / "tools" / "junit"), str(REPO / "tests" / "names")]

import hostile  # noqa: E402
import java_runtime  # noqa: E402
import junit  # noqa: E402
from fbe.jsonfmt import decimal_text, json_double, json_double_key, json_float_key, parse_decimal  # noqa: E402
from fbec.cli import main as fbec  # noqa: E402

# the tests that read ../shared: its generated code or its files
NEED_SHARED = [HERE / "protocol" / "ProtocolTest.java"]
OPTIONS = ["--java", "--final", "--json", "--proto"]


def java_package_of(path: Path) -> str:
    domain = name = ""
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["domain"]:
            domain = words[1]
        if words[:1] == ["package"]:
            name = words[1]
    return f"{domain}.{name}" if domain else name


def generate(out: Path, shared: bool) -> None:
    jobs: list[tuple[Path, list[str]]] = [(f, []) for f in sorted((SHARED / "schemas").glob("*.fbe"))] if shared else []
    jobs += [(REPO / "schemas" / "trade.fbe", ["--package-prefix=trade"]),
             (REPO / "schemas" / "tests" / "market.fbe", []), (REPO / "schemas" / "tests" / "everything.fbe", []),
             (HERE / "keys" / "keys.fbe", []), *((f, []) for f in sorted((HERE / "generated").glob("*.fbe")))]
    for schema, options in jobs:
        if fbec(["-q", f"--input={schema}", f"--output={out}", *OPTIONS, *options]):
            raise SystemExit(f"java-generated: fbec --java failed on {schema}")
    hostile.generate(out, *OPTIONS)


def hostile_case() -> str:
    """The vector case of the hostile names' value (tests/names/hostile.py), written by the reference codec."""
    v = hostile.write_vectors(OUT / "hostile")
    return "\t".join(["fun.static_.import_.Hostile", str(v["versioned"]), str(v["final"]), "", str(v["text"]),
                      str(v["json"])])


def vector_cases() -> list[str]:
    """A line per case of ../shared's MANIFEST.json: class, versioned, final, mask, text, JSON."""
    lines = []
    for c in json.loads((SHARED / "vectors" / "MANIFEST.json").read_text())["cases"]:
        files = {f["kind"]: f for f in c["files"]}
        mask = ",".join(f"{a}:{n}" for a, n in files["versioned"].get("unspecified_bytes", []))
        lines.append("\t".join([f"{java_package_of(SHARED / c['schema'])}.{c['type']}",
                                str(SHARED / "vectors" / files["versioned"]["file"]),
                                str(SHARED / "vectors" / files["final"]["file"]), mask,
                                str(SHARED / "vectors" / files["text"]["file"]),
                                str(SHARED / "vectors" / files["json"]["file"]) if "json" in files else ""]))
    return lines


# ---------------------------------------------------------------- JSON numbers (json/NumbersTest.java)
# The Java runtime's JSON numbers against the Python runtime's (runtime/python/fbe/jsonfmt.py), on
# random values: the text of doubles and floats (RapidJSON master's Grisu2 digits, docs/format.md
# 8.4; runtime/java's Dtoa, ported from the Go runtime), of double and float map keys, and decimal
# text read and written back.

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


def number_cases(seed: int) -> list[str]:
    """A line per case: its kind, the input and the Python runtime's answer."""
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


def main() -> int:
    shared = (SHARED / "vectors" / "MANIFEST.json").is_file() and (SHARED / "schemas").is_dir()
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "classes").mkdir(parents=True)
    generate(OUT / "gen", shared)
    tests = [t for t in sorted(HERE.rglob("*Test.java")) if shared or t not in NEED_SHARED]
    runtime = java_runtime.classpath().split(os.pathsep)
    listing = OUT / "sources.txt"
    listing.write_text("\n".join(map(str, [*sorted((OUT / "gen").rglob("*.java")), *tests])) + "\n")
    javac = os.environ.get("JAVAC") or shutil.which("javac") or "javac"
    r = subprocess.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(OUT / "classes"),
                        "-cp", os.pathsep.join([*runtime, *junit.classpath()]), f"@{listing}"],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        print(f"java-generated: javac -Xlint:all -Werror failed:\n{r.stdout}{r.stderr}")
        return 1
    properties = {"fbe.numbers": str(OUT / "numbers.tsv"), "fbe.shared": str(SHARED), "fbe.vectors": str(OUT / "vectors.tsv")}
    (OUT / "numbers.tsv").write_text("\n".join(number_cases(seed=16)) + "\n", encoding="utf-8")
    (OUT / "vectors.tsv").write_text("\n".join([hostile_case(), *(vector_cases() if shared else [])]) + "\n",
                                     encoding="utf-8")
    if not shared:
        names = ", ".join([*(t.stem for t in NEED_SHARED), "VectorsTest's golden vectors"])
        print(f"java-shared: 0 passed, 0 failed, {len(NEED_SHARED) + 1} skipped ({SHARED} not found: {names})")
    return junit.run("java-generated", [OUT / "classes"], runtime, properties)


if __name__ == "__main__":
    sys.exit(main())
