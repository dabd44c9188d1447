#!/usr/bin/env python3
"""The table of make bench-kafka (docs/kafka.md "Benchmark") from its JMH run and its rows.

    --jmh FILE    JMH's JSON (fbebench.kafka.KafkaBench, Throughput: records per second)
    --rows FILE   the `row` lines of fbebench.kafka.Rows: id, value bytes, header bytes, name
    --runs TEXT   how JMH ran, for the run line

Prints the Markdown table: per row the median of JMH's measured iterations of produce and consume
(records/s) and the bytes a record carries besides its key (value + header keys and values), each
with its ratio to the FBE final row; then the run line (revision, load, JVM).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

REFERENCE = "fbe-final"
OPS = ("produce", "consume")


def parse_rows(text: str) -> list[dict[str, Any]]:
    rows = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) == 5 and parts[0] == "row":
            rows.append({"id": parts[1], "value": int(parts[2]), "headers": int(parts[3]), "name": parts[4]})
    return rows


def parse_jmh(doc: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """row -> operation -> the median of its measured iterations (records/s)."""
    out: dict[str, dict[str, float]] = {}
    for b in doc:
        op = b["benchmark"].rsplit(".", 1)[-1]
        values = [v for fork in b["primaryMetric"]["rawData"] for v in fork]
        out.setdefault(b["params"]["row"], {})[op] = statistics.median(values)
    return out


def ratio(v: float | None, ref: float | None) -> str:
    return "—" if v is None or not ref else f"×{v / ref:.2f}"


def rate(v: float | None) -> str:
    return "—" if v is None else f"{v:,.0f}"


def markdown(rows: list[dict[str, Any]], rates: dict[str, dict[str, float]]) -> list[str]:
    ref_row = next((r for r in rows if r["id"] == REFERENCE), None)
    ref = rates.get(REFERENCE, {})
    ref_bytes = ref_row["value"] + ref_row["headers"] if ref_row else None
    head = ("| serializer | produce records/s | vs FBE final | consume records/s | vs FBE final "
            "| value B | headers B | B per record | vs FBE final |")
    lines = [head, "|---|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        got = rates.get(r["id"], {})
        total = r["value"] + r["headers"]
        cells = [r["name"]]
        for op in OPS:
            cells += [rate(got.get(op)), ratio(got.get(op), ref.get(op))]
        cells += [str(r["value"]), str(r["headers"]), str(total), ratio(total, ref_bytes)]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def run_line(doc: list[dict[str, Any]], runs: str) -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=False).stdout.strip()

    dirty = git("status", "--porcelain", "--untracked-files=no")
    source = git("rev-parse", "--short=10", "HEAD") + ("+changes" if dirty else "")
    jvm = doc[0] if doc else {}
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"Run: revision {source}, {os.cpu_count()} CPUs, load average {load} at the end, "
            f"{jvm.get('vmName', '')} {jvm.get('vmVersion', '')}, JMH {jvm.get('jmhVersion', '')}; {runs}. "
            "One single-node broker on 127.0.0.1 of the same machine: this measures the serializer and "
            "the client, not a cluster.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jmh", required=True)
    ap.add_argument("--rows", required=True)
    ap.add_argument("--runs", default="")
    args = ap.parse_args(argv)
    doc = json.loads(Path(args.jmh).read_text())
    rows = parse_rows(Path(args.rows).read_text())
    print("\n".join(markdown(rows, parse_jmh(doc))))
    print()
    print(run_line(doc, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
