"""tools/venv.sh: the project venv is made from PYTHON and made again for another interpreter."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
VENV_SH = REPO / "tools" / "venv.sh"


def venv_sh(python: str, venv: Path, *groups: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(VENV_SH), python, str(venv), *groups], capture_output=True, text=True,
                          timeout=300, check=False)


def base(python: str) -> str:
    return subprocess.run([python, "-c", "import sys; print(sys.base_prefix)"], capture_output=True, text=True,
                          check=True).stdout.strip()


def other_interpreter() -> str | None:
    """A Python 3.10+ of another installation than the one running: Debian's under make test, pyenv's
    under make test-stock-python (which runs this file in a venv of Debian's, pyenv off PATH)."""
    candidates = [shutil.which("python3", path="/usr/bin"), shutil.which("python3", path="/usr/local/bin"),
                  *map(str, sorted(Path.home().glob(".pyenv/versions/*/bin/python3")))]
    for python in candidates:
        if python and subprocess.run([python, "-c", "import sys; sys.exit(sys.version_info < (3, 10))"],
                                     capture_output=True, check=False).returncode == 0 \
                and base(python) != sys.base_prefix:
            return python
    return None


def test_made_once_then_left_alone_then_made_again_from_another_interpreter(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    made = venv_sh(sys.executable, venv)
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith(f"venv: making {venv} from {sys.executable}")
    assert base(str(venv / "bin" / "python")) == sys.base_prefix  # a venv of this interpreter's installation
    again = venv_sh(sys.executable, venv)
    assert again.returncode == 0 and again.stdout == ""

    other = other_interpreter()
    assert other is not None, \
        f"no second Python installation beside {sys.base_prefix} (Debian's python3 package, or pyenv's)"
    remade = venv_sh(other, venv)
    assert remade.returncode == 0, remade.stderr
    assert f"{venv} was not made from {other}; making it again" in remade.stdout
    assert base(str(venv / "bin" / "python")) == base(other)


def test_refuses_what_it_cannot_use(tmp_path: Path) -> None:
    missing = venv_sh("/nonexistent/python3", tmp_path / "v")
    assert missing.returncode == 1 and "no such interpreter" in missing.stderr
    unknown_group = venv_sh(sys.executable, tmp_path / "v", "nosuchgroup")
    assert unknown_group.returncode == 1 and "no requirement file" in unknown_group.stderr
    assert not (tmp_path / "v").exists()  # refused before anything was made
