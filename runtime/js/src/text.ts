/**
 * The original's text form of values (its operator<<, docs/format.md 9): on
 * one line, without spaces, strings and chars as their raw bytes. Generated
 * `toString()` methods print a struct with `textOf`, which walks its fields
 * as the generated `fbeFields()` state them:
 *
 *   Account(id=1,name="Test",state=initialized|bad,wallet=Balance(currency="USD",amount=1000),asset=null,orders=[0][])
 *
 * The text is a JavaScript string whose bytes that are not UTF-8 (a char of
 * 0x80..0xFF, a string's escaped bytes) are U+DC80..U+DCFF, so
 * `encodeUtf8(text)` is the original's bytes exactly.
 */

import { Decimal } from "./decimal.js";
import { percentF, percentG } from "./dtoa.js";
import type { StructClass, TypeSpec } from "./explain.js";
import {
  compareBlob,
  compareBool,
  compareChar,
  compareDecimal,
  compareFloat,
  compareSame,
  compareString,
  compareUuid,
  compareValue,
  sortedEntries,
  sortedValues,
  type Compare,
} from "./keys.js";
import { Uuid } from "./uuid.js";

function byte(b: number): string {
  return String.fromCharCode(b < 0x80 ? b : 0xdc00 + b);
}

export class TextWriter {
  text = "";

  /** Literal text (names and punctuation of generated code). */
  raw(text: string): void {
    this.text += text;
  }

  bool(v: boolean): void {
    this.text += v ? "true" : "false";
  }

  /** An integer in decimal (numbers and bigints). */
  int(v: number | bigint): void {
    this.text += typeof v === "bigint" ? v.toString() : String(v);
  }

  /** A float or double as C's %g: 1000, 1.23456, 1e+10, 1e-05, -0, inf, nan. */
  float(v: number): void {
    this.text += percentG(v);
  }

  /** A decimal as the original prints it: C's %f of its double value. */
  decimal(v: Decimal): void {
    this.text += percentF(v.toNumber());
  }

  /** A char: the raw byte between single quotes. */
  char(v: number): void {
    this.text += "'" + byte(v & 0xff) + "'";
  }

  /** A wchar as the original prints it: only its low byte, between single quotes. */
  wchar(v: number): void {
    this.text += "'" + byte(v & 0xff) + "'";
  }

  /** A string between double quotes, its bytes as they are (no escaping). */
  string(v: string): void {
    this.text += '"' + v + '"';
  }

  uuid(v: Uuid): void {
    this.text += '"' + v.toString() + '"';
  }

  /** Bytes as their count: bytes[N]. */
  bytes(v: Uint8Array): void {
    this.text += "bytes[" + v.length + "]";
  }

  /** A collection's count and its opening bracket: [3] and "[", "<", "{", "<{" or "[{". */
  count(n: number, open: string): void {
    this.text += "[" + n + "]" + open;
  }
}

/**
 * The text form of an enum value: its name in `names` (each value with its
 * first declared name), else `<unknown>`.
 */
export function enumText<T extends number | bigint>(v: T, names: readonly (readonly [T, string])[]): string {
  for (const [value, name] of names) {
    if (value === v) return name;
  }
  return "<unknown>";
}

/**
 * The text form of flags: the names of the declared constants whose bits
 * are all set in `v`, in declaration order, joined by "|"; constants worth 0
 * never print and undeclared bits vanish, so 0 prints as nothing (as the original).
 */
export function flagsText<T extends number | bigint>(v: T, names: readonly (readonly [T, string])[]): string {
  let out = "";
  for (const [value, name] of names) {
    if (value !== 0 && value !== 0n && ((v as number) & (value as number)) === value) {
      out += (out === "" ? "" : "|") + name;
    }
  }
  return out;
}

/** The brackets of a collection's items after its count (docs/format.md 9). */
const BRACKETS: Record<string, readonly [string, string]> = {
  array: ["[", "]"], vector: ["[", "]"], list: ["<", ">"], set: ["{", "}"], map: ["<{", "}>"], hash: ["[{", "}]"],
};

/** The comparisons of primitives other than numbers' `compareValue` (keys.ts). */
const COMPARE: Record<string, Compare<never>> = {
  bool: compareBool, char: compareChar, string: compareString, bytes: compareBlob, uuid: compareUuid,
  decimal: compareDecimal, float: compareFloat,
};

/** The order a set's elements or a map's keys of type t are written and printed in (keys.ts). */
export function compareOf(t: TypeSpec): Compare<unknown> {
  let compare: Compare<never> = compareValue;
  if (typeof t === "string") compare = COMPARE[t] ?? compareValue;
  else if (t[0] === "struct") compare = t[2].fbeCompareKey ?? compareSame;
  return compare as Compare<unknown>;
}

/** A collection's count, its brackets and its items, each printed by `item`. */
function collection<T>(t: TextWriter, kind: string, items: readonly T[], item: (x: T) => void): void {
  const [open, close] = BRACKETS[kind]!;
  t.count(items.length, open);
  let first = true;
  for (const x of items) {
    if (!first) t.raw(",");
    first = false;
    item(x);
  }
  t.raw(close);
}

/** Prints `v`, a value of the type `type` states (explain.ts), in the text form. */
function writeValue(t: TextWriter, v: unknown, type: TypeSpec): void {
  if (typeof type === "string") {
    switch (type) {
      case "bool": return t.bool(v as boolean);
      case "float": case "double": return t.float(v as number);
      case "decimal": return t.decimal(v as Decimal);
      case "uuid": return t.uuid(v as Uuid);
      case "string": return t.string(v as string);
      case "bytes": return t.bytes(v as Uint8Array);
      case "char": return t.char(v as number);
      case "wchar": return t.wchar(v as number);
    }
    return t.int(v as number | bigint);
  }
  switch (type[0]) {
    case "enum":
      return t.raw(type[3](v as never));
    case "struct":
      return writeStruct(t, v as object, type[2]);
    case "optional":
      return v === undefined ? t.raw("null") : writeValue(t, v, type[1]);
    case "array": case "vector": case "list": case "set": {
      const items = type[0] === "set" ? sortedValues(v as Set<unknown>, compareOf(type[1])) : v as unknown[];
      return collection(t, type[0], items, (x) => writeValue(t, x, type[1]));
    }
    case "map": case "hash": {
      const entries = v as Map<unknown, unknown> | [unknown, unknown][];
      const items = type[0] === "map" ? sortedEntries(entries, compareOf(type[1])) : Array.from(entries);
      return collection(t, type[0], items, ([key, value]) => {
        writeValue(t, key, type[1]);
        t.raw("->");
        writeValue(t, value, type[2]);
      });
    }
  }
}

/**
 * Prints `v` as a value of the generated class `cls`: `Name(base,f1=...,f2=***)`,
 * the base class's fields as its own value first, then each of its own fields.
 */
function writeStruct(t: TextWriter, v: object, cls: StructClass): void {
  t.raw(cls.fbeName.slice(cls.fbeName.lastIndexOf(".") + 1) + "(");
  let fields = cls.fbeFields();
  let comma = false;
  const base: Partial<StructClass> = Object.getPrototypeOf(cls);
  if (typeof base.fbeFields === "function") {
    writeStruct(t, v, base as StructClass);
    fields = fields.slice(base.fbeFields().length);
    comma = true;
  }
  for (const [name, type, property, hidden] of fields) {
    t.raw((comma ? "," : "") + name + "=");
    comma = true;
    if (hidden !== undefined) t.raw("***");
    else writeValue(t, (v as Record<string, unknown>)[property ?? name], type);
  }
  t.raw(")");
}

/** `value`, of the generated class `cls`, in the text form: what its `toString()` returns. */
export function textOf(value: object, cls: StructClass): string {
  const t = new TextWriter();
  writeStruct(t, value, cls);
  return t.text;
}
