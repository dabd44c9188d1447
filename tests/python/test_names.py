"""Names in the Python target (docs/python.md "Names"): fbec --python's code of the corpus of hostile
names (schemas/tests/hostile_names.fbe) imports, passes ruff and mypy --strict, and its value reads and
writes back byte for byte in both models, as text and as JSON (the vectors of the reference codec:
tests/names/hostile.py). Run by `make test-python`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fbe_testlib import REPO, generate_into, load_modules
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


def test_a_field_does_not_hide_what_its_constructor_uses(tmp_path: Path) -> None:
    """A struct's __init__ makes an array's default with ``range`` and an optional's made per instance
    with ``fbe.DEFAULT``: a field ``range``, its own or its base's, keeps its name (the default calls
    ``range`` through a module alias), a field ``fbe`` is renamed; either way the class constructs and
    its value goes both ways. Names the class body does not use (``object``, ``classmethod``) are kept."""
    schema = tmp_path / "shadow.fbe"
    schema.write_text("package shadow\n\n"
                      "struct Shadow\n{\n    int32 range;\n    int32[3] values;\n    int32 fbe;\n"
                      "    timestamp? at = utc;\n}\n\n"
                      "struct Base\n{\n    int32 range;\n    int32 object;\n    int32 classmethod;\n}\n\n"
                      "struct Derived : Base\n{\n    int32[2] values;\n}\n", encoding="utf-8")
    out = tmp_path / "gen"
    out.mkdir()
    ir_schema = generate_into(schema, out)
    module = load_modules(out, ["shadow"])["shadow"]
    idents = Idents(ir_schema)
    names = {(s.name, f.name): idents.field(f) for s in ir_schema.packages[0].structs for f in s.fields}
    value = module.Shadow(**{names["Shadow", "range"]: 7, names["Shadow", "fbe"]: 8})
    assert value.values == [0, 0, 0] and value.at > 0
    assert module.Shadow.from_fbe(value.to_fbe()).fbe_equal(value)
    assert module.Shadow.from_final(value.to_final()).fbe_equal(value)
    derived = module.Derived(**{names["Base", name]: k for k, name in enumerate(("range", "object", "classmethod"))})
    assert derived.values == [0, 0]
    assert module.Derived.from_fbe(derived.to_fbe()).fbe_equal(derived)
    assert names == {("Shadow", "range"): "range", ("Shadow", "values"): "values", ("Shadow", "fbe"): "fbe_",
                     ("Shadow", "at"): "at", ("Base", "range"): "range", ("Base", "object"): "object",
                     ("Base", "classmethod"): "classmethod", ("Derived", "values"): "values"}
