/**
 * Reading FBE JSON (docs/format.md 8.3) under the rules every runtime shares
 * (docs/limits.md 7). A scan of the text (`prepare`: no recursion, no
 * allocation per value) refuses arrays and objects nested deeper than
 * 3 * maxDepth and a member name given twice in an object, and marks the
 * numbers a double does not hold as their text; then the engine's
 * `JSON.parse` parses it. So 64-bit integers, doubles and decimals are read
 * exactly: an integer of at most 15 digits is parsed as the number it is, and
 * every other number (a fraction, an exponent, more digits) becomes the string
 * of its text behind a tab, which no JSON string value the scan leaves alone
 * begins with (one that does gets a second tab; Number and BigInt take the
 * text with the tab as it is). Bytes that are not valid
 * UTF-8 are refused; a string's \udcXY escapes are the raw bytes 0xXY
 * (U+DC80..U+DCFF, as the binary readers hold them) and other lone surrogates
 * are refused anywhere in the document. Generated `fbeReadJson` functions then read the values,
 * counting struct levels and charging the decode budget as the binary readers
 * do (docs/limits.md 3). Errors are DecodeErrors naming the type and the
 * member path.
 */

import { Decimal, quotePrefix } from "./decimal.js";
import { DecodeError } from "./errors.js";
import { budgetOf, DEFAULT_LIMITS, type Limits } from "./limits.js";
import { decodeUtf8, encodeUtf8, isUtf8, utf8Length } from "./utf8.js";
import { Uuid } from "./uuid.js";

const FLT_MAX = 3.4028234663852886e38;
const NONFINITE: Record<string, number> = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const NON_ASCII = /[^\x00-\x7f]/;
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NOT_A_BYTE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])(?:[\udc00-\udc7f]|[\udd00-\udfff])/;
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const INTEGER = /^-?[0-9]+$/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const INT_KEY = /^[ \t\n\v\f\r]*[+-]?[0-9]+$/;
const REAL_KEY = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const SPECIAL_KEY = /^([+-]?)(?:(inf|infinity)|nan)$/i;
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
// the last character before padding has its unused bits zero (RFC 4648 3.5): each byte string one text
const B64_END = /(?:[AQgw]==|[AEIMQUYcgkosw048]=|[^=])$/;
const B64_VALUES: Record<string, number> = Object.fromEntries(
  Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", (c, i) => [c, i]),
);

/**
 * A JSON value as parsed: null, a boolean, a number (an integer of at most 15
 * digits), a string (a number's text behind a tab: `numberText`; a string
 * value: `stringOf`), an array or an object.
 */
export type JsonValue = unknown;
/** A JSON object as parsed. */
export type JsonObject = Record<string, unknown>;

/** The text of a number value, or undefined when v is not a number. */
function numberText(v: unknown): string | undefined {
  if (typeof v === "number") return String(v);
  if (typeof v === "string" && v.charCodeAt(0) === 9 && v.charCodeAt(1) !== 9) return v.slice(1);
  return undefined;
}

/** The string a string value stands for, or undefined when v is not a string (or is a number's text). */
function stringOf(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  if (v.charCodeAt(0) !== 9) return v;
  return v.charCodeAt(1) === 9 ? v.slice(1) : undefined;
}

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (numberText(v) !== undefined) return "number";
  return typeof v;
}

function mismatch(what: string, v: unknown, field: string): DecodeError {
  return new DecodeError("JSON " + what + " expected, got " + kind(v), field);
}

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Scans the text before JSON.parse parses it and returns the text it parses
 * and the number of member names in its objects. Arrays and objects nest at
 * most `limit` deep. A number in the place of a value that is not an integer
 * of at most 15 digits is made the string of its text behind a tab (the
 * escape `\t`), and a string value whose first character is a tab gets one
 * more: both are still values where they were, so the text is JSON
 * exactly when it was. Only brackets, strings and numbers outside strings are
 * looked at; whether the text is JSON at all is JSON.parse's to say.
 */
function prepare(text: string, limit: number): [string, number] {
  const objects: boolean[] = []; // per open array or object: whether it is an object
  const n = text.length;
  let out = ""; // the text as JSON.parse gets it, up to `done`
  let done = 0;
  let names = 0;
  let prev = -1; // the last character outside strings that is not white space (-1: none; 0x22: a string)
  let backslash = text.indexOf("\\"); // the next backslash at or after i (-1: none)
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      if (backslash !== -1 && backslash < i) backslash = text.indexOf("\\", i);
      i = text.indexOf('"', i + 1);
      if (i === -1) break; // not JSON: JSON.parse says why
      const escaped = backslash !== -1 && backslash < i;
      if (escaped) {
        // the string ends at the first quote no backslash escapes
        for (i = backslash; i < n; i++) {
          const d = text.charCodeAt(i);
          if (d === 0x5c) i++;
          else if (d === 0x22) break;
        }
      }
      prev = 0x22;
      let j = i + 1;
      let d = text.charCodeAt(j);
      while (d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) d = text.charCodeAt(++j);
      if (d === 0x3a && objects.length > 0 && objects[objects.length - 1]) {
        names++;
      } else if (escaped && (text.startsWith("\\t", start + 1) || text.startsWith("\\u0009", start + 1))) {
        // a value beginning with a tab gets another, to tell it from a number's text
        out += text.slice(done, start + 1) + "\\t";
        done = start + 1;
      }
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const top = objects.length - 1;
      const value = top < 0 ? prev === -1 : objects[top] ? prev === 0x3a : prev === 0x5b || prev === 0x2c;
      prev = c;
      if (!value) continue; // not JSON: JSON.parse says why
      let j = c === 0x2d ? i + 1 : i;
      const digits = j;
      let d = text.charCodeAt(j);
      while (d >= 0x30 && d <= 0x39) d = text.charCodeAt(++j);
      if (d !== 0x2e && d !== 0x65 && d !== 0x45 && j - digits <= 15) {
        i = j - 1; // an integer a double holds (or not JSON: JSON.parse says why)
        continue;
      }
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) continue; // not JSON: JSON.parse says why
      const end = NUMBER.lastIndex;
      out += text.slice(done, i) + '"\\t' + text.slice(i, end) + '"';
      done = end;
      i = end - 1;
    } else if (c === 0x7b || c === 0x5b) {
      objects.push(c === 0x7b);
      if (objects.length > limit) {
        throw new DecodeError("invalid JSON: arrays and objects nested deeper than " + limit + " at text offset " + i);
      }
      prev = c;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
      if (c === 0x7d || c === 0x5d) objects.pop();
      prev = c;
    }
  }
  return [done === 0 ? text : out + text.slice(done), names];
}

/** The number of members of the objects in a parsed value. */
function members(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  let count = 0;
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === "object") count += members(x);
    return count;
  }
  const o = v as JsonObject;
  for (const k in o) {
    count++;
    const x = o[k];
    if (x !== null && typeof x === "object") count += members(x);
  }
  return count;
}

/**
 * Refuses the first member name given twice in an object (names compared
 * after their escapes: "a" and "\\u0061" are the same), when JSON.parse, which
 * keeps one of them, found fewer members than the text names.
 */
function duplicateName(text: string): never {
  // per open array or object: false (an array), true (an object without names yet), its one name,
  // or the Set of its names
  const stack: (boolean | string | Set<string>)[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      stack.push(c === 0x7b);
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escaped = true;
          i++;
        } else if (d === 0x22) {
          break;
        }
      }
      let j = i + 1;
      while (j < n && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09 || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d)) j++;
      const top = stack.length - 1;
      if (j >= n || text.charCodeAt(j) !== 0x3a || top < 0 || stack[top] === false) continue; // not a member name
      const name = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      const seen = stack[top]!;
      if (seen === name || (seen instanceof Set && seen.has(name))) {
        throw new DecodeError("invalid JSON: duplicate member name " + JSON.stringify(name) + " at text offset " + start);
      }
      if (seen === true) stack[top] = name;
      else if (seen instanceof Set) seen.add(name);
      else stack[top] = new Set([seen as string, name]);
    }
  }
  throw new DecodeError("invalid JSON: a member name given twice");
}

/**
 * A parsed string as the FBE string it stands for: \udcXY escapes are the
 * bytes 0xXY, held as the binary readers hold those bytes (escapes that spell
 * valid UTF-8, "\udcc3\udca9", are that character, "é", and are written
 * so); other lone surrogates are an error.
 */
function fbeString(s: string, field: string): string {
  if (!LONE.test(s)) return s;
  const m = NOT_A_BYTE.exec(s);
  if (m !== null) {
    throw new DecodeError(
      "lone surrogate \\u" + m[0].charCodeAt(0).toString(16).padStart(4, "0") +
        " in a JSON string (only \\udc80..\\udcff stand for bytes)",
      field,
    );
  }
  return decodeUtf8(encodeUtf8(s));
}

/** Refuses a lone surrogate escape (but \udc80..\udcff) in any string of a parsed value, names included. */
function checkStrings(v: unknown): void {
  if (typeof v === "string") {
    fbeString(v, "");
  } else if (Array.isArray(v)) {
    for (const x of v) checkStrings(x);
  } else if (v !== null && typeof v === "object") {
    const o = v as JsonObject;
    for (const k in o) {
      fbeString(k, "");
      checkStrings(o[k]);
    }
  }
}

/**
 * The state of one JSON decode: the parsed document (`root`), the depth and
 * the budget. Generated code reads values with its methods.
 */
export class JsonReader {
  readonly root: JsonValue;
  readonly limits: Limits;
  private budget: number;
  private depth = 0;
  /** Whether every string of the document is ASCII: the text is, and holds no escape. */
  private readonly ascii: boolean;

  private constructor(root: JsonValue, lim: Limits, size: number, ascii: boolean) {
    this.root = root;
    this.limits = lim;
    this.budget = budgetOf(lim, size);
    this.ascii = ascii;
  }

  /**
   * Parses JSON text (a string, or its UTF-8 bytes) under the shared rules;
   * a DecodeError when it is not JSON or breaks one of them.
   */
  static parse(input: string | Uint8Array, lim: Limits = DEFAULT_LIMITS): JsonReader {
    let text: string;
    let size = input.length;
    if (typeof input === "string") {
      const ascii = !NON_ASCII.test(input);
      const m = ascii ? null : LONE.exec(input);
      if (m !== null) {
        throw new DecodeError(
          "invalid JSON: the text holds the lone surrogate U+" + m[0].charCodeAt(0).toString(16).toUpperCase() +
            " at " + m.index + " (not valid UTF-8)",
        );
      }
      text = input;
      if (!ascii) size = utf8Length(input);
    } else {
      try {
        text = fatal.decode(input);
      } catch {
        let at = 0;
        while (at < input.length && isUtf8(input.subarray(0, at + 1))) at++;
        throw new DecodeError("invalid JSON: not valid UTF-8 at byte " + at);
      }
    }
    const [prepared, names] = prepare(text, 3 * lim.maxDepth);
    let root: unknown;
    try {
      root = JSON.parse(prepared);
    } catch (e) {
      // the error as the text given has it (the prepared text is JSON exactly when it is)
      try {
        JSON.parse(text);
      } catch (original) {
        e = original;
      }
      throw new DecodeError("invalid JSON: " + (e instanceof Error ? e.message : String(e)));
    }
    if (members(root) !== names) duplicateName(text);
    if (SURROGATE_ESCAPE.test(text)) checkStrings(root); // every string, the unknown members' too (docs/limits.md 7)
    return new JsonReader(root, lim, size, size === text.length && text.indexOf("\\") === -1);
  }

  private charge(cost: number, field: string): void {
    this.budget -= cost;
    if (this.budget < 0) throw new DecodeError("decode budget exceeded", field, -1, "budget");
  }

  /** Charges what default values made for members the document left out cost (docs/limits.md 3). */
  spend(cost: number, field: string): void {
    this.charge(cost, field);
  }

  /**
   * Enters a struct read from `v` (an object), costing `cost` (and `nested`, what the default structs
   * it holds cost, which the budget left must cover before the value is made: Reader.struct); the
   * caller reads its members and calls leave.
   */
  struct(v: unknown, cost: number, nested = 0): JsonObject {
    if (!isObject(v)) throw mismatch("object", v, "");
    if (this.depth >= this.limits.maxDepth) {
      throw new DecodeError("structs nested deeper than " + this.limits.maxDepth, "", -1, "depth");
    }
    this.charge(cost, "");
    if (this.budget < nested) throw new DecodeError("decode budget exceeded", "", -1, "budget");
    this.depth++;
    return v as JsonObject;
  }

  leave(): void {
    this.depth--;
  }

  /** The member `name` of a struct's object, undefined when the document leaves it out. */
  member(o: JsonObject, name: string): unknown {
    return Object.prototype.hasOwnProperty.call(o, name) ? o[name] : undefined;
  }

  // ------------------------------------------------------------ values

  bool(v: unknown, field: string): boolean {
    if (typeof v !== "boolean") throw mismatch("boolean", v, field);
    return v;
  }

  private integer(v: unknown, lo: bigint, hi: bigint, field: string): bigint {
    const text = numberText(v);
    if (text === undefined || !INTEGER.test(text)) throw mismatch("integer", v, field);
    const x = BigInt(text);
    if (x < lo || x > hi) throw new DecodeError("JSON integer " + text + " out of range", field);
    return x;
  }

  /** An integer of at most 32 bits in [lo, hi]. */
  int(v: unknown, lo: number, hi: number, field: string): number {
    if (typeof v === "number" && v >= lo && v <= hi) return v === 0 ? 0 : v; // not -0
    return Number(this.integer(v, BigInt(lo), BigInt(hi), field));
  }

  /** A 64-bit integer (also timestamps) in [lo, hi]. */
  int64(v: unknown, lo: bigint, hi: bigint, field: string): bigint {
    if (typeof v === "number") {
      const x = BigInt(v);
      if (x >= lo && x <= hi) return x;
    }
    return this.integer(v, lo, hi, field);
  }

  /** A char: 0..255, or the original's signed-char output 4294967168..4294967295. */
  char(v: unknown, field: string): number {
    const text = numberText(v);
    if (text === undefined || !INTEGER.test(text)) throw mismatch("integer", v, field);
    const x = BigInt(text);
    if ((x >= 0n && x <= 0xffn) || (x >= 0xffffff80n && x <= 0xffffffffn)) return Number(x & 0xffn);
    throw new DecodeError("JSON char " + text + " out of range", field);
  }

  /** A double: any JSON number, or the strings "NaN", "Infinity", "-Infinity". */
  double(v: unknown, field: string): number {
    if (typeof v === "number") return v;
    if (typeof v === "string" && v.charCodeAt(0) === 9 && v.charCodeAt(1) !== 9) {
      const d = Number(v); // the tab is white space to Number
      if (!Number.isFinite(d)) throw new DecodeError("JSON number " + v.slice(1) + " out of double range", field);
      return d;
    }
    if (typeof v === "string" && v in NONFINITE) return NONFINITE[v]!;
    throw mismatch("number", v, field);
  }

  /** A float: the number rounded to binary32 (a finite number beyond the float range is an error). */
  float(v: unknown, field: string): number {
    const d = this.double(v, field);
    if (Number.isFinite(d) && Math.abs(d) > FLT_MAX) throw new DecodeError("JSON number " + d + " out of float range", field);
    return Math.fround(d);
  }

  /** A string, charged its length in bytes. */
  string(v: unknown, field: string): string {
    const t = stringOf(v);
    if (t === undefined) throw mismatch("string", v, field);
    return this.text(t, field);
  }

  /** A string's text, checked and charged its length in bytes. */
  private text(t: string, field: string): string {
    if (this.ascii) {
      this.charge(t.length, field);
      return t;
    }
    const s = fbeString(t, field);
    this.charge(utf8Length(s), field);
    return s;
  }

  /** Bytes from their Base64 (fromBase64), charged their length. */
  bytes(v: unknown, field: string): Uint8Array {
    const t = stringOf(v);
    if (t === undefined) throw mismatch("string", v, field);
    return this.base64(t, field);
  }

  private base64(t: string, field: string): Uint8Array {
    const b = fromBase64(t, field);
    this.charge(b.length, field);
    return b;
  }

  /** A decimal: its exact text, or a JSON number taken as a double and converted as the original does. */
  decimal(v: unknown, field: string): Decimal {
    const number = numberText(v);
    if (number !== undefined) {
      const d = Number(number);
      if (!Number.isFinite(d)) throw new DecodeError("JSON number " + quotePrefix(number) + " out of decimal range", field);
      return Decimal.fromNumber(d);
    }
    const t = stringOf(v);
    if (t === undefined) throw mismatch("string", v, field);
    return parseDecimal(t, field);
  }

  uuid(v: unknown, field: string): Uuid {
    const t = stringOf(v);
    if (t === undefined) throw mismatch("string", v, field);
    return parseUuid(t, field);
  }

  /** An array of collection elements, each costing `cost` (docs/limits.md 3). */
  array(v: unknown, cost: number, field: string): unknown[] {
    if (!Array.isArray(v)) throw mismatch("array", v, field);
    this.charge(v.length * cost, field);
    return v;
  }

  /** A fixed array's `n` elements (charged as part of their struct). */
  fixed(v: unknown, n: number, field: string): unknown[] {
    if (!Array.isArray(v)) throw mismatch("array", v, field);
    if (v.length !== n) throw new DecodeError("JSON array of " + n + " elements expected, got " + v.length, field);
    return v;
  }

  /** A map's object, each entry costing `cost`; its member names are the keys' text. */
  object(v: unknown, cost: number, field: string): JsonObject {
    if (!isObject(v)) throw mismatch("object", v, field);
    this.charge(Object.keys(v).length * cost, field);
    return v;
  }

  /** A map keyed by structs: an array of [key, value] pairs, each costing `cost`. */
  pairs(v: unknown, cost: number, field: string): [unknown, unknown][] {
    const items = this.array(v, cost, field);
    for (const p of items) {
      if (!Array.isArray(p) || p.length !== 2) throw new DecodeError("JSON [key, value] pair expected", field);
    }
    return items as [unknown, unknown][];
  }

  /** Refuses a set element or map key read twice (docs/limits.md 4 and 7). */
  duplicate(field: string, what: "key" | "element"): never {
    throw new DecodeError(what === "key" ? "two map keys read as the same key" : "two set elements read as the same element", field);
  }

  // ------------------------------------------------------------ map keys (member names)

  private keyInteger(k: string, lo: bigint, hi: bigint, field: string): bigint {
    if (!INT_KEY.test(k) || (lo >= 0n && k.includes("-"))) throw new DecodeError("invalid integer key " + JSON.stringify(k), field);
    const x = BigInt(k.trim());
    if (x < lo || x > hi) throw new DecodeError("integer key " + JSON.stringify(k) + " out of range", field);
    return x;
  }

  keyInt(k: string, lo: number, hi: number, field: string): number {
    return Number(this.keyInteger(k, BigInt(lo), BigInt(hi), field));
  }

  keyInt64(k: string, lo: bigint, hi: bigint, field: string): bigint {
    return this.keyInteger(k, lo, hi, field);
  }

  keyChar(k: string, field: string): number {
    return Number(this.keyInteger(k, -128n, 255n, field) & 0xffn);
  }

  keyBool(k: string, field: string): boolean {
    if (k === "1" || k === "true") return true;
    if (k === "0" || k === "false") return false;
    throw new DecodeError("invalid bool key " + JSON.stringify(k), field);
  }

  /** A double key: "NaN", "Infinity", "-Infinity" or a number's text, as C's strtod reads the whole key. */
  keyDouble(k: string, field: string): number {
    if (k in NONFINITE) return NONFINITE[k]!;
    const text = k.replace(/^[ \t\n\v\f\r]+/, "");
    if (REAL_KEY.test(text)) return Number(text);
    const special = SPECIAL_KEY.exec(text);
    if (special !== null) return special[2] === undefined ? NaN : special[1] === "-" ? -Infinity : Infinity;
    throw new DecodeError("invalid number key " + JSON.stringify(k), field);
  }

  keyFloat(k: string, field: string): number {
    return Math.fround(this.keyDouble(k, field));
  }

  keyString(k: string, field: string): string {
    return this.text(k, field);
  }

  keyDecimal(k: string, field: string): Decimal {
    return parseDecimal(k, field);
  }

  keyUuid(k: string, field: string): Uuid {
    return parseUuid(k, field);
  }

  keyBytes(k: string, field: string): Uint8Array {
    return this.base64(k, field);
  }
}

function parseDecimal(t: string, field: string): Decimal {
  try {
    return Decimal.parse(t);
  } catch (e) {
    throw new DecodeError(e instanceof Error ? e.message : String(e), field);
  }
}

function parseUuid(t: string, field: string): Uuid {
  try {
    return Uuid.parse(t);
  } catch {
    throw new DecodeError("invalid uuid " + JSON.stringify(t), field);
  }
}

/**
 * Bytes from their Base64: the standard alphabet with padding and nothing else, each byte string one
 * text (docs/limits.md 7); the original decodes up to the first character outside the alphabet.
 */
export function fromBase64(s: string, field = ""): Uint8Array {
  if (s.length % 4 !== 0 || !B64.test(s) || (s.length > 0 && !B64_END.test(s.slice(-3)))) {
    throw new DecodeError("invalid base64", field);
  }
  const out = new Uint8Array((s.length / 4) * 3);
  let n = 0;
  for (let i = 0; i < s.length; i += 4) {
    const a = B64_VALUES[s[i]!]!;
    const b = B64_VALUES[s[i + 1]!]!;
    const c = s[i + 2] === "=" ? -1 : B64_VALUES[s[i + 2]!]!;
    const d = s[i + 3] === "=" ? -1 : B64_VALUES[s[i + 3]!]!;
    out[n++] = (a << 2) | (b >> 4);
    if (c >= 0) out[n++] = ((b & 15) << 4) | (c >> 2);
    if (d >= 0) out[n++] = ((c & 3) << 6) | d;
  }
  return out.slice(0, n);
}
