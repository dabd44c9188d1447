/// <reference types="node" />
// The original's protocol streams ($SHARED/vectors/protocol.fbe.bin and protocol.final.bin: its
// Sender's OrderMessage, BalanceMessage, AccountMessage) through the generated Receiver and
// FinalReceiver whole, one byte at a time and in 20 random chunkings each: the messages' text is
// the original Receiver's (protocol.*.txt); sent back by the generated Senders byte for byte;
// forwarded unchanged by the generated Proxy; read through protoex's Receiver (imports' dispatch);
// bad frames reported with the type, field path and offset. tests/js/test_js_protocol.py builds it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

import * as proto from "./proto.js";
import * as protoex from "./protoex.js";

const shared = process.env["SHARED"] ?? "";
const vectors = join(shared, "vectors");

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Named chunkings of a stream: whole, 1-byte, and 20 random ones (fixed seeds). */
function chunkings(data: Uint8Array): [string, Uint8Array[]][] {
  const out: [string, Uint8Array[]][] = [["whole", [data]]];
  out.push(["1-byte", Array.from(data, (_, i) => data.subarray(i, i + 1))]);
  for (let seed = 1; seed <= 20; seed++) {
    const random = rng(seed);
    const chunks: Uint8Array[] = [];
    for (let p = 0; p < data.length;) {
      const n = 1 + Math.floor(random() * 80);
      chunks.push(data.subarray(p, p + n));
      p += n;
    }
    out.push([`random${seed}`, chunks]);
  }
  return out;
}

const cases = [
  { name: "versioned", file: "protocol.fbe.bin", text: "protocol.fbe.txt", final: false },
  { name: "final", file: "protocol.final.bin", text: "protocol.final.txt", final: true },
];

for (const c of cases) {
  test(`the original's ${c.name} stream in every chunking`, () => {
    const stream = new Uint8Array(readFileSync(join(vectors, c.file)));
    const expected = readFileSync(join(vectors, c.text), "utf8").trimEnd().split("\n");
    for (const [how, chunks] of chunkings(stream)) {
      const got: proto.AnyMessage[] = [];
      const handler: proto.Handler = { onMessage: (m) => got.push(m) };
      const r = c.final ? new proto.FinalReceiver(handler) : new proto.Receiver(handler);
      for (const chunk of chunks) r.receive(chunk);
      assert.deepEqual(got.map(String), expected, how);
      assert.equal(r.pending, 0, how);
      assert.equal(r.receivedMessages, 3, how);
      // Sent back by the generated Sender: the same bytes.
      const sender = c.final ? new proto.FinalSender() : new proto.Sender();
      for (const m of got) sender.send(m);
      assert.deepEqual(sender.buffered(), stream, how);
    }
  });
}

test("each message goes to its own handler method", () => {
  const stream = new Uint8Array(readFileSync(join(vectors, "protocol.fbe.bin")));
  const seen: string[] = [];
  const r = new proto.Receiver({
    onOrderMessage: (m) => seen.push("order " + m.body.symbol),
    onAccountMessage: (m) => seen.push("account " + m.body.name),
    onMessage: (m) => seen.push("other " + m.constructor.name),
  });
  r.receive(stream);
  assert.deepEqual(seen, ["order EURUSD", "other BalanceMessage", "account Test"]);
});

test("the Proxy forwards the verified frames unchanged", () => {
  const stream = new Uint8Array(readFileSync(join(vectors, "protocol.fbe.bin")));
  for (const [how, chunks] of chunkings(stream).slice(0, 5)) {
    const forward = new proto.Sender();
    const ids: number[] = [];
    const proxy = new proto.Proxy({
      onAccountMessageFrame: (frame) => {
        ids.push(3);
        forward.sendFrame(frame.slice());
      },
      onFrame: (typeId, frame) => {
        ids.push(typeId);
        forward.sendFrame(frame.slice());
      },
    });
    for (const chunk of chunks) proxy.receive(chunk);
    assert.deepEqual(ids, [1, 2, 3], how);
    assert.deepEqual(forward.buffered(), stream, how);
  }
});

test("a Receiver of protoex reads proto's frames through its imports' dispatch", () => {
  const stream = new Uint8Array(readFileSync(join(vectors, "protocol.fbe.bin")));
  const got: string[] = [];
  const r = new protoex.Receiver({
    onProtoOrderMessage: (m) => got.push("proto " + m.body.symbol),
    onProtoBalanceMessage: (m) => got.push("proto " + m.body.currency),
    onProtoAccountMessage: (m) => got.push("proto " + m.body.name),
    onOrderMessage: () => got.push("protoex order?"),
  });
  for (const [, chunks] of chunkings(stream).slice(0, 3)) for (const chunk of chunks) r.receive(chunk);
  assert.deepEqual(got, Array(3).fill(["proto EURUSD", "proto USD", "proto Test"]).flat());
  // A protoex message with the original's Order inside reads back through protoex's own entry.
  const sender = new protoex.Sender();
  sender.send(new protoex.OrderMessage({ body: new protoex.Order({ id: 7, symbol: "X", tp: 1.5 }) }));
  const back: protoex.OrderMessage[] = [];
  new protoex.Receiver({ onOrderMessage: (m) => back.push(m) }).receive(sender.buffered());
  assert.equal(back[0]?.body.tp, 1.5);
});

test("a bad frame names the type, field path and offset; the stream goes on after it", () => {
  const stream = new Uint8Array(readFileSync(join(vectors, "protocol.fbe.bin")));
  const account = stream.slice(64 + 47);
  // The Account body's wallet slot: the struct's own offset (at 4) + 8 header + id 4 + name 4 + state 1.
  const view = new DataView(account.buffer);
  const body = view.getUint32(4, true); // AccountMessage body
  const accountBody = body + view.getUint32(body + 8, true); // its body field: offset from the message body
  view.setUint32(accountBody + 8 + 4 + 4 + 1, 0, true);
  const errors: fbe.FrameError[] = [];
  const got: string[] = [];
  const r = new proto.Receiver({ onMessage: (m) => got.push(m.constructor.name) });
  r.onError = (e) => errors.push(e);
  r.receive(stream.subarray(0, 64));
  r.receive(account);
  r.receive(stream.subarray(0, 64));
  assert.deepEqual(got, ["OrderMessage", "OrderMessage"]);
  assert.equal(errors.length, 1);
  const e = errors[0]!;
  assert.equal(e.kind, "invalid body");
  assert.equal(e.offset, 64);
  assert.ok(e.cause instanceof fbe.DecodeError);
  assert.equal(e.cause.type, "proto.AccountMessage");
  assert.equal(e.cause.path, "body.wallet");
  assert.match(e.message, /^invalid body: type id 3, frame of 264 bytes skipped: struct offset 0 \(proto\.AccountMessage\.body\.wallet, offset \d+\) \(frame at stream offset 64\)$/);

  // Without onError: thrown, and the bytes after it wait for the next receive.
  const strict = new proto.Receiver({ onMessage: (m) => got.push(m.constructor.name) });
  const both = new Uint8Array(account.length + 64);
  both.set(account);
  both.set(stream.subarray(0, 64), account.length);
  assert.throws(() => strict.receive(both), fbe.FrameError);
  strict.receive();
  assert.deepEqual(got.slice(2), ["OrderMessage"]);
});
