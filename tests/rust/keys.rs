//! Sets and maps whose keys Rust's `Ord` cannot order (here structs compared by their `[key]`
//! fields, `fbe::Set` and `fbe::Pairs`) hold each key once (docs/limits.md 4): the writers refuse
//! a value holding one twice and the readers, and verify, a buffer that does.

use fbe::{ErrorKind, Limits, Pairs, Set, Struct};
use generated::project::everything::{Counted, Everything};
use generated::project::market::Instrument;

fn instrument(symbol: &str, digits: i32) -> Instrument {
    Instrument {
        symbol: symbol.into(),
        digits,
    }
}

/// `bytes` with the first `from` replaced by `to` (of the same length).
fn patched(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("the text in the buffer");
    let mut out = bytes.to_vec();
    out[at..at + to.len()].copy_from_slice(to);
    out
}

#[test]
fn writers_refuse_a_set_or_map_holding_a_key_twice() {
    let mut v = Everything {
        f42: Set(vec![instrument("EURUSD", 5), instrument("EURUSD", 3)]),
        ..Default::default()
    };
    for e in [v.to_fbe().unwrap_err(), v.to_final().unwrap_err()] {
        assert_eq!(e.kind(), ErrorKind::Duplicate);
        assert_eq!(
            e.to_string(),
            "two elements are the same, [0] and [1] (everything.Everything.f42)"
        );
    }
    v.f42 = Set(vec![instrument("EURUSD", 5), instrument("GBPUSD", 5)]);
    v.f46 = Pairs(vec![
        (instrument("B", 1), Counted::default()),
        (instrument("B", 2), Counted::default()),
    ]);
    let e = v.to_fbe().unwrap_err();
    assert_eq!(
        e.to_string(),
        "two entries have the same key, [0] and [1] (everything.Everything.f46)"
    );
    v.f46.0[1].0.symbol = "A".into();
    assert!(v.to_fbe().is_ok() && v.to_final().is_ok());
}

#[test]
fn readers_and_verify_refuse_a_set_holding_a_key_twice() {
    let v = Everything {
        f42: Set(vec![instrument("EURUSD", 5), instrument("GBPUSD", 5)]),
        ..Default::default()
    };
    let lim = Limits::default();
    let versioned = patched(&v.to_fbe().unwrap(), b"GBPUSD", b"EURUSD");
    let e = Everything::from_fbe(&versioned).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Duplicate);
    assert!(e.to_string().starts_with("duplicate key: two entries read as the same key (everything.Everything.f42[1], offset "), "{e}");
    assert_eq!(
        Everything::verify_fbe(&versioned, &lim)
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
    let final_ = patched(&v.to_final().unwrap(), b"GBPUSD", b"EURUSD");
    let e = Everything::from_final(&final_).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "duplicate key: two entries read as the same key (everything.Everything.f42[1]"
        ),
        "{e}"
    );
    assert_eq!(
        Everything::verify_final(&final_, &lim)
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
    let read = Everything::from_fbe(&v.to_fbe().unwrap()).unwrap();
    assert_eq!(read.f42, v.f42);
}
