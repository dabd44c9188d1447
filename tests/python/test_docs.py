"""The Python code blocks of docs/python.md run as written (against code generated from schemas/trade.fbe)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from fbe_testlib import REPO, generate_into

DOC = REPO / "docs" / "python.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def _run(code: str, gen: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(gen), str(REPO / "runtime" / "python")]))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env,
                          cwd=gen.parent, check=False)


def test_quick_start_and_models(tmp_path: Path) -> None:
    gen = tmp_path / "gen"
    gen.mkdir()
    generate_into(REPO / "schemas" / "trade.fbe", gen)
    blocks = _blocks()
    quick = next(b for b in blocks if "account.to_fbe()" in b)
    models = next(b for b in blocks if "AccountModel(fbe.WriteBuffer())" in b)
    r = _run(quick + models, gen)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('Account(id=1,name="Test",state=initialized|calculated|good,')


def test_tcp_example(tmp_path: Path) -> None:
    gen = tmp_path / "gen"
    gen.mkdir()
    generate_into(REPO / "schemas" / "trade.fbe", gen)
    block = next(b for b in _blocks() if "asyncio.start_server" in b)
    r = _run(block, gen)
    assert r.returncode == 0, r.stderr
    assert "server got OrderMessage(body=Order(id=1" in r.stdout and "client got OrderMessage" in r.stdout
    assert r.stderr == ""
