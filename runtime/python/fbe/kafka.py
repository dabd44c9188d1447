"""FBE records over Apache Kafka with confluent-kafka (docs/kafka.md).

A :class:`FbeSerializer` and a :class:`FbeDeserializer` are confluent-kafka's own
``Serializer`` and ``Deserializer``: give them to a ``SerializingProducer`` or a
``DeserializingConsumer`` as ``value.serializer`` / ``value.deserializer``. The record value
is exactly the message bytes of the schema's model; the schema travels in one binary header,
``fbe`` (docs/kafka.md "Record headers"), and the deserializer reads a record only when it names
its own package and model and a fingerprint it accepts::

    schema = FbeSchema("proto", "1.0", FINGERPRINT)            # FINGERPRINT: fbec fingerprint
    serializer, deserializer = serde(schema, proto.Account)
    producer = SerializingProducer({"bootstrap.servers": ..., "value.serializer": serializer})
    producer.produce("accounts", value=account, headers=[])    # the headers receive the fbe header

This module needs confluent-kafka (``pip install fbe-toolkit[kafka]``); ``import fbe`` does not
import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, TypeVar

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
    "HEADER",
    "LAYOUT",
    "MAX_VALUE_BYTES",
    "ORIGINAL_OFFSET",
    "ORIGINAL_PARTITION",
    "ORIGINAL_TOPIC",
    "VERSIONED",
    "FbeDeserializer",
    "FbeRecordError",
    "FbeSchema",
    "FbeSerializer",
    "dead_letter_topic",
    "publish_dead_letter",
    "serde",
]

HEADER = "fbe"   # the key of the one header that names the schema
LAYOUT = 1       # the layout version of its value, the first byte
VERSIONED = "versioned"
FINAL = "final"
_MODELS = (VERSIONED, FINAL)   # by their byte in the header
_NAME_OFFSET = 34              # the layout, the model and the fingerprint's 32 bytes come first
_MIN_LENGTH = _NAME_OFFSET + 3  # a package and a version of one byte each and the space between

# What a size limit's refusal names it by: the Java serde's config key (docs/kafka.md "Hostile records").
MAX_VALUE_BYTES = "fbe.max.value.bytes"

_HEX = frozenset("0123456789abcdef")

# What confluent-kafka passes as a record's headers: a list of (key, value) pairs (a consumed
# message's), or a dict (what an application may give produce()).
HeaderValue = str | bytes | None
Headers = dict[str, HeaderValue] | list[tuple[str, HeaderValue]]

T = TypeVar("T")


class FbeRecordError(SerializationError):
    """A record the deserializer refuses, or a value the serializer cannot write a record of.

    An ``fbe`` header naming another schema, missing or malformed, or bytes that are not a valid
    message: then ``decode_error`` (also ``__cause__``) is the runtime's :class:`~fbe.DecodeError`
    with the field and the byte offset. A ``DeserializingConsumer`` raises it wrapped in a
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
    """The schema a record is written with, as its ``fbe`` header carries it (docs/kafka.md "Record headers"):
    the package, its version (``major.minor``), the fingerprint ``fbec fingerprint`` prints and the
    binary model, ``"versioned"`` or ``"final"``."""

    package: str
    version: str
    fingerprint: str
    model: str = VERSIONED

    def __post_init__(self) -> None:
        if not self.package or " " in self.package or not self.version:
            raise ValueError(f"a schema has a package without spaces and a version, got '{self.package}' and "
                             f"'{self.version}'")
        _check_fingerprint(self.fingerprint)
        if self.model not in _MODELS:
            raise ValueError(f"a schema's model is {VERSIONED} or {FINAL}, got {self.model}")

    @classmethod
    def of(cls, module: ModuleType, model: str = VERSIONED) -> FbeSchema:
        """The schema of a module fbec --python generated: its ``PACKAGE``, ``VERSION`` and
        ``FINGERPRINT`` (what ``fbec fingerprint`` prints), in ``model``."""
        try:
            package, (major, minor), fingerprint = module.PACKAGE, module.VERSION, module.FINGERPRINT
        except (AttributeError, TypeError, ValueError) as e:
            raise ValueError(f"{getattr(module, '__name__', module)!r} is not a module fbec --python generated "
                             f"(PACKAGE, VERSION and FINGERPRINT): {e}") from None
        return cls(package, f"{major}.{minor}", fingerprint, model)

    def with_model(self, model: str) -> FbeSchema:
        """The same schema in the other binary model."""
        return FbeSchema(self.package, self.version, self.fingerprint, model)

    def header(self) -> bytes:
        """The value of the ``fbe`` header: the layout version 1, the model (0 versioned, 1 final),
        the fingerprint's 32 bytes and ``PACKAGE VERSION`` in UTF-8."""
        return (bytes((LAYOUT, _MODELS.index(self.model))) + bytes.fromhex(self.fingerprint)
                + f"{self.package} {self.version}".encode())

    def headers(self) -> list[tuple[str, HeaderValue]]:
        """The ``fbe`` header, for a plain ``Producer.produce(..., headers=schema.headers())``."""
        return [(HEADER, self.header())]

    def write_to(self, headers: Headers) -> None:
        """Sets the ``fbe`` header in a list or dict of headers (replacing any of that name)."""
        _set_header(headers, self.header())

    @classmethod
    def read_from(cls, headers: Headers | None) -> FbeSchema:
        """The schema the ``fbe`` header names (the last of that name); :class:`FbeRecordError`
        when it is missing or malformed."""
        return cls.from_header(_header(headers))

    @classmethod
    def from_header(cls, value: bytes | None) -> FbeSchema:
        """The schema an ``fbe`` header's value names; :class:`FbeRecordError` with the texts of
        docs/kafka.md when it is None or malformed."""
        if value is None:
            raise FbeRecordError(f"no {HEADER} header: the record was not written by an FBE serializer")
        if not value:
            raise FbeRecordError(f"header {HEADER} is empty")
        if value[0] != LAYOUT:
            raise FbeRecordError(f"header {HEADER} has layout version {value[0]}, not {LAYOUT}")
        if len(value) < _MIN_LENGTH:
            raise FbeRecordError(f"header {HEADER} is too short: {len(value)} bytes, layout {LAYOUT} has at least "
                                 f"{_MIN_LENGTH}")
        if value[1] >= len(_MODELS):
            raise FbeRecordError(f"header {HEADER} has model {value[1]}, not 0 (versioned) or 1 (final)")
        try:
            name = value[_NAME_OFFSET:].decode()
        except UnicodeDecodeError:
            raise FbeRecordError(f"header {HEADER}'s package and version are not UTF-8") from None
        package, _, version = name.partition(" ")
        if not package or not version:
            raise FbeRecordError(f"header {HEADER}'s package and version are '{name}', not 'PACKAGE VERSION'")
        return cls(package, version, value[2:_NAME_OFFSET].hex(), _MODELS[value[1]])

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


def _check_fingerprint(fingerprint: object) -> str:
    if not isinstance(fingerprint, str) or len(fingerprint) != 64 or not _HEX.issuperset(fingerprint):
        raise ValueError(f"a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got {fingerprint}")
    return fingerprint


def _header(headers: Headers | None) -> bytes | None:
    """The value of the last ``fbe`` header, as Kafka's Headers.lastHeader; a text value (given to
    produce) as the UTF-8 bytes confluent-kafka sends."""
    value: HeaderValue = None
    if isinstance(headers, dict):
        value = headers.get(HEADER)
    elif headers is not None:
        for k, v in headers:
            if k == HEADER:
                value = v
    return value.encode() if isinstance(value, str) else value


def _set_header(headers: Headers, value: bytes) -> None:
    if isinstance(headers, dict):
        headers[HEADER] = value
    else:
        headers[:] = [h for h in headers if h[0] != HEADER]
        headers.append((HEADER, value))


class FbeSerializer(Serializer, Generic[T]):
    """confluent-kafka's Serializer of one generated type: ``encode`` writes a value as the bytes
    of one message (``proto.Account.to_fbe``, ``proto.Account.to_final``) and the ``fbe`` header
    goes into the record's. ``produce`` must be given headers to fill (``headers=[]``), as
    confluent-kafka's serializers that put the schema in a header require; called without a
    context (``serializer(value)``) it returns the bytes alone. ``None`` (a tombstone) stays
    ``None``. A value whose bytes are more than ``max_value_bytes`` is refused (``None``: no
    limit of the serde's own)."""

    __slots__ = ["_encode", "_header", "max_value_bytes", "schema"]

    def __init__(self, schema: FbeSchema, encode: Callable[[T], bytes], max_value_bytes: int | None = None) -> None:
        self.schema = schema
        self._encode = encode
        self._header = schema.header()
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
            _set_header(headers, self._header)
        return value


class FbeDeserializer(Deserializer, Generic[T]):
    """confluent-kafka's Deserializer of one generated type: ``decode`` reads one message
    (``proto.Account.from_fbe``, ``proto.Account.from_final``). A record is read only when its
    ``fbe`` header names this schema's package and model and its own fingerprint or one of ``accepted``
    (what ``fbec topic accept TOPIC.json SCHEMA`` prints); anything else, and a value that is
    not a valid message, is a :class:`FbeRecordError` naming both schemas, or the reason and the
    byte offset. Called without a context (``deserializer(data)``) it reads the bytes without
    the gate. ``None`` (a tombstone) stays ``None``. A value of more than ``max_value_bytes`` is
    refused before it is decoded (``None``: no limit of the serde's own)."""

    __slots__ = ["_decode", "_model", "_name", "_prefix", "_raw", "accepted", "max_value_bytes", "schema"]

    def __init__(self, schema: FbeSchema, decode: Callable[[bytes], T], accepted: Iterable[str] = (),
                 max_value_bytes: int | None = None) -> None:
        self.schema = schema
        self._decode = decode
        self.max_value_bytes = _check_limit(max_value_bytes)
        self.accepted = frozenset(_check_fingerprint(f) for f in accepted)
        # what the gate compares a header with, byte for byte: no string is made for a record it reads
        self._model = _MODELS.index(schema.model)
        self._prefix = f"{schema.package} ".encode()
        self._name = _NAME_OFFSET + len(self._prefix)
        self._raw = frozenset(bytes.fromhex(f) for f in self.accepted | {schema.fingerprint})

    def _accepts(self, value: bytes | None) -> bool:
        if (value is None or len(value) <= self._name or value[0] != LAYOUT or value[1] != self._model
                or not value.startswith(self._prefix, _NAME_OFFSET) or value[2:_NAME_OFFSET] not in self._raw):
            return False
        version = value[self._name:]
        if version.isascii():
            return True
        try:
            version.decode()
        except UnicodeDecodeError:
            return False
        return True

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> T | None:
        if value is None:
            return None
        if ctx is not None and not self._accepts(header := _header(ctx.headers)):
            try:
                writer = FbeSchema.from_header(header)
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
