"""Names in the Kotlin target (docs/kotlin.md "Names"): fbec --kotlin's code of the corpus of hostile
names (tests/names/hostile_names.fbe) compiles under -Werror, and its value reads and writes back
byte for byte in both models, as text and as JSON (tests/kotlin/names/HostileNames.kt on vectors of
the reference codec: tests/names/hostile.py). The generated code is not linted: ktlint's naming rules
judge the schema's names (a class `side`, a property `_a`), which the code keeps. Run by `make test-kotlin`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(REPO / "tools" / "kotlinc"), str(REPO / "tests" / "names")]

import hostile
import kotlinc


def test_hostile_names_compile_and_round_trip(tmp_path: Path) -> None:
    hostile.generate(tmp_path / "src", "--kotlin", "--final", "--json", "--proto")
    generated = sorted((tmp_path / "src").rglob("*.kt"))
    group = kotlinc.Group("hostile", [*generated, HERE / "names" / "HostileNames.kt"], kotlinc.java_runtime())
    r = kotlinc.compile_groups([group])
    assert r.returncode == 0, f"kotlinc -Werror:\n{r.stdout[-10000:]}{r.stderr[-10000:]}"
    v = hostile.write_vectors(tmp_path / "vectors")
    classpath = [str(group.out / "classes"), *group.classpath]
    r = subprocess.run([kotlinc.java(), "-ea", "-cp", os.pathsep.join(classpath), "HostileNamesKt",
                        *(str(v[k]) for k in ("versioned", "final", "text", "json"))],
                       capture_output=True, text=True, check=False, timeout=600)
    assert r.returncode == 0 and "hostile names: 0 problems" in r.stdout, r.stdout[-6000:] + r.stderr[-3000:]
    r = kotlinc.ktlint([HERE / "names" / "HostileNames.kt"])
    assert r.returncode == 0, f"ktlint:\n{r.stdout[-10000:]}{r.stderr[-3000:]}"
