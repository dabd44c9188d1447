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
    """Every built testee, running for the module's tests; at least two, or the tests are skipped."""
    commands = runner.testee_commands()
    if len(commands) < 2:
        pytest.skip("fewer than two conformance testees are built (make conformance-build)")
    running = {name: runner.Testee(name, cmd, 20.0) for name, cmd in commands.items()}
    yield running
    for t in running.values():
        t.close()
