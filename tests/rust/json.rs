//! JSON through the generated code (docs/format.md 8, docs/limits.md 7): the rules every reader
//! keeps, with the verdicts of conformance/json_cases.py and the limits of docs/limits.md 1 and 3.

use fbe::json::JsonStruct;
use fbe::{ErrorKind, Limits};
use generated::project::hostile::Wides;
use generated::project::recursive::Node;
use generated::shared::{proto, test};

/// Reads `doc` as T and writes it back.
fn round<T: JsonStruct>(doc: &str) -> Result<String, fbe::DecodeError> {
    let v = T::from_json(doc.as_bytes())?;
    Ok(String::from_utf8(v.to_json().unwrap()).unwrap())
}

fn accepted<T: JsonStruct>(doc: &str, pieces: &[&str]) {
    let out = round::<T>(doc).unwrap_or_else(|e| panic!("{doc}: refused: {e}"));
    for p in pieces {
        assert!(out.contains(p), "{doc}: {p} not in {out}");
    }
}

fn refused<T: JsonStruct>(doc: &str) -> fbe::DecodeError {
    match round::<T>(doc) {
        Ok(out) => panic!("{doc}: read, written as {out}"),
        Err(e) => e,
    }
}

#[test]
fn lone_surrogates_are_refused_wherever_they_are() {
    for doc in [
        r#"{"id":1,"zzz":"\ud800"}"#,
        r#"{"id":1,"zzz":"\udc41"}"#,
        r#"{"id":1,"zzz":[1,"\udfff"]}"#,
        r#"{"id":1,"\ud800":1}"#,
        r#"{"id":1,"zzz":{"\udc41":1}}"#,
        r#"{"id":1,"zzz":"\ud83d\ud83d"}"#,
        r#"{"id":1,"f31":"\ud800"}"#,
    ] {
        refused::<test::StructSimple>(doc);
    }
    accepted::<test::StructSimple>(r#"{"id":1,"zzz":"\ud83d\ude00"}"#, &[r#""id":1,"#]);
    accepted::<test::StructSimple>(
        r#"{"id":1,"zzz":"\udcff","\udcc3":{"\udc80":1}}"#,
        &[r#""id":1,"#],
    );
}

#[test]
fn byte_escapes_are_the_bytes_and_written_as_characters() {
    for (doc, piece) in [
        (r#"{"f31":"\udcc3\udca9"}"#, "\"f31\":\"\u{e9}\""),
        (
            r#"{"f31":"a\udce2\udc82\udcacb"}"#,
            "\"f31\":\"a\u{20ac}b\"",
        ),
        (r#"{"f31":"\udcc3"}"#, r#""f31":"\udcc3""#),
        (r#"{"f31":"\udcc3\u00a9"}"#, "\"f31\":\"\\udcc3\u{a9}\""),
        (r#"{"f31":"\ufeffa"}"#, "\"f31\":\"\u{feff}a\""),
    ] {
        accepted::<test::StructSimple>(doc, &[piece]);
    }
    let v = test::StructSimple::from_json(br#"{"f31":"a\udcc3"}"#).unwrap();
    assert_eq!(v.f31, &b"a\xc3"[..]);
    accepted::<test::StructHash>(r#"{"f1":{"\udcc3\udca9":1}}"#, &["\"f1\":{\"\u{e9}\":1}"]);
}

#[test]
fn documents_are_utf8_without_a_byte_order_mark() {
    refused::<test::StructSimple>("\u{feff}{\"id\":1}");
    refused::<test::StructSimple>(" \u{feff}{\"id\":1}");
    assert!(test::StructSimple::from_json(b"{\"f31\":\"\xc0\xaf\"}").is_err());
    assert!(test::StructSimple::from_json(b"{\"f31\":\"\xed\xa0\x80\"}").is_err());
    refused::<test::StructSimple>(r#"{"id":1} x"#);
    refused::<test::StructSimple>(r#"{"id":1"#);
}

#[test]
fn bytes_are_strict_base64() {
    for text in [
        "A", "@@@@", "QQ", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\\n==", "QQ==QQ==", "-_8=", "====",
    ] {
        refused::<test::StructBytes>(&format!(r#"{{"f1":"{text}"}}"#));
    }
    for text in ["", "QQ==", "QUI=", "QUJD", "+/+/"] {
        accepted::<test::StructBytes>(
            &format!(r#"{{"f1":"{text}"}}"#),
            &[&format!(r#""f1":"{text}""#)],
        );
    }
}

#[test]
fn fixed_arrays_hold_exactly_their_length() {
    for doc in [
        r#"{"f1":[1,2,3]}"#,
        r#"{"f1":[1]}"#,
        r#"{"f1":[]}"#,
        r#"{"f9":[{}]}"#,
    ] {
        refused::<test::StructArray>(doc);
    }
    let e = refused::<test::StructArray>(r#"{"f1":[1,2,3]}"#);
    assert!(
        e.to_string()
            .contains("expected 2 elements, got more (test.StructArray.f1"),
        "{e}"
    );
    accepted::<test::StructArray>(
        r#"{"f1":[1,2],"f2":[null,3]}"#,
        &[r#""f1":[1,2],"f2":[null,3],"#],
    );
}

#[test]
fn negative_zero_and_numbers_keep_their_form() {
    accepted::<test::StructSimple>(
        r#"{"f25":-0,"f27":-0e0}"#,
        &[r#""f25":-0.0,"#, r#""f27":-0.0,"#],
    );
    accepted::<test::StructSimple>(
        r#"{"id":-0,"f17":-0,"f19":-0}"#,
        &[r#""id":0,"#, r#""f19":0,"#],
    );
    for doc in [
        r#"{"id":1.0}"#,
        r#"{"id":1e2}"#,
        r#"{"f19":-1}"#,
        r#"{"id":2147483648}"#,
        r#"{"id":"1"}"#,
    ] {
        refused::<test::StructSimple>(doc);
    }
    accepted::<test::StructSimple>(
        r#"{"f25":3.4028234663852886e38,"f27":"NaN","f28":"-Infinity"}"#,
        &[
            r#""f25":3.4028234663852886e38,"#,
            r#""f27":"NaN","#,
            r#""f28":"-Infinity","#,
        ],
    );
    refused::<test::StructSimple>(r#"{"f25":1e39}"#);
    refused::<test::StructSimple>(r#"{"f27":1e400}"#);
}

#[test]
fn flags_of_a_signed_type_are_signed_and_sets_ordered() {
    accepted::<test::StructSet>(
        r#"{"f3":[4,1,-1632129793]}"#,
        &[r#""f3":[-1632129793,1,4]"#],
    );
    for doc in [
        r#"{"f3":[2662837503]}"#,
        r#"{"f3":[4294967295]}"#,
        r#"{"f3":[-2147483649]}"#,
    ] {
        refused::<test::StructSet>(doc);
    }
    accepted::<test::StructSet>(r#"{"f1":[168,3,167]}"#, &[r#""f1":[3,167,168]"#]);
    accepted::<test::StructSet>(
        r#"{"f4":[{"id":5},{"id":-2}]}"#,
        &[r#""f4":[{"id":-2,"#, r#"},{"id":5,"#],
    );
    accepted::<test::StructMap>(
        r#"{"f1":{"2":1,"-1":2,"1":3}}"#,
        &[r#""f1":{"-1":2,"1":3,"2":1}"#],
    );
}

#[test]
fn no_name_key_or_element_is_read_twice() {
    for doc in [
        r#"{"id":1,"id":2}"#,
        r#"{"zz":1,"zz":2}"#,
        r#"{"zz":{"a":1,"a":2}}"#,
        r#"{"zz":[{"a":1,"b":[{"c":1,"c":1}]}]}"#,
    ] {
        let e = refused::<test::StructSimple>(doc);
        assert!(
            e.message().starts_with("duplicate member name"),
            "{doc}: {e}"
        );
    }
    let e = refused::<test::StructMap>(r#"{"f1":{"1":1,"01":2}}"#);
    assert_eq!(e.kind(), ErrorKind::Duplicate, "{e}");
    let e = refused::<test::StructSet>(r#"{"f1":[1,1]}"#);
    assert_eq!(e.kind(), ErrorKind::Duplicate, "{e}");
    refused::<test::StructSet>(r#"{"f4":[{"id":5},{"id":5}]}"#);
}

#[test]
fn members_are_found_in_any_order_and_missing_ones_keep_their_defaults() {
    let default = test::StructSimple::default();
    let read = test::StructSimple::from_json(b"{\"unknown\":[1,{\"x\":null}]}").unwrap();
    assert_eq!(
        (read.f4, read.f28, &read.f32, &read.f44),
        (default.f4, default.f28, &default.f32, &default.f44)
    );
    let a = proto::Account::from_json(br#"{"name":"x","id":7}"#).unwrap();
    assert_eq!((a.id, &a.name[..]), (7, &b"x"[..]));
}

#[test]
fn errors_name_the_type_and_the_path() {
    let e = proto::Account::from_json(br#"{"orders":[{"id":1},{"id":"x"}]}"#).unwrap_err();
    assert_eq!(e.type_name(), "proto.Account");
    assert_eq!(e.path(), "orders[1].id", "{e}");
    assert_eq!(
        e.to_string(),
        "expected integer, got string (proto.Account.orders[1].id, offset 26)"
    );
    let e = proto::Account::from_json(br#"{"wallet":{"amount":[]}}"#).unwrap_err();
    assert_eq!(e.path(), "wallet.amount", "{e}");
}

/// A JSON chain of `levels` nodes.
fn chain(levels: usize) -> String {
    format!(
        "{}{{}}{}",
        "{\"children\":[".repeat(levels - 1),
        "]}".repeat(levels - 1)
    )
}

#[test]
fn structs_nest_at_most_128_deep() {
    let deep = Node::from_json(chain(128).as_bytes()).unwrap();
    assert_eq!(Node::from_json(&deep.to_json().unwrap()).unwrap(), deep);
    let e = Node::from_json(chain(129).as_bytes()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Depth, "{e}");
    let arrays = format!("{{\"zz\":{}{}}}", "[".repeat(384), "]".repeat(384));
    assert_eq!(
        Node::from_json(arrays.as_bytes()).unwrap_err().kind(),
        ErrorKind::Depth
    );
    let arrays = format!("{{\"zz\":{}{}}}", "[".repeat(383), "]".repeat(383));
    Node::from_json(arrays.as_bytes()).unwrap();
}

#[test]
fn nothing_is_made_before_the_budget_pays_for_it() {
    // docs/limits.md 3: {"items":[{}]} asks for the 4 MB default of a Wide
    let e = Wides::from_json(br#"{"items":[{}]}"#).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
    let paid = Limits {
        budget_slack: 8 << 20,
        ..Limits::default()
    };
    let read = Wides::from_json_with(br#"{"items":[{}]}"#, &paid).unwrap();
    assert_eq!(read.items[0].values.len(), 1_000_000);
    // strings are charged their length
    let long = format!(r#"{{"f31":"{}"}}"#, "a".repeat(1000));
    let tight = Limits {
        budget_factor: 0,
        budget_slack: 1000,
        ..Limits::default()
    };
    let e = test::StructSimple::from_json_with(long.as_bytes(), &tight).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
}
