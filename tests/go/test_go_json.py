"""The Go runtime's JSON numbers against the Python runtime's (runtime/python/fbe/jsonfmt.py), on
random values: the text of doubles and floats (RapidJSON master's Grisu2 digits, docs/format.md
8.4), of double and float map keys, and decimal text read and written back. Python writes the
cases and its answers; runtime/go's TestJSONAgainstPython computes its own and compares. Run by
`make test-go`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}

sys.path.insert(0, str(REPO / "tools"))
from json_numbers import number_cases


def test_go_json_numbers_match_python(tmp_path: Path) -> None:
    assert Path(GO).exists(), f"no go command at {GO} (set GO)"
    path = tmp_path / "cases.tsv"
    lines = number_cases(seed=15, doubles=200_000, floats=50_000, keys=20_000, decimals=20_000)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run([GO, "test", "-count=1", "-v", "-run", "TestJSONAgainstPython", "./fbe"],
                       cwd=REPO / "runtime" / "go", env={**GO_ENV, "FBE_JSON_CASES": str(path)},
                       capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    assert f"{len(lines)} cases compared with Python, 0 differ" in r.stdout, r.stdout[-2000:]
