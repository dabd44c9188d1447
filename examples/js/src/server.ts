// The rpc server of the TypeScript TCP example (../../cpp/tcp/rpc.fbe, generated with
// `fbec --typescript --final --proto` into ../gen) over node:net.
//
// Each connection feeds what arrives to the generated Receiver (any fragmentation); the handlers
// answer through the generated Sender into the socket, corked while one read is handled so the
// replies to a burst of requests leave in one write. What a client cannot do to the
// server (Config):
//
//   - make it buffer without bound: while more than sendQueueLimit reply bytes wait for a client,
//     the server stops reading that client (socket.pause) and resumes on 'drain'. A client that
//     never reads its replies stalls only itself, and is dropped after idleTimeout;
//   - make it allocate what it has not sent: a partial frame holds only the bytes received, and a
//     frame size above maxFrameSize drops the client (fbe.FrameReceiver, docs/limits.md 6);
//   - hold a connection forever: idleTimeout without a byte read or written closes it;
//   - exhaust it with connections: above maxConnections a new connection is closed at once (one
//     message per episode).
//
// A bad frame (too large, too small, unknown type, a body that does not decode) drops the client
// with one message; so does an exception of a handler. The rest of what it sent is not processed.
import net from "node:net";

import * as fbe from "@fbe-toolkit/fbe";

import * as rpc from "../gen/rpc.js";

export interface Config {
  /** Connections open at once; one more is closed right after accept. */
  maxConnections: number;
  /** The largest accepted frame (a request); the rpc messages are small, so well below the default 64 MiB. */
  maxFrameSize: number;
  /** Reply bytes queued for a client above which the server stops reading it until they drain. */
  sendQueueLimit: number;
  /** Milliseconds without a byte read or written before a connection is closed; 0: never. */
  idleTimeout: number;
  /** Final-model frames (the client must speak them too). */
  final: boolean;
  /** Why a connection was dropped, and other news. */
  log: (message: string) => void;
}

export const DEFAULT_CONFIG: Config = {
  maxConnections: 256,
  maxFrameSize: 1 << 20,
  sendQueueLimit: 1 << 20,
  idleTimeout: 60_000,
  final: false,
  log: (message) => console.error(message),
};

/** What the server did, for tests and the closing line. */
export interface Stats {
  sessions: number;
  refused: number;
  requests: number;
  dropped: number;
  /** The most reply bytes ever queued for one client. */
  maxQueued: number;
}

/** Answers Ping with Pong, PlaceOrder with OrderAccepted (OrderRejected when its quantity is not positive or its symbol empty), Notice with a Heartbeat. */
function handler(sender: rpc.Sender | rpc.FinalSender, stats: Stats): rpc.Handler {
  let orders = 0n;
  return {
    onPing(ping) {
      stats.requests++;
      sender.send(new rpc.Pong({ id: ping.id, sequence: ping.sequence, payload: ping.payload }));
    },
    onPlaceOrder(order) {
      stats.requests++;
      if (!(order.quantity > 0) || order.symbol === "") {
        const reason = order.symbol === "" ? "no symbol" : `quantity ${order.quantity} is not positive`;
        sender.send(new rpc.OrderRejected({ id: order.id, reason }));
      } else {
        sender.send(new rpc.OrderAccepted({ id: order.id, order: ++orders, price: order.price, quantity: order.quantity }));
      }
    },
    onNotice() {
      stats.requests++;
      sender.send(new rpc.Heartbeat({ time: fbe.utc() }));
    },
    onMessage(message) {
      throw new Error(`a client does not send ${message.constructor.name}`);
    },
  };
}

export class Server {
  readonly config: Config;
  readonly stats: Stats = { sessions: 0, refused: 0, requests: 0, dropped: 0, maxQueued: 0 };
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private atLimit = false;

  constructor(config: Partial<Config> = {}) {
    this.config = { ...DEFAULT_CONFIG, ...config };
    this.server = net.createServer((socket) => this.accept(socket));
  }

  /** Listens on 127.0.0.1 (port 0: a free one) and resolves to the port. */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve((this.server.address() as net.AddressInfo).port));
    });
  }

  /** Connections open now. */
  get open(): number {
    return this.sockets.size;
  }

  /** Stops accepting, closes every connection and resolves once the server is closed. */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const cfg = this.config;
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    if (this.sockets.size >= cfg.maxConnections) {
      this.stats.refused++;
      if (!this.atLimit) {
        this.atLimit = true;
        cfg.log(`${this.sockets.size} connections open (maxConnections): closing new ones until one ends`);
      }
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    this.stats.sessions++;
    const limits = fbe.limits({ maxFrameSize: cfg.maxFrameSize });
    const sender = cfg.final ? new rpc.FinalSender(socket) : new rpc.Sender(socket);
    const h = handler(sender, this.stats);
    const receiver = cfg.final ? new rpc.FinalReceiver(h, limits) : new rpc.Receiver(h, limits);
    let dropped = false;
    const drop = (why: string) => {
      if (dropped) return;
      dropped = true;
      this.stats.dropped++;
      cfg.log(`${peer}: ${why}; connection closed`);
      socket.destroy();
    };
    socket.setNoDelay(true);
    if (cfg.idleTimeout > 0) {
      socket.setTimeout(cfg.idleTimeout, () =>
        drop(socket.writableLength > 0 ? `does not read its replies (${socket.writableLength} bytes waiting)` : "idle"));
    }
    socket.on("data", (chunk: Buffer) => {
      socket.cork(); // the replies to one read leave in one write
      try {
        receiver.receive(chunk); // a bad frame throws its fbe.FrameError: the client is dropped
      } catch (e) {
        drop(e instanceof Error ? e.message : String(e));
        return;
      } finally {
        socket.uncork();
      }
      const queued = socket.writableLength;
      if (queued > this.stats.maxQueued) this.stats.maxQueued = queued;
      if (queued > cfg.sendQueueLimit) socket.pause(); // backpressure: resumed on 'drain'
    });
    socket.on("drain", () => {
      if (!dropped) socket.resume();
    });
    socket.on("error", () => undefined); // 'close' follows
    socket.on("close", () => {
      this.sockets.delete(socket);
      if (this.sockets.size < cfg.maxConnections) this.atLimit = false;
    });
  }
}
