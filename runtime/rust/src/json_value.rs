//! The JSON codecs of every value a field, element, key or optional holds (docs/format.md 8):
//! [`JsonValue`] writes and reads a value, [`JsonKey`] a map key, and [`JsonStruct`] is what a
//! generated struct implements (its members), with `to_json` and `from_json`.

use crate::error::{DecodeError, EncodeError, ErrorKind};
use crate::json::JsonWriter;
use crate::json_read::{JsonReader, Members, ObjectMembers, Seed};
use crate::keys::{repeated, same_keys, KeyOrd, Pairs, Set};
use crate::value::{Bytes, Struct, Value};
use crate::{Decimal, Limits, Timestamp, Unique, Uuid};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// How a value is written to and read from JSON. A type is its own codec, but for `char`,
/// whose value is a `u8` as `byte`'s is: its codec is [`Char`] (and `Vec<Char>`...).
pub trait JsonValue {
    /// The value the codec writes and reads.
    type Value: Value;

    /// Writes `v`.
    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError>;

    /// Reads a value from `d`, charging and checking it in `r`.
    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error>;
}

/// A map key: a member name in its text form (docs/format.md 8.1), or, for a struct key, the
/// key of a `[key, value]` pair.
pub trait JsonKey: JsonValue {
    /// Whether the key is a member name (else the map is an array of `[key, value]` pairs).
    const MEMBER: bool = true;

    /// Writes the key as a member name and its colon.
    fn write_key(k: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError>;

    /// Reads the key from its member name's bytes.
    fn read_key<E: de::Error>(name: &[u8], r: &mut JsonReader<'_>) -> Result<Self::Value, E>;
}

/// The codec of a `char`: its byte value 0..255 (the original's signed-char output
/// 4294967168..4294967295 is read too).
#[derive(Debug)]
pub enum Char {}

macro_rules! integers {
    ($($t:ty, $method:ident, $key:ident, $wide:ty;)*) => {$(
        impl JsonValue for $t {
            type Value = $t;

            #[inline]
            fn write(v: &$t, j: &mut JsonWriter) -> Result<(), EncodeError> {
                j.$method(<$wide>::from(*v));
                Ok(())
            }

            #[inline]
            fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<$t, D::Error> {
                let token = r.token(d)?;
                integers!(@read $method, r, token, $t)
            }
        }

        impl JsonKey for $t {
            fn write_key(k: &$t, j: &mut JsonWriter) -> Result<(), EncodeError> {
                j.$key(<$wide>::from(*k));
                Ok(())
            }

            fn read_key<E: de::Error>(name: &[u8], r: &mut JsonReader<'_>) -> Result<$t, E> {
                integers!(@key $method, r, name, $t)
            }
        }
    )*};
    (@read int, $r:ident, $token:ident, $t:ty) => {
        $r.int($token, <$t>::MIN.into(), <$t>::MAX.into()).map(|v| v as $t)
    };
    (@read uint, $r:ident, $token:ident, $t:ty) => {
        $r.uint($token, <$t>::MAX.into()).map(|v| v as $t)
    };
    (@key int, $r:ident, $name:ident, $t:ty) => {
        key_int($r, $name, <$t>::MIN.into(), <$t>::MAX.into()).map(|v| v as $t)
    };
    (@key uint, $r:ident, $name:ident, $t:ty) => {
        key_uint($r, $name, <$t>::MAX.into()).map(|v| v as $t)
    };
}

integers! {
    i8, int, key_int, i64;
    i16, int, key_int, i64;
    i32, int, key_int, i64;
    i64, int, key_int, i64;
    u8, uint, key_uint, u64;
    u16, uint, key_uint, u64;
    u32, uint, key_uint, u64;
    u64, uint, key_uint, u64;
}

/// The text of an integer key as C's `strtoll` reads a whole text: leading white space, a
/// sign, digits (the `+` dropped).
fn integer_key(name: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(name).ok()?;
    let text = text.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(text.strip_prefix('+').unwrap_or(text))
}

fn key_text(name: &[u8]) -> String {
    crate::json_read::quote_prefix(&String::from_utf8_lossy(name))
}

fn key_int<E: de::Error>(r: &mut JsonReader<'_>, name: &[u8], lo: i64, hi: i64) -> Result<i64, E> {
    let Some(text) = integer_key(name) else {
        return Err(r.malformed(format!("invalid integer key {}", key_text(name))));
    };
    match text.parse::<i64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(r.malformed(format!("integer key {} out of range", key_text(name)))),
    }
}

fn key_uint<E: de::Error>(r: &mut JsonReader<'_>, name: &[u8], hi: u64) -> Result<u64, E> {
    let text = match integer_key(name) {
        Some(text) if !text.starts_with('-') => text,
        _ => return Err(r.malformed(format!("invalid integer key {}", key_text(name)))),
    };
    match text.parse::<u64>() {
        Ok(v) if v <= hi => Ok(v),
        _ => Err(r.malformed(format!("integer key {} out of range", key_text(name)))),
    }
}

/// A double key: `"NaN"`, `"Infinity"`, `"-Infinity"` or a number's text as C's `strtod` reads a
/// whole decimal text (leading white space, `inf`, `nan`).
fn key_double<E: de::Error>(r: &mut JsonReader<'_>, name: &[u8]) -> Result<f64, E> {
    let text = std::str::from_utf8(name).unwrap_or("").trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let named = ["inf", "infinity", "nan"].iter().any(|n| body.eq_ignore_ascii_case(n));
    let decimal = body.bytes().next().is_some_and(|c| c.is_ascii_digit() || c == b'.')
        && body.bytes().all(|c| c.is_ascii_digit() || b".eE+-".contains(&c));
    match text.parse::<f64>() {
        Ok(v) if named || decimal => Ok(v),
        _ => Err(r.malformed(format!("invalid number key {}", key_text(name)))),
    }
}

impl JsonValue for Char {
    type Value = u8;

    fn write(v: &u8, j: &mut JsonWriter) -> Result<(), EncodeError> {
        j.char(*v);
        Ok(())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<u8, D::Error> {
        let token = r.token(d)?;
        r.char(token)
    }
}

impl JsonKey for Char {
    fn write_key(k: &u8, j: &mut JsonWriter) -> Result<(), EncodeError> {
        j.key_uint(u64::from(*k));
        Ok(())
    }

    /// 0..255, or the original's signed form -128..-1.
    fn read_key<E: de::Error>(name: &[u8], r: &mut JsonReader<'_>) -> Result<u8, E> {
        key_int(r, name, -128, 255).map(|v| v as u8)
    }
}

/// A set element or map key of `char` ([`crate::Char`]) is its own codec, as [`Char`]'s.
impl JsonValue for crate::Char {
    type Value = crate::Char;

    fn write(v: &crate::Char, j: &mut JsonWriter) -> Result<(), EncodeError> {
        Char::write(&v.0, j)
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<crate::Char, D::Error> {
        Char::read(d, r).map(crate::Char)
    }
}

impl JsonKey for crate::Char {
    fn write_key(k: &crate::Char, j: &mut JsonWriter) -> Result<(), EncodeError> {
        Char::write_key(&k.0, j)
    }

    fn read_key<E: de::Error>(name: &[u8], r: &mut JsonReader<'_>) -> Result<crate::Char, E> {
        Char::read_key(name, r).map(crate::Char)
    }
}

/// Codecs whose value is read from one token by a method of [`JsonReader`]; `$key` reads the key.
macro_rules! scalars {
    ($($t:ty, |$v:ident, $j:ident| $write:expr, |$r:ident, $token:ident| $read:expr,
       |$kv:ident, $kj:ident| $write_key:expr, |$kr:ident, $name:ident| $read_key:expr;)*) => {$(
        impl JsonValue for $t {
            type Value = $t;

            #[inline]
            fn write($v: &$t, $j: &mut JsonWriter) -> Result<(), EncodeError> {
                $write;
                Ok(())
            }

            #[inline]
            fn read<'de, D: Deserializer<'de>>(d: D, $r: &mut JsonReader<'de>) -> Result<$t, D::Error> {
                let $token = $r.token(d)?;
                $read
            }
        }

        impl JsonKey for $t {
            fn write_key($kv: &$t, $kj: &mut JsonWriter) -> Result<(), EncodeError> {
                $write_key;
                Ok(())
            }

            fn read_key<E: de::Error>($name: &[u8], $kr: &mut JsonReader<'_>) -> Result<$t, E> {
                $read_key
            }
        }
    )*};
}

scalars! {
    bool, |v, j| j.bool(*v), |r, token| r.bool(token),
        |k, j| j.key_bool(*k), |r, name| match name {
            b"1" | b"true" => Ok(true),
            b"0" | b"false" => Ok(false),
            _ => Err(r.malformed(format!("invalid bool key {}", key_text(name)))),
        };
    f32, |v, j| j.f32(*v), |r, token| r.float(token),
        |k, j| j.key_f32(*k), |r, name| key_double(r, name).map(|v| v as f32);
    f64, |v, j| j.f64(*v), |r, token| r.double(token),
        |k, j| j.key_f64(*k), |r, name| key_double(r, name);
    Timestamp, |v, j| j.timestamp(*v), |r, token| r.uint(token, u64::MAX).map(Timestamp),
        |k, j| j.key_uint(k.0), |r, name| key_uint(r, name, u64::MAX).map(Timestamp);
    Decimal, |v, j| j.decimal(v), |r, token| read_decimal(r, token),
        |k, j| j.key_decimal(k), |r, name| parse_decimal(r, name);
    Uuid, |v, j| j.uuid(v), |r, token| {
            let text = r.string(token, "uuid")?;
            crate::parse_uuid(&String::from_utf8_lossy(&text))
                .map_err(|_| r.malformed(format!("invalid uuid {}", key_text(&text))))
        },
        |k, j| j.key_uuid(k), |r, name| crate::parse_uuid(&String::from_utf8_lossy(name))
            .map_err(|_| r.malformed(format!("invalid uuid key {}", key_text(name))));
    bstr::BString, |v, j| j.string(v), |r, token| {
            let text = r.string(token, "string")?;
            r.spend(text.len())?;
            Ok(bstr::BString::from(text.into_owned()))
        },
        |k, j| j.key_string(k), |r, name| {
            r.spend(name.len())?;
            Ok(bstr::BString::from(name))
        };
    Bytes, |v, j| j.bytes(v), |r, token| {
            let text = r.string(token, "bytes")?;
            r.base64(&text).map(Bytes)
        },
        |k, j| j.key_bytes(k), |r, name| match crate::json::decode_base64(name) {
            Some(b) => r.spend(b.len()).map(|()| Bytes(b)),
            None => Err(r.malformed(format!("invalid base64 key {}", key_text(name)))),
        };
}

/// A decimal: its exact text, or a JSON number taken as a double and converted as the original
/// converts one (docs/format.md 8.3).
fn read_decimal<'de, E: de::Error>(r: &mut JsonReader<'de>, token: &'de str) -> Result<Decimal, E> {
    if token.starts_with('"') {
        let text = r.string(token, "decimal")?;
        return parse_decimal(r, &text);
    }
    let text = r.number(token, "decimal")?;
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Decimal::from_f64(v)),
        _ => Err(r.malformed(format!("{} is out of range for decimal", crate::json_read::quote_prefix(text)))),
    }
}

fn parse_decimal<E: de::Error>(r: &mut JsonReader<'_>, text: &[u8]) -> Result<Decimal, E> {
    let text = String::from_utf8_lossy(text);
    Decimal::parse(&text).map_err(|e| r.malformed(e.to_string()))
}

/// What a collection charges for each element (docs/limits.md 3).
const fn cost<C: JsonValue>() -> usize {
    <C::Value as Value>::COST
}

impl<C: JsonValue> JsonValue for Option<C> {
    type Value = Option<C::Value>;

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        match v {
            None => {
                j.null();
                Ok(())
            }
            Some(v) => C::write(v, j),
        }
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        d.deserialize_option(Optional::<C>(r, PhantomData))
    }
}

struct Optional<'r, 'de, C>(&'r mut JsonReader<'de>, PhantomData<C>);

impl<'de, C: JsonValue> Visitor<'de> for Optional<'_, 'de, C> {
    type Value = Option<C::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null or a value")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        C::read(d, self.0).map(Some)
    }
}

/// Writes the elements of a collection: `[a,b,...]`.
fn write_all<'v, C: JsonValue>(j: &mut JsonWriter, items: impl Iterator<Item = &'v C::Value>) -> Result<(), EncodeError>
where
    C::Value: 'v,
{
    j.raw("[");
    for (i, v) in items.enumerate() {
        if i > 0 {
            j.raw(",");
        }
        C::write(v, j).map_err(|e| e.in_index(i))?;
    }
    j.raw("]");
    Ok(())
}

/// Reads the elements of a JSON array, each charged `charge` first, into `add` (which gives the
/// error of a set holding an element twice); `limit` is a fixed array's length.
struct Elements<'r, 'de, C, F> {
    r: &'r mut JsonReader<'de>,
    charge: usize,
    limit: Option<usize>,
    add: F,
    codec: PhantomData<C>,
}

impl<'de, C: JsonValue, F: FnMut(C::Value) -> Result<(), DecodeError>> Visitor<'de> for Elements<'_, 'de, C, F> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<usize, A::Error> {
        let mut i = 0;
        loop {
            let full = self.limit.filter(|&n| n == i);
            let seed = Element::<C> { r: &mut *self.r, charge: self.charge, full, codec: PhantomData };
            match seq.next_element_seed(seed) {
                Ok(None) => return Ok(i),
                Ok(Some(v)) => {
                    if let Err(e) = (self.add)(v) {
                        return Err(self.r.fail(e));
                    }
                }
                Err(e) => return Err(self.r.unwind(e, |d| d.in_index(i))),
            }
            i += 1;
        }
    }
}

struct Element<'r, 'de, C> {
    r: &'r mut JsonReader<'de>,
    charge: usize,
    full: Option<usize>,
    codec: PhantomData<C>,
}

impl<'de, C: JsonValue> DeserializeSeed<'de> for Element<'_, 'de, C> {
    type Value = C::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<C::Value, D::Error> {
        if let Some(n) = self.full {
            return Err(self.r.malformed(format!("expected {n} elements, got more")));
        }
        self.r.spend(self.charge)?;
        C::read(d, self.r)
    }
}

/// Reads a JSON array's elements with the codec `C` into `add`, each charged `charge`.
fn read_elements<'de, C: JsonValue, D: Deserializer<'de>>(
    d: D,
    r: &mut JsonReader<'de>,
    charge: usize,
    limit: Option<usize>,
    add: impl FnMut(C::Value) -> Result<(), DecodeError>,
) -> Result<usize, D::Error> {
    d.deserialize_any(Elements::<C, _> { r, charge, limit, add, codec: PhantomData })
}

impl<C: JsonValue> JsonValue for Vec<C> {
    type Value = Vec<C::Value>;

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        write_all::<C>(j, v.iter())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        let mut v = Vec::new();
        read_elements::<C, D>(d, r, cost::<C>(), None, |x| {
            v.push(x);
            Ok(())
        })?;
        Ok(v)
    }
}

/// Reads a fixed array of `n` elements (docs/limits.md 7: exactly its length).
fn read_array<'de, C: JsonValue, D: Deserializer<'de>>(
    d: D,
    r: &mut JsonReader<'de>,
    n: usize,
) -> Result<Vec<C::Value>, D::Error> {
    let mut v = Vec::with_capacity(n.min(4096));
    let got = read_elements::<C, D>(d, r, 0, Some(n), |x| {
        v.push(x);
        Ok(())
    })?;
    if got != n {
        return Err(r.malformed(format!("expected {n} elements, got {got}")));
    }
    Ok(v)
}

impl<C: JsonValue, const N: usize> JsonValue for [C; N]
where
    [C::Value; N]: Value,
{
    type Value = [C::Value; N];

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        write_all::<C>(j, v.iter())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        let v = read_array::<C, D>(d, r, N)?;
        Ok(v.try_into().unwrap_or_else(|_| unreachable!("read_array gives N elements")))
    }
}

impl<C: JsonValue, const N: usize> JsonValue for Box<[C; N]>
where
    Box<[C::Value; N]>: Value,
{
    type Value = Box<[C::Value; N]>;

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        write_all::<C>(j, v.iter())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        let v = read_array::<C, D>(d, r, N)?;
        Ok(v.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("read_array gives N elements")))
    }
}

/// The error of a set holding an element twice (docs/limits.md 7).
#[cold]
fn duplicate_element() -> DecodeError {
    DecodeError::of_kind(ErrorKind::Duplicate, "two set elements read as the same element", "", None)
}

/// The error of a map holding a key twice.
#[cold]
fn duplicate_key() -> DecodeError {
    DecodeError::of_kind(ErrorKind::Duplicate, "two map keys read as the same key", "", None)
}

impl<C: JsonValue> JsonValue for BTreeSet<C>
where
    C::Value: Ord,
    BTreeSet<C::Value>: Value,
{
    type Value = BTreeSet<C::Value>;

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        write_all::<C>(j, v.iter())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        let mut s = BTreeSet::new();
        read_elements::<C, D>(
            d,
            r,
            cost::<C>(),
            None,
            |x| {
                if s.insert(x) {
                    Ok(())
                } else {
                    Err(duplicate_element())
                }
            },
        )?;
        Ok(s)
    }
}

/// The items of a set or map held in wire order ([`Set`], [`Pairs`]) as JSON writes them: in
/// ascending key order (docs/limits.md 7) unless not `sorted` (a hash), none twice.
fn in_key_order<T, K: KeyOrd + ?Sized>(
    items: &[T],
    key: impl Fn(&T) -> &K,
    map: bool,
    sorted: bool,
) -> Result<Vec<&T>, EncodeError> {
    if let Some(pair) = repeated(items, |a, b| key(a).key_cmp(key(b))) {
        return Err(same_keys(map, pair));
    }
    let mut order: Vec<&T> = items.iter().collect();
    if sorted {
        order.sort_by(|a, b| key(a).key_cmp(key(b)));
    }
    Ok(order)
}

impl<C: JsonValue> JsonValue for Set<C>
where
    C::Value: KeyOrd,
    Set<C::Value>: Value,
{
    type Value = Set<C::Value>;

    fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
        write_all::<C>(j, in_key_order(v, |x| x, false, true)?.into_iter())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        let mut v = Vec::new();
        read_elements::<C, D>(d, r, cost::<C>(), None, |x| {
            v.push(x);
            Ok(())
        })?;
        if repeated(&v, |a, b| a.key_cmp(b)).is_some() {
            return Err(r.fail(duplicate_element()));
        }
        v.sort_by(|a, b| a.key_cmp(b));
        Ok(Set(v))
    }
}

/// Writes map entries as members: `{"key":value,...}`.
fn write_members<'v, K: JsonKey, V: JsonValue>(
    j: &mut JsonWriter,
    entries: impl Iterator<Item = (&'v K::Value, &'v V::Value)>,
) -> Result<(), EncodeError>
where
    K::Value: 'v,
    V::Value: 'v,
{
    j.raw("{");
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            j.raw(",");
        }
        K::write_key(k, j).map_err(|e| e.in_index(i))?;
        V::write(v, j).map_err(|e| e.in_index(i))?;
    }
    j.raw("}");
    Ok(())
}

/// Reads a JSON object's members as map entries into `add` (which refuses a key held already),
/// each charged the key's and the value's element cost.
struct Entries<'r, 'de, K, V, F> {
    r: &'r mut JsonReader<'de>,
    add: F,
    codecs: PhantomData<(K, V)>,
}

impl<'de, K: JsonKey, V: JsonValue, F> Visitor<'de> for Entries<'_, 'de, K, V, F>
where
    F: FnMut(K::Value, V::Value) -> Result<(), DecodeError>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, map: A) -> Result<(), A::Error> {
        let mut m = ObjectMembers::new(map, &mut *self.r);
        let mut i = 0;
        while let Some(name) = m.name()? {
            m.r.spend(cost::<K>() + cost::<V>())?;
            let key = K::read_key(&name, m.r).map_err(|e| m.r.unwind(e, |d| d.in_index(i)))?;
            let value = match m.map.next_value_seed(Seed::<V>(&mut *m.r, PhantomData)) {
                Ok(v) => v,
                Err(e) => return Err(m.r.unwind(e, |d| d.in_index(i))),
            };
            if let Err(e) = (self.add)(key, value) {
                return Err(m.r.fail(e));
            }
            i += 1;
        }
        Ok(())
    }
}

/// Reads a map whose keys are member names.
fn read_entries<'de, K: JsonKey, V: JsonValue, D: Deserializer<'de>>(
    d: D,
    r: &mut JsonReader<'de>,
    add: impl FnMut(K::Value, V::Value) -> Result<(), DecodeError>,
) -> Result<(), D::Error> {
    d.deserialize_any(Entries::<K, V, _> { r, add, codecs: PhantomData })
}

macro_rules! maps {
    ($($map:ident: $($bound:path),+;)*) => {$(
        impl<K: JsonKey, V: JsonValue> JsonValue for $map<K, V>
        where
            K::Value: $($bound +)+,
            $map<K::Value, V::Value>: Value,
        {
            type Value = $map<K::Value, V::Value>;

            fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
                write_members::<K, V>(j, v.iter())
            }

            fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
                let mut m = $map::new();
                read_entries::<K, V, D>(d, r, |k, v| m.insert_unique((k, v), "", 0).map_err(|_| duplicate_key()))?;
                Ok(m)
            }
        }
    )*};
}

maps! {
    BTreeMap: Ord;
    HashMap: Hash, Eq;
}

/// The codec of a hash whose keys Rust cannot hash ([`Pairs`]): its entries in their own order,
/// where a map's are written and read in ascending key order (docs/limits.md 7).
#[derive(Debug)]
pub enum HashPairs<K, V> {
    #[doc(hidden)]
    Never(std::convert::Infallible, PhantomData<(K, V)>),
}

fn write_pairs<K: JsonKey, V: JsonValue>(
    v: &Pairs<K::Value, V::Value>,
    j: &mut JsonWriter,
    sorted: bool,
) -> Result<(), EncodeError>
where
    K::Value: KeyOrd,
{
    let order = in_key_order(v, |e| &e.0, true, sorted)?;
    if K::MEMBER {
        return write_members::<K, V>(j, order.into_iter().map(|(k, v)| (k, v)));
    }
    // a struct is not a member name: an array of [key, value] pairs (as every runtime)
    j.raw("[");
    for (i, (k, v)) in order.into_iter().enumerate() {
        j.raw(if i > 0 { ",[" } else { "[" });
        K::write(k, j).map_err(|e| e.in_index(i))?;
        j.raw(",");
        V::write(v, j).map_err(|e| e.in_index(i))?;
        j.raw("]");
    }
    j.raw("]");
    Ok(())
}

fn read_pairs<'de, K: JsonKey, V: JsonValue, D: Deserializer<'de>>(
    d: D,
    r: &mut JsonReader<'de>,
    sorted: bool,
) -> Result<Pairs<K::Value, V::Value>, D::Error>
where
    K::Value: KeyOrd,
{
    let mut v = Vec::new();
    if K::MEMBER {
        read_entries::<K, V, D>(d, r, |k, x| {
            v.push((k, x));
            Ok(())
        })?;
    } else {
        read_elements::<Pair<K, V>, D>(d, r, cost::<K>() + cost::<V>(), None, |e| {
            v.push(e);
            Ok(())
        })?;
    }
    if repeated(&v, |a, b| a.0.key_cmp(&b.0)).is_some() {
        return Err(r.fail(duplicate_key()));
    }
    if sorted {
        v.sort_by(|a, b| a.0.key_cmp(&b.0));
    }
    Ok(Pairs(v))
}

macro_rules! pairs {
    ($($codec:ident, $sorted:expr;)*) => {$(
        impl<K: JsonKey, V: JsonValue> JsonValue for $codec<K, V>
        where
            K::Value: KeyOrd,
            Pairs<K::Value, V::Value>: Value,
        {
            type Value = Pairs<K::Value, V::Value>;

            fn write(v: &Self::Value, j: &mut JsonWriter) -> Result<(), EncodeError> {
                write_pairs::<K, V>(v, j, $sorted)
            }

            fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
                read_pairs::<K, V, D>(d, r, $sorted)
            }
        }
    )*};
}

pairs! {
    Pairs, true;
    HashPairs, false;
}

/// The codec of one `[key, value]` pair (a map whose keys are structs).
enum Pair<K, V> {
    #[allow(dead_code)]
    Never(PhantomData<(K, V)>),
}

impl<K: JsonValue, V: JsonValue> JsonValue for Pair<K, V> {
    type Value = (K::Value, V::Value);

    fn write(_: &Self::Value, _: &mut JsonWriter) -> Result<(), EncodeError> {
        unreachable!("pairs are written by their map")
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<Self::Value, D::Error> {
        d.deserialize_any(PairVisitor::<K, V>(r, PhantomData))
    }
}

struct PairVisitor<'r, 'de, K, V>(&'r mut JsonReader<'de>, PhantomData<(K, V)>);

impl<'de, K: JsonValue, V: JsonValue> Visitor<'de> for PairVisitor<'_, 'de, K, V> {
    type Value = (K::Value, V::Value);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [key, value] pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let Some(key) = seq.next_element_seed(Seed::<K>(&mut *self.0, PhantomData))? else {
            return Err(self.0.malformed("expected a [key, value] pair, got []"));
        };
        let Some(value) = seq.next_element_seed(Seed::<V>(&mut *self.0, PhantomData))? else {
            return Err(self.0.malformed("expected a [key, value] pair, got one element"));
        };
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(self.0.malformed("expected a [key, value] pair, got more than two elements"));
        }
        Ok((key, value))
    }
}

/// A generated struct's JSON: its members in declaration order, inherited ones first
/// (docs/format.md 8.1), read in any order with unknown ones skipped and missing ones left at
/// their defaults (8.3, docs/limits.md 7). The generated code implements the members; the
/// roots (`to_json`, `from_json`) are these methods.
pub trait JsonStruct: Struct + Default {
    /// What reading the struct charges (docs/limits.md 3: the IR's `decode_cost`).
    const DECODE_COST: usize;
    /// The cost of its default when that is more than 4 KiB (the IR's `large_default`), else 0:
    /// the budget left must pay for it before it is made.
    const LARGE_DEFAULT: usize = 0;

    /// Writes the object `{...}`.
    fn write_members(&self, j: &mut JsonWriter) -> Result<(), EncodeError>;

    /// Reads the members of the object into `self` (made with its defaults).
    fn read_members<'de, M: Members<'de>>(&mut self, m: &mut M) -> Result<(), M::Error>;

    /// The value as JSON (docs/format.md 8).
    fn to_json(&self) -> Result<Vec<u8>, EncodeError> {
        let mut j = JsonWriter::default();
        self.write_json(&mut j)?;
        Ok(j.out)
    }

    /// Appends the value as JSON to `j.out`.
    fn write_json(&self, j: &mut JsonWriter) -> Result<(), EncodeError> {
        <Self as JsonValue>::write(self, j).map_err(|e| e.within(Self::NAME))
    }

    /// Reads a value from JSON under the default limits.
    fn from_json(doc: &[u8]) -> Result<Self, DecodeError> {
        Self::from_json_with(doc, &Limits::DEFAULT)
    }

    /// Reads a value from JSON under `limits` (docs/limits.md 7).
    fn from_json_with(doc: &[u8], limits: &Limits) -> Result<Self, DecodeError> {
        JsonReader::read(doc, limits, |d, r| <Self as JsonValue>::read(d, r)).map_err(|e| e.within(Self::NAME))
    }
}

/// A boxed struct (an optional struct's `Option<Box<T>>`) is the struct in JSON.
impl<T: JsonStruct> JsonStruct for Box<T> {
    const DECODE_COST: usize = T::DECODE_COST;
    const LARGE_DEFAULT: usize = T::LARGE_DEFAULT;

    fn write_members(&self, j: &mut JsonWriter) -> Result<(), EncodeError> {
        (**self).write_members(j)
    }

    fn read_members<'de, M: Members<'de>>(&mut self, m: &mut M) -> Result<(), M::Error> {
        (**self).read_members(m)
    }
}

impl<T: JsonStruct> JsonValue for T {
    type Value = T;

    fn write(v: &T, j: &mut JsonWriter) -> Result<(), EncodeError> {
        j.enter(T::NAME)?;
        v.write_members(j)?;
        j.leave();
        Ok(())
    }

    fn read<'de, D: Deserializer<'de>>(d: D, r: &mut JsonReader<'de>) -> Result<T, D::Error> {
        d.deserialize_any(StructVisitor::<T>(r, PhantomData))
    }
}

impl<T: JsonStruct> JsonKey for T {
    const MEMBER: bool = false;

    fn write_key(_: &T, _: &mut JsonWriter) -> Result<(), EncodeError> {
        unreachable!("a struct key is written in a [key, value] pair")
    }

    fn read_key<E: de::Error>(_: &[u8], r: &mut JsonReader<'_>) -> Result<T, E> {
        Err(r.malformed("a struct key is read from a [key, value] pair"))
    }
}

struct StructVisitor<'r, 'de, T>(&'r mut JsonReader<'de>, PhantomData<T>);

impl<'de, T: JsonStruct> Visitor<'de> for StructVisitor<'_, 'de, T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        self.0.enter(T::DECODE_COST, T::LARGE_DEFAULT)?;
        let mut v = T::default();
        v.read_members(&mut ObjectMembers::new(map, &mut *self.0))?;
        self.0.leave();
        Ok(v)
    }
}

impl JsonWriter {
    /// Writes `v` (a field of the struct being written); an error names `field`.
    #[inline]
    pub fn field<T: JsonValue<Value = T>>(&mut self, v: &T, field: &str) -> Result<(), EncodeError> {
        T::write(v, self).map_err(|e| e.in_field(field))
    }

    /// Writes `v` with the codec `C` (`Char`, `Vec<Char>`...); an error names `field`.
    #[inline]
    pub fn field_as<C: JsonValue>(&mut self, v: &C::Value, field: &str) -> Result<(), EncodeError> {
        C::write(v, self).map_err(|e| e.in_field(field))
    }
}
