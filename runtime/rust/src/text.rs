//! The primitives of the text form (docs/format.md 9), what the original's `operator<<`
//! prints: the generated code of a struct writes its fields through a [`TextWriter`].

use crate::decimal::Decimal;
use uuid::Uuid;

/// C's `%g` of a double (6 significant digits, trailing zeros dropped, an exponent of at least
/// two digits: `1000`, `1.23456`, `1e+10`, `4.94066e-324`), `inf`, `-inf` and `nan`.
///
/// ```
/// assert_eq!(fbe::text::float_g(1000.0), "1000");
/// assert_eq!(fbe::text::float_g(f64::MAX), "1.79769e+308");
/// assert_eq!(fbe::text::float_g(-0.0), "-0");
/// ```
pub fn float_g(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // the exponent of v rounded to 6 significant digits decides the style, as C's %g
    let scientific = format!("{v:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("an exponent");
    let exponent: i32 = exponent.parse().expect("a decimal exponent");
    if (-4..6).contains(&exponent) {
        let fixed = format!("{v:.*}", (5 - exponent) as usize);
        return trim_fraction(&fixed).into();
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{}e{sign}{:02}", trim_fraction(mantissa), exponent.unsigned_abs())
}

/// `text` without trailing fraction zeros, and without the point when nothing follows it.
fn trim_fraction(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// The text form being written: raw bytes, since strings and chars print as they are.
#[derive(Clone, Debug, Default)]
pub struct TextWriter {
    /// The text written so far.
    pub out: Vec<u8>,
}

impl TextWriter {
    /// Appends `text` as it is.
    pub fn raw(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    /// `true` or `false`.
    pub fn bool(&mut self, v: bool) {
        self.raw(if v { "true" } else { "false" });
    }

    /// A signed integer in decimal.
    pub fn int(&mut self, v: i64) {
        self.raw(&v.to_string());
    }

    /// An unsigned integer in decimal (`byte` and `uint8` too).
    pub fn uint(&mut self, v: u64) {
        self.raw(&v.to_string());
    }

    /// A float or double as C's `%g` ([`float_g`]; a float widened first).
    pub fn float(&mut self, v: f64) {
        self.raw(&float_g(v));
    }

    /// A decimal as C's `%f` of its double ([`Decimal::text`]).
    pub fn decimal(&mut self, v: &Decimal) {
        self.raw(&v.text());
    }

    /// A char: the raw byte between single quotes.
    pub fn char(&mut self, v: u8) {
        self.out.extend_from_slice(&[b'\'', v, b'\'']);
    }

    /// A wchar as the original prints it: its low byte only, between single quotes.
    pub fn wchar(&mut self, v: u32) {
        self.char(v as u8);
    }

    /// A string between double quotes, its bytes as they are (no escaping).
    pub fn string(&mut self, v: &[u8]) {
        self.out.push(b'"');
        self.out.extend_from_slice(v);
        self.out.push(b'"');
    }

    /// A uuid's canonical text between double quotes.
    pub fn uuid(&mut self, v: &Uuid) {
        self.raw(&format!("\"{v}\""));
    }

    /// `bytes[N]`: the original prints the size of a bytes value, not its content.
    pub fn bytes(&mut self, len: usize) {
        self.raw(&format!("bytes[{len}]"));
    }

    /// A collection's count and its opening bracket: `[3][` (array, vector), `[3]<` (list),
    /// `[3]{` (set), `[3]<{` (map), `[3][{` (hash).
    pub fn count(&mut self, n: usize, open: &str) {
        self.raw(&format!("[{n}]{open}"));
    }
}

impl TextWriter {
    /// The comma before every item of a collection but the first (`index` 0).
    pub fn sep(&mut self, index: usize) {
        if index > 0 {
            self.out.push(b',');
        }
    }

    /// An optional: `null`, or the value.
    pub fn option<T>(&mut self, v: Option<&T>, f: impl FnOnce(&mut Self, &T)) {
        match v {
            None => self.raw("null"),
            Some(v) => f(self, v),
        }
    }

    /// A collection of `n` items: the count and `open`, the items separated by commas, `close`.
    pub fn items<I: IntoIterator>(
        &mut self,
        n: usize,
        open: &str,
        close: &str,
        items: I,
        mut f: impl FnMut(&mut Self, I::Item),
    ) {
        self.count(n, open);
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            f(self, item);
        }
        self.raw(close);
    }

    /// A map or hash of `n` entries: the count and `open`, `key->value` separated by commas,
    /// `close`.
    pub fn entries<'v, K: 'v, V: 'v>(
        &mut self,
        n: usize,
        brackets: (&str, &str),
        entries: impl IntoIterator<Item = (&'v K, &'v V)>,
        mut key: impl FnMut(&mut Self, &K),
        mut value: impl FnMut(&mut Self, &V),
    ) {
        self.items(n, brackets.0, brackets.1, entries, |t, (k, v)| {
            key(t, k);
            t.raw("->");
            value(t, v);
        });
    }
}

/// A value with a text form: generated structs, enums and flags.
pub trait Text {
    /// Writes the value's text.
    fn text(&self, t: &mut TextWriter);

    /// The value's text: bytes, since strings and chars print as they are (docs/format.md 9).
    fn to_text(&self) -> Vec<u8> {
        let mut t = TextWriter::default();
        self.text(&mut t);
        t.out
    }
}

/// A boxed struct (an optional struct's `Option<Box<T>>`) prints as the struct.
impl<T: Text + ?Sized> Text for Box<T> {
    fn text(&self, t: &mut TextWriter) {
        (**self).text(t);
    }
}

/// The names of flags being printed (generated code adds each declared name in order).
#[derive(Debug)]
pub struct FlagNames<T> {
    bits: T,
    text: String,
}

impl<T: Copy + PartialEq + Default + std::ops::BitAnd<Output = T>> FlagNames<T> {
    /// The names of the flags `bits`.
    pub fn new(bits: T) -> Self {
        FlagNames { bits, text: String::new() }
    }

    /// Adds `name` when all its bits (`value`, not 0) are set.
    pub fn add(&mut self, value: T, name: &str) {
        if value != T::default() && self.bits & value == value {
            if !self.text.is_empty() {
                self.text.push('|');
            }
            self.text.push_str(name);
        }
    }

    /// Writes the names joined by `|`.
    pub fn write(self, t: &mut TextWriter) {
        t.raw(&self.text);
    }
}

/// The text of flags (docs/format.md 9): every name whose bits are all set, in declaration
/// order, joined by `|`; names worth 0 never print and undeclared bits vanish.
///
/// ```
/// let names = [(0x00u32, "unknown"), (0x02, "calculated"), (0x04, "good"), (0x06, "both")];
/// assert_eq!(fbe::text::flags_text(0x0E, &names), "calculated|good|both");
/// assert_eq!(fbe::text::flags_text(0, &names), "");
/// ```
pub fn flags_text<T: Copy + PartialEq + Default + std::ops::BitAnd<Output = T>>(v: T, names: &[(T, &str)]) -> String {
    let set: Vec<&str> =
        names.iter().filter(|(bits, _)| *bits != T::default() && v & *bits == *bits).map(|(_, n)| *n).collect();
    set.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_cs_g() {
        for (v, text) in [
            (1000.0, "1000"),
            (1.23456, "1.23456"),
            (1e10, "1e+10"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-1.5, "-1.5"),
            (0.30000000000000004, "0.3"),
            (5e-324, "4.94066e-324"),
            (f64::MAX, "1.79769e+308"),
            (999999.5, "1e+06"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(float_g(v), text, "{v:e}");
        }
    }

    #[test]
    fn collections_optionals_and_flags() {
        let mut t = TextWriter::default();
        t.items(2, "<", ">", [1i64, -2], |t, v| t.int(v));
        t.option(None::<&u8>, |t, v| t.uint(u64::from(*v)));
        t.option(Some(&b'x'), |t, v| t.char(*v));
        let map = std::collections::BTreeMap::from([(1u8, 1.5f64), (2, 1e10)]);
        t.entries(map.len(), ("<{", "}>"), map.iter(), |t, k| t.uint(u64::from(*k)), |t, v| t.float(*v));
        let mut names = FlagNames::new(0x0Fu8);
        names.add(0, "none");
        names.add(1, "a");
        names.add(6, "bc");
        names.add(0x10, "e");
        names.write(&mut t);
        assert_eq!(String::from_utf8(t.out).unwrap(), "[2]<1,-2>null'x'[2]<{1->1.5,2->1e+10}>a|bc");
    }

    #[test]
    fn chars_print_raw_and_wchars_their_low_byte() {
        let mut t = TextWriter::default();
        t.char(0);
        t.wchar(0x0444);
        t.string(b"a\"b\n");
        t.bytes(3);
        t.count(2, "<{");
        assert_eq!(t.out, b"'\0''D'\"a\"b\n\"bytes[3][2]<{");
    }
}
