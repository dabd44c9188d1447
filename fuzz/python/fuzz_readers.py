#!/usr/bin/env python3
"""atheris target: the Python readers (generated code + fbe runtime) on arbitrary bytes.

Input: one byte (0 versioned, 1 final, 2 JSON), a qualified type name, a NUL,
then the buffer. Any exception other than fbe.FBEError is a bug (IndexError,
struct.error, MemoryError, RecursionError...) and crashes the fuzzer.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "runtime" / "python"), str(REPO / "conformance"),
                str(REPO / "conformance" / "testees")]

import atheris

with atheris.instrument_imports():
    import fbe
    from python_testee import load

WORK = tempfile.mkdtemp(prefix="fbe-fuzz-")
VALUES = load(Path(WORK))
TYPES = sorted(f"{p}.{s.name}" for p, pkg in VALUES.packages.items() for s in pkg.structs)


def one_input(data: bytes) -> None:
    if len(data) < 2:
        return
    mode = data[0] % 3
    name, _, buffer = data[1:].partition(b"\0")
    qualified = name.decode("latin-1")
    if qualified not in TYPES:
        qualified = TYPES[sum(name) % len(TYPES)]
    cls = VALUES.cls(qualified)
    module = VALUES.modules[qualified.rpartition(".")[0]]
    short = qualified.rpartition(".")[2]
    try:
        if mode == 0:
            model = getattr(module, f"{short}Model")()
            model.attach(buffer)
            model.verify()
            model.deserialize()
        elif mode == 1:
            model = getattr(module, f"{short}FinalModel")()
            model.attach(buffer)
            model.verify()
            model.deserialize()
        else:
            cls.from_json(buffer)
    except fbe.FBEError:
        pass


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
