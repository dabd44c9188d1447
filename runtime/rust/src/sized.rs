//! The sized writer of the final model (docs/format.md 4): a root's size is walked first
//! ([`crate::Value::final_size`], the generated `Struct::fields_size`), its bytes are made once,
//! and the fields are stored into them in order, each block with one bounds check and no
//! capacity check, the position in a register (C++'s serialize: `extra()`, one resize, stores).

use crate::decimal::Decimal;
use crate::error::{EncodeError, ErrorKind};
use crate::timestamp::Timestamp;
use crate::writer::{copy_short, Writer};
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

    /// One struct level deeper; refused beyond `max_depth` (docs/limits.md 1), as
    /// [`Writer::enter`].
    #[inline]
    pub fn enter(&mut self, type_name: &str) -> Result<(), EncodeError> {
        if self.depth >= self.max_depth {
            return Err(Writer::too_deep(self.max_depth, type_name));
        }
        self.depth += 1;
        Ok(())
    }

    /// Undoes a successful [`SizedWriter::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Refuses a bounded struct of at most `levels` levels where they would go beyond
    /// `max_depth`, counting nothing ([`Writer::fits`]).
    #[inline(always)]
    pub fn fits(&self, levels: usize, type_name: &str) -> Result<(), EncodeError> {
        if self.depth + levels > self.max_depth {
            return Err(Writer::too_deep(self.max_depth, type_name));
        }
        Ok(())
    }

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

/// A store beyond the bytes of the size walk, or bytes left unwritten: the walk and the writes
/// disagree (a bug), so nothing is returned.
#[cold]
#[inline(never)]
fn beyond() -> ! {
    panic!("fbe: a final root's size walk disagrees with what was written")
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
