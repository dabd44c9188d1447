// The JavaScript/TypeScript conformance testee (conformance/testee_protocol.md): length-prefixed
// JSON requests on stdin, answers on stdout. It answers the binary models (versioned and final,
// JSON and value descriptions, in and out; the text form out) with the fbec --typescript --json
// code of every conformance schema (registry.ts, written by build.py; value descriptions through
// values.ts and the schemas' IR, types.json), and feeds protocol streams to the package's Receiver
// or FinalReceiver.
import { Buffer } from "node:buffer";
import { readFileSync } from "node:fs";
import process from "node:process";

import * as fbe from "@fbe-toolkit/fbe";

import { receivers, registry } from "./registry.js";
import { describe, Unheld, Values, type Structs } from "./values.js";

const values = new Values(JSON.parse(readFileSync(new URL("./types.json", import.meta.url), "utf8")) as Structs, registry);

interface Request {
  quit?: boolean;
  package?: string;
  type?: string;
  input?: { format?: string; payload?: unknown };
  output?: string;
  limits?: Record<string, number>;
  measure?: boolean;
}

type Answer = Record<string, unknown>;

function limitsOf(m: Record<string, number> | undefined): fbe.Limits {
  if (m === undefined) return fbe.DEFAULT_LIMITS;
  return fbe.limits({
    ...(m["max_depth"] !== undefined ? { maxDepth: m["max_depth"] } : {}),
    ...(m["budget_factor"] !== undefined ? { budgetFactor: m["budget_factor"] } : {}),
    ...(m["budget_slack"] !== undefined ? { budgetSlack: m["budget_slack"] } : {}),
    ...(m["max_frame_size"] !== undefined ? { maxFrameSize: m["max_frame_size"] } : {}),
  });
}

const FORMATS = new Set(["versioned", "final", "json", "value"]);

// The qualified name of a generated class's values.
const qualified = new Map<unknown, string>(Object.entries(registry).map(([name, codec]) => [codec, name]));

// Feeds a protocol stream to the package's Receiver in one call and lists what it did: each message
// delivered, each frame refused (receive throws at a bad frame and keeps the bytes after it; receive()
// goes on with them), and a stream it had to give up.
function receiveStream(req: Request, data: Uint8Array): Answer {
  const make = receivers[req.package ?? ""];
  if (make === undefined) return { skipped: `package ${req.package} has no Receiver in this testee` };
  const events: Record<string, string>[] = [];
  const r = make(req.input?.format === "final_stream", limitsOf(req.limits), (m) => {
    events.push({ message: qualified.get((m as object).constructor) ?? "?" });
  });
  let chunk: Uint8Array | undefined = data;
  for (;;) {
    try {
      r.receive(chunk);
      break;
    } catch (e) {
      if (!(e instanceof fbe.FrameError)) throw e;
      events.push({ error: e.message });
      if (r.broken !== undefined) break;
      chunk = undefined;
    }
  }
  return { result: events };
}

function answer(req: Request): Answer {
  const format = req.input?.format ?? "";
  if (format === "stream" || format === "final_stream") {
    const payload = req.input?.payload;
    if (typeof payload !== "string") return { parse_error: "payload: not a string" };
    return receiveStream(req, new Uint8Array(Buffer.from(payload, "base64")));
  }
  const output = req.output ?? "";
  const binary = format === "versioned" || format === "final";
  if (!FORMATS.has(format) || !(FORMATS.has(output) || output === "text" || (output === "verify" && binary))) {
    return { skipped: `unknown formats ${format} -> ${output} (the binary models and JSON are read and written, the text form written)` };
  }
  const codec = registry[`${req.package}.${req.type}`];
  if (codec === undefined) return { skipped: `no TypeScript type ${req.package}.${req.type}` };
  const payload = req.input?.payload;
  const q = `${req.package}.${req.type}`;
  if (typeof payload !== "string" && format !== "value") return { parse_error: "payload: not a string" };
  const lim = limitsOf(req.limits);
  let value;
  try {
    if (format === "value") {
      try {
        value = values.readStruct(q, payload as Record<string, unknown>) as ReturnType<typeof codec.fromFbe>;
      } catch (e) {
        // a value the runtime's types cannot hold (a decimal beyond 96 bits): refused as a writer refuses
        // it, naming the field (testee_protocol.md); anything else is the testee's own failure
        const where = e instanceof Unheld ? ` (${q}${e.path})` : "";
        const message = (e instanceof Error ? e.message : String(e)) + where;
        if (e instanceof Unheld && e.reason instanceof RangeError) return { serialize_error: message };
        return { serialize_error: "UNEXPECTED value description: " + message };
      }
    } else if (typeof payload !== "string") {
      return { parse_error: "payload: not a string" };
    } else if (format === "json") {
      value = codec.fromJson(payload, lim);
    } else {
      const data = new Uint8Array(Buffer.from(payload, "base64"));
      if (output === "verify") {
        const error = format === "versioned" ? codec.verifyFbe(data, lim) : codec.verifyFinal(data, lim);
        return error === undefined ? { result: "ok" } : { parse_error: error.message };
      }
      value = format === "versioned" ? codec.fromFbe(data, lim) : codec.fromFinal(data, lim);
    }
  } catch (e) {
    if (e instanceof fbe.DecodeError) return { parse_error: e.message };
    throw e;
  }
  try {
    if (output === "json") return { result: value.toJson() };
    if (output === "value") return { result: values.writeStruct(q, value as unknown as Record<string, unknown>) };
    if (output === "text") return { result: Buffer.from(fbe.encodeUtf8(value.toString())).toString("base64") };
    const out = output === "versioned" ? value.toFbe() : value.toFinal();
    return { result: Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString("base64") };
  } catch (e) {
    if (e instanceof fbe.EncodeError) return { serialize_error: e.message };
    throw e;
  }
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect !== undefined) collect();
}

function handle(body: Buffer): Answer | undefined {
  let req: Request;
  try {
    req = JSON.parse(body.toString("utf8")) as Request;
  } catch (e) {
    return { parse_error: "request: " + String(e) };
  }
  if (req.quit === true) return undefined;
  if (!req.measure) return answer(req);
  // Heap and array-buffer growth while answering, no collection in between: node runs with a young
  // generation large enough (build.py's launcher) that the decode of these inputs runs no scavenge,
  // so the growth is what the decode allocated (an upper bound of its peak).
  gc();
  const before = process.memoryUsage();
  const start = process.hrtime.bigint();
  const resp = answer(req);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const after = process.memoryUsage();
  const grown = Math.max(0, after.heapUsed - before.heapUsed) + Math.max(0, after.arrayBuffers - before.arrayBuffers);
  resp["measured"] = { peak_bytes: grown, seconds };
  return resp;
}

let pending: Buffer = Buffer.alloc(0);
process.stdin.on("data", (chunk: Buffer) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  while (pending.length >= 4) {
    const size = pending.readUInt32LE(0);
    if (pending.length < 4 + size) break;
    const body = pending.subarray(4, 4 + size);
    pending = pending.subarray(4 + size);
    const resp = handle(body);
    if (resp === undefined) process.exit(0);
    const text = Buffer.from(describe(resp), "utf8");
    const head = Buffer.alloc(4);
    head.writeUInt32LE(text.length, 0);
    process.stdout.write(Buffer.concat([head, text]));
  }
});
process.stdin.on("end", () => process.exit(0));
