"""Build the Jazzer target of the Java readers: `build.py OUT` generates the fbec --java --final --json --proto
code of the original's proto.fbe and test.fbe (SHARED; without it the project's trade.fbe), the project's
tests/everything.fbe and cpp-tests/recursive.fbe, compiles it with runtime/java and fuzz/java/FuzzReaders.java
into OUT/classes and writes OUT/targets.txt (every struct with its golden vectors, binary and JSON, as seeds,
and every package with a Receiver) and OUT/classpath.txt; fuzz/java/jazzer.py runs it. JAVAC names the javac
command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "tools")]

import java_runtime
from fbec.cli import main as fbec_main
from fbec.model.ir import Package, Schema
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.java.names import Idents


def schemas() -> list[Path]:
    """The original's proto.fbe and test.fbe (SHARED; without them the project's trade.fbe), the project's
    tests/everything.fbe (every kind of type, and what it imports) and cpp-tests/recursive.fbe (a struct that
    nests without a bound: the depth limit)."""
    if (SHARED / "schemas" / "test.fbe").is_file():
        first = [SHARED / "schemas" / "proto.fbe", SHARED / "schemas" / "test.fbe"]
    else:
        first = [REPO / "schemas" / "trade.fbe"]
    return [*first, REPO / "schemas" / "tests" / "everything.fbe", REPO / "schemas" / "cpp-tests" / "recursive.fbe"]


def packages() -> Iterator[tuple[Path, Package, Schema]]:
    """Every package of the schemas once, with the schema file that defines it and the schema it is part of."""
    done: set[str] = set()
    for schema in schemas():
        ir_schema = compile_schema(str(schema), [], Diagnostics())
        for package in ir_schema.packages:
            if package.name not in done:
                done.add(package.name)
                yield schema.parent / Path(package.file).name, package, ir_schema


def write_targets(out: Path, idents: Callable[[Schema], Any]) -> None:
    """OUT/targets.txt for FuzzReaders: a line per struct (its class, then its golden vectors: versioned, final
    and JSON files), then a line per package with a Receiver ("receiver", the package). `idents` gives the
    target's naming of a schema (the Java or the Kotlin target's names.Idents)."""
    seeds: dict[str, list[str]] = {}
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if manifest.is_file():
        for c in json.loads(manifest.read_text())["cases"]:
            files = [str(SHARED / "vectors" / f["file"])
                     for f in c["files"] if f["kind"] in ("versioned", "final", "json")]
            seeds.setdefault(f"{c['package']}.{c['type']}", []).extend(files)
    lines: list[str] = []
    receivers: list[str] = []
    for _, package, schema in packages():
        names = idents(schema)
        for s in package.structs:
            lines.append("\t".join([names.qualified_type(s.qualified), *seeds.get(s.qualified, [])]))
        if package.dispatch:
            receivers.append(f"receiver\t{names.package(package.name)}")
    (out / "targets.txt").write_text("\n".join(lines + receivers) + "\n")


def main(out: Path) -> int:
    out = out.resolve()
    for old in ("src", "classes"):
        if (out / old).exists():
            shutil.rmtree(out / old)
    for source, _, _ in packages():
        options = ["--java", "--final", "--json", "--proto", "-q"]
        if fbec_main([f"--input={source}", f"--output={out / 'src'}", *options]) != 0:
            return 1
    write_targets(out, Idents)
    javac = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
    runtime = REPO / "runtime" / "java" / "src" / "main"
    sources = sorted((out / "src").rglob("*.java")) + sorted(runtime.rglob("*.java"))
    sources.append(HERE / "FuzzReaders.java")
    (out / "sources.txt").write_text("\n".join(map(str, sources)) + "\n")
    deps = java_runtime.dependencies()
    (out / "classpath.txt").write_text(os.pathsep.join([str(out / "classes"), *deps]) + "\n")
    return subprocess.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(out / "classes"),
                           "-cp", os.pathsep.join(deps), f"@{out / 'sources.txt'}"], check=False).returncode


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
