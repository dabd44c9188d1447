"""Build the Java mutation fuzzer: `build.py OUT` generates the fbec --java --final --json --proto code of
the original's proto.fbe and test.fbe (SHARED; without it the project's trade.fbe and
tests/everything.fbe), compiles it with runtime/java and fuzz/java/FuzzReaders.java into OUT/classes
and writes OUT/targets.txt: every struct with its golden vectors (binary and JSON) as seeds, and every package with
a Receiver. JAVAC names the javac command."""

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
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "tools")]

from fbec.cli import main as fbec_main
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.java import TYPE_RESERVED, java_package

import java_runtime


def main(out: Path) -> int:
    out = out.resolve()
    if (out / "src").exists():
        shutil.rmtree(out / "src")
    if (SHARED / "schemas" / "test.fbe").is_file():
        schemas = [SHARED / "schemas" / "proto.fbe", SHARED / "schemas" / "test.fbe"]
    else:
        schemas = [REPO / "schemas" / "trade.fbe", REPO / "schemas" / "tests" / "everything.fbe"]
    seeds: dict[str, list[str]] = {}
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if manifest.is_file():
        for c in json.loads(manifest.read_text())["cases"]:
            files = [str(SHARED / "vectors" / f["file"]) for f in c["files"] if f["kind"] in ("versioned", "final", "json")]
            seeds.setdefault(f"{c['package']}.{c['type']}", []).extend(files)
    lines: list[str] = []
    receivers: list[str] = []
    done: set[str] = set()
    for schema in schemas:
        ir = compile_schema(str(schema), [], Diagnostics())
        for package in ir.packages:
            if package.name in done:
                continue
            done.add(package.name)
            source = schema.parent / Path(package.file).name
            options = ["--java", "--final", "--json", "--proto", "-q"]
            if fbec_main([f"--input={source}", f"--output={out / 'src'}", *options]) != 0:
                return 1
            for s in package.structs:
                lines.append("\t".join([f"{java_package(package)}.{TYPE_RESERVED(s.name)}",
                                        *seeds.get(s.qualified, [])]))
            if package.dispatch:
                receivers.append(f"receiver\t{java_package(package)}")
    (out / "targets.txt").write_text("\n".join(lines + receivers) + "\n")
    javac = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
    sources = sorted((out / "src").rglob("*.java")) + sorted((REPO / "runtime" / "java" / "src" / "main").rglob("*.java"))
    sources.append(HERE / "FuzzReaders.java")
    (out / "sources.txt").write_text("\n".join(map(str, sources)) + "\n")
    return subprocess.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(out / "classes"),
                           "-cp", os.pathsep.join(java_runtime.dependencies()), f"@{out / 'sources.txt'}"],
                          check=False).returncode


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
