//! # fbe: the Rust runtime of the FBE serialization toolkit
//!
//! The code `fbec --rust` generates is thin: types and straight-line field
//! code at the offsets the compiler decided. Everything it shares lives here,
//! tested once:
//!
//! * [`Writer`] builds a root of either model in one growing buffer, in the
//!   original's allocation order (docs/format.md 3.5), and [`Reader`] checks
//!   and reads one under [`Limits`] (docs/limits.md: depth, decode budget,
//!   allocation order, counts bounded by the bytes left);
//! * the value types of the schema language: [`Decimal`] (exact, 96 bits,
//!   docs/format.md 2.4), [`Uuid`] (the `uuid` crate's, bytes in text order)
//!   and [`Timestamp`] (nanoseconds since the epoch); strings are
//!   [`BString`] (the `bstr` crate's), since an FBE string may hold any
//!   bytes and every reader must give them back unchanged (docs/limits.md 7);
//! * [`json::JsonWriter`], the original's JSON bytes (docs/format.md 8);
//! * the protocol ([`protocol`]): [`Sender`], [`Receiver`], [`Proxy`] and [`Client`] of the
//!   messages of a schema package over `std::io` or bytes fed in any chunks (docs/format.md 7);
//! * errors that name the type, the field path and the offset
//!   ([`DecodeError`], [`EncodeError`]).
//!
//! The same rules and default limits hold in every language of the toolkit;
//! a rule is documented in docs/limits.md or docs/format.md and tested by the
//! conformance suite.
//!
//! ```
//! use fbe::{Limits, Reader, Writer};
//! // a final root of type 2 holding a string and a double (proto.Balance)
//! let mut w = Writer::new();
//! w.begin_final();
//! w.append_string(b"USD");
//! w.append_f64(1000.0);
//! let root = w.end_final(2).unwrap().to_vec();
//! assert_eq!(root.len(), 23);
//!
//! let mut r = Reader::final_root(&root, 2, &Limits::default()).unwrap();
//! assert_eq!(r.final_string("currency").unwrap(), b"USD");
//! assert_eq!(fbe::get_f64(r.fixed(8, "amount").unwrap(), 0), 1000.0);
//! r.end_final().unwrap();
//! ```
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod collections;
mod decimal;
mod error;
pub mod json;
mod json_read;
mod json_value;
mod keys;
mod limits;
pub mod protocol;
mod reader;
#[cfg(feature = "serde")]
mod serde_text;
#[cfg(feature = "serde")]
#[doc(hidden)]
pub mod serde_values;
mod sized;
pub mod text;
mod timestamp;
mod uuid;
mod value;
mod writer;

pub use bstr::{BStr, BString, ByteSlice};
pub use collections::Unique;
pub use decimal::{Decimal, DecimalError, MAX_DECIMAL_TEXT};
pub use error::{join_path, DecodeError, EncodeError, ErrorKind};
pub use keys::{repeated, KeyOrd, Pairs, Set};
pub use limits::{Limits, BUDGET_FACTOR, BUDGET_SLACK, MAX_DEPTH, MAX_FRAME_SIZE};
pub use protocol::{
    model_notice, read_frame, verify_frame, Answer, Client, FrameError, FrameErrorKind, Member, Protocol, Proxy,
    ReceiveError, Receiver, Request, RequestError, SendError, Sender,
};
pub use reader::{
    get_bool, get_f32, get_f64, get_i16, get_i32, get_i64, get_i8, get_timestamp, get_u16, get_u32, get_u64, get_u8,
    get_uuid, Reader,
};
#[cfg(feature = "serde")]
pub use serde_text::serde_text;
#[cfg(feature = "serde")]
pub use serde_values::serde_array;
pub use sized::{BodyWriter, SizedWriter};
pub use timestamp::Timestamp;
pub use uuid::{parse_uuid, uuid1, uuid4, Uuid, UuidError};
pub use value::{boxed_array, present, Bytes, Char, Fixed, Struct, Value};
pub use writer::Writer;

/// The `bitflags` crate, which the generated flags types are made with.
pub use bitflags;

/// Includes the modules `fbe-build` generated into `OUT_DIR` from a build script
/// (`runtime/rust-build`): put it in the module that holds them.
///
/// ```ignore
/// mod gen {
///     fbe::include_generated!();
/// }
/// let order = gen::shop::Order::default();
/// ```
#[macro_export]
macro_rules! include_generated {
    () => {
        include!(concat!(env!("OUT_DIR"), "/fbe_generated.rs"));
    };
}
