"""The examples of docs/tools.md run as written and print what the page says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tools_testlib import REPO

DOC = REPO / "docs" / "tools.md"
SKIP = ("alias ", "ln -s", "make ", "pytest")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_shell_examples(tmp_path: Path) -> None:
    prelude = (f'fbec() {{ PYTHONPATH="{REPO / "compiler"}{os.pathsep}{REPO / "runtime" / "python"}" '
               f'"{sys.executable}" -m fbec "$@"; }}\n')
    ran = 0
    for block in _blocks("sh"):
        if any(s in block for s in SKIP):
            continue
        script = block.replace("/tmp/", f"{tmp_path}/").replace("my.fbe", f"{tmp_path}/my.fbe")
        p = subprocess.run(["bash", "-c", prelude + script], cwd=str(REPO), capture_output=True, timeout=300,
                           check=False)
        out = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
        assert "Traceback" not in out, out
        for line in block.splitlines():
            m = re.match(r"^# (.*)$", line)
            if m and "..." not in m.group(1):
                assert m.group(1).strip() in out, f"{m.group(1)!r} not printed by:\n{block}\n---\n{out}"
                ran += 1
    assert ran >= 10


def test_python_example() -> None:
    (code,) = _blocks("python")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")]))
    p = subprocess.run([sys.executable, "-c", code], cwd=str(REPO), capture_output=True, env=env, timeout=60,
                       check=False)
    assert p.returncode == 0, p.stderr.decode()
    assert b'{"id":1,"symbol":"EURUSD"' in p.stdout and b"Order(id=1" in p.stdout
