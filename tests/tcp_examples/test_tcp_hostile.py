"""Hostile clients against the TCP example server of every language (docs/tcp-examples.md): one
driver, run by each language's suite against its own example (conftest.py: --server).

Every case starts its own server on an ephemeral port of 127.0.0.1 with the limits it needs
(`--port 0 --max-connections N --max-frame-size B --idle-timeout S --frame-timeout S [--final]`,
which every example server takes), attacks it, and checks that a well-behaved client is served,
that the attackers' connections end as docs/tcp-examples.md says, and that the server said what it
did once per connection. The well-behaved client is this file's own: rpc.Ping frames written by
hand (examples/cpp/tcp/rpc.fbe), each Pong checked.

The machine running make test is shared and loaded, so nothing waits a fixed short time for
something to happen: waits poll with the bound PATIENCE, which only a failing test reaches, and
what a case proves by timing is judged on the times it observed.

With --memory-bounds (the C++ example, whose resident and virtual size follow what it allocates)
the cases also bound the server's memory, and bad-alloc runs under an address-space limit.
"""

from __future__ import annotations

import re
import resource
import selectors
import signal
import socket
import statistics
import struct
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO

import pytest

MiB = 1 << 20
PATIENCE = 60.0  # the longest any wait may take on a loaded machine; only a failing test waits it out
PONG, PING = 1, 2  # rpc.fbe's type ids (messages are numbered in declaration order)


# ------------------------------------------------------------------ frames

def ping_frame(sequence: int, payload: bytes = b"good", final: bool = False, type_id: int = PING) -> bytes:
    """rpc.Ping as a frame. Versioned: root header (size, offset 8), body header (size 36, type),
    uuid, int64, string slot (offset, then the string: length, bytes). Final: size, type, uuid,
    int64, string (length, bytes)."""
    if final:
        return struct.pack("<II16sqI", 8 + 24 + 4 + len(payload), type_id, uuid.uuid4().bytes, sequence,
                           len(payload)) + payload
    body = 36
    return struct.pack("<IIII16sqII", 8 + body + 4 + len(payload), 8, body, type_id, uuid.uuid4().bytes, sequence,
                       body, len(payload)) + payload


def pong_sequence(frame: bytes, final: bool) -> int:
    """The sequence of a Pong frame (a Pong has a Ping's layout)."""
    type_id = struct.unpack_from("<I", frame, 4 if final else 12)[0]
    assert type_id == PONG, f"a reply of type {type_id}, not a Pong"
    sequence: int = struct.unpack_from("<q", frame, 24 if final else 32)[0]
    return sequence


def recv_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        part = sock.recv(size - len(data))
        if not part:
            raise ConnectionError(f"the server closed the connection ({len(data)} of {size} bytes read)")
        data += part
    return data


def read_frame(sock: socket.socket) -> bytes:
    head = recv_exactly(sock, 4)
    return head + recv_exactly(sock, struct.unpack("<I", head)[0] - 4)


def connect(port: int, buffers: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if buffers is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffers)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, buffers)
    sock.settimeout(PATIENCE)
    sock.connect(("127.0.0.1", port))
    return sock


def peer(sock: socket.socket) -> str:
    """How the server names this connection in its messages."""
    return f"127.0.0.1:{sock.getsockname()[1]}:"


def exchange(sock: socket.socket, first: int, count: int = 1, final: bool = False) -> None:
    """Sends `count` Pings at once and checks their Pongs."""
    sock.sendall(b"".join(ping_frame(first + i, f"ping {first + i}".encode(), final) for i in range(count)))
    for i in range(count):
        assert pong_sequence(read_frame(sock), final) == first + i


def read_to_close(sock: socket.socket) -> bytes:
    """All the peer sends until it closes the connection (within PATIENCE)."""
    data = b""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        sock.settimeout(deadline - time.monotonic())
        try:
            part = sock.recv(1 << 16)
        except ConnectionResetError as e:
            raise AssertionError(f"the server reset the connection after {data!r}") from e
        if not part:
            return data
        data += part
    raise AssertionError("the server did not close the connection")


def model_notice(final: bool) -> bytes:
    """docs/format.md 7.4: the frame size 1 (the sender reads versioned frames) or 2 (final)."""
    return struct.pack("<I", 2 if final else 1)


def closed_by_peer(sock: socket.socket, seconds: float = PATIENCE) -> bool:
    """True when the peer closes within `seconds` (what it sends meanwhile is read and dropped)."""
    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            if not sock.recv(1 << 16):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def served(port: int, messages: int = 200, final: bool = False) -> None:
    """A well-behaved client: one connection, `messages` Pings pipelined, every Pong checked."""
    with connect(port) as sock:
        exchange(sock, 0, messages, final)


# ------------------------------------------------------------------ the server

def vm_status(pid: int) -> dict[str, int]:
    """The Vm* lines of /proc/<pid>/status, in bytes."""
    figures = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("Vm"):
                name, value = line.split(":", 1)
                figures[name] = int(value.split()[0]) * 1024
    return figures


def mib(n: float) -> str:
    return f"{n / MiB:.1f} MiB"


class Server:
    """An example server on an ephemeral port; collects what it prints."""

    def __init__(self, command: list[str], *args: str) -> None:
        self.command = [*command, "--port", "0", *args]
        self.proc = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.stopped = False
        self.out: list[str] = []
        self.errors: list[str] = []
        self._readers = [threading.Thread(target=self._collect, args=(stream, lines), daemon=True)
                         for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.errors))]
        for reader in self._readers:
            reader.start()
        found = self.wait_for(lambda: any(re.search(r"listening on \S+:\d+", line) for line in self.out), PATIENCE)
        if not found:
            self.stop()
            raise AssertionError(f"{' '.join(self.command)} did not say 'listening on': {self.out} {self.errors}")
        listening = next(m for line in self.out if (m := re.search(r"listening on \S+:(\d+)", line)))
        self.port = int(listening.group(1))
        self.baseline = vm_status(self.proc.pid)

    @staticmethod
    def _collect(stream: IO[str], lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))
            print(f"  server: {line.rstrip()}")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def vm(self) -> dict[str, int]:
        return vm_status(self.proc.pid)

    @staticmethod
    def wait_for(condition: Callable[[], bool], seconds: float = PATIENCE) -> bool:
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def lines(self, *texts: str) -> list[str]:
        """The server's messages holding every one of texts (case-insensitive)."""
        return [line for line in self.errors if all(t.lower() in line.lower() for t in texts)]

    def said(self, count: int, *texts: str) -> list[str]:
        """Waits until `count` messages hold texts; returns them."""
        self.wait_for(lambda: len(self.lines(*texts)) >= count)
        return self.lines(*texts)

    def stop(self) -> str:
        """SIGTERM; returns the closing line (the last line of its output)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for reader in self._readers:
            reader.join(timeout=5)
        self.stopped = True
        return self.out[-1] if self.out else ""

    def counts(self) -> dict[str, int]:
        """The closing line's counts: {'refused': N, 'evicted': N, ...}."""
        closing = self.stop()
        return {name: int(n) for n, name in re.findall(r"(\d+) (refused|evicted|session)", closing)}


@pytest.fixture
def start(server_command: list[str]) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def make(*args: str) -> Server:
        servers.append(Server(server_command, *args))
        return servers[-1]

    yield make
    for server in servers:
        if not server.stopped:
            server.stop()
        # 143: a JVM ends by SIGTERM so, after its shutdown hooks
        assert server.proc.returncode in (0, -signal.SIGTERM, 143), f"the server exited with {server.proc.returncode}"


# ------------------------------------------------------------------ well-behaved clients

def test_served(start: Callable[..., Server]) -> None:
    """A good client is served in both models, and the server says nothing."""
    for final in (False, True):
        server = start(*(["--final"] if final else []))
        served(server.port, 500, final)
        assert server.alive() and server.errors == []


# ------------------------------------------------------------------ slow clients

@dataclass
class Slot:
    sock: socket.socket | None = None
    opened: float = 0.0
    sent: int = 0
    next_send: float = 0.0
    next_connect: float = 0.0


@dataclass
class SlowAttack:
    """`connections` connections that each send one byte of a Ping every `interval` seconds and,
    while `reconnect` holds, open a new connection `reconnect_after` seconds after the server closed
    one. One thread drives them all."""

    port: int
    connections: int
    interval: float = 1.0
    reconnect_after: float = 0.25
    reconnect: bool = True
    opened: int = 0
    failed_connects: int = 0
    lifetimes: list[float] = field(default_factory=list)  # of the connections the server closed
    bytes_sent: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.frame = ping_frame(0, b"slow")
        self.slots = [Slot() for _ in range(self.connections)]
        self.selector = selectors.DefaultSelector()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def open_now(self) -> int:
        return sum(slot.sock is not None for slot in self.slots)

    def stop(self) -> int:
        """Stops and closes what is still open; returns how many that was."""
        self._stop.set()
        assert self._thread is not None
        self._thread.join(timeout=PATIENCE)
        left = 0
        for slot in self.slots:
            if slot.sock is not None:
                left += 1
                slot.sock.close()
        return left

    def _closed(self, slot: Slot, now: float) -> None:
        assert slot.sock is not None
        self.selector.unregister(slot.sock)
        slot.sock.close()
        slot.sock = None
        self.lifetimes.append(now - slot.opened)
        slot.next_connect = now + self.reconnect_after

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            for slot in self.slots:
                if slot.sock is None and self.reconnect and now >= slot.next_connect:
                    try:
                        sock = socket.create_connection(("127.0.0.1", self.port), timeout=1.0)
                    except OSError:
                        self.failed_connects += 1
                        slot.next_connect = now + self.reconnect_after
                        continue
                    sock.setblocking(False)
                    slot.sock, slot.opened, slot.sent, slot.next_send = sock, time.monotonic(), 0, now
                    self.selector.register(sock, selectors.EVENT_READ, slot)
                    self.opened += 1
                if slot.sock is not None and now >= slot.next_send:
                    try:
                        slot.sock.send(self.frame[slot.sent % len(self.frame):][:1])
                        slot.sent += 1
                        self.bytes_sent += 1
                    except BlockingIOError:
                        pass
                    except OSError:
                        self._closed(slot, now)
                        continue
                    slot.next_send = now + self.interval
            for key, _ in self.selector.select(timeout=0.02):
                slot = key.data
                try:
                    if slot.sock.recv(4096):
                        continue  # a slow client gets no reply: it never completes a frame
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                self._closed(slot, time.monotonic())


def test_slow_clients_do_not_lock_out_new_ones(start: Callable[..., Server]) -> None:
    """max_connections (256) slow connections, each sending one byte of a Ping a second and
    reconnecting when closed (issue 21 item 12): a well-behaved client is served throughout, on new
    connections and on one it keeps, and every slow connection is closed (by the frame timeout, or
    evicted for a new connection) although the idle timeout (60 s) never fires. Before the frame
    timeout the slow connections held every slot and new clients were refused."""
    limit, frame_timeout = 256, 2.0
    server = start("--max-connections", str(limit), "--frame-timeout", str(frame_timeout), "--idle-timeout", "60")
    attack = SlowAttack(server.port, connections=limit)
    attack.start()
    try:
        # Every slot taken, and each slow connection has sent a byte or more.
        started = Server.wait_for(lambda: attack.opened >= limit and attack.bytes_sent >= limit)
        assert started, "the attack did not start"
        kept = connect(server.port)
        exchange(kept, 0)
        rounds, failures, sequence = 0, [], 1
        begin = time.monotonic()
        while time.monotonic() - begin < 3 * frame_timeout:
            rounds += 1
            try:
                with connect(server.port) as fresh:
                    exchange(fresh, 0, 3)
                exchange(kept, sequence)
                sequence += 1
            except (OSError, AssertionError) as e:
                failures.append(f"round {rounds} at {time.monotonic() - begin:.1f} s: {e!r}")
            time.sleep(0.2)
        attack.reconnect = False
        assert failures == [], (f"the well-behaved client was not served in {len(failures)} of {rounds} rounds: "
                                f"{failures}")
        assert Server.wait_for(lambda: attack.open_now() == 0), f"{attack.open_now()} slow connections are still open"
        exchange(kept, sequence)
        kept.close()
    finally:
        left = attack.stop()
    assert left == 0 and server.alive()
    print(f"  {rounds} rounds served; {attack.opened} slow connections opened ({attack.failed_connects} connects "
          f"failed), all closed by the server after {statistics.median(attack.lifetimes):.2f} s (median), "
          f"{max(attack.lifetimes):.2f} s at most")
    # Closed by the frame timeout or evicted, never by the idle timeout; on the observed times.
    assert statistics.median(attack.lifetimes) < frame_timeout + 1
    assert max(attack.lifetimes) < frame_timeout + 10 < 60
    assert len(server.lines("frame timeout")) > limit / 2, "the frame timeout closed few slow connections"
    counts = server.counts()
    assert counts.get("evicted", 0) > 0 and counts.get("refused", 0) == 0, counts


def test_frame_timeout(start: Callable[..., Server]) -> None:
    """A connection that trickles a frame (a byte every 0.2 s, never idle) and one that sends nothing
    after connecting are closed after --frame-timeout; a client whose every read ends in the middle
    of a frame (each frame whole within 0.25 s) is not, however long it goes on."""
    frame_timeout = 2.0
    server = start("--frame-timeout", str(frame_timeout), "--idle-timeout", "30")
    silent = connect(server.port)
    opened = time.monotonic()
    trickle = connect(server.port)
    steady = connect(server.port)
    frames = b"".join(ping_frame(i, b"steady") for i in range(40))
    half = len(ping_frame(0, b"steady")) // 2
    size = 2 * half
    trickle_closed = steady_gap = 0.0
    # Each step: a byte to the trickling connection; to the steady one, the second half of a frame
    # and the first half of the next; then the Pong of the frame it completed.
    sent, step = half, 0
    steady.sendall(frames[:half])
    last = time.monotonic()
    while time.monotonic() - opened < 2.5 * frame_timeout:
        if not trickle_closed:
            try:
                trickle.send(bytes([frames[step % len(frames)]]))
            except OSError:
                trickle_closed = time.monotonic() - opened
        steady.sendall(frames[sent:sent + size])
        sent += size
        now = time.monotonic()
        steady_gap, last = max(steady_gap, now - last), now
        assert steady_gap < frame_timeout, f"void: the machine stalled the steady client for {steady_gap:.1f} s"
        assert pong_sequence(read_frame(steady), False) == step, "the steady client was not answered"
        step += 1
        time.sleep(0.2)
    assert closed_by_peer(trickle) and closed_by_peer(silent, 5)
    lifetime = time.monotonic() - opened
    assert frame_timeout * 0.9 <= (trickle_closed or lifetime) < 30
    assert len(server.said(2, "frame timeout")) == 2, server.errors
    for sock in (silent, trickle):
        assert len(server.lines(peer(sock), "frame timeout")) == 1, server.errors
    steady.sendall(frames[sent:sent + half])  # the rest of the frame begun
    assert pong_sequence(read_frame(steady), False) == step
    assert len(server.errors) == 2, server.errors
    for sock in (silent, trickle, steady):
        sock.close()


def test_new_client_evicts_the_slowest(start: Callable[..., Server]) -> None:
    """At max_connections a new connection takes the slot of the one that has waited longest for a
    frame to complete (one message per episode); when every open connection is between frames, the
    new one is refused."""
    server = start("--max-connections", "4", "--frame-timeout", "30", "--idle-timeout", "60")
    held = [connect(server.port) for _ in range(2)]
    for sock in held:
        exchange(sock, 0)
    slow = []
    for _ in range(2):
        slow.append(connect(server.port))
        slow[-1].sendall(ping_frame(0)[:3])
        time.sleep(0.1)
    newer = []
    for evicted in slow:
        newer.append(connect(server.port))
        exchange(newer[-1], 0)  # served: it took a slot
        assert closed_by_peer(evicted), "the slowest connection was not evicted"
    assert not closed_by_peer(newer[0], 0.2)
    assert len(server.said(1, "max_connections")) == 1, server.errors
    refused = connect(server.port)
    assert closed_by_peer(refused), "a connection was admitted over max_connections with every slot between frames"
    assert len(server.said(2, "max_connections")) == 2, server.errors
    for sock in held + newer:
        exchange(sock, 1)
    counts = server.counts()
    assert counts.get("evicted") == 2 and counts.get("refused") == 1, counts


# ------------------------------------------------------------------ the other limits

def test_idle_timeout(start: Callable[..., Server]) -> None:
    """--idle-timeout counts from the last byte read or written: a connection silent after a request
    is closed, a client that sends a request now and then is not."""
    idle = 1.0
    server = start("--idle-timeout", str(idle), "--frame-timeout", "30")
    silent = connect(server.port)
    exchange(silent, 0)
    steady = connect(server.port)
    longest, last = 0.0, time.monotonic()
    for sequence in range(8):  # 2.4 s in all, a request every 0.3 s
        exchange(steady, sequence)
        now = time.monotonic()
        longest, last = max(longest, now - last), now
        time.sleep(0.3)
    assert longest < idle, f"void: the machine stalled the steady client for {longest:.1f} s"
    assert closed_by_peer(silent), "a silent connection was not closed"
    assert len(server.said(1, peer(silent), "idle")) == 1 and len(server.errors) == 1, server.errors
    exchange(steady, 8)
    steady.close()
    silent.close()


def test_connection_limit(start: Callable[..., Server]) -> None:
    """Over max_connections, with every open connection between frames, a new connection is closed
    at once, with one message per episode; a good client gets in once a connection ends."""
    server = start("--max-connections", "4")
    held = [connect(server.port) for _ in range(4)]
    for sock in held:
        exchange(sock, 0)
    for _ in range(3):
        with connect(server.port) as refused:
            assert closed_by_peer(refused), "a connection over max_connections was not closed"
    with pytest.raises(OSError):
        served(server.port, 10)
    assert len(server.said(1, "max_connections")) == 1, server.errors
    held.pop().close()
    assert Server.wait_for(lambda: _served_quietly(server.port)), "no good client got in after a connection ended"
    for sock in held:
        sock.close()
    assert server.counts().get("refused", 0) >= 4


def _served_quietly(port: int) -> bool:
    try:
        served(port, 10)
        return True
    except OSError:
        return False


def flood_until_stalled(socks: list[socket.socket], cap: int) -> list[int]:
    """Each socket pipelines Pings (about 1 KiB each) and never reads, until a send blocks for 1 s
    (the server stopped reading it), the server closes it, or `cap` bytes are sent; returns the bytes
    each sent."""
    chunk = memoryview(b"".join(ping_frame(i, b"x" * 1000) for i in range(1000)))
    sent = [0] * len(socks)

    def flood(index: int) -> None:
        sock = socks[index]
        sock.settimeout(1.0)
        try:
            while sent[index] < cap:
                sent[index] += sock.send(chunk[sent[index] % len(chunk):])
        except OSError:
            pass

    threads = [threading.Thread(target=flood, args=(i,)) for i in range(len(socks))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE)
    print(f"  never-reading clients sent {', '.join(mib(n) for n in sent)} before their sends stalled")
    return sent


def test_never_reading_clients(start: Callable[..., Server], memory_bounds: bool) -> None:
    """Clients that pipeline Pings and never read the Pongs: the server stops reading them (their
    own sends stall), serves a good client meanwhile, and closes them after the idle timeout."""
    readers, cap, idle = 4, 64 * MiB, 2.0
    server = start("--idle-timeout", str(idle), "--frame-timeout", "30")
    socks = [connect(server.port, buffers=16 * 1024) for _ in range(readers)]
    sent = flood_until_stalled(socks, cap)
    assert all(n < cap for n in sent), "a never-reading client was never paused: the server kept reading it"
    served(server.port, 2000)
    if memory_bounds:
        # Per never-reading client its reply queue (send queue limit + one read's replies) and its
        # read buffer; the unbounded server grew by all it read.
        vm, bound = server.vm(), server.baseline["VmRSS"] + readers * 4 * MiB + 16 * MiB
        print(f"  server VmHWM {mib(vm['VmHWM'])} (baseline VmRSS {mib(server.baseline['VmRSS'])}, bound {mib(bound)})")
        assert vm["VmHWM"] <= bound
    for sock in socks:
        assert closed_by_peer(sock), "a never-reading client was not closed"
        sock.close()
    assert len(server.said(readers, "dropping the connection")) == readers, server.errors
    served(server.port, 10)


def test_split_headers(start: Callable[..., Server], memory_bounds: bool) -> None:
    """40 connections that send a frame size declaring max_frame_size (64 MiB) in two reads and then
    12 bytes: nothing is allocated for what they declared, a good client is served. A size above
    max_frame_size closes its connection at once, with one message."""
    connections, frame = 40, 64 * MiB
    server = start("--max-frame-size", str(frame), "--frame-timeout", "60")
    if memory_bounds:  # 40 reservations of 64 MiB would not fit
        cap = server.vm()["VmSize"] + 512 * MiB
        resource.prlimit(server.proc.pid, resource.RLIMIT_AS, (cap, cap))
    declared = struct.pack("<I", frame)
    socks = [connect(server.port) for _ in range(connections)]
    for sock in socks:
        sock.sendall(declared[:2])
    time.sleep(0.3)  # most likely the first halves are read on their own
    for sock in socks:
        sock.sendall(declared[2:] + b"\0" * 12)
    time.sleep(0.3)
    served(server.port, 2000)
    assert server.alive() and server.errors == [], server.errors
    if memory_bounds:
        vm = server.vm()
        rss_bound, peak_bound = server.baseline["VmRSS"] + 16 * MiB, server.baseline["VmPeak"] + 64 * MiB
        print(f"  server VmHWM {mib(vm['VmHWM'])} (bound {mib(rss_bound)}), VmPeak {mib(server.baseline['VmPeak'])} "
              f"at start, {mib(vm['VmPeak'])} now (bound {mib(peak_bound)}; {connections} reservations would be "
              f"{mib(connections * frame)})")
        assert vm["VmHWM"] <= rss_bound and vm["VmPeak"] <= peak_bound
    with connect(server.port) as big:
        big.sendall(struct.pack("<I", frame + 1) + b"\0" * 12)
        assert closed_by_peer(big), "a frame above max_frame_size did not close its connection"
        too_large = server.said(1, peer(big), "frame too large", f"above the maximum {frame}")
    assert len(too_large) == 1 and len(server.errors) == 1, server.errors
    for sock in socks:
        sock.close()
    served(server.port, 10)


def test_bad_frame(start: Callable[..., Server]) -> None:
    """A frame of an unknown type closes its connection with one message; the rest of what the client
    sent is not processed."""
    server = start()
    with connect(server.port) as bad:
        bad.sendall(ping_frame(0, type_id=99) + ping_frame(1))
        assert read_to_close(bad) == model_notice(False), "no model notice for a frame that makes no sense"
        assert len(server.said(1, peer(bad), "unknown type")) == 1 and len(server.errors) == 1, server.errors
    served(server.port, 10)


@pytest.mark.parametrize("server_final", [False, True], ids=["versioned-server", "final-server"])
def test_final_mismatch(start: Callable[..., Server], server_final: bool) -> None:
    """One end speaks final-model frames and the other versioned ones: the server closes the
    connection at once with one message naming the likely cause, after the model notice of its own
    model (docs/format.md 7.4), which is all the client gets, whatever it sent after its first frame."""
    server = start(*(["--final"] if server_final else []))
    with connect(server.port) as client:
        client.sendall(b"".join(ping_frame(i, final=not server_final) for i in range(100)))
        assert read_to_close(client) == model_notice(server_final)
        drops = server.said(1, peer(client), "dropping the connection")
    assert len(drops) == 1 and len(server.errors) == 1 and "final" in drops[0], server.errors
    served(server.port, 10, server_final)


@pytest.mark.client
def test_client_exits_cleanly(start: Callable[..., Server], client_command: list[str]) -> None:
    """The example's client against its server, both models, three runs each: exit status 0 and not
    a word of an error or exception (the Java client printed a ClosedChannelException after a
    successful run when its reader thread read again after the close)."""
    for final in (False, True):
        server = start(*(["--final"] if final else []))
        for _ in range(3):
            run = run_client(client_command, server.port, final)
            words = (run.stdout + run.stderr).lower()
            assert run.returncode == 0 and "exception" not in words and "error" not in words, \
                f"{run.args}: exit status {run.returncode}\n{run.stdout}{run.stderr}"
        assert server.errors == [], server.errors


@pytest.mark.client
@pytest.mark.parametrize("server_final", [False, True], ids=["versioned-server", "final-server"])
def test_client_of_the_other_model(start: Callable[..., Server], client_command: list[str],
                                   server_final: bool) -> None:
    """A client that speaks the other model fails at once and says why, from the server's model
    notice: `the other end reads final frames and refused ours: this end sends versioned frames`
    (docs/format.md 7.4), not `client reset before the response came`."""
    server = start(*(["--final"] if server_final else []))
    started = time.monotonic()
    run = run_client(client_command, server.port, not server_final)
    seconds = time.monotonic() - started
    said = run.stdout + run.stderr
    theirs, ours = ("final", "versioned") if server_final else ("versioned", "final")
    assert run.returncode != 0, said
    assert f"the other end reads {theirs} frames and refused ours: this end sends {ours} frames" in said, said
    print(f"  {' '.join(run.args)}: {said.strip().splitlines()[-1]} ({seconds:.1f} s)")


def run_client(command: list[str], port: int, final: bool) -> subprocess.CompletedProcess[str]:
    """The example's client (its --client command, {address} and {port} replaced) against 127.0.0.1:port."""
    args = [word.replace("{address}", f"127.0.0.1:{port}").replace("{port}", str(port)) for word in command] \
        + (["--final"] if final else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=PATIENCE, check=False)


@pytest.mark.memory_bounds
def test_bad_alloc(start: Callable[..., Server]) -> None:
    """Running out of memory while buffering one client's frame ends that connection, not the server
    (C++: std::bad_alloc under an address-space limit; run with --memory-bounds only)."""
    frame = 512 * MiB
    server = start("--max-frame-size", str(frame))
    cap = server.vm()["VmSize"] + 128 * MiB
    resource.prlimit(server.proc.pid, resource.RLIMIT_AS, (cap, cap))
    print(f"  server address space capped at {mib(cap)}; a client sends a frame of {mib(frame)}")
    with connect(server.port) as hog:
        block = struct.pack("<I", frame) + b"\0" * (MiB - 4)
        try:
            for _ in range(frame // MiB):
                hog.sendall(block)
                block = b"\0" * MiB
        except OSError:
            pass  # closed by the server while sending: expected
        assert len(server.said(1, "out of memory")) == 1, server.errors
        assert closed_by_peer(hog)
    assert len(server.errors) == 1, server.errors
    served(server.port, 2000)
