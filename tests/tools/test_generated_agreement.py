"""The dynamic codec and the generated Python code (`fbec --python`) agree byte for byte.

For every struct of the project's schemas and of ../shared, a sample value
with distinctive field values is written by the dynamic codec in both models;
the generated class reads it and writes it again (same bytes), and both print
the same JSON and text. (Agreement with the original on the golden vectors is
in test_dynamic.py.)
"""

from __future__ import annotations

import importlib
import sys
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fbe import EncodeError
from fbe.dynamic import DynamicCodec
from fbe.text import text_bytes
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets import python as python_target
from tools_testlib import REPO, SHARED, CountingSampler


def _sets() -> dict[str, list[Path]]:
    sets = {"trade": [REPO / "schemas" / "trade.fbe"], "graph": [REPO / "schemas" / "graph.fbe"],
            "everything": [REPO / "schemas" / "tests" / "everything.fbe"]}
    if (SHARED / "schemas" / "test.fbe").is_file():
        sets["shared"] = [SHARED / "schemas" / f"{n}.fbe" for n in ("test", "protoex", "enums")]
    return {k: [p for p in v if p.is_file()] for k, v in sets.items()}


class Sampler(CountingSampler):
    def primitive(self, name: str) -> Any:
        n = self.n
        samples = {"bool": True, "float": n + 0.5, "double": n / 8 - 100, "decimal": Decimal(n) / 4,
                   "string": f"s{n}\u00e9\"", "bytes": bytes([n % 256, 0, 255]), "uuid": uuid.UUID(int=n * 7919),
                   "char": 65 + n % 26, "wchar": 0x400 + n, "timestamp": 1577836800123456789 + n}
        if name in samples:
            return samples[name]
        return -(n % 100) - 1 if name.startswith("int") else n % 100 + 1

    def enum(self, values: list[int]) -> int:
        return values[self.n % len(values)] if values else 0

    def is_none(self) -> bool:
        return self.n % 5 == 0


@pytest.mark.parametrize("name", sorted(_sets()))
def test_dynamic_and_generated_agree(name: str, tmp_path: Path) -> None:
    from fbec.targets.base import Options
    schemas = _sets()[name]
    assert schemas, f"no schemas for {name}"
    packages: list[str] = []
    codecs = []
    for path in schemas:
        ir = compile_schema(str(path), [], Diagnostics())
        for f in python_target.generate(ir, Options(final=True, json=True, proto=False)):
            (tmp_path / f.path).write_text(f.text, encoding="utf-8")
        packages += [p.name for p in ir.packages if p.name not in packages]
        codecs.append(DynamicCodec(ir))
    sys.path.insert(0, str(tmp_path))
    saved = {p: sys.modules.pop(p) for p in packages if p in sys.modules}
    try:
        modules = {p: importlib.import_module(p) for p in packages}
        checked = 0
        for dc in codecs:
            for q, s in dc.structs.items():
                pkg, _, short = q.rpartition(".")
                cls = getattr(modules[pkg], short, None) or getattr(modules[pkg], short + "_")
                value = Sampler(dc).value(DynamicCodec.ref(s))
                versioned = dc.encode(value, q)
                final = dc.encode(value, q, "final")
                generated = cls.from_fbe(versioned)
                assert generated.to_fbe() == versioned, q
                assert cls.from_final(final).to_final() == final, q
                assert dc.encode(dc.decode(generated.to_fbe(), q)[0], q) == versioned, q
                decoded = dc.decode(versioned, q)[0]          # sets and maps in wire order
                assert text_bytes(str(generated)) == text_bytes(dc.to_text(decoded, q)), q
                try:
                    mine = dc.to_json(decoded, q)
                except EncodeError:
                    continue
                assert generated.to_json() == mine, q
                checked += 1
        assert checked >= 3
    finally:
        sys.path.remove(str(tmp_path))
        for p in packages:
            sys.modules.pop(p, None)
        sys.modules.update(saved)


def test_every_vector_agrees_with_generated_code(tmp_path: Path) -> None:
    """Every golden vector, both models: the generated code and the dynamic codec write the same bytes,
    print the same JSON and text."""
    from fbec.targets.base import Options
    from tools_testlib import manifest_cases, shared
    cases = manifest_cases()
    if not cases:
        shared("vectors", "MANIFEST.json")                      # skips with the reason
    codecs: dict[str, DynamicCodec] = {}
    for name in ("test", "protoex", "enums"):
        ir = compile_schema(str(shared("schemas", f"{name}.fbe")), [], Diagnostics())
        for f in python_target.generate(ir, Options(final=True, json=True, proto=False)):
            (tmp_path / f.path).write_text(f.text, encoding="utf-8")
        for p in ir.packages:
            codecs.setdefault(p.name, DynamicCodec(ir))
    packages = list(codecs)
    sys.path.insert(0, str(tmp_path))
    saved = {p: sys.modules.pop(p) for p in packages if p in sys.modules}
    try:
        modules = {p: importlib.import_module(p) for p in packages}
        for case in cases:
            dc, q = codecs[case["package"]], f"{case['package']}.{case['type']}"
            cls = getattr(modules[case["package"]], case["type"])
            for f in case["files"]:
                if f["kind"] not in ("versioned", "final"):
                    continue
                data = shared("vectors", f["file"]).read_bytes()
                model = f["kind"]
                mine = dc.decode(data, q, model)[0]
                theirs = cls.from_fbe(data) if model == "versioned" else cls.from_final(data)
                again = theirs.to_fbe() if model == "versioned" else theirs.to_final()
                assert dc.encode(mine, q, model) == again, (case["name"], model)
                assert text_bytes(str(theirs)) == text_bytes(dc.to_text(mine, q)), (case["name"], model)
                try:
                    js = dc.to_json(mine, q)
                except EncodeError:
                    continue
                assert theirs.to_json() == js, (case["name"], model)
    finally:
        sys.path.remove(str(tmp_path))
        for p in packages:
            sys.modules.pop(p, None)
        sys.modules.update(saved)
