"""JUnit 5 for the tests of generated Java and Kotlin code (tests/java, tests/kotlin).

`pom.xml` beside this file depends on JUnit Jupiter and the JUnit Platform Launcher; Maven resolves
them into ~/.m2 (offline when they are there already, online the first time) and tells their
classpath. `RunTests.java` is the Launcher over folders of compiled test classes; it closes with
the line tools/run_suites.py adds up, `NAME: N passed, N failed, N skipped`.

    classpath()                              the JUnit jars (what test classes compile against)
    run(name, folders, classpath, props)     every test in the class folders, on a JVM with the
                                             system properties `props`; its exit status
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BUILD = REPO / "build" / "junit"
sys.path.insert(0, str(HERE.parent / "kotlinc"))

from kotlinc import java, maven_classpath, tool


def classpath() -> list[str]:
    """JUnit Jupiter (api, params, engine) and the Platform Launcher, with what they need."""
    return maven_classpath(HERE, BUILD)


def runner() -> Path:
    """RunTests.java compiled once (by content) against the JUnit jars."""
    jars = classpath()
    source = HERE / "RunTests.java"
    digest = hashlib.sha256(source.read_bytes() + "\0".join(jars).encode()).hexdigest()[:16]
    out = BUILD / f"runner-{digest}"
    if not (out / "RunTests.class").is_file():
        out.mkdir(parents=True, exist_ok=True)
        r = subprocess.run([tool("javac", "JAVAC"), "-Xlint:all", "-Werror", "-d", str(out), "-cp",
                            os.pathsep.join(jars), str(source)], capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise SystemExit(f"junit: RunTests.java does not compile:\n{r.stdout}{r.stderr}")
    return out


def run(name: str, folders: list[Path], test_classpath: list[str], properties: dict[str, str]) -> int:
    """Runs every JUnit test in the class folders (its output goes to ours: the closing line with it)."""
    command = [java(), "-ea", *(f"-D{k}={v}" for k, v in properties.items()), "-cp",
               os.pathsep.join([str(runner()), *classpath(), *map(str, folders), *test_classpath]),
               "RunTests", name, *map(str, folders)]
    sys.stdout.flush()
    return subprocess.run(command, check=False).returncode
