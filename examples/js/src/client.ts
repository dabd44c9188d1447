// The rpc client of the TypeScript TCP example: the generated rpc.Client over a node:net socket.
// What arrives from the socket feeds the Client (responses complete the requests of their id,
// everything else goes to the handler); a close fails the pending requests at once.
import net from "node:net";

import * as fbe from "@fbe-toolkit/fbe";

import * as rpc from "../gen/rpc.js";

export interface Connection {
  client: rpc.Client | rpc.FinalClient;
  socket: net.Socket;
  /** Heartbeats received (the server's answer to a Notice). */
  heartbeats: rpc.Heartbeat[];
  close(): void;
}

/** Connects to host:port and wires the generated Client to the socket. */
export function connect(host: string, port: number, final = false): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const heartbeats: rpc.Heartbeat[] = [];
    const handler: rpc.Handler = { onHeartbeat: (h) => heartbeats.push(h) };
    const client = final ? new rpc.FinalClient(socket, handler) : new rpc.Client(socket, handler);
    socket.setNoDelay(true);
    let why: string | undefined; // a bad frame from the server, or its model notice (docs/format.md 7.4)
    socket.on("data", (chunk: Buffer) => {
      try {
        client.receive(chunk);
      } catch (e) {
        why = e instanceof Error ? e.message : String(e);
        socket.destroy();
      }
    });
    socket.on("close", () => {
      client.requests.reset(why ?? "the server closed the connection before the response came");
      client.reset();
    });
    socket.on("error", (e) => reject(e));
    socket.once("connect", () => resolve({ client, socket, heartbeats, close: () => socket.end() }));
  });
}

export interface Result {
  pings: number;
  seconds: number;
  accepted: rpc.OrderAccepted;
  rejected: string;
  heartbeats: number;
}

/**
 * The example's conversation: `messages` pings (`window` in flight at once, each Pong checked), an
 * order accepted, one rejected (an fbe.RejectError holding the OrderRejected), a Notice answered by
 * a Heartbeat. Every request has a 5 s timeout.
 */
export async function converse(c: Connection, messages = 100, window = 64): Promise<Result> {
  const timeout = 5000;
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < messages) {
      const sequence = BigInt(next++);
      const payload = `ping ${sequence}`;
      const pong = await c.client.request(new rpc.Ping({ sequence, payload }), { timeout });
      if (pong.sequence !== sequence || pong.payload !== payload) throw new Error(`wrong pong ${pong} for ${sequence}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, messages) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const accepted = await c.client.request(new rpc.PlaceOrder({ symbol: "EURUSD", side: rpc.Side.buy, price: 1.0875, quantity: 10 }), { timeout });
  let rejected = "";
  try {
    await c.client.request(new rpc.PlaceOrder({ symbol: "EURUSD", side: rpc.Side.sell, price: 1.0875, quantity: 0 }), { timeout });
  } catch (e) {
    if (!(e instanceof fbe.RejectError) || !(e.value instanceof rpc.OrderRejected)) throw e;
    rejected = e.value.reason;
  }
  const before = c.heartbeats.length;
  await c.client.request(new rpc.Notice({ text: "hello" }));
  // The Heartbeat is a notification: wait for it with a Ping behind it (replies keep their order).
  await c.client.request(new rpc.Ping({ sequence: -1n }), { timeout });
  return { pings: messages, seconds, accepted, rejected, heartbeats: c.heartbeats.length - before };
}
