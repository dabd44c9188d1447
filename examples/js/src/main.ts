// The TypeScript TCP example: `node out/src/main.js` runs a server on a free port of 127.0.0.1 and
// a client against it, in both models;
//
//   node out/src/main.js serve [--port 5000] [--final] [--max-connections 256]
//        [--max-frame-size 1048576] [--idle-timeout 60] [--frame-timeout 10] [--send-queue-limit 1048576]
//
// runs the server alone (the timeouts in seconds, fractions allowed, 0 = never: the limits of
// docs/tcp-examples.md; it prints "listening on 127.0.0.1:PORT" and, on SIGTERM or SIGINT, a closing
// line of counts), and `connect HOST:PORT [--final]` the client (MESSAGES pings, 100 by default).
import process from "node:process";
import { parseArgs } from "node:util";

import { connect, converse } from "./client.js";
import { DEFAULT_CONFIG, Server } from "./server.js";

async function client(host: string, port: number, final: boolean): Promise<void> {
  const c = await connect(host, port, final);
  const messages = Number(process.env["MESSAGES"] ?? 100);
  const r = await converse(c, messages);
  console.log(`${final ? "final" : "versioned"}: ${r.pings} pings in ${(r.seconds * 1000).toFixed(1)} ms ` +
    `(${Math.round(r.pings / r.seconds)}/s), order ${r.accepted.order} accepted at ${r.accepted.price}, ` +
    `one rejected (${r.rejected}), ${r.heartbeats} heartbeat`);
  c.close();
}

/** A whole number of at least `least`, or an error naming the option. */
function count(name: string, text: string | undefined, fallback: number, least: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < least) throw new Error(`--${name}: ${text} is not a whole number of at least ${least}`);
  return n;
}

/** Seconds (fractions allowed) as milliseconds, or an error naming the option. */
function seconds(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const s = Number(text);
  if (text.trim() === "" || !Number.isFinite(s) || s < 0 || s > 1e9) throw new Error(`--${name}: ${text} is not a number of seconds`);
  return Math.round(s * 1000);
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      final: { type: "boolean" },
      "max-connections": { type: "string" },
      "max-frame-size": { type: "string" },
      "idle-timeout": { type: "string" },
      "frame-timeout": { type: "string" },
      "send-queue-limit": { type: "string" },
    },
  });
  const server = new Server({
    final: values.final ?? false,
    maxConnections: count("max-connections", values["max-connections"], DEFAULT_CONFIG.maxConnections, 1),
    maxFrameSize: count("max-frame-size", values["max-frame-size"], DEFAULT_CONFIG.maxFrameSize, 1),
    idleTimeout: seconds("idle-timeout", values["idle-timeout"], DEFAULT_CONFIG.idleTimeout),
    frameTimeout: seconds("frame-timeout", values["frame-timeout"], DEFAULT_CONFIG.frameTimeout),
    sendQueueLimit: count("send-queue-limit", values["send-queue-limit"], DEFAULT_CONFIG.sendQueueLimit, 1),
  });
  const port = await server.listen(count("port", values.port, 5000, 0));
  console.log(`listening on 127.0.0.1:${port}${values.final ? " (final-model frames)" : ""}`);
  const stop = () => {
    const s = server.stats;
    console.log(`server: ${s.sessions} session(s), ${s.refused} refused over max_connections, ${s.evicted} evicted, ` +
      `${s.requests} requests, bye`);
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

async function main(args: string[]): Promise<void> {
  if (args[0] === "serve") {
    await serve(args.slice(1));
    return;
  }
  const final = args.includes("--final");
  if (args[0] === "connect") {
    const [host, port] = (args[1] ?? "127.0.0.1:5000").split(":");
    await client(host ?? "127.0.0.1", Number(port), final);
    return;
  }
  for (const f of [false, true]) {
    const server = new Server({ final: f });
    const port = await server.listen();
    await client("127.0.0.1", port, f);
    await server.close();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
