"""`fbec --ruby` output of every schema (the project's and ../shared's) for tests/ruby: one folder
per group of schemas under build/ruby/gen (`python tests/ruby/gen.py [FOLDER]`), each holding the
files of packages that load each other with require_relative. ../shared's schemas are left out
when it is absent (the tests that need them say so), never under CI=true. FOLDER/hostile/vectors
gets the hostile-names corpus's value as golden vectors of the reference codec (tests/names)."""

from __future__ import annotations

import json
import os
import random
import struct
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(REPO / "compiler"))
sys.path.insert(0, str(REPO / "runtime" / "python"))
sys.path.insert(0, str(REPO / "tests" / "names"))

from fbe.jsonfmt import json_double
from fbec.cli import main as fbec_main
from hostile import write_vectors


def groups() -> dict[str, list[Path]]:
    """The schemas by folder of generated files: packages of one group never share a name."""
    project = sorted((REPO / "schemas").rglob("*.fbe"))
    out = {"project": [p for p in project if p.name != "trade.fbe"], "trade": [REPO / "schemas" / "trade.fbe"],
           "ruby_tests": sorted(Path(__file__).parent.glob("*.fbe"))}
    if (SHARED / "schemas").is_dir():
        out["shared"] = sorted((SHARED / "schemas").glob("*.fbe"))
    elif os.environ.get("CI") == "true":
        raise SystemExit(f"{SHARED}/schemas is missing (CI=true)")
    return out


def main(folder: Path) -> None:
    for group, files in groups().items():
        for f in files:
            status = fbec_main(["-q", f"--input={f}", f"--output={folder / group}",
                                "--ruby", "--final", "--json", "--proto"])
            if status != 0:
                raise SystemExit(f"fbec --ruby failed on {f}")
    write_vectors(folder / "hostile")
    write_doubles(folder / "doubles.json")


def write_doubles(path: Path, count: int = 20000) -> None:
    """Doubles and the JSON text the Python runtime writes for each (RapidJSON master's digits,
    fbe.jsonfmt): random bit patterns of a fixed seed, random 17-digit decimals, floats widened
    to double, decimals of 1 to 15 digits and whole numbers below 2^53 (the Ruby writer's
    Float#to_s path), as [bits in hex, text] pairs."""
    rng = random.Random(28)
    values = [struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(count)]
    values += [float(f"{rng.random():.17g}") * 10.0 ** rng.randint(-30, 30) for _ in range(count)]
    values += [struct.unpack("<f", struct.pack("<f", rng.uniform(-1e6, 1e6)))[0] for _ in range(count // 4)]
    values += [float(f"{rng.randrange(10 ** rng.randint(1, 15))}e{rng.randint(-320, 300)}") for _ in range(count // 2)]
    values += [float(rng.randrange(1 << rng.randint(1, 53))) for _ in range(count // 4)]
    pairs = [[struct.pack("<d", v).hex(), json_double(v)] for v in values]
    path.write_text(json.dumps(pairs))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "build" / "ruby" / "gen")
