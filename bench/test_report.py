"""Tests of bench/report.py on synthetic Google Benchmark and callgrind output."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402


def bm(name, agg, ns, unit="ns", bytes_=None, error=None):
    b = {"name": f"{name}_{agg}", "run_name": name, "run_type": "aggregate", "aggregate_name": agg,
         "real_time": ns, "cpu_time": ns, "time_unit": unit}
    if bytes_ is not None:
        b["bytes"] = bytes_
    if error:
        b["error_occurred"] = True
        b["error_message"] = error
    return b


def time_doc():
    ctx = {
        "date": "2026-01-01T00:00:00+00:00", "num_cpus": 2, "mhz_per_cpu": 2600, "load_avg": [0.1, 0.1, 0.1],
        "compiler": "12.2.0", "trade_model": "account", "graph_model": "5 nodes",
        "row/trade/ours": "FBE (ours)|ok",
        "row/trade/protobuf": "Protobuf|ok",
        "row/trade/capnp": "Cap'n Proto|FAILED: round trip of account #1: name differs",
        "row/trade/ours-json": "FBE JSON (ours)|not available yet: no proto_json.h",
        "row/graph/ours": "FBE (ours)|ok",
    }
    benchmarks = [
        bm("trade/ours/serialize", "mean", 30.0, bytes_=252), bm("trade/ours/serialize", "median", 25.0, bytes_=252),
        bm("trade/ours/serialize", "cv", 0.02),
        bm("trade/ours/deserialize", "median", 100.0, bytes_=252),
        bm("trade/ours/verify", "median", 40.0, bytes_=252),
        bm("trade/protobuf/serialize", "median", 250.0, bytes_=138),
        bm("trade/protobuf/deserialize", "median", 300.0, bytes_=138),
        bm("graph/ours/serialize", "median", 70.0, unit="us", bytes_=1000),
        bm("graph/ours/deserialize", "median", 600.0, unit="us", bytes_=1000),
        bm("graph/ours/traverse", "median", 0.2, unit="ms", bytes_=1000),
        bm("graph/ours/deserialize_traverse", "median", 800.0, unit="us", bytes_=1000),
    ]
    return {"context": ctx, "benchmarks": benchmarks}


def dump(path: Path, label: str, ir: int):
    path.write_text(
        "# callgrind format\nversion: 1\n"
        f"desc: Trigger: Client Request: {label}\n\npositions: line\nevents: Ir\nsummary: {ir}\n\n"
        "fn=(1) hot\n0 " + str(ir - 10) + "\ncalls=1 0\n0 500\nfn=(2) cold\n0 10\n",
        encoding="utf-8")


def run(tmp_path, with_stable=True):
    t = tmp_path / "time.json"
    t.write_text(json.dumps(time_doc()), encoding="utf-8")
    argv = ["--time", str(t), "--out", str(tmp_path / "latest")]
    if with_stable:
        s = tmp_path / "stable.json"
        s.write_text(json.dumps({"context": {"stable_n": "11", "row/trade/ours": "FBE (ours)|ok"},
                                 "benchmarks": []}), encoding="utf-8")
        cg = tmp_path / "cg"
        cg.mkdir()
        dump(cg / "cg.out.1", "trade/ours/serialize@1", 1000)
        dump(cg / "cg.out.2", "trade/ours/serialize@11", 4000)
        dump(cg / "cg.out.3", "graph/ours/deserialize@1", 5_000_000)
        dump(cg / "cg.out.4", "graph/ours/deserialize@3", 11_000_000)
        argv += ["--stable", str(s), "--callgrind", str(cg)]
    rc = report.main(argv)
    return rc, json.loads((tmp_path / "latest.json").read_text(encoding="utf-8")), \
        (tmp_path / "latest.md").read_text(encoding="utf-8")


def test_medians_sizes_ratios_and_instructions(tmp_path):
    rc, result, md = run(tmp_path)
    rows = {r["id"]: r for r in result["trade"]}
    assert rows["ours"]["serialize_ns"] == 25.0  # the median, not the mean
    assert rows["ours"]["size_bytes"] == 252
    assert rows["ours"]["serialize_instructions"] == 300.0  # (4000 - 1000) / (11 - 1)
    assert rows["protobuf"]["size_bytes"] == 138
    graph = {r["id"]: r for r in result["graph"]}
    assert graph["ours"]["traverse_ns"] == 200_000.0  # 0.2 ms
    assert graph["ours"]["deserialize_instructions"] == 3_000_000
    assert "| Protobuf | 138 | 250 | 300 | — | ×10.00 | ×3.00 |" in md
    assert "| FBE (ours) | 252 | 25.0 | 100 | 40.0 | ×1.00 | ×1.00 | 300 |" in md
    assert rc == 1  # a FAILED row fails the run


def test_failed_and_missing_rows_get_no_numbers(tmp_path):
    _, result, md = run(tmp_path, with_stable=False)
    rows = {r["id"]: r for r in result["trade"]}
    assert rows["capnp"]["status"].startswith("FAILED")
    assert "serialize_ns" not in rows["capnp"]
    assert rows["ours-json"]["status"].startswith("not available yet")
    assert "- **Cap'n Proto**: FAILED: round trip of account #1: name differs" in md
    assert "- **FBE JSON (ours)**: not available yet: no proto_json.h" in md
    assert [r["id"] for r in result["trade"]] == ["ours", "ours-json", "protobuf", "capnp"]


def test_profile_lists_exclusive_cost(tmp_path):
    cg = tmp_path / "cg"
    cg.mkdir()
    dump(cg / "cg.out.1", "trade/ours/serialize@11", 4000)
    text = report.profile(str(cg), "trade/ours/serialize@11")
    lines = text.splitlines()
    assert "hot" in lines[1] and "cold" in lines[2]
    assert report.profile(str(cg), "nope@1").startswith("no callgrind dump")
