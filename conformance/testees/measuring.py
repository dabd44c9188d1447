"""The ``"measure": true`` part of the testee protocol for the Python testees (testee_protocol.md)."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from typing import Any


def measured(answer: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``answer()`` with its peak traced memory (above what was in use before it) and its time."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    try:
        reply = answer()
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
    reply["measured"] = {"peak_bytes": peak, "seconds": seconds}
    return reply
