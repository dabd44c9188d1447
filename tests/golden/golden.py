"""Golden generated output: what every target writes for every schema.

tests/golden/<target>/<schema>/... holds the checked-in output of fbec for
each target (every language with --final --json --proto, and the IR JSON of --ir; TARGETS below,
the table of README.md) and each schema: schemas/**/*.fbe as <schema> = its path below schemas/
without .fbe, and the original's ../shared/schemas/*.fbe as shared/<name>.
test_golden.py regenerates and compares; `make update-golden` (this file run
as a script) rewrites them. fbec runs from the schemas' root folder with a
relative input path, so no absolute path of this machine enters the output.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
SHARED_PREFIX = "shared"
if str(REPO / "compiler") not in sys.path:      # run as a script by `make update-golden`
    sys.path.insert(0, str(REPO / "compiler"))

from fbec.cli import main as fbec_main

# target name -> fbec options (besides --input and --output)
TARGETS: dict[str, list[str]] = {
    "cpp": ["--cpp", "--final", "--json", "--proto"],
    "python": ["--python", "--final", "--json", "--proto"],
    "ir": ["--ir"],
    "go": ["--go", "--final", "--json", "--proto"],
    "java": ["--java", "--final", "--json", "--proto"],
    "typescript": ["--typescript", "--final", "--json", "--proto"],
    "javascript": ["--javascript", "--final", "--json", "--proto"],
    "kotlin": ["--kotlin", "--final", "--json", "--proto"],
    "rust": ["--rust", "--final", "--json", "--proto"],
    "csharp": ["--csharp", "--final", "--json", "--proto"],
    "ruby": ["--ruby", "--final", "--json", "--proto"],
}


@dataclass(frozen=True)
class Schema:
    name: str          # folder below tests/golden/<target>/: "trade", "tests/market", "shared/proto"
    root: Path         # fbec runs here ...
    input: str         # ... on this relative path
    shared: bool       # from ../shared (absent on some checkouts)


def _schemas_below(root: Path, prefix: str, shared: bool) -> Iterator[Schema]:
    folder = root / "schemas"
    for path in sorted(folder.rglob("*.fbe")):
        rel = path.relative_to(folder).with_suffix("").as_posix()
        yield Schema(f"{prefix}/{rel}" if prefix else rel, root, path.relative_to(root).as_posix(), shared)


def project_schemas() -> list[Schema]:
    return list(_schemas_below(REPO, "", False))


def shared_schemas() -> list[Schema]:
    """The original's schemas; empty when ../shared is absent."""
    if not (SHARED / "schemas").is_dir():
        return []
    return list(_schemas_below(SHARED, SHARED_PREFIX, True))


def generate(target: str, schema: Schema, out_dir: Path) -> None:
    """Run fbec in-process as a user would: `cd root && fbec --input=schemas/x.fbe --output=out_dir ...`."""
    cwd = os.getcwd()
    os.chdir(schema.root)
    try:
        status = fbec_main(["-q", f"--input={schema.input}", f"--output={out_dir}", *TARGETS[target]])
    finally:
        os.chdir(cwd)
    if status != 0:
        raise RuntimeError(f"fbec failed ({status}) on {schema.input} for target {target}")


def files_below(folder: Path) -> dict[str, Path]:
    """Relative posix path -> file, for every file below folder."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def update() -> int:
    """Rewrite tests/golden/<target>/ from scratch (a schema's files that fbec no longer writes go too).

    Every target's output is written to a scratch folder first, and the golden files are replaced only
    when fbec succeeded on every schema: a generator that fails leaves them as they were.
    Without ../shared the shared/ golden files are kept as they are.
    """
    shared = shared_schemas()
    if not shared:
        print(f"update-golden: {SHARED}/schemas not found: the golden files under */{SHARED_PREFIX}/ are kept "
              "as they are (set SHARED to the shared folder to regenerate them)", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="golden-") as scratch:
        try:
            for target in TARGETS:
                for schema in project_schemas() + shared:
                    generate(target, schema, Path(scratch) / target / schema.name)
        except RuntimeError as e:
            print(f"update-golden: {e}; tests/golden is unchanged", file=sys.stderr)
            return 1
        for target in TARGETS:
            target_dir = GOLDEN / target
            if target_dir.is_dir():
                for child in target_dir.iterdir():
                    if child.name == SHARED_PREFIX and not shared:
                        continue
                    shutil.rmtree(child) if child.is_dir() else child.unlink()
            target_dir.mkdir(parents=True, exist_ok=True)
            for child in (Path(scratch) / target).iterdir():
                shutil.move(str(child), str(target_dir / child.name))
    count = sum(len(files_below(GOLDEN / t)) for t in TARGETS)
    print(f"update-golden: {count} files under {GOLDEN.relative_to(REPO)}/ for targets {', '.join(TARGETS)}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        print("usage: golden.py --update   (rewrite tests/golden/ from the current generators)", file=sys.stderr)
        sys.exit(2)
    sys.exit(update())
