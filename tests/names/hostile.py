"""The corpus of hostile names (schemas/tests/hostile_names.fbe: every target language's keywords,
the generated code's and the runtimes' names, fields named like their types, names that differ only
by case) and its value (schemas/tests/hostile_names.json: every field set), for every target's tests
(tests/<lang>): each compiles the corpus and reads and writes the value as golden vectors, here
written by the reference codec (fbe.dynamic) in the layout of ../shared/vectors' MANIFEST.json
cases."""

from __future__ import annotations

import json
from pathlib import Path

from fbe.dynamic import DynamicCodec
from fbe.text import text_bytes
from fbec.cli import main as fbec_main
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCHEMA = REPO / "schemas" / "tests" / "hostile_names.fbe"
IMPORTS = REPO / "schemas" / "tests"
"""Where the package the corpus imports is (market.fbe)."""
ROOT = "import.Hostile"
"""The struct holding one of every other struct of the corpus."""


def generate(out: Path, *options: str) -> None:
    """fbec's code of the corpus and of the package it imports into out (options: `--java`...)."""
    for schema in (IMPORTS / "market.fbe", SCHEMA):
        assert fbec_main(["-q", f"--input={schema}", f"--import={IMPORTS}", f"--output={out}", *options]) == 0, schema


def write_vectors(out: Path) -> dict[str, Path]:
    """The corpus's value as golden vectors in `out`/vectors: versioned and final roots, its text form
    and its JSON (by kind, the kinds of a MANIFEST case: versioned, final, text, json), and
    vectors/MANIFEST.json listing them as ../shared's does (one case, import.Hostile), so that a
    language's check of the golden vectors reads them with `out` as SHARED."""
    schema = compile_schema(str(SCHEMA), [str(IMPORTS)], Diagnostics())
    codec = DynamicCodec(schema)
    value = codec.from_json(SCHEMA.with_suffix(".json").read_text(), ROOT)
    files = {"versioned": codec.encode(value, ROOT), "final": codec.encode(value, ROOT, "final"),
             "text": text_bytes(codec.to_text(value, ROOT)), "json": codec.to_json(value, ROOT).encode()}
    suffixes = {"versioned": ".fbe.bin", "final": ".final.bin", "text": ".txt", "json": ".json"}
    folder = out / "vectors"
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for kind, data in files.items():
        paths[kind] = folder / f"hostile_names{suffixes[kind]}"
        paths[kind].write_bytes(data)
    package, _, name = ROOT.rpartition(".")
    case = {"name": "hostile_names", "schema": str(SCHEMA), "package": package, "type": name,
            "type_id": schema.struct(ROOT).type_id, "roundtrip": "ok",
            "files": [{"file": p.name, "kind": kind, "size": len(files[kind])} for kind, p in paths.items()]}
    (folder / "MANIFEST.json").write_text(json.dumps({"cases": [case]}, indent=1) + "\n")
    return paths
