// The JS serde through the real broker of make test-kafka (FBE_KAFKA_BOOTSTRAP) with kafkajs: both
// models, records of another schema and invalid values refused with their offset and reason while
// the consumer goes on, and a consumer of a group restarted mid-topic resuming at its committed offset.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type EachMessageHandler, type IHeaders, Kafka, type KafkaMessage, logLevel, Partitioners, type Producer,
} from "kafkajs";
import * as evolved from "../gen/evolved/proto.js";
import { Account as EvolvedAccount } from "../gen/evolved/proto.js";
import { Account } from "../gen/proto.js";
import {
  deadLetterTopic, EXCEPTION_FQCN, EXCEPTION_MESSAGE, type FbeRefusedPayload, FbeSchema, FbeSerde, ORIGINAL_OFFSET,
  ORIGINAL_PARTITION, ORIGINAL_TOPIC, publishDeadLetter,
} from "../src/index.js";
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

async function newTopic(topic = `js-test-${++topics}-${Date.now()}`): Promise<string> {
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

/**
 * Reads `want` good records with the serde, as a consumer of the group `${topic}-${group}`; each
 * refused record adds "offset: reason" to `refused` and is given to `onRefused`.
 */
async function read<T>(topic: string, serde: FbeSerde<T>, want: number, refused: string[], group = "reader",
  onRefused?: (payload: FbeRefusedPayload) => Promise<void>): Promise<[string, T | null][]> {
  const got: [string, T | null][] = [];
  await consume(topic, `${topic}-${group}`, () => got.length >= want, serde.eachMessage(async ({ message, value }) => {
    got.push([message.offset, value]);
  }, async (payload) => {
    refused.push(`${payload.message.offset}: ${payload.error.message}`);
    await onRefused?.(payload);
  }));
  return got;
}

for (const model of ["versioned", "final"] as const) {
  test(`${model}: a record round trips with the fbe header`, { timeout: 2 * WAIT }, async () => {
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
    for (const h of headers) assert.deepEqual(h, serde.schema.headers());
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
    `2: a record this consumer of ${schema} cannot check: no fbe header: the record was not written by an `
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

/** The list `fbec topic accept` printed for a schema of the evolution case's topic record (make kafka-js passes them). */
function acceptedBy(env: "FBE_KAFKA_ACCEPT" | "FBE_KAFKA_ACCEPT_EVOLVED"): string[] {
  const fingerprints = (process.env[env] ?? "").split(",");
  assert.equal(fingerprints.length, 2, `${env} is ${process.env[env]}: make kafka-js passes fbec topic accept's list`);
  return fingerprints;
}

test("a consumer reads the newer and older writers its topic record accepts", { timeout: 4 * WAIT }, async () => {
  // The evolution case, both ways: a producer on the newer schema (Account.note appended) and one on
  // the older write a topic; the older consumer refuses the newer record naming both schemas until
  // given its topic record's accepted fingerprints, then reads it without the field; the newer
  // consumer reads both, the older record with the field at its default.
  const schema = tradeSchema();
  const older = acceptedBy("FBE_KAFKA_ACCEPT");
  const newer = acceptedBy("FBE_KAFKA_ACCEPT_EVOLVED");
  assert.deepEqual([older[0], newer], [schema.fingerprint, [older[1], older[0]]]);
  const evolvedSchema = FbeSchema.of(evolved);
  assert.deepEqual(evolvedSchema, new FbeSchema("proto", "1.1", newer[0]));
  const newerSerde = FbeSerde.of(evolvedSchema, EvolvedAccount);
  const newerAccount = EvolvedAccount.fromFbe(account(1).toFbe());
  newerAccount.note = "from the newer producer";
  const topic = await newTopic();
  await producer.send({ topic, acks: -1, messages: [newerSerde.encode(newerAccount)] });
  await producer.send({ topic, acks: -1, messages: [FbeSerde.of(schema, Account).encode(account(2))] });

  const refused: string[] = [];
  assert.deepEqual(await read(topic, FbeSerde.of(schema, Account), 1, refused, "without"), [["1", account(2)]]);
  assert.deepEqual(refused, [`0: a record written with ${evolvedSchema} cannot be read by ${schema}: another schema `
    + "(fingerprints differ; fbec compat says whether the schemas are compatible)"]);

  refused.length = 0;
  assert.deepEqual(await read(topic, FbeSerde.of(schema, Account).accepting(older), 2, refused, "older"),
    [["0", account(1)], ["1", account(2)]]);
  const back = await read(topic, newerSerde.accepting(newer), 2, refused, "newer");
  assert.deepEqual(refused, []);
  assert.deepEqual(back.map(([, v]) => v?.note), ["from the newer producer", "evolved"]);
  assert.deepEqual(Account.fromFbe((back[1][1] as EvolvedAccount).toFbe()), account(2));
});

test("refused records go to the dead-letter topic with their place and reason and the consumer goes on",
  { timeout: 4 * WAIT }, async () => {
    // The size limit and the dead letters: a serde with a limit refuses to write a larger value, one
    // without writes it; a consumer with the limit refuses that record and a truncated one with their
    // offsets and reasons, publishes each with publishDeadLetter and reads the records around them;
    // TOPIC.DLT holds both as they were, with Spring's headers.
    const schema = tradeSchema();
    const limit = 1024;
    const limited = FbeSerde.of(schema, Account).withMaxValueBytes(limit);
    const big = account(9);
    for (let i = 0; i < 50; i++) big.orders.push(account(9).orders[0]);
    const bigBytes = big.toFbe();
    const tooLarge = `a ${schema} value of ${bigBytes.length} bytes is larger than the limit of ${limit} bytes `
      + "(fbe.max.value.bytes): not ";
    assert.throws(() => limited.encode(big), { name: "FbeRecordError", message: tooLarge + "written" });
    const topic = await newTopic();
    const truncated = account(3).toFbe().subarray(0, 20);
    await producer.send({ topic, acks: -1, messages: [limited.encode(account(1), { key: "k" })] });
    await producer.send({ topic, acks: -1, messages: [FbeSerde.of(schema, Account).encode(big, { key: "k" })] });
    await produceRaw(topic, truncated, schema.headers());
    await producer.send({ topic, acks: -1, messages: [limited.encode(account(2), { key: "k" })] });
    const dlt = await newTopic(deadLetterTopic(topic));

    const refused: string[] = [];
    const got = await read(topic, limited, 2, refused, "reader", async (payload) => {
      await publishDeadLetter(producer, payload);
    });
    assert.deepEqual(got, [["0", account(1)], ["3", account(2)]]);
    assert.equal(refused.length, 2, refused.join("\n"));
    assert.equal(refused[0], `1: ${tooLarge}read`);
    assert.ok(refused[1].startsWith(`2: an invalid ${schema} value of 20 bytes: `), refused[1]);

    const letters: KafkaMessage[] = [];
    await consume(dlt, `${dlt}-reader`, () => letters.length >= 2, async ({ message, partition }) => {
      assert.equal(partition, 0);
      letters.push(message);
    });
    [bigBytes, truncated].forEach((value, i) => {
      const { key, headers } = letters[i];
      assert.deepEqual(new Uint8Array(letters[i].value as Buffer), value);
      assert.equal(String(key), "k");
      assert.equal(FbeSchema.readFrom(headers).toString(), schema.toString()); // the original headers, kept
      const text = (name: string): string => String(headers?.[name]);
      assert.equal(text(ORIGINAL_TOPIC), topic);
      assert.deepEqual(headers?.[ORIGINAL_PARTITION], Buffer.from([0, 0, 0, 0]));
      assert.deepEqual(headers?.[ORIGINAL_OFFSET], Buffer.from([0, 0, 0, 0, 0, 0, 0, i + 1]));
      assert.equal(text(EXCEPTION_FQCN), "FbeRecordError");
      assert.equal(`${i + 1}: ${text(EXCEPTION_MESSAGE)}`, refused[i]);
    });
  });
