"""Build the mutation fuzzer of the fbec --kotlin readers and receivers: `build.py OUT` compiles the
generated code of every schema (kotlinc.library, shared with tests/kotlin through the cache), the
Java target's harness fuzz/java/FuzzReaders.java (it drives generated classes by reflection over
the JVM API the Kotlin target shares with the Java one: static fromFbe/fromFinal(byte[], int, int,
Limits), toFbe()/toFinal(), toString(), Receiver(Handler)/FinalReceiver(Handler)), and writes
OUT/targets.txt (the original's proto.fbe and test.fbe structs with their golden vectors as seeds,
their packages' receivers; without SHARED the project's trade.fbe and tests/everything.fbe) and
OUT/classpath.txt. `make fuzz-kotlin` and `make test-kotlin` run it (mk/kotlin.mk)."""

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
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "tools" / "kotlinc")]

import kotlinc
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.kotlin import TYPE_RESERVED, kotlin_package


def main(out: Path) -> int:
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    library = kotlinc.library(SHARED, out / "library")
    r = kotlinc.compile_groups([library])
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        return r.returncode
    runtime = kotlinc.java_runtime()
    harness = out / "harness"
    if harness.exists():
        shutil.rmtree(harness)
    javac = kotlinc.tool("javac", "JAVAC")
    r2 = subprocess.run([javac, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(harness),
                         "-cp", os.pathsep.join(runtime), str(REPO / "fuzz" / "java" / "FuzzReaders.java")], check=False)
    if r2.returncode != 0:
        return r2.returncode
    if (SHARED / "schemas" / "test.fbe").is_file():
        schemas = [SHARED / "schemas" / "proto.fbe", SHARED / "schemas" / "test.fbe"]
    else:
        schemas = [REPO / "schemas" / "trade.fbe", REPO / "schemas" / "tests" / "everything.fbe"]
    seeds: dict[str, list[str]] = {}
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if manifest.is_file():
        for c in json.loads(manifest.read_text())["cases"]:
            files = [str(SHARED / "vectors" / f["file"]) for f in c["files"] if f["kind"] in ("versioned", "final")]
            seeds.setdefault(f"{c['package']}.{c['type']}", []).extend(files)
    lines: list[str] = []
    receivers: list[str] = []
    done: set[str] = set()
    for schema in schemas:
        for package in compile_schema(str(schema), [], Diagnostics()).packages:
            if package.name in done:
                continue
            done.add(package.name)
            for s in package.structs:
                lines.append("\t".join([f"{kotlin_package(package)}.{TYPE_RESERVED(s.name)}",
                                        *seeds.get(s.qualified, [])]))
            if package.dispatch:
                receivers.append(f"receiver\t{kotlin_package(package)}")
    (out / "targets.txt").write_text("\n".join(lines + receivers) + "\n")
    classpath = [str(harness), str(library.out / "classes"), kotlinc.stdlib(), *runtime]
    (out / "classpath.txt").write_text(os.pathsep.join(classpath) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
