//! A user's program on the fbe crate and the code fbe-build generated from shop.fbe:
//!
//! ```text
//! app write OUT                  writes the sample shop.Order (versioned model) to OUT
//! app roundtrip IN OUT           reads a shop.Order from IN and writes it back to OUT
//! app connect HOST:PORT IN OUT   sends the shop.Order of IN to a server over TCP (the protocol of
//!                                fbec --proto) and writes the Order it sends back to OUT
//! ```

use fbe::Struct;
use std::collections::HashMap;
use std::error::Error;
use std::io::Read;
use std::net::TcpStream;

mod gen {
    fbe::include_generated!();
}
use gen::shop;

fn sample() -> Result<shop::Order, Box<dyn Error>> {
    let mut prices = HashMap::new();
    for (sku, text) in [
        ("A-1", "19.99"),
        ("B-2", "-0.000001"),
        ("C", "79228162514264337593543950335"),
    ] {
        prices.insert(fbe::BString::from(sku), text.parse::<fbe::Decimal>()?);
    }
    Ok(shop::Order {
        cart: shop::Cart {
            id: fbe::parse_uuid("123e4567-e89b-12d3-a456-426655440000")?,
            color: shop::Color::Blue,
            perm: shop::Perm::READ | shop::Perm::WRITE,
            note: Some(-7),
            memo: None,
            lines: vec![
                shop::Line {
                    sku: "A-1".into(),
                    qty: 2,
                },
                shop::Line {
                    sku: "Ünï".into(),
                    qty: -3,
                },
            ],
            prices,
            at: fbe::Timestamp(1_700_000_000_123_456_789),
        },
    })
}

/// Sends `order` to the server at `address` and returns the first Order it sends back.
fn connect(address: &str, order: &shop::Order) -> Result<shop::Order, Box<dyn Error>> {
    let mut conn = TcpStream::connect(address)?;
    let mut sender = shop::Sender::new(conn.try_clone()?);
    sender.send(order)?;
    let mut receiver = shop::Receiver::new();
    let (mut back, mut buf) = (None, vec![0; 4096]);
    while back.is_none() {
        let n = conn.read(&mut buf)?;
        if n == 0 {
            break;
        }
        receiver.receive(&buf[..n], |event| match event {
            Ok(shop::Message::Order(v)) => back = back.take().or(Some(v)),
            Err(e) => eprintln!("{e}"),
        })?;
    }
    back.ok_or_else(|| format!("{address} closed the connection before its answer").into())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let order = match args[0].as_str() {
        "write" => sample()?,
        "roundtrip" => shop::Order::from_fbe(&std::fs::read(&args[1])?)?,
        "connect" => connect(&args[1], &shop::Order::from_fbe(&std::fs::read(&args[2])?)?)?,
        other => return Err(format!("unknown command {other}").into()),
    };
    std::fs::write(args.last().ok_or("no output file")?, order.to_fbe()?)?;
    Ok(())
}
