/** The FBE uuid (docs/format.md 2.3): 16 bytes in the order of the text form. */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function random(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

let uuid1Last = 0n;
let uuid1Clock = -1;
let uuid1Node: Uint8Array | undefined;

/** An immutable uuid. `toString()` is the canonical lowercase text with dashes. */
export class Uuid {
  /** The 16 bytes; do not change them (a Uuid is a value). */
  readonly bytes: Uint8Array;
  #text: string | undefined; // toString's, made once (private: not part of the value)

  static readonly NIL = new Uuid(new Uint8Array(16));

  /** The uuid of 16 bytes (copied). */
  constructor(bytes: Uint8Array) {
    if (bytes.length !== 16) throw new RangeError("a uuid is 16 bytes, not " + bytes.length);
    this.bytes = bytes.slice();
  }

  /** The uuid of 16 bytes at `p` of `b`. */
  static read(b: Uint8Array, p: number): Uuid {
    return new Uuid(b.subarray(p, p + 16));
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
    if (uuid1Node === undefined) {
      const r = random(8);
      uuid1Node = r.slice(0, 6);
      uuid1Node[0]! |= 0x01; // multicast bit: not a real MAC address (RFC 4122 4.5)
      uuid1Clock = (r[6]! << 8) | r[7]!;
    }
    // 100 ns intervals since 1582-10-15.
    let t = BigInt(Date.now()) * 10000n + 0x01b21dd213814000n;
    if (t <= uuid1Last) t = uuid1Last + 1n;
    uuid1Last = t;
    const lo = Number(t & 0xffffffffn);
    const mid = Number((t >> 32n) & 0xffffn);
    const hi = Number((t >> 48n) & 0x0fffn);
    const u = new Uint8Array(16);
    u[0] = lo >>> 24;
    u[1] = (lo >>> 16) & 0xff;
    u[2] = (lo >>> 8) & 0xff;
    u[3] = lo & 0xff;
    u[4] = mid >>> 8;
    u[5] = mid & 0xff;
    u[6] = (hi >>> 8) | 0x10;
    u[7] = hi & 0xff;
    u[8] = ((uuid1Clock >>> 8) & 0x3f) | 0x80;
    u[9] = uuid1Clock & 0xff;
    u.set(uuid1Node, 10);
    return new Uuid(u);
  }

  toString(): string {
    if (this.#text === undefined) {
      const b = this.bytes;
      let s = "";
      for (let i = 0; i < 16; i++) {
        if (i === 4 || i === 6 || i === 8 || i === 10) s += "-";
        s += HEX[b[i]!]!;
      }
      this.#text = s;
    }
    return this.#text;
  }

  toJSON(): string {
    return this.toString();
  }

  equals(other: Uuid): boolean {
    return this.compare(other) === 0;
  }

  /** Orders uuids by their bytes (docs/ir.md: order "bytes"). */
  compare(other: Uuid): number {
    const a = this.bytes;
    const b = other.bytes;
    for (let i = 0; i < 16; i++) {
      if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    }
    return 0;
  }
}
