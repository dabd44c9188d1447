#!/usr/bin/env python3
"""The Rust benchmark's table (make bench-rust, docs/benchmarks.md "Rust").

Reads criterion's figures of one `cargo bench --bench trade` run (DIR/criterion/*/new: the
median of its estimates, the best round of its samples), the row lines of `trade --check` (status,
reason, message size) and the instruction counts of --count, and writes rust.json and rust.md
into --out, the Markdown on stdout, with the issue's goals marked met or not met:

  report.py --criterion build/bench-rust/target/criterion --check build/bench-rust/check.txt \
            --instr build/bench-rust/instr.json --lock bench/rust/Cargo.lock \
            --cpp bench/results/latest.json --out build/bench-rust

With --count BIN it counts the instructions of one operation of every benchmark BIN lists
instead, under callgrind: `BIN --stable ROW/OP 1` and `... N`, (Ir(N) - Ir(1)) / (N - 1), written
to --instr (times on a shared 2-core machine vary with the load, instruction counts repeat).

With --result (a rust.json written before) it draws that run again: --out writes rust.{json,md}
there, --docs replaces the part of the file between <!-- bench-rust:begin --> and
<!-- bench-rust:end --> (make bench-publish).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path
from typing import Any


def replace_block(text: str, markers: tuple[str, str], block: str) -> str:
    """bench/report.py's (the C++ table's) marker replacement."""
    spec = importlib.util.spec_from_file_location("bench_report", Path(__file__).resolve().parents[1] / "report.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.replace_block(text, markers, block))

MARKERS = ("<!-- bench-rust:begin -->", "<!-- bench-rust:end -->")
OPS = ("serialize", "deserialize", "verify")
OURS = ("ours", "ours-final")
# Deserialize without the touch (`trade --stable ROW/read N`): bytes -> the reused domain object and
# nothing else, as the C++ table's deserialize (docs/benchmarks.md, "Method"); counted for our rows,
# whose deserialize is compared with their C++ twins' on it.
READ = "read"
WITH_CPP = ("ours", "ours-final", "ours-json")  # our rows compared with their C++ twins
COLLECTED = re.compile(r"Collected : (\d+)")
# Callgrind counts a `rep movsb/stosb` as one instruction whatever its length (mk/bench.mk).
TUNABLES = "glibc.cpu.x86_rep_movsb_threshold=1000000000:glibc.cpu.x86_rep_stosb_threshold=1000000000"


def benchmarks(binary: str) -> list[tuple[str, str]]:
    """(row, operation) of every benchmark the binary registers (criterion's --list)."""
    out = subprocess.run([binary, "--bench", "--list"], capture_output=True, text=True, check=True).stdout
    names = [line.split(": ")[0] for line in out.splitlines() if line.endswith(": benchmark")]
    return [tuple(n.split("/")[1:3]) for n in names if n.startswith("trade/")]  # type: ignore[misc]


def count(binary: str, n: int, out: str) -> int:
    counts: dict[str, dict[str, float]] = {}
    names = benchmarks(binary)
    # our rows' deserialize without the touch too: what the C++ table's deserialize measures
    names += [(row, READ) for row, op in names if row in WITH_CPP and op == "deserialize"]
    env = {**os.environ, "GLIBC_TUNABLES": TUNABLES}
    for k, (row, op) in enumerate(names, 1):
        totals = []
        for runs in (1, n):
            r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary,
                                "--stable", f"{row}/{op}", str(runs)], capture_output=True, text=True, env=env,
                               check=False)
            m = COLLECTED.search(r.stderr)
            if r.returncode != 0 or not m:
                sys.stderr.write(f"{row}/{op}: callgrind run failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
                return 1
            totals.append(int(m[1]))
        counts.setdefault(row, {})[op] = (totals[1] - totals[0]) / (n - 1)
        print(f"bench-rust: callgrind {k}/{len(names)} {row}/{op}: {counts[row][op]:,.0f} instructions", flush=True)
    Path(out).write_text(json.dumps({"n": n, "counts": counts}, indent=2) + "\n")
    return 0


def criterion_figures(folder: Path) -> dict[str, dict[str, dict[str, float]]]:
    """row -> operation -> {median_ns, best_ns, samples}: the median of criterion's estimates and
    the best round of its samples (a round's time over its iterations)."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for bench in sorted(folder.glob("*/new/benchmark.json")):
        full = json.loads(bench.read_text())["full_id"].split("/")
        if len(full) != 3 or full[0] != "trade":
            continue
        estimates = json.loads((bench.parent / "estimates.json").read_text())
        sample = json.loads((bench.parent / "sample.json").read_text())
        best = min(t / i for t, i in zip(sample["times"], sample["iters"]))
        out.setdefault(full[1], {})[full[2]] = {"median_ns": estimates["median"]["point_estimate"],
                                                "best_ns": best, "samples": len(sample["times"])}
    return out


def parse_check(text: str) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The `row` lines of --check (id, name, status, reason) and the `size` lines (id, bytes)."""
    rows: list[dict[str, Any]] = []
    sizes: dict[str, int] = {}
    for line in text.splitlines():
        parts = line.rstrip("\n").split("\t")
        if parts[0] == "row" and len(parts) >= 4:
            rows.append({"id": parts[1], "name": parts[2], "status": parts[3],
                         "reason": parts[4] if len(parts) > 4 else ""})
        elif parts[0] == "size" and len(parts) == 3:
            sizes[parts[1]] = int(parts[2])
    return rows, sizes


def lock_versions(lock: str) -> dict[str, str]:
    versions, name = {}, None
    for line in Path(lock).read_text().splitlines():
        if line.startswith("name = "):
            name = line.split('"')[1]
        elif line.startswith("version = ") and name:
            versions[name] = line.split('"')[1]
            name = None
    return versions


CRATES = {"prost": "prost", "flatbuffers": "flatbuffers", "capnp": "capnp", "bincode": "bincode", "rkyv": "rkyv",
          "serde_json": "serde_json"}


def cpp_ours(path: str | None) -> dict[str, dict[str, float]]:
    """Our C++ rows' instructions per operation (bench/results/latest.json of make bench)."""
    if not path or not Path(path).exists():
        return {}
    data = json.loads(Path(path).read_text())
    out = {r["id"]: {op: r[f"{op}_instructions"] for op in OPS if r.get(f"{op}_instructions")}
           for r in data["trade"] if r["id"] in WITH_CPP}
    out["source"] = data["context"].get("source", "")  # type: ignore[assignment]
    return out


def goals(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The goals of issue 25 for each of our rows, on medians, best rounds and instructions."""
    rows = {r["id"]: r for r in result["rows"] if r["status"] == "ok"}
    cpp = result.get("cpp", {})
    out = []

    def figure(row: str, op: str, kind: str) -> float | None:
        r = rows.get(row)
        return r.get(op, {}).get(kind) if r else None

    for ours in OURS:
        for op, peer in (("serialize", "bincode"), ("deserialize", "prost"), ("deserialize", "bincode"),
                         ("verify", "rkyv")):
            marks = {}
            for kind in ("median_ns", "best_ns", "instructions"):
                a, b = figure(ours, op, kind), figure(peer, op, kind)
                marks[kind] = None if a is None or b is None else {"ours": a, "peer": b, "met": a <= b}
            out.append({"row": ours, "goal": f"{op} ≤ {rows[peer]['name'] if peer in rows else peer}'s", **marks})
    for ours in WITH_CPP:
        for op in OPS:
            # like with like: the C++ deserialize reads every field into the object and touches none
            a = figure(ours, READ if op == "deserialize" else op, "instructions")
            c = cpp.get(ours, {}).get(op)
            if a is None and c is None:  # no verify in either language (JSON)
                continue
            mark = None if a is None or c is None else {"ours": a, "peer": c, "met": a <= 1.3 * c}
            what = "deserialize without the touch" if op == "deserialize" else op
            out.append({"row": ours, "goal": f"{what} within 1.3x of our C++ row (instructions)",
                        "instructions": mark})
    return out


def build(args: argparse.Namespace) -> dict[str, Any]:
    rows, sizes = parse_check(Path(args.check).read_text())
    figures = criterion_figures(Path(args.criterion))
    instr = json.loads(Path(args.instr).read_text()) if args.instr and Path(args.instr).exists() else {}
    versions = lock_versions(args.lock)
    for r in rows:
        krate = CRATES.get(r["id"])
        r["crate"] = f"{krate} {versions.get(krate, '?')}" if krate else ""
        r["size_bytes"] = sizes.get(r["id"])
        for op, f in figures.get(r["id"], {}).items():
            r[op] = dict(f)
        for op, n in instr.get("counts", {}).get(r["id"], {}).items():
            r.setdefault(op, {})["instructions"] = n
    source = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True,
                            check=False).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True, check=False).stdout.strip()
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    result: dict[str, Any] = {
        "context": {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    "source": source + (" (with uncommitted changes)" if dirty else ""), "rustc": rustc,
                    "cpus": os.cpu_count(), "machine": platform.machine(), "load_avg": list(os.getloadavg()),
                    "stable_n": instr.get("n"), "command": args.command},
        "rows": rows, "cpp": cpp_ours(args.cpp)}
    result["goals"] = goals(result)
    return result


def fmt(v: float | None, digits: int = 1) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 100 else f"{v:,.{digits}f}"


def markdown(result: dict[str, Any]) -> str:
    c = result["context"]
    rows = [r for r in result["rows"]]
    ok = {r["id"]: r for r in rows if r["status"] == "ok"}
    ref = ok.get("ours")
    lines = [(f"Command: `{c['command']}` at {c['source']}; {c['date']}; {c['rustc']}; {c['cpus']} CPUs; "
              f"load average {', '.join(f'{x:.2f}' for x in c['load_avg'])}."), "",
             ("| Row | Crate | Message size | Serialize ns | Deserialize+touch ns | Verify ns | Serialize vs ours "
              "| Deserialize vs ours | Serialize instr | Deserialize+touch instr | Verify instr |"),
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"| {r['name']} | {r.get('crate', '')} | {r['status']}: {r['reason']} |" + " |" * 8)
            continue

        def get(op: str, kind: str, row: dict[str, Any] = r) -> float | None:
            return row.get(op, {}).get(kind)

        def ratio(op: str) -> str:
            a, b = get(op, "median_ns"), get(op, "median_ns", ref) if ref else None
            return f"×{a / b:.2f}" if a and b else "—"

        lines.append("| " + " | ".join([
            r["name"], r.get("crate", ""), fmt(r.get("size_bytes"), 0),
            *(fmt(get(op, "median_ns")) + (f" ({fmt(get(op, 'best_ns'))})" if get(op, "best_ns") else "")
              for op in OPS),
            ratio("serialize"), ratio("deserialize"), *(fmt(get(op, "instructions"), 0) for op in OPS)]) + " |")
    lines += ["", ("Times: criterion's median of its samples, ns per operation, the best round in brackets "
                   "(a sample's time over its iterations); \"vs ours\" is the row's median over FBE (ours): above "
                   "×1 is slower. Instructions per operation from callgrind: (Ir(N) − Ir(1)) / (N − 1), "
                   f"N = {c.get('stable_n')}. Deserialize is bytes → the domain object (ours read into the reused "
                   "one, as C++), then every field read; the C++ table's deserialize reads no field, so the goals "
                   "compare it with ours without the touch (`trade --stable ROW/read N`)."), ""]
    cpp = result.get("cpp", {})
    lines += [(f"Goals of issue 25 (ours against the peers of this run; C++ instructions of "
               f"bench/results/latest.json, source {cpp.get('source', '?')}):"), "",
              "| Row | Goal | Median ns | Best round ns | Instructions |", "|---|---|---|---|---|"]
    name = {r["id"]: r["name"] for r in rows}
    for g in result["goals"]:
        cells = []
        for kind in ("median_ns", "best_ns", "instructions"):
            m = g.get(kind)
            cells.append("—" if m is None else
                         f"{'met' if m['met'] else '**not met**'} ({fmt(m['ours'])} vs {fmt(m['peer'])})")
        lines.append(f"| {name.get(g['row'], g['row'])} | {g['goal']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write(result: dict[str, Any], out: str) -> str:
    md = markdown(result)
    Path(out).mkdir(parents=True, exist_ok=True)
    Path(out, "rust.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    Path(out, "rust.md").write_text(md)
    return md


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", help="the bench binary: count instructions under callgrind into --instr")
    p.add_argument("--n", type=int, default=1001)
    p.add_argument("--criterion")
    p.add_argument("--check")
    p.add_argument("--instr")
    p.add_argument("--lock", default="bench/rust/Cargo.lock")
    p.add_argument("--cpp", default="bench/results/latest.json")
    p.add_argument("--out")
    p.add_argument("--command", default="make bench-rust")
    p.add_argument("--result")
    p.add_argument("--docs")
    args = p.parse_args()
    if args.count:
        return count(args.count, args.n, args.instr)
    result = json.loads(Path(args.result).read_text()) if args.result else build(args)
    md = markdown(result)
    if args.out:
        write(result, args.out)
    if args.docs:
        Path(args.docs).write_text(replace_block(Path(args.docs).read_text(), MARKERS, md.rstrip()))
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
