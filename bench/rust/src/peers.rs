//! The rows: ours (versioned and final) and every peer, each with its own reused state.

use crate::fbs::fb::trade as fb;
use crate::mirror::{self, set_str};
use crate::{pb, trade_capnp as cp, Account, Balance, BoxError, Missing, Order, OrderSide, OrderType, Row, State};
use fbe::json::{JsonStruct, JsonWriter};
use fbe::{Limits, Struct, Writer};
use std::str::from_utf8;

/// Every row of the run, and the rows that are not there with the reason.
pub fn rows() -> (Vec<Box<dyn Row>>, Vec<Missing>) {
    let rows: Vec<Box<dyn Row>> = vec![
        Box::new(Ours { w: Writer::new() }),
        Box::new(OursFinal { w: Writer::new() }),
        Box::new(OursJson { j: JsonWriter::default() }),
        Box::new(Prost { out: pb::Account::default(), buf: Vec::new() }),
        Box::new(FlatBuffers { b: flatbuffers::FlatBufferBuilder::new(), orders: Vec::new() }),
        Box::new(Capnp { scratch: capnp::Word::allocate_zeroed_vec(512), buf: Vec::new() }),
        Box::new(Bincode { mirror: mirror::Account::default(), buf: Vec::new() }),
        Box::new(Rkyv { mirror: mirror::Account::default(), buf: rkyv::util::AlignedVec::new() }),
        Box::new(SerdeJson { mirror: mirror::Account::default(), buf: Vec::new() }),
    ];
    (rows, Vec::new())
}

// ---------------------------------------------------------------- ours

/// `fbe::Struct::write_fbe` into a reused `Writer`, `read_fbe` (into the reused domain object,
/// as the C++ row reads), `verify_fbe`.
struct Ours {
    w: Writer,
}

impl Row for Ours {
    fn id(&self) -> &'static str {
        "ours"
    }
    fn name(&self) -> &'static str {
        "FBE (ours)"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        Ok(a.write_fbe(&mut self.w)?)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        Ok(a.read_fbe(data)?)
    }
    fn verify(&mut self, data: &[u8]) -> Option<Result<(), BoxError>> {
        Some(Account::verify_fbe(data, &Limits::DEFAULT).map_err(Into::into))
    }
}

/// The same with the final model.
struct OursFinal {
    w: Writer,
}

impl Row for OursFinal {
    fn id(&self) -> &'static str {
        "ours-final"
    }
    fn name(&self) -> &'static str {
        "FBE final (ours)"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        Ok(a.write_final(&mut self.w)?)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        Ok(a.read_final(data)?)
    }
    fn verify(&mut self, data: &[u8]) -> Option<Result<(), BoxError>> {
        Some(Account::verify_final(data, &Limits::DEFAULT).map_err(Into::into))
    }
}

/// Our JSON (`fbec --rust --json`, docs/format.md 8): `write_json` into a reused `JsonWriter`,
/// `from_json`. JSON has no verifier of its own: reading it is the check.
struct OursJson {
    j: JsonWriter,
}

impl Row for OursJson {
    fn id(&self) -> &'static str {
        "ours-json"
    }
    fn name(&self) -> &'static str {
        "FBE JSON (ours)"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        self.j.out.clear();
        a.write_json(&mut self.j)?;
        Ok(&self.j.out)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        *a = Account::from_json(data)?;
        Ok(())
    }
}

// ---------------------------------------------------------------- prost

/// prost: a reused message (its strings and orders kept), `encode` into a reused buffer,
/// `decode` into a new message whose strings move into the domain object.
struct Prost {
    out: pb::Account,
    buf: Vec<u8>,
}

fn to_pb_balance(to: &mut Option<pb::Balance>, from: &Balance) -> Result<(), BoxError> {
    let b = to.get_or_insert_with(Default::default);
    set_str(&mut b.currency, &from.currency)?;
    b.amount = from.amount;
    Ok(())
}

fn from_pb_balance(b: pb::Balance) -> Balance {
    Balance { currency: b.currency.into(), amount: b.amount }
}

impl Row for Prost {
    fn id(&self) -> &'static str {
        "prost"
    }
    fn name(&self) -> &'static str {
        "prost"
    }
    fn krate(&self) -> &'static str {
        "prost"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        use prost::Message;
        let m = &mut self.out;
        m.id = a.id;
        set_str(&mut m.name, &a.name)?;
        m.state = u32::from(a.state.bits());
        to_pb_balance(&mut m.wallet, &a.wallet)?;
        match &a.asset {
            Some(b) => to_pb_balance(&mut m.asset, b)?,
            None => m.asset = None,
        }
        m.orders.resize_with(a.orders.len(), Default::default);
        for (p, o) in m.orders.iter_mut().zip(&a.orders) {
            p.id = o.id;
            set_str(&mut p.symbol, &o.symbol)?;
            p.side = i32::from(o.side.to_wire());
            p.r#type = i32::from(o.type_.to_wire());
            p.price = o.price;
            p.volume = o.volume;
        }
        self.buf.clear();
        m.encode(&mut self.buf)?;
        Ok(&self.buf)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        use prost::Message;
        let m = pb::Account::decode(data)?;
        *a = Account {
            id: m.id,
            name: m.name.into(),
            state: State::from_bits_retain(u8::try_from(m.state)?),
            wallet: m.wallet.map(from_pb_balance).unwrap_or_default(),
            asset: m.asset.map(|b| Box::new(from_pb_balance(b))),
            orders: m
                .orders
                .into_iter()
                .map(|p| {
                    Ok(Order {
                        id: p.id,
                        symbol: p.symbol.into(),
                        side: OrderSide::from_wire(u8::try_from(p.side)?),
                        type_: OrderType::from_wire(u8::try_from(p.r#type)?),
                        price: p.price,
                        volume: p.volume,
                    })
                })
                .collect::<Result<_, BoxError>>()?,
        };
        Ok(())
    }
}

// ---------------------------------------------------------------- FlatBuffers

/// FlatBuffers: a reused `FlatBufferBuilder` (`reset`); deserialize reads the root without
/// verifying (as C++ `GetRoot`), verify is the generated verifier (`flatbuffers::root`).
struct FlatBuffers {
    b: flatbuffers::FlatBufferBuilder<'static>,
    orders: Vec<flatbuffers::WIPOffset<fb::Order<'static>>>,
}

fn from_fb_balance(b: Option<fb::Balance<'_>>) -> Balance {
    b.map(|b| Balance { currency: b.currency().unwrap_or_default().into(), amount: b.amount() }).unwrap_or_default()
}

impl Row for FlatBuffers {
    fn id(&self) -> &'static str {
        "flatbuffers"
    }
    fn name(&self) -> &'static str {
        "FlatBuffers"
    }
    fn krate(&self) -> &'static str {
        "flatbuffers"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        let b = &mut self.b;
        b.reset();
        self.orders.clear();
        for o in &a.orders {
            let symbol = b.create_string(from_utf8(&o.symbol)?);
            let args = fb::OrderArgs {
                id: o.id,
                symbol: Some(symbol),
                side: fb::OrderSide(o.side.to_wire()),
                type_: fb::OrderType(o.type_.to_wire()),
                price: o.price,
                volume: o.volume,
            };
            self.orders.push(fb::Order::create(b, &args));
        }
        let orders = b.create_vector(&self.orders);
        let currency = b.create_string(from_utf8(&a.wallet.currency)?);
        let wallet = fb::Balance::create(b, &fb::BalanceArgs { currency: Some(currency), amount: a.wallet.amount });
        let asset = match &a.asset {
            Some(x) => {
                let currency = b.create_string(from_utf8(&x.currency)?);
                Some(fb::Balance::create(b, &fb::BalanceArgs { currency: Some(currency), amount: x.amount }))
            }
            None => None,
        };
        let name = b.create_string(from_utf8(&a.name)?);
        let args = fb::AccountArgs {
            id: a.id,
            name: Some(name),
            state: a.state.bits(),
            wallet: Some(wallet),
            asset,
            orders: Some(orders),
        };
        let root = fb::Account::create(b, &args);
        b.finish(root, None);
        Ok(b.finished_data())
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        // SAFETY: none for hostile bytes: this times FlatBuffers' unverified read, as the C++
        // table's FlatBuffers row does (its verify is the separate row); every message read here
        // is the row's own, and check() verifies it first.
        let m = unsafe { flatbuffers::root_unchecked::<fb::Account<'_>>(data) };
        *a = Account {
            id: m.id(),
            name: m.name().unwrap_or_default().into(),
            state: State::from_bits_retain(m.state()),
            wallet: from_fb_balance(m.wallet()),
            asset: m.asset().map(|b| Box::new(from_fb_balance(Some(b)))),
            orders: m
                .orders()
                .map(|v| {
                    v.iter()
                        .map(|o| Order {
                            id: o.id(),
                            symbol: o.symbol().unwrap_or_default().into(),
                            side: OrderSide::from_wire(o.side().0),
                            type_: OrderType::from_wire(o.type_().0),
                            price: o.price(),
                            volume: o.volume(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        };
        Ok(())
    }
    fn verify(&mut self, data: &[u8]) -> Option<Result<(), BoxError>> {
        Some(flatbuffers::root::<fb::Account<'_>>(data).map(|_| ()).map_err(Into::into))
    }
}

// ---------------------------------------------------------------- Cap'n Proto

/// Cap'n Proto: the builder on a reused zeroed first segment (`ScratchSpaceHeapAllocator`), flat
/// single-segment output into a reused buffer; `read_message_from_flat_slice`; verify =
/// `total_size()` (walks and bounds-checks every pointer; Cap'n Proto has no verifier), as in C++.
struct Capnp {
    scratch: Vec<capnp::Word>,
    buf: Vec<u8>,
}

fn read_capnp(data: &[u8]) -> capnp::Result<capnp::message::Reader<capnp::serialize::BufferSegments<&[u8]>>> {
    let mut slice = data;
    let r = capnp::serialize::read_message_from_flat_slice(&mut slice, capnp::message::ReaderOptions::new())?;
    if !slice.is_empty() {
        return Err(capnp::Error::failed(format!("{} bytes after the message", slice.len())));
    }
    Ok(r)
}

fn from_cp_balance(b: cp::balance::Reader<'_>) -> capnp::Result<Balance> {
    Ok(Balance { currency: b.get_currency()?.as_bytes().into(), amount: b.get_amount() })
}

impl Row for Capnp {
    fn id(&self) -> &'static str {
        "capnp"
    }
    fn name(&self) -> &'static str {
        "Cap'n Proto"
    }
    fn krate(&self) -> &'static str {
        "capnp"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        let scratch = capnp::Word::words_to_bytes_mut(&mut self.scratch);
        let mut message = capnp::message::Builder::new(capnp::message::ScratchSpaceHeapAllocator::new(scratch));
        {
            let mut m = message.init_root::<cp::account::Builder<'_>>();
            m.set_id(a.id);
            m.set_name(from_utf8(&a.name)?);
            m.set_state(a.state.bits());
            {
                let mut w = m.reborrow().init_wallet();
                w.set_currency(from_utf8(&a.wallet.currency)?);
                w.set_amount(a.wallet.amount);
            }
            if let Some(x) = &a.asset {
                let mut w = m.reborrow().init_asset();
                w.set_currency(from_utf8(&x.currency)?);
                w.set_amount(x.amount);
            }
            let mut orders = m.init_orders(u32::try_from(a.orders.len())?);
            for (i, o) in a.orders.iter().enumerate() {
                let mut p = orders.reborrow().get(i as u32);
                p.set_id(o.id);
                p.set_symbol(from_utf8(&o.symbol)?);
                p.set_side(cp::OrderSide::try_from(u16::from(o.side.to_wire()))?);
                p.set_type(cp::OrderType::try_from(u16::from(o.type_.to_wire()))?);
                p.set_price(o.price);
                p.set_volume(o.volume);
            }
        }
        self.buf.clear();
        capnp::serialize::write_message(&mut self.buf, &message)?;
        Ok(&self.buf)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        let r = read_capnp(data)?;
        let m = r.get_root::<cp::account::Reader<'_>>()?;
        *a = Account {
            id: m.get_id(),
            name: m.get_name()?.as_bytes().into(),
            state: State::from_bits_retain(m.get_state()),
            wallet: from_cp_balance(m.get_wallet()?)?,
            asset: if m.has_asset() { Some(Box::new(from_cp_balance(m.get_asset()?)?)) } else { None },
            orders: m
                .get_orders()?
                .iter()
                .map(|o| {
                    Ok(Order {
                        id: o.get_id(),
                        symbol: o.get_symbol()?.as_bytes().into(),
                        side: OrderSide::from_wire(o.get_side()? as u8),
                        type_: OrderType::from_wire(o.get_type()? as u8),
                        price: o.get_price(),
                        volume: o.get_volume(),
                    })
                })
                .collect::<Result<_, BoxError>>()?,
        };
        Ok(())
    }
    fn verify(&mut self, data: &[u8]) -> Option<Result<(), BoxError>> {
        let walk = || -> capnp::Result<()> {
            let r = read_capnp(data)?;
            r.get_root::<cp::account::Reader<'_>>()?.total_size()?;
            Ok(())
        };
        Some(walk().map_err(Into::into))
    }
}

// ---------------------------------------------------------------- bincode

/// bincode 2 (`Encode`/`Decode` derived on the mirror, the standard configuration): the reused
/// mirror encoded into a reused buffer, `decode_from_slice` into a new mirror moved into the
/// domain object.
struct Bincode {
    mirror: mirror::Account,
    buf: Vec<u8>,
}

impl Row for Bincode {
    fn id(&self) -> &'static str {
        "bincode"
    }
    fn name(&self) -> &'static str {
        "bincode"
    }
    fn krate(&self) -> &'static str {
        "bincode"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        self.mirror.fill(a)?;
        self.buf.clear();
        bincode::encode_into_std_write(&self.mirror, &mut self.buf, bincode::config::standard())?;
        Ok(&self.buf)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        let (m, used): (mirror::Account, usize) = bincode::decode_from_slice(data, bincode::config::standard())?;
        if used != data.len() {
            return Err(format!("{} bytes after the message", data.len() - used).into());
        }
        m.into_domain(a);
        Ok(())
    }
}

// ---------------------------------------------------------------- rkyv

/// rkyv 0.8 (derived on the mirror): `to_bytes_in` into a reused `AlignedVec`; deserialize is the
/// checked `rkyv::from_bytes` (validation, then the owned mirror moved into the domain object);
/// verify is `rkyv::access` (the bytecheck validation alone).
struct Rkyv {
    mirror: mirror::Account,
    buf: rkyv::util::AlignedVec,
}

impl Row for Rkyv {
    fn id(&self) -> &'static str {
        "rkyv"
    }
    fn name(&self) -> &'static str {
        "rkyv (validated)"
    }
    fn krate(&self) -> &'static str {
        "rkyv"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        self.mirror.fill(a)?;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.buf = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&self.mirror, buf)?;
        Ok(&self.buf)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        let m = rkyv::from_bytes::<mirror::Account, rkyv::rancor::Error>(data)?;
        m.into_domain(a);
        Ok(())
    }
    fn verify(&mut self, data: &[u8]) -> Option<Result<(), BoxError>> {
        let checked = rkyv::access::<mirror::ArchivedAccount, rkyv::rancor::Error>(data);
        Some(checked.map(|_| ()).map_err(Into::into))
    }
}

// ---------------------------------------------------------------- serde_json

/// serde_json (serde derived on the mirror): `to_writer` into a reused buffer, `from_slice`.
struct SerdeJson {
    mirror: mirror::Account,
    buf: Vec<u8>,
}

impl Row for SerdeJson {
    fn id(&self) -> &'static str {
        "serde_json"
    }
    fn name(&self) -> &'static str {
        "serde_json"
    }
    fn krate(&self) -> &'static str {
        "serde_json"
    }
    fn serialize(&mut self, a: &Account) -> Result<&[u8], BoxError> {
        self.mirror.fill(a)?;
        self.buf.clear();
        serde_json::to_writer(&mut self.buf, &self.mirror)?;
        Ok(&self.buf)
    }
    fn deserialize(&mut self, data: &[u8], a: &mut Account) -> Result<(), BoxError> {
        serde_json::from_slice::<mirror::Account>(data)?.into_domain(a);
        Ok(())
    }
}
