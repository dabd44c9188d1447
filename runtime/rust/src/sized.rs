//! The sized writer of the final model (docs/format.md 4): a root's size is walked first
//! ([`crate::Value::final_size`], the generated `Struct::fields_size`), its bytes are made once,
//! and the fields are stored into them in order, each block with one bounds check and no
//! capacity check, the position in a register (C++'s serialize: `extra()`, one resize, stores).

use crate::error::{EncodeError, ErrorKind};
use crate::value::Fixed;
use crate::writer::{copy_bytes, depth_rule, Writer};

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

    /// Claims the next `n` bytes as a writer of their own, for fields whose sizes add up at no
    /// cost (the plan's final claims: runs, fixed-size fields, strings and bytes; `n` their sum):
    /// one compare for all of them. Where it is inlined, the compiler knows the part's length from
    /// the same lengths the stores into it use, and checks none of them again; a part that is not
    /// filled exactly panics as the root does ([`SizedWriter::finish`]).
    #[inline(always)]
    pub fn part(&mut self, n: usize) -> SizedWriter<'a> {
        SizedWriter { rest: self.claim_n(n), depth: self.depth, max_depth: self.max_depth }
    }

    /// Checks that every byte was stored: the walk's size is what was written (a part's size,
    /// what was written into it).
    #[inline(always)]
    pub fn finish(self) {
        if !self.rest.is_empty() {
            beyond();
        }
    }

    depth_rule!();

    /// Appends a value of fixed size in its slot's bytes (the one encoding of a scalar type,
    /// [`Fixed::put_at`]).
    #[inline(always)]
    pub fn append_fixed<T: Fixed>(&mut self, v: &T) {
        v.put_at(self.claim_n(T::SLOT), 0);
    }

    /// Appends a collection's count; more than 2^32 - 1 elements are refused.
    #[inline(always)]
    pub fn append_count(&mut self, n: usize) -> Result<(), EncodeError> {
        match u32::try_from(n) {
            Ok(count) => {
                self.append_fixed(&count);
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
        copy_bytes(bytes, data);
    }
}

/// Writes a versioned root's blocks (docs/format.md 3) into bytes of the size their size walk
/// computed ([`crate::Value::extra_size`], the generated `Struct::body_size`), in the original's
/// allocation order. The bytes are not zeroed first (an earlier root's are written over): a struct
/// body is zeroed as it is allocated, and every other byte is stored, a string's block by
/// [`BodyWriter::string`], a slot by its value's [`crate::Value::put`], which writes all of it (an
/// absent optional its zeros). A block is split off the front of the bytes not allocated yet
/// (one compare, no capacity check) and handed out whole, as a slice or a
/// `&mut [u8; N]` of its own: a struct's fields, a value's slot, a collection's slots are stored
/// into the block that holds them at offsets the compiler checks (a constant offset into an
/// array costs nothing at run time), never at a position in the root. A block beyond the bytes
/// (a walk smaller than what is written: a bug) panics, and so does an end short of them
/// ([`Writer::versioned_root`]), so every byte returned was allocated by this root.
#[derive(Debug)]
pub struct BodyWriter<'a> {
    /// The bytes not allocated yet: a block is split off its front.
    rest: &'a mut [u8],
    /// The root's size: the position of `rest` is `size - rest.len()`.
    size: usize,
    depth: usize,
    max_depth: usize,
}

impl<'a> BodyWriter<'a> {
    /// Allocates from `rest`, the bytes of a root of `size` bytes after what is allocated already,
    /// at struct level `depth` of `max_depth`.
    #[inline(always)]
    pub(crate) fn new(rest: &'a mut [u8], size: usize, depth: usize, max_depth: usize) -> Self {
        BodyWriter { rest, size, depth, max_depth }
    }

    /// Checks that the blocks cover the bytes: the walk's size is what was allocated.
    #[inline(always)]
    pub(crate) fn finish(self) {
        if !self.rest.is_empty() {
            beyond();
        }
    }

    /// Allocates `n` bytes (zeros): their position and the bytes.
    #[inline(always)]
    fn alloc(&mut self, n: usize) -> (usize, &'a mut [u8]) {
        let p = self.size - self.rest.len();
        match std::mem::take(&mut self.rest).split_at_mut_checked(n) {
            Some((block, rest)) => {
                self.rest = rest;
                (p, block)
            }
            None => beyond(),
        }
    }

    /// Allocates `N` bytes (zeros): their position and the bytes.
    #[inline(always)]
    fn alloc_chunk<const N: usize>(&mut self) -> (usize, &'a mut [u8; N]) {
        let p = self.size - self.rest.len();
        match std::mem::take(&mut self.rest).split_first_chunk_mut() {
            Some((block, rest)) => {
                self.rest = rest;
                (p, block)
            }
            None => beyond(),
        }
    }

    depth_rule!();

    /// Allocates a struct body of `N` bytes, stores its offset from `base` in `slot` and its
    /// header, and returns its position (the base of its fields) with its bytes, through which
    /// the fixed-size fields are stored at their offsets ([`crate::Fixed::put_at`]) and the other
    /// fields get their slots.
    #[inline(always)]
    pub fn struct_block<const N: usize>(
        &mut self,
        base: usize,
        slot: &mut [u8],
        type_id: u32,
    ) -> (usize, &'a mut [u8; N]) {
        let (p, body) = self.alloc_chunk::<N>();
        offset(slot, base, p);
        *body = [0; N]; // what no field covers is zero (stores the fields make are not made twice)
        body[..4].copy_from_slice(&(N as u32).to_le_bytes());
        body[4..8].copy_from_slice(&type_id.to_le_bytes());
        (p, body)
    }

    /// Allocates a length-prefixed block of a string's or bytes' `data` and stores its offset
    /// from `base` in `slot` (docs/format.md 3.4).
    #[inline(always)]
    pub fn string(&mut self, base: usize, slot: &mut [u8], data: &[u8]) {
        let n = data.len();
        let (p, block) = self.alloc(4 + n);
        offset(slot, base, p);
        let (len, bytes) = block.split_at_mut(4);
        len.copy_from_slice(&(n as u32).to_le_bytes());
        copy_bytes(bytes, data);
    }

    /// Allocates a collection block of `n` slots of `item` bytes, stores its offset from `base`
    /// in `slot` and the count, and returns the slots (filled by the elements, whose base stays
    /// `base`); more than 2^32 - 1 elements are refused.
    #[inline(always)]
    pub fn vector(&mut self, base: usize, slot: &mut [u8], n: usize, item: usize) -> Result<&'a mut [u8], EncodeError> {
        let Ok(count) = u32::try_from(n) else { return Err(too_many()) };
        let (p, block) = self.alloc(4 + n.saturating_mul(item));
        offset(slot, base, p);
        let (count_bytes, slots) = block.split_at_mut(4);
        count_bytes.copy_from_slice(&count.to_le_bytes());
        Ok(slots)
    }

    /// Marks the optional `slot` present, allocates its value slot of `size` bytes, stores its
    /// offset from `base`, and returns the value slot's position (the value's base) and bytes.
    #[inline(always)]
    pub fn optional(&mut self, base: usize, slot: &mut [u8], size: usize) -> (usize, &'a mut [u8]) {
        let (p, value) = self.alloc(size);
        let Some((present, off)) = slot.split_first_mut() else { beyond() };
        *present = 1;
        offset(off, base, p);
        (p, value)
    }
}

/// Stores in the first 4 bytes of `slot` the offset of `p` from `base` (a block just allocated;
/// below the root's size, which was checked to fit 32 bits before anything was written).
#[inline(always)]
fn offset(slot: &mut [u8], base: usize, p: usize) {
    let Some(slot) = slot.first_chunk_mut::<4>() else { beyond() };
    *slot = (p.wrapping_sub(base) as u32).to_le_bytes();
}

/// A store beyond the bytes of the size walk, or bytes left unwritten: the walk and the writes
/// disagree (a bug), so nothing is returned.
#[cold]
#[inline(never)]
pub(crate) fn beyond() -> ! {
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
        w.append_fixed(&-2i32);
        w.append_string(b"abc");
        w.append_fixed(&true);
        w.append_run::<2>().copy_from_slice(&[7, 8]);
        w.finish();
        assert_eq!(bytes, [0xFE, 0xFF, 0xFF, 0xFF, 3, 0, 0, 0, b'a', b'b', b'c', 1, 7, 8]);
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_block_beyond_its_bytes_panics_writing_nothing_else() {
        let mut bytes = [0u8; 7];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_fixed(&1i32);
        w.append_string(b"");
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn bytes_left_unwritten_panic() {
        let mut bytes = [0u8; 5];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_fixed(&1i32);
        w.finish();
    }

    #[test]
    fn a_part_stores_its_fields_in_order_within_the_root() {
        let mut bytes = [0xAAu8; 1 + 4 + 2 + 1];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        w.append_fixed(&7u8);
        let mut part = w.part(4 + 2 + 1);
        part.append_string(b"hi");
        part.append_fixed(&true);
        part.finish();
        w.finish();
        assert_eq!(bytes, [7, 2, 0, 0, 0, b'h', b'i', 1]);
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_part_not_filled_panics() {
        let mut bytes = [0u8; 5];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        let mut part = w.part(5);
        part.append_fixed(&1i32);
        part.finish();
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_store_beyond_its_part_panics_though_the_root_has_room() {
        let mut bytes = [0u8; 8];
        let mut w = SizedWriter::new(&mut bytes, 0, 1);
        let mut part = w.part(3);
        part.append_fixed(&1i32);
    }

    /// A body of 12 bytes after an 8-byte root header, with `extra` bytes more, through a
    /// `BodyWriter`: the body's offset goes into the header's slot at 4, and `then` writes on.
    fn body_of(bytes: &mut [u8], then: impl FnOnce(&mut BodyWriter<'_>, usize, &mut [u8; 12])) {
        let size = bytes.len();
        let (head, rest) = bytes.split_at_mut(8);
        let mut w = BodyWriter::new(rest, size, 0, 1);
        let (b, body) = w.struct_block::<12>(0, &mut head[4..], 9);
        then(&mut w, b, body);
        w.finish();
    }

    #[test]
    fn allocates_in_order_and_stores_offsets_from_the_base() {
        let mut bytes = [0u8; 8 + 12 + 4 + 2];
        body_of(&mut bytes, |w, b, body| {
            body[8..].copy_from_slice(&[1, 2, 3, 4]);
            w.string(b, &mut body[8..], b"hi");
        });
        assert_eq!(&bytes[4..8], &8u32.to_le_bytes()); // the body's offset from 0
        assert_eq!(&bytes[8..16], &[12, 0, 0, 0, 9, 0, 0, 0]); // its size and type
        assert_eq!(&bytes[16..20], &12u32.to_le_bytes()); // the string's offset from the body
        assert_eq!(&bytes[20..], &[2, 0, 0, 0, b'h', b'i']);
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn a_body_block_beyond_its_bytes_panics() {
        let mut bytes = [0u8; 8 + 12 + 4 + 1];
        body_of(&mut bytes, |w, b, body| w.string(b, &mut body[8..], b"hi"));
    }

    #[test]
    #[should_panic(expected = "size walk disagrees")]
    fn bytes_left_unallocated_panic() {
        let mut bytes = [0u8; 8 + 13];
        body_of(&mut bytes, |_, _, _| ());
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
