"""bench/js/report.py on a made-up run: medians and best of the rounds, the goals judged met or not
met, failed rows, the README block (make bench-js-check runs it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import report

# row -> (serialize ns, deserialize ns, verify ns or None, message bytes)
ROWS: dict[str, tuple[float, float, float | None, int]] = {
    "fbe": (100, 200, 90, 252), "fbe-final": (60, 150, 70, 152), "avsc": (110, 300, None, 112),
    "msgpackr": (95, 210, None, 82), "protobufjs": (300, 250, None, 138),
}


def run(rounds: list[float], rows: dict[str, tuple[float, float, float | None, int]] | None = None) -> dict[str, Any]:
    out = []
    for rid, (ser, de, ver, size) in (rows or ROWS).items():
        ops = {"serialize": ser, "deserialize": de} | ({"verify": ver} if ver else {})
        out.append({"id": rid, "name": rid.upper(), "pkg": "" if rid.startswith("fbe") else rid,
                    "version": "" if rid.startswith("fbe") else "1.2.3", "status": "ok", "size": size,
                    "ops": {op: {"mean_ns": [ns * s for s in rounds], "median_ns": [ns * s * 0.9 for s in rounds],
                                 "rme": [1.0] * len(rounds), "samples": [100] * len(rounds)}
                            for op, ns in ops.items()}})
    out.append({"id": "flatbuffers", "name": "FlatBuffers", "pkg": "flatbuffers", "version": "2.0.7",
                "status": "failed", "error": "account 1 read back differs: name", "ops": {}})
    return {"node": "v20.0.0", "v8": "11", "tinybench": "6.2.5", "time_ms": 400, "clock": "cpu", "rounds": len(rounds),
            "batch": 100, "rows": out}


def test_medians_best_and_failed_rows() -> None:
    res = report.build(run([1.0, 3.0, 1.2]))      # the median of the three rounds: the 1.2 round
    fbe = next(r for r in res["rows"] if r["id"] == "fbe")
    assert fbe["figures"]["serialize"]["ns/op"] == pytest.approx(120)
    assert fbe["figures"]["serialize"]["best ns/op"] == pytest.approx(100)
    assert fbe["figures"]["serialize"]["sample ns/op"] == pytest.approx(108)
    assert fbe["size"] == 252 and fbe["rounds"] == 3 and "verify" in fbe["figures"]
    failed = next(r for r in res["rows"] if r["id"] == "flatbuffers")
    assert failed["status"] == "failed" and failed["reason"] == "account 1 read back differs: name"
    md = report.markdown(res)
    assert "| AVSC 1.2.3 | 112 | 132.0 | 360.0 | — | ×1.10 | ×1.50 |" in md
    assert "process's CPU time" in md and "tinybench 6.2.5" in md
    assert "| FlatBuffers 2.0.7 | — |" in md and "Not timed: FlatBuffers: account 1 read back differs" in md


def test_goals() -> None:
    lines = report.goals(report.build(run([1.0])))
    assert lines[0] == ("- serialize ≤ the best of avsc and msgpackr (MSGPACKR, 95.0 ns): versioned 100.0 ns (×1.05) "
                        "**not met**, final 60.0 ns (×0.63) **met**")
    assert lines[1] == ("- deserialize + touch ≤ the best of avsc and msgpackr (MSGPACKR, 210.0 ns): versioned "
                        "200.0 ns (×0.95) **met**, final 150.0 ns (×0.71) **met**")
    assert lines[2] == ("- verify ≤ deserialize: versioned 90.0 ns vs 200.0 ns **met**, "
                        "final 70.0 ns vs 150.0 ns **met**")
    slow_verify = dict(ROWS, fbe=(100, 200, 201, 252))
    assert "versioned 201.0 ns vs 200.0 ns **not met**" in report.goals(report.build(run([1.0], slow_verify)))[2]
    no_peers = {k: v for k, v in ROWS.items() if k not in ("avsc", "msgpackr")}
    assert "not judged (neither ran)" in report.goals(report.build(run([1.0], no_peers)))[0]
    no_ours = {k: v for k, v in ROWS.items() if k != "fbe"}
    assert report.goals(report.build(run([1.0], no_ours))) == ["- not judged: our rows did not run"]


def test_readme_block(tmp_path: Path) -> None:
    md = report.markdown(report.build(run([1.0, 2.0])))
    readme = tmp_path / "README.md"
    readme.write_text("a\n<!-- bench-js:begin -->\nold\n<!-- bench-js:end -->\nb\n")
    readme.write_text(report.replace_block(readme.read_text(), md))
    text = readme.read_text()
    assert "old" not in text and "#### JavaScript, trade model" in text
    assert text.startswith("a\n<!-- bench-js:begin -->\n#### ") and text.endswith("<!-- bench-js:end -->\nb\n")
    with pytest.raises(SystemExit):
        report.replace_block("no markers", md)
