"""The Java target: fbec --java's output for every schema (the project's and ../shared's) compiles
with javac -Xlint:all -Werror against runtime/java, and the final readers claim a run of fixed
fields at once. What the generated code does (the golden vectors, the protocol, the duplicate-key
rule, the types as Java users expect them) is tested by the JUnit 5 tests beside this file, which
tests/java/junit_java.py runs. Run by `make test-java`, which installs the JDK."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
JAVAC = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
sys.path.insert(0, str(REPO / "tools"))

import java_runtime
from junit_java import java_package_of


def javac(sources: list[Path], classpath: list[str], out: Path) -> subprocess.CompletedProcess[str]:
    listing = out.with_suffix(".sources")
    listing.write_text("\n".join(str(s) for s in sources) + "\n")
    return subprocess.run([JAVAC, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(out),
                           "-cp", os.pathsep.join(str(p) for p in classpath), f"@{listing}"],
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def runtime() -> str:
    """runtime/java's classes, compiled as its pom compiles them, and its dependencies (jackson-core):
    the classpath of generated code."""
    assert Path(JAVAC).exists(), f"no javac at {JAVAC} (set JAVAC; make test-java installs the JDK)"
    return java_runtime.classpath()


def schema_files() -> list[Path]:
    """The original's schemas first (their imports resolve among them), then the project's."""
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    return shared + sorted((REPO / "schemas").rglob("*.fbe"))


def groups(files: list[Path]) -> list[dict[str, Path]]:
    """The schemas spread over as few compilations as their Java packages allow (schemas/trade.fbe
    and ../shared's proto.fbe are both com.chronoxor.proto)."""
    out: list[dict[str, Path]] = []
    for f in files:
        name = java_package_of(f)
        home = next((g for g in out if name not in g), None)
        if home is None:
            home = {}
            out.append(home)
        home[name] = f
    return out


def generate(files: list[Path], out: Path, capsys: pytest.CaptureFixture[str]) -> list[Path]:
    for f in files:
        assert fbec_main([f"--input={f}", f"--output={out}", "--java", "--final", "--json", "-q"]) == 0, \
            capsys.readouterr().err
    capsys.readouterr()
    return sorted(out.rglob("*.java"))


def test_generated_java_compiles_without_warnings(tmp_path: Path, runtime: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for i, group in enumerate(groups(schema_files())):
        src = tmp_path / f"g{i}"
        sources = generate(list(group.values()), src, capsys)
        assert sources, f"nothing generated for {sorted(group)}"
        r = javac(sources, [runtime], tmp_path / f"c{i}")
        assert r.returncode == 0, f"javac -Xlint:all -Werror ({sorted(group)}):\n{r.stdout}{r.stderr}"


def test_final_runs_are_read_with_one_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The final reader of tests/java/generated/runs.fbe claims its run of fixed fields at once (the
    IR's runs, docs/ir.md); generated/RunsTest.java checks a cut root still fails at the field."""
    generate([HERE / "generated" / "runs.fbe"], tmp_path / "src", capsys)
    assert "r.run(11, " in (tmp_path / "src" / "runs" / "Run.java").read_text()
