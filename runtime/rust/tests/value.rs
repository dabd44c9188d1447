//! The codecs of fbe::Value on their own: each kind of value written into a slot of a versioned
//! body (and appended to a final root) reads back to itself, in the bytes of docs/format.md 3.4
//! and 4.2; sets and maps read holding a key twice are refused.

use fbe::{
    BString, BodyWriter, Bytes, Char, Decimal, DecodeError, EncodeError, ErrorKind, Fixed, Limits, Pairs, Reader, Set,
    SizedWriter, Timestamp, Uuid, Value, Writer,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;

const TYPE_ID: u32 = 77;

/// `v` in the one slot of a versioned struct body (type 77), and back.
fn versioned<T: Value + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let mut w = Writer::new();
    w.begin_versioned();
    let b = w.struct_body(0, 4, 8 + T::SLOT, TYPE_ID);
    w.field(v, b, b + 8, "f").unwrap();
    let root = w.end_versioned().unwrap().to_vec();
    let mut r = Reader::versioned(&root, &Limits::default()).unwrap();
    let (b, _) = r.struct_body(0, 4, TYPE_ID, 1).unwrap();
    let mut back: T = r.field(b, b + 8, "f").unwrap();
    assert_eq!(&back, v);
    let mut r = Reader::versioned(&root, &Limits::default()).unwrap();
    let (b, _) = r.struct_body(0, 4, TYPE_ID, 1).unwrap();
    r.check::<T>(b, b + 8, "f").unwrap();
    // the same through the body's slice (what generated code calls): the slot read from it
    let mut r = Reader::versioned(&root, &Limits::default()).unwrap();
    let (b, n) = r.struct_body(0, 4, TYPE_ID, 1).unwrap();
    r.field_into_at(&mut back, b, r.body(b, n), 8, "f").unwrap();
    assert_eq!(&back, v);
    let mut r = Reader::versioned(&root, &Limits::default()).unwrap();
    let (b, n) = r.struct_body(0, 4, TYPE_ID, 1).unwrap();
    r.check_at::<T>(b, r.body(b, n), 8, "f").unwrap();
    root
}

/// `v` appended to a final root, and back; the root covers exactly its bytes.
fn final_<T: Value + PartialEq + Debug>(v: &T) -> Vec<u8> {
    let mut w = Writer::new();
    w.begin_final();
    w.final_field(v, "f").unwrap();
    let root = w.end_final(TYPE_ID).unwrap().to_vec();
    let mut r = Reader::final_root(&root, TYPE_ID, &Limits::default()).unwrap();
    let back: T = r.final_field("f").unwrap();
    r.end_final().unwrap();
    assert_eq!(&back, v);
    let mut r = Reader::final_root(&root, TYPE_ID, &Limits::default()).unwrap();
    r.final_check::<T>("f").unwrap();
    r.end_final().unwrap();
    root
}

fn both<T: Value + PartialEq + Debug>(v: T) -> (Vec<u8>, Vec<u8>) {
    (versioned(&v), final_(&v))
}

/// A fixed value stored at its offset in a run ([`Fixed::put_at`], what generated code writes a
/// versioned body's and a final run's fixed fields with) gives the bytes of its slot and of
/// [`Value::append`], and reads back with [`Fixed::at`].
fn fixed<T: Fixed + PartialEq + Debug>(v: T) {
    let (slot, appended) = (versioned(&v), final_(&v));
    let mut w = Writer::new();
    w.begin_final();
    let run = w.append_run::<40>();
    v.put_at(run, 3);
    assert_eq!(&run[3..3 + T::SLOT], &slot[16..16 + T::SLOT], "{v:?}");
    assert_eq!(&run[3..3 + T::SLOT], &appended[8..], "{v:?}");
    assert_eq!(T::at(&run[..], 3), v);
    assert!(run[..3].iter().chain(&run[3 + T::SLOT..]).all(|&b| b == 0), "{v:?} wrote beyond its slot");
}

#[test]
fn fixed_values_store_at_their_offset() {
    fixed(true);
    fixed(-5i8);
    fixed(0xBEEFu16);
    fixed(-7i32);
    fixed(u64::MAX - 1);
    fixed(-1.5f32);
    fixed(f64::MIN_POSITIVE);
    fixed(Timestamp(1_577_836_800_123_456_789));
    fixed(Uuid::from_u128(0x123e4567_e89b_12d3_a456_426655440000));
    fixed(Char(0xE9));
    fixed([1i16, -2, 3]);
}

#[test]
fn every_kind_of_value_reads_back() {
    both(true);
    both(-5i8);
    both(u64::MAX);
    both(-1.5f32);
    both(f64::MIN_POSITIVE);
    both(Timestamp(1_577_836_800_123_456_789));
    both(Uuid::from_u128(0x123e4567_e89b_12d3_a456_426655440000));
    both("-123.456".parse::<Decimal>().unwrap());
    both(BString::from("héllo"));
    both(Bytes(vec![0, 1, 0xFF]));
    both(Some(7i32));
    both(None::<i32>);
    both(Some(BString::from("x")));
    both([1i16, 2, 3]);
    both(Box::new([9u8; 5000]));
    both(vec![BString::from("a"), BString::from("b")]);
    both(BTreeSet::from([3i64, 1, 2]));
    both(BTreeMap::from([(BString::from("b"), 2i32), (BString::from("a"), 1)]));
    both(HashMap::from([(1u8, Some(1.5f64)), (2, None)]));
    both(Set(vec![2.0f64, 1.0]));
    both(Pairs(vec![(1.5f32, BString::from("x"))]));
}

#[test]
fn the_bytes_are_the_formats() {
    // an optional: presence 1 and an offset to its value slot, which is the value's base
    let (v, f) = both(Some(BString::from("ab")));
    assert_eq!(v[16..21], [1, 21 - 8, 0, 0, 0]); // the body at 8: its slot at 16, the value slot at 21
    assert_eq!(v[21..], [4, 0, 0, 0, 2, 0, 0, 0, b'a', b'b']); // the string's offset counts from the value slot
    assert_eq!(f[8..], [1, 2, 0, 0, 0, b'a', b'b']);
    // a vector: a count, then every slot, then the elements' data in order
    let (v, f) = both(vec![BString::from("x"), BString::from("yz")]);
    assert_eq!(v[20..], [2, 0, 0, 0, 32 - 8, 0, 0, 0, 37 - 8, 0, 0, 0, 1, 0, 0, 0, b'x', 2, 0, 0, 0, b'y', b'z']);
    assert_eq!(f[8..], [2, 0, 0, 0, 1, 0, 0, 0, b'x', 2, 0, 0, 0, b'y', b'z']);
    // a set in ascending order, whatever order it was built in
    let (_, f) = both(BTreeSet::from([3u8, 1, 2]));
    assert_eq!(f[8..], [3, 0, 0, 0, 1, 2, 3]);
}

#[test]
fn a_string_of_any_length_is_its_length_and_its_bytes() {
    // the writer copies one of 4 to 16 bytes in two overlapping parts: every length around those
    for n in 0..=40u8 {
        let s: Vec<u8> = (1..=n).collect();
        let (v, f) = both(BString::from(s.clone()));
        let want = [u32::from(n).to_le_bytes().as_slice(), &s].concat();
        assert_eq!(v[20..], want, "versioned, {n} bytes");
        assert_eq!(f[8..], want, "final, {n} bytes");
    }
}

#[test]
fn a_set_or_map_read_twice_with_a_key_is_refused() {
    // a final root holding the set [1, 1] of u8, and the map {1: 5, 1: 6}
    let root = [14u8, 0, 0, 0, 77, 0, 0, 0, 2, 0, 0, 0, 1, 1];
    let mut r = Reader::final_root(&root, TYPE_ID, &Limits::default()).unwrap();
    let e = r.final_field::<BTreeSet<u8>>("tags").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Duplicate);
    assert_eq!(e.to_string(), "duplicate key: two entries read as the same key (tags[1], offset 13)");
    let mut r = Reader::final_root(&root, TYPE_ID, &Limits::default()).unwrap();
    assert_eq!(r.final_check::<BTreeSet<u8>>("tags").unwrap_err().to_string(), e.to_string());
    let mut r = Reader::final_root(&root, TYPE_ID, &Limits::default()).unwrap();
    assert_eq!(r.final_field::<Set<u8>>("tags").unwrap_err().kind(), ErrorKind::Duplicate);
    let mut map = vec![0u8, 0, 0, 0, 77, 0, 0, 0, 2, 0, 0, 0, 1, 5, 1, 6];
    map[0] = map.len() as u8;
    for e in [
        Reader::final_root(&map, TYPE_ID, &Limits::default()).unwrap().final_field::<HashMap<u8, u8>>("m").unwrap_err(),
        Reader::final_root(&map, TYPE_ID, &Limits::default())
            .unwrap()
            .final_field::<BTreeMap<u8, u8>>("m")
            .unwrap_err(),
        Reader::final_root(&map, TYPE_ID, &Limits::default()).unwrap().final_field::<Pairs<u8, u8>>("m").unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Duplicate, "{e}");
    }
}

/// Strings and bytes of every length up to 40 (the short ones are copied in fixed-size parts, not
/// by memcpy) are written in the bytes of docs/format.md 3.4 and 4.2 and read back, into a reused
/// value holding every other length (shorter, longer, with and without room).
#[test]
fn strings_of_every_length_read_back_into_reused_values() {
    let text = |n: usize| (0..n).map(|i| b'a' + (i % 26) as u8).collect::<Vec<u8>>();
    for n in 0..=40 {
        let s = BString::from(text(n));
        let (slot, appended) = both(s.clone());
        let at = 8 + u32::from_le_bytes(slot[16..20].try_into().unwrap()) as usize; // from the body at 8
        assert_eq!(&slot[at..at + 4], &(n as u32).to_le_bytes());
        assert_eq!(&slot[at + 4..], &text(n)[..], "versioned string of {n} bytes");
        assert_eq!(&appended[8..12], &(n as u32).to_le_bytes());
        assert_eq!(&appended[12..], &text(n)[..], "final string of {n} bytes");
        let blob = Bytes::from(text(n));
        both(blob.clone());
        for old in 0..=40 {
            let mut back = BString::from(vec![b'#'; old]);
            let mut r = Reader::versioned(&slot, &Limits::default()).unwrap();
            let (b, size) = r.struct_body(0, 4, TYPE_ID, 1).unwrap();
            r.field_into_at(&mut back, b, r.body(b, size), 8, "f").unwrap();
            assert_eq!(back, s, "{n} bytes read into a string of {old}");
            let mut back = Bytes::from(vec![b'#'; old]);
            let mut r = Reader::final_root(&appended, TYPE_ID, &Limits::default()).unwrap();
            r.final_field_into(&mut back, "f").unwrap();
            assert_eq!(back, blob, "{n} bytes read into bytes of {old}");
        }
    }
}

/// A value whose size walks say 5 GiB (what a vector of more than 2^32 elements of a byte takes),
/// and whose codecs must never run.
struct Huge;

impl Value for Huge {
    const SLOT: usize = 4;
    const FINAL_MIN: usize = 1;
    const COST: usize = 1;

    fn put(&self, _: &mut BodyWriter<'_>, _: usize, _: &mut [u8]) -> Result<(), EncodeError> {
        unreachable!("written though its size was refused")
    }
    fn extra_size(&self) -> usize {
        5 << 30
    }
    fn get(_: &mut Reader<'_>, _: usize, _: usize) -> Result<Self, DecodeError> {
        unreachable!("never read")
    }
    fn append(&self, _: &mut SizedWriter<'_>) -> Result<(), EncodeError> {
        unreachable!("written though its size was refused")
    }
    fn final_size(&self) -> usize {
        5 << 30
    }
    fn take(_: &mut Reader<'_>) -> Result<Self, DecodeError> {
        unreachable!("never read")
    }
}

/// A final value that would take a hand-made root beyond 4 GiB is refused before a byte of it is
/// made or written, as a generated root is (so a final writer's bytes, and the counts it stores
/// without a check, stay within 32 bits).
#[test]
fn a_final_value_beyond_4_gib_is_refused_before_it_is_written() {
    let mut w = Writer::new();
    w.begin_final();
    let e = w.final_field(&Huge, "f").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::TooLarge);
    assert!(e.to_string().contains("root larger than 4 GiB"), "{e}");
}
