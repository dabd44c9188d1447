// The JS serde without a broker: the message it makes (value and headers), the gate of decode and
// its errors, eachMessage's two paths.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DecodeError, limits } from "@fbe-toolkit/fbe";
import type { EachMessagePayload, KafkaMessage } from "kafkajs";
import { Account } from "../gen/proto.js";
import { FbeRecordError, FbeSchema, FbeSerde } from "../src/index.js";
import { account, tradeSchema } from "./trade.js";

const FOREIGN = "ab".repeat(32);

/** A consumed kafkajs message of the value and headers (as kafkajs gives them: Buffers). */
function consumed(value: Buffer | null, headers: Record<string, string | Buffer | (string | Buffer)[]> = {},
  offset = "5"): KafkaMessage {
  return { key: null, value, timestamp: "0", attributes: 0, offset, headers };
}

function asBuffers(headers: Record<string, string>): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)]));
}

test("encode makes the message bytes and the four headers after the message's own", () => {
  const schema = tradeSchema();
  const m = FbeSerde.of(schema, Account).encode(account(1), { key: "k", headers: { trace: "1", "fbe.model": "final" } });
  assert.equal(m.key, "k");
  assert.ok(Buffer.isBuffer(m.value));
  assert.deepEqual(new Uint8Array(m.value as Buffer), account(1).toFbe());
  assert.deepEqual(m.headers, { trace: "1", "fbe.package": "proto", "fbe.version": "1.0",
    "fbe.fingerprint": schema.fingerprint, "fbe.model": "versioned" });
});

test("a final topic writes and reads the final model", () => {
  const serde = FbeSerde.of(tradeSchema().withModel("final"), Account);
  const m = serde.encode(account(2));
  assert.deepEqual(new Uint8Array(m.value as Buffer), account(2).toFinal());
  assert.equal(m.headers?.["fbe.model"], "final");
  assert.deepEqual(serde.decode(consumed(m.value as Buffer, asBuffers(m.headers as Record<string, string>))), account(2));
});

test("a record round trips through its headers, as Buffers or strings", () => {
  const serde = FbeSerde.of(tradeSchema(), Account);
  const m = serde.encode(account(3));
  const headers = m.headers as Record<string, string>;
  assert.deepEqual(serde.decode(consumed(m.value as Buffer, asBuffers(headers))), account(3));
  assert.deepEqual(serde.decode(consumed(m.value as Buffer, headers)), account(3));
});

test("a tombstone stays null", () => {
  const serde = FbeSerde.of(tradeSchema(), Account);
  assert.deepEqual(serde.encode(null, { key: "k" }), { key: "k", value: null });
  assert.equal(serde.decode(consumed(null)), null);
});

function refusal(schema: FbeSchema, value: Uint8Array, headers: Record<string, string | Buffer | (string | Buffer)[]>,
): FbeRecordError {
  try {
    FbeSerde.of(schema, Account).decode(consumed(Buffer.from(value), headers));
  } catch (e) {
    assert.ok(e instanceof FbeRecordError, String(e));
    assert.equal(e.offset, "5");
    return e;
  }
  assert.fail("the record was read");
}

test("a foreign fingerprint is refused naming both schemas", () => {
  const schema = tradeSchema();
  const foreign = new FbeSchema("proto", "2.0", FOREIGN);
  assert.equal(refusal(schema, account(1).toFbe(), foreign.headers()).message,
    `a record written with proto 2.0 (versioned, fingerprint ${FOREIGN}) cannot be read by proto 1.0 (versioned, `
    + `fingerprint ${schema.fingerprint}): another schema (fingerprints differ; fbec compat says whether the schemas `
    + "are compatible)");
});

test("an accepted fingerprint is read in the same package and model", () => {
  const schema = tradeSchema();
  const newer = new FbeSchema("proto", "1.1", FOREIGN);
  const serde = FbeSerde.of(schema, Account).accepting([FOREIGN]);
  assert.deepEqual([...serde.accepted], [FOREIGN]);
  const read = serde.decode(consumed(Buffer.from(account(1).toFbe()), asBuffers(newer.headers())));
  assert.deepEqual(read?.toFbe(), account(1).toFbe());
  assert.throws(() => serde.decode(consumed(Buffer.from(account(1).toFinal()), asBuffers(newer.withModel("final")
    .headers()))), /another binary model$/);
  assert.throws(() => serde.decode(consumed(Buffer.from(account(1).toFbe()),
    asBuffers(new FbeSchema("shop", "1.1", FOREIGN).headers()))), /another package$/);
  assert.throws(() => serde.accepting(["AB".repeat(32)]), RangeError);
});

test("another model or package is refused", () => {
  const schema = tradeSchema();
  const final = schema.withModel("final");
  assert.equal(refusal(schema, account(1).toFinal(), final.headers()).message,
    `a record written with ${final} cannot be read by ${schema}: another binary model`);
  const other = new FbeSchema("shop", "1.0", schema.fingerprint);
  assert.match(refusal(schema, account(1).toFbe(), other.headers()).message, /: another package$/);
});

test("missing or invalid headers are refused", () => {
  const schema = tradeSchema();
  const value = account(1).toFbe();
  assert.equal(refusal(schema, value, {}).message, `a record this consumer of ${schema} cannot check: no fbe.model `
    + "header: the record was not written by an FBE serializer");
  const { "fbe.version": _, ...withoutVersion } = schema.headers();
  assert.match(refusal(schema, value, withoutVersion).message, /no fbe\.version header: the record was not written/);
  const badModel = { ...schema.headers(), "fbe.model": ["versioned", "json"] }; // the last of a name counts
  assert.match(refusal(schema, value, badModel).message, /header fbe\.model is 'json', not versioned or final$/);
  const badFingerprint = { ...schema.headers(), "fbe.fingerprint": Buffer.from("ABC") };
  assert.match(refusal(schema, value, badFingerprint).message,
    /header fbe\.fingerprint: a schema fingerprint is 64 lowercase hex digits \(fbec fingerprint\), got ABC$/);
});

for (const damage of ["truncated", "type", "empty"] as const) {
  test(`an invalid value (${damage}) is refused with the runtime's reason and offset`, () => {
    const schema = tradeSchema();
    const good = account(1).toFbe();
    const value = damage === "truncated" ? good.subarray(0, good.length - 5)
      : damage === "type" ? Uint8Array.from(good, (b, i) => (i === 4 ? 0x7f : b)) : new Uint8Array(0);
    const e = refusal(schema, value, schema.headers());
    assert.ok(e.decodeError instanceof DecodeError);
    assert.equal(e.cause, e.decodeError);
    assert.ok(e.decodeError.offset >= 0);
    assert.equal(e.message, `an invalid ${schema} value of ${value.length} bytes: ${e.decodeError.message}`);
    assert.match(e.message, new RegExp(`offset ${e.decodeError.offset}`));
  });
}

test("eachMessage hands a read value to onValue and a refused record to onRefused", async () => {
  const schema = tradeSchema();
  const serde = FbeSerde.of(schema, Account);
  const got: string[] = [];
  const handler = serde.eachMessage(async ({ value, message }) => {
    got.push(`${message.offset}: ${value?.id}`);
  }, async ({ error, message }) => {
    got.push(`${message.offset}: refused ${error.message.slice(0, 19)}`);
  });
  const payload = (message: KafkaMessage): EachMessagePayload => ({ topic: "t", partition: 0, message,
    heartbeat: async () => {}, pause: () => () => {} });
  const m = serde.encode(account(4));
  await handler(payload(consumed(m.value as Buffer, m.headers as Record<string, string>, "1")));
  await handler(payload(consumed(m.value as Buffer, {}, "2")));
  await handler(payload(consumed(null, {}, "3")));
  assert.deepEqual(got, ["1: 4", "2: refused a record this consu", "3: undefined"]);
});

test("a schema needs a fingerprint and a model", () => {
  assert.throws(() => new FbeSchema("proto", "1.0", "AB".repeat(32)), /64 lowercase hex digits/);
  assert.throws(() => new FbeSchema("proto", "1.0", FOREIGN, "json" as "final"), /versioned or final, got json/);
});

test("limits bound what decode reads", () => {
  const schema = tradeSchema();
  const m = FbeSerde.of(schema, Account).encode(account(1));
  const headers = m.headers as Record<string, string>;
  const shallow = FbeSerde.of(schema, Account, limits({ maxDepth: 1 }));
  assert.throws(() => shallow.decode(consumed(m.value as Buffer, headers)),
    (e: unknown) => e instanceof FbeRecordError && e.decodeError?.limit === "depth"
      && /value of \d+ bytes: structs nested deeper than 1 \(proto\.Account\.wallet, offset \d+\)$/.test(e.message));
  const final = schema.withModel("final");
  const thrifty = FbeSerde.of(final, Account, limits({ budgetFactor: 0, budgetSlack: 10 }));
  const f = FbeSerde.of(final, Account).encode(account(1));
  assert.throws(() => thrifty.decode(consumed(f.value as Buffer, f.headers as Record<string, string>)),
    (e: unknown) => e instanceof FbeRecordError && e.decodeError?.limit === "budget");
  assert.deepEqual(FbeSerde.of(schema, Account, limits({ maxDepth: 2 })).decode(consumed(m.value as Buffer, headers)),
    account(1));
});

test("a size limit refuses larger values both ways, to eachMessage's onRefused", async () => {
  const schema = tradeSchema();
  const big = account(7);
  for (let i = 0; i < 50; i++) big.orders.push(big.orders[0]!);
  const bytes = big.toFbe();
  const limit = bytes.byteLength - 1;
  const limited = FbeSerde.of(schema, Account).withMaxValueBytes(limit);
  const text = `a ${schema} value of ${bytes.byteLength} bytes is larger than the limit of ${limit} bytes `
    + "(fbe.max.value.bytes): not ";
  assert.throws(() => limited.encode(big), (e: unknown) => e instanceof FbeRecordError && e.message === `${text}written`);
  const value = Buffer.from(bytes);
  assert.throws(() => limited.decode(consumed(value, schema.headers(), "9")),
    (e: unknown) => e instanceof FbeRecordError && e.message === `${text}read` && e.offset === "9");
  assert.throws(() => limited.decodeValue(value), (e: unknown) => e instanceof FbeRecordError && e.message === `${text}read`);
  assert.throws(() => limited.decode(consumed(value, new FbeSchema("proto", "2.0", FOREIGN).headers())),
    /cannot be read by/);                                 // the gate first
  assert.equal(limited.accepting([FOREIGN]).maxValueBytes, limit);
  const refused: string[] = [];
  await limited.eachMessage(async () => assert.fail("read a value over the limit"), async ({ error }) => {
    refused.push(error.message);
  })({ topic: "t", partition: 0, message: consumed(value, schema.headers(), "9"), heartbeat: async () => {},
    pause: () => () => {} });
  assert.deepEqual(refused, [`${text}read`]);
  const atLimit = FbeSerde.of(schema, Account).withMaxValueBytes(bytes.byteLength);
  const m = atLimit.encode(big);
  assert.deepEqual(atLimit.decode(consumed(m.value as Buffer, m.headers as Record<string, string>)), big);
  assert.throws(() => FbeSerde.of(schema, Account).withMaxValueBytes(-1), /fbe.max.value.bytes must not be negative, got -1/);
});
