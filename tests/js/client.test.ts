/// <reference types="node" />
// The generated Client and FinalClient of tests/everything.fbe (which imports market.fbe), in
// memory: a response by id, a notification of another id, a reject, a global reject
// (*market.Failure), a timeout, an abort, reset, a request without response; and frames across
// schema versions (cpp-tests/vectors_old.fbe and vectors_new.fbe: the same type ids, a newer Edge
// with more fields) in every chunking. tests/js/test_js_protocol.py builds it.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

import * as calls from "./calls.js";
import * as everything from "./everything.js";
import * as market from "./market.js";
import * as vectors_new from "./vectors_new.js";
import * as vectors_old from "./vectors_old.js";

type AnyClient = everything.Client | everything.FinalClient;

/** A client wired to a test peer: what the client sends is decoded into `sent`; `reply` feeds it frames. */
function wire(final: boolean): { client: AnyClient; sent: everything.AnyMessage[]; reply: (m: everything.AnyMessage) => void; notified: string[] } {
  const sent: everything.AnyMessage[] = [];
  const notified: string[] = [];
  const peer = final ? new everything.FinalReceiver({ onMessage: (m) => sent.push(m) })
    : new everything.Receiver({ onMessage: (m) => sent.push(m) });
  const transport = (frame: Uint8Array) => peer.receive(frame);
  const handler: everything.Handler = { onMessage: (m) => notified.push(m.constructor.name) };
  const client = final ? new everything.FinalClient(transport, handler) : new everything.Client(transport, handler);
  const back = final ? new everything.FinalSender((f) => client.receive(f)) : new everything.Sender((f) => client.receive(f));
  return { client, sent, reply: (m) => back.send(m), notified };
}

for (const final of [false, true]) {
  const model = final ? "final" : "versioned";

  test(`${model} Client: a response by id; another id is a notification`, async () => {
    const { client, sent, reply, notified } = wire(final);
    const order = new everything.PlaceOrder({ instrument: new market.Instrument({ symbol: "EURUSD" }) });
    const answer = client.request(order, { timeout: 60000 });
    assert.equal(client.requests.size, 1);
    assert.ok(sent[0] instanceof everything.PlaceOrder);
    assert.equal((sent[0] as everything.PlaceOrder).instrument.symbol, "EURUSD");
    reply(new everything.Accepted({ id: fbe.Uuid.v4() })); // not its id
    assert.deepEqual(notified, ["Accepted"]);
    reply(new everything.Accepted({ id: order.id }));
    const accepted: everything.Accepted = await answer;
    assert.ok(accepted.id.equals(order.id));
    assert.equal(client.requests.size, 0);
    reply(new everything.Accepted({ id: order.id })); // answered already: a notification
    assert.deepEqual(notified, ["Accepted", "Accepted"]);
  });

  test(`${model} Client: a value of no request type is a rejected TypeError, nothing sent`, async () => {
    const { client, sent } = wire(final);
    const note = new everything.Note() as unknown as everything.Ping;
    await assert.rejects(client.request(note), (e: unknown) => e instanceof TypeError &&
      e.message === "not a request message of everything");
    assert.equal(sent.length, 0);
  });

  test(`${model} Client: a reject of its id, a global reject, a timeout, an abort, reset`, async () => {
    const { client, reply, notified } = wire(final);
    const o1 = new everything.PlaceOrder();
    const p1 = client.request(o1);
    reply(new everything.Rejected({ id: o1.id, reason: "no" }));
    await assert.rejects(p1, (e: unknown) => {
      assert.ok(e instanceof fbe.RejectError);
      assert.ok(e.value instanceof everything.Rejected);
      assert.equal((e.value as everything.Rejected).reason, "no");
      assert.equal(e.request, "everything.PlaceOrder");
      assert.equal(e.id, o1.id.toString());
      return true;
    });
    const o2 = new everything.PlaceOrder();
    const p2 = client.request(o2);
    reply(new market.Failure({ id: o2.id, reason: "market closed" }));
    await assert.rejects(p2, (e: unknown) => e instanceof fbe.RejectError && e.value instanceof market.Failure &&
      e.message === `everything.PlaceOrder ${o2.id}: rejected by Failure(id="${o2.id}",reason="market closed")`);
    reply(new market.Failure({ id: o2.id, reason: "late" })); // nobody waits: a notification
    assert.deepEqual(notified, ["Failure"]);

    await assert.rejects(client.request(new everything.PlaceOrder(), { timeout: 20 }),
      (e: unknown) => e instanceof fbe.RequestError && e.failure === "timeout" && /timed out after 20 ms$/.test(e.message));
    const controller = new AbortController();
    const p3 = client.request(new everything.PlaceOrder(), { signal: controller.signal });
    controller.abort();
    await assert.rejects(p3, (e: unknown) => e instanceof fbe.RequestError && e.failure === "aborted");
    const p4 = client.request(new everything.PlaceOrder(), { timeout: 60000 });
    client.reset();
    await assert.rejects(p4, (e: unknown) => e instanceof fbe.RequestError && e.failure === "reset");
    assert.equal(client.requests.size, 0);
  });

  test(`${model} Client: a request without response is done once sent`, async () => {
    const { client, sent } = wire(final);
    const done: void = await client.request(new everything.Ping({ sequence: 42n }));
    assert.equal(done, undefined);
    assert.equal((sent[0] as everything.Ping).sequence, 42n);
  });
}

test("a global reject fails the pending request of its id whatever its type", async () => {
  let client: calls.Client | undefined = undefined;
  const back = new calls.Sender((f) => client!.receive(f));
  const notified: string[] = [];
  client = new calls.Client(() => undefined, { onMessage: (m) => notified.push(m.constructor.name) });
  const b = new calls.B();
  const pending = client.request(b);
  back.send(new market.Failure({ id: fbe.Uuid.v4(), reason: "other id" }));
  assert.deepEqual(notified, ["Failure"]);
  back.send(new market.Failure({ id: b.id, reason: "down" }));
  await assert.rejects(pending, (e: unknown) => e instanceof fbe.RejectError && e.value instanceof market.Failure &&
    e.request === "calls.B");
  const a = new calls.A();
  const done = client.request(a);
  back.send(new calls.Done({ id: a.id }));
  assert.ok((await done).id.equals(a.id));
});

test("a Client's request is refused when it cannot be written (nothing sent)", async () => {
  const frames: Uint8Array[] = [];
  const client = new everything.Client((f) => frames.push(f));
  const bad = new everything.PlaceOrder({ instrument: new market.Instrument({ symbol: "x", digits: 2 ** 40 }) });
  await assert.rejects(client.request(bad), (e: unknown) => e instanceof fbe.RequestError && e.failure === "send" &&
    e.cause instanceof fbe.EncodeError);
  assert.equal(frames.length, 0);
  assert.equal(client.requests.size, 0);
});

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function feed(r: fbe.FrameReceiver, data: Uint8Array, seed: number): void {
  if (seed === 0) {
    for (let i = 0; i < data.length; i++) r.receive(data.subarray(i, i + 1));
    return;
  }
  const random = rng(seed);
  for (let p = 0; p < data.length;) {
    const n = 1 + Math.floor(random() * 16);
    r.receive(data.subarray(p, p + n));
    p += n;
  }
}

test("frames across schema versions: newer frames read by an older Receiver and the other way", () => {
  for (const seed of [0, 1, 2, 3]) {
    const newer = new vectors_new.Sender();
    newer.send(new vectors_new.Holder({ edges: [new vectors_new.Edge({ source: 1, target: 2, weight: 3, note: "n" }),
      new vectors_new.Edge({ source: 4 })] }));
    const old: vectors_old.Holder[] = [];
    feed(new vectors_old.Receiver({ onHolder: (h) => old.push(h) }), newer.buffered(), seed);
    assert.deepEqual(old.map((h) => h.edges.map((e) => e.source)), [[1, 4]]);

    const older = new vectors_old.Sender();
    older.send(old[0]!);
    const got: vectors_new.Holder[] = [];
    feed(new vectors_new.Receiver({ onHolder: (h) => got.push(h) }), older.buffered(), seed);
    assert.equal(got.length, 1);
    assert.deepEqual(got[0]!.edges.map((e) => [e.source, e.target, e.weight, e.note]), [[1, 0, 0, ""], [4, 0, 0, ""]]);
  }
});
