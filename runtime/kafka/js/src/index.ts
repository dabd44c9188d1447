/**
 * FBE records over Apache Kafka with kafkajs (docs/kafka.md). A record's value is exactly the
 * message bytes of the schema's model; the schema travels in one binary header, `fbe`, and a consumer
 * reads a record only when it names its own package and model and a fingerprint it accepts (its
 * own, or one given to `accepting`).
 *
 * ```ts
 * const serde = FbeSerde.of(new FbeSchema("proto", "1.0", FINGERPRINT), Account);
 * await producer.send({ topic: "accounts", messages: [serde.encode(account, { key: "1" })] });
 * await consumer.run({ eachMessage: serde.eachMessage(async ({ value }) => handle(value),
 *     async ({ error, message }) => log.warn(`refused record at ${message.offset}: ${error.message}`)) });
 * ```
 */

import { Buffer, isUtf8 } from "node:buffer";
import { DecodeError, type Limits } from "@fbe-toolkit/fbe";
import type { EachMessageHandler, EachMessagePayload, IHeaders, KafkaMessage, Message } from "kafkajs";

/** The binary model of a topic's values. */
export type FbeModel = "versioned" | "final";

/** The key of the one header that names the schema (docs/kafka.md "Record headers"). */
export const HEADER = "fbe";
/** The layout version of the header's value, its first byte. */
export const LAYOUT = 1;

const MODELS: readonly FbeModel[] = ["versioned", "final"]; // by their byte in the header
const NAME_OFFSET = 34; // the layout, the model and the fingerprint's 32 bytes come first
const MIN_LENGTH = NAME_OFFSET + 3; // a package and a version of one byte each and the space between
const FINGERPRINT = /^[0-9a-f]{64}$/;

/** What a size limit's refusal names it by: the Java serde's config key (docs/kafka.md "Hostile records"). */
export const MAX_VALUE_BYTES = "fbe.max.value.bytes";

/**
 * A record the consumer refuses, or a value the producer cannot write a record of: an `fbe` header
 * naming another schema (the message names both schemas), missing or malformed, or bytes that are not a valid message
 * (`decodeError` is then the runtime's DecodeError with the field path and the byte offset).
 * `offset` is the record's offset when the refused message had one.
 */
export class FbeRecordError extends Error {
  override readonly name = "FbeRecordError";
  readonly decodeError: DecodeError | undefined;
  readonly offset: string | undefined;

  constructor(message: string, decodeError?: DecodeError, offset?: string) {
    super(message, decodeError === undefined ? undefined : { cause: decodeError });
    this.decodeError = decodeError;
    this.offset = offset;
  }
}

/**
 * The value of the last `fbe` header (as Kafka's lastHeader); a string (given to a producer) as the
 * UTF-8 bytes kafkajs sends.
 */
function headerValue(headers: IHeaders | undefined): Buffer | undefined {
  let value = headers?.[HEADER];
  if (Array.isArray(value)) value = value[value.length - 1];
  return typeof value === "string" ? Buffer.from(value) : value;
}

function checkFingerprint(fingerprint: string): string {
  if (!FINGERPRINT.test(fingerprint)) {
    throw new RangeError(`a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got ${fingerprint}`);
  }
  return fingerprint;
}

/** What a generated module says of its schema (fbec --typescript, docs/kafka.md). */
export interface GeneratedSchema {
  readonly FBE_PACKAGE: string;
  readonly FBE_VERSION: string;
  readonly FBE_FINGERPRINT: string;
}

/**
 * The schema a record is written with, as its `fbe` header carries it (docs/kafka.md "Record
 * headers"): the package, its version (`major.minor`), the fingerprint `fbec fingerprint` prints and
 * the model.
 */

export class FbeSchema {
  constructor(
    readonly packageName: string,
    readonly version: string,
    readonly fingerprint: string,
    readonly model: FbeModel = "versioned",
  ) {
    if (packageName === "" || packageName.includes(" ") || version === "") {
      throw new RangeError(`a schema has a package without spaces and a version, got '${packageName}' and '${version}'`);
    }
    checkFingerprint(fingerprint);
    if (model !== "versioned" && model !== "final") {
      throw new RangeError(`a schema's model is versioned or final, got ${String(model)}`);
    }
  }

  /**
   * The schema of a module fbec --typescript (or --javascript) generated, `import * as proto from
   * "./gen/proto.js"`: its `FBE_PACKAGE`, `FBE_VERSION` and `FBE_FINGERPRINT` (what fbec fingerprint
   * prints), in `model`.
   */
  static of(module: GeneratedSchema, model: FbeModel = "versioned"): FbeSchema {
    return new FbeSchema(module.FBE_PACKAGE, module.FBE_VERSION, module.FBE_FINGERPRINT, model);
  }

  /** The same schema in the other binary model. */
  withModel(model: FbeModel): FbeSchema {
    return new FbeSchema(this.packageName, this.version, this.fingerprint, model);
  }

  /**
   * The value of the `fbe` header (a new Buffer): the layout version 1, the model (0 versioned, 1
   * final), the fingerprint's 32 bytes and `PACKAGE VERSION` in UTF-8.
   */
  header(): Buffer {
    return Buffer.concat([Buffer.of(LAYOUT, MODELS.indexOf(this.model)), Buffer.from(this.fingerprint, "hex"),
      Buffer.from(`${this.packageName} ${this.version}`)]);
  }

  /** The `fbe` header, for a kafkajs message's headers. */
  headers(): Record<string, Buffer> {
    return { [HEADER]: this.header() };
  }

  /** The schema the `fbe` header names; an FbeRecordError when it is missing or malformed. */
  static readFrom(headers: IHeaders | undefined): FbeSchema {
    return FbeSchema.fromHeader(headerValue(headers));
  }

  /** The schema an `fbe` header's value names; an FbeRecordError with the texts of docs/kafka.md when it is malformed. */
  static fromHeader(value: Buffer | undefined): FbeSchema {
    if (value === undefined) {
      throw new FbeRecordError(`no ${HEADER} header: the record was not written by an FBE serializer`);
    }
    if (value.length === 0) throw new FbeRecordError(`header ${HEADER} is empty`);
    if (value[0] !== LAYOUT) throw new FbeRecordError(`header ${HEADER} has layout version ${value[0]}, not ${LAYOUT}`);
    if (value.length < MIN_LENGTH) {
      throw new FbeRecordError(`header ${HEADER} is too short: ${value.length} bytes, layout ${LAYOUT} has at least `
        + `${MIN_LENGTH}`);
    }
    const model = MODELS[value[1]!];
    if (model === undefined) {
      throw new FbeRecordError(`header ${HEADER} has model ${value[1]}, not 0 (versioned) or 1 (final)`);
    }
    const bytes = value.subarray(NAME_OFFSET);
    if (!isUtf8(bytes)) throw new FbeRecordError(`header ${HEADER}'s package and version are not UTF-8`);
    const name = bytes.toString("utf8");
    const space = name.indexOf(" ");
    if (space <= 0 || space === name.length - 1) {
      throw new FbeRecordError(`header ${HEADER}'s package and version are '${name}', not 'PACKAGE VERSION'`);
    }
    return new FbeSchema(name.slice(0, space), name.slice(space + 1), value.toString("hex", 2, NAME_OFFSET), model);
  }

  /**
   * Why this schema cannot read a record `writer` wrote, or undefined when it can: the same package
   * and model, and its own fingerprint or one of `accepted` (docs/kafka.md).
   */
  differs(writer: FbeSchema, accepted: ReadonlySet<string> = new Set()): string | undefined {
    if (writer.packageName !== this.packageName) return "another package";
    if (writer.model !== this.model) return "another binary model";
    if (writer.fingerprint !== this.fingerprint && !accepted.has(writer.fingerprint)) {
      return "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)";
    }
    return undefined;
  }

  /** `proto 1.0 (versioned, fingerprint 6288...c7d2)`: what error messages name. */
  toString(): string {
    return `${this.packageName} ${this.version} (${this.model}, fingerprint ${this.fingerprint})`;
  }
}

/** What fbec --typescript generates for a struct: its encoders and decoders of both models. */
export interface FbeType<T> {
  fromFbe(data: Uint8Array, limits?: Limits): T;
  fromFinal(data: Uint8Array, limits?: Limits): T;
  readonly prototype: { toFbe(): Uint8Array; toFinal(): Uint8Array };
}

/** What eachMessage hands the application for a record it read. */
export interface FbeValuePayload<T> extends EachMessagePayload {
  /** The record's value; null for a tombstone (a record without a value). */
  value: T | null;
}

/** What eachMessage hands the application for a record it refused. */
export interface FbeRefusedPayload extends EachMessagePayload {
  error: FbeRecordError;
}

/**
 * The producer's and consumer's side of one generated type: `encode` makes a kafkajs message of a
 * value (the message bytes and the `fbe` header), `decode` reads one through the gate.
 */
export class FbeSerde<T> {
  /** The fbe header encode writes (one Buffer for every message: kafkajs only reads it). */
  private readonly header: Buffer;
  /** What decode compares a header with, byte for byte: "PACKAGE " and the raw accepted fingerprints. */
  private readonly prefix: Buffer;
  private readonly acceptedRaw: readonly Buffer[];

  constructor(
    readonly schema: FbeSchema,
    private readonly encoder: (value: T) => Uint8Array,
    private readonly decoder: (data: Uint8Array) => T,
    /** The writer fingerprints decode reads besides the schema's own (`accepting`). */
    readonly accepted: ReadonlySet<string> = new Set(),
    /** The largest value encode writes and decode reads (`withMaxValueBytes`; Infinity: no limit). */
    readonly maxValueBytes: number = Infinity,
  ) {
    this.header = schema.header();
    this.prefix = Buffer.from(`${schema.packageName} `);
    this.acceptedRaw = [schema.fingerprint, ...accepted].map((f) => Buffer.from(checkFingerprint(f), "hex"));
  }

  /**
   * The same serde with a limit on a value's size: encode refuses to write and decode to read
   * (before decoding it) a value of more than `bytes` bytes, with an FbeRecordError naming the
   * size and the limit.
   */
  withMaxValueBytes(bytes: number): FbeSerde<T> {
    if (!(bytes >= 0)) throw new RangeError(`${MAX_VALUE_BYTES} must not be negative, got ${bytes}`);
    return new FbeSerde<T>(this.schema, this.encoder, this.decoder, this.accepted, bytes);
  }

  private checkSize(size: number, what: string, offset?: string): void {
    if (size > this.maxValueBytes) {
      throw new FbeRecordError(`a ${this.schema} value of ${size} bytes is larger than the limit of `
        + `${this.maxValueBytes} bytes (${MAX_VALUE_BYTES}): not ${what}`, undefined, offset);
    }
  }

  /**
   * The same serde, whose decode also reads records of these writer fingerprints (of the same
   * package and model): the ones `fbec topic accept TOPIC.json SCHEMA` prints.
   */
  accepting(fingerprints: Iterable<string>): FbeSerde<T> {
    const all = new Set(this.accepted);
    for (const f of fingerprints) all.add(checkFingerprint(f));
    return new FbeSerde<T>(this.schema, this.encoder, this.decoder, all, this.maxValueBytes);
  }

  /**
   * The serde of a generated type in the schema's model: toFbe/fromFbe, or toFinal/fromFinal for a
   * final topic. `limits` bound what decode reads (the decode budget and the nesting depth,
   * docs/limits.md; the runtime's defaults when absent): a value beyond them is refused as an invalid one.
   */
  static of<T extends { toFbe(): Uint8Array; toFinal(): Uint8Array }>(schema: FbeSchema, type: FbeType<T>,
    limits?: Limits): FbeSerde<T> {
    return schema.model === "final"
      ? new FbeSerde<T>(schema, (v) => v.toFinal(), (d) => type.fromFinal(d, limits))
      : new FbeSerde<T>(schema, (v) => v.toFbe(), (d) => type.fromFbe(d, limits));
  }

  /**
   * A kafkajs message of the value: its bytes (a Buffer over what the encoder returned, not a copy)
   * and the `fbe` header after any of `message.headers`; the key, partition and timestamp of
   * `message` as they are. null (a tombstone) gives a message without a value and without headers.
   * An FbeRecordError when the bytes are larger than the size limit.
   */
  encode(value: T | null, message: Omit<Message, "value"> = {}): Message {
    if (value === null) return { ...message, value: null };
    const bytes = this.encoder(value);
    this.checkSize(bytes.byteLength, "written");
    return {
      ...message,
      value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      headers: { ...message.headers, [HEADER]: this.header },
    };
  }

  /**
   * The value of a consumed message when its `fbe` header names this schema's package and model and a
   * fingerprint it accepts; anything else, and a value that is not a valid message or is larger than
   * the size limit, is an FbeRecordError naming both schemas, or the reason and the byte offset, or
   * the size and the limit. null for a tombstone.
   */
  decode(message: Pick<KafkaMessage, "value" | "headers"> & { offset?: string }): T | null {
    if (message.value === null) return null;
    const header = headerValue(message.headers);
    if (!this.accepts(header)) this.checkHeader(header, message.offset);
    return this.decodeValue(message.value, message.offset);
  }

  /**
   * Whether an `fbe` header names this serde's package and model and a fingerprint it accepts, by
   * comparing its bytes: no string is made on this path, every record takes it.
   */
  private accepts(value: Buffer | undefined): boolean {
    const name = NAME_OFFSET + this.prefix.length;
    if (value === undefined || value.length <= name || value[0] !== LAYOUT
      || value[1] !== MODELS.indexOf(this.schema.model)
      || value.compare(this.prefix, 0, this.prefix.length, NAME_OFFSET, name) !== 0
      || !this.acceptedRaw.some((f) => value.compare(f, 0, 32, 2, NAME_OFFSET) === 0)) {
      return false;
    }
    return isUtf8(value.subarray(name));
  }

  /** The whole check of a header `accepts` did not take: throws when it is malformed or names another schema. */
  private checkHeader(value: Buffer | undefined, offset: string | undefined): void {
    let writer: FbeSchema;
    try {
      writer = FbeSchema.fromHeader(value);
    } catch (e) {
      if (!(e instanceof FbeRecordError)) throw e;
      throw new FbeRecordError(`a record this consumer of ${this.schema} cannot check: ${e.message}`, undefined, offset);
    }
    const differs = this.schema.differs(writer, this.accepted);
    if (differs !== undefined) {
      throw new FbeRecordError(`a record written with ${writer} cannot be read by ${this.schema}: ${differs}`,
        undefined, offset);
    }
  }

  /** The value of bytes alone, without the gate (where a record has no headers). */
  decodeValue(data: Uint8Array, offset?: string): T {
    this.checkSize(data.byteLength, "read", offset);
    try {
      return this.decoder(data);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw new FbeRecordError(`an invalid ${this.schema} value of ${data.length} bytes: ${e.message}`, e, offset);
    }
  }

  /**
   * A kafkajs eachMessage handler: `onValue` gets each record this schema reads, `onRefused` each
   * record the gate or the decoder refuses (log it, send it to a dead-letter topic); either way the
   * consumer goes on with the next record. What the two callbacks throw goes to kafkajs, which
   * retries the record.
   */
  eachMessage(
    onValue: (payload: FbeValuePayload<T>) => Promise<void>,
    onRefused: (payload: FbeRefusedPayload) => Promise<void>,
  ): EachMessageHandler {
    return async (payload) => {
      let value: T | null;
      try {
        value = this.decode(payload.message);
      } catch (e) {
        if (!(e instanceof FbeRecordError)) throw e;
        await onRefused({ ...payload, error: e });
        return;
      }
      await onValue({ ...payload, value });
    };
  }
}

export * from "./dead-letters.js";
