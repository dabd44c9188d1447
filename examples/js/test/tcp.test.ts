// The TCP example's tests (make example-js-test, in make test-js): the loopback in both models, and
// hostile clients: clients that never read their replies (paused, bounded, dropped), split frame
// headers (only what arrived is held), a frame above maxFrameSize and the connection limit, with a
// good client served after each. Every wait is bounded: a test that hangs fails on its timeout. The
// hostile clients every language's example faces, slow ones included, are tests/tcp_examples
// (docs/tcp-examples.md), which make example-js-test runs against this server too.
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import * as fbe from "@fbe-toolkit/fbe";

import * as rpc from "../gen/rpc.js";
import { connect, converse } from "../src/client.js";
import { Server, type Config } from "../src/server.js";

const PATIENCE = 60_000; // the longest any wait may take on a loaded machine

async function until(what: string, ok: () => boolean, ms = PATIENCE): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(20);
  }
}

function start(config: Partial<Config>): { server: Server; logged: string[] } {
  const logged: string[] = [];
  return { server: new Server({ ...config, log: (m) => logged.push(m) }), logged };
}

async function goodClient(port: number, final = false): Promise<void> {
  const c = await connect("127.0.0.1", port, final);
  const r = await converse(c, 100);
  assert.equal(r.rejected, "quantity 0 is not positive");
  assert.equal(r.heartbeats, 1);
  c.close();
}

/** A raw connection; `closed` resolves when the server closes it. */
function raw(port: number): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

/** The bytes in use: after a full collection when node runs with --expose-gc (make example-js-test), so garbage does not count. */
function heap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

for (const final of [false, true]) {
  test(`a good client is served (${final ? "final" : "versioned"} frames)`, async () => {
    const { server, logged } = start({ final });
    const port = await server.listen();
    const c = await connect("127.0.0.1", port, final);
    const r = await converse(c, 100);
    assert.equal(r.pings, 100);
    assert.equal(r.accepted.order, 1n);
    assert.equal(r.accepted.quantity, 10);
    assert.equal(r.rejected, "quantity 0 is not positive");
    assert.equal(r.heartbeats, 1);
    assert.equal(server.stats.requests, 100 + 2 + 1 + 1);
    c.close();
    await until("the server to see the client leave", () => server.open === 0);
    await server.close();
    assert.deepEqual(logged, []);
  });
}

test("clients that never read their replies are paused with bounded queues, then dropped", async (t) => {
  const sendQueueLimit = 256 << 10;
  const { server, logged } = start({ sendQueueLimit, idleTimeout: 1500 });
  const port = await server.listen();
  const sender = new rpc.Sender();
  for (let i = 0; i < 1000; i++) sender.send(new rpc.Ping({ sequence: BigInt(i), payload: "x".repeat(40) }));
  const block = sender.buffered(); // 1000 pings, ~90 KB
  const base = heap();
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, heap() - base)), 100);
  const stalled: Promise<void>[] = [];
  const clients = await Promise.all(Array.from({ length: 4 }, () => raw(port)));
  let sent = 0;
  for (const { socket } of clients) {
    // Writes as a blocked writer would: the next block only once the last one drained. No 'data'
    // listener: the socket reads nothing once its own buffer is full.
    stalled.push((async () => {
      while (!socket.destroyed) {
        sent += block.length;
        if (!socket.write(block)) {
          // Until it drains, or the server closes it.
          await new Promise<void>((done) => {
            socket.once("drain", done);
            socket.once("close", done);
          });
        }
      }
    })());
  }
  await goodClient(port); // served while they are connected
  await Promise.all(clients.map((c) => c.closed));
  clearInterval(sampler);
  await Promise.all(stalled);
  const dropped = logged.filter((m) => m.includes("does not read its replies"));
  assert.equal(dropped.length, 4, logged.join("\n"));
  assert.ok(sent > 4 * sendQueueLimit, `each client sent more than the queue limit (${sent} bytes in all)`);
  assert.ok(server.stats.maxQueued <= sendQueueLimit + (128 << 10),
    `at most ${server.stats.maxQueued} reply bytes queued for one client (limit ${sendQueueLimit} + one read's replies)`);
  assert.ok(peak < 16 << 20, `the heap grew by ${peak} bytes`);
  t.diagnostic(`4 never-reading clients sent ${sent} bytes; at most ${server.stats.maxQueued} reply bytes queued for one; heap in use grew by at most ${peak} bytes`);
  await goodClient(port);
  await server.close();
});

test("split frame headers and partial frames hold only the bytes that arrived", async (t) => {
  const { server, logged } = start({ idleTimeout: 1000 });
  const port = await server.listen();
  const base = heap();
  const clients = await Promise.all(Array.from({ length: 40 }, () => raw(port)));
  const header = new Uint8Array(4);
  new DataView(header.buffer).setUint32(0, 1 << 20, true); // maxFrameSize: accepted, never sent
  for (const [i, { socket }] of clients.entries()) {
    socket.write(i % 2 === 0 ? header.subarray(0, 2) : Buffer.concat([header, Buffer.alloc(100)]));
  }
  await sleep(200);
  const grown = heap() - base;
  assert.ok(grown < 8 << 20, `40 partial frames declaring 1 MiB grew the heap by ${grown} bytes`);
  t.diagnostic(`40 partial frames declaring 1 MiB: the heap grew by ${grown} bytes`);
  await goodClient(port);
  await Promise.all(clients.map((c) => c.closed)); // dropped as idle
  assert.equal(logged.filter((m) => m.endsWith(": dropping the connection: idle for 1000 ms (nothing read or written)")).length, 40,
    logged.join("\n"));
  await server.close();
});

test("a frame above maxFrameSize drops the client; a good client is served", async () => {
  const { server, logged } = start({ maxFrameSize: 4096 });
  const port = await server.listen();
  const { socket, closed } = await raw(port);
  const header = Buffer.alloc(4);
  header.writeUInt32LE(2 << 20, 0);
  socket.write(header);
  await closed;
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /: dropping the connection: frame too large: frame size 2097152 is above the maximum 4096; the frame is skipped \(frame at stream offset 0\)$/);
  await goodClient(port);
  await server.close();
});

test("a bad frame drops the client with one message", async () => {
  const { server, logged } = start({});
  const port = await server.listen();
  const { socket, closed } = await raw(port);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk)); // read, so the server's close is seen
  const sender = new rpc.Sender();
  sender.send(new rpc.Ping({ payload: "p" }));
  const frame = sender.buffered().slice();
  frame[8 + 4] = 99; // the body's type id
  socket.write(frame);
  await closed;
  assert.deepEqual(new Uint8Array(Buffer.concat(chunks)), fbe.modelNotice(false)); // docs/format.md 7.4
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /unknown type: no message has type id 99/);
  await goodClient(port);
  await server.close();
});

/** Sends a Ping on a raw connection and resolves once its Pong arrived: the connection is between frames. */
function answered(socket: net.Socket): Promise<void> {
  const sender = new rpc.Sender();
  sender.send(new rpc.Ping({ payload: "held" }));
  const frame = sender.buffered().slice();
  return new Promise((resolve) => {
    socket.once("data", () => resolve());
    socket.write(frame);
  });
}

test("above maxConnections, every connection between frames, a new connection is closed at once, with one message", async () => {
  const { server, logged } = start({ maxConnections: 2 });
  const port = await server.listen();
  const held = await Promise.all([raw(port), raw(port)]);
  await until("two connections open", () => server.open === 2);
  await Promise.all(held.map((c) => answered(c.socket)));
  const extra = await Promise.all([raw(port), raw(port)]);
  await Promise.all(extra.map((c) => c.closed));
  assert.equal(server.stats.refused, 2);
  assert.equal(logged.length, 1);
  assert.match(logged[0]!, /^server: 2 connections open \(max_connections\), each between frames: closing new ones until one ends$/);
  held[0]!.socket.destroy();
  await until("one connection to end", () => server.open === 1);
  await goodClient(port);
  held[1]!.socket.destroy();
  await server.close();
});
