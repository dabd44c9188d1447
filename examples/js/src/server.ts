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
//   - hold a slot by sending slowly: a frame must be whole frameTimeout after its first byte (the
//     first frame: after the accept), or the connection is closed;
//   - exhaust it with connections: at maxConnections a new connection takes the slot of the
//     connection that has waited longest for a frame to complete; when every open connection is
//     between frames, the new one is closed at once (one message per episode).
//
// A bad frame (too large, too small, unknown type, a body that does not decode) drops the client
// with one message; so does an exception of a handler. The rest of what it sent is not processed.
// The policy is the same in every language's example: docs/tcp-examples.md.
import net from "node:net";

import * as fbe from "@fbe-toolkit/fbe";

import * as rpc from "../gen/rpc.js";

export interface Config {
  /** Connections open at once; one more evicts the one waiting longest for a frame, or is closed right after accept when every one is between frames. */
  maxConnections: number;
  /** The largest accepted frame (a request); the rpc messages are small, so well below the default 64 MiB. */
  maxFrameSize: number;
  /** Reply bytes queued for a client above which the server stops reading it until they drain. */
  sendQueueLimit: number;
  /** Milliseconds without a byte read or written before a connection is closed; 0: never. */
  idleTimeout: number;
  /** Milliseconds after a frame's first byte (the first frame: after the accept) by which it must be whole, or the connection is closed; 0: never. */
  frameTimeout: number;
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
  frameTimeout: 10_000,
  final: false,
  log: (message) => console.error(message),
};

/** What the server did, for tests and the closing line. */
export interface Stats {
  sessions: number;
  refused: number;
  /** Connections closed at maxConnections for a new one. */
  evicted: number;
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

/** One open connection: since when it waits for a frame to complete (its accept, or the frame's first byte; performance.now()), null between frames. */
interface Connection {
  readonly socket: net.Socket;
  waitingSince: number | null;
}

export class Server {
  readonly config: Config;
  readonly stats: Stats = { sessions: 0, refused: 0, evicted: 0, requests: 0, dropped: 0, maxQueued: 0 };
  private readonly server: net.Server;
  private readonly connections = new Map<net.Socket, Connection>();
  // One message per episode at maxConnections for each, not one per connection: an episode ends
  // when fewer than three quarters of maxConnections are open.
  private evicting = false;
  private refusing = false;

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
    return this.connections.size;
  }

  /** Stops accepting, closes every connection and resolves once the server is closed. */
  close(): Promise<void> {
    for (const s of this.connections.keys()) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The open connection that has waited longest for a frame, or undefined when every one is between frames. */
  private slowest(): Connection | undefined {
    let slowest: Connection | undefined;
    for (const c of this.connections.values()) {
      if (c.waitingSince !== null && (slowest === undefined || c.waitingSince < slowest.waitingSince!)) slowest = c;
    }
    return slowest;
  }

  /** Admits the socket, at maxConnections in the slot of the connection waiting longest for a frame; false when it is refused. */
  private admit(socket: net.Socket): boolean {
    const cfg = this.config;
    if (this.connections.size >= cfg.maxConnections) {
      const victim = this.slowest();
      if (victim) {
        this.stats.evicted++;
        if (!this.evicting) {
          cfg.log(`server: ${this.connections.size} connections open (max_connections): a new one evicts the one waiting longest for a frame`);
        }
        this.evicting = true;
        this.connections.delete(victim.socket); // its 'close' follows, without a message
        victim.socket.destroy();
      }
    }
    if (this.connections.size >= cfg.maxConnections) {
      this.stats.refused++;
      if (!this.refusing) {
        cfg.log(`server: ${this.connections.size} connections open (max_connections), each between frames: closing new ones until one ends`);
      }
      this.refusing = true;
      socket.destroy();
      return false;
    }
    if (this.connections.size < cfg.maxConnections - Math.floor(cfg.maxConnections / 4)) {
      this.evicting = this.refusing = false; // the episode is over
    }
    return true;
  }

  private accept(socket: net.Socket): void {
    const cfg = this.config;
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    if (!this.admit(socket)) return;
    const connection: Connection = { socket, waitingSince: performance.now() };
    this.connections.set(socket, connection);
    this.stats.sessions++;
    const limits = fbe.limits({ maxFrameSize: cfg.maxFrameSize });
    const sender = cfg.final ? new rpc.FinalSender(socket) : new rpc.Sender(socket);
    const h = handler(sender, this.stats);
    const receiver = cfg.final ? new rpc.FinalReceiver(h, limits) : new rpc.Receiver(h, limits);
    let dropped = false;
    let framed = false; // a frame completed
    let frameTimer: NodeJS.Timeout | undefined;
    // With `notice`, the client's frame made no sense in this server's model: the model notice
    // (docs/format.md 7.4) tells it so, then the connection closes (at the latest a second later).
    const drop = (why: string, notice = false) => {
      if (dropped) return;
      dropped = true;
      this.stats.dropped++;
      cfg.log(`server: ${peer}: dropping the connection: ${why}`);
      if (notice) {
        // Closing with the client's bytes unread would reset the connection, and the client would
        // lose the notice: what arrives is read and dropped until the client closes (a second at most).
        socket.uncork();
        socket.end(fbe.modelNotice(cfg.final));
        setTimeout(() => socket.destroy(), 1000).unref();
      } else {
        socket.destroy();
      }
    };
    // The frame timer is set for the frame waited for; when a later frame took its place it is set again.
    const onFrameTimer = () => {
      frameTimer = undefined;
      if (dropped || connection.waitingSince === null) return;
      const left = connection.waitingSince + cfg.frameTimeout - performance.now();
      if (left > 0) {
        frameTimer = setTimeout(onFrameTimer, left);
      } else {
        drop(`frame timeout: no whole frame ${cfg.frameTimeout} ms after ${framed ? "its first byte" : "the connection opened"}`);
      }
    };
    const armFrameTimer = () => {
      if (cfg.frameTimeout > 0 && frameTimer === undefined && connection.waitingSince !== null) {
        frameTimer = setTimeout(onFrameTimer, connection.waitingSince + cfg.frameTimeout - performance.now());
      }
    };
    armFrameTimer();
    socket.setNoDelay(true);
    if (cfg.idleTimeout > 0) {
      socket.setTimeout(cfg.idleTimeout, () =>
        drop(socket.writableLength > 0
          ? `does not read its replies (${socket.writableLength} bytes waiting for ${cfg.idleTimeout} ms)`
          : `idle for ${cfg.idleTimeout} ms (nothing read or written)`));
    }
    socket.on("data", (chunk: Buffer) => {
      if (dropped) return;
      const unfinished = receiver.pending + chunk.length; // pending after this chunk if no frame completes
      socket.cork(); // the replies to one read leave in one write
      try {
        receiver.receive(chunk); // a bad frame throws its fbe.FrameError: the client is dropped
      } catch (e) {
        drop((e instanceof Error ? e.message : String(e)) + mismatchHint(e, cfg.final), senseless(e));
        return;
      } finally {
        socket.uncork();
      }
      // A frame completed when fewer bytes are pending; the wait for the next begins with its first byte.
      const pending = receiver.pending;
      if (pending < unfinished) {
        framed = true;
        connection.waitingSince = pending > 0 ? performance.now() : null;
      } else if (connection.waitingSince === null) {
        connection.waitingSince = performance.now();
      }
      armFrameTimer();
      const queued = socket.writableLength;
      if (queued > this.stats.maxQueued) this.stats.maxQueued = queued;
      if (queued > cfg.sendQueueLimit) socket.pause(); // backpressure: resumed on 'drain'
    });
    socket.on("drain", () => {
      if (!dropped) socket.resume();
    });
    socket.on("error", () => undefined); // 'close' follows
    socket.on("close", () => {
      clearTimeout(frameTimer);
      if (this.connections.get(socket) === connection) this.connections.delete(socket);
    });
  }
}

/** Whether the client's frame made no sense in this server's model: it gets the model notice (docs/format.md 7.4). */
function senseless(e: unknown): boolean {
  return e instanceof fbe.FrameError && ["bad frame header", "unknown type", "frame too small"].includes(e.kind);
}

/** Names the likely cause of frames that make no sense: the two ends disagree on --final. */
function mismatchHint(e: unknown, final: boolean): string {
  if (!senseless(e)) return "";
  return final
    ? " (this server reads final-model frames: was the client started without --final?)"
    : " (this server reads versioned frames: was the client started with --final?)";
}
