//! The codecs of every value a field, element, key or optional holds, in both models: what the
//! generated code calls for each field, so that it is one line per field.

use crate::collections::{capacity, Unique};
use crate::decimal::Decimal;
use crate::error::{DecodeError, EncodeError};
use crate::keys::{repeated, same_keys, KeyOrd, Pairs, Set};
use crate::limits::Limits;
use crate::reader::{self, Reader};
use crate::sized::{BodyWriter, SizedWriter};
use crate::timestamp::Timestamp;
use crate::writer::{copy_short, Writer};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;
use uuid::Uuid;

/// The codecs of a value in both models (docs/format.md 3.4 and 4.2). Errors carry no field
/// name: the generated code of the struct holding the value puts it in front
/// ([`DecodeError::in_field`]), collections the element's index.
pub trait Value: Sized {
    /// The bytes of its versioned slot (docs/format.md 2.1).
    const SLOT: usize;
    /// The fewest bytes it takes in the final model: what bounds a count by the bytes left.
    const FINAL_MIN: usize;
    /// What a reader charges for it as an element of a collection (docs/limits.md 3; 0 for a
    /// struct, which is charged as a struct).
    const COST: usize;

    /// Writes the value into its slot, the first [`Value::SLOT`] bytes of `slot` (a block's bytes
    /// from the slot on), out-of-line data located from `base`, allocating its
    /// [`Value::extra_size`] bytes. It stores every byte of the slot: the versioned writer does
    /// not zero the bytes first ([`BodyWriter`]), so a byte left out would be an earlier root's.
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError>;
    /// The bytes [`Value::put`] allocates beyond its slot (the versioned model's size walk).
    fn extra_size(&self) -> usize;
    /// Reads the value of the slot at `slot` (inside a checked block), data located from `base`.
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError>;
    /// Appends the value (final model) at the writer's position, into the bytes of its
    /// [`Value::final_size`].
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError>;
    /// The bytes [`Value::append`] writes (the final model's size walk).
    fn final_size(&self) -> usize;
    /// Reads the value at the reader's cursor (final model).
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError>;

    /// Reads the value of the slot at `slot` into `self`, reusing what it holds (a string's or a
    /// vector's buffer, a struct's fields), with the checks, charges and errors of [`Value::get`].
    /// After an error `self` is a valid value, partly read.
    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        *self = Self::get(r, base, slot)?;
        Ok(())
    }

    /// [`Value::get_into`] of the slot at `at` of a checked block `block` at `pos` (a struct body
    /// whose size was checked to hold the slot, or a collection's slots), data located from
    /// `base`: a value with an offset reads it from `block`, with no bounds check of its own (none
    /// at all when `block`'s size is known where it is inlined).
    #[inline(always)]
    fn get_into_at(
        &mut self,
        r: &mut Reader<'_>,
        base: usize,
        block: &[u8],
        pos: usize,
        at: usize,
    ) -> Result<(), DecodeError> {
        let _ = block;
        self.get_into(r, base, pos + at)
    }

    /// [`Value::check`] of the slot at `at` of a checked block, as [`Value::get_into_at`].
    #[inline(always)]
    fn check_at(r: &mut Reader<'_>, base: usize, block: &[u8], pos: usize, at: usize) -> Result<(), DecodeError> {
        let _ = block;
        Self::check(r, base, pos + at)
    }

    /// Reads the value at the cursor into `self` as [`Value::get_into`] does (final model).
    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        *self = Self::take(r)?;
        Ok(())
    }

    /// Checks the value of the slot at `slot` as [`Value::get`] reads it, with the same verdict
    /// and error, making as little of it as it can (verify: docs/limits.md 4).
    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        Self::get(r, base, slot).map(drop)
    }

    /// Checks the value at the cursor as [`Value::take`] reads it (final model).
    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        Self::take(r).map(drop)
    }
}

/// A value of fixed size read without a check of its own: a member of a final-model run of
/// fixed fields (the plan's `Run`) or of a versioned body, read and written at its offset in the
/// run, which was checked (or allocated) once for all its fields.
pub trait Fixed: Value {
    /// The value at `at` of `run`.
    fn at(run: &[u8], at: usize) -> Self;
    /// Stores the value at `at` of `run` (little-endian, as [`Value::put`] does).
    fn put_at(&self, run: &mut [u8], at: usize);
}

macro_rules! scalars {
    ($($t:ty, $size:expr, $get:path, $bytes:expr;)*) => {$(
        impl Value for $t {
            const SLOT: usize = $size;
            const FINAL_MIN: usize = $size;
            const COST: usize = $size;

            #[inline]
            fn put(&self, _w: &mut BodyWriter<'_>, _base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
                self.put_at(slot, 0);
                Ok(())
            }

            #[inline]
            fn get(r: &mut Reader<'_>, _base: usize, slot: usize) -> Result<Self, DecodeError> {
                Ok($get(r.data(), slot))
            }

            #[inline]
            fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
                w.append_fixed(self);
                Ok(())
            }

            #[inline(always)]
            fn final_size(&self) -> usize {
                $size
            }

            #[inline(always)]
            fn extra_size(&self) -> usize {
                0
            }

            #[inline]
            fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                Ok($get(r.fixed($size, "")?, 0))
            }
        }

        impl Fixed for $t {
            #[inline]
            fn at(run: &[u8], at: usize) -> Self {
                $get(run, at)
            }

            #[inline]
            fn put_at(&self, run: &mut [u8], at: usize) {
                run[at..at + $size].copy_from_slice(&$bytes(*self));
            }
        }
    )*};
}

scalars! {
    bool, 1, reader::get_bool, |v: bool| [u8::from(v)];
    u8, 1, reader::get_u8, u8::to_le_bytes;
    i8, 1, reader::get_i8, i8::to_le_bytes;
    u16, 2, reader::get_u16, u16::to_le_bytes;
    i16, 2, reader::get_i16, i16::to_le_bytes;
    u32, 4, reader::get_u32, u32::to_le_bytes;
    i32, 4, reader::get_i32, i32::to_le_bytes;
    u64, 8, reader::get_u64, u64::to_le_bytes;
    i64, 8, reader::get_i64, i64::to_le_bytes;
    f32, 4, reader::get_f32, f32::to_le_bytes;
    f64, 8, reader::get_f64, f64::to_le_bytes;
    Timestamp, 8, reader::get_timestamp, |v: Timestamp| v.0.to_le_bytes();
}

impl Value for Uuid {
    const SLOT: usize = 16;
    const FINAL_MIN: usize = 16;
    const COST: usize = 16;

    #[inline]
    fn put(&self, _w: &mut BodyWriter<'_>, _base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        self.put_at(slot, 0);
        Ok(())
    }

    #[inline]
    fn get(r: &mut Reader<'_>, _base: usize, slot: usize) -> Result<Self, DecodeError> {
        Ok(reader::get_uuid(r.data(), slot))
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        w.append_fixed(self);
        Ok(())
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        16
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        0
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(reader::get_uuid(r.fixed(16, "")?, 0))
    }
}

impl Fixed for Uuid {
    #[inline]
    fn at(run: &[u8], at: usize) -> Self {
        reader::get_uuid(run, at)
    }

    #[inline]
    fn put_at(&self, run: &mut [u8], at: usize) {
        run[at..at + 16].copy_from_slice(self.as_bytes());
    }
}

impl Value for Decimal {
    const SLOT: usize = 16;
    const FINAL_MIN: usize = 16;
    const COST: usize = 16;

    #[inline]
    fn put(&self, _w: &mut BodyWriter<'_>, _base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        slot[..16].copy_from_slice(&self.to_wire());
        Ok(())
    }

    #[inline]
    fn get(r: &mut Reader<'_>, _base: usize, slot: usize) -> Result<Self, DecodeError> {
        r.decimal(slot, "")
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        *w.append_run::<16>() = self.to_wire();
        Ok(())
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        16
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        0
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.final_decimal("")
    }
}

/// A `char` as a set element or map key: its byte, ordered as the original's C++ `char`, which is
/// signed (0x80..=0xFF come before 0x00..=0x7F). Sets and maps are written in ascending order
/// (docs/limits.md 7, as `std::set<char>` holds them), so a `BTreeSet<Char>` or
/// `BTreeMap<Char, V>` iterates in the order every writer writes. Other `char` values are `u8`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Char(pub u8);

impl Ord for Char {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0 as i8).cmp(&(other.0 as i8))
    }
}

impl PartialOrd for Char {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<u8> for Char {
    fn from(v: u8) -> Self {
        Char(v)
    }
}

impl From<Char> for u8 {
    fn from(v: Char) -> Self {
        v.0
    }
}

impl Value for Char {
    const SLOT: usize = 1;
    const FINAL_MIN: usize = 1;
    const COST: usize = 1;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        self.0.put(w, base, slot)
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        u8::get(r, base, slot).map(Char)
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        self.0.append(w)
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        1
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        0
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        u8::take(r).map(Char)
    }
}

impl Fixed for Char {
    #[inline]
    fn at(run: &[u8], at: usize) -> Self {
        Char(reader::get_u8(run, at))
    }

    #[inline]
    fn put_at(&self, run: &mut [u8], at: usize) {
        run[at] = self.0;
    }
}

/// An FBE `bytes` value: any bytes, Base64 in JSON (with the `serde` feature, in any
/// human-readable format too). A newtype of `Vec<u8>` (which it derefs to),
/// so that a `byte[]` vector, a `Vec<u8>`, stays a collection of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub Vec<u8>);

impl std::ops::Deref for Bytes {
    type Target = Vec<u8>;

    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl std::ops::DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes(v)
    }
}

impl From<&[u8]> for Bytes {
    fn from(v: &[u8]) -> Self {
        Bytes(v.to_vec())
    }
}

/// The bytes `b` into a string or bytes value: over its own bytes when it holds as many, in its
/// buffer when that holds them, else in a new one of their size (`make`; the old bytes are not
/// copied to a grown buffer).
#[inline(always)]
fn refill<T: std::ops::DerefMut<Target = Vec<u8>>>(v: &mut T, b: &[u8], make: impl FnOnce(&[u8]) -> T) {
    let n = b.len();
    if n == v.len() && n <= 16 {
        // A reused value mostly holds a string of the same length (C++'s assign_bytes finds it
        // too): copied over in fixed-size parts, with no capacity read and no length stored.
        copy_short(v, b);
    } else {
        // a call: inlined, its branches took the registers of the reader's loops (docs/rust.md,
        // "Performance")
        refill_resized(v, b, make);
    }
}

/// [`refill`] of a final value, `from_b` the bytes of the root from the first of `b`: a short
/// string over one of its length is one 16-byte move of them when they are 16 or more
/// ([`copy_same_length`]).
#[inline(always)]
fn refill_final<T: std::ops::DerefMut<Target = Vec<u8>>>(
    v: &mut T,
    b: &[u8],
    from_b: &[u8],
    make: impl FnOnce(&[u8]) -> T,
) {
    let n = b.len();
    if n == v.len() && n <= 16 {
        copy_same_length(v, b, from_b.first_chunk());
    } else {
        // laid out after the loops that read it: final deserialize 311 -> 303 (the versioned
        // model's `refill` counted 557 -> 559 so, and keeps its layout)
        std::hint::cold_path();
        refill_resized(v, b, make);
    }
}

/// Copies `b`, at most 16 bytes, over the bytes of `v`, of its length: as one 16-byte move of
/// `window` (the 16 bytes of the root from the first of `b`) when `v`'s buffer has room for 16,
/// as C++ copies a short string; else in fixed-size parts ([`copy_short`]).
#[inline(always)]
#[allow(unsafe_code)]
fn copy_same_length(v: &mut Vec<u8>, b: &[u8], window: Option<&[u8; 16]>) {
    debug_assert!(b.len() <= 16 && b.len() == v.len() && window.is_none_or(|w| w.starts_with(b)));
    match window {
        Some(window) if v.capacity() >= 16 => {
            // SAFETY: the buffer of `v` holds `v.capacity()` bytes, at least 16 (just compared):
            // the 16 bytes stored lie in it. Its first `v.len()` bytes stay initialized (written
            // over), the rest is spare capacity, which `Vec` lets a caller write through
            // `as_mut_ptr`; the length is not changed. Nothing but this check bounds the store.
            unsafe { v.as_mut_ptr().cast::<[u8; 16]>().write_unaligned(*window) }
        }
        _ => copy_short(v, b),
    }
}

/// [`refill`] into a value that does not hold a short string of the same length. A short
/// string (16 bytes or fewer) gets a buffer of room for 16, so that the next one of its length
/// is a 16-byte move ([`copy_same_length`]).
#[inline(never)]
fn refill_resized<T: std::ops::DerefMut<Target = Vec<u8>>>(v: &mut T, b: &[u8], make: impl FnOnce(&[u8]) -> T) {
    let n = b.len();
    if n <= 16 {
        // resized in place, then filled without a call to memcpy
        v.clear();
        v.reserve_exact(16);
        v.resize(n, 0);
        copy_short(v, b);
    } else if v.capacity() < n {
        *v = make(b);
    } else {
        v.clear();
        v.extend_from_slice(b);
    }
}

macro_rules! texts {
    ($($t:ty, $get:ident, $get_off:ident, $final_get:ident, $final_window:ident, $make:expr;)*) => {$(
        impl Value for $t {
            const SLOT: usize = 4;
            const FINAL_MIN: usize = 4;
            const COST: usize = 4;

            #[inline]
            fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
                w.string(base, slot, self.as_slice());
                Ok(())
            }

            #[inline]
            fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
                r.$get(base, slot, "").map($make)
            }

            #[inline]
            fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
                w.append_string(self.as_slice());
                Ok(())
            }

            #[inline(always)]
            fn final_size(&self) -> usize {
                4 + self.len()
            }

            #[inline(always)]
            fn extra_size(&self) -> usize {
                4 + self.len()
            }

            #[inline]
            fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                r.$final_get("").map($make)
            }

            #[inline(always)]
            fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
                let b = r.$get(base, slot, "")?;
                refill(self, b, $make);
                Ok(())
            }

            #[inline(always)]
            fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
                let (b, from_b) = r.$final_window("")?;
                refill_final(self, b, from_b, $make);
                Ok(())
            }

            #[inline(always)]
            fn get_into_at(
                &mut self,
                r: &mut Reader<'_>,
                base: usize,
                block: &[u8],
                _pos: usize,
                at: usize,
            ) -> Result<(), DecodeError> {
                let bytes = r.$get_off(base, reader::get_u32(block, at) as usize, "")?;
                refill(self, bytes, $make);
                Ok(())
            }

            #[inline]
            fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
                r.$get(base, slot, "").map(drop)
            }

            #[inline(always)]
            fn check_at(r: &mut Reader<'_>, base: usize, block: &[u8], _pos: usize, at: usize) -> Result<(), DecodeError> {
                r.$get_off(base, reader::get_u32(block, at) as usize, "").map(drop)
            }

            #[inline]
            fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
                r.$final_get("").map(drop)
            }
        }
    )*};
}

texts! {
    bstr::BString, string, string_off, final_string, final_string_window, |b: &[u8]| bstr::BString::from(b);
    Bytes, blob, blob_off, final_blob, final_blob_window, |b: &[u8]| Bytes(b.to_vec());
}

impl<T: Value> Value for Option<T> {
    const SLOT: usize = 5;
    const FINAL_MIN: usize = 1;
    const COST: usize = 1;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        match self {
            None => {
                slot[..5].fill(0); // presence 0 and a zero offset
                Ok(())
            }
            Some(v) => {
                let (p, value) = w.optional(base, slot, T::SLOT);
                v.put(w, p, value)
            }
        }
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        match r.optional(base, slot, T::SLOT, "")? {
            None => Ok(None),
            Some(p) => T::get(r, p, p).map(Some),
        }
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        w.append_fixed(&self.is_some());
        match self {
            None => Ok(()),
            Some(v) => v.append(w),
        }
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        match self {
            None => 1,
            Some(v) => 1 + v.final_size(),
        }
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        match self {
            None => 0,
            Some(v) => T::SLOT + v.extra_size(),
        }
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        if r.final_has("")? {
            T::take(r).map(Some)
        } else {
            Ok(None)
        }
    }

    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        let p = r.optional(base, slot, T::SLOT, "")?;
        optional_into(self, r, p)
    }

    #[inline(always)]
    fn get_into_at(
        &mut self,
        r: &mut Reader<'_>,
        base: usize,
        block: &[u8],
        pos: usize,
        at: usize,
    ) -> Result<(), DecodeError> {
        let p = match block[at] {
            0 => None,
            _ => r.optional_off(base, reader::get_u32(block, at + 1) as usize, pos + at, T::SLOT, "")?,
        };
        optional_into(self, r, p)
    }

    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        match (r.final_has("")?, self) {
            (false, v) => *v = None,
            (true, Some(v)) => v.take_into(r)?,
            (true, v) => *v = Some(T::take(r)?),
        }
        Ok(())
    }

    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        match r.optional(base, slot, T::SLOT, "")? {
            None => Ok(()),
            Some(p) => T::check(r, p, p),
        }
    }

    #[inline(always)]
    fn check_at(r: &mut Reader<'_>, base: usize, block: &[u8], pos: usize, at: usize) -> Result<(), DecodeError> {
        if block[at] == 0 {
            return Ok(());
        }
        match r.optional_off(base, reader::get_u32(block, at + 1) as usize, pos + at, T::SLOT, "")? {
            None => Ok(()),
            Some(p) => T::check_at(r, p, &r.data()[p..p + T::SLOT], p, 0),
        }
    }

    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        if r.final_has("")? {
            T::check_final(r)
        } else {
            Ok(())
        }
    }
}

/// Reads an optional whose value slot is at `p` (`None`: absent) into `v`, reusing the value it
/// holds.
#[inline(always)]
fn optional_into<T: Value>(v: &mut Option<T>, r: &mut Reader<'_>, p: Option<usize>) -> Result<(), DecodeError> {
    match (p, v) {
        (None, v) => *v = None,
        (Some(p), Some(v)) => v.get_into_at(r, p, &r.data()[p..p + T::SLOT], p, 0)?,
        (Some(p), v) => *v = Some(r.detached(|r| T::get(r, p, p))?),
    }
    Ok(())
}

impl<T: Value, const N: usize> Value for [T; N] {
    const SLOT: usize = T::SLOT * N;
    const FINAL_MIN: usize = T::FINAL_MIN * N;
    // docs/limits.md 3: max(1, its share), where struct elements have none
    const COST: usize = if T::COST == 0 || T::FINAL_MIN * N == 0 { 1 } else { T::FINAL_MIN * N };

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        for (i, (v, s)) in self.iter().zip(slots_mut(slot, N, T::SLOT)).enumerate() {
            v.put(w, base, s).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        array((0..N).map(|i| T::get(r, base, slot + i * T::SLOT).map_err(|e| e.in_index(i))))
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        for (i, v) in self.iter().enumerate() {
            v.append(w).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    }

    #[inline]
    fn final_size(&self) -> usize {
        self.iter().map(Value::final_size).sum()
    }

    #[inline]
    fn extra_size(&self) -> usize {
        self.iter().map(Value::extra_size).sum()
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        array((0..N).map(|i| T::take(r).map_err(|e| e.in_index(i))))
    }

    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        get_each(self, r, base, slot)
    }

    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        take_each(self, r)
    }

    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        (0..N).try_for_each(|i| T::check(r, base, slot + i * T::SLOT).map_err(|e| e.in_index(i)))
    }

    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        (0..N).try_for_each(|i| T::check_final(r).map_err(|e| e.in_index(i)))
    }
}

impl<T: Fixed, const N: usize> Fixed for [T; N] {
    fn at(run: &[u8], at: usize) -> Self {
        std::array::from_fn(|i| T::at(run, at + i * T::SLOT))
    }

    #[inline]
    fn put_at(&self, run: &mut [u8], at: usize) {
        for (i, v) in self.iter().enumerate() {
            v.put_at(run, at + i * T::SLOT);
        }
    }
}

/// A large fixed array (`fbec --rust` boxes arrays of more than 4 KiB): on the heap, so that no
/// value of it is ever made on the stack.
impl<T: Value, const N: usize> Value for Box<[T; N]> {
    const SLOT: usize = <[T; N]>::SLOT;
    const FINAL_MIN: usize = <[T; N]>::FINAL_MIN;
    const COST: usize = <[T; N]>::COST;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        (**self).put(w, base, slot)
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        boxed((0..N).map(|i| T::get(r, base, slot + i * T::SLOT).map_err(|e| e.in_index(i))))
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        (**self).append(w)
    }

    #[inline]
    fn final_size(&self) -> usize {
        (**self).final_size()
    }

    #[inline]
    fn extra_size(&self) -> usize {
        (**self).extra_size()
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        boxed((0..N).map(|i| T::take(r).map_err(|e| e.in_index(i))))
    }

    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        get_each(&mut self[..], r, base, slot)
    }

    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        take_each(&mut self[..], r)
    }

    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        <[T; N]>::check(r, base, slot)
    }

    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        <[T; N]>::check_final(r)
    }
}

impl<T: Fixed, const N: usize> Fixed for Box<[T; N]> {
    fn at(run: &[u8], at: usize) -> Self {
        boxed_array(|i| T::at(run, at + i * T::SLOT))
    }

    #[inline]
    fn put_at(&self, run: &mut [u8], at: usize) {
        (**self).put_at(run, at);
    }
}

/// A boxed array of `N` values `f(i)`, made on the heap (a generated default of a large array).
pub fn boxed_array<T, const N: usize>(f: impl FnMut(usize) -> T) -> Box<[T; N]> {
    let v: Vec<T> = (0..N).map(f).collect();
    v.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("N elements made"))
}

/// The `N` values of `items` as a boxed array, or the first error.
fn boxed<T, const N: usize>(items: impl Iterator<Item = Result<T, DecodeError>>) -> Result<Box<[T; N]>, DecodeError> {
    let v = items.collect::<Result<Vec<T>, DecodeError>>()?;
    Ok(v.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("N elements read")))
}

/// Reads the elements of a fixed array (slots from `slot`) into `items`, each reusing its own.
fn get_each<T: Value>(items: &mut [T], r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
    for (i, v) in items.iter_mut().enumerate() {
        v.get_into(r, base, slot + i * T::SLOT).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// Reads the elements of a fixed array at the cursor into `items` (final model).
fn take_each<T: Value>(items: &mut [T], r: &mut Reader<'_>) -> Result<(), DecodeError> {
    for (i, v) in items.iter_mut().enumerate() {
        v.take_into(r).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// The `N` values of `items` as an array, or the first error.
fn array<T, const N: usize>(items: impl Iterator<Item = Result<T, DecodeError>>) -> Result<[T; N], DecodeError> {
    let v = items.collect::<Result<Vec<T>, DecodeError>>()?;
    Ok(v.try_into().unwrap_or_else(|_| unreachable!("N elements read")))
}

/// A map entry held as a pair (maps whose keys a Rust map cannot hold: floats, structs): the key's
/// slot, then the value's.
impl<K: Value, V: Value> Value for (K, V) {
    const SLOT: usize = K::SLOT + V::SLOT;
    const FINAL_MIN: usize = K::FINAL_MIN + V::FINAL_MIN;
    const COST: usize = K::COST + V::COST;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        let (k, v) = slot.split_at_mut(K::SLOT);
        self.0.put(w, base, k)?;
        self.1.put(w, base, v)
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        let k = K::get(r, base, slot)?;
        Ok((k, V::get(r, base, slot + K::SLOT)?))
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        self.0.append(w)?;
        self.1.append(w)
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        self.0.final_size() + self.1.final_size()
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        self.0.extra_size() + self.1.extra_size()
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let k = K::take(r)?;
        Ok((k, V::take(r)?))
    }
}

/// Writes the `n` elements of `items` as a versioned collection block (all slots at once, then
/// the elements in order: docs/format.md 3.5). Inlined into the collection's field, as the
/// struct writers are: as a call, the writer it takes went through memory (docs/rust.md,
/// "Performance").
#[inline(always)]
fn put_all<'v, T: Value + 'v>(
    w: &mut BodyWriter<'_>,
    base: usize,
    slot: &mut [u8],
    n: usize,
    items: impl Iterator<Item = &'v T>,
) -> Result<(), EncodeError> {
    let block = w.vector(base, slot, n, T::SLOT)?;
    for (i, (v, s)) in items.zip(slots_mut(block, n, T::SLOT)).enumerate() {
        v.put(w, base, s).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// The `n` slots of `size` bytes at the front of `block`, in order (a block too short for them, a
/// walk smaller than what is written, panics).
#[inline(always)]
fn slots_mut(block: &mut [u8], n: usize, size: usize) -> std::slice::ChunksExactMut<'_, u8> {
    match block.get_mut(..n.saturating_mul(size)) {
        Some(all) => all.chunks_exact_mut(size),
        None => crate::sized::beyond(),
    }
}

/// Appends the count and the `n` elements of `items` (final model), inlined as [`put_all`].
#[inline(always)]
fn append_all<'v, T: Value + 'v>(
    w: &mut SizedWriter<'_>,
    n: usize,
    items: impl Iterator<Item = &'v T>,
) -> Result<(), EncodeError> {
    append_count(w, n, T::FINAL_MIN)?;
    for (i, v) in items.enumerate() {
        v.append(w).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// Appends the count of a collection of `n` elements (or entries) of `min` final bytes or more
/// each. When `min` is 1 or more it is not checked: the elements lie in the writer's bytes, which
/// the size walk kept within 4 GiB ([`Writer::final_root`], [`Writer::final_field`]), so `n` fits
/// 32 bits; elements of no bytes (structs without fields) are counted with the check.
#[inline(always)]
fn append_count(w: &mut SizedWriter<'_>, n: usize, min: usize) -> Result<(), EncodeError> {
    if min == 0 {
        return w.append_count(n);
    }
    debug_assert!(u32::try_from(n).is_ok());
    w.append_fixed(&(n as u32));
    Ok(())
}

/// What [`put_all`] allocates for the `n` elements of `items`: the count, the slots and what the
/// elements allocate.
#[inline]
fn extra_size_all<'v, T: Value + 'v>(n: usize, items: impl Iterator<Item = &'v T>) -> usize {
    4 + n * T::SLOT + items.map(Value::extra_size).sum::<usize>()
}

/// What [`append_all`] writes: the count and the elements.
#[inline]
fn final_size_all<'v, T: Value + 'v>(items: impl Iterator<Item = &'v T>) -> usize {
    4 + items.map(Value::final_size).sum::<usize>()
}

/// Reads a versioned collection block element by element into `add` (which may refuse a key
/// read twice, naming the element's offset).
fn get_all<T: Value>(
    r: &mut Reader<'_>,
    base: usize,
    slot: usize,
    mut add: impl FnMut(T, usize) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let (first, n) = r.vector(base, slot, T::SLOT, T::COST, "")?;
    for i in 0..n {
        let at = first + i * T::SLOT;
        let v = T::get(r, base, at).map_err(|e| e.in_index(i))?;
        add(v, at).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// Reads a final-model count and its elements into `add`.
fn take_all<T: Value>(
    r: &mut Reader<'_>,
    mut add: impl FnMut(T, usize) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let n = r.final_count(T::FINAL_MIN, T::COST, "")?;
    for i in 0..n {
        let at = r.pos();
        let v = T::take(r).map_err(|e| e.in_index(i))?;
        add(v, at).map_err(|e| e.in_index(i))?;
    }
    Ok(())
}

/// Makes a vector `n` elements long at most before they are read into it: the elements beyond go,
/// and room is made for a few of those to come (never more than the budget pays for nor 4 KiB of
/// them; the rest grow as they are read).
#[inline(always)]
fn make_room<T: Value>(v: &mut Vec<T>, n: usize, budget: usize) {
    if v.len() == n {
        return; // a reused vector mostly holds as many: one compare, no length stored
    }
    v.truncate(n);
    if v.capacity() < n {
        reserve_ahead(v, n, budget); // else as many as the vector held before, or room for them
    }
}

/// Room for a few of the `n` elements to come (out of line: a reused vector has it).
#[inline(never)]
fn reserve_ahead<T: Value>(v: &mut Vec<T>, n: usize, budget: usize) {
    let ahead = capacity(n, T::COST, budget).min(4096 / std::mem::size_of::<T>().max(1));
    if v.capacity() < ahead {
        v.reserve_exact(ahead - v.len());
    }
}

/// The `n` slots of `item` bytes at `first` of a collection block the reader checked
/// ([`Reader::vector`]): its elements' slots are read from them with this one bounds check.
#[inline(always)]
fn slots<'a>(r: &Reader<'a>, first: usize, n: usize, item: usize) -> &'a [u8] {
    &r.data()[first..first + n * item]
}

/// Reads the `n` elements of a versioned collection block (its first slot at `first`, data from
/// `base`) into the vector's own (its first `n`, then new ones): no allocation when the vector
/// held as many before.
#[inline(always)]
fn elements_into<T: Value>(
    v: &mut Vec<T>,
    r: &mut Reader<'_>,
    base: usize,
    first: usize,
    n: usize,
) -> Result<(), DecodeError> {
    make_room(v, n, r.budget());
    let reused = v.len();
    let slots = slots(r, first, n, T::SLOT).chunks_exact(T::SLOT);
    for (i, (x, slot)) in v.iter_mut().zip(slots).enumerate() {
        x.get_into_at(r, base, slot, first + i * T::SLOT, 0).map_err(|e| e.in_index(i))?;
    }
    for i in reused..n {
        let x = r.detached(|r| T::get(r, base, first + i * T::SLOT)).map_err(|e| e.in_index(i))?;
        v.push(x);
    }
    Ok(())
}

/// Checks the `n` elements of a versioned collection block as [`elements_into`] reads them.
#[inline(always)]
fn check_elements<T: Value>(r: &mut Reader<'_>, base: usize, first: usize, n: usize) -> Result<(), DecodeError> {
    let slots = slots(r, first, n, T::SLOT).chunks_exact(T::SLOT);
    slots
        .enumerate()
        .try_for_each(|(i, slot)| T::check_at(r, base, slot, first + i * T::SLOT, 0).map_err(|e| e.in_index(i)))
}

impl<T: Value> Value for Vec<T> {
    const SLOT: usize = 4;
    const FINAL_MIN: usize = 4;
    const COST: usize = 4;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        put_all(w, base, slot, self.len(), self.iter())
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        let mut v = Vec::new();
        get_all(r, base, slot, |x, _| {
            v.push(x);
            Ok(())
        })?;
        Ok(v)
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        append_all(w, self.len(), self.iter())
    }

    #[inline]
    fn final_size(&self) -> usize {
        final_size_all(self.iter())
    }

    #[inline]
    fn extra_size(&self) -> usize {
        extra_size_all(self.len(), self.iter())
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut v = Vec::new();
        let budget = r.budget();
        // a few elements ahead, never more than the budget pays for nor 4 KiB of them
        let ahead = capacity(16, T::COST, budget).min(4096 / std::mem::size_of::<T>().max(1)).max(1);
        take_all(r, |x, _| {
            if v.is_empty() {
                v.reserve(ahead);
            }
            v.push(x);
            Ok(())
        })?;
        Ok(v)
    }

    /// Reads the elements into the vector's own (its first `n`, then new ones): no allocation
    /// when the vector held as many before.
    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        let (first, n) = r.vector(base, slot, T::SLOT, T::COST, "")?;
        elements_into(self, r, base, first, n)
    }

    #[inline(always)]
    fn get_into_at(
        &mut self,
        r: &mut Reader<'_>,
        base: usize,
        block: &[u8],
        _pos: usize,
        at: usize,
    ) -> Result<(), DecodeError> {
        let (first, n) = r.vector_off(base, reader::get_u32(block, at) as usize, T::SLOT, T::COST, "")?;
        elements_into(self, r, base, first, n)
    }

    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let n = r.final_count(T::FINAL_MIN, T::COST, "")?;
        make_room(self, n, r.budget());
        // the elements the vector holds (at most n), then new ones
        let reused = self.len();
        for (i, v) in self.iter_mut().enumerate() {
            v.take_into(r).map_err(|e| e.in_index(i))?;
        }
        for i in reused..n {
            self.push(T::take(r).map_err(|e| e.in_index(i))?);
        }
        Ok(())
    }

    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        let (first, n) = r.vector(base, slot, T::SLOT, T::COST, "")?;
        check_elements::<T>(r, base, first, n)
    }

    #[inline(always)]
    fn check_at(r: &mut Reader<'_>, base: usize, block: &[u8], _pos: usize, at: usize) -> Result<(), DecodeError> {
        let (first, n) = r.vector_off(base, reader::get_u32(block, at) as usize, T::SLOT, T::COST, "")?;
        check_elements::<T>(r, base, first, n)
    }

    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        let n = r.final_count(T::FINAL_MIN, T::COST, "")?;
        (0..n).try_for_each(|i| T::check_final(r).map_err(|e| e.in_index(i)))
    }
}

impl<T: Value + Ord> Value for BTreeSet<T> {
    const SLOT: usize = 4;
    const FINAL_MIN: usize = 4;
    const COST: usize = 4;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        put_all(w, base, slot, self.len(), self.iter())
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        let mut s = BTreeSet::new();
        get_all(r, base, slot, |x, at| s.insert_unique(x, "", at))?;
        Ok(s)
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        append_all(w, self.len(), self.iter())
    }

    #[inline]
    fn final_size(&self) -> usize {
        final_size_all(self.iter())
    }

    #[inline]
    fn extra_size(&self) -> usize {
        extra_size_all(self.len(), self.iter())
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let mut s = BTreeSet::new();
        take_all(r, |x, at| s.insert_unique(x, "", at))?;
        Ok(s)
    }
}

/// The position of element `i` of a collection whose first slot is `first`, for an error.
fn element_at(first: usize, i: usize, slot: usize) -> usize {
    first + i * slot
}

macro_rules! unique_vecs {
    ($($holder:ident<$($p:ident),+>, $item:ty, $map:expr, $key:expr;)*) => {$(
        impl<$($p: Value + KeyOrd),+> Value for $holder<$($p),+> {
            const SLOT: usize = 4;
            const FINAL_MIN: usize = 4;
            const COST: usize = 4;

            #[inline]
            fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
                if let Some(pair) = repeated(&self.0, |a, b| $key(a).key_cmp($key(b))) {
                    return Err(same_keys($map, pair));
                }
                self.0.put(w, base, slot)
            }

            #[inline]
            fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
                let items = Vec::<$item>::get(r, base, slot)?;
                match repeated(&items, |a, b| $key(a).key_cmp($key(b))) {
                    None => Ok($holder(items)),
                    Some((_, k)) => {
                        let first = base + reader::get_u32(r.data(), slot) as usize + 4;
                        Err(Reader::duplicate_key("", element_at(first, k, <$item>::SLOT)).in_index(k))
                    }
                }
            }

            #[inline]
            fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
                if let Some(pair) = repeated(&self.0, |a, b| $key(a).key_cmp($key(b))) {
                    return Err(same_keys($map, pair));
                }
                self.0.append(w)
            }

            #[inline]
            fn final_size(&self) -> usize {
                self.0.final_size()
            }

            #[inline]
            fn extra_size(&self) -> usize {
                self.0.extra_size()
            }

            #[inline]
            fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let at = r.pos();
                let items = Vec::<$item>::take(r)?;
                match repeated(&items, |a, b| $key(a).key_cmp($key(b))) {
                    None => Ok($holder(items)),
                    Some((_, k)) => Err(Reader::duplicate_key("", at).in_index(k)),
                }
            }
        }
    )*};
}

fn element_key<T>(x: &T) -> &T {
    x
}

fn entry_key<K, V>(x: &(K, V)) -> &K {
    &x.0
}

unique_vecs! {
    Set<T>, T, false, element_key;
    Pairs<K, V>, (K, V), true, entry_key;
}

macro_rules! maps {
    ($($map:ident: $($bound:path),+;)*) => {$(
        impl<K: Value $(+ $bound)+, V: Value> Value for $map<K, V> {
            const SLOT: usize = 4;
            const FINAL_MIN: usize = 4;
            const COST: usize = 4;

            #[inline]
            fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
                let n = self.len();
                let block = w.vector(base, slot, n, K::SLOT + V::SLOT)?;
                for (i, ((k, v), s)) in self.iter().zip(slots_mut(block, n, K::SLOT + V::SLOT)).enumerate() {
                    let (ks, vs) = s.split_at_mut(K::SLOT);
                    k.put(w, base, ks).map_err(|e| e.in_index(i))?;
                    v.put(w, base, vs).map_err(|e| e.in_index(i))?;
                }
                Ok(())
            }

            #[inline]
            fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
                let mut m = $map::new();
                get_all::<(K, V)>(r, base, slot, |entry, at| m.insert_unique(entry, "", at))?;
                Ok(m)
            }

            #[inline]
            fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
                append_count(w, self.len(), K::FINAL_MIN + V::FINAL_MIN)?;
                for (i, (k, v)) in self.iter().enumerate() {
                    k.append(w).map_err(|e| e.in_index(i))?;
                    v.append(w).map_err(|e| e.in_index(i))?;
                }
                Ok(())
            }

            #[inline]
            fn final_size(&self) -> usize {
                4 + self.iter().map(|(k, v)| k.final_size() + v.final_size()).sum::<usize>()
            }

            #[inline]
            fn extra_size(&self) -> usize {
                4 + self.len() * (K::SLOT + V::SLOT)
                    + self.iter().map(|(k, v)| k.extra_size() + v.extra_size()).sum::<usize>()
            }

            #[inline]
            fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                let mut m = $map::new();
                take_all::<(K, V)>(r, |entry, at| m.insert_unique(entry, "", at))?;
                Ok(m)
            }
        }
    )*};
}

maps! {
    BTreeMap: Ord;
    HashMap: Hash, Eq;
}

/// Implements [`Value`] and [`Fixed`] for a generated enum held on the wire as the integer
/// `$wire` (its `from_wire` and `to_wire`), or with `flags` for a generated flags type (its
/// `from_bits_retain` and `bits`).
#[macro_export]
macro_rules! scalar_value {
    ($t:ty, $wire:ty) => {
        $crate::scalar_value!(@impl $t, $wire, from_wire, to_wire);
    };
    (flags $t:ty, $wire:ty) => {
        $crate::scalar_value!(@impl $t, $wire, from_bits_retain, bits);
    };
    (@impl $t:ty, $wire:ty, $from:ident, $to:ident) => {
        impl $crate::Value for $t {
            const SLOT: usize = <$wire as $crate::Value>::SLOT;
            const FINAL_MIN: usize = <$wire as $crate::Value>::FINAL_MIN;
            const COST: usize = <$wire as $crate::Value>::COST;

            #[inline]
            fn put(&self, w: &mut $crate::BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), $crate::EncodeError> {
                $crate::Value::put(&self.$to(), w, base, slot)
            }

            #[inline]
            fn get(r: &mut $crate::Reader<'_>, base: usize, slot: usize) -> Result<Self, $crate::DecodeError> {
                <$wire as $crate::Value>::get(r, base, slot).map(<$t>::$from)
            }

            #[inline]
            fn append(&self, w: &mut $crate::SizedWriter<'_>) -> Result<(), $crate::EncodeError> {
                $crate::Value::append(&self.$to(), w)
            }

            #[inline(always)]
            fn final_size(&self) -> usize {
                <$wire as $crate::Value>::FINAL_MIN
            }

            #[inline(always)]
            fn extra_size(&self) -> usize {
                0
            }

            #[inline]
            fn take(r: &mut $crate::Reader<'_>) -> Result<Self, $crate::DecodeError> {
                <$wire as $crate::Value>::take(r).map(<$t>::$from)
            }
        }

        impl $crate::Fixed for $t {
            #[inline]
            fn at(run: &[u8], at: usize) -> Self {
                <$t>::$from(<$wire as $crate::Fixed>::at(run, at))
            }

            #[inline]
            fn put_at(&self, run: &mut [u8], at: usize) {
                $crate::Fixed::put_at(&self.$to(), run, at)
            }
        }

        impl $crate::KeyOrd for $t {
            #[inline]
            fn key_cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.$to().cmp(&other.$to())
            }
        }

        impl $crate::json::JsonValue for $t {
            type Value = $t;

            #[inline]
            fn write(v: &$t, j: &mut $crate::json::JsonWriter) -> Result<(), $crate::EncodeError> {
                <$wire as $crate::json::JsonValue>::write(&v.$to(), j)
            }

            #[inline]
            fn read<'de, D: $crate::json::Deserializer<'de>>(
                d: D,
                r: &mut $crate::json::JsonReader<'de>,
            ) -> Result<$t, D::Error> {
                <$wire as $crate::json::JsonValue>::read(d, r).map(<$t>::$from)
            }
        }

        impl $crate::json::JsonKey for $t {
            fn write_key(k: &$t, j: &mut $crate::json::JsonWriter) -> Result<(), $crate::EncodeError> {
                <$wire as $crate::json::JsonKey>::write_key(&k.$to(), j)
            }

            fn read_key<E: $crate::json::DeError>(
                name: &[u8],
                r: &mut $crate::json::JsonReader<'_>,
            ) -> Result<$t, E> {
                <$wire as $crate::json::JsonKey>::read_key(name, r).map(<$t>::$from)
            }
        }
    };
}

/// A generated struct: its type id and layout, and its codecs in both models, with the roots
/// every struct has (`to_fbe`, `from_fbe`, `read_fbe`, `verify_fbe`, and their final
/// twins). The generated code implements the codecs at the offsets and costs `fbec` decided; a
/// value is read into a value (its own allocations reused), a new value into its default.
pub trait Struct: Sized + Default {
    /// The qualified schema name (`proto.Account`), named by errors.
    const NAME: &'static str;
    /// The type id (docs/format.md 6).
    const TYPE_ID: u32;
    /// The fewest bytes a value takes in the final model.
    const FINAL_MIN: usize;
    /// What making the default value costs when that is more than 4 KiB (docs/limits.md 3), else
    /// 0: such a default is made only once the budget pays for it, else the bytes are verified
    /// first, which fails as the read would.
    const DEFAULT_COST: usize = 0;
    /// Whether every value of the type, read from final-model bytes, costs at most the bytes it
    /// takes there (docs/limits.md 3): every struct it can hold has fields of its own that take
    /// bytes (its own minimum 1 or more) and no collection holds elements that cost more than
    /// they take. Then a final root's budget that is at least its size pays for everything read
    /// from it, and the reader counts no charge ([`Reader::paid_by_bytes`]). `false` is always
    /// right: the charges are then counted one by one.
    const CHARGES_WITHIN_BYTES: bool = false;

    /// Writes the versioned body, its offset stored in the slot at `slot` (from `base`).
    fn write_body(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError>;
    /// The bytes [`Struct::write_body`] allocates: the body and what its fields allocate (the
    /// versioned model's size walk).
    fn body_size(&self) -> usize;
    /// Reads the versioned body at offset `off` from `base` (the offset the slot at `slot` holds)
    /// into `self`, reusing its allocations; the fields an older writer's shorter body lacks take
    /// their defaults.
    fn read_body_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize, off: usize) -> Result<(), DecodeError>;
    /// Appends the fields (final model).
    fn write_fields(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError>;
    /// The bytes [`Struct::write_fields`] writes (the final model's size walk).
    fn fields_size(&self) -> usize;
    /// Reads the fields at the reader's cursor into `self` (final model).
    fn read_fields_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError>;
    /// Checks the versioned body as [`Struct::read_body_into`] reads it, without making the value.
    fn verify_body(r: &mut Reader<'_>, base: usize, slot: usize, off: usize) -> Result<(), DecodeError>;
    /// Checks the fields at the cursor as [`Struct::read_fields`] reads them (final model).
    fn verify_fields(r: &mut Reader<'_>) -> Result<(), DecodeError>;

    /// Reads the versioned body the slot at `slot` points to (from `base`) as a new value.
    #[inline]
    fn read_body(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        let off = reader::get_u32(r.data(), slot) as usize;
        if !r.affords(Self::DEFAULT_COST) {
            Self::verify_body(&mut r.clone(), base, slot, off)?;
        }
        let mut v = Self::default();
        v.read_body_into(r, base, slot, off)?;
        Ok(v)
    }

    /// Reads the fields at the reader's cursor as a new value (final model).
    #[inline]
    fn read_fields(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        if !r.affords(Self::DEFAULT_COST) {
            Self::verify_fields(&mut r.clone())?;
        }
        let mut v = Self::default();
        v.read_fields_into(r)?;
        Ok(v)
    }

    /// The value as a versioned root (docs/format.md 3.2).
    fn to_fbe(&self) -> Result<Vec<u8>, EncodeError> {
        let mut w = Writer::new();
        self.write_fbe(&mut w)?;
        Ok(w.take())
    }

    /// Writes the value as a versioned root into `w` (reset first) and returns its bytes: with a
    /// reused writer, serializing allocates nothing. `#[inline]`, as `write_final`: a call
    /// returned the bytes through memory and kept its own frame (docs/rust.md, "Performance").
    #[inline]
    fn write_fbe<'w>(&self, w: &'w mut Writer) -> Result<&'w [u8], EncodeError> {
        w.versioned_root(self.body_size(), |w, slot| self.write_body(w, 0, slot)).map_err(|e| e.within(Self::NAME))
    }

    /// Reads a value from a versioned root under the default limits.
    fn from_fbe(data: &[u8]) -> Result<Self, DecodeError> {
        Self::from_fbe_with(data, &Limits::DEFAULT)
    }

    /// Reads a value from a versioned root under `limits`.
    fn from_fbe_with(data: &[u8], limits: &Limits) -> Result<Self, DecodeError> {
        let mut r = Reader::versioned(data, limits).map_err(|e| e.within(Self::NAME))?;
        Self::read_body(&mut r, 0, 4).map_err(|e| e.within(Self::NAME))
    }

    /// Reads a versioned root into `self` under the default limits, reusing its allocations
    /// (strings, vectors, the structs they hold): with a reused value, deserializing allocates only
    /// what the value did not hold yet. It fails exactly when [`Struct::from_fbe`] fails, with its
    /// error, and then leaves `self` a valid value, partly read.
    ///
    /// A call of its own, not `#[inline]` as the other roots are: inlined into the caller, the
    /// trade `Account`'s read spilled more in the loop over its orders than its constant limits
    /// saved; as a call, the limits are constants in it (the budget without a multiply, no depth
    /// compared with 128) and the loop spills no more (docs/rust.md, "Performance").
    #[inline(never)]
    fn read_fbe(&mut self, data: &[u8]) -> Result<(), DecodeError> {
        read_versioned(self, data, &Limits::DEFAULT)
    }

    /// Reads a versioned root into `self` under `limits`.
    fn read_fbe_with(&mut self, data: &[u8], limits: &Limits) -> Result<(), DecodeError> {
        read_versioned(self, data, limits)
    }

    /// `Ok` exactly when [`Struct::from_fbe_with`] succeeds, with its error otherwise
    /// (docs/limits.md 4); it makes no value but the sets and maps whose keys it compares.
    /// `#[inline]`, as the final model's roots: a caller's constant limits (`&Limits::DEFAULT`)
    /// fold into the checks (the budget without a multiply, no compare with a depth of 128).
    #[inline]
    fn verify_fbe(data: &[u8], limits: &Limits) -> Result<(), DecodeError> {
        let mut r = Reader::versioned(data, limits).map_err(|e| e.within(Self::NAME))?;
        let off = reader::get_u32(r.data(), 4) as usize;
        Self::verify_body(&mut r, 0, 4, off).map_err(|e| e.within(Self::NAME))
    }

    /// The value as a final root (docs/format.md 4.1).
    fn to_final(&self) -> Result<Vec<u8>, EncodeError> {
        let mut w = Writer::new();
        self.write_final(&mut w)?;
        Ok(w.take())
    }

    /// Writes the value as a final root into `w` (reset first) and returns its bytes (`#[inline]`,
    /// as `write_fbe`).
    #[inline]
    fn write_final<'w>(&self, w: &'w mut Writer) -> Result<&'w [u8], EncodeError> {
        w.final_root(self.fields_size(), Self::TYPE_ID, |w| self.write_fields(w)).map_err(|e| e.within(Self::NAME))
    }

    /// Reads a value from a final root under the default limits.
    fn from_final(data: &[u8]) -> Result<Self, DecodeError> {
        Self::from_final_with(data, &Limits::DEFAULT)
    }

    /// Reads a value from a final root under `limits`.
    fn from_final_with(data: &[u8], limits: &Limits) -> Result<Self, DecodeError> {
        let r = Reader::final_root(data, Self::TYPE_ID, limits).map_err(|e| e.within(Self::NAME))?;
        let mut r = r.paid_by_bytes(Self::CHARGES_WITHIN_BYTES, limits);
        let v = Self::read_fields(&mut r).map_err(|e| e.within(Self::NAME))?;
        r.end_final().map_err(|e| e.within(Self::NAME))?;
        Ok(v)
    }

    /// Reads a final root into `self` under the default limits, reusing its allocations (as
    /// [`Struct::read_fbe`]).
    #[inline]
    fn read_final(&mut self, data: &[u8]) -> Result<(), DecodeError> {
        self.read_final_with(data, &Limits::DEFAULT)
    }

    /// Reads a final root into `self` under `limits`.
    #[inline]
    fn read_final_with(&mut self, data: &[u8], limits: &Limits) -> Result<(), DecodeError> {
        let r = Reader::final_root(data, Self::TYPE_ID, limits).map_err(|e| e.within(Self::NAME))?;
        let mut r = r.paid_by_bytes(Self::CHARGES_WITHIN_BYTES, limits);
        self.read_fields_into(&mut r).map_err(|e| e.within(Self::NAME))?;
        r.end_final().map_err(|e| e.within(Self::NAME))
    }

    /// `Ok` exactly when [`Struct::from_final_with`] succeeds, with its error otherwise.
    #[inline]
    fn verify_final(data: &[u8], limits: &Limits) -> Result<(), DecodeError> {
        let r = Reader::final_root(data, Self::TYPE_ID, limits).map_err(|e| e.within(Self::NAME))?;
        let mut r = r.paid_by_bytes(Self::CHARGES_WITHIN_BYTES, limits);
        Self::verify_fields(&mut r).map_err(|e| e.within(Self::NAME))?;
        r.end_final().map_err(|e| e.within(Self::NAME))
    }
}

/// [`Struct::read_fbe_with`], inlined where the limits are known.
#[inline(always)]
fn read_versioned<T: Struct>(v: &mut T, data: &[u8], limits: &Limits) -> Result<(), DecodeError> {
    let mut r = Reader::versioned(data, limits).map_err(|e| e.within(T::NAME))?;
    let off = reader::get_u32(r.data(), 4) as usize;
    v.read_body_into(&mut r, 0, 4, off).map_err(|e| e.within(T::NAME))
}

/// A boxed struct is the struct on the wire: `fbec --rust` holds an optional struct as
/// `Option<Box<T>>` (docs/rust.md), so that an absent one takes a pointer's 8 bytes in memory,
/// not the struct's size (docs/limits.md 3).
impl<T: Struct> Struct for Box<T> {
    const NAME: &'static str = T::NAME;
    const TYPE_ID: u32 = T::TYPE_ID;
    const FINAL_MIN: usize = <T as Struct>::FINAL_MIN;
    const CHARGES_WITHIN_BYTES: bool = T::CHARGES_WITHIN_BYTES;

    #[inline]
    fn write_body(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        (**self).write_body(w, base, slot)
    }

    #[inline(always)]
    fn body_size(&self) -> usize {
        (**self).body_size()
    }

    #[inline(always)]
    fn read_body_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize, off: usize) -> Result<(), DecodeError> {
        (**self).read_body_into(r, base, slot, off)
    }

    #[inline]
    fn read_fields_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        (**self).read_fields_into(r)
    }

    #[inline]
    fn read_body(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        T::read_body(r, base, slot).map(Box::new)
    }

    #[inline]
    fn write_fields(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        (**self).write_fields(w)
    }

    #[inline(always)]
    fn fields_size(&self) -> usize {
        (**self).fields_size()
    }

    #[inline]
    fn read_fields(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        T::read_fields(r).map(Box::new)
    }

    #[inline]
    fn verify_body(r: &mut Reader<'_>, base: usize, slot: usize, off: usize) -> Result<(), DecodeError> {
        T::verify_body(r, base, slot, off)
    }

    #[inline]
    fn verify_fields(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        T::verify_fields(r)
    }
}

impl<T: Struct> Value for T {
    const SLOT: usize = 4;
    const FINAL_MIN: usize = <T as Struct>::FINAL_MIN;
    const COST: usize = 0;

    #[inline]
    fn put(&self, w: &mut BodyWriter<'_>, base: usize, slot: &mut [u8]) -> Result<(), EncodeError> {
        self.write_body(w, base, slot)
    }

    #[inline]
    fn get(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<Self, DecodeError> {
        T::read_body(r, base, slot)
    }

    #[inline]
    fn get_into(&mut self, r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        self.read_body_into(r, base, slot, reader::get_u32(r.data(), slot) as usize)
    }

    #[inline(always)]
    fn get_into_at(
        &mut self,
        r: &mut Reader<'_>,
        base: usize,
        block: &[u8],
        pos: usize,
        at: usize,
    ) -> Result<(), DecodeError> {
        self.read_body_into(r, base, pos + at, reader::get_u32(block, at) as usize)
    }

    #[inline]
    fn take_into(&mut self, r: &mut Reader<'_>) -> Result<(), DecodeError> {
        self.read_fields_into(r)
    }

    #[inline]
    fn append(&self, w: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        self.write_fields(w)
    }

    #[inline(always)]
    fn final_size(&self) -> usize {
        self.fields_size()
    }

    #[inline(always)]
    fn extra_size(&self) -> usize {
        self.body_size()
    }

    #[inline]
    fn take(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        T::read_fields(r)
    }

    #[inline]
    fn check(r: &mut Reader<'_>, base: usize, slot: usize) -> Result<(), DecodeError> {
        T::verify_body(r, base, slot, reader::get_u32(r.data(), slot) as usize)
    }

    #[inline(always)]
    fn check_at(r: &mut Reader<'_>, base: usize, block: &[u8], pos: usize, at: usize) -> Result<(), DecodeError> {
        T::verify_body(r, base, pos + at, reader::get_u32(block, at) as usize)
    }

    #[inline]
    fn check_final(r: &mut Reader<'_>) -> Result<(), DecodeError> {
        T::verify_fields(r)
    }
}

/// How many of a versioned body's fields its `size` holds: `ends` are the fields' ends (each the
/// body bytes that hold the field's slot), in order. An older writer's shorter body holds fewer.
#[inline]
pub fn present(size: usize, ends: &[usize]) -> usize {
    ends.iter().take_while(|&&end| end <= size).count()
}

impl BodyWriter<'_> {
    /// Writes `v` into its slot, the front of `slot` (from `base`); an error names `field` (the
    /// generated versioned writers' one call per field).
    #[inline(always)]
    pub fn field<T: Value>(&mut self, v: &T, base: usize, slot: &mut [u8], field: &str) -> Result<(), EncodeError> {
        v.put(self, base, slot).map_err(|e| e.in_field(field))
    }
}

impl SizedWriter<'_> {
    /// Appends `v` (final model); an error names `field` (the generated final writers' one call
    /// per field).
    #[inline(always)]
    pub fn final_field<T: Value>(&mut self, v: &T, field: &str) -> Result<(), EncodeError> {
        v.append(self).map_err(|e| e.in_field(field))
    }
}

impl Reader<'_> {
    /// Reads the value of the slot at `slot` (from `base`); an error names `field` (the generated
    /// versioned readers' one call per field).
    #[inline]
    pub fn field<T: Value>(&mut self, base: usize, slot: usize, field: &str) -> Result<T, DecodeError> {
        T::get(self, base, slot).map_err(|e| e.in_field(field))
    }

    /// Reads the value of the slot at `slot` (from `base`) into `v`, reusing its allocations; an
    /// error names `field`.
    #[inline]
    pub fn field_into<T: Value>(
        &mut self,
        v: &mut T,
        base: usize,
        slot: usize,
        field: &str,
    ) -> Result<(), DecodeError> {
        v.get_into(self, base, slot).map_err(|e| e.in_field(field))
    }

    /// Reads the value at the cursor into `v`, reusing its allocations (final model); an error
    /// names `field`.
    #[inline]
    pub fn final_field_into<T: Value>(&mut self, v: &mut T, field: &str) -> Result<(), DecodeError> {
        v.take_into(self).map_err(|e| e.in_field(field))
    }

    /// [`Reader::final_field_into`] of a fixed-size value `f` (of the field `first`), then of the
    /// string or bytes value `s` after it (of `second`): generated for such a pair of fields (an
    /// `Order`'s id and symbol). Where it is inlined, both claims fold into one compare of the
    /// bytes left with the value's size and the length's 4 bytes; with fewer bytes left, the two
    /// are read one by one as well, failing as they fail (the same verdict and error).
    #[inline(always)]
    pub fn final_fixed_text_into<F: Fixed, S: Value>(
        &mut self,
        f: &mut F,
        s: &mut S,
        first: &str,
        second: &str,
    ) -> Result<(), DecodeError> {
        if self.final_holds(F::SLOT + 4) {
            self.final_field_into(f, first)?;
            return self.final_field_into(s, second);
        }
        self.final_field_into(f, first)?;
        self.final_field_into(s, second)
    }

    /// Reads the value at the cursor (final model); an error names `field`.
    #[inline]
    pub fn final_field<T: Value>(&mut self, field: &str) -> Result<T, DecodeError> {
        T::take(self).map_err(|e| e.in_field(field))
    }

    /// [`Reader::field_into`] of the slot at `at` of a checked struct body `body` at `b`
    /// ([`Value::get_into_at`]); an error names `field`.
    #[inline(always)]
    pub fn field_into_at<T: Value>(
        &mut self,
        v: &mut T,
        b: usize,
        body: &[u8],
        at: usize,
        field: &str,
    ) -> Result<(), DecodeError> {
        v.get_into_at(self, b, body, b, at).map_err(|e| e.in_field(field))
    }

    /// [`Reader::check`] of the slot at `at` of a checked struct body `body` at `b`.
    #[inline(always)]
    pub fn check_at<T: Value>(&mut self, b: usize, body: &[u8], at: usize, field: &str) -> Result<(), DecodeError> {
        T::check_at(self, b, body, b, at).map_err(|e| e.in_field(field))
    }

    /// Checks the value of the slot at `slot` as [`Reader::field`] reads it (generated verify code).
    #[inline]
    pub fn check<T: Value>(&mut self, base: usize, slot: usize, field: &str) -> Result<(), DecodeError> {
        T::check(self, base, slot).map_err(|e| e.in_field(field))
    }

    /// Checks the value at the cursor as [`Reader::final_field`] reads it.
    #[inline]
    pub fn final_check<T: Value>(&mut self, field: &str) -> Result<(), DecodeError> {
        T::check_final(self).map_err(|e| e.in_field(field))
    }
}
