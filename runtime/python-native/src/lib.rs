//! The native core of the `fbe` Python package (docs/python.md, "Native core").
//!
//! One walk of a table of the schema's structs that reads and writes both binary models
//! (docs/format.md 3 and 4; `model.rs` says where a value is in each): `fbec --python` writes it into every generated module
//! (`FBE_CORE = fbe.native.core(...)`), so no code is compiled per schema. The objects read are
//! instances of the generated classes, their `__slots__` filled as the pure-Python reader fills
//! them.
//!
//! The contract with the generated code: a call gives exactly what the pure-Python code gives
//! (the same object, the same bytes, the same verdict), or `None`, and then the caller runs the
//! pure-Python code, which raises the error with its text, field and offset. So every refusal
//! here is only a verdict; the error texts live once, in `fbe.buffer`. A type whose fields this
//! core does not cover (a collection within a collection) is always handed back to Python.
//!
//! The blocks are checked and claimed by the `fbe` crate's `Reader` and allocated by its `Writer`
//! (runtime/rust: the format's rules live once in Rust), so the checks and costs are those of
//! docs/limits.md that every reader makes: blocks in allocation order, bounds, struct headers,
//! the decode budget (`fbe::Limits`; each struct its `decode_cost`, strings and bytes their
//! length, collection elements their `item_cost`), the nesting depth and decimal flags.

use std::cell::RefCell;
use std::ffi::c_char;

mod model;

use fbe::{Decimal, Reader, Writer};
use model::{Appender, Cursor, Final, Place, Read, Slot, Versioned, Write};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{
    IntoPyDict, PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple,
    PyType,
};
use pyo3::Borrowed;

/// A fixed-size value: the `struct` format characters of the generated code.
#[derive(Clone, Copy, Debug)]
enum Num {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Num {
    fn parse(s: &str) -> Option<Num> {
        Some(match s {
            "?" => Num::Bool,
            "b" => Num::I8,
            "B" => Num::U8,
            "h" => Num::I16,
            "H" => Num::U16,
            "i" => Num::I32,
            "I" => Num::U32,
            "q" => Num::I64,
            "Q" => Num::U64,
            "f" => Num::F32,
            "d" => Num::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Num::Bool | Num::I8 | Num::U8 => 1,
            Num::I16 | Num::U16 => 2,
            Num::I32 | Num::U32 | Num::F32 => 4,
            Num::I64 | Num::U64 | Num::F64 => 8,
        }
    }

    /// The integer range of the format (`struct.pack` refuses values outside it).
    fn range(self) -> (i128, i128) {
        match self {
            Num::I8 => (i8::MIN.into(), i8::MAX.into()),
            Num::U8 => (0, u8::MAX.into()),
            Num::I16 => (i16::MIN.into(), i16::MAX.into()),
            Num::U16 => (0, u16::MAX.into()),
            Num::I32 => (i32::MIN.into(), i32::MAX.into()),
            Num::U32 => (0, u32::MAX.into()),
            Num::I64 => (i64::MIN.into(), i64::MAX.into()),
            _ => (0, u64::MAX.into()),
        }
    }
}

/// How a slot is read and written (one entry of the table, see `Kind::parse`).
enum Kind {
    Num(Num),
    /// An enum or flags: the wire number, then its member.
    Enum(Num, Box<Members>),
    Str,
    Bytes,
    Uuid,
    Decimal,
    /// A struct of the table (its index).
    Struct(usize),
    Optional(Box<Kind>),
    /// A vector or list: the element, what one element costs (`item_cost`) and the fewest bytes
    /// it takes in the final model (`item_min_size`).
    Seq(Box<Kind>, usize, usize),
    /// A set: as a vector, and the key its elements are sorted by when written (None: their own
    /// order, `sorted(x)`).
    Set(Box<Kind>, usize, usize, Option<Py<PyAny>>),
    /// A map or hash: its key and value, what one entry costs and its fewest final bytes, and the
    /// key its items are sorted by when written (a map's, `sorted(x.items(), key=...)`; None: a
    /// hash, written in the dict's order).
    Map(Box<Kind>, Box<Kind>, usize, usize, Option<Py<PyAny>>),
    Array(Box<Kind>, usize),
    /// A kind this core does not cover yet: the struct goes to Python.
    Unsupported,
}

impl Kind {
    /// The versioned slot size (docs/format.md 3.4).
    fn size(&self) -> usize {
        match self {
            Kind::Num(n) | Kind::Enum(n, _) => n.size(),
            Kind::Uuid | Kind::Decimal => 16,
            Kind::Optional(_) => 5,
            Kind::Array(e, n) => e.size() * n,
            Kind::Str | Kind::Bytes | Kind::Struct(_) | Kind::Seq(..) | Kind::Set(..) | Kind::Map(..) => 4,
            Kind::Unsupported => 4,
        }
    }

    /// A table entry: a format character (`"i"`), `"s"` string, `"y"` bytes, `"u"` uuid, `"m"`
    /// decimal, or a tuple: `("e", fmt, members)`, `("S", index)`, `("o", kind)`,
    /// `("v", kind, item_cost, item_min_size)`, `("a", kind, length)`, `("t", kind, item_cost,
    /// item_min_size, sort key or None)`, `("M", key, value, item_cost, item_min_size, sort key)`,
    /// `("H", key, value, item_cost, item_min_size)`; anything else is not covered.
    fn parse(spec: &Bound<'_, PyAny>, structs: usize) -> PyResult<Kind> {
        if let Ok(s) = spec.downcast::<PyString>() {
            let s = s.to_str()?;
            return Ok(match s {
                "s" => Kind::Str,
                "y" => Kind::Bytes,
                "u" => Kind::Uuid,
                "m" => Kind::Decimal,
                _ => Num::parse(s).map_or(Kind::Unsupported, Kind::Num),
            });
        }
        let t = spec.downcast::<PyTuple>()?;
        let tag: String = t.get_item(0)?.extract()?;
        Ok(match tag.as_str() {
            "e" => {
                let fmt: String = t.get_item(1)?.extract()?;
                match Num::parse(&fmt) {
                    Some(n) => Kind::Enum(n, Box::new(Members::new(&t.get_item(2)?)?)),
                    None => Kind::Unsupported,
                }
            }
            "S" => {
                let i: usize = t.get_item(1)?.extract()?;
                if i >= structs {
                    return Err(PyValueError::new_err(format!("struct index {i} beyond the table")));
                }
                Kind::Struct(i)
            }
            "o" => Kind::Optional(Box::new(Kind::parse(&t.get_item(1)?, structs)?)),
            "v" => Kind::Seq(
                Box::new(Kind::parse(&t.get_item(1)?, structs)?),
                t.get_item(2)?.extract()?,
                t.get_item(3)?.extract()?,
            ),
            "a" => Kind::Array(Box::new(Kind::parse(&t.get_item(1)?, structs)?), t.get_item(2)?.extract()?),
            "t" => {
                let key = t.get_item(4)?;
                Kind::Set(
                    Box::new(Kind::parse(&t.get_item(1)?, structs)?),
                    t.get_item(2)?.extract()?,
                    t.get_item(3)?.extract()?,
                    (!key.is_none()).then(|| key.unbind()),
                )
            }
            "M" | "H" => Kind::Map(
                Box::new(Kind::parse(&t.get_item(1)?, structs)?),
                Box::new(Kind::parse(&t.get_item(2)?, structs)?),
                t.get_item(3)?.extract()?,
                t.get_item(4)?.extract()?,
                if tag == "M" { Some(t.get_item(5)?.unbind()) } else { None },
            ),
            _ => Kind::Unsupported,
        })
    }

    /// Written without calling Python code (`num_bits`, a `str`'s or `bytes`' data): the writer
    /// may hold such a value without a reference of its own.
    fn leaf(&self) -> bool {
        matches!(self, Kind::Num(_) | Kind::Enum(..) | Kind::Str | Kind::Bytes)
    }

    /// Covered by this core, given which structs are.
    fn covered(&self, structs: &[bool]) -> bool {
        match self {
            Kind::Unsupported => false,
            Kind::Struct(i) => structs[*i],
            Kind::Optional(e) | Kind::Seq(e, ..) | Kind::Set(e, ..) | Kind::Array(e, _) => e.covered(structs),
            Kind::Map(k, v, ..) => k.covered(structs) && v.covered(structs),
            _ => true,
        }
    }
}

/// The members of an enum or flags by wire value: `FBE_M_<Name>` (an `fbe.EnumMembers` dict,
/// whose `__missing__` makes an undeclared value's member without storing it), and its members of
/// the values 0..256 by index, taken from it when the table is made (the module's constant).
struct Members {
    dict: Py<PyAny>,
    /// Whether `dict` is a dict (else it is only indexed, `dict[value]`).
    is_dict: bool,
    small: Vec<Option<PyObject>>,
}

impl Members {
    fn new(d: &Bound<'_, PyAny>) -> PyResult<Members> {
        let mut small: Vec<Option<PyObject>> = Vec::new();
        let is_dict = d.downcast::<PyDict>().is_ok();
        if let Ok(dict) = d.downcast::<PyDict>() {
            for (k, v) in dict.iter() {
                // exact ints only: another key equal to a value (True, an IntEnum) stays the dict's
                let Some(i) = k.downcast_exact::<PyInt>().ok().and_then(|k| k.extract::<u8>().ok()) else {
                    continue;
                };
                let i = usize::from(i);
                if small.len() <= i {
                    small.resize_with(i + 1, || None);
                }
                small[i] = Some(v.unbind());
            }
        }
        Ok(Members { dict: d.clone().unbind(), is_dict, small })
    }

    /// The member of the wire value `b` of format `n`: `FBE_M_<Name>[value]`.
    fn get(&self, py: Python<'_>, n: Num, b: &[u8]) -> Res<PyObject> {
        let index = match n {
            Num::I8 => usize::try_from(b[0] as i8).ok(),
            Num::U8 => Some(usize::from(b[0])),
            Num::I16 => usize::try_from(i16::from_le_bytes([b[0], b[1]])).ok(),
            Num::U16 => Some(usize::from(u16::from_le_bytes([b[0], b[1]]))),
            Num::I32 => usize::try_from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok(),
            Num::U32 => usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok(),
            _ => None,
        };
        if let Some(Some(m)) = index.and_then(|i| self.small.get(i)) {
            return Ok(m.clone_ref(py));
        }
        let raw = num_value(py, n, b);
        let members = self.dict.bind(py);
        if self.is_dict {
            // SAFETY: `members` is a dict (checked when the table was made); the key is a live int;
            // the result is a borrowed reference or NULL (absent, or an error, which is cleared:
            // the item access below raises it again).
            let hit = unsafe {
                let o = ffi::PyDict_GetItemWithError(members.as_ptr(), raw.as_ptr());
                if o.is_null() {
                    ffi::PyErr_Clear();
                }
                Borrowed::from_ptr_or_opt(py, o).map(|o| o.to_owned().unbind())
            };
            if let Some(m) = hit {
                return Ok(m);
            }
        }
        Ok(members.get_item(raw).map_err(other)?.unbind()) // __missing__: an undeclared value
    }
}

struct Field {
    name: Py<PyString>,
    /// Where the instance holds the attribute (a `__slots__` member of the class, `T_OBJECT_EX`),
    /// read and written directly in instances of exactly the entry's class; else by name.
    member: Option<isize>,
    offset: usize,
    /// The body bytes that hold the slot: an older writer's shorter body lacks the field.
    end: usize,
    /// What the default struct values of this field and every field after it cost (charged when
    /// a body ends before `end`).
    missing: usize,
    kind: Kind,
}

struct Entry {
    cls: Py<PyType>,
    type_id: u32,
    body_size: usize,
    cost: usize,
    /// The body size of the base struct: a shorter body holds none of the fields.
    base_size: usize,
    fields: Vec<Field>,
    covered: bool,
}

/// Why a call gives no answer: `Bad`, the pure-Python reader refuses this input too (a verdict);
/// `Other`, this core does not answer (not covered, or a Python error): Python decides. `Older`:
/// a read met an older writer's body before the root was verified (`Core::read_root` verifies it
/// and reads again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fail {
    Bad,
    Other,
    Older,
}

type Res<T> = Result<T, Fail>;

/// The verdict of a verify: the input reads, does not (`Bad`), or Python decides (`None`).
fn verdict(r: Res<Option<PyObject>>) -> Option<bool> {
    match r {
        Ok(_) => Some(true),
        Err(Fail::Bad) => Some(false),
        Err(Fail::Other | Fail::Older) => None,
    }
}

/// The largest buffer a thread's writer keeps between calls (bytes).
const KEPT_WRITER: usize = 1 << 16;

thread_local! {
    /// The writer of this thread's roots, reused: a warm call allocates only the bytes it returns.
    static WRITER: RefCell<Writer> = RefCell::new(Writer::new());
}

/// One of the two binary models (docs/format.md 3 and 4).
#[derive(Clone, Copy)]
enum Model {
    Versioned,
    Final,
}

fn other<E>(_: E) -> Fail {
    Fail::Other
}

fn bad<E>(_: E) -> Fail {
    Fail::Bad
}

fn num_value(py: Python<'_>, n: Num, b: &[u8]) -> PyObject {
    let a = |k: usize| -> [u8; 8] {
        let mut x = [0u8; 8];
        x[..k].copy_from_slice(&b[..k]);
        x
    };
    match n {
        Num::Bool => PyBool::new(py, b[0] != 0).to_owned().into_any().unbind(),
        Num::I8 => (b[0] as i8).into_pyobject(py).unwrap().into_any().unbind(),
        Num::U8 => b[0].into_pyobject(py).unwrap().into_any().unbind(),
        Num::I16 => i16::from_le_bytes([b[0], b[1]]).into_pyobject(py).unwrap().into_any().unbind(),
        Num::U16 => u16::from_le_bytes([b[0], b[1]]).into_pyobject(py).unwrap().into_any().unbind(),
        Num::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]).into_pyobject(py).unwrap().into_any().unbind(),
        Num::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]).into_pyobject(py).unwrap().into_any().unbind(),
        Num::I64 => i64::from_le_bytes(a(8)).into_pyobject(py).unwrap().into_any().unbind(),
        Num::U64 => u64::from_le_bytes(a(8)).into_pyobject(py).unwrap().into_any().unbind(),
        Num::F32 => {
            let f = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            PyFloat::new(py, f64::from(f)).into_any().unbind()
        }
        Num::F64 => PyFloat::new(py, f64::from_le_bytes(a(8))).into_any().unbind(),
    }
}

/// The bytes `struct.pack` gives a value of format `n` (little-endian, the low `n.size()` bytes of
/// the answer), or no answer where it would raise (or where its answer is not certain to be these
/// bytes: a bool field given something else than `True`/`False`, a float field given a NaN or
/// something else than a float or an exact int). Calls no Python code (the writer holds `v`
/// borrowed, see `Kind::leaf`).
#[inline]
fn num_bits(n: Num, v: &Bound<'_, PyAny>) -> Res<u64> {
    let o = v.as_ptr();
    Ok(match n {
        Num::Bool => u64::from(v.downcast::<PyBool>().map_err(other)?.is_true()),
        Num::F32 | Num::F64 => {
            // SAFETY: `o` is a live object (borrowed for the call); the type checks are of its
            // type's flags, PyFloat_AS_DOUBLE reads a float (a subclass included: what
            // PyFloat_AsDouble, struct.pack's, reads), PyLong_AsDouble an exact int (its digits:
            // no Python code), whose error (too large: OverflowError) is cleared, Python then
            // raising it.
            let x = unsafe {
                if ffi::PyFloat_Check(o) != 0 {
                    ffi::PyFloat_AS_DOUBLE(o)
                } else if ffi::PyLong_CheckExact(o) != 0 {
                    let x = ffi::PyLong_AsDouble(o);
                    if x == -1.0 && !ffi::PyErr_Occurred().is_null() {
                        ffi::PyErr_Clear();
                        return Err(Fail::Other);
                    }
                    x
                } else {
                    return Err(Fail::Other); // an int subclass's __float__ is struct.pack's to call
                }
            };
            if let Num::F64 = n {
                x.to_bits()
            } else {
                let f = x as f32;
                if x.is_nan() || (f.is_infinite() && x.is_finite()) {
                    return Err(Fail::Other);
                }
                u64::from(f.to_bits())
            }
        }
        _ => {
            // SAFETY: as above; PyLong_AsLongLongAndOverflow reads an int's digits (a subclass's
            // too: its __index__ is not called for an int), and so does
            // PyLong_AsUnsignedLongLong; an error either sets is cleared (Python then raises it).
            let x: i128 = unsafe {
                if ffi::PyLong_Check(o) == 0 {
                    return Err(Fail::Other);
                }
                let mut overflow = 0;
                let x = ffi::PyLong_AsLongLongAndOverflow(o, &mut overflow);
                if overflow > 0 && matches!(n, Num::U64) {
                    let u = ffi::PyLong_AsUnsignedLongLong(o);
                    if u == u64::MAX && !ffi::PyErr_Occurred().is_null() {
                        ffi::PyErr_Clear();
                        return Err(Fail::Other);
                    }
                    u.into()
                } else if overflow != 0 {
                    return Err(Fail::Other);
                } else if x == -1 && !ffi::PyErr_Occurred().is_null() {
                    ffi::PyErr_Clear();
                    return Err(Fail::Other);
                } else {
                    x.into()
                }
            };
            let (lo, hi) = n.range();
            if x < lo || x > hi {
                return Err(Fail::Other);
            }
            x as u64 // two's complement: its low bytes are the value's
        }
    })
}

/// The table of one generated module and the Python helpers it calls.
#[pyclass(frozen, module = "fbe_native")]
struct Core {
    types: Vec<Entry>,
    decode_decimal: PyObject,
    encode_decimal: PyObject,
    make_uuid: PyObject,
    /// `builtins.sorted`: sets and maps are written in its order.
    sorted: PyObject,
}

/// `cls.__new__(cls)`: an instance whose slots are empty, filled by the reader.
fn new_instance<'py>(py: Python<'py>, cls: &Bound<'py, PyType>) -> Res<Bound<'py, PyAny>> {
    // SAFETY: `cls` is a live type object (held by the table); `tp_alloc` is what
    // `object.__new__` calls for the generated classes (plain `__slots__` classes without a
    // `__new__` of their own) and returns a new reference or NULL with an exception set, which
    // `from_owned_ptr_or_err` takes over.
    unsafe {
        let tp = cls.as_type_ptr();
        let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
        Bound::from_owned_ptr_or_err(py, alloc(tp, 0)).map_err(other)
    }
}

/// The `str` of a string's bytes, as `fbe.buffer.read_string` makes it (UTF-8, each byte of
/// invalid UTF-8 kept as a lone surrogate).
fn decode_str(py: Python<'_>, b: &[u8]) -> Res<PyObject> {
    // SAFETY: the pointer and length describe `b`, alive for the call; the error handler is a
    // NUL-terminated literal; the result is a new reference or NULL with an exception set.
    unsafe {
        let o = ffi::PyUnicode_DecodeUTF8(
            b.as_ptr() as *const c_char,
            b.len() as ffi::Py_ssize_t,
            c"surrogateescape".as_ptr(),
        );
        Ok(Bound::from_owned_ptr_or_err(py, o).map_err(other)?.unbind())
    }
}

impl Core {
    fn entry(&self, index: usize) -> Res<&Entry> {
        match self.types.get(index) {
            Some(t) if t.covered => Ok(t),
            _ => Err(Fail::Other),
        }
    }

    /// The root `data` of struct `index` in `model` (`from_fbe`, `from_final`; `make` false: their
    /// verify).
    fn read_root(
        &self,
        py: Python<'_>,
        model: Model,
        index: usize,
        data: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyAny>>,
        make: bool,
    ) -> Res<Option<PyObject>> {
        let t = self.entry(index)?;
        let data = data.downcast::<PyBytes>().map_err(other)?.as_bytes();
        let limits = model::limits(limits)?;
        let read = |verified: bool, make: bool| match model {
            Model::Versioned => {
                let mut m = Versioned(Reader::versioned(data, &limits).map_err(bad)?, verified);
                self.read_struct(py, &mut m, index, Slot::ROOT, make)
            }
            Model::Final => {
                let mut m = Final(Reader::final_root(data, t.type_id, &limits).map_err(bad)?, verified);
                let v = self.read_struct(py, &mut m, index, Cursor, make)?;
                m.0.end_final().map_err(bad)?; // "final root covers n bytes, its size says size"
                Ok(v)
            }
        };
        match read(false, make) {
            // an older writer's body: its missing fields' defaults are made by Python code (the
            // constructor), which is not run for a root that does not read (a hostile one can
            // hold thousands of such bodies, and the Python reader then makes them all again)
            Err(Fail::Older) => {
                read(true, false)?;
                read(true, true)
            }
            r => r,
        }
    }

    /// The root of `value` (struct `index`) in `model` (`to_fbe`, `to_final`), or `None`: Python
    /// writes it (or raises).
    fn write_root(&self, py: Python<'_>, model: Model, index: usize, value: &Bound<'_, PyAny>) -> Option<PyObject> {
        let t = self.entry(index).ok()?;
        WRITER.with(|cell| {
            // a write within a write (Python code a writer called, such as a sort key, writing a
            // root too) has a writer of its own
            let mut fresh = Writer::new();
            let mut kept = cell.try_borrow_mut();
            let w = match kept {
                Ok(ref mut w) => &mut **w,
                Err(_) => &mut fresh,
            };
            let root = match model {
                Model::Versioned => {
                    w.begin_versioned();
                    self.write_struct(py, w, index, Slot::ROOT, value).ok()?;
                    w.end_versioned()
                }
                Model::Final => {
                    w.begin_final();
                    self.write_struct(py, &mut Appender(w), index, Cursor, value).ok()?;
                    w.end_final(t.type_id)
                }
            };
            let root = PyBytes::new(py, root.ok()?).into_any().unbind();
            if w.len() > KEPT_WRITER {
                *w = Writer::new(); // a large root's buffer is not kept
            }
            Some(root)
        })
    }

    /// Struct `ti` at `at` in either model (`fbe_vr_<Name>`, `fbe_fr_<Name>`): the object, or
    /// None when `make` is false (verify).
    fn read_struct<'a, M: Read<'a>>(
        &self,
        py: Python<'_>,
        m: &mut M,
        ti: usize,
        at: M::At,
        make: bool,
    ) -> Res<Option<PyObject>> {
        let t = &self.types[ti];
        let (body, present) = m.enter(at, t)?;
        let obj = if present < t.fields.len() {
            // an older writer's body: the fields it lacks get their defaults from the
            // constructor, and the default struct values among them are charged
            if make && !m.verified() {
                return Err(Fail::Older);
            }
            m.reader().spend(t.fields[present].missing, 0, "").map_err(bad)?;
            let obj = if make { Some(t.cls.bind(py).call0().map_err(other)?) } else { None };
            for f in &t.fields[..present] {
                let v = self.read_value(py, m, &f.kind, body.at(f.offset), make)?;
                if let (Some(o), Some(v)) = (&obj, v) {
                    o.setattr(f.name.bind(py), v).map_err(other)?;
                }
            }
            obj
        } else {
            let obj = if make { Some(new_instance(py, t.cls.bind(py))?) } else { None };
            for f in &t.fields {
                let at = body.at(f.offset);
                let v = if f.kind.leaf() {
                    read_leaf(py, m, &f.kind, at, make)?
                } else {
                    self.read_value(py, m, &f.kind, at, make)?
                };
                if let (Some(o), Some(v)) = (&obj, v) {
                    set_field(py, o, f, v)?;
                }
            }
            obj
        };
        m.reader().leave();
        Ok(obj.map(Bound::unbind))
    }

    /// The value of `kind` at `at`; None when `make` is false (verify).
    fn read_value<'a, M: Read<'a>>(
        &self,
        py: Python<'_>,
        m: &mut M,
        kind: &Kind,
        at: M::At,
        make: bool,
    ) -> Res<Option<PyObject>> {
        Ok(match kind {
            Kind::Num(_) | Kind::Enum(..) | Kind::Str | Kind::Bytes => read_leaf(py, m, kind, at, make)?,
            Kind::Uuid => {
                let b = m.fixed(at, 16)?;
                if make {
                    Some(self.make_uuid.bind(py).call1((PyBytes::new(py, b),)).map_err(other)?.unbind())
                } else {
                    None
                }
            }
            Kind::Decimal => {
                let b = m.fixed(at, 16)?;
                Decimal::from_wire(b.try_into().map_err(other)?).map_err(bad)?; // the flags' check
                if make {
                    Some(self.decode_decimal.bind(py).call1((PyBytes::new(py, b),)).map_err(other)?.unbind())
                } else {
                    None
                }
            }
            Kind::Struct(ti) => self.read_struct(py, m, *ti, at, make)?,
            Kind::Optional(e) => match m.optional(at, e.size())? {
                None => make.then(|| py.None()),
                Some(value) => self.read_value(py, m, e, value, make)?,
            },
            Kind::Seq(e, cost, min) | Kind::Set(e, cost, min, _) => {
                let item = e.size();
                let (first, n) = m.collection(at, item, *min, *cost)?;
                // elements taking no bytes (`min` 0) are bounded by the budget their structs are
                // charged as they are read, not by the buffer: room for at most a buffer's worth
                let mut c = Coll::new(py, kind, n, m.reader().len(), make)?;
                let keys = c.keys();
                for i in 0..n {
                    let v = self.read_value(py, m, e, first.at(i * item), keys)?;
                    c.push(py, v, None)?;
                }
                c.finish(py, n, make)?
            }
            Kind::Map(k, v, cost, min, _) => {
                let (ks, item) = (k.size(), k.size() + v.size());
                let (first, n) = m.collection(at, item, *min, *cost)?;
                let mut c = Coll::new(py, kind, n, m.reader().len(), make)?;
                for i in 0..n {
                    let entry = first.at(i * item);
                    let key = self.read_value(py, m, k, entry, true)?;
                    let value = self.read_value(py, m, v, entry.at(ks), make)?;
                    c.push(py, key, value)?;
                }
                c.finish(py, n, make)?
            }
            Kind::Array(e, n) => {
                let item = e.size();
                let mut items = Vec::with_capacity(if make { *n } else { 0 });
                for i in 0..*n {
                    items.extend(self.read_value(py, m, e, at.at(i * item), make)?);
                }
                make.then(|| PyList::new(py, items).map(|l| l.into_any().unbind())).transpose().map_err(other)?
            }
            Kind::Unsupported => return Err(Fail::Other),
        })
    }

    /// Writes struct `ti`'s value `v` at `at` in either model (`fbe_vw_<Name>`, `fbe_fw_<Name>`):
    /// the bytes of the generated pure-Python writer, in the same order.
    fn write_struct<W: Write>(&self, py: Python<'_>, w: &mut W, ti: usize, at: W::At, v: &Bound<'_, PyAny>) -> Res<()> {
        let t = &self.types[ti];
        w.writer().enter("").map_err(other)?; // Python decides (and refuses beyond fbe.MAX_DEPTH)
        let body = w.body(at, t);
        let exact = v.get_type().is(t.cls.bind(py));
        for f in &t.fields {
            let at = body.at(f.offset);
            match f.member {
                Some(m) if exact && f.kind.leaf() => {
                    // SAFETY: `v` is an instance of exactly the struct's class, whose member
                    // `f.name` is a T_OBJECT_EX slot at this offset (checked in `Core::new`): the
                    // attribute's object or NULL when it is not set. It is used without a
                    // reference of its own: writing a leaf kind runs no Python code, so nothing
                    // can replace the attribute (and free its object) meanwhile.
                    let x = unsafe { *((v.as_ptr() as *mut u8).offset(m) as *mut *mut ffi::PyObject) };
                    let x = unsafe { Borrowed::from_ptr_or_opt(py, x) }.ok_or(Fail::Other)?;
                    write_leaf(w, &f.kind, at, &x)?;
                }
                _ => self.write_value(py, w, &f.kind, at, &get_field(py, v, f, exact)?)?,
            }
        }
        w.writer().leave();
        Ok(())
    }

    /// Writes `v`, a value of `kind`, at `at`.
    fn write_value<W: Write>(
        &self,
        py: Python<'_>,
        w: &mut W,
        kind: &Kind,
        at: W::At,
        v: &Bound<'_, PyAny>,
    ) -> Res<()> {
        match kind {
            Kind::Num(_) | Kind::Enum(..) | Kind::Str | Kind::Bytes => write_leaf(w, kind, at, v)?,
            Kind::Uuid => {
                let b = v.getattr("bytes").map_err(other)?;
                w.fixed(at, sixteen(&b)?);
            }
            Kind::Decimal => {
                let b = self.encode_decimal.bind(py).call1((v,)).map_err(other)?;
                w.fixed(at, sixteen(&b)?);
            }
            Kind::Struct(ti) => self.write_struct(py, w, *ti, at, v)?,
            Kind::Optional(e) => {
                if let Some(value) = w.optional(at, !v.is_none(), e.size()) {
                    self.write_value(py, w, e, value, v)?;
                }
            }
            Kind::Seq(e, ..) | Kind::Set(e, ..) => {
                let items = self.elements(py, kind, v)?;
                let item = e.size();
                let first = w.collection(at, items.len(), item);
                for i in 0..items.len() {
                    self.write_value(py, w, e, first.at(i * item), &items.get(i)?)?;
                }
            }
            Kind::Map(k, x, ..) => {
                let items = self.elements(py, kind, v)?;
                let (ks, item) = (k.size(), k.size() + x.size());
                let first = w.collection(at, items.len(), item);
                for i in 0..items.len() {
                    let (key, value) = pair(&items.get(i)?)?;
                    let entry = first.at(i * item);
                    self.write_value(py, w, k, entry, &key)?;
                    self.write_value(py, w, x, entry.at(ks), &value)?;
                }
            }
            Kind::Array(e, n) => {
                let items = Items::of(v)?;
                if items.len() != *n {
                    return Err(Fail::Other); // "array ... needs n elements"
                }
                let item = e.size();
                for i in 0..*n {
                    self.write_value(py, w, e, at.at(i * item), &items.get(i)?)?;
                }
            }
            Kind::Unsupported => return Err(Fail::Other),
        }
        Ok(())
    }

    /// The elements of a collection value in the order the Python writer writes them: a vector's
    /// as they are, a set's `sorted` (by its key), a map's items `sorted` by its key, a hash's
    /// items in the dict's order. Only lists and tuples, sets and frozensets, dicts: anything
    /// else goes to Python.
    fn elements<'py>(&self, py: Python<'py>, kind: &Kind, v: &Bound<'py, PyAny>) -> Res<Items<'py>> {
        let (all, key) = match kind {
            Kind::Set(_, _, _, key) => {
                if !(v.is_exact_instance_of::<PySet>() || v.is_exact_instance_of::<PyFrozenSet>()) {
                    return Err(Fail::Other);
                }
                (v.clone(), key)
            }
            Kind::Map(.., key) => {
                let d = v.downcast_exact::<PyDict>().map_err(other)?;
                if key.is_none() {
                    return Ok(Items::List(d.items()));
                }
                (d.items().into_any(), key)
            }
            _ => return Items::of(v),
        };
        let sorted = self.sorted.bind(py);
        let l = match key {
            None => sorted.call1((all,)),
            Some(k) => sorted.call((all,), Some(&[("key", k.bind(py))].into_py_dict(py).map_err(other)?)),
        };
        Ok(Items::List(l.map_err(other)?.downcast_into::<PyList>().map_err(other)?))
    }
}

/// The value of a leaf kind (`Kind::leaf`) at `at`, None when `make` is false (verify): apart
/// from the rest of `Core::read_value` so that a struct's leaf fields are read without its frame.
#[inline(always)]
fn read_leaf<'a, M: Read<'a>>(py: Python<'_>, m: &mut M, kind: &Kind, at: M::At, make: bool) -> Res<Option<PyObject>> {
    Ok(match kind {
        Kind::Num(n) => {
            let b = m.fixed(at, n.size())?;
            make.then(|| num_value(py, *n, b))
        }
        Kind::Enum(n, members) => {
            let b = m.fixed(at, n.size())?;
            if make {
                Some(members.get(py, *n, b)?)
            } else {
                None
            }
        }
        Kind::Str | Kind::Bytes => {
            let string = matches!(kind, Kind::Str);
            let data = m.text(at, string)?;
            match (make, string) {
                (false, _) => None,
                (true, true) => Some(decode_str(py, data)?),
                (true, false) => Some(PyBytes::new(py, data).into_any().unbind()),
            }
        }
        _ => return Err(Fail::Other),
    })
}

/// Writes `v`, a value of a leaf kind (`Kind::leaf`), at `at`: apart from the rest of
/// `Core::write_value` so that a struct's leaf fields are written without its frame.
#[inline(always)]
fn write_leaf<W: Write>(w: &mut W, kind: &Kind, at: W::At, v: &Bound<'_, PyAny>) -> Res<()> {
    match kind {
        Kind::Num(n) | Kind::Enum(n, _) => w.num(at, n.size(), num_bits(*n, v)?),
        Kind::Str => {
            // lone surrogates: Python's surrogateescape decides
            w.text(at, v.downcast::<PyString>().map_err(other)?.to_str().map_err(other)?.as_bytes());
        }
        Kind::Bytes => match v.downcast::<PyBytes>() {
            Ok(b) => w.text(at, b.as_bytes()),
            Err(_) => w.text(at, &v.downcast::<PyByteArray>().map_err(other)?.to_vec()),
        },
        _ => return Err(Fail::Other),
    }
    Ok(())
}

/// Set field `f` of `o`, a new instance of exactly the field's struct class.
fn set_field(py: Python<'_>, o: &Bound<'_, PyAny>, f: &Field, v: PyObject) -> Res<()> {
    match f.member {
        // SAFETY: `o` is a new instance of exactly the struct's class (tp_alloc zero-fills it), whose
        // member `f.name` is a T_OBJECT_EX slot at this offset (checked in `Core::new`); the slot
        // is empty (each field is set once), so the reference moves into it.
        Some(m) => unsafe {
            let slot = (o.as_ptr() as *mut u8).offset(m) as *mut *mut ffi::PyObject;
            debug_assert!((*slot).is_null());
            *slot = v.into_ptr();
            Ok(())
        },
        None => o.setattr(f.name.bind(py), v).map_err(other),
    }
}

/// Field `f` of `v` (`exact`: `v` is an instance of exactly the struct's class).
fn get_field<'py>(py: Python<'py>, v: &Bound<'py, PyAny>, f: &Field, exact: bool) -> Res<Bound<'py, PyAny>> {
    match f.member {
        // SAFETY: `v` is an instance of exactly the struct's class, whose member `f.name` is a
        // T_OBJECT_EX slot at this offset (checked in `Core::new`): a borrowed reference, or NULL
        // when the attribute is not set (then getattr raises AttributeError).
        Some(m) if exact => unsafe {
            let slot = *((v.as_ptr() as *mut u8).offset(m) as *mut *mut ffi::PyObject);
            if slot.is_null() {
                return Err(Fail::Other);
            }
            Ok(Bound::from_borrowed_ptr(py, slot))
        },
        _ => v.getattr(f.name.bind(py)).map_err(other),
    }
}

/// The elements of a list or tuple written as a vector, list or array (anything else: Python), or
/// the list `sorted` gives of a set's elements or a map's items.
enum Items<'py> {
    List(Bound<'py, PyList>),
    Tuple(Bound<'py, PyTuple>),
}

impl<'py> Items<'py> {
    fn of(v: &Bound<'py, PyAny>) -> Res<Self> {
        if let Ok(l) = v.downcast::<PyList>() {
            return Ok(Items::List(l.clone()));
        }
        Ok(Items::Tuple(v.downcast::<PyTuple>().map_err(other)?.clone()))
    }

    fn len(&self) -> usize {
        match self {
            Items::List(l) => l.len(),
            Items::Tuple(t) => t.len(),
        }
    }

    fn get(&self, i: usize) -> Res<Bound<'py, PyAny>> {
        match self {
            Items::List(l) => l.get_item(i).map_err(other),
            Items::Tuple(t) => t.get_item(i).map_err(other),
        }
    }
}

/// The 16 bytes of a uuid's `bytes` or of `encode_decimal`'s answer.
fn sixteen<'a>(b: &'a Bound<'_, PyAny>) -> Res<&'a [u8]> {
    let b = b.downcast::<PyBytes>().map_err(other)?.as_bytes();
    if b.len() != 16 {
        return Err(Fail::Other);
    }
    Ok(b)
}

/// A map's item: its key and value.
fn pair<'py>(item: &Bound<'py, PyAny>) -> Res<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let t = item.downcast::<PyTuple>().map_err(other)?;
    if t.len() != 2 {
        return Err(Fail::Other);
    }
    Ok((t.get_item(0).map_err(other)?, t.get_item(1).map_err(other)?))
}

/// The value a collection is read into: a list (vectors, lists, arrays; nothing when verifying),
/// a set or a dict. Sets and dicts are built when verifying too: two entries that read as the same
/// key make the reader refuse the input (`fbe.buffer.distinct`).
enum Coll<'py> {
    List(Vec<PyObject>),
    Skip,
    Set(Bound<'py, PySet>),
    Dict(Bound<'py, PyDict>),
}

impl<'py> Coll<'py> {
    /// For a collection of `kind` of `n` elements (a list only when `make`).
    fn new(py: Python<'py>, kind: &Kind, n: usize, room: usize, make: bool) -> Res<Self> {
        Ok(match kind {
            Kind::Set(..) => Coll::Set(PySet::empty(py).map_err(other)?),
            Kind::Map(..) => Coll::Dict(PyDict::new(py)),
            _ if make => Coll::List(Vec::with_capacity(n.min(room))),
            _ => Coll::Skip,
        })
    }

    /// Whether elements (a map's keys) must be made: always for a set's and a dict's.
    fn keys(&self) -> bool {
        !matches!(self, Coll::Skip)
    }

    fn push(&mut self, py: Python<'py>, k: Option<PyObject>, v: Option<PyObject>) -> Res<()> {
        match self {
            Coll::List(l) => l.extend(k),
            Coll::Skip => {}
            Coll::Set(s) => s.add(k.ok_or(Fail::Other)?).map_err(other)?,
            Coll::Dict(d) => d.set_item(k.ok_or(Fail::Other)?, v.unwrap_or_else(|| py.None())).map_err(other)?,
        }
        Ok(())
    }

    /// The value read (None when verifying), refused when `n` entries gave fewer keys.
    fn finish(self, py: Python<'py>, n: usize, make: bool) -> Res<Option<PyObject>> {
        let v = match self {
            Coll::List(l) => PyList::new(py, l).map_err(other)?.into_any(),
            Coll::Skip => return Ok(None),
            Coll::Set(s) if s.len() != n => return Err(Fail::Bad), // "duplicate key"
            Coll::Dict(d) if d.len() != n => return Err(Fail::Bad),
            Coll::Set(s) => s.into_any(),
            Coll::Dict(d) => d.into_any(),
        };
        Ok(make.then(|| v.unbind()))
    }
}

#[pymethods]
impl Core {
    /// `table`: one entry per struct, `(class, type id, body size, decode cost, base size,
    /// fields)`, each field `(attribute, offset in the body, kind, missing cost)` (see
    /// `Kind::parse`, `Field`); then the runtime's
    /// `decode_decimal(bytes16)`, `encode_decimal(value) -> bytes16` and `uuid(bytes16)`.
    #[new]
    fn new(
        py: Python<'_>,
        table: &Bound<'_, PyTuple>,
        decode_decimal: PyObject,
        encode_decimal: PyObject,
        make_uuid: PyObject,
    ) -> PyResult<Self> {
        let n = table.len();
        let mut types = Vec::with_capacity(n);
        let member_type = py.import("types")?.getattr("MemberDescriptorType")?;
        for e in table.iter() {
            let e = e.downcast::<PyTuple>()?;
            let cls = e.get_item(0)?;
            let mut fields = Vec::new();
            for f in e.get_item(5)?.downcast::<PyTuple>()?.iter() {
                let f = f.downcast::<PyTuple>()?;
                let name = f.get_item(0)?.downcast::<PyString>()?.clone();
                let descr = cls.getattr(&name)?;
                let member = if descr.get_type().is(&member_type) {
                    // SAFETY: `descr` is a member descriptor (its type checked just above), whose
                    // `d_member` points to the PyMemberDef of the slot (pyo3 types the field as a
                    // PyGetSetDef pointer: the cast restores the C declaration).
                    let def = unsafe {
                        &*((*(descr.as_ptr() as *mut ffi::PyMemberDescrObject)).d_member as *const ffi::PyMemberDef)
                    };
                    (def.type_code == ffi::Py_T_OBJECT_EX && def.flags == 0).then_some(def.offset)
                } else {
                    None
                };
                let offset: usize = f.get_item(1)?.extract()?;
                let kind = Kind::parse(&f.get_item(2)?, n)?;
                fields.push(Field {
                    name: name.unbind(),
                    member,
                    offset,
                    end: offset + kind.size(),
                    missing: f.get_item(3)?.extract()?,
                    kind,
                });
            }
            let entry = Entry {
                cls: cls.downcast::<PyType>()?.clone().unbind(),
                type_id: e.get_item(1)?.extract()?,
                body_size: e.get_item(2)?.extract()?,
                cost: e.get_item(3)?.extract()?,
                base_size: e.get_item(4)?.extract()?,
                fields,
                covered: true,
            };
            if entry.fields.iter().any(|f| f.end > entry.body_size) || entry.body_size < 8 {
                return Err(PyValueError::new_err("a field beyond its struct's body"));
            }
            if !entry.fields.windows(2).all(|w| w[0].end <= w[1].end) {
                return Err(PyValueError::new_err("fields out of their body's order"));
            }
            types.push(entry);
        }
        // covered: every field's kind, through the structs it holds (a fixpoint: recursion is fine)
        let mut covered = vec![true; n];
        loop {
            let next: Vec<bool> = types
                .iter()
                .enumerate()
                .map(|(i, t)| covered[i] && t.fields.iter().all(|f| f.kind.covered(&covered)))
                .collect();
            if next == covered {
                break;
            }
            covered = next;
        }
        for (t, c) in types.iter_mut().zip(covered) {
            t.covered = c;
        }
        let sorted = py.import("builtins")?.getattr("sorted")?.unbind();
        Ok(Core { types, decode_decimal, encode_decimal, make_uuid, sorted })
    }

    /// Whether struct `index` is read and written here (else every call gives `None`).
    fn covers(&self, index: usize) -> bool {
        self.entry(index).is_ok()
    }

    /// The versioned root of `value` (struct `index`), or `None`: Python writes it (or raises).
    fn to_fbe(&self, py: Python<'_>, index: usize, value: &Bound<'_, PyAny>) -> Option<PyObject> {
        self.write_root(py, Model::Versioned, index, value)
    }

    /// The value of a versioned root of struct `index`, or `None`: Python reads it (or raises).
    #[allow(clippy::wrong_self_convention)] // the name of the generated classes' method it serves
    #[pyo3(signature = (index, data, limits=None))]
    fn from_fbe(
        &self,
        py: Python<'_>,
        index: usize,
        data: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyAny>>,
    ) -> Option<PyObject> {
        self.read_root(py, Model::Versioned, index, data, limits, true).ok().flatten()
    }

    /// Whether `from_fbe` reads this root (the verdict of `verify()`), or `None`: Python decides.
    #[pyo3(signature = (index, data, limits=None))]
    fn verify(
        &self,
        py: Python<'_>,
        index: usize,
        data: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyAny>>,
    ) -> Option<bool> {
        verdict(self.read_root(py, Model::Versioned, index, data, limits, false))
    }

    /// The final root of `value` (struct `index`), or `None`: Python writes it (or raises).
    fn to_final(&self, py: Python<'_>, index: usize, value: &Bound<'_, PyAny>) -> Option<PyObject> {
        self.write_root(py, Model::Final, index, value)
    }

    /// The value of a final root of struct `index`, or `None`: Python reads it (or raises).
    #[allow(clippy::wrong_self_convention)] // the name of the generated classes' method it serves
    #[pyo3(signature = (index, data, limits=None))]
    fn from_final(
        &self,
        py: Python<'_>,
        index: usize,
        data: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyAny>>,
    ) -> Option<PyObject> {
        self.read_root(py, Model::Final, index, data, limits, true).ok().flatten()
    }

    /// Whether `from_final` reads this root, or `None`: Python decides.
    #[pyo3(signature = (index, data, limits=None))]
    fn verify_final(
        &self,
        py: Python<'_>,
        index: usize,
        data: &Bound<'_, PyAny>,
        limits: Option<&Bound<'_, PyAny>>,
    ) -> Option<bool> {
        verdict(self.read_root(py, Model::Final, index, data, limits, false))
    }
}

#[pymodule]
fn fbe_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()
}
