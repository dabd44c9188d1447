//! The generated code of ../shared's schemas against the original's golden vectors
//! ($SHARED/vectors, tests/rust/test_rust_generated.py copies this file only when they are
//! there): every case's versioned and final root is read (deserialize and verify), written back
//! byte for byte (the unspecified bytes of absent optionals masked; a hash keyed by strings, whose
//! order is its own, compared by what it reads back), and each model's value gives the other
//! model's bytes. JSON: each value is written as the case's `.json` byte for byte, and the
//! `.json` reads back to the value (the same final bytes).

mod common;

use common::{cases, Case, RoundTrip, Visit};
use fbe::json::JsonStruct;
use fbe::text::Text;
use fbe::Limits;
use generated::shared::{enums, proto, protoex, test};
use std::path::PathBuf;

fn dispatch(package: &str, type_: &str, c: &Case, v: &mut impl Visit) -> Result<(), String> {
    match (package, type_) {
        ("proto", "Order") => v.visit::<proto::Order>(c),
        ("proto", "Balance") => v.visit::<proto::Balance>(c),
        ("proto", "Account") => v.visit::<proto::Account>(c),
        ("proto", "AccountMessage") => v.visit::<proto::AccountMessage>(c),
        ("protoex", "Order") => v.visit::<protoex::Order>(c),
        ("protoex", "Balance") => v.visit::<protoex::Balance>(c),
        ("protoex", "Account") => v.visit::<protoex::Account>(c),
        ("enums", "Enums") => v.visit::<enums::Enums>(c),
        ("test", "StructSimple") => v.visit::<test::StructSimple>(c),
        ("test", "StructOptional") => v.visit::<test::StructOptional>(c),
        ("test", "StructNested") => v.visit::<test::StructNested>(c),
        ("test", "StructBytes") => v.visit::<test::StructBytes>(c),
        ("test", "StructArray") => v.visit::<test::StructArray>(c),
        ("test", "StructVector") => v.visit::<test::StructVector>(c),
        ("test", "StructList") => v.visit::<test::StructList>(c),
        ("test", "StructSet") => v.visit::<test::StructSet>(c),
        ("test", "StructMap") => v.visit::<test::StructMap>(c),
        ("test", "StructHash") => v.visit::<test::StructHash>(c),
        ("test", "StructHashEx") => v.visit::<test::StructHashEx>(c),
        ("test", "StructEmpty") => v.visit::<test::StructEmpty>(c),
        _ => Err(format!(
            "no generated type for {package}.{type_} in this test"
        )),
    }
}

/// $SHARED: the folder of the original's golden vectors.
fn shared() -> PathBuf {
    PathBuf::from(std::env::var_os("SHARED").expect("SHARED: the folder of the golden vectors"))
}

#[test]
fn every_golden_vector_reads_and_writes_back_byte_for_byte() {
    let cases = cases(&shared());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(package, type_, c)| {
            dispatch(package, type_, c, &mut RoundTrip)
                .err()
                .map(|e| format!("{}: {e}", c.name))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A seeded mutation loop over every vector (docs/limits.md: no reader panics, whatever the
/// bytes): bit flips, bytes and 32-bit fields set to boundary values, truncations. Each mutant
/// is read in its model and verified (the same verdict and error), and a value read is written
/// and read back.
struct Mutate {
    state: u64,
    rounds: usize,
}

impl Mutate {
    fn next(&mut self) -> u64 {
        // xorshift64*: a fixed seed gives the same mutants on every run
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn mutant(&mut self, data: &[u8]) -> Vec<u8> {
        let mut m = data.to_vec();
        for _ in 0..1 + self.below(3) {
            let at = self.below(m.len());
            match self.below(5) {
                0 => m[at] ^= 1 << self.below(8),
                1 => m[at] = [0, 1, 0x7F, 0x80, 0xFF][self.below(5)],
                2 if at + 4 <= m.len() => {
                    let v = [0, 1, 8, 0x7FFF_FFFF, 0xFFFF_FFFF, m.len() as u32, at as u32]
                        [self.below(7)];
                    m[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
                3 => m.truncate(at),
                _ => m[at] = self.next() as u8,
            }
            if m.is_empty() {
                break;
            }
        }
        m
    }
}

fn same_verdict<T: std::fmt::Debug>(
    read: &Result<T, fbe::DecodeError>,
    verify: &Result<(), fbe::DecodeError>,
) -> bool {
    match (read, verify) {
        (Ok(_), Ok(())) => true,
        (Err(a), Err(b)) => a.to_string() == b.to_string(),
        _ => false,
    }
}

impl Visit for Mutate {
    fn visit<T: JsonStruct + PartialEq + std::fmt::Debug + Text>(
        &mut self,
        c: &Case,
    ) -> Result<(), String> {
        let lim = Limits::default();
        for round in 0..self.rounds {
            let m = self.mutant(&c.versioned);
            let read = std::panic::catch_unwind(|| T::from_fbe(&m))
                .map_err(|_| format!("from_fbe panicked on mutant {round}: {m:?}"))?;
            if !same_verdict(&read, &T::verify_fbe(&m, &lim)) {
                return Err(format!("verify_fbe is not from_fbe on mutant {round}"));
            }
            if let Ok(v) = read {
                let back = v
                    .to_fbe()
                    .map_err(|e| format!("to_fbe of mutant {round}'s value: {e}"))?;
                T::from_fbe(&back)
                    .map_err(|e| format!("what we wrote of mutant {round} does not read: {e}"))?;
            }
            let m = self.mutant(c.json.as_deref().unwrap_or(&c.final_));
            let read = std::panic::catch_unwind(|| T::from_json(&m))
                .map_err(|_| format!("from_json panicked on mutant {round}: {m:?}"))?;
            if let Ok(v) = read {
                let back = v
                    .to_json()
                    .map_err(|e| format!("to_json of mutant {round}'s value: {e}"))?;
                T::from_json(&back).map_err(|e| {
                    format!("what we wrote of JSON mutant {round} does not read: {e}")
                })?;
            }
            let m = self.mutant(&c.final_);
            let read = std::panic::catch_unwind(|| T::from_final(&m))
                .map_err(|_| format!("from_final panicked on mutant {round}: {m:?}"))?;
            if !same_verdict(&read, &T::verify_final(&m, &lim)) {
                return Err(format!("verify_final is not from_final on mutant {round}"));
            }
            if let Ok(v) = read {
                let back = v
                    .to_final()
                    .map_err(|e| format!("to_final of mutant {round}'s value: {e}"))?;
                T::from_final(&back).map_err(|e| {
                    format!("what we wrote of final mutant {round} does not read: {e}")
                })?;
            }
        }
        Ok(())
    }
}

#[test]
fn no_mutant_of_a_vector_makes_a_reader_panic() {
    let mut mutate = Mutate {
        state: 0x5EED_F00D_CAFE_F00D,
        rounds: 300,
    };
    let failures: Vec<String> = cases(&shared())
        .iter()
        .filter_map(|(package, type_, c)| {
            dispatch(package, type_, c, &mut mutate)
                .err()
                .map(|e| format!("{}: {e}", c.name))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
