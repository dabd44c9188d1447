"""Each runtime as a user's project consumes it (issue 23): installed the way its guide says, in a
fresh project in a scratch folder outside the repository, compiling the code fbec generates
from a schema of this test (not one of the repository's), then the bytes one language writes
read and written back by every other, and the same value written by each.

    python -m pytest tests/package/test_consumers.py   (make test-packages)

The user projects are examples/packages/<language> (the sample poms and programs the guides
point at), copied into the scratch folder. Python: a fresh venv, `pip install <repo>` (which builds
the native core with maturin, cargo being there: the classes must answer through it; a second venv
installed with no cargo on PATH must be pure Python and write the same bytes), the
`fbec` console script (generation, `fbec encode`/`decode`). Go: `go mod init`, `go mod edit
-require -replace` at runtime/go. JavaScript: `npm install` of a copy of runtime/js without
dist/ or node_modules (as a fresh clone has it; its `prepare` builds it) and `fbec --javascript`;
TypeScript: `npm install` of the `npm pack` tarball and `fbec --typescript` through the user's
tsc --strict. Java and Kotlin: `mvn install` of runtime/java, then the sample pom (Kotlin through
kotlin-maven-plugin). C++: the sample CMake project, FetchContent of the repository and
fbe_generate() running the wheel's fbec. Rust: the crate by path, its code generated at build time
by fbe-build (runtime/rust-build) from build.rs with the wheel's fbec. C#: Fbe.dll by
runtime/csharp's Makefile, the program compiled with mcs. Ruby: `gem build` and `gem install`
into the user's own GEM_HOME. Caches (pip, npm, ~/.m2, the Go module cache) are the
user's own.

C++ holds a hash map (`decimal{string}`) in a std::unordered_map and writes it in that map's
order, as the original does; Go writes a map's keys sorted; every other language writes the order
it read (or, writing its own value, the order it was given). So C++'s bytes are compared with the
others' by value (their JSON through `fbec decode`), and every other language reads the bytes
C++ writes and writes them back identically (Go: the same value, its keys sorted).

Besides the files, a protocol exchange over a real socket: the Go program serves (`app serve`,
every Order it receives sent back), the Python and the JavaScript programs connect (`connect`),
send the Order Python wrote and write the Order they get back, which must be the same bytes (the
same value from Rust, whose HashMap writes its own order); so does the Rust program.

The Kafka serdes (docs/kafka.md "Used from a project"), each installed as its section says in a
project of examples/packages/kafka-<language>: Java `mvn install` of runtime/kafka/java and a pom
depending on fbe-kafka (Kotlin: the same, the pom compiling through kotlin-maven-plugin), Go the
fbekafka module required and replaced beside the runtime, Python the extra
`pip install '<repo>[kafka]'` (the venv above), TypeScript the `npm pack` tarballs of both
packages installed with kafkajs. Without a broker, each program serializes the Order Python
wrote through its serde with the record's headers and deserializes a value and an `fbe` header it
is given: the value is the message's FBE bytes, every language reads every other's record, and a
foreign header is refused.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "packages"
MVN = os.environ.get("MVN", "mvn")
NPM = os.environ.get("NPM", "npm")
NODE = os.environ.get("NODE", "node")
GO = os.environ.get("GO", "go")
CARGO = os.environ.get("CARGO") or shutil.which("cargo") or str(Path.home() / ".cargo/bin/cargo")
CMAKE = os.environ.get("CMAKE", "cmake")

# enum, flags, optionals, a vector of structs, a map of decimals, uuid, timestamp, one message
SCHEMA = """\
package shop

enum Color : byte { red; green; blue; }

flags Perm : byte { none = 0x00; read = 0x01; write = 0x02; }

struct Line
{
    string sku;
    int32 qty;
}

struct Cart
{
    [key] uuid id;
    Color color = Color.green;
    Perm perm;
    int32? note;
    string? memo;
    Line[] lines;
    decimal{string} prices;
    timestamp at;
}

message Order
{
    Cart cart;
}
"""


def run(args: list[str | Path], cwd: Path) -> str:
    r = subprocess.run([str(a) for a in args], check=False, cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(map(str, args))} (in {cwd}) exited {r.returncode}:\n{r.stdout}{r.stderr}"
    return r.stdout


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("packages")
    assert REPO not in path.parents, "the user projects must live outside the repository"
    (path / "shop.fbe").write_text(SCHEMA)
    return path


@pytest.fixture(scope="module")
def python_user(scratch: Path) -> Path:
    """A venv with the wheel `pip install <repo>` builds; the project is app.py and gen/."""
    env_dir = scratch / "venv"
    venv.create(env_dir, with_pip=True)
    # with the extra of fbe.kafka, as docs/kafka.md's Python section tells its users
    run([env_dir / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", f"{REPO}[kafka]"],
        scratch)
    project = scratch / "python"
    project.mkdir()
    shutil.copy(EXAMPLES / "python" / "app.py", project)
    run([env_dir / "bin" / "fbec", "--python", "--proto", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"],
        scratch)
    return env_dir


NATIVE_CHECK = """\
import sys
sys.path.insert(0, "gen")
import fbe.native

answered = []


class Watch:
    \"\"\"The module's native core, each call's name kept with whether the core answered.\"\"\"

    def __init__(self, core):
        self.core = core

    def __getattr__(self, name):
        method = getattr(self.core, name)

        def call(*args):
            result = method(*args)
            answered.append((name, result is not None))
            return result

        return call


# a generated module takes its core from fbe.native.core() when imported (its classes' methods keep it):
# the core is watched from there
load_core = fbe.native.core
fbe.native.core = lambda *args: None if (core := load_core(*args)) is None else Watch(core)
import app  # noqa: E402
import shop  # noqa: E402

print("module", fbe.native.module is not None)
shop.Order.from_fbe(app.sample().to_fbe())
print(answered)
"""
"""How the user's program took the native core: whether ``fbe_native`` loaded, then each call of
the classes' methods to it and whether it answered (an empty list: no core, the Python code)."""


def native_calls(python: Path, project: Path) -> str:
    (project / "native_check.py").write_text(NATIVE_CHECK)
    return run([python, project / "native_check.py"], project)


def test_python_wheel_takes_the_native_core(scratch: Path, python_user: Path) -> None:
    """cargo is there (make test-packages needs it), so `pip install` built the native core into
    the wheel with maturin (docs/python.md, Native core) and the generated classes answer through it."""
    assert list((python_user / "lib").glob("python3*/site-packages/fbe_native*")), "the wheel holds no fbe_native"
    assert native_calls(python_user / "bin" / "python", scratch / "python").splitlines() == [
        "module True", "[('to_fbe', True), ('from_fbe', True)]"]


@pytest.fixture(scope="module")
def python_pure(scratch: Path) -> Path:
    """A venv with the wheel `pip install <repo>` builds where no Rust toolchain is found."""
    env_dir = scratch / "venv-pure"
    venv.create(env_dir, with_pip=True)
    no_cargo = {k: v for k, v in os.environ.items() if k != "CARGO"}
    no_cargo["PATH"] = os.pathsep.join(d for d in no_cargo.get("PATH", "").split(os.pathsep)
                                       if not (Path(d) / "cargo").exists())
    r = subprocess.run([env_dir / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check", REPO],
                       check=False, cwd=scratch, capture_output=True, text=True, env=no_cargo)
    assert r.returncode == 0, f"pip install without cargo exited {r.returncode}:\n{r.stdout}{r.stderr}"
    return env_dir


def test_python_wheel_without_rust_is_pure_python(scratch: Path, python_pure: Path, written: bytes) -> None:
    """Without cargo the wheel is pure Python: no fbe_native, and the program writes and reads
    the same bytes through the generated Python code."""
    assert not list((python_pure / "lib").glob("python3*/site-packages/fbe_native*"))
    assert native_calls(python_pure / "bin" / "python", scratch / "python").splitlines() == ["module False", "[]"]
    out = scratch / "python-pure.bin"
    run([python_pure / "bin" / "python", scratch / "python" / "app.py", "write", out], scratch)
    assert out.read_bytes() == written
    back = scratch / "python-pure-back.bin"
    run([python_pure / "bin" / "python", scratch / "python" / "app.py", "roundtrip", out, back], scratch)
    assert back.read_bytes() == written


@pytest.fixture(scope="module")
def fbec(python_user: Path) -> Path:
    return python_user / "bin" / "fbec"


@pytest.fixture(scope="module")
def written(scratch: Path, python_user: Path) -> bytes:
    """The sample value, written by the Python program."""
    out = scratch / "python.bin"
    run([python_user / "bin" / "python", scratch / "python" / "app.py", "write", out], scratch)
    return out.read_bytes()


def go_program(scratch: Path, fbec: Path) -> list[str | Path]:
    project = scratch / "go"
    project.mkdir()
    shutil.copy(EXAMPLES / "go" / "main.go", project)
    run([fbec, "--go", "--proto", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    module = "github.com/fbe-toolkit/fbe/runtime/go"
    run([GO, "mod", "init", "example.com/app"], project)
    run([GO, "mod", "edit", f"-require={module}@v0.0.0", f"-replace={module}={REPO / 'runtime' / 'go'}"], project)
    run([GO, "mod", "tidy"], project)
    run([GO, "build", "-o", "app", "."], project)
    return [project / "app"]


def js_project(scratch: Path, name: str, package: Path, dev: list[str]) -> Path:
    project = scratch / name
    project.mkdir()
    run([NPM, "init", "-y"], project)
    run([NPM, "pkg", "set", "type=module"], project)
    run([NPM, "install", "--no-audit", "--no-fund", package], project)
    if dev:
        run([NPM, "install", "--no-audit", "--no-fund", "--save-dev", *dev], project)
    return project


def fresh_js_runtime(scratch: Path) -> Path:
    """runtime/js as a fresh clone has it: no dist/, no node_modules."""
    copy = scratch / "runtime-js"
    if not copy.exists():
        ignore = shutil.ignore_patterns("node_modules", "dist", "build-test")
        shutil.copytree(REPO / "runtime" / "js", copy, ignore=ignore)
    return copy


def js_path_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """JavaScript: npm install of the folder, the code of fbec --javascript."""
    project = js_project(scratch, "js-path", fresh_js_runtime(scratch), [])
    shutil.copy(EXAMPLES / "js" / "main.mjs", project)
    run([fbec, "--javascript", "--proto", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    return [NODE, project / "main.mjs"]


@functools.cache
def npm_packed(scratch: Path, source: Path) -> Path:
    """The tarball `npm pack` makes of a package folder, in the scratch folder (made once)."""
    return scratch / run([NPM, "pack", "--silent", "--pack-destination", scratch], source).strip().splitlines()[-1]


def ts_tarball_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """TypeScript: npm install of the npm pack tarball, the code of fbec --typescript through tsc --strict."""
    source = fresh_js_runtime(scratch)
    tarball = npm_packed(scratch, source)
    # the compiler versions runtime/js builds with
    lock = json.loads((source / "package-lock.json").read_text())["packages"]
    dev = [f"{name}@{lock[f'node_modules/{name}']['version']}" for name in ("typescript", "@types/node")]
    project = js_project(scratch, "ts-tarball", tarball, dev)
    shutil.copytree(EXAMPLES / "ts", project, dirs_exist_ok=True)
    run([fbec, "--typescript", "-q", "-i", scratch / "shop.fbe", "-o", project / "src" / "gen"], scratch)
    run([NODE, project / "node_modules" / "typescript" / "bin" / "tsc", "-p", project / "tsconfig.json"], project)
    return [NODE, project / "dist" / "main.js"]


@functools.cache
def java_runtime_installed(scratch: Path) -> None:
    """mvn install from a copy of runtime/java: make test-java builds in runtime/java/target meanwhile."""
    copy = scratch / "runtime-java"
    shutil.copytree(REPO / "runtime" / "java", copy, ignore=shutil.ignore_patterns("target"))
    run([MVN, "-q", "-B", "-DskipTests", "install"], copy)


def maven_program(scratch: Path, fbec: Path, language: str, main: str, example: str = "") -> list[str | Path]:
    """The sample project examples/packages/<example> (by default the language's), its code generated."""
    java_runtime_installed(scratch)
    project = scratch / (example or language)
    shutil.copytree(EXAMPLES / (example or language), project)
    sources = project / "src" / "main" / language
    run([fbec, f"--{language}", "-q", "-i", scratch / "shop.fbe", "-o", sources], scratch)
    run([MVN, "-q", "-B", "package", "dependency:build-classpath", "-Dmdep.outputFile=cp.txt"], project)
    classpath = os.pathsep.join([str(project / "target" / "classes"), (project / "cp.txt").read_text().strip()])
    return ["java", "-cp", classpath, main]


def java_program(scratch: Path, fbec: Path) -> list[str | Path]:
    return maven_program(scratch, fbec, "java", "app.Main")


def kotlin_program(scratch: Path, fbec: Path) -> list[str | Path]:
    return maven_program(scratch, fbec, "kotlin", "app.MainKt")


def cpp_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """C++: FetchContent of the repository; fbe_generate() runs the wheel's fbec."""
    project = scratch / "cpp"
    shutil.copytree(EXAMPLES / "cpp", project)
    shutil.copy(scratch / "shop.fbe", project)
    build = project / "build"
    run([CMAKE, "-S", project, "-B", build, f"-DFBE_SOURCE={REPO}", f"-DFBE_FBEC={fbec}"], scratch)
    run([CMAKE, "--build", build], scratch)
    return [build / "app"]


def rust_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Rust: the fbe crate by path, its code generated by fbe-build from build.rs (fbec by $FBEC)."""
    project = scratch / "rust"
    shutil.copytree(EXAMPLES / "rust", project)
    manifest = project / "Cargo.toml"
    manifest.write_text(manifest.read_text().replace("../../../runtime/", f"{REPO / 'runtime'}/"))
    shutil.copy(scratch / "shop.fbe", project)
    shutil.copy(REPO / "runtime" / "rust" / "Cargo.lock", project)   # the runtime's locked crates, offline
    env = {**os.environ, "FBEC": str(fbec), "CARGO_TARGET_DIR": str(project / "target")}
    for command in (["build"], ["clippy", "--all-targets", "--", "-D", "warnings"]):   # generated code clean too
        r = subprocess.run([CARGO, command[0], "--offline", "--quiet", *command[1:]], cwd=project, env=env,
                           capture_output=True, text=True, check=False)
        assert r.returncode == 0, f"cargo {' '.join(command)} of the Rust user crate:\n{r.stderr}"
    return [project / "target" / "debug" / "app"]


def csharp_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """C#: Fbe.dll by the runtime's Makefile (make -C runtime/csharp OUT=...), the user's program
    compiled against it with mcs beside the code of fbec --csharp."""
    project = scratch / "csharp"
    shutil.copytree(EXAMPLES / "csharp", project)
    run(["make", "-s", "-C", REPO / "runtime" / "csharp", f"OUT={project}"], scratch)
    run([fbec, "--csharp", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    run(["mcs", "-nologo", "-warnaserror", "-out:app.exe", "-r:Fbe.dll", "-r:System.Numerics.dll",
         "App.cs", *sorted(p.relative_to(project) for p in (project / "gen").glob("*.cs"))], project)
    return ["mono", project / "app.exe"]


def ruby_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Ruby: gem build of a copy of runtime/ruby, gem install into the user's own GEM_HOME, the
    code of fbec --ruby required beside the program."""
    source = scratch / "runtime-ruby"
    shutil.copytree(REPO / "runtime" / "ruby", source)
    run(["gem", "build", "fbe.gemspec"], source)
    gems = scratch / "gems"
    run(["gem", "install", "--local", "--no-document", "--install-dir", gems, *sorted(source.glob("fbe-*.gem"))],
        source)
    project = scratch / "ruby"
    shutil.copytree(EXAMPLES / "ruby", project)
    run([fbec, "--ruby", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    return ["env", f"GEM_HOME={gems}", f"GEM_PATH={gems}", "ruby", project / "app.rb"]


BUILDS = {
    "cpp": cpp_program,
    "csharp": csharp_program,
    "go": go_program,
    "java": java_program,
    "js-path": js_path_program,
    "kotlin": kotlin_program,
    "ruby": ruby_program,
    "rust": rust_program,
    "ts-tarball": ts_tarball_program,
}


@pytest.fixture(scope="module")
def program(scratch: Path, fbec: Path) -> Callable[[str], list[str | Path]]:
    """The command of a language's user program, its project built on first use."""
    built: dict[str, list[str | Path]] = {}

    def get(language: str) -> list[str | Path]:
        if language not in built:
            built[language] = BUILDS[language](scratch, fbec)
        return built[language]

    return get


def python_roundtrip(scratch: Path, python_user: Path, data: Path, out: Path) -> bytes:
    run([python_user / "bin" / "python", scratch / "python" / "app.py", "roundtrip", data, out], scratch)
    return out.read_bytes()


def test_python_reads_its_own_bytes_back(scratch: Path, python_user: Path, written: bytes) -> None:
    assert python_roundtrip(scratch, python_user, scratch / "python.bin", scratch / "python-back.bin") == written


def test_fbec_decode_and_encode_from_the_wheel(scratch: Path, fbec: Path, written: bytes) -> None:
    """The console script's tools need nothing the wheel does not declare."""
    text = run([fbec, "decode", "-i", scratch / "shop.fbe", "-t", "shop.Order", scratch / "python.bin"], scratch)
    assert '"sku":"A-1"' in text
    (scratch / "order.json").write_text(text)
    out = scratch / "encoded.bin"
    run([fbec, "encode", "-i", scratch / "shop.fbe", "-t", "shop.Order", "-o", out, scratch / "order.json"], scratch)
    assert out.read_bytes() == written


# Languages that write a hash map in their own hash order: C++ (std::unordered_map, as the original),
# Rust (std's HashMap, whose order changes from run to run)
HASH_ORDER = {"cpp", "rust"}
# Languages whose map type keeps no order: Go holds the map in a Go map and writes its keys sorted
SORTED_KEYS = {"go"}


def decoded(scratch: Path, fbec: Path, data: Path) -> Any:
    """The value of a shop.Order file as `fbec decode` gives it (JSON: objects compare in any order)."""
    return json.loads(run([fbec, "decode", "-i", scratch / "shop.fbe", "-t", "shop.Order", data], scratch))


@pytest.mark.parametrize("language", sorted(BUILDS))
def test_writes_what_python_writes(
    scratch: Path, program: Callable[[str], list[str | Path]], fbec: Path, written: bytes, language: str
) -> None:
    out = scratch / f"{language}-written.bin"
    run([*program(language), "write", out], scratch)
    if language in HASH_ORDER:
        assert decoded(scratch, fbec, out) == decoded(scratch, fbec, scratch / "python.bin"), (
            f"{language} wrote another value than Python")
        assert len(out.read_bytes()) == len(written)
    else:
        assert out.read_bytes() == written, f"{language} wrote the sample value in other bytes than Python"


@pytest.mark.parametrize("language", sorted(BUILDS))
def test_reads_and_writes_back_identically(
    scratch: Path, program: Callable[[str], list[str | Path]], python_user: Path, fbec: Path, written: bytes,
    language: str,
) -> None:
    out = scratch / f"{language}.bin"
    run([*program(language), "roundtrip", scratch / "python.bin", out], scratch)
    back = out.read_bytes()
    if language in HASH_ORDER:
        assert decoded(scratch, fbec, out) == decoded(scratch, fbec, scratch / "python.bin"), (
            f"{language} wrote another value than it read")
    else:
        assert back == written, f"{language} wrote other bytes than it read"
    # and Python reads what that language wrote back, and writes it back identically
    assert python_roundtrip(scratch, python_user, out, scratch / f"{language}-python.bin") == back


@pytest.fixture(scope="module")
def cpp_written(scratch: Path, program: Callable[[str], list[str | Path]]) -> Path:
    """The sample value, written by the C++ program (its map in std::unordered_map's order)."""
    out = scratch / "cpp-sample.bin"
    run([*program("cpp"), "write", out], scratch)
    return out


@pytest.mark.parametrize("language", ["python", *sorted(set(BUILDS) - {"cpp"})])
def test_reads_what_cpp_writes_and_writes_it_back(
    scratch: Path, program: Callable[[str], list[str | Path]], python_user: Path, fbec: Path, cpp_written: Path,
    language: str,
) -> None:
    """Every other language reads the value C++ wrote and writes it back: the same bytes, the map's
    entries in the order C++ wrote them, but where the language keeps no order (the same value)."""
    out = scratch / f"cpp-{language}.bin"
    if language == "python":
        python_roundtrip(scratch, python_user, cpp_written, out)
    else:
        run([*program(language), "roundtrip", cpp_written, out], scratch)
    if language in SORTED_KEYS | HASH_ORDER:
        assert decoded(scratch, fbec, out) == decoded(scratch, fbec, cpp_written), (
            f"{language} wrote another value than C++ wrote")
    else:
        assert out.read_bytes() == cpp_written.read_bytes(), f"{language} wrote other bytes than C++ wrote"


@pytest.mark.parametrize("client", ["python", "js-path", "rust"])
def test_protocol_over_a_socket(
    scratch: Path, program: Callable[[str], list[str | Path]], python_user: Path, fbec: Path, written: bytes,
    client: str,
) -> None:
    """The Go program serves on 127.0.0.1; the client program sends it the Order Python wrote, as a
    frame of fbec --proto's protocol, and writes the Order the server sends back."""
    connect: list[str | Path] = (
        [python_user / "bin" / "python", scratch / "python" / "app.py"] if client == "python" else program(client))
    server = subprocess.Popen([str(a) for a in [*program("go"), "serve"]], cwd=scratch, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = scratch / f"socket-{client}.bin"
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith("listening on "), f"the Go server said {line!r}"
        address = line.split()[-1]
        run([*connect, "connect", address, scratch / "python.bin", out], scratch)
        _, errors = server.communicate(timeout=30)
        assert server.returncode == 0, f"the Go server exited {server.returncode}: {errors}"
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    if client in HASH_ORDER:
        assert decoded(scratch, fbec, out) == decoded(scratch, fbec, scratch / "python.bin"), (
            "the Order that came back over the socket is not the one sent")
    else:
        assert out.read_bytes() == written, "the Order that came back over the socket is not the one sent"


# The Kafka serdes (docs/kafka.md), each installed as its section says, in a project of
# examples/packages/kafka-<language>: a program that serializes the Order Python wrote through the
# serde (the record's value and its fbe header written to files) and deserializes a value and a
# header given to it, without a broker.


@pytest.fixture(scope="module")
def kafka_schema(scratch: Path, fbec: Path) -> str:
    """The line `fbec fingerprint` prints for the test's schema: what a serde is made of."""
    return run([fbec, "fingerprint", scratch / "shop.fbe"], scratch).strip()


def kafka_python_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Python: fbe.kafka from the venv of `pip install '<repo>[kafka]'`, the code of fbec --python."""
    project = scratch / "kafka-python"
    shutil.copytree(EXAMPLES / "kafka-python", project)
    run([fbec, "--python", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    return [fbec.parent / "python", project / "app.py"]


def kafka_go_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Go: the fbekafka module and the runtime it needs, both required and replaced by the checkout's
    folders (a dependency's own replace does not apply to the user's module), fbec --go --final."""
    project = scratch / "kafka-go"
    shutil.copytree(EXAMPLES / "kafka-go", project)
    run([fbec, "--go", "--final", "-q", "-i", scratch / "shop.fbe", "-o", project / "gen"], scratch)
    run([GO, "mod", "init", "example.com/app"], project)
    for module, folder in (("github.com/fbe-toolkit/fbe/runtime/go", "go"),
                           ("github.com/fbe-toolkit/fbe/runtime/kafka/go", "kafka/go")):
        run([GO, "mod", "edit", f"-require={module}@v0.0.0", f"-replace={module}={REPO / 'runtime' / folder}"], project)
    run([GO, "mod", "tidy"], project)
    run([GO, "vet", "./..."], project)
    run([GO, "build", "-o", "app", "."], project)
    return [project / "app"]


@functools.cache
def kafka_java_installed(scratch: Path) -> None:
    """`mvn install` of runtime/java, then of a copy of runtime/kafka/java without compiling its tests
    (they need the trade model generated and a broker)."""
    java_runtime_installed(scratch)
    copy = scratch / "runtime-kafka-java"
    shutil.copytree(REPO / "runtime" / "kafka" / "java", copy, ignore=shutil.ignore_patterns("target"))
    run([MVN, "-q", "-B", "-Dmaven.test.skip=true", "install"], copy)


def kafka_java_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Java: fbe-kafka installed, then the sample pom depending on it, the code of fbec --java."""
    kafka_java_installed(scratch)
    return maven_program(scratch, fbec, "java", "app.Main", "kafka-java")


def kafka_kotlin_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """Kotlin: the same fbe-kafka, a pom compiling through kotlin-maven-plugin the code of fbec
    --kotlin and a program calling the Java serde as it is, its schema FbeSchema.of(Fbe::class.java)."""
    kafka_java_installed(scratch)
    return maven_program(scratch, fbec, "kotlin", "app.MainKt", "kafka-kotlin")


def kafka_ts_program(scratch: Path, fbec: Path) -> list[str | Path]:
    """TypeScript: `npm ci` and `npm pack` of runtime/kafka/js (a copy beside a copy of runtime/js, its
    devDependency `file:../../js`), the tarball installed with @fbe-toolkit/fbe's and the peer kafkajs,
    the code of fbec --typescript --final through the user's tsc --strict."""
    runtime = fresh_js_runtime(scratch)
    source = scratch / "fbe-src" / "runtime" / "kafka" / "js"
    ignore = shutil.ignore_patterns("node_modules", "dist", "build-test", "gen")
    shutil.copytree(REPO / "runtime" / "kafka" / "js", source, ignore=ignore)
    (source.parents[1] / "js").symlink_to(runtime)
    run([NPM, "ci", "--no-audit", "--no-fund"], source)
    tarball = npm_packed(scratch, source)
    lock = json.loads((source / "package-lock.json").read_text())["packages"]
    kafkajs, *dev = [f"{name}@{lock[f'node_modules/{name}']['version']}"
                     for name in ("kafkajs", "typescript", "@types/node")]
    project = js_project(scratch, "kafka-ts", npm_packed(scratch, runtime), dev)
    run([NPM, "install", "--no-audit", "--no-fund", tarball, kafkajs], project)
    shutil.copytree(EXAMPLES / "kafka-ts", project, dirs_exist_ok=True)
    run([fbec, "--typescript", "--final", "-q", "-i", scratch / "shop.fbe", "-o", project / "src" / "gen"], scratch)
    run([NODE, project / "node_modules" / "typescript" / "bin" / "tsc", "-p", project / "tsconfig.json"], project)
    return [NODE, project / "dist" / "main.js"]


KAFKA_BUILDS = {
    "go": kafka_go_program,
    "java": kafka_java_program,
    "kotlin": kafka_kotlin_program,
    "python": kafka_python_program,
    "ts": kafka_ts_program,
}


@pytest.fixture(scope="module")
def kafka_program(scratch: Path, fbec: Path) -> Callable[[str], list[str | Path]]:
    """The command of a language's Kafka user program, its project built on first use."""
    built: dict[str, list[str | Path]] = {}

    def get(language: str) -> list[str | Path]:
        if language not in built:
            built[language] = KAFKA_BUILDS[language](scratch, fbec)
        return built[language]

    return get


def kafka_record(scratch: Path, command: list[str | Path], schema: str, language: str) -> tuple[Path, Path]:
    """The value and the fbe header a language's serializer makes of the Order Python wrote."""
    value, header = scratch / f"kafka-{language}.value", scratch / f"kafka-{language}.header"
    run([*command, "write", schema, scratch / "python.bin", value, header], scratch)
    return value, header


@pytest.mark.parametrize("language", sorted(KAFKA_BUILDS))
def test_kafka_serializer_writes_the_message_bytes_and_the_header(
    scratch: Path, kafka_program: Callable[[str], list[str | Path]], fbec: Path, kafka_schema: str, written: bytes,
    language: str,
) -> None:
    """The record's value is exactly the FBE bytes of the message; its fbe header is the layout of
    docs/kafka.md: layout 1, model 0 (versioned), the fingerprint's 32 bytes, "PACKAGE VERSION"."""
    value, header = kafka_record(scratch, kafka_program(language), kafka_schema, language)
    assert value.read_bytes() == written, f"the {language} serializer's value is not the message's FBE bytes"
    package, version, fingerprint = kafka_schema.split()
    assert header.read_bytes() == bytes((1, 0)) + bytes.fromhex(fingerprint) + f"{package} {version}".encode(), (
        f"the {language} serializer's fbe header is not the layout of docs/kafka.md")


@pytest.mark.parametrize(("writer", "reader"), [(w, r) for w in sorted(KAFKA_BUILDS) for r in sorted(KAFKA_BUILDS)])
def test_kafka_deserializer_reads_every_languages_record(
    scratch: Path, kafka_program: Callable[[str], list[str | Path]], kafka_schema: str, written: bytes,
    writer: str, reader: str,
) -> None:
    """A record one language's serializer made, read through another's deserializer (its gate
    passed): the Order it gets is written back in the same bytes."""
    value, header = kafka_record(scratch, kafka_program(writer), kafka_schema, f"{writer}-for-{reader}")
    out = scratch / f"kafka-{writer}-{reader}.bin"
    run([*kafka_program(reader), "read", kafka_schema, value, header, out], scratch)
    assert out.read_bytes() == written


@pytest.mark.parametrize("language", sorted(KAFKA_BUILDS))
def test_kafka_deserializer_refuses_a_foreign_header(
    scratch: Path, kafka_program: Callable[[str], list[str | Path]], kafka_schema: str, written: bytes,
    language: str,
) -> None:
    """A record whose header names another fingerprint of the same package is refused, naming both
    schemas, and so is a record without a valid header; nothing is written."""
    package, version, fingerprint = kafka_schema.split()
    name, other = f"{package} {version}", "ab" * 32
    value = scratch / "python.bin"
    both = f"a record written with {name} (versioned, fingerprint {other}) cannot be read by {name} (versioned, "
    cases = {
        "foreign": (bytes((1, 0)) + bytes.fromhex(other) + name.encode(), f"{both}fingerprint {fingerprint})"),
        "final": (bytes((1, 1)) + bytes.fromhex(fingerprint) + name.encode(), "another binary model"),
        "empty": (b"", "header fbe is empty"),
    }
    for name, (header_bytes, reason) in cases.items():
        header, out = scratch / f"kafka-{name}.header", scratch / f"kafka-{language}-{name}.bin"
        header.write_bytes(header_bytes)
        r = subprocess.run([str(a) for a in [*kafka_program(language), "read", kafka_schema, value, header, out]],
                           cwd=scratch, capture_output=True, text=True, check=False)
        assert r.returncode == 1, f"{language} read a record with the {name} header: {r.stdout}{r.stderr}"
        assert reason in r.stderr, f"{language}'s refusal of the {name} header: {r.stderr}"
        assert not out.exists()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
