//! The `serde` feature (docs/rust.md, Serde): `fbec --rust --rust-serde`'s types and the runtime's
//! value types through serde_json and back, equal to what went in.

use generated::trade::proto::{Account, Balance, Order, OrderSide, OrderType, State};

fn round_trip<T>(value: &T) -> (String, T)
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let text = serde_json::to_string(value).expect("serialize");
    let back = serde_json::from_str(&text).unwrap_or_else(|e| panic!("deserialize {text}: {e}"));
    (text, back)
}

fn account() -> Account {
    let order = |id, symbol: &str, side, type_, price, volume| Order {
        id,
        symbol: symbol.into(),
        side,
        type_,
        price,
        volume,
    };
    Account {
        id: 1,
        name: "Test".into(),
        state: State::GOOD | State::from_bits_retain(0x80),
        wallet: Balance {
            currency: "USD".into(),
            amount: 1000.0,
        },
        asset: Some(Box::new(Balance {
            currency: "EUR".into(),
            amount: 100.5,
        })),
        orders: vec![
            order(
                1,
                "EURUSD",
                OrderSide::Buy,
                OrderType::Market,
                1.23456,
                1000.0,
            ),
            order(2, "EURUSD", OrderSide::Sell, OrderType::Limit, 1.0, 100.0),
            order(
                3,
                "EURUSD",
                OrderSide::Unknown(7),
                OrderType::Stop,
                1.5,
                10.0,
            ),
        ],
    }
}

#[test]
fn an_account_round_trips_through_serde_json() {
    let account = account();
    let (text, back) = round_trip(&account);
    assert_eq!(back, account, "{text}");
    assert_eq!(
        back.orders[2].side.to_wire(),
        7,
        "the unknown enum value is kept"
    );
    assert_eq!(back.state.bits(), 0x86, "the unnamed flag bit is kept");
    assert!(
        text.contains(r#""state":"INITIALIZED | CALCULATED | 0x80""#),
        "{text}"
    );
    assert!(text.contains(r#""side":{"Unknown":7}"#), "{text}");
    let (_, default) = round_trip(&Account::default());
    assert_eq!(default, Account::default());
}

#[test]
fn the_value_types_round_trip_through_serde_json() {
    let d: fbe::Decimal = "-79228162514264337593543950335".parse().unwrap();
    let (text, back) = round_trip(&d);
    assert_eq!(
        (text.as_str(), back),
        ("\"-79228162514264337593543950335\"", d)
    );
    assert!(serde_json::from_str::<fbe::Decimal>("\"1e-29\"").is_err());
    assert!(
        serde_json::from_str::<fbe::Decimal>("1.5").is_err(),
        "a decimal is text, not a float"
    );
    let t = fbe::Timestamp(1_577_836_800_123_456_789);
    assert_eq!(round_trip(&t), ("1577836800123456789".to_string(), t));
    let u: fbe::Uuid = "123e4567-e89b-12d3-a456-426655440000".parse().unwrap();
    assert_eq!(
        round_trip(&u),
        ("\"123e4567-e89b-12d3-a456-426655440000\"".to_string(), u)
    );
    let b = fbe::Bytes(vec![0, 1, 255]);
    assert_eq!(round_trip(&b).1, b);
    let c = fbe::Char(b'x');
    assert_eq!(round_trip(&c).1, c);
    let s = fbe::Set(vec![1.5, 0.5]);
    assert_eq!(round_trip(&s).1, s);
    let p = fbe::Pairs(vec![(2.5, "a".to_string())]);
    assert_eq!(round_trip(&p).1, p);
}
