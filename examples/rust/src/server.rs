//! The rpc server on tokio: one task per connection reads into a 64 KiB buffer, feeds what
//! arrives to the generated receiver (any fragmentation), answers each request through the
//! generated sender into a buffer and writes the replies of each read at once. What a client
//! cannot do to it (docs/tcp-examples.md, the same policy in every language's example):
//!
//! * make it buffer without bound: the replies of a read are written before the next read, so a
//!   client that does not read them stops being read itself once the socket buffers are full
//!   (backpressure), and is dropped when a write stalls for the idle timeout;
//! * make it allocate what it has not sent: a partial frame holds only the bytes received, and a
//!   frame size above `max_frame_size` drops the client (fbe::Receiver, docs/limits.md 6);
//! * hold a connection forever: the idle timeout without a byte read closes it;
//! * hold a slot by sending slowly: a frame must be whole `frame_timeout` after its first byte
//!   (the first frame: after the accept), or the connection is closed;
//! * exhaust it with connections: at `max_connections` a new connection takes the slot of the
//!   connection that has waited longest for a frame; when every open connection is between
//!   frames, the new one is closed at once (one message per episode).
//!
//! A bad frame drops its client with one message, and the rest of what it sent is not processed;
//! a frame that makes no sense in the server's model (too small, a bad header, an unknown type)
//! first gets the model notice (docs/format.md 7.4).

use crate::rpc;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// The bytes of each socket read (one buffer per connection).
const READ_BUFFER_SIZE: usize = 64 << 10;

/// The server's limits: each is an option of `tcp serve`.
#[derive(Clone, Debug)]
pub struct Config {
    /// Connections open at once.
    pub max_connections: usize,
    /// The largest frame a client may send.
    pub max_frame_size: usize,
    /// Close a connection with no byte read, or whose replies are not read, this long (None: never).
    pub idle_timeout: Option<Duration>,
    /// Close a connection whose frame is not whole this long after its first byte (None: never).
    pub frame_timeout: Option<Duration>,
    /// Final-model frames (the client must use them too).
    pub is_final: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_connections: 256,
            max_frame_size: 1 << 20,
            idle_timeout: Some(Duration::from_secs(60)),
            frame_timeout: Some(Duration::from_secs(10)),
            is_final: false,
        }
    }
}

/// An open connection: since when it waits for a frame (nanoseconds of the server's clock, 0
/// between frames) and how to close it.
struct Slot {
    since: Arc<AtomicU64>,
    evict: Arc<Notify>,
}

#[derive(Default)]
struct Open {
    slots: HashMap<u64, Slot>,
    next: u64,
    // one message per episode at max_connections, not one per connection: an episode ends when
    // fewer than three quarters of max_connections are open
    evicting: bool,
    refusing: bool,
}

/// The server's connections and counts, shared by its tasks.
pub struct Server {
    config: Config,
    epoch: Instant,
    open: Mutex<Open>,
    sessions: AtomicU64,
    refused: AtomicU64,
    evicted: AtomicU64,
    requests: AtomicU64,
}

impl Server {
    /// A server with `config`.
    pub fn new(config: Config) -> Arc<Self> {
        Arc::new(Server {
            config,
            epoch: Instant::now(),
            open: Mutex::default(),
            sessions: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
            requests: AtomicU64::new(0),
        })
    }

    /// Accepts connections until the task is dropped.
    pub async fn serve(self: Arc<Self>, listener: TcpListener) {
        loop {
            match listener.accept().await {
                Ok((stream, peer)) => {
                    if let Some((id, since, evict)) = self.admit() {
                        let server = Arc::clone(&self);
                        tokio::spawn(async move {
                            if server.config.is_final {
                                server.session::<true>(stream, peer, &since, &evict).await;
                            } else {
                                server.session::<false>(stream, peer, &since, &evict).await;
                            }
                            server.open.lock().unwrap().slots.remove(&id);
                        });
                    }
                }
                // out of file descriptors and the like: try again shortly
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }

    /// The closing line's counts.
    pub fn summary(&self) -> String {
        format!(
            "{} session(s), {} refused over max_connections, {} evicted, {} requests",
            self.sessions.load(Ordering::Relaxed),
            self.refused.load(Ordering::Relaxed),
            self.evicted.load(Ordering::Relaxed),
            self.requests.load(Ordering::Relaxed)
        )
    }

    /// A time of the server's clock in nanoseconds, never 0 (0 means "between frames").
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64 + 1
    }

    /// Registers a new connection, at max_connections in the slot of the connection that has waited
    /// longest for a frame; `None` (the connection is dropped) when every open one is between
    /// frames. The new connection waits for its first frame from now.
    fn admit(&self) -> Option<(u64, Arc<AtomicU64>, Arc<Notify>)> {
        let max = self.config.max_connections;
        let mut open = self.open.lock().unwrap();
        if open.slots.len() >= max {
            let slowest = open
                .slots
                .iter()
                .map(|(id, slot)| (slot.since.load(Ordering::Relaxed), *id))
                .filter(|&(since, _)| since != 0)
                .min();
            if let Some((_, victim)) = slowest {
                self.evicted.fetch_add(1, Ordering::Relaxed);
                if !open.evicting {
                    eprintln!(
                        "server: {} connections open (max_connections): a new one evicts the one waiting longest for a frame",
                        open.slots.len()
                    );
                }
                open.evicting = true;
                if let Some(slot) = open.slots.remove(&victim) {
                    slot.evict.notify_one(); // its task ends without a message
                }
            }
        }
        if open.slots.len() >= max {
            self.refused.fetch_add(1, Ordering::Relaxed);
            if !open.refusing {
                eprintln!(
                    "server: {} connections open (max_connections), each between frames: closing new ones until one ends",
                    open.slots.len()
                );
            }
            open.refusing = true;
            return None;
        }
        if open.slots.len() < max - max / 4 {
            (open.evicting, open.refusing) = (false, false);
        }
        let slot = Slot {
            since: Arc::new(AtomicU64::new(self.now())),
            evict: Arc::new(Notify::new()),
        };
        let handles = (Arc::clone(&slot.since), Arc::clone(&slot.evict));
        open.next += 1;
        let id = open.next;
        open.slots.insert(id, slot);
        self.sessions.fetch_add(1, Ordering::Relaxed);
        Some((id, handles.0, handles.1))
    }

    /// Serves one connection until it closes, breaks a rule or is evicted.
    async fn session<const FINAL: bool>(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
        since: &AtomicU64,
        evict: &Notify,
    ) {
        let dropping =
            |reason: String| eprintln!("server: {peer}: dropping the connection: {reason}");
        let _ = stream.set_nodelay(true);
        let (mut input, mut output) = stream.into_split();
        let limits = fbe::Limits {
            max_frame_size: self.config.max_frame_size,
            ..fbe::Limits::DEFAULT
        };
        let mut receiver = fbe::Receiver::<rpc::Message, FINAL>::with_limits(limits);
        let mut replies = fbe::Sender::<rpc::Message, Vec<u8>, FINAL>::new(Vec::new());
        let mut handler = Session {
            replies: &mut replies,
            orders: 0,
            answered: 0,
        };
        let mut buf = vec![0; READ_BUFFER_SIZE];
        let mut framed = false; // a frame completed
        loop {
            // the read waits the idle timeout at most, and no longer than the frame waited for is due
            let waiting = since.load(Ordering::Relaxed);
            let frame_due = self
                .config
                .frame_timeout
                .filter(|_| waiting != 0)
                .map(|t| self.epoch + Duration::from_nanos(waiting - 1) + t);
            let idle_due = self.config.idle_timeout.map(|t| Instant::now() + t);
            let due = frame_due.into_iter().chain(idle_due).min();
            let n = tokio::select! {
                _ = evict.notified() => return,
                read = until(due, input.read(&mut buf)) => match read {
                    Some(Ok(0)) => return, // the client left
                    Some(Ok(n)) => n,
                    Some(Err(e)) => return dropping(format!("reading: {e}")),
                    None if frame_due.is_some_and(|d| Instant::now() >= d) => {
                        let after = if framed { "its first byte" } else { "the connection opened" };
                        let timeout = self.config.frame_timeout.unwrap_or_default();
                        return dropping(format!("frame timeout: no whole frame {timeout:?} after {after}"));
                    }
                    None => return dropping(format!("idle for {:?} (nothing read)", self.config.idle_timeout.unwrap_or_default())),
                },
            };
            let unfinished = receiver.pending() + n; // pending after this read if no frame completes
            let mut bad: Option<fbe::FrameError> = None;
            let _ = receiver.receive(&buf[..n], |event| match event {
                _ if bad.is_some() => {} // the rest of what a dropped client sent is not processed
                Ok(m) => handler.answer(m),
                Err(e) => bad = Some(e),
            });
            self.requests
                .fetch_add(std::mem::take(&mut handler.answered), Ordering::Relaxed);
            if !handler.replies.get_ref().is_empty() {
                let written = tokio::select! {
                    _ = evict.notified() => return,
                    written = until(idle_due, output.write_all(handler.replies.get_ref())) => written,
                };
                handler.replies.get_mut().clear();
                match written {
                    Some(Ok(())) => {}
                    Some(Err(e)) => return dropping(format!("writing: {e}")),
                    None => {
                        let idle = self.config.idle_timeout.unwrap_or_default();
                        return dropping(format!(
                            "replies not read for {idle:?} (the client does not read them)"
                        ));
                    }
                }
            }
            if let Some(e) = bad {
                dropping(format!("{e}{}", mismatch_hint(&e, FINAL)));
                if e.is_model_mismatch() {
                    notice(input, output, FINAL).await;
                }
                return;
            }
            // a frame completed when fewer bytes are pending; the wait for the next one begins with its
            // first byte
            let pending = receiver.pending();
            if pending < unfinished {
                framed = true;
                since.store(if pending > 0 { self.now() } else { 0 }, Ordering::Relaxed);
            } else if since.load(Ordering::Relaxed) == 0 {
                since.store(self.now(), Ordering::Relaxed);
            }
        }
    }
}

/// `work`, or `None` when `due` passes first.
async fn until<T>(due: Option<Instant>, work: impl std::future::Future<Output = T>) -> Option<T> {
    match due {
        Some(due) => tokio::time::timeout_at(due.into(), work).await.ok(),
        None => Some(work.await),
    }
}

/// The model notice after the replies written so far, then the sending side closed. Closing with
/// the client's bytes unread would reset the connection and lose the notice: what arrives is read
/// and dropped until the client closes (a second at most).
async fn notice(mut input: OwnedReadHalf, mut output: OwnedWriteHalf, is_final: bool) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        output.write_all(&fbe::model_notice(is_final)).await?;
        output.shutdown().await?;
        let mut sink = [0; 4096];
        while input.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    })
    .await;
}

/// The likely cause of frames that make no sense: the two ends disagree on `--final`.
fn mismatch_hint(e: &fbe::FrameError, is_final: bool) -> &'static str {
    match (e.is_model_mismatch(), is_final) {
        (false, _) => "",
        (true, true) => {
            " (this server reads final-model frames: was the client started without --final?)"
        }
        (true, false) => {
            " (this server reads versioned frames: was the client started with --final?)"
        }
    }
}

/// The answers of one connection, queued for the write after each read.
struct Session<'a, const FINAL: bool> {
    replies: &'a mut fbe::Sender<rpc::Message, Vec<u8>, FINAL>,
    orders: i64,
    answered: u64,
}

impl<const FINAL: bool> Session<'_, FINAL> {
    /// Ping: a Pong of the same id; PlaceOrder: OrderAccepted, or OrderRejected when the quantity is
    /// not positive or the symbol empty; Notice: a Heartbeat holding the notice's length.
    fn answer(&mut self, m: rpc::Message) {
        let sent = match m {
            rpc::Message::Ping(v) => self.replies.send(&rpc::Pong {
                id: v.id,
                sequence: v.sequence,
                payload: v.payload,
            }),
            rpc::Message::PlaceOrder(v) if v.symbol.is_empty() || v.quantity <= 0.0 => {
                let reason = if v.symbol.is_empty() {
                    "empty symbol"
                } else {
                    "quantity must be positive"
                };
                self.replies.send(&rpc::OrderRejected {
                    id: v.id,
                    reason: reason.into(),
                })
            }
            rpc::Message::PlaceOrder(v) => {
                self.orders += 1;
                let accepted = rpc::OrderAccepted {
                    id: v.id,
                    order: self.orders,
                    price: v.price,
                    quantity: v.quantity,
                };
                self.replies.send(&accepted)
            }
            rpc::Message::Notice(v) => self.replies.send(&rpc::Heartbeat {
                time: fbe::Timestamp(v.text.len() as u64),
            }),
            _ => return, // replies of the other direction: nothing to answer
        };
        sent.expect("an rpc reply is always writable into memory");
        self.answered += 1;
    }
}
