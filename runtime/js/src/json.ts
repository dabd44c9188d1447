/**
 * FBE JSON (docs/format.md 8): compact, members in declaration order,
 * byte-identical to the original's output for every value it writes
 * correctly. Where the original is wrong the rules are those of every other
 * runtime of the toolkit (docs/cpp-json-protocol.md, "Where this differs"):
 * a char is its byte value; NaN and infinities are the strings "NaN",
 * "Infinity", "-Infinity"; a decimal is its exact text with at least 6
 * fraction digits; enum and flags map keys are their numbers, bytes keys
 * their Base64 text, and a map keyed by a struct an array of [key, value]
 * pairs; float map keys are C's %f when that reads back to the same value,
 * otherwise the text of the value; a string's bytes that are not UTF-8
 * (U+DC80..U+DCFF in a JavaScript string) are the escapes \udcXY.
 */

import { Decimal } from "./decimal.js";
import { jsonDouble, percentF } from "./dtoa.js";
import { EncodeError } from "./errors.js";
import { MAX_DEPTH } from "./limits.js";
import { Uuid } from "./uuid.js";
import {
  bool,
  bytesValue,
  decimalValue,
  f64,
  i16,
  i32,
  i64,
  i8,
  stringValue,
  u16,
  u32,
  u64,
  u8,
  uuidValue,
} from "./writer.js";

const HEX = "0123456789abcdef";
const SIMPLE = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const ESCAPES: Record<number, string> = { 0x22: '\\"', 0x5c: "\\\\", 0x08: "\\b", 0x0c: "\\f", 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t" };

/** `s` as a JSON string literal (RapidJSON's escapes; \udcXY for an escaped byte). */
export function jsonString(s: string): string {
  if (SIMPLE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let escape: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      escape = ESCAPES[c] ?? "\\u00" + HEX[c >> 4]!.toUpperCase() + HEX[c & 15]!.toUpperCase();
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          continue;
        }
      }
      if (c < 0xdc80 || c > 0xdcff) {
        throw new EncodeError("string holds the lone surrogate U+" + c.toString(16).toUpperCase() + " at index " + i);
      }
      escape = "\\udc" + HEX[(c >> 4) & 15] + HEX[c & 15];
    } else {
      continue;
    }
    out += s.slice(start, i) + escape;
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard Base64 with padding. */
export function base64(b: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i + 1 === b.length) {
    const n = b[i]! << 16;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + "==";
  } else if (i + 2 === b.length) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + "=";
  }
  return out;
}

/**
 * The exact text of a decimal as the writers store it (normalised: no trailing fraction zeros,
 * docs/format.md 2.4) with at least 6 fraction digits, no sign on zero.
 */
export function decimalText(d: Decimal): string {
  const text = d.normalized().toString();
  const point = text.indexOf(".");
  const fraction = point < 0 ? 0 : text.length - 1 - point;
  return (point < 0 ? text + "." : text) + (fraction < 6 ? "0".repeat(6 - fraction) : "");
}

/** A float map key: C's %f when it reads back to the same value, else the value's JSON text. */
function realKey(v: number, f32: boolean): string {
  if (!Number.isFinite(v)) return jsonDouble(v);
  const text = percentF(v);
  const back = Number(text);
  const same = f32 ? Math.fround(back) === Math.fround(v) : back === v;
  return same && Object.is(back, -0) === Object.is(v, -0) ? text : jsonDouble(v);
}

/**
 * Appends FBE JSON to a string (`text`). Generated `fbeWriteJson` functions
 * write a struct's members with it; `toJson()` starts and finishes.
 */
export class JsonWriter {
  text = "";
  /** The deepest struct nesting written: nobody writes what no reader reads (docs/limits.md 1). */
  maxDepth: number;
  private depth = 0;

  constructor(maxDepth = MAX_DEPTH) {
    this.maxDepth = maxDepth;
  }

  /** One struct level deeper (structs that can nest without a bound); an EncodeError beyond maxDepth. */
  enter(): void {
    if (++this.depth > this.maxDepth) {
      throw new EncodeError("structs nested deeper than " + this.maxDepth, "", "depth");
    }
  }

  leave(): void {
    this.depth--;
  }

  /** Literal text (member names and punctuation of generated code). */
  raw(text: string): void {
    this.text += text;
  }

  /**
   * A JSON array of `items` (with `"{"` and `"}"`, an object's members), each
   * written by `item` after a comma but the first; `i` is its index, which
   * the path of an error names.
   */
  items<T>(items: Iterable<T>, item: (x: T, i: number) => void, open = "[", close = "]"): void {
    this.text += open;
    let i = 0;
    for (const x of items) {
      if (i > 0) this.text += ",";
      item(x, i++);
    }
    this.text += close;
  }

  null(): void {
    this.text += "null";
  }

  bool(v: boolean): void {
    this.text += bool(v) ? "true" : "false";
  }

  // Integers (chars, timestamps, enums and flags by their wire type), refused as fbe.Writer
  // refuses them: out of range, not an integer, a number where a bigint goes.

  u8(v: number): void {
    this.text += u8(v);
  }
  i8(v: number): void {
    this.text += i8(v);
  }
  u16(v: number): void {
    this.text += u16(v);
  }
  i16(v: number): void {
    this.text += i16(v);
  }
  u32(v: number): void {
    this.text += u32(v);
  }
  i32(v: number): void {
    this.text += i32(v);
  }
  u64(v: bigint): void {
    this.text += u64(v);
  }
  i64(v: bigint): void {
    this.text += i64(v);
  }

  /** A float or double as RapidJSON master writes it; NaN and infinities as strings. */
  double(v: number): void {
    this.text += Number.isFinite(f64(v)) ? jsonDouble(v) : '"' + jsonDouble(v) + '"';
  }

  decimal(v: Decimal): void {
    this.text += '"' + decimalText(decimalValue(v)) + '"';
  }

  uuid(v: Uuid): void {
    this.text += '"' + uuidValue(v).toString() + '"';
  }

  string(v: string): void {
    this.text += jsonString(stringValue(v));
  }

  bytes(v: Uint8Array): void {
    this.text += '"' + base64(bytesValue(v)) + '"';
  }

  // Map keys: the key as a member name and the colon.

  keyString(k: string): void {
    this.text += jsonString(stringValue(k)) + ":";
  }

  // An integer key (also chars, timestamps, enums and flags), by its wire type.

  keyU8(k: number): void {
    this.text += '"' + u8(k) + '":';
  }
  keyI8(k: number): void {
    this.text += '"' + i8(k) + '":';
  }
  keyU16(k: number): void {
    this.text += '"' + u16(k) + '":';
  }
  keyI16(k: number): void {
    this.text += '"' + i16(k) + '":';
  }
  keyU32(k: number): void {
    this.text += '"' + u32(k) + '":';
  }
  keyI32(k: number): void {
    this.text += '"' + i32(k) + '":';
  }
  keyU64(k: bigint): void {
    this.text += '"' + u64(k) + '":';
  }
  keyI64(k: bigint): void {
    this.text += '"' + i64(k) + '":';
  }

  keyBool(k: boolean): void {
    this.text += bool(k) ? '"1":' : '"0":';
  }

  keyDouble(k: number): void {
    this.text += '"' + realKey(f64(k), false) + '":';
  }

  keyFloat(k: number): void {
    this.text += '"' + realKey(f64(k), true) + '":';
  }

  keyDecimal(k: Decimal): void {
    this.text += '"' + decimalText(decimalValue(k)) + '":';
  }

  keyUuid(k: Uuid): void {
    this.text += '"' + uuidValue(k).toString() + '":';
  }

  keyBytes(k: Uint8Array): void {
    this.text += '"' + base64(bytesValue(k)) + '":';
  }
}
