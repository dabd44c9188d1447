//! The one comparison of set elements and map keys that Rust's own `Ord` cannot give: floats
//! (-0.0 and 0.0 are one key) and structs (their `[key]` fields), so that a set or map whose
//! keys are such values holds each once (docs/limits.md 4). Such sets and maps are held in wire
//! order as [`Set`] and [`Pairs`]; the readers refuse a key read twice and the writers refuse to
//! write one.

use crate::decimal::Decimal;
use crate::error::{EncodeError, ErrorKind};
use crate::timestamp::Timestamp;
use crate::value::{Bytes, Char};
use std::cmp::Ordering;
use uuid::Uuid;

/// The order of set elements and map keys, and their sameness: two keys are the same when
/// `key_cmp` gives `Equal`. It is a total order (so sorting by it never panics).
pub trait KeyOrd {
    /// Compares `self` and `other` as keys.
    fn key_cmp(&self, other: &Self) -> Ordering;
}

macro_rules! by_ord {
    ($($t:ty),*) => {$(
        impl KeyOrd for $t {
            #[inline]
            fn key_cmp(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}

by_ord!(bool, u8, Char, i8, u16, i16, u32, i32, u64, i64, Decimal, Timestamp, Uuid, bstr::BString, Bytes);

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl KeyOrd for $t {
            /// By value, -0.0 and 0.0 being the same key; NaNs after every number (by their bits).
            #[inline]
            fn key_cmp(&self, other: &Self) -> Ordering {
                let (a, b) = (if *self == 0.0 { 0.0 } else { *self }, if *other == 0.0 { 0.0 } else { *other });
                a.total_cmp(&b)
            }
        }
    )*};
}

floats!(f32, f64);

impl<T: KeyOrd> KeyOrd for Option<T> {
    fn key_cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => a.key_cmp(b),
        }
    }
}

impl<T: KeyOrd> KeyOrd for [T] {
    fn key_cmp(&self, other: &Self) -> Ordering {
        for (a, b) in self.iter().zip(other) {
            match a.key_cmp(b) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        self.len().cmp(&other.len())
    }
}

impl<T: KeyOrd, const N: usize> KeyOrd for [T; N] {
    fn key_cmp(&self, other: &Self) -> Ordering {
        self[..].key_cmp(&other[..])
    }
}

impl<T: KeyOrd + ?Sized> KeyOrd for Box<T> {
    fn key_cmp(&self, other: &Self) -> Ordering {
        (**self).key_cmp(&**other)
    }
}

impl<T: KeyOrd> KeyOrd for Vec<T> {
    fn key_cmp(&self, other: &Self) -> Ordering {
        self[..].key_cmp(&other[..])
    }
}

/// The indexes of two items whose keys are the same (the smaller first), or `None`: one
/// comparison per item when they come in key order, a sort of their indexes otherwise.
pub fn repeated<T>(items: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Option<(usize, usize)> {
    let mut in_order = true;
    for i in 1..items.len() {
        match cmp(&items[i - 1], &items[i]) {
            Ordering::Less => {}
            Ordering::Equal => return Some((i - 1, i)),
            Ordering::Greater => in_order = false,
        }
    }
    if in_order {
        return None;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| cmp(&items[a], &items[b]).then(a.cmp(&b)));
    order
        .windows(2)
        .find(|w| cmp(&items[w[0]], &items[w[1]]) == Ordering::Equal)
        .map(|w| (w[0].min(w[1]), w[0].max(w[1])))
}

/// A set whose elements Rust's `Ord` cannot order (floats, structs compared by their `[key]`
/// fields): the elements in the order they are written (docs/format.md 3.4), each key once. The
/// writers refuse a set holding a key twice, the readers a buffer that does.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Set<T>(pub Vec<T>);

/// A map or hash whose keys Rust's `Ord` cannot order: its `(key, value)` entries in the order
/// they are written, each key once (refused as [`Set`]'s).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pairs<K, V>(pub Vec<(K, V)>);

impl<T> std::ops::Deref for Set<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Set<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<K, V> std::ops::Deref for Pairs<K, V> {
    type Target = Vec<(K, V)>;

    fn deref(&self) -> &Vec<(K, V)> {
        &self.0
    }
}

impl<K, V> std::ops::DerefMut for Pairs<K, V> {
    fn deref_mut(&mut self) -> &mut Vec<(K, V)> {
        &mut self.0
    }
}

/// The error of a set or map to write that holds a key twice, at indexes `i` and `k`.
#[cold]
pub(crate) fn same_keys(map: bool, (i, k): (usize, usize)) -> EncodeError {
    let what = if map { "two entries have the same key" } else { "two elements are the same" };
    EncodeError::new(ErrorKind::Duplicate, format!("{what}, [{i}] and [{k}]"), "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_keys_by_value() {
        assert_eq!((-0.0f64).key_cmp(&0.0), Ordering::Equal);
        assert_eq!(1.5f32.key_cmp(&2.0), Ordering::Less);
        assert_eq!(f64::NAN.key_cmp(&f64::INFINITY), Ordering::Greater);
        assert_eq!(repeated(&[1.0f64, 2.0, -0.0, 0.0], |a, b| a.key_cmp(b)), Some((2, 3)));
        assert_eq!(repeated(&[3.0f64, 1.0, 2.0, 3.0], |a, b| a.key_cmp(b)), Some((0, 3)));
        assert_eq!(repeated(&[3.0f64, 1.0, 2.0], |a, b| a.key_cmp(b)), None);
        let nans = [f64::NAN, 1.0, -f64::NAN, f64::NAN];
        assert_eq!(repeated(&nans, |a, b| a.key_cmp(b)), Some((0, 3))); // never a panic of sort_by
    }
}
