"""The native core's tests use the Python suite's helpers (tests/python/fbe_testlib.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
