//! `fbec --rust --proto` (docs/rust.md "Protocol", docs/format.md 7): the original's protocol
//! streams of $SHARED/vectors read to the same messages whole, a byte at a time and in random
//! chunks, and written back byte for byte; bad frames reported and skipped; the model notice;
//! the proxy; and the client's requests, responses, rejects and timeouts, over bytes and over a
//! real socket.

use fbe::text::Text;
use fbe::{Answer, FrameError, FrameErrorKind, Limits, RequestError};
use generated::example::rpc;
use generated::shared::proto;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn shared(file: &str) -> Vec<u8> {
    let dir = PathBuf::from(
        std::env::var_os("SHARED").expect("SHARED: the folder of the golden vectors"),
    );
    std::fs::read(dir.join("vectors").join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The chunkings a stream is fed in: whole, a byte at a time, and seeded random sizes of 1..64.
fn chunkings(len: usize) -> Vec<Vec<usize>> {
    let mut random = Vec::new();
    let (mut seed, mut left) = (0x2545_f491_u64, len);
    while left > 0 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let n = ((seed >> 33) as usize % 64 + 1).min(left);
        random.push(n);
        left -= n;
    }
    vec![vec![len], vec![1; len], random]
}

fn feed<const FINAL: bool>(
    stream: &[u8],
    sizes: &[usize],
) -> Vec<Result<proto::Message, FrameError>> {
    let mut receiver = fbe::Receiver::<proto::Message, FINAL>::new();
    let mut events = Vec::new();
    let mut at = 0;
    for &n in sizes {
        let _ = receiver.receive(&stream[at..at + n], |e| events.push(e));
        at += n;
    }
    assert_eq!(receiver.pending(), 0, "a frame left incomplete");
    events
}

fn stream_vector<const FINAL: bool>(file: &str, text: &str) {
    let stream = shared(file);
    let lines: Vec<Vec<u8>> = shared(text)
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect();
    for sizes in chunkings(stream.len()) {
        let events = feed::<FINAL>(&stream, &sizes);
        let messages: Vec<proto::Message> =
            events.into_iter().map(|e| e.expect("a message")).collect();
        let texts: Vec<Vec<u8>> = messages.iter().map(Text::to_text).collect();
        assert_eq!(texts, lines, "{file} in {} chunks", sizes.len());
        let mut sender = fbe::Sender::<proto::Message, Vec<u8>, FINAL>::new(Vec::new());
        for m in &messages {
            match m {
                proto::Message::OrderMessage(v) => sender.send(v),
                proto::Message::BalanceMessage(v) => sender.send(v),
                proto::Message::AccountMessage(v) => sender.send(v),
            }
            .unwrap();
        }
        assert_eq!(sender.sent_messages(), 3);
        assert_eq!(sender.get_ref(), &stream, "{file} written back");
    }
}

#[test]
fn versioned_stream_of_the_original() {
    stream_vector::<false>("protocol.fbe.bin", "protocol.fbe.txt");
}

#[test]
fn final_stream_of_the_original() {
    stream_vector::<true>("protocol.final.bin", "protocol.final.txt");
}

fn kinds(events: &[Result<proto::Message, FrameError>]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            Ok(m) => fbe::Protocol::name(m).to_owned(),
            Err(e) => format!("{:?}", e.kind),
        })
        .collect()
}

#[test]
fn bad_frames_are_reported_and_skipped_in_any_chunking() {
    let good = shared("protocol.fbe.bin");
    let order = &good[..64];
    let mut unknown = order.to_vec();
    let body = u32::from_le_bytes(unknown[4..8].try_into().unwrap()) as usize;
    unknown[body + 4] = 99; // a type id no message has
    let mut bad_header = order.to_vec();
    bad_header[4] = 200; // the struct offset beyond the frame
    let mut bad_body = order.to_vec();
    bad_body[body + 8] = 250; // the Order body's offset beyond the frame
    let mut too_large = Vec::new();
    too_large.extend_from_slice(&1000u32.to_le_bytes());
    too_large.resize(1000, 0);
    let stream = [
        order,
        &unknown,
        order,
        &bad_header,
        &bad_body,
        &too_large,
        order,
    ]
    .concat();
    let limits = Limits {
        max_frame_size: 999,
        ..Limits::default()
    };
    for sizes in chunkings(stream.len()) {
        let mut receiver = proto::Receiver::with_limits(limits);
        let mut events = Vec::new();
        let mut at = 0;
        for n in sizes {
            receiver
                .receive(&stream[at..at + n], |e| events.push(e))
                .expect("the stream goes on");
            at += n;
        }
        assert_eq!(
            kinds(&events),
            [
                "proto.OrderMessage",
                "UnknownType",
                "proto.OrderMessage",
                "BadHeader",
                "InvalidBody",
                "TooLarge",
                "proto.OrderMessage"
            ]
        );
        let Err(e) = &events[4] else { unreachable!() };
        assert_eq!(e.offset, 64 * 4);
        assert!(
            e.to_string()
                .starts_with("invalid body: type id 1, frame of 64 bytes skipped: "),
            "{e}"
        );
        assert!(e.to_string().contains("proto.OrderMessage"), "{e}");
        assert_eq!(
            (receiver.received_messages(), receiver.receive_errors()),
            (3, 4)
        );
    }
}

#[test]
fn a_frame_too_small_loses_the_stream() {
    let good = shared("protocol.fbe.bin");
    let stream = [&good[..64], &12u32.to_le_bytes(), &good[..64]].concat();
    let mut receiver = proto::Receiver::new();
    let mut events = Vec::new();
    let lost = receiver.receive(&stream, |e| events.push(e)).unwrap_err();
    assert_eq!(lost.kind, FrameErrorKind::TooSmall);
    assert_eq!(kinds(&events), ["proto.OrderMessage", "TooSmall"]);
    assert!(receiver
        .receive(&good, |_| panic!("read after a lost stream"))
        .is_err());
    receiver.reset();
    receiver.receive(&good, |e| events.push(e)).unwrap();
    assert_eq!(events.len(), 5);
}

#[test]
fn the_model_notice_ends_the_stream_naming_both_models() {
    let good = shared("protocol.fbe.bin");
    let stream = [&fbe::model_notice(true)[..], &good[..64]].concat();
    let mut events = Vec::new();
    let e = proto::Receiver::new()
        .receive(&stream, |e| events.push(e))
        .unwrap_err();
    assert_eq!(e.kind, FrameErrorKind::ModelNotice);
    assert_eq!(events.len(), 1, "nothing after the notice is read");
    assert!(e.to_string().contains(
        "the other end reads final frames and refused ours: this end sends versioned frames (start both ends with the same model)"
    ));
    let stream = [&good[..64], &fbe::model_notice(false)[..]].concat();
    let e = proto::Receiver::new().receive(&stream, |_| {}).unwrap_err();
    assert!(
        e.to_string()
            .contains("the other end (reading versioned frames too) refused a frame of ours"),
        "{e}"
    );
    let final_stream = shared("protocol.final.bin");
    let e = proto::FinalReceiver::new().receive(
        &[&final_stream[..], &fbe::model_notice(false)].concat(),
        |_| {},
    );
    assert!(e
        .unwrap_err()
        .to_string()
        .contains("the other end reads versioned frames and refused ours: this end sends final"));
    let mut first = None;
    let _ = proto::Receiver::new().receive(&final_stream, |e| {
        first.get_or_insert(e);
    });
    assert!(
        first.unwrap().unwrap_err().is_model_mismatch(),
        "a final frame makes no sense to a versioned receiver"
    );
}

#[test]
fn proxy_hands_on_the_verified_frames_raw() {
    let good = shared("protocol.fbe.bin");
    let mut frames = Vec::new();
    for sizes in chunkings(good.len()) {
        frames.clear();
        let mut proxy = proto::Proxy::new();
        let mut at = 0;
        for n in sizes {
            proxy
                .receive(&good[at..at + n], |f| {
                    frames.push(f.map(|(t, b)| (t, b.to_vec())).unwrap())
                })
                .unwrap();
            at += n;
        }
        let ids: Vec<u32> = frames.iter().map(|f| f.0).collect();
        assert_eq!(ids, [1, 2, 3]);
        assert_eq!(frames.concat_bytes(), good);
    }
}

trait Concat {
    fn concat_bytes(&self) -> Vec<u8>;
}

impl Concat for Vec<(u32, Vec<u8>)> {
    fn concat_bytes(&self) -> Vec<u8> {
        self.iter().flat_map(|(_, b)| b.iter().copied()).collect()
    }
}

/// What a server of rpc.fbe answers (the examples' rules): a Pong for a Ping, an OrderAccepted for
/// an order of positive quantity, else an OrderRejected, nothing for a Ping of a negative sequence.
fn answer(m: rpc::Message, out: &mut rpc::Sender<impl Write>) {
    match m {
        rpc::Message::Ping(p) if p.sequence >= 0 => out
            .send(&rpc::Pong {
                id: p.id,
                sequence: p.sequence,
                payload: p.payload,
            })
            .map(drop),
        rpc::Message::PlaceOrder(o) if o.quantity > 0.0 => out
            .send(&rpc::OrderAccepted {
                id: o.id,
                order: 1,
                price: o.price,
                quantity: o.quantity,
            })
            .map(drop),
        rpc::Message::PlaceOrder(o) => out
            .send(&rpc::OrderRejected {
                id: o.id,
                reason: "quantity must be positive".into(),
            })
            .map(drop),
        rpc::Message::Notice(n) => out
            .send(&rpc::Heartbeat {
                time: fbe::Timestamp(n.text.len() as u64),
            })
            .map(drop),
        _ => Ok(()),
    }
    .unwrap();
}

#[test]
fn client_requests_over_bytes() {
    let mut client = rpc::Client::new(Vec::new());
    let ping = rpc::Ping {
        sequence: 7,
        payload: "hello".into(),
        ..Default::default()
    };
    let order = rpc::PlaceOrder {
        symbol: "EURUSD".into(),
        price: 1.5,
        quantity: 100.0,
        ..Default::default()
    };
    let bad = rpc::PlaceOrder {
        quantity: 0.0,
        id: fbe::uuid1(),
        ..order.clone()
    };
    let silent = rpc::Ping {
        sequence: -1,
        ..Default::default()
    };
    let ids: Vec<fbe::Uuid> = vec![
        client.start(&ping, Duration::ZERO).unwrap(),
        client.start(&order, Duration::from_secs(60)).unwrap(),
        client.start(&bad, Duration::from_secs(60)).unwrap(),
        client.start(&silent, Duration::from_millis(1)).unwrap(),
    ];
    assert!(matches!(
        client.start(&ping, Duration::ZERO),
        Err(RequestError::Duplicate)
    ));
    client
        .send(&rpc::Notice {
            text: "bye".into(),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(client.pending_requests(), 4);
    // the server's side, fed what the client wrote
    let mut server = rpc::Sender::new(Vec::new());
    rpc::Receiver::new()
        .receive(client.get_ref(), |m| answer(m.unwrap(), &mut server))
        .unwrap();
    assert!(
        client.take::<rpc::Ping>(ids[0]).is_none(),
        "no answer before it is read"
    );
    for b in server.get_ref().clone() {
        client.receive(&[b]).unwrap();
    }
    let pong = client.take::<rpc::Ping>(ids[0]).unwrap().unwrap();
    assert_eq!((pong.sequence, pong.payload.as_slice()), (7, &b"hello"[..]));
    assert_eq!(
        client
            .take::<rpc::PlaceOrder>(ids[1])
            .unwrap()
            .unwrap()
            .quantity,
        100.0
    );
    let rejected = client.take::<rpc::PlaceOrder>(ids[2]).unwrap().unwrap_err();
    assert!(matches!(
        &rejected,
        RequestError::Rejected(rpc::Message::OrderRejected(_))
    ));
    assert!(
        rejected
            .to_string()
            .contains("reason=\"quantity must be positive\""),
        "{rejected}"
    );
    assert!(client.take::<rpc::Ping>(ids[3]).is_none(), "still waiting");
    let notes: Vec<_> = client.notifications().collect();
    assert!(matches!(notes.as_slice(), [Ok(rpc::Message::Heartbeat(h))] if h.time.0 == 3));
    client.watchdog(Instant::now() + Duration::from_millis(5));
    assert!(matches!(
        client.take::<rpc::Ping>(ids[3]),
        Some(Err(RequestError::Timeout))
    ));
    assert_eq!(client.pending_requests(), 0);
    // reset fails what is pending; the other end's model notice too, naming both models
    let id = client.start(&ping, Duration::ZERO).unwrap();
    client.reset();
    assert!(matches!(
        client.take::<rpc::Ping>(id),
        Some(Err(RequestError::Reset))
    ));
    let id = client.start(&ping, Duration::ZERO).unwrap();
    assert!(client.receive(&fbe::model_notice(true)).is_err());
    let e = client.take::<rpc::Ping>(id).unwrap().unwrap_err();
    assert!(
        e.to_string().contains("the other end reads final frames"),
        "{e}"
    );
    assert_eq!(
        <rpc::Ping as fbe::Request<rpc::Message>>::answer(&rpc::Message::Pong(pong)),
        Answer::Response
    );
}

/// A server of rpc.fbe on a thread: one connection, answered until it closes.
fn serve<const FINAL: bool>() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut receiver = fbe::Receiver::<rpc::Message, FINAL>::new();
        let mut buf = [0; 4096];
        while let Ok(n @ 1..) = conn.read(&mut buf) {
            let mut out = fbe::Sender::<rpc::Message, Vec<u8>, FINAL>::new(Vec::new());
            if receiver
                .receive(&buf[..n], |m| serve_one(m.unwrap(), &mut out))
                .is_err()
            {
                return;
            }
            conn.write_all(out.get_ref()).unwrap();
        }
    });
    addr
}

fn serve_one<const FINAL: bool>(
    m: rpc::Message,
    out: &mut fbe::Sender<rpc::Message, Vec<u8>, FINAL>,
) {
    // the same answers as `answer`, in either model
    let mut versioned = rpc::Sender::new(Vec::new());
    answer(m, &mut versioned);
    let mut frames = Vec::new();
    rpc::Receiver::new()
        .receive(versioned.get_ref(), |m| frames.push(m.unwrap()))
        .unwrap();
    for f in frames {
        match f {
            rpc::Message::Pong(v) => out.send(&v),
            rpc::Message::OrderAccepted(v) => out.send(&v),
            rpc::Message::OrderRejected(v) => out.send(&v),
            rpc::Message::Heartbeat(v) => out.send(&v),
            _ => unreachable!(),
        }
        .unwrap();
    }
}

fn socket_client<const FINAL: bool>() {
    let conn = TcpStream::connect(serve::<FINAL>()).unwrap();
    conn.set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    let mut client = fbe::Client::<rpc::Message, TcpStream, FINAL>::new(conn);
    for sequence in 0..100 {
        let pong = client
            .request(
                &rpc::Ping {
                    sequence,
                    ..Default::default()
                },
                Duration::from_secs(10),
            )
            .unwrap();
        assert_eq!(pong.sequence, sequence);
    }
    let order = rpc::PlaceOrder {
        price: 1.25,
        quantity: 10.0,
        ..Default::default()
    };
    assert_eq!(
        client
            .request(&order, Duration::from_secs(10))
            .unwrap()
            .price,
        1.25
    );
    let e = client
        .request(
            &rpc::PlaceOrder {
                quantity: -1.0,
                ..order
            },
            Duration::from_secs(10),
        )
        .unwrap_err();
    assert!(matches!(e, RequestError::Rejected(_)), "{e}");
    let started = Instant::now();
    let silent = rpc::Ping {
        sequence: -1,
        ..Default::default()
    };
    assert!(matches!(
        client.request(&silent, Duration::from_millis(100)),
        Err(RequestError::Timeout)
    ));
    assert!(started.elapsed() >= Duration::from_millis(100));
    client
        .send(&rpc::Notice {
            text: "four".into(),
            ..Default::default()
        })
        .unwrap();
    client
        .request(&rpc::Ping::default(), Duration::from_secs(10))
        .unwrap();
    let notes: Vec<_> = client.notifications().collect();
    assert!(
        matches!(notes.as_slice(), [Ok(rpc::Message::Heartbeat(h))] if h.time.0 == 4),
        "{notes:?}"
    );
}

#[test]
fn client_requests_over_a_socket() {
    socket_client::<false>();
}

#[test]
fn final_client_requests_over_a_socket() {
    socket_client::<true>();
}

#[test]
fn a_client_of_the_other_model_hears_the_notice() {
    // a versioned server that answers frames making no sense to it with its model notice and closes
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut buf = [0; 4096];
        let mut receiver = rpc::Receiver::new();
        let mut mismatch = false;
        while let Ok(n @ 1..) = conn.read(&mut buf) {
            let _ = receiver.receive(&buf[..n], |e| {
                mismatch |= e.is_err_and(|e| e.is_model_mismatch())
            });
            if mismatch {
                conn.write_all(&fbe::model_notice(false)).unwrap();
                return;
            }
        }
    });
    let conn = TcpStream::connect(addr).unwrap();
    conn.set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    let mut client = rpc::FinalClient::new(conn);
    let e = client
        .request(&rpc::Ping::default(), Duration::from_secs(10))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "model notice: the other end reads versioned frames and refused ours: this end sends final frames \
         (start both ends with the same model) (frame at stream offset 0)"
    );
}
