//! The trade model as plain Rust types with the derives of the peers that serialize a Rust type
//! (serde for serde_json, bincode's `Encode`/`Decode`, rkyv's `Archive`): their users derive them
//! on their own types. Enums and flags travel as their wire bytes, strings as `String`.

use crate::{Account as Domain, Balance as DomainBalance, Order as DomainOrder, OrderSide, OrderType, State};
use std::str::from_utf8;

macro_rules! model {
    ($($item:item)*) => {
        $(
            #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize,
                     bincode::Encode, bincode::Decode, rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
            $item
        )*
    };
}

model! {
    /// `proto.Order`.
    pub struct Order {
        pub id: i32,
        pub symbol: String,
        pub side: u8,
        #[serde(rename = "type")]
        pub type_: u8,
        pub price: f64,
        pub volume: f64,
    }

    /// `proto.Balance`.
    pub struct Balance {
        pub currency: String,
        pub amount: f64,
    }

    /// `proto.Account`.
    pub struct Account {
        pub id: i32,
        pub name: String,
        pub state: u8,
        pub wallet: Balance,
        pub asset: Option<Balance>,
        pub orders: Vec<Order>,
    }
}

/// `to` holds `from`'s text, in its own allocation once it is large enough. An FBE string holds
/// any bytes, a Rust `String` only UTF-8: the bytes are checked, as every peer with `String`
/// fields must.
pub fn set_str(to: &mut String, from: &[u8]) -> Result<(), std::str::Utf8Error> {
    to.clear();
    to.push_str(from_utf8(from)?);
    Ok(())
}

fn set_balance(to: &mut Balance, from: &DomainBalance) -> Result<(), std::str::Utf8Error> {
    set_str(&mut to.currency, &from.currency)?;
    to.amount = from.amount;
    Ok(())
}

impl Account {
    /// Fills the reused mirror from the domain object.
    pub fn fill(&mut self, a: &Domain) -> Result<(), std::str::Utf8Error> {
        self.id = a.id;
        set_str(&mut self.name, &a.name)?;
        self.state = a.state.bits();
        set_balance(&mut self.wallet, &a.wallet)?;
        match &a.asset {
            Some(b) => set_balance(self.asset.get_or_insert_with(Balance::default), b)?,
            None => self.asset = None,
        }
        self.orders.resize_with(a.orders.len(), Order::default);
        for (to, from) in self.orders.iter_mut().zip(&a.orders) {
            to.id = from.id;
            set_str(&mut to.symbol, &from.symbol)?;
            to.side = from.side.to_wire();
            to.type_ = from.type_.to_wire();
            to.price = from.price;
            to.volume = from.volume;
        }
        Ok(())
    }

    /// Moves the mirror's values into the domain object (strings without a copy).
    pub fn into_domain(self, a: &mut Domain) {
        let balance = |b: Balance| DomainBalance { currency: b.currency.into(), amount: b.amount };
        a.id = self.id;
        a.name = self.name.into();
        a.state = State::from_bits_retain(self.state);
        a.wallet = balance(self.wallet);
        a.asset = self.asset.map(|b| Box::new(balance(b)));
        a.orders = self
            .orders
            .into_iter()
            .map(|o| DomainOrder {
                id: o.id,
                symbol: o.symbol.into(),
                side: OrderSide::from_wire(o.side),
                type_: OrderType::from_wire(o.type_),
                price: o.price,
                volume: o.volume,
            })
            .collect();
    }
}
