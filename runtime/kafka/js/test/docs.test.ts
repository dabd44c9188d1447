// The JavaScript producer and consumer of docs/kafka.md run as written, through the broker of make
// test-kafka: the producer's record is handled, then a record without headers goes to the refused
// callback. The block is compiled with TypeScript's transpileModule into build-test/, where
// ./gen/proto.js is the generated code and @fbe-toolkit/fbe-kafka this package (its dist/).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url)); // build-test/test
const doc = join(here, "..", "..", "..", "..", "..", "docs", "kafka.md");

function example(): string {
  const blocks = [...readFileSync(doc, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.includes("serde.eachMessage("));
  assert.ok(block, "no ts block with serde.eachMessage in docs/kafka.md");
  return block;
}

test("the producer and consumer of the docs run", { timeout: 120_000 }, async () => {
  // The example's Kafka client logs at kafkajs's default level: quiet here (a run's log shows
  // failures, not the client's retries while the topic is created).
  process.env.KAFKAJS_LOG_LEVEL = "nothing";
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = "1";
  const servers = process.env.FBE_KAFKA_BOOTSTRAP;
  assert.ok(servers, "FBE_KAFKA_BOOTSTRAP is not set (make test-kafka starts a broker)");
  const topic = `js-docs-${randomUUID().slice(0, 8)}`;
  const prelude = `
const servers = ${JSON.stringify(servers)};
const account = new Account({ id: 1, name: "Alice" });
export const seen = [];
let done;
export const finished = new Promise((resolve) => { done = resolve; });
const handle = (value) => { seen.push("handled " + value.name); };
const log = { warn: (text) => { seen.push(text); done(); } };
`;
  const epilogue = `
await producer.send({ topic: ${JSON.stringify(topic)}, messages: [{ value: Buffer.from(account.toFbe()) }] });
export async function stop() { await consumer.disconnect(); await producer.disconnect(); }
`;
  const code = example().replaceAll('"accounts"', JSON.stringify(topic)).replaceAll('"billing"', JSON.stringify(topic));
  const js = ts.transpileModule(prelude + code + epilogue, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = join(here, "..", "docs-example.mjs");
  writeFileSync(file, js);
  const run = await import(pathToFileURL(file).href);
  try {
    await run.finished;
  } finally {
    await run.stop();
  }
  assert.equal(run.seen[0], "handled Alice");
  assert.match(run.seen[1], /^refused record 0\/1: a record this consumer of proto 1\.0 \(versioned, .*no fbe header/);
});
