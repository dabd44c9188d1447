//! The JSON reader (docs/format.md 8.3) under the rules of docs/limits.md 7, on `serde_json`'s
//! parser: `serde_json` tokenizes and checks the syntax, [`JsonReader`] keeps what a read has
//! spent and the first error, and [`Members`] is what the generated `read_members` of a struct
//! pulls its members from.
//!
//! How the rules are kept:
//!
//! - the text is valid UTF-8 without a byte order mark, and arrays and objects nest at most
//!   `3 * max_depth` deep, checked before it is parsed ([`check_document`](crate::json::check_document));
//! - strings and member names are read as bytes (`serde_json`'s byte strings keep a lone
//!   surrogate escape as its WTF-8 form): `\udc80`..`\udcff` is the raw byte 0x80..0xff, any
//!   other lone surrogate is refused, wherever the string is;
//! - scalars are read from their JSON text (`serde_json`'s `RawValue`), so a number keeps its
//!   form: `-0` is 0 in an integer and negative zero in a double, `1.0` is no integer, and a
//!   value out of its field's range is refused;
//! - no object holds a member name twice (struct members, unknown members and the objects in
//!   them, map keys); a set holding an element twice is refused;
//! - every value made is charged to the decode budget at the costs of docs/limits.md 3, and
//!   structs nest at most `max_depth` deep.
//!
//! A value nobody reads (an unknown member) is checked from its text: its objects and arrays
//! are parsed again one level at a time, so skipping costs the text's length times the depth
//! of the containers in the skipped value (at most `3 * max_depth`).

use crate::error::{DecodeError, ErrorKind};
use crate::json::check_document;
use crate::limits::Limits;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

/// The state of one JSON read: the text, the budget left, the struct depth and the first
/// error. The codecs of [`JsonValue`](crate::json::JsonValue) read through it.
#[derive(Debug)]
pub struct JsonReader<'de> {
    text: &'de str,
    budget: usize,
    depth: usize,
    max_depth: usize,
    at: Option<usize>,
    error: Option<DecodeError>,
}

/// The error a codec returns: the reader keeps the [`DecodeError`] it stands for.
pub(crate) fn signal<E: de::Error>() -> E {
    E::custom("fbe")
}

impl<'de> JsonReader<'de> {
    /// Reads the JSON document `doc` with `read` under `limits`: the document is checked first
    /// (docs/limits.md 7), then `read` parses the value with `serde_json` and nothing but white
    /// space may follow it.
    pub fn read<T>(
        doc: &'de [u8],
        limits: &Limits,
        read: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
            &mut JsonReader<'de>,
        ) -> Result<T, serde_json::Error>,
    ) -> Result<T, DecodeError> {
        let text = check_document(doc, limits.max_depth)?;
        let mut r = JsonReader {
            text,
            budget: limits.budget(doc.len()),
            depth: 0,
            max_depth: limits.max_depth,
            at: None,
            error: None,
        };
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit(); // check_document bounded the nesting
        match read(&mut de, &mut r).and_then(|v| de.end().map(|()| v)) {
            Ok(v) => Ok(v),
            Err(e) => Err(r.error.take().unwrap_or_else(|| syntax(&e))),
        }
    }

    /// Records `e` unless an error was recorded already, and gives the error to return.
    #[cold]
    pub fn fail<E: de::Error>(&mut self, e: DecodeError) -> E {
        if self.error.is_none() {
            self.error = Some(e);
        }
        signal()
    }

    /// A malformed-input error at the value read last.
    #[cold]
    pub fn malformed<E: de::Error>(&mut self, message: impl Into<String>) -> E {
        let e = DecodeError::new(message, "", self.at);
        self.fail(e)
    }

    /// Completes the path of the error `e` coming out of a member or element (`field`,
    /// [`DecodeError::in_index`]...): `serde_json`'s own errors become the reader's here.
    #[cold]
    pub fn unwind<E: de::Error>(&mut self, e: E, place: impl FnOnce(DecodeError) -> DecodeError) -> E {
        let error = self.error.take().unwrap_or_else(|| syntax(&e));
        self.error = Some(place(error));
        e
    }

    /// Charges `cost` bytes for a value made (docs/limits.md 3).
    #[inline]
    pub fn spend<E: de::Error>(&mut self, cost: usize) -> Result<(), E> {
        match self.budget.checked_sub(cost) {
            Some(left) => {
                self.budget = left;
                Ok(())
            }
            None => Err(self.fail(DecodeError::of_kind(ErrorKind::Budget, "decode budget exceeded", "", self.at))),
        }
    }

    /// Enters a struct costing `cost` (its own charge) whose default, when large, costs
    /// `large_default`: refused deeper than `max_depth`, or when the budget left does not pay
    /// for the default it is about to make.
    pub fn enter<E: de::Error>(&mut self, cost: usize, large_default: usize) -> Result<(), E> {
        if self.depth >= self.max_depth {
            let e = DecodeError::of_kind(
                ErrorKind::Depth,
                format!("structs nested deeper than {}", self.max_depth),
                "",
                self.at,
            );
            return Err(self.fail(e));
        }
        if large_default > self.budget {
            return Err(self.fail(DecodeError::of_kind(ErrorKind::Budget, "decode budget exceeded", "", self.at)));
        }
        self.spend(cost)?;
        self.depth += 1;
        Ok(())
    }

    /// Leaves a struct entered.
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The JSON text of the next value (a scalar read by its codec), remembered as the place of
    /// an error.
    pub fn token<D: Deserializer<'de>>(&mut self, d: D) -> Result<&'de str, D::Error> {
        let raw = <&'de RawValue as de::Deserialize<'de>>::deserialize(d)?.get();
        self.at = (raw.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize);
        Ok(raw)
    }

    /// The error of a value of the wrong JSON type.
    #[cold]
    pub fn mismatch<E: de::Error>(&mut self, want: &str, token: &str) -> E {
        self.malformed(format!("expected {want}, got {}", kind(token)))
    }

    /// The bytes of a string token (`"..."`), or the error of another token.
    pub fn string<E: de::Error>(&mut self, token: &'de str, want: &str) -> Result<Cow<'de, [u8]>, E> {
        if !token.starts_with('"') {
            return Err(self.mismatch(want, token));
        }
        if !token.contains('\\') {
            return Ok(Cow::Borrowed(&token.as_bytes()[1..token.len() - 1]));
        }
        let bytes = serde_json::Deserializer::from_str(token)
            .deserialize_bytes(BytesVisitor)
            .map_err(|e| self.malformed::<E>(format!("invalid JSON: {e}")))?;
        let converted = match fbe_bytes(&bytes) {
            Ok(Cow::Borrowed(_)) => None,
            Ok(Cow::Owned(b)) => Some(b),
            Err(message) => return Err(self.malformed(message)),
        };
        Ok(Cow::Owned(converted.unwrap_or(bytes)))
    }

    /// The text of a number token, or the error of another token.
    pub fn number<E: de::Error>(&mut self, token: &'de str, want: &str) -> Result<&'de str, E> {
        match token.as_bytes()[0] {
            b'-' | b'0'..=b'9' => Ok(token),
            _ => Err(self.mismatch(want, token)),
        }
    }

    /// A JSON integer in `lo..=hi` (no fraction, no exponent; `-0` is 0).
    pub fn int<E: de::Error>(&mut self, token: &'de str, lo: i64, hi: i64) -> Result<i64, E> {
        let text = self.number(token, "integer")?;
        if !is_integer(text) {
            return Err(self.malformed(format!("expected integer, got {}", quote_prefix(text))));
        }
        match text.parse::<i64>() {
            Ok(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => Err(self.malformed(format!("{} is out of range ({lo}..{hi})", quote_prefix(text)))),
        }
    }

    /// A JSON integer in `0..=hi`.
    pub fn uint<E: de::Error>(&mut self, token: &'de str, hi: u64) -> Result<u64, E> {
        let text = self.number(token, "integer")?;
        if !is_integer(text) {
            return Err(self.malformed(format!("expected integer, got {}", quote_prefix(text))));
        }
        match if text == "-0" { Ok(0) } else { text.parse::<u64>() } {
            Ok(v) if v <= hi => Ok(v),
            _ => Err(self.malformed(format!("{} is out of range (0..{hi})", quote_prefix(text)))),
        }
    }

    /// A char: its byte value 0..255, or the original's signed-char output for bytes from 0x80
    /// (4294967168..4294967295).
    pub fn char<E: de::Error>(&mut self, token: &'de str) -> Result<u8, E> {
        let text = self.number(token, "integer")?;
        match text.parse::<u32>() {
            Ok(v) if is_integer(text) && (v <= 0xff || v >= 0xffff_ff80) => Ok(v as u8),
            _ => Err(self.malformed(format!("{} is out of range for char", quote_prefix(text)))),
        }
    }

    /// A double: any JSON number (beyond the double range refused), or the strings `"NaN"`,
    /// `"Infinity"`, `"-Infinity"`.
    pub fn double<E: de::Error>(&mut self, token: &'de str) -> Result<f64, E> {
        match token.as_bytes()[0] {
            b'-' | b'0'..=b'9' => match token.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(self.malformed(format!("{} is out of range for double", quote_prefix(token)))),
            },
            b'"' => match &*self.string::<E>(token, "number")? {
                b"NaN" => Ok(f64::NAN),
                b"Infinity" => Ok(f64::INFINITY),
                b"-Infinity" => Ok(f64::NEG_INFINITY),
                _ => Err(self.mismatch("number", token)),
            },
            _ => Err(self.mismatch("number", token)),
        }
    }

    /// A float: [`JsonReader::double`] rounded to binary32; a finite number beyond the float
    /// range is refused (3.4028234663852886e38, the largest float, reads).
    pub fn float<E: de::Error>(&mut self, token: &'de str) -> Result<f32, E> {
        let v = self.double(token)?;
        if v.is_finite() && v.abs() > f64::from(f32::MAX) {
            return Err(self.malformed(format!("{} is out of range for float", quote_prefix(token))));
        }
        Ok(v as f32)
    }

    /// `true` or `false`.
    pub fn bool<E: de::Error>(&mut self, token: &'de str) -> Result<bool, E> {
        match token {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.mismatch("boolean", token)),
        }
    }

    /// Decodes strict Base64 text ("invalid base64"), charged its length.
    pub fn base64<E: de::Error>(&mut self, text: &[u8]) -> Result<Vec<u8>, E> {
        match crate::json::decode_base64(text) {
            Some(b) => {
                self.spend(b.len())?;
                Ok(b)
            }
            None => Err(self.malformed("invalid base64")),
        }
    }

    /// Checks a value no field reads (an unknown member) from its text: the strings' escapes,
    /// and the member names of its objects, each at most once per object.
    fn check_skipped<E: de::Error>(&mut self, text: &'de str) -> Result<(), E> {
        match text.as_bytes()[0] {
            b'"' if text.contains('\\') => self.string::<E>(text, "string").map(drop),
            b'{' | b'[' => {
                let mut de = serde_json::Deserializer::from_str(text);
                de.disable_recursion_limit();
                de.deserialize_any(Skip(self)).map_err(|e| {
                    let error = syntax(&e);
                    self.fail(error)
                })
            }
            _ => Ok(()),
        }
    }
}

/// The place of a `serde_json` error (its syntax errors, those of the text past a value).
fn syntax(e: &impl fmt::Display) -> DecodeError {
    DecodeError::new(format!("invalid JSON: {e}"), "", None)
}

/// Whether a JSON number's text has no fraction and no exponent.
fn is_integer(text: &str) -> bool {
    !text.contains(['.', 'e', 'E'])
}

/// At most the first 32 characters of `text` in double quotes, `...` when cut (docs/limits.md 7:
/// no error quotes a whole hostile input).
pub(crate) fn quote_prefix(text: &str) -> String {
    match text.char_indices().nth(32) {
        Some((cut, _)) => format!("\"{}\"...", &text[..cut]),
        None => format!("\"{text}\""),
    }
}

/// The JSON type of a token in plain words.
fn kind(token: &str) -> &'static str {
    match token.as_bytes()[0] {
        b'n' => "null",
        b't' | b'f' => "boolean",
        b'"' => "string",
        b'{' => "object",
        b'[' => "array",
        _ => "number",
    }
}

/// The bytes of an FBE string from `serde_json`'s byte string: a lone surrogate escape
/// `\udc80`..`\udcff` (WTF-8 `ED B2 80`..`ED B3 BF`) is the byte 0x80..0xff, any other lone
/// surrogate is an error. The text was valid UTF-8, so an `ED A0..BF` sequence comes from an
/// escape.
fn fbe_bytes(b: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    let surrogate = |i: usize| b[i] == 0xed && b.get(i + 1).is_some_and(|&c| c >= 0xa0);
    let Some(first) = (0..b.len()).find(|&i| surrogate(i)) else {
        return Ok(Cow::Borrowed(b));
    };
    let mut out = b[..first].to_vec();
    let mut i = first;
    while i < b.len() {
        if surrogate(i) && i + 2 < b.len() {
            let unit = 0xd000 | u32::from(b[i + 1] & 0x3f) << 6 | u32::from(b[i + 2] & 0x3f);
            if !(0xdc80..=0xdcff).contains(&unit) {
                return Err(format!(
                    "lone surrogate \\u{unit:x} in a JSON string (only \\udc80..\\udcff stand for bytes)"
                ));
            }
            out.push((unit - 0xdc00) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(Cow::Owned(out))
}

/// The FBE string a JSON string literal (its quotes included) stands for: the escapes decoded,
/// `\udc80`..`\udcff` as the bytes 0x80..0xff (docs/limits.md 7), any other lone surrogate or
/// text that is no string literal an error.
///
/// ```
/// assert_eq!(fbe::json::unquote(r#""a\u00e9\udcff""#).unwrap(), b"a\xc3\xa9\xff");
/// assert!(fbe::json::unquote(r#""\ud800""#).is_err());
/// ```
pub fn unquote(literal: &str) -> Result<Vec<u8>, String> {
    let bytes =
        serde_json::Deserializer::from_str(literal).deserialize_bytes(BytesVisitor).map_err(|e| e.to_string())?;
    Ok(fbe_bytes(&bytes)?.into_owned())
}

/// A byte string of `serde_json` (escapes decoded, lone surrogates kept as WTF-8).
struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }
}

/// A member name: its bytes (a string map key's value).
struct Name<'r, 'de>(&'r mut JsonReader<'de>);

impl<'de> DeserializeSeed<'de> for Name<'_, 'de> {
    type Value = Cow<'de, [u8]>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for Name<'_, 'de> {
    type Value = Cow<'de, [u8]>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v)) // no escapes: the text's own bytes, valid UTF-8
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        match fbe_bytes(v) {
            Ok(b) => Ok(Cow::Owned(b.into_owned())),
            Err(message) => Err(self.0.malformed(message)),
        }
    }
}

/// The member names of one object that no field took, to refuse one twice: a list while short,
/// a hash set beyond.
#[derive(Default)]
struct NameSet<'de> {
    list: Vec<Cow<'de, [u8]>>,
    set: HashSet<Cow<'de, [u8]>>,
}

impl<'de> NameSet<'de> {
    /// Records `name`; false when it was there already.
    fn add(&mut self, name: Cow<'de, [u8]>) -> bool {
        if self.list.len() < 16 {
            if self.list.contains(&name) {
                return false;
            }
            self.list.push(name);
            return true;
        }
        !self.list.contains(&name) && self.set.insert(name)
    }
}

/// The error of a member name read twice in one object.
#[cold]
fn duplicate_member(name: &[u8], at: Option<usize>) -> DecodeError {
    let name = String::from_utf8_lossy(name);
    DecodeError::new(format!("duplicate member name {}", quote_prefix(&name)), "", at)
}

/// Checks a value no field reads, one container level (docs/limits.md 7: duplicate names and
/// lone surrogates are refused in members nobody reads too).
struct Skip<'r, 'de>(&'r mut JsonReader<'de>);

impl<'de> Visitor<'de> for Skip<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut names = NameSet::default();
        while let Some(name) = map.next_key_seed(Name(&mut *self.0))? {
            if !names.add(name.clone()) {
                return Err(self.0.fail(duplicate_member(&name, self.0.at)));
            }
            let value: &'de RawValue = map.next_value()?;
            self.0.check_skipped(value.get())?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(value) = seq.next_element::<&'de RawValue>()? {
            self.0.check_skipped(value.get())?;
        }
        Ok(())
    }
}

/// The members of a struct's JSON object, as the generated `read_members` reads them: each
/// name ([`Members::name`]), then its value into a field ([`Members::field`],
/// [`Members::field_as`]) or skipped ([`Members::skip`]).
pub trait Members<'de> {
    /// The error `read_members` returns (the reader keeps what it stands for).
    type Error: de::Error;

    /// The next member's name (its bytes), `None` after the last.
    fn name(&mut self) -> Result<Option<Cow<'de, [u8]>>, Self::Error>;

    /// Reads the member's value into `dst` with the codec `C`; `seen` marks the field read, so
    /// a second member of that name is refused. An error names `field`.
    fn field_as<C: crate::json::JsonValue>(
        &mut self,
        seen: &mut bool,
        dst: &mut C::Value,
        field: &str,
    ) -> Result<(), Self::Error>;

    /// [`Members::field_as`] with the field's own type as the codec.
    fn field<T: crate::json::JsonValue<Value = T>>(
        &mut self,
        seen: &mut bool,
        dst: &mut T,
        field: &str,
    ) -> Result<(), Self::Error> {
        self.field_as::<T>(seen, dst, field)
    }

    /// Skips the value of a member no field takes (unknown members are ignored), refusing a
    /// second member of that name and, in the value, what every reader refuses.
    fn skip(&mut self, name: Cow<'de, [u8]>) -> Result<(), Self::Error>;

    /// Charges `cost` for the default of a member that is missing (docs/limits.md 3).
    fn spend(&mut self, cost: usize, field: &str) -> Result<(), Self::Error>;
}

/// [`Members`] of a `serde_json` object.
pub(crate) struct ObjectMembers<'r, 'de, A> {
    pub(crate) map: A,
    pub(crate) r: &'r mut JsonReader<'de>,
    names: NameSet<'de>,
}

impl<'r, 'de, A> ObjectMembers<'r, 'de, A> {
    pub(crate) fn new(map: A, r: &'r mut JsonReader<'de>) -> Self {
        ObjectMembers { map, r, names: NameSet::default() }
    }
}

impl<'de, A: MapAccess<'de>> Members<'de> for ObjectMembers<'_, 'de, A> {
    type Error = A::Error;

    fn name(&mut self) -> Result<Option<Cow<'de, [u8]>>, A::Error> {
        self.map.next_key_seed(Name(&mut *self.r))
    }

    fn field_as<C: crate::json::JsonValue>(
        &mut self,
        seen: &mut bool,
        dst: &mut C::Value,
        field: &str,
    ) -> Result<(), A::Error> {
        if *seen {
            let e = duplicate_member(field.as_bytes(), self.r.at);
            return Err(self.r.fail(e));
        }
        *seen = true;
        match self.map.next_value_seed(Seed::<C>(&mut *self.r, PhantomData)) {
            Ok(v) => {
                *dst = v;
                Ok(())
            }
            Err(e) => Err(self.r.unwind(e, |d| d.in_field(field))),
        }
    }

    fn skip(&mut self, name: Cow<'de, [u8]>) -> Result<(), A::Error> {
        if !self.names.add(name.clone()) {
            return Err(self.r.fail(duplicate_member(&name, self.r.at)));
        }
        let value: &'de RawValue = self.map.next_value()?;
        self.r.check_skipped(value.get())
    }

    fn spend(&mut self, cost: usize, field: &str) -> Result<(), A::Error> {
        self.r.spend(cost).map_err(|e| self.r.unwind(e, |d| d.in_field(field)))
    }
}

/// Reads one value with the codec `C`.
pub(crate) struct Seed<'r, 'de, C>(pub(crate) &'r mut JsonReader<'de>, pub(crate) PhantomData<C>);

impl<'de, C: crate::json::JsonValue> DeserializeSeed<'de> for Seed<'_, 'de, C> {
    type Value = C::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<C::Value, D::Error> {
        C::read(d, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_but_byte_escapes_are_refused() {
        assert_eq!(fbe_bytes(b"abc").unwrap(), &b"abc"[..]);
        assert_eq!(fbe_bytes(b"a\xed\xb2\x80\xed\xb3\xbf").unwrap(), &b"a\x80\xff"[..]);
        for bad in [&b"\xed\xa0\x80"[..], b"\xed\xb1\x81", b"\xed\xbf\xbf", b"\xed\xb4\x80"] {
            assert!(fbe_bytes(bad).unwrap_err().contains("lone surrogate"), "{bad:?}");
        }
    }

    #[test]
    fn errors_quote_at_most_32_characters() {
        assert_eq!(quote_prefix("abc"), "\"abc\"");
        assert_eq!(quote_prefix(&"1".repeat(40)), format!("\"{}\"...", "1".repeat(32)));
    }
}
