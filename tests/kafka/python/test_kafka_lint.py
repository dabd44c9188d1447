"""The Kafka tests' own Python passes ruff and mypy --strict, as the rest of the project's does
(fbe.kafka itself is checked with the runtime by tests/compiler/test_lint.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MYPYPATH=os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")]))
    return subprocess.run([sys.executable, "-m", *args], cwd=HERE, capture_output=True, text=True, check=False,
                          env=env)


def test_ruff_reports_nothing() -> None:
    r = run("ruff", "check", "--no-cache", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_reports_nothing(tmp_path: Path) -> None:
    r = run("mypy", "--strict", "--follow-imports=silent", f"--cache-dir={tmp_path}", *sorted(
        str(p.name) for p in HERE.glob("*.py")))
    assert r.returncode == 0, r.stdout + r.stderr
