//! Errors of the readers and writers (docs/limits.md 8): what is wrong, the
//! root type, the field path from it and, for binary input, the byte offset.

use std::fmt;

/// What kind of problem a [`DecodeError`] or [`EncodeError`] reports, for
/// callers that act on it (a server that counts budget refusals apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The bytes (or text) do not follow the format.
    Malformed,
    /// The decode materialized more than its budget (docs/limits.md 3).
    Budget,
    /// Structs nested deeper than `max_depth` (docs/limits.md 1).
    Depth,
    /// A set holding an element twice or a map holding a key twice (docs/limits.md 4).
    Duplicate,
    /// A size beyond what the format's 32 bits hold (writers).
    TooLarge,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Detail {
    message: String,
    type_name: String,
    path: String,
    offset: Option<usize>,
    kind: ErrorKind,
}

impl Detail {
    fn new(kind: ErrorKind, message: String, offset: Option<usize>) -> Box<Self> {
        Box::new(Detail { message, type_name: String::new(), path: String::new(), offset, kind })
    }

    fn prepend(&mut self, outer: &str) {
        self.path = join_path(outer, &self.path);
    }

    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        let place = match (self.type_name.is_empty(), self.path.is_empty()) {
            (false, false) => format!("{}.{}", self.type_name, self.path),
            (false, true) => self.type_name.clone(),
            (true, false) => self.path.clone(),
            (true, true) => String::new(),
        };
        match (place.is_empty(), self.offset) {
            (true, None) => Ok(()),
            (true, Some(o)) => write!(f, " (offset {o})"),
            (false, None) => write!(f, " ({place})"),
            (false, Some(o)) => write!(f, " ({place}, offset {o})"),
        }
    }
}

/// Puts an outer field name in front of a path: `"orders[2]"` + `"price"`.
pub fn join_path(outer: &str, inner: &str) -> String {
    if inner.is_empty() {
        outer.to_owned()
    } else if outer.is_empty() {
        inner.to_owned()
    } else if inner.starts_with('[') {
        format!("{outer}{inner}")
    } else {
        format!("{outer}.{inner}")
    }
}

/// Why a buffer, a JSON text or a frame cannot be decoded.
///
/// Its text names the problem, the type and field path (`proto.Account.orders[2].symbol`)
/// and the absolute offset: `string of 99 bytes beyond the end of the buffer
/// (proto.Account.orders[2].symbol, offset 120)`. Errors of a field are made
/// with the field's name; each struct level on the way out puts the field
/// that holds it in front ([`DecodeError::in_field`], [`DecodeError::in_index`])
/// and the root names its type ([`DecodeError::within`]). The error is one
/// pointer wide, so a `Result` of a reader stays small.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<Detail>);

impl DecodeError {
    /// A malformed-input error of `field` (`""`: the struct itself) at `offset`.
    #[cold]
    pub fn new(message: impl Into<String>, field: &str, offset: Option<usize>) -> Self {
        Self::of_kind(ErrorKind::Malformed, message, field, offset)
    }

    /// An error of a given kind.
    #[cold]
    pub fn of_kind(kind: ErrorKind, message: impl Into<String>, field: &str, offset: Option<usize>) -> Self {
        let mut d = Detail::new(kind, message.into(), offset);
        d.path = field.to_owned();
        DecodeError(d)
    }

    /// The absolute byte offset in the root, when known.
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }
}

/// Why a value cannot be written: a struct nested deeper than `max_depth`,
/// a set holding an element twice, a string longer than 4 GiB... It names the
/// root type and the field path as a [`DecodeError`] does (no offset).
#[derive(Clone, PartialEq, Eq)]
pub struct EncodeError(Box<Detail>);

impl EncodeError {
    /// An error of `kind` in `field` (`""`: the struct itself).
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>, field: &str) -> Self {
        let mut d = Detail::new(kind, message.into(), None);
        d.path = field.to_owned();
        EncodeError(d)
    }
}

/// What both errors share: the path is completed on the way out, and read back.
macro_rules! located {
    ($error:ident) => {
        impl $error {
            /// The error with `field` in front of its path (the field holding the struct that failed).
            #[cold]
            #[must_use]
            pub fn in_field(mut self, field: &str) -> Self {
                self.0.prepend(field);
                self
            }

            /// The error with an element index in front of its path (`[2]`); the collection's field follows.
            #[cold]
            #[must_use]
            pub fn in_index(mut self, index: usize) -> Self {
                self.0.prepend(&format!("[{index}]"));
                self
            }

            /// The error naming the root type (`proto.Account`), once.
            #[cold]
            #[must_use]
            pub fn within(mut self, type_name: &str) -> Self {
                if self.0.type_name.is_empty() {
                    self.0.type_name = type_name.to_owned();
                }
                self
            }

            /// The root type, when known.
            pub fn type_name(&self) -> &str {
                &self.0.type_name
            }

            /// What is wrong, without the place.
            pub fn message(&self) -> &str {
                &self.0.message
            }

            /// The field path from the root type (`orders[2].symbol`), empty for the root itself.
            pub fn path(&self) -> &str {
                &self.0.path
            }

            /// The kind of problem.
            pub fn kind(&self) -> ErrorKind {
                self.0.kind
            }
        }

        impl fmt::Display for $error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl fmt::Debug for $error {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($error), "({})"), self)
            }
        }

        impl std::error::Error for $error {}
    };
}

located!(DecodeError);
located!(EncodeError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_unwind_from_the_field_to_the_root() {
        let e = DecodeError::new("string of 9 bytes beyond the end of the buffer", "symbol", Some(120))
            .in_index(2)
            .in_field("orders")
            .within("proto.Account");
        assert_eq!(
            e.to_string(),
            "string of 9 bytes beyond the end of the buffer (proto.Account.orders[2].symbol, offset 120)"
        );
        assert_eq!(e.path(), "orders[2].symbol");
        assert_eq!(e.offset(), Some(120));
        assert_eq!(e.kind(), ErrorKind::Malformed);
    }

    #[test]
    fn a_struct_error_takes_the_field_that_holds_it() {
        let e = DecodeError::new("struct offset 0", "", Some(20)).in_field("wallet").within("proto.Account");
        assert_eq!(e.to_string(), "struct offset 0 (proto.Account.wallet, offset 20)");
        let root = DecodeError::new("versioned root shorter than 8 bytes", "", Some(0)).within("proto.Account");
        assert_eq!(root.to_string(), "versioned root shorter than 8 bytes (proto.Account, offset 0)");
    }

    #[test]
    fn encode_errors_name_type_and_path() {
        let e = EncodeError::new(ErrorKind::Depth, "structs nested deeper than 128", "")
            .in_index(0)
            .in_field("children")
            .within("recursive.Node");
        assert_eq!(e.to_string(), "structs nested deeper than 128 (recursive.Node.children[0])");
        assert_eq!(std::mem::size_of::<Result<(), EncodeError>>(), std::mem::size_of::<usize>());
    }
}
