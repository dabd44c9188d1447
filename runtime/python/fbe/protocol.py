"""The protocol layer (docs/format.md section 7): Sender, Receiver, Proxy, Client.

A stream is a concatenation of frames; each frame is one root (versioned or
final) whose first ``u32`` is its length. Generated ``Sender`` / ``Receiver``
/ ``Proxy`` / ``Client`` classes (and their ``Final`` twins) derive from the
classes here and only add the per-message tables and typed handlers.

Deliberate differences from the original (docs/limits.md, section 6): a bad
frame is reported instead of silently stalling the stream. A frame whose
size is above ``limits.max_frame_size`` (64 MiB) is refused before any of it
is buffered, and its bytes are skipped as they arrive; a frame whose body
does not decode is skipped; both go to ``on_receive_error``, whose default
makes ``receive()`` raise the first error once the rest of the chunk was
handled, and so does a well-formed frame whose type id no message has. A
frame size below the minimum leaves no way to find the next frame: ``receive()``
raises :class:`~fbe.FrameError` until ``reset()``. A request counts as sent once
its frame is queued.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import uuid as _uuid
from collections.abc import Callable
from typing import Any, ClassVar

from .buffer import BytesLike, WriteBuffer, unpack_u32
from .errors import DecodeError, FBEError, FrameError, RequestError
from .limits import DEFAULT_LIMITS, Limits
from .struct import Struct
from .values import utc

MIN_VERSIONED_FRAME = 16
MIN_FINAL_FRAME = 8
MODEL_NOTICE_VERSIONED = 1
MODEL_NOTICE_FINAL = 2


def model_notice(final: bool) -> bytes:
    """The model notice (docs/format.md 7.4): the 4 bytes an end sends before it closes a connection
    whose frames made no sense in its model, the frame size 1 (it reads versioned frames) or 2
    (final frames)."""
    return (MODEL_NOTICE_FINAL if final else MODEL_NOTICE_VERSIONED).to_bytes(4, "little")


def model_notice_text(size: int, final: bool) -> str:
    """What a receiver reading ``final`` frames says of the model notice ``size`` (1 or 2)."""
    theirs = "final" if size == MODEL_NOTICE_FINAL else "versioned"
    ours = "final" if final else "versioned"
    if theirs == ours:
        return f"model notice: the other end (reading {theirs} frames too) refused a frame of ours and closed"
    return (f"model notice: the other end reads {theirs} frames and refused ours: this end sends {ours} frames "
            "(start both ends with the same model)")


def frame_type(frame: BytesLike, final: bool) -> int:
    """The type id of a frame (versioned: through the root struct offset)."""
    n = len(frame)
    if final:
        if n < 8:
            raise FrameError("final frame shorter than 8 bytes")
        return unpack_u32(frame, 4)[0]  # type: ignore[no-any-return]
    if n < 16:
        raise FrameError("versioned frame shorter than 16 bytes")
    off = unpack_u32(frame, 4)[0]
    if off < 8 or off + 8 > n:         # the root struct is after the frame header and inside the frame
        raise FrameError(f"versioned frame struct offset {off} outside the frame")
    return unpack_u32(frame, off + 4)[0]  # type: ignore[no-any-return]


class Sender:
    """Serializes messages into frames and hands the queued bytes to ``on_send``.

    Generated subclasses fill ``fbe_messages``, the message classes they send, and ``fbe_package``,
    the schema package whose messages they are.
    """

    fbe_final: ClassVar[bool] = False
    fbe_package: ClassVar[str] = ""
    fbe_messages: ClassVar[frozenset[type]] = frozenset()

    def __init__(self, buffer: WriteBuffer | None = None) -> None:
        self.buffer = buffer if buffer is not None else WriteBuffer()
        self.logging = False

    def on_send(self, buffer: bytearray, offset: int, size: int) -> int:
        """Transport callback: send ``buffer[offset:offset+size]``, return the bytes accepted.

        The default accepts everything and discards it; override it (or assign
        a callable to ``self.on_send``).
        """
        return size

    def on_send_log(self, message: str) -> None:
        """Called with the printed text of each sent message when ``logging`` is on."""

    def send(self, value: Struct) -> int:
        """Serialize a message into the send buffer and flush it; return the frame size."""
        if type(value) not in self.fbe_messages:
            raise TypeError(f"{type(value).__name__} is not a message of {self.fbe_package}")
        return self._fbe_send_frame(value.to_final() if self.fbe_final else value.to_fbe(), value)

    def _fbe_send_frame(self, frame: bytes | bytearray, value: object) -> int:
        buf = self.buffer.buffer
        buf += frame
        if self.logging:
            self.on_send_log(str(value))
        self.flush()
        return len(frame)

    def flush(self) -> int:
        """Offer all queued bytes to ``on_send`` again; return how many were accepted."""
        buf = self.buffer.buffer
        if not buf:
            return 0
        sent = self.on_send(buf, 0, len(buf))
        if sent > 0:
            del buf[:sent]
        return sent

    def reset(self) -> None:
        self.buffer.reset()


def unknown_type(type_id: int, size: int) -> FrameError:
    """The error reported for a frame whose type id no message of the receiver has (skipped, as the
    other languages' receivers do: docs/format.md 7.4)."""
    return FrameError(f"no message has type id {type_id} (frame of {size} bytes skipped)")


class _Assembler:
    """Splits a byte stream fed in arbitrary chunks into frames."""

    fbe_final: ClassVar[bool] = False

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits: Limits = DEFAULT_LIMITS if limits is None else limits
        """``max_frame_size`` and the decode limits of every frame (docs/limits.md)."""
        self._pending = bytearray()
        self._skip = 0
        self._broken: str | None = None
        self._errors: list[FBEError] = []
        self.logging = False

    def reset(self) -> None:
        self._pending = bytearray()
        self._skip = 0
        self._broken = None
        self._errors = []

    def pending_size(self) -> int:
        """How many bytes of an incomplete frame are buffered."""
        return len(self._pending)

    def on_receive_error(self, error: FBEError) -> None:
        """Called for each frame that is refused and skipped (too large, bad header, unknown type id,
        body that does not decode). The default makes ``receive()`` raise the first such error after
        handling the rest of its chunk; override it to log or count errors instead."""
        self._errors.append(error)

    def receive(self, data: BytesLike, offset: int = 0, size: int | None = None) -> None:
        """Feed any chunk of the stream (even one byte); complete frames are dispatched."""
        if self._broken is not None:
            raise FrameError(self._broken)
        if size is None:
            size = len(data) - offset
        chunk = memoryview(data)[offset: offset + size]
        if self._skip:  # the rest of a refused frame
            n = min(self._skip, len(chunk))
            self._skip -= n
            chunk = chunk[n:]
        minimum = MIN_FINAL_FRAME if self.fbe_final else MIN_VERSIONED_FRAME
        maximum = self.limits.max_frame_size
        pending = self._pending
        if pending:
            pending += chunk
            buf: BytesLike = pending
        else:
            buf = chunk
        n = len(buf)
        pos = 0
        try:
            while n - pos >= 4:
                fsize = unpack_u32(buf, pos)[0]
                if fsize in (MODEL_NOTICE_VERSIONED, MODEL_NOTICE_FINAL):
                    self._broken = model_notice_text(fsize, self.fbe_final)
                    raise FrameError(self._broken)
                if fsize < minimum:
                    self._broken = f"frame size {fsize} below the minimum {minimum}"
                    raise FrameError(self._broken)
                if fsize > maximum:
                    skipped = min(fsize, n - pos)
                    pos += skipped
                    self._skip = fsize - skipped
                    self.on_receive_error(FrameError(
                        f"frame size {fsize} above max_frame_size {maximum}; the frame is skipped"))
                    continue
                if n - pos < fsize:
                    break
                frame = bytes(buf[pos: pos + fsize])
                pos += fsize
                try:
                    self._fbe_frame(frame)
                except (DecodeError, FrameError) as e:
                    self.on_receive_error(e)
        finally:
            if buf is pending:
                del pending[:pos]
            else:
                self._pending = bytearray(buf[pos:])
        if self._errors:
            first = self._errors[0]
            self._errors = []
            raise first

    def _fbe_frame(self, frame: bytes) -> None:
        raise NotImplementedError


class Receiver(_Assembler):
    """Reassembles frames and calls ``on_receive_<message>(value)`` per message.

    Generated subclasses fill ``_fbe_handlers``: type id -> (message class, handler
    name). A frame of an unknown type id is reported to ``on_receive_error`` and skipped (the
    original ignores it).
    """

    _fbe_handlers: ClassVar[dict[int, tuple[type[Struct], str]]] = {}

    def on_receive(self, value: Any) -> None:
        """Called for every received message whose typed handler was not overridden."""

    def on_receive_log(self, message: str) -> None:
        """Called with the printed text of each received message when ``logging`` is on."""

    def _fbe_frame(self, frame: bytes) -> None:
        tid = frame_type(frame, self.fbe_final)
        entry = self._fbe_handlers.get(tid)
        if entry is None:
            raise unknown_type(tid, len(frame))
        message, handler = entry
        value = message.from_final(frame, self.limits) if self.fbe_final else message.from_fbe(frame, self.limits)
        if self.logging:
            self.on_receive_log(str(value))
        self._fbe_deliver(value, handler)

    def _fbe_deliver(self, value: Any, handler: str) -> None:
        getattr(self, handler)(value)


class Proxy(_Assembler):
    """Dispatches versioned frames without deserializing them.

    ``on_proxy_<message>(model, type, buffer, offset, size)`` gets the message's
    model attached to the frame plus the raw frame, to inspect or forward it.
    """

    _fbe_handlers: ClassVar[dict[int, tuple[Callable[[], Any], str]]] = {}

    def on_proxy(self, model: Any, type: int, buffer: bytes, offset: int, size: int) -> None:
        """Called for every frame whose typed handler was not overridden."""

    def _fbe_frame(self, frame: bytes) -> None:
        tid = frame_type(frame, self.fbe_final)
        entry = self._fbe_handlers.get(tid)
        if entry is None:
            raise unknown_type(tid, len(frame))
        make_model, handler = entry
        model = make_model()
        model.limits = self.limits
        model.attach(frame)
        getattr(self, handler)(model, tid, frame, 0, len(frame))


class _Pending:
    __slots__ = ("future", "rejects", "response", "timeout", "timestamp")

    def __init__(
        self, future: concurrent.futures.Future[Any], response: type | None,
        rejects: frozenset[type], timestamp: int, timeout: int,
    ) -> None:
        self.future = future
        self.response = response
        self.rejects = rejects
        self.timestamp = timestamp
        self.timeout = timeout


class ClientBase(Receiver, Sender):
    """Request/response/reject bookkeeping of a generated ``Client`` (docs/format.md 7.6), which
    derives from it, its package's Receiver and its Sender.

    ``request(value, timeout_ms)`` returns a :class:`concurrent.futures.Future`
    completed by the matching response (same ``id``), failed with
    :class:`~fbe.RequestError` by a reject (its printed text), by
    ``watchdog(utc)`` ("Timeout!") or by ``reset()``.
    """

    _fbe_requests: ClassVar[dict[type, tuple[type | None, frozenset[type]]]] = {}

    def __init__(self, limits: Limits | None = None) -> None:
        Receiver.__init__(self, limits)
        Sender.__init__(self)
        self._requests: dict[_uuid.UUID, _Pending] = {}
        self._lock = threading.Lock()
        self._last_ts = 0

    def request(self, value: Any, timeout: int = 0) -> concurrent.futures.Future[Any]:
        """Send a request; ``timeout`` in milliseconds (0 = none)."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        spec = self._fbe_requests.get(type(value))
        if spec is None:
            raise TypeError(f"{type(value).__name__} is not a request of this client")
        response, rejects = spec
        if response is not None:
            with self._lock:
                ts = utc()
                if ts <= self._last_ts:
                    ts = self._last_ts + 1
                self._last_ts = ts
                self._requests[value.id] = _Pending(future, response, rejects, ts, timeout * 1_000_000)
        try:
            self.send(value)
        except Exception as e:  # noqa: BLE001 - any transport failure fails the request
            with self._lock:
                self._requests.pop(value.id, None)
            future.set_exception(RequestError(f"Send request failed! {e}"))
            return future
        if response is None:
            future.set_result(None)
        return future

    def _fbe_deliver(self, value: Any, handler: str) -> None:
        rid = getattr(value, "id", None)
        if rid is not None and self._requests:
            with self._lock:
                entry = self._requests.get(rid)
                if entry is not None and (type(value) is entry.response or type(value) in entry.rejects):
                    del self._requests[rid]
                else:
                    entry = None
            if entry is not None:
                if type(value) is entry.response:
                    entry.future.set_result(value)
                else:
                    entry.future.set_exception(RequestError(str(value)))
                return
        getattr(self, handler)(value)

    def watchdog(self, utc_ns: int | None = None) -> None:
        """Fail every pending request whose timeout has expired at ``utc_ns`` (default now)."""
        now = utc() if utc_ns is None else utc_ns
        expired: list[_Pending] = []
        with self._lock:
            for rid, p in list(self._requests.items()):
                if p.timeout and p.timestamp + p.timeout <= now:
                    expired.append(p)
                    del self._requests[rid]
        for p in expired:
            p.future.set_exception(RequestError("Timeout!"))

    def fail_pending(self, why: str) -> None:
        """Fail all pending requests with ``RequestError(why)`` (the connection closed, the other
        end's model notice: docs/format.md 7.4)."""
        with self._lock:
            pending = list(self._requests.values())
            self._requests.clear()
        for p in pending:
            p.future.set_exception(RequestError(why))

    def reset(self) -> None:
        """Fail all pending requests and clear the buffers."""
        self.fail_pending("Reset client!")
        Receiver.reset(self)
        Sender.reset(self)


# ---------------------------------------------------------------- asyncio

def connect_sender(sender: Any, writer: asyncio.StreamWriter) -> None:
    """Make ``sender.on_send`` write frames to an asyncio ``StreamWriter``."""

    def on_send(buffer: bytearray, offset: int, size: int) -> int:
        writer.write(bytes(buffer[offset: offset + size]))
        return size

    sender.on_send = on_send


def attach_stream(
    endpoint: Any, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, chunk: int = 65536,
) -> asyncio.Task[None]:
    """Connect a Receiver or Client (or a Sender) to an asyncio stream pair.

    Frames sent by ``endpoint`` (if it can send) are written to ``writer``; a
    task feeds what ``reader`` delivers to ``endpoint.receive`` (if it can
    receive). Returns that task: it ends at EOF, or with
    :class:`~fbe.FrameError` / :class:`~fbe.DecodeError` on a bad stream.
    A Client's pending requests fail then, with that error's text (the other
    end's model notice names both models: docs/format.md 7.4) or at EOF.
    """
    if hasattr(endpoint, "on_send"):
        connect_sender(endpoint, writer)

    async def pump() -> None:
        if not hasattr(endpoint, "receive"):
            return
        client = endpoint if isinstance(endpoint, ClientBase) else None
        while True:
            data = await reader.read(chunk)
            if not data:
                if client is not None:
                    client.fail_pending("the other end closed the connection before the response came")
                return
            try:
                endpoint.receive(data)
            except FBEError as e:
                if client is not None:
                    client.fail_pending(str(e))
                raise

    return asyncio.ensure_future(pump())


async def run_watchdog(client: ClientBase, interval: float = 0.1) -> None:
    """Call ``client.watchdog()`` every ``interval`` seconds (cancel the task to stop)."""
    while True:
        client.watchdog()
        await asyncio.sleep(interval)


async def wait_response(future: concurrent.futures.Future[Any]) -> Any:
    """Await a Client request future from asyncio code."""
    return await asyncio.wrap_future(future)


__all__ = [
    "ClientBase",
    "DecodeError",
    "Proxy",
    "Receiver",
    "Sender",
    "attach_stream",
    "connect_sender",
    "frame_type",
    "model_notice",
    "run_watchdog",
    "wait_response",
]
