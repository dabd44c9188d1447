//! What the golden-vector tests share (vectors.rs over ../shared's vectors, names.rs over the
//! hostile-names corpus's value): a case's files, the round trip every case passes (both models
//! read, verified and written back byte for byte, JSON and text byte-identical), and the
//! manifest's cases.

use fbe::json::JsonStruct;
use fbe::text::Text;
use fbe::Limits;
use serde_json::Value as Json;
use std::path::Path;

pub struct Case {
    pub name: String,
    pub text: Vec<u8>,
    pub json: Option<Vec<u8>>,
    pub versioned: Vec<u8>,
    pub final_: Vec<u8>,
    pub unspecified: Vec<(usize, usize)>,
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

pub struct RoundTrip;

impl Visit for RoundTrip {
    fn visit<T: JsonStruct + PartialEq + std::fmt::Debug + Text>(
        &mut self,
        c: &Case,
    ) -> Result<(), String> {
        check::<T>(c)
    }
}

fn check<T: JsonStruct + PartialEq + std::fmt::Debug + Text>(c: &Case) -> Result<(), String> {
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
    let json = f.to_json().map_err(|e| format!("to_json: {e}"))?;
    // test_struct_hashex has no JSON: the original has no mapping for struct keys
    let file_json = c.json.as_deref().unwrap_or(&json);
    let from_json = T::from_json(file_json).map_err(|e| format!("from_json: {e}"))?;
    let json_across = from_json
        .to_final()
        .map_err(|e| format!("to_final of the JSON value: {e}"))?;
    if c.name != "test_struct_hash" && json != file_json {
        return Err(format!(
            "to_json wrote other bytes:\n ours: {}\n file: {}",
            String::from_utf8_lossy(&json),
            String::from_utf8_lossy(file_json)
        ));
    }
    if c.name != "test_struct_hash" && json_across != c.final_ {
        return Err("the JSON value's final bytes are not the final vector's".into());
    }
    let json_back = T::from_json(&json).map_err(|e| format!("from_json of ours: {e}"))?;
    if json_back.to_final().ok() != Some(final_written.clone()) && c.name != "test_struct_hash" {
        return Err("our JSON does not read back to the value".into());
    }
    if c.name == "test_struct_hash" {
        if json_back != f || from_json != f {
            return Err("the hash's JSON does not read back to the value".into());
        }
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
    if f.to_text() != c.text || v.to_text() != c.text {
        let ours = String::from_utf8_lossy(&f.to_text()).into_owned();
        return Err(format!(
            "the text form differs:\n ours: {ours}\n file: {}",
            String::from_utf8_lossy(&c.text)
        ));
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

/// What a test does with the generated type of a case.
pub trait Visit {
    fn visit<T: JsonStruct + PartialEq + std::fmt::Debug + Text>(
        &mut self,
        c: &Case,
    ) -> Result<(), String>;
}

/// Every case of `dir`/vectors/MANIFEST.json (the layout of ../shared's vectors): its package,
/// type and bytes.
pub fn cases(dir: &Path) -> Vec<(String, String, Case)> {
    let manifest: Json =
        serde_json::from_slice(&std::fs::read(dir.join("vectors/MANIFEST.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for case in manifest["cases"].as_array().unwrap() {
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
            text: read("txt"),
            json: std::fs::read(dir.join("vectors").join(format!("{name}.json"))).ok(),
            final_: read("final.bin"),
            unspecified,
            name,
        };
        out.push((
            case["package"].as_str().unwrap().to_owned(),
            case["type"].as_str().unwrap().to_owned(),
            c,
        ));
    }
    out
}
