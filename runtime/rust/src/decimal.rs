//! The exact FBE decimal (docs/format.md 2.4).

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// The longest decimal text [`Decimal::from_str`] reads (docs/limits.md 7).
pub const MAX_DECIMAL_TEXT: usize = 64;

/// The flag bits of a decimal that are neither its scale nor its sign.
const RESERVED: u32 = 0x7F00_FFFF;
const SIGN: u32 = 1 << 31;
const MAX_MAGNITUDE: u128 = (1 << 96) - 1;

/// Powers of ten as the original computes them, by repeated multiplication in binary64
/// (its conversion from a double depends on these exact values).
const POW10F: [f64; 29] = {
    let mut t = [1.0f64; 29];
    let mut i = 1;
    while i < 29 {
        t[i] = t[i - 1] * 10.0;
        i += 1;
    }
    t
};

/// An exact decimal as the wire holds it: a 96-bit magnitude, a scale 0..=28
/// and a sign, the value being ±magnitude / 10^scale.
///
/// Equality, order and hashing are by value: `1.5` and `1.50` are the same
/// key, and so are `0` and `-0` (docs/limits.md 4). A value read from a buffer
/// keeps the scale it was read with (`1.50` displays as `1.50`); writers store
/// every value without trailing fraction zeros ([`Decimal::to_wire`]), so one
/// value has one encoding. No `Decimal` holds a scale above 28 or a magnitude
/// of 2^96 or more: the constructors and readers refuse them.
///
/// ```
/// use fbe::Decimal;
/// let d: Decimal = "-123.450".parse().unwrap();
/// assert_eq!(d.to_string(), "-123.45");
/// assert_eq!((d.magnitude(), d.scale(), d.is_sign_negative()), (12345, 2, true));
/// assert_eq!(Decimal::from_f64(0.1), "0.1".parse().unwrap());
/// assert!("1e-29".parse::<Decimal>().is_err());
/// ```
#[derive(Clone, Copy, Default)]
pub struct Decimal {
    lo: u64,
    hi: u32,
    flags: u32, // scale << 16 | sign << 31, as on the wire
}

/// Why a decimal cannot be made: text that is not a decimal or whose value
/// no decimal holds exactly, a scale above 28, a magnitude of 2^96 or more,
/// wire flags with reserved bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecimalError(String);

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecimalError {}

/// `text` in double quotes for an error message, cut to its first 32 bytes (then `...`):
/// an error never quotes a whole hostile input (docs/limits.md 7).
pub(crate) fn quote_prefix(text: &str) -> String {
    if text.len() <= 32 {
        return format!("{text:?}");
    }
    let mut cut = 32;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{:?}...", &text[..cut])
}

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal { lo: 0, hi: 0, flags: 0 };

    /// The decimal ±`magnitude` / 10^`scale`, exactly as given (`150`, scale 2 stays `1.50`);
    /// refused when the scale is above 28 or the magnitude does not fit 96 bits.
    pub fn from_parts(magnitude: u128, scale: u8, negative: bool) -> Result<Decimal, DecimalError> {
        if scale > 28 {
            return Err(DecimalError(format!("decimal scale {scale} above 28")));
        }
        if magnitude > MAX_MAGNITUDE {
            return Err(DecimalError("decimal magnitude out of range: more than 96 bits".into()));
        }
        Ok(Self::parts_unchecked(magnitude, scale, negative))
    }

    fn parts_unchecked(magnitude: u128, scale: u8, negative: bool) -> Decimal {
        let flags = (u32::from(scale) << 16) | if negative { SIGN } else { 0 };
        Decimal { lo: magnitude as u64, hi: (magnitude >> 64) as u32, flags }
    }

    /// The decimal of a literal known to be valid (a schema's default in generated code).
    ///
    /// # Panics
    ///
    /// When `text` is not decimal text that a decimal holds exactly.
    pub fn literal(text: &str) -> Decimal {
        match Decimal::parse(text) {
            Ok(d) => d,
            Err(e) => panic!("Decimal::literal: {e}"),
        }
    }

    /// The 96-bit magnitude.
    pub fn magnitude(&self) -> u128 {
        u128::from(self.lo) | (u128::from(self.hi) << 64)
    }

    /// The scale, 0..=28: the number of digits after the point.
    pub fn scale(&self) -> u8 {
        (self.flags >> 16) as u8
    }

    /// Whether the sign bit is set (a zero may carry one when read from another writer's bytes).
    pub fn is_sign_negative(&self) -> bool {
        self.flags & SIGN != 0
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// Why the wire flags `flags` are refused, or `None` (docs/format.md 2.4).
    pub fn flags_error(flags: u32) -> Option<String> {
        let scale = (flags >> 16) & 0xFF;
        if scale > 28 {
            Some(format!("decimal scale {scale} above 28"))
        } else if flags & RESERVED != 0 {
            Some(format!("decimal flags 0x{flags:08X}: reserved bits set"))
        } else {
            None
        }
    }

    /// The decimal of 16 wire bytes, as they are (`1.50` stays `1.50`); refused when the scale
    /// is above 28 or a reserved bit is set. Readers name the field and offset of the refusal.
    pub fn from_wire(b: &[u8; 16]) -> Result<Decimal, DecimalError> {
        let lo = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        let hi = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
        let flags = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
        match Self::flags_error(flags) {
            Some(e) => Err(DecimalError(e)),
            None => Ok(Decimal { lo, hi, flags }),
        }
    }

    /// The 16 wire bytes of the value without trailing fraction zeros, the one encoding every
    /// writer stores (docs/format.md 2.4).
    pub fn to_wire(&self) -> [u8; 16] {
        let d = self.normalize();
        let mut b = [0u8; 16];
        b[0..8].copy_from_slice(&d.lo.to_le_bytes());
        b[8..12].copy_from_slice(&d.hi.to_le_bytes());
        b[12..16].copy_from_slice(&d.flags.to_le_bytes());
        b
    }

    /// The value without trailing fraction zeros and without the sign of zero: the one
    /// `Decimal` of its value, whose bytes are the same for equal values.
    #[must_use]
    pub fn normalize(&self) -> Decimal {
        if self.is_zero() {
            return Decimal::ZERO;
        }
        let (mut m, mut scale) = (self.magnitude(), self.scale());
        while scale > 0 && m % 10 == 0 {
            m /= 10;
            scale -= 1;
        }
        Self::parts_unchecked(m, scale, self.is_sign_negative())
    }

    /// A double converted as the original writer converts it (docs/format.md 2.4: at most 15
    /// significant digits), so the bytes are the original's.
    pub fn from_f64(v: f64) -> Decimal {
        let bits = v.to_bits();
        let x = ((bits >> 52) & 0x7ff) as i32 - 1022;
        if !(-94..=96).contains(&x) {
            return Decimal::ZERO;
        }
        let negative = bits >> 63 != 0;
        let mut d = v.abs();
        let mut p = 14 - ((x * 19728) >> 16);
        if p >= 0 {
            p = p.min(28);
            d *= POW10F[p as usize];
        } else if p != -1 || d >= 1e15 {
            d /= POW10F[(-p) as usize];
        } else {
            p = 0;
        }
        if d < 1e14 && p < 28 {
            d *= 10.0;
            p += 1;
        }
        let mut m = d as u64;
        let f = d - m as f64;
        if f > 0.5 || (f == 0.5 && m & 1 != 0) {
            m += 1;
        }
        if m == 0 {
            return Decimal::ZERO;
        }
        if p < 0 {
            // m * 10^-p is exact and below 2^96 (x <= 96).
            let magnitude = u128::from(m) * 10u128.pow((-p) as u32);
            return Self::parts_unchecked(magnitude, 0, negative);
        }
        let mut allowed = p.min(14);
        for (n, div) in [(8, 100_000_000u64), (4, 10_000), (2, 100), (1, 10)] {
            if n <= allowed && m.is_multiple_of(div) {
                m /= div;
                p -= n;
                allowed -= n;
            }
        }
        Self::parts_unchecked(u128::from(m), p as u8, negative)
    }

    /// The original reader's conversion: (lo + hi × 2^64) / 10^scale, negated when the sign is set.
    pub fn to_f64(&self) -> f64 {
        let f = (self.lo as f64 + f64::from(self.hi) * 18_446_744_073_709_551_616.0) / POW10F[self.scale() as usize];
        if self.is_sign_negative() {
            -f
        } else {
            f
        }
    }

    /// The decimal in JSON (docs/format.md 8.2): its exact value as the writers store it (no
    /// trailing fraction zeros, no sign on zero), padded to at least 6 fraction digits
    /// (`"123.456000"`, the original's `%f` whenever that was exact), without the quotes.
    pub fn json_text(&self) -> String {
        let normal = self.normalize();
        let mut text = normal.to_string();
        let fraction = normal.scale() as usize;
        if fraction == 0 {
            text.push('.');
        }
        text.extend(std::iter::repeat_n('0', 6usize.saturating_sub(fraction)));
        text
    }

    /// The decimal in the text form (docs/format.md 9): C's `%f` of its double value
    /// ([`Decimal::to_f64`]), as the original prints it (`-123.456000`).
    pub fn text(&self) -> String {
        format!("{:.6}", self.to_f64())
    }

    /// |self| compared with |other| exactly.
    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        let (sa, sb) = (self.scale(), other.scale());
        if sa > sb {
            return other.cmp_magnitude(self).reverse();
        }
        // self has the smaller scale: scale its magnitude up; past u128 it is the larger.
        let factor = 10u128.pow(u32::from(sb - sa));
        match self.magnitude().checked_mul(factor) {
            Some(m) => m.cmp(&other.magnitude()),
            None => Ordering::Greater,
        }
    }

    /// Reads exact decimal text `[+|-]digits[.digits][(e|E)[+|-]digits]` as every runtime of
    /// the toolkit reads it (docs/format.md 2.4): at most 64 characters, a value some decimal
    /// holds exactly (never rounded); the value has no trailing fraction zeros.
    pub fn parse(s: &str) -> Result<Decimal, DecimalError> {
        if s.len() > MAX_DECIMAL_TEXT {
            return Err(DecimalError(format!(
                "decimal text longer than {MAX_DECIMAL_TEXT} characters: {}",
                quote_prefix(s)
            )));
        }
        let b = s.as_bytes();
        let mut i = 0;
        let mut negative = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            negative = b[i] == b'-';
            i += 1;
        }
        // the significant digits (no leading zeros); `fraction` digits follow the point
        let mut digits: Vec<u8> = Vec::with_capacity(b.len());
        let (mut fraction, mut any, mut point) = (0i32, false, false);
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_digit() {
                any = true;
                if !digits.is_empty() || c != b'0' {
                    digits.push(c - b'0');
                }
                if point {
                    fraction += 1;
                }
            } else if c == b'.' && !point {
                point = true;
            } else {
                break;
            }
            i += 1;
        }
        let mut exponent = 0i32;
        if any && i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            let eneg = i < b.len() && b[i] == b'-';
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                i += 1;
            }
            let first = i;
            while i < b.len() && b[i].is_ascii_digit() {
                if exponent < 1_000_000 {
                    exponent = exponent * 10 + i32::from(b[i] - b'0');
                }
                i += 1;
            }
            any = i > first;
            if eneg {
                exponent = -exponent;
            }
        }
        if !any || i != b.len() {
            return Err(DecimalError(format!("invalid decimal {}", quote_prefix(s))));
        }
        if digits.is_empty() {
            return Ok(Decimal::ZERO);
        }
        let mut power = exponent - fraction;
        while digits.last() == Some(&0) {
            digits.pop();
            power += 1;
        }
        if power < -28 {
            return Err(DecimalError(format!("decimal {} has more than 28 fraction digits", quote_prefix(s))));
        }
        let out_of_range = || DecimalError(format!("decimal {} out of range: more than 96 bits", quote_prefix(s)));
        if digits.len() as i32 + power.max(0) > 29 {
            return Err(out_of_range());
        }
        // at most 29 digits: below 10^29 < 2^97, no overflow of u128
        let mut m: u128 = 0;
        for d in &digits {
            m = m * 10 + u128::from(*d);
        }
        for _ in 0..power.max(0) {
            m *= 10;
        }
        if m > MAX_MAGNITUDE {
            return Err(out_of_range());
        }
        Ok(Self::parts_unchecked(m, (-power).max(0) as u8, negative))
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    /// Orders by exact value: the order of sets and maps of decimals on the wire.
    fn cmp(&self, other: &Self) -> Ordering {
        let (za, zb) = (self.is_zero(), other.is_zero());
        let na = self.is_sign_negative() && !za;
        let nb = other.is_sign_negative() && !zb;
        match (na, nb) {
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (true, true) => self.cmp_magnitude(other).reverse(),
            (false, false) => self.cmp_magnitude(other),
        }
    }
}

impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.normalize();
        (n.lo, n.hi, n.flags).hash(state);
    }
}

impl fmt::Display for Decimal {
    /// The exact value in plain notation with `scale` digits after the point (`-123.450`, `0.001`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.magnitude().to_string();
        let scale = self.scale() as usize;
        let padded =
            if digits.len() <= scale { format!("{}{digits}", "0".repeat(scale + 1 - digits.len())) } else { digits };
        let point = padded.len() - scale;
        let sign = if self.is_sign_negative() && !self.is_zero() { "-" } else { "" };
        if scale == 0 {
            f.pad(&format!("{sign}{padded}"))
        } else {
            f.pad(&format!("{sign}{}.{}", &padded[..point], &padded[point..]))
        }
    }
}

impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Decimal({self})")
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decimal::parse(s)
    }
}

/// With the `serde` feature: a decimal is its exact text (`"-123.45"`), read back by
/// [`Decimal::parse`], so no value passes through a float.
#[cfg(feature = "serde")]
impl serde::Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Decimal {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;

        impl serde::de::Visitor<'_> for Text {
            type Value = Decimal;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a decimal as its text")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Decimal, E> {
                Decimal::parse(v).map_err(E::custom)
            }
        }

        deserializer.deserialize_str(Text)
    }
}

impl From<i64> for Decimal {
    fn from(v: i64) -> Self {
        Self::parts_unchecked(u128::from(v.unsigned_abs()), 0, v < 0)
    }
}

impl From<u64> for Decimal {
    fn from(v: u64) -> Self {
        Self::parts_unchecked(u128::from(v), 0, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn parts(d: Decimal) -> (u128, u8, bool) {
        (d.magnitude(), d.scale(), d.is_sign_negative())
    }

    #[test]
    fn from_f64_follows_the_original() {
        // docs/format.md 2.4's examples
        assert_eq!(parts(Decimal::from_f64(0.1)), (1, 1, false));
        assert_eq!(parts(Decimal::from_f64(-123.456)), (123_456, 3, true));
        assert_eq!(parts(Decimal::from_f64(1.0 / 3.0)), (333_333_333_333_333, 15, false));
        assert_eq!(parts(Decimal::from_f64(1e20)), (100_000_000_000_000_000_000, 0, false));
        assert!(Decimal::from_f64(1e-29).is_zero());
        assert!(Decimal::from_f64(f64::NAN).is_zero());
        assert!(Decimal::from_f64(f64::INFINITY).is_zero());
        assert_eq!(Decimal::from_f64(-0.0).to_wire(), [0; 16]);
        assert_eq!(parts(Decimal::from_f64(123456.123456)), (123_456_123_456, 6, false));
        // the corner where rounding carries past the zeros: written as 1 at scale 0
        assert_eq!(Decimal::from_f64(0.9999999999999999).to_wire(), Decimal::from(1i64).to_wire());
    }

    #[test]
    fn text_is_exact_or_refused() {
        assert_eq!(parts(dec("1.50")), (15, 1, false));
        assert_eq!(parts(dec("-0.0010e3")), (1, 0, true));
        assert_eq!(parts(dec("0.10000000000000000000000000000000")), (1, 1, false));
        assert_eq!(parts(dec("79228162514264337593543950335")), (MAX_MAGNITUDE, 0, false));
        assert_eq!(parts(dec("-7.9228162514264337593543950335")), (MAX_MAGNITUDE, 28, true));
        assert_eq!(parts(dec(".5")), (5, 1, false));
        assert_eq!(parts(dec("5.")), (5, 0, false));
        assert_eq!(parts(dec("1E+2")), (100, 0, false));
        for (text, error) in [
            ("1e-29", "decimal \"1e-29\" has more than 28 fraction digits"),
            ("0.12345678901234567890123456789", "has more than 28 fraction digits"),
            ("79228162514264337593543950336", "out of range: more than 96 bits"),
            ("1e29", "out of range: more than 96 bits"),
            ("", "invalid decimal \"\""),
            (".", "invalid decimal"),
            ("1e", "invalid decimal"),
            ("1.2.3", "invalid decimal"),
            (" 1", "invalid decimal"),
            ("0x10", "invalid decimal"),
        ] {
            let e = Decimal::parse(text).unwrap_err().to_string();
            assert!(e.contains(error), "{text:?}: {e}");
        }
        let long = "1".repeat(65);
        assert_eq!(
            Decimal::parse(&long).unwrap_err().to_string(),
            format!("decimal text longer than 64 characters: \"{}\"...", "1".repeat(32))
        );
        assert!(Decimal::parse(&format!("0.{}", "0".repeat(62))).is_ok()); // 64 characters
    }

    #[test]
    fn equal_values_compare_and_hash_alike() {
        use std::collections::{BTreeSet, HashSet};
        assert_eq!(dec("1.5"), Decimal::from_parts(150, 2, false).unwrap());
        assert_eq!(Decimal::from_parts(0, 3, true).unwrap(), Decimal::ZERO);
        assert!(dec("-1") < dec("-0.5") && dec("-0.5") < Decimal::ZERO && dec("0.00001") < dec("1e-4"));
        assert!(dec("79228162514264337593543950335") > dec("7.9228162514264337593543950335"));
        let hashed: HashSet<Decimal> = [dec("1.5"), Decimal::from_parts(1500, 3, false).unwrap()].into();
        assert_eq!(hashed.len(), 1);
        let ordered: BTreeSet<Decimal> = [dec("2"), dec("-3"), dec("0.5")].into();
        assert_eq!(ordered.iter().map(|d| d.to_string()).collect::<Vec<_>>(), ["-3", "0.5", "2"]);
    }

    #[test]
    fn the_wire_holds_scale_and_sign_and_nothing_else() {
        let b = dec("-123.456").to_wire();
        assert_eq!(b, [0x40, 0xe2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0x80]);
        let read = Decimal::from_wire(&b).unwrap();
        assert_eq!(parts(read), (123_456, 3, true));
        let mut with_zeros = [0u8; 16];
        with_zeros[0] = 150;
        with_zeros[14] = 2; // 1.50
        let d = Decimal::from_wire(&with_zeros).unwrap();
        assert_eq!(d.to_string(), "1.50");
        assert_eq!(d.to_wire(), dec("1.5").to_wire());
        let mut bad = [0u8; 16];
        bad[14] = 29;
        assert_eq!(Decimal::from_wire(&bad).unwrap_err().to_string(), "decimal scale 29 above 28");
        let mut reserved = [0u8; 16];
        reserved[12] = 1;
        reserved[14] = 1;
        assert_eq!(
            Decimal::from_wire(&reserved).unwrap_err().to_string(),
            "decimal flags 0x00010001: reserved bits set"
        );
        assert!(Decimal::from_parts(1 << 96, 0, false).is_err());
        assert!(Decimal::from_parts(1, 29, false).is_err());
    }

    #[test]
    fn json_and_text_forms() {
        assert_eq!(dec("123.456").json_text(), "123.456000");
        assert_eq!(dec("-1").json_text(), "-1.000000");
        assert_eq!(Decimal::from_parts(0, 3, true).unwrap().json_text(), "0.000000");
        assert_eq!(dec("1.50").json_text(), "1.500000");
        assert_eq!(dec("0.12345678").json_text(), "0.12345678");
        assert_eq!(dec("-79228162514264337593543950335").json_text(), "-79228162514264337593543950335.000000");
        assert_eq!(dec("-123.456").text(), "-123.456000");
        assert_eq!(dec("0.1234567").text(), "0.123457");
        assert_eq!(dec("1e20").text(), "100000000000000000000.000000");
    }

    #[test]
    fn display_and_to_f64() {
        assert_eq!(Decimal::from_parts(1, 3, false).unwrap().to_string(), "0.001");
        assert_eq!(Decimal::from_parts(0, 2, true).unwrap().to_string(), "0.00");
        assert_eq!(dec("-42").to_string(), "-42");
        assert_eq!(dec("123.456").to_f64(), 123.456);
        assert_eq!(dec("-1.5").to_f64(), -1.5);
    }
}
