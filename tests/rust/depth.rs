//! Nesting (docs/limits.md 1): writers refuse a value nested deeper than 128 struct levels, the
//! readers' limit, so nobody writes what no reader reads; the readers refuse level 129.

use fbe::{ErrorKind, Limits, Struct, Writer};
use generated::project::recursive::Node;
use generated::trade::proto::{Account, Order};

/// A chain of `levels` nodes, each the only child of the one before.
fn chain(levels: usize) -> Node {
    let mut node = Node {
        id: levels as i32,
        ..Default::default()
    };
    for id in (1..levels).rev() {
        node = Node {
            id: id as i32,
            children: vec![node],
            ..Default::default()
        };
    }
    node
}

#[test]
fn writers_refuse_level_129_and_readers_read_128() {
    let deep = chain(128);
    let versioned = deep.to_fbe().unwrap();
    let final_ = deep.to_final().unwrap();
    assert_eq!(Node::from_fbe(&versioned).unwrap(), deep);
    assert_eq!(Node::from_final(&final_).unwrap(), deep);
    let too_deep = chain(129);
    for e in [
        too_deep.to_fbe().unwrap_err(),
        too_deep.to_final().unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Depth);
        assert!(
            e.to_string().starts_with(
                "structs nested deeper than 128 (recursive.Node) (recursive.Node.children[0]"
            ),
            "{e}"
        );
    }
    let shallow = Limits {
        max_depth: 127,
        ..Limits::default()
    };
    for e in [
        Node::from_fbe_with(&versioned, &shallow).unwrap_err(),
        Node::from_final_with(&final_, &shallow).unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Depth);
    }
    assert_eq!(
        Node::verify_fbe(&versioned, &shallow).unwrap_err().kind(),
        ErrorKind::Depth
    );
}

#[test]
fn a_bounded_struct_is_checked_at_once_by_the_levels_it_can_hold() {
    // proto.Account holds structs one level down (its wallet, asset and orders): 2 levels, which
    // its writers check where the account is written, counting no level per struct below it.
    let account = Account {
        orders: vec![Order::default()],
        ..Default::default()
    };
    let mut w = Writer::with_max_depth(1);
    for e in [
        account.write_fbe(&mut w).unwrap_err(),
        account.write_final(&mut w).unwrap_err(),
    ] {
        assert_eq!(e.kind(), ErrorKind::Depth);
        assert!(
            e.to_string()
                .starts_with("structs nested deeper than 1 (proto.Account)"),
            "{e}"
        );
    }
    let mut w = Writer::with_max_depth(2);
    let versioned = account.write_fbe(&mut w).unwrap().to_vec();
    assert_eq!(Account::from_fbe(&versioned).unwrap(), account);
    let final_ = account.write_final(&mut w).unwrap().to_vec();
    assert_eq!(Account::from_final(&final_).unwrap(), account);
}
