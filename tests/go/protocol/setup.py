"""Set up tests/go/protocol as a module: `setup.py OUT` generates the fbec --go --final --proto code of
schemas/tests/market.fbe, everything.fbe and schemas/cpp-tests/vectors_old.fbe, vectors_new.fbe
into OUT (a module named fbegen) and copies the tests that need no SHARED into OUT/protocol. make
fuzz-go-receiver runs FuzzGeneratedReceiver there; tests/go/test_go_generated.py does the same in
a temporary folder."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path[:0] = [str(REPO / "compiler")]

from fbec.cli import main as fbec_main

SCHEMAS = ["schemas/tests/market.fbe", "schemas/tests/everything.fbe",
           "schemas/cpp-tests/vectors_old.fbe", "schemas/cpp-tests/vectors_new.fbe"]
TESTS = ["chunks_test.go", "client_test.go", "versions_test.go", "fuzz_test.go"]


def setup(root: Path, schemas: list[Path], tests: list[str]) -> None:
    for f in schemas:
        if fbec_main([f"--input={f}", f"--output={root}", "--go", "--final", "--proto", "-q"]) != 0:
            raise SystemExit(f"fbec failed on {f}")
    (root / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (root / "protocol").mkdir(exist_ok=True)
    for name in tests:
        shutil.copy(HERE / name, root / "protocol")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1]).resolve()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    setup(out, [REPO / s for s in SCHEMAS], TESTS)
