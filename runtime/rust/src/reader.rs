//! The reader of both models (docs/format.md 3 and 4) under the limits of docs/limits.md.

use crate::decimal::Decimal;
use crate::error::{DecodeError, ErrorKind};
use crate::limits::Limits;
use crate::timestamp::Timestamp;
use uuid::Uuid;

type Result<T> = std::result::Result<T, DecodeError>;

/// The `N` bytes at `at` of `b`. Generated code reads a slot only inside a block the
/// [`Reader`] checked, so this never fails there; elsewhere it panics rather than read
/// outside `b`.
#[inline(always)]
fn bytes<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    *b[at..].first_chunk().expect("a slot inside a checked block")
}

macro_rules! getters {
    ($($get:ident $t:ty),* $(,)?) => {$(
        #[doc = concat!("The `", stringify!($t), "` at `at` of `b` (little-endian).")]
        #[inline(always)]
        pub fn $get(b: &[u8], at: usize) -> $t {
            <$t>::from_le_bytes(bytes(b, at))
        }
    )*};
}

getters!(get_u8 u8, get_i8 i8, get_u16 u16, get_i16 i16, get_u32 u32, get_i32 i32, get_u64 u64, get_i64 i64,
         get_f64 f64);

/// The `f32` at `at` of `b` (little-endian), bit for bit but for a signalling NaN (quiet bit
/// clear), which reads quieted, its sign and the rest of its payload kept (docs/format.md 1): the
/// value every language reads, as the widening to a double makes it in those that hold a float as one.
#[inline(always)]
pub fn get_f32(b: &[u8], at: usize) -> f32 {
    let mut bits = u32::from_le_bytes(bytes(b, at));
    if bits & 0x7FFF_FFFF > 0x7F80_0000 {
        bits |= 0x0040_0000; // a NaN: the quiet bit set
    }
    f32::from_bits(bits)
}

/// The `bool` at `at` of `b`: any non-zero byte is true (docs/format.md 2.2).
#[inline(always)]
pub fn get_bool(b: &[u8], at: usize) -> bool {
    b[at] != 0
}

/// The timestamp at `at` of `b`.
#[inline(always)]
pub fn get_timestamp(b: &[u8], at: usize) -> Timestamp {
    Timestamp(get_u64(b, at))
}

/// The uuid at `at` of `b`.
#[inline(always)]
pub fn get_uuid(b: &[u8], at: usize) -> Uuid {
    Uuid::from_bytes(bytes(b, at))
}

/// Checks and reads one root (docs/format.md 3 and 4) under the limits of
/// docs/limits.md: every block inside the root, versioned blocks in allocation
/// order (each starts at or after the end of the block read before it, so no
/// byte is decoded twice), every count bounded by the bytes left, nesting
/// bounded by `max_depth` and every value materialized charged to the decode
/// budget. Verify is deserialize without the value: both use the same reader,
/// so verify accepts exactly what deserialize accepts (docs/limits.md 4).
///
/// Errors name the field of the struct being read (the `field` argument) and
/// the absolute offset; generated code puts the fields that hold the struct in
/// front as the error goes out ([`DecodeError::in_field`]).
///
/// ```
/// // the smallest versioned root: an empty struct of type id 143
/// let root = [16, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 143, 0, 0, 0];
/// let mut r = fbe::Reader::versioned(&root, &fbe::Limits::default()).unwrap();
/// let (body, size) = r.struct_body(0, 4, 143, 32).unwrap();
/// assert_eq!((body, size), (8, 8));
/// r.leave();
/// let err = fbe::Reader::versioned(&root[..12], &fbe::Limits::default()).unwrap_err();
/// assert_eq!(err.to_string(), "versioned root size 16 beyond the buffer of 12 bytes (offset 0)");
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    mark: usize,
    budget: usize,
    /// The struct levels left to enter: `max_depth` less the current level (counted down: entering
    /// compares it with 0).
    levels_left: usize,
    max_depth: usize,
    /// The final model's cursor: the bytes from the next value to the end of the root (each value
    /// claimed with one compare of its size against their length; its position is
    /// `data.len() - rest.len()`).
    rest: &'a [u8],
    /// The budget pays for every charge, so none is counted: the final root read is of a type
    /// whose every value costs at most the bytes it takes ([`Reader::paid_by_bytes`]).
    paid: bool,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn start(data: &'a [u8], limits: &Limits) -> Self {
        // `data` holds at least the 8 bytes of the root's header ([`Reader::versioned`],
        // [`Reader::final_root`])
        let rest = data.get(8..).unwrap_or_default();
        Reader {
            data,
            mark: 8,
            budget: limits.budget(data.len()),
            levels_left: limits.max_depth,
            max_depth: limits.max_depth,
            rest,
            paid: false,
        }
    }

    /// Checks a versioned root's header (docs/format.md 3.2, 5.1: at least 16 bytes, a total
    /// size that fits the buffer) and starts reading it: the top struct's slot is at 4, base 0.
    #[inline(always)]
    pub fn versioned(data: &'a [u8], limits: &Limits) -> Result<Self> {
        match data.first_chunk::<8>().map(|h| get_u32(h, 0) as usize) {
            Some(total) if total >= 16 && total <= data.len() => Ok(Self::start(&data[..total], limits)),
            _ => Err(Self::versioned_error(data)),
        }
    }

    /// Why [`Reader::versioned`] refused the root (out of line: the checks again, each with its
    /// message).
    #[cold]
    #[inline(never)]
    fn versioned_error(data: &[u8]) -> DecodeError {
        if data.len() < 8 {
            return DecodeError::new("versioned root shorter than 8 bytes", "", Some(0));
        }
        let total = get_u32(data, 0) as usize;
        if total < 16 {
            return DecodeError::new(format!("versioned root size {total} below 16"), "", Some(0));
        }
        DecodeError::new(format!("versioned root size {total} beyond the buffer of {} bytes", data.len()), "", Some(0))
    }

    /// Checks a final root's header (docs/format.md 4.1, 5.2: at least 8 bytes, the expected
    /// type id, a size that fits the buffer) and starts reading its fields at position 8.
    #[inline(always)]
    pub fn final_root(data: &'a [u8], type_id: u32, limits: &Limits) -> Result<Self> {
        // an early return per check: as one match guard of the three, LLVM set a flag for each
        // and tested them after (docs/rust.md, "Performance")
        let Some(header) = data.first_chunk::<8>() else {
            return Err(Self::final_root_error(data, type_id));
        };
        let size = get_u32(header, 0) as usize;
        if size < 8 {
            return Err(Self::final_root_error(data, type_id));
        }
        if get_u32(header, 4) != type_id {
            return Err(Self::final_root_error(data, type_id));
        }
        match data.get(..size) {
            Some(root) => Ok(Self::start(root, limits)),
            None => Err(Self::final_root_error(data, type_id)),
        }
    }

    /// Counts the charges of a final root from above, as C++ does (docs/limits.md 3): when every
    /// value of the root's type costs at most the bytes it takes (`within_bytes`, the generated
    /// [`Struct::CHARGES_WITHIN_BYTES`](crate::Struct::CHARGES_WITHIN_BYTES)) and the budget is at
    /// least the root's size, the exact charge of anything read from the root fits the budget, so
    /// no charge is counted (nor can one fail: the verdict and the error are the exact count's).
    /// Under limits whose budget factor is 1 or more that holds for every root, and with constant
    /// limits (`&Limits::DEFAULT`) the compiler drops every charge.
    #[inline(always)]
    pub fn paid_by_bytes(mut self, within_bytes: bool, limits: &Limits) -> Self {
        self.paid = within_bytes && (limits.budget_factor >= 1 || self.budget >= self.data.len());
        self
    }

    /// Why [`Reader::final_root`] refused the root.
    #[cold]
    #[inline(never)]
    fn final_root_error(data: &[u8], type_id: u32) -> DecodeError {
        if data.len() < 8 {
            return DecodeError::new("final root shorter than 8 bytes", "", Some(0));
        }
        let size = get_u32(data, 0) as usize;
        if size < 8 {
            return DecodeError::new(format!("final root size {size} below 8"), "", Some(0));
        }
        let tid = get_u32(data, 4);
        if tid != type_id {
            return DecodeError::new(format!("type id {tid} where {type_id} was expected"), "", Some(4));
        }
        DecodeError::new(format!("final root size {size} beyond the buffer of {} bytes", data.len()), "", Some(0))
    }

    /// The root's bytes (cut to its size).
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The root's size.
    #[inline]
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the root is empty (never, once started).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The budget left, in bytes.
    #[inline]
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The current struct level (0 outside the root).
    #[inline]
    pub fn depth(&self) -> usize {
        self.max_depth - self.levels_left
    }

    /// Charges `cost` bytes for a value materialized at `at` in `field` (a default struct,
    /// collection elements: docs/limits.md 3).
    #[inline]
    pub fn spend(&mut self, cost: usize, at: usize, field: &str) -> Result<()> {
        match self.budget.checked_sub(cost) {
            Some(left) => {
                self.budget = left;
                Ok(())
            }
            None => Err(Self::over_budget(field, at)),
        }
    }

    /// Whether the budget left pays for `cost` bytes: generated code asks before it makes a
    /// value whose default is large (docs/limits.md 3).
    #[inline]
    pub fn affords(&self, cost: usize) -> bool {
        self.budget >= cost
    }

    #[cold]
    fn over_budget(field: &str, at: usize) -> DecodeError {
        DecodeError::of_kind(ErrorKind::Budget, "decode budget exceeded", field, Some(at))
    }

    /// [`Reader::spend`] in the final model, where the budget may have paid for every charge
    /// ([`Reader::paid_by_bytes`]); the versioned model never asks (its reader is never paid, and
    /// LLVM does not always see that once a cold path returned a copy of it).
    #[inline(always)]
    fn charge(&mut self, cost: usize, at: usize, field: &str) -> Result<()> {
        if self.paid {
            return Ok(());
        }
        self.spend(cost, at, field)
    }

    /// One struct level deeper at `at`, costing `cost` bytes. The error is the struct's own:
    /// the caller names the field holding it.
    #[inline]
    fn enter_at(&mut self, cost: usize, at: usize) -> Result<()> {
        self.check_level(at)?;
        self.spend(cost, at, "")?;
        self.levels_left -= 1;
        Ok(())
    }

    /// Refuses a struct at `at` one level deeper than `max_depth`.
    #[inline(always)]
    fn check_level(&self, at: usize) -> Result<()> {
        if self.levels_left == 0 {
            return Err(Self::too_deep(self.max_depth, at));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(max_depth: usize, at: usize) -> DecodeError {
        DecodeError::of_kind(ErrorKind::Depth, format!("structs nested deeper than {max_depth}"), "", Some(at))
    }

    /// Leaves a struct entered with [`Reader::struct_body`] or [`Reader::enter`].
    #[inline]
    pub fn leave(&mut self) {
        self.levels_left += 1;
    }

    /// The decimal at `at`; flags beyond a scale 0..=28 and the sign are refused, naming
    /// `field` (docs/format.md 2.4).
    #[inline]
    pub fn decimal(&self, at: usize, field: &str) -> Result<Decimal> {
        Decimal::from_wire(&bytes(self.data, at)).map_err(|e| DecodeError::new(e.to_string(), field, Some(at)))
    }

    /// The length or count of a `what` block at `at`, inside the root or an error naming `field`.
    #[inline]
    fn u32_at(&self, at: usize, what: &str, field: &str) -> Result<usize> {
        match self.chunk_at::<4>(at) {
            Some(b) => Ok(u32::from_le_bytes(*b) as usize),
            None => Err(Self::size_beyond(what, field, at)),
        }
    }

    #[cold]
    #[inline(never)]
    fn size_beyond(what: &str, field: &str, at: usize) -> DecodeError {
        Self::at_error(format_args!("{what} size beyond the end of the buffer"), field, at)
    }

    #[cold]
    #[inline(never)]
    fn length_beyond(what: &str, n: usize, field: &str, at: usize) -> DecodeError {
        Self::at_error(format_args!("{what} of {n} bytes beyond the end of the buffer"), field, at)
    }

    /// The error of a refused block (out of line: the hot paths only branch to it).
    #[cold]
    #[inline(never)]
    fn at_error(message: std::fmt::Arguments<'_>, field: &str, at: usize) -> DecodeError {
        DecodeError::new(message.to_string(), field, Some(at))
    }

    #[cold]
    fn backwards(mark: usize, what: &str, at: usize, field: &str) -> DecodeError {
        DecodeError::new(
            format!(
                "{what} at {at} before the end of the previous block ({}): out-of-line blocks must follow each \
                 other in allocation order",
                mark
            ),
            field,
            Some(at),
        )
    }

    /// The bytes of the string or bytes block at `p` (a length, then the bytes): inside the root,
    /// charged.
    #[inline(always)]
    fn prefixed(&mut self, what: &str, p: usize, field: &str) -> Result<&'a [u8]> {
        let Some(length) = self.chunk_at::<4>(p) else {
            return Err(Self::size_beyond(what, field, p));
        };
        let n = u32::from_le_bytes(*length) as usize;
        if n > self.data.len() - p - 4 {
            return Err(Self::length_beyond(what, n, field, p));
        }
        self.spend(n, p, field)?;
        Ok(&self.data[p + 4..][..n])
    }

    /// The `N` bytes at `p` when they lie inside the root: one compare of `p` with the root's
    /// size less `N`.
    #[inline(always)]
    fn chunk_at<const N: usize>(&self, p: usize) -> Option<&'a [u8; N]> {
        if p > self.data.len().checked_sub(N)? {
            return None;
        }
        self.data[p..].first_chunk()
    }

    /// The count of a collection at `p`: inside the root, `n` elements of `item` bytes within
    /// the bytes after it, `n` times `cost` charged.
    #[inline(always)]
    fn count(&mut self, p: usize, item: usize, cost: usize, field: &str) -> Result<usize> {
        let n = self.u32_at(p, "collection", field)?;
        if n.checked_mul(item).is_none_or(|bytes| bytes > self.data.len() - p - 4) {
            return Err(Self::at_error(format_args!("count {n} exceeds the buffer"), field, p));
        }
        self.spend(n.saturating_mul(cost), p, field)?;
        Ok(n)
    }

    // ------------------------------------------------------------ versioned model

    /// Enters the struct whose body the slot at `slot` points to (from `base`): checks the
    /// header (8 bytes inside the root, a body size of at least 8 inside the root, the expected
    /// type id, allocation order), the depth and the budget (`cost`: the struct's own charge,
    /// docs/limits.md 3). Returns the body's position and size; the caller reads the fields the
    /// size holds and calls [`Reader::leave`]. An error here is the struct's own (no field).
    #[inline(always)]
    pub fn struct_body(&mut self, base: usize, slot: usize, type_id: u32, cost: usize) -> Result<(usize, usize)> {
        self.struct_at(base, slot, get_u32(self.data, slot) as usize, type_id, cost)
    }

    /// [`Reader::struct_body`] of the offset `off` its slot at `slot` holds, read by the caller
    /// from a checked block (a struct body, a collection's slots: [`crate::Value::get_into_at`]).
    #[inline(always)]
    pub fn struct_at(
        &mut self,
        base: usize,
        slot: usize,
        off: usize,
        type_id: u32,
        cost: usize,
    ) -> Result<(usize, usize)> {
        let p = base + off;
        // Offset 0 is refused by the allocation order: a block's base is before the end of the
        // block read last (the body or value slot holding the slot), so `base < mark`.
        debug_assert!(base < self.mark);
        match self.body_size_at(p, type_id) {
            Some(size) if size >= 8 => {
                self.mark = p + size;
                self.enter_at(cost, p)?;
                Ok((p, size))
            }
            _ => Err(Self::struct_error(self.data, self.mark, base, slot, type_id)),
        }
    }

    /// The size of the struct body at `p` when it follows the block read last, its header lies in
    /// the root, its size within the root and its type id is `type_id` (the checks both
    /// [`Reader::struct_at`] and [`Reader::struct_full`] make; a size of at least 8 is theirs).
    #[inline(always)]
    fn body_size_at(&self, p: usize, type_id: u32) -> Option<usize> {
        if p < self.mark {
            return None;
        }
        let header = self.chunk_at::<8>(p)?;
        let size = get_u32(header, 0) as usize;
        (size <= self.data.len() - p && get_u32(header, 4) == type_id).then_some(size)
    }

    /// [`Reader::struct_at`] for a reader of this version's body of `N` bytes (`N` >= 8): the body
    /// as `&[u8; N]` when its size holds every field (each read at its offset, with no check of
    /// its own); a shorter body (an older writer's, of at least 8 bytes) is read by `older` (the
    /// body's position and size) out of line on a copy of the reader, and then `None`. One
    /// compare of the size tells the full body from the rest; at least 8 is checked only for a
    /// shorter one, and nothing after the return tells them apart again.
    #[inline(always)]
    pub fn struct_full<const N: usize>(
        &mut self,
        base: usize,
        slot: usize,
        off: usize,
        type_id: u32,
        cost: usize,
        older: impl FnOnce(&mut Reader<'a>, usize, usize) -> Result<()>,
    ) -> Result<Option<(usize, &'a [u8; N])>> {
        let p = base + off;
        debug_assert!(base < self.mark && N >= 8);
        if let Some(size) = self.body_size_at(p, type_id) {
            if let Some(full) = self.data[p..][..size].first_chunk() {
                self.mark = p + size;
                self.enter_at(cost, p)?;
                return Ok(Some((p, full)));
            }
            if size >= 8 {
                *self = self.clone().enter_older(p, size, cost, older)?;
                return Ok(None);
            }
        }
        Err(Self::struct_error(self.data, self.mark, base, slot, type_id))
    }

    /// [`Reader::struct_full`]'s shorter body of `size` bytes at `p`, entered and read by `older`,
    /// out of line (an older writer's body is rare) on a copy of the reader, which it returns: the
    /// reader's own address is not taken ([`Reader::detached`]).
    #[cold]
    #[inline(never)]
    fn enter_older(
        mut self,
        p: usize,
        size: usize,
        cost: usize,
        older: impl FnOnce(&mut Reader<'a>, usize, usize) -> Result<()>,
    ) -> Result<Self> {
        self.mark = p + size;
        self.enter_at(cost, p)?;
        older(&mut self, p, size)?;
        Ok(self)
    }

    /// The body of `size` bytes at `body` that [`Reader::struct_body`] returned: its fixed-size
    /// fields are read from it at their offsets (`fbe::Fixed::at(body, 8)`), with no check
    /// besides the slice's one.
    #[inline(always)]
    pub fn body(&self, body: usize, size: usize) -> &'a [u8] {
        &self.data[body..][..size]
    }

    /// Runs `f` (an out-of-line read: an older writer's body, a value the reused object lacks)
    /// on a copy of the reader, which then replaces it: the reader's own address is never
    /// taken, so where it is inlined it stays in registers.
    #[inline(always)]
    pub fn detached<T>(&mut self, f: impl FnOnce(&mut Reader<'a>) -> T) -> T {
        let mut r = self.clone();
        let v = f(&mut r);
        *self = r;
        v
    }

    /// Why [`Reader::struct_body`] refused the struct (out of line: the checks again, each with
    /// its message).
    #[cold]
    #[inline(never)]
    fn struct_error(data: &[u8], mark: usize, base: usize, slot: usize, type_id: u32) -> DecodeError {
        let off = get_u32(data, slot) as usize;
        if off == 0 {
            return DecodeError::new("struct offset 0", "", Some(slot));
        }
        let p = base + off;
        if p < mark {
            return Self::backwards(mark, "struct body", p, "");
        }
        if p + 8 > data.len() {
            return DecodeError::new("struct header beyond the end of the buffer", "", Some(p));
        }
        let size = get_u32(data, p) as usize;
        if size < 8 {
            return DecodeError::new(format!("struct body size {size} below 8"), "", Some(p));
        }
        if size > data.len() - p {
            return DecodeError::new(format!("struct body of {size} bytes beyond the end of the buffer"), "", Some(p));
        }
        let tid = get_u32(data, p + 4);
        DecodeError::new(format!("type id {tid} where {type_id} was expected"), "", Some(p))
    }

    /// Checks and claims a length-prefixed block whose offset is in the slot at `slot` (from
    /// `base`), charging its length: the bytes of a string or bytes field (offset 0: empty).
    #[inline(always)]
    fn payload(&mut self, what: &str, base: usize, off: usize, field: &str) -> Result<&'a [u8]> {
        if off == 0 {
            return Ok(&[]);
        }
        let p = base + off;
        if p < self.mark {
            return Err(Self::backwards(self.mark, what, p, field));
        }
        let b = self.prefixed(what, p, field)?;
        self.mark = p + 4 + b.len();
        Ok(b)
    }

    /// The bytes of the string the slot at `slot` points to (offset 0: empty), as they are:
    /// an FBE string may hold any bytes (docs/limits.md 7).
    #[inline]
    pub fn string(&mut self, base: usize, slot: usize, field: &str) -> Result<&'a [u8]> {
        self.payload("string", base, get_u32(self.data, slot) as usize, field)
    }

    /// [`Reader::string`] of the offset `off` its slot holds, read by the caller (from a checked
    /// body: [`crate::Value::get_into_at`]).
    #[inline(always)]
    pub fn string_off(&mut self, base: usize, off: usize, field: &str) -> Result<&'a [u8]> {
        self.payload("string", base, off, field)
    }

    /// The bytes of the `bytes` value the slot at `slot` points to (offset 0: empty).
    #[inline]
    pub fn blob(&mut self, base: usize, slot: usize, field: &str) -> Result<&'a [u8]> {
        self.payload("bytes", base, get_u32(self.data, slot) as usize, field)
    }

    /// [`Reader::blob`] of the offset `off` its slot holds.
    #[inline(always)]
    pub fn blob_off(&mut self, base: usize, off: usize, field: &str) -> Result<&'a [u8]> {
        self.payload("bytes", base, off, field)
    }

    /// Checks the collection block the slot at `slot` points to: `n` slots of `item` bytes (a
    /// map's: key and value slot) after the count, each element costing `cost` (docs/limits.md
    /// 3: 0 for struct elements, charged as structs). Returns the position of the first slot and
    /// the count (offset 0: empty). The count is bounded by the bytes left, so `n` may size an
    /// allocation.
    #[inline(always)]
    pub fn vector(
        &mut self,
        base: usize,
        slot: usize,
        item: usize,
        cost: usize,
        field: &str,
    ) -> Result<(usize, usize)> {
        self.vector_off(base, get_u32(self.data, slot) as usize, item, cost, field)
    }

    /// [`Reader::vector`] of the offset `off` its slot holds, read by the caller.
    #[inline(always)]
    pub fn vector_off(
        &mut self,
        base: usize,
        off: usize,
        item: usize,
        cost: usize,
        field: &str,
    ) -> Result<(usize, usize)> {
        if off == 0 {
            return Ok((0, 0));
        }
        let p = base + off;
        if p < self.mark {
            return Err(Self::backwards(self.mark, "collection", p, field));
        }
        let n = self.count(p, item, cost, field)?;
        self.mark = p + 4 + n * item;
        Ok((p + 4, n))
    }

    /// The optional slot at `slot`: absent (`None`), or present with the position of its value
    /// slot of `size` bytes (claimed in allocation order), which is the value's base
    /// (docs/format.md 3.4).
    #[inline(always)]
    pub fn optional(&mut self, base: usize, slot: usize, size: usize, field: &str) -> Result<Option<usize>> {
        if self.data[slot] == 0 {
            return Ok(None);
        }
        self.optional_off(base, get_u32(self.data, slot + 1) as usize, slot, size, field)
    }

    /// [`Reader::optional`] of a present optional (its presence byte non-zero) whose slot at
    /// `slot` holds the offset `off`, read by the caller.
    #[inline(always)]
    pub fn optional_off(
        &mut self,
        base: usize,
        off: usize,
        slot: usize,
        size: usize,
        field: &str,
    ) -> Result<Option<usize>> {
        if off == 0 {
            return Err(DecodeError::new("present optional with offset 0", field, Some(slot)));
        }
        let p = base + off;
        if p < self.mark {
            return Err(Self::backwards(self.mark, "optional value", p, field));
        }
        if self.data.get(p..p + size).is_none() {
            return Err(DecodeError::new("value slot beyond the end of the buffer", field, Some(p)));
        }
        self.mark = p + size;
        Ok(Some(p))
    }

    // ------------------------------------------------------------ final model

    /// The final model's cursor: the position of the next value.
    #[inline]
    pub fn pos(&self) -> usize {
        self.data.len() - self.rest.len()
    }

    /// Checks that the fields covered the root exactly (docs/format.md 5.2).
    #[inline]
    pub fn end_final(&self) -> Result<()> {
        if !self.rest.is_empty() {
            return Err(Self::not_covered(self.pos(), self.data.len()));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn not_covered(pos: usize, size: usize) -> DecodeError {
        DecodeError::new(format!("final root covers {pos} bytes, its size says {size}"), "", Some(0))
    }

    /// Whether the bytes after the final cursor are `n` or more.
    #[inline(always)]
    pub(crate) fn final_holds(&self, n: usize) -> bool {
        self.rest.len() >= n
    }

    /// Claims the next `n` bytes of a final root for one fixed-size value of `field` and
    /// returns them.
    #[inline]
    pub fn fixed(&mut self, n: usize, field: &str) -> Result<&'a [u8]> {
        match self.rest.split_at_checked(n) {
            Some((b, rest)) => {
                self.rest = rest;
                Ok(b)
            }
            None => Err(Self::value_beyond(field, self.pos())),
        }
    }

    #[cold]
    #[inline(never)]
    fn value_beyond(field: &str, at: usize) -> DecodeError {
        DecodeError::new("value beyond the end of the buffer", field, Some(at))
    }

    /// Claims the next `n` bytes of a final root, a run of fixed-size fields read at once
    /// (the plan's `Run`), and returns them; the fields are read at their offsets in the run
    /// (`get_i32(run, 4)`). `fields` describes the run (`name=size`, or `name=size*count` for an
    /// array, comma-separated) and is read only when the run is not all there, to fail as the
    /// fields one by one would: naming the first field that is not there, at its offset.
    #[inline]
    pub fn run(&mut self, n: usize, fields: &str) -> Result<&'a [u8]> {
        match self.rest.split_at_checked(n) {
            Some((b, rest)) => {
                self.rest = rest;
                Ok(b)
            }
            None => Err(Self::run_beyond(self.pos(), self.rest.len(), fields)),
        }
    }

    #[cold]
    fn run_beyond(pos: usize, left: usize, fields: &str) -> DecodeError {
        let (mut p, end) = (pos, pos + left);
        for f in fields.split(',') {
            let (name, size) = f.split_once('=').unwrap_or((f, "0"));
            let (one, count) = size.split_once('*').unwrap_or((size, "1"));
            let (one, count): (usize, usize) = (one.parse().unwrap_or(0), count.parse().unwrap_or(1));
            for _ in 0..count {
                if one > end - p {
                    return DecodeError::new("value beyond the end of the buffer", name, Some(p));
                }
                p += one;
            }
        }
        DecodeError::new("value beyond the end of the buffer", "", Some(pos))
    }

    /// A length and the bytes after it at the cursor (a string or `bytes` value), charged: the
    /// checks of a versioned string's block, in their order, on the bytes after the cursor.
    #[inline(always)]
    fn final_payload(&mut self, what: &str, field: &str) -> Result<&'a [u8]> {
        // one error branch, its message worked out out of line (with two, LLVM computed the
        // position they share before the checks)
        let claimed = self.rest.split_first_chunk().and_then(|(length, rest)| {
            let n = u32::from_le_bytes(*length) as usize;
            rest.split_at_checked(n)
        });
        let Some((b, rest)) = claimed else {
            return Err(Self::payload_beyond(what, field, self.data.len(), self.rest));
        };
        self.charge(b.len(), self.data.len() - self.rest.len(), field)?;
        self.rest = rest;
        Ok(b)
    }

    /// [`Reader::final_payload`], with the bytes of the root from the first of the value's (the
    /// value's bytes, then what follows them): a short value is copied from their first 16 as one
    /// move when the root holds as many. Its own copy of the claim: `final_payload` as this one's
    /// first part, or both through one helper, counted a final verify of 146 instructions and a
    /// read of 316 instead of 145 and 311 (docs/rust.md, "Performance").
    #[inline(always)]
    fn final_payload_window(&mut self, what: &str, field: &str) -> Result<(&'a [u8], &'a [u8])> {
        let claimed = self.rest.split_first_chunk().and_then(|(length, after)| {
            let n = u32::from_le_bytes(*length) as usize;
            after.split_at_checked(n).map(|(b, rest)| (b, rest, after))
        });
        let Some((b, rest, from_b)) = claimed else {
            return Err(Self::payload_beyond(what, field, self.data.len(), self.rest));
        };
        self.charge(b.len(), self.data.len() - self.rest.len(), field)?;
        self.rest = rest;
        Ok((b, from_b))
    }

    /// Why [`Reader::final_payload`] refused the bytes `rest` after the cursor (of a root of
    /// `size` bytes): its length, or the bytes it counts, beyond them.
    #[cold]
    #[inline(never)]
    fn payload_beyond(what: &str, field: &str, size: usize, rest: &[u8]) -> DecodeError {
        let at = size - rest.len();
        match rest.first_chunk::<4>() {
            Some(length) => Self::length_beyond(what, u32::from_le_bytes(*length) as usize, field, at),
            None => Self::size_beyond(what, field, at),
        }
    }

    /// A length and the bytes of a string at the cursor.
    #[inline]
    pub fn final_string(&mut self, field: &str) -> Result<&'a [u8]> {
        self.final_payload("string", field)
    }

    /// A length and the bytes of a `bytes` value at the cursor.
    #[inline]
    pub fn final_blob(&mut self, field: &str) -> Result<&'a [u8]> {
        self.final_payload("bytes", field)
    }

    /// [`Reader::final_string`] with the bytes of the root from its first
    /// ([`Reader::final_payload_window`]).
    #[inline(always)]
    pub(crate) fn final_string_window(&mut self, field: &str) -> Result<(&'a [u8], &'a [u8])> {
        self.final_payload_window("string", field)
    }

    /// [`Reader::final_blob`] with the bytes of the root from its first
    /// ([`Reader::final_payload_window`]).
    #[inline(always)]
    pub(crate) fn final_blob_window(&mut self, field: &str) -> Result<(&'a [u8], &'a [u8])> {
        self.final_payload_window("bytes", field)
    }

    /// A collection's count at the cursor; `item` is the fewest bytes one element takes (so a
    /// count cannot exceed what the bytes left hold; 0 for elements that take no bytes, which
    /// the budget alone bounds), `cost` what one element costs (docs/limits.md 3): the checks of
    /// a versioned collection's count, in their order, on the bytes after the cursor.
    #[inline]
    pub fn final_count(&mut self, item: usize, cost: usize, field: &str) -> Result<usize> {
        // one error branch, as final_payload's
        let counted = self.rest.split_first_chunk().and_then(|(count, rest)| {
            let n = u32::from_le_bytes(*count) as usize;
            n.checked_mul(item).is_some_and(|bytes| bytes <= rest.len()).then_some((n, rest))
        });
        let Some((n, rest)) = counted else {
            return Err(Self::count_beyond(field, self.data.len(), self.rest));
        };
        self.charge(n.saturating_mul(cost), self.data.len() - self.rest.len(), field)?;
        self.rest = rest;
        Ok(n)
    }

    /// Why [`Reader::final_count`] refused the bytes `rest` after the cursor (of a root of `size`
    /// bytes): its count beyond them, or more elements than they hold.
    #[cold]
    #[inline(never)]
    fn count_beyond(field: &str, size: usize, rest: &[u8]) -> DecodeError {
        let at = size - rest.len();
        match rest.first_chunk::<4>() {
            Some(count) => {
                let n = u32::from_le_bytes(*count);
                Self::at_error(format_args!("count {n} exceeds the buffer"), field, at)
            }
            None => Self::size_beyond("collection", field, at),
        }
    }

    /// An optional's presence byte at the cursor.
    #[inline]
    pub fn final_has(&mut self, field: &str) -> Result<bool> {
        match self.rest.split_first() {
            Some((&flag, rest)) => {
                self.rest = rest;
                Ok(flag != 0)
            }
            None => Err(Self::flag_beyond(field, self.pos())),
        }
    }

    #[cold]
    #[inline(never)]
    fn flag_beyond(field: &str, at: usize) -> DecodeError {
        DecodeError::new("optional flag beyond the end of the buffer", field, Some(at))
    }

    /// The decimal at the cursor (16 bytes), its flags checked.
    #[inline]
    pub fn final_decimal(&mut self, field: &str) -> Result<Decimal> {
        let p = self.pos();
        let b = self.fixed(16, field)?;
        Decimal::from_wire(&bytes(b, 0)).map_err(|e| DecodeError::new(e.to_string(), field, Some(p)))
    }

    /// Starts a final-model struct value costing `cost` bytes (depth and budget); the caller
    /// reads the fields and calls [`Reader::leave`]. The error is the struct's own.
    #[inline]
    pub fn enter(&mut self, cost: usize) -> Result<()> {
        let at = self.pos();
        self.check_level(at)?;
        self.charge(cost, at, "")?;
        self.levels_left -= 1;
        Ok(())
    }

    /// The error of a set or map entry at `at` whose key was read before (docs/limits.md 4).
    #[cold]
    pub fn duplicate_key(field: &str, at: usize) -> DecodeError {
        DecodeError::of_kind(ErrorKind::Duplicate, "duplicate key: two entries read as the same key", field, Some(at))
    }
}
