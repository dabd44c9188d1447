// A seeded mutation fuzzer of the fbec --typescript readers and receivers (docs/javascript.md
// "Fuzzing"), beside the coverage-guided jsfuzz target (jsfuzz.ts), with the same checks
// (checks.ts). This one knows the inputs' structure: it mutates sizes, offsets and counts and
// builds streams of frames.
//
// From a corpus of every struct's default value in both models, the golden vectors of $SHARED and
// the mutants that read, it mutates inputs (bit flips, interesting bytes and 32-bit values, the
// root size, cut, deleted, cloned and spliced ranges) and checks that
//   - every generated reader returns a value or throws fbe.DecodeError and nothing else, verify
//     gives the read's error (undefined exactly when it reads), and what reads writes back to bytes
//     that read and write back the same, prints its text and writes JSON;
//   - JSON (mutated texts of the corpus) reads or throws DecodeError, and what reads writes JSON
//     that reads back to a value writing the same text;
//   - streams of (mutated) frames give the same messages and errors through each package's
//     Receiver and FinalReceiver whole, one byte at a time and in random chunks, and nothing but
//     FrameErrors are reported.
//
// node out/fuzz.js runs=N|seconds=S seed=N crashes=DIR [vectors=DIR]; a failing input is saved in
// DIR/js-<check>-<seed>-<n>.bin and the run exits 1. node out/fuzz.js seeds=DIR [vectors=DIR]
// writes the corpus as jsfuzz.ts's inputs into DIR instead (a mode byte, the type's or package's
// 16-bit index, the bytes).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

import * as fbe from "@fbe-toolkit/fbe";

import { checkBinary, checkJson, checkStream, Failure, write, type Model } from "./checks.js";
import { receivers, registry } from "./registry.js";
interface Entry {
  type: string;
  model: Model;
  data: Uint8Array;
}

const args = new Map(process.argv.slice(2).map((a) => a.split("=", 2) as [string, string]));
const seed = Number(args.get("seed") ?? 1);
const runs = Number(args.get("runs") ?? 0);
const seconds = Number(args.get("seconds") ?? 0);
const crashes = args.get("crashes") ?? "build/fuzz/crashes";
const vectors = args.get("vectors") ?? "";
const seeds = args.get("seeds") ?? "";

// xorshift128+: the same seed gives the same run
let s0 = BigInt(seed) * 0x9e3779b97f4a7c15n + 1n;
let s1 = BigInt(seed) ^ 0xdeadbeefcafebaben;
function next64(): bigint {
  let x = s0;
  const y = s1;
  s0 = y;
  x ^= (x << 23n) & 0xffffffffffffffffn;
  s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
  return (s1 + y) & 0xffffffffffffffffn;
}
function below(n: number): number {
  return Number(next64() % BigInt(Math.max(1, n)));
}
function pick<T>(a: readonly T[]): T {
  return a[below(a.length)]!;
}

const types = Object.keys(registry).sort();
const INTERESTING8 = [0, 1, 0x7f, 0x80, 0xff, 8, 16];
const INTERESTING32 = [0, 1, 4, 8, 16, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffff0, 1 << 20];

function mutate(input: Uint8Array, other: Uint8Array): Uint8Array {
  let d = input.slice();
  const n = 1 + below(4);
  for (let i = 0; i < n; i++) {
    const len = d.length;
    switch (below(9)) {
      case 0: // bit flip
        if (len > 0) d[below(len)]! ^= 1 << below(8);
        break;
      case 1: // interesting byte
        if (len > 0) d[below(len)] = pick(INTERESTING8);
        break;
      case 2: // interesting 32-bit value
        if (len >= 4) new DataView(d.buffer).setUint32(below(len - 3), pick(INTERESTING32), true);
        break;
      case 3: // small arithmetic on a 32-bit value (sizes, offsets, counts)
        if (len >= 4) {
          const p = below(len - 3);
          const v = new DataView(d.buffer);
          v.setUint32(p, (v.getUint32(p, true) + below(33) - 16) >>> 0, true);
        }
        break;
      case 4: // the root size
        if (len >= 4) new DataView(d.buffer).setUint32(0, below(2) === 0 ? len : below(len + 64), true);
        break;
      case 5: // cut
        d = d.slice(0, below(len + 1));
        break;
      case 6: { // delete a range
        const p = below(len + 1);
        d = new Uint8Array([...d.subarray(0, p), ...d.subarray(p + below(16))]);
        break;
      }
      case 7: { // clone a range
        const p = below(len + 1);
        const q = below(len + 1);
        const piece = d.slice(p, p + below(32));
        d = new Uint8Array([...d.subarray(0, q), ...piece, ...d.subarray(q)]);
        break;
      }
      default: { // splice from another input
        const p = below(len + 1);
        const q = below(other.length + 1);
        d = new Uint8Array([...d.subarray(0, p), ...other.subarray(q, q + below(64))]);
      }
    }
  }
  return d;
}

const corpus: Entry[] = [];
const jsonCorpus: { type: string; text: Uint8Array }[] = [];
const encoder = new TextEncoder();

function keepJson(type: string, text: string): void {
  if (jsonCorpus.length < 2000) jsonCorpus.push({ type, text: encoder.encode(text) });
}

/** A stream of 1 to 6 frames of the package's messages from the corpus, some mutated, through checkStream. */
function streamOf(pkg: string, final: boolean): void {
  const { messages } = receivers[pkg]!;
  const model: Model = final ? "final" : "versioned";
  const frames: Uint8Array[] = [];
  const count = 1 + below(6);
  for (let i = 0; i < count; i++) {
    const type = pick(messages);
    const pool = corpus.filter((e) => e.type === type && e.model === model);
    let frame = pool.length > 0 ? pick(pool).data : write(new registry[type]!(), model);
    if (below(3) === 0) frame = mutate(frame, pick(corpus).data);
    frames.push(frame);
  }
  checkStream(pkg, final, concat(frames), () => 1 + below(40));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, f) => n + f.length, 0));
  let p = 0;
  for (const f of parts) {
    out.set(f, p);
    p += f.length;
  }
  return out;
}

function seedCorpus(): void {
  for (const type of types) {
    const value = new registry[type]!();
    for (const model of ["versioned", "final"] as Model[]) corpus.push({ type, model, data: write(value, model).slice() });
    jsonCorpus.push({ type, text: encoder.encode(value.toJson()) });
  }
  const manifest = join(vectors, "MANIFEST.json");
  if (vectors === "" || !existsSync(manifest)) return;
  const m = JSON.parse(readFileSync(manifest, "utf8")) as { cases: { package: string; type: string; files: { kind: string; file: string }[] }[] };
  for (const c of m.cases) {
    const type = `${c.package}.${c.type}`;
    if (registry[type] === undefined) continue;
    for (const f of c.files) {
      const data = new Uint8Array(readFileSync(join(vectors, f.file)));
      if (f.kind === "versioned" || f.kind === "final") corpus.push({ type, model: f.kind, data });
      if (f.kind === "json") jsonCorpus.push({ type, text: data });
    }
  }
}

function save(f: Failure, n: number): string {
  mkdirSync(crashes, { recursive: true });
  const hash = createHash("sha1").update(f.input).digest("hex").slice(0, 12);
  const path = join(crashes, `js-${f.check}-${seed}-${n}-${hash}.bin`);
  writeFileSync(path, f.input);
  return path;
}

/** The corpus as jsfuzz.ts's inputs (its input format), one file each: binary, JSON and a stream per package. */
function writeSeeds(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const packages = Object.keys(receivers).sort();
  const input = (mode: number, index: number, data: Uint8Array) => concat([new Uint8Array([mode, index & 0xff, index >> 8]), data]);
  const inputs = [
    ...corpus.map((e) => input(e.model === "versioned" ? 0 : 1, types.indexOf(e.type), e.data)),
    ...jsonCorpus.map((e) => input(2, types.indexOf(e.type), e.text)),
    ...packages.flatMap((p, i) => [false, true].map((final) => input(final ? 4 : 3, i,
      concat(receivers[p]!.messages.map((t) => write(new registry[t]!(), final ? "final" : "versioned").slice()))))),
  ];
  for (const data of inputs) writeFileSync(join(dir, createHash("sha1").update(data).digest("hex")), data);
  console.log(`fuzz js: ${inputs.length} jsfuzz seeds in ${dir}`);
  return 0;
}

function main(): number {
  seedCorpus();
  if (seeds !== "") return writeSeeds(seeds);
  const packages = Object.keys(receivers).sort();
  const counts = { binary: 0, read: 0, json: 0, streams: 0 };
  const started = Date.now();
  let n = 0;
  for (; runs > 0 ? n < runs : Date.now() - started < seconds * 1000; n++) {
    try {
      const roll = below(100);
      if (roll < 70 || packages.length === 0) {
        const entry = pick(corpus);
        const data = mutate(entry.data, pick(corpus).data);
        const type = below(4) === 0 ? pick(types) : entry.type;
        counts.binary++;
        if (checkBinary(type, entry.model, data, keepJson)) {
          counts.read++;
          if (below(8) === 0) {
            if (corpus.length < 5000) corpus.push({ type, model: entry.model, data });
            else corpus[below(corpus.length)] = { type, model: entry.model, data };
          }
        }
      } else if (roll < 85) {
        const entry = pick(jsonCorpus);
        counts.json++;
        checkJson(below(8) === 0 ? pick(types) : entry.type, below(6) === 0 ? entry.text : mutate(entry.text, pick(jsonCorpus).text));
      } else {
        counts.streams++;
        streamOf(pick(packages), below(2) === 1);
      }
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      console.error(`fuzz js: FAILED (${f(e)}) at input ${n} of seed ${seed}: ${e.message}\n  input saved in ${save(e, n)}`);
      return 1;
    }
  }
  const secs = (Date.now() - started) / 1000;
  console.log(`fuzz js: seed ${seed}, ${n} inputs in ${secs.toFixed(1)} s: ${counts.binary} binary (${counts.read} read and ` +
    `written back), ${counts.json} JSON, ${counts.streams} streams through 3 chunkings; ${corpus.length} in the corpus; nothing found`);
  return 0;
}

function f(e: Failure): string {
  return e.check;
}

process.exitCode = main();
