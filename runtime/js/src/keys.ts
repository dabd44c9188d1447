/**
 * Set elements and map keys: the order our writers write them in (docs/ir.md
 * "order": ascending, as std::set and std::map), which is also the one
 * comparison by which readers and writers find two the same (docs/limits.md
 * 4): 0 exactly when a reader must take them for the same element or key.
 */

import { Decimal } from "./decimal.js";
import { EncodeError } from "./errors.js";
import { Uuid } from "./uuid.js";

/**
 * A comparison function: negative, 0 or positive as `a` is below, equal to or
 * above `b`; a total order, 0 exactly for the same key.
 */
export type Compare<T> = (a: T, b: T) => number;

/**
 * Numbers and bigints by value (order "value"); -0 is 0, and NaN (which no
 * reader should get as a key: docs/limits.md 4) comes after every number and
 * is the same as NaN, as a JavaScript Set holds one.
 */
export function compareValue(a: number | bigint, b: number | bigint): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  const nanA = a !== a;
  return nanA === (b !== b) ? 0 : nanA ? 1 : -1;
}

/** `float` by the 32-bit value written (two doubles that round to one float are the same key). */
export function compareFloat(a: number, b: number): number {
  return compareValue(Math.fround(a), Math.fround(b));
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

/** Structs without [key] fields: all the same key, so a set of them holds at most one (as C++ and Python compare them). */
export function compareSame(_a: unknown, _b: unknown): number {
  return 0;
}

/** An optional [key] field: undefined first, values by `compare`. */
export function compareOptional<T>(a: T | undefined, b: T | undefined, compare: Compare<T>): number {
  if (a === undefined) return b === undefined ? 0 : -1;
  return b === undefined ? 1 : compare(a, b);
}

/** Uuids by their bytes. */
export function compareUuid(a: Uuid, b: Uuid): number {
  return a.compare(b);
}

/** Decimals by value: 1.5 and 1.50 are the same key, so are -0 and 0 (as C++, Python and Java compare them). */
export function compareDecimal(a: Decimal, b: Decimal): number {
  return a.compare(b);
}

/** Byte strings by their bytes, a prefix first. */
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

/** The elements of `s` in ascending order by `compare` (a copy; the text form prints a set in its order). */
export function sortedValues<T>(s: ReadonlySet<T> | readonly T[], compare: Compare<T>): T[] {
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
 * strings by value, bytes and uuids by their bytes, decimals by value
 * (`1.50` is `1.5`), structs by their [key] fields (`fbeKey()`; a struct
 * without them has the empty key). The readers and writers compare with the
 * `compare*` functions; this string is for a user's own Map.
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
  if (v instanceof Decimal) return "d" + decimalKey(v);
  if (v !== null && typeof v === "object") return "k" + ("fbeKey" in v ? (v as Keyed).fbeKey() : "");
  throw new TypeError("no key for " + String(v));
}

/** A decimal's value as `[-]digits/scale` without trailing fraction zeros (zero: `0/0`). */
function decimalKey(d: Decimal): string {
  let m = d.magnitude;
  let scale = d.scale;
  if (m === 0n) return "0/0";
  while (scale > 0 && m % 10n === 0n) {
    m /= 10n;
    scale--;
  }
  return (d.negative ? "-" : "") + m + "/" + scale;
}

/** The key of several values (a struct's [key] fields), for `fbeKey()`. */
export function keysOf(...values: unknown[]): string {
  return JSON.stringify(values.map(keyOf));
}

/** The entries of `m` in ascending key order by `compare` (a copy; the text form prints a map in its order). */
export function sortedEntries<K, V>(m: ReadonlyMap<K, V> | readonly (readonly [K, V])[], compare: Compare<K>): (readonly [K, V])[] {
  const entries: (readonly [K, V])[] = Array.from(m);
  for (let i = 1; i < entries.length; i++) {
    if (compare(entries[i - 1]![0], entries[i]![0]) > 0) return entries.sort((a, b) => compare(a[0], b[0]));
  }
  return entries;
}

/** Unordered input up to this many items is checked pairwise, longer input by sorting its indexes. */
const SMALL = 8;

/**
 * The indexes i < k of two items of a set that `compare` finds the same (the
 * least such k, and the first i before it), or undefined when each is there
 * once. Readers and writers use it alike (docs/limits.md 4): items strictly
 * ascending, as writers write them, cost one comparison each and nothing
 * else; another order is checked pairwise up to 8 items and through a sort of
 * their indexes beyond.
 */
export function repeated<T>(items: readonly T[], compare: Compare<T>): [number, number] | undefined {
  return repeatedAt(items.length, (i, j) => compare(items[i]!, items[j]!));
}

/** `repeated` of the keys of a map held as `[key, value]` pairs. */
export function repeatedEntries<K>(pairs: readonly (readonly [K, unknown])[], compare: Compare<K>): [number, number] | undefined {
  return repeatedAt(pairs.length, (i, j) => compare(pairs[i]![0], pairs[j]![0]));
}

/** How many of n items compared by index come first in strictly ascending order. */
function ascending(n: number, at: Compare<number>): number {
  let k = 1;
  while (k < n && at(k - 1, k) < 0) k++;
  return k;
}

/** `repeated` of n items compared by index. */
function repeatedAt(n: number, at: Compare<number>): [number, number] | undefined {
  const k = ascending(n, at);
  return k >= n ? undefined : unordered(n, k, at);
}

/** `repeated` of n items compared by index, the first k ascending. */
function unordered(n: number, k: number, at: Compare<number>): [number, number] | undefined {
  if (n <= SMALL) {
    for (; k < n; k++) for (let i = 0; i < k; i++) if (at(i, k) === 0) return [i, k];
    return undefined;
  }
  return firstRepeat(indexOrder(n, at), at);
}

/** The indexes 0..n-1 in the items' order (equal items by index). */
function indexOrder(n: number, at: Compare<number>): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  return order.sort((i, j) => at(i, j) || i - j);
}

/** In indexes sorted by `indexOrder`: the i < k of `repeated` (each run of equal items by index, the least second). */
function firstRepeat(order: readonly number[], at: Compare<number>): [number, number] | undefined {
  let found: [number, number] | undefined;
  for (let p = 1, run = 0; p < order.length; p++) {
    if (at(order[p - 1]!, order[p]!) !== 0) {
      run = p;
    } else if (p === run + 1 && (found === undefined || order[p]! < found[1])) {
      found = [order[run]!, order[p]!];
    }
  }
  return found;
}

function sameElements(field: string, [i, k]: [number, number]): never {
  throw new EncodeError("two elements are the same, [" + i + "] and [" + k + "]", field);
}

function sameKeys(field: string, [i, k]: [number, number]): never {
  throw new EncodeError("two entries have the same key, [" + i + "] and [" + k + "]", field);
}

/**
 * A set's elements in the order writers write them (ascending by `compare`):
 * `items` itself when they are in that order already (one comparison each),
 * else a sorted copy; an EncodeError naming `field` and the two indexes (in
 * `items`, or in the Set's order) when two are the same, as no reader reads
 * such a set (docs/limits.md 4).
 */
export function elementsInOrder<T>(items: readonly T[] | ReadonlySet<T>, compare: Compare<T>, field: string): readonly T[] {
  const a = Array.isArray(items) ? (items as readonly T[]) : Array.from(items);
  return inOrder(a, (i, j) => compare(a[i]!, a[j]!), (same) => sameElements(field, same));
}

/** `elementsInOrder` of a map (a Map or `[key, value]` pairs): its entries in ascending key order. */
export function entriesInOrder<K, V>(
  m: ReadonlyMap<K, V> | readonly (readonly [K, V])[],
  compare: Compare<K>,
  field: string,
): readonly (readonly [K, V])[] {
  const a = Array.isArray(m) ? (m as readonly (readonly [K, V])[]) : Array.from(m as ReadonlyMap<K, V>);
  return inOrder(a, (i, j) => compare(a[i]![0], a[j]![0]), (same) => sameKeys(field, same));
}

/** `a` itself when ascending by `at`, else a sorted copy; `refuse` gets the indexes of two the same. */
function inOrder<T>(a: readonly T[], at: Compare<number>, refuse: (same: [number, number]) => never): readonly T[] {
  if (ascending(a.length, at) >= a.length) return a;
  const order = indexOrder(a.length, at);
  const same = firstRepeat(order, at);
  if (same !== undefined) refuse(same);
  return order.map((i) => a[i]!);
}

/**
 * `m`, a hash to write in the order it holds: refused when `compare` finds two
 * of its keys the same (an EncodeError naming `field` and the two indexes).
 */
export function checkEntries<K, M extends ReadonlyMap<K, unknown> | readonly (readonly [K, unknown])[]>(
  m: M,
  compare: Compare<K>,
  field: string,
): M {
  const a = Array.isArray(m) ? (m as readonly (readonly [K, unknown])[]) : Array.from(m as ReadonlyMap<K, unknown>);
  const same = repeatedEntries(a, compare);
  if (same !== undefined) sameKeys(field, same);
  return m;
}
