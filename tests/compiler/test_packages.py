"""The two Python packages and the arrows between them (pyproject.toml ships both in one wheel).

`fbec` (compiler/) generates code with the standard library alone; `fbe` (runtime/python) is what
generated code imports, with the standard library alone. Only the tools that work from a schema
without generated code join them: `fbe.dynamic` reads the compiler's IR (`fbec.model`) and
`fbec decode`/`encode` run `fbe.dynamic`. Neither finds the other by patching `sys.path`: the
wheel installs both, a checkout puts both folders on PYTHONPATH (docs/tools.md). Every check runs
a fresh `python -S` (no site-packages), so nothing installed can stand in for a missing folder.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from fbec.cli import TARGETS

COMPILER = REPO / "compiler"
RUNTIME = REPO / "runtime" / "python"


def _python(code: str, *path: Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(map(str, path)))
    return subprocess.run([sys.executable, "-S", "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_wheel_ships_both_packages() -> None:
    lines = (REPO / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    assert 'package-dir = {"fbec" = "compiler/fbec", "fbe" = "runtime/python/fbe"}' in lines
    assert "dependencies = []" in lines


def test_no_module_patches_sys_path() -> None:
    patched = []
    for folder in (COMPILER / "fbec", RUNTIME / "fbe"):
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "path" and \
                        isinstance(node.value, ast.Name) and node.value.id == "sys":
                    patched.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not patched, f"sys.path used in {patched}: import the other package, never find it"


# Runtime modules of an optional extra (pyproject.toml's optional-dependencies): they need the
# extra's package, and without it say how to install it.
EXTRAS = {"kafka": "fbe-toolkit[kafka]"}


def test_the_runtime_needs_neither_the_compiler_nor_anything_installed() -> None:
    r = _python("import importlib, pkgutil, sys, fbe\n"
                "for m in pkgutil.iter_modules(fbe.__path__):\n"
                f"    if m.name != 'dynamic' and m.name not in {sorted(EXTRAS)!r}:\n"
                "        importlib.import_module('fbe.' + m.name)\n"
                "print(sorted(k for k in sys.modules if k.split('.')[0] == 'fbec'))", RUNTIME)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_an_extra_module_without_its_package_names_the_extra(module: str) -> None:
    r = _python(f"import fbe.{module}", RUNTIME)
    assert r.returncode == 1
    assert f"ImportError: fbe.{module} needs" in r.stderr and EXTRAS[module] in r.stderr, r.stderr


def test_code_generation_needs_neither_the_runtime_nor_anything_installed(tmp_path: Path) -> None:
    every = ", ".join(f"'--{lang}'" for lang in TARGETS)
    r = _python("import sys\nfrom fbec.cli import main\n"
                f"status = main(['-q', '--input={REPO / 'schemas' / 'trade.fbe'}', '--output={tmp_path}', "
                f"'--final', '--json', '--proto', {every}])\n"
                "print(status, sorted(k for k in sys.modules if k.split('.')[0] == 'fbe'))", COMPILER)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "0 []"


def test_the_schema_driven_tools_need_both_and_say_so() -> None:
    both = _python("from fbe.dynamic import DynamicCodec\nimport fbec.tools.codec", COMPILER, RUNTIME)
    assert both.returncode == 0, both.stderr
    r = subprocess.run([sys.executable, "-S", "-m", "fbec", "decode", "--input=schemas/trade.fbe", "--type=Order"],
                       cwd=REPO, env=dict(os.environ, PYTHONPATH=str(COMPILER)), input=b"", capture_output=True,
                       timeout=120, check=False)
    assert r.returncode == 2
    assert "the Python runtime `fbe` is not importable" in r.stderr.decode() and \
        "PYTHONPATH=compiler:runtime/python" in r.stderr.decode()
