/**
 * The exact FBE decimal (docs/format.md 2.4): a 96-bit magnitude, a scale
 * 0..28 and a sign, the value being ±magnitude / 10^scale, kept as a bigint.
 */

const MAX_MAGNITUDE = (1n << 96n) - 1n;
const POW10F: number[] = (() => {
  const t = [1];
  for (let i = 1; i <= 28; i++) t.push(t[i - 1]! * 10);
  return t;
})();
const f64 = new Float64Array(1);
const f64bits = new BigUint64Array(f64.buffer);

/** The longest decimal text `Decimal.parse` reads (docs/limits.md 7). */
export const MAX_DECIMAL_TEXT = 64;

const RESERVED = 0x7f00ffff; // flag bits that are neither the scale nor the sign

/**
 * An exact decimal. Values made by `Decimal.parse`, `Decimal.fromNumber` and
 * `Decimal.of` are normalised (no trailing fraction zeros, zero never
 * negative); values read from a buffer keep the bytes they were read from
 * (`flags` as on the wire: 1.50 stays 1.50). Writers store every value
 * normalised (`write`): one value, one encoding. No Decimal holds a scale
 * above 28 (docs/format.md 2.4): `fromParts` refuses one, readers refuse the
 * bytes. Immutable.
 */
export class Decimal {
  /** The 96-bit magnitude. */
  readonly magnitude: bigint;
  /** The wire's flags word: scale << 16, the sign in bit 31. */
  readonly flags: number;

  static readonly ZERO = new Decimal(0n, 0);

  private constructor(magnitude: bigint, flags: number) {
    this.magnitude = magnitude;
    this.flags = flags >>> 0;
  }

  /** The decimal of the wire's parts, exactly as given (magnitude below 2^96, scale 0..28). */
  static fromParts(magnitude: bigint, scale: number, negative: boolean): Decimal {
    if (magnitude < 0n || magnitude > MAX_MAGNITUDE) throw new RangeError("decimal magnitude beyond 96 bits");
    if (!Number.isInteger(scale) || scale < 0 || scale > 28) throw new RangeError("decimal scale " + scale + " above 28");
    return new Decimal(magnitude, (scale << 16) | (negative ? 0x80000000 : 0));
  }

  /**
   * Why wire flags are refused (a scale above 28, reserved bits set: docs/format.md 2.4), or
   * undefined for a scale 0..28 and a sign.
   */
  static flagsError(flags: number): string | undefined {
    const scale = (flags >>> 16) & 0xff;
    if (scale > 28) return "decimal scale " + scale + " above 28";
    if ((flags & RESERVED) !== 0) {
      return "decimal flags 0x" + (flags >>> 0).toString(16).toUpperCase().padStart(8, "0") + ": reserved bits set";
    }
    return undefined;
  }

  /** The decimal of 16 wire bytes at `p` of `view`, kept as they are (the Reader checks the flags first). */
  static read(view: DataView, p: number): Decimal {
    const lo = view.getBigUint64(p, true);
    const hi = view.getUint32(p + 8, true);
    const flags = view.getUint32(p + 12, true);
    if (hi === 0 && flags === 0) {
      if (lo === 0n) return Decimal.ZERO;
      return new Decimal(lo, 0);
    }
    return new Decimal(lo | (BigInt(hi) << 64n), flags);
  }

  /** Writes the 16 wire bytes at `p` of `view`: the value normalised, the one form writers store. */
  write(view: DataView, p: number): void {
    const d = this.normalized();
    view.setBigUint64(p, d.magnitude & 0xffffffffffffffffn, true);
    view.setUint32(p + 8, Number(d.magnitude >> 64n), true);
    view.setUint32(p + 12, d.flags, true);
  }

  /** This value without trailing fraction zeros and without a sign on zero (1.50 is 1.5). */
  normalized(): Decimal {
    if ((this.flags & 0x7fffffff) === 0 && (this.flags === 0 || this.magnitude !== 0n)) return this;
    if (this.magnitude === 0n) return Decimal.ZERO;
    let m = this.magnitude;
    let scale = this.scale;
    while (scale > 0 && m % 10n === 0n) {
      m /= 10n;
      scale--;
    }
    return new Decimal(m, (scale << 16) | (this.flags & 0x80000000));
  }

  get scale(): number {
    return (this.flags >>> 16) & 0xff;
  }

  get negative(): boolean {
    return (this.flags & 0x80000000) !== 0;
  }

  isZero(): boolean {
    return this.magnitude === 0n;
  }

  /**
   * A double converted as the original writer converts it (docs/format.md 2.4:
   * 15 significant digits), so the bytes match its.
   */
  static fromNumber(v: number): Decimal {
    f64[0] = v;
    const bits = f64bits[0]!;
    const x = Number((bits >> 52n) & 0x7ffn) - 1022;
    if (x < -94 || x > 96) return Decimal.ZERO;
    const neg = bits >> 63n !== 0n;
    let d = Math.abs(v);
    let p = 14 - ((x * 19728) >> 16);
    if (p >= 0) {
      p = Math.min(p, 28);
      d *= POW10F[p]!;
    } else if (p !== -1 || d >= 1e15) {
      d /= POW10F[-p]!;
    } else {
      p = 0;
    }
    if (d < 1e14 && p < 28) {
      d *= 10;
      p++;
    }
    let m = Math.trunc(d);
    const f = d - m;
    let mb = BigInt(m);
    if (f > 0.5 || (f === 0.5 && (mb & 1n) !== 0n)) mb += 1n;
    if (mb === 0n) return Decimal.ZERO;
    if (p < 0) return Decimal.fromParts(mb * 10n ** BigInt(-p), 0, neg);
    let budget = Math.min(14, p);
    for (const [n, div] of [[8, 100000000n], [4, 10000n], [2, 100n], [1, 10n]] as const) {
      if (n <= budget && mb % div === 0n) {
        mb /= div;
        p -= n;
        budget -= n;
      }
    }
    return Decimal.fromParts(mb, p, neg);
  }

  /** The original reader's conversion: magnitude / 10^scale as a double, negated when the sign is set. */
  toNumber(): number {
    const scale = this.scale;
    const lo = Number(this.magnitude & 0xffffffffffffffffn);
    const hi = Number(this.magnitude >> 64n);
    const den = scale < POW10F.length ? POW10F[scale]! : Math.pow(10, scale);
    const f = (lo + hi * 18446744073709551616.0) / den;
    return this.negative ? -f : f;
  }

  /** The exact value in plain notation (`"-123.456"`, `"0.001"`): `scale` digits after the point. */
  toString(): string {
    let s = this.magnitude.toString();
    const scale = this.scale;
    if (s.length <= scale) s = "0".repeat(scale - s.length + 1) + s;
    if (scale > 0) s = s.slice(0, s.length - scale) + "." + s.slice(s.length - scale);
    return this.negative && this.magnitude !== 0n ? "-" + s : s;
  }

  /** Whether both have the same wire bytes. */
  equals(other: Decimal): boolean {
    return this.magnitude === other.magnitude && this.flags === other.flags;
  }

  /** -1, 0 or 1 as this value is below, equal to or above `other` (exact: 1.5 equals 1.50, -0 equals 0). */
  compare(other: Decimal): number {
    if (this.flags === other.flags) {
      const c = this.magnitude < other.magnitude ? -1 : this.magnitude > other.magnitude ? 1 : 0;
      return this.negative ? -c : c;
    }
    const a = this.signedAt(Math.max(this.scale, other.scale));
    const b = other.signedAt(Math.max(this.scale, other.scale));
    return a < b ? -1 : a > b ? 1 : 0;
  }

  private signedAt(scale: number): bigint {
    const m = this.magnitude * 10n ** BigInt(scale - this.scale);
    return this.negative ? -m : m;
  }

  /** The decimal of an integer (a bigint or a safe integer number), scale 0. */
  static of(v: bigint | number): Decimal {
    const b = typeof v === "bigint" ? v : BigInt(v);
    const neg = b < 0n;
    const m = neg ? -b : b;
    if (m > MAX_MAGNITUDE) throw new RangeError("decimal " + b + " out of range: more than 96 bits");
    return m === 0n ? Decimal.ZERO : Decimal.fromParts(m, 0, neg);
  }

  /**
   * Reads exact decimal text `[+|-]digits[.digits][(e|E)[+|-]digits]` as every
   * runtime of the toolkit reads it (docs/format.md 2.4): at most
   * MAX_DECIMAL_TEXT characters, and a value some decimal holds (at most 28
   * fraction digits once trailing zeros are dropped, a magnitude below 2^96),
   * never rounded; the value has no trailing fraction zeros ("1.50" is 1.5).
   * Text of another form is a SyntaxError, a value no decimal holds a
   * RangeError; either quotes at most the text's first 32 characters.
   */
  static parse(text: string): Decimal {
    if (text.length > MAX_DECIMAL_TEXT) {
      throw new RangeError("decimal text longer than " + MAX_DECIMAL_TEXT + " characters: " + quotePrefix(text));
    }
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?$/.exec(text);
    if (m === null || (m[2] === "" && (m[3] ?? "") === "")) throw new SyntaxError("invalid decimal " + quotePrefix(text));
    const frac = m[3] ?? "";
    const digits = (m[2]! + frac).replace(/^0+/, "");
    if (digits === "") return Decimal.ZERO;
    const significant = digits.replace(/0+$/, "");
    // the value is significant * 10^power (at most 62 exponent digits: the number is exact enough
    // to decide, as a power that large is refused either way)
    const exponent = m[5] === undefined ? 0 : Number(m[5]) * (m[4] === "-" ? -1 : 1);
    const power = exponent - frac.length + (digits.length - significant.length);
    if (power < -28) throw new RangeError("decimal " + quotePrefix(text) + " has more than 28 fraction digits");
    const outOfRange = () => new RangeError("decimal " + quotePrefix(text) + " out of range: more than 96 bits");
    if (significant.length + Math.max(power, 0) > 29) throw outOfRange();
    const mag = BigInt(significant) * 10n ** BigInt(Math.max(power, 0));
    if (mag > MAX_MAGNITUDE) throw outOfRange();
    return Decimal.fromParts(mag, Math.max(-power, 0), m[1] === "-");
  }
}

/**
 * `text` in double quotes for an error message, cut to its first 32 characters (then "..."): an
 * error never quotes a whole hostile input (docs/limits.md 7).
 */
export function quotePrefix(text: string): string {
  return '"' + text.slice(0, 32) + '"' + (text.length > 32 ? "..." : "");
}
