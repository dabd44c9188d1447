"""Property tests: random values of every generated struct round-trip through both binary
models (and JSON where the mapping can represent them); strategies are derived from the IR."""

from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

import fbe
import hypothesis
import pytest
from fbec.model import ir
from fbec.targets.python.names import Idents

st = hypothesis.strategies

INT_RANGES = ir.INTEGER_RANGES


def _f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


class Strategies:
    def __init__(self, schema: ir.Schema, mods: dict[str, Any], json_safe: bool) -> None:
        self.schema, self.mods, self.json_safe = schema, mods, json_safe
        self.idents = Idents(schema)

    def cls(self, qualified: str) -> Any:
        return getattr(self.mods[qualified.rpartition(".")[0]], self.idents.type(qualified))

    def of(self, t: ir.Type) -> Any:
        if isinstance(t, ir.Primitive):
            n = t.name
            if n == "bool":
                return st.booleans()
            if n == "float":
                return st.floats(width=32, allow_nan=False, allow_infinity=False).map(_f32)
            if n == "double":
                return st.floats(allow_nan=False, allow_infinity=False)
            if n == "decimal":
                if self.json_safe:  # JSON carries decimals as %f of a double: 6 places, 15 digits
                    return st.integers(-(10**12), 10**12).map(lambda m: Decimal(m).scaleb(-6))
                return st.builds(lambda m, s: Decimal(m).scaleb(-s), st.integers(-(10**27), 10**27), st.integers(0, 28))
            if n == "string":
                return st.text(max_size=8)
            if n == "bytes":
                return st.binary(max_size=8)
            if n == "uuid":
                return st.uuids()
            if n == "timestamp":
                return st.integers(0, 2**64 - 1)
            if n == "wchar":
                return st.integers(0, 2**32 - 1)
            lo, hi = INT_RANGES["uint8" if n in ("byte", "char") else n]
            return st.integers(lo, hi)
        if isinstance(t, ir.EnumRef):
            e = self.schema.enum(t.name)
            cls = self.cls(t.name)
            lo, hi = INT_RANGES[t.wire]
            if t.kind == "flags":
                lo, hi = 0, (1 << (8 * t.size)) - 1
            return st.integers(lo, hi).map(cls) | st.sampled_from([cls(v.value) for v in e.values] or [cls(0)])
        if isinstance(t, ir.StructRef):
            return self.struct(t.name)
        if isinstance(t, ir.Optional_):
            return st.none() | self.of(t.element)
        if isinstance(t, ir.Array):
            return st.lists(self.of(t.element), min_size=t.length, max_size=t.length)
        if isinstance(t, ir.Sequence):
            if t.kind == "set":
                return st.sets(self.of(t.element), max_size=3)
            return st.lists(self.of(t.element), max_size=3)
        assert isinstance(t, ir.Mapping)
        return st.dictionaries(self.of(t.key), self.of(t.value), max_size=3)

    def struct(self, qualified: str) -> Any:
        s = self.schema.struct(qualified)
        fields = {self.idents.field(f): self.of(f.type) for f in s.all_fields}
        return st.builds(self.cls(qualified), **fields)


def _json_ok(s: ir.Struct, schema: ir.Schema, seen: set[str] | None = None) -> bool:
    """The original's JSON cannot carry struct or float map keys exactly; skip those types."""
    seen = seen or set()
    if s.qualified in seen:
        return True
    seen.add(s.qualified)

    def ok(t: ir.Type) -> bool:
        if isinstance(t, ir.Mapping):
            if isinstance(t.key, ir.StructRef) or (isinstance(t.key, ir.Primitive) and t.key.name in
                                                   ("float", "double", "decimal")):
                return False
            return ok(t.key) and ok(t.value)
        if isinstance(t, (ir.Optional_, ir.Array, ir.Sequence)):
            return ok(t.element)
        if isinstance(t, ir.StructRef):
            return _json_ok(schema.struct(t.name), schema, seen)
        return True

    return all(ok(f.type) for f in s.all_fields)


SETTINGS = hypothesis.settings(max_examples=25, deadline=None,
                               suppress_health_check=list(hypothesis.HealthCheck))


def _roundtrip(schema: ir.Schema, mods: dict[str, Any], qualified: str) -> None:
    s = schema.struct(qualified)
    json_safe = _json_ok(s, schema)
    strategies = Strategies(schema, mods, json_safe)

    @SETTINGS
    @hypothesis.given(strategies.struct(qualified))
    def check(value: Any) -> None:
        cls = type(value)
        assert cls.from_fbe(value.to_fbe()).fbe_equal(value)
        assert cls.from_final(value.to_final()).fbe_equal(value)
        str(value)
        if json_safe:
            assert cls.from_json(value.to_json()).fbe_equal(value)

    check()


def test_everything_roundtrips(everything: Any) -> None:
    schema = everything.schemas["everything"]
    for pkg in schema.packages:
        for s in pkg.structs:
            _roundtrip(schema, everything.mods, s.qualified)


@pytest.mark.parametrize("name", ["StructSimple", "StructOptional", "StructBytes", "StructArray", "StructVector",
                                  "StructList", "StructSet", "StructMap", "StructHash", "StructHashEx"])
def test_shared_test_schema_roundtrips(name: str, gen: Any) -> None:
    _roundtrip(gen.schemas["test"], gen.mods, f"test.{name}")


class _Sink:
    """A stand-in for an asyncio StreamWriter that collects the bytes."""

    def __init__(self, out: bytearray) -> None:
        self.out = out

    def write(self, data: bytes) -> None:
        self.out.extend(data)


def test_protocol_streams_in_random_chunks(everything: Any) -> None:
    """Random messages through Sender -> stream cut at random places -> Receiver, both models."""
    schema = everything.schemas["everything"]
    e = everything.mods["everything"]
    strategies = Strategies(schema, everything.mods, json_safe=False)
    names = ["Note", "PlaceOrder", "Accepted", "Rejected", "Ping"]
    message = st.one_of([strategies.struct(f"everything.{n}") for n in names]
                        + [strategies.struct("market.Failure")])

    @SETTINGS
    @hypothesis.given(st.lists(message, min_size=1, max_size=6), st.lists(st.integers(1, 64), min_size=1))
    def check(messages: list[Any], cuts: list[int]) -> None:
        for final in (False, True):
            sent = bytearray()
            sender = (e.FinalSender if final else e.Sender)()
            fbe.connect_sender(sender, _Sink(sent))
            for m in messages:
                sender.send(m)
            got: list[Any] = []
            receiver = (e.FinalReceiver if final else e.Receiver)()
            receiver.on_receive = got.append
            pos, i = 0, 0
            while pos < len(sent):
                n = cuts[i % len(cuts)]
                receiver.receive(bytes(sent[pos:pos + n]))
                pos += n
                i += 1
            assert len(got) == len(messages)
            for g, m in zip(got, messages):
                assert type(g) is type(m) and g.fbe_equal(m)

    check()
