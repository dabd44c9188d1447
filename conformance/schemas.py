"""The schemas every conformance testee is built with."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))

# The original's reference schemas (when ../shared is present) and the project's own.
SHARED_SCHEMAS = ("proto", "protoex", "test", "enums")
PROJECT_SCHEMAS = ("schemas/tests/everything.fbe", "schemas/tests/hostile.fbe", "schemas/tests/decimals.fbe",
                   "schemas/tests/chars.fbe", "schemas/tests/defaults.fbe")


def conformance_schemas() -> list[Path]:
    out = [SHARED / "schemas" / f"{name}.fbe" for name in SHARED_SCHEMAS
           if (SHARED / "schemas" / f"{name}.fbe").exists()]
    return out + [REPO / p for p in PROJECT_SCHEMAS]


def package_sources() -> list[Path]:
    """The schema file of each package the conformance schemas hold, once, imports before the schemas
    that import them (everything.fbe imports market.fbe)."""
    sys.path.insert(0, str(REPO / "compiler"))
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    out: dict[str, Path] = {}
    for schema in conformance_schemas():
        for package in compile_schema(str(schema), [], Diagnostics()).packages:
            source = Path(package.file)
            out.setdefault(package.name, source if source.is_absolute() else schema.parent / source.name)
    return list(out.values())


if __name__ == "__main__":      # used by the C++ testee's build to list its schemas
    print(";".join(str(p) for p in conformance_schemas()))
