"""tests/golden: golden.py (the generator shared with `make update-golden`) is importable from the tests."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
