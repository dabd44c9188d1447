//! The TCP example of the Rust target (README.md): the rpc protocol of ../cpp/tcp/rpc.fbe.
//!
//! ```text
//! tcp                            a server on a free port and a client against it, in one process
//! tcp serve [--port N]           the server alone (tokio), with the limits of docs/tcp-examples.md:
//!           [--max-connections N] [--max-frame-size BYTES] [--idle-timeout S] [--frame-timeout S]
//! tcp connect HOST:PORT          the client alone (std's TcpStream; exit status 0 when every reply
//!             [--messages N]     is right)
//! ```
//!
//! `--final` switches either end to final-model frames (the bytes do not say which; both must agree).

mod server;

use std::error::Error;
use std::net::TcpStream;
use std::time::{Duration, Instant};

mod gen {
    fbe::include_generated!();
}
use gen::rpc;

/// How long the client waits for each reply.
const TIMEOUT: Duration = Duration::from_secs(10);

struct Options {
    command: String,
    address: String,
    port: u16,
    messages: i64,
    server: server::Config,
}

fn seconds(text: &str) -> Result<Option<Duration>, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("not a number of seconds: {text}"))?;
    if !(0.0..1e9).contains(&s) {
        return Err(format!("seconds out of range: {text}"));
    }
    Ok((s > 0.0).then(|| Duration::from_secs_f64(s)))
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        command: String::new(),
        address: String::new(),
        port: 0,
        messages: 1000,
        server: server::Config::default(),
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "serve" | "connect" if o.command.is_empty() => {
                o.address = if arg == "connect" {
                    value()?
                } else {
                    String::new()
                };
                o.command.clone_from(&arg);
            }
            "--final" => o.server.is_final = true,
            "--port" => o.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--messages" => {
                o.messages = value()?.parse().map_err(|e| format!("--messages: {e}"))?
            }
            "--max-connections" => {
                o.server.max_connections = value()?
                    .parse()
                    .map_err(|e| format!("--max-connections: {e}"))?
            }
            "--max-frame-size" => {
                o.server.max_frame_size = value()?
                    .parse()
                    .map_err(|e| format!("--max-frame-size: {e}"))?
            }
            "--idle-timeout" => o.server.idle_timeout = seconds(&value()?)?,
            "--frame-timeout" => o.server.frame_timeout = seconds(&value()?)?,
            _ => {
                return Err(format!(
                    "unknown argument {arg} (see the top of src/main.rs)"
                ))
            }
        }
    }
    if o.server.max_connections == 0 || o.server.max_frame_size == 0 {
        return Err("--max-connections and --max-frame-size must be positive".into());
    }
    Ok(o)
}

fn main() {
    let o = options().unwrap_or_else(|e| {
        eprintln!("tcp: {e}");
        std::process::exit(2)
    });
    if o.command == "connect" {
        std::process::exit(client(&o.address, o.server.is_final, o.messages));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let (server, listener) = runtime
        .block_on(async {
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", o.port)).await?;
            println!("listening on {}", listener.local_addr()?);
            Ok::<_, std::io::Error>((server::Server::new(o.server.clone()), listener))
        })
        .unwrap_or_else(|e| {
            eprintln!("tcp: {e}");
            std::process::exit(1)
        });
    if o.command == "serve" {
        runtime.block_on(async {
            let mut terminate =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .expect("a SIGTERM handler");
            tokio::select! {
                _ = std::sync::Arc::clone(&server).serve(listener) => {}
                _ = terminate.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        });
        println!("server: {}, bye", server.summary());
        return;
    }
    // both ends in one process: the server on a thread of its own
    let address = listener
        .local_addr()
        .expect("the server's address")
        .to_string();
    let serving = std::sync::Arc::clone(&server);
    std::thread::spawn(move || runtime.block_on(serving.serve(listener)));
    let status = client(&address, o.server.is_final, o.messages);
    println!("server: {}", server.summary());
    std::process::exit(status);
}

fn client(address: &str, is_final: bool, messages: i64) -> i32 {
    let run = if is_final {
        run_client::<true>(address, messages)
    } else {
        run_client::<false>(address, messages)
    };
    match run {
        Ok(said) => {
            println!("client: {said}");
            0
        }
        Err(e) => {
            eprintln!("client: {e}");
            1
        }
    }
}

/// Sends `messages` Pings, an order that is accepted and one that is rejected, a Notice (answered by
/// the server's Heartbeat) and a last Ping; checks every reply.
fn run_client<const FINAL: bool>(address: &str, messages: i64) -> Result<String, Box<dyn Error>> {
    let conn = TcpStream::connect(address)?;
    conn.set_nodelay(true)?;
    conn.set_read_timeout(Some(Duration::from_millis(50)))?; // how often a request's timeout is checked
    let mut client = fbe::Client::<rpc::Message, TcpStream, FINAL>::new(conn);
    let started = Instant::now();
    for sequence in 0..messages {
        let payload = format!("ping {sequence}");
        let ping = rpc::Ping {
            sequence,
            payload: payload.as_str().into(),
            ..Default::default()
        };
        let pong = client.request(&ping, TIMEOUT)?;
        if pong.sequence != sequence || pong.payload != payload {
            return Err(format!("ping {sequence} answered by {pong:?}").into());
        }
    }
    let elapsed = started.elapsed();
    let order = rpc::PlaceOrder {
        symbol: "EURUSD".into(),
        price: 1.0875,
        quantity: 100.0,
        ..Default::default()
    };
    let accepted = client.request(&order, TIMEOUT)?;
    let refused = rpc::PlaceOrder {
        id: fbe::uuid1(),
        quantity: 0.0,
        ..order
    };
    let reason = match client.request(&refused, TIMEOUT) {
        Err(fbe::RequestError::Rejected(rpc::Message::OrderRejected(r))) => r.reason,
        other => return Err(format!("an order of quantity 0 was not rejected: {other:?}").into()),
    };
    client.send(&rpc::Notice {
        text: "bye".into(),
        ..Default::default()
    })?;
    client.request(
        &rpc::Ping {
            sequence: messages,
            ..Default::default()
        },
        TIMEOUT,
    )?; // after the heartbeat
    let heartbeats = client
        .notifications()
        .filter(|n| matches!(n, Ok(rpc::Message::Heartbeat(_))))
        .count();
    if heartbeats != 1 {
        return Err(format!("{heartbeats} heartbeats for one notice").into());
    }
    let model = if FINAL { "final" } else { "versioned" };
    let rate = messages as f64 / elapsed.as_secs_f64().max(1e-9);
    Ok(format!(
        "{model}: {messages} pings in {:.1} ms ({rate:.0}/s), order {} accepted at {}, one rejected ({reason}), 1 heartbeat",
        elapsed.as_secs_f64() * 1e3,
        accepted.order,
        accepted.price
    ))
}
