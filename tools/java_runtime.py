"""runtime/java for everything that compiles it without Maven's lifecycle (tests/java, the examples,
the fuzzer, tools/kotlinc): its dependencies' jars (jackson-core) as `mvn dependency:build-classpath`
resolves them from runtime/java/pom.xml, and its classes compiled with javac as its pom compiles
them. Both are cached under build/java-runtime by content (the pom's text, the sources' text).

    python tools/java_runtime.py deps        the dependency jars, joined by the path separator
    python tools/java_runtime.py classpath   the runtime's classes and the jars

MVN names the mvn command, JAVAC the javac command.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUNTIME = REPO / "runtime" / "java"
BUILD = REPO / "build" / "java-runtime"


def _tool(name: str, env: str) -> str:
    found = os.environ.get(env) or shutil.which(name)
    if not found:
        raise SystemExit(f"java_runtime: no {name} command (set {env})")
    return found


def dependencies() -> list[str]:
    """The jars runtime/java needs at compile and run time (its pom's compile scope)."""
    pom = RUNTIME / "pom.xml"
    digest = hashlib.sha256(pom.read_bytes()).hexdigest()[:16]
    listing = BUILD / f"deps-{digest}.txt"
    if not listing.is_file() or not all(Path(j).is_file() for j in _jars(listing)):
        BUILD.mkdir(parents=True, exist_ok=True)
        tmp = listing.with_suffix(".tmp")
        command = [_tool("mvn", "MVN"), "-q", "-B", "dependency:build-classpath", "-DincludeScope=runtime",
                   f"-Dmdep.outputFile={tmp}"]
        # offline when the local repository has everything, online the first time
        if subprocess.run([command[0], "-o", *command[1:]], cwd=RUNTIME, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
            r = subprocess.run(command, cwd=RUNTIME, capture_output=True, text=True, check=False)
            if r.returncode != 0:
                raise SystemExit(f"java_runtime: mvn dependency:build-classpath failed:\n{r.stdout}{r.stderr}")
        tmp.replace(listing)
    return _jars(listing)


def _jars(listing: Path) -> list[str]:
    return [j for j in listing.read_text().strip().split(os.pathsep) if j]


def classes() -> Path:
    """runtime/java's classes, compiled with javac -Xlint:all -Werror against its dependencies."""
    sources = sorted((RUNTIME / "src" / "main" / "java").rglob("*.java"))
    deps = dependencies()
    h = hashlib.sha256("\0".join(deps).encode())
    for s in sources:
        h.update(str(s.relative_to(RUNTIME)).encode())
        h.update(hashlib.sha256(s.read_bytes()).digest())
    out = BUILD / f"classes-{h.hexdigest()[:16]}"
    if not (out / "ok").is_file():
        if out.exists():
            shutil.rmtree(out)
        (out / "classes").mkdir(parents=True)
        listing = out / "sources.txt"
        listing.write_text("\n".join(str(s) for s in sources) + "\n")
        r = subprocess.run([_tool("javac", "JAVAC"), "-Xlint:all", "-Werror", "-encoding", "UTF-8",
                            "-cp", os.pathsep.join(deps), "-d", str(out / "classes"), f"@{listing}"],
                           capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise SystemExit(f"java_runtime: runtime/java does not compile:\n{r.stdout}{r.stderr}")
        (out / "ok").touch()
    return out / "classes"


def classpath() -> str:
    """The runtime's classes and its dependencies: what generated Java code compiles and runs with."""
    return os.pathsep.join([str(classes()), *dependencies()])


def main(argv: list[str]) -> int:
    if argv == ["deps"]:
        print(os.pathsep.join(dependencies()))
    elif argv == ["classpath"]:
        print(classpath())
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
