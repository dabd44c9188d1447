/**
 * FBE records over Apache Kafka with kafkajs (docs/kafka.md). A record's value is exactly the
 * message bytes of the schema's model; the schema travels in four headers (`fbe.package`,
 * `fbe.version`, `fbe.fingerprint`, `fbe.model`), and a consumer reads a record only when they name
 * its own package and model and a fingerprint it accepts (its own, or one given to `accepting`).
 *
 * ```ts
 * const serde = FbeSerde.of(new FbeSchema("proto", "1.0", FINGERPRINT), Account);
 * await producer.send({ topic: "accounts", messages: [serde.encode(account, { key: "1" })] });
 * await consumer.run({ eachMessage: serde.eachMessage(async ({ value }) => handle(value),
 *     async ({ error, message }) => log.warn(`refused record at ${message.offset}: ${error.message}`)) });
 * ```
 */

import { DecodeError, type Limits } from "@fbe-toolkit/fbe";
import type { EachMessageHandler, EachMessagePayload, IHeaders, KafkaMessage, Message } from "kafkajs";

/** The binary model of a topic's values. */
export type FbeModel = "versioned" | "final";

export const PACKAGE_HEADER = "fbe.package";
export const VERSION_HEADER = "fbe.version";
export const FINGERPRINT_HEADER = "fbe.fingerprint";
export const MODEL_HEADER = "fbe.model";

const FINGERPRINT = /^[0-9a-f]{64}$/;

/** What a size limit's refusal names it by: the Java serde's config key (docs/kafka.md "Hostile records"). */
export const MAX_VALUE_BYTES = "fbe.max.value.bytes";

/**
 * A record the consumer refuses, or a value the producer cannot write a record of: headers naming
 * another schema or none (the message names both schemas), or bytes that are not a valid message
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

function header(headers: IHeaders | undefined, key: string): string {
  let value = headers?.[key];
  if (Array.isArray(value)) value = value[value.length - 1]; // the last of the name, as Kafka's lastHeader
  if (value === undefined) {
    throw new FbeRecordError(`no ${key} header: the record was not written by an FBE serializer`);
  }
  return typeof value === "string" ? value : value.toString("utf8");
}

/**
 * The schema a record is written with, as its headers carry it (docs/kafka.md "Record headers"):
 * the package, its version (`major.minor`), the fingerprint `fbec fingerprint` prints and the model.
 */
export class FbeSchema {
  constructor(
    readonly packageName: string,
    readonly version: string,
    readonly fingerprint: string,
    readonly model: FbeModel = "versioned",
  ) {
    if (!FINGERPRINT.test(fingerprint)) {
      throw new RangeError(`a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got ${fingerprint}`);
    }
    if (model !== "versioned" && model !== "final") {
      throw new RangeError(`a schema's model is versioned or final, got ${String(model)}`);
    }
  }

  /** The same schema in the other binary model. */
  withModel(model: FbeModel): FbeSchema {
    return new FbeSchema(this.packageName, this.version, this.fingerprint, model);
  }

  /** The four headers. */
  headers(): Record<string, string> {
    return {
      [PACKAGE_HEADER]: this.packageName,
      [VERSION_HEADER]: this.version,
      [FINGERPRINT_HEADER]: this.fingerprint,
      [MODEL_HEADER]: this.model,
    };
  }

  /** The schema the headers name; an FbeRecordError when a header is missing or invalid. */
  static readFrom(headers: IHeaders | undefined): FbeSchema {
    const model = header(headers, MODEL_HEADER);
    if (model !== "versioned" && model !== "final") {
      throw new FbeRecordError(`header ${MODEL_HEADER} is '${model}', not versioned or final`);
    }
    const packageName = header(headers, PACKAGE_HEADER);
    const version = header(headers, VERSION_HEADER);
    const fingerprint = header(headers, FINGERPRINT_HEADER);
    try {
      return new FbeSchema(packageName, version, fingerprint, model);
    } catch (e) {
      throw new FbeRecordError(`header ${FINGERPRINT_HEADER}: ${(e as Error).message}`);
    }
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
 * value (the message bytes and the four headers), `decode` reads one through the gate.
 */
export class FbeSerde<T> {
  constructor(
    readonly schema: FbeSchema,
    private readonly encoder: (value: T) => Uint8Array,
    private readonly decoder: (data: Uint8Array) => T,
    /** The writer fingerprints decode reads besides the schema's own (`accepting`). */
    readonly accepted: ReadonlySet<string> = new Set(),
    /** The largest value encode writes and decode reads (`withMaxValueBytes`; Infinity: no limit). */
    readonly maxValueBytes: number = Infinity,
  ) {}

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
    for (const f of fingerprints) {
      all.add(new FbeSchema(this.schema.packageName, this.schema.version, f, this.schema.model).fingerprint);
    }
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
   * and the four headers after any of `message.headers`; the key, partition and timestamp of
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
      headers: { ...message.headers, ...this.schema.headers() },
    };
  }

  /**
   * The value of a consumed message when its headers name this schema's package and model and a
   * fingerprint it accepts; anything else, and a value that is not a valid message or is larger than
   * the size limit, is an FbeRecordError naming both schemas, or the reason and the byte offset, or
   * the size and the limit. null for a tombstone.
   */
  decode(message: Pick<KafkaMessage, "value" | "headers"> & { offset?: string }): T | null {
    if (message.value === null) return null;
    let writer: FbeSchema;
    try {
      writer = FbeSchema.readFrom(message.headers);
    } catch (e) {
      if (!(e instanceof FbeRecordError)) throw e;
      throw new FbeRecordError(`a record this consumer of ${this.schema} cannot check: ${e.message}`, undefined,
        message.offset);
    }
    const differs = this.schema.differs(writer, this.accepted);
    if (differs !== undefined) {
      throw new FbeRecordError(`a record written with ${writer} cannot be read by ${this.schema}: ${differs}`,
        undefined, message.offset);
    }
    return this.decodeValue(message.value, message.offset);
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
