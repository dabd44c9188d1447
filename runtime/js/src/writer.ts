/**
 * Writer builds one root in one growing buffer, in the original's allocation
 * order (docs/format.md 3.5): nothing is inserted in the middle and nothing
 * allocated ahead. A Writer is reused: `reset()` keeps the buffer.
 *
 * Versioned code allocates blocks (alloc, struct, string, vector, optional)
 * and fills slots at absolute positions (put*); final code appends (append*).
 * Every value is little-endian (docs/format.md 1).
 */

import { Decimal } from "./decimal.js";
import { EncodeError } from "./errors.js";
import { MAX_DEPTH } from "./limits.js";
import { encodeInto } from "./utf8.js";
import { Uuid } from "./uuid.js";

const MAX_U32 = 0xffffffff;

/**
 * Refuses a value its slot cannot hold exactly (an integer out of range, a number where a bigint
 * goes). The checks below are shared with JsonWriter: both writers refuse the same values.
 */
function range(what: string, v: unknown): never {
  throw new EncodeError(
    (typeof v === "number" || typeof v === "bigint" ? "" + v : "a " + typeof v) + " is not a valid " + what + " value",
  );
}
export const u8 = (v: number) => ((v & 0xff) === v ? v : range("uint8", v));
export const i8 = (v: number) => ((v << 24) >> 24 === v ? v : range("int8", v));
export const u16 = (v: number) => ((v & 0xffff) === v ? v : range("uint16", v));
export const i16 = (v: number) => ((v << 16) >> 16 === v ? v : range("int16", v));
export const u32 = (v: number) => (v >>> 0 === v ? v : range("uint32", v));
export const i32 = (v: number) => ((v | 0) === v ? v : range("int32", v));
export const u64 = (v: bigint) => (typeof v === "bigint" && BigInt.asUintN(64, v) === v ? v : range("uint64", v));
export const i64 = (v: bigint) => (typeof v === "bigint" && BigInt.asIntN(64, v) === v ? v : range("int64", v));
export const f64 = (v: number) => (typeof v === "number" ? v : range("floating-point", v));
export const bool = (v: boolean) => (typeof v === "boolean" ? v : range("bool", v));
export const uuidValue = (v: Uuid) => (v instanceof Uuid ? v : range("uuid (fbe.Uuid)", v));
export const decimalValue = (v: Decimal) => (v instanceof Decimal ? v : range("decimal (fbe.Decimal)", v));
export const stringValue = (v: string) => (typeof v === "string" ? v : range("string", v));
export const bytesValue = (v: Uint8Array) => (v instanceof Uint8Array ? v : range("bytes (Uint8Array)", v));

export class Writer {
  /** The buffer; the root is `buffer.subarray(0, size)`. */
  buffer: Uint8Array;
  view: DataView;
  /** The number of bytes written. */
  size = 0;
  /** The deepest struct nesting written: nobody writes what no reader reads (docs/limits.md 1). */
  maxDepth: number;
  private depth = 0;

  constructor(capacity = 256, maxDepth = MAX_DEPTH) {
    this.buffer = new Uint8Array(capacity);
    this.view = new DataView(this.buffer.buffer);
    this.maxDepth = maxDepth;
  }

  /** Empties the writer, keeping its buffer. */
  reset(): void {
    this.size = 0;
    this.depth = 0;
  }

  /** A copy of the bytes written. */
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.size);
  }

  /** The bytes written, not copied: overwritten by the next use of the writer. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.size);
  }

  private grow(need: number): void {
    let cap = this.buffer.length * 2;
    while (cap < need) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.buffer.subarray(0, this.size));
    this.buffer = b;
    this.view = new DataView(b.buffer);
  }

  /** Makes room for `n` more bytes without allocating them (final-model appends). */
  reserve(n: number): void {
    if (this.size + n > this.buffer.length) this.grow(this.size + n);
  }

  /**
   * One struct level deeper; an EncodeError beyond `maxDepth`. Generated code
   * calls it only for structs that can nest without a bound (docs/limits.md 1).
   */
  enter(): void {
    if (++this.depth > this.maxDepth) {
      this.depth = 0;
      throw new EncodeError("structs nested deeper than " + this.maxDepth, "", "depth");
    }
  }

  /** Undoes enter. */
  leave(): void {
    this.depth--;
  }

  /**
   * Appends `n` bytes that the caller writes every one of and returns their
   * position: not zeroed, so a reused buffer's old bytes stay until written
   * (zeroing them cost the versioned writer 40% of its time).
   */
  private claim(n: number): number {
    const p = this.size;
    const end = p + n;
    if (end > this.buffer.length) this.grow(end);
    this.size = end;
    return p;
  }

  /** Appends `n` zero bytes and returns their position. */
  alloc(n: number): number {
    const p = this.size;
    const end = p + n;
    if (end > this.buffer.length) this.grow(end);
    else this.buffer.fill(0, p, end);
    this.size = end;
    return p;
  }

  // ------------------------------------------------------------ slots at absolute positions

  putBool(p: number, v: boolean): void {
    this.buffer[p] = bool(v) ? 1 : 0;
  }
  putU8(p: number, v: number): void {
    this.buffer[p] = u8(v);
  }
  putI8(p: number, v: number): void {
    this.buffer[p] = i8(v);
  }
  putU16(p: number, v: number): void {
    this.view.setUint16(p, u16(v), true);
  }
  putI16(p: number, v: number): void {
    this.view.setInt16(p, i16(v), true);
  }
  putU32(p: number, v: number): void {
    this.view.setUint32(p, u32(v), true);
  }
  putI32(p: number, v: number): void {
    this.view.setInt32(p, i32(v), true);
  }
  putU64(p: number, v: bigint): void {
    this.view.setBigUint64(p, u64(v), true);
  }
  putI64(p: number, v: bigint): void {
    this.view.setBigInt64(p, i64(v), true);
  }
  putF32(p: number, v: number): void {
    this.view.setFloat32(p, f64(v), true);
  }
  putF64(p: number, v: number): void {
    this.view.setFloat64(p, f64(v), true);
  }
  putTimestamp(p: number, v: bigint): void {
    this.view.setBigUint64(p, u64(v), true);
  }
  putUuid(p: number, v: Uuid): void {
    uuidValue(v).write(this.buffer, p);
  }
  putDecimal(p: number, v: Decimal): void {
    decimalValue(v).write(this.view, p);
  }

  // ------------------------------------------------------------ versioned model

  /** Starts a versioned root (docs/format.md 3.2): 8 header bytes, the top struct's slot at 4 with base 0. */
  beginVersioned(): void {
    this.reset();
    this.claim(8); // the size (endVersioned) and the top struct's offset (its struct())
  }

  /** Stores the root's total size. */
  endVersioned(): void {
    this.putU32(0, this.size);
  }

  private offset(base: number, slot: number, p: number): void {
    const d = p - base;
    if (d > MAX_U32) throw new EncodeError("root larger than 4 GiB");
    this.view.setUint32(slot, d, true);
  }

  /**
   * Allocates a struct body of `bodySize` bytes, stores its offset in the slot
   * at absolute position `slot` (relative to `base`) and writes its header;
   * returns the body's position, the base of its fields. The body is not
   * zeroed: the caller writes every field (an absent optional with `none`).
   */
  struct(base: number, slot: number, bodySize: number, typeId: number): number {
    const p = this.claim(bodySize);
    this.offset(base, slot, p);
    this.view.setUint32(p, bodySize, true);
    this.view.setUint32(p + 4, typeId, true);
    return p;
  }

  /** Appends a length-prefixed string block and returns its position. */
  private stringBlock(s: string): number {
    stringValue(s);
    const p = this.size;
    const room = 4 + s.length * 3;
    if (p + room > this.buffer.length) this.grow(p + room);
    const n = encodeInto(s, this.buffer, p + 4);
    this.view.setUint32(p, n, true);
    this.size = p + 4 + n;
    return p;
  }

  private blobBlock(b: Uint8Array): number {
    bytesValue(b);
    if (b.length > MAX_U32) throw new EncodeError("bytes longer than 4 GiB");
    const p = this.claim(4 + b.length);
    this.view.setUint32(p, b.length, true);
    this.buffer.set(b, p + 4);
    return p;
  }

  /** A string block, its offset stored in the slot (docs/format.md 3.4). */
  string(base: number, slot: number, s: string): void {
    this.offset(base, slot, this.stringBlock(s));
  }

  /** A bytes block, its offset stored in the slot. */
  blob(base: number, slot: number, b: Uint8Array): void {
    this.offset(base, slot, this.blobBlock(b));
  }

  /**
   * Allocates a collection block of `n` slots of `item` bytes (a map's item is
   * a key slot and a value slot), stores its offset and the count, and
   * returns the position of the first slot; the caller writes every slot (not
   * zeroed, as `struct`). The elements' base stays the slot's base
   * (docs/format.md 3.4).
   */
  vector(base: number, slot: number, n: number, item: number): number {
    if (n > MAX_U32) throw new EncodeError("collection of more than 2^32 elements");
    const p = this.claim(4 + n * item);
    this.view.setUint32(p, n, true);
    this.offset(base, slot, p);
    return p + 4;
  }

  /**
   * Marks the optional slot at `slot` present, allocates its value slot of
   * `size` bytes (the caller writes it) and returns its position: the value's
   * base. An absent optional is written by `none`.
   */
  optional(base: number, slot: number, size: number): number {
    const p = this.claim(size);
    this.buffer[slot] = 1;
    this.offset(base, slot + 1, p);
    return p;
  }

  /** Marks the optional slot at `slot` absent: its flag and offset zero. */
  none(slot: number): void {
    this.buffer[slot] = 0;
    this.view.setUint32(slot + 1, 0, true);
  }

  // ------------------------------------------------------------ final model

  /** Starts a final root (docs/format.md 4.1): size and type id come at endFinal. */
  beginFinal(): void {
    this.reset();
    this.claim(8); // the size and the type id (endFinal)
  }

  /** Stores the final root's size and type id. */
  endFinal(typeId: number): void {
    this.view.setUint32(0, this.size, true);
    this.view.setUint32(4, typeId, true);
  }

  appendBool(v: boolean): void {
    const b = bool(v) ? 1 : 0;
    this.reserve(1);
    this.buffer[this.size++] = b;
  }
  appendU8(v: number): void {
    const b = u8(v);
    this.reserve(1);
    this.buffer[this.size++] = b;
  }
  appendI8(v: number): void {
    const b = i8(v);
    this.reserve(1);
    this.buffer[this.size++] = b;
  }
  appendU16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.size, u16(v), true);
    this.size += 2;
  }
  appendI16(v: number): void {
    this.reserve(2);
    this.view.setInt16(this.size, i16(v), true);
    this.size += 2;
  }
  appendU32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.size, u32(v), true);
    this.size += 4;
  }
  appendI32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.size, i32(v), true);
    this.size += 4;
  }
  appendU64(v: bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.size, u64(v), true);
    this.size += 8;
  }
  appendI64(v: bigint): void {
    this.reserve(8);
    this.view.setBigInt64(this.size, i64(v), true);
    this.size += 8;
  }
  appendF32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.size, f64(v), true);
    this.size += 4;
  }
  appendF64(v: number): void {
    this.reserve(8);
    this.view.setFloat64(this.size, f64(v), true);
    this.size += 8;
  }
  appendTimestamp(v: bigint): void {
    this.appendU64(v);
  }
  appendUuid(v: Uuid): void {
    uuidValue(v);
    this.reserve(16);
    v.write(this.buffer, this.size);
    this.size += 16;
  }
  appendDecimal(v: Decimal): void {
    decimalValue(v);
    this.reserve(16);
    v.write(this.view, this.size);
    this.size += 16;
  }

  /** Appends a collection's count (final model). */
  appendCount(n: number): void {
    if (n > MAX_U32) throw new EncodeError("collection of more than 2^32 elements");
    this.appendU32(n);
  }

  /** Appends a length and the bytes of `s` (final model). */
  appendString(s: string): void {
    this.stringBlock(s);
  }

  /** Appends a length and the bytes of `b` (final model). */
  appendBlob(b: Uint8Array): void {
    this.blobBlock(b);
  }
}
