"""The Python client of the cross-language Kafka tests (tests/kafka/test_matrix.py): proto.Account
messages of schemas/trade.fbe through fbe.kafka's serde.

    matrix_client.py GEN encode MODEL            JSON lines in, the hex of each message's bytes out
    matrix_client.py GEN produce MODEL TOPIC     JSON lines in, a record each to partition 0, in order
    matrix_client.py GEN consume MODEL TOPIC N   the first N records of partition 0, a line each:
                                                 "OFFSET HEX JSON", or "OFFSET refused REASON"

GEN is the folder of fbec --python --json of schemas/trade.fbe (make kafka-python-build makes it);
MODEL is versioned or final; the broker is FBE_KAFKA_BOOTSTRAP; the schema is the generated
module's (FbeSchema.of(proto)).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "runtime" / "python"))

from confluent_kafka import Consumer, SerializingProducer, TopicPartition
from confluent_kafka.serialization import MessageField, SerializationContext
from fbe.kafka import FbeDeserializer, FbeRecordError, FbeSchema, FbeSerializer, serde

TIMEOUT = 60.0


def read_messages(proto: Any) -> list[Any]:
    return [proto.Account.from_json(line) for line in sys.stdin.read().splitlines() if line]


def produce(serializer: FbeSerializer[Any], messages: list[Any], topic: str) -> None:
    producer = SerializingProducer({"bootstrap.servers": os.environ["FBE_KAFKA_BOOTSTRAP"], "acks": "all",
                                    "value.serializer": serializer})
    for account in messages:
        producer.produce(topic, value=account, partition=0, headers=[])
    if producer.flush(TIMEOUT) != 0:
        raise SystemExit(f"records of {topic} not acknowledged within {TIMEOUT:.0f} s")


def consume(deserializer: FbeDeserializer[Any], topic: str, n: int) -> None:
    """Reads the values as bytes and gives each to the serde's deserializer with the record's headers,
    as a DeserializingConsumer does."""
    consumer = Consumer({"bootstrap.servers": os.environ["FBE_KAFKA_BOOTSTRAP"],
                         "group.id": f"matrix-python-{uuid.uuid4().hex[:8]}", "enable.auto.commit": False})
    consumer.assign([TopicPartition(topic, 0, 0)])
    deadline = time.monotonic() + TIMEOUT
    read = 0
    try:
        while read < n:
            if time.monotonic() > deadline:
                raise SystemExit(f"read {read} of {n} records of {topic}")
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error() is not None:
                raise SystemExit(f"{topic}: {msg.error()}")
            read += 1
            value = msg.value() or b""
            try:
                account = deserializer(value, SerializationContext(topic, MessageField.VALUE, msg.headers()))
                assert account is not None
                print(msg.offset(), value.hex(), account.to_json(), flush=True)
            except FbeRecordError as e:
                print(msg.offset(), "refused", e, flush=True)
    finally:
        consumer.close()


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        raise SystemExit("usage: matrix_client.py GEN encode|produce|consume MODEL [TOPIC [N]]")
    gen, command, model = argv[0], argv[1], argv[2]
    sys.path.insert(0, gen)
    proto = importlib.import_module("proto")
    serializer, deserializer = serde(FbeSchema.of(proto, model), proto.Account)
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    sys.stdin.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    if command == "encode":
        for account in read_messages(proto):
            print((serializer(account) or b"").hex())
    elif command == "produce":
        produce(serializer, read_messages(proto), argv[3])
    elif command == "consume":
        consume(deserializer, argv[3], int(argv[4]))
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main(sys.argv[1:])
