"""Everything we write in Python passes `ruff check` (the whole checkout but the golden output)
and the compiler (compiler/) and the runtime (runtime/python) `mypy --strict` too. The generated
Python is checked by tests/python/test_generated_code.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO


def _need(module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        pytest.fail(f"{module} is not installed: make venv installs tools/requirements/test.txt")


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, check=False,
                          env=dict(os.environ, **env))


def test_ruff_reports_nothing() -> None:
    _need("ruff")
    # tests/golden/<target>/ holds generated code, which tests/python/test_generated_code.py lints as generated
    r = _run(["ruff", "check", "--no-cache", "--exclude", "tests/golden/*/*", "."])
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_reports_nothing(tmp_path: Path) -> None:
    _need("mypy")
    # a fresh cache each run: a cache shared with other checkouts has reported stale errors
    r = _run(["mypy", "--strict", f"--cache-dir={tmp_path}", "-p", "fbec", "-p", "fbe"],
             MYPYPATH=os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")]))
    assert r.returncode == 0, r.stdout + r.stderr
