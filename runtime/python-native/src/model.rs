//! The two binary models as the one walk of the core sees them (docs/format.md 3 and 4): where a
//! value is, and how its block is checked and claimed ([`Read`], on the `fbe` crate's
//! [`Reader`]) or allocated and filled ([`Write`], on its [`Writer`]). The walk itself (which
//! value a kind makes, which Python object it reads from) is written once, in `lib.rs`.

use fbe::{Reader, Uuid, Writer};

use crate::{bad, other, Entry, Fail, Res};

/// Where a value is. The position of a value `off` bytes after one (an array's or a vector's
/// next element, a map entry's value slot, a struct's field from its body) is `at(off)`.
pub(crate) trait Place: Copy {
    fn at(self, off: usize) -> Self;
}

/// A slot of the versioned model: its position and the base its offsets count from (the struct
/// body holding it, or an optional's value slot; a collection's elements keep their base).
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    base: usize,
    slot: usize,
}

impl Slot {
    /// The root's slot: the top struct's offset at 4, from 0 (docs/format.md 3.2).
    pub(crate) const ROOT: Slot = Slot { base: 0, slot: 4 };

    /// The slot at `p` that is its own base (a struct body, an optional's value slot).
    fn own(p: usize) -> Slot {
        Slot { base: p, slot: p }
    }
}

impl Place for Slot {
    #[inline(always)]
    fn at(self, off: usize) -> Slot {
        Slot { base: self.base, slot: self.slot + off }
    }
}

/// The final model's place: always the cursor (values follow each other).
#[derive(Clone, Copy)]
pub(crate) struct Cursor;

impl Place for Cursor {
    #[inline(always)]
    fn at(self, _: usize) -> Cursor {
        Cursor
    }
}

/// Checks and claims the blocks of one root; a refusal is the verdict [`Fail::Bad`] (its text is
/// the Python reader's to give).
pub(crate) trait Read<'a> {
    type At: Place;
    fn reader(&mut self) -> &mut Reader<'a>;
    /// Whether the whole root was verified before this read (see `Core::read_root`).
    fn verified(&self) -> bool;
    /// The `n` bytes of a fixed-size value.
    fn fixed(&mut self, at: Self::At, n: usize) -> Res<&'a [u8]>;
    /// The bytes of a string (`string`) or a `bytes` value, charged.
    fn text(&mut self, at: Self::At, string: bool) -> Res<&'a [u8]>;
    /// An optional: absent, or where its value of `size` slot bytes is.
    fn optional(&mut self, at: Self::At, size: usize) -> Res<Option<Self::At>>;
    /// A collection of elements of `item` slot bytes, at least `min` final bytes and `cost` each:
    /// where its first element is, and the count.
    fn collection(&mut self, at: Self::At, item: usize, min: usize, cost: usize) -> Res<(Self::At, usize)>;
    /// Enters struct `t` (depth, budget, the versioned header): where its fields count from and
    /// how many of them its body holds (fewer: an older writer's). [`Reader::leave`] leaves it.
    fn enter(&mut self, at: Self::At, t: &Entry) -> Res<(Self::At, usize)>;
}

/// The versioned model (docs/format.md 3): blocks in allocation order, found through offsets;
/// and whether the root was verified.
pub(crate) struct Versioned<'a>(pub(crate) Reader<'a>, pub(crate) bool);

impl<'a> Read<'a> for Versioned<'a> {
    type At = Slot;

    #[inline(always)]
    fn reader(&mut self) -> &mut Reader<'a> {
        &mut self.0
    }

    #[inline(always)]
    fn verified(&self) -> bool {
        self.1
    }

    #[inline(always)]
    fn fixed(&mut self, at: Slot, n: usize) -> Res<&'a [u8]> {
        // inside a block checked before (a body, an optional's value slot, a collection's slots)
        self.0.data().get(at.slot..at.slot + n).ok_or(Fail::Other)
    }

    #[inline]
    fn text(&mut self, at: Slot, string: bool) -> Res<&'a [u8]> {
        if string {
            self.0.string(at.base, at.slot, "").map_err(bad)
        } else {
            self.0.blob(at.base, at.slot, "").map_err(bad)
        }
    }

    #[inline]
    fn optional(&mut self, at: Slot, size: usize) -> Res<Option<Slot>> {
        Ok(self.0.optional(at.base, at.slot, size, "").map_err(bad)?.map(Slot::own))
    }

    #[inline]
    fn collection(&mut self, at: Slot, item: usize, _: usize, cost: usize) -> Res<(Slot, usize)> {
        let (first, n) = self.0.vector(at.base, at.slot, item, cost, "").map_err(bad)?;
        Ok((Slot { base: at.base, slot: first }, n))
    }

    #[inline]
    fn enter(&mut self, at: Slot, t: &Entry) -> Res<(Slot, usize)> {
        let (body, size) = self.0.struct_body(at.base, at.slot, t.type_id, t.cost).map_err(bad)?;
        // an older writer's shorter body (`fbe.buffer.present`) holds the fields that end within
        // it, none when it is shorter than the base's body; a newer writer's longer one, all
        let present = if size >= t.body_size {
            t.fields.len()
        } else if size < t.base_size {
            0
        } else {
            t.fields.partition_point(|f| f.end <= size)
        };
        Ok((Slot::own(body), present))
    }
}

/// The final model (docs/format.md 4): values back to back from the cursor; and whether the root
/// was verified.
pub(crate) struct Final<'a>(pub(crate) Reader<'a>, pub(crate) bool);

impl<'a> Read<'a> for Final<'a> {
    type At = Cursor;

    #[inline(always)]
    fn reader(&mut self) -> &mut Reader<'a> {
        &mut self.0
    }

    #[inline(always)]
    fn verified(&self) -> bool {
        self.1
    }

    #[inline(always)]
    fn fixed(&mut self, _: Cursor, n: usize) -> Res<&'a [u8]> {
        self.0.fixed(n, "").map_err(bad)
    }

    #[inline]
    fn text(&mut self, _: Cursor, string: bool) -> Res<&'a [u8]> {
        if string {
            self.0.final_string("").map_err(bad)
        } else {
            self.0.final_blob("").map_err(bad)
        }
    }

    #[inline]
    fn optional(&mut self, _: Cursor, _: usize) -> Res<Option<Cursor>> {
        Ok(self.0.final_has("").map_err(bad)?.then_some(Cursor))
    }

    #[inline]
    fn collection(&mut self, _: Cursor, _: usize, min: usize, cost: usize) -> Res<(Cursor, usize)> {
        Ok((Cursor, self.0.final_count(min, cost, "").map_err(bad)?))
    }

    #[inline]
    fn enter(&mut self, _: Cursor, t: &Entry) -> Res<(Cursor, usize)> {
        self.0.enter(t.cost).map_err(bad)?;
        Ok((Cursor, t.fields.len()))
    }
}

/// Allocates and fills the blocks of one root; the writer's own refusals (a struct nested
/// deeper than `fbe::MAX_DEPTH`, a size beyond 32 bits) leave the value to Python.
pub(crate) trait Write {
    type At: Place;
    fn writer(&mut self) -> &mut Writer;
    /// Stores a fixed-size value's bytes (1, 2, 4, 8 or 16 of them).
    fn fixed(&mut self, at: Self::At, b: &[u8]);
    /// Stores a number of `size` bytes (1, 2, 4 or 8): the low bytes of `bits`, little-endian.
    fn num(&mut self, at: Self::At, size: usize, bits: u64);
    /// Stores a string's or bytes' data.
    fn text(&mut self, at: Self::At, data: &[u8]);
    /// An optional: absent (nothing more), or where its value of `size` slot bytes goes.
    fn optional(&mut self, at: Self::At, present: bool, size: usize) -> Option<Self::At>;
    /// A collection of `n` elements of `item` slot bytes: where its first element goes.
    fn collection(&mut self, at: Self::At, n: usize, item: usize) -> Self::At;
    /// Struct `t`'s body: where its fields go from.
    fn body(&mut self, at: Self::At, t: &Entry) -> Self::At;
}

/// Stores the little-endian bytes `b` of a fixed-size value (1, 2, 4, 8 or 16 of them) at `p`.
#[inline(always)]
fn put_bytes(w: &mut Writer, p: usize, b: &[u8]) {
    match b.len() {
        1 => w.put_u8(p, b[0]),
        2 => w.put_u16(p, u16::from_le_bytes([b[0], b[1]])),
        4 => w.put_u32(p, u32::from_le_bytes(b.try_into().expect("4 bytes"))),
        8 => w.put_u64(p, u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        _ => w.put_uuid(p, &Uuid::from_slice(b).expect("16 bytes")),
    }
}

impl Write for Writer {
    type At = Slot;

    #[inline(always)]
    fn writer(&mut self) -> &mut Writer {
        self
    }

    #[inline]
    fn fixed(&mut self, at: Slot, b: &[u8]) {
        put_bytes(self, at.slot, b);
    }

    #[inline(always)]
    fn num(&mut self, at: Slot, size: usize, bits: u64) {
        match size {
            1 => self.put_u8(at.slot, bits as u8),
            2 => self.put_u16(at.slot, bits as u16),
            4 => self.put_u32(at.slot, bits as u32),
            _ => self.put_u64(at.slot, bits),
        }
    }

    #[inline]
    fn text(&mut self, at: Slot, data: &[u8]) {
        self.string(at.base, at.slot, data);
    }

    #[inline]
    fn optional(&mut self, at: Slot, present: bool, size: usize) -> Option<Slot> {
        present.then(|| Slot::own(Writer::optional(self, at.base, at.slot, size)))
    }

    #[inline]
    fn collection(&mut self, at: Slot, n: usize, item: usize) -> Slot {
        Slot { base: at.base, slot: self.vector(at.base, at.slot, n, item) }
    }

    #[inline]
    fn body(&mut self, at: Slot, t: &Entry) -> Slot {
        Slot::own(self.struct_body(at.base, at.slot, t.body_size, t.type_id))
    }
}

/// A `Writer` writing the final model (values appended).
pub(crate) struct Appender<'w>(pub(crate) &'w mut Writer);

impl Write for Appender<'_> {
    type At = Cursor;

    #[inline(always)]
    fn writer(&mut self) -> &mut Writer {
        self.0
    }

    #[inline]
    fn fixed(&mut self, _: Cursor, b: &[u8]) {
        let w = &mut *self.0;
        match b.len() {
            1 => w.append_u8(b[0]),
            2 => w.append_u16(u16::from_le_bytes([b[0], b[1]])),
            4 => w.append_u32(u32::from_le_bytes(b.try_into().expect("4 bytes"))),
            8 => w.append_u64(u64::from_le_bytes(b.try_into().expect("8 bytes"))),
            _ => w.append_uuid(&Uuid::from_slice(b).expect("16 bytes")),
        }
    }

    #[inline(always)]
    fn num(&mut self, _: Cursor, size: usize, bits: u64) {
        match size {
            1 => self.0.append_u8(bits as u8),
            2 => self.0.append_u16(bits as u16),
            4 => self.0.append_u32(bits as u32),
            _ => self.0.append_u64(bits),
        }
    }

    #[inline]
    fn text(&mut self, _: Cursor, data: &[u8]) {
        self.0.append_string(data);
    }

    #[inline]
    fn optional(&mut self, _: Cursor, present: bool, _: usize) -> Option<Cursor> {
        self.0.append_bool(present);
        present.then_some(Cursor)
    }

    #[inline]
    fn collection(&mut self, _: Cursor, n: usize, _: usize) -> Cursor {
        self.0.append_count(n);
        Cursor
    }

    #[inline]
    fn body(&mut self, _: Cursor, _: &Entry) -> Cursor {
        Cursor
    }
}

/// The `fbe::Limits` of a Python `fbe.Limits` (None: the defaults of docs/limits.md); values
/// the crate's cannot hold (negative ones) leave the call to Python.
pub(crate) fn limits(l: Option<&pyo3::Bound<'_, pyo3::PyAny>>) -> Res<fbe::Limits> {
    use pyo3::types::PyAnyMethods;
    let Some(l) = l.filter(|l| !l.is_none()) else {
        return Ok(fbe::Limits::DEFAULT);
    };
    let get = |name: &str| l.getattr(name).and_then(|x| x.extract::<usize>()).map_err(other);
    Ok(fbe::Limits {
        max_depth: get("max_depth")?,
        budget_factor: get("budget_factor")?,
        budget_slack: get("budget_slack")?,
        ..fbe::Limits::DEFAULT
    })
}
