"""The schemas every conformance testee is built with."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))

# The original's reference schemas (when ../shared is present) and the project's own.
SHARED_SCHEMAS = ("proto", "protoex", "test", "enums")
PROJECT_SCHEMAS = ("schemas/tests/everything.fbe", "schemas/tests/hostile.fbe", "schemas/tests/decimals.fbe",
                   "schemas/tests/chars.fbe")


def conformance_schemas() -> list[Path]:
    out = [SHARED / "schemas" / f"{name}.fbe" for name in SHARED_SCHEMAS
           if (SHARED / "schemas" / f"{name}.fbe").exists()]
    return out + [REPO / p for p in PROJECT_SCHEMAS]


if __name__ == "__main__":      # used by the C++ testee's build to list its schemas
    print(";".join(str(p) for p in conformance_schemas()))
