"""bench/kafka/report.py: the medians, the ratios to FBE final and the rows without figures
(make bench-kafka-check runs it)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import report

ROWS = "row\tfbe-final\t150\t120\tFBE final\nrow\tjackson\t350\t0\tJSON\nrow\tprotobuf\t140\t0\tProtobuf\nnoise\n"


def bench(row: str, op: str, iterations: list[float]) -> dict:
    return {"benchmark": f"fbebench.kafka.KafkaBench.{op}", "params": {"row": row},
            "primaryMetric": {"rawData": [iterations]}}


def test_medians_ratios_and_sizes() -> None:
    doc = [bench("fbe-final", "produce", [100, 300, 200]), bench("fbe-final", "consume", [1000, 1000]),
           bench("jackson", "produce", [50, 40, 60, 999, 1]), bench("jackson", "consume", [250, 250])]
    rows = report.parse_rows(ROWS)
    assert [r["id"] for r in rows] == ["fbe-final", "jackson", "protobuf"]
    lines = report.markdown(rows, report.parse_jmh(doc))
    assert lines[2] == "| FBE final | 200 | ×1.00 | 1,000 | ×1.00 | 150 | 120 | 270 | ×1.00 |"
    assert lines[3] == "| JSON | 50 | ×0.25 | 250 | ×0.25 | 350 | 0 | 350 | ×1.30 |"
    # a row the run did not time keeps its sizes and has no rates
    assert lines[4] == "| Protobuf | — | — | — | — | 140 | 0 | 140 | ×0.52 |"
