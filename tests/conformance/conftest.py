"""The fixture of the conformance tests that compare the testees (conformance/runner.py's)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))

import runner


@pytest.fixture(scope="module")
def testees() -> Iterator[dict[str, runner.Testee]]:
    """Every language's testee, running for the module's tests (runner.TesteesMissing names those not
    built: make conformance builds them)."""
    commands = runner.testee_commands()
    running = {name: runner.Testee(name, cmd, 20.0) for name, cmd in commands.items()}
    yield running
    for t in running.values():
        t.close()
