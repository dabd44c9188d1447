"""`fbec --rust` output of every schema (the project's and ../shared's) as the modules of one crate:
build/rust-gen for tests/rust (test_rust_generated.py), build/fuzz/rust for the fuzz targets
(fuzz/rust/build.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))


def groups() -> dict[str, list[Path]]:
    """The schemas as modules of one crate, each holding packages that import each other by
    sibling (`super::proto`): ../shared's, the project's, and trade.fbe, whose package proto is
    also ../shared's."""
    project = sorted((REPO / "schemas").rglob("*.fbe"))
    out = {"project": [p for p in project if p.name != "trade.fbe"], "trade": [REPO / "schemas" / "trade.fbe"],
           "rust_tests": sorted(Path(__file__).parent.glob("*.fbe")),
           "example": [REPO / "examples" / "cpp" / "tcp" / "rpc.fbe"]}
    if (SHARED / "schemas").is_dir():
        out["shared"] = sorted((SHARED / "schemas").glob("*.fbe"))
    elif os.environ.get("CI") == "true":
        raise AssertionError(f"{SHARED}/schemas is missing (CI=true)")
    return out


def generate_modules(folder: Path, schemas: dict[str, list[Path]], options: tuple[str, ...] = ()) -> list[str]:
    """Writes `folder/<group>.rs` and the group's modules under `folder/<group>/` for each group of
    schemas (fbec given `options` besides --rust --final --json --proto); returns the groups' names,
    sorted."""
    for group, files in schemas.items():
        for f in files:
            status = fbec_main(["-q", f"--input={f}", f"--output={folder / group}", "--rust", "--final", "--json",
                                "--proto", *options])
            assert status == 0, f"fbec --rust failed on {f}"
        modules = sorted(p.stem for p in (folder / group).glob("*.rs"))
        (folder / f"{group}.rs").write_text("".join(f"pub mod {m};\n" for m in modules))
    return sorted(schemas)


def sync(new: Path, old: Path, keep: set[str]) -> None:
    """Makes `old` hold the files of `new` (but the names in `keep` at its top), rewriting only the
    files whose bytes differ: cargo rebuilds only what changed."""
    old.mkdir(parents=True, exist_ok=True)
    for p in sorted(old.iterdir()):
        if p.name not in keep and not (new / p.name).exists():
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    for p in sorted(new.iterdir()):
        if p.name in keep:
            continue
        if p.is_dir():
            if (old / p.name).exists() and not (old / p.name).is_dir():
                (old / p.name).unlink()
            sync(p, old / p.name, set())
        elif not (old / p.name).is_file() or (old / p.name).read_bytes() != p.read_bytes():
            shutil.copy(p, old / p.name)
