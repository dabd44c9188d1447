//! The reader's refusals (docs/limits.md): each names the field and the offset, and each is a
//! hand-made root that an honest writer never writes.

use fbe::{ErrorKind, Limits, Reader, Writer};

/// A versioned root of one struct (type 1) whose body holds one 4-byte slot at 8, pointing
/// (from the body) to `target`, followed by `tail`.
fn root_with_slot(target: u32, tail: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    let total = (8 + 12 + tail.len()) as u32;
    b.extend_from_slice(&total.to_le_bytes());
    b.extend_from_slice(&8u32.to_le_bytes());
    b.extend_from_slice(&12u32.to_le_bytes());
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&target.to_le_bytes());
    b.extend_from_slice(tail);
    b
}

fn enter(r: &mut Reader) -> usize {
    r.struct_body(0, 4, 1, 1).unwrap().0
}

#[test]
fn a_string_is_read_within_the_root_and_charged() {
    let data = root_with_slot(12, &[3, 0, 0, 0, b'U', b'S', b'D']);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    let before = r.budget();
    assert_eq!(r.string(body, body + 8, "currency").unwrap(), b"USD");
    assert_eq!(before - r.budget(), 3);

    let long = root_with_slot(12, &[9, 0, 0, 0, b'U', b'S', b'D']);
    let mut r = Reader::versioned(&long, &Limits::default()).unwrap();
    let body = enter(&mut r);
    let e = r.string(body, body + 8, "currency").unwrap_err().within("proto.Balance");
    assert_eq!(e.to_string(), "string of 9 bytes beyond the end of the buffer (proto.Balance.currency, offset 20)");
}

#[test]
fn blocks_must_follow_in_allocation_order() {
    // the slot points back into the body's own header
    let data = root_with_slot(4, &[0; 8]);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    let e = r.string(body, body + 8, "name").unwrap_err();
    assert!(e.to_string().starts_with("string at 12 before the end of the previous block (20)"), "{e}");
    let data = root_with_slot(4, &[0; 8]);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    let e = r.vector(body, body + 8, 4, 4, "orders").unwrap_err();
    assert_eq!(e.offset(), Some(12));
    assert!(e.message().starts_with("collection at 12 before the end of the previous block (20)"), "{e}");
}

#[test]
fn counts_are_bounded_by_the_bytes_left_and_the_budget() {
    let data = root_with_slot(12, &[3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    assert_eq!(
        r.vector(body, body + 8, 4, 4, "ids").unwrap_err().to_string(),
        "count 3 exceeds the buffer (ids, offset 20)"
    );

    let data = root_with_slot(12, &[2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    assert_eq!(r.vector(body, body + 8, 4, 4, "ids").unwrap(), (24, 2));

    let tight = Limits { budget_factor: 0, budget_slack: 8, ..Limits::default() };
    let mut r = Reader::versioned(&data, &tight).unwrap();
    let body = enter(&mut r);
    let e = r.vector(body, body + 8, 4, 8, "ids").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget);
    assert_eq!(e.to_string(), "decode budget exceeded (ids, offset 20)");

    // a count whose bytes overflow: never multiplied into a wrap
    let data = root_with_slot(12, &[0xFF, 0xFF, 0xFF, 0xFF]);
    let mut r = Reader::versioned(&data, &Limits::default()).unwrap();
    let body = enter(&mut r);
    assert!(r.vector(body, body + 8, usize::MAX / 2, 1, "ids").is_err());
}

#[test]
fn structs_check_offset_header_type_depth_and_budget() {
    let mut w = Writer::new();
    w.begin_versioned();
    w.struct_body(0, 4, 8, 7);
    let root = w.end_versioned().unwrap().to_vec();
    let lim = Limits::default();
    let mut r = Reader::versioned(&root, &lim).unwrap();
    let e = r.struct_body(0, 4, 8, 1).unwrap_err().within("t.S");
    assert_eq!(e.to_string(), "type id 7 where 8 was expected (t.S, offset 8)");
    let mut r = Reader::versioned(&root, &Limits { max_depth: 0, ..lim }).unwrap();
    let e = r.struct_body(0, 4, 7, 1).unwrap_err();
    assert_eq!((e.kind(), e.to_string().as_str()), (ErrorKind::Depth, "structs nested deeper than 0 (offset 8)"));
    let mut r = Reader::versioned(&root, &Limits { budget_factor: 0, budget_slack: 31, ..lim }).unwrap();
    assert_eq!(r.struct_body(0, 4, 7, 32).unwrap_err().kind(), ErrorKind::Budget);
    let mut zero = root.clone();
    zero[4..8].copy_from_slice(&[0; 4]);
    let mut r = Reader::versioned(&zero, &lim).unwrap();
    assert_eq!(r.struct_body(0, 4, 7, 1).unwrap_err().to_string(), "struct offset 0 (offset 4)");
    let mut small = root.clone();
    small[8] = 7;
    let mut r = Reader::versioned(&small, &lim).unwrap();
    assert_eq!(r.struct_body(0, 4, 7, 1).unwrap_err().message(), "struct body size 7 below 8");
    assert!(Reader::versioned(&root[..15], &lim).is_err());
    let mut short = root.clone();
    short[0] = 15;
    assert_eq!(Reader::versioned(&short, &lim).unwrap_err().message(), "versioned root size 15 below 16");
}

#[test]
fn optionals_point_forward_to_a_whole_value_slot() {
    // body of 13: one optional slot (presence, offset) at 8
    let mut b = vec![0u8; 8];
    b.extend_from_slice(&13u32.to_le_bytes());
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&[1, 13, 0, 0, 0]);
    b.extend_from_slice(&42i32.to_le_bytes());
    let total = b.len() as u32;
    b[0..4].copy_from_slice(&total.to_le_bytes());
    b[4..8].copy_from_slice(&8u32.to_le_bytes());
    let lim = Limits::default();
    let mut r = Reader::versioned(&b, &lim).unwrap();
    let body = enter(&mut r);
    let at = r.optional(body, body + 8, 4, "maybe").unwrap().unwrap();
    assert_eq!(fbe::get_i32(r.data(), at), 42);
    let mut r = Reader::versioned(&b, &lim).unwrap();
    let body = enter(&mut r);
    assert!(r.optional(body, body + 8, 5, "maybe").unwrap_err().to_string().starts_with("value slot beyond"));
    b[17] = 0;
    let mut r = Reader::versioned(&b, &lim).unwrap();
    let body = enter(&mut r);
    assert_eq!(r.optional(body, body + 8, 4, "maybe").unwrap_err().message(), "present optional with offset 0");
    b[16] = 0;
    let mut r = Reader::versioned(&b, &lim).unwrap();
    let body = enter(&mut r);
    assert_eq!(r.optional(body, body + 8, 4, "maybe").unwrap(), None);
}

#[test]
fn final_roots_name_the_first_missing_field() {
    let mut w = Writer::new();
    w.begin_final();
    w.append_i32(1);
    w.append_u8(2);
    let root = w.end_final(5).unwrap().to_vec();
    let lim = Limits::default();
    assert_eq!(
        Reader::final_root(&root, 6, &lim).unwrap_err().to_string(),
        "type id 5 where 6 was expected (offset 4)"
    );
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    let e = r.run(7, "id=4,side=1,rest=2").unwrap_err();
    assert_eq!(e.to_string(), "value beyond the end of the buffer (rest, offset 13)");
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    let e = r.run(13, "id=4,codes=1*9").unwrap_err();
    assert_eq!(e.to_string(), "value beyond the end of the buffer (codes, offset 13)");
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    let run = r.run(4, "id=4").unwrap();
    assert_eq!(fbe::get_i32(run, 0), 1);
    assert_eq!(r.end_final().unwrap_err().message(), "final root covers 12 bytes, its size says 13");
    assert!(r.final_has("flag").unwrap());
    r.end_final().unwrap();
    assert!(r.final_has("flag").unwrap_err().to_string().starts_with("optional flag beyond the end"));
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    assert_eq!(r.final_count(2, 2, "items").unwrap_err().to_string(), "count 1 exceeds the buffer (items, offset 8)");
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    r.fixed(4, "id").unwrap();
    let e = r.final_count(1, 1, "items").unwrap_err();
    assert_eq!(e.to_string(), "collection size beyond the end of the buffer (items, offset 12)");
    // a string at 8: the length 1 (the i32), its byte the 2 at 12
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    assert_eq!(r.final_string("name").unwrap(), [2]);
    r.end_final().unwrap();
    let mut r = Reader::final_root(&root, 5, &lim).unwrap();
    r.fixed(4, "id").unwrap();
    let e = r.final_string("name").unwrap_err();
    assert_eq!(e.to_string(), "string size beyond the end of the buffer (name, offset 12)");
    let mut long = root.clone();
    long[8] = 9;
    let mut r = Reader::final_root(&long, 5, &lim).unwrap();
    let e = r.final_string("name").unwrap_err();
    assert_eq!(e.to_string(), "string of 9 bytes beyond the end of the buffer (name, offset 8)");
    let none = Limits { budget_factor: 0, budget_slack: 0, ..Limits::default() };
    let mut r = Reader::final_root(&root, 5, &none).unwrap();
    assert_eq!(r.final_blob("name").unwrap_err().to_string(), "decode budget exceeded (name, offset 8)");
}

#[test]
fn elements_that_take_no_bytes_are_bounded_by_the_budget() {
    // docs/limits.md 3: 130 empty structs in a 12-byte final root are read, 131 refused
    let root = |n: u32| {
        let mut b = 12u32.to_le_bytes().to_vec();
        b.extend_from_slice(&9u32.to_le_bytes());
        b.extend_from_slice(&n.to_le_bytes());
        b
    };
    let lim = Limits::default();
    let read = |n| {
        let data = root(n);
        let mut r = Reader::final_root(&data, 9, &lim).unwrap();
        r.enter(4)?; // the root: its one field, the vector, takes at least 4 bytes
        r.final_count(0, 0, "items")?;
        for _ in 0..n {
            r.enter(32)?;
            r.leave();
        }
        r.end_final()
    };
    assert!(read(130).is_ok());
    assert_eq!(read(131).unwrap_err().kind(), ErrorKind::Budget);
    assert_eq!(fbe::collections::capacity(u32::MAX as usize, 32, 4192), 132);
}

#[test]
fn decimals_with_reserved_flags_are_refused_where_they_are() {
    let mut w = Writer::new();
    w.begin_final();
    w.append_decimal(&"1.5".parse().unwrap());
    let mut root = w.end_final(3).unwrap().to_vec();
    root[8 + 14] = 29;
    let mut r = Reader::final_root(&root, 3, &Limits::default()).unwrap();
    assert_eq!(r.final_decimal("price").unwrap_err().to_string(), "decimal scale 29 above 28 (price, offset 8)");
}

#[test]
fn sets_and_maps_refuse_a_key_read_twice() {
    use fbe::{Decimal, Unique};
    use std::collections::{BTreeMap, HashSet};
    let mut m = BTreeMap::new();
    m.insert_unique(("1.5".parse::<Decimal>().unwrap(), 1), "prices", 20).unwrap();
    let e = m.insert_unique(("1.50".parse::<Decimal>().unwrap(), 2), "prices", 40).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Duplicate, Some(40)));
    let mut s = HashSet::new();
    s.insert_unique(fbe::BString::from("a"), "tags", 1).unwrap();
    assert!(s.insert_unique(fbe::BString::from("a"), "tags", 2).is_err());
}

#[test]
fn writers_refuse_nesting_beyond_their_depth() {
    let mut w = Writer::with_max_depth(2);
    w.enter("t.Node").unwrap();
    w.enter("t.Node").unwrap();
    assert!(w.near(1));
    let e = w.enter("t.Node").unwrap_err().in_field("next").within("t.Node");
    assert_eq!(e.kind(), ErrorKind::Depth);
    w.leave();
    assert!(!w.near(1));
}
