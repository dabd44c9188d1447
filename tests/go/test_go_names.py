"""Names in the Go target (docs/go.md "Names"): fbec --go's code of the corpus of hostile names
(schemas/tests/hostile_names.fbe) is gofmt-, go vet- and staticcheck-clean, and its value reads and
writes back byte for byte in both models, as text and as JSON (tests/go/vectors on vectors of the
reference codec: tests/names/hostile.py). Run by `make test-go`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
STATICCHECK = os.environ.get("STATICCHECK") or shutil.which("staticcheck") or ""
GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}
sys.path.insert(0, str(REPO / "tests" / "names"))

import hostile
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.go.names import Idents, package_name


def run(args: list[str], cwd: Path, env: dict[str, str] = GO_ENV) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900)


def test_hostile_names_compile_and_round_trip(tmp_path: Path) -> None:
    assert STATICCHECK, "no staticcheck (set STATICCHECK; make test-go installs it)"
    module = tmp_path / "module"
    hostile.generate(module, "--go", "--final", "--json", "--proto")
    (module / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    for command in (["gofmt", "-l", "."], [GO, "vet", "./..."], [STATICCHECK, "./..."]):
        r = run(command, module)
        assert r.returncode == 0 and r.stdout == "", f"{command[0]}:\n{r.stdout[-6000:]}{r.stderr[-6000:]}"
    (module / "vectors").mkdir()
    shutil.copy(REPO / "tests" / "go" / "vectors" / "vectors_test.go", module / "vectors")
    idents = Idents(compile_schema(str(hostile.SCHEMA), [str(hostile.IMPORTS)], Diagnostics()))
    pkg = package_name(hostile.ROOT.rpartition(".")[0])
    funcs = [f"{pkg}.{idents.function(prefix, hostile.ROOT)}" for prefix in ("VerifyFBE", "VerifyFinal")]
    (module / "vectors" / "registry_test.go").write_text(
        f'package vectors\n\nimport "fbegen/{pkg}"\n\nvar registry = map[string]entry{{\n'
        f'\t"{hostile.ROOT}": {{func() value {{ return new({pkg}.{idents.type(hostile.ROOT)}) }}, '
        f'{", ".join(funcs)}}},\n'
        "}\n")
    hostile.write_vectors(tmp_path / "shared")
    r = run([GO, "test", "-count=1", "-v", "-run", "TestGolden", "./vectors"], module,
            {**GO_ENV, "SHARED": str(tmp_path / "shared")})
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert "2 vectors read and written back" in r.stdout and "1 texts and 1 JSON files byte-identical" in r.stdout, \
        r.stdout[-3000:]
