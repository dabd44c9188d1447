//! Value descriptions (../shared/vectors/README.md, "Value descriptions"): every value of the
//! generated code read from one (`from_value`) and written as one (`describe`). Structs, enums
//! and flags get their impls from registry.rs (build.py); the rest is here.

use fbe::{Bytes, Decimal, Pairs, Set, Timestamp, Uuid};
use serde_json::value::RawValue;
use serde_json::Value as J;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

/// A value that has a value description.
pub trait Describe: Sized {
    /// Appends the description of `self`.
    fn describe(&self, out: &mut Vec<u8>);
    /// The value a description stands for.
    fn from_value(v: &J) -> Result<Self, String>;
}

fn push(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(text.as_bytes());
}

/// The members of a struct's description (`@type` checked), for registry.rs.
pub fn object<'v>(v: &'v J, qualified: &str) -> Result<&'v serde_json::Map<String, J>, String> {
    let m = v
        .as_object()
        .ok_or_else(|| expected(&format!("an object of {qualified}"), v))?;
    match m.get("@type").and_then(J::as_str) {
        Some(t) if t == qualified => Ok(m),
        t => Err(format!("expected @type {qualified}, got {t:?}")),
    }
}

/// What a value description's error starts with when it holds what the runtime's types cannot
/// (a decimal beyond 96 bits): main.rs answers it as a writer's refusal, naming the field.
pub const UNHELD: &str = "unheld: ";

/// The member a description's string becomes when serde_json's Value cannot hold it (a lone
/// surrogate escape; `\udc80`..`\udcff` stand for bytes): its literal, which the string reader
/// reads as the runtime's JSON reader does (`fbe::json::unquote`).
const LITERAL: &str = "\u{0}literal";

/// A value description (the request's payload) as serde_json's Value, read node by node so that a
/// string the Value cannot hold is kept as its literal (LITERAL) where serde_json would refuse the
/// whole description.
pub fn description(raw: &RawValue) -> Result<J, String> {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'{') => {
            let members: BTreeMap<String, &RawValue> =
                serde_json::from_str(text).map_err(|e| e.to_string())?;
            let mut m = serde_json::Map::new();
            for (name, v) in members {
                m.insert(name, description(v)?);
            }
            Ok(J::Object(m))
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| e.to_string())?;
            items
                .into_iter()
                .map(description)
                .collect::<Result<_, _>>()
                .map(J::Array)
        }
        Some(b'"') if serde_json::from_str::<String>(text).is_err() => {
            let mut m = serde_json::Map::new();
            m.insert(LITERAL.to_owned(), J::String(text.to_owned()));
            Ok(J::Object(m))
        }
        _ => serde_json::from_str(text).map_err(|e| e.to_string()),
    }
}

/// The error of a description that is not a value of the type: null, which no Rust value of a type
/// without null holds, is refused as a writer refuses it (UNHELD); anything else is the testee's.
fn expected(what: &str, v: &J) -> String {
    if v.is_null() {
        format!("{UNHELD}expected {what}, got null")
    } else {
        format!("expected {what}, got {v}")
    }
}

/// An error `e` with the step (".price", "[1]") in front of its path: "path: message".
fn within(step: &str, e: String) -> String {
    if e.starts_with('.') || e.starts_with('[') {
        format!("{step}{e}")
    } else {
        format!("{step}: {e}")
    }
}

/// A member of a struct's description, for registry.rs.
pub fn member<T: Describe>(m: &serde_json::Map<String, J>, name: &str) -> Result<T, String> {
    match m.get(name) {
        Some(v) => T::from_value(v).map_err(|e| within(&format!(".{name}"), e)),
        None => Err(format!("no member {name}")),
    }
}

/// Writes the start of a struct's description, for registry.rs.
pub fn begin(out: &mut Vec<u8>, qualified: &str) {
    push(out, &format!("{{\"@type\":\"{qualified}\""));
}

/// Writes a member's name, for registry.rs.
pub fn key(out: &mut Vec<u8>, name: &str) {
    push(out, &format!(",\"{name}\":"));
}

macro_rules! small_integers {
    ($($t:ty),*) => {$(
        impl Describe for $t {
            fn describe(&self, out: &mut Vec<u8>) {
                push(out, &self.to_string());
            }

            fn from_value(v: &J) -> Result<Self, String> {
                let n = integer(v)?;
                n.parse::<$t>().map_err(|_| format!("integer {n} out of range"))
            }
        }
    )*};
}

macro_rules! wide_integers {
    ($($t:ty),*) => {$(
        impl Describe for $t {
            fn describe(&self, out: &mut Vec<u8>) {
                push(out, &format!("\"{self}\""));
            }

            fn from_value(v: &J) -> Result<Self, String> {
                let n = integer(v)?;
                n.parse::<$t>().map_err(|_| format!("integer {n} out of range"))
            }
        }
    )*};
}

/// The text of an integer: a JSON integer, or a string holding one (64-bit values).
fn integer(v: &J) -> Result<String, String> {
    match v {
        J::Number(n) if n.is_i64() || n.is_u64() => Ok(n.to_string()),
        J::String(s) => Ok(s.clone()),
        _ => Err(expected("an integer", v)),
    }
}

small_integers!(i8, i16, i32, u8, u16, u32);

/// A set element or map key of `char`: its byte.
impl Describe for fbe::Char {
    fn describe(&self, out: &mut Vec<u8>) {
        self.0.describe(out);
    }

    fn from_value(v: &J) -> Result<Self, String> {
        u8::from_value(v).map(fbe::Char)
    }
}
wide_integers!(i64, u64);

impl Describe for Timestamp {
    fn describe(&self, out: &mut Vec<u8>) {
        self.0.describe(out);
    }

    fn from_value(v: &J) -> Result<Self, String> {
        u64::from_value(v).map(Timestamp)
    }
}

impl Describe for bool {
    fn describe(&self, out: &mut Vec<u8>) {
        push(out, if *self { "true" } else { "false" });
    }

    fn from_value(v: &J) -> Result<Self, String> {
        v.as_bool().ok_or_else(|| expected("a bool", v))
    }
}

/// A double as Python's `json` writes it: the shortest text that reads back, NaN and the
/// infinities as its literals.
fn real(out: &mut Vec<u8>, v: f64, text: String) {
    if v.is_nan() {
        push(out, "NaN");
    } else if v.is_infinite() {
        push(out, if v < 0.0 { "-Infinity" } else { "Infinity" });
    } else {
        push(out, &text);
    }
}

fn number(v: &J) -> Result<f64, String> {
    v.as_f64().ok_or_else(|| expected("a number", v))
}

impl Describe for f64 {
    fn describe(&self, out: &mut Vec<u8>) {
        real(out, *self, format!("{self:?}"));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        number(v)
    }
}

impl Describe for f32 {
    fn describe(&self, out: &mut Vec<u8>) {
        real(out, f64::from(*self), format!("{self:?}"));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        number(v).map(|x| x as f32)
    }
}

impl Describe for Decimal {
    fn describe(&self, out: &mut Vec<u8>) {
        push(out, &format!("\"{self}\""));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        let s = v.as_str().ok_or_else(|| expected("a decimal string", v))?;
        Decimal::parse(s).map_err(|e| format!("{UNHELD}{e}"))
    }
}

impl Describe for fbe::BString {
    fn describe(&self, out: &mut Vec<u8>) {
        fbe::json::append_string(out, self);
    }

    fn from_value(v: &J) -> Result<Self, String> {
        if let Some(literal) = v.get(LITERAL).and_then(J::as_str) {
            // a byte that is not UTF-8, or a lone surrogate, which no string holds: refused as a writer would
            return fbe::json::unquote(literal)
                .map(fbe::BString::from)
                .map_err(|e| format!("{UNHELD}cannot write the string: {e}"));
        }
        let s = v.as_str().ok_or_else(|| expected("a string", v))?;
        Ok(fbe::BString::from(s))
    }
}

impl Describe for Bytes {
    fn describe(&self, out: &mut Vec<u8>) {
        let hex: String = self.iter().map(|b| format!("{b:02x}")).collect();
        push(out, &format!("\"{hex}\""));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        let s = v.as_str().ok_or_else(|| expected("hex bytes", v))?;
        if s.len() % 2 != 0 || !s.is_ascii() {
            return Err(format!("invalid hex bytes {s}"));
        }
        (0..s.len())
            .step_by(2)
            .map(|i| {
                u8::from_str_radix(&s[i..i + 2], 16).map_err(|_| format!("invalid hex bytes {s}"))
            })
            .collect::<Result<Vec<u8>, String>>()
            .map(Bytes)
    }
}

impl Describe for Uuid {
    fn describe(&self, out: &mut Vec<u8>) {
        push(out, &format!("\"{self}\""));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        let s = v.as_str().ok_or_else(|| expected("a uuid", v))?;
        fbe::parse_uuid(s).map_err(|_| format!("invalid uuid {s}"))
    }
}

impl<T: Describe> Describe for Option<T> {
    fn describe(&self, out: &mut Vec<u8>) {
        match self {
            None => push(out, "null"),
            Some(v) => v.describe(out),
        }
    }

    fn from_value(v: &J) -> Result<Self, String> {
        match v {
            J::Null => Ok(None),
            _ => T::from_value(v).map(Some),
        }
    }
}

/// Writes items as a JSON array.
fn list<'a, T: Describe + 'a>(out: &mut Vec<u8>, items: impl Iterator<Item = &'a T>) {
    push(out, "[");
    for (i, x) in items.enumerate() {
        if i > 0 {
            push(out, ",");
        }
        x.describe(out);
    }
    push(out, "]");
}

/// Reads a JSON array's items.
fn items<T: Describe>(v: &J) -> Result<Vec<T>, String> {
    let a = v.as_array().ok_or_else(|| expected("a list", v))?;
    a.iter()
        .enumerate()
        .map(|(i, x)| T::from_value(x).map_err(|e| within(&format!("[{i}]"), e)))
        .collect()
}

/// Writes entries as a JSON array of `[key, value]`.
fn entries<'a, K: Describe + 'a, V: Describe + 'a>(
    out: &mut Vec<u8>,
    items: impl Iterator<Item = (&'a K, &'a V)>,
) {
    push(out, "[");
    for (i, (k, v)) in items.enumerate() {
        push(out, if i > 0 { ",[" } else { "[" });
        k.describe(out);
        push(out, ",");
        v.describe(out);
        push(out, "]");
    }
    push(out, "]");
}

/// Reads a JSON array of `[key, value]`.
fn pairs<K: Describe, V: Describe>(v: &J) -> Result<Vec<(K, V)>, String> {
    let a = v.as_array().ok_or_else(|| expected("a list of pairs", v))?;
    a.iter()
        .enumerate()
        .map(|(i, p)| match p.as_array().map(Vec::as_slice) {
            Some([k, v]) => Ok((
                K::from_value(k).map_err(|e| within(&format!("[{i}].key"), e))?,
                V::from_value(v).map_err(|e| within(&format!("[{i}].value"), e))?,
            )),
            _ => Err(format!("expected a [key, value] pair, got {p}")),
        })
        .collect()
}

impl<T: Describe> Describe for Vec<T> {
    fn describe(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        items(v)
    }
}

impl<T: Describe, const N: usize> Describe for [T; N] {
    fn describe(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        items::<T>(v)?
            .try_into()
            .map_err(|_| format!("expected a list of {N}"))
    }
}

/// A generated struct (registry.rs): its box, an optional struct's `Option<Box<T>>`, is described
/// as the struct.
pub trait Record: Describe {}

impl<T: Record> Describe for Box<T> {
    fn describe(&self, out: &mut Vec<u8>) {
        (**self).describe(out);
    }

    fn from_value(v: &J) -> Result<Self, String> {
        T::from_value(v).map(Box::new)
    }
}

impl<T: Describe, const N: usize> Describe for Box<[T; N]> {
    fn describe(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        items::<T>(v)?
            .into_boxed_slice()
            .try_into()
            .map_err(|_| format!("expected a list of {N}"))
    }
}

impl<T: Describe + Ord> Describe for BTreeSet<T> {
    fn describe(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        Ok(items(v)?.into_iter().collect())
    }
}

impl<T: Describe> Describe for Set<T> {
    fn describe(&self, out: &mut Vec<u8>) {
        list(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        items(v).map(Set)
    }
}

impl<K: Describe + Ord, V: Describe> Describe for BTreeMap<K, V> {
    fn describe(&self, out: &mut Vec<u8>) {
        entries(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        Ok(pairs(v)?.into_iter().collect())
    }
}

impl<K: Describe + Hash + Eq, V: Describe> Describe for HashMap<K, V> {
    fn describe(&self, out: &mut Vec<u8>) {
        entries(out, self.iter());
    }

    fn from_value(v: &J) -> Result<Self, String> {
        Ok(pairs(v)?.into_iter().collect())
    }
}

impl<K: Describe, V: Describe> Describe for Pairs<K, V> {
    fn describe(&self, out: &mut Vec<u8>) {
        entries(out, self.iter().map(|(k, v)| (k, v)));
    }

    fn from_value(v: &J) -> Result<Self, String> {
        pairs(v).map(Pairs)
    }
}
