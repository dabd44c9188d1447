"""Fixtures of the Python suite: code generated at test time from ../shared and the repo schemas."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fbe_testlib import REPO, Builder, generate_into, load_modules, shared_dir

SHARED_PACKAGES = ["proto", "protoex", "test", "enums"]


@dataclass
class Generated:
    folder: Path
    schemas: dict[str, Any]
    mods: dict[str, Any]

    def builder(self, package: str) -> Builder:
        return Builder(self.schemas[package], self.mods)


@pytest.fixture(scope="session")
def shared() -> Path:
    s = shared_dir()
    if s is None:
        pytest.skip("reference files not found: set SHARED to the shared folder (default ../shared beside the repo)")
    return s


@pytest.fixture(scope="session")
def manifest(shared: Path) -> dict[str, Any]:
    return json.loads((shared / "vectors" / "MANIFEST.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def gen(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Generated:
    out = tmp_path_factory.mktemp("generated_shared")
    schemas = {n: generate_into(shared / "schemas" / f"{n}.fbe", out) for n in SHARED_PACKAGES}
    return Generated(out, schemas, load_modules(out, SHARED_PACKAGES))


@pytest.fixture(scope="session")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    """The repo's schema with every construct (and its import `market`)."""
    out = tmp_path_factory.mktemp("generated_everything")
    schema = generate_into(REPO / "schemas" / "tests" / "everything.fbe", out)
    return Generated(out, {"everything": schema, "market": schema}, load_modules(out, ["market", "everything"]))
