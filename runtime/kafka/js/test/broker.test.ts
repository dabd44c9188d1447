// The JS serde through the real broker of make test-kafka (FBE_KAFKA_BOOTSTRAP) with kafkajs: both
// models, records of another schema and invalid values refused with their offset and reason while
// the consumer goes on, and a consumer of a group restarted mid-topic resuming at its committed offset.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type EachMessageHandler, type IHeaders, Kafka, logLevel, Partitioners, type Producer } from "kafkajs";
import { Account } from "../gen/proto.js";
import { FbeSchema, FbeSerde } from "../src/index.js";
import { account, tradeSchema } from "./trade.js";

const WAIT = 60_000;
const bootstrap = process.env.FBE_KAFKA_BOOTSTRAP;
const kafka = new Kafka({ clientId: "fbe-js-test", brokers: [bootstrap ?? "unset"], logLevel: logLevel.NOTHING });
let producer: Producer;
let topics = 0;

before(async () => {
  assert.ok(bootstrap, "FBE_KAFKA_BOOTSTRAP is not set (make test-kafka starts a broker: "
    + "python tests/kafka/broker.py run -- node --test ...)");
  producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
});

after(async () => {
  await producer?.disconnect();
});

async function newTopic(): Promise<string> {
  const topic = `js-test-${++topics}-${Date.now()}`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
  return topic;
}

/** A record whose headers are `headers` (none: no headers) and whose value is `value` as it is. */
async function produceRaw(topic: string, value: Uint8Array, headers?: IHeaders): Promise<void> {
  await producer.send({ topic, acks: -1, messages: [{ key: "k", value: Buffer.from(value), headers }] });
}

/**
 * Runs a consumer of the group from the start of the topic until `done()`; eachMessage is the
 * application's handler. Fails when done() is not reached within WAIT.
 */
async function consume(topic: string, groupId: string, done: () => boolean, eachMessage: EachMessageHandler,
  autoCommit = true): Promise<void> {
  const consumer = kafka.consumer({ groupId });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${groupId}: not done within ${WAIT} ms`)), WAIT);
      consumer.run({
        autoCommit,
        eachMessage: async (payload) => {
          if (done()) return;
          await eachMessage(payload);
          if (done()) {
            clearTimeout(timer);
            resolve();
          }
        },
      }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

/** Reads `want` good records with the serde; each refused record adds "offset: reason" to `refused`. */
async function read(topic: string, serde: FbeSerde<Account>, want: number, refused: string[],
): Promise<[string, Account | null][]> {
  const got: [string, Account | null][] = [];
  await consume(topic, `${topic}-reader`, () => got.length >= want, serde.eachMessage(async ({ message, value }) => {
    got.push([message.offset, value]);
  }, async ({ message, error }) => {
    refused.push(`${message.offset}: ${error.message}`);
  }));
  return got;
}

for (const model of ["versioned", "final"] as const) {
  test(`${model}: a record round trips with the four headers`, { timeout: 2 * WAIT }, async () => {
    const serde = FbeSerde.of(tradeSchema().withModel(model), Account);
    const topic = await newTopic();
    const sent = [account(1), account(2), account(3)];
    await producer.send({ topic, acks: -1, messages: sent.map((a) => serde.encode(a, { key: "k" })) });
    const headers: IHeaders[] = [];
    const got: Account[] = [];
    await consume(topic, `${topic}-reader`, () => got.length >= sent.length, async ({ message }) => {
      headers.push(message.headers ?? {});
      got.push(serde.decode(message) as Account);
    });
    assert.deepEqual(got, sent);
    for (const h of headers) {
      assert.deepEqual(Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)])),
        serde.schema.headers());
    }
  });
}

test("the value is exactly the message bytes", { timeout: 2 * WAIT }, async () => {
  const topic = await newTopic();
  await producer.send({ topic, acks: -1, messages: [FbeSerde.of(tradeSchema(), Account).encode(account(7))] });
  const values: Buffer[] = [];
  await consume(topic, `${topic}-reader`, () => values.length >= 1, async ({ message }) => {
    values.push(message.value as Buffer);
  });
  assert.deepEqual(new Uint8Array(values[0]), account(7).toFbe());
});

test("a foreign schema is refused naming both and the consumer goes on", { timeout: 2 * WAIT }, async () => {
  const schema = tradeSchema();
  const topic = await newTopic();
  const foreign = new FbeSchema("proto", "2.0", "ab".repeat(32));
  await producer.send({ topic, acks: -1, messages: [FbeSerde.of(foreign, Account).encode(account(1))] });
  await producer.send({ topic, acks: -1, messages: [FbeSerde.of(schema.withModel("final"), Account).encode(account(2))] });
  await produceRaw(topic, account(3).toFbe());
  await producer.send({ topic, acks: -1, messages: [FbeSerde.of(schema, Account).encode(account(4))] });
  const refused: string[] = [];
  const got = await read(topic, FbeSerde.of(schema, Account), 1, refused);
  assert.deepEqual(got, [["3", account(4)]]);
  assert.deepEqual(refused, [
    `0: a record written with proto 2.0 (versioned, fingerprint ${"ab".repeat(32)}) cannot be read by ${schema}: `
      + "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)",
    `1: a record written with ${schema.withModel("final")} cannot be read by ${schema}: another binary model`,
    `2: a record this consumer of ${schema} cannot check: no fbe.model header: the record was not written by an `
      + "FBE serializer",
  ]);
});

test("an invalid value is refused with its offset and reason and the consumer goes on", { timeout: 2 * WAIT },
  async () => {
    const schema = tradeSchema();
    const topic = await newTopic();
    const good = account(1).toFbe();
    await produceRaw(topic, good.subarray(0, good.length - 5), schema.headers());
    await produceRaw(topic, Uint8Array.from(good, (b, i) => (i === 4 ? 0x7f : b)), schema.headers()); // the type id
    await produceRaw(topic, new Uint8Array(0), schema.headers());
    await producer.send({ topic, acks: -1, messages: [FbeSerde.of(schema, Account).encode(account(2))] });
    const refused: string[] = [];
    const got = await read(topic, FbeSerde.of(schema, Account), 1, refused);
    assert.deepEqual(got, [["3", account(2)]]);
    assert.equal(refused.length, 3, refused.join("\n"));
    [good.length - 5, good.length, 0].forEach((size, i) => {
      assert.ok(refused[i].startsWith(`${i}: an invalid ${schema} value of ${size} bytes: `), refused[i]);
      assert.match(refused[i].split(" bytes: ")[1], /offset \d+/);
    });
    assert.notEqual(refused[0].slice(2), refused[1].slice(2));
  });

test("a restarted consumer resumes at its committed offset", { timeout: 3 * WAIT }, async () => {
  const serde = FbeSerde.of(tradeSchema(), Account);
  const topic = await newTopic();
  const sent = [1, 2, 3, 4, 5, 6].map(account);
  await producer.send({ topic, acks: -1, messages: sent.map((a) => serde.encode(a, { key: "k" })) });
  const group = `${topic}-group`;
  const values: (Account | null)[] = [];
  // A consumer of the group that reads three records, commits after the third and stops.
  const readAndCommit = async (): Promise<string[]> => {
    const offsets: string[] = [];
    const consumer = kafka.consumer({ groupId: group });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${group}: not three records within ${WAIT} ms`)), WAIT);
        consumer.run({
          autoCommit: false,
          eachMessage: serde.eachMessage(async ({ message, partition, value }) => {
            if (offsets.length === 3) return;
            offsets.push(message.offset);
            values.push(value);
            if (offsets.length === 3) {
              await consumer.commitOffsets([{ topic, partition, offset: String(Number(message.offset) + 1) }]);
              clearTimeout(timer);
              resolve();
            }
          }, async ({ error }) => reject(error)),
        }).catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    return offsets;
  };
  assert.deepEqual(await readAndCommit(), ["0", "1", "2"]);
  assert.deepEqual(await readAndCommit(), ["3", "4", "5"]);
  assert.deepEqual(values, sent);
});
