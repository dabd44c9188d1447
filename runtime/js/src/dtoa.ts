/**
 * The JSON text of a double (docs/format.md 8.4): RapidJSON master's
 * Writer::Double, whose digits come from Grisu2 (F. Loitsch, "Printing
 * floating-point numbers quickly and accurately with integers", PLDI 2010).
 * Its text reads back to the same value but is not always the shortest such
 * text (which is what Number.prototype.toString gives: 1e23 is
 * 9.999999999999999e22 here). A port of the Go runtime's dtoa.go and the C++
 * runtime's fbe/dtoa.h; Python's fbe.jsonfmt implements the same rule and
 * the tests compare the two on random bit patterns. 64-bit arithmetic on bigints.
 *
 * Layout (RapidJSON's Prettify): digits d1..dn times 10^k, kk = n + k:
 * k >= 0 and kk <= 21: the integer and ".0"; 0 < kk <= 21: a fraction;
 * -6 < kk <= 0: "0." and zeros; otherwise d1.d2..dn "e" (kk-1). Zero is
 * "0.0" or "-0.0".
 */

const M64 = (1n << 64n) - 1n;

// 10^(8i - 348) for i = 0..86 as f * 2^e, f the 64-bit significand rounded to nearest (RapidJSON's table).
const CACHED: [bigint, number][] = [
  [0xfa8fd5a0081c0288n, -1220], [0xbaaee17fa23ebf76n, -1193], [0x8b16fb203055ac76n, -1166],
  [0xcf42894a5dce35ean, -1140], [0x9a6bb0aa55653b2dn, -1113], [0xe61acf033d1a45dfn, -1087],
  [0xab70fe17c79ac6can, -1060], [0xff77b1fcbebcdc4fn, -1034], [0xbe5691ef416bd60cn, -1007],
  [0x8dd01fad907ffc3cn, -980], [0xd3515c2831559a83n, -954], [0x9d71ac8fada6c9b5n, -927],
  [0xea9c227723ee8bcbn, -901], [0xaecc49914078536dn, -874], [0x823c12795db6ce57n, -847],
  [0xc21094364dfb5637n, -821], [0x9096ea6f3848984fn, -794], [0xd77485cb25823ac7n, -768],
  [0xa086cfcd97bf97f4n, -741], [0xef340a98172aace5n, -715], [0xb23867fb2a35b28en, -688],
  [0x84c8d4dfd2c63f3bn, -661], [0xc5dd44271ad3cdban, -635], [0x936b9fcebb25c996n, -608],
  [0xdbac6c247d62a584n, -582], [0xa3ab66580d5fdaf6n, -555], [0xf3e2f893dec3f126n, -529],
  [0xb5b5ada8aaff80b8n, -502], [0x87625f056c7c4a8bn, -475], [0xc9bcff6034c13053n, -449],
  [0x964e858c91ba2655n, -422], [0xdff9772470297ebdn, -396], [0xa6dfbd9fb8e5b88fn, -369],
  [0xf8a95fcf88747d94n, -343], [0xb94470938fa89bcfn, -316], [0x8a08f0f8bf0f156bn, -289],
  [0xcdb02555653131b6n, -263], [0x993fe2c6d07b7facn, -236], [0xe45c10c42a2b3b06n, -210],
  [0xaa242499697392d3n, -183], [0xfd87b5f28300ca0en, -157], [0xbce5086492111aebn, -130],
  [0x8cbccc096f5088ccn, -103], [0xd1b71758e219652cn, -77], [0x9c40000000000000n, -50],
  [0xe8d4a51000000000n, -24], [0xad78ebc5ac620000n, 3], [0x813f3978f8940984n, 30],
  [0xc097ce7bc90715b3n, 56], [0x8f7e32ce7bea5c70n, 83], [0xd5d238a4abe98068n, 109],
  [0x9f4f2726179a2245n, 136], [0xed63a231d4c4fb27n, 162], [0xb0de65388cc8ada8n, 189],
  [0x83c7088e1aab65dbn, 216], [0xc45d1df942711d9an, 242], [0x924d692ca61be758n, 269],
  [0xda01ee641a708dean, 295], [0xa26da3999aef774an, 322], [0xf209787bb47d6b85n, 348],
  [0xb454e4a179dd1877n, 375], [0x865b86925b9bc5c2n, 402], [0xc83553c5c8965d3dn, 428],
  [0x952ab45cfa97a0b3n, 455], [0xde469fbd99a05fe3n, 481], [0xa59bc234db398c25n, 508],
  [0xf6c69a72a3989f5cn, 534], [0xb7dcbf5354e9becen, 561], [0x88fcf317f22241e2n, 588],
  [0xcc20ce9bd35c78a5n, 614], [0x98165af37b2153dfn, 641], [0xe2a0b5dc971f303an, 667],
  [0xa8d9d1535ce3b396n, 694], [0xfb9b7cd9a4a7443cn, 720], [0xbb764c4ca7a44410n, 747],
  [0x8bab8eefb6409c1an, 774], [0xd01fef10a657842cn, 800], [0x9b10a4e5e9913129n, 827],
  [0xe7109bfba19c0c9dn, 853], [0xac2820d9623bf429n, 880], [0x80444b5e7aa7cf85n, 907],
  [0xbf21e44003acdd2dn, 933], [0x8e679c2f5e44ff8fn, 960], [0xd433179d9c8cb841n, 986],
  [0x9e19db92b4e31ba9n, 1013], [0xeb96bf6ebadf77d9n, 1039], [0xaf87023b9bf0ee6bn, 1066],
];

const POW10: bigint[] = Array.from({ length: 20 }, (_, i) => 10n ** BigInt(i));

interface Fp {
  f: bigint;
  e: number;
}

function leadingZeros(f: bigint): number {
  let n = 0;
  while (n < 64 && (f & (1n << BigInt(63 - n))) === 0n) n++;
  return n;
}

function normalized(f: bigint, e: number): Fp {
  const s = leadingZeros(f);
  return { f: (f << BigInt(s)) & M64, e: e - s };
}

/** The upper 64 bits of the 128-bit product, rounded half up. */
function multiply(a: Fp, b: Fp): Fp {
  const p = a.f * b.f;
  return { f: (p >> 64n) + ((p >> 63n) & 1n), e: a.e + b.e + 64 };
}

function integerDigits(x: bigint): number {
  let n = 1;
  while (n < 9 && x >= POW10[n]!) n++;
  return n;
}

function roundTowardsValue(digits: number[], delta: bigint, rest: bigint, unit: bigint, distance: bigint): void {
  const last = digits.length - 1;
  while (rest < distance && delta - rest >= unit && (rest + unit < distance || distance - rest > rest + unit - distance)) {
    digits[last]!--;
    rest += unit;
  }
}

const view = new DataView(new ArrayBuffer(8));

/** Grisu2's digits of a finite value > 0 (its bits) and the decimal exponent k: value ~ digits * 10^k. */
function grisu2(b: bigint): [number[], number] {
  const biased = Number(b >> 52n);
  let f = b & ((1n << 52n) - 1n);
  let e = -1074;
  if (biased !== 0) {
    f += 1n << 52n;
    e = biased - 1075;
  }
  const upper = normalized((f << 1n) + 1n, e - 1);
  let lower: Fp = f === 1n << 52n ? { f: (f << 2n) - 1n, e: e - 2 } : { f: (f << 1n) - 1n, e: e - 1 };
  lower = { f: (lower.f << BigInt(lower.e - upper.e)) & M64, e: upper.e };

  const dk = (-61 - upper.e) * 0.30102999566398114 + 347;
  let ik = Math.trunc(dk);
  if (dk - ik > 0.0) ik++;
  const index = (ik >> 3) + 1;
  let k = 348 - 8 * index;
  const [cf, ce] = CACHED[index]!;
  const c: Fp = { f: cf, e: ce };

  const w = multiply(normalized(f, e), c);
  const top = multiply(upper, c);
  const bottom = multiply(lower, c).f + 1n;
  top.f -= 1n;
  let delta = top.f - bottom;

  const shift = BigInt(-top.e);
  const one = 1n << shift;
  const distance = top.f - w.f;
  let integral = top.f >> shift;
  let fraction = top.f & (one - 1n);
  const digits: number[] = [];
  for (let kappa = integerDigits(integral); kappa > 0; ) {
    kappa--;
    const unit = POW10[kappa]!;
    const d = integral / unit;
    integral %= unit;
    if (d !== 0n || digits.length !== 0) digits.push(Number(d));
    const rest = (integral << shift) + fraction;
    if (rest <= delta) {
      k += kappa;
      roundTowardsValue(digits, delta, rest, POW10[kappa]! << shift, distance);
      return [digits, k];
    }
  }
  for (let places = 1; ; places++) {
    fraction *= 10n;
    delta *= 10n;
    const d = fraction >> shift;
    if (d !== 0n || digits.length !== 0) digits.push(Number(d));
    fraction &= one - 1n;
    if (fraction < delta) {
      k -= places;
      const scaled = places < 20 ? distance * POW10[places]! : 0n;
      roundTowardsValue(digits, delta, fraction, one, scaled);
      return [digits, k];
    }
  }
}

/** The shortest digits of a finite value > 0 and their exponent: value ~ digits * 10^k (no zeros at either end). */
function shortest(value: number): [string, number] {
  const r = String(value);
  const e = r.indexOf("e");
  const mantissa = e < 0 ? r : r.slice(0, e);
  let k = e < 0 ? 0 : parseInt(r.slice(e + 1), 10);
  const dot = mantissa.indexOf(".");
  let digits = mantissa;
  if (dot >= 0) {
    digits = mantissa.slice(0, dot) + mantissa.slice(dot + 1);
    k -= mantissa.length - dot - 1;
  }
  let start = 0;
  while (digits.charCodeAt(start) === 0x30) start++;
  let end = digits.length;
  while (end > start && digits.charCodeAt(end - 1) === 0x30) end--;
  k += digits.length - end;
  return [digits.slice(start, end), k];
}

/**
 * Whether Grisu2 surely prints `digits` * 10^q, the shortest text of a value
 * > 0 (its bits): a normal value whose shortest text has at most 15 digits
 * (the only candidate of its length in the rounding interval) lying farther
 * than 2^-5 ulp from both ends of the interval (Grisu2's interval is narrower
 * by at most about 2^-60 of the value). As Python's fbe.jsonfmt.
 */
function shortestIsGrisu(bits: bigint, digits: string, q: number): boolean {
  if (digits.length > 15) return false;
  const biased = Number(bits >> 52n);
  if (biased === 0) return false; // subnormal: the interval is wide, several candidates
  const f = (bits & ((1n << 52n) - 1n)) + (1n << 52n);
  const e = biased - 1075;
  const lo = 4n * f - (f === 1n << 52n && biased > 1 ? 1n : 2n);
  const hi = 4n * f + 2n;
  let n = BigInt(digits) * 8n;
  let den = 1n;
  if (q >= 0) n *= 10n ** BigInt(q);
  else den = 10n ** BigInt(-q);
  if (e >= 2) den <<= BigInt(e - 2);
  else n <<= BigInt(2 - e);
  return (8n * lo + 1n) * den < n && n < (8n * hi - 1n) * den;
}

/**
 * The JSON number text of a finite double as RapidJSON master writes it;
 * NaN and infinities as "NaN", "Infinity", "-Infinity" (unquoted: JSON
 * writers quote them).
 */
export function jsonDouble(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const sign = value < 0 ? "-" : "";
  const magnitude = Math.abs(value);
  // An integer below 2^53 is exact and Grisu2's digits are its decimal digits.
  if (magnitude < 9007199254740992 && Number.isInteger(magnitude)) return sign + magnitude + ".0";
  view.setFloat64(0, magnitude);
  const bits = view.getBigUint64(0);
  // the shortest text (what toString gives), when Grisu2 surely prints the same digits; else Grisu2
  let [text, k] = shortest(magnitude);
  if (!shortestIsGrisu(bits, text, k)) {
    const [digits, kg] = grisu2(bits);
    text = digits.join("");
    k = kg;
  }
  const n = text.length;
  const kk = n + k;
  if (k >= 0 && kk <= 21) return sign + text + "0".repeat(k) + ".0";
  if (kk > 0 && kk <= 21) return sign + text.slice(0, kk) + "." + text.slice(kk);
  if (kk > -6 && kk <= 0) return sign + "0." + "0".repeat(-kk) + text;
  return sign + text[0] + (n > 1 ? "." + text.slice(1) : "") + "e" + (kk - 1);
}

/** The exact value of a finite double as m * 2^e (m >= 0) and its sign. */
function exact(value: number): [bigint, number, boolean] {
  const negative = value < 0 || Object.is(value, -0);
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let mantissa = bits & ((1n << 52n) - 1n);
  let e = -1074;
  if (biased !== 0) {
    mantissa += 1n << 52n;
    e = biased - 1075;
  }
  return [mantissa, e, negative];
}

/** m * 2^e * 10^p rounded half to even to an integer (exact). */
function scaled(m: bigint, e: number, p: number): bigint {
  let num = m * (p > 0 ? 10n ** BigInt(p) : 1n);
  let den = p < 0 ? 10n ** BigInt(-p) : 1n;
  if (e >= 0) num <<= BigInt(e);
  else den <<= BigInt(-e);
  let q = num / den;
  const twice = (num % den) * 2n;
  if (twice > den || (twice === den && (q & 1n) === 1n)) q += 1n;
  return q;
}

/** C's printf("%f") of a finite double: its exact value rounded half to even to 6 fraction digits. */
export function percentF(value: number): string {
  const [m, e, negative] = exact(value);
  const digits = scaled(m, e, 6).toString().padStart(7, "0");
  return (negative ? "-" : "") + digits.slice(0, -6) + "." + digits.slice(-6);
}

/**
 * C's printf("%g") (precision 6, what the original's streams print): 6
 * significant digits of the exact value rounded half to even, trailing zeros
 * dropped, the exponent form ("1e+10", "1.5e-05") below 1e-4 and from 1e6;
 * "inf", "-inf", "nan", "-0".
 */
export function percentG(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [m, e, negative] = exact(value);
  let x = Math.floor(Math.log10(Math.abs(value)));
  let q = scaled(m, e, 5 - x); // 6 digits, unless the guess of x was off by one
  if (q >= 1000000n) {
    x++;
    q = scaled(m, e, 5 - x);
  } else if (q < 100000n) {
    x--;
    q = scaled(m, e, 5 - x);
  }
  if (q >= 1000000n) {
    // rounding carried into a new digit (9.999995 -> 10.0000)
    x++;
    q /= 10n;
  }
  const digits = q.toString();
  const sign = negative ? "-" : "";
  if (x < -4 || x >= 6) {
    const mantissa = trimFraction(digits[0] + "." + digits.slice(1));
    const ex = Math.abs(x);
    return sign + mantissa + "e" + (x < 0 ? "-" : "+") + (ex < 10 ? "0" + ex : String(ex));
  }
  if (x >= 0) return sign + trimFraction(digits.slice(0, x + 1) + "." + digits.slice(x + 1));
  return sign + trimFraction("0." + "0".repeat(-x - 1) + digits);
}

/** Text with a decimal point without its trailing fraction zeros (and the point when nothing follows). */
function trimFraction(text: string): string {
  let end = text.length;
  while (text.charCodeAt(end - 1) === 0x30) end--;
  if (text.charCodeAt(end - 1) === 0x2e) end--;
  return text.slice(0, end);
}
