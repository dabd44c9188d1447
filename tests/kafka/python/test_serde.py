"""fbe.kafka without a broker: the fbe header the serializer writes, the gate of the deserializer and
its errors, called the way confluent-kafka's SerializingProducer and DeserializingConsumer call them
(with a SerializationContext holding the record's headers)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from confluent_kafka.serialization import MessageField, SerializationContext, SerializationError
from fbe import DecodeError, Limits
from fbe.kafka import HEADER, FbeDeserializer, FbeRecordError, FbeSchema, FbeSerializer, serde

FOREIGN = "ab" * 32
CASES = Path(__file__).resolve().parents[1] / "header_cases.txt"


def header_cases(kind: str) -> list[list[str]]:
    """The lines of tests/kafka/header_cases.txt of a kind, split at their tabs: the header every
    serializer writes and what every deserializer says of a malformed one (the Java, Go and
    JavaScript tests read the same file)."""
    lines = CASES.read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.startswith(kind + "\t")]


def ctx(headers: Any) -> SerializationContext:
    return SerializationContext("accounts", MessageField.VALUE, headers)


@pytest.fixture
def schema(proto: ModuleType) -> FbeSchema:
    return FbeSchema.of(proto)


def test_the_generated_module_names_the_schema_fbec_fingerprint_prints(proto: ModuleType,
                                                                      trade_fingerprint: str) -> None:
    assert (proto.PACKAGE, proto.VERSION, proto.FINGERPRINT) == ("proto", (1, 0), trade_fingerprint)
    assert FbeSchema.of(proto) == FbeSchema("proto", "1.0", trade_fingerprint)
    assert FbeSchema.of(proto, "final") == FbeSchema("proto", "1.0", trade_fingerprint, "final")
    with pytest.raises(ValueError, match="'subprocess' is not a module fbec --python generated"):
        FbeSchema.of(subprocess)


def test_the_serializer_writes_the_fbe_header_and_the_message_bytes(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    serializer, _ = serde(schema, proto.Account)
    headers: list[tuple[str, Any]] = [("trace", b"1"), ("fbe", b"\x01")]
    value = serializer(account(1), ctx(headers))
    assert value == account(1).to_fbe()
    assert headers == [("trace", b"1"), ("fbe", schema.header())]
    assert len(schema.header()) == 43
    as_dict: dict[str, Any] = {"trace": "1"}
    serializer(account(1), ctx(as_dict))
    assert as_dict == {"trace": "1", **dict(schema.headers())}


@pytest.mark.parametrize("case", header_cases("write"), ids=lambda c: c[1])
def test_the_header_is_the_bytes_of_the_layout(case: list[str]) -> None:
    package, version, model, fingerprint = case[1].split(" ")
    schema = FbeSchema(package, version, fingerprint, model)
    assert schema.header().hex() == case[2]
    assert FbeSchema.from_header(schema.header()) == schema
    headers: list[tuple[str, Any]] = [(HEADER, b"old")]
    schema.write_to(headers)
    assert headers == [(HEADER, schema.header())]
    assert FbeSchema.read_from(headers) == schema


NO_HEADER = ["refuse", "-", "no fbe header: the record was not written by an FBE serializer"]


@pytest.mark.parametrize("case", [*header_cases("refuse"), NO_HEADER], ids=lambda c: c[1][:8])
def test_a_malformed_header_is_refused_with_the_text_of_every_language(case: list[str], proto: ModuleType) -> None:
    own = FbeSchema("proto", "1.0", "cd" * 32)
    headers = [("trace", b"\x01")] + ([] if case[1] == "-" else [(HEADER, bytes.fromhex(case[1]))])
    with pytest.raises(FbeRecordError) as e:
        FbeDeserializer(own, proto.Account.from_fbe, [FOREIGN])(proto.Account().to_fbe(), ctx(headers))
    assert str(e.value) == f"a record this consumer of {own} cannot check: {case[2]}"


def test_there_are_the_cases_of_every_language() -> None:
    assert (len(header_cases("write")), len(header_cases("refuse"))) == (3, 16)


def test_the_gate_reads_its_accepted_writers_and_refuses_the_others_naming_both(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    _, deserializer = serde(schema, proto.Account, accepted=[FOREIGN])
    value = account(1).to_fbe()
    newer = FbeSchema("proto", "1.1 \u00e9", FOREIGN)
    assert deserializer(value, ctx(newer.headers())) == account(1)
    for other in (newer.with_model("final"), FbeSchema("protos", "1.0", FOREIGN), FbeSchema("prot", "1.0", FOREIGN)):
        with pytest.raises(FbeRecordError) as e:
            deserializer(value, ctx(other.headers()))
        assert str(e.value).startswith(f"a record written with {other} cannot be read by {schema}: another ")
    for package, version in (("pro to", "1.0"), ("", "1.0"), ("proto", "")):
        with pytest.raises(ValueError, match="a package without spaces and a version"):
            FbeSchema(package, version, FOREIGN)


def test_a_final_topic_writes_and_reads_the_final_model(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    final = schema.with_model("final")
    serializer, deserializer = serde(final, proto.Account)
    headers: list[tuple[str, Any]] = []
    value = serializer(account(2), ctx(headers))
    assert value == account(2).to_final()
    assert headers == [("fbe", final.header())] and final.header()[1] == 1
    assert deserializer(value, ctx(headers)) == account(2)


def test_a_record_round_trips_through_its_headers(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    serializer, deserializer = serde(schema, proto.Account)
    headers: list[tuple[str, Any]] = []
    value = serializer(account(3), ctx(headers))
    assert deserializer(value, ctx(headers)) == account(3)
    # as a consumed message's headers: str keys, bytes values; and as a dict
    assert deserializer(value, ctx(dict(headers))) == account(3)


def test_produce_without_headers_is_refused(schema: FbeSchema, proto: ModuleType,
                                            account: Callable[[int], Any]) -> None:
    serializer = FbeSerializer(schema, proto.Account.to_fbe)
    with pytest.raises(FbeRecordError, match=r"no headers to write the schema proto 1.0 \(versioned, .*headers=\[\]"):
        serializer(account(1), ctx(None))


def test_without_a_context_the_bytes_go_both_ways_without_the_gate(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    serializer, deserializer = serde(schema, proto.Account)
    value = serializer(account(4))
    assert value == account(4).to_fbe()
    assert deserializer(value) == account(4)


def test_a_tombstone_stays_none(schema: FbeSchema, proto: ModuleType) -> None:
    serializer, deserializer = serde(schema, proto.Account)
    assert serializer(None, ctx([])) is None
    assert deserializer(None, ctx(None)) is None


def refusal(schema: FbeSchema, proto: ModuleType, value: bytes, headers: Any) -> str:
    with pytest.raises(FbeRecordError) as e:
        FbeDeserializer(schema, proto.Account.from_fbe)(value, ctx(headers))
    assert isinstance(e.value, SerializationError)  # what DeserializingConsumer wraps with the offset
    return str(e.value)


def test_a_foreign_fingerprint_is_refused_naming_both_schemas(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    foreign = FbeSchema("proto", "2.0", FOREIGN)
    assert refusal(schema, proto, account(1).to_fbe(), foreign.headers()) == (
        f"a record written with proto 2.0 (versioned, fingerprint {FOREIGN}) cannot be read by "
        f"proto 1.0 (versioned, fingerprint {schema.fingerprint}): another schema (fingerprints differ; "
        "fbec compat says whether the schemas are compatible)")


def test_an_accepted_fingerprint_is_read_in_the_same_package_and_model(
        schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    newer = FbeSchema("proto", "1.1", FOREIGN)
    _, deserializer = serde(schema, proto.Account, accepted=[FOREIGN])
    assert deserializer.accepted == {FOREIGN}
    read = deserializer(account(1).to_fbe(), ctx(newer.headers()))
    assert read is not None and read.to_fbe() == account(1).to_fbe()
    with pytest.raises(FbeRecordError, match="another binary model$"):
        deserializer(account(1).to_final(), ctx(newer.with_model("final").headers()))
    with pytest.raises(FbeRecordError, match="another package$"):
        deserializer(account(1).to_fbe(), ctx(FbeSchema("shop", "1.1", FOREIGN).headers()))
    with pytest.raises(ValueError, match="64 lowercase hex digits"):
        FbeDeserializer(schema, proto.Account.from_fbe, ["AB" * 32])


def test_another_model_or_package_is_refused(schema: FbeSchema, proto: ModuleType,
                                             account: Callable[[int], Any]) -> None:
    final = schema.with_model("final")
    assert refusal(schema, proto, account(1).to_final(), final.headers()) == (
        f"a record written with {final} cannot be read by {schema}: another binary model")
    other = FbeSchema("shop", "1.0", schema.fingerprint)
    assert refusal(schema, proto, account(1).to_fbe(), other.headers()).endswith(": another package")


def test_missing_or_invalid_headers_are_refused(schema: FbeSchema, proto: ModuleType,
                                                account: Callable[[int], Any]) -> None:
    value = account(1).to_fbe()
    assert refusal(schema, proto, value, None) == (
        f"a record this consumer of {schema} cannot check: no fbe header: "
        "the record was not written by an FBE serializer")
    bad_model = [*schema.headers(), ("fbe", b"\x01\x07" + schema.header()[2:])]   # the last of a name counts
    assert refusal(schema, proto, value, bad_model).endswith("header fbe has model 7, not 0 (versioned) or 1 (final)")


@pytest.mark.parametrize("damage", ["truncated", "type", "empty"])
def test_an_invalid_value_is_refused_with_the_runtime_reason_and_offset(
        damage: str, schema: FbeSchema, proto: ModuleType, account: Callable[[int], Any]) -> None:
    good = account(1).to_fbe()
    value = {"truncated": good[:-5], "type": good[:4] + b"\x7f" + good[5:], "empty": b""}[damage]
    with pytest.raises(FbeRecordError) as e:
        FbeDeserializer(schema, proto.Account.from_fbe)(value, ctx(schema.headers()))
    cause = e.value.decode_error
    assert isinstance(cause, DecodeError) and e.value.__cause__ is cause
    assert cause.offset is not None
    assert str(e.value) == f"an invalid {schema} value of {len(value)} bytes: {cause}"
    assert f"offset {cause.offset}" in str(e.value)


def test_a_schema_needs_a_fingerprint_and_a_model() -> None:
    with pytest.raises(ValueError, match="64 lowercase hex digits"):
        FbeSchema("proto", "1.0", "AB" * 32)
    with pytest.raises(ValueError, match="versioned or final, got json"):
        FbeSchema("proto", "1.0", FOREIGN, "json")


def test_import_fbe_does_not_import_confluent_kafka() -> None:
    code = "import sys, fbe; assert 'confluent_kafka' not in sys.modules and 'fbe.kafka' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": ":".join(sys.path)})


def test_limits_bound_what_the_deserializer_reads(schema: FbeSchema, proto: ModuleType,
                                                  account: Callable[[int], Any]) -> None:
    value = account(1).to_fbe()
    _, shallow = serde(schema, proto.Account, Limits(max_depth=1))
    with pytest.raises(FbeRecordError,
                       match=r"value of \d+ bytes: structs nested deeper than 1 \(proto.Balance, offset"):
        shallow(value, ctx(schema.headers()))
    _, thrifty = serde(schema.with_model("final"), proto.Account, Limits(budget_factor=0, budget_slack=10))
    with pytest.raises(FbeRecordError, match=r"decode budget exceeded"):
        thrifty(account(1).to_final(), ctx(schema.with_model("final").headers()))
    assert serde(schema, proto.Account, Limits(max_depth=2))[1](value, ctx(schema.headers())) == account(1)


def test_a_size_limit_refuses_larger_values_both_ways(schema: FbeSchema, proto: ModuleType,
                                                      account: Callable[[int], Any]) -> None:
    big = account(7)
    big.orders.extend([big.orders[0]] * 50)
    value = big.to_fbe()
    limit = len(value) - 1
    serializer, deserializer = serde(schema, proto.Account, max_value_bytes=limit)
    text = (f"a {schema} value of {len(value)} bytes is larger than the limit of {limit} bytes "
            "(fbe.max.value.bytes): not ")
    headers: list[tuple[str, Any]] = []
    with pytest.raises(FbeRecordError) as written:
        serializer(big, ctx(headers))
    assert str(written.value) == text + "written"
    assert headers == []                              # nothing written into the record
    with pytest.raises(FbeRecordError) as read:       # a SerializationError: the consumer's error path
        deserializer(value, ctx(schema.headers()))
    assert str(read.value) == text + "read"
    with pytest.raises(FbeRecordError, match="not read$"):
        deserializer(value)                           # without the gate too
    with pytest.raises(FbeRecordError, match="cannot be read by"):   # the gate first
        deserializer(value, ctx(FbeSchema("proto", "2.0", FOREIGN).headers()))
    at_limit, reader = serde(schema, proto.Account, max_value_bytes=len(value))
    assert reader(at_limit(big, ctx(headers)), ctx(headers)) == big
    with pytest.raises(ValueError, match="fbe.max.value.bytes must not be negative, got -1"):
        serde(schema, proto.Account, max_value_bytes=-1)
