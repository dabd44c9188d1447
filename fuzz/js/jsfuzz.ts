// The coverage-guided fuzz target of the fbec --typescript readers and receivers for jsfuzz
// (npm jsfuzz, docs/javascript.md "Fuzzing"): built as CommonJS with the runtime (fuzz/js/build.py),
// so that jsfuzz's require hook instruments every line the checks of checks.ts reach.
//
// An input is a mode byte (0 versioned, 1 final, 2 JSON, 3 a versioned stream, 4 a final stream,
// modulo 5), a 16-bit little-endian index (of the type among the registry's sorted names, or of
// the package among those with a Receiver) and the bytes to read. `fuzz.js seeds=DIR` writes the
// corpus in this form. With JSFUZZ_RUNS=N (or JSFUZZ_SECONDS=S) the target stops jsfuzz after N
// inputs (or S seconds) by a SIGINT to its worker, which jsfuzz takes for the end of the run;
// with Math.random seeded (JSFUZZ_SEED, seed.cjs) a run of N inputs is the same every time.

import { checkBinary, checkJson, checkStream } from "./checks.js";
import { receivers, registry } from "./registry.js";

const types = Object.keys(registry).sort();
const packages = Object.keys(receivers).sort();
const runs = Number(process.env["JSFUZZ_RUNS"] ?? 0);
const seconds = Number(process.env["JSFUZZ_SECONDS"] ?? 0);
const until = seconds > 0 ? Date.now() + 1000 * seconds : Infinity;
let count = 0;
let stopped = false;

/** Chunk sizes 1..40 from a generator seeded by the stream's length (the same input cut alike). */
function chunks(length: number): () => number {
  let s = (length * 2654435761) >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return 1 + ((s >>> 16) % 40);
  };
}

export function fuzz(buf: Uint8Array): void {
  count++;
  if (!stopped && (runs > 0 ? count >= runs : Date.now() >= until)) {
    stopped = true;
    console.log(`fuzz js: jsfuzz stops after ${count} inputs`);
    process.kill(process.pid, "SIGINT");
  }
  if (buf.length < 3) return;
  const mode = buf[0]! % 5;
  const index = buf[1]! | (buf[2]! << 8);
  const data = new Uint8Array(buf.subarray(3)); // a copy at offset 0
  if (mode < 2) checkBinary(types[index % types.length]!, mode === 0 ? "versioned" : "final", data);
  else if (mode === 2) checkJson(types[index % types.length]!, data);
  else if (packages.length > 0) checkStream(packages[index % packages.length]!, mode === 4, data, chunks(data.length));
}
