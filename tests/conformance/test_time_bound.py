"""The time bound of a measured hostile request (docs/limits.md, "Measured, not described").

A busy machine only ever adds time, so a failed time bound is measured again (limits.TIME_RETRIES
more times) and the fastest hostile and honest answers compared: one slow run does not fail a
testee, a hostile input that is slow every time does, and peak memory is never measured again.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))

import limits
import runner

N = 1000
HOSTILE = {"input": {"format": "final", "payload": base64.b64encode(bytes(N)).decode()}}
HONEST = {"input": {"format": "final", "payload": base64.b64encode(bytes(N)).decode()}, "honest": True}
CASE = runner.Case("limits.t", "limits", HOSTILE, "result", bound=True, honest=HONEST)
PER_BYTE = 1e-6           # the honest answers' time per byte
LIMIT = limits.TIME_RATIO * PER_BYTE * N + limits.TIME_SLACK


def answer(seconds: float, peak: int = 0) -> dict[str, Any]:
    return {"result": "", "measured": {"seconds": seconds, "peak_bytes": peak}}


class FakeTestee:
    """Answers the hostile request with the times given, in order, and the honest one in PER_BYTE * N."""

    def __init__(self, hostile: list[float]) -> None:
        self.hostile = hostile
        self.asked: list[dict[str, Any]] = []

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(request)
        return answer(PER_BYTE * N if request.get("honest") else self.hostile.pop(0))


def bound(first: float, again: list[float], peak: int = 0) -> tuple[runner.Outcome, FakeTestee]:
    testee = FakeTestee(again)
    outcome, _ = runner.measured_bound("x", CASE, dict(HOSTILE, measure=True), answer(first, peak),
                                       answer(PER_BYTE * N), testee.ask)
    return outcome, testee


def test_within_the_bound_is_not_measured_again() -> None:
    outcome, testee = bound(LIMIT / 2, [])
    assert outcome.passed and testee.asked == []


def test_one_slow_run_is_measured_again_and_passes() -> None:
    outcome, testee = bound(LIMIT * 3, [LIMIT / 2])
    assert outcome.passed
    assert [r.get("honest", False) for r in testee.asked] == [True, False]
    assert all(r.get("measure") for r in testee.asked)


def test_slow_every_time_fails_with_the_fastest_time() -> None:
    outcome, testee = bound(LIMIT * 3, [LIMIT * 2] * limits.TIME_RETRIES)
    assert not outcome.passed
    assert outcome.detail.startswith(f"time {LIMIT * 2:.3f}s"), outcome.detail
    assert len(testee.asked) == 2 * limits.TIME_RETRIES


def test_memory_over_the_bound_is_not_measured_again() -> None:
    outcome, testee = bound(0.0, [], peak=limits.PEAK_RATIO * N + limits.PEAK_SLACK + 1)
    assert not outcome.passed and outcome.detail.startswith("peak memory")
    assert testee.asked == []
