// Unit tests of the protocol layer (src/protocol.ts) on a hand-written message: framing in every
// chunking, the limits of docs/limits.md 6, errors with their kind and stream offset, the Sender
// and the pending requests of a Client. The generated protocol code's tests are tests/js.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Answer,
  DecodeError,
  FrameError,
  FrameReceiver,
  limits,
  MessageReceiver,
  MessageTable,
  Reader,
  RejectError,
  RequestError,
  Requests,
  Sender,
  UNKNOWN_TYPE,
  Writer,
  type Limits,
} from "../src/index.js";

/** A message of type id 7 with one string: versioned root of 8 + 12 bytes + the string block. */
class Note {
  static readonly fbeType = 7;
  text: string;
  constructor(text = "") {
    this.text = text;
  }
  toFbe(writer?: Writer): Uint8Array {
    const w = writer ?? new Writer();
    w.beginVersioned();
    const b = w.struct(0, 4, 12, 7);
    w.string(b, b + 8, this.text);
    w.endVersioned();
    return w.bytes();
  }
  toFinal(writer?: Writer): Uint8Array {
    const w = writer ?? new Writer();
    w.beginFinal();
    w.appendString(this.text);
    w.endFinal(7);
    return w.bytes();
  }
  static fromFbe(data: Uint8Array, lim?: Limits): Note {
    const r = Reader.versioned(data, lim);
    const b = r.struct(0, 4, 7, 4);
    const v = new Note(r.string(b, b + 8, "text"));
    r.leave();
    return v;
  }
  static fromFinal(data: Uint8Array, lim?: Limits): Note {
    const r = Reader.final(data, 7, lim);
    r.enterFinal(4);
    const v = new Note(r.finalString("text"));
    r.leave();
    r.endFinal();
    return v;
  }
}

class NoteReceiver extends FrameReceiver {
  readonly got: string[] = [];
  constructor(final = false, lim?: Limits) {
    super(final, lim);
  }
  protected decode(typeId: number, frame: Uint8Array, lim: Limits): unknown {
    if (typeId !== 7) return UNKNOWN_TYPE;
    return this.final ? Note.fromFinal(frame, lim) : Note.fromFbe(frame, lim);
  }
  protected deliver(_typeId: number, value: unknown): void {
    this.got.push((value as Note).text);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let p = 0;
  for (const part of parts) {
    all.set(part, p);
    p += part.length;
  }
  return all;
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Feeds `data` in chunks cut by `cuts` (sizes), collecting texts and errors (with onError set). */
function feed(data: Uint8Array, sizes: () => number, final = false, lim?: Limits): [string[], FrameError[], NoteReceiver] {
  const r = new NoteReceiver(final, lim);
  const errors: FrameError[] = [];
  r.onError = (e) => errors.push(e);
  for (let p = 0; p < data.length;) {
    const n = Math.max(1, sizes());
    r.receive(data.subarray(p, p + n));
    p += n;
  }
  return [r.got, errors, r];
}

test("the Sender's frames are the messages' roots; every chunking delivers the same", () => {
  for (const final of [false, true]) {
    const sender = new Sender(undefined, final);
    const texts = ["a", "", "hello world", "x".repeat(1000), "é✓"];
    for (const t of texts) sender.sendValue(new Note(t));
    assert.equal(sender.sentMessages, 5);
    const stream = sender.buffered();
    const one = final ? new Note("a").toFinal() : new Note("a").toFbe();
    assert.deepEqual(stream.subarray(0, one.length), one);
    const random = rng(1);
    for (const sizes of [() => stream.length, () => 1, () => 3, () => Math.floor(random() * 50)]) {
      const [got, errors] = feed(stream, sizes, final);
      assert.deepEqual(got, texts);
      assert.deepEqual(errors, []);
    }
    sender.reset();
    assert.equal(sender.buffered().length, 0);
  }
});

test("a Sender hands each frame to a function or a writable as its own copy", () => {
  const frames: Uint8Array[] = [];
  const sender = new Sender((f) => frames.push(f));
  sender.sendValue(new Note("one"));
  sender.sendValue(new Note("two"));
  assert.equal(Note.fromFbe(frames[0]!).text, "one"); // not overwritten by the second send
  const written: Uint8Array[] = [];
  new Sender({ write: (f: Uint8Array) => written.push(f) }, true).sendValue(new Note("three"));
  assert.equal(Note.fromFinal(written[0]!).text, "three");
});

test("receive takes ArrayBuffers and other views (a WebSocket's messages)", () => {
  const frame = new Note("ws").toFbe().slice();
  const r = new NoteReceiver();
  r.receive(frame.buffer.slice(0, 5));
  r.receive(new DataView(frame.buffer, 5));
  assert.deepEqual(r.got, ["ws"]);
});

test("a frame above maxFrameSize is skipped as it arrives, never buffered; the next is delivered", () => {
  const big = new Note("y".repeat(3000)).toFbe().slice();
  const small = new Note("after").toFbe().slice();
  const stream = concat(big, small);
  for (const n of [stream.length, 1, 7, 100]) {
    const [got, errors, r] = feed(stream, () => n, false, limits({ maxFrameSize: 1024 }));
    assert.deepEqual(got, ["after"]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.kind, "frame too large");
    assert.equal(errors[0]!.offset, 0);
    assert.equal(errors[0]!.size, big.length);
    assert.match(errors[0]!.message, /^frame too large: frame size 3024 is above the maximum 1024; the frame is skipped \(frame at stream offset 0\)$/);
    assert.equal(r.pending, 0);
  }
  // A 4 GiB header and a few bytes: nothing is buffered.
  const r = new NoteReceiver();
  r.onError = () => undefined;
  r.receive(concat(u32(0xffffffff), new Uint8Array(1 << 16)));
  assert.equal(r.pending, 0);
  assert.equal(r.receiveErrors, 1);
});

test("a partial frame holds only the bytes received, never its declared size", () => {
  const r = new NoteReceiver();
  r.receive(u32(64 << 20));
  r.receive(new Uint8Array(100));
  assert.equal(r.pending, 104);
  const buffer = (r as unknown as { buf: Uint8Array }).buf;
  assert.ok(buffer.length <= 4 * 104 + 64, `buffer of ${buffer.length} bytes for 104 received`);
});

test("without onError, receive throws the bad frame and keeps the bytes after it", () => {
  const bad = new Note("bad").toFbe().slice();
  bad[8 + 4] = 9; // the body's type id
  const good = new Note("good").toFbe().slice();
  const stream = concat(good, bad, good);
  const r = new NoteReceiver();
  assert.throws(() => r.receive(stream), (e: unknown) => {
    assert.ok(e instanceof FrameError);
    assert.equal(e.kind, "unknown type");
    assert.equal(e.offset, good.length);
    assert.equal(e.message, `unknown type: no message has type id 9 (frame of ${bad.length} bytes skipped) (frame at stream offset ${good.length})`);
    return true;
  });
  assert.deepEqual(r.got, ["good"]);
  r.receive();
  assert.deepEqual(r.got, ["good", "good"]);
  assert.equal(r.receivedMessages, 2);
  assert.equal(r.receiveErrors, 1);
});

test("a body that does not decode is an invalid body naming the field and offset", () => {
  const bad = new Note("text").toFbe().slice();
  bad[8 + 8] = 200; // the string's offset: beyond the frame
  const r = new NoteReceiver();
  const errors: FrameError[] = [];
  r.onError = (e) => errors.push(e);
  r.receive(concat(bad, new Note("ok").toFbe()));
  assert.deepEqual(r.got, ["ok"]);
  assert.equal(errors[0]!.kind, "invalid body");
  assert.ok(errors[0]!.cause instanceof DecodeError);
  assert.match(errors[0]!.message, /^invalid body: type id 7, frame of 28 bytes skipped: string .*\(text, offset \d+\) \(frame at stream offset 0\)$/);
});

test("a versioned frame whose struct offset points outside it is a bad header", () => {
  const bad = new Note("t").toFbe().slice();
  bad[4] = 250;
  const r = new NoteReceiver();
  assert.throws(() => r.receive(bad), /^FrameError: bad frame header: struct offset 250 points outside the frame of 25 bytes/);
});

test("a size below the minimum loses the stream until reset", () => {
  for (const final of [false, true]) {
    const r = new NoteReceiver(final);
    const errors: FrameError[] = [];
    r.onError = (e) => errors.push(e);
    const good = final ? new Note("g").toFinal().slice() : new Note("g").toFbe().slice();
    assert.throws(() => r.receive(concat(good, u32(final ? 7 : 15), good)), /frame too small: frame size (7|15) is below the minimum/);
    assert.equal(errors.length, 1);
    assert.equal(r.broken?.offset, good.length);
    assert.throws(() => r.receive(good), FrameError);
    assert.deepEqual(r.got, ["g"]);
    r.reset();
    r.receive(good);
    assert.deepEqual(r.got, ["g", "g"]);
  }
});

test("a handler's exception goes to the caller; the bytes after its frame wait", () => {
  let calls = 0;
  class Throwing extends NoteReceiver {
    protected override deliver(t: number, v: unknown): void {
      if (calls++ === 0) throw new Error("handler failed");
      super.deliver(t, v);
    }
  }
  const r = new Throwing();
  const two = concat(new Note("1").toFbe(), new Note("2").toFbe());
  assert.throws(() => r.receive(two), /handler failed/);
  r.receive();
  assert.deepEqual(r.got, ["2"]);
});

test("the decode limits apply to each frame", () => {
  const frame = new Note("z".repeat(40000)).toFbe().slice();
  const [got, errors] = feed(frame, () => frame.length, false, limits({ budgetFactor: 0, budgetSlack: 100 }));
  assert.deepEqual(got, []);
  assert.equal(errors[0]!.cause?.limit, "budget");
});

test("a WritableStream feeds the receiver", async () => {
  const r = new NoteReceiver();
  const frame = new Note("stream").toFbe().slice();
  const w = r.writable().getWriter();
  await w.write(frame.subarray(0, 10));
  await w.write(frame.subarray(10));
  await w.close();
  assert.deepEqual(r.got, ["stream"]);
});

test("requests: response by id, reject, global reject, timeout, abort, reset, duplicate ids", async () => {
  const q = new Requests();
  const sent: string[] = [];
  class Resp {
    constructor(readonly id: string) {}
  }
  class Rej {
    constructor(readonly id: string) {}
    toString(): string {
      return "Rej(" + this.id + ")";
    }
  }
  const match = (m: unknown) => (m instanceof Resp ? Answer.Response : m instanceof Rej ? Answer.Reject : Answer.None);
  const p1 = q.request<Resp>("t.Req", "a", match, () => sent.push("a"));
  const p2 = q.request<Resp>("t.Req", "b", match, () => sent.push("b"));
  const p3 = q.request<Resp>("t.Req", "c", match, () => sent.push("c"));
  assert.equal(q.size, 3);
  assert.equal(q.answer("a", { other: 1 }, false) || q.answer("zz", new Resp("zz"), false), false);
  assert.ok(q.answer("a", new Resp("a"), false));
  assert.ok(q.answer("b", new Rej("b"), false));
  assert.ok(q.answer("c", { other: 1 }, true)); // a global reject
  assert.equal((await p1).id, "a");
  await assert.rejects(p2, (e: unknown) => e instanceof RejectError && e.message === "t.Req b: rejected by Rej(b)");
  await assert.rejects(p3, (e: unknown) => e instanceof RejectError && e.failure === "reject");
  assert.deepEqual(sent, ["a", "b", "c"]);

  const started = Date.now();
  await assert.rejects(q.request("t.Req", "d", match, () => undefined, { timeout: 30 }),
    (e: unknown) => e instanceof RequestError && e.failure === "timeout" && e.message === "t.Req d: timed out after 30 ms");
  assert.ok(Date.now() - started >= 25);
  const controller = new AbortController();
  const p4 = q.request("t.Req", "e", match, () => undefined, { signal: controller.signal });
  controller.abort(new Error("user gave up"));
  await assert.rejects(p4, (e: unknown) => e instanceof RequestError && e.failure === "aborted" && (e.cause as Error).message === "user gave up");
  await assert.rejects(q.request("t.Req", "e2", match, () => undefined, { signal: AbortSignal.abort() }), /aborted before it was sent/);
  const p5 = q.request("t.Req", "f", match, () => undefined);
  const p6 = q.request("t.Req", "f", match, () => undefined);
  await assert.rejects(p5, (e: unknown) => e instanceof RequestError && e.failure === "duplicate");
  const p7 = q.request("t.Req", "g", match, () => undefined, { timeout: 60000 });
  q.reset();
  await assert.rejects(p6, (e: unknown) => e instanceof RequestError && e.failure === "reset");
  await assert.rejects(p7, /client reset/);
  assert.equal(q.size, 0);
  await assert.rejects(q.request("t.Req", "h", match, () => {
    throw new Error("socket closed");
  }), (e: unknown) => e instanceof RequestError && e.failure === "send" && q.size === 0);
  assert.equal(await q.request("t.Notice", "i", undefined, () => sent.push("i")), undefined);
});

interface NoteHandler {
  onNote?(value: Note): void;
  onMessage?(value: Note): void;
}

/** A Receiver of Note (type id 7) through a MessageTable, as the generated ones are. */
class TableReceiver extends MessageReceiver<NoteHandler> {
  constructor(handler: NoteHandler, final = false) {
    const deliver = (h: NoteHandler, _typeId: number, v: unknown) => h.onNote?.(v as Note);
    super(new MessageTable<object>([[Note as never, () => undefined]]), deliver, final, handler);
  }
}

test("a MessageTable finds a message by its type id, small or large; a MessageReceiver decodes and delivers it", () => {
  const note = { fbeType: 7 } as never;
  const large = { fbeType: 0xfffffff0 } as never;
  const table = new MessageTable<object>([[note, () => undefined], [large, () => undefined]]);
  assert.equal(table.get(7)?.[0], note);
  assert.equal(table.get(0xfffffff0)?.[0], large);
  assert.equal(table.get(8), undefined);
  assert.equal(table.get(5000), undefined);
  assert.equal(table.get(0xfffffff1), undefined);

  for (const final of [false, true]) {
    const got: string[] = [];
    const frame = final ? new Note("a").toFinal().slice() : new Note("a").toFbe().slice();
    const r = new TableReceiver({ onNote: (v) => got.push("onNote " + v.text) }, final);
    r.receive(frame);
    assert.deepEqual(got, ["onNote a"]);
    assert.equal(r.receivedMessages, 1);
  }
});
