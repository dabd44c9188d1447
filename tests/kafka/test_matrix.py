"""Every language's Kafka producer read by every other language's consumer, through one broker
(docs/kafka.md "Tests against a real broker"; make kafka-matrix runs it under tests/kafka/broker.py).

A language takes part with a client command in FBE_KAFKA_CLIENT_<LANGUAGE> (split as a shell
would; mk/kafka.mk sets them) that sends proto.Account messages of schemas/trade.fbe through its
serde:

    CLIENT encode MODEL            JSON lines in (docs/format.md 8), the hex of each message's
                                   bytes out, a line each
    CLIENT produce MODEL TOPIC     JSON lines in, a record each to partition 0 of TOPIC (created
                                   when missing), in order, acknowledged before the exit
    CLIENT consume MODEL TOPIC N   the first N records of partition 0, a line each: "OFFSET HEX
                                   JSON" (the value as the record holds it, the decoded message as
                                   JSON) or "OFFSET refused REASON" (the serde's error text)

MODEL is versioned or final, the broker FBE_KAFKA_BOOTSTRAP, the schema's fingerprint
FBE_KAFKA_FINGERPRINT. Each language produces the messages once per model, to a topic of its own;
for each ordered pair of languages and each model the consumer must read the producer's records
with the same JSON, and each value must be byte-equal to the consumer's own encode of the message;
a versioned consumer refuses every record of the producer's final topic with the same text in
every language, and goes on to the next. Every producer's records carry one header, `fbe`, of the
bytes docs/kafka.md "Record headers" lays out, read here from the broker as they are.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import subprocess
import uuid
from typing import Any

import pytest
from confluent_kafka import Consumer, TopicPartition

CLIENT_PREFIX = "FBE_KAFKA_CLIENT_"
MODELS = ("versioned", "final")
TIMEOUT = 180

# Enums and flags as their numbers, as FBE JSON writes them.
MESSAGES: list[dict[str, Any]] = [
    {"id": 1, "name": "Account 1 \u00e9\u20ac \"quoted\"", "state": 6,
     "wallet": {"currency": "USD", "amount": 1001.5}, "asset": {"currency": "EUR", "amount": 10.0},
     "orders": [{"id": 10, "symbol": "EURUSD", "side": 0, "type": 1, "price": 1.23456, "volume": 0.0},
                {"id": 11, "symbol": "EURUSD", "side": 1, "type": 2, "price": -2.5e-07, "volume": 1000.0}]},
    {"id": 2, "name": "", "state": 0, "wallet": {"currency": "", "amount": 0.0}, "asset": None,
     "orders": []},
    {"id": -2147483648, "name": "\u65e5\u672c\u8a9e \U0001f642", "state": 11,
     "wallet": {"currency": "JPY", "amount": 1e300}, "asset": {"currency": "", "amount": 0.1},
     "orders": [{"id": 2147483647, "symbol": "X" * 300, "side": 1, "type": 0, "price": 0.0,
                 "volume": 5e-324}]},
]
LINES = "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in MESSAGES)


def clients() -> dict[str, list[str]]:
    return {key[len(CLIENT_PREFIX):].lower(): shlex.split(value)
            for key, value in sorted(os.environ.items()) if key.startswith(CLIENT_PREFIX) and value}


PAIRS = [(p, c) for p in clients() for c in clients() if p != c]


def run(language: str, *args: str, stdin: str = "") -> list[str]:
    command = clients()[language] + list(args)
    done = subprocess.run(command, input=stdin.encode(), capture_output=True, timeout=TIMEOUT, check=False)
    out, err = done.stdout.decode(), done.stderr.decode(errors="replace")
    assert done.returncode == 0, f"{language} {' '.join(args)} exited {done.returncode}:\n{err}"
    return out.splitlines()


@functools.cache
def encoded(language: str, model: str) -> list[str]:
    """The hex of the language's own encode of MESSAGES."""
    return run(language, "encode", model, stdin=LINES)


@functools.cache
def produced(producer: str, model: str) -> str:
    """The topic the producer wrote MESSAGES to in the model, once for every consumer."""
    name = "-".join(("matrix", producer, model, uuid.uuid4().hex[:8]))
    run(producer, "produce", model, name, stdin=LINES)
    return name


def consume(consumer: str, model: str, topic: str) -> list[list[str]]:
    """The consumer's rows for the first len(MESSAGES) records: [OFFSET, HEX, JSON] or [OFFSET, "refused", REASON]."""
    return [line.split(" ", 2) for line in run(consumer, "consume", model, topic, str(len(MESSAGES)))]


def record_headers(topic: str) -> list[Any]:
    """The headers of the first len(MESSAGES) records of partition 0, as the broker holds them."""
    consumer = Consumer({"bootstrap.servers": os.environ["FBE_KAFKA_BOOTSTRAP"], "group.id": f"matrix-{uuid.uuid4()}",
                         "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    headers: list[Any] = []
    try:
        for _ in range(TIMEOUT * 2):
            if len(headers) == len(MESSAGES):
                break
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                headers.append(msg.headers())   # a consumed message's: a list of (key, bytes)
    finally:
        consumer.close()
    return headers


def test_two_clients_at_least() -> None:
    assert len(clients()) >= 2, (f"the matrix needs two languages' clients in {CLIENT_PREFIX}<LANGUAGE>, "
                                 f"has {sorted(clients())} (make kafka-matrix sets them)")
    assert os.environ.get("FBE_KAFKA_BOOTSTRAP"), "no FBE_KAFKA_BOOTSTRAP: run under tests/kafka/broker.py run --"


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("producer", "consumer"), PAIRS, ids=[f"{p}-to-{c}" for p, c in PAIRS])
def test_a_consumer_reads_what_another_language_produced(producer: str, consumer: str, model: str) -> None:
    rows = consume(consumer, model, produced(producer, model))
    assert [row[1] for row in rows if row[1] == "refused"] == [], rows
    assert [int(row[0]) for row in rows] == list(range(len(MESSAGES)))
    assert [json.loads(row[2]) for row in rows] == MESSAGES
    values = [row[1] for row in rows]
    assert values == encoded(consumer, model), f"{producer}'s values are not {consumer}'s encode"
    assert values == encoded(producer, model), f"{producer}'s values are not its own encode"


@pytest.mark.parametrize(("producer", "consumer"), PAIRS, ids=[f"{p}-to-{c}" for p, c in PAIRS])
def test_a_record_of_the_other_model_is_refused_naming_both_schemas(producer: str, consumer: str) -> None:
    fingerprint = os.environ.get("FBE_KAFKA_FINGERPRINT", "")
    refusal = (f"a record written with proto 1.0 (final, fingerprint {fingerprint}) cannot be read by "
               f"proto 1.0 (versioned, fingerprint {fingerprint}): another binary model")
    rows = consume(consumer, "versioned", produced(producer, "final"))
    assert rows == [[str(i), "refused", refusal] for i in range(len(MESSAGES))]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("producer", list(clients()))
def test_every_producer_writes_the_fbe_header_of_the_layout(producer: str, model: str) -> None:
    # layout version 1, the model's byte, the fingerprint's 32 bytes, "PACKAGE VERSION" in UTF-8
    header = bytes((1, MODELS.index(model))) + bytes.fromhex(os.environ.get("FBE_KAFKA_FINGERPRINT", "")) + b"proto 1.0"
    assert record_headers(produced(producer, model)) == [[("fbe", header)]] * len(MESSAGES)
