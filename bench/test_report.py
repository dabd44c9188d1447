"""Tests of bench/report.py on synthetic Google Benchmark and callgrind output."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report


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


def graph_verify_doc():
    """time_doc() plus a graph verify time and a second graph row without verify."""
    doc = time_doc()
    doc["context"]["row/graph/protobuf"] = "Protobuf|ok"
    doc["benchmarks"] += [bm("graph/ours/verify", "median", 50.0, unit="us", bytes_=1000),
                          bm("graph/protobuf/serialize", "median", 900.0, unit="us", bytes_=800)]
    return doc


def test_chart_panels_hold_every_measured_operation(tmp_path):
    t = tmp_path / "time.json"
    t.write_text(json.dumps(graph_verify_doc()), encoding="utf-8")
    result = report.build(argparse.Namespace(time=str(t), stable=None, callgrind=None))
    panels = {p["title"].split(" — ")[0].split(" (")[0] + ("/instr" if "instructions" in p["title"] else ""): p
              for p in report.chart_panels(result)}
    assert set(panels) == {"Trade model: one account, three orders", "Graph model"}  # no callgrind run here
    graph = panels["Graph model"]
    assert graph["ops"] == ["serialize", "deserialize", "verify", "traverse", "deserialize_traverse"]
    assert graph["rows"] == ["FBE (ours)", "Protobuf"]
    assert graph["values"]["verify"] == [50.0, None]  # µs; Protobuf has no verify: no bar, not a zero
    assert graph["values"]["serialize"] == [70.0, 900.0]


def test_chart_panels_with_instructions(tmp_path):
    _, result, _ = run(tmp_path)
    titles = [p["title"] for p in report.chart_panels(result)]
    assert titles == ["Trade model: one account, three orders — time",
                      "Trade model — instructions per operation (repeatable)",
                      "Graph model (5 nodes) — time",
                      "Graph model (5 nodes) — instructions per operation"]
    graph_instr = report.chart_panels(result)[3]
    assert graph_instr["ops"] == ["deserialize"] and graph_instr["values"]["deserialize"] == [3.0]  # millions


def test_value_and_tick_labels():
    assert [report.fmt_value(v) for v in (8.76, 21.28, 319.2, 2954, 17683, 0.57)] == \
        ["8.76", "21.3", "319", "2.95k", "17.7k", "0.57"]
    assert [report.fmt_tick(v) for v in (0.5, 2, 50, 200, 1000, 5000, 20000, 2e6)] == \
        ["0.5", "2", "50", "200", "1k", "5k", "20k", "2M"]


def test_chart_labels_every_bar(tmp_path):
    import matplotlib  # noqa: F401 - make test-bench installs it (tools/requirements/chart.txt)
    t = tmp_path / "time.json"
    t.write_text(json.dumps(graph_verify_doc()), encoding="utf-8")
    png = tmp_path / "chart.png"
    assert report.main(["--time", str(t), "--png", str(png)]) == 1  # the FAILED row of time_doc()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    drawn = report.chart(report.build(argparse.Namespace(time=str(t), stable=None, callgrind=None)), str(png))
    # trade: ours 3 ops + protobuf 2; graph: ours 5 ops + protobuf serialize
    assert sorted(len(v) for v in drawn.values()) == [5, 6]
    assert "50" in drawn["Graph model (5 nodes) — time"]


def test_publish_rewrites_the_marked_parts(tmp_path):
    import matplotlib  # noqa: F401 - make test-bench installs it (tools/requirements/chart.txt)
    run(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\nbefore\n<!-- bench:begin -->\nold table\n<!-- bench:end -->\nafter\n", encoding="utf-8")
    docs = tmp_path / "docs" / "benchmarks.md"
    docs.parent.mkdir()
    docs.write_text("## Results\n<!-- results:begin -->\nold\n<!-- results:end -->\n### Reading\n", encoding="utf-8")
    argv = ["--result", str(tmp_path / "latest.json"), "--out", str(tmp_path / "pub" / "latest"),
            "--png", str(tmp_path / "pub" / "latest.png"), "--readme", str(readme), "--docs", str(docs)]
    report.main(argv)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# x\n\nbefore\n<!-- bench:begin -->\n| Protocol | Message size |")
    assert "| FBE (ours) | 252 | 25.0 | 100 | 40.0 | ×1.00 | ×1.00 | 300 |" in text
    assert "\nRun: 2026-01-01T00:00:00+00:00; 2 CPUs @ 2600 MHz" in text
    assert text.endswith("![benchmark chart](pub/latest.png)\n<!-- bench:end -->\nafter\n")
    assert "old table" not in text and "Graph model" not in text  # the README gets the trade table only
    text = docs.read_text(encoding="utf-8")
    assert "#### Trade model (account)" in text and "#### Graph model (5 nodes)" in text
    assert "![benchmark chart](../pub/latest.png)\n<!-- results:end -->\n### Reading\n" in text
    # the published JSON is the run's, figure for figure
    assert json.loads((tmp_path / "pub" / "latest.json").read_text(encoding="utf-8")) == \
        json.loads((tmp_path / "latest.json").read_text(encoding="utf-8"))


def test_publish_needs_the_markers():
    with pytest.raises(ValueError, match="bench:begin"):
        report.replace_block("no markers here\n", report.README_MARKERS, "x")
    assert report.replace_block("a\n<!-- bench:begin -->\nold\n<!-- bench:end -->\nb\n", report.README_MARKERS,
                                "new") == "a\n<!-- bench:begin -->\nnew\n<!-- bench:end -->\nb\n"


def test_progress_reports_how_far_a_phase_is(tmp_path):
    script = Path(__file__).resolve().parent / "progress.py"
    done = subprocess.run(
        [sys.executable, str(script), "phase", "--total", "3", "--every", "0", "--files", str(tmp_path), "f*",
         "--output", str(tmp_path / "log.txt"), "--",
         "sh", "-c", f"for i in 1 2 3; do sleep 1.2; touch {tmp_path}/f$i; done; echo out; exit 3"],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 3  # the phase's own status
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("phase: 3/3, ") and len(lines) >= 2
    assert (tmp_path / "log.txt").read_text() == "out\n"
