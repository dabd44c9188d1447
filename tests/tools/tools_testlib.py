"""Helpers shared by the tools tests (fbec decode/encode/compat/format, fbe.dynamic); imported as tools_testlib."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
for _p in (REPO / "compiler", REPO / "runtime" / "python"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from fbe.dynamic import DynamicCodec
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics


def shared(*parts: str) -> Path:
    """A path inside ../shared; the test is skipped when it is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not found: the reference files live in ../shared (set SHARED to that folder)")
    return path


@cache
def manifest() -> dict[str, Any]:
    return json.loads(shared("vectors", "MANIFEST.json").read_text(encoding="utf-8"))


def manifest_cases() -> list[dict[str, Any]]:
    """The MANIFEST cases, or [] when ../shared is absent (the tests then skip)."""
    path = SHARED / "vectors" / "MANIFEST.json"
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["cases"]  # type: ignore[no-any-return]


@cache
def codec_for(schema: str) -> DynamicCodec:
    """A dynamic codec for a schema file (path as a string)."""
    return DynamicCodec(compile_schema(schema, [], Diagnostics()))


def codec_from_text(tmp: Path, files: dict[str, str], main: str | None = None) -> DynamicCodec:
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8")
    first = main or next(iter(files))
    return DynamicCodec(compile_schema(str(tmp / first), [], Diagnostics()))


def fbec(*args: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    """Run `python -m fbec ARGS` in a subprocess: (status, stdout bytes, stderr text)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")])
    p = subprocess.run([sys.executable, "-m", "fbec", *args], input=stdin, capture_output=True, env=env,
                       cwd=str(REPO), timeout=120, check=False)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def distinct_keys(dc: DynamicCodec, t: Any, keys: list[Any]) -> list[Any]:
    """The keys (set elements) that differ as the readers compare them, in order: no reader reads a
    set or map holding one twice, and fbe.dynamic does not write one."""
    seen, out = set(), []
    for key in keys:
        k = dc._key(key, t)
        if k not in seen:
            seen.add(k)
            out.append(key)
    return out


class ValueSampler:
    """Builds an `fbe.dynamic` value of a type, every field filled in; subclasses choose the leaves.

    Structs nested deeper than `max_depth` take their default value (recursive schemas end), and sets
    and maps keep only distinct keys (`distinct_keys`), so every value is one a writer accepts.
    """

    max_depth = 2

    def __init__(self, dc: DynamicCodec) -> None:
        self.dc = dc

    def primitive(self, name: str) -> Any:
        raise NotImplementedError

    def enum(self, values: list[int]) -> int:
        return values[-1] if values else 0

    def is_none(self) -> bool:
        """Whether an optional is left empty."""
        return False

    def length(self) -> int:
        """How many elements a vector, list, set or map is given (before duplicate keys go)."""
        return 2

    def value(self, t: Any, depth: int = 0) -> Any:
        k = t.kind
        if k == "primitive":
            return self.primitive(t.name)
        if k in ("enum", "flags"):
            return self.enum([v.value for v in self.dc.enums[t.name].values])
        if k == "struct":
            s = self.dc.structs[t.name]
            if depth > self.max_depth:
                return self.dc.default(t)
            out = {"@type": s.qualified}
            out.update({f.name: self.value(f.type, depth + 1) for f in s.all_fields})
            return out
        if k == "optional":
            return None if self.is_none() else self.value(t.element, depth)
        if k == "array":
            return [self.value(t.element, depth) for _ in range(t.length)]
        if k in ("vector", "list"):
            return [self.value(t.element, depth) for _ in range(self.length())]
        if k == "set":
            return distinct_keys(self.dc, t.element, [self.value(t.element, depth) for _ in range(self.length())])
        keys = distinct_keys(self.dc, t.key, [self.value(t.key, depth) for _ in range(self.length())])
        return [(key, self.value(t.value, depth)) for key in keys]


class CountingSampler(ValueSampler):
    """Distinctive values: the n-th leaf sampled gets a value made from n, so a misread field shows."""

    def __init__(self, dc: DynamicCodec) -> None:
        super().__init__(dc)
        self.n = 0

    def value(self, t: Any, depth: int = 0) -> Any:
        self.n += 1
        return super().value(t, depth)
