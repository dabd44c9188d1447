//! The `serde` feature (docs/rust.md, Serde): `fbec --rust --rust-serde`'s types and the runtime's
//! value types through serde_json and back, equal to what went in: trade.fbe's Account, the
//! hostile-names corpus's value (schemas/tests/hostile_names.fbe, written by the reference codec
//! in $HOSTILE_VECTORS), serde_names/serde.fbe's types named like serde's own items, and
//! serde_names/cases.fbe's: a map of every key type, enums and flags holding values the schema
//! does not name, optional structs, nested collections, an imported package's types and arrays
//! longer than serde's own (through bincode too).

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
    assert!(text.contains(r#""side":7"#), "{text}");
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

use generated::names::market::{Instrument, Side};
use generated::names::serde_cases::{Key, Keys, Level, Mode, Tree, Values, Wide};

fn key(name: &str, level: Level, weight: f64) -> Key {
    Key {
        name: name.into(),
        level,
        weight,
    }
}

fn instrument(symbol: &str, digits: i32) -> Instrument {
    Instrument {
        symbol: symbol.into(),
        digits,
    }
}

/// Two entries of every key type, one an enum value or flag bits the schema does not name.
fn keys() -> Keys {
    let d = |text: &str| text.parse::<fbe::Decimal>().unwrap();
    let u = |text: &str| text.parse::<fbe::Uuid>().unwrap();
    Keys {
        bools: [(false, 1), (true, 2)].into(),
        octets: [(0, 1), (255, 2)].into(),
        chars: [(fbe::Char(b'a'), 1), (fbe::Char(0xFF), 2)].into(),
        wchars: [(0x444, 1), (0x10FFFF, 2)].into(),
        int8s: [(i8::MIN, 1), (i8::MAX, 2)].into(),
        uint8s: [(0, 1), (u8::MAX, 2)].into(),
        int16s: [(i16::MIN, 1), (-1, 2)].into(),
        uint16s: [(0, 1), (u16::MAX, 2)].into(),
        int32s: [(i32::MIN, 1), (i32::MAX, 2)].into(),
        uint32s: [(0, 1), (u32::MAX, 2)].into(),
        int64s: [(i64::MIN, 1), (i64::MAX, 2)].into(),
        uint64s: [(0, 1), (u64::MAX, 2)].into(),
        floats: fbe::Pairs(vec![(0.5, 1), (-1.25e-7, 2)]),
        doubles: fbe::Pairs(vec![(f64::MAX, 1), (-0.1, 2)]),
        decimals: [(d("-123.45"), 1), (d("79228162514264337593543950335"), 2)].into(),
        strings: [("".into(), 1), ("EURUSD".into(), 2)].into(),
        blobs: [(fbe::Bytes(vec![]), 1), (fbe::Bytes(vec![0, 1, 255]), 2)].into(),
        timestamps: [(fbe::Timestamp(0), 1), (fbe::Timestamp(u64::MAX), 2)].into(),
        uuids: [
            (fbe::Uuid::default(), 1),
            (u("123e4567-e89b-12d3-a456-426655440000"), 2),
        ]
        .into(),
        levels: [(Level::Low, 1), (Level::Unknown(7), 2)].into(),
        modes: [
            (Mode::READ | Mode::WRITE, 1),
            (Mode::from_bits_retain(0x80), 2),
        ]
        .into(),
        structs: fbe::Pairs(vec![
            (key("a", Level::High, 0.5), "x".into()),
            (key("a", Level::Unknown(-300), 0.5), "y".into()),
        ]),
        sides: [(Side::Sell, 1), (Side::Unknown(9), 2)].into(),
        instruments: fbe::Pairs(vec![(instrument("EURUSD", 5), 1), (instrument("", 0), 2)]),
        hashed_strings: [("a".into(), 1), ("b".into(), 2)].into(),
        hashed_blobs: [(fbe::Bytes(vec![0xFF]), 1), (fbe::Bytes(vec![]), 2)].into(),
        hashed_levels: [(Level::High, 1), (Level::Unknown(i16::MIN), 2)].into(),
        hashed_structs: fbe::Pairs(vec![(
            key("k", Level::Low, 1.0),
            key("v", Level::Unknown(2), -1.0),
        )]),
        hashed_doubles: fbe::Pairs(vec![(1.5, -1.5)]),
    }
}

/// Every field set, the enums and flags to values the schema does not name.
fn values() -> Values {
    Values {
        level: Level::Unknown(7),
        maybe_level: Some(Level::Unknown(-5)),
        level_list: vec![Level::Low, Level::Unknown(0), Level::High],
        level_set: [Level::Unknown(300), Level::Low].into(),
        mode: Mode::READ | Mode::from_bits_retain(0x8000),
        maybe_mode: Some(Mode::from_bits_retain(0x40)),
        mode_pair: [Mode::empty(), Mode::all()],
        amount: "-0.000000001".parse().unwrap(),
        maybe_amount: Some("1e3".parse().unwrap()),
        amounts: vec!["0".parse().unwrap(), "-1.5".parse().unwrap()],
        id: "123e4567-e89b-12d3-a456-426655440000".parse().unwrap(),
        maybe_id: Some(fbe::Uuid::default()),
        time: fbe::Timestamp(1_577_836_800_123_456_789),
        maybe_time: Some(fbe::Timestamp(u64::MAX)),
        blob: fbe::Bytes(vec![0, 1, 255]),
        maybe_blob: Some(fbe::Bytes(vec![])),
        blobs: vec![fbe::Bytes(b"fo".to_vec()), fbe::Bytes(vec![0xFB, 0xFF])],
        letter: b'x',
        letters: [fbe::Char(0x80), fbe::Char(b'a')].into(),
        wide: 0x10FFFF,
        single: f32::MIN_POSITIVE,
        doubles: vec![0.1, -0.0, f64::MAX],
        low: i64::MIN,
        high: u64::MAX,
    }
}

fn tree() -> Tree {
    let leaf = Tree {
        missing: Some(Box::new(key("", Level::Unknown(3), 0.0))),
        named: [("none".into(), None)].into(),
        ..Default::default()
    };
    Tree {
        key: Some(Box::new(key("root", Level::High, 2.5))),
        missing: None,
        values: Some(Box::new(values())),
        keys: keys(),
        slots: vec![None, Some(Box::new(key("slot", Level::Unknown(4), 1.0)))],
        named: [
            ("a".into(), Some(Box::new(key("a", Level::Low, 0.0)))),
            ("b".into(), None),
        ]
        .into(),
        children: vec![
            leaf.clone(),
            Tree {
                children: vec![leaf],
                side: Side::Unknown(200),
                ..Default::default()
            },
        ],
        instrument: instrument("EURUSD", 5),
        maybe_instrument: Some(Box::new(instrument("GBPUSD", 4))),
        side: Side::Buy,
    }
}

#[test]
fn every_key_type_round_trips_through_serde_json() {
    let keys = keys();
    let (text, back) = round_trip(&keys);
    assert_eq!(back, keys, "{text}");
    for (what, json) in [
        ("a bool key is its text", r#""bools":{"false":1,"true":2}"#),
        (
            "an integer key is its text",
            r#""uint64s":{"0":1,"18446744073709551615":2}"#,
        ),
        (
            "a char key its byte, in the order of C++'s signed char",
            r#""chars":{"255":2,"97":1}"#,
        ),
        (
            "a float key is a pair",
            r#""floats":[[0.5,1],[-1.25e-7,2]]"#,
        ),
        ("a decimal key its text", r#""decimals":{"-123.45":1,"#),
        ("a string key is text", r#""strings":{"":1,"EURUSD":2}"#),
        ("a bytes key is Base64", r#""blobs":{"":1,"AAH/":2}"#),
        (
            "a timestamp key its nanoseconds",
            r#""timestamps":{"0":1,"18446744073709551615":2}"#,
        ),
        (
            "a uuid key its text",
            r#""123e4567-e89b-12d3-a456-426655440000":2}"#,
        ),
        (
            "an enum key its name, an unnamed one its number",
            r#""levels":{"Low":1,"7":2}"#,
        ),
        (
            "a flags key its names, unnamed bits in hex",
            r#""modes":{"READ | WRITE":1,"0x80":2}"#,
        ),
        (
            "a struct key is a [key, value] pair",
            r#""structs":[[{"name":"a","level":"High","weight":0.5},"x"],[{"name":"a","level":-300,"#,
        ),
        ("an imported enum key", r#""sides":{"Sell":1,"9":2}"#),
        (
            "an imported struct key",
            r#""instruments":[[{"symbol":"EURUSD","digits":5},1],"#,
        ),
    ] {
        assert!(text.contains(json), "{what}: {json} in {text}");
    }
}

#[test]
fn enums_and_flags_keep_the_values_the_schema_does_not_name() {
    let values = values();
    let (text, back) = round_trip(&values);
    assert_eq!(back, values, "{text}");
    assert_eq!(back.level.to_wire(), 7);
    assert_eq!(back.level_set, values.level_set);
    for (what, json) in [
        (
            "an unnamed enum value is its number",
            r#""level":7,"maybe_level":-5,"#,
        ),
        ("a named one its name", r#""level_list":["Low",0,"High"]"#),
        ("in a set, in wire order", r#""level_set":["Low",300]"#),
        ("unnamed flag bits in hex", r#""mode":"READ | 0x8000""#),
        ("no bits", r#""mode_pair":["","READ | WRITE"]"#),
        (
            "a decimal is its text",
            r#""amount":"-0.000000001","maybe_amount":"1000""#,
        ),
        (
            "a uuid is its text",
            r#""id":"123e4567-e89b-12d3-a456-426655440000""#,
        ),
        (
            "a timestamp its nanoseconds",
            r#""time":1577836800123456789"#,
        ),
        (
            "bytes are Base64",
            r#""blob":"AAH/","maybe_blob":"","blobs":["Zm8=","+/8="]"#,
        ),
        ("a char its byte", r#""letter":120,"letters":[128,97]"#),
        (
            "the integers' extremes",
            r#""low":-9223372036854775808,"high":18446744073709551615"#,
        ),
    ] {
        assert!(text.contains(json), "{what}: {json} in {text}");
    }
    // either form of a value is read: a name, a number (a key's text too)
    let level = |json: &str| serde_json::from_str::<Level>(json).map_err(|e| e.to_string());
    assert_eq!(level(r#""High""#), Ok(Level::High));
    assert_eq!(level("1"), Ok(Level::High));
    assert_eq!(level(r#""-32768""#), Ok(Level::Unknown(i16::MIN)));
    for (json, error) in [
        (
            r#""high""#,
            "unknown variant `high`, expected `Low` or `High`",
        ),
        (r#""Unknown""#, "unknown variant `Unknown`"),
        (
            "32768",
            "invalid value: integer `32768`, expected a name of Level or an integer of type i16",
        ),
        (
            "1.5",
            "invalid type: floating point `1.5`, expected a name of Level or an integer of type i16",
        ),
    ] {
        let e = level(json).expect_err(json);
        assert!(e.contains(error), "{json}: {e}");
    }
    let map: std::collections::BTreeMap<Level, u8> =
        serde_json::from_str(r#"{"Low":1,"-2":2}"#).unwrap();
    assert_eq!(map, [(Level::Low, 1), (Level::Unknown(-2), 2)].into());
}

#[test]
fn optional_structs_nested_collections_and_imports_round_trip_through_serde_json() {
    let tree = tree();
    let (text, back) = round_trip(&tree);
    assert_eq!(back, tree, "{text}");
    assert!(text.contains(r#""missing":null,"#), "{text}");
    assert!(
        text.contains(r#""slots":[null,{"name":"slot","level":4,"weight":1.0}]"#),
        "{text}"
    );
    assert!(text.contains(r#""named":{"a":{"#), "{text}");
    assert!(
        text.contains(r#""maybe_instrument":{"symbol":"GBPUSD","digits":4}"#),
        "{text}"
    );
    assert!(text.contains(r#""side":200"#), "{text}");
    let (_, default) = round_trip(&Tree::default());
    assert_eq!(default, Tree::default());
    // what the binary models read is what serde_json keeps
    let bytes = tree.to_final().expect("to_final");
    let read = Tree::from_final(&bytes).expect("from_final");
    assert_eq!(round_trip(&read).1, tree);
}

#[test]
fn a_compact_format_keeps_the_wire_values() {
    let config = bincode::config::standard();
    let tree = tree();
    let bytes = bincode::serde::encode_to_vec(&tree, config).expect("encode");
    let (back, read): (Tree, usize) =
        bincode::serde::decode_from_slice(&bytes, config).expect("decode");
    assert_eq!((back, read), (tree, bytes.len()));
    // an enum is its wire integer (named or not), bytes are bytes
    let level = bincode::serde::encode_to_vec(Level::Unknown(-300), config).unwrap();
    let wire = bincode::serde::encode_to_vec(-300i16, config).unwrap();
    assert_eq!(level, wire);
    let named = bincode::serde::encode_to_vec(Level::High, config).unwrap();
    assert_eq!(named, bincode::serde::encode_to_vec(1i16, config).unwrap());
    let blob = bincode::serde::encode_to_vec(fbe::Bytes(vec![1, 2, 3]), config).unwrap();
    assert_eq!(blob, [3, 1, 2, 3]);
}

#[test]
fn arrays_longer_than_serde_s_own_round_trip() {
    let wide = Wide {
        numbers: std::array::from_fn(|i| i as i32 - 16),
        names: std::array::from_fn(|i| (i % 3 != 0).then(|| format!("n{i}").into())),
        keys: std::array::from_fn(|i| key(&i.to_string(), Level::Unknown(i as i16), 0.5)),
        levels: std::array::from_fn(|i| Level::from_wire(i as i16 - 1)),
        boxed: fbe::boxed_array(|i| i as f64 / 4.0),
    };
    let (text, back) = round_trip(&wide);
    assert_eq!(back, wide, "{text}");
    assert!(text.starts_with(r#"{"numbers":[-16,-15,"#), "{text}");
    assert!(
        text.contains(r#""names":[null,"n1","n2",null,"#),
        "its strings are text: {text}"
    );
    assert!(text.contains(r#""levels":["Low",0,"High",2,"#), "{text}");
    let config = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(&wide, config).expect("encode");
    let (back, _): (Wide, usize) =
        bincode::serde::decode_from_slice(&bytes, config).expect("decode");
    assert_eq!(back, wide);
    // an array of another length is refused
    for (numbers, error) in [
        ("[1]", "invalid length 1, expected an array of 33 elements"),
        (
            &format!("[{}0]", "0,".repeat(33)),
            "invalid length 34, expected an array of 33 elements",
        ),
    ] {
        let json = text.replacen(&text[11..text.find(']').unwrap() + 1], numbers, 1);
        let e = serde_json::from_str::<Wide>(&json).expect_err(numbers);
        assert!(e.to_string().contains(error), "{numbers}: {e}");
    }
}
