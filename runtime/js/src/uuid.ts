/** The FBE uuid (docs/format.md 2.3): 16 bytes in the order of the text form. */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function random(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

function word(b: ArrayLike<number>, p: number): number {
  return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
}

let uuid1Hi = 0; // the last uuid1 time, 100 ns intervals since 1582-10-15, as two 32-bit halves
let uuid1Lo = 0;
let uuid1Clock = -1;
let uuid1Node0 = 0; // the random node id: its first 2 bytes, then 4
let uuid1Node1 = 0;

/**
 * An immutable uuid, held as four 32-bit words (no buffer of its own).
 * `toString()` is the canonical lowercase text with dashes; `bytes` its 16 bytes.
 */
export class Uuid {
  private readonly w0: number;
  private readonly w1: number;
  private readonly w2: number;
  private readonly w3: number;

  static readonly NIL = new Uuid(new Uint8Array(16));

  /** The uuid of 16 bytes. */
  constructor(bytes: ArrayLike<number>) {
    if (bytes.length !== 16) throw new RangeError("a uuid is 16 bytes, not " + bytes.length);
    this.w0 = word(bytes, 0);
    this.w1 = word(bytes, 4);
    this.w2 = word(bytes, 8);
    this.w3 = word(bytes, 12);
  }

  private static of(w0: number, w1: number, w2: number, w3: number): Uuid {
    const u = Object.create(Uuid.prototype) as { w0: number; w1: number; w2: number; w3: number };
    u.w0 = w0;
    u.w1 = w1;
    u.w2 = w2;
    u.w3 = w3;
    return u as unknown as Uuid;
  }

  /** The uuid of 16 bytes at `p` of `b`. */
  static read(b: Uint8Array, p: number): Uuid {
    return Uuid.of(word(b, p), word(b, p + 4), word(b, p + 8), word(b, p + 12));
  }

  /** Writes the 16 bytes at `p` of `b`. */
  write(b: Uint8Array, p: number): void {
    const w = [this.w0, this.w1, this.w2, this.w3];
    for (let i = 0; i < 4; i++) {
      const x = w[i]!;
      b[p + 4 * i] = x >>> 24;
      b[p + 4 * i + 1] = (x >>> 16) & 0xff;
      b[p + 4 * i + 2] = (x >>> 8) & 0xff;
      b[p + 4 * i + 3] = x & 0xff;
    }
  }

  /** A copy of the 16 bytes. */
  get bytes(): Uint8Array {
    const b = new Uint8Array(16);
    this.write(b, 0);
    return b;
  }

  /**
   * The original's lenient parser: `-`, `{` and `}` are skipped anywhere, the
   * rest is read in pairs of hex digits of either case, reading stops after
   * 16 bytes and a short text leaves the rest zero; a non-hex digit is a SyntaxError.
   */
  static parse(text: string): Uuid {
    const u = new Uint8Array(16);
    let i = 0;
    let half = false;
    let acc = 0;
    for (let k = 0; k < text.length && i < 16; k++) {
      const c = text.charCodeAt(k);
      let v: number;
      if (c === 0x2d || c === 0x7b || c === 0x7d) continue;
      if (c >= 0x30 && c <= 0x39) v = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) v = c - 0x61 + 10;
      else if (c >= 0x41 && c <= 0x46) v = c - 0x41 + 10;
      else throw new SyntaxError('invalid hex digit in uuid "' + text + '"');
      if (half) u[i++] = (acc << 4) | v;
      else acc = v;
      half = !half;
    }
    return new Uuid(u);
  }

  /** A random uuid (version 4; the schema constant uuid4). */
  static v4(): Uuid {
    const u = random(16);
    u[6] = (u[6]! & 0x0f) | 0x40;
    u[8] = (u[8]! & 0x3f) | 0x80;
    return new Uuid(u);
  }

  /** A time-based uuid (version 1; the schema constant uuid1) with a random node id. */
  static v1(): Uuid {
    if (uuid1Clock < 0) {
      const r = random(8);
      uuid1Node0 = ((r[0]! | 0x01) << 8) | r[1]!; // multicast bit: not a real MAC address (RFC 4122 4.5)
      uuid1Node1 = word(r, 2);
      uuid1Clock = (r[6]! << 8) | r[7]!;
    }
    // 100 ns intervals since 1582-10-15: ms * 10000 + 0x01b21dd213814000, in 32-bit halves
    const ms = Date.now();
    const msHi = Math.floor(ms / 4294967296);
    let lo = (ms % 4294967296) * 10000 + 0x13814000;
    let hi = msHi * 10000 + 0x01b21dd2 + Math.floor(lo / 4294967296);
    lo %= 4294967296;
    if (hi < uuid1Hi || (hi === uuid1Hi && lo <= uuid1Lo)) {
      hi = uuid1Hi;
      lo = uuid1Lo + 1;
      if (lo === 4294967296) {
        lo = 0;
        hi++;
      }
    }
    uuid1Hi = hi;
    uuid1Lo = lo;
    // time_low, time_mid, version and time_hi, clock sequence and variant, node
    const w1 = (((hi & 0xffff) << 16) | (0x1000 | ((hi >>> 16) & 0x0fff))) >>> 0;
    const w2 = (((0x80 | ((uuid1Clock >>> 8) & 0x3f)) << 24) | ((uuid1Clock & 0xff) << 16) | uuid1Node0) >>> 0;
    return Uuid.of(lo >>> 0, w1, w2, uuid1Node1);
  }

  toString(): string {
    const hex = (x: number) => HEX[x >>> 24]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;
    const w1 = hex(this.w1);
    const w2 = hex(this.w2);
    return hex(this.w0) + "-" + w1.slice(0, 4) + "-" + w1.slice(4) + "-" + w2.slice(0, 4) + "-" + w2.slice(4) + hex(this.w3);
  }

  toJSON(): string {
    return this.toString();
  }

  equals(other: Uuid): boolean {
    return this.w0 === other.w0 && this.w1 === other.w1 && this.w2 === other.w2 && this.w3 === other.w3;
  }

  /** Orders uuids by their bytes (docs/ir.md: order "bytes"). */
  compare(other: Uuid): number {
    if (this.w0 !== other.w0) return this.w0 < other.w0 ? -1 : 1;
    if (this.w1 !== other.w1) return this.w1 < other.w1 ? -1 : 1;
    if (this.w2 !== other.w2) return this.w2 < other.w2 ? -1 : 1;
    if (this.w3 !== other.w3) return this.w3 < other.w3 ? -1 : 1;
    return 0;
  }
}
