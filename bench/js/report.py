#!/usr/bin/env python3
"""The JavaScript benchmark's table (make bench-js, docs/benchmarks.md "JavaScript").

Reads what `node out/src/main.js --out run.json` wrote (every row's check, message size and,
per operation, each round's tinybench figures: the mean time per operation of the round and
the median of its samples, timed with the process's CPU time or the wall clock), takes the
median of the rounds' means and the best round, and writes js.json and js.md into --results,
the Markdown on stdout:

  report.py --run build/bench-js/run.json --results build/bench-js

With --result (a js.json written before) it draws that run again: --out writes js.{json,md}
there, --readme replaces the part of the file between <!-- bench-js:begin --> and
<!-- bench-js:end --> (make bench-publish).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

MARKERS = ("<!-- bench-js:begin -->", "<!-- bench-js:end -->")
OPS = ("serialize", "deserialize", "verify")
OURS, FINAL = "fbe", "fbe-final"
CLOCKS = {"cpu": ("tinybench timing with the process's CPU time: waiting for a core is not counted, "
                  "every thread's work is"),
          "wall": "tinybench timing with the wall clock"}
PEERS = ("avsc", "msgpackr")   # the goals: ours at least as fast as the best of these


def git(*args: str) -> str:
    return subprocess.run(["git", *args], capture_output=True, text=True, check=False).stdout.strip()


def build(run: dict[str, Any]) -> dict[str, Any]:
    """The table's figures from main.js's run: per row and operation, the median over the rounds
    of the mean time per operation (ns/op), the best round (best ns/op) and the median of the
    rounds' sample medians (sample ns/op)."""
    rows = []
    for r in run["rows"]:
        figures: dict[str, dict[str, float]] = {}
        for op, rounds in r.get("ops", {}).items():
            if rounds["mean_ns"]:
                figures[op] = {"ns/op": statistics.median(rounds["mean_ns"]), "best ns/op": min(rounds["mean_ns"]),
                               "sample ns/op": statistics.median(rounds["median_ns"])}
        status, reason = r["status"], r.get("error", "")
        if status == "ok" and not figures:
            status, reason = "failed", "no timing (see the run's output)"
        rows.append({"id": r["id"], "name": r["name"], "package": r["pkg"], "version": r["version"],
                     "status": status, "reason": reason, "size": r.get("size"), "figures": figures,
                     "rounds": len(r.get("ops", {}).get("serialize", {}).get("mean_ns", []))})
    dirty = git("status", "--porcelain", "--untracked-files=no")
    return {
        "rows": rows,
        "run": {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpus": os.cpu_count(), "machine": platform.machine(), "node": run["node"], "v8": run["v8"],
            "tinybench": run["tinybench"],
            "source": git("rev-parse", "--short=10", "HEAD") + ("+changes" if dirty else ""),
            "load": [round(x, 2) for x in os.getloadavg()],
            "clock": run.get("clock", "wall"),
            "runs": f"{run['rounds']} rounds of {run['time_ms']} ms per task, {run['batch']} operations a call",
        },
    }


def fig(row: dict[str, Any], op: str, unit: str = "ns/op") -> float | None:
    value = row["figures"].get(op, {}).get(unit)
    return None if value is None else float(value)


def fmt_ns(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 1000 else f"{v:.1f}"


def fmt_int(v: float | None) -> str:
    return "—" if v is None else f"{v:,.0f}"


def fmt_ratio(v: float | None, ref: float | None) -> str:
    return "—" if v is None or not ref else f"×{v / ref:.2f}"


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**not met**"


def goals(result: dict[str, Any], unit: str = "ns/op") -> list[str]:
    """The issue's goals judged on the medians of the rounds (ns/op) or on each row's best round
    (best ns/op): serialize and deserialize + touch at most the best of avsc and msgpackr, verify
    at most deserialize."""
    by_id = {r["id"]: r for r in result["rows"] if r["status"] == "ok"}
    ours, final = by_id.get(OURS), by_id.get(FINAL)
    if not ours or not final:
        return ["- not judged: our rows did not run"]

    def f(row: dict[str, Any], op: str) -> float:
        value = fig(row, op, unit)
        assert value is not None, (row["id"], op, unit)
        return value

    def show(v: float) -> str:
        return f"{fmt_ns(v)} ns"

    lines = []
    peers = [by_id[p] for p in PEERS if p in by_id]
    for op, what in (("serialize", "serialize"), ("deserialize", "deserialize + touch")):
        if not peers:
            lines.append(f"- {what} ≤ the best of avsc and msgpackr: not judged (neither ran)")
            continue
        best = min(peers, key=lambda p: f(p, op))
        b, o, n = f(best, op), f(ours, op), f(final, op)
        lines.append(f"- {what} ≤ the best of avsc and msgpackr ({best['name']}, {show(b)}): versioned {show(o)} "
                     f"(×{o / b:.2f}) {verdict(o <= b)}, final {show(n)} (×{n / b:.2f}) {verdict(n <= b)}")
    v_o, v_n, d_o, d_n = f(ours, "verify"), f(final, "verify"), f(ours, "deserialize"), f(final, "deserialize")
    lines.append(f"- verify ≤ deserialize: versioned {show(v_o)} vs {show(d_o)} {verdict(v_o <= d_o)}, "
                 f"final {show(v_n)} vs {show(d_n)} {verdict(v_n <= d_n)}")
    return lines


def markdown(result: dict[str, Any]) -> str:
    rows = result["rows"]
    ours = next((r for r in rows if r["id"] == OURS and r["status"] == "ok"), None)
    ref_s = fig(ours, "serialize") if ours else None
    ref_d = fig(ours, "deserialize") if ours else None
    lines = [
        ("#### JavaScript, trade model (Account id 1 'Test', state good, wallet USD 1000, asset EUR 100, "
        "3 EURUSD orders)"),
        "",
        "| Row | Message size | Serialize ns | De+touch ns | Verify ns | Serialize vs ours | De+touch vs ours |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for r in rows:
        name = r["name"] + (f" {r['version']}" if r.get("version") else "")
        if r["status"] != "ok":
            lines.append(f"| {name} | " + " | ".join(["—"] * 6) + " |")
            notes.append(f"{r['name']}: {r['reason']}")
            continue
        s, d, v = fig(r, "serialize"), fig(r, "deserialize"), fig(r, "verify")
        lines.append(f"| {name} | {fmt_int(r['size'])} | {fmt_ns(s)} | {fmt_ns(d)} | {fmt_ns(v)} "
                     f"| {fmt_ratio(s, ref_s)} | {fmt_ratio(d, ref_d)} |")
    run = result["run"]
    lines += ["", "Goals (issue 17) on this run's medians:", "", *goals(result), "",
              ("The same goals on each row's best round (the least disturbed one: the estimate for a quiet "
              "machine):"), "", *goals(result, "best ns/op"), ""]
    if notes:
        lines += ["Not timed: " + "; ".join(notes) + ".", ""]
    lines += [
        (f"Run: {run['date']}; {run['cpus']} CPUs ({run['machine']}); Node {run['node']} (V8 {run['v8']}); "
         f"tinybench {run['tinybench']}; source {run['source']}; {run['runs']}; load average "
         f"{', '.join(str(x) for x in run['load'])}."),
        (f"Times are the median over the rounds of each round's mean time per operation ({CLOCKS[run['clock']]}, "
         "garbage collection included); every row converts from/to the same "
         "generated domain object (`proto.Account` of `fbec --typescript`), reusing its writer, builder or "
         "buffer and the plain object it gives the peer; de+touch = bytes → a new domain object (JavaScript "
         "readers make new objects), then every field read; the JSON rows give and take text; \"vs ours\" "
         "is the row's time divided by FBE (ours, versioned): above ×1 is slower. Only our rows verify: "
         "FlatBuffers' JavaScript runtime has no verifier (its reads trust the input), the others none."),
    ]
    return "\n".join(lines) + "\n"


def replace_block(text: str, block: str) -> str:
    begin, end = MARKERS
    if begin not in text or end not in text:
        raise SystemExit(f"markers {begin} / {end} not found")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{block.rstrip()}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", help="the run.json of node out/src/main.js --out")
    p.add_argument("--results", help="directory for js.json and js.md")
    p.add_argument("--result", help="a js.json written before: draw it again")
    p.add_argument("--out", help="with --result: directory for js.json and js.md")
    p.add_argument("--readme", action="append", default=[],
                   help="file whose <!-- bench-js:begin/end --> part gets the table (repeatable)")
    args = p.parse_args(argv)
    if args.result:
        result = json.loads(Path(args.result).read_text())
        target = args.out
    else:
        if not (args.run and args.results):
            p.error("give --run and --results, or --result")
        result = build(json.loads(Path(args.run).read_text()))
        target = args.results
    md = markdown(result)
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        Path(target, "js.json").write_text(json.dumps(result, indent=2) + "\n")
        Path(target, "js.md").write_text(md)
    for f in args.readme:
        Path(f).write_text(replace_block(Path(f).read_text(), md))
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
