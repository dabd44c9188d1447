"""Helpers shared by the compiler tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fbec.cli import main

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))


def shared_schemas() -> Path:
    """The original's reference schemas; the test is skipped when ../shared is absent."""
    folder = SHARED / "schemas"
    if not folder.is_dir():
        pytest.skip(f"reference schemas not found at {folder} (set SHARED to the shared folder)")
    return folder


def run_fbec(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def compile_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """compile_files({"main.fbe": text, "other.fbe": text}, *extra_args) -> (status, stdout, stderr).

    The first file is the input; paths in diagnostics are relative to tmp_path.
    """
    def run(files: dict[str, str], *extra: str, main_file: str | None = None) -> tuple[int, str, str]:
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
        first = main_file or next(iter(files))
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            return run_fbec(capsys, "--ir", f"--input={first}", *extra)
        finally:
            os.chdir(cwd)
    return run
