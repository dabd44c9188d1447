//! The checks of the Rust fuzz targets (fuzz/rust/build.py puts this file in the crate it makes,
//! beside the generated modules of every schema, `gen`, and their registry, `registry::TYPES`).
//!
//! An input of `models` is a byte (even: versioned model, odd: final), a qualified type name, a
//! NUL and the buffer; a name that is no type's picks one by the sum of its bytes. Each buffer is
//! read and verified under the default limits, and a finding panics, which libFuzzer reports as a
//! crash and keeps the input of:
//!
//! * a reader or verify that panics (an index out of bounds, an arithmetic overflow: the targets
//!   are built with debug assertions and overflow checks);
//! * verify's verdict or error text not the read's (docs/limits.md 4);
//! * a read or verify whose heap grows beyond 64 times the input and 1 MiB (docs/limits.md 9):
//!   the allocator below counts every byte and refuses the allocation that goes beyond, so even
//!   one huge `Vec::with_capacity` is caught before the memory is touched;
//! * a value read that does not write, or whose bytes in either model do not read back to it
//!   (compared when the value equals itself: a NaN does not);
//! * a read into a value (`read_fbe`, `read_final`: into the default, then again into the value
//!   read, its allocations reused) whose verdict, error or value is not the read's.
//!
//! An input of `json` is a qualified type name, a NUL and a JSON document, read by the type's
//! `from_json` under the default limits: a finding is a panic, a heap beyond 64 times the
//! document and 1 MiB, a document read whose bytes are not UTF-8 or that starts with a byte order
//! mark (docs/limits.md 7), a value read that does not write (JSON and both binary models), whose
//! JSON does not read back, or that changes when written and read a second time (read, write,
//! read is stable; the first write may round a float map key, written as C's %f).

pub mod gen;
pub mod registry;

use fbe::json::JsonStruct;
use fbe::{DecodeError, Limits, Struct};
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Debug;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A type the targets read.
pub struct Entry {
    /// The qualified schema name (`proto.Account`).
    pub name: &'static str,
    /// [`check`] of the type: the buffer and whether it is a final root.
    pub check: fn(&[u8], bool),
    /// [`check_json`] of the type: the document.
    pub json: fn(&[u8]),
    /// The type's default value as a root of the final model (`true`) or the versioned one.
    pub default: fn(bool) -> Vec<u8>,
    /// The type's default value in JSON.
    pub default_json: fn() -> Vec<u8>,
}

impl Entry {
    pub const fn of<T: JsonStruct + PartialEq + Debug>(name: &'static str) -> Entry {
        Entry {
            name,
            check: check::<T>,
            json: check_json::<T>,
            default: default_root::<T>,
            default_json: default_json::<T>,
        }
    }
}

fn default_root<T: Struct + Default>(final_: bool) -> Vec<u8> {
    let value = T::default();
    let bytes = if final_ {
        value.to_final()
    } else {
        value.to_fbe()
    };
    bytes.unwrap_or_else(|e| panic!("{}: the default value does not write: {e}", T::NAME))
}

fn default_json<T: JsonStruct>() -> Vec<u8> {
    T::default()
        .to_json()
        .unwrap_or_else(|e| panic!("{}: the default value does not write as JSON: {e}", T::NAME))
}

/// The type and model an input names, and its buffer.
pub fn split(data: &[u8]) -> Option<(&Entry, bool, &[u8])> {
    let (&mode, rest) = data.split_first()?;
    let (entry, buffer) = named(rest)?;
    Some((entry, mode & 1 == 1, buffer))
}

/// The type a name, a NUL and the rest name, and the rest.
fn named(data: &[u8]) -> Option<(&'static Entry, &[u8])> {
    let nul = data.iter().position(|&b| b == 0)?;
    let (name, rest) = (&data[..nul], &data[nul + 1..]);
    let types = registry::TYPES;
    let entry = types
        .iter()
        .find(|e| e.name.as_bytes() == name)
        .unwrap_or_else(|| {
            let sum: usize = name.iter().map(|&b| b as usize).sum();
            &types[sum % types.len()]
        });
    Some((entry, rest))
}

/// The target `json`: one input.
pub fn json(data: &[u8]) {
    if let Some((entry, doc)) = named(data) {
        (entry.json)(doc);
    }
}

/// Reads `doc` as a `T` JSON document and checks what a reader owes.
pub fn check_json<T: JsonStruct + PartialEq + Debug>(doc: &[u8]) {
    let Ok(value) = bounded(doc.len(), || T::from_json(doc)) else {
        return;
    };
    assert!(
        std::str::from_utf8(doc).is_ok(),
        "{}: a document whose bytes are not UTF-8 was read",
        T::NAME
    );
    assert!(
        !doc.starts_with("\u{feff}".as_bytes()),
        "{}: a document starting with a byte order mark was read",
        T::NAME
    );
    let text = value.to_json().unwrap_or_else(|e| {
        panic!(
            "{}: a value read from JSON does not write as JSON: {e}",
            T::NAME
        )
    });
    let back = T::from_json(&text).unwrap_or_else(|e| {
        panic!(
            "{}: the JSON of a value read from JSON does not read back: {e}\n text: {}",
            T::NAME,
            String::from_utf8_lossy(&text)
        )
    });
    // The text of a map key of floats or decimals is C's %f (docs/format.md 8.1), so the first
    // write may round a key: from there, writing and reading give the same value.
    let again = back
        .to_json()
        .map(|text| T::from_json(&text))
        .unwrap_or_else(|e| panic!("{}: a value read back does not write: {e}", T::NAME))
        .unwrap_or_else(|e| {
            panic!(
                "{}: a value read back does not read back again: {e}",
                T::NAME
            )
        });
    #[allow(clippy::eq_op)] // a value holding a NaN is not equal to itself
    let comparable = back == back;
    assert!(
        !comparable || again == back,
        "{}: a value read from JSON, written and read twice, changes\n once:  {back:?}\n twice: {again:?}",
        T::NAME
    );
    writes_and_reads_back(&value, "JSON");
}

/// The target `models`: one input.
pub fn models(data: &[u8]) {
    if let Some((entry, final_, buffer)) = split(data) {
        (entry.check)(buffer, final_);
    }
}

/// Reads `data` as a `T` root into `into`, reusing what it holds.
fn read_into<T: Struct>(into: &mut T, data: &[u8], final_: bool) -> Result<(), DecodeError> {
    if final_ {
        into.read_final(data)
    } else {
        into.read_fbe(data)
    }
}

/// Reads `data` as a `T` root of the versioned (or final) model and checks what a reader owes.
pub fn check<T: Struct + PartialEq + Debug>(data: &[u8], final_: bool) {
    let lim = Limits::default();
    let (read, verified) = bounded(data.len(), || {
        if final_ {
            (T::from_final(data), T::verify_final(data, &lim))
        } else {
            (T::from_fbe(data), T::verify_fbe(data, &lim))
        }
    });
    let model = if final_ { "final" } else { "versioned" };
    match (&read, &verified) {
        (Ok(_), Ok(())) => {}
        (Err(a), Err(b)) if a.to_string() == b.to_string() => {}
        _ => panic!(
            "{}: {model} verify is not the read: verify {verified:?}, read {:?}",
            T::NAME,
            read.as_ref().map(|_| "Ok")
        ),
    }
    // A struct whose missing fields default to the time or a fresh uuid (utc, uuid1, uuid4) reads
    // another value each time, so two reads of it agree on the verdict only.
    let again = if final_ {
        T::from_final(data)
    } else {
        T::from_fbe(data)
    };
    #[allow(clippy::eq_op)] // a value holding a NaN is not equal to itself
    let repeatable = match (&read, &again) {
        (Ok(a), Ok(b)) => a != a || a == b,
        _ => true,
    };
    let mut into = T::default();
    for round in ["the default", "the value read"] {
        let got = read_into(&mut into, data, final_);
        let same = match (&read, &got) {
            #[allow(clippy::eq_op)] // a value holding a NaN is not equal to itself
            (Ok(value), Ok(())) => !repeatable || value != value || into == *value,
            (Err(a), Err(b)) => a.to_string() == b.to_string(),
            _ => false,
        };
        assert!(
            same,
            "{}: a {model} read into {round} is not the read: {got:?}, read {:?}",
            T::NAME,
            read.as_ref().map(|_| "Ok")
        );
        if got.is_err() {
            break;
        }
    }
    let Ok(value) = read else { return };
    writes_and_reads_back(&value, model);
}

/// A value read from `model` writes in both binary models, and each reads back to it.
fn writes_and_reads_back<T: Struct + PartialEq + Debug>(value: &T, model: &str) {
    for final_ in [false, true] {
        let out = if final_ { "final" } else { "versioned" };
        let written = if final_ {
            value.to_final()
        } else {
            value.to_fbe()
        };
        let bytes = written.unwrap_or_else(|e| {
            panic!(
                "{}: a value read from the {model} model does not write as {out}: {e}",
                T::NAME
            )
        });
        let back = if final_ {
            T::from_final(&bytes)
        } else {
            T::from_fbe(&bytes)
        };
        let back = back.unwrap_or_else(|e| {
            panic!(
                "{}: the {out} bytes ({} bytes) of a value read from the {model} model do not read back: {e}",
                T::NAME,
                bytes.len()
            )
        });
        #[allow(clippy::eq_op)] // a value holding a NaN is not equal to itself
        let comparable = value == value;
        assert!(
            !comparable || back == *value,
            "{}: the {out} bytes of a value read from the {model} model read back as another value\n read: {value:?}\n back: {back:?}",
            T::NAME
        );
    }
}

/// The target `receiver`: an input is a byte (bit 0: the final model; the rest: chunks of 1 to 128
/// bytes) and a stream, fed to a `Receiver` of the registry's protocol whole and in chunks of
/// that size. It is a finding when a receive panics, the chunks change the messages and errors
/// delivered, the receiver holds more than a frame's limit, or its heap grows beyond 64 times
/// the stream and 1 MiB.
pub fn receiver(data: &[u8]) {
    let Some((&mode, stream)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(mode >> 1) + 1;
    if mode & 1 == 1 {
        receive::<true>(stream, chunk);
    } else {
        receive::<false>(stream, chunk);
    }
}

fn receive<const FINAL: bool>(stream: &[u8], chunk: usize) {
    let whole = bounded(stream.len(), || {
        events::<FINAL>(stream, stream.len().max(1))
    });
    let chunked = bounded(stream.len(), || events::<FINAL>(stream, chunk));
    if let Some(i) = (0..whole.len().max(chunked.len())).find(|&i| whole.get(i) != chunked.get(i)) {
        panic!(
            "{} stream: chunks of {chunk} bytes change event {i} of {}:\n whole:   {:?}\n chunked: {:?}",
            if FINAL { "final" } else { "versioned" },
            whole.len(),
            whole.get(i),
            chunked.get(i)
        );
    }
}

/// What a receiver delivers of `stream` fed in chunks of `chunk` bytes: each message (its Debug
/// text), each error, and `lost` when the stream is lost.
fn events<const FINAL: bool>(stream: &[u8], chunk: usize) -> Vec<String> {
    let mut receiver = fbe::Receiver::<registry::Message, FINAL>::new();
    let mut out = Vec::new();
    for piece in stream.chunks(chunk) {
        let lost = receiver.receive(piece, |event| {
            outside(|| {
                out.push(match event {
                    Ok(m) => format!("{m:?}"),
                    Err(e) => format!("error: {e}"),
                })
            })
        });
        let max = receiver.limits().max_frame_size;
        assert!(
            receiver.pending() <= max,
            "{} bytes pending (frames up to {max})",
            receiver.pending()
        );
        if lost.is_err() {
            outside(|| out.push("lost".to_owned()));
            break;
        }
    }
    out
}

/// Heap bytes in use, and the most `bounded` lets them reach.
static LIVE: AtomicUsize = AtomicUsize::new(0);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Runs `f`, a read of an `input`-byte buffer, with the heap it may add bounded by docs/limits.md
/// 9: 64 times the input and 1 MiB.
pub fn bounded<R>(input: usize, f: impl FnOnce() -> R) -> R {
    let bound = input.saturating_mul(64).saturating_add(1 << 20);
    CAP.store(LIVE.load(Relaxed).saturating_add(bound), Relaxed);
    let r = f();
    CAP.store(usize::MAX, Relaxed);
    r
}

/// Runs `f`, the fuzz target's own bookkeeping inside a `bounded` read, with its allocations out
/// of the read's count.
fn outside<R>(f: impl FnOnce() -> R) -> R {
    let (cap, before) = (CAP.swap(usize::MAX, Relaxed), LIVE.load(Relaxed));
    let r = f();
    let grown = LIVE.load(Relaxed).saturating_sub(before);
    CAP.store(cap.saturating_add(grown), Relaxed);
    r
}

/// The system allocator, counting the bytes in use and refusing an allocation beyond `CAP` with a
/// message (then Rust aborts: libFuzzer reports a crash).
pub struct Counting;

fn over(size: usize) -> bool {
    let live = LIVE.fetch_add(size, Relaxed) + size;
    if live <= CAP.load(Relaxed) {
        return false;
    }
    LIVE.fetch_sub(size, Relaxed);
    CAP.store(usize::MAX, Relaxed);
    // stderr is unbuffered, and formatting integers allocates nothing
    let _ = writeln!(
        std::io::stderr(),
        "fuzz: an allocation of {size} bytes takes the heap of a read beyond 64 times its input and 1 MiB (docs/limits.md 9)"
    );
    true
}

// SAFETY: every call goes to `System` with the caller's layout; the counters only decide whether
// to call it, and a refused allocation returns null, as `GlobalAlloc` allows.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if over(layout.size()) {
            return std::ptr::null_mut();
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if over(layout.size()) {
            return std::ptr::null_mut();
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() && over(new_size - layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            LIVE.fetch_sub(new_size.saturating_sub(layout.size()), Relaxed);
        } else if new_size < layout.size() {
            LIVE.fetch_sub(layout.size() - new_size, Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Writes the default value of every type into `dir`: in both models as seeds of `models`
/// (`dir/models`), in JSON as seeds of `json` (`dir/json`).
pub fn write_default_seeds(dir: &std::path::Path) -> std::io::Result<()> {
    for target in ["models", "json"] {
        std::fs::create_dir_all(dir.join(target))?;
    }
    for entry in registry::TYPES {
        let name = entry.name.replace('/', ".");
        for (final_, model) in [(false, "fbe"), (true, "final")] {
            let mut seed = vec![u8::from(final_)];
            seed.extend_from_slice(entry.name.as_bytes());
            seed.push(0);
            seed.extend_from_slice(&(entry.default)(final_));
            std::fs::write(
                dir.join("models").join(format!("default.{name}.{model}")),
                seed,
            )?;
        }
        let mut seed = entry.name.as_bytes().to_vec();
        seed.push(0);
        seed.extend_from_slice(&(entry.default_json)());
        std::fs::write(dir.join("json").join(format!("default.{name}.json")), seed)?;
    }
    Ok(())
}
