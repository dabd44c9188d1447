/**
 * Reader checks and reads one root (docs/format.md 3 and 4) under the limits
 * of docs/limits.md: every block inside the root, versioned blocks in
 * allocation order (each starts at or after the end of the block read before
 * it, so no byte is decoded twice), every count bounded by the bytes left,
 * nesting bounded by `maxDepth` and every value it materializes charged to
 * the decode budget. The first problem throws a DecodeError naming the
 * field and the offset; generated code puts the path of the fields that
 * hold it in front as it leaves them. Verify is deserialize without keeping
 * the value, so it accepts exactly what deserialize accepts (docs/limits.md 4).
 */

import { Decimal } from "./decimal.js";
import { DecodeError } from "./errors.js";
import { budgetOf, DEFAULT_LIMITS, type Limits } from "./limits.js";
import { decodeUtf8 } from "./utf8.js";
import { Uuid } from "./uuid.js";

function le32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

export class Reader {
  /** The root's bytes, cut to its size. */
  readonly data: Uint8Array;
  readonly view: DataView;
  readonly limits: Limits;
  /** Versioned: the end of the last out-of-line block read. */
  private mark = 8;
  private budget: number;
  private depth = 0;
  /** The final model's cursor: the position of the next value. */
  pos = 8;
  /** The count of the collection `vector` checked last. */
  count = 0;

  private constructor(data: Uint8Array, lim: Limits) {
    this.data = data;
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    this.limits = lim;
    this.budget = budgetOf(lim, data.length);
  }

  /**
   * A reader of the versioned root in `data` (docs/format.md 3.2, docs/limits.md:
   * at least 16 bytes, a total size that fits the buffer). The top struct's slot is at 4 with base 0.
   */
  static versioned(data: Uint8Array, lim: Limits = DEFAULT_LIMITS): Reader {
    const n = data.length;
    if (n < 8) throw new DecodeError("versioned root shorter than 8 bytes", "", 0);
    const total = le32(data, 0);
    if (total < 16) throw new DecodeError("versioned root size " + total + " below 16", "", 0);
    if (total > n) throw new DecodeError("versioned root size " + total + " beyond the buffer of " + n + " bytes", "", 0);
    return new Reader(total === n ? data : data.subarray(0, total), lim);
  }

  /**
   * A reader of the final root in `data` (docs/format.md 4.1, 5.2: at least 8
   * bytes, the expected type id, a size that fits the buffer), its cursor at 8.
   */
  static final(data: Uint8Array, typeId: number, lim: Limits = DEFAULT_LIMITS): Reader {
    const n = data.length;
    if (n < 8) throw new DecodeError("final root shorter than 8 bytes", "", 0);
    const size = le32(data, 0);
    if (size < 8) throw new DecodeError("final root size " + size + " below 8", "", 0);
    const tid = le32(data, 4);
    if (tid !== typeId) throw new DecodeError("type id " + tid + " where " + typeId + " was expected", "", 4);
    if (size > n) throw new DecodeError("final root size " + size + " beyond the buffer of " + n + " bytes", "", 0);
    return new Reader(size === n ? data : data.subarray(0, size), lim);
  }

  /** The size of the root being read. */
  get size(): number {
    return this.data.length;
  }

  /** Charges `cost` bytes for a value materialized at `off` (a default struct, docs/limits.md 3). */
  spend(cost: number, off: number, field: string): void {
    this.budget -= cost;
    if (this.budget < 0) throw new DecodeError("decode budget exceeded", field, off, "budget");
  }

  private enter(cost: number, off: number, nested: number, size = 0, lacks?: (size: number) => string): void {
    if (this.depth >= this.limits.maxDepth) {
      throw new DecodeError("structs nested deeper than " + this.limits.maxDepth, "", off, "depth");
    }
    this.budget -= cost;
    // `nested`: what the default structs the value holds cost, which its read costs at least (read
    // or defaulted): refused before the value and its defaults are made, named as the older body's
    // defaults are (lacks: the first field a body of `size` bytes lacks, docs/limits.md 3)
    if (this.budget < nested) {
      throw new DecodeError("decode budget exceeded", lacks === undefined ? "" : lacks(size), off, "budget");
    }
    this.depth++;
  }

  /** Undoes a struct or enter. */
  leave(): void {
    this.depth--;
  }

  // ------------------------------------------------------------ slots at absolute positions
  // Generated code reads a slot only inside a body or block the Reader checked.

  bool(p: number): boolean {
    return this.data[p] !== 0;
  }
  u8(p: number): number {
    return this.data[p]!;
  }
  i8(p: number): number {
    return (this.data[p]! << 24) >> 24;
  }
  u16(p: number): number {
    return this.view.getUint16(p, true);
  }
  i16(p: number): number {
    return this.view.getInt16(p, true);
  }
  u32(p: number): number {
    return this.view.getUint32(p, true);
  }
  i32(p: number): number {
    return this.view.getInt32(p, true);
  }
  u64(p: number): bigint {
    return this.view.getBigUint64(p, true);
  }
  i64(p: number): bigint {
    return this.view.getBigInt64(p, true);
  }
  f32(p: number): number {
    return this.view.getFloat32(p, true);
  }
  f64(p: number): number {
    return this.view.getFloat64(p, true);
  }
  timestamp(p: number): bigint {
    return this.view.getBigUint64(p, true);
  }
  uuid(p: number): Uuid {
    return Uuid.read(this.data, p);
  }
  /** The decimal at `p`; flags beyond a scale 0..28 and the sign are refused (docs/format.md 2.4). */
  decimal(p: number, field: string): Decimal {
    const problem = Decimal.flagsError(this.view.getUint32(p + 12, true));
    if (problem !== undefined) throw new DecodeError(problem, field, p);
    return Decimal.read(this.view, p);
  }
  /** Checks the decimal at `p` as `decimal` does, without the value (verify). */
  skipDecimal(p: number, field: string): void {
    const problem = Decimal.flagsError(this.view.getUint32(p + 12, true));
    if (problem !== undefined) throw new DecodeError(problem, field, p);
  }

  // ------------------------------------------------------------ versioned model

  private backwards(what: string, p: number): string {
    return what + " at " + p + " before the end of the previous block (" + this.mark +
      "): out-of-line blocks must follow each other in allocation order";
  }

  /**
   * Enters the struct whose body the slot at `slot` points to (from `base`):
   * checks the header (8 bytes inside the root, body size at least 8 and
   * inside the root, the expected type id, allocation order), the depth and
   * the budget (`cost`: the struct's own charge, docs/limits.md 3; `nested`:
   * what the default structs it holds cost, which the budget left must
   * cover before the value is made; `lacks` names the first field a body of
   * its size lacks, "" when it holds them all: what that refusal names, as a
   * reader of the body would name its missing defaults). Returns the body's
   * position; the caller reads the fields present (the body size is
   * `u32(body)`) and calls leave. Its errors are the struct's own: the
   * caller's catch names the field holding it.
   */
  struct(base: number, slot: number, typeId: number, cost: number, nested = 0,
         lacks?: (size: number) => string): number {
    const off = this.u32(slot);
    if (off === 0) throw new DecodeError("struct offset 0", "", slot);
    const p = base + off;
    if (p < this.mark) throw new DecodeError(this.backwards("struct body", p), "", p);
    if (p + 8 > this.data.length) throw new DecodeError("struct header beyond the end of the buffer", "", p);
    const size = this.u32(p);
    if (size < 8) throw new DecodeError("struct body size " + size + " below 8", "", p);
    if (p + size > this.data.length) {
      throw new DecodeError("struct body of " + size + " bytes beyond the end of the buffer", "", p);
    }
    const tid = this.u32(p + 4);
    if (tid !== typeId) throw new DecodeError("type id " + tid + " where " + typeId + " was expected", "", p);
    this.mark = p + size;
    this.enter(cost, p, nested, size, lacks);
    return p;
  }

  /** Checks a length- or count-prefixed block at `p`: in allocation order, its 4 prefix bytes inside the root. */
  private block(what: string, p: number, field: string): void {
    if (p < this.mark) throw new DecodeError(this.backwards(what, p), field, p);
    if (p + 4 > this.data.length) throw new DecodeError(what + " size beyond the end of the buffer", field, p);
  }

  /** Checks and claims the bytes of a string or bytes block the slot points to; returns its position (-1: empty). */
  private payload(what: string, base: number, slot: number, field: string): number {
    const off = this.u32(slot);
    if (off === 0) return -1;
    const p = base + off;
    this.block(what, p, field);
    const n = this.u32(p);
    if (n > this.data.length - p - 4) {
      throw new DecodeError(what + " of " + n + " bytes beyond the end of the buffer", field, p);
    }
    this.mark = p + 4 + n;
    this.spend(n, p, field);
    return p;
  }

  /** The string whose block the slot points to (offset 0: empty). */
  string(base: number, slot: number, field: string): string {
    const p = this.payload("string", base, slot, field);
    if (p < 0) return "";
    return decodeUtf8(this.data, p + 4, p + 4 + this.u32(p));
  }

  /** The bytes whose block the slot points to (a copy; offset 0: empty). */
  blob(base: number, slot: number, field: string): Uint8Array {
    const p = this.payload("bytes", base, slot, field);
    if (p < 0) return new Uint8Array(0);
    return this.data.slice(p + 4, p + 4 + this.u32(p));
  }

  /** Checks and charges a string as `string` does, without decoding it (verify). */
  skipString(base: number, slot: number, field: string): void {
    this.payload("string", base, slot, field);
  }

  /** Checks and charges bytes as `blob` does, without copying them (verify). */
  skipBlob(base: number, slot: number, field: string): void {
    this.payload("bytes", base, slot, field);
  }

  /**
   * Checks the collection block the slot points to: a count, then that many
   * slots of `item` bytes (a map's: key and value slot), each element costing
   * `cost` (docs/limits.md 3: 0 for struct elements, charged as structs).
   * Returns the position of the first slot; the count is in `count` (offset 0: empty).
   */
  vector(base: number, slot: number, item: number, cost: number, field: string): number {
    const off = this.u32(slot);
    if (off === 0) {
      this.count = 0;
      return 0;
    }
    const p = base + off;
    this.block("collection", p, field);
    const n = this.u32(p);
    if (n * item > this.data.length - p - 4) throw new DecodeError("count " + n + " exceeds the buffer", field, p);
    this.mark = p + 4 + n * item;
    this.spend(n * cost, p, field);
    this.count = n;
    return p + 4;
  }

  /**
   * The optional slot at `slot`: -1 when absent, else the position of its
   * value slot of `size` bytes (claimed in allocation order), which is the
   * value's base (docs/format.md 3.4).
   */
  optional(base: number, slot: number, size: number, field: string): number {
    if (this.data[slot] === 0) return -1;
    const off = this.u32(slot + 1);
    if (off === 0) throw new DecodeError("present optional with offset 0", field, slot);
    const p = base + off;
    if (p < this.mark) throw new DecodeError(this.backwards("optional value", p), field, p);
    if (p + size > this.data.length) throw new DecodeError("value slot beyond the end of the buffer", field, p);
    this.mark = p + size;
    return p;
  }

  /** Refuses a set element or map key read twice (docs/limits.md 4); `off` is the collection's position. */
  duplicate(field: string, off: number): never {
    throw new DecodeError("duplicate key: two entries read as the same key", field, off);
  }

  // ------------------------------------------------------------ final model

  /** Checks that the fields covered the root exactly (docs/format.md 5.2). */
  endFinal(): void {
    if (this.pos !== this.data.length) {
      throw new DecodeError("final root covers " + this.pos + " bytes, its size says " + this.data.length, "", 0);
    }
  }

  /** Claims the next `n` bytes of a final root (fixed-size values) and returns their position. */
  fixed(n: number, field: string): number {
    const p = this.pos;
    if (n > this.data.length - p) throw new DecodeError("value beyond the end of the buffer", field, p);
    this.pos = p + n;
    return p;
  }

  private finalPayload(what: string, field: string): number {
    const p = this.pos;
    if (4 > this.data.length - p) throw new DecodeError(what + " size beyond the end of the buffer", field, p);
    const n = this.u32(p);
    if (n > this.data.length - p - 4) {
      throw new DecodeError(what + " of " + n + " bytes beyond the end of the buffer", field, p);
    }
    this.spend(n, p, field);
    this.pos = p + 4 + n;
    return p;
  }

  /** A length and the bytes of a string at the cursor. */
  finalString(field: string): string {
    const p = this.finalPayload("string", field);
    return decodeUtf8(this.data, p + 4, this.pos);
  }

  /** A length and the bytes at the cursor (a copy). */
  finalBlob(field: string): Uint8Array {
    const p = this.finalPayload("bytes", field);
    return this.data.slice(p + 4, this.pos);
  }

  /** Checks, charges and passes a string at the cursor (verify). */
  finalSkipString(field: string): void {
    this.finalPayload("string", field);
  }

  /** Checks, charges and passes bytes at the cursor (verify). */
  finalSkipBlob(field: string): void {
    this.finalPayload("bytes", field);
  }

  /**
   * A collection's count at the cursor; `item` is the fewest bytes one
   * element takes (so a count cannot exceed what the bytes left could hold),
   * `cost` what one element costs (docs/limits.md 3).
   */
  finalCount(item: number, cost: number, field: string): number {
    const p = this.pos;
    if (4 > this.data.length - p) throw new DecodeError("collection size beyond the end of the buffer", field, p);
    const n = this.u32(p);
    if (n * item > this.data.length - p - 4) throw new DecodeError("count " + n + " exceeds the buffer", field, p);
    this.spend(n * cost, p, field);
    this.pos = p + 4;
    return n;
  }

  /** An optional's presence byte at the cursor. */
  finalHas(field: string): boolean {
    if (this.pos >= this.data.length) {
      throw new DecodeError("optional flag beyond the end of the buffer", field, this.pos);
    }
    return this.data[this.pos++] !== 0;
  }

  /**
   * Starts a final-model struct value costing `cost` bytes (depth and budget; `nested` as for
   * struct); the caller reads its fields and calls leave.
   */
  enterFinal(cost: number, nested = 0): void {
    this.enter(cost, this.pos, nested);
  }
}
