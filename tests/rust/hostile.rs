//! The limits policy's hostile shapes (schemas/tests/hostile.fbe, docs/limits.md 3) through the
//! generated code: nothing is made before the budget pays for it, and elements that take no bytes
//! are bounded by the budget alone.

use fbe::{ErrorKind, Limits, Struct, Writer};
use generated::project::hostile::{Empties, Holder, Wide, Wides};
use generated::project::import::Listed;
use generated::trade::proto::{Account, Balance, Order};

/// A versioned Wides whose one element is an older writer's 8-byte body of a Wide: it asks for
/// the 4 MB default of `int32[1000000]`.
fn wides_of_an_old_body() -> Vec<u8> {
    let mut w = Writer::new();
    w.begin_versioned();
    let b = w.struct_body(0, 4, 12, Wides::TYPE_ID);
    let first = w.vector(b, b + 8, 1, 4);
    w.struct_body(b, first, 8, Wide::TYPE_ID);
    w.end_versioned().unwrap().to_vec()
}

#[test]
fn a_default_of_4_mb_is_made_only_when_the_budget_pays_for_it() {
    let root = wides_of_an_old_body();
    assert_eq!(root.len(), 36);
    let e = Wides::from_fbe(&root).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
    assert_eq!(
        Wides::verify_fbe(&root, &Limits::default())
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
    let paid = Limits {
        budget_slack: 8 << 20,
        ..Limits::default()
    };
    let read = Wides::from_fbe_with(&root, &paid).unwrap();
    assert_eq!(read.items.len(), 1);
    assert!(read.items[0].values.iter().all(|&v| v == 0));
    let holder = Holder::default(); // made on the heap: no 4 MB on a test thread's stack
    assert_eq!(holder.wide.values.len(), 1_000_000);
}

#[test]
fn elements_that_take_no_bytes_cost_32_each() {
    // docs/limits.md 3: 130 empty structs in a 12-byte final root are read, 131 refused
    let root = |n: u32| {
        let mut b = 12u32.to_le_bytes().to_vec();
        b.extend_from_slice(&Empties::TYPE_ID.to_le_bytes());
        b.extend_from_slice(&n.to_le_bytes());
        b
    };
    assert_eq!(Empties::from_final(&root(130)).unwrap().items.len(), 130);
    let e = Empties::from_final(&root(131)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
    assert_eq!(
        Empties::verify_final(&root(131), &Limits::default())
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
    assert_eq!(
        Empties::from_final(&root(u32::MAX)).unwrap_err().kind(),
        ErrorKind::Budget
    );
}

/// An older writer's body too short for even the inherited fields (8 bytes of an
/// `import.Listed : market.Instrument`): every field takes its default, charged at once
/// (docs/format.md 3.6), and the error names the first field, the first one missing
/// (docs/limits.md 3: the type, the field and the offset).
#[test]
fn a_body_without_its_base_fields_names_the_first_one() {
    let mut w = Writer::new();
    w.begin_versioned();
    w.struct_body(0, 4, 8, Listed::TYPE_ID);
    let root = w.end_versioned().unwrap().to_vec();
    // the struct's own charge (12) is paid, its fields' defaults (4) are not
    let tight = Limits {
        budget_factor: 0,
        budget_slack: 15,
        ..Limits::default()
    };
    let e = Listed::from_fbe_with(&root, &tight).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
    assert_eq!(
        e.to_string(),
        "decode budget exceeded (import.Listed.symbol, offset 8)"
    );
    assert_eq!(
        Listed::verify_fbe(&root, &tight).unwrap_err().to_string(),
        e.to_string()
    );
    assert_eq!(Listed::from_fbe(&root).unwrap(), Listed::default());
}

/// A final root of a type whose every value costs at most the bytes it takes
/// (`Struct::CHARGES_WITHIN_BYTES`, docs/limits.md 3) is read without counting the charges when
/// the budget is at least its size; below its size they are counted exactly: the least budget is
/// the exact charge, and one byte less is refused with the error verify gives.
#[test]
fn a_final_root_paid_by_its_bytes_is_charged_exactly_below_its_size() {
    const { assert!(Account::CHARGES_WITHIN_BYTES && Order::CHARGES_WITHIN_BYTES) };
    let order = |symbol: &str| Order {
        symbol: symbol.into(),
        ..Order::default()
    };
    let account = Account {
        name: "Test".into(),
        wallet: Balance {
            currency: "USD".into(),
            amount: 1.0,
        },
        asset: Some(Box::new(Balance {
            currency: "EURO".into(),
            amount: 2.0,
        })),
        orders: vec![order("EURUSD"), order("")],
        ..Account::default()
    };
    let root = account.to_final().unwrap();
    // the account 14 and its name, a balance 12 and its currency (twice), an order 26 and its symbol
    let charge = 14 + 4 + (12 + 3) + (12 + 4) + (26 + 6) + 26;
    assert_eq!(root.len(), 8 + charge);
    let budget = |bytes: usize| Limits {
        budget_factor: 0,
        budget_slack: bytes,
        ..Limits::default()
    };
    for paid in [charge, root.len(), root.len() + 1] {
        assert_eq!(
            Account::from_final_with(&root, &budget(paid)).unwrap(),
            account
        );
        Account::verify_final(&root, &budget(paid)).unwrap();
    }
    let e = Account::from_final_with(&root, &budget(charge - 1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Budget, "{e}");
    assert_eq!(
        Account::verify_final(&root, &budget(charge - 1))
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
    let mut into = account.clone();
    assert_eq!(
        into.read_final_with(&root, &budget(charge - 1))
            .unwrap_err()
            .to_string(),
        e.to_string()
    );
}

/// A fixed-size field and the string after it (an account's id and name, an order's id and
/// symbol) are claimed with one compare (`Reader::final_fixed_text_into`); a root that ends
/// inside either is read field by field and refused as verify refuses it, naming the field.
#[test]
fn a_final_root_cut_anywhere_is_refused_as_verify_refuses_it() {
    let account = Account {
        id: 1,
        name: "a name".into(),
        orders: vec![Order {
            id: 2,
            symbol: "EURUSD".into(),
            ..Order::default()
        }],
        ..Account::default()
    };
    let whole = account.to_final().unwrap();
    for n in 8..whole.len() {
        let mut cut = whole[..n].to_vec();
        cut[..4].copy_from_slice(&(n as u32).to_le_bytes());
        let verified = Account::verify_final(&cut, &Limits::DEFAULT).map_err(|e| e.to_string());
        assert!(verified.is_err(), "{n} bytes");
        let read = Account::from_final(&cut)
            .map(drop)
            .map_err(|e| e.to_string());
        assert_eq!(read, verified, "{n} bytes");
        let mut into = account.clone();
        let read_into = into.read_final(&cut).map_err(|e| e.to_string());
        assert_eq!(read_into, verified, "{n} bytes, read into a value");
    }
    let error = |n: usize| {
        let mut cut = whole[..n].to_vec();
        cut[..4].copy_from_slice(&(n as u32).to_le_bytes());
        Account::from_final(&cut).unwrap_err().to_string()
    };
    assert!(error(8 + 3).contains("id"), "{}", error(8 + 3));
    assert!(error(8 + 4 + 3).contains("name"), "{}", error(8 + 4 + 3));
    assert!(
        error(8 + 4 + 4 + 5).contains("name"),
        "{}",
        error(8 + 4 + 4 + 5)
    );
}
