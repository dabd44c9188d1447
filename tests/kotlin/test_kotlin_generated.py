"""The Kotlin target: fbec --kotlin's output for every schema (the project's and ../shared's) compiles
with the Kotlin compiler from Maven Central under -Werror against runtime/java and passes ktlint, and
the TCP example (examples/kotlin) runs. What the generated code does (the golden vectors, the
protocol, the duplicate-key rule, the types as Kotlin users expect them) is tested by the JUnit 5
tests beside this file (tests/kotlin/junit_kotlin.py runs them; their compilations are among those
compiled here). Run by `make test-kotlin`, which installs the JDK and Maven; the compiler is resolved
by tools/kotlinc/kotlinc.py and every compilation cached by content under build/kotlin."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "kotlinc"))
import junit_kotlin
import kotlinc

# examples/kotlin/build.py: how the TCP example is generated, compiled and run
_spec = importlib.util.spec_from_file_location("kotlin_tcp_example", REPO / "examples" / "kotlin" / "build.py")
assert _spec is not None and _spec.loader is not None
tcp_example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tcp_example)

SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
JAVAC = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
HERE = Path(__file__).resolve().parent


@dataclass
class Build:
    """What the module's tests share: every compilation done in one JVM."""
    lint: kotlinc.Lint
    result: subprocess.CompletedProcess[str]
    example: kotlinc.Group


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """fbec --kotlin --final --json --proto for every schema, in as few compilations as their packages
    allow (kotlinc.schema_groups: schemas/trade.fbe and ../shared's proto.fbe are both
    com.chronoxor.proto): the library of the first and the JUnit tests' groups (junit_kotlin.build:
    the same compilations as junit_kotlin.py's, shared through the cache), the others, and the TCP
    example, all compiled by one JVM."""
    assert Path(JAVAC).exists(), f"no javac at {JAVAC} (set JAVAC; make test-kotlin installs the JDK)"
    runtime = kotlinc.java_runtime()
    root = tmp_path_factory.mktemp("kotlin")
    tests = junit_kotlin.build(root)
    generated = [*tests.library.sources, *tests.generated]
    others = []
    for i, home in enumerate(kotlinc.schema_groups(SHARED)[1:], 1):
        sources = kotlinc.generate(list(home.values()), root / f"g{i}")
        generated += sources
        others.append(kotlinc.Group(f"g{i}", sources, runtime))
    example = tcp_example.group()
    generated += [s for s in example.sources if s.suffix == ".kt" and "gen" in s.parts]
    # ktlint over the generated code and the Kotlin written by hand, beside the compilation
    testee = REPO / "conformance" / "testees" / "kotlin"
    by_hand = [*sorted(HERE.rglob("*Test.kt")), testee / "Main.kt", testee / "Describe.kt",
               REPO / "examples" / "kotlin" / "TcpExample.kt",
               REPO / "bench" / "java" / "src" / "main" / "kotlin" / "fbebench" / "KotlinRows.kt",
               *sorted((REPO / "examples" / "packages").glob("*kotlin/src/main/kotlin/app/*.kt"))]
    lint = kotlinc.Lint(generated + by_hand)
    result = kotlinc.compile_groups([tests.library, *tests.tests, *others, example])
    return Build(lint, result, example)


def test_generated_kotlin_compiles_without_warnings(build: Build) -> None:
    r = build.result
    assert r.returncode == 0, f"kotlinc -Werror:\n{r.stdout}{r.stderr[-20000:]}"
    print(r.stdout.strip())


def test_generated_kotlin_passes_ktlint(build: Build) -> None:
    """The generated code of every schema, and the Kotlin written by hand around it (the tests here,
    the conformance testee, the example, the Java benchmark's Kotlin rows, the user projects of
    examples/packages), follow the Kotlin coding conventions as ktlint checks them
    (tools/kotlinc/ktlint: ktlint 1.5.0, intellij_idea style, lines up to 120)."""
    r = build.lint.result()
    assert r.returncode == 0, f"ktlint:\n{r.stdout[-20000:]}{r.stderr[-5000:]}"


def test_tcp_example_runs(build: Build) -> None:
    """examples/kotlin (make example-kotlin): a server and a client of the generated rpc protocol
    over java.nio sockets on 127.0.0.1, both models: 100 pings answered, an order accepted and one
    rejected, a notice."""
    assert build.result.returncode == 0, "the generated code does not compile"
    r = subprocess.run(tcp_example.command(build.example, []), capture_output=True, text=True, check=False,
                       timeout=120)
    assert r.returncode == 0 and "tcp example: ok" in r.stdout, r.stdout + r.stderr
    assert r.stdout.count("100 pings answered") == 2, r.stdout
    assert r.stdout.count("client: rejected OrderRejected(") == 2, r.stdout
