//! The protocol (docs/format.md 7): messages as frames on a byte stream.
//!
//! `fbec --rust --proto` generates, per schema package, a `Message` enum (the package's dispatch
//! table: its own messages, then its imports') implementing [`Protocol`], a `Handler` trait with
//! one method per message, and the [`Sender`], [`Receiver`], [`Proxy`] and [`Client`] of that
//! enum (`Sender<W>`, `FinalSender<W>`, ...). Everything they do lives here:
//!
//! * [`Sender`] writes each message as one frame to a [`std::io::Write`] (a socket, a `Vec<u8>`);
//! * [`Receiver`] takes the stream in chunks of any size ([`Receiver::receive`], single bytes
//!   included) or pumps a [`std::io::Read`] ([`Receiver::read_from`]), and hands each message, or
//!   the [`FrameError`] of each frame it refused and skipped, to a callback, in stream order;
//! * [`Proxy`] verifies the frames and hands them on raw (versioned only, docs/format.md 7.5);
//! * [`Client`] sends `[request]` messages and matches their response or reject by `id`, with a
//!   timeout (docs/format.md 7.6).
//!
//! The model is a type parameter (`FINAL`): a stream is versioned or final as a whole and its
//! bytes do not say which, so both ends must use the same. An end that reads frames making no
//! sense in its model sends the [`model_notice`] and closes; a receiver that reads the notice
//! reports it ([`FrameErrorKind::ModelNotice`]) as the end of the stream (docs/format.md 7.4).

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::{self, Read, Write};
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use crate::text::Text;
use crate::{DecodeError, EncodeError, Limits, Struct, Uuid, Writer};

/// The smallest versioned frame: the root of a struct without fields (docs/format.md 7.1).
pub const MIN_VERSIONED_FRAME: usize = 16;
/// The smallest final frame.
pub const MIN_FINAL_FRAME: usize = 8;
/// The most a receiver keeps of the buffer of a large frame once it is done.
const KEEP_CAPACITY: usize = 64 << 10;
/// The chunk [`Receiver::read_from`] and [`Client::request`] read at a time.
pub const READ_BUFFER_SIZE: usize = 64 << 10;

/// A schema package's messages: the enum `fbec --rust --proto` generates (`Message`), one variant
/// per entry of the package's dispatch table.
pub trait Protocol: Sized {
    /// Reads the whole frame of `type_id` in the versioned (or final) model; `Ok(None)` when no
    /// message of the package or its imports has that type id.
    fn read(type_id: u32, frame: &[u8], is_final: bool, limits: &Limits) -> Result<Option<Self>, DecodeError>;
    /// Checks the frame as [`Protocol::read`] reads it, without making the value; `Ok(false)` when
    /// no message has that type id.
    fn verify(type_id: u32, frame: &[u8], is_final: bool, limits: &Limits) -> Result<bool, DecodeError>;
    /// The message's qualified schema name (`proto.OrderMessage`).
    fn name(&self) -> &'static str;
    /// The `uuid id` field of a message that answers requests (a response or a reject).
    fn id(&self) -> Option<Uuid> {
        None
    }
}

/// A message a [`Sender`] of the protocol `M` sends (generated for each message of the package
/// and of its imports).
pub trait Member<M>: Struct {}

/// What a received message is to a pending request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Its response: completes it.
    Response,
    /// One of its rejects (`[reject(E)]`): fails it.
    Reject,
    /// Nothing: the message goes to the client's notifications.
    Other,
}

/// A `[request]` message with a `[response(R)]` (generated): how its answers are told apart.
pub trait Request<M>: Member<M> {
    /// The response's type.
    type Response;
    /// The `uuid id` field the response and rejects carry back.
    fn request_id(&self) -> Uuid;
    /// What `m` is to a request of this type with the same id.
    fn answer(m: &M) -> Answer;
    /// The response in `m` (`None` when `m` is not the response).
    fn response(m: M) -> Option<Self::Response>;
}

/// Reads one whole frame of `T` in the versioned or final model (generated [`Protocol::read`]).
pub fn read_frame<T: Struct>(frame: &[u8], is_final: bool, limits: &Limits) -> Result<T, DecodeError> {
    if is_final {
        T::from_final_with(frame, limits)
    } else {
        T::from_fbe_with(frame, limits)
    }
}

/// Checks one whole frame of `T` as [`read_frame`] reads it (generated [`Protocol::verify`]).
pub fn verify_frame<T: Struct>(frame: &[u8], is_final: bool, limits: &Limits) -> Result<(), DecodeError> {
    if is_final {
        T::verify_final(frame, limits)
    } else {
        T::verify_fbe(frame, limits)
    }
}

// ---------------------------------------------------------------- frame errors

/// Why a receiver did not deliver a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// A frame size below the minimum (16 versioned, 8 final): nothing tells where the next frame
    /// starts, so the rest of the stream is dropped until `reset`.
    TooSmall,
    /// A frame size above `Limits::max_frame_size`: skipped as its bytes arrive, never buffered.
    TooLarge,
    /// A versioned frame whose struct offset points outside it; skipped.
    BadHeader,
    /// No message of the package or its imports has the frame's type id; skipped.
    UnknownType,
    /// The body does not decode ([`FrameError::cause`] is the [`DecodeError`]); skipped.
    InvalidBody,
    /// The other end's model notice (docs/format.md 7.4): it refused a frame of ours and closed.
    ModelNotice,
}

impl FrameErrorKind {
    fn text(self) -> &'static str {
        match self {
            Self::TooSmall => "frame too small",
            Self::TooLarge => "frame too large",
            Self::BadHeader => "bad frame header",
            Self::UnknownType => "unknown type",
            Self::InvalidBody => "invalid body",
            Self::ModelNotice => "model notice",
        }
    }
}

/// A frame a receiver refused: what, where in the stream (the frame's first byte, counted from
/// the receiver's start or last reset), the size it declared and, for an invalid body, the
/// [`DecodeError`] naming the type, field and offset inside the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// What is wrong.
    pub kind: FrameErrorKind,
    /// The details.
    pub message: String,
    /// The stream offset of the frame's first byte.
    pub offset: u64,
    /// The frame's declared size.
    pub size: usize,
    /// The body's decode error (an invalid body).
    pub cause: Option<DecodeError>,
}

impl FrameError {
    fn new(kind: FrameErrorKind, message: String, offset: u64, size: usize) -> Self {
        FrameError { kind, message, offset, size, cause: None }
    }

    /// Whether the stream is lost with this error (a frame too small, a model notice): nothing after
    /// it is read until `reset`.
    pub fn is_fatal(&self) -> bool {
        matches!(self.kind, FrameErrorKind::TooSmall | FrameErrorKind::ModelNotice)
    }

    /// Whether the frame makes no sense in the receiver's model (too small, a bad header, an
    /// unknown type): the sign of a peer speaking the other model, answered by sending the
    /// [`model_notice`] and closing (docs/format.md 7.4).
    pub fn is_model_mismatch(&self) -> bool {
        matches!(self.kind, FrameErrorKind::TooSmall | FrameErrorKind::BadHeader | FrameErrorKind::UnknownType)
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.text(), self.message)?;
        if let Some(cause) = &self.cause {
            write!(f, ": {cause}")?;
        }
        write!(f, " (frame at stream offset {})", self.offset)
    }
}

impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_ref().map(|e| e as _)
    }
}

/// The frame sizes of the model notice: the end that sends it reads versioned (1) or final (2) frames.
const NOTICE_VERSIONED: usize = 1;
const NOTICE_FINAL: usize = 2;

/// The model notice (docs/format.md 7.4): the 4 bytes an end sends before it closes a connection
/// whose frames made no sense in its model, the frame size 1 (it reads versioned frames) or 2
/// (final frames).
pub fn model_notice(is_final: bool) -> [u8; 4] {
    [if is_final { NOTICE_FINAL } else { NOTICE_VERSIONED } as u8, 0, 0, 0]
}

fn model_name(is_final: bool) -> &'static str {
    if is_final {
        "final"
    } else {
        "versioned"
    }
}

/// What a receiver of the versioned (or final) model says of the notice of frame size 1 or 2.
pub fn model_notice_text(size: usize, is_final: bool) -> String {
    let (theirs, ours) = (model_name(size == NOTICE_FINAL), model_name(is_final));
    if theirs == ours {
        format!("the other end (reading {theirs} frames too) refused a frame of ours and closed")
    } else {
        format!(
            "the other end reads {theirs} frames and refused ours: this end sends {ours} frames \
             (start both ends with the same model)"
        )
    }
}

/// The type id of a whole frame: a final frame's at +4, a versioned frame's in its root body
/// (docs/format.md 7.1). A versioned frame whose struct offset points outside it is a bad header.
pub fn frame_type(frame: &[u8], is_final: bool) -> Result<u32, FrameError> {
    let n = frame.len();
    let minimum = if is_final { MIN_FINAL_FRAME } else { MIN_VERSIONED_FRAME };
    if n < minimum {
        let message = format!("{} frame shorter than {minimum} bytes", model_name(is_final));
        return Err(FrameError::new(FrameErrorKind::TooSmall, message, 0, n));
    }
    if is_final {
        return Ok(crate::get_u32(frame, 4));
    }
    let at = crate::get_u32(frame, 4) as usize;
    if at < 8 || at > n - 8 {
        let message = format!("struct offset {at} points outside the frame of {n} bytes");
        return Err(FrameError::new(FrameErrorKind::BadHeader, message, 0, n));
    }
    Ok(crate::get_u32(frame, at + 4))
}

// ---------------------------------------------------------------- frames

/// What [`Frames::feed`] hands on: a whole frame with its stream offset, or a refused frame size.
type FrameSink<'s> = dyn FnMut(Result<(u64, &[u8]), FrameError>) + 's;

/// Splits a stream fed in chunks into whole frames (the part every receiver shares).
#[derive(Debug)]
struct Frames {
    limits: Limits,
    is_final: bool,
    pending: Vec<u8>,
    skip: usize,
    broken: Option<FrameError>,
    offset: u64,
}

impl Frames {
    fn new(limits: Limits, is_final: bool) -> Self {
        Frames { limits, is_final, pending: Vec::new(), skip: 0, broken: None, offset: 0 }
    }

    fn reset(&mut self) {
        self.pending.clear();
        self.skip = 0;
        self.broken = None;
        self.offset = 0;
    }

    /// Refuses a frame size below the minimum (the stream is lost: `broken`) or above the maximum.
    fn check(&mut self, size: usize) -> Result<(), FrameError> {
        let minimum = if self.is_final { MIN_FINAL_FRAME } else { MIN_VERSIONED_FRAME };
        let (kind, message) = if size == NOTICE_VERSIONED || size == NOTICE_FINAL {
            (FrameErrorKind::ModelNotice, model_notice_text(size, self.is_final))
        } else if size < minimum {
            let m = format!("frame size {size} is below the minimum {minimum}; the rest of the stream is dropped");
            (FrameErrorKind::TooSmall, m)
        } else if size > self.limits.max_frame_size {
            let m = format!("frame size {size} is above the maximum {}; skipped", self.limits.max_frame_size);
            return Err(FrameError::new(FrameErrorKind::TooLarge, m, self.offset, size));
        } else {
            return Ok(());
        };
        let e = FrameError::new(kind, message, self.offset, size);
        self.broken = Some(e.clone());
        Err(e)
    }

    /// Feeds one chunk: each whole frame (with its stream offset) and each refused size goes to
    /// `sink` in order; a lost stream is also the result.
    fn feed(&mut self, mut data: &[u8], sink: &mut FrameSink<'_>) -> Result<(), FrameError> {
        if let Some(e) = &self.broken {
            return Err(e.clone());
        }
        loop {
            let n = self.skip.min(data.len());
            self.skip -= n;
            self.offset += n as u64;
            data = &data[n..];
            if data.is_empty() {
                return Ok(());
            }
            if self.pending.len() < 4 {
                let take = (4 - self.pending.len()).min(data.len());
                if self.pending.is_empty() && data.len() >= 4 {
                    // whole frames straight from the caller's memory
                    let size = crate::get_u32(data, 0) as usize;
                    if let Err(e) = self.check(size) {
                        self.skip = size;
                        sink(Err(e));
                        match &self.broken {
                            Some(e) => return Err(e.clone()),
                            None => continue,
                        }
                    }
                    if size <= data.len() {
                        sink(Ok((self.offset, &data[..size])));
                        self.offset += size as u64;
                        data = &data[size..];
                        continue;
                    }
                }
                self.pending.extend_from_slice(&data[..take]);
                data = &data[take..];
                if self.pending.len() < 4 {
                    return Ok(());
                }
                let size = crate::get_u32(&self.pending, 0) as usize;
                if let Err(e) = self.check(size) {
                    self.pending.clear();
                    self.offset += 4;
                    self.skip = size.saturating_sub(4);
                    sink(Err(e));
                    match &self.broken {
                        Some(e) => return Err(e.clone()),
                        None => continue,
                    }
                }
            }
            let size = crate::get_u32(&self.pending, 0) as usize;
            let take = (size - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() < size {
                return Ok(());
            }
            let frame = std::mem::take(&mut self.pending);
            sink(Ok((self.offset, &frame)));
            self.offset += size as u64;
            if frame.capacity() <= KEEP_CAPACITY {
                self.pending = frame;
                self.pending.clear();
            }
        }
    }
}

/// The type id of a whole frame and the frame error of a refused one, placed at its stream offset.
fn dispatch<R>(
    frame: &[u8],
    offset: u64,
    is_final: bool,
    decode: impl FnOnce(u32) -> Result<Option<R>, DecodeError>,
) -> Result<R, FrameError> {
    let type_id = frame_type(frame, is_final).map_err(|e| FrameError { offset, ..e })?;
    let size = frame.len();
    match decode(type_id) {
        Ok(Some(v)) => Ok(v),
        Ok(None) => {
            let message = format!("no message has type id {type_id} (frame of {size} bytes skipped)");
            Err(FrameError::new(FrameErrorKind::UnknownType, message, offset, size))
        }
        Err(e) => {
            let message = format!("type id {type_id}, frame of {size} bytes skipped");
            Err(FrameError { cause: Some(e), ..FrameError::new(FrameErrorKind::InvalidBody, message, offset, size) })
        }
    }
}

// ---------------------------------------------------------------- receiver

/// Reads the frames of the protocol `M` (versioned, or final with `FINAL`) from a stream fed in
/// chunks of any size (docs/format.md 7.4, docs/limits.md 6): a frame size above
/// `max_frame_size` is refused before any of its bytes are buffered, a frame arriving over several
/// chunks is buffered as its bytes arrive (its declared size is never allocated ahead), and each
/// body is read under the [`Limits`]. Each bad frame is reported and skipped; a frame size below
/// the minimum or the model notice loses the stream until [`Receiver::reset`].
///
/// ```ignore
/// let mut receiver = proto::Receiver::new();       // fbec --rust --proto's alias of this type
/// receiver.receive(&chunk, |event| handler.handle(event))?;
/// ```
#[derive(Debug)]
pub struct Receiver<M, const FINAL: bool = false> {
    frames: Frames,
    received: u64,
    errors: u64,
    protocol: PhantomData<fn() -> M>,
}

impl<M: Protocol, const FINAL: bool> Default for Receiver<M, FINAL> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Protocol, const FINAL: bool> Receiver<M, FINAL> {
    /// A receiver with the default limits.
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A receiver with `limits` (frame size, depth, decode budget).
    pub fn with_limits(limits: Limits) -> Self {
        Receiver { frames: Frames::new(limits, FINAL), received: 0, errors: 0, protocol: PhantomData }
    }

    /// Feeds one chunk of the stream: each message it completes, or the [`FrameError`] of each
    /// frame refused and skipped, goes to `on` in stream order. `Err` when the stream is lost (a
    /// frame size below the minimum, the model notice: reported to `on` first), and on every call
    /// after that until [`Receiver::reset`].
    pub fn receive(&mut self, data: &[u8], mut on: impl FnMut(Result<M, FrameError>)) -> Result<(), FrameError> {
        let limits = self.frames.limits;
        let (received, errors) = (&mut self.received, &mut self.errors);
        self.frames.feed(data, &mut |event| {
            let event = event.and_then(|(offset, frame)| {
                dispatch(frame, offset, FINAL, |type_id| M::read(type_id, frame, FINAL, &limits))
            });
            if event.is_ok() {
                *received += 1;
            } else {
                *errors += 1;
            }
            on(event)
        })
    }

    /// Reads `input` until its end (`Ok`) and feeds what arrives; stops at a lost stream or a read
    /// error.
    pub fn read_from(
        &mut self,
        input: &mut impl Read,
        mut on: impl FnMut(Result<M, FrameError>),
    ) -> Result<(), ReceiveError> {
        let mut buf = vec![0; READ_BUFFER_SIZE];
        loop {
            match input.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => self.receive(&buf[..n], &mut on)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Forgets a partial frame, a frame being skipped and a lost stream; offsets count from 0 again.
    pub fn reset(&mut self) {
        self.frames.reset();
    }

    /// The limits of every frame.
    pub fn limits(&self) -> &Limits {
        &self.frames.limits
    }

    /// The bytes of an incomplete frame held.
    pub fn pending(&self) -> usize {
        self.frames.pending.len()
    }

    /// The messages delivered so far.
    pub fn received_messages(&self) -> u64 {
        self.received
    }

    /// The frames refused so far (a lost stream included).
    pub fn receive_errors(&self) -> u64 {
        self.errors
    }
}

/// Why [`Receiver::read_from`] or a [`Client`] stopped reading.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReceiveError {
    /// The stream is lost: a frame size below the minimum, or the other end's model notice.
    Stream(FrameError),
    /// The transport failed.
    Io(io::Error),
}

impl fmt::Display for ReceiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Stream(e) => e.fmt(f),
            Self::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReceiveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Stream(e) => Some(e),
            Self::Io(e) => Some(e),
        }
    }
}

impl From<FrameError> for ReceiveError {
    fn from(e: FrameError) -> Self {
        Self::Stream(e)
    }
}

impl From<io::Error> for ReceiveError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

// ---------------------------------------------------------------- proxy

/// Dispatches versioned frames of the protocol `M` like a [`Receiver`] but hands the type id and
/// the verified frame, not a value, to the callback: to look at or forward unchanged
/// (docs/format.md 7.5). The frame is valid during the call only.
#[derive(Debug)]
pub struct Proxy<M> {
    frames: Frames,
    protocol: PhantomData<fn() -> M>,
}

impl<M: Protocol> Default for Proxy<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Protocol> Proxy<M> {
    /// A proxy with the default limits.
    pub fn new() -> Self {
        Self::with_limits(Limits::DEFAULT)
    }

    /// A proxy with `limits`.
    pub fn with_limits(limits: Limits) -> Self {
        Proxy { frames: Frames::new(limits, false), protocol: PhantomData }
    }

    /// Feeds one chunk: each verified frame (its type id and bytes) or frame error goes to `on`;
    /// `Err` when the stream is lost, as [`Receiver::receive`].
    pub fn receive(
        &mut self,
        data: &[u8],
        mut on: impl FnMut(Result<(u32, &[u8]), FrameError>),
    ) -> Result<(), FrameError> {
        let limits = self.frames.limits;
        self.frames.feed(data, &mut |event| match event {
            Ok((offset, frame)) => {
                let checked = dispatch(frame, offset, false, |type_id| {
                    M::verify(type_id, frame, false, &limits).map(|known| known.then_some(type_id))
                });
                on(checked.map(|type_id| (type_id, frame)))
            }
            Err(e) => on(Err(e)),
        })
    }

    /// Forgets a partial frame and a lost stream.
    pub fn reset(&mut self) {
        self.frames.reset();
    }
}

// ---------------------------------------------------------------- sender

/// Writes messages of the protocol `M` as versioned (or, with `FINAL`, final) frames to `out`,
/// each with one `write_all` (docs/format.md 7.3). The serialization buffer is reused: a warm
/// sender allocates nothing per message. With a `Vec<u8>` as `out`, frames queue there.
#[derive(Debug)]
pub struct Sender<M, W, const FINAL: bool = false> {
    out: W,
    writer: Writer,
    sent: u64,
    protocol: PhantomData<fn(M)>,
}

impl<M, W: Write, const FINAL: bool> Sender<M, W, FINAL> {
    /// A sender writing to `out`.
    pub fn new(out: W) -> Self {
        Sender { out, writer: Writer::new(), sent: 0, protocol: PhantomData }
    }

    /// Sends `v` as one frame and returns the frame's size. A value that cannot be written (nested
    /// deeper than `max_depth`) is refused with its [`EncodeError`] and nothing is sent.
    pub fn send<T: Member<M>>(&mut self, v: &T) -> Result<usize, SendError> {
        let frame = if FINAL { v.write_final(&mut self.writer)? } else { v.write_fbe(&mut self.writer)? };
        self.out.write_all(frame)?;
        self.sent += 1;
        Ok(frame.len())
    }

    /// The messages sent so far.
    pub fn sent_messages(&self) -> u64 {
        self.sent
    }

    /// The transport.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The transport, to flush it or take the queued frames of a `Vec<u8>`.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The transport, giving the sender up.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Why a message was not sent.
#[derive(Debug)]
#[non_exhaustive]
pub enum SendError {
    /// The value cannot be written (docs/limits.md 1); nothing was sent.
    Encode(EncodeError),
    /// The transport failed.
    Io(io::Error),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Encode(e) => e.fmt(f),
            Self::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Encode(e) => Some(e),
            Self::Io(e) => Some(e),
        }
    }
}

impl From<EncodeError> for SendError {
    fn from(e: EncodeError) -> Self {
        Self::Encode(e)
    }
}

impl From<io::Error> for SendError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

// ---------------------------------------------------------------- client

/// Why a request got no response.
#[derive(Debug)]
#[non_exhaustive]
pub enum RequestError<M> {
    /// A reject of its id (`[reject(E)]`): the message.
    Rejected(M),
    /// No answer within its timeout (the original's "Timeout!").
    Timeout,
    /// [`Client::reset`] before an answer came.
    Reset,
    /// A request with its id is pending already: this one was not sent.
    Duplicate,
    /// The connection ended before an answer came.
    Closed,
    /// The stream is lost: the other end's model notice, or a frame size below the minimum.
    Stream(FrameError),
    /// The request was not sent.
    Send(SendError),
    /// Reading the answer failed.
    Io(io::Error),
}

impl<M: Text> fmt::Display for RequestError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rejected(m) => f.write_str(&String::from_utf8_lossy(&m.to_text())),
            Self::Timeout => f.write_str("Timeout!"),
            Self::Reset => f.write_str("client reset: the request was not answered"),
            Self::Duplicate => f.write_str("a request with the same id is pending"),
            Self::Closed => f.write_str("the connection closed before the answer"),
            Self::Stream(e) => e.fmt(f),
            Self::Send(e) => e.fmt(f),
            Self::Io(e) => e.fmt(f),
        }
    }
}

impl<M: Text + fmt::Debug> std::error::Error for RequestError<M> {}

#[derive(Debug)]
struct Pending<M> {
    answer: fn(&M) -> Answer,
    deadline: Option<Instant>,
}

/// A [`Sender`] and a [`Receiver`] of the protocol `M` on one stream `S`, with requests
/// (docs/format.md 7.6): [`Client::request`] sends a `[request]` message and reads the stream
/// until the response or a reject of its id arrives, or its timeout passes. Every other message,
/// and every frame error, waits in [`Client::notifications`].
///
/// Sans I/O: [`Client::start`] sends a request without waiting, [`Client::receive`] takes bytes
/// read elsewhere, [`Client::watchdog`] fails expired requests and [`Client::take`] gives a
/// request's outcome once it has one.
#[derive(Debug)]
pub struct Client<M, S, const FINAL: bool = false> {
    sender: Sender<M, S, FINAL>,
    receiver: Receiver<M, FINAL>,
    pending: HashMap<Uuid, Pending<M>>,
    answered: HashMap<Uuid, Result<M, RequestError<M>>>,
    notifications: VecDeque<Result<M, FrameError>>,
}

impl<M: Protocol, S: Write, const FINAL: bool> Client<M, S, FINAL> {
    /// A client on `stream` with the default limits.
    pub fn new(stream: S) -> Self {
        Self::with_limits(stream, Limits::DEFAULT)
    }

    /// A client on `stream` whose receiver reads under `limits`.
    pub fn with_limits(stream: S, limits: Limits) -> Self {
        Client {
            sender: Sender::new(stream),
            receiver: Receiver::with_limits(limits),
            pending: HashMap::new(),
            answered: HashMap::new(),
            notifications: VecDeque::new(),
        }
    }

    /// Sends `v` (any message; a request without response is done once sent).
    pub fn send<T: Member<M>>(&mut self, v: &T) -> Result<usize, SendError> {
        self.sender.send(v)
    }

    /// Sends the request `v` and registers it as waiting for its answer for `timeout` (zero: no
    /// timeout); returns its id for [`Client::take`]. While a request of the same id is pending
    /// (or its outcome not taken), `v` is refused with [`RequestError::Duplicate`] and not sent.
    pub fn start<T: Request<M>>(&mut self, v: &T, timeout: Duration) -> Result<Uuid, RequestError<M>> {
        let id = v.request_id();
        if self.pending.contains_key(&id) || self.answered.contains_key(&id) {
            return Err(RequestError::Duplicate);
        }
        let deadline = (!timeout.is_zero()).then(|| Instant::now() + timeout);
        self.pending.insert(id, Pending { answer: T::answer, deadline });
        if let Err(e) = self.sender.send(v) {
            self.pending.remove(&id);
            return Err(RequestError::Send(e));
        }
        Ok(id)
    }

    /// Feeds bytes the peer sent: responses and rejects of pending requests answer them, every
    /// other message and frame error goes to the notifications. A lost stream (the other end's
    /// model notice) fails every pending request with it and is the result.
    pub fn receive(&mut self, data: &[u8]) -> Result<(), FrameError> {
        let (pending, answered, notifications) = (&mut self.pending, &mut self.answered, &mut self.notifications);
        let result = self.receiver.receive(data, |event| {
            let Ok(m) = event else { return notifications.push_back(event) };
            let answer = m.id().and_then(|id| Some((id, (pending.get(&id)?.answer)(&m))));
            match answer {
                Some((id, Answer::Response)) => {
                    pending.remove(&id);
                    answered.insert(id, Ok(m));
                }
                Some((id, Answer::Reject)) => {
                    pending.remove(&id);
                    answered.insert(id, Err(RequestError::Rejected(m)));
                }
                _ => notifications.push_back(Ok(m)),
            }
        });
        if let Err(e) = &result {
            self.fail(|| RequestError::Stream(e.clone()));
        }
        result
    }

    /// Fails every pending request whose timeout has passed at `now`.
    pub fn watchdog(&mut self, now: Instant) {
        let expired: Vec<Uuid> =
            self.pending.iter().filter(|(_, p)| p.deadline.is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        for id in expired {
            self.pending.remove(&id);
            self.answered.insert(id, Err(RequestError::Timeout));
        }
    }

    /// The outcome of the request `id` of type `T` once it has one (`None` while it waits).
    pub fn take<T: Request<M>>(&mut self, id: Uuid) -> Option<Result<T::Response, RequestError<M>>> {
        let outcome = self.answered.remove(&id)?;
        Some(outcome.and_then(|m| T::response(m).ok_or(RequestError::Closed)))
    }

    /// Fails every pending request with [`RequestError::Reset`] and forgets a partial frame.
    pub fn reset(&mut self) {
        self.fail(|| RequestError::Reset);
        self.receiver.reset();
    }

    fn fail(&mut self, why: impl Fn() -> RequestError<M>) {
        for (id, _) in self.pending.drain() {
            self.answered.insert(id, Err(why()));
        }
    }

    /// The requests waiting for their answer.
    pub fn pending_requests(&self) -> usize {
        self.pending.len()
    }

    /// The messages that answered no request and the frames refused, in stream order.
    pub fn notifications(&mut self) -> std::collections::vec_deque::Drain<'_, Result<M, FrameError>> {
        self.notifications.drain(..)
    }

    /// The receiver (its limits and counters).
    pub fn receiver(&self) -> &Receiver<M, FINAL> {
        &self.receiver
    }

    /// The stream.
    pub fn get_ref(&self) -> &S {
        self.sender.get_ref()
    }

    /// The stream.
    pub fn get_mut(&mut self) -> &mut S {
        self.sender.get_mut()
    }
}

impl<M: Protocol, S: Read + Write, const FINAL: bool> Client<M, S, FINAL> {
    /// Sends the request `v` and reads the stream until its response (`Ok`), a reject of its id,
    /// its `timeout` (zero: none) or the end of the stream. The timeout is checked whenever a read
    /// returns: give a socket a read timeout (`TcpStream::set_read_timeout`) so that a silent peer
    /// does not block past it. Other messages read meanwhile wait in [`Client::notifications`].
    pub fn request<T: Request<M>>(&mut self, v: &T, timeout: Duration) -> Result<T::Response, RequestError<M>> {
        let id = self.start(v, timeout)?;
        let mut buf = vec![0; READ_BUFFER_SIZE];
        loop {
            self.watchdog(Instant::now());
            if let Some(outcome) = self.take::<T>(id) {
                return outcome;
            }
            match self.sender.get_mut().read(&mut buf) {
                Ok(0) => self.fail(|| RequestError::Closed),
                Ok(n) => {
                    let _ = self.receive(&buf[..n]);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => {
                    self.pending.remove(&id);
                    self.answered.remove(&id);
                    return Err(RequestError::Io(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A protocol of raw frames: type 1 reads, type 2 does not decode, any other is unknown.
    #[derive(Debug, PartialEq)]
    struct Raw(Vec<u8>);

    impl Protocol for Raw {
        fn read(type_id: u32, frame: &[u8], _: bool, _: &Limits) -> Result<Option<Self>, DecodeError> {
            match type_id {
                1 => Ok(Some(Raw(frame.to_vec()))),
                2 => Err(DecodeError::new("a body that does not read", "f", Some(9))),
                _ => Ok(None),
            }
        }

        fn verify(type_id: u32, frame: &[u8], is_final: bool, limits: &Limits) -> Result<bool, DecodeError> {
            Self::read(type_id, frame, is_final, limits).map(|v| v.is_some())
        }

        fn name(&self) -> &'static str {
            "test.Raw"
        }
    }

    /// A final frame of `type_id` with `extra` bytes of body.
    fn frame(type_id: u32, extra: usize) -> Vec<u8> {
        let mut f = Vec::new();
        f.extend_from_slice(&((8 + extra) as u32).to_le_bytes());
        f.extend_from_slice(&type_id.to_le_bytes());
        f.extend((0..extra).map(|i| i as u8));
        f
    }

    fn events(stream: &[u8], chunk: impl Fn(usize) -> usize, limits: Limits) -> Vec<String> {
        let mut receiver = Receiver::<Raw, true>::with_limits(limits);
        let mut out = Vec::new();
        let mut at = 0;
        while at < stream.len() {
            let n = chunk(at).clamp(1, stream.len() - at);
            let lost = receiver.receive(&stream[at..at + n], |e| {
                out.push(match e {
                    Ok(m) => format!("{} of {} bytes", m.name(), m.0.len()),
                    Err(e) => e.to_string(),
                })
            });
            at += n;
            if lost.is_err() {
                break;
            }
        }
        out
    }

    #[test]
    fn every_chunking_gives_the_same_events() {
        let limits = Limits { max_frame_size: 100, ..Limits::DEFAULT };
        let stream =
            [frame(1, 3), frame(7, 0), frame(2, 5), frame(1, 200), frame(1, 0), frame(1, 92), frame(9, 2)].concat();
        let whole = events(&stream, |_| usize::MAX, limits);
        assert_eq!(
            whole,
            [
                "test.Raw of 11 bytes",
                "unknown type: no message has type id 7 (frame of 8 bytes skipped) (frame at stream offset 11)",
                "invalid body: type id 2, frame of 13 bytes skipped: a body that does not read (f, offset 9) \
                 (frame at stream offset 19)",
                "frame too large: frame size 208 is above the maximum 100; skipped (frame at stream offset 32)",
                "test.Raw of 8 bytes",
                "test.Raw of 100 bytes",
                "unknown type: no message has type id 9 (frame of 10 bytes skipped) (frame at stream offset 348)",
            ]
        );
        assert_eq!(events(&stream, |_| 1, limits), whole);
        let mut seed = 7u64;
        for _ in 0..200 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let size = (seed >> 60) as usize + 1;
            assert_eq!(events(&stream, |at| (at * 31 + size * 7) % 23 + 1, limits), whole, "chunks by {size}");
        }
    }

    #[test]
    fn a_stream_lost_stays_lost_until_reset() {
        for (bad, kind) in
            [(0u32, FrameErrorKind::TooSmall), (7, FrameErrorKind::TooSmall), (2, FrameErrorKind::ModelNotice)]
        {
            let stream = [frame(1, 0), bad.to_le_bytes().to_vec(), frame(1, 0)].concat();
            for chunk in [usize::MAX, 1] {
                let seen = events(&stream, |_| chunk, Limits::DEFAULT);
                assert_eq!(seen.len(), 2, "{seen:?}");
                assert!(seen[1].contains("at stream offset 8"), "{seen:?}");
            }
            let mut receiver = Receiver::<Raw, true>::new();
            let e = receiver.receive(&stream, |_| {}).unwrap_err();
            assert_eq!(e.kind, kind);
            assert!(e.is_fatal());
            assert_eq!(receiver.receive(&frame(1, 0), |_| panic!("read after the loss")), Err(e));
            receiver.reset();
            receiver.receive(&frame(1, 0), |e| assert!(e.is_ok())).unwrap();
            assert_eq!((receiver.received_messages(), receiver.receive_errors()), (2, 1));
        }
    }

    #[test]
    fn the_model_notice_names_both_models() {
        assert_eq!(model_notice(false), [1, 0, 0, 0]);
        assert_eq!(model_notice(true), [2, 0, 0, 0]);
        assert_eq!(
            model_notice_text(1, true),
            "the other end reads versioned frames and refused ours: this end sends final frames \
             (start both ends with the same model)"
        );
        assert_eq!(
            model_notice_text(2, true),
            "the other end (reading final frames too) refused a frame of ours and closed"
        );
    }

    #[test]
    fn a_frame_too_large_is_never_buffered() {
        let limits = Limits { max_frame_size: 64, ..Limits::DEFAULT };
        let mut receiver = Receiver::<Raw, true>::with_limits(limits);
        let mut refused = None;
        receiver.receive(&1_000_000u32.to_le_bytes(), |e| refused = Some(e.unwrap_err().kind)).unwrap();
        assert_eq!(refused, Some(FrameErrorKind::TooLarge));
        for _ in 0..100 {
            receiver.receive(&[0; 9_999], |_| panic!("a skipped frame's bytes delivered")).unwrap();
            assert_eq!(receiver.pending(), 0);
        }
        receiver.receive(&[0; 96], |_| panic!("a skipped frame's bytes delivered")).unwrap(); // its last bytes
        let mut next = None;
        receiver.receive(&frame(1, 1), |e| next = Some(e.unwrap())).unwrap();
        assert_eq!(next, Some(Raw(frame(1, 1))), "the frame after the skipped one");
    }

    #[test]
    fn versioned_frame_headers() {
        let mut f = vec![0u8; 16];
        f[0] = 16;
        f[4] = 8;
        f[12] = 5;
        assert_eq!(frame_type(&f, false), Ok(5));
        f[4] = 9; // the body would end beyond the frame
        assert_eq!(frame_type(&f, false).unwrap_err().kind, FrameErrorKind::BadHeader);
        assert_eq!(frame_type(&f[..15], false).unwrap_err().kind, FrameErrorKind::TooSmall);
        assert_eq!(frame_type(&f[..8], true), Ok(9)); // a final frame's type is at +4
    }
}
