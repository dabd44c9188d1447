#!/usr/bin/env python3
"""Turn fbe_bench output into the benchmark tables, JSON and chart.

Inputs (all Google Benchmark's own JSON output, plus callgrind's dumps):
  --time FILE       fbe_bench --benchmark_out (repetitions; medians are used)
  --stable FILE     fbe_bench --stable=N --benchmark_out, run under callgrind
  --callgrind DIR   the callgrind dumps of that run (one per timed loop)
  --result FILE     instead of the three above: the JSON of an earlier run
                    (PREFIX.json), to draw or publish it again
Outputs:
  stdout            the Markdown tables
  --out PREFIX      PREFIX.json (machine-readable) and PREFIX.md (the tables)
  --png FILE        bar chart of every measured operation (matplotlib)
  --readme FILE     replaces the part of FILE between <!-- bench:begin --> and
                    <!-- bench:end --> with the trade table, its run line and
                    the chart (a short page of your own; make bench-publish
                    writes docs/benchmarks.md only, with --docs)
  --docs FILE       the same between <!-- results:begin --> and
                    <!-- results:end --> with every table (docs/benchmarks.md)

Row status (ok / FAILED / not available yet) comes from the "row/<model>/<id>"
entries fbe_bench puts in the JSON context, so failed and missing rows are
listed, never given numbers.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import signal
import sys
from pathlib import Path

TRADE_ORDER = ["ours", "ours-final", "ours-fields", "ours-json", "protobuf", "capnp", "flatbuffers", "sbe", "rapidjson",
               "cereal", "msgpack"]
GRAPH_ORDER = ["ours", "ours-final", "ours-views", "ours-verified-views", "capnp", "flatbuffers", "cereal", "protobuf"]
TRADE_OPS = ["serialize", "deserialize", "verify"]
GRAPH_OPS = ["serialize", "deserialize", "verify", "traverse", "deserialize_traverse"]
REFERENCE = "ours"  # ratios are to our versioned format

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def load(path: str | None) -> dict | None:
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def rows_from_context(ctx: dict) -> dict:
    """{model: {id: {"label":..., "status":...}}} from the run context."""
    rows: dict = {"trade": {}, "graph": {}}
    for key, value in ctx.items():
        m = re.fullmatch(r"row/(trade|graph)/(.+)", key)
        if m:
            label, _, status = str(value).partition("|")
            rows[m.group(1)][m.group(2)] = {"label": label, "status": status}
    return rows


def medians(doc: dict) -> dict:
    """{(model, id, op): {"ns": median real time, "cv": ..., "bytes": ...}}."""
    out: dict = {}
    for b in doc.get("benchmarks", []):
        name = re.sub(r"/iterations:\d+$", "", b.get("run_name") or b["name"])
        m = re.fullmatch(r"(trade|graph)/([^/]+)/([^/]+)", name)
        if not m:
            continue
        key = (m.group(1), m.group(2), m.group(3))
        agg = b.get("aggregate_name")
        entry = out.setdefault(key, {})
        if b.get("error_occurred"):
            entry["error"] = b.get("error_message", "error")
            continue
        # CPU time of the benchmark thread: unlike wall time it does not count
        # the time other processes held the core (the machine has 2 cores).
        ns = float(b["cpu_time"]) * UNIT_NS[b.get("time_unit", "ns")]
        if agg == "median" or (agg is None and "ns" not in entry):
            entry["ns"] = ns
            if "bytes" in b:
                entry["bytes"] = round(b["bytes"])
        elif agg == "cv":
            entry["cv"] = float(b["cpu_time"])
        elif agg == "stddev":
            entry["stddev_ns"] = ns
    return out


def callgrind_counts(directory: str | None) -> dict:
    """{"trade/<id>/<op>@<n>": Ir} from the dumps triggered by fbe_bench."""
    counts: dict = {}
    if not directory or not os.path.isdir(directory):
        return counts
    for path in sorted(Path(directory).glob("cg.out.*")):
        label = ir = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                prefix = "desc: Trigger: Client Request: "
                if line.startswith(prefix):
                    label = line[len(prefix):].strip()
                elif line.startswith("summary:"):
                    ir = int(line.split()[1])
                    break
        if label and ir is not None:
            counts[label] = ir
    return counts


def instructions(counts: dict) -> dict:
    """{(model, id, op): instructions per operation} = (Ir(N) - Ir(1)) / (N - 1)."""
    by_name: dict = {}
    for label, ir in counts.items():
        name, _, n = label.rpartition("@")
        by_name.setdefault(name, {})[int(n)] = ir
    out = {}
    for name, runs in by_name.items():
        m = re.fullmatch(r"(trade|graph)/([^/]+)/([^/]+)", name)
        if not m or 1 not in runs or len(runs) < 2:
            continue
        n = max(runs)
        out[(m.group(1), m.group(2), m.group(3))] = (runs[n] - runs[1]) / (n - 1)
    return out


def profile(directory: str, label: str, top: int = 15) -> str:
    """Exclusive instructions per function in the callgrind dump of one timed
    loop (label like trade/ours/deserialize@1001), for finding hot spots."""
    for path in sorted(Path(directory).glob("cg.out.*")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if f"Client Request: {label}\n" not in text:
            continue
        names: dict = {}
        cost: dict = {}
        fn = None
        after_call = False
        for line in text.splitlines():
            if line.startswith("fn="):
                m = re.fullmatch(r"fn=(?:\((\d+)\))?\s*(.*)", line)
                ident, name = m.group(1), m.group(2)
                if ident and name:
                    names[ident] = name
                fn = names.get(ident, name) if ident else name
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                if after_call:
                    after_call = False
                elif fn is not None and len(parts) >= 2:
                    cost[fn] = cost.get(fn, 0) + int(parts[1])
        total = sum(cost.values()) or 1
        n = int(label.rpartition("@")[2] or 1)
        rows = [f"{c / n:10.1f} {100 * c / total:5.1f}%  {f[:140]}"
                for f, c in sorted(cost.items(), key=lambda kv: -kv[1])[:top]]
        return f"instructions per iteration, exclusive, in {path}:\n" + "\n".join(rows)
    return f"no callgrind dump labelled {label} in {directory}"


def fmt_ns(v: float | None) -> str:
    if v is None:
        return "—"
    return f"{v:,.0f}" if v >= 100 else f"{v:.1f}"


def fmt_us(v: float | None) -> str:
    return "—" if v is None else f"{v / 1e3:,.1f}"


def fmt_minstr(v: float | None) -> str:
    return "—" if v is None else f"{v / 1e6:.2f}"


def fmt_ratio(v: float | None, ref: float | None) -> str:
    if v is None or not ref:
        return "—"
    return f"×{v / ref:.2f}"


def fmt_size(v: int | None) -> str:
    return "—" if v is None else f"{v:,}"


def order(ids, preferred):
    return [i for i in preferred if i in ids] + sorted(i for i in ids if i not in preferred)


def build(args) -> dict:
    time_doc = load(args.time)
    stable_doc = load(args.stable)
    ctx = {}
    for d in (stable_doc, time_doc):  # the timing run's context wins
        if d:
            ctx.update(d.get("context", {}))
    rows = rows_from_context(ctx)
    times = medians(time_doc) if time_doc else {}
    instr = instructions(callgrind_counts(args.callgrind)) if stable_doc else {}
    if stable_doc:
        stable_rows = rows_from_context(stable_doc.get("context", {}))
        for model in ("trade", "graph"):
            for key, value in stable_rows[model].items():
                rows[model].setdefault(key, value)

    result = {
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "reference_row": REFERENCE,
        "context": {k: v for k, v in ctx.items() if not k.startswith("row/")},
        "trade": [],
        "graph": [],
    }
    for rid in order(rows["trade"].keys(), TRADE_ORDER):
        info = rows["trade"][rid]
        row = {"id": rid, "protocol": info["label"], "status": info["status"]}
        if info["status"] == "ok":
            size = None
            for op in TRADE_OPS:
                t = times.get(("trade", rid, op))
                if t and "error" in t:
                    row[f"{op}_error"] = t["error"]
                if t and "ns" in t:
                    row[f"{op}_ns"] = round(t["ns"], 2)
                    if "cv" in t:
                        row[f"{op}_cv"] = round(t["cv"], 4)
                    size = size or t.get("bytes")
                if ("trade", rid, op) in instr:
                    row[f"{op}_instructions"] = round(instr[("trade", rid, op)], 1)
            if size is None and stable_doc:
                size = medians(stable_doc).get(("trade", rid, "serialize"), {}).get("bytes")
            row["size_bytes"] = size
        result["trade"].append(row)
    for rid in order(rows["graph"].keys(), GRAPH_ORDER):
        info = rows["graph"][rid]
        row = {"id": rid, "protocol": info["label"], "status": info["status"]}
        if info["status"] == "ok":
            for op in GRAPH_OPS:
                t = times.get(("graph", rid, op))
                if t and "error" in t:
                    row[f"{op}_error"] = t["error"]
                if t and "ns" in t:
                    row[f"{op}_ns"] = round(t["ns"], 1)
                    if "cv" in t:
                        row[f"{op}_cv"] = round(t["cv"], 4)
                    row["size_bytes"] = row.get("size_bytes") or t.get("bytes")
                if ("graph", rid, op) in instr:
                    row[f"{op}_instructions"] = round(instr[("graph", rid, op)])
            if not row.get("size_bytes") and stable_doc:
                row["size_bytes"] = medians(stable_doc).get(("graph", rid, "serialize"), {}).get("bytes")
        result["graph"].append(row)
    return result


def markdown(result: dict) -> str:
    lines = []
    ctx = result["context"]
    have_time = any("serialize_ns" in r for r in result["trade"])
    have_instr = any("serialize_instructions" in r for r in result["trade"])
    ref = next((r for r in result["trade"] if r["id"] == REFERENCE and r["status"] == "ok"), None)

    lines.append(f"### Trade model ({ctx.get('trade_model', 'one account, three orders')})")
    lines.append("")
    head = ["Protocol", "Message size"]
    if have_time:
        head += ["Serialize ns", "Deserialize ns", "Verify ns", "Serialize vs ours", "Deserialize vs ours"]
    if have_instr:
        head += ["Serialize instr", "Deserialize instr", "Verify instr"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    notes = []
    for r in result["trade"]:
        if r["status"] != "ok":
            notes.append(f"- **{r['protocol']}**: {r['status']}")
            cells = [r["protocol"], "—"] + ["—"] * (len(head) - 2)
            lines.append("| " + " | ".join(cells) + " |")
            continue
        cells = [r["protocol"], fmt_size(r.get("size_bytes"))]
        if have_time:
            cells += [fmt_ns(r.get("serialize_ns")), fmt_ns(r.get("deserialize_ns")), fmt_ns(r.get("verify_ns")),
                      fmt_ratio(r.get("serialize_ns"), ref and ref.get("serialize_ns")),
                      fmt_ratio(r.get("deserialize_ns"), ref and ref.get("deserialize_ns"))]
        if have_instr:
            cells += [fmt_ns(r.get(f"{op}_instructions")) for op in TRADE_OPS]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    run = [f"{ctx.get('date', '?')}", f"{ctx.get('num_cpus', '?')} CPUs @ {ctx.get('mhz_per_cpu', '?')} MHz",
           f"gcc {ctx.get('compiler', '?')}", f"source {ctx.get('source', '?')}"]
    load = ctx.get("load_avg")
    if load:
        run.append("load average " + ", ".join(f"{x:.2f}" for x in load))
    lines.append("Run: " + "; ".join(run) + ".")
    if have_time and load and ctx.get("num_cpus") and load[0] > 0.75 * ctx["num_cpus"]:
        lines.append("**Warning: the machine was busy during this run (1-minute load average near or above the CPU "
                     "count); times are inflated and noisy, the instruction counts are not affected.**")
    if have_time:
        lines.append("Times are medians of Google Benchmark repetitions (CPU time of the benchmark thread, ns per "
                     "operation); \"vs ours\" is the row's time divided by FBE (ours, versioned): above ×1 is slower.")
    if have_instr:
        lines.append(f"Instructions per operation from callgrind: (Ir(N) − Ir(1)) / (N − 1), "
                     f"N = {ctx.get('stable_n', '?')}.")
    lines.append("")

    graph = [r for r in result["graph"]]
    g_time = any("serialize_ns" in r for r in graph)
    g_instr = any("serialize_instructions" in r for r in graph)
    if graph and (g_time or g_instr):
        lines.append(f"### Graph model ({ctx.get('graph_model', '')})")
        lines.append("")
        gh = ["Protocol", "Message size"]
        if g_time:
            gh += ["Serialize µs", "Deserialize µs", "Verify µs", "Traverse µs", "Deserialize+traverse µs"]
        if g_instr:
            gh += ["Serialize Minstr", "Deserialize Minstr", "Verify Minstr", "Traverse Minstr",
                   "Deserialize+traverse Minstr"]
        lines.append("| " + " | ".join(gh) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * (len(gh) - 1)) + "|")
        for r in graph:
            if r["status"] != "ok":
                notes.append(f"- **{r['protocol']}** (graph): {r['status']}")
                lines.append("| " + " | ".join([r["protocol"]] + ["—"] * (len(gh) - 1)) + " |")
                continue
            cells = [r["protocol"], fmt_size(r.get("size_bytes"))]
            if g_time:
                cells += [fmt_us(r.get(f"{op}_ns")) for op in GRAPH_OPS]
            if g_instr:
                cells += [fmt_minstr(r.get(f"{op}_instructions")) for op in GRAPH_OPS]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if g_instr:
            lines.append(f"Graph instructions in millions per operation, (Ir(M) − Ir(1)) / (M − 1), "
                         f"M = {ctx.get('stable_graph_n', '?')}.")
        lines.append("Traverse: breadth-first walk from node 0 summing Node.value, over the row's read view "
                     "(the buffer itself for Cap'n Proto and FlatBuffers, the decoded object otherwise).")
        lines.append("")
    if notes:
        lines.append("Rows without numbers:")
        lines.append("")
        lines.extend(notes)
        lines.append("")
    errors = [f"- {r['protocol']} {k[:-6]}: {v}" for r in result["trade"] + result["graph"]
              for k, v in r.items() if k.endswith("_error")]
    if errors:
        lines.append("Benchmarks that reported an error:")
        lines.extend(errors)
        lines.append("")
    return "\n".join(lines)


TRADE_CHART_OPS = TRADE_OPS
GRAPH_CHART_OPS = GRAPH_OPS
OP_COLORS = {"serialize": "#2b6cb0", "deserialize": "#dd6b20", "verify": "#38a169", "traverse": "#805ad5",
             "deserialize_traverse": "#718096"}


def chart_panels(result: dict) -> list[dict]:
    """The chart's panels: every measured operation of every model, times and instruction counts.

    Each panel: title, unit, rows (protocol names), ops, and values[op] (one
    number per row, None where the row does not measure the operation)."""
    graph_model = result["context"].get("graph_model", "")
    specs = [
        ("trade", "ns", 1.0, "ns per operation (median, lower is better)",
         "Trade model: one account, three orders — time"),
        ("trade", "instructions", 1.0, "instructions per operation (callgrind)",
         "Trade model — instructions per operation (repeatable)"),
        ("graph", "ns", 1e3, "µs per operation (median, lower is better)",
         f"Graph model ({graph_model}) — time"),
        ("graph", "instructions", 1e6, "million instructions per operation (callgrind)",
         f"Graph model ({graph_model}) — instructions per operation"),
    ]
    panels = []
    for model, field, scale, unit, title in specs:
        ops_all = TRADE_CHART_OPS if model == "trade" else GRAPH_CHART_OPS
        rows = [r for r in result[model] if any(f"{op}_{field}" in r for op in ops_all)]
        ops = [op for op in ops_all if any(f"{op}_{field}" in r for r in rows)]
        if not rows:
            continue
        values = {op: [r[f"{op}_{field}"] / scale if f"{op}_{field}" in r else None for r in rows] for op in ops}
        panels.append({"title": title, "unit": unit, "rows": [r["protocol"] for r in rows], "ops": ops,
                       "values": values})
    return panels


def fmt_value(v: float) -> str:
    """A bar's label: three significant digits, thousands as k (2.95k, 17.7k)."""
    return f"{v / 1000:.3g}k" if v >= 1000 else f"{v:.3g}"


def fmt_tick(v: float) -> str:
    """A tick of a log axis at 1, 2 and 5 per decade: 0.5, 20, 200, 5k, 10k, 2M."""
    for limit, suffix in ((1e6, "M"), (1e3, "k")):
        if v >= limit:
            return f"{v / limit:g}{suffix}"
    return f"{v:g}"


def chart(result: dict, path: str) -> dict:
    """Draws chart_panels() into a PNG; returns {panel title: the value labels drawn}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    panels = chart_panels(result)
    if not panels:
        return {}
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 5.0 * len(panels)), squeeze=False)
    drawn: dict = {}
    for ax, panel in zip((a[0] for a in axes), panels):
        rows, ops = panel["rows"], panel["ops"]
        width = 0.8 / len(ops)
        labels_drawn = []
        present = [v for op in ops for v in panel["values"][op] if v]
        for k, op in enumerate(ops):
            xs = [x - 0.4 + width * (k + 0.5) for x in range(len(rows))]
            pairs = [(x, v) for x, v in zip(xs, panel["values"][op]) if v]  # no bar where nothing was measured
            if not pairs:
                continue
            bars = ax.bar([x for x, _ in pairs], [v for _, v in pairs], width, label=op.replace("_", "+"),
                          color=OP_COLORS.get(op, "#4a5568"))
            texts = [fmt_value(v) for _, v in pairs]
            ax.bar_label(bars, labels=texts, rotation=90, padding=2, fontsize=7)
            labels_drawn += texts
        ax.set_xticks(list(range(len(rows))))
        ax.set_xticklabels(rows, rotation=20, ha="right")
        ax.set_yscale("log")  # JSON rows are 10-50x the binary ones
        # Ticks at 1, 2 and 5 of every decade, written out: the short bars get a readable scale too.
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: fmt_tick(v)))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_ylim(min(present) / 2, max(present) * 4)  # room for the value labels above the bars
        ax.set_ylabel(panel["unit"] + ", log scale")
        ax.set_title(panel["title"])
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, ncol=len(ops), loc="upper left")
        drawn[panel["title"]] = labels_drawn
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return drawn


README_MARKERS = ("<!-- bench:begin -->", "<!-- bench:end -->")
DOCS_MARKERS = ("<!-- results:begin -->", "<!-- results:end -->")


def readme_block(result: dict, chart_path: str) -> str:
    """The README's part: the trade table and its run line from markdown(), then the chart."""
    lines = markdown(result).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Protocol"))
    end = next(i for i, line in enumerate(lines) if line.startswith("Run: "))
    return "\n".join(lines[start:end + 1]) + f"\n\n![benchmark chart]({chart_path})"


def docs_block(result: dict, chart_path: str, files: str) -> str:
    """docs/benchmarks.md's part: how the run was made, every table, the chart."""
    source = result["context"].get("source", "?")
    md = markdown(result).replace("\n### ", "\n#### ")
    md = "#" + md if md.startswith("### ") else md
    return (f"Command: `make bench` at {source}, published with `make bench-publish`; the run line gives "
            f"the date, the machine and the load.\nFiles: {files}.\n\n{md.rstrip()}\n\n"
            f"![benchmark chart]({chart_path})")


def replace_block(text: str, markers: tuple[str, str], block: str) -> str:
    """text with the part between the two marker lines replaced by block."""
    begin, end = markers
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"expected one {begin} ... {end} pair")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{begin}\n{block}\n{end}{tail}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--time")
    p.add_argument("--stable")
    p.add_argument("--callgrind")
    p.add_argument("--result", help="JSON of an earlier run (PREFIX.json) instead of --time/--stable")
    p.add_argument("--out", help="prefix of the .json and .md outputs")
    p.add_argument("--png")
    p.add_argument("--readme", help="file whose <!-- bench:begin/end --> part gets the trade table and chart")
    p.add_argument("--docs", help="file whose <!-- results:begin/end --> part gets every table and the chart")
    p.add_argument("--profile", metavar="LABEL",
                   help="print the hot functions of one callgrind dump (with --callgrind), "
                        "e.g. trade/ours/deserialize@1001")
    args = p.parse_args(argv)
    if hasattr(signal, "SIGPIPE") and argv is None:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    if args.profile:
        print(profile(args.callgrind or "build/bench/callgrind", args.profile))
        return 0
    if (args.readme or args.docs) and not args.png:
        p.error("--readme and --docs show the chart: give --png too")
    if args.result:
        result = load(args.result)
        if result is None:
            p.error(f"no run results in {args.result} (run make bench first)")
    elif not args.time and not args.stable:
        p.error("give --time and/or --stable, or --result")
    else:
        result = build(args)
    md = markdown(result)
    print(md)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        with open(args.out + ".json", "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1, ensure_ascii=False)
            f.write("\n")
        with open(args.out + ".md", "w", encoding="utf-8") as f:
            f.write(md + "\n")
    if args.png:
        chart(result, args.png)
        print(f"chart: {args.png}")
    for target, markers in ((args.readme, README_MARKERS), (args.docs, DOCS_MARKERS)):
        if not target:
            continue
        # Links are relative to the edited file; the chart is the --png just written.
        png = os.path.relpath(os.path.abspath(args.png), os.path.dirname(os.path.abspath(target)))
        if target == args.readme:
            block = readme_block(result, png)
        else:
            written = ([args.out + ".md", args.out + ".json"] if args.out else []) + ([args.png] if args.png else [])
            files = ", ".join(f"`{os.path.relpath(f)}`" for f in written)
            block = docs_block(result, png, files)
        with open(target, encoding="utf-8") as f:
            text = f.read()
        with open(target, "w", encoding="utf-8") as f:
            f.write(replace_block(text, markers, block))
        print(f"updated: {target}")
    failed = [r for r in result["trade"] + result["graph"] if r["status"].startswith("FAILED")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
