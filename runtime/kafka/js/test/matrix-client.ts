// The JS client of the cross-language Kafka tests (tests/kafka/test_matrix.py): proto.Account
// messages of schemas/trade.fbe through FbeSerde and kafkajs.
//
//   matrix-client.js encode MODEL            JSON lines in, the hex of each message's bytes out
//   matrix-client.js produce MODEL TOPIC     JSON lines in, a record each to partition 0, in order
//   matrix-client.js consume MODEL TOPIC N   the first N records of partition 0, a line each:
//                                            "OFFSET HEX JSON", or "OFFSET refused REASON"
//
// MODEL is versioned or final; the broker is FBE_KAFKA_BOOTSTRAP; the schema is the generated
// module's (FbeSchema.of(proto)). kafkajs reads gzip batches alone; franz-go (the Go client)
// compresses with snappy unless told otherwise, so its codec is registered, as an application
// reading them must.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import kafkajs, { Kafka, logLevel, Partitioners } from "kafkajs";
import SnappyCodec from "kafkajs-snappy";
import * as proto from "../gen/proto.js";
import { Account } from "../gen/proto.js";
import { FbeRecordError, FbeSchema, FbeSerde } from "../src/index.js";

const TIMEOUT = 60_000;
// (through the default import: node finds no named export CompressionCodecs in kafkajs's CommonJS)
kafkajs.CompressionCodecs[kafkajs.CompressionTypes.Snappy] = SnappyCodec;

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

function readMessages(): Account[] {
  return readFileSync(0, "utf8").split("\n").filter((line) => line !== "").map((line) => Account.fromJson(line));
}

function kafka(): Kafka {
  const bootstrap = process.env.FBE_KAFKA_BOOTSTRAP;
  if (!bootstrap) throw new Error("FBE_KAFKA_BOOTSTRAP is not set");
  return new Kafka({ clientId: "fbe-js-matrix", brokers: [bootstrap], logLevel: logLevel.NOTHING });
}

async function produce(serde: FbeSerde<Account>, topic: string): Promise<void> {
  const producer = kafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, timeout: TIMEOUT,
      messages: readMessages().map((a) => serde.encode(a, { partition: 0 })) });
  } finally {
    await producer.disconnect();
  }
}

/** Gives each record of partition 0 to the serde's decode, with its headers, as eachMessage does. */
async function consume(serde: FbeSerde<Account>, topic: string, n: number): Promise<void> {
  const consumer = kafka().consumer({ groupId: `matrix-js-${randomUUID().slice(0, 8)}` });
  await consumer.connect();
  const lines: string[] = [];
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${lines.length} of ${n} records of ${topic}`)), TIMEOUT);
      consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          if (partition !== 0 || lines.length >= n) return;
          try {
            const account = serde.decode(message) as Account;
            lines.push(`${message.offset} ${hex(message.value ?? new Uint8Array(0))} ${account.toJson()}`);
          } catch (e) {
            if (!(e instanceof FbeRecordError)) throw e;
            lines.push(`${message.offset} refused ${e.message}`);
          }
          if (lines.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        },
      }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  process.stdout.write(lines.map((line) => line + "\n").join(""));
}

async function main(args: string[]): Promise<void> {
  const [command, model, topic, n] = args;
  if (model !== "versioned" && model !== "final") {
    throw new Error("usage: matrix-client.js encode|produce|consume versioned|final [TOPIC [N]]");
  }
  const serde = FbeSerde.of(FbeSchema.of(proto, model), Account);
  if (command === "encode") {
    const encoded = readMessages().map((a) => hex(serde.encode(a).value as Buffer));
    process.stdout.write(encoded.map((line) => line + "\n").join(""));
  } else if (command === "produce") {
    await produce(serde, topic);
  } else if (command === "consume") {
    await consume(serde, topic, Number(n));
  } else {
    throw new Error(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
