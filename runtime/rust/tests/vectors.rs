//! The primitives against the original's bytes: the golden vectors of ../shared/vectors
//! (`$SHARED/vectors`), read at run time. The fields `id`..`f40` of `test.StructSimple` hold one
//! value of every primitive type (booleans, every integer, char, wchar, float, double, decimal,
//! string, timestamp, uuid, enums of `byte`), written back to back in the final model and in
//! slots of the versioned body, so this reads and writes them with the runtime alone.
//!
//! Without ../shared the tests say so and pass; under `CI=true` its absence fails them
//! (DESIGN.md, "Files from ../shared").

use fbe::{Decimal, Limits, Reader, Timestamp, Uuid, Writer};
use serde_json::Value;
use std::path::PathBuf;

fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    };
    if dir.join("vectors/MANIFEST.json").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("the golden vectors are missing: no {}/vectors/MANIFEST.json (CI=true)", dir.display());
    }
    eprintln!("skipped: the golden vectors of ../shared are not available ({} has none; set SHARED)", dir.display());
    None
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum P {
    Bool,
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
    Dec,
    Str,
    Ts,
    Uuid,
}

use P::*;

/// test.StructSimple's fields up to f40, in order (../shared/schemas/test.fbe): char is u8,
/// wchar u32, the enums proto.OrderSide and proto.OrderType are `byte`.
const SIMPLE: [(&str, P); 41] = [
    ("id", I32),
    ("f1", Bool),
    ("f2", Bool),
    ("f3", U8),
    ("f4", U8),
    ("f5", U8),
    ("f6", U8),
    ("f7", U32),
    ("f8", U32),
    ("f9", I8),
    ("f10", I8),
    ("f11", U8),
    ("f12", U8),
    ("f13", I16),
    ("f14", I16),
    ("f15", U16),
    ("f16", U16),
    ("f17", I32),
    ("f18", I32),
    ("f19", U32),
    ("f20", U32),
    ("f21", I64),
    ("f22", I64),
    ("f23", U64),
    ("f24", U64),
    ("f25", F32),
    ("f26", F32),
    ("f27", F64),
    ("f28", F64),
    ("f29", Dec),
    ("f30", Dec),
    ("f31", Str),
    ("f32", Str),
    ("f33", Ts),
    ("f34", Ts),
    ("f35", Ts),
    ("f36", Uuid),
    ("f37", Uuid),
    ("f38", Uuid),
    ("f39", U8),
    ("f40", U8),
];

const STRUCT_SIMPLE: u32 = 110;

#[derive(Clone, Debug, PartialEq)]
enum V {
    Bool(bool),
    Int(i128),
    Bits(u64), // a float or double, bit for bit
    Dec(Decimal),
    Str(Vec<u8>),
    Ts(Timestamp),
    Uuid(Uuid),
}

fn size(p: P) -> usize {
    match p {
        Bool | U8 | I8 => 1,
        U16 | I16 => 2,
        U32 | I32 | F32 | Str => 4,
        U64 | I64 | F64 | Ts => 8,
        Dec | Uuid => 16,
    }
}

/// The value description of the manifest (vectors/README.md) as a V.
fn expected(p: P, v: &Value) -> V {
    let int = || match v {
        Value::String(s) => s.parse::<i128>().unwrap(),
        _ => i128::from(v.as_i64().unwrap()),
    };
    match p {
        Bool => V::Bool(v.as_bool().unwrap()),
        U8 | I8 | U16 | I16 | U32 | I32 | U64 | I64 => V::Int(int()),
        F32 => V::Bits(u64::from((v.as_f64().unwrap() as f32).to_bits())),
        F64 => V::Bits(v.as_f64().unwrap().to_bits()),
        Dec => V::Dec(v.as_str().unwrap().parse().unwrap()),
        Str => V::Str(v.as_str().unwrap().as_bytes().to_vec()),
        Ts => V::Ts(Timestamp(int() as u64)),
        Uuid => V::Uuid(fbe::parse_uuid(v.as_str().unwrap()).unwrap()),
    }
}

/// The fixed-size value of type p in b at `at`.
fn fixed(p: P, b: &[u8], at: usize, r: &Reader, abs: usize, name: &str) -> V {
    match p {
        Bool => V::Bool(fbe::get_bool(b, at)),
        U8 => V::Int(fbe::get_u8(b, at).into()),
        I8 => V::Int(fbe::get_i8(b, at).into()),
        U16 => V::Int(fbe::get_u16(b, at).into()),
        I16 => V::Int(fbe::get_i16(b, at).into()),
        U32 => V::Int(fbe::get_u32(b, at).into()),
        I32 => V::Int(fbe::get_i32(b, at).into()),
        U64 => V::Int(fbe::get_u64(b, at).into()),
        I64 => V::Int(fbe::get_i64(b, at).into()),
        F32 => V::Bits(fbe::get_f32(b, at).to_bits().into()),
        F64 => V::Bits(fbe::get_f64(b, at).to_bits()),
        Ts => V::Ts(fbe::get_timestamp(b, at)),
        Uuid => V::Uuid(fbe::get_uuid(b, at)),
        Dec => V::Dec(r.decimal(abs, name).unwrap()),
        Str => unreachable!("strings are not fixed"),
    }
}

fn append(w: &mut Writer, v: &V, p: P) {
    match (p, v) {
        (Bool, V::Bool(b)) => w.append_bool(*b),
        (U8, V::Int(i)) => w.append_u8(*i as u8),
        (I8, V::Int(i)) => w.append_i8(*i as i8),
        (U16, V::Int(i)) => w.append_u16(*i as u16),
        (I16, V::Int(i)) => w.append_i16(*i as i16),
        (U32, V::Int(i)) => w.append_u32(*i as u32),
        (I32, V::Int(i)) => w.append_i32(*i as i32),
        (U64, V::Int(i)) => w.append_u64(*i as u64),
        (I64, V::Int(i)) => w.append_i64(*i as i64),
        (F32, V::Bits(b)) => w.append_f32(f32::from_bits(*b as u32)),
        (F64, V::Bits(b)) => w.append_f64(f64::from_bits(*b)),
        (Dec, V::Dec(d)) => w.append_decimal(d),
        (Str, V::Str(s)) => w.append_string(s),
        (Ts, V::Ts(t)) => w.append_timestamp(*t),
        (Uuid, V::Uuid(u)) => w.append_uuid(u),
        _ => unreachable!(),
    }
}

fn put(w: &mut Writer, body: usize, slot: usize, v: &V, p: P) {
    match (p, v) {
        (Bool, V::Bool(b)) => w.put_bool(slot, *b),
        (U8, V::Int(i)) => w.put_u8(slot, *i as u8),
        (I8, V::Int(i)) => w.put_i8(slot, *i as i8),
        (U16, V::Int(i)) => w.put_u16(slot, *i as u16),
        (I16, V::Int(i)) => w.put_i16(slot, *i as i16),
        (U32, V::Int(i)) => w.put_u32(slot, *i as u32),
        (I32, V::Int(i)) => w.put_i32(slot, *i as i32),
        (U64, V::Int(i)) => w.put_u64(slot, *i as u64),
        (I64, V::Int(i)) => w.put_i64(slot, *i as i64),
        (F32, V::Bits(b)) => w.put_f32(slot, f32::from_bits(*b as u32)),
        (F64, V::Bits(b)) => w.put_f64(slot, f64::from_bits(*b)),
        (Dec, V::Dec(d)) => w.put_decimal(slot, d),
        (Str, V::Str(s)) => w.string(body, slot, s),
        (Ts, V::Ts(t)) => w.put_timestamp(slot, *t),
        (Uuid, V::Uuid(u)) => w.put_uuid(slot, u),
        _ => unreachable!(),
    }
}

struct Case {
    name: String,
    value: Value,
    versioned: Vec<u8>,
    final_: Vec<u8>,
}

fn simple_cases(dir: &std::path::Path) -> Vec<Case> {
    let manifest: Value = serde_json::from_slice(&std::fs::read(dir.join("vectors/MANIFEST.json")).unwrap()).unwrap();
    let cases: Vec<Case> = manifest["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["package"] == "test" && c["type"] == "StructSimple")
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_owned();
            let read = |ext: &str| std::fs::read(dir.join("vectors").join(format!("{name}.{ext}"))).unwrap();
            Case { value: c["value"].clone(), versioned: read("fbe.bin"), final_: read("final.bin"), name }
        })
        .collect();
    assert_eq!(cases.len(), 2, "test_struct_simple_default and _values");
    cases
}

#[test]
fn final_model_primitives_read_and_write_the_originals_bytes() {
    let Some(dir) = shared() else { return };
    for case in simple_cases(&dir) {
        let mut r = Reader::final_root(&case.final_, STRUCT_SIMPLE, &Limits::default()).unwrap();
        let mut w = Writer::new();
        w.begin_final();
        for (name, p) in SIMPLE {
            let want = expected(p, &case.value[name]);
            let got = match p {
                Str => V::Str(r.final_string(name).unwrap().to_vec()),
                Dec => V::Dec(r.final_decimal(name).unwrap()),
                _ => {
                    let at = r.pos();
                    let b = r.fixed(size(p), name).unwrap();
                    fixed(p, b, 0, &r, at, name)
                }
            };
            assert_eq!(got, want, "{} {name}", case.name);
            append(&mut w, &want, p);
        }
        let end = w.len();
        assert_eq!(w.bytes()[8..], case.final_[8..end], "{}: the bytes of id..f40", case.name);
    }
}

#[test]
fn versioned_model_primitives_read_and_write_the_originals_bytes() {
    let Some(dir) = shared() else { return };
    for case in simple_cases(&dir) {
        let data = &case.versioned;
        let mut r = Reader::versioned(data, &Limits::default()).unwrap();
        let (body, body_size) = r.struct_body(0, 4, STRUCT_SIMPLE, 1).unwrap();
        let mut w = Writer::new();
        w.begin_versioned();
        let wbody = w.struct_body(0, 4, body_size, STRUCT_SIMPLE);
        assert_eq!(wbody, body);
        let mut slot = body + 8;
        for (name, p) in SIMPLE {
            let want = expected(p, &case.value[name]);
            let got = match p {
                Str => V::Str(r.string(body, slot, name).unwrap().to_vec()),
                _ => fixed(p, data, slot, &r, slot, name),
            };
            assert_eq!(got, want, "{} {name}", case.name);
            put(&mut w, body, slot, &want, p);
            slot += size(p);
        }
        // the slots of id..f40, then the two strings' blocks, the first data after the body
        let ours = w.bytes();
        assert_eq!(ours[body..slot], data[body..slot], "{}: the slots of id..f40", case.name);
        let after = body + body_size;
        assert_eq!(ours[after..], data[after..ours.len()], "{}: the strings' blocks", case.name);
    }
}

#[test]
fn decimals_of_the_vectors_are_the_originals_conversion_of_their_double() {
    let Some(dir) = shared() else { return };
    for case in simple_cases(&dir) {
        let json = std::fs::read_to_string(dir.join("vectors").join(format!("{}.json", case.name))).unwrap();
        let text = std::fs::read(dir.join("vectors").join(format!("{}.txt", case.name))).unwrap();
        for name in ["f29", "f30"] {
            let value = case.value[name].as_str().unwrap();
            let exact: Decimal = value.parse().unwrap();
            assert_eq!(Decimal::from_f64(value.parse().unwrap()).to_wire(), exact.to_wire(), "{value}");
            // the JSON member and the text form of the original
            assert!(json.contains(&format!("\"{name}\":\"{}\"", exact.json_text())), "{} {name}", case.name);
            let printed = format!(",{name}={},", exact.text());
            assert!(text.windows(printed.len()).any(|w| w == printed.as_bytes()), "{} {printed}", case.name);
        }
    }
}

#[test]
fn floats_print_as_the_originals_text() {
    // the doubles of the manifest's accounts and test.StructSimple's floats, as its .txt files print them
    let Some(dir) = shared() else { return };
    let manifest: Value = serde_json::from_slice(&std::fs::read(dir.join("vectors/MANIFEST.json")).unwrap()).unwrap();
    let mut checked = 0;
    for case in manifest["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let text = std::fs::read(dir.join("vectors").join(format!("{name}.txt"))).unwrap();
        let value = &case["value"];
        let mut printed: Vec<(String, f64)> = Vec::new();
        if name.starts_with("proto_account") && value["orders"].is_array() {
            for order in value["orders"].as_array().unwrap() {
                printed.push(("price".into(), order["price"].as_f64().unwrap()));
                printed.push(("volume".into(), order["volume"].as_f64().unwrap()));
            }
            printed.push(("amount".into(), value["wallet"]["amount"].as_f64().unwrap()));
        }
        if name.starts_with("test_struct_simple") {
            printed.push(("f25".into(), f64::from(value["f25"].as_f64().unwrap() as f32)));
            printed.push(("f26".into(), f64::from(value["f26"].as_f64().unwrap() as f32)));
            printed.push(("f27".into(), value["f27"].as_f64().unwrap()));
            printed.push(("f28".into(), value["f28"].as_f64().unwrap()));
        }
        for (field, v) in printed {
            let want = format!("{field}={}", fbe::text::float_g(v));
            assert!(text.windows(want.len()).any(|w| w == want.as_bytes()), "{name}: {want}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} floats checked");
}

#[test]
fn json_writer_writes_the_originals_members() {
    // the members id..f40 of test.StructSimple, written from the manifest's values, are the
    // start of the original's .json file byte for byte (docs/format.md 8)
    let Some(dir) = shared() else { return };
    for case in simple_cases(&dir) {
        let golden = std::fs::read(dir.join("vectors").join(format!("{}.json", case.name))).unwrap();
        let mut j = fbe::json::JsonWriter::default();
        j.raw("{");
        for (i, (name, p)) in SIMPLE.into_iter().enumerate() {
            j.raw(&format!("{}\"{name}\":", if i == 0 { "" } else { "," }));
            match expected(p, &case.value[name]) {
                V::Bool(b) => j.bool(b),
                V::Int(v) if v < 0 => j.int(v as i64),
                V::Int(v) => j.uint(v as u64),
                V::Bits(b) if p == F32 => j.f32(f32::from_bits(b as u32)),
                V::Bits(b) => j.f64(f64::from_bits(b)),
                V::Dec(d) => j.decimal(&d),
                V::Str(s) => j.string(&s),
                V::Ts(t) => j.timestamp(t),
                V::Uuid(u) => j.uuid(&u),
            }
        }
        j.raw(",");
        assert_eq!(
            String::from_utf8_lossy(&j.out),
            String::from_utf8_lossy(&golden[..j.out.len().min(golden.len())]),
            "{}",
            case.name
        );
    }
}
