// The checks of the JavaScript fuzzers (docs/javascript.md "Fuzzing"), shared by the seeded
// mutation fuzzer (fuzz.ts) and the coverage-guided jsfuzz target (jsfuzz.ts): every generated
// reader returns a value or throws fbe.DecodeError and nothing else, verify gives the read's
// error, what reads writes back stably (binary and JSON), and a stream gives the same messages
// and errors through a Receiver in any chunking.
import * as fbe from "@fbe-toolkit/fbe";

import { receivers, registry, type Codec, type Value } from "./registry.js";

export type Model = "versioned" | "final";

/** A check that did not hold, with the input that shows it. */
export class Failure extends Error {
  constructor(readonly check: string, message: string, readonly input: Uint8Array) {
    super(message);
  }
}

export function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function read(codec: Codec, model: Model, data: Uint8Array): Value {
  return model === "versioned" ? codec.fromFbe(data) : codec.fromFinal(data);
}
export function write(v: Value, model: Model): Uint8Array {
  return model === "versioned" ? v.toFbe() : v.toFinal();
}

const reused = new fbe.Writer();

/** `write` into a reused Writer whose old bytes are all 0xFF (a copy): the same bytes, as every byte is written. */
export function writeDirty(v: Value, model: Model): Uint8Array {
  reused.buffer.fill(0xff);
  return (model === "versioned" ? v.toFbe(reused) : v.toFinal(reused)).slice();
}

/** Reads data as `type`; returns the value or the DecodeError, anything else is a failure. */
export function attempt(type: string, model: Model, data: Uint8Array): Value | fbe.DecodeError {
  const codec = registry[type]!;
  let value: Value | fbe.DecodeError;
  try {
    value = read(codec, model, data);
  } catch (e) {
    if (!(e instanceof fbe.DecodeError)) throw new Failure("read", `${type} ${model}: threw ${String(e)}`, data);
    value = e;
  }
  const verified = model === "versioned" ? codec.verifyFbe(data) : codec.verifyFinal(data);
  const expected = value instanceof fbe.DecodeError ? value.message : undefined;
  if (verified?.message !== expected) {
    throw new Failure("verify", `${type} ${model}: verify gave ${verified?.message} where read gave ${expected}`, data);
  }
  return value;
}

/**
 * Reads data as `type` in `model` (attempt); what reads must write back to bytes that read and
 * write back the same, print its text and write JSON (handed to `json`). Whether it read.
 */
export function checkBinary(type: string, model: Model, data: Uint8Array, json?: (type: string, text: string) => void): boolean {
  const value = attempt(type, model, data);
  if (value instanceof fbe.DecodeError) return false;
  try {
    const w1 = write(value, model).slice();
    const back = attempt(type, model, w1);
    if (back instanceof fbe.DecodeError) throw new Failure("rewrite", `${type} ${model}: what it wrote does not read: ${back.message}`, data);
    const w2 = write(back, model);
    if (!same(w1, w2)) throw new Failure("rewrite", `${type} ${model}: written back, read and written again differs`, data);
    if (!same(w1, writeDirty(value, model))) throw new Failure("rewrite", `${type} ${model}: a reused Writer wrote other bytes`, data);
    value.toString();
    const text = value.toJson();
    if (json !== undefined) json(type, text);
  } catch (e) {
    if (e instanceof Failure) throw e;
    throw new Failure("rewrite", `${type} ${model}: writing what it read threw ${String(e)}`, data);
  }
  return true;
}

/** JSON text reads as `type` or throws DecodeError; what reads writes JSON that is stable once read back. */
export function checkJson(type: string, text: Uint8Array): void {
  const codec = registry[type]!;
  let value: Value;
  try {
    value = codec.fromJson(text);
  } catch (e) {
    if (e instanceof fbe.DecodeError) return;
    throw new Failure("json", `${type}: fromJson threw ${String(e)}`, text);
  }
  try {
    // A hash may come back in another order once (integer-like names first): the second round is stable.
    const t1 = codec.fromJson(value.toJson()).toJson();
    const t2 = codec.fromJson(t1).toJson();
    if (t1 !== t2) throw new Failure("json", `${type}: JSON written, read and written again differs`, text);
    value.toFbe();
  } catch (e) {
    if (e instanceof Failure) throw e;
    throw new Failure("json", `${type}: writing what JSON read threw ${String(e)}`, text);
  }
}

/** The events of a stream fed in chunks cut by `cut`: each message's text, each FrameError's message. */
function events(make: (final: boolean, on: (m: unknown) => void) => fbe.FrameReceiver, final: boolean,
  stream: Uint8Array, cut: () => number): string[] {
  const out: string[] = [];
  const r = make(final, (m) => out.push("message " + String(m)));
  r.onError = (e) => out.push("error " + e.message);
  try {
    for (let p = 0; p < stream.length;) {
      const n = cut();
      r.receive(stream.subarray(p, p + n));
      p += n;
      if (r.pending > stream.length) throw new Failure("stream", `pending ${r.pending} bytes of a ${stream.length}-byte stream`, stream);
    }
  } catch (e) {
    if (e instanceof Failure) throw e;
    if (!(e instanceof fbe.FrameError) || r.broken !== e) throw new Failure("stream", `receive threw ${String(e)}`, stream);
    out.push("lost");
  }
  return out;
}

/**
 * A stream through a package's Receiver (or FinalReceiver) whole, one byte at a time and in the
 * chunks `cut` gives: the same messages and errors, and nothing but FrameErrors reported.
 */
export function checkStream(pkg: string, final: boolean, stream: Uint8Array, cut: () => number): void {
  const { make } = receivers[pkg]!;
  const model: Model = final ? "final" : "versioned";
  const whole = events(make, final, stream, () => stream.length);
  const single = events(make, final, stream, () => 1);
  const chunked = events(make, final, stream, cut);
  for (const [how, got] of [["1-byte", single], ["random chunks", chunked]] as const) {
    if (got.length !== whole.length || got.some((e, i) => e !== whole[i])) {
      throw new Failure("stream", `${pkg} ${model}: ${how} gave ${JSON.stringify(got)}, whole ${JSON.stringify(whole)}`, stream);
    }
  }
}
