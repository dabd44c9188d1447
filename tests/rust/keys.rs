//! Sets and maps whose keys Rust's `Ord` cannot order (here structs compared by their `[key]`
//! fields, `fbe::Set` and `fbe::Pairs`) hold each key once (docs/limits.md 4): the writers refuse
//! a value holding one twice and the readers, and verify, a buffer that does.

use fbe::{ErrorKind, Limits, Pairs, Set, Struct};
use generated::project::everything::{Counted, Everything};
use generated::project::market::Instrument;
use generated::rust_tests::keyed::{Book, Quote};

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

fn quote(symbol: &str, exchange: i32, price: f64) -> Quote {
    Quote {
        symbol_name_of_the_instrument: symbol.into(),
        exchange_identifier: exchange,
        price,
    }
}

#[test]
fn structs_keyed_by_two_fields_compare_both_and_floats_compare_by_value() {
    let mut book = Book {
        quotes: Set(vec![quote("EURUSD", 1, 1.5), quote("EURUSD", 2, 1.5)]),
        last: Pairs(vec![(quote("A", 1, 0.0), 1.0), (quote("A", 2, 0.0), 2.0)]),
        levels: Set(vec![0.5, -0.5]),
    };
    let bytes = book.to_fbe().unwrap();
    assert_eq!(Book::from_fbe(&bytes).unwrap(), book);
    book.quotes.push(quote("EURUSD", 1, 9.0)); // the first key again, another price
    let e = book.to_final().unwrap_err();
    assert_eq!(
        e.to_string(),
        "two elements are the same, [0] and [2] (keyed.Book.quotes)"
    );
    book.quotes.pop();
    book.levels.push(0.5);
    assert_eq!(
        book.to_fbe().unwrap_err().to_string(),
        "two elements are the same, [0] and [2] (keyed.Book.levels)"
    );
    book.levels = Set(vec![0.0, -0.0]);
    assert_eq!(book.to_fbe().unwrap_err().kind(), ErrorKind::Duplicate);
}
