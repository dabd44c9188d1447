//! The generated code of ../shared's schemas against the original's golden vectors
//! ($SHARED/vectors, tests/rust/test_rust_generated.py copies this file only when they are
//! there): every case's versioned and final root is read (deserialize and verify), written back
//! byte for byte (the unspecified bytes of absent optionals masked; a hash keyed by strings, whose
//! order is its own, compared by what it reads back), and each model's value gives the other
//! model's bytes.

use fbe::{Limits, Struct};
use generated::shared::{enums, proto, protoex, test};
use serde_json::Value as Json;
use std::path::PathBuf;

struct Case {
    name: String,
    versioned: Vec<u8>,
    final_: Vec<u8>,
    unspecified: Vec<(usize, usize)>,
}

fn masked(bytes: &[u8], unspecified: &[(usize, usize)]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    for &(at, n) in unspecified {
        if at + n <= b.len() {
            b[at..at + n].fill(0);
        }
    }
    b
}

fn check<T: Struct + PartialEq + std::fmt::Debug>(c: &Case) -> Result<(), String> {
    let lim = Limits::default();
    let v = T::from_fbe(&c.versioned).map_err(|e| format!("from_fbe: {e}"))?;
    T::verify_fbe(&c.versioned, &lim).map_err(|e| format!("verify_fbe: {e}"))?;
    let f = T::from_final(&c.final_).map_err(|e| format!("from_final: {e}"))?;
    T::verify_final(&c.final_, &lim).map_err(|e| format!("verify_final: {e}"))?;
    let written = v.to_fbe().map_err(|e| format!("to_fbe: {e}"))?;
    let final_written = f.to_final().map_err(|e| format!("to_final: {e}"))?;
    let across = v
        .to_final()
        .map_err(|e| format!("to_final of the versioned value: {e}"))?;
    if c.name == "test_struct_hash" {
        // a HashMap's order is its own (docs/format.md 10.3): the bytes read back to the value
        let back = T::from_fbe(&written).map_err(|e| format!("from_fbe of what we wrote: {e}"))?;
        let final_back =
            T::from_final(&final_written).map_err(|e| format!("from_final of ours: {e}"))?;
        if back != v
            || final_back != f
            || written.len() != c.versioned.len()
            || across.len() != c.final_.len()
        {
            return Err("the hash does not read back to the value".into());
        }
        return Ok(());
    }
    if masked(&written, &c.unspecified) != masked(&c.versioned, &c.unspecified) {
        return Err(format!(
            "to_fbe wrote other bytes ({} for {})",
            written.len(),
            c.versioned.len()
        ));
    }
    if final_written != c.final_ {
        return Err(format!(
            "to_final wrote other bytes ({} for {})",
            final_written.len(),
            c.final_.len()
        ));
    }
    if across != c.final_ {
        return Err("the versioned value's final bytes are not the final vector's".into());
    }
    Ok(())
}

fn dispatch(package: &str, type_: &str, c: &Case) -> Result<(), String> {
    match (package, type_) {
        ("proto", "Order") => check::<proto::Order>(c),
        ("proto", "Balance") => check::<proto::Balance>(c),
        ("proto", "Account") => check::<proto::Account>(c),
        ("proto", "AccountMessage") => check::<proto::AccountMessage>(c),
        ("protoex", "Order") => check::<protoex::Order>(c),
        ("protoex", "Balance") => check::<protoex::Balance>(c),
        ("protoex", "Account") => check::<protoex::Account>(c),
        ("enums", "Enums") => check::<enums::Enums>(c),
        ("test", "StructSimple") => check::<test::StructSimple>(c),
        ("test", "StructOptional") => check::<test::StructOptional>(c),
        ("test", "StructNested") => check::<test::StructNested>(c),
        ("test", "StructBytes") => check::<test::StructBytes>(c),
        ("test", "StructArray") => check::<test::StructArray>(c),
        ("test", "StructVector") => check::<test::StructVector>(c),
        ("test", "StructList") => check::<test::StructList>(c),
        ("test", "StructSet") => check::<test::StructSet>(c),
        ("test", "StructMap") => check::<test::StructMap>(c),
        ("test", "StructHash") => check::<test::StructHash>(c),
        ("test", "StructHashEx") => check::<test::StructHashEx>(c),
        ("test", "StructEmpty") => check::<test::StructEmpty>(c),
        _ => Err(format!(
            "no generated type for {package}.{type_} in this test"
        )),
    }
}

#[test]
fn every_golden_vector_reads_and_writes_back_byte_for_byte() {
    let dir = PathBuf::from(
        std::env::var_os("SHARED").expect("SHARED: the folder of the golden vectors"),
    );
    let manifest: Json =
        serde_json::from_slice(&std::fs::read(dir.join("vectors/MANIFEST.json")).unwrap()).unwrap();
    let mut failures = Vec::new();
    let cases = manifest["cases"].as_array().unwrap();
    for case in cases {
        let name = case["name"].as_str().unwrap().to_owned();
        let read =
            |ext: &str| std::fs::read(dir.join("vectors").join(format!("{name}.{ext}"))).unwrap();
        let unspecified = case["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["unspecified_bytes"].as_array())
            .flatten()
            .map(|r| {
                (
                    r[0].as_u64().unwrap() as usize,
                    r[1].as_u64().unwrap() as usize,
                )
            })
            .collect();
        let c = Case {
            versioned: read("fbe.bin"),
            final_: read("final.bin"),
            unspecified,
            name,
        };
        let (package, type_) = (
            case["package"].as_str().unwrap(),
            case["type"].as_str().unwrap(),
        );
        if let Err(e) = dispatch(package, type_, &c) {
            failures.push(format!("{}: {e}", c.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
