"""bench/java/report.py on a made-up JMH result: medians and best iterations, the row lines of
fbebench.Check, the versions from the pom, the goals judged met or not met, the README block (make
bench-java-check runs it)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import report

ROWS = {  # row -> (serialize ns, deserialize ns, verify ns or None, B/op of deserialize)
    "fbe": (100, 200, 90, 344), "fbe-final": (60, 150, 70, 344), "protobuf": (300, 400, None, 900),
    "flatbuffers": (250, 220, None, 400), "sbe": (55, 140, None, 432), "kryo": (120, 260, None, 700),
}


def jmh(scales: list[float]) -> list[dict]:
    out = []
    for row, (ser, de, ver, alloc) in ROWS.items():
        for op, ns, b in (("serialize", ser, 0), ("deserialize", de, alloc), ("verify", ver, 56)):
            if ns is None:
                continue
            values = [ns * s for s in scales]
            out.append({
                "jmhVersion": "1.37", "vmName": "OpenJDK 64-Bit Server VM", "vmVersion": "17",
                "benchmark": f"fbebench.{'Verify' if op == 'verify' else 'Trade'}Bench.{op}",
                "params": {"verifyRow" if op == "verify" else "row": row},
                "primaryMetric": {"score": sum(values) / len(values), "rawData": [values]},
                "secondaryMetrics": {"gc.alloc.rate.norm": {"score": b, "rawData": [[b] * len(values)]}},
            })
    return out


def check() -> str:
    """fbebench.Check's lines for the rows of ROWS (and a missing one)."""
    return "".join(f"row\t{r}\t{r.upper()}\tok\t\t{100 + i}\t{str(v[2] is not None).lower()}\n"
                   for i, (r, v) in enumerate(ROWS.items())) + \
        "row\tfbe-json\tFBE JSON (ours)\tmissing\tnot available yet\t0\tfalse\nok-rows\tfbe\n"

POM = "<properties><protobuf.version>4.36.2</protobuf.version><kryo.version>5.6.2</kryo.version></properties>"


def result(tmp_path: Path, scales: list[float]) -> dict:
    (tmp_path / "jmh.json").write_text(json.dumps(jmh(scales)))
    (tmp_path / "check.txt").write_text(check())
    (tmp_path / "pom.xml").write_text(POM)
    args = argparse.Namespace(jmh=str(tmp_path / "jmh.json"), check=str(tmp_path / "check.txt"),
                              pom=str(tmp_path / "pom.xml"), runs="test")
    return report.build(args)


def test_medians_best_rows_and_versions(tmp_path: Path) -> None:
    res = result(tmp_path, [1.0, 3.0, 1.2])      # median of the three iterations: the 1.2 one
    fbe = next(r for r in res["rows"] if r["id"] == "fbe")
    assert fbe["figures"]["serialize"]["ns/op"] == pytest.approx(120)
    assert fbe["figures"]["serialize"]["best ns/op"] == pytest.approx(100)
    assert fbe["figures"]["deserialize"]["B/op"] == 344 and fbe["figures"]["verify"]["ns/op"] == pytest.approx(108)
    assert fbe["size"] == 100 and fbe["verify"] is True
    assert next(r for r in res["rows"] if r["id"] == "kryo")["version"] == "5.6.2"
    missing = next(r for r in res["rows"] if r["id"] == "fbe-json")
    assert missing["status"] == "missing" and missing["reason"] == "not available yet"


def test_goals(tmp_path: Path) -> None:
    lines = report.goals(result(tmp_path, [1.0]))
    assert lines[0].startswith("- serialize ahead of protobuf-java, FlatBuffers and Kryo")
    assert "versioned 100.0 ns **met**, final 60.0 ns **met**" in lines[0]
    assert "versioned 200.0 ns **met**, final 150.0 ns **met**" in lines[1]
    assert "serialize 60.0 ns vs SBE's 55.0 ns (×1.09) **met**" in lines[2]
    assert "deserialize + touch 150.0 ns vs SBE's 140.0 ns (×1.07) **met**" in lines[2]
    assert "Kotlin" in lines[3] and "not judged" in lines[3]
    assert "FBE 0 / 344" in lines[4]
    ROWS["kotlin"] = (105, 230, 95, 344)         # within 1.1x on serialize, not on deserialize + touch
    ROWS["kotlin-final"] = (66, 150, 70, 344)    # within 1.1x on both (66 is exactly 1.1x)
    try:
        lines = report.goals(result(tmp_path, [1.0]))
    finally:
        del ROWS["kotlin"], ROWS["kotlin-final"]
    assert lines[3] == ("- Kotlin within ×1.1 of our Java, versioned: serialize 105.0 ns vs 100.0 ns (×1.05) **met**; "
                        "deserialize + touch 230.0 ns vs 200.0 ns (×1.15) **not met**")
    assert lines[4].startswith("- Kotlin within ×1.1 of our Java, final: serialize 66.0 ns vs 60.0 ns (×1.10) **met**;")
    assert lines[4].endswith("(×1.00) **met**") and "JSON" not in "".join(lines)   # no JSON rows: not judged
    ROWS["kryo"] = (95, 260, None, 700)          # Kryo serializes faster than our versioned row
    ROWS["sbe"] = (45, 140, None, 432)           # and SBE more than 1.2x faster than our final row
    try:
        lines = report.goals(result(tmp_path, [1.0]))
    finally:
        ROWS["kryo"] = (120, 260, None, 700)
        ROWS["sbe"] = (55, 140, None, 432)
    assert "versioned 100.0 ns **not met**, final 60.0 ns **met**" in lines[0]
    assert "serialize 60.0 ns vs SBE's 45.0 ns (×1.33) **not met**" in lines[2]


def test_markdown_and_readme(tmp_path: Path) -> None:
    res = result(tmp_path, [1.0, 1.1])
    md = report.markdown(res)
    assert "| FBE | 100 | 105.0 | 210.0 | 94.5 | ×1.00 | ×1.00 | 0 | 344 | 56 |" in md
    assert "| PROTOBUF 4.36.2 | 102 |" in md and "| ×3.00 | ×2.00 |" in md
    readme = tmp_path / "README.md"
    readme.write_text("a\n<!-- bench-java:begin -->\nold\n<!-- bench-java:end -->\nb\n")
    readme.write_text(report.replace_block(readme.read_text(), md))
    text = readme.read_text()
    assert "old" not in text and "| FBE JSON (ours) | —" in text and text.endswith("<!-- bench-java:end -->\nb\n")
