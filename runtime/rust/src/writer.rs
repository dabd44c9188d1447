//! The writer of both models (docs/format.md 3.5 and 4).

use crate::decimal::Decimal;
use crate::error::{EncodeError, ErrorKind};
use crate::limits::MAX_DEPTH;
use crate::sized::{BodyWriter, SizedWriter};
use crate::timestamp::Timestamp;
use crate::value::{Fixed, Value};
use uuid::Uuid;

/// Builds one root in one growing buffer, in the original's allocation order
/// (docs/format.md 3.5): nothing is inserted in the middle, nothing allocated
/// ahead. A `Writer` is reused: [`Writer::reset`] keeps the buffer's capacity,
/// so serializing into a warm writer allocates nothing.
///
/// Versioned code allocates blocks ([`Writer::alloc`], [`Writer::struct_body`],
/// [`Writer::string`], [`Writer::vector`], [`Writer::optional`]) and fills
/// slots at absolute positions (`put_*`); final code appends (`append_*`).
/// A size beyond the format's 32 bits is kept as the writer's error and
/// returned by the `end_*` call; a struct nested too deep is refused where it
/// is entered ([`Writer::enter`]).
///
/// ```
/// let mut w = fbe::Writer::new();
/// w.begin_final();
/// w.append_i32(7);
/// w.append_string(b"EURUSD");
/// let root = w.end_final(1).unwrap();
/// assert_eq!(root.len(), 8 + 4 + 4 + 6);
/// ```
#[derive(Debug)]
pub struct Writer {
    buf: Vec<u8>,
    depth: usize,
    max_depth: usize,
    err: Option<EncodeError>,
}

impl Default for Writer {
    fn default() -> Self {
        Writer::new()
    }
}

/// The depth rule of docs/limits.md 1 (nobody writes what no reader reads) on a writer with
/// `depth` and `max_depth`: [`Writer`], and the [`SizedWriter`] and [`BodyWriter`] generated code
/// writes through.
macro_rules! depth_rule {
    () => {
        /// One struct level deeper; refused beyond `max_depth`. Generated code calls it for every
        /// struct whose nesting the schema does not bound, as the readers count every struct they
        /// read, and `leave` after the struct.
        #[inline]
        pub fn enter(&mut self, type_name: &str) -> Result<(), EncodeError> {
            if self.depth >= self.max_depth {
                return Err(Writer::too_deep(self.max_depth, type_name));
            }
            self.depth += 1;
            Ok(())
        }

        /// Refuses a struct whose value holds at most `levels` struct levels (itself included:
        /// the plan's levels of a struct whose nesting is bounded) where they would go beyond
        /// `max_depth`. It counts nothing (no `leave`): the structs it holds are bounded too,
        /// within those levels. Generated code calls it for a bounded struct instead of `enter`.
        #[inline(always)]
        pub fn fits(&self, levels: usize, type_name: &str) -> Result<(), EncodeError> {
            if self.depth + levels > self.max_depth {
                return Err(Writer::too_deep(self.max_depth, type_name));
            }
            Ok(())
        }

        /// Undoes a successful `enter`.
        #[inline]
        pub fn leave(&mut self) {
            self.depth -= 1;
        }
    };
}
pub(crate) use depth_rule;

/// A scalar's `put` at a position and `append`, in its one encoding ([`Fixed::put_at`]).
macro_rules! put_append {
    ($($put:ident $append:ident $t:ty),* $(,)?) => {$(
        #[doc = concat!("Stores a `", stringify!($t), "` at absolute position `p`.")]
        #[inline]
        pub fn $put(&mut self, p: usize, v: $t) {
            v.put_at(&mut self.buf, p);
        }

        #[doc = concat!("Appends a `", stringify!($t), "` (final model).")]
        #[inline]
        pub fn $append(&mut self, v: $t) {
            let p = self.alloc(<$t as Value>::SLOT);
            v.put_at(&mut self.buf, p);
        }
    )*};
}

impl Writer {
    /// An empty writer refusing structs nested deeper than [`MAX_DEPTH`].
    pub fn new() -> Self {
        Writer { buf: Vec::new(), depth: 0, max_depth: MAX_DEPTH, err: None }
    }

    /// An empty writer refusing structs nested deeper than `max_depth`.
    pub fn with_max_depth(max_depth: usize) -> Self {
        Writer { max_depth, ..Writer::new() }
    }

    /// Empties the buffer, keeping its capacity, and clears the error.
    #[inline]
    pub fn reset(&mut self) {
        self.buf.clear();
        self.depth = 0;
        self.err = None;
    }

    /// The bytes written so far.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The number of bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The buffer, taken out of the writer (which is left empty).
    pub fn take(&mut self) -> Vec<u8> {
        self.depth = 0;
        std::mem::take(&mut self.buf)
    }

    #[cold]
    fn fail(&mut self, message: &str) {
        if self.err.is_none() {
            self.err = Some(EncodeError::new(ErrorKind::TooLarge, message, ""));
        }
    }

    /// A `u32` of a size or count, or the writer's error when it does not fit.
    #[inline]
    fn u32_of(&mut self, n: usize, what: &str) -> u32 {
        match u32::try_from(n) {
            Ok(v) => v,
            Err(_) => {
                self.fail(what);
                0
            }
        }
    }

    depth_rule!();

    #[cold]
    #[inline(never)]
    pub(crate) fn too_deep(max_depth: usize, type_name: &str) -> EncodeError {
        EncodeError::new(ErrorKind::Depth, format!("structs nested deeper than {max_depth} ({type_name})"), "")
    }

    /// Whether a struct value of `levels` levels (itself included) written at the current level
    /// would go beyond `max_depth`.
    pub fn near(&self, levels: usize) -> bool {
        self.depth + levels > self.max_depth
    }

    /// Appends `n` zero bytes and returns their position.
    #[inline]
    pub fn alloc(&mut self, n: usize) -> usize {
        let p = self.buf.len();
        self.buf.resize(p + n, 0);
        p
    }

    put_append! {
        put_u8 append_u8 u8, put_i8 append_i8 i8, put_u16 append_u16 u16, put_i16 append_i16 i16,
        put_u32 append_u32 u32, put_i32 append_i32 i32, put_u64 append_u64 u64, put_i64 append_i64 i64,
        put_f32 append_f32 f32, put_f64 append_f64 f64, put_bool append_bool bool,
        put_timestamp append_timestamp Timestamp,
    }

    /// Stores a uuid's 16 bytes at `p`.
    #[inline]
    pub fn put_uuid(&mut self, p: usize, v: &Uuid) {
        v.put_at(&mut self.buf, p);
    }

    /// Appends a uuid's 16 bytes.
    #[inline]
    pub fn append_uuid(&mut self, v: &Uuid) {
        let p = self.alloc(16);
        v.put_at(&mut self.buf, p);
    }

    /// Stores a decimal's 16 bytes at `p`, without trailing fraction zeros (docs/format.md 2.4).
    #[inline]
    pub fn put_decimal(&mut self, p: usize, v: &Decimal) {
        self.buf[p..p + 16].copy_from_slice(&v.to_wire());
    }

    /// Appends a decimal's 16 bytes, without trailing fraction zeros.
    #[inline]
    pub fn append_decimal(&mut self, v: &Decimal) {
        self.buf.extend_from_slice(&v.to_wire());
    }

    // ------------------------------------------------------------ versioned model

    /// Starts a versioned root (docs/format.md 3.2): 8 header bytes; the top struct's slot is at
    /// 4 with base 0.
    #[inline]
    pub fn begin_versioned(&mut self) {
        self.begin_root();
    }

    /// Empties the writer and appends a root's 8 header bytes (zeros until `end_*`).
    #[inline(always)]
    fn begin_root(&mut self) {
        self.reset();
        self.buf.extend_from_slice(&[0; 8]);
    }

    /// The root, or the writer's error (a size beyond 32 bits).
    #[inline(always)]
    fn finish(&mut self) -> Result<&[u8], EncodeError> {
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(&self.buf),
        }
    }

    /// Stores the root's total size and returns the root, or the writer's error.
    #[inline]
    pub fn end_versioned(&mut self) -> Result<&[u8], EncodeError> {
        let total = self.u32_of(self.buf.len(), "root larger than 4 GiB");
        let header: &mut [u8; 4] = self.buf.first_chunk_mut().expect("a root begun with its header");
        *header = total.to_le_bytes();
        self.finish()
    }

    /// Stores at `slot` the offset of `p` from `base` (a block just allocated: never 0). It is
    /// below the root's size, which [`Writer::end_versioned`] checks: a root whose offsets do not
    /// fit 32 bits is refused there, so they are stored unchecked.
    #[inline(always)]
    fn offset(&mut self, base: usize, slot: usize, p: usize) {
        self.put_u32(slot, (p - base) as u32);
    }

    /// Allocates a struct body of `body_size` bytes, stores its offset in the slot at `slot`
    /// (from `base`) and writes the header; returns the body's position, the base of its fields.
    #[inline(always)]
    pub fn struct_body(&mut self, base: usize, slot: usize, body_size: usize, type_id: u32) -> usize {
        let p = self.alloc(body_size);
        self.offset(base, slot, p);
        let header: &mut [u8; 8] = self.block(p);
        header[..4].copy_from_slice(&(body_size as u32).to_le_bytes());
        header[4..].copy_from_slice(&type_id.to_le_bytes());
        p
    }

    /// The `N` bytes at `p` of a block just allocated (a struct body from
    /// [`Writer::struct_body`]): its fixed-size fields are stored at their offsets
    /// ([`crate::Fixed::put_at`]) with this one bounds check for all of them.
    #[inline(always)]
    pub fn block<const N: usize>(&mut self, p: usize) -> &mut [u8; N] {
        self.buf[p..].first_chunk_mut().expect("a block just allocated")
    }

    /// Appends a length and the bytes (the length, below the root's size, is checked with it in
    /// `end_*`); returns the block's position.
    #[inline(always)]
    fn length_block(&mut self, data: &[u8]) -> usize {
        let p = self.buf.len();
        let n = data.len();
        if n <= 16 {
            // A short string (a symbol, a currency code) goes into a 20-byte block after its
            // length ([`copy_short`]), appended whole and cut to size: a few stores instead of
            // a call to memcpy, which costs more than such a copy.
            let mut block = [0u8; 20];
            block[..4].copy_from_slice(&(n as u32).to_le_bytes());
            copy_short(&mut block[4..4 + n], data);
            self.buf.extend_from_slice(&block);
            self.buf.truncate(p + 4 + n);
            return p;
        }
        self.buf.reserve(4 + n);
        self.buf.extend_from_slice(&(n as u32).to_le_bytes());
        self.buf.extend_from_slice(data);
        p
    }

    /// Allocates a length-prefixed block of a string's or bytes' `data` and stores its offset in
    /// the slot (docs/format.md 3.4: always written, even empty).
    #[inline(always)]
    pub fn string(&mut self, base: usize, slot: usize, data: &[u8]) {
        let p = self.length_block(data);
        self.offset(base, slot, p);
    }

    /// Allocates a collection block of `n` zeroed slots of `item` bytes each (a map's item is a
    /// key slot and a value slot), stores its offset and the count, and returns the position of
    /// the first slot. The elements' base stays `base` (docs/format.md 3.4).
    #[inline]
    pub fn vector(&mut self, base: usize, slot: usize, n: usize, item: usize) -> usize {
        let count = self.u32_of(n, "collection of more than 2^32 - 1 elements");
        let p = self.alloc(4 + n * item);
        self.put_u32(p, count);
        self.offset(base, slot, p);
        p + 4
    }

    /// Marks the optional slot at `slot` present, allocates its value slot of `size` bytes and
    /// returns the value slot's position: the value's base. An absent optional is left as
    /// allocated (zeros).
    #[inline]
    pub fn optional(&mut self, base: usize, slot: usize, size: usize) -> usize {
        let p = self.alloc(size);
        self.buf[slot] = 1;
        self.offset(base, slot + 1, p);
        p
    }

    // ------------------------------------------------------------ final model

    /// Starts a final root (docs/format.md 4.1); size and type id come with [`Writer::end_final`].
    #[inline]
    pub fn begin_final(&mut self) {
        self.begin_root();
    }

    /// Stores the root's size and type id and returns the root, or the writer's error.
    #[inline]
    pub fn end_final(&mut self, type_id: u32) -> Result<&[u8], EncodeError> {
        let total = self.u32_of(self.buf.len(), "root larger than 4 GiB");
        let header: &mut [u8; 8] = self.buf.first_chunk_mut().expect("a root begun with its header");
        header[..4].copy_from_slice(&total.to_le_bytes());
        header[4..].copy_from_slice(&type_id.to_le_bytes());
        self.finish()
    }

    /// Appends a collection's count.
    #[inline]
    pub fn append_count(&mut self, n: usize) {
        let count = self.u32_of(n, "collection of more than 2^32 - 1 elements");
        self.append_u32(count);
    }

    /// Appends `N` zero bytes for a run of fixed-size fields (the plan's `Run`) and returns them:
    /// the fields are stored at their offsets in the run ([`crate::Fixed::put_at`]).
    #[inline(always)]
    pub fn append_run<const N: usize>(&mut self) -> &mut [u8; N] {
        let p = self.alloc(N);
        self.block(p)
    }

    /// Appends a length and the bytes of a string or bytes.
    #[inline]
    pub fn append_string(&mut self, data: &[u8]) {
        self.length_block(data);
    }

    /// Writes a final root (docs/format.md 4.1) of type `type_id` whose fields take `size` bytes
    /// (their size walk): refused when over 4 GiB, before anything is written; else its bytes are
    /// made at once (those of an earlier root kept, each stored over: nothing is zeroed) and
    /// `fields` stores them in order through a [`SizedWriter`].
    #[inline(always)]
    pub fn final_root(
        &mut self,
        size: usize,
        type_id: u32,
        fields: impl FnOnce(&mut SizedWriter<'_>) -> Result<(), EncodeError>,
    ) -> Result<&[u8], EncodeError> {
        let (total, total32) = root_size(size)?;
        self.sized(total);
        let (header, rest) = self.buf.split_at_mut(8);
        header[..4].copy_from_slice(&total32.to_le_bytes());
        header[4..].copy_from_slice(&type_id.to_le_bytes());
        let mut out = SizedWriter::new(rest, 0, self.max_depth);
        fields(&mut out)?;
        out.finish();
        Ok(&self.buf)
    }

    /// Writes a versioned root (docs/format.md 3.2) whose top struct allocates `size` bytes (its
    /// size walk): refused when over 4 GiB, before anything is written; else its bytes are made at
    /// once (those of an earlier root kept, each stored over: nothing is zeroed here) and `body`
    /// allocates and stores its blocks through a [`BodyWriter`], the top struct's offset in the
    /// slot it is given (at 4).
    #[inline(always)]
    pub fn versioned_root(
        &mut self,
        size: usize,
        body: impl FnOnce(&mut BodyWriter<'_>, &mut [u8]) -> Result<(), EncodeError>,
    ) -> Result<&[u8], EncodeError> {
        let (total, total32) = root_size(size)?;
        self.sized(total);
        let Some((header, rest)) = self.buf.split_first_chunk_mut::<8>() else { unreachable!("8 bytes or more") };
        header[..4].copy_from_slice(&total32.to_le_bytes());
        let mut out = BodyWriter::new(rest, total, 0, self.max_depth);
        body(&mut out, &mut header[4..])?;
        out.finish();
        Ok(&self.buf)
    }

    /// The buffer made `total` bytes long, keeping the bytes it holds (a root's, written over).
    #[inline(always)]
    fn sized(&mut self, total: usize) {
        if self.buf.len() < total {
            self.buf.resize(total, 0);
        } else {
            self.buf.truncate(total);
        }
    }

    /// Writes `v` into its slot at `slot` (from `base`; a slot allocated before) through a
    /// [`BodyWriter`] over its [`Value::extra_size`] bytes, allocated at the end (what a hand-made
    /// versioned root writes a value with); an error names `field`.
    pub fn field<T: Value>(&mut self, v: &T, base: usize, slot: usize, field: &str) -> Result<(), EncodeError> {
        let start = self.buf.len();
        let size = start + v.extra_size();
        self.buf.resize(size, 0);
        let (allocated, rest) = self.buf.split_at_mut(start);
        let mut out = BodyWriter::new(rest, size, self.depth, self.max_depth);
        v.put(&mut out, base, &mut allocated[slot..]).map_err(|e| e.in_field(field))?;
        out.finish();
        Ok(())
    }

    /// Appends `v` in the final model through a [`SizedWriter`] over its `v.final_size()` bytes
    /// (what a hand-made root of the final model appends a value with); an error names `field`.
    /// A value that would take the root beyond 4 GiB is refused before anything is written, as
    /// [`Writer::final_root`] refuses a root: a `SizedWriter`'s bytes lie within 4 GiB, so a count
    /// of elements of a byte or more fits 32 bits without a check.
    pub fn final_field<T: Value>(&mut self, v: &T, field: &str) -> Result<(), EncodeError> {
        let start = self.buf.len();
        let end = start.saturating_add(v.final_size());
        if end > u32::MAX as usize {
            return Err(EncodeError::new(ErrorKind::TooLarge, "root larger than 4 GiB", "").in_field(field));
        }
        self.buf.resize(end, 0);
        let mut out = SizedWriter::new(&mut self.buf[start..], self.depth, self.max_depth);
        v.append(&mut out).map_err(|e| e.in_field(field))?;
        out.finish();
        Ok(())
    }
}

/// A root of 8 header bytes and `size` more, its size as a `usize` and as the `u32` the header
/// holds; refused when over 4 GiB (before anything is written).
#[inline(always)]
fn root_size(size: usize) -> Result<(usize, u32), EncodeError> {
    if size > u32::MAX as usize - 8 {
        return Err(EncodeError::new(ErrorKind::TooLarge, "root larger than 4 GiB", ""));
    }
    Ok((size + 8, (size + 8) as u32))
}

/// Copies a string's or bytes' `src` into `dst` of the same length: a few fixed-size moves up to
/// 16 bytes, `memcpy` beyond. Its lengths are told apart below 4 first, so that every length from
/// 2 to 7 takes two compares (currency and country codes, symbols, short names), 8 to 16 three.
#[inline(always)]
pub(crate) fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let dst = &mut dst[..n];
    if n < 4 {
        copy_below_4(dst, src);
    } else if n < 8 {
        copy_two_parts::<4>(dst, src);
    } else if n <= 16 {
        copy_two_parts::<8>(dst, src);
    } else {
        dst.copy_from_slice(src);
    }
}

/// Copies `src` into `dst` of the same length, at most 16 bytes, with fixed-size moves (a call to
/// memcpy costs more than such a copy).
#[inline(always)]
pub(crate) fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    debug_assert!(n <= 16 && dst.len() == n);
    let dst = &mut dst[..n];
    if n >= 8 {
        copy_two_parts::<8>(dst, src);
    } else if n >= 4 {
        copy_two_parts::<4>(dst, src);
    } else {
        copy_below_4(dst, src);
    }
}

/// Copies `K` to `2K` bytes into `dst` of their length as two overlapping `K`-byte parts.
#[inline(always)]
fn copy_two_parts<const K: usize>(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    debug_assert!((K..=2 * K).contains(&n) && dst.len() == n);
    dst[..K].copy_from_slice(&src[..K]);
    dst[n - K..].copy_from_slice(&src[n - K..]);
}

/// Copies 0 to 3 bytes into `dst` of their length: two overlapping 2-byte parts for 2 or 3 (a
/// currency code), or the one byte.
#[inline(always)]
fn copy_below_4(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    debug_assert!(n < 4 && dst.len() == n);
    if n >= 2 {
        copy_two_parts::<2>(dst, src);
    } else if n == 1 {
        dst[0] = src[0];
    }
}

#[cfg(test)]
mod tests {
    use super::{copy_bytes, copy_short};

    #[test]
    fn copies_a_string_of_every_length_exactly() {
        let src: Vec<u8> = (1..=40).collect();
        for n in 0..=src.len() {
            let mut dst = vec![0xAA; n];
            copy_bytes(&mut dst, &src[..n]);
            assert_eq!(dst, src[..n], "{n} bytes");
            if n <= 16 {
                let mut dst = vec![0xAA; n];
                copy_short(&mut dst, &src[..n]);
                assert_eq!(dst, src[..n], "{n} bytes, short");
            }
        }
    }
}
