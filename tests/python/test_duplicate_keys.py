"""Binary sets, maps and hashes holding the same key twice (docs/limits.md 4): every reader refuses
them, so that no language keeps "the first" (C++ std::set/std::map) or "the last" (a Python dict)
of two entries. The same buffers are conformance cases (conformance/limits.py, "duplicate keys")
and C++ tests (tests/cpp/schema_test.cpp, DuplicateKeys.*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe.dynamic import DynamicCodec
from fbe_testlib import compile_ir


@pytest.fixture(scope="module")
def codec(shared: Path) -> DynamicCodec:
    return DynamicCodec(compile_ir(shared / "schemas" / "test.fbe"))


def simple(codec: DynamicCodec, id_: int, **fields: Any) -> dict[str, Any]:
    return dict(codec.default("test.StructSimple"), id=id_, **fields)


A = 0x5A5A5A5A
B = 0x5B5B5B5B
LE = {A: A.to_bytes(4, "little"), B: B.to_bytes(4, "little")}


def duplicate_cases(codec: DynamicCodec) -> list[tuple[str, str, Any, bytes, bytes]]:
    """(type, field, two entries with distinct keys, the second key's bytes, the first key's bytes):
    replacing the one occurrence of the second key's bytes gives the same key twice. Struct keys
    compare by their [key] fields: StructSimple ids A and B, the other fields differ anyway."""
    nested = codec.default("test.StructNested")
    return [
        ("StructSet", "f1", [0xA7, 0xA8], b"\xa7\xa8", b"\xa7\xa7"),
        ("StructSet", "f4", [simple(codec, A), simple(codec, B, f2=True)], LE[B], LE[A]),
        ("StructMap", "f1", [(A, 10), (B, 20)], LE[B], LE[A]),
        ("StructMap", "f3", [(A, b"a"), (B, b"b")], LE[B], LE[A]),
        ("StructHash", "f1", [("kA", 1), ("kB", 2)], b"kB", b"kA"),
        ("StructHashEx", "f1", [(simple(codec, A), nested), (simple(codec, B, f3=9), nested)], LE[B], LE[A]),
    ]


def encode(codec: DynamicCodec, type_: str, field: str, entries: Any, model: str) -> bytes:
    value = codec.default(f"test.{type_}")
    value[field] = entries
    return bytes(codec.encode(value, f"test.{type_}", model))


def twice(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, (data.hex(), old.hex())
    return data.replace(old, new)


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_duplicate_keys_are_refused_by_every_reader(gen: Any, codec: DynamicCodec, model: str) -> None:
    test = gen.mods["test"]
    for type_, field, entries, old, new in duplicate_cases(codec):
        cls = getattr(test, type_)
        model_cls = getattr(test, type_ + ("Model" if model == "versioned" else "FinalModel"))
        decode = cls.from_fbe if model == "versioned" else cls.from_final
        where = f"{type_}.{field} {model}"
        good = encode(codec, type_, field, entries, model)
        assert len(getattr(decode(good), field)) == 2, where
        codec.decode(good, f"test.{type_}", model)
        bad = twice(good, old, new)
        with pytest.raises(fbe.DecodeError, match="duplicate key") as e:
            decode(bad)
        assert (e.value.type, e.value.field) == (f"test.{type_}", field), where
        m = model_cls()
        m.attach(bad)
        assert not m.verify(), where
        with pytest.raises(fbe.DecodeError, match="duplicate key"):
            m.deserialize()
        with pytest.raises(fbe.DecodeError, match="duplicate key"):
            codec.decode(bad, f"test.{type_}", model)


def test_json_sets_holding_an_element_twice_are_refused(gen: Any, codec: DynamicCodec) -> None:
    """As a binary set and as two JSON map keys that read the same (docs/limits.md 7)."""
    test = gen.mods["test"]
    for field, entries, old, new in [("f1", [0xA7, 0xA8], "168", "167"),
                                     ("f4", [simple(codec, A), simple(codec, B, f2=True)], str(B), str(A))]:
        value = codec.default("test.StructSet")
        value[field] = entries
        good = str(codec.to_json(value, "test.StructSet"))
        assert len(getattr(test.StructSet.from_json(good), field)) == 2
        assert len(codec.from_json(good, "test.StructSet")[field]) == 2
        assert good.count(old) == 1, good
        bad = good.replace(old, new)
        with pytest.raises(fbe.DecodeError, match="two set elements read as the same element"):
            test.StructSet.from_json(bad)
        with pytest.raises(fbe.DecodeError, match="two set elements read as the same element"):
            codec.from_json(bad, "test.StructSet")


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_fbe_dynamic_does_not_write_a_key_twice(codec: DynamicCodec, model: str) -> None:
    """fbe.dynamic's maps are lists of pairs: a key twice is refused by its writer as by the readers."""
    for type_, field, pairs in [("StructMap", "f1", [(1, 10), (1, 20)]),
                                ("StructHashEx", "f1", [(simple(codec, 3), codec.default("test.StructNested")),
                                                        (simple(codec, 3, f3=9), codec.default("test.StructNested"))])]:
        value = codec.default(f"test.{type_}")
        value[field] = pairs
        with pytest.raises(fbe.EncodeError, match="two entries have the same key"):
            codec.encode(value, f"test.{type_}", model)


@pytest.mark.parametrize("model", ["versioned", "final"])
def test_fbe_dynamic_does_not_write_a_set_element_twice(codec: DynamicCodec, model: str) -> None:
    """Its sets are lists too: an element twice is refused by its writer as by the readers."""
    value = codec.default("test.StructSet")
    value["f1"] = [7, 7]
    with pytest.raises(fbe.EncodeError, match="two elements are the same"):
        codec.encode(value, "test.StructSet", model)
