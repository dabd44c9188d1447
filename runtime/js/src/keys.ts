/**
 * Set elements and map keys: the order our writers write them in (docs/ir.md
 * "order": ascending, as std::set and std::map) and the key a reader uses to
 * refuse one read twice (docs/limits.md 4).
 */

import { Decimal } from "./decimal.js";
import { Uuid } from "./uuid.js";

/** A comparison function: negative, 0 or positive as `a` is below, equal to or above `b`. */
export type Compare<T> = (a: T, b: T) => number;

/** Numbers and bigints by value (order "value"). */
export function compareValue(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `char` as C++'s signed char: 0x80..0xFF before 0x00..0x7F (order "signed"). */
export function compareChar(a: number, b: number): number {
  return compareValue((a << 24) >> 24, (b << 24) >> 24);
}

/** false before true. */
export function compareBool(a: boolean, b: boolean): number {
  return a === b ? 0 : a ? 1 : -1;
}

/**
 * Strings by their UTF-8 bytes (order "bytes"): code point order, an escaped
 * byte U+DC80..U+DCFF as the raw byte 0x80..0xFF.
 */
export function compareString(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0x80 && y < 0x80) return x - y;
    // compare the UTF-8 bytes of the two code points that differ (from the pair's start)
    const prev = i > 0 ? a.charCodeAt(i - 1) : 0;
    if (prev >= 0xd800 && prev <= 0xdbff) i--;
    x = a.codePointAt(i)!;
    y = b.codePointAt(i)!;
    return compareBytes(firstBytes(x), firstBytes(y));
  }
  return a.length - b.length;
}

function firstBytes(c: number): number[] {
  if (c >= 0xdc80 && c <= 0xdcff) return [c - 0xdc00];
  if (c < 0x80) return [c];
  if (c < 0x800) return [0xc0 | (c >> 6), 0x80 | (c & 0x3f)];
  if (c < 0x10000) return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
  return [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
}

function compareBytes(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Uuids by their bytes. */
export function compareUuid(a: Uuid, b: Uuid): number {
  return a.compare(b);
}

/** Decimals by value. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  return a.compare(b);
}

/** Byte strings by their bytes. */
export function compareBlob(a: Uint8Array, b: Uint8Array): number {
  return compareBytes(a, b);
}

/** The keys of `m` in ascending order by `compare` (a map is written in its keys' order). */
export function sortedKeys<K>(m: ReadonlyMap<K, unknown>, compare: Compare<K>): K[] {
  const keys = Array.from(m.keys());
  for (let i = 1; i < keys.length; i++) {
    if (compare(keys[i - 1]!, keys[i]!) > 0) return keys.sort(compare);
  }
  return keys;
}

/** The elements of `s` in ascending order by `compare` (a set is written in its order). */
export function sortedValues<T>(s: ReadonlySet<T>, compare: Compare<T>): T[] {
  const values = Array.from(s);
  for (let i = 1; i < values.length; i++) {
    if (compare(values[i - 1]!, values[i]!) > 0) return values.sort(compare);
  }
  return values;
}

/** What generated structs with [key] fields have: their keys as one string (`keyOf`). */
export interface Keyed {
  fbeKey(): string;
}

/**
 * A string that is the same for two values exactly when a reader must take
 * them for the same set element or map key (docs/limits.md 4): scalars and
 * strings by value, bytes, uuids and decimals by their bytes, structs by
 * their [key] fields (`fbeKey()`; a struct without them has the empty key).
 */
export function keyOf(v: unknown): string {
  switch (typeof v) {
    case "number":
      return Object.is(v, -0) ? "n0" : "n" + v;
    case "bigint":
      return "b" + v;
    case "string":
      return "s" + v;
    case "boolean":
      return v ? "t" : "f";
    case "undefined":
      return "u";
  }
  if (v instanceof Uint8Array) return "x" + Array.from(v, (x) => x.toString(16).padStart(2, "0")).join("");
  if (v instanceof Uuid) return "g" + v.toString();
  if (v instanceof Decimal) return "d" + v.magnitude + "/" + v.flags;
  if (v !== null && typeof v === "object" && "fbeKey" in v) return "k" + (v as Keyed).fbeKey();
  throw new TypeError("no key for " + String(v));
}

/** The key of several values (a struct's [key] fields), for `fbeKey()`. */
export function keysOf(...values: unknown[]): string {
  return JSON.stringify(values.map(keyOf));
}

/** Whether two elements of `items` have the same key (`keyOf`). */
export function hasDuplicate(items: readonly unknown[]): boolean {
  if (items.length < 2) return false;
  const seen = new Set<string>();
  for (const x of items) {
    const k = keyOf(x);
    if (seen.has(k)) return true;
    seen.add(k);
  }
  return false;
}

/** Whether two entries of a map held as pairs have the same key. */
export function hasDuplicatePair(pairs: readonly (readonly [unknown, unknown])[]): boolean {
  if (pairs.length < 2) return false;
  const seen = new Set<string>();
  for (const [k] of pairs) {
    const s = keyOf(k);
    if (seen.has(s)) return true;
    seen.add(s);
  }
  return false;
}

/** The entries of `m` in ascending key order by `compare` (a map is written in its keys' order). */
export function sortedEntries<K, V>(m: ReadonlyMap<K, V>, compare: Compare<K>): [K, V][] {
  const entries = Array.from(m);
  for (let i = 1; i < entries.length; i++) {
    if (compare(entries[i - 1]![0], entries[i]![0]) > 0) return entries.sort((a, b) => compare(a[0], b[0]));
  }
  return entries;
}
