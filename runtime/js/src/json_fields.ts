/**
 * JSON of a field whose type holds an array or a collection (docs/format.md 8),
 * walked over the field's type as generated code states it (a TypeSpec, as in
 * the class's `fbeFields()`): generated `fbeWriteJson` and `fbeReadJson` write
 * and read the other fields in straight-line code, and call `writeJsonField`
 * and `readJsonField` for these. A struct inside is written and read by its
 * own class's `fbeWriteJson` and `fbeReadJson`.
 */

import { checkArray, checkLength, within, withinIndex } from "./errors.js";
import { BIGINT_RANGES, INT_RANGES, type StructClass, type TypeSpec } from "./explain.js";
import { JsonWriter } from "./json.js";
import type { JsonObject, JsonReader } from "./json_reader.js";
import { checkEntries, elementsInOrder, entriesInOrder, repeated, repeatedEntries } from "./keys.js";
import { compareOf } from "./text.js";

/** A generated class with JSON (`--json`), as the walk calls it. */
interface JsonStruct extends StructClass {
  fbeWriteJson(j: JsonWriter, v: unknown): void;
  fbeReadJson(r: JsonReader, x: unknown, into?: unknown): unknown;
}

type Put = (j: JsonWriter, v: never) => void;
type Get = (r: JsonReader, x: never, field: string) => unknown;

/** The JsonWriter call of a value of each primitive and wire type that is not an integer. */
const WRITE: Record<string, Put> = {
  bool: (j, v) => j.bool(v), string: (j, v) => j.string(v), bytes: (j, v) => j.bytes(v),
  decimal: (j, v) => j.decimal(v), uuid: (j, v) => j.uuid(v), float: (j, v) => j.double(v),
  double: (j, v) => j.double(v),
};
/** The JsonWriter call of an integer (chars, timestamps, enums and flags by their wire type). */
const WRITE_INT: Record<string, Put> = {
  byte: (j, v) => j.u8(v), char: (j, v) => j.u8(v), uint8: (j, v) => j.u8(v), int8: (j, v) => j.i8(v),
  uint16: (j, v) => j.u16(v), int16: (j, v) => j.i16(v), uint32: (j, v) => j.u32(v), wchar: (j, v) => j.u32(v),
  int32: (j, v) => j.i32(v), uint64: (j, v) => j.u64(v), timestamp: (j, v) => j.u64(v), int64: (j, v) => j.i64(v),
};
/** The JsonWriter call of a map key as a member name (docs/format.md 8.1). */
const WRITE_KEY: Record<string, Put> = {
  bool: (j, v) => j.keyBool(v), string: (j, v) => j.keyString(v), bytes: (j, v) => j.keyBytes(v),
  decimal: (j, v) => j.keyDecimal(v), uuid: (j, v) => j.keyUuid(v), float: (j, v) => j.keyFloat(v),
  double: (j, v) => j.keyDouble(v), byte: (j, v) => j.keyU8(v), char: (j, v) => j.keyU8(v),
  uint8: (j, v) => j.keyU8(v), int8: (j, v) => j.keyI8(v), uint16: (j, v) => j.keyU16(v),
  int16: (j, v) => j.keyI16(v), uint32: (j, v) => j.keyU32(v), wchar: (j, v) => j.keyU32(v),
  int32: (j, v) => j.keyI32(v), uint64: (j, v) => j.keyU64(v), timestamp: (j, v) => j.keyU64(v),
  int64: (j, v) => j.keyI64(v),
};
/** The JsonReader call of a value of each primitive that is not an integer. */
const READ: Record<string, Get> = {
  bool: (r, x, f) => r.bool(x, f), string: (r, x, f) => r.string(x, f), bytes: (r, x, f) => r.bytes(x, f),
  decimal: (r, x, f) => r.decimal(x, f), uuid: (r, x, f) => r.uuid(x, f), float: (r, x, f) => r.float(x, f),
  double: (r, x, f) => r.double(x, f), char: (r, x, f) => r.char(x, f),
};
/** The JsonReader call of a map key from its member name, for keys that are not integers. */
const READ_KEY: Record<string, Get> = {
  bool: (r, k, f) => r.keyBool(k, f), string: (r, k, f) => r.keyString(k, f), bytes: (r, k, f) => r.keyBytes(k, f),
  decimal: (r, k, f) => r.keyDecimal(k, f), uuid: (r, k, f) => r.keyUuid(k, f), float: (r, k, f) => r.keyFloat(k, f),
  double: (r, k, f) => r.keyDouble(k, f), char: (r, k, f) => r.keyChar(k, f),
};

/** The wire type of a primitive or an enum: what its JSON value is written and read as. */
function wire(t: TypeSpec): string {
  return typeof t === "string" ? t : (t[2] as string);
}

/**
 * Whether JavaScript's Set and Map compare values of type t by value (numbers, bigints,
 * strings, booleans, enums): a set of them is a Set, a map keyed by them a Map; else arrays.
 */
function byValue(t: TypeSpec): boolean {
  return typeof t === "string" ? t !== "bytes" && t !== "uuid" && t !== "decimal" : t[0] === "enum";
}

// ---------------------------------------------------------------- writing

/** Writes `v`, the value of `field`, of the type `type` (an array or a collection, or an optional one) as JSON. */
export function writeJsonField(j: JsonWriter, field: string, type: TypeSpec, v: unknown): void {
  writeValue(j, v, type, field);
}

/** An item of a collection: a struct's error (an optional's too) named by the item's index. */
function writeItem(j: JsonWriter, v: unknown, t: TypeSpec, field: string, i: number): void {
  if (typeof t !== "string" && t[0] === "optional" && v !== undefined) return writeItem(j, v, t[1], field, i);
  if (typeof t === "string" || t[0] !== "struct") return writeValue(j, v, t, field);
  try {
    (t[2] as JsonStruct).fbeWriteJson(j, v);
  } catch (e) {
    throw withinIndex(e, field, i);
  }
}

function writeValue(j: JsonWriter, v: unknown, t: TypeSpec, field: string): void {
  if (typeof t === "string" || t[0] === "enum") {
    return (WRITE[wire(t)] ?? WRITE_INT[wire(t)]!)(j, v as never);
  }
  switch (t[0]) {
    case "struct":
      return (t[2] as JsonStruct).fbeWriteJson(j, v);
    case "optional":
      return v === undefined ? j.null() : writeValue(j, v, t[1], field);
    case "array": case "vector": case "list": case "set":
      return writeElements(j, elementsOf(v, t, field), t[1], field);
    case "map": case "hash": {
      const [, key, value] = t;
      if (typeof key !== "string" && key[0] === "struct") {    // a struct is not a member name: [key, value] pairs
        return j.items(entriesOf(v, t, field), ([k, y], i) => {
          j.raw("[");
          writeItem(j, k, key, field, i);
          j.raw(",");
          writeItem(j, y, value, field, i);
          j.raw("]");
        });
      }
      const put = WRITE_KEY[wire(key)]!;
      return j.items(entriesOf(v, t, field), ([k, y], i) => {
        put(j, k as never);
        writeItem(j, y, value, field, i);
      }, "{", "}");
    }
  }
}

/** A JSON array of elements of type t; a struct's written by its class (its error named by its index). */
function writeElements(j: JsonWriter, items: Iterable<unknown>, t: TypeSpec, field: string): void {
  j.raw("[");
  let i = 0;
  if (typeof t !== "string" && t[0] === "struct") {
    const cls = t[2] as JsonStruct;
    for (const y of items) {
      if (i > 0) j.raw(",");
      try {
        cls.fbeWriteJson(j, y);
      } catch (e) {
        throw withinIndex(e, field, i);
      }
      i++;
    }
  } else {
    for (const y of items) {
      if (i > 0) j.raw(",");
      writeItem(j, y, t, field, i++);
    }
  }
  j.raw("]");
}

/** An array's, vector's, list's or set's elements in the order written, checked as the binary writers check them. */
function elementsOf(v: unknown, t: readonly [string, TypeSpec, ...unknown[]], field: string): Iterable<unknown> {
  const a = v as readonly unknown[];
  if (t[0] === "set") return elementsInOrder(v as readonly unknown[], compareOf(t[1]), field);
  if (t[0] === "array") return checkLength(a, t[2] as number);
  return checkArray(a);
}

/** A map's or hash's entries in the order written: a map's ascending, a hash's as it holds them (checked). */
function entriesOf(v: unknown, t: readonly [string, TypeSpec, TypeSpec, ...unknown[]], field: string) {
  const m = v as ReadonlyMap<unknown, unknown> | readonly (readonly [unknown, unknown])[];
  if (t[0] === "map") return entriesInOrder(m, compareOf(t[1]), field);
  // a hash whose keys JavaScript does not compare by value, or floats (two doubles, one float), can hold one twice
  return !byValue(t[1]) || t[1] === "float" ? checkEntries(m, compareOf(t[1]), field) : m;
}

// ---------------------------------------------------------------- reading

/**
 * The value of `field`, of the type `type` (an array or a collection, or an optional one), read from
 * the parsed JSON value `x`; a fixed array read into `into`, the array its struct's constructor made
 * (its structs too), so that no default is made twice.
 */
export function readJsonField<T>(r: JsonReader, field: string, type: TypeSpec, x: unknown, into: T): T {
  return readValue(r, x, type, field, into) as T;
}

/**
 * An item of a collection: a struct's error (an optional's too) named by `at`, the item's index or its
 * key's member name (`orders[2]`); a struct read into `into` when given. `at` is a value, not a function
 * naming the error: a closure made for each item cost 3 % of fromJson of the trade Account.
 */
function readItem(r: JsonReader, x: unknown, t: TypeSpec, field: string, at: number | string,
  into?: unknown): unknown {
  if (typeof t !== "string" && t[0] === "optional") return x === null ? undefined : readItem(r, x, t[1], field, at);
  if (typeof t === "string" || t[0] !== "struct") return readValue(r, x, t, field, into);
  try {
    return (t[2] as JsonStruct).fbeReadJson(r, x, into);
  } catch (e) {
    throw within(e, field + "[" + at + "]");
  }
}

function readValue(r: JsonReader, x: unknown, t: TypeSpec, field: string, into: unknown): unknown {
  if (typeof t === "string" || t[0] === "enum") {
    const name = wire(t);
    const bigints = BIGINT_RANGES[name];
    if (bigints !== undefined) return r.int64(x, bigints[0], bigints[1], field);
    const ints = INT_RANGES[name];
    return ints !== undefined && name !== "char" ? r.int(x, ints[0], ints[1], field) : READ[name]!(r, x as never, field);
  }
  switch (t[0]) {
    case "struct":
      return (t[2] as JsonStruct).fbeReadJson(r, x, into);
    case "optional":
      return x === null ? undefined : readValue(r, x, t[1], field, undefined);
    case "array": {
      const e = r.fixed(x, t[2], field);
      const a = (into as unknown[] | undefined) ?? [];
      for (let i = 0; i < e.length; i++) {
        a[i] = readItem(r, e[i], t[1], field, i, into === undefined ? undefined : a[i]);
      }
      return a;
    }
    case "vector": case "list": case "set": {
      const e = r.array(x, t[2] as number, field);
      const element = t[1];
      if (t[0] === "set" && byValue(element)) {
        const s = new Set<unknown>();
        for (let i = 0; i < e.length; i++) {
          const y = readItem(r, e[i], element, field, i);
          if (s.has(y)) r.duplicate(field, "element");
          s.add(y);
        }
        return s;
      }
      const a: unknown[] = [];
      for (let i = 0; i < e.length; i++) a.push(readItem(r, e[i], element, field, i));
      if (t[0] === "set" && repeated(a, compareOf(element)) !== undefined) r.duplicate(field, "element");
      return a;
    }
    case "map": case "hash":
      return readEntries(r, x, t, field);
  }
}

/**
 * A map or hash: a Map when JavaScript compares its keys by value, else [key, value] pairs (refused
 * when two keys are the same); keys that are structs are read from [key, value] pairs, the others
 * from member names.
 */
function readEntries(r: JsonReader, x: unknown, t: readonly [string, TypeSpec, TypeSpec, number], field: string): unknown {
  const [, key, value, cost] = t;
  if (typeof key !== "string" && key[0] === "struct") {
    const e = r.pairs(x, cost, field);
    const pairs: [unknown, unknown][] = [];
    for (let i = 0; i < e.length; i++) {
      pairs.push([readItem(r, e[i]![0], key, field, i), readItem(r, e[i]![1], value, field, i)]);
    }
    if (repeatedEntries(pairs, compareOf(key)) !== undefined) r.duplicate(field, "key");
    return pairs;
  }
  const unique = byValue(key);
  const m = new Map<unknown, unknown>();
  const pairs: [unknown, unknown][] = [];
  const o: JsonObject = r.object(x, cost, field);
  for (const name of Object.keys(o)) {
    const k = readKey(r, name, key, field);
    const y = readItem(r, o[name], value, field, name);
    if (!unique) {
      pairs.push([k, y]);
    } else {
      if (m.has(k)) r.duplicate(field, "key");
      m.set(k, y);
    }
  }
  if (unique) return m;
  if (repeatedEntries(pairs, compareOf(key)) !== undefined) r.duplicate(field, "key");
  return pairs;
}

/** A map key from its member name: an integer (an enum's by its wire type) in its range (docs/limits.md 7). */
function readKey(r: JsonReader, name: string, t: TypeSpec, field: string): unknown {
  const type = wire(t);
  const bigints = BIGINT_RANGES[type];
  if (bigints !== undefined) return r.keyInt64(name, bigints[0], bigints[1], field);
  const ints = INT_RANGES[type];
  return ints !== undefined && type !== "char" ? r.keyInt(name, ints[0], ints[1], field) : READ_KEY[type]!(r, name as never, field);
}
