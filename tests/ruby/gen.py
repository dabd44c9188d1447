"""`fbec --ruby` output of every schema (the project's and ../shared's) for tests/ruby: one folder
per group of schemas under build/ruby/gen (`python tests/ruby/gen.py [FOLDER]`), each holding the
files of packages that load each other with require_relative. ../shared's schemas are left out
when it is absent (the tests that need them say so), never under CI=true. FOLDER/hostile/vectors
gets the hostile-names corpus's value as golden vectors of the reference codec (tests/names)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(REPO / "compiler"))
sys.path.insert(0, str(REPO / "runtime" / "python"))
sys.path.insert(0, str(REPO / "tests" / "names"))

from fbec.cli import main as fbec_main
from hostile import write_vectors


def groups() -> dict[str, list[Path]]:
    """The schemas by folder of generated files: packages of one group never share a name."""
    project = sorted((REPO / "schemas").rglob("*.fbe"))
    out = {"project": [p for p in project if p.name != "trade.fbe"], "trade": [REPO / "schemas" / "trade.fbe"]}
    if (SHARED / "schemas").is_dir():
        out["shared"] = sorted((SHARED / "schemas").glob("*.fbe"))
    elif os.environ.get("CI") == "true":
        raise SystemExit(f"{SHARED}/schemas is missing (CI=true)")
    return out


def main(folder: Path) -> None:
    for group, files in groups().items():
        for f in files:
            status = fbec_main(["-q", f"--input={f}", f"--output={folder / group}", "--ruby", "--final"])
            if status != 0:
                raise SystemExit(f"fbec --ruby failed on {f}")
    write_vectors(folder / "hostile")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "build" / "ruby" / "gen")
