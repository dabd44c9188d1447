"""fbe.kafka through the real broker of make test-kafka (FBE_KAFKA_BOOTSTRAP): a SerializingProducer
and a DeserializingConsumer with the FBE serde, both models; records of another schema and invalid
values are refused with their offset and reason, and the consumer goes on with the next record; a
consumer of a group restarted mid-topic resumes at its committed offset."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from confluent_kafka import Consumer, DeserializingConsumer, Message, Producer, SerializingProducer, TopicPartition
from confluent_kafka.admin import AdminClient
from confluent_kafka.cimpl import NewTopic
from confluent_kafka.error import ValueDeserializationError, ValueSerializationError
from confluent_kafka.serialization import Deserializer, Serializer, StringSerializer
from fbe import kafka
from fbe.kafka import FbeDeserializer, FbeSchema, serde

WAIT = 60.0
_topics = itertools.count(1)


@pytest.fixture(scope="module")
def versioned(proto: ModuleType) -> FbeSchema:
    return FbeSchema.of(proto)


def new_topic(bootstrap: str, name: str | None = None) -> str:
    name = name or f"python-test-{_topics.__next__()}-{time.monotonic_ns()}"
    admin = AdminClient({"bootstrap.servers": bootstrap})   # kept until the topic exists: its end cancels
    admin.create_topics([NewTopic(name, 1, 1)])[name].result(WAIT)
    return name


def produce(bootstrap: str, topic: str, serializer: Serializer, values: list[Any]) -> None:
    producer = SerializingProducer({"bootstrap.servers": bootstrap, "acks": "all",
                                    "key.serializer": StringSerializer(), "value.serializer": serializer})
    for v in values:
        producer.produce(topic, key="k", value=v, headers=[])
    assert producer.flush(WAIT) == 0


def produce_raw(bootstrap: str, topic: str, schema: FbeSchema | None, value: bytes) -> None:
    """A record whose headers name `schema` (None: no headers) and whose value is `value` as it is."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    producer.produce(topic, key="k", value=value, headers=schema.headers() if schema else None)
    assert producer.flush(WAIT) == 0


def consume(bootstrap: str, topic: str, deserializer: Deserializer | None, want: int,
            refused: list[str], on_refused: Callable[[ValueDeserializationError], None] | None = None,
            ) -> list[Message]:
    """Reads `want` good records from the start of the topic; each refused record adds
    "offset: reason" to `refused` (and is given to `on_refused`), and the consumer goes on with
    the next poll."""
    config: dict[str, Any] = {"bootstrap.servers": bootstrap, "group.id": f"{topic}-reader",
                              "auto.offset.reset": "earliest", "enable.auto.commit": False}
    consumer: Consumer
    if deserializer is None:
        consumer = Consumer(config)
    else:
        consumer = DeserializingConsumer({**config, "value.deserializer": deserializer})
    consumer.assign([TopicPartition(topic, 0, 0)])
    records: list[Message] = []
    deadline = time.monotonic() + WAIT
    try:
        while len(records) < want and time.monotonic() < deadline:
            try:
                msg = consumer.poll(0.5)
            except ValueDeserializationError as e:
                assert e.kafka_message is not None
                refused.append(f"{e.kafka_message.offset()}: {e.exception}")
                if on_refused is not None:
                    on_refused(e)
                continue
            if msg is not None:
                assert msg.error() is None, msg.error()
                records.append(msg)
    finally:
        consumer.close()
    return records


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_both_models_round_trip_with_the_fbe_header(
        model: str, bootstrap: str, versioned: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    schema = versioned.with_model(model)
    serializer, deserializer = serde(schema, proto.Account)
    topic = new_topic(bootstrap)
    sent = [account(1), account(2), account(3)]
    produce(bootstrap, topic, serializer, sent)
    refused: list[str] = []
    got = consume(bootstrap, topic, deserializer, len(sent), refused)
    assert refused == []
    assert [m.value() for m in got] == sent
    for m in got:
        assert m.headers() == [("fbe", schema.header())]


def test_the_value_is_exactly_the_message_bytes(bootstrap: str, versioned: FbeSchema, proto: ModuleType,
                                                account: Callable[[int], Any]) -> None:
    topic = new_topic(bootstrap)
    produce(bootstrap, topic, serde(versioned, proto.Account)[0], [account(7)])
    got = consume(bootstrap, topic, None, 1, [])
    assert [m.value() for m in got] == [account(7).to_fbe()]


def test_a_foreign_schema_is_refused_naming_both_and_the_consumer_goes_on(
        bootstrap: str, versioned: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    topic = new_topic(bootstrap)
    foreign = FbeSchema("proto", "2.0", "ab" * 32)
    produce(bootstrap, topic, serde(foreign, proto.Account)[0], [account(1)])
    produce(bootstrap, topic, serde(versioned.with_model("final"), proto.Account)[0], [account(2)])
    produce_raw(bootstrap, topic, None, account(3).to_fbe())
    produce(bootstrap, topic, serde(versioned, proto.Account)[0], [account(4)])
    refused: list[str] = []
    got = consume(bootstrap, topic, serde(versioned, proto.Account)[1], 1, refused)
    assert [(m.offset(), m.value()) for m in got] == [(3, account(4))]
    assert refused == [
        (f"0: a record written with proto 2.0 (versioned, fingerprint {'ab' * 32}) cannot be read by {versioned}: "
         "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)"),
        f"1: a record written with {versioned.with_model('final')} cannot be read by {versioned}: another binary model",
        (f"2: a record this consumer of {versioned} cannot check: no fbe header: "
         "the record was not written by an FBE serializer"),
    ]


def test_an_invalid_value_is_refused_with_its_offset_and_reason_and_the_consumer_goes_on(
        bootstrap: str, versioned: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    topic = new_topic(bootstrap)
    good = account(1).to_fbe()
    produce_raw(bootstrap, topic, versioned, good[:-5])
    produce_raw(bootstrap, topic, versioned, good[:4] + b"\x7f" + good[5:])   # the root's type id
    produce_raw(bootstrap, topic, versioned, b"")
    produce(bootstrap, topic, serde(versioned, proto.Account)[0], [account(2)])
    refused: list[str] = []
    got = consume(bootstrap, topic, FbeDeserializer(versioned, proto.Account.from_fbe), 1, refused)
    assert [(m.offset(), m.value()) for m in got] == [(3, account(2))]
    assert len(refused) == 3, refused
    for i, (reason, size) in enumerate(zip(refused, (len(good) - 5, len(good), 0))):
        assert reason.startswith(f"{i}: an invalid {versioned} value of {size} bytes: "), reason
        assert "offset" in reason.split(" bytes: ", 1)[1], reason
    assert refused[0][2:] != refused[1][2:]


def read_and_commit(bootstrap: str, topic: str, group: str, count: int, deserializer: Deserializer,
                    values: list[Any]) -> list[int]:
    """A consumer of the group that reads `count` records, commits after the last and closes; the
    offsets of what it read."""
    consumer = DeserializingConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                                      "auto.offset.reset": "earliest", "enable.auto.commit": False,
                                      "value.deserializer": deserializer})
    consumer.subscribe([topic])
    offsets: list[int] = []
    deadline = time.monotonic() + WAIT
    try:
        while len(offsets) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            offset = msg.offset()
            assert msg.error() is None and offset is not None, msg.error()
            offsets.append(offset)
            values.append(msg.value())
            if len(offsets) == count:
                consumer.commit(message=msg, asynchronous=False)
    finally:
        consumer.close()
    return offsets


def test_a_restarted_consumer_resumes_at_its_committed_offset(
        bootstrap: str, versioned: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    topic = new_topic(bootstrap)
    sent = [account(i) for i in range(1, 7)]
    serializer, deserializer = serde(versioned, proto.Account)
    produce(bootstrap, topic, serializer, sent)
    values: list[Any] = []
    assert read_and_commit(bootstrap, topic, f"{topic}-group", 3, deserializer, values) == [0, 1, 2]
    assert read_and_commit(bootstrap, topic, f"{topic}-group", 3, deserializer, values) == [3, 4, 5]
    assert values == sent


def test_a_consumer_reads_the_newer_and_older_writers_its_topic_record_accepts(
        bootstrap: str, versioned: FbeSchema, proto: ModuleType, evolved: ModuleType,
        account: Callable[[int], Any], topic_record_accepts: tuple[list[str], list[str]]) -> None:
    """The evolution case, both ways: a producer on the newer schema (Account.note appended) and one
    on the older write a topic; the older consumer refuses the newer record naming both schemas
    until given its topic record's accepted fingerprints, then reads it without the field; the
    newer consumer reads both, the older record with the field at its default."""
    older, newer = topic_record_accepts
    assert older[0] == versioned.fingerprint and newer == [older[1], older[0]]
    evolved_schema = FbeSchema.of(evolved)
    assert evolved_schema == FbeSchema("proto", "1.1", newer[0])
    newer_account = evolved.Account.from_fbe(account(1).to_fbe())
    newer_account.note = "from the newer producer"
    topic = new_topic(bootstrap)
    produce(bootstrap, topic, serde(evolved_schema, evolved.Account)[0], [newer_account])
    produce(bootstrap, topic, serde(versioned, proto.Account)[0], [account(2)])

    refused: list[str] = []
    got = consume(bootstrap, topic, serde(versioned, proto.Account)[1], 1, refused)
    assert [m.offset() for m in got] == [1]
    assert refused == [(f"0: a record written with {evolved_schema} cannot be read by {versioned}: another schema "
                        "(fingerprints differ; fbec compat says whether the schemas are compatible)")]

    refused.clear()
    got = consume(bootstrap, topic, serde(versioned, proto.Account, accepted=older)[1], 2, refused)
    assert refused == []
    assert [m.value() for m in got] == [account(1), account(2)]

    got = consume(bootstrap, topic, serde(evolved_schema, evolved.Account, accepted=newer)[1], 2, refused)
    assert refused == []
    values: list[Any] = [m.value() for m in got]
    assert [v.note for v in values] == ["from the newer producer", "evolved"]
    assert proto.Account.from_fbe(values[1].to_fbe()) == account(2)


def big_account(account: Callable[[int], Any], orders: int) -> Any:
    """account(9) with `orders` more orders: about 40 bytes each."""
    a = account(9)
    a.orders += [account(9).orders[0] for _ in range(orders)]
    return a


def test_refused_records_go_to_the_dead_letter_topic_with_their_place_and_reason_and_the_consumer_goes_on(
        bootstrap: str, versioned: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    """The size limit and the dead letters: a serializer with a limit refuses to write a larger
    value, one without writes it; a consumer with the limit refuses that record and a truncated
    one with their offsets and reasons, publishes each with publish_dead_letter and reads the
    records around them; TOPIC.DLT holds both as they were, with Spring's headers."""
    limit = 1024
    big = big_account(account, 50)
    big_bytes = big.to_fbe()
    assert len(big_bytes) > limit > len(account(1).to_fbe())
    topic = new_topic(bootstrap)
    limited_serializer, limited_deserializer = serde(versioned, proto.Account, max_value_bytes=limit)
    too_large = f"a {versioned} value of {len(big_bytes)} bytes is larger than the limit of {limit} bytes " \
                "(fbe.max.value.bytes): not "
    with pytest.raises(ValueSerializationError) as written:
        produce(bootstrap, topic, limited_serializer, [big])
    assert str(written.value.exception) == too_large + "written"
    produce(bootstrap, topic, limited_serializer, [account(1)])
    produce(bootstrap, topic, serde(versioned, proto.Account)[0], [big])
    truncated = account(3).to_fbe()[:20]
    produce_raw(bootstrap, topic, versioned, truncated)
    produce(bootstrap, topic, limited_serializer, [account(2)])
    dlt_topic = new_topic(bootstrap, kafka.dead_letter_topic(topic))

    dlt = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    errors: list[ValueDeserializationError] = []

    def publish(e: ValueDeserializationError) -> None:
        errors.append(e)
        kafka.publish_dead_letter(dlt, e)
        assert dlt.flush(WAIT) == 0

    refused: list[str] = []
    got = consume(bootstrap, topic, limited_deserializer, 2, refused, publish)
    assert [(m.offset(), m.value()) for m in got] == [(0, account(1)), (3, account(2))]
    assert len(refused) == 2 and refused[0] == "1: " + too_large + "read", refused
    assert refused[1].startswith(f"2: an invalid {versioned} value of 20 bytes: "), refused

    letters = consume(bootstrap, dlt_topic, None, 2, [])
    for i, (letter, value) in enumerate(zip(letters, (big_bytes, truncated))):
        assert letter.value() == value and letter.key() == b"k" and letter.partition() == 0
        headers = letter.headers() or []
        assert FbeSchema.read_from(headers) == versioned          # the original headers, kept
        last = dict(headers)
        assert last[kafka.ORIGINAL_TOPIC] == topic.encode()
        assert last[kafka.ORIGINAL_PARTITION] == b"\0\0\0\0"
        assert last[kafka.ORIGINAL_OFFSET] == (i + 1).to_bytes(8, "big")
        assert last[kafka.EXCEPTION_FQCN] == b"fbe.kafka.FbeRecordError"
        assert last[kafka.EXCEPTION_MESSAGE] == str(errors[i].exception).encode()
