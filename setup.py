"""setuptools' part of ``pip install .`` (the metadata is pyproject.toml's): where a Rust toolchain
is found, maturin builds the native core ``fbe_native`` (runtime/python-native) into the wheel,
which is then a platform wheel; else the wheel is pure Python (tools/packaging/fbe_build.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools" / "packaging"))
from fbe_build import cargo  # the backend's own test (tools/packaging, on the path just above)

ROOT = Path(__file__).resolve().parent
CRATE = ROOT / "runtime" / "python-native" / "Cargo.toml"
LOCAL_TAG = ["--compatibility", "linux"] if sys.platform.startswith("linux") else []
"""A wheel for this machine: no manylinux audit (only the module is taken from maturin's wheel)."""


def build_core(into: Path, target: Path) -> None:
    """Has maturin build the crate for this interpreter and puts its extension module in ``into``."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [shutil.which("maturin") or "maturin", "build", "--release", "--locked", "--quiet", "-m", str(CRATE),
             "-i", sys.executable, *LOCAL_TAG, "--target-dir", str(target), "-o", out],
            check=True,
            env={**os.environ, "CARGO": str(cargo())},
        )
        (wheel,) = Path(out).glob("*.whl")
        with zipfile.ZipFile(wheel) as z:
            (module,) = [n for n in z.namelist() if Path(n).name.startswith("fbe_native.") and
                         Path(n).suffix in (".so", ".pyd")]
            (into / Path(module).name).write_bytes(z.read(module))


class BuildWithCore(build_py):
    """build_py, and the native core beside the packages when it is built."""

    def run(self) -> None:
        super().run()
        for stale in Path(self.build_lib).glob("fbe_native*"):  # an earlier build's, in place
            stale.unlink()
        if cargo():
            base = Path(self.get_finalized_command("build").build_base)
            build_core(Path(self.build_lib), base.resolve() / "python-native" / "wheel-target")


class CoreDistribution(Distribution):
    """A platform wheel when it holds the core."""

    def has_ext_modules(self) -> bool:
        return cargo() is not None


setup(cmdclass={"build_py": BuildWithCore}, distclass=CoreDistribution)
