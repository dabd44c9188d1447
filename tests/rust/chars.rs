//! A set or map of `char` is written in the order of C++'s signed char, 0x80..=0xFF before
//! 0x00..=0x7F, as the original's `std::set<char>` holds it (docs/limits.md 7): the bytes of the
//! conformance cases `json/container order/chars-*` (conformance/json_cases.py, char_order),
//! JSON included, until the Rust testee runs them.

use fbe::text::Text;
use fbe::{Char, Limits, Struct};
use generated::project::chars::CharKeys;

/// `letters` {1, 200, 127, 128} and `countByLetter` {1: 1, 200: 2, 127: 3, 128: 4}, in the
/// order every writer writes them.
const FINAL: &str =
    "2800000001000000 0400000080c8017f 04000000 8004000000 c802000000 0101000000 7f03000000";
const VERSIONED: &str = "38000000 08000000 10000000 01000000 10000000 18000000";
/// Their text form, as the original prints it (a char as its byte).
const TEXT: &[u8] = b"CharKeys(letters=[4]{'\x80','\xc8','\x01','\x7f'},\
countByLetter=[4]<{'\x80'->4,'\xc8'->2,'\x01'->1,'\x7f'->3}>)";

fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(2)
        .map(|d| u8::from_str_radix(std::str::from_utf8(d).unwrap(), 16).unwrap())
        .collect()
}

fn value() -> CharKeys {
    CharKeys {
        letters: [1u8, 200, 127, 128].into_iter().map(Char).collect(),
        count_by_letter: [(1u8, 1), (200, 2), (127, 3), (128, 4)]
            .into_iter()
            .map(|(k, v)| (Char(k), v))
            .collect(),
    }
}

#[test]
fn char_keys_order_as_a_signed_char() {
    let letters: Vec<u8> = value().letters.iter().map(|c| c.0).collect();
    assert_eq!(letters, [128, 200, 1, 127]);
    assert!(Char(0xFF) < Char(0) && Char(0x7F) > Char(0x80));
}

#[test]
fn sets_and_maps_of_chars_are_written_in_signed_order() {
    let v = value();
    let final_ = hex(FINAL);
    assert_eq!(v.to_final().unwrap(), final_);
    let mut versioned = hex(VERSIONED);
    versioned.extend_from_slice(&final_[8..]);
    assert_eq!(v.to_fbe().unwrap(), versioned);
    assert_eq!(v.to_text(), TEXT);
}

#[test]
fn chars_read_in_byte_order_are_written_in_signed_order() {
    let in_byte_order = hex(
        "2800000001000000 04000000017f80c8 04000000 0101000000 7f03000000 8004000000 c802000000",
    );
    CharKeys::verify_final(&in_byte_order, &Limits::default()).unwrap();
    let v = CharKeys::from_final(&in_byte_order).unwrap();
    assert_eq!(v.to_final().unwrap(), hex(FINAL));
    let mut versioned = hex(VERSIONED);
    versioned.extend_from_slice(&hex(FINAL)[8..]);
    assert_eq!(v.to_fbe().unwrap(), versioned);
    assert_eq!(v.to_text(), TEXT);
    assert_eq!(v, value());
}

#[test]
fn chars_read_from_json_are_written_in_signed_order() {
    use fbe::json::JsonStruct;
    let doc = br#"{"letters":[1,200,127,128],"countByLetter":{"1":1,"200":2,"127":3,"128":4}}"#;
    let v = CharKeys::from_json(doc).unwrap();
    assert_eq!(v, value());
    assert_eq!(
        v.to_json().unwrap(),
        br#"{"letters":[128,200,1,127],"countByLetter":{"128":4,"200":2,"1":1,"127":3}}"#
    );
    assert_eq!(v.to_final().unwrap(), hex(FINAL));
}
