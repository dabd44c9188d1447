#!/usr/bin/env python3
"""A single-node Kafka broker in KRaft mode for the tests of every language (docs/kafka.md).

Broker and controller in one JVM on two free ports of 127.0.0.1, started from the jars of
tests/kafka/broker (`make test-kafka` copies them into build/kafka/broker), its data in a temporary
folder (`kafka-storage format` first); stopped and removed at the end.

    with Broker() as broker:
        broker.bootstrap            # "127.0.0.1:PORT", once the broker serves metadata

    python tests/kafka/broker.py run [--jars DIR] -- CMD...

`run` starts the broker, runs CMD with FBE_KAFKA_BOOTSTRAP=host:port in its environment, stops the
broker and exits with CMD's status (1 when the broker did not start). Every language's broker
tests read FBE_KAFKA_BOOTSTRAP, so one broker serves a whole `make test-kafka`. Standard library
only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Self

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_JARS = ROOT / "build" / "kafka" / "broker"
BOOTSTRAP_ENV = "FBE_KAFKA_BOOTSTRAP"
START_TIMEOUT = 120.0
# Any fixed id: the storage is formatted anew for each broker.
CLUSTER_ID = "q1Sh-9_ISia_zwGINzRvyQ"


class BrokerError(RuntimeError):
    """The broker could not be started; the message ends with the tail of its log."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if not found:
        raise BrokerError("no java on PATH (the broker needs JDK 17: apt-get install openjdk-17-jdk-headless)")
    return found


def server_properties(data: Path, port: int, controller: int) -> str:
    return "\n".join([
        "process.roles=broker,controller",
        "node.id=1",
        f"controller.quorum.voters=1@127.0.0.1:{controller}",
        f"listeners=PLAINTEXT://127.0.0.1:{port},CONTROLLER://127.0.0.1:{controller}",
        f"advertised.listeners=PLAINTEXT://127.0.0.1:{port}",
        "controller.listener.names=CONTROLLER",
        "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
        "inter.broker.listener.name=PLAINTEXT",
        f"log.dirs={data}",
        "num.partitions=1",
        "offsets.topic.replication.factor=1",
        "offsets.topic.num.partitions=1",
        "transaction.state.log.replication.factor=1",
        "transaction.state.log.min.isr=1",
        "share.coordinator.state.topic.replication.factor=1",
        "share.coordinator.state.topic.min.isr=1",
        "group.initial.rebalance.delay.ms=0",
        "",
    ])


def metadata_brokers(host: str, port: int, timeout: float = 5.0) -> int:
    """How many brokers a Metadata request (v4, no topics) to host:port names; raises OSError when
    the broker does not answer. Kafka's wire protocol: a size-prefixed request header v1 (api key 3,
    version 4, correlation id, client id) and body (an empty topic array, no auto creation); the
    response starts with the correlation id, the throttle time and the broker array."""
    client = b"fbe-broker-py"
    body = struct.pack(">hhih", 3, 4, 1, len(client)) + client + struct.pack(">i?", 0, False)
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(struct.pack(">i", len(body)) + body)
        size = struct.unpack(">i", recv_exactly(s, 4))[0]
        response = recv_exactly(s, size)
    correlation, _throttle, brokers = struct.unpack_from(">iii", response)
    if correlation != 1:
        raise OSError(f"a Metadata response with correlation id {correlation}, not 1")
    return int(brokers)


def recv_exactly(s: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise OSError("the broker closed the connection")
        data += chunk
    return data


def tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class Broker:
    """A broker started by __enter__ (or start()) and stopped and removed by __exit__ (or stop())."""

    def __init__(self, jars: Path | str | None = None, timeout: float = START_TIMEOUT) -> None:
        self.jars = Path(jars) if jars else DEFAULT_JARS
        self.timeout = timeout
        self.bootstrap = ""
        self.start_seconds = 0.0
        self._dir: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        if not self.jars.is_dir() or not any(self.jars.glob("kafka_2.13-*.jar")):
            raise BrokerError(f"no broker jars in {self.jars} (make test-kafka copies them there: "
                              "mvn dependency:copy-dependencies in tests/kafka/broker)")
        t0 = time.monotonic()
        self._dir = Path(tempfile.mkdtemp(prefix="fbe-kafka-"))
        try:
            self._start(t0)
        except BaseException:
            self.stop()
            raise

    def _start(self, t0: float) -> None:
        assert self._dir is not None
        port, controller = free_port(), free_port()
        while controller == port:
            controller = free_port()
        props = self._dir / "server.properties"
        props.write_text(server_properties(self._dir / "data", port, controller), encoding="utf-8")
        cp = f"{self.jars.resolve()}/*"
        jvm = java()
        format_log = self._dir / "format.log"
        with format_log.open("wb") as out:
            formatted = subprocess.run(
                [jvm, "-Xshare:auto", "-cp", cp, "kafka.tools.StorageTool", "format",
                 "-t", CLUSTER_ID, "-c", str(props)],
                stdout=out, stderr=subprocess.STDOUT, timeout=90, check=False)
        if formatted.returncode != 0:
            raise BrokerError(f"kafka storage format failed (status {formatted.returncode}):\n{tail(format_log)}")
        log = self._dir / "broker.log"
        with log.open("wb") as out:
            self._process = subprocess.Popen([jvm, "-Xmx512m", "-cp", cp, "kafka.Kafka", str(props)],
                                             stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = t0 + self.timeout
        while True:
            status = self._process.poll()
            if status is not None:
                raise BrokerError(f"the broker exited with status {status}:\n{tail(log)}")
            try:
                if metadata_brokers("127.0.0.1", port) > 0:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise BrokerError(f"the broker did not answer within {self.timeout:.0f} s:\n{tail(log)}")
            time.sleep(0.25)
        self.bootstrap = f"127.0.0.1:{port}"
        self.start_seconds = time.monotonic() - t0

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        directory, self._dir = self._dir, None
        if directory is not None:
            shutil.rmtree(directory, ignore_errors=True)


def run(command: list[str], jars: str | None) -> int:
    # make's or a terminal's SIGTERM stops the broker too (the finally of the with).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        with Broker(jars) as broker:
            print(f"kafka broker {broker.bootstrap} answered after {broker.start_seconds:.1f} s", flush=True)
            env = dict(os.environ, **{BOOTSTRAP_ENV: broker.bootstrap})
            return subprocess.run(command, env=env, check=False).returncode
    except BrokerError as e:
        print(f"broker.py: {e}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    p = sub.add_parser("run", help="start a broker, run CMD with FBE_KAFKA_BOOTSTRAP set, stop the broker")
    p.add_argument("--jars", help=f"the broker's jars (default {DEFAULT_JARS})")
    p.add_argument("command", nargs="+", metavar="CMD", help="the command and its arguments (after --)")
    args = parser.parse_args(argv)
    return run(args.command, args.jars)


if __name__ == "__main__":
    sys.exit(main())
