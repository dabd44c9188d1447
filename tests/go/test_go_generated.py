"""The Go target's output for every schema (the project's and ../shared's) is gofmt-clean and
go vet-clean against runtime/go (docs/targets.md 9). Run by `make test-go`, which needs Go."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}


def schema_files() -> list[Path]:
    """The original's schemas first (their imports resolve among them), then the project's."""
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    return shared + sorted((REPO / "schemas").rglob("*.fbe"))


def package_of(path: Path) -> str:
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["package"]:
            return words[1]
    raise AssertionError(f"{path}: no package line")


def modules(files: list[Path]) -> list[dict[str, Path]]:
    """The schemas spread over as few Go modules as their package names allow (trade.fbe and
    ../shared's proto.fbe are both package proto): each module's packages import each other."""
    out: list[dict[str, Path]] = []
    for f in files:
        name = package_of(f)
        home = next((m for m in out if name not in m), None)
        if home is None:
            home = {}
            out.append(home)
        home[name] = f
    return out


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=GO_ENV, capture_output=True, text=True, check=False)


def test_generated_go_is_gofmt_and_vet_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert Path(GO).exists(), f"no go command at {GO} (set GO)"
    gofmt = str(Path(GO).parent / "gofmt")
    groups = modules(schema_files())
    assert groups, "no schemas found"
    for i, group in enumerate(groups):
        root = tmp_path / f"m{i}"
        root.mkdir()
        for f in group.values():
            assert fbec_main([f"--input={f}", f"--output={root}", "--go", "--final"]) == 0, capsys.readouterr().err
        (root / "go.mod").write_text(
            "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
            f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
        r = run([gofmt, "-l", "."], root)
        assert r.returncode == 0 and r.stdout == "", f"gofmt -l ({sorted(group)}):\n{r.stdout}{r.stderr}"
        r = run([GO, "vet", "./..."], root)
        assert r.returncode == 0, f"go vet ({sorted(group)}):\n{r.stdout}{r.stderr}"
    capsys.readouterr()


def test_generated_types_compile_as_go_users_expect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """proto.Account in Go: exported fields, typed flags constants, a pointer optional, a slice,
    NewAccount() with the schema's defaults (State = initialized | bad)."""
    proto = SHARED / "schemas" / "proto.fbe"
    if not proto.is_file():
        pytest.skip(f"reference schemas not found at {SHARED}/schemas (set SHARED)")
    assert fbec_main([f"--input={proto}", f"--output={tmp_path}", "--go"]) == 0
    capsys.readouterr()
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (tmp_path / "proto" / "proto_test.go").write_text('''package proto

import "testing"

func TestAccountDefaults(t *testing.T) {
	a := NewAccount()
	if StateInitialized|StateBad != 11 || a.State != 11 || a.Asset != nil || len(a.Orders) != 0 {
		t.Fatalf("%+v", a)
	}
	a.Orders = append(a.Orders, Order{Id: 1, Symbol: "EURUSD", Side: OrderSideSell, Price: 1.5})
	a.Asset = &Balance{Currency: "EUR", Amount: 100}
	a.Reset()
	if a.Asset != nil || len(a.Orders) != 0 || cap(a.Orders) == 0 || (Account{}).TypeID() != 3 {
		t.Fatalf("Reset: %+v", a)
	}
}
''')
    r = run([GO, "test", "./..."], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_golden_vectors_read_and_written_back_in_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/vectors: every MANIFEST case of ../shared in both models, read and written back
    byte for byte by the generated code, and the truncation/corruption suite."""
    import json
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.is_file():
        pytest.skip(f"golden vectors not found at {manifest} (set SHARED)")
    for f in sorted((SHARED / "schemas").glob("*.fbe")):
        assert fbec_main([f"--input={f}", f"--output={tmp_path}", "--go", "--final"]) == 0
    capsys.readouterr()
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (tmp_path / "vectors").mkdir()
    shutil.copy(REPO / "tests" / "go" / "vectors" / "vectors_test.go", tmp_path / "vectors")
    cases = json.loads(manifest.read_text())["cases"]
    types = sorted({(c["package"], c["type"]) for c in cases})
    registry = ["package vectors", "", "import ("]
    registry += [f'\t"fbegen/{p}"' for p in sorted({p for p, _ in types})]
    registry += [")", "", "var registry = map[string]func() value{"]
    registry += [f'\t"{p}.{t}": func() value {{ return new({p}.{t}) }},' for p, t in types]
    registry += ["}", ""]
    (tmp_path / "vectors" / "registry_test.go").write_text("\n".join(registry))
    r = run([GO, "test", "-count=1", "-v", "-run", "TestGoldenVectors", "./vectors"], tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    assert "vectors read and written back" in r.stdout
