/**
 * FBE timestamps are nanoseconds since 1970-01-01 00:00:00 UTC as an
 * unsigned 64-bit integer (docs/format.md 2.2); in JavaScript a `bigint`, as
 * every 64-bit integer of the toolkit.
 */

/** Nanoseconds since the Unix epoch. */
export type Timestamp = bigint;

/** The schema constant epoch. */
export const EPOCH: Timestamp = 0n;

/** The current time (the schema constant utc), in nanoseconds; as precise as the platform's clock. */
export function utc(): Timestamp {
  if (typeof performance !== "undefined") {
    const ms = performance.timeOrigin + performance.now();
    return BigInt(Math.floor(ms * 1000)) * 1000n;
  }
  return BigInt(Date.now()) * 1000000n;
}

/** The timestamp of a Date. */
export function fromDate(d: Date): Timestamp {
  return BigInt.asUintN(64, BigInt(d.getTime()) * 1000000n);
}

/** The timestamp as a Date (millisecond precision). */
export function toDate(t: Timestamp): Date {
  return new Date(Number(t / 1000000n));
}
