/**
 * FBE strings on the wire are bytes, usually UTF-8 (docs/format.md 2.5). A
 * JavaScript string holds them as Python's `surrogateescape` does
 * (docs/limits.md 7): valid UTF-8 sequences as their characters and each
 * byte that is not part of one as the lone surrogate U+DC80..U+DCFF, so any
 * bytes read as a string write back the same. Only the codec path's web
 * APIs are used (TextEncoder, TextDecoder): it runs in browsers too.
 */

import { EncodeError } from "./errors.js";

const encoder = new TextEncoder();
const fatalDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Strings this long or longer go through TextEncoder/TextDecoder; shorter ones through a loop. */
const NATIVE_FROM = 48;

function wellFormed(s: string): boolean {
  const f = (s as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  if (f !== undefined) return f.call(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c >= 0xdc00 || i + 1 >= s.length) return false;
      const d = s.charCodeAt(i + 1);
      if (d < 0xdc00 || d > 0xdfff) return false;
      i++;
    }
  }
  return true;
}

/** The number of bytes `s` takes (lone surrogates U+DC80..U+DCFF are one byte each). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // 4 bytes for 2 code units
        i++;
      } else n += 2;
    } else if (c >= 0xdc80 && c <= 0xdcff) {
      // an escaped byte: one byte
    } else n += 2;
  }
  return n;
}

/**
 * Writes `s` as bytes into `out` at `at` (room for `3 * s.length` bytes must
 * be there) and returns the number of bytes written. A lone surrogate other
 * than an escaped byte (U+DC80..U+DCFF) cannot be written: EncodeError.
 */
export function encodeInto(s: string, out: Uint8Array, at: number): number {
  if (s.length >= NATIVE_FROM && wellFormed(s)) {
    return encoder.encodeInto(s, out.subarray(at)).written;
  }
  let p = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[p++] = 0xf0 | (c >> 18);
          out[p++] = 0x80 | ((c >> 12) & 0x3f);
          out[p++] = 0x80 | ((c >> 6) & 0x3f);
          out[p++] = 0x80 | (c & 0x3f);
          i++;
          continue;
        }
      }
      if (c >= 0xdc80 && c <= 0xdcff) {
        out[p++] = c - 0xdc00; // an escaped byte (surrogateescape)
        continue;
      }
      throw new EncodeError(
        "string holds the lone surrogate U+" + c.toString(16).toUpperCase() + " at index " + i +
          " (only U+DC80..U+DCFF, escaped bytes, can be written)",
      );
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return p - at;
}

/** `s` as bytes (see encodeInto). */
export function encodeUtf8(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 3);
  const n = encodeInto(s, out, 0);
  return out.slice(0, n);
}

/** The length of the valid UTF-8 sequence at `p` (before `end`), or 0 when the byte there starts none. */
function sequence(b: Uint8Array, p: number, end: number): number {
  const c = b[p]!;
  if (c < 0x80) return 1;
  if (c < 0xc2) return 0;
  const cont = (k: number) => p + k < end && (b[p + k]! & 0xc0) === 0x80;
  if (c < 0xe0) return cont(1) ? 2 : 0;
  if (c < 0xf0) {
    if (!cont(1) || !cont(2)) return 0;
    const d = b[p + 1]!;
    if (c === 0xe0 && d < 0xa0) return 0; // overlong
    if (c === 0xed && d >= 0xa0) return 0; // an encoded surrogate
    return 3;
  }
  if (c < 0xf5) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const d = b[p + 1]!;
    if (c === 0xf0 && d < 0x90) return 0; // overlong
    if (c === 0xf4 && d >= 0x90) return 0; // above U+10FFFF
    return 4;
  }
  return 0;
}

function decodeLoop(b: Uint8Array, start: number, end: number): string {
  let s = "";
  let p = start;
  while (p < end) {
    const c = b[p]!;
    if (c < 0x80) {
      s += String.fromCharCode(c);
      p++;
      continue;
    }
    const n = sequence(b, p, end);
    if (n === 0) {
      s += String.fromCharCode(0xdc00 + c); // not UTF-8: the byte escaped
      p++;
    } else if (n === 2) {
      s += String.fromCharCode(((c & 0x1f) << 6) | (b[p + 1]! & 0x3f));
      p += 2;
    } else if (n === 3) {
      s += String.fromCharCode(((c & 0x0f) << 12) | ((b[p + 1]! & 0x3f) << 6) | (b[p + 2]! & 0x3f));
      p += 3;
    } else {
      s += String.fromCodePoint(
        ((c & 0x07) << 18) | ((b[p + 1]! & 0x3f) << 12) | ((b[p + 2]! & 0x3f) << 6) | (b[p + 3]! & 0x3f),
      );
      p += 4;
    }
  }
  return s;
}

/** The bytes `b[start:end]` as a string: UTF-8, each byte of no valid sequence as U+DC80..U+DCFF. */
export function decodeUtf8(b: Uint8Array, start = 0, end = b.length): string {
  if (end - start < NATIVE_FROM) return decodeLoop(b, start, end);
  try {
    return fatalDecoder.decode(b.subarray(start, end));
  } catch {
    return decodeLoop(b, start, end);
  }
}

/** Whether `b` is valid UTF-8 throughout. */
export function isUtf8(b: Uint8Array): boolean {
  for (let p = 0; p < b.length; ) {
    const n = sequence(b, p, b.length);
    if (n === 0) return false;
    p += n;
  }
  return true;
}
