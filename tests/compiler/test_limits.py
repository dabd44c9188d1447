"""Schemas at and beyond the compiler's limits: a diagnostic with file:line:col, never a traceback.

Struct types nest at most 128 levels (fields of any kind and bases each add a level), as the
readers' depth limit; sizes are 32-bit. A schema at the limit goes through every target.
"""

from __future__ import annotations

import importlib
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, run_fbec

LIMIT = 128

# How struct S{i} uses S{i-1}: a field by value, optional, in a vector, in a map, or as its base.
LINKS = {
    "value": "struct S{i} {{ S{j} s; }}",
    "optional": "struct S{i} {{ S{j}? s; }}",
    "vector": "struct S{i} {{ S{j}[] s; }}",
    "map": "struct S{i} {{ int32<S{j}> s; }}",
    "base": "struct S{i} : S{j} {{ int32 x{i}; }}",
}


def chain(levels: int, link: str, reverse: bool) -> str:
    """S0 .. S{levels-1}, each one level above the one before; declared leaf first or root first."""
    decls = ["struct S0 { int32 x; }"] + [LINKS[link].format(i=i, j=i - 1) for i in range(1, levels)]
    if reverse:
        decls.reverse()
    return "package p\n" + "\n".join(decls) + "\n"


def compile_text(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *targets: str) -> tuple[int, str]:
    (tmp_path / "p.fbe").write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        status, _, err = run_fbec(capsys, "--input=p.fbe", "--output=out", "-q", *targets)
    finally:
        os.chdir(cwd)
    return status, err


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
@pytest.mark.parametrize("link", sorted(LINKS))
def test_at_the_limit_every_target_generates(tmp_path, capsys, link, reverse):
    status, err = compile_text(tmp_path, capsys, chain(LIMIT, link, reverse),
                               "--cpp", "--python", "--final", "--json", "--proto")
    assert (status, err) == (0, "")
    assert (tmp_path / "out/p.py").is_file() and (tmp_path / "out/p_final_models.h").is_file()


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
@pytest.mark.parametrize("link", sorted(set(LINKS) - {"base"}))
def test_nesting_beyond_the_limit_is_a_diagnostic(tmp_path, capsys, link, reverse):
    status, err = compile_text(tmp_path, capsys, chain(340, link, reverse), "--cpp", "--final", "--python")
    assert status == 1 and "Traceback" not in err
    line = 2 + (340 - 1 - LIMIT if reverse else LIMIT)            # S128's line
    column = LINKS[link].format(i=LIMIT, j=LIMIT - 1).index(" s;") + 2
    assert err.splitlines()[0] == (
        f"p.fbe:{line}:{column}: error: struct 'S128' nests struct types 129 levels deep "
        "(S128.s, S127.s, S126.s, ...); readers refuse data nested deeper than 128 levels (a base counts as a level)")
    assert len(err.splitlines()) == 3           # one error for the chain, with its line and caret


@pytest.mark.parametrize("reverse", [False, True], ids=["leaf_first", "root_first"])
def test_inheritance_beyond_the_limit_is_a_diagnostic(tmp_path, capsys, reverse):
    status, err = compile_text(tmp_path, capsys, chain(1000, "base", reverse), "--cpp", "--final", "--python")
    assert status == 1 and "Traceback" not in err
    line = 2 + (1000 - 1 - LIMIT if reverse else LIMIT)
    assert err.splitlines()[0] == (
        f"p.fbe:{line}:15: error: struct 'S128' and its bases form a chain of 129 structs (S128 : S127 : S126 : ...); "
        "inheritance is limited to 128 levels")


def test_bases_and_fields_count_together(tmp_path, capsys):
    decls = ["struct S0 { int32 x; }"] + [
        (f"struct S{i} : S{i - 1} {{ int32 x{i}; }}" if i % 2 else f"struct S{i} {{ S{i - 1}? s; }}")
        for i in range(1, LIMIT + 1)]
    status, err = compile_text(tmp_path, capsys, "package p\n" + "\n".join(decls) + "\n", "--cpp", "--final")
    assert status == 1
    assert err.splitlines()[0].startswith("p.fbe:130:21: error: struct 'S128' nests struct types 129 levels deep "
                                          "(S128.s, S127 : S126, S126.s, ...)")



def test_a_huge_array_costs_no_time_or_memory(tmp_path):
    """A short schema line compiles in time and memory of its own size, not of the array's length: fbec
    runs in a process limited to 512 MB of address space (the arrays' formats alone took gigabytes).
    Each array is as large as a frame may hold (64 MiB, resolve.MAX_FRAME_SIZE)."""
    (tmp_path / "p.fbe").write_text(
        "package p\nstruct S { int32[16777216] x; double[4000000] d; uuid[4194304] u; int64?[50000000] o; "
        "decimal[4194304] m; }\n")
    limit = 512 * 1024 * 1024
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "compiler"), str(REPO / "runtime" / "python")]))
    def cpu_of_children() -> float:  # CPU time, not wall time: a busy machine stretches the one only
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    start = cpu_of_children()
    done = subprocess.run([sys.executable, "-m", "fbec", "--input=p.fbe", "--output=out", "-q", "--cpp", "--python",
                           "--final", "--json", "--proto"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60, check=False,
                          preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    elapsed = cpu_of_children() - start
    assert (done.returncode, done.stderr) == (0, "")
    assert elapsed < 10, elapsed
    assert max(p.stat().st_size for p in (tmp_path / "out").iterdir()) < 200_000


LONG_ARRAYS = """package arrays
enum Side : byte { buy; sell; }
struct Item { int32 n; }
struct Long
{
    int32[1000] ints;
    double[9] reals;
    Side[20] sides;
    bool[12] switches;
    string[10] names;
    Item[11] items;
    uuid[9] ids;
    int16?[10] maybe;
    decimal[10] amounts;
    uuid[3] few;
    Item?[12] links;
    string?[9] notes;
}
"""


def test_long_arrays_in_python_round_trip_as_the_dynamic_codec_writes(tmp_path, capsys):
    """Arrays longer than the spelled-out ones use struct's repeat count; the bytes stay what the
    runtime's dynamic codec (driven by the IR alone) writes, in both models."""
    status, err = compile_text(tmp_path, capsys, LONG_ARRAYS, "--python", "--final")
    assert (status, err) == (0, "")
    generated = (tmp_path / "out/arrays.py").read_text()
    assert "1000i" in generated and "144s" in generated and "160s" in generated and "16s16s16s" in generated
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        sys.modules.pop("arrays", None)
        arrays = importlib.import_module("arrays")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    import decimal
    import uuid

    from fbe.dynamic import DynamicCodec
    from fbec.model.resolve import compile_schema
    from fbec.syntax.diagnostics import Diagnostics
    value = arrays.Long(ints=list(range(-500, 500)), reals=[i / 3 for i in range(9)],
                        sides=[arrays.Side.sell] * 20, switches=[True, False] * 6,
                        names=[str(i) * i for i in range(10)],
                        items=[arrays.Item(n=i) for i in range(11)], ids=[uuid.UUID(int=i) for i in range(9)],
                        maybe=[None if i % 2 else i for i in range(10)],
                        amounts=[decimal.Decimal(i) / 8 for i in range(10)], few=[uuid.UUID(int=7)] * 3,
                        links=[None if i % 3 else arrays.Item(n=i) for i in range(12)],
                        notes=[None if i % 2 else "n" * i for i in range(9)])
    codec = DynamicCodec(compile_schema(str(tmp_path / "p.fbe"), [], Diagnostics()))
    for encode, decode, model in ((value.to_fbe, arrays.Long.from_fbe, "versioned"),
                                  (value.to_final, arrays.Long.from_final, "final")):
        data = encode()
        assert decode(data).fbe_equal(value)
        dyn, _ = codec.decode(data, "arrays.Long", model)
        assert codec.encode(dyn, "arrays.Long", model) == data
        assert dyn["ints"] == list(range(-500, 500)) and dyn["maybe"][2] == 2
