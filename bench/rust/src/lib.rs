//! Our generated Rust code (`fbec --rust`, runtime/rust) against the Rust peers on the trade model
//! of docs/benchmarks.md, in one run: prost, FlatBuffers, Cap'n Proto, bincode, rkyv (validated)
//! and serde_json.
//!
//! Every row converts from and to the same domain object, `proto::Account` as fbec generates it:
//! serialize is domain object -> bytes (reusing the row's writer, builder or buffer), deserialize
//! is bytes -> domain object (then every field is read, [`touch`]), verify checks the bytes
//! without making the value where the format has a verifier. The peers that derive their code
//! from a Rust type (bincode, rkyv, serde_json) derive it on [`mirror::Account`], which the row
//! fills from the domain object reusing its strings and moves into the domain object once read.
//! `build.rs` generates every row's code into OUT_DIR.

use std::error::Error;

pub mod mirror;

/// Ours: `fbec --rust --final` from schemas/trade.fbe.
pub mod ours {
    include!(concat!(env!("OUT_DIR"), "/ours.rs"));
}

/// prost's code from bench/cpp/schemas/trade.proto.
#[allow(clippy::all)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/pb.trade.rs"));
}

/// FlatBuffers' code (flatc --rust) from bench/cpp/schemas/trade.fbs.
#[allow(clippy::all, unused_imports, unsafe_op_in_unsafe_fn, mismatched_lifetime_syntaxes, deprecated)]
pub mod fbs {
    include!(concat!(env!("OUT_DIR"), "/trade_generated.rs"));
}

/// Cap'n Proto's code (capnpc) from bench/cpp/schemas/trade.capnp.
#[allow(clippy::all)]
pub mod trade_capnp {
    include!(concat!(env!("OUT_DIR"), "/trade_capnp.rs"));
}

mod peers;

pub use ours::proto::{Account, Balance, Order, OrderSide, OrderType, State};
pub use peers::rows;

/// A row's error.
pub type BoxError = Box<dyn Error + Send + Sync>;

/// One way of serializing the domain object. `serialize`'s bytes stay valid until its next call;
/// `deserialize` reads into `a` (reused by the caller); `verify` is `None` when the format has no
/// verifier.
pub trait Row {
    /// The benchmark name: `trade/<id>/<operation>`.
    fn id(&self) -> &'static str;
    /// The table's name of the row.
    fn name(&self) -> &'static str;
    /// The crate measured and its version (from Cargo.lock), "" for ours.
    fn krate(&self) -> &'static str {
        ""
    }
    /// Domain object -> bytes.
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError>;
    /// Bytes -> domain object.
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError>;
    /// Checks the bytes as deserialize would read them, without making the value.
    fn verify(&mut self, _data: &[u8]) -> Option<Result<(), BoxError>> {
        None
    }
}

/// A row that is not there, and why (reported, never timed).
pub struct Missing {
    pub id: &'static str,
    pub name: &'static str,
    pub reason: &'static str,
}

/// The trade sample of the C++ table: Account id 1 'Test', state good, wallet USD 1000, asset
/// EUR 100, three EURUSD orders.
pub fn sample() -> Account {
    let order = |id, side, type_, price, volume| Order { id, symbol: "EURUSD".into(), side, type_, price, volume };
    Account {
        id: 1,
        name: "Test".into(),
        state: State::GOOD,
        wallet: Balance { currency: "USD".into(), amount: 1000.0 },
        asset: Some(Box::new(Balance { currency: "EUR".into(), amount: 100.0 })),
        orders: vec![
            order(1, OrderSide::Buy, OrderType::Market, 1.23456, 1000.0),
            order(2, OrderSide::Sell, OrderType::Limit, 1.0, 100.0),
            order(3, OrderSide::Buy, OrderType::Stop, 1.5, 10.0),
        ],
    }
}

/// The accounts every row round-trips before it is timed: the sample, one without asset and with
/// five orders, one with empty strings and no orders.
pub fn check_accounts() -> Vec<Account> {
    let mut no_asset = sample();
    no_asset.id = 2;
    no_asset.asset = None;
    no_asset.state = State::BAD;
    for i in 4..=5 {
        no_asset.orders.push(Order {
            id: i,
            symbol: "GBPUSD".into(),
            side: OrderSide::Sell,
            type_: OrderType::Limit,
            price: 1.25 * f64::from(i),
            volume: -2.0,
        });
    }
    let empty = Account { id: -7, ..Account::default() };
    vec![sample(), no_asset, empty]
}

/// Reads every field of `a` (what a consumer of the message does; the same work for every row).
#[inline(never)]
pub fn touch(a: &Account) -> i64 {
    let mut n = i64::from(a.id) + a.name.len() as i64 + i64::from(a.state.bits());
    n += a.wallet.currency.len() as i64 + a.wallet.amount as i64;
    if let Some(asset) = &a.asset {
        n += asset.currency.len() as i64 + asset.amount as i64;
    }
    for o in &a.orders {
        n += i64::from(o.id) + o.symbol.len() as i64 + i64::from(o.side.to_wire()) + i64::from(o.type_.to_wire());
        n += o.price as i64 + o.volume as i64;
    }
    n
}

/// A message kept on a 16-byte boundary, as an allocator gives it (rkyv and Cap'n Proto read
/// aligned bytes only): the same for every row.
pub fn aligned(data: &[u8]) -> rkyv::util::AlignedVec<16> {
    let mut v = rkyv::util::AlignedVec::<16>::with_capacity(data.len());
    v.extend_from_slice(data);
    v
}

/// Round-trips every [`check_accounts`] account through the row, into a fresh and into a reused
/// domain object (compared field by field), and checks that its verifier accepts its own message
/// and refuses it cut short by one byte (unless only padding was cut). A row that fails is reported with the error and not
/// timed.
pub fn check(row: &mut dyn Row) -> Result<(), String> {
    let mut reused = sample();
    let twice = reused.orders.clone();
    reused.orders.extend(twice); // a larger shape than any account read into it
    for want in check_accounts() {
        let data = aligned(row.serialize(&want).map_err(|e| format!("serialize account {}: {e}", want.id))?);
        for into in [&mut Account::default(), &mut reused] {
            row.deserialize(&data, into).map_err(|e| format!("deserialize account {}: {e}", want.id))?;
            if *into != want {
                return Err(format!("account {} read back differs: {into:?} vs {want:?}", want.id));
            }
        }
        match row.verify(&data) {
            None => continue,
            Some(Err(e)) => return Err(format!("verify refused its own message (account {}): {e}", want.id)),
            Some(Ok(())) => {}
        }
        // Cut short by one byte, the message is refused, unless only padding was cut and it still
        // reads back whole (FlatBuffers' last byte may be padding), as the C++ check allows.
        let short = aligned(&data[..data.len() - 1]);
        if let Some(Ok(())) = row.verify(&short) {
            let mut back = Account::default();
            if row.deserialize(&short, &mut back).is_err() || back != want {
                return Err(format!("verify accepted account {} cut short by one byte", want.id));
            }
        }
    }
    Ok(())
}
