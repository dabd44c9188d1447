/**
 * The original's text form of values (its operator<<, docs/format.md 9): on
 * one line, without spaces, strings and chars as their raw bytes. Generated
 * `toString()` methods print a struct with it:
 *
 *   Account(id=1,name="Test",state=initialized|bad,wallet=Balance(currency="USD",amount=1000),asset=null,orders=[0][])
 *
 * The text is a JavaScript string whose bytes that are not UTF-8 (a char of
 * 0x80..0xFF, a string's escaped bytes) are U+DC80..U+DCFF, so
 * `encodeUtf8(text)` is the original's bytes exactly.
 */

import { Decimal } from "./decimal.js";
import { percentF, percentG } from "./dtoa.js";
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
