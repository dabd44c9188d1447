//! JSON as the original writes it (docs/format.md 8): compact, members in declaration order,
//! byte-identical to the original's output for every value the original writes correctly.
//!
//! Where the original is wrong the rules are those of the other runtimes
//! (docs/cpp-json-protocol.md, runtime/go/fbe/json.go):
//!
//! - a char is its byte value 0..255 (the original went through a signed char);
//! - NaN and infinities are the strings `"NaN"`, `"Infinity"`, `"-Infinity"`;
//! - a decimal is its exact text with at least 6 fraction digits (`"123.456000"`);
//! - enum and flags map keys are their number, bytes keys their Base64 text;
//! - float and double map keys are C's `%f` when that reads back to the same value, otherwise
//!   the text of [`JsonWriter::f64`];
//! - a string may hold any bytes: each byte that is not part of valid UTF-8 is written as the
//!   escape `\udcXY` (docs/limits.md 7), so the output is valid UTF-8 and reads back to the same
//!   bytes.

use crate::{Decimal, DecodeError, EncodeError, ErrorKind, Timestamp, Uuid, MAX_DEPTH};

pub use crate::json_read::{unquote, JsonReader, Members};
pub use crate::json_value::{Char, HashPairs, JsonKey, JsonStruct, JsonValue};
pub use serde::de::{Deserializer, Error as DeError};

/// 10^(8i - 348) for i = 0..86 as a 64-bit significand and binary exponent (RapidJSON's table,
/// the same as runtime/go/fbe/dtoa.go and the C++ runtime's `kCachedPowers`).
const CACHED_POWERS: [(u64, i16); 87] = [
    (0xFA8FD5A0081C0288, -1220),
    (0xBAAEE17FA23EBF76, -1193),
    (0x8B16FB203055AC76, -1166),
    (0xCF42894A5DCE35EA, -1140),
    (0x9A6BB0AA55653B2D, -1113),
    (0xE61ACF033D1A45DF, -1087),
    (0xAB70FE17C79AC6CA, -1060),
    (0xFF77B1FCBEBCDC4F, -1034),
    (0xBE5691EF416BD60C, -1007),
    (0x8DD01FAD907FFC3C, -980),
    (0xD3515C2831559A83, -954),
    (0x9D71AC8FADA6C9B5, -927),
    (0xEA9C227723EE8BCB, -901),
    (0xAECC49914078536D, -874),
    (0x823C12795DB6CE57, -847),
    (0xC21094364DFB5637, -821),
    (0x9096EA6F3848984F, -794),
    (0xD77485CB25823AC7, -768),
    (0xA086CFCD97BF97F4, -741),
    (0xEF340A98172AACE5, -715),
    (0xB23867FB2A35B28E, -688),
    (0x84C8D4DFD2C63F3B, -661),
    (0xC5DD44271AD3CDBA, -635),
    (0x936B9FCEBB25C996, -608),
    (0xDBAC6C247D62A584, -582),
    (0xA3AB66580D5FDAF6, -555),
    (0xF3E2F893DEC3F126, -529),
    (0xB5B5ADA8AAFF80B8, -502),
    (0x87625F056C7C4A8B, -475),
    (0xC9BCFF6034C13053, -449),
    (0x964E858C91BA2655, -422),
    (0xDFF9772470297EBD, -396),
    (0xA6DFBD9FB8E5B88F, -369),
    (0xF8A95FCF88747D94, -343),
    (0xB94470938FA89BCF, -316),
    (0x8A08F0F8BF0F156B, -289),
    (0xCDB02555653131B6, -263),
    (0x993FE2C6D07B7FAC, -236),
    (0xE45C10C42A2B3B06, -210),
    (0xAA242499697392D3, -183),
    (0xFD87B5F28300CA0E, -157),
    (0xBCE5086492111AEB, -130),
    (0x8CBCCC096F5088CC, -103),
    (0xD1B71758E219652C, -77),
    (0x9C40000000000000, -50),
    (0xE8D4A51000000000, -24),
    (0xAD78EBC5AC620000, 3),
    (0x813F3978F8940984, 30),
    (0xC097CE7BC90715B3, 56),
    (0x8F7E32CE7BEA5C70, 83),
    (0xD5D238A4ABE98068, 109),
    (0x9F4F2726179A2245, 136),
    (0xED63A231D4C4FB27, 162),
    (0xB0DE65388CC8ADA8, 189),
    (0x83C7088E1AAB65DB, 216),
    (0xC45D1DF942711D9A, 242),
    (0x924D692CA61BE758, 269),
    (0xDA01EE641A708DEA, 295),
    (0xA26DA3999AEF774A, 322),
    (0xF209787BB47D6B85, 348),
    (0xB454E4A179DD1877, 375),
    (0x865B86925B9BC5C2, 402),
    (0xC83553C5C8965D3D, 428),
    (0x952AB45CFA97A0B3, 455),
    (0xDE469FBD99A05FE3, 481),
    (0xA59BC234DB398C25, 508),
    (0xF6C69A72A3989F5C, 534),
    (0xB7DCBF5354E9BECE, 561),
    (0x88FCF317F22241E2, 588),
    (0xCC20CE9BD35C78A5, 614),
    (0x98165AF37B2153DF, 641),
    (0xE2A0B5DC971F303A, 667),
    (0xA8D9D1535CE3B396, 694),
    (0xFB9B7CD9A4A7443C, 720),
    (0xBB764C4CA7A44410, 747),
    (0x8BAB8EEFB6409C1A, 774),
    (0xD01FEF10A657842C, 800),
    (0x9B10A4E5E9913129, 827),
    (0xE7109BFBA19C0C9D, 853),
    (0xAC2820D9623BF429, 880),
    (0x80444B5E7AA7CF85, 907),
    (0xBF21E44003ACDD2D, 933),
    (0x8E679C2F5E44FF8F, 960),
    (0xD433179D9C8CB841, 986),
    (0x9E19DB92B4E31BA9, 1013),
    (0xEB96BF6EBADF77D9, 1039),
    (0xAF87023B9BF0EE6B, 1066),
];

/// f * 2^e with a 64-bit significand ("do it yourself floating point").
#[derive(Clone, Copy)]
struct DiyFp {
    f: u64,
    e: i32,
}

impl DiyFp {
    fn normalized(f: u64, e: i32) -> DiyFp {
        let s = f.leading_zeros() as i32;
        DiyFp { f: f << s, e: e - s }
    }

    /// The upper 64 bits of the 128-bit product, rounded half up.
    fn multiply(self, b: DiyFp) -> DiyFp {
        let p = u128::from(self.f) * u128::from(b.f);
        let (hi, lo) = ((p >> 64) as u64, p as u64);
        DiyFp { f: hi + (lo >> 63), e: self.e + b.e + 64 }
    }
}

/// Lowers the last digit while the result stays inside the interval (rest + unit <= delta) and
/// gets closer to the scaled value, which lies `distance` below the interval's top.
fn round_towards_value(digits: &mut [u8], delta: u64, mut rest: u64, unit: u64, distance: u64) {
    let last = digits.len() - 1;
    while rest < distance
        && delta - rest >= unit
        && (rest.wrapping_add(unit) < distance || distance - rest > rest.wrapping_add(unit) - distance)
    {
        digits[last] -= 1;
        rest += unit;
    }
}

/// The Grisu2 digits of a finite value > 0 (given as its bits) with RapidJSON master's rounding
/// of the last digit, and the decimal exponent k: value ~ digits * 10^k.
fn grisu2(b: u64, digits: &mut Vec<u8>) -> i32 {
    let biased = (b >> 52) as i32;
    let mut f = b & ((1 << 52) - 1);
    let mut e = -1074;
    if biased != 0 {
        f += 1 << 52;
        e = biased - 1075;
    }
    // The rounding interval: its ends are half an ulp away (a quarter below a power of two),
    // scaled to the upper end's exponent.
    let upper = DiyFp::normalized((f << 1) + 1, e - 1);
    let mut lower =
        if f == 1 << 52 { DiyFp { f: (f << 2) - 1, e: e - 2 } } else { DiyFp { f: (f << 1) - 1, e: e - 1 } };
    lower.f <<= lower.e - upper.e;
    lower.e = upper.e;

    // A cached power 10^-k brings the upper end's exponent into [-60, -32]; k is chosen as
    // RapidJSON chooses it (the digits depend on that choice).
    let dk = f64::from(-61 - upper.e) * 0.30102999566398114 + 347.0;
    let mut ik = dk as i32;
    if dk - f64::from(ik) > 0.0 {
        ik += 1;
    }
    let index = ((ik >> 3) + 1) as usize;
    let mut k = 348 - 8 * index as i32;
    let (cf, ce) = CACHED_POWERS[index];
    let c = DiyFp { f: cf, e: i32::from(ce) };

    let w = DiyFp::normalized(f, e).multiply(c);
    let mut top = upper.multiply(c);
    let bottom = lower.multiply(c).f + 1;
    top.f -= 1;
    let mut delta = top.f - bottom;

    // Digits of the top end until the rest fits in the interval.
    let shift = (-top.e) as u32;
    let one = 1u64 << shift;
    let distance = top.f - w.f;
    let mut integral = (top.f >> shift) as u32;
    let mut fraction = top.f & (one - 1);
    let mut kappa = 1;
    while kappa < 9 && u64::from(integral) >= 10u64.pow(kappa) {
        kappa += 1;
    }
    while kappa > 0 {
        kappa -= 1;
        let unit = 10u32.pow(kappa);
        let d = integral / unit;
        integral %= unit;
        if d != 0 || !digits.is_empty() {
            digits.push(b'0' + d as u8);
        }
        let rest = (u64::from(integral) << shift) + fraction;
        if rest <= delta {
            k += kappa as i32;
            round_towards_value(digits, delta, rest, 10u64.pow(kappa) << shift, distance);
            return k;
        }
    }
    let mut places = 1;
    loop {
        fraction = fraction.wrapping_mul(10);
        delta = delta.wrapping_mul(10);
        let d = (fraction >> shift) as u8;
        if d != 0 || !digits.is_empty() {
            digits.push(b'0' + d);
        }
        fraction &= one - 1;
        if fraction < delta {
            k -= places;
            // distance is scaled by 10^places like delta and rest (RapidJSON 1.1.0 scaled it only
            // up to 10^8 and used 0 beyond: the wrong last digit)
            let scaled = if places < 20 { distance.wrapping_mul(10u64.pow(places as u32)) } else { 0 };
            round_towards_value(digits, delta, fraction, one, scaled);
            return k;
        }
        places += 1;
    }
}

/// Appends the JSON number text of a double as RapidJSON master's `Writer::Double` writes it
/// (docs/format.md 8.4): Grisu2's digits in RapidJSON's layout. NaN and infinities have no JSON
/// number ([`JsonWriter::f64`] quotes them); given one, this appends `NaN`, `Infinity` or
/// `-Infinity` unquoted.
///
/// ```
/// let mut s = Vec::new();
/// fbe::json::append_double(&mut s, 1e23);
/// assert_eq!(s, b"9.999999999999999e22");
/// ```
pub fn append_double(out: &mut Vec<u8>, value: f64) {
    if value.is_nan() {
        out.extend_from_slice(b"NaN");
        return;
    }
    if value.is_infinite() {
        out.extend_from_slice(if value < 0.0 { b"-Infinity" } else { b"Infinity" });
        return;
    }
    let mut b = value.to_bits();
    if b >> 63 != 0 {
        out.push(b'-');
        b &= !(1 << 63);
    }
    if b == 0 {
        out.extend_from_slice(b"0.0");
        return;
    }
    let magnitude = f64::from_bits(b);
    if magnitude < 9007199254740992.0 && magnitude.fract() == 0.0 {
        // An integer below 2^53 is exact and its ulp is at most 1: Grisu2's digits are its
        // decimal digits (the common case, written directly).
        out.extend_from_slice((magnitude as u64).to_string().as_bytes());
        out.extend_from_slice(b".0");
        return;
    }
    let mut digits = Vec::with_capacity(24);
    let k = grisu2(b, &mut digits);
    let n = digits.len() as i32;
    let kk = n + k; // 10^(kk-1) <= value < 10^kk
    if k >= 0 && kk <= 21 {
        out.extend_from_slice(&digits);
        out.extend(std::iter::repeat_n(b'0', k as usize));
        out.extend_from_slice(b".0");
    } else if kk > 0 && kk <= 21 {
        out.extend_from_slice(&digits[..kk as usize]);
        out.push(b'.');
        out.extend_from_slice(&digits[kk as usize..]);
    } else if kk > -6 && kk <= 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-kk) as usize));
        out.extend_from_slice(&digits);
    } else {
        out.push(digits[0]);
        if n > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        out.extend_from_slice((kk - 1).to_string().as_bytes());
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// Appends `prefix` and the two hex digits of `c`.
fn escape(out: &mut Vec<u8>, prefix: &[u8; 4], hex: &[u8; 16], c: u8) {
    out.extend_from_slice(prefix);
    out.extend_from_slice(&[hex[usize::from(c >> 4)], hex[usize::from(c & 15)]]);
}

/// Appends `s` as a JSON string literal: `"`, `\` and control characters escaped as RapidJSON
/// escapes them (`\b \t \n \f \r`, others `\u00XX`), `/` and valid UTF-8 as they are, and each
/// byte that is not part of valid UTF-8 as the escape `\udcXY` (U+DC80..U+DCFF, Python's
/// surrogateescape; docs/limits.md 7).
pub fn append_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for chunk in s.utf8_chunks() {
        for &c in chunk.valid().as_bytes() {
            match c {
                b'"' | b'\\' => out.extend_from_slice(&[b'\\', c]),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0c => out.extend_from_slice(b"\\f"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                0..=0x1f => escape(out, b"\\u00", HEX_UPPER, c),
                _ => out.push(c),
            }
        }
        for &c in chunk.invalid() {
            escape(out, b"\\udc", HEX_LOWER, c);
        }
    }
    out.push(b'"');
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the standard Base64 text of `b` with padding (RFC 4648 section 4), unquoted.
pub fn append_base64(out: &mut Vec<u8>, b: &[u8]) {
    for group in b.chunks(3) {
        let n = group.iter().enumerate().fold(0u32, |n, (i, &x)| n | u32::from(x) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(BASE64[(n >> (18 - 6 * i) & 63) as usize]);
            } else {
                out.push(b'=');
            }
        }
    }
}

/// The value of each character of [`BASE64`], 0xff for the others.
const BASE64_VALUES: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 64 {
        t[BASE64[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The bytes of strict standard Base64 (docs/limits.md 7): the alphabet `A–Z a–z 0–9 + /`, `=`
/// padding to a multiple of 4 characters and nothing else, and the unused bits of the last
/// character zero (`QR==` is refused where `QQ==` reads), so each byte string has exactly one
/// text. `None` for any other text ("invalid base64").
///
/// ```
/// assert_eq!(fbe::json::decode_base64(b"Zm8=").unwrap(), b"fo");
/// assert!(fbe::json::decode_base64(b"Zm8").is_none());
/// ```
pub fn decode_base64(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let sextet = |c: u8| match BASE64_VALUES[usize::from(c)] {
        0xff => None,
        v => Some(u32::from(v)),
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let groups = text.len() / 4;
    for (g, group) in text.chunks(4).enumerate() {
        let pad = group.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && g + 1 != groups) {
            return None;
        }
        let mut n = 0u32;
        for &c in &group[..4 - pad] {
            n = n << 6 | sextet(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pad;
        // the bits of the last character beyond the bytes kept must be zero
        if n & ((1u32 << (8 * pad as u32)) - 1) != 0 {
            return None;
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Some(out)
}

/// Checks a JSON document before it is parsed (docs/limits.md 7): valid UTF-8 (no overlong
/// forms, encoded surrogates or truncated sequences), no leading byte order mark, and arrays
/// and objects nested at most `3 * max_depth` deep (brackets inside strings skipped). Gives the
/// text, or the error naming the offset.
pub fn check_document(doc: &[u8], max_depth: usize) -> Result<&str, DecodeError> {
    let text = std::str::from_utf8(doc)
        .map_err(|e| DecodeError::new("invalid JSON: not valid UTF-8", "", Some(e.valid_up_to())))?;
    if text.starts_with('\u{feff}') {
        return Err(DecodeError::new("invalid JSON: a byte order mark is not JSON", "", Some(0)));
    }
    let limit = 3 * max_depth;
    // Nothing nests deeper than the opening brackets it holds, those in strings included: they
    // are counted first, the brackets followed outside the strings only where there are more
    // than the limit.
    if opening_brackets(doc) <= limit {
        return Ok(text);
    }
    let mut depth = 0usize;
    let mut bytes = doc.iter();
    while let Some(&c) = bytes.next() {
        match c {
            b'"' => skip_string(&mut bytes),
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Err(DecodeError::of_kind(
                        ErrorKind::Depth,
                        format!("invalid JSON: arrays and objects nested deeper than {limit}"),
                        "",
                        Some(doc.len() - bytes.len() - 1),
                    ));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(text)
}

/// The opening brackets (`[`, `{`) of a text, wherever they are: counted in a byte per 64 bytes
/// of text, which the compiler does 16 bytes at a time.
fn opening_brackets(doc: &[u8]) -> usize {
    let count = |part: &[u8]| usize::from(part.iter().map(|&c| u8::from(c == b'[' || c == b'{')).sum::<u8>());
    let chunks = doc.chunks_exact(64);
    let last = count(chunks.remainder());
    chunks.map(count).sum::<usize>() + last
}

/// Skips the bytes of a string up to its closing quote (all of them when it has none), the byte
/// after a backslash included.
#[inline(always)]
fn skip_string(bytes: &mut std::slice::Iter<'_, u8>) {
    while let Some(&c) = bytes.next() {
        match c {
            b'"' => return,
            b'\\' => {
                bytes.next();
            }
            _ => {}
        }
    }
}

/// Appends a float or double map key: C's `%f` when it reads back to the same value (`f32`: as
/// a float), otherwise the text of [`append_double`], so keys stay distinct and exact.
fn append_real_key(out: &mut Vec<u8>, k: f64, as_f32: bool) {
    if k.is_finite() {
        let text = format!("{k:.6}");
        let back: f64 = text.parse().unwrap_or(f64::NAN);
        let same = if as_f32 { back as f32 == k as f32 } else { back == k };
        if same && back.is_sign_negative() == k.is_sign_negative() {
            out.extend_from_slice(text.as_bytes());
            return;
        }
    }
    append_double(out, k);
}

/// Appends JSON values to a byte buffer ([`JsonWriter::out`]): the generated `to_json` methods
/// write a struct's members with it, punctuation and member names through [`JsonWriter::raw`].
///
/// ```
/// let mut j = fbe::json::JsonWriter::default();
/// j.raw("{\"price\":");
/// j.f64(1.23456);
/// j.raw(",\"data\":");
/// j.bytes(b"FBE");
/// j.raw("}");
/// assert_eq!(j.out, br#"{"price":1.23456,"data":"RkJF"}"#);
/// ```
#[derive(Clone, Debug, Default)]
pub struct JsonWriter {
    /// The text written so far.
    pub out: Vec<u8>,
    depth: usize,
}

impl JsonWriter {
    /// Enters a struct value of type `type_name`: one level deeper, refused beyond
    /// [`MAX_DEPTH`] (docs/limits.md 1), as the binary writers refuse it.
    pub fn enter(&mut self, type_name: &str) -> Result<(), EncodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(EncodeError::new(
                ErrorKind::Depth,
                format!("structs nested deeper than {MAX_DEPTH} ({type_name})"),
                "",
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Undoes a successful [`JsonWriter::enter`].
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Text as it is (member names and punctuation of generated code).
    pub fn raw(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    /// `null` (an absent optional).
    pub fn null(&mut self) {
        self.raw("null");
    }

    /// `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.raw(if v { "true" } else { "false" });
    }

    /// A signed integer (integers, enums and flags of signed types are JSON integers).
    pub fn int(&mut self, v: i64) {
        self.raw(&v.to_string());
    }

    /// An unsigned integer (also enums and flags of unsigned types).
    pub fn uint(&mut self, v: u64) {
        self.raw(&v.to_string());
    }

    /// A char: its byte value 0..255.
    pub fn char(&mut self, v: u8) {
        self.uint(v.into());
    }

    /// A wchar: its code value.
    pub fn wchar(&mut self, v: u32) {
        self.uint(v.into());
    }

    /// A timestamp: its nanoseconds since the epoch.
    pub fn timestamp(&mut self, v: Timestamp) {
        self.uint(v.0);
    }

    /// A double as RapidJSON master writes it ([`append_double`]); NaN and infinities as the
    /// strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
    pub fn f64(&mut self, v: f64) {
        if v.is_finite() {
            append_double(&mut self.out, v);
        } else {
            self.out.push(b'"');
            append_double(&mut self.out, v);
            self.out.push(b'"');
        }
    }

    /// A float, widened to double first as the original does (123.456f is
    /// `123.45600128173828`).
    pub fn f32(&mut self, v: f32) {
        self.f64(v.into());
    }

    /// A decimal as a string of its exact value with at least 6 fraction digits
    /// ([`Decimal::json_text`]: `"123.456000"`, the original's `%f` text whenever that was exact).
    pub fn decimal(&mut self, v: &Decimal) {
        self.out.push(b'"');
        self.raw(&v.json_text());
        self.out.push(b'"');
    }

    /// A uuid's canonical text as a string.
    pub fn uuid(&mut self, v: &Uuid) {
        self.raw(&format!("\"{v}\""));
    }

    /// A string literal ([`append_string`]).
    pub fn string(&mut self, v: &[u8]) {
        append_string(&mut self.out, v);
    }

    /// Bytes as standard Base64 with padding, as a string.
    pub fn bytes(&mut self, v: &[u8]) {
        self.out.push(b'"');
        append_base64(&mut self.out, v);
        self.out.push(b'"');
    }

    /// A string map key and the colon.
    pub fn key_string(&mut self, k: &[u8]) {
        self.string(k);
        self.out.push(b':');
    }

    /// A signed integer map key (also enums and flags of signed types).
    pub fn key_int(&mut self, k: i64) {
        self.raw(&format!("\"{k}\":"));
    }

    /// An unsigned integer map key (also char, wchar, timestamp, enums and flags of unsigned
    /// types).
    pub fn key_uint(&mut self, k: u64) {
        self.raw(&format!("\"{k}\":"));
    }

    /// A bool map key: `"1"` or `"0"`, as the original.
    pub fn key_bool(&mut self, k: bool) {
        self.raw(if k { "\"1\":" } else { "\"0\":" });
    }

    /// A double map key: C's `%f` (the original's text) when it reads back to the same value,
    /// otherwise the text of [`JsonWriter::f64`].
    pub fn key_f64(&mut self, k: f64) {
        self.out.push(b'"');
        append_real_key(&mut self.out, k, false);
        self.raw("\":");
    }

    /// A float map key: as [`JsonWriter::key_f64`], `%f` checked by reading it back as a float.
    pub fn key_f32(&mut self, k: f32) {
        self.out.push(b'"');
        append_real_key(&mut self.out, k.into(), true);
        self.raw("\":");
    }

    /// A decimal map key (the text of [`JsonWriter::decimal`]).
    pub fn key_decimal(&mut self, k: &Decimal) {
        self.decimal(k);
        self.out.push(b':');
    }

    /// A uuid map key.
    pub fn key_uuid(&mut self, k: &Uuid) {
        self.uuid(k);
        self.out.push(b':');
    }

    /// A bytes map key as its Base64 text.
    pub fn key_bytes(&mut self, k: &[u8]) {
        self.bytes(k);
        self.out.push(b':');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(v: f64) -> String {
        let mut s = Vec::new();
        append_double(&mut s, v);
        String::from_utf8(s).unwrap()
    }

    #[test]
    fn doubles_have_rapidjson_masters_digits_and_layout() {
        // docs/format.md 8.4 and its examples
        let cases: [(f64, &str); 20] = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (100.0, "100.0"),
            (1000.0, "1000.0"),
            (9007199254740992.0, "9007199254740992.0"),
            (1e20, "100000000000000000000.0"),
            (1.5, "1.5"),
            (1.23456, "1.23456"),
            (123456789.12345679, "123456789.12345679"),
            (0.1, "0.1"),
            (0.000001234, "0.000001234"),
            (1e21, "1e21"),
            (1e-7, "1e-7"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e308"),
            (1e23, "9.999999999999999e22"),
            (4.04925338542625e16, "40492533854262496.0"),
            (0.30000000000000004, "0.30000000000000004"),
            (f64::from(123.456f32), "123.45600128173828"),
            (f64::from(0.1f32), "0.10000000149011612"),
        ];
        for (v, want) in cases {
            assert_eq!(double(v), want, "{v:e}");
        }
    }

    #[test]
    fn doubles_read_back_to_the_same_value() {
        // a fixed-seed walk over bit patterns (xorshift), every finite one must parse back
        let mut x: u64 = 0x9E3779B97F4A7C15;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if v.is_finite() {
                let text = double(v);
                assert_eq!(text.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{text}");
            }
        }
    }

    #[test]
    fn non_finite_doubles_are_strings() {
        let mut j = JsonWriter::default();
        j.f64(f64::NAN);
        j.f64(f64::INFINITY);
        j.f32(f32::NEG_INFINITY);
        assert_eq!(j.out, br#""NaN""Infinity""-Infinity""#);
    }

    #[test]
    fn strings_escape_as_rapidjson_and_invalid_bytes_as_low_surrogates() {
        let mut out = Vec::new();
        append_string(&mut out, b"a\"\\/\x08\x0c\n\r\t\x01\x1f\x7f \xc3\xa9 \xff\xc3");
        assert_eq!(out, b"\"a\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001F\x7f \xc3\xa9 \\udcff\\udcc3\"");
    }

    #[test]
    fn bytes_are_padded_standard_base64() {
        for (b, want) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"\xfb\xff", "+/8="),
        ] {
            let mut out = Vec::new();
            append_base64(&mut out, b);
            assert_eq!(out, want.as_bytes());
        }
    }

    #[test]
    fn map_keys() {
        let mut j = JsonWriter::default();
        j.key_bool(true);
        j.key_int(-5);
        j.key_f64(1.5);
        j.key_f64(1e-7);
        j.key_f32(0.1);
        j.key_bytes(b"fo");
        assert_eq!(j.out, br#""1":"-5":"1.500000":"1e-7":"0.100000":"Zm8=":"#);
    }
    #[test]
    fn base64_is_strict() {
        for (text, want) in [
            (&b""[..], &b""[..]),
            (b"Zg==", b"f"),
            (b"Zm8=", b"fo"),
            (b"Zm9v", b"foo"),
            (b"QQ==", b"A"),
            (b"+/8=", b"\xfb\xff"),
        ] {
            assert_eq!(decode_base64(text).as_deref(), Some(want), "{}", String::from_utf8_lossy(text));
        }
        for text in [
            &b"A"[..],
            b"@@@@",
            b"QR==",
            b"Zm8",
            b"Zm8==",
            b"Zm9v\n",
            b"Zg=a",
            b"Z===",
            b"Zg==Zg==",
            b"-_8=",
            b"Zm9=",
            b" Zm8=",
        ] {
            assert!(decode_base64(text).is_none(), "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn base64_reads_back_what_it_writes() {
        let data: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for n in 0..data.len() {
            let mut text = Vec::new();
            append_base64(&mut text, &data[..n]);
            assert_eq!(decode_base64(&text).unwrap(), &data[..n]);
        }
    }

    #[test]
    fn documents_are_utf8_without_a_bom_and_nest_within_three_times_max_depth() {
        assert!(check_document(b"{\"a\":[1,{\"b\":\"[[[\\\"[\"}]}", 1).is_ok());
        assert!(check_document(b"\xef\xbb\xbf{}", 128).unwrap_err().message().contains("byte order mark"));
        for bad in [&b"\"\xc0\xaf\""[..], b"\"\xed\xa0\x80\"", b"\"\xf4\x90\x80\x80\"", b"\"\xc3"] {
            assert!(check_document(bad, 128).unwrap_err().message().contains("UTF-8"));
        }
        let deep = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        assert!(check_document(&deep(384), 128).is_ok());
        let e = check_document(&deep(385), 128).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::Depth, Some(384)));
        // brackets in strings count for nothing, however many (more than the limit here)
        let quoted = |n: usize| [&br#"{"a":""#[..], &[b'['; 100], br#"\"","b":"#, &deep(n), b"}"].concat();
        assert!(check_document(&quoted(2), 1).is_ok());
        let e = check_document(&quoted(3), 1).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (ErrorKind::Depth, Some(116)));
    }
}
