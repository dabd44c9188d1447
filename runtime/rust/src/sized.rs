//! The sized writer of the final model (docs/format.md 4): a root's size is walked first
//! ([`crate::Value::final_size`], the generated `Struct::fields_size`), its bytes are made once,
//! and the fields are stored into them in order, each block with one bounds check and no
//! capacity check, the position in a register (C++'s serialize: `extra()`, one resize, stores).

use crate::decimal::Decimal;
use crate::error::{EncodeError, ErrorKind};
use crate::timestamp::Timestamp;
use crate::writer::{copy_short, depth_rule, Writer};
use uuid::Uuid;

/// Stores a final root's values in order into bytes of the size their size walk computed (made by
/// [`Writer::final_root`] and [`Writer::final_field`]). Every store is a block split off the
/// front of the bytes left, with one compare; a block beyond them (a size walk smaller than what
/// is written: a bug) panics, never writes elsewhere, and bytes left unwritten at the end (a
/// larger walk) panic too, so no byte of an earlier root is ever returned.
#[derive(Debug)]
pub struct SizedWriter<'a> {
    /// The bytes not written yet: a block is split off its front.
    rest: &'a mut [u8],
    depth: usize,
    max_depth: usize,
}

macro_rules! appends {
    ($($append:ident $t:ty),* $(,)?) => {$(
        #[doc = concat!("Appends a `", stringify!($t), "` (little-endian).")]
        #[inline(always)]
        pub fn $append(&mut self, v: $t) {
            *self.claim() = v.to_le_bytes();
        }
    )*};
}

impl<'a> SizedWriter<'a> {
    /// Stores into `buf` from its start, at struct level `depth` of `max_depth`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8], depth: usize, max_depth: usize) -> Self {
        SizedWriter { rest: buf, depth, max_depth }
    }

    /// The next `N` bytes (one compare: no sum that could overflow).
    #[inline(always)]
    fn claim<const N: usize>(&mut self) -> &'a mut [u8; N] {
        match std::mem::take(&mut self.rest).split_first_chunk_mut() {
            Some((block, rest)) => {
                self.rest = rest;
                block
            }
            None => beyond(),
        }
    }

    /// The next `n` bytes.
    #[inline(always)]
    fn claim_n(&mut self, n: usize) -> &'a mut [u8] {
        match std::mem::take(&mut self.rest).split_at_mut_checked(n) {
            Some((block, rest)) => {
                self.rest = rest;
                block
            }
            None => beyond(),
        }
    }

    /// Checks that every byte was stored: the walk's size is what was written.
    #[inline(always)]
    pub(crate) fn finish(self) {
        if !self.rest.is_empty() {
            beyond();
        }
    }

    depth_rule!();

    appends! {
        append_u8 u8, append_i8 i8, append_u16 u16, append_i16 i16, append_u32 u32, append_i32 i32,
        append_u64 u64, append_i64 i64, append_f32 f32, append_f64 f64,
    }

    /// Appends a `bool` (0 or 1).
    #[inline(always)]
    pub fn append_bool(&mut self, v: bool) {
        self.append_u8(u8::from(v));
    }

    /// Appends a timestamp.
    #[inline(always)]
    pub fn append_timestamp(&mut self, v: Timestamp) {
        self.append_u64(v.0);
    }

    /// Appends a uuid's 16 bytes.
    #[inline(always)]
    pub fn append_uuid(&mut self, v: &Uuid) {
        *self.claim() = *v.as_bytes();
    }

    /// Appends a decimal's 16 bytes, without trailing fraction zeros (docs/format.md 2.4).
    #[inline(always)]
    pub fn append_decimal(&mut self, v: &Decimal) {
        *self.claim() = v.to_wire();
    }

    /// Appends a collection's count; more than 2^32 - 1 elements are refused.
    #[inline(always)]
    pub fn append_count(&mut self, n: usize) -> Result<(), EncodeError> {
        match u32::try_from(n) {
            Ok(count) => {
                self.append_u32(count);
                Ok(())
            }
            Err(_) => Err(too_many()),
        }
    }

    /// Appends `N` bytes for a run of fixed-size fields (the plan's `Run`) and returns them: the
    /// fields are stored at their offsets in the run ([`crate::Fixed::put_at`]).
    #[inline(always)]
    pub fn append_run<const N: usize>(&mut self) -> &mut [u8; N] {
        self.claim()
    }

    /// Appends a length and the bytes of a string or bytes (its length, below the root's size,
    /// which was checked before anything was written, fits 32 bits).
    #[inline(always)]
    pub fn append_string(&mut self, data: &[u8]) {
        let n = data.len();
        let block = self.claim_n(4 + n);
        let (len, bytes) = block.split_at_mut(4);
        len.copy_from_slice(&(n as u32).to_le_bytes());
        if n <= 16 {
            copy_short(bytes, data); // a few moves instead of a call to memcpy
        } else {
            bytes.copy_from_slice(data);
        }
    }
}

/// Writes a versioned root's blocks (docs/format.md 3) into bytes of the size their size walk
/// computed ([`crate::Value::extra_size`], the generated `Struct::body_size`), zeroed once, in the
/// original's allocation order: a block is allocated by moving the end (no capacity check, no
/// zeroing of its own), and each store into a block or slot is bounds-checked against the bytes.
/// A store beyond them (a walk smaller than what is written: a bug) panics, and so does an end
/// short of the bytes ([`Writer::versioned_root`]), so every byte returned was allocated by this
/// root (the rest are its zeros: an absent optional).
#[derive(Debug)]
pub struct BodyWriter<'a> {
    buf: &'a mut [u8],
    end: usize,
    depth: usize,
    max_depth: usize,
}

macro_rules! puts {
    ($($put:ident $t:ty),* $(,)?) => {$(
        #[doc = concat!("Stores a `", stringify!($t), "` at absolute position `p` (little-endian).")]
        #[inline(always)]
        pub fn $put(&mut self, p: usize, v: $t) {
            *self.block(p) = v.to_le_bytes();
        }
    )*};
}

impl<'a> BodyWriter<'a> {
    /// Allocates into `buf` from `end` (what is before it allocated already), at struct level
    /// `depth` of `max_depth`.
    #[inline(always)]
    pub(crate) fn new(buf: &'a mut [u8], end: usize, depth: usize, max_depth: usize) -> Self {
        BodyWriter { buf, end, depth, max_depth }
    }

    /// Checks that the blocks cover the bytes: the walk's size is what was allocated.
    #[inline(always)]
    pub(crate) fn finish(self) {
        if self.end != self.buf.len() {
            beyond();
        }
    }

    /// The `N` bytes at `p` (of a block allocated before).
    #[inline(always)]
    pub fn block<const N: usize>(&mut self, p: usize) -> &mut [u8; N] {
        match self.buf.get_mut(p..).and_then(<[u8]>::first_chunk_mut) {
            Some(b) => b,
            None => beyond(),
        }
    }

    /// Allocates `n` bytes (zeros) at the end and returns their position. It checks nothing: the
    /// stores into them do.
    #[inline(always)]
    pub fn alloc(&mut self, n: usize) -> usize {
        let p = self.end;
        self.end = p.wrapping_add(n);
        p
    }

    depth_rule!();

    puts! {
        put_u8 u8, put_i8 i8, put_u16 u16, put_i16 i16, put_u32 u32, put_i32 i32, put_u64 u64,
        put_i64 i64, put_f32 f32, put_f64 f64,
    }

    /// Stores a `bool` (0 or 1) at `p`.
    #[inline(always)]
    pub fn put_bool(&mut self, p: usize, v: bool) {
        self.put_u8(p, u8::from(v));
    }

    /// Stores a timestamp at `p`.
    #[inline(always)]
    pub fn put_timestamp(&mut self, p: usize, v: Timestamp) {
        self.put_u64(p, v.0);
    }

    /// Stores a uuid's 16 bytes at `p`.
    #[inline(always)]
    pub fn put_uuid(&mut self, p: usize, v: &Uuid) {
        *self.block(p) = *v.as_bytes();
    }

    /// Stores a decimal's 16 bytes at `p`, without trailing fraction zeros.
    #[inline(always)]
    pub fn put_decimal(&mut self, p: usize, v: &Decimal) {
        *self.block(p) = v.to_wire();
    }

    /// Stores at `slot` the offset of `p` from `base` (a block just allocated; below the root's
    /// size, which was checked to fit 32 bits before anything was written).
    #[inline(always)]
    fn offset(&mut self, base: usize, slot: usize, p: usize) {
        self.put_u32(slot, p.wrapping_sub(base) as u32);
    }

    /// Allocates a struct body of `N` bytes, stores its offset in the slot at `slot` (from
    /// `base`) and its header, and returns its position with its bytes, through which the
    /// fixed-size fields are stored at their offsets ([`crate::Fixed::put_at`]).
    #[inline(always)]
    pub fn struct_block<const N: usize>(&mut self, base: usize, slot: usize, type_id: u32) -> (usize, &mut [u8; N]) {
        let p = self.alloc(N);
        self.offset(base, slot, p);
        let body = self.block::<N>(p);
        body[..4].copy_from_slice(&(N as u32).to_le_bytes());
        body[4..8].copy_from_slice(&type_id.to_le_bytes());
        (p, body)
    }

    /// [`BodyWriter::struct_block`] of a body whose fields are all written through their slots.
    #[inline(always)]
    pub fn struct_body(&mut self, base: usize, slot: usize, body_size: usize, type_id: u32) -> usize {
        let p = self.alloc(body_size);
        self.offset(base, slot, p);
        let header = self.block::<8>(p);
        header[..4].copy_from_slice(&(body_size as u32).to_le_bytes());
        header[4..].copy_from_slice(&type_id.to_le_bytes());
        p
    }

    /// Allocates a length-prefixed block of a string's or bytes' `data` and stores its offset in
    /// the slot (docs/format.md 3.4).
    #[inline(always)]
    pub fn string(&mut self, base: usize, slot: usize, data: &[u8]) {
        let n = data.len();
        let p = self.alloc(4 + n);
        self.offset(base, slot, p);
        let Some((len, bytes)) = self.buf.get_mut(p..).and_then(|b| b.split_first_chunk_mut::<4>()) else { beyond() };
        *len = (n as u32).to_le_bytes();
        let Some(bytes) = bytes.get_mut(..n) else { beyond() };
        if n <= 16 {
            copy_short(bytes, data); // a few moves instead of a call to memcpy
        } else {
            bytes.copy_from_slice(data);
        }
    }

    /// Allocates a collection block of `n` slots of `item` bytes (filled by the elements), stores
    /// its offset and the count, and returns the position of the first slot; more than 2^32 - 1
    /// elements are refused.
    #[inline(always)]
    pub fn vector(&mut self, base: usize, slot: usize, n: usize, item: usize) -> Result<usize, EncodeError> {
        let Ok(count) = u32::try_from(n) else { return Err(too_many()) };
        let p = self.alloc(4 + n.wrapping_mul(item));
        self.put_u32(p, count);
        self.offset(base, slot, p);
        Ok(p + 4)
    }

    /// Marks the optional slot at `slot` present, allocates its value slot of `size` bytes and
    /// returns the value slot's position: the value's base.
    #[inline(always)]
    pub fn optional(&mut self, base: usize, slot: usize, size: usize) -> usize {
        let p = self.alloc(size);
        self.put_u8(slot, 1);
        self.offset(base, slot + 1, p);
        p
    }
}

/// A store beyond the bytes of the size walk, or bytes left unwritten: the walk and the writes
/// disagree (a bug), so nothing is returned.
#[cold]
#[inline(never)]
fn beyond() -> ! {
    panic!("fbe: a root's size walk disagrees with what was written")
}

#[cold]
#[inline(never)]
fn too_many() -> EncodeError {
    EncodeError::new(ErrorKind::TooLarge, "collection of more than 2^32 - 1 elements", "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_in_order_into_exactly_its_bytes() {
        let mut bytes = [0xAAu8; 4 + 4 + 3 + 1 + 2];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_i32(-2);
        w.append_string(b"abc");
        w.append_bool(true);
        w.append_run::<2>().copy_from_slice(&[7, 8]);
        w.finish();
        assert_eq!(bytes, [0xFE, 0xFF, 0xFF, 0xFF, 3, 0, 0, 0, b'a', b'b', b'c', 1, 7, 8]);
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_block_beyond_its_bytes_panics_writing_nothing_else() {
        let mut bytes = [0u8; 7];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_i32(1);
        w.append_string(b"");
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn bytes_left_unwritten_panic() {
        let mut bytes = [0u8; 5];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_i32(1);
        w.finish();
    }

    #[test]
    fn allocates_in_order_and_stores_offsets_from_the_base() {
        let mut bytes = [0u8; 8 + 12 + 4 + 2];
        let mut w = BodyWriter::new(&mut bytes, 8, 0, 1);
        let (b, body) = w.struct_block::<12>(0, 4, 9);
        body[8..].copy_from_slice(&[1, 2, 3, 4]);
        w.string(b, b + 8, b"hi");
        w.finish();
        assert_eq!(&bytes[4..8], &8u32.to_le_bytes()); // the body's offset from 0
        assert_eq!(&bytes[8..16], &[12, 0, 0, 0, 9, 0, 0, 0]); // its size and type
        assert_eq!(&bytes[16..20], &12u32.to_le_bytes()); // the string's offset from the body
        assert_eq!(&bytes[20..], &[2, 0, 0, 0, b'h', b'i']);
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_body_block_beyond_its_bytes_panics() {
        let mut bytes = [0u8; 8 + 12 + 4 + 1];
        let mut w = BodyWriter::new(&mut bytes, 8, 0, 1);
        let (b, _) = w.struct_block::<12>(0, 4, 9);
        w.string(b, b + 8, b"hi");
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn bytes_left_unallocated_panic() {
        let mut bytes = [0u8; 8 + 13];
        let mut w = BodyWriter::new(&mut bytes, 8, 0, 1);
        w.struct_block::<12>(0, 4, 9);
        w.finish();
    }

    #[test]
    fn depth_is_checked_as_the_writer_checks_it() {
        let mut bytes = [0u8; 0];
        let mut w = SizedWriter::new(&mut bytes, 1, 2);
        assert!(w.fits(1, "t").is_ok());
        assert_eq!(w.fits(2, "t").unwrap_err().kind(), ErrorKind::Depth);
        w.enter("t").unwrap();
        assert_eq!(w.enter("t").unwrap_err().kind(), ErrorKind::Depth);
        w.leave();
        w.enter("t").unwrap();
    }
}
