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
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
OUT = REPO / "build" / "tests-java"
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "runtime" / "python"), str(REPO / "tools"),
                str(REPO / "tools" / "junit"), str(REPO / "tests" / "names")]

import hostile
import java_runtime
import junit
from fbec.cli import main as fbec
from json_numbers import number_cases

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


# The JSON numbers of json/NumbersTest.java: the Java runtime's (runtime/java's Dtoa, ported from the
# Go runtime) against the Python runtime's answers on random values (tools/json_numbers.py).


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
    properties = {"fbe.numbers": str(OUT / "numbers.tsv"), "fbe.shared": str(SHARED),
                  "fbe.vectors": str(OUT / "vectors.tsv")}
    numbers = number_cases(seed=16, doubles=100_000, floats=20_000, keys=10_000, decimals=10_000)
    (OUT / "numbers.tsv").write_text("\n".join(numbers) + "\n", encoding="utf-8")
    (OUT / "vectors.tsv").write_text("\n".join([hostile_case(), *(vector_cases() if shared else [])]) + "\n",
                                     encoding="utf-8")
    if not shared:
        names = ", ".join([*(t.stem for t in NEED_SHARED), "VectorsTest's golden vectors"])
        print(f"java-shared: 0 passed, 0 failed, {len(NEED_SHARED) + 1} skipped ({SHARED} not found: {names})")
    return junit.run("java-generated", [OUT / "classes"], runtime, properties)


if __name__ == "__main__":
    sys.exit(main())
