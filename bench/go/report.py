#!/usr/bin/env python3
"""The Go benchmark's table (make bench-go, docs/benchmarks.md "Go").

Reads the output of every round of `bench.test -test.bench` (testing.B lines:
ns/op, msg-bytes, B/op, allocs/op) and the row lines of `TestRows -v`, takes
the median of every figure over the rounds, and writes go.json and go.md into
--results, the Markdown on stdout:

  report.py --raw build/bench-go/raw.txt --check build/bench-go/check.txt \
            --gomod bench/go/go.mod --results build/bench-go --runs "..."

With --count BIN (the compiled benchmark) it counts the instructions of one
operation of every benchmark of --raw under callgrind instead, each run once
with 1 and once with N iterations (--n, fewer for slow benchmarks), without
garbage collection: (Ir(N) - Ir(1)) / (N - 1), written to
--instr as JSON; the report reads that file with --instr (times on a shared
2-core machine vary with the load, instruction counts repeat).

With --cpu BIN it measures the CPU time of one operation of every benchmark of
--raw instead: each run once with 1 and once with N iterations (about 50 ms of
its time), the process's user and system time (os.wait4: every thread, the
collector's included) (T(N) - T(1)) / (N - 1), in --cpu-rounds rounds that
take every benchmark in turn; the medians are written to --cpu-times as JSON,
which the report reads. A process that waits for a core does not count that
wait, so the figure holds on a loaded machine, where the times of the rounds
(wall clock) measure the load as much as the code.

With --result (a go.json written before) it draws that run again: --out
writes go.{json,md} there, --readme replaces the part of the file between
<!-- bench-go:begin --> and <!-- bench-go:end --> (make bench-publish).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

MARKERS = ("<!-- bench-go:begin -->", "<!-- bench-go:end -->")
BENCH_LINE = re.compile(r"^BenchmarkTrade/(?P<row>[^/\s]+)/(?P<op>[a-z]+)(?:-\d+)?\s+\d+\s+(?P<rest>.*)$")
OPS = ("serialize", "deserialize", "verify")
OURS, FINAL = "fbe", "fbe-final"
STRINGS = 6   # the sample's non-empty strings: what reading it into a reused object allocates (rows.go)


def parse_raw(text: str) -> dict[str, dict[str, dict[str, list[float]]]]:
    """row -> operation -> unit -> every value of every round."""
    out: dict[str, dict[str, dict[str, list[float]]]] = {}
    for line in text.splitlines():
        m = BENCH_LINE.match(line.strip())
        if not m:
            continue
        fields = m["rest"].split()
        units = out.setdefault(m["row"], {}).setdefault(m["op"], {})
        for value, unit in zip(fields[::2], fields[1::2]):
            units.setdefault(unit, []).append(float(value))
    return out


def parse_rows(text: str) -> list[dict[str, str]]:
    """The `row` lines TestRows logs: id, name, status (ok, failed, missing) and the reason."""
    rows = []
    for line in text.splitlines():
        parts = line.strip().split("\t")
        if len(parts) >= 4 and parts[0].endswith("row"):
            rows.append({"id": parts[1], "name": parts[2], "status": parts[3],
                         "reason": parts[4] if len(parts) > 4 else ""})
    return rows


def module_versions(gomod: str) -> dict[str, str]:
    """module -> version, from the require lines of go.mod (in a block or alone)."""
    versions = {}
    for line in Path(gomod).read_text().splitlines():
        words = line.split("//")[0].split()
        if words[:1] == ["require"]:
            words = words[1:]
        if len(words) == 2 and words[1].startswith("v"):
            versions[words[0]] = words[1]
    return versions


MODULES = {"protobuf": "google.golang.org/protobuf", "vtprotobuf": "github.com/planetscale/vtprotobuf",
           "vtprotobuf-pool": "github.com/planetscale/vtprotobuf", "msgp": "github.com/tinylib/msgp",
           "flatbuffers": "github.com/google/flatbuffers"}


COLLECTED = re.compile(r"Collected : (\d+)")


def count(binary: str, raw: str, n: int, out: str) -> int:
    """Instructions per operation of every benchmark of the raw output, under callgrind: the whole
    program once with 1 and once with N iterations, GOGC=off and GOMAXPROCS=1 so that no collection
    and no other processor's work lands in one run and not the other; N is n, fewer for slow
    benchmarks (about 5 ms of their time), at least 1001."""
    figures = parse_raw(Path(raw).read_text())
    names = sorted((row, op) for row, ops in figures.items() for op in ops)
    counts: dict[str, dict[str, float]] = {}
    iterations: dict[str, dict[str, int]] = {}
    env = {**os.environ, "GODEBUG": "asyncpreemptoff=1", "GOGC": "off", "GOMAXPROCS": "1"}
    for k, (row, op) in enumerate(names, 1):
        ns = statistics.median(figures[row][op]["ns/op"])
        big = max(1001, min(n, int(5e6 / max(ns, 1.0))))
        totals = []
        for runs in (1, big):
            r = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "-test.run", "^$",
                 "-test.bench", f"^BenchmarkTrade$/^{re.escape(row)}$/^{op}$", "-test.benchtime", f"{runs}x"],
                capture_output=True, text=True, env=env, check=False)
            m = COLLECTED.search(r.stderr)
            if r.returncode != 0 or not m:
                sys.stderr.write(f"{row}/{op}: callgrind run failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
                return 1
            totals.append(int(m[1]))
        counts.setdefault(row, {})[op] = (totals[1] - totals[0]) / (big - 1)
        iterations.setdefault(row, {})[op] = big
        print(f"bench-go: callgrind {k}/{len(names)} {row}/{op}: {counts[row][op]:,.0f} instructions "
              f"(N = {big})", flush=True)
    Path(out).write_text(json.dumps({"n": n, "counts": counts, "iterations": iterations}, indent=2) + "\n")
    return 0


def cpu_times(binary: str, raw: str, rounds: int, out: str) -> int:
    """CPU time per operation of every benchmark of the raw output (see the module's doc): the
    median over the rounds of (T(N) - T(1)) / (N - 1), T the process's user + system time."""
    figures = parse_raw(Path(raw).read_text())
    names = sorted((row, op) for row, ops in figures.items() for op in ops)
    every: dict[str, dict[str, list[float]]] = {}
    for k in range(1, rounds + 1):
        for row, op in names:
            big = max(1001, int(5e7 / max(statistics.median(figures[row][op]["ns/op"]), 1.0)))
            took = []
            for runs in (1, big):
                proc = subprocess.Popen(
                    [binary, "-test.run", "^$", "-test.bench", f"^BenchmarkTrade$/^{re.escape(row)}$/^{op}$",
                     "-test.benchtime", f"{runs}x"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                assert proc.stderr is not None
                err = proc.stderr.read()
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                if proc.returncode != 0:
                    sys.stderr.write(f"{row}/{op}: run failed:\n{err.decode(errors='replace')[-2000:]}")
                    return 1
                took.append(usage.ru_utime + usage.ru_stime)
            every.setdefault(row, {}).setdefault(op, []).append((took[1] - took[0]) * 1e9 / (big - 1))
        print(f"bench-go: CPU time round {k}/{rounds}", flush=True)
    medians = {row: {op: statistics.median(v) for op, v in ops.items()} for row, ops in every.items()}
    Path(out).write_text(json.dumps({"rounds": rounds, "cpu": medians, "every": every}, indent=2) + "\n")
    return 0


def build(args: argparse.Namespace) -> dict[str, Any]:
    raw = parse_raw(Path(args.raw).read_text())
    rows = parse_rows(Path(args.check).read_text())
    versions = module_versions(args.gomod)
    go_version = subprocess.run([args.go, "version"], capture_output=True, text=True, check=False).stdout.strip()
    source = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True, check=False).stdout.strip()
    instr = json.loads(Path(args.instr).read_text()) if args.instr and Path(args.instr).is_file() else None
    cpu_file = getattr(args, "cpu_times", None)
    cpu = json.loads(Path(cpu_file).read_text()) if cpu_file and Path(cpu_file).is_file() else None
    out_rows = []
    for r in rows:
        figures: dict[str, dict[str, float]] = {}
        for op in OPS:
            units = raw.get(r["id"], {}).get(op)
            if units:
                figures[op] = {unit: statistics.median(values) for unit, values in units.items()}
                figures[op]["best ns/op"] = min(units["ns/op"])
        status = r["status"]
        if status == "ok" and not figures:
            status, r["reason"] = "failed", "no timing (see the run's output)"
        module = MODULES.get(r["id"])
        for op, value in (instr["counts"].get(r["id"], {}) if instr else {}).items():
            figures.setdefault(op, {})["instructions"] = value
        for op, value in (cpu["cpu"].get(r["id"], {}) if cpu else {}).items():
            figures.setdefault(op, {})["cpu ns/op"] = value
        out_rows.append({**r, "status": status, "module": module, "version": versions.get(module or "", ""),
                         "figures": figures,
                         "rounds": len(raw.get(r["id"], {}).get("serialize", {}).get("ns/op", []))})
    return {
        "rows": out_rows,
        "run": {
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpus": os.cpu_count(), "machine": platform.machine(), "go": go_version,
            "source": source + ("+changes" if dirty else ""), "load": [round(x, 2) for x in os.getloadavg()],
            "runs": args.runs, "callgrind_n": instr["n"] if instr else None,
            "cpu_rounds": cpu["rounds"] if cpu else None,
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
    """The issue's goals judged on the medians of times (unit ns/op), on each row's best round
    (best ns/op) or on instruction counts (instructions)."""
    by_id = {r["id"]: r for r in result["rows"] if r["status"] == "ok"}
    ours, final = by_id.get(OURS), by_id.get(FINAL)
    if not ours or not final:
        return ["- not judged: our rows did not run"]
    timed = unit.endswith("ns/op")
    what = "ns" if timed else "instructions"

    def f(row: dict[str, Any], op: str) -> float:
        value = fig(row, op, unit)
        assert value is not None, (row["id"], op, unit)
        return value

    def show(v: float) -> str:
        return f"{fmt_ns(v) if timed else fmt_int(v)} {what}"

    lines = []
    s_ours, s_final, d_ours, d_final = f(ours, "serialize"), f(final, "serialize"), f(ours, "deserialize"), \
        f(final, "deserialize")
    v_ours, v_final = f(ours, "verify"), f(final, "verify")
    vt = [f(by_id[i], "serialize") for i in ("vtprotobuf", "vtprotobuf-pool") if i in by_id]
    if vt:
        best = min(vt)
        lines.append(f"- serialize ≤ vtprotobuf's best ({show(best)}): versioned {show(s_ours)} "
                     f"{verdict(s_ours <= best)}, final {show(s_final)} {verdict(s_final <= best)}")
    if "msgp" in by_id:
        m = f(by_id["msgp"], "deserialize")
        lines.append(f"- deserialize + touch ≤ msgp's ({show(m)}): versioned {show(d_ours)} "
                     f"{verdict(d_ours <= m)}, final {show(d_final)} {verdict(d_final <= m)}")
    lines.append(f"- final ≤ versioned: serialize {show(s_final)} vs {show(s_ours)} {verdict(s_final <= s_ours)}, "
                 f"deserialize + touch {show(d_final)} vs {show(d_ours)} {verdict(d_final <= d_ours)}")
    lines.append(f"- verify ≤ deserialize: versioned {show(v_ours)} vs {show(d_ours)} {verdict(v_ours <= d_ours)}, "
                 f"final {show(v_final)} vs {show(d_final)} {verdict(v_final <= d_final)}")
    if unit != "ns/op":
        return lines
    allocs = {(r, op): fig(row, op, "allocs/op") for r, row in (("versioned", ours), ("final", final)) for op in OPS}
    zero = all(allocs[(r, op)] == 0 for r in ("versioned", "final") for op in ("serialize", "verify"))
    strings = all(allocs[(r, "deserialize")] == STRINGS for r in ("versioned", "final"))
    lines.append(f"- 0 allocs/op on the reuse paths: serialize into a reused `fbe.Writer` and verify "
                 f"{verdict(zero)} (versioned {fmt_int(allocs[('versioned', 'serialize')])} / "
                 f"{fmt_int(allocs[('versioned', 'verify')])}, final {fmt_int(allocs[('final', 'serialize')])} / "
                 f"{fmt_int(allocs[('final', 'verify')])}); deserialize into a reused `proto.Account`, strings aside: "
                 f"{verdict(strings)} ({fmt_int(allocs[('versioned', 'deserialize')])} and "
                 f"{fmt_int(allocs[('final', 'deserialize')])} allocs/op = the sample's {STRINGS} strings)")
    return lines


def markdown(result: dict[str, Any]) -> str:
    rows = result["rows"]
    ours = next((r for r in rows if r["id"] == OURS and r["status"] == "ok"), None)
    ref_s = fig(ours, "serialize") if ours else None
    ref_d = fig(ours, "deserialize") if ours else None
    counted = bool(result["run"].get("callgrind_n"))
    cpu = bool(result["run"].get("cpu_rounds"))
    extra = (" Serialize CPU ns | De+touch CPU ns | Verify CPU ns |" if cpu else "") + \
        (" Serialize instr | De+touch instr | Verify instr |" if counted else "")
    lines = [
        "#### Go, trade model (Account id 1 'Test', state good, wallet USD 1000, asset EUR 100, 3 EURUSD orders)",
        "",
        ("| Row | Message size | Serialize ns | De+touch ns | Verify ns | Serialize vs ours | De+touch vs ours "
         "| Serialize allocs | De+touch allocs | Verify allocs |" + extra),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * (3 * cpu + 3 * counted),
    ]
    notes = []
    for r in rows:
        name = r["name"] + (f" {r['version']}" if r.get("version") else "")
        if r["status"] != "ok":
            lines.append(f"| {name} | " + " | ".join(["—"] * (9 + 3 * cpu + 3 * counted)) + " |")
            notes.append(f"{r['name']}: {r['reason']}")
            continue
        s, d, v = fig(r, "serialize"), fig(r, "deserialize"), fig(r, "verify")
        lines.append(
            f"| {name} | {fmt_int(fig(r, 'serialize', 'msg-bytes'))} | {fmt_ns(s)} | {fmt_ns(d)} | {fmt_ns(v)} "
            f"| {fmt_ratio(s, ref_s)} | {fmt_ratio(d, ref_d)} | {fmt_int(fig(r, 'serialize', 'allocs/op'))} "
            f"| {fmt_int(fig(r, 'deserialize', 'allocs/op'))} | {fmt_int(fig(r, 'verify', 'allocs/op'))} |"
            + ("".join(f" {fmt_ns(fig(r, op, 'cpu ns/op'))} |" for op in OPS) if cpu else "")
            + ("".join(f" {fmt_int(fig(r, op, 'instructions'))} |" for op in OPS) if counted else ""))
    run = result["run"]
    lines += ["", "Goals (issue 15) on this run's times:", "", *goals(result), ""]
    if all("best ns/op" in op for r in rows if r["status"] == "ok" for op in r["figures"].values()):
        best = "The same goals on each row's best round (the least disturbed one: the estimate for a quiet machine):"
        lines += [best, "", *goals(result, "best ns/op"), ""]
    if cpu:
        head = (f"The same goals on CPU time per operation (the process's, the collector's included; medians of "
                f"{result['run']['cpu_rounds']} rounds: waiting for a core does not count, so it holds under load):")
        lines += [head, "", *goals(result, "cpu ns/op"), ""]
    if counted:
        lines += ["The same goals on instructions per operation (callgrind, repeatable whatever the load):", "",
                  *goals(result, "instructions"), ""]
    if notes:
        lines += ["Not timed: " + "; ".join(notes) + ".", ""]
    lines += [
        (f"Run: {run['date']}; {run['cpus']} CPUs ({run['machine']}); {run['go']}; source {run['source']}; "
        f"{run['runs']}; load average {', '.join(str(x) for x in run['load'])}."),
        ("Times are medians over the rounds of testing.B (ns per operation, `-benchmem` allocations per "
        "operation); every row converts from/to the same generated domain object (`proto.Account`), "
        "reusing its buffer, builder or message and the domain object; de+touch = bytes → the reused domain "
        "object, then every field read; \"vs ours\" is the row's time divided by FBE (ours, versioned): "
        "above ×1 is slower. FlatBuffers (Go, flatc 2.0.8) has no verifier: its reads trust the input."),
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
    p.add_argument("--raw", help="the bench.test output of every round")
    p.add_argument("--check", help="the TestRows -v output (row lines)")
    p.add_argument("--gomod", default=str(Path(__file__).with_name("go.mod")))
    p.add_argument("--go", default=shutil.which("go") or "/usr/local/go/bin/go")
    p.add_argument("--runs", default="", help="how the rounds were run, for the run line")
    p.add_argument("--results", help="directory for go.json and go.md")
    p.add_argument("--result", help="a go.json written before: draw it again")
    p.add_argument("--out", help="with --result: directory for go.json and go.md")
    p.add_argument("--count", metavar="BIN", help="count instructions of the benchmarks of --raw with BIN")
    p.add_argument("--n", type=int, default=2001, help="iterations of the long callgrind run")
    p.add_argument("--instr", help="the instruction counts (--count writes, the report reads)")
    p.add_argument("--cpu", metavar="BIN", help="measure the CPU time of the benchmarks of --raw with BIN")
    p.add_argument("--cpu-rounds", type=int, default=5, help="rounds of the CPU time measurement")
    p.add_argument("--cpu-times", help="the CPU times (--cpu writes, the report reads)")
    p.add_argument("--readme", action="append", default=[],
                   help="file whose <!-- bench-go:begin/end --> part gets the table (repeatable)")
    args = p.parse_args(argv)
    if args.count:
        if not (args.raw and args.instr):
            p.error("--count needs --raw and --instr")
        return count(args.count, args.raw, args.n, args.instr)
    if args.cpu:
        if not (args.raw and args.cpu_times):
            p.error("--cpu needs --raw and --cpu-times")
        return cpu_times(args.cpu, args.raw, args.cpu_rounds, args.cpu_times)
    if args.result:
        result = json.loads(Path(args.result).read_text())
        target = args.out
    else:
        if not (args.raw and args.check and args.results):
            p.error("give --raw, --check and --results, or --result")
        result = build(args)
        target = args.results
    md = markdown(result)
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        Path(target, "go.json").write_text(json.dumps(result, indent=2) + "\n")
        Path(target, "go.md").write_text(md)
    for f in args.readme:
        Path(f).write_text(replace_block(Path(f).read_text(), md))
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
