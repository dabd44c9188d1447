//! The `serde` feature (docs/rust.md, Serde): `fbec --rust --rust-serde`'s types and the runtime's
//! value types through serde_json and back, equal to what went in: trade.fbe's Account, the
//! hostile-names corpus's value (schemas/tests/hostile_names.fbe, written by the reference codec
//! in $HOSTILE_VECTORS) and serde_names/serde.fbe's types named like serde's own items.

use fbe::Struct;
use generated::names::import::Hostile;
use generated::names::serde as names;
use generated::trade::proto::{Account, Balance, Order, OrderSide, OrderType, State};
use std::path::PathBuf;

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
    assert!(
        text.contains(r#""name":"Test""#),
        "a string is text: {text}"
    );
    assert!(
        text.contains(r#""type_":"Market""#),
        "serde's names are the Rust names: {text}"
    );
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

#[test]
fn the_hostile_names_value_round_trips_through_serde_json() {
    let dir = PathBuf::from(
        std::env::var_os("HOSTILE_VECTORS").expect("HOSTILE_VECTORS: the corpus's vectors"),
    );
    let bytes = std::fs::read(dir.join("vectors").join("hostile_names.final.bin"))
        .expect("the corpus's final vector");
    let value = Hostile::from_final(&bytes).expect("from_final");
    assert_ne!(
        value,
        Hostile::default(),
        "the corpus's value sets its fields"
    );
    let (text, back) = round_trip(&value);
    assert!(back == value, "the value read back differs: {text}");
    // serde's names are the Rust names: `break_` for the schema's `break`, never `r#break`
    assert!(text.contains(r#""cpp_words":{"alignas":"#), "{text}");
    assert!(text.contains(r#""break_":"#), "{text}");
    assert!(!text.contains("r#"), "{text}");
}

#[test]
fn serde_names_of_its_own_round_trip_through_serde_json() {
    let serialize = names::Serialize {
        serde: -1,
        deserialize: names::Deserialize::Ok,
        serializer: names::Serializer::SERDE | names::Serializer::NONE,
        option: Some("None".into()),
        result: std::array::from_fn(|i| i as i32 - 16),
    };
    let ok = names::Ok_ {
        serialize: serialize.clone(),
        box_: fbe::Bytes(vec![0, 255]),
        some: Some(names::Deserialize::None),
        err: 7,
        vec: vec![serialize.clone(), names::Serialize::default()],
        deserializer: [(
            "Err".into(),
            names::Result_ {
                serialize,
                box_: fbe::Bytes(vec![]),
                some: None,
            },
        )]
        .into_iter()
        .collect(),
    };
    let (text, back) = round_trip(&ok);
    assert_eq!(back, ok, "{text}");
    assert!(text.contains(r#""deserialize":"Ok""#), "{text}");
    assert!(text.contains(r#""serializer":"SERDE | NONE""#), "{text}");
    assert!(text.contains(r#""some":"None""#), "{text}");
    assert!(text.contains(r#""deserializer":{"Err":{"#), "{text}");
    assert!(text.contains(r#""option":"None""#), "{text}");
    let bytes = names::Serialize {
        option: Some(fbe::BString::from(vec![b'a', 0xFF])),
        ..Default::default()
    };
    let (text, back) = round_trip(&bytes);
    assert_eq!(back, bytes, "{text}");
    assert!(
        text.contains(r#""option":[97,255]"#),
        "a string that is not UTF-8 stays bytes: {text}"
    );
}
