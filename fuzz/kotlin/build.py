"""Build the Jazzer target of the fbec --kotlin readers and receivers: `build.py OUT` compiles the
generated code of every schema (kotlinc.library, shared with tests/kotlin through the cache), the
Java target's fuzz target fuzz/java/FuzzReaders.java (it drives generated classes by reflection over
the JVM API the Kotlin target shares with the Java one: static fromFbe/fromFinal/verifyFbe/verifyFinal
(byte[], int, int, Limits) and fromJson(byte[], Limits), toFbe()/toFinal()/toJson(), toString(),
Receiver(Handler)/FinalReceiver(Handler)), and writes OUT/targets.txt (the structs of the original's proto.fbe and
test.fbe, or the project's trade.fbe without SHARED, with their golden vectors as seeds, and of the
project's tests/everything.fbe and cpp-tests/recursive.fbe; their packages' receivers) and
OUT/classpath.txt. fuzz/java/jazzer.py runs it
(`make fuzz-kotlin` and `make test-kotlin`, mk/kotlin.mk)."""

from __future__ import annotations

import importlib.util
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
from fbec.targets.kotlin.names import Idents

# fuzz/java/build.py: the targets file, written the same way for both targets
_spec = importlib.util.spec_from_file_location("java_fuzz_build", REPO / "fuzz" / "java" / "build.py")
assert _spec is not None and _spec.loader is not None
java_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(java_build)


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
                         "-cp", os.pathsep.join(runtime), str(REPO / "fuzz" / "java" / "FuzzReaders.java")],
                        check=False)
    if r2.returncode != 0:
        return r2.returncode
    java_build.write_targets(out, Idents)
    classpath = [str(harness), str(library.out / "classes"), kotlinc.stdlib(), *runtime]
    (out / "classpath.txt").write_text(os.pathsep.join(classpath) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
