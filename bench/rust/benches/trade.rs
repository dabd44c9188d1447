//! The trade benchmark (docs/benchmarks.md, "Rust"): every row of `fbe_bench::rows` timed by
//! criterion in one run, `trade/<row>/<operation>`, after its check.
//!
//! Besides criterion's own arguments (`cargo bench --bench trade -- FILTER`):
//!
//! - `--check`: every row's check once, a `row` line per row (id, name, status, reason) and a
//!   `size` line per row that passed (id, the sample's message size in bytes);
//! - `--stable ROW/OP N`: the operation run N times and nothing else, for callgrind
//!   (bench/rust/report.py: (Ir(N) - Ir(1)) / (N - 1) is one operation's instructions); besides
//!   the timed operations, `read` is deserialize without the touch: bytes -> the reused domain
//!   object and nothing else, the C++ table's deserialize, which our rows are compared with.

use criterion::Criterion;
use fbe_bench::{aligned, check, rows, sample, touch, Account, Row};
use std::hint::black_box;

/// The row's message of the sample, on a 16-byte boundary.
fn message(row: &mut dyn Row) -> rkyv::util::AlignedVec<16> {
    aligned(row.serialize(&sample()).expect("the row serialized the sample in its check"))
}

fn serialize(row: &mut dyn Row, a: &Account) {
    black_box(row.serialize(black_box(a)).unwrap());
}

fn deserialize(row: &mut dyn Row, data: &[u8], into: &mut Account) {
    row.deserialize(black_box(data), into).unwrap();
    black_box(touch(into));
}

/// Deserialize as the C++ table measures it (docs/benchmarks.md, "Method"): bytes -> the reused
/// domain object, which is kept (`black_box`, as C++ `DoNotOptimize`), no field read.
fn read(row: &mut dyn Row, data: &[u8], into: &mut Account) {
    row.deserialize(black_box(data), into).unwrap();
    black_box(into);
}

fn verify(row: &mut dyn Row, data: &[u8]) {
    row.verify(black_box(data)).unwrap().unwrap();
}

/// `--check`: prints the row lines; false when a row failed.
fn check_all() -> bool {
    let (mut rows, missing) = rows();
    let mut ok = true;
    for row in &mut rows {
        match check(row.as_mut()) {
            Ok(()) => {
                println!("row\t{}\t{}\tok\t", row.id(), row.name());
                println!("size\t{}\t{}", row.id(), message(row.as_mut()).len());
            }
            Err(e) => {
                ok = false;
                println!("row\t{}\t{}\tfailed\t{e}", row.id(), row.name());
            }
        }
    }
    for m in missing {
        println!("row\t{}\t{}\tmissing\t{}", m.id, m.name, m.reason);
    }
    ok
}

/// `--stable ROW/OP N`.
fn stable(name: &str, n: u64) {
    let (mut rows, _) = rows();
    let (id, op) = name.split_once('/').expect("--stable ROW/OP N");
    let row = rows.iter_mut().find(|r| r.id() == id).unwrap_or_else(|| panic!("no row {id}")).as_mut();
    check(row).unwrap_or_else(|e| panic!("{id}: {e}"));
    let a = sample();
    let data = message(row);
    let mut into = Account::default();
    deserialize(row, &data, &mut into); // warm, as the timed loops are
    serialize(row, &a);
    match op {
        "serialize" => (0..n).for_each(|_| serialize(row, &a)),
        "deserialize" => (0..n).for_each(|_| deserialize(row, &data, &mut into)),
        "read" => (0..n).for_each(|_| read(row, &data, &mut into)),
        "verify" => (0..n).for_each(|_| verify(row, &data)),
        _ => panic!("no operation {op}"),
    }
}

fn bench(c: &mut Criterion) {
    let (mut rows, missing) = rows();
    let a = sample();
    for row in &mut rows {
        let row = row.as_mut();
        if let Err(e) = check(row) {
            println!("{}: not timed: {e}", row.id());
            continue;
        }
        let data = message(row);
        let id = row.id();
        c.bench_function(&format!("trade/{id}/serialize"), |b| b.iter(|| serialize(row, &a)));
        let mut into = Account::default();
        c.bench_function(&format!("trade/{id}/deserialize"), |b| b.iter(|| deserialize(row, &data, &mut into)));
        if row.verify(&data).is_some() {
            c.bench_function(&format!("trade/{id}/verify"), |b| b.iter(|| verify(row, &data)));
        }
    }
    for m in missing {
        println!("{}: not timed: {}", m.id, m.reason);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--check") {
        std::process::exit(if check_all() { 0 } else { 1 });
    }
    if let Some(i) = args.iter().position(|a| a == "--stable") {
        let n = args.get(i + 2).and_then(|n| n.parse().ok()).expect("--stable ROW/OP N");
        stable(&args[i + 1], n);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
