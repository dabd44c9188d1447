"""The Kotlin compiler from Maven Central, run directly (docs/kotlin.md).

`pom.xml` beside this file depends on kotlin-compiler-embeddable; Maven resolves it into ~/.m2
(offline when it is there already, online the first time) and tells its classpath, and the
compiler's main class runs on this machine's JVM. kotlinc is slow to start and to warm up, so

* `compile_groups` compiles several independent groups of sources (packages that may not share
  one compilation: schemas/trade.fbe and ../shared's proto.fbe are both com.chronoxor.proto) in
  one JVM, one compiler run per group (KotlincGroups.java, compiled once with javac);
* each group's output is cached under build/kotlin/cache by a hash of everything that goes into
  it (the sources' text, the classpath's files, the options, the compiler's version), so a test
  run whose generated code did not change compiles nothing.

`ktlint(files)` runs ktlint (tools/kotlinc/ktlint) over Kotlin sources the same way. Used by
tests/kotlin and conformance/testees/kotlin/build.py; `python tools/kotlinc/kotlinc.py ARGS...` runs
the compiler as kotlinc would.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = REPO / "build" / "kotlin"
# What every compilation gets: the stdlib on the classpath explicitly (the embeddable compiler has no
# Kotlin home), Java 17 bytecode, warnings (the extended checkers' too: unused variables...) as errors.
OPTIONS = ["-no-stdlib", "-no-reflect", "-jvm-target", "17", "-Werror", "-Wextra"]
# C1 only: the compiler runs once per build, and C2 compiling it cost twice the time on 2 loaded cores
JVM_OPTIONS = ["-Xss16m", "-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1"]


def tool(name: str, env: str) -> str:
    found = os.environ.get(env) or shutil.which(name)
    if not found:
        raise SystemExit(f"kotlinc: no {name} command (set {env}; make test-kotlin installs the JDK and Maven)")
    return found


def mvn(args: list[str], cwd: Path) -> None:
    """mvn offline when everything is in the local repository, online the first time."""
    command = [tool("mvn", "MVN"), "-q", "-B", *args]
    if subprocess.run([*command[:1], "-o", *command[1:]], cwd=cwd, check=False,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        subprocess.run(command, cwd=cwd, check=True)


def maven_classpath(project: Path, out: Path) -> list[str]:
    """The dependency classpath of the Maven project folder, resolved once per pom text."""
    digest = hashlib.sha256((project / "pom.xml").read_bytes()).hexdigest()[:16]
    cached = out / f"classpath-{digest}.txt"
    if not cached.is_file():
        out.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(".part")
        mvn(["dependency:build-classpath", f"-Dmdep.outputFile={partial}"], project)
        partial.replace(cached)
    return [p for p in cached.read_text().strip().split(os.pathsep) if p]


def compiler_classpath() -> list[str]:
    """kotlin-compiler-embeddable and its dependencies (the stdlib among them)."""
    return maven_classpath(HERE, BUILD)


def stdlib() -> str:
    """The Kotlin standard library jar the compiler came with: what generated code runs against."""
    found = [p for p in compiler_classpath() if Path(p).name.startswith("kotlin-stdlib-")]
    if len(found) != 1:
        raise SystemExit(f"kotlinc: no single kotlin-stdlib jar in the compiler's classpath: {found}")
    return found[0]


def java() -> str:
    javac = Path(tool("javac", "JAVAC")).resolve()
    return str(javac.parent / "java")


def driver() -> Path:
    """KotlincGroups.class, compiled once against the compiler's jar."""
    out = BUILD / "driver"
    source = HERE / "KotlincGroups.java"
    stamp = out / (hashlib.sha256(source.read_bytes()).hexdigest()[:16] + ".ok")
    if not stamp.is_file():
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        subprocess.run([tool("javac", "JAVAC"), "-Xlint:all", "-Werror", "-d", str(out),
                        "-cp", os.pathsep.join(compiler_classpath()), str(source)], check=True)
        stamp.touch()
    return out


def java_runtime() -> list[str]:
    """runtime/java (what generated Kotlin calls): its classes, compiled with javac as its pom compiles
    them, and its dependencies' jars (tools/java_runtime.py; both cached by content)."""
    sys.path.insert(0, str(REPO / "tools"))
    import java_runtime
    return [str(java_runtime.classes()), *java_runtime.dependencies()]


def _digest(sources: list[Path], classpath: list[str], options: list[str], after: list[str]) -> str:
    h = hashlib.sha256()
    h.update("\0".join(compiler_classpath() + options + after).encode())
    for entry in classpath:
        p = Path(entry)
        files = sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
        for f in files:
            h.update(str(f.relative_to(p) if p.is_dir() else f).encode())
            h.update(hashlib.sha256(f.read_bytes()).digest())
    for s in sorted(sources):
        h.update(s.name.encode())
        h.update(hashlib.sha256(s.read_bytes()).digest())
    return h.hexdigest()[:24]


class Group:
    """One compilation: sources (Kotlin, and Java sources they refer to) against classpath and the
    classes of the groups it comes after (compiled first, in the same JVM: their keys stand for
    their classes in this group's key)."""

    key: str
    out: Path

    def __init__(self, name: str, sources: list[Path], classpath: list[str], options: list[str] | None = None,
                 after: list[Group] | None = None):
        self.name = name
        self.sources = sorted(sources)
        self.after = list(after or [])
        self.options = [*OPTIONS, *(options or [])]
        self.key = _digest(self.sources, [stdlib(), *classpath], self.options, [g.key for g in self.after])
        self.classpath = [*(str(g.out / "classes") for g in self.after), stdlib(), *classpath]
        self.out = BUILD / "cache" / self.key

    @property
    def cached(self) -> bool:
        return (self.out / "ok").is_file()

    def args(self) -> list[str]:
        return [*self.options, "-d", str(self.out / "classes"), "-cp", os.pathsep.join(self.classpath),
                *map(str, self.sources)]


def schema_groups(shared: Path) -> list[dict[str, Path]]:
    """Every schema of the project and of shared/schemas (the original's first: their imports resolve
    among them), spread over as few compilations as their Kotlin packages allow (schemas/trade.fbe
    and the original's proto.fbe are both com.chronoxor.proto): Kotlin package -> schema file."""
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    from fbec.targets.kotlin import kotlin_package
    files = sorted((shared / "schemas").glob("*.fbe")) if (shared / "schemas").is_dir() else []
    # but the corpus of hostile names, which tests/kotlin compiles with its test (junit_kotlin.py) and
    # ktlint would judge by its names
    files += sorted(f for f in (REPO / "schemas").rglob("*.fbe") if f.name != "hostile_names.fbe")
    groups: list[dict[str, Path]] = []
    for f in files:
        name = kotlin_package(compile_schema(str(f), [], Diagnostics()).main_package)
        home = next((g for g in groups if name not in g), None)
        if home is None:
            home = {}
            groups.append(home)
        home[name] = f
    return groups


def generate(schemas: list[Path], out: Path) -> list[Path]:
    """fbec --kotlin --final --json --proto of every schema into out (fresh); the files written."""
    from fbec.cli import main as fbec_main
    if out.exists():
        shutil.rmtree(out)
    for f in schemas:
        if fbec_main([f"--input={f}", f"--output={out}", "--kotlin", "--final", "--json", "--proto", "-q"]) != 0:
            raise SystemExit(f"kotlinc: fbec --kotlin failed on {f}")
    return sorted(out.rglob("*.kt"))


def library(shared: Path, out: Path) -> Group:
    """The generated code of the first of schema_groups (every schema of the original's and the
    project's but schemas/trade.fbe), as one group: tests/kotlin and the conformance testee compile
    their programs after it, so the two share its compilation (build/kotlin/cache)."""
    sources = generate(list(schema_groups(shared)[0].values()), out)
    return Group("library", sources, java_runtime())


def compile_groups(groups: list[Group]) -> subprocess.CompletedProcess[str]:
    """Compile every group that is not cached, in one JVM, in order (a group after those it comes
    after). Returns the compiler's output; each group's classes are at group.out / "classes" when
    the return code is 0."""
    todo = [g for g in groups if not g.cached]
    if not todo:
        return subprocess.CompletedProcess([], 0, "", "")
    files = []
    for g in todo:
        if g.out.exists():
            shutil.rmtree(g.out)
        g.out.mkdir(parents=True)
        argfile = g.out / "args.txt"
        argfile.write_text("\n".join(_quote(a) for a in g.args()) + "\n")
        files.append(str(argfile))
    command = [java(), *JVM_OPTIONS, "-cp", os.pathsep.join([str(driver()), *compiler_classpath()]),
               "KotlincGroups", *files]
    r = subprocess.run(command, capture_output=True, text=True, check=False)
    if r.returncode == 0:
        for g in todo:
            (g.out / "ok").touch()
    return r


class Lint:
    """A ktlint run (tools/kotlinc/ktlint: the version in pom.xml, the rules in editorconfig) over
    files, started at once in the background (it takes a core while kotlinc takes the other);
    result() waits for it. A set of files that passed once, by their text, is not linted again
    (build/kotlin/ktlint)."""

    def __init__(self, files: list[Path]) -> None:
        home = HERE / "ktlint"
        h = hashlib.sha256((home / "pom.xml").read_bytes() + (home / "editorconfig").read_bytes())
        for f in sorted(files):
            h.update(f.name.encode())
            h.update(hashlib.sha256(f.read_bytes()).digest())
        self.stamp = BUILD / "ktlint" / (h.hexdigest()[:24] + ".ok")
        self.process: subprocess.Popen[str] | None = None
        if not self.stamp.is_file():
            classpath = maven_classpath(home, BUILD / "ktlint")
            self.process = subprocess.Popen(
                [java(), "-XX:TieredStopAtLevel=1", "-cp", os.pathsep.join(classpath), "com.pinterest.ktlint.Main",
                 f"--editorconfig={home / 'editorconfig'}", "--relative", *map(str, files)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)

    def result(self) -> subprocess.CompletedProcess[str]:
        if self.process is None:
            return subprocess.CompletedProcess([], 0, "", "")
        out, err = self.process.communicate()
        if self.process.returncode == 0:
            self.stamp.touch()
        return subprocess.CompletedProcess(self.process.args, self.process.returncode, out, err)


def ktlint(files: list[Path]) -> subprocess.CompletedProcess[str]:
    """ktlint over files (see Lint), waited for."""
    return Lint(files).result()


def _quote(arg: str) -> str:
    """An argument in a kotlinc @argfile (quoted when it holds a space, a quote or a backslash)."""
    if any(ch in arg for ch in ' "\\\'\t'):
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return arg


def main(argv: list[str]) -> int:
    command = [java(), *JVM_OPTIONS, "-cp", os.pathsep.join(compiler_classpath()),
               "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler", "-no-stdlib", "-no-reflect", "-cp", stdlib(), *argv]
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
