"""bench/rust/report.py: criterion's figures, the row lines and the goals of issue 25 (make test-rust)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import report

CHECK = ("row\tours\tFBE (ours)\tok\t\nsize\tours\t252\nrow\tbincode\tbincode\tok\t\nsize\tbincode\t90\n"
         "row\tours-json\tFBE JSON (ours)\tmissing\tnot available yet\n")


def criterion_bench(root: Path, full_id: str, median: float, times: list[float], iters: list[float]) -> None:
    folder = root / full_id.replace("/", "_") / "new"
    folder.mkdir(parents=True)
    (folder / "benchmark.json").write_text(json.dumps({"full_id": full_id}))
    (folder / "estimates.json").write_text(json.dumps({"median": {"point_estimate": median}}))
    (folder / "sample.json").write_text(json.dumps({"times": times, "iters": iters}))


def test_check_lines_give_rows_and_sizes() -> None:
    rows, sizes = report.parse_check(CHECK)
    assert [r["id"] for r in rows] == ["ours", "bincode", "ours-json"]
    assert rows[2] == {"id": "ours-json", "name": "FBE JSON (ours)", "status": "missing", "reason": "not available yet"}
    assert sizes == {"ours": 252, "bincode": 90}


def test_criterion_median_and_best_round(tmp_path: Path) -> None:
    criterion_bench(tmp_path, "trade/ours/serialize", 40.0, [4000.0, 7600.0, 1300.0], [100.0, 200.0, 10.0])
    criterion_bench(tmp_path, "other/x/serialize", 1.0, [1.0], [1.0])
    figures = report.criterion_figures(tmp_path)
    assert figures == {"ours": {"serialize": {"median_ns": 40.0, "best_ns": 38.0, "samples": 3}}}


def test_goals_are_marked_on_medians_best_rounds_and_instructions(tmp_path: Path) -> None:
    criterion_bench(tmp_path, "trade/ours/serialize", 40.0, [3000.0], [100.0])
    criterion_bench(tmp_path, "trade/bincode/serialize", 35.0, [3200.0], [100.0])
    check = tmp_path / "check.txt"
    check.write_text(CHECK)
    instr = tmp_path / "instr.json"
    instr.write_text(json.dumps({"n": 1001, "counts": {
        "ours": {"serialize": 400.0, "deserialize": 700.0, "read": 600.0}, "bincode": {"serialize": 500.0}}}))
    cpp = tmp_path / "cpp.json"
    cpp.write_text(json.dumps({"context": {"source": "abc"}, "trade": [
        {"id": "ours", "serialize_instructions": 300.0, "deserialize_instructions": 470.0},
        {"id": "ours-json", "serialize_instructions": 8000.0}]}))
    lock = tmp_path / "Cargo.lock"
    lock.write_text('[[package]]\nname = "bincode"\nversion = "2.0.1"\n')
    args = report.argparse.Namespace(check=str(check), criterion=str(tmp_path), instr=str(instr), lock=str(lock),
                                     cpp=str(cpp), command="make bench-rust")
    result = report.build(args)
    goals = {(g["row"], g["goal"]): g for g in result["goals"]}
    serialize = goals[("ours", "serialize ≤ bincode's")]
    assert serialize["median_ns"]["met"] is False      # 40 > 35
    assert serialize["best_ns"]["met"] is True         # 30 <= 32
    assert serialize["instructions"]["met"] is True    # 400 <= 500
    assert goals[("ours", "serialize within 1.3x of our C++ row (instructions)")]["instructions"]["met"] is False
    assert goals[("ours", "deserialize ≤ bincode's")]["median_ns"] is None
    # the C++ deserialize touches no field: compared with ours without the touch (600, not 700)
    cpp_read = goals[("ours", "deserialize without the touch within 1.3x of our C++ row (instructions)")]
    assert cpp_read["instructions"] == {"ours": 600.0, "peer": 470.0, "met": True}
    assert ("ours-json", "verify within 1.3x of our C++ row (instructions)") not in goals  # neither has one
    assert goals[("ours-json", "serialize within 1.3x of our C++ row (instructions)")]["instructions"] is None
    assert result["rows"][1]["crate"] == "bincode 2.0.1"
    md = report.markdown(result)
    assert "| FBE JSON (ours) |  | missing: not available yet |" in md
    assert "**not met** (40.0 vs 35.0)" in md
