//! The corpus of hostile names (schemas/tests/hostile_names.fbe: every target language's keywords,
//! the runtimes' own names, fields named like their types) through the generated code: its value,
//! written by the reference codec as golden vectors (tests/names/hostile.py, in $HOSTILE_VECTORS),
//! reads and writes back byte for byte in both models, and its JSON and text are the reference's.

mod common;

use common::{cases, Case, RoundTrip, Visit};
use generated::project::import;
use std::path::PathBuf;

#[test]
fn the_hostile_names_value_reads_and_writes_back_byte_for_byte() {
    let dir = PathBuf::from(
        std::env::var_os("HOSTILE_VECTORS").expect("HOSTILE_VECTORS: the corpus's vectors"),
    );
    let cases: Vec<(String, String, Case)> = cases(&dir);
    assert_eq!(cases.len(), 1, "one case: the corpus's root");
    for (package, type_, case) in &cases {
        assert_eq!((package.as_str(), type_.as_str()), ("import", "Hostile"));
        if let Err(e) = RoundTrip.visit::<import::Hostile>(case) {
            panic!("{}: {e}", case.name);
        }
    }
}
