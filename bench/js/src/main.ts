// The JavaScript benchmark (docs/benchmarks.md "JavaScript"): every row of rows.ts checked, then
// timed with tinybench in this one process.
//
//   node out/src/main.js --check                 every row's check once (make test-js)
//   node out/src/main.js [--rounds N] [--time MS] [--clock cpu|wall] [--out FILE] [--filter RE]
//                                                the check, then N rounds of tinybench (MS per
//                                                task): serialize, deserialize + touch and
//                                                verify of every row that passes, the figures
//                                                of every round as JSON in FILE (bench/js/report.py
//                                                makes the table)
//
// A tinybench task runs BATCH operations per call (a call of one operation would mostly time
// the timer: the operations take 0.3-20 us); the figures are per operation. tinybench's clock is
// the process's CPU time by default (--clock cpu): on a shared machine the wall clock mostly
// measures the wait for a core.

import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Bench, type Task } from "tinybench";

import { check, keep, rows, sample, sizeOf, touch, type Message, type Row } from "./rows.js";

const BATCH = 100;

let sink = 0;

interface Op {
  /** Nanoseconds per operation: tinybench's mean and median of its samples, divided by BATCH. */
  mean_ns: number;
  median_ns: number;
  /** The relative margin of error of the mean, in percent. */
  rme: number;
  samples: number;
}

/** An operation's figures, one per round. */
interface Rounds {
  mean_ns: number[];
  median_ns: number[];
  rme: number[];
  samples: number[];
}

interface RowResult {
  id: string;
  name: string;
  pkg: string;
  version: string;
  status: "ok" | "failed";
  error?: string;
  size?: number;
  ops: Record<string, Rounds>;
}

/** The process's CPU time (user + system, every thread: V8's GC helpers too) in milliseconds. */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The wall clock in milliseconds (tinybench's own, but for the name). */
function wallNow(): number {
  return performance.now();
}

function versionOf(pkg: string): string {
  if (pkg === "") {
    return "";
  }
  const url = new URL(`../../node_modules/${pkg}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

function checked(r: Row): RowResult {
  const result: RowResult = { id: r.id, name: r.name, pkg: r.pkg, version: versionOf(r.pkg), status: "ok", ops: {} };
  try {
    check(r);
    result.size = sizeOf(r.serialize(sample()));
  } catch (e) {
    result.status = "failed";
    result.error = e instanceof Error ? e.message : String(e);
  }
  return result;
}

function opOf(task: Task): Op {
  const res = task.result;
  if (res.state !== "completed") {
    throw new Error(`${task.name}: ${res.state === "errored" ? String(res.error) : res.state}`);
  }
  return {
    mean_ns: (res.latency.mean * 1e6) / BATCH,
    median_ns: (res.latency.p50 * 1e6) / BATCH,
    rme: res.latency.rme,
    samples: res.latency.samplesCount,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      time: { type: "string", default: "400" },
      rounds: { type: "string", default: "5" },
      out: { type: "string" },
      filter: { type: "string", default: "." },
      clock: { type: "string", default: "cpu" },
    },
  });
  const all = rows();
  const results = all.map(checked);
  let failed = 0;
  for (const r of results) {
    const what = r.status === "ok" ? `ok\t${r.size} bytes` : `failed\t${r.error}`;
    console.log(`row\t${r.id}\t${r.name}\t${what}`);
    if (r.status !== "ok") {
      failed++;
    }
  }
  if (values.check) {
    console.log(`bench-js check: ${results.length - failed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  }

  const filter = new RegExp(values.filter);
  const time = Number(values.time);
  if (values.clock !== "cpu" && values.clock !== "wall") {
    throw new Error(`--clock ${values.clock}: cpu or wall`);
  }
  const now = values.clock === "cpu" ? cpuNow : wallNow;
  const rounds = Number(values.rounds);
  const account = sample();
  // Every round is a new Bench over every task, so a change of the machine's load spreads over the
  // rows rather than falling on one; the report takes the median of the rounds and the best.
  const tasks: Array<[string, RowResult, string, () => void]> = [];
  const add = (row: Row, result: RowResult, op: string, fn: () => void): void => {
    const name = `${row.id}/${op}`;
    if (filter.test(name)) {
      tasks.push([name, result, op, fn]);
      result.ops[op] = { mean_ns: [], median_ns: [], rme: [], samples: [] };
    }
  };
  all.forEach((row, i) => {
    const result = results[i]!;
    if (result.status !== "ok") {
      return;
    }
    const data: Message = keep(row.serialize(account));
    add(row, result, "serialize", () => {
      for (let k = 0; k < BATCH; k++) {
        sink += sizeOf(row.serialize(account));
      }
    });
    add(row, result, "deserialize", () => {
      for (let k = 0; k < BATCH; k++) {
        sink += touch(row.deserialize(data));
      }
    });
    const verify = row.verify;
    if (verify !== undefined) {
      const bytes = data as Uint8Array;
      add(row, result, "verify", () => {
        for (let k = 0; k < BATCH; k++) {
          verify(bytes);
        }
      });
    }
  });
  console.log(
    `bench-js: ${rounds} rounds of ${tasks.length} tasks with tinybench, ${time} ms each, ${BATCH} operations a call`,
  );
  for (let round = 1; round <= rounds; round++) {
    const bench = new Bench({ time, warmupTime: Math.min(time, 100), throws: true, now });
    for (const [name, , , fn] of tasks) {
      bench.add(name, fn);
    }
    await bench.run();
    const line: string[] = [];
    bench.tasks.forEach((task, i) => {
      const [, result, op] = tasks[i]!;
      const o = opOf(task);
      const ops = result.ops[op]!;
      ops.mean_ns.push(o.mean_ns);
      ops.median_ns.push(o.median_ns);
      ops.rme.push(o.rme);
      ops.samples.push(o.samples);
      line.push(`${task.name} ${o.mean_ns.toFixed(0)}`);
    });
    console.log(`bench-js: round ${round}/${rounds} (mean ns/op): ${line.join(", ")}`);
  }
  const run = {
    node: process.version,
    v8: process.versions.v8,
    tinybench: versionOf("tinybench"),
    clock: values.clock,
    time_ms: time,
    rounds,
    batch: BATCH,
    sink,
    rows: results,
  };
  if (values.out !== undefined) {
    writeFileSync(values.out, JSON.stringify(run, null, 2) + "\n");
    console.log(`bench-js: ${values.out}`);
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
