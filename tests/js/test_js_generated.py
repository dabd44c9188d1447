"""The TypeScript target (fbec --typescript, issue 17) against runtime/js: the output for every
schema (the project's and ../shared's) typechecks with `tsc --strict`, and the generated code
reads every golden vector of ../shared in both binary models and writes it back byte for byte
(vectors.test.ts, under `node --test`). Run by `make test-js`, which installs runtime/js's dev
dependencies (npm ci) and builds it first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
RUNTIME = REPO / "runtime" / "js"
sys.path.insert(0, str(REPO / "tests" / "names"))

import hostile

TSC = RUNTIME / "node_modules" / ".bin" / "tsc"
NODE = os.environ.get("NODE") or shutil.which("node") or "node"

COMPILER_OPTIONS = {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": True,
    "noImplicitOverride": True, "noUnusedLocals": True, "noFallthroughCasesInSwitch": True,
    "lib": ["ES2022", "DOM"], "types": [], "skipLibCheck": False,
}


def schema_files() -> list[Path]:
    """The original's schemas first (their imports resolve among them), then the project's."""
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    return shared + sorted((REPO / "schemas").rglob("*.fbe"))


def package_of(path: Path) -> str:
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["package"]:
            return words[1]
    raise AssertionError(f"{path}: no package line")


def folders(files: list[Path]) -> list[dict[str, Path]]:
    """The schemas spread over as few folders as their package names allow (trade.fbe and
    ../shared's proto.fbe are both package proto): each folder's packages import each other."""
    out: list[dict[str, Path]] = []
    for f in files:
        name = package_of(f)
        home = next((m for m in out if name not in m), None)
        if home is None:
            home = {}
            out.append(home)
        home[name] = f
    return out


def link_runtime(root: Path) -> None:
    """node_modules/@fbe-toolkit/fbe -> runtime/js (built: dist/), as an installed package."""
    assert (RUNTIME / "dist" / "index.js").is_file(), "runtime/js is not built (make test-js builds it)"
    scope = root / "node_modules" / "@fbe-toolkit"
    scope.mkdir(parents=True, exist_ok=True)
    (scope / "fbe").symlink_to(RUNTIME, target_is_directory=True)
    types = root / "node_modules" / "@types"
    types.mkdir(parents=True, exist_ok=True)
    (types / "node").symlink_to(RUNTIME / "node_modules" / "@types" / "node", target_is_directory=True)
    (root / "node_modules" / "undici-types").symlink_to(RUNTIME / "node_modules" / "undici-types",
                                                       target_is_directory=True)


def generate(files: list[Path], out: Path, capsys: pytest.CaptureFixture[str] | None = None,
             language: str = "typescript") -> None:
    """fbec --<language> --final --json --proto of each schema file into out (quietly)."""
    for f in files:
        args = ["-q", f"--input={f}", f"--output={out}", f"--{language}", "--final", "--json", "--proto"]
        assert fbec_main(args) == 0, (capsys.readouterr().err if capsys is not None else str(f))


def tsc(root: Path, options: dict[str, object], include: list[str]) -> None:
    (root / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "include": include}, indent=1))
    r = subprocess.run([str(TSC), "-p", str(root / "tsconfig.json")], cwd=root, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0, f"tsc:\n{r.stdout[-8000:]}{r.stderr}"


def write_doubles(path: Path) -> None:
    """doubles.json for doubles.test.ts: 20,000 random bit patterns (fixed seed) and the hard cases
    of docs/format.md 8.4, with the texts Python's fbe.jsonfmt gives them."""
    import math
    import random
    import struct
    import sys
    sys.path.insert(0, str(REPO / "runtime" / "python"))
    from fbe import jsonfmt
    rng = random.Random(17)
    values = [1000.0, 1.23456, 1e-7, 0.1, 0.30000000000000004, 1e23, 5e-324, 1.7976931348623157e308, 0.0, -0.0,
              4.04925338542625e16, 123.45600128173828, 1e21, 1e22, 0.5, 0.0078125, float("nan"), float("inf"),
              -float("inf"), 3.4028234663852886e38, 1e-6, 123456789.12345679, 2.0 ** 53, 2.0 ** 63]
    values += [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(16000)]
    values += [struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0] for _ in range(4000)]
    values += [rng.uniform(-1e6, 1e6) for _ in range(2000)]
    out = []
    for v in values:
        bits = struct.unpack("<Q", struct.pack("<d", v))[0]
        try:
            as_float = struct.unpack("<f", struct.pack("<f", v))[0]
        except OverflowError:
            as_float = None
        is_float = as_float is not None and (as_float == v or math.isnan(v))
        out.append({"bits": f"{bits:016x}", "double": jsonfmt.json_double(v), "key": jsonfmt.json_double_key(v),
                    "floatKey": jsonfmt.json_float_key(v) if is_float else None})
    path.write_text(json.dumps(out))


def registry(cases: list[dict[str, object]]) -> str:
    """registry.ts: every MANIFEST type by its qualified name, for vectors.test.ts."""
    types = sorted({(str(c["package"]), str(c["type"])) for c in cases})
    lines = [f'import * as {p} from "./{p}.js";' for p in sorted({p for p, _ in types})]
    lines += ["", 'import type * as fbe from "@fbe-toolkit/fbe";', "",
              "export interface Value {", "  toFbe(w?: fbe.Writer): Uint8Array;",
              "  toFinal(w?: fbe.Writer): Uint8Array;", "  toJson(): string;", "  toString(): string;", "}",
              "export interface Codec {", "  fromFbe(data: Uint8Array): Value;",
              "  fromFinal(data: Uint8Array): Value;",
              "  verifyFbe(data: Uint8Array): fbe.DecodeError | undefined;",
              "  verifyFinal(data: Uint8Array): fbe.DecodeError | undefined;",
              "  fromJson(text: string | Uint8Array): Value;", "}", "",
              "export const registry: Record<string, Codec> = {"]
    lines += [f'  "{p}.{t}": {p}.{t},' for p, t in types]
    lines += ["};", ""]
    return "\n".join(lines)


NAMES = """
package names
enum Kind { type; default; constructor; undefined; __proto__; }
flags Bits : byte { map = 1; chan = 2; all = map | chan; }
struct Weird
{
    [key] int32 type;
    string function;
    Kind constructor;
    Bits toString;
    bool? import;
    int32 v;
    int32 w;
    int32 r;
    int32 b;
    int32 n;
    int32 e;
    double fbe;
    int32 prototype;
    int32 slot;
    int32 data;
    int32 limits;
    Kind[] toFbe;
    int32<string> fbeKey;
    bytes<bytes> raw;
    int64 __proto__;
    int32 toJson;
    int32 toJson_;
}
struct constructor { int32 y; }
struct Map { int32 size; }
struct Secret : Map { [hidden] string password; Kind constructor; }
struct Object { constructor x; int32[2] fixed; string<int32> byInt; }
message Writer { Weird lambda; }
struct Node { int32 id; string label; Node[] children; Node? next; }
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every schema's --typescript output (folders g0, g1...: the schemas in as few folders as their
    package names allow; ../shared's first), its --javascript declarations (j0, j1...), the names
    schema (n0), tests/js/keys.fbe (k0) and schemas/tests/hostile.fbe (l0) with the node tests, compiled
    by one `tsc --strict` run into out/."""
    root = tmp_path_factory.mktemp("js")
    groups = folders(schema_files())
    assert groups, "no schemas found"
    for i, group in enumerate(groups):
        generate(list(group.values()), root / f"g{i}")
        generate(list(group.values()), root / f"j{i}", language="javascript")
    (root / "names.fbe").write_text(NAMES)
    generate([root / "names.fbe"], root / "n0")
    shutil.copy(REPO / "tests" / "js" / "names.test.ts", root / "n0")
    generate([REPO / "tests" / "js" / "keys.fbe"], root / "k0")
    for folder, language in (("h0", "typescript"), ("h1", "javascript")):
        hostile.generate(root / folder, f"--{language}", "--final", "--json", "--proto")
        shutil.copy(REPO / "tests" / "js" / "hostile_names.test.ts", root / folder)
    shutil.copy(REPO / "tests" / "js" / "keys.test.ts", root / "k0")
    for folder, language in (("e0", "typescript"), ("e1", "javascript")):
        generate([REPO / "tests" / "js" / "errors.fbe"], root / folder, language=language)
        shutil.copy(REPO / "tests" / "js" / "errors.test.ts", root / folder)
    generate([REPO / "schemas" / "tests" / "hostile.fbe"], root / "l0")
    shutil.copy(REPO / "tests" / "js" / "hostile.test.ts", root / "l0")
    manifest = SHARED / "vectors" / "MANIFEST.json"
    write_doubles(root / "g0" / "doubles.json")
    shutil.copy(REPO / "tests" / "js" / "doubles.test.ts", root / "g0")
    if manifest.is_file():       # ../shared's schemas are the first folder
        for folder in ("g0", "j0"):
            (root / folder / "registry.ts").write_text(registry(json.loads(manifest.read_text())["cases"]))
            shutil.copy(REPO / "tests" / "js" / "vectors.test.ts", root / folder)
    (root / "package.json").write_text('{"type": "module"}\n')
    link_runtime(root)
    tsc(root, {**COMPILER_OPTIONS, "outDir": "out", "rootDir": "."},
        ["g*/*.ts", "j*/*.ts", "n0/*.ts", "k0/*.ts", "h*/*.ts", "l0/*.ts", "e*/*.ts"])
    for folder in [*root.glob("j*"), root / "h1", root / "e1"]:          # the JavaScript runs as generated
        for js in folder.glob("*.js"):
            shutil.copy(js, root / "out" / folder.name)
    shutil.copy(root / "g0" / "doubles.json", root / "out" / "g0")
    return root


def test_generated_code_typechecks_and_reads_the_golden_vectors(compiled: Path) -> None:
    """The --typescript output for every schema and the --javascript declarations through `tsc
    --strict` (the fixture); doubles.test.ts; then, with ../shared, tests/js/vectors.test.ts on both:
    every MANIFEST case in both models read and written back by the generated code, its JSON and
    text, and (TypeScript) every truncation and a corruption of every byte."""
    r = subprocess.run([NODE, "--test", "out/g0/doubles.test.js"], cwd=compiled, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0, r.stdout[-8000:] + r.stderr
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.is_file():
        pytest.skip(f"golden vectors not found at {manifest} (set SHARED): typechecked only")
    for folder, quick in (("g0", ""), ("j0", "1")):
        r = subprocess.run([NODE, "--test", f"out/{folder}/vectors.test.js"], cwd=compiled, capture_output=True,
                           text=True, check=False,
                           env={**os.environ, "SHARED": str(SHARED), "VECTORS_QUICK": quick})
        assert r.returncode == 0, folder + ":\n" + r.stdout[-8000:] + r.stderr
        assert "vectors read and written back" in r.stdout, r.stdout[-3000:]
        print(folder, next(line for line in r.stdout.splitlines() if "vectors read and written back" in line))


def test_reserved_names_depth_and_errors(compiled: Path) -> None:
    """tests/js/names.test.ts on a schema of JavaScript's reserved words and the generated code's own
    names: it compiles (tsc --strict) and round-trips; the depth limit (128 read, 129 refused by the
    writers, a lower limit by the readers with the path), error paths and offsets, duplicate keys,
    the JSON rules."""
    r = subprocess.run([NODE, "--test", "out/n0/names.test.js"], cwd=compiled, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0, r.stdout[-8000:] + r.stderr
    assert "# pass 5" in r.stdout, r.stdout[-3000:]


def test_hostile_names(compiled: Path) -> None:
    """tests/js/hostile_names.test.ts on the corpus of hostile names (schemas/tests/hostile_names.fbe),
    --typescript (h0) and --javascript (h1): it compiles (tsc --strict), and its value round-trips
    through JSON and both models with the bytes of the reference codec (tests/names/hostile.py)."""
    files = hostile.write_vectors(compiled / "hostile")
    expected = {"json": files["json"].read_text(), "versioned": files["versioned"].read_bytes().hex(),
                "final": files["final"].read_bytes().hex(), "text": files["text"].read_text()}
    for folder in ("h0", "h1"):
        (compiled / "out" / folder / "expected.json").write_text(json.dumps(expected))
        r = subprocess.run([NODE, "--test", f"out/{folder}/hostile_names.test.js"], cwd=compiled, capture_output=True,
                           text=True, check=False)
        assert r.returncode == 0, folder + ":\n" + r.stdout[-8000:] + r.stderr
        assert "# pass 1" in r.stdout, r.stdout[-3000:]


def test_duplicate_keys(compiled: Path) -> None:
    """tests/js/keys.test.ts on tests/js/keys.fbe (docs/limits.md 4): every writer refuses a set or map
    holding a key twice under the readers' comparison (arrays of structs, bytes, uuids and decimals by
    value; floats as written), naming the path and the two indexes, and writes distinct keys in
    ascending order; every reader refuses such data; a JSON set is charged for its elements before one
    is read (docs/limits.md 3)."""
    r = subprocess.run([NODE, "--test", "out/k0/keys.test.js"], cwd=compiled, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0, r.stdout[-8000:] + r.stderr
    assert "# pass 6" in r.stdout, r.stdout[-3000:]


def test_no_default_is_made_before_the_budget_pays_for_it(compiled: Path) -> None:
    """tests/js/hostile.test.ts on schemas/tests/hostile.fbe (docs/limits.md 3, issue 21 item 3): an
    older writer's body asking for a 4 MB default (a Wide, a Holder of one, a vector of them) is refused
    by the budget before any default is made, in the versioned and final models and JSON, with verify's
    error; a budget that pays reads them, each value into the default its parent made (one Wide's default
    per Holder read, not two)."""
    r = subprocess.run([NODE, "--test", "out/l0/hostile.test.js"], cwd=compiled, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 0, r.stdout[-8000:] + r.stderr
    assert "# pass 4" in r.stdout, r.stdout[-3000:]


def test_writer_errors_name_the_field_and_the_type_expected(compiled: Path) -> None:
    """tests/js/errors.test.ts on tests/js/errors.fbe, --typescript (e0) and --javascript (e1): every
    writer's error names the root type, the field path and the type the field expects (docs/limits.md 8)."""
    for folder in ("e0", "e1"):
        r = subprocess.run([NODE, "--test", f"out/{folder}/errors.test.js"], cwd=compiled, capture_output=True,
                           text=True, check=False)
        assert r.returncode == 0, folder + ":\n" + r.stdout[-8000:] + r.stderr
        assert "# pass 3" in r.stdout, r.stdout[-3000:]
