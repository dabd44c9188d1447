//! What the generated readers of sets, maps and hashes share: a key read twice is refused
//! (docs/limits.md 4), whatever container the schema's collection is held in.

use crate::error::DecodeError;
use crate::reader::Reader;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::Hash;

/// A set or map a reader fills entry by entry, refusing a key it holds already: the same
/// comparison decides the wire order, the sameness of keys and the container's (`Ord` for
/// `BTreeSet`/`BTreeMap`, `Hash` + `Eq` for `HashSet`/`HashMap`; decimals compare by value).
pub trait Unique {
    /// What one entry is: the element of a set, the `(key, value)` of a map.
    type Entry;

    /// Inserts `entry`; a key held already is the error of `field` at `at`.
    fn insert_unique(&mut self, entry: Self::Entry, field: &str, at: usize) -> Result<(), DecodeError>;
}

macro_rules! unique_set {
    ($set:ident, $($bound:tt)+) => {
        impl<T: $($bound)+> Unique for $set<T> {
            type Entry = T;

            fn insert_unique(&mut self, entry: T, field: &str, at: usize) -> Result<(), DecodeError> {
                if self.insert(entry) {
                    Ok(())
                } else {
                    Err(Reader::duplicate_key(field, at))
                }
            }
        }
    };
}

macro_rules! unique_map {
    ($map:ident, $entry:path, $($bound:tt)+) => {
        impl<K: $($bound)+, V> Unique for $map<K, V> {
            type Entry = (K, V);

            fn insert_unique(&mut self, (k, v): (K, V), field: &str, at: usize) -> Result<(), DecodeError> {
                use $entry as Entry;
                match self.entry(k) {
                    Entry::Vacant(e) => {
                        e.insert(v);
                        Ok(())
                    }
                    Entry::Occupied(_) => Err(Reader::duplicate_key(field, at)),
                }
            }
        }
    };
}

unique_set!(BTreeSet, Ord);
unique_set!(HashSet, Hash + Eq);
unique_map!(BTreeMap, std::collections::btree_map::Entry, Ord);
unique_map!(HashMap, std::collections::hash_map::Entry, Hash + Eq);

/// The capacity to reserve for `n` elements read that cost `cost` each against a budget of
/// `budget` bytes left: never more than the budget pays for, so a count of elements that take
/// no bytes (bounded by the budget alone, docs/limits.md 3) cannot size an allocation.
pub fn capacity(n: usize, cost: usize, budget: usize) -> usize {
    match budget.checked_div(cost) {
        Some(paid) => n.min(paid + 1),
        None => n,
    }
}
