"""The build backend of ``pip install .``: setuptools' own, plus the native core where it can be built.

Where a Rust toolchain is found (``CARGO``, else ``cargo`` on ``PATH``), the wheel also holds
``fbe_native``, the native core of ``runtime/python-native`` (docs/python.md, "Native core"): this
backend then asks for maturin as a build requirement, and ``setup.py`` has maturin build the crate
(``--locked``: the crates of ``runtime/python-native/Cargo.lock``) and puts the extension module
beside the packages ``fbe`` and ``fbec``. Without a toolchain, or with ``FBE_NATIVE_BUILD=0``, the
wheel is pure Python and the generated classes run their Python code.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # the hooks this backend does not change

MATURIN = "maturin>=1.16,<2"
"""The maturin the core is built with (the version the issue's prototype used and up)."""


def cargo() -> str | None:
    """The cargo command the core is built with, or None: the wheel is pure Python."""
    if os.environ.get("FBE_NATIVE_BUILD") == "0":
        return None
    command = os.environ.get("CARGO") or "cargo"
    return shutil.which(command)


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, and maturin when the core is built."""
    needs: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    return [*needs, MATURIN] if cargo() else needs
