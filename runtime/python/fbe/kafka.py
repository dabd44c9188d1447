"""FBE records over Apache Kafka with confluent-kafka (docs/kafka.md).

A :class:`FbeSerializer` and a :class:`FbeDeserializer` are confluent-kafka's own
``Serializer`` and ``Deserializer``: give them to a ``SerializingProducer`` or a
``DeserializingConsumer`` as ``value.serializer`` / ``value.deserializer``. The record value
is exactly the message bytes of the schema's model; the schema travels in four headers
(``fbe.package``, ``fbe.version``, ``fbe.fingerprint``, ``fbe.model``), and the deserializer
reads a record only when they name its own package, model and fingerprint::

    schema = FbeSchema("proto", "1.0", FINGERPRINT)            # FINGERPRINT: fbec fingerprint
    serializer, deserializer = serde(schema, proto.Account)
    producer = SerializingProducer({"bootstrap.servers": ..., "value.serializer": serializer})
    producer.produce("accounts", value=account, headers=[])    # the headers receive the schema

This module needs confluent-kafka (``pip install fbe-toolkit[kafka]``); ``import fbe`` does not
import it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, Union

from .errors import DecodeError
from .limits import Limits

try:
    from confluent_kafka import KafkaError, Message, Producer
    from confluent_kafka.error import ConsumeError
    from confluent_kafka.serialization import Deserializer, SerializationContext, SerializationError, Serializer
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("fbe.kafka needs confluent-kafka: pip install fbe-toolkit[kafka] "
                      "(or pip install confluent-kafka)") from error

__all__ = [
    "DEAD_LETTER_SUFFIX",
    "EXCEPTION_FQCN",
    "EXCEPTION_MESSAGE",
    "FINAL",
    "FINGERPRINT_HEADER",
    "MAX_VALUE_BYTES",
    "MODEL_HEADER",
    "ORIGINAL_OFFSET",
    "ORIGINAL_PARTITION",
    "ORIGINAL_TOPIC",
    "PACKAGE_HEADER",
    "VERSIONED",
    "VERSION_HEADER",
    "FbeDeserializer",
    "FbeRecordError",
    "FbeSchema",
    "FbeSerializer",
    "dead_letter_topic",
    "publish_dead_letter",
    "serde",
]

PACKAGE_HEADER = "fbe.package"
VERSION_HEADER = "fbe.version"
FINGERPRINT_HEADER = "fbe.fingerprint"
MODEL_HEADER = "fbe.model"
VERSIONED = "versioned"
FINAL = "final"

# What a size limit's refusal names it by: the Java serde's config key (docs/kafka.md "Hostile records").
MAX_VALUE_BYTES = "fbe.max.value.bytes"

_HEADERS = (PACKAGE_HEADER, VERSION_HEADER, FINGERPRINT_HEADER, MODEL_HEADER)
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")

# What confluent-kafka passes as a record's headers: a list of (key, value) pairs (a consumed
# message's), or a dict (what an application may give produce()).
HeaderValue = Union[str, bytes, None]
Headers = Union[dict[str, HeaderValue], list[tuple[str, HeaderValue]]]

T = TypeVar("T")


class FbeRecordError(SerializationError):
    """A record the deserializer refuses, or a value the serializer cannot write a record of.

    Headers naming another schema or none, or bytes that are not a valid message: then
    ``decode_error`` (also ``__cause__``) is the runtime's :class:`~fbe.DecodeError` with the
    field and the byte offset. A ``DeserializingConsumer`` raises it wrapped in a
    ``ValueDeserializationError`` whose ``kafka_message`` gives the topic, partition and
    offset; the next ``poll`` reads the record after it.
    """

    def __init__(self, message: str, decode_error: DecodeError | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.decode_error = decode_error

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class FbeSchema:
    """The schema a record is written with, as its headers carry it (docs/kafka.md "Record headers"):
    the package, its version (``major.minor``), the fingerprint ``fbec fingerprint`` prints and the
    binary model, ``"versioned"`` or ``"final"``."""

    package: str
    version: str
    fingerprint: str
    model: str = VERSIONED

    def __post_init__(self) -> None:
        if not isinstance(self.fingerprint, str) or not _FINGERPRINT.fullmatch(self.fingerprint):
            raise ValueError(f"a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), "
                             f"got {self.fingerprint}")
        if self.model not in (VERSIONED, FINAL):
            raise ValueError(f"a schema's model is {VERSIONED} or {FINAL}, got {self.model}")

    def with_model(self, model: str) -> FbeSchema:
        """The same schema in the other binary model."""
        return FbeSchema(self.package, self.version, self.fingerprint, model)

    def headers(self) -> list[tuple[str, HeaderValue]]:
        """The four headers, for a plain ``Producer.produce(..., headers=schema.headers())``."""
        values = (self.package, self.version, self.fingerprint, self.model)
        return [(key, value.encode()) for key, value in zip(_HEADERS, values)]

    def write_to(self, headers: Headers) -> None:
        """Sets the four headers in a list or dict of headers (replacing any of the same names)."""
        mine = self.headers()
        if isinstance(headers, dict):
            headers.update(mine)
        else:
            headers[:] = [h for h in headers if h[0] not in _HEADERS]
            headers.extend(mine)

    @classmethod
    def read_from(cls, headers: Headers | None) -> FbeSchema:
        """The schema the headers name; :class:`FbeRecordError` when a header is missing or invalid."""
        model = _header(headers, MODEL_HEADER)
        if model not in (VERSIONED, FINAL):
            raise FbeRecordError(f"header {MODEL_HEADER} is '{model}', not {VERSIONED} or {FINAL}")
        package = _header(headers, PACKAGE_HEADER)
        version = _header(headers, VERSION_HEADER)
        try:
            return cls(package, version, _header(headers, FINGERPRINT_HEADER), model)
        except ValueError as e:
            raise FbeRecordError(f"header {FINGERPRINT_HEADER}: {e}") from None

    def differs(self, writer: FbeSchema, accepted: Iterable[str] = ()) -> str | None:
        """Why this schema cannot read a record ``writer`` wrote, or None when it can: the same
        package and model, and its own fingerprint or one of ``accepted`` (docs/kafka.md)."""
        if writer.package != self.package:
            return "another package"
        if writer.model != self.model:
            return "another binary model"
        if writer.fingerprint != self.fingerprint and writer.fingerprint not in accepted:
            return "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)"
        return None

    def __str__(self) -> str:
        """``proto 1.0 (versioned, fingerprint 6288...c7d2)``: what error messages name."""
        return f"{self.package} {self.version} ({self.model}, fingerprint {self.fingerprint})"


def _check_limit(max_value_bytes: int | None) -> int | None:
    if max_value_bytes is not None and max_value_bytes < 0:
        raise ValueError(f"{MAX_VALUE_BYTES} must not be negative, got {max_value_bytes}")
    return max_value_bytes


def _check_size(schema: FbeSchema, size: int, limit: int | None, what: str) -> None:
    if limit is not None and size > limit:
        raise FbeRecordError(f"a {schema} value of {size} bytes is larger than the limit of {limit} bytes "
                             f"({MAX_VALUE_BYTES}): not {what}")


def _header(headers: Headers | None, key: str) -> str:
    value: HeaderValue = None
    if isinstance(headers, dict):
        value = headers.get(key)
    elif headers is not None:
        for k, v in headers:  # the last of the name, as Kafka's Headers.lastHeader
            if k == key:
                value = v
    if value is None:
        raise FbeRecordError(f"no {key} header: the record was not written by an FBE serializer")
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value


class FbeSerializer(Serializer, Generic[T]):
    """confluent-kafka's Serializer of one generated type: ``encode`` writes a value as the bytes
    of one message (``proto.Account.to_fbe``, ``proto.Account.to_final``) and the four headers go
    into the record's. ``produce`` must be given headers to fill (``headers=[]``), as
    confluent-kafka's serializers that put the schema in a header require; called without a
    context (``serializer(value)``) it returns the bytes alone. ``None`` (a tombstone) stays
    ``None``. A value whose bytes are more than ``max_value_bytes`` is refused (``None``: no
    limit of the serde's own)."""

    __slots__ = ["_encode", "max_value_bytes", "schema"]

    def __init__(self, schema: FbeSchema, encode: Callable[[T], bytes], max_value_bytes: int | None = None) -> None:
        self.schema = schema
        self._encode = encode
        self.max_value_bytes = _check_limit(max_value_bytes)

    def __call__(self, obj: T | None, ctx: SerializationContext | None = None) -> bytes | None:
        if obj is None:
            return None
        headers = None if ctx is None else ctx.headers
        if ctx is not None and headers is None:
            raise FbeRecordError(f"no headers to write the schema {self.schema} into: produce the record "
                                 f"with headers (headers=[])")
        value = self._encode(obj)
        _check_size(self.schema, len(value), self.max_value_bytes, "written")
        if headers is not None:
            self.schema.write_to(headers)
        return value


class FbeDeserializer(Deserializer, Generic[T]):
    """confluent-kafka's Deserializer of one generated type: ``decode`` reads one message
    (``proto.Account.from_fbe``, ``proto.Account.from_final``). A record is read only when its
    headers name this schema's package and model and its own fingerprint or one of ``accepted``
    (what ``fbec topic accept TOPIC.json SCHEMA`` prints); anything else, and a value that is
    not a valid message, is a :class:`FbeRecordError` naming both schemas, or the reason and the
    byte offset. Called without a context (``deserializer(data)``) it reads the bytes without
    the gate. ``None`` (a tombstone) stays ``None``. A value of more than ``max_value_bytes`` is
    refused before it is decoded (``None``: no limit of the serde's own)."""

    __slots__ = ["_decode", "accepted", "max_value_bytes", "schema"]

    def __init__(self, schema: FbeSchema, decode: Callable[[bytes], T], accepted: Iterable[str] = (),
                 max_value_bytes: int | None = None) -> None:
        self.schema = schema
        self._decode = decode
        self.max_value_bytes = _check_limit(max_value_bytes)
        self.accepted = frozenset(FbeSchema(schema.package, schema.version, f, schema.model).fingerprint
                                  for f in accepted)   # each checked as a fingerprint

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> T | None:
        if value is None:
            return None
        if ctx is not None:
            try:
                writer = FbeSchema.read_from(ctx.headers)
            except FbeRecordError as e:
                raise FbeRecordError(f"a record this consumer of {self.schema} cannot check: {e}") from None
            differs = self.schema.differs(writer, self.accepted)
            if differs is not None:
                raise FbeRecordError(f"a record written with {writer} cannot be read by {self.schema}: {differs}")
        _check_size(self.schema, len(value), self.max_value_bytes, "read")
        try:
            return self._decode(value)
        except DecodeError as e:
            raise FbeRecordError(f"an invalid {self.schema} value of {len(value)} bytes: {e}", e) from e


def serde(schema: FbeSchema, cls: type[T], limits: Limits | None = None,
          accepted: Iterable[str] = (), max_value_bytes: int | None = None,
          ) -> tuple[FbeSerializer[T], FbeDeserializer[T]]:
    """The serializer and deserializer of a generated type in the schema's model:
    ``to_fbe``/``from_fbe`` for a versioned topic, ``to_final``/``from_final`` for a final one;
    the deserializer also reads the writer fingerprints ``accepted`` (``fbec topic accept``).
    ``limits`` bound what the deserializer reads (the decode budget and the nesting depth,
    docs/limits.md; ``None``: the runtime's defaults): a value beyond them is refused as an invalid one.
    ``max_value_bytes`` bounds a value's size both ways: the serializer refuses to write and the
    deserializer to read (before decoding it) a larger value, naming its size and the limit."""
    generated: Any = cls
    final = schema.model == FINAL
    read = generated.from_final if final else generated.from_fbe
    decode: Callable[[bytes], T] = lambda data: read(data, limits)
    encode = generated.to_final if final else generated.to_fbe
    return (FbeSerializer(schema, encode, max_value_bytes),
            FbeDeserializer(schema, decode, accepted, max_value_bytes))


# Dead letters: the suffix of a topic's dead-letter topic and the headers a dead letter carries
# besides the record's own, Spring Kafka's names, as the Java module's FbeDeadLetters writes them
# (docs/kafka.md "Dead letters in Go, Python and JavaScript").
DEAD_LETTER_SUFFIX = ".DLT"
ORIGINAL_TOPIC = "kafka_dlt-original-topic"
ORIGINAL_PARTITION = "kafka_dlt-original-partition"   # a 4-byte big-endian integer
ORIGINAL_OFFSET = "kafka_dlt-original-offset"         # an 8-byte big-endian integer
EXCEPTION_FQCN = "kafka_dlt-exception-fqcn"
EXCEPTION_MESSAGE = "kafka_dlt-exception-message"


def dead_letter_topic(topic: str) -> str:
    """The dead-letter topic of a topic: ``accounts.DLT``."""
    return topic + DEAD_LETTER_SUFFIX


def publish_dead_letter(producer: Producer, error: ConsumeError,
                        on_delivery: Callable[[KafkaError | None, Message], None] | None = None) -> None:
    """Produces the record a ``DeserializingConsumer`` refused to its dead-letter topic, as Spring
    Kafka's DeadLetterPublishingRecoverer does: ``error`` is what ``poll`` raised (a
    ``ValueDeserializationError``, whose ``kafka_message`` is the record as consumed: its key, raw
    value and headers), sent to ``TOPIC.DLT``, the same partition, with the five headers naming
    where it came from and why (the type and text of ``error.exception``, an
    :class:`FbeRecordError` for a record the serde refused). ``producer`` is a plain ``Producer``;
    like its ``produce``, this returns at once: ``producer.flush()`` (or ``on_delivery``) says
    when the broker has it. The dead-letter topic is created like any other (this does not
    create it)::

        except ValueDeserializationError as e:
            publish_dead_letter(dlt, e)     # to accounts.DLT, as it was
            dlt.flush()
            continue                        # and go on
    """
    m = error.kafka_message
    if m is None:
        raise ValueError(f"no consumed record to publish: {error}")
    topic, partition, offset = m.topic(), m.partition(), m.offset()
    if topic is None or partition is None or offset is None:
        raise ValueError(f"no topic, partition or offset in the consumed record of {error}")
    reason = error.exception if error.exception is not None else error
    reason_type = type(reason)
    received = m.headers() or []
    headers = list(received.items() if isinstance(received, dict) else received)
    headers += [(ORIGINAL_TOPIC, topic.encode()),
                (ORIGINAL_PARTITION, partition.to_bytes(4, "big", signed=True)),
                (ORIGINAL_OFFSET, offset.to_bytes(8, "big", signed=True)),
                (EXCEPTION_FQCN, f"{reason_type.__module__}.{reason_type.__qualname__}".encode()),
                (EXCEPTION_MESSAGE, str(reason).encode())]
    producer.produce(dead_letter_topic(topic), key=m.key(), value=m.value(), partition=partition,
                     headers=headers, on_delivery=on_delivery)
