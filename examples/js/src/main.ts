// The TypeScript TCP example: `node out/src/main.js` runs a server on a free port of 127.0.0.1 and
// a client against it, in both models; `serve PORT [final]` runs the server alone and
// `connect HOST:PORT [final]` the client (MESSAGES pings, 100 by default).
import process from "node:process";

import { connect, converse } from "./client.js";
import { Server } from "./server.js";

async function client(host: string, port: number, final: boolean): Promise<void> {
  const c = await connect(host, port, final);
  const messages = Number(process.env["MESSAGES"] ?? 100);
  const r = await converse(c, messages);
  console.log(`${final ? "final" : "versioned"}: ${r.pings} pings in ${(r.seconds * 1000).toFixed(1)} ms ` +
    `(${Math.round(r.pings / r.seconds)}/s), order ${r.accepted.order} accepted at ${r.accepted.price}, ` +
    `one rejected (${r.rejected}), ${r.heartbeats} heartbeat`);
  c.close();
}

async function main(args: string[]): Promise<void> {
  const final = args.includes("final");
  if (args[0] === "serve") {
    const server = new Server({ final });
    const port = await server.listen(Number(args[1] ?? 5000));
    console.log(`serving rpc (${final ? "final" : "versioned"} frames) on 127.0.0.1:${port}`);
    return;
  }
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
  console.error(e);
  process.exit(1);
});
