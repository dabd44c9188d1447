// The JS serde without a broker: the message it makes (value and fbe header), the gate of decode
// and its errors, eachMessage's two paths.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { DecodeError, limits } from "@fbe-toolkit/fbe";
import type { EachMessagePayload, KafkaMessage } from "kafkajs";
import * as proto from "../gen/proto.js";
import { Account } from "../gen/proto.js";
import { FbeRecordError, FbeSchema, FbeSerde, HEADER } from "../src/index.js";
import { account, tradeFingerprint, tradeSchema } from "./trade.js";

const FOREIGN = "ab".repeat(32);

/** A consumed kafkajs message of the value and headers (as kafkajs gives them: Buffers). */
function consumed(value: Buffer | null, headers: Record<string, string | Buffer | (string | Buffer)[]> = {},
  offset = "5"): KafkaMessage {
  return { key: null, value, timestamp: "0", attributes: 0, offset, headers };
}

function asBuffers(headers: Record<string, string | Buffer>): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)]));
}

/**
 * The lines of tests/kafka/header_cases.txt of a kind, split at their tabs: the header every
 * serializer writes and what every deserializer says of a malformed one (the Java, Go and Python
 * tests read the same file).
 */
function headerCases(kind: string): string[][] {
  const file = join(dirname(fileURLToPath(import.meta.url)), "../../../../../tests/kafka/header_cases.txt");
  return readFileSync(file, "utf8").split("\n").filter((line) => line.startsWith(`${kind}\t`))
    .map((line) => line.split("\t"));
}

test("the generated module names the schema fbec fingerprint prints", () => {
  assert.deepEqual([proto.FBE_PACKAGE, proto.FBE_VERSION, proto.FBE_FINGERPRINT], ["proto", "1.0", tradeFingerprint()]);
  assert.deepEqual(FbeSchema.of(proto), new FbeSchema("proto", "1.0", tradeFingerprint()));
  assert.deepEqual(FbeSchema.of(proto, "final"), new FbeSchema("proto", "1.0", tradeFingerprint(), "final"));
});

test("encode makes the message bytes and the fbe header after the message's own", () => {
  const schema = tradeSchema();
  const m = FbeSerde.of(schema, Account).encode(account(1), { key: "k", headers: { trace: "1", fbe: "old" } });
  assert.equal(m.key, "k");
  assert.ok(Buffer.isBuffer(m.value));
  assert.deepEqual(new Uint8Array(m.value as Buffer), account(1).toFbe());
  assert.deepEqual(m.headers, { trace: "1", fbe: schema.header() });
  assert.equal(schema.header().length, 43);
});

test("the header is the bytes of the layout", () => {
  const cases = headerCases("write");
  assert.equal(cases.length, 3);
  for (const [, text, hex] of cases) {
    const [packageName, version, model, fingerprint] = text!.split(" ");
    const schema = new FbeSchema(packageName!, version!, fingerprint!, model as "versioned" | "final");
    assert.equal(schema.header().toString("hex"), hex, text);
    assert.deepEqual(FbeSchema.fromHeader(schema.header()), schema);
    assert.deepEqual(FbeSchema.readFrom({ [HEADER]: [Buffer.from("old"), schema.header()] }), schema);
  }
});

test("a malformed header is refused with the text of every language", () => {
  const own = new FbeSchema("proto", "1.0", "cd".repeat(32));
  const serde = FbeSerde.of(own, Account).accepting([FOREIGN]);
  const value = Buffer.from(new Account().toFbe());
  const cases = headerCases("refuse");
  assert.equal(cases.length, 16);
  for (const [, hex, text] of [...cases, ["refuse", "-", "no fbe header: the record was not written by an FBE serializer"]]) {
    const headers: Record<string, Buffer> = { trace: Buffer.of(1) };
    if (hex !== "-") headers[HEADER] = Buffer.from(hex!, "hex");
    assert.throws(() => serde.decode(consumed(value, headers)), (e: unknown) => e instanceof FbeRecordError
      && e.message === `a record this consumer of ${own} cannot check: ${text}`, hex);
  }
});

test("the gate reads its accepted writers and refuses the others naming both", () => {
  const schema = tradeSchema();
  const serde = FbeSerde.of(schema, Account).accepting([FOREIGN]);
  const value = Buffer.from(account(1).toFbe());
  const newer = new FbeSchema("proto", "1.1 \u00e9", FOREIGN);
  assert.deepEqual(serde.decode(consumed(value, newer.headers())), account(1));
  for (const other of [newer.withModel("final"), new FbeSchema("protos", "1.0", FOREIGN),
    new FbeSchema("prot", "1.0", FOREIGN)]) {
    assert.ok(refusal(schema, value, other.headers(), serde).message
      .startsWith(`a record written with ${other} cannot be read by ${schema}: another `));
  }
  for (const [packageName, version] of [["pro to", "1.0"], ["", "1.0"], ["proto", ""]]) {
    assert.throws(() => new FbeSchema(packageName!, version!, FOREIGN), /a package without spaces and a version/);
  }
});

test("a final topic writes and reads the final model", () => {
  const serde = FbeSerde.of(tradeSchema().withModel("final"), Account);
  const m = serde.encode(account(2));
  assert.deepEqual(new Uint8Array(m.value as Buffer), account(2).toFinal());
  assert.equal((m.headers?.[HEADER] as Buffer)[1], 1);
  assert.deepEqual(serde.decode(consumed(m.value as Buffer, asBuffers(m.headers as Record<string, Buffer>))), account(2));
});

test("a record round trips through its header", () => {
  const serde = FbeSerde.of(tradeSchema(), Account);
  const m = serde.encode(account(3));
  assert.deepEqual(serde.decode(consumed(m.value as Buffer, m.headers as Record<string, Buffer>)), account(3));
});

test("a tombstone stays null", () => {
  const serde = FbeSerde.of(tradeSchema(), Account);
  assert.deepEqual(serde.encode(null, { key: "k" }), { key: "k", value: null });
  assert.equal(serde.decode(consumed(null)), null);
});

function refusal(schema: FbeSchema, value: Uint8Array, headers: Record<string, string | Buffer | (string | Buffer)[]>,
  serde = FbeSerde.of(schema, Account)): FbeRecordError {
  try {
    serde.decode(consumed(Buffer.from(value), headers));
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
  assert.equal(refusal(schema, value, {}).message, `a record this consumer of ${schema} cannot check: no fbe `
    + "header: the record was not written by an FBE serializer");
  const badModel = { fbe: [schema.header(), Buffer.concat([Buffer.of(1, 7), schema.header().subarray(2)])] }; // the last counts
  assert.match(refusal(schema, value, badModel).message, /header fbe has model 7, not 0 \(versioned\) or 1 \(final\)$/);
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
  await handler(payload(consumed(m.value as Buffer, m.headers as Record<string, Buffer>, "1")));
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
  const headers = m.headers as Record<string, Buffer>;
  const shallow = FbeSerde.of(schema, Account, limits({ maxDepth: 1 }));
  assert.throws(() => shallow.decode(consumed(m.value as Buffer, headers)),
    (e: unknown) => e instanceof FbeRecordError && e.decodeError?.limit === "depth"
      && /value of \d+ bytes: structs nested deeper than 1 \(proto\.Account\.wallet, offset \d+\)$/.test(e.message));
  const final = schema.withModel("final");
  const thrifty = FbeSerde.of(final, Account, limits({ budgetFactor: 0, budgetSlack: 10 }));
  const f = FbeSerde.of(final, Account).encode(account(1));
  assert.throws(() => thrifty.decode(consumed(f.value as Buffer, f.headers as Record<string, Buffer>)),
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
  assert.deepEqual(atLimit.decode(consumed(m.value as Buffer, m.headers as Record<string, Buffer>)), big);
  assert.throws(() => FbeSerde.of(schema, Account).withMaxValueBytes(-1), /fbe.max.value.bytes must not be negative, got -1/);
});
