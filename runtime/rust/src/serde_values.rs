//! With the `serde` feature: the serde forms of the generated enums ([`serde_enum!`](crate::serde_enum))
//! and of [`Bytes`] (docs/rust.md, "Serde"), which are map keys in JSON too.
//!
//! An enum holds values the schema does not name (its `Unknown` arm), and serde's derive would
//! write one as `{"Unknown":7}`, which serde_json refuses as a map key. Here a human-readable
//! format (JSON, YAML, TOML: [`Serializer::is_human_readable`]) gets a named value as its name
//! (`"Buy"`) and any other as its wire integer (`7`; as a JSON key `"7"`), and reads back either
//! form; a compact format (bincode) gets the wire integer. Bytes are Base64 text in a
//! human-readable format, as in the JSON of docs/format.md 8 (`"AAH/"`, a map key too), and
//! bytes in a compact one. serde implements its traits for arrays of at most 32 elements; a
//! generated field holding a longer one names [`serde_array`] (`#[serde(with = "fbe::serde_array")]`).

use crate::json::{append_base64, decode_base64};
use crate::{serde_text, Bytes};
use serde::de::{self, Unexpected, Visitor};
use serde::ser::SerializeTuple;
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

pub use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Implements `Serialize` and `Deserialize` for a generated enum `$name` held on the wire as the
/// integer `$wire` (its `from_wire` and `to_wire`), whose variants the schema names are
/// `$variant`s: [`serialize_enum`] and [`deserialize_enum`] with its names.
#[macro_export]
macro_rules! serde_enum {
    ($name:ident, $wire:ty $(, $variant:ident)* $(,)?) => {
        impl $crate::serde_values::Serialize for $name {
            fn serialize<S: $crate::serde_values::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                $crate::serde_values::serialize_enum(
                    serializer,
                    self,
                    &[$(::core::stringify!($variant)),*],
                    &[$(Self::$variant),*],
                    self.to_wire(),
                )
            }
        }

        impl<'de> $crate::serde_values::Deserialize<'de> for $name {
            fn deserialize<D: $crate::serde_values::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::serde_values::deserialize_enum(
                    deserializer,
                    ::core::stringify!($name),
                    &[$(::core::stringify!($variant)),*],
                    &[$(Self::$variant),*],
                    Self::from_wire,
                )
            }
        }
    };
}

/// Serializes the enum `value` (`names[i]` for `values[i]`, `wire` its integer): in a
/// human-readable format its name when it equals a named value, else `wire`.
pub fn serialize_enum<S: Serializer, T: PartialEq, W: Serialize>(
    serializer: S,
    value: &T,
    names: &[&str],
    values: &[T],
    wire: W,
) -> Result<S::Ok, S::Error> {
    match values.iter().position(|v| v == value) {
        Some(i) if serializer.is_human_readable() => serializer.serialize_str(names[i]),
        _ => wire.serialize(serializer),
    }
}

/// Deserializes an enum of the type named `type_name` (`names[i]` for `values[i]`,
/// `from_wire` for any wire integer): in a human-readable format a name, a wire integer, or
/// one's text (a JSON map key); in a compact format a wire integer.
pub fn deserialize_enum<'de, D, T, W>(
    deserializer: D,
    type_name: &'static str,
    names: &'static [&'static str],
    values: &[T],
    from_wire: fn(W) -> T,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Copy,
    W: Deserialize<'de> + TryFrom<u64> + TryFrom<i64> + FromStr,
{
    if deserializer.is_human_readable() {
        deserializer.deserialize_any(EnumVisitor { type_name, names, values, from_wire, wire: PhantomData })
    } else {
        W::deserialize(deserializer).map(from_wire)
    }
}

struct EnumVisitor<'a, T, W> {
    type_name: &'static str,
    names: &'static [&'static str],
    values: &'a [T],
    from_wire: fn(W) -> T,
    wire: PhantomData<W>,
}

impl<T: Copy, W: TryFrom<u64> + TryFrom<i64> + FromStr> EnumVisitor<'_, T, W> {
    fn integer<E: de::Error, V: Copy>(self, v: V, unexpected: fn(V) -> Unexpected<'static>) -> Result<T, E>
    where
        W: TryFrom<V>,
    {
        W::try_from(v).map(self.from_wire).map_err(|_| E::invalid_value(unexpected(v), &self))
    }
}

impl<'de, T: Copy, W: TryFrom<u64> + TryFrom<i64> + FromStr> Visitor<'de> for EnumVisitor<'_, T, W> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a name of {} or an integer of type {}", self.type_name, std::any::type_name::<W>())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        if let Some(i) = self.names.iter().position(|name| *name == v) {
            return Ok(self.values[i]);
        }
        match v.parse::<W>() {
            Ok(wire) => Ok((self.from_wire)(wire)),
            Err(_) => Err(E::unknown_variant(v, self.names)),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.integer(v, Unexpected::Unsigned)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.integer(v, Unexpected::Signed)
    }
}

/// Base64 text in a human-readable format (`"AAH/"`), the bytes in a compact one.
impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            let mut text = Vec::with_capacity(self.len().div_ceil(3) * 4);
            append_base64(&mut text, self);
            serializer.serialize_str(std::str::from_utf8(&text).expect("Base64 is ASCII"))
        } else {
            serializer.serialize_bytes(self)
        }
    }
}

/// Reads what `Serialize` writes: padded standard Base64 in a human-readable format (other text
/// refused), bytes (or a sequence of them) in a compact one.
impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BytesVisitor;

        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = Bytes;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes or their Base64 text")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes, E> {
                decode_base64(v.as_bytes()).map(Bytes).ok_or_else(|| E::invalid_value(Unexpected::Str(v), &self))
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }

            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(b) = seq.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }

        if deserializer.is_human_readable() {
            deserializer.deserialize_str(BytesVisitor)
        } else {
            deserializer.deserialize_byte_buf(BytesVisitor)
        }
    }
}

/// A fixed array of a generated field: `[T; N]`, or `Box<[T; N]>` for one of more than 4 KiB.
pub trait FixedArray: Sized {
    /// The element type.
    type Item;

    /// How many elements it holds.
    const LEN: usize;

    /// The elements.
    fn items(&self) -> &[Self::Item];

    /// The array of `items`, or `items` back when they are not as many as it holds.
    fn from_items(items: Vec<Self::Item>) -> Result<Self, Vec<Self::Item>>;
}

impl<T, const N: usize> FixedArray for [T; N] {
    type Item = T;
    const LEN: usize = N;

    fn items(&self) -> &[T] {
        self
    }

    fn from_items(items: Vec<T>) -> Result<Self, Vec<T>> {
        items.try_into()
    }
}

impl<T, const N: usize> FixedArray for Box<[T; N]> {
    type Item = T;
    const LEN: usize = N;

    fn items(&self) -> &[T] {
        &self[..]
    }

    fn from_items(items: Vec<T>) -> Result<Self, Vec<T>> {
        items.try_into()
    }
}

/// `#[serde(with = "fbe::serde_array")]`: a fixed array of any length as serde writes one of at most
/// 32 (a tuple of its elements: an array in JSON, no length in bincode), its strings as text in a
/// human-readable format ([`serde_text`]).
pub mod serde_array {
    use super::*;

    struct Tuple<'a, T>(&'a [T]);

    impl<T: Serialize> Serialize for Tuple<'_, T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut tuple = serializer.serialize_tuple(self.0.len())?;
            for item in self.0 {
                tuple.serialize_element(item)?;
            }
            tuple.end()
        }
    }

    /// Serializes the array `value`.
    pub fn serialize<A, S>(value: &A, serializer: S) -> Result<S::Ok, S::Error>
    where
        A: FixedArray,
        A::Item: Serialize,
        S: Serializer,
    {
        serde_text(&Tuple(value.items()), serializer)
    }

    struct ArrayVisitor<A>(PhantomData<A>);

    impl<'de, A: FixedArray> Visitor<'de> for ArrayVisitor<A>
    where
        A::Item: Deserialize<'de>,
    {
        type Value = A;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "an array of {} elements", A::LEN)
        }

        fn visit_seq<Q: de::SeqAccess<'de>>(self, mut seq: Q) -> Result<A, Q::Error> {
            let mut items = Vec::with_capacity(A::LEN);
            while items.len() < A::LEN {
                match seq.next_element()? {
                    Some(item) => items.push(item),
                    None => return Err(de::Error::invalid_length(items.len(), &self)),
                }
            }
            if seq.next_element::<de::IgnoredAny>()?.is_some() {
                return Err(de::Error::invalid_length(A::LEN + 1, &self));
            }
            A::from_items(items).map_err(|items| de::Error::invalid_length(items.len(), &self))
        }
    }

    /// Deserializes an array of exactly as many elements as `A` holds.
    pub fn deserialize<'de, A, D>(deserializer: D) -> Result<A, D::Error>
    where
        A: FixedArray,
        A::Item: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        deserializer.deserialize_tuple(A::LEN, ArrayVisitor::<A>(PhantomData))
    }
}
