"""Names in the Java target (docs/java.md "Names"): fbec --java's code of the corpus of hostile names
(tests/names/hostile_names.fbe) compiles with javac -Xlint:all -Werror, and its value reads and
writes back byte for byte in both models, as text and as JSON (tests/java/vectors/VectorsCheck.java
on vectors of the reference codec: tests/names/hostile.py). Run by `make test-java`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
JAVAC = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
sys.path[:0] = [str(REPO / "tools"), str(REPO / "tests" / "names")]

import hostile
import java_runtime


def test_hostile_names_compile_and_round_trip(tmp_path: Path) -> None:
    hostile.generate(tmp_path / "src", "--java", "--final", "--json", "--proto")
    sources = [*sorted((tmp_path / "src").rglob("*.java")), REPO / "tests" / "java" / "vectors" / "VectorsCheck.java"]
    (tmp_path / "sources").write_text("\n".join(map(str, sources)) + "\n")
    classpath = java_runtime.classpath()
    r = subprocess.run([JAVAC, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(tmp_path / "classes"),
                        "-cp", classpath, f"@{tmp_path / 'sources'}"], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-6000:]
    v = hostile.write_vectors(tmp_path / "vectors")
    (tmp_path / "cases.txt").write_text("\t".join(["fun.static_.import_.Hostile", str(v["versioned"]), str(v["final"]),
                                                    "", str(v["text"]), str(v["json"])]) + "\n")
    java = str(Path(JAVAC).resolve().parent / "java")
    r = subprocess.run([java, "-cp", os.pathsep.join([str(tmp_path / "classes"), classpath]), "VectorsCheck",
                        str(tmp_path / "cases.txt")], capture_output=True, text=True, check=False, timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    summary = r.stdout.strip().splitlines()[-1]
    assert summary.startswith("2 vectors read and written back, 2 texts as the original's, "), summary
    assert " 2 JSON texts as the original's, 1 JSON texts read and written back, " in summary, summary
    assert summary.endswith(" 0 problems"), summary
