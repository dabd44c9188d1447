//! Reading into a value (`read_fbe`, `read_final`): the value read is the one `from_fbe` and
//! `from_final` make, whatever the value held before (more or fewer elements, an optional present
//! or absent, longer or shorter strings, fields an older writer's shorter body lacks), the errors
//! are theirs, and a value of the same shape is read without allocating. A reused `Writer`
//! writes the bytes a new one writes, whatever root it wrote before.

use fbe::Struct;
use generated::project::everything::Everything;
use generated::trade::proto::{Account, Balance, Order, OrderSide, OrderType, State};

fn order(id: i32, symbol: &str) -> Order {
    Order {
        id,
        symbol: symbol.into(),
        side: OrderSide::Sell,
        type_: OrderType::Stop,
        price: 1.5,
        volume: f64::from(id),
    }
}

/// A large account: long strings, an asset, five orders.
fn large() -> Account {
    Account {
        id: 7,
        name: "a long name of an account".into(),
        state: State::BROKEN,
        wallet: Balance {
            currency: "a long currency".into(),
            amount: 2.5,
        },
        asset: Some(Box::new(Balance {
            currency: "CHF".into(),
            amount: 3.0,
        })),
        orders: (1..=5).map(|i| order(i, "USDJPY and more")).collect(),
    }
}

/// A small account: short strings, no asset, two orders.
fn small() -> Account {
    Account {
        id: 2,
        name: "B".into(),
        state: State::GOOD,
        wallet: Balance {
            currency: "EUR".into(),
            amount: 1.0,
        },
        asset: None,
        orders: vec![order(1, "X"), order(2, "")],
    }
}

#[test]
fn a_value_read_into_any_value_is_the_value_read_anew() {
    for want in [large(), small(), Account::default()] {
        let versioned = want.to_fbe().unwrap();
        let final_ = want.to_final().unwrap();
        for held in [large(), small(), Account::default()] {
            let mut v = held.clone();
            v.read_fbe(&versioned).unwrap();
            assert_eq!(v, want, "versioned, read into {held:?}");
            let mut f = held.clone();
            f.read_final(&final_).unwrap();
            assert_eq!(f, want, "final, read into {held:?}");
        }
    }
}

#[test]
fn a_reused_writer_writes_the_bytes_a_new_one_writes() {
    // the writers store over an earlier root's bytes without zeroing them first: none of them
    // may be left in the next root (an absent asset after a present one, shorter strings)
    for earlier in [large(), small(), Account::default()] {
        for want in [large(), small(), Account::default()] {
            let mut w = fbe::Writer::new();
            earlier.write_fbe(&mut w).unwrap();
            let versioned = want.write_fbe(&mut w).unwrap().to_vec();
            assert_eq!(
                versioned,
                want.to_fbe().unwrap(),
                "versioned after {earlier:?}"
            );
            earlier.write_final(&mut w).unwrap();
            let final_ = want.write_final(&mut w).unwrap().to_vec();
            assert_eq!(final_, want.to_final().unwrap(), "final after {earlier:?}");
        }
    }
}

#[test]
fn an_absent_optional_element_is_written_over_a_present_one() {
    // a collection's slots are not zeroed before its elements are written: an absent optional
    // stores its own zeros (a struct body is zeroed as it is allocated)
    let present = Everything {
        f39: vec![Some(Box::default()), Some(Box::default())],
        ..Everything::default()
    };
    let absent = Everything {
        f39: vec![None, None],
        ..Everything::default()
    };
    let mut w = fbe::Writer::new();
    present.write_fbe(&mut w).unwrap();
    let versioned = absent.write_fbe(&mut w).unwrap().to_vec();
    assert_eq!(versioned, absent.to_fbe().unwrap());
}

#[test]
fn a_value_of_the_same_shape_is_read_in_its_own_buffers() {
    let want = large();
    let bytes = [want.to_fbe().unwrap(), want.to_final().unwrap()];
    for (model, data) in bytes.iter().enumerate() {
        let mut v = large();
        v.orders
            .iter_mut()
            .for_each(|o| o.symbol = "123456789012345".into());
        let name = v.name.as_ptr();
        let orders = v.orders.as_ptr();
        let symbol = v.orders[4].symbol.as_ptr();
        let asset = v.asset.as_ref().unwrap().currency.as_ptr();
        let boxed: *const Balance = &**v.asset.as_ref().unwrap();
        if model == 0 {
            v.read_fbe(data).unwrap();
        } else {
            v.read_final(data).unwrap();
        }
        assert_eq!(v, want);
        assert_eq!(v.name.as_ptr(), name, "model {model}: the name's buffer");
        assert_eq!(
            v.orders.as_ptr(),
            orders,
            "model {model}: the orders' buffer"
        );
        assert_eq!(
            v.orders[4].symbol.as_ptr(),
            symbol,
            "model {model}: a symbol's buffer"
        );
        let held: *const Balance = &**v.asset.as_ref().unwrap();
        assert_eq!(held, boxed, "model {model}: the asset's box");
        assert_eq!(
            v.asset.unwrap().currency.as_ptr(),
            asset,
            "model {model}: the asset's buffer"
        );
    }
}

#[test]
fn fields_a_shorter_body_lacks_take_their_defaults() {
    // An older writer's Account: its body holds the id only (a body of 12 bytes), so every other
    // field is its default (state = initialized | bad), whatever the value held.
    let mut data = large().to_fbe().unwrap();
    let body = u32::from_le_bytes(data[4..8].try_into().unwrap()) as usize;
    data[body..body + 4].copy_from_slice(&12u32.to_le_bytes());
    let want = Account {
        id: 7,
        ..Account::default()
    };
    assert_eq!(want.state, State::INITIALIZED | State::BAD);
    assert_eq!(Account::from_fbe(&data).unwrap(), want);
    let mut v = large();
    v.read_fbe(&data).unwrap();
    assert_eq!(v, want);
}

#[test]
fn reading_into_a_value_fails_as_reading_anew() {
    let versioned = large().to_fbe().unwrap();
    let final_ = large().to_final().unwrap();
    for cut in 0..versioned.len() {
        let mut data = versioned[..cut].to_vec();
        if cut >= 4 {
            data[..4].copy_from_slice(&(cut as u32).to_le_bytes()); // the root's size says what is there
        }
        let mut v = small();
        let got = v.read_fbe(&data).map_err(|e| e.to_string());
        let want = Account::from_fbe(&data)
            .map(drop)
            .map_err(|e| e.to_string());
        assert_eq!(got, want, "versioned cut at {cut}");
    }
    for cut in 0..final_.len() {
        let mut data = final_[..cut].to_vec();
        if cut >= 4 {
            data[..4].copy_from_slice(&(cut as u32).to_le_bytes()); // the root's size says what is there
        }
        let mut v = small();
        let got = v.read_final(&data).map_err(|e| e.to_string());
        let want = Account::from_final(&data)
            .map(drop)
            .map_err(|e| e.to_string());
        assert_eq!(got, want, "final cut at {cut}");
    }
}

#[test]
fn a_short_string_is_read_over_one_of_its_length_at_every_length() {
    // a string of at most 16 bytes read over one of its length is one 16-byte move from the root
    // when the value's buffer has room for 16 (a short string read into a value that does not
    // hold one of its length gets that room) and the root holds 16 bytes from the string's
    // first; else it is copied in parts. A symbol has 18 bytes after it; a `Balance` root ends
    // 8 bytes after its currency.
    let text: String = ('a'..='z').collect();
    for n in 0..=16 {
        let (first, second) = (&text[..n], &text[26 - n..]);
        let mut read = Account::default();
        for symbol in [first, second, first] {
            let want = Account {
                orders: vec![order(1, symbol), order(2, symbol)],
                ..small()
            };
            read.read_final(&want.to_final().unwrap()).unwrap();
            assert_eq!(read, want, "a symbol of {n} bytes");
            if n > 0 {
                assert!(read.orders[0].symbol.capacity() >= 16, "{n} bytes");
            }
        }
        let mut balance = Balance::default();
        for currency in [first, second, first] {
            let want = Balance {
                currency: currency.into(),
                amount: 4.0,
            };
            balance.read_final(&want.to_final().unwrap()).unwrap();
            assert_eq!(balance, want, "a currency of {n} bytes at the root's end");
        }
        let mut held = Balance {
            currency: second.into(), // of its length, with no room beyond it
            amount: 0.0,
        };
        held.currency.shrink_to_fit();
        let want = Balance {
            currency: first.into(),
            amount: 5.0,
        };
        held.read_final(&want.to_final().unwrap()).unwrap();
        assert_eq!(held, want, "into a currency of {n} bytes without room");
    }
}
