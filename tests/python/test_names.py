"""Names in the Python target (docs/python.md "Names"): fbec --python's code of the corpus of hostile
names (schemas/tests/hostile_names.fbe) imports, passes ruff and mypy --strict, and its value reads and
writes back byte for byte in both models, as text and as JSON (the vectors of the reference codec:
tests/names/hostile.py). Run by `make test-python`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fbe_testlib import REPO, load_modules
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.python.names import Idents, module_name

sys.path.insert(0, str(REPO / "tests" / "names"))

import hostile


def test_hostile_names_compile_and_round_trip(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    hostile.generate(out, "--python", "--final", "--json", "--proto")
    env = dict(os.environ, MYPYPATH=str(REPO / "runtime" / "python"))
    for command in (["ruff", "check", "--no-cache", "."], ["mypy", "--strict", "--no-incremental",
                                                           "--cache-dir=/dev/null", "."]):
        r = subprocess.run([sys.executable, "-m", *command], cwd=out, capture_output=True, text=True, check=False,
                           env=env)
        assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    package, _, _ = hostile.ROOT.rpartition(".")
    module = load_modules(out, ["market", module_name(package)])[module_name(package)]
    idents = Idents(compile_schema(str(hostile.SCHEMA), [str(hostile.IMPORTS)], Diagnostics()))
    cls = getattr(module, idents.type(hostile.ROOT))
    files = {kind: path.read_bytes() for kind, path in hostile.write_vectors(tmp_path / "shared").items()}
    json = files["json"].decode()
    value = cls.from_json(json)
    assert value.to_json() == json
    assert value.to_fbe() == files["versioned"] and value.to_final() == files["final"]
    for back in (cls.from_fbe(files["versioned"]), cls.from_final(files["final"])):
        assert back.fbe_equal(value)
        assert back.to_fbe() == files["versioned"] and back.to_final() == files["final"]
        assert str(back).encode("utf-8", "surrogateescape") == files["text"]
        assert back.to_json() == json
    models = [getattr(module, idents.model(hostile.ROOT, final)) for final in (False, True)]
    for model, data in zip(models, (files["versioned"], files["final"])):
        m = model()
        m.attach(data)
        assert m.verify() and m.deserialize()[0].fbe_equal(value)
