#!/usr/bin/env python3
"""The Kotlin rows of the Java benchmark (make bench-java-check, docs/benchmarks.md "Java").

    kotlin.py BENCH_DIR

after the Java project in BENCH_DIR (build/bench-java) is compiled: generates schemas/trade.fbe
with fbec --kotlin --final --json under the package prefix fbebench.kotlin (fbec --package-prefix:
fbec --java's com.chronoxor.proto is in the same JVM), compiles it and BENCH_DIR/src/main/kotlin
(KotlinRows.kt) with the project's Kotlin compiler (tools/kotlinc: -Werror, cached by content)
against BENCH_DIR/target/classes and the project's dependencies, and writes
BENCH_DIR/kotlin-classpath.txt: the classes and the Kotlin standard library, for the classpath of
fbebench.Check and JMH.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "tools" / "kotlinc")]

import kotlinc
from fbec.cli import main as fbec

PREFIX = "fbebench.kotlin"


def main(argv: list[str]) -> int:
    bench = Path(argv[0]).resolve()
    gen = bench / "kotlin-gen"
    if fbec(["-q", "--kotlin", "--final", "--json", f"--package-prefix={PREFIX}",
             f"--input={REPO / 'schemas' / 'trade.fbe'}", f"--output={gen}"]) != 0:
        return 1
    sources = sorted(gen.rglob("*.kt")) + sorted((bench / "src" / "main" / "kotlin").rglob("*.kt"))
    deps = [p for p in (bench / "classpath.txt").read_text().strip().split(os.pathsep) if p]
    group = kotlinc.Group("bench-kotlin", sources, [str(bench / "target" / "classes"), *deps])
    r = kotlinc.compile_groups([group])
    if r.returncode != 0:
        sys.stderr.write(f"bench-java: the Kotlin rows do not compile:\n{r.stdout}{r.stderr[-20000:]}")
        return 1
    (bench / "kotlin-classpath.txt").write_text(os.pathsep.join([str(group.out / "classes"), kotlinc.stdlib()]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
