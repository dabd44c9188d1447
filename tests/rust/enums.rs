//! An enum on the wire as one byte reads each of the 256 bytes through its table (`from_wire`: one
//! load, the table made at compile time by the enum's match): the variant the schema names, else
//! `Unknown` holding the byte, and every value writes its byte back.

use generated::project::everything::{EByte, EChar, EInt8};

#[test]
fn every_wire_byte_reads_as_the_value_its_schema_names() {
    for b in 0..=u8::MAX {
        let byte = EByte::from_wire(b);
        let char_ = EChar::from_wire(b);
        let int8 = EInt8::from_wire(b as i8);
        assert_eq!(
            (byte.to_wire(), char_.to_wire(), int8.to_wire()),
            (b, b, b as i8)
        );
        let named = match b {
            0 => matches!(byte, EByte::A),
            0x10 => matches!(byte, EByte::B),
            0x11 => matches!(byte, EByte::C),
            _ => matches!(byte, EByte::Unknown(v) if v == b),
        };
        assert!(named, "EByte of {b}: {byte:?}");
        let named = match b {
            b'a' => matches!(char_, EChar::A),
            b'b' => matches!(char_, EChar::B),
            b'\n' => matches!(char_, EChar::C),
            _ => matches!(char_, EChar::Unknown(v) if v == b),
        };
        assert!(named, "EChar of {b}: {char_:?}");
        let named = match b as i8 {
            -128 => matches!(int8, EInt8::Lo),
            127 => matches!(int8, EInt8::Hi),
            v => matches!(int8, EInt8::Unknown(u) if u == v),
        };
        assert!(named, "EInt8 of {b}: {int8:?}");
    }
}
