#!/usr/bin/env python3
"""The Java benchmark's table (make bench-java, docs/benchmarks.md "Java").

Reads JMH's JSON result (-rf json, with -prof gc) and the row lines of fbebench.Check, takes the
median of every row's measurement iterations (every fork) and its best iteration, the bytes
allocated per operation (gc.alloc.rate.norm), and writes java.json and java.md into --results,
the Markdown on stdout:

  report.py --jmh build/bench-java/jmh.json --check build/bench-java/check.txt \\
            --pom bench/java/pom.xml --results build/bench-java --runs "..."

With --result (a java.json written before) it draws that run again: --out writes java.{json,md}
there, --readme replaces the part of the file between <!-- bench-java:begin --> and
<!-- bench-java:end --> (make bench-publish).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

MARKERS = ("<!-- bench-java:begin -->", "<!-- bench-java:end -->")
OPS = ("serialize", "deserialize", "verify")
OURS, FINAL = "fbe", "fbe-final"
AHEAD_OF = ("protobuf", "flatbuffers", "kryo")     # the goal: ours ahead of these on both operations
SBE, SBE_FACTOR = "sbe", 1.2                       # final within 1.2x SBE
# Kotlin within 1.1x our Java: each Kotlin row against the Java row of the same model
KOTLIN = (("kotlin", OURS, "versioned"), ("kotlin-final", FINAL, "final"), ("kotlin-json", "fbe-json", "JSON"))
KOTLIN_FACTOR = 1.1
# row -> (Maven artifact, the pom property of its version)
ARTIFACTS = {"protobuf": ("com.google.protobuf:protobuf-java", "protobuf.version"),
             "flatbuffers": ("com.google.flatbuffers:flatbuffers-java", "flatbuffers.version"),
             "sbe": ("uk.co.real-logic:sbe-all", "sbe.version"),
             "kryo": ("com.esotericsoftware:kryo", "kryo.version"),
             "jackson": ("com.fasterxml.jackson.core:jackson-databind", "jackson.version")}
BENCHMARK = re.compile(r"fbebench\.(?:Trade|Verify)Bench\.(?P<op>[a-z]+)$")


def parse_jmh(doc: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """row -> operation -> figures: ns/op (median of every measurement iteration), best ns/op (the
    least), mean ns/op (JMH's score), iterations, B/op (gc.alloc.rate.norm, when profiled)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for b in doc:
        m = BENCHMARK.match(b["benchmark"])
        if not m:
            continue
        params = b.get("params", {})
        row = params.get("row") if m["op"] != "verify" else params.get("verifyRow")
        if row is None:
            continue
        values = [v for fork in b["primaryMetric"]["rawData"] for v in fork]
        figures = {"ns/op": statistics.median(values), "best ns/op": min(values),
                   "mean ns/op": b["primaryMetric"]["score"], "iterations": len(values)}
        alloc = b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        if alloc:
            figures["B/op"] = statistics.median(v for fork in alloc["rawData"] for v in fork)
        out.setdefault(row, {})[m["op"]] = figures
    return out


def parse_rows(text: str) -> list[dict[str, Any]]:
    """The `row` lines of fbebench.Check: id, name, status (ok, failed, missing), reason, message
    size, whether the format has a verifier."""
    rows = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) >= 7 and parts[0] == "row":
            rows.append({"id": parts[1], "name": parts[2], "status": parts[3], "reason": parts[4],
                         "size": int(parts[5]), "verify": parts[6] == "true"})
    return rows


def pom_versions(pom: str) -> dict[str, str]:
    """property -> value of the <properties> of the pom."""
    return dict(re.findall(r"<([a-z.]+\.version)>([^<]+)</", Path(pom).read_text()))


def build(args: argparse.Namespace) -> dict[str, Any]:
    jmh = json.loads(Path(args.jmh).read_text())
    figures = parse_jmh(jmh)
    rows = parse_rows(Path(args.check).read_text())
    versions = pom_versions(args.pom)
    java = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False).stderr.splitlines()
    source = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True, check=False).stdout.strip()
    out_rows = []
    for r in rows:
        got = figures.get(r["id"], {})
        status, reason = r["status"], r["reason"]
        if status == "ok" and not got:
            status, reason = "not timed", "not in this run (BENCH_JAVA_ROWS)"
        artifact, prop = ARTIFACTS.get(r["id"], (None, None))
        out_rows.append({**r, "status": status, "reason": reason, "artifact": artifact,
                         "version": versions.get(prop or "", ""), "figures": got})
    jvm = jmh[0] if jmh else {}
    return {
        "rows": out_rows,
        "run": {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpus": os.cpu_count(), "machine": platform.machine(),
            "java": f"{jvm.get('vmName', '')} {jvm.get('vmVersion', '')}".strip() or (java[0] if java else ""),
            "jmh": jvm.get("jmhVersion", versions.get("jmh.version", "")),
            "source": source + ("+changes" if dirty else ""), "load": [round(x, 2) for x in os.getloadavg()],
            "runs": args.runs,
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
    """The issue's goals judged on the medians of the iterations (ns/op) or on each row's best
    iteration (best ns/op); the allocations reported beside them."""
    by_id = {r["id"]: r for r in result["rows"] if r["status"] == "ok" and r["figures"]}
    ours, final = by_id.get(OURS), by_id.get(FINAL)
    if not ours or not final:
        return ["- not judged: our rows did not run"]

    def f(row: dict[str, Any], op: str) -> float:
        value = fig(row, op, unit)
        assert value is not None, (row["id"], op, unit)
        return value

    lines = []
    names = {"serialize": "serialize", "deserialize": "deserialize + touch"}
    for op in ("serialize", "deserialize"):
        peers = [(by_id[i]["name"], f(by_id[i], op)) for i in AHEAD_OF if i in by_id]
        if not peers:
            continue
        best = min(v for _, v in peers)
        others = ", ".join(f"{n} {fmt_ns(v)} ns" for n, v in peers)
        lines.append(f"- {names[op]} ahead of protobuf-java, FlatBuffers and Kryo ({others}): "
                     f"versioned {fmt_ns(f(ours, op))} ns {verdict(f(ours, op) < best)}, "
                     f"final {fmt_ns(f(final, op))} ns {verdict(f(final, op) < best)}")
    if SBE in by_id:
        parts = []
        for op in ("serialize", "deserialize"):
            s, x = f(by_id[SBE], op), f(final, op)
            parts.append(f"{names[op]} {fmt_ns(x)} ns vs SBE's {fmt_ns(s)} ns (×{x / s:.2f}) "
                         f"{verdict(x <= SBE_FACTOR * s)}")
        lines.append(f"- final within ×{SBE_FACTOR} of SBE: " + "; ".join(parts))
    judged = [(by_id[k], by_id[j], model) for k, j, model in KOTLIN if k in by_id and j in by_id]
    for kotlin, java, model in judged:
        parts = []
        for op in ("serialize", "deserialize"):
            x, y = f(kotlin, op), f(java, op)
            parts.append(f"{names[op]} {fmt_ns(x)} ns vs {fmt_ns(y)} ns (×{x / y:.2f}) "
                         f"{verdict(x <= KOTLIN_FACTOR * y)}")
        lines.append(f"- Kotlin within ×{KOTLIN_FACTOR} of our Java, {model}: " + "; ".join(parts))
    if not judged:
        lines.append(f"- Kotlin within ×{KOTLIN_FACTOR} of our Java: not judged (the Kotlin rows did not run)")
    if unit == "ns/op":
        alloc = ", ".join(f"{r['name']} {fmt_int(fig(r, 'serialize', 'B/op'))} / "
                          f"{fmt_int(fig(r, 'deserialize', 'B/op'))}"
                          for r in result["rows"] if r["status"] == "ok" and r["figures"])
        lines.append(f"- allocation per operation (JMH -prof gc, bytes, serialize / deserialize + touch): {alloc}")
    return lines


def markdown(result: dict[str, Any]) -> str:
    rows = result["rows"]
    ours = next((r for r in rows if r["id"] == OURS and r["status"] == "ok" and r["figures"]), None)
    ref_s = fig(ours, "serialize") if ours else None
    ref_d = fig(ours, "deserialize") if ours else None
    lines = [
        "#### Java, trade model (Account id 1 'Test', state good, wallet USD 1000, asset EUR 100, 3 EURUSD orders)",
        "",
        ("| Row | Message size | Serialize ns | De+touch ns | Verify ns | Serialize vs ours | De+touch vs ours "
         "| Serialize B/op | De+touch B/op | Verify B/op |"),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for r in rows:
        name = r["name"] + (f" {r['version']}" if r.get("version") else "")
        if r["status"] != "ok" or not r["figures"]:
            lines.append(f"| {name} | " + " | ".join(["—"] * 9) + " |")
            notes.append(f"{r['name']}: {r['reason']}")
            continue
        s, d, v = fig(r, "serialize"), fig(r, "deserialize"), fig(r, "verify")
        lines.append(
            f"| {name} | {fmt_int(r['size'])} | {fmt_ns(s)} | {fmt_ns(d)} | {fmt_ns(v)} "
            f"| {fmt_ratio(s, ref_s)} | {fmt_ratio(d, ref_d)} | {fmt_int(fig(r, 'serialize', 'B/op'))} "
            f"| {fmt_int(fig(r, 'deserialize', 'B/op'))} | {fmt_int(fig(r, 'verify', 'B/op'))} |")
    run = result["run"]
    lines += ["", "Goals (issue 16) on this run's medians:", "", *goals(result), ""]
    best = "The same goals on each row's best iteration (the least disturbed one: the estimate for a quiet machine):"
    lines += [best, "", *goals(result, "best ns/op"), ""]
    if notes:
        lines += ["Not timed: " + "; ".join(notes) + ".", ""]
    lines += [
        (f"Run: {run['date']}; {run['cpus']} CPUs ({run['machine']}); {run['java']}; JMH {run['jmh']}; "
         f"source {run['source']}; {run['runs']}; load average {', '.join(str(x) for x in run['load'])}."),
        ("Times are medians of JMH's measurement iterations (average time, ns per operation); B/op is "
         "JMH's gc profiler (gc.alloc.rate.norm). Every row converts from/to the same generated domain "
         "object (`proto.Account` of `fbec --java`; the Kotlin rows the `Account` of `fbec --kotlin`), "
         "reusing its buffer, builder or message and the domain "
         "object where its API reads into one (Kryo and the JSON readers make new objects); "
         "de+touch = bytes → the domain "
         "object, then every field read; \"vs ours\" is the row's time divided by FBE (ours, versioned): "
         "above ×1 is slower. FlatBuffers' Java runtime has no verifier, SBE and protobuf-java none either."),
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
    p.add_argument("--jmh", help="JMH's JSON result")
    p.add_argument("--check", help="the output of fbebench.Check (row lines)")
    p.add_argument("--pom", default=str(Path(__file__).with_name("pom.xml")))
    p.add_argument("--runs", default="", help="how JMH was run, for the run line")
    p.add_argument("--results", help="directory for java.json and java.md")
    p.add_argument("--result", help="a java.json written before: draw it again")
    p.add_argument("--out", help="with --result: directory for java.json and java.md")
    p.add_argument("--readme", action="append", default=[],
                   help="file whose <!-- bench-java:begin/end --> part gets the table (repeatable)")
    args = p.parse_args(argv)
    if args.result:
        result = json.loads(Path(args.result).read_text())
        target = args.out
    else:
        if not (args.jmh and args.check and args.results):
            p.error("give --jmh, --check and --results, or --result")
        result = build(args)
        target = args.results
    md = markdown(result)
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        Path(target, "java.json").write_text(json.dumps(result, indent=2) + "\n")
        Path(target, "java.md").write_text(md)
    for f in args.readme:
        Path(f).write_text(replace_block(Path(f).read_text(), md))
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
