"""The native core against the pure-Python code it stands in for (docs/python.md, Native core).

Every input goes through both paths of the generated classes, in both binary models: the core's
answer (``FBE_CORE.from_fbe``/``verify``/``to_fbe``, ``from_final``/``verify_final``/``to_final``)
and the Python functions (``fbe_vr_<Name>``/``fbe_vw_<Name>``, ``fbe_fr_``; the final writer the
runtime compiles from the class's spec, ``fbe.final.FINAL_WRITERS``).
Where the core answers, its object must be the Python reader's (same types, same values, float
bits included), its verdict the Python reader's verdict and its bytes the Python writer's; where
it does not (None), the class falls back, so the public methods must give the Python result or
raise its exact error text.

Inputs: every golden vector of ``../shared/vectors``, both models (each must be answered by the
core when its type is covered), the vectors' cross reads (a newer writer's body read by an older
reader and the other way round), the repo's test schemas' default values, random values of every
struct of the test schemas (Hypothesis, conformance/strategies.py: sets, maps and hashes filled),
older writers' bodies (each root's body cut at every field's end, and random schema evolutions of
tests/conformance/test_schema_evolution.py written by one version and read by the other),
seeded mutations of all of them (bit flips, bytes and 32-bit words set to boundary values,
truncations, bytes appended), each read with the default limits, random tight ones and its
exact least budget and depth (and one less). Values that read are written back through both
writers. ``FBE_NATIVE_MUTANTS`` sets the number of mutants per input (default 40; set it to
thousands for a long run).
"""

from __future__ import annotations

import json
import math
import os
import random
import struct
import sys
import uuid
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe_testlib import REPO, generate_into, load_modules, shared_dir
from fbec.model import ir, plan
from fbec.targets.python.names import Idents
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path[:0] = [str(REPO / "conformance"), str(REPO / "conformance" / "testees"), str(REPO / "tests" / "conformance")]
from python_testee import Values
from strategies import Strategies
from test_schema_evolution import Version, schema_pair

MUTANTS = int(os.environ.get("FBE_NATIVE_MUTANTS", "40"))
BOUNDARY = (0, 1, 2, 4, 7, 8, 9, 0x7F, 0x80, 0xFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)


@pytest.fixture(autouse=True, scope="module")
def fixed_clock() -> Any:
    """Defaults that are new on every call (``utc``, ``uuid1``, ``uuid4`` of the schema language)
    held still, so that two reads of an older body, whose missing fields get them, are equal."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(fbe, "utc", lambda: 1_700_000_000_000_000_000)
        m.setattr(fbe, "uuid1", lambda: uuid.UUID(int=1))
        m.setattr(fbe, "uuid4", lambda: uuid.UUID(int=4))
        yield


def test_core_is_loaded() -> None:
    """make test-python-native runs with FBE_NATIVE=1: the core must be there, not silently absent."""
    assert fbe.native.module is not None, "fbe_native is not importable (make python-native builds it)"


def norm(v: Any) -> Any:
    """A comparable form of a decoded value: exact types, floats by their bits."""
    if isinstance(v, fbe.Struct):
        return (type(v), tuple(norm(getattr(v, n)) for n in v.fbe_fields))
    if isinstance(v, Enum):
        return (type(v), int(v))
    if isinstance(v, float):
        return (float, struct.pack("<d", v))
    if isinstance(v, (list, tuple)):
        return (type(v), [norm(x) for x in v])
    if isinstance(v, (set, frozenset)):
        return (type(v), sorted(repr(norm(x)) for x in v))
    if isinstance(v, dict):
        return (type(v), sorted((repr(norm(k)), repr(norm(x))) for k, x in v.items()))
    if isinstance(v, Decimal):
        return (Decimal, v.as_tuple())
    assert v is None or isinstance(v, (bool, int, str, bytes, uuid.UUID)), type(v)
    return (type(v), v)


class Group:
    """One schema's generated modules and, per struct, its class, core index and Python functions."""

    def __init__(self, schema: ir.Schema, mods: dict[str, Any]) -> None:
        self.schema, self.mods = schema, mods
        self.types: dict[str, tuple[Any, Any, int, ir.Struct]] = {}
        for pkg in schema.packages:
            mod = mods[pkg.name]
            for i, s in enumerate(pkg.structs):
                self.types[s.qualified] = (mod, mod.FBE_CORE, i, s)
        self.idents = Idents(schema)

    @classmethod
    def of(cls, schema_path: Path, out: Path) -> Group:
        """The schema's modules generated into ``out`` and imported."""
        schema = generate_into(schema_path, out)
        return cls(schema, load_modules(out, [p.name for p in schema.packages]))

    def cls(self, qualified: str) -> Any:
        return getattr(self.types[qualified][0], self.idents.type(qualified))

    def model(self, qualified: str, final: bool, limits: fbe.Limits | None = None) -> Any:
        """A new model object of ``qualified`` (``<Name>Model``, final: ``<Name>FinalModel``)."""
        return getattr(self.types[qualified][0], self.idents.model(qualified, final))(limits=limits)

    def python_read(self, qualified: str, data: bytes, limits: fbe.Limits | None, final: bool) -> Any:
        mod, _core, _i, s = self.types[qualified]
        if final:
            return fbe.decode_final(getattr(mod, f"fbe_fr_{s.name}"), data, s.type_id, limits)[0]
        return fbe.decode_versioned(getattr(mod, f"fbe_vr_{s.name}"), data, limits)[0]

    def read(self, qualified: str, data: bytes, limits: fbe.Limits | None, final: bool) -> tuple[Any, str | None]:
        """``data`` through both readers of one model (``final``: the final model, else the versioned)."""
        _mod, core, i, _s = self.types[qualified]
        try:
            py = ("ok", norm(self.python_read(qualified, data, limits, final)))
        except fbe.DecodeError as e:
            py = ("error", str(e))
        model = self.model(qualified, final, limits)  # the model classes ask the core first
        model.attach(data)
        assert model.verify() == (py[0] == "ok"), f"{qualified}: the model's verify, Python: {py}"
        if py[0] == "ok":
            assert norm(model.deserialize()[0]) == py[1], f"{qualified}: the model read another value"
        else:
            with pytest.raises(fbe.DecodeError) as info:
                model.deserialize()
            assert str(info.value) == py[1]
        native = (core.from_final if final else core.from_fbe)(i, data, limits)
        if native is not None:
            assert py[0] == "ok", f"{qualified}: the core read what Python refuses: {py[1]}"
            assert norm(native) == py[1], f"{qualified}: the core read another value"
        verdict = (core.verify_final if final else core.verify)(i, data, limits)
        if verdict is not None:
            assert verdict == (py[0] == "ok"), f"{qualified}: verify says {verdict}, Python: {py}"
        if native is not None:  # the public method: the same value
            cls = type(native)
            assert norm((cls.from_final if final else cls.from_fbe)(data, limits)) == py[1]
        return native, (py[1] if py[0] == "error" else None)

    def write(self, qualified: str, value: Any, final: bool) -> bytes | None:
        mod, core, i, s = self.types[qualified]
        try:
            if final:
                writer = fbe.final.FINAL_WRITERS(getattr(mod, self.idents.type(qualified)))  # compiled from its spec
                py: bytes | str = bytes(fbe.encode_final(writer, value, s.type_id))
            else:
                py = bytes(fbe.encode_versioned(getattr(mod, f"fbe_vw_{s.name}"), value))
        except fbe.EncodeError as e:
            py = str(e)
        native = (core.to_final if final else core.to_fbe)(i, value)
        if native is not None:
            assert native == py, f"{qualified}: the core wrote other bytes than Python ({py!r:.200})"
        model = self.model(qualified, final)
        if isinstance(py, bytes):
            assert (value.to_final() if final else value.to_fbe()) == py
            assert model.serialize(value) == len(py) and bytes(model.buffer.buffer) == py
        else:
            with pytest.raises(fbe.EncodeError) as info:
                model.serialize(value)
            assert str(info.value) == py
        return native


def mutants(data: bytes, rng: random.Random, n: int) -> list[bytes]:
    out = []
    for _ in range(n):
        b = bytearray(data)
        k = rng.randrange(6)
        if k == 0:
            p = rng.randrange(len(b))
            b[p] ^= 1 << rng.randrange(8)
        elif k == 1:
            b[rng.randrange(len(b))] = rng.choice(BOUNDARY) & 0xFF
        elif k == 2 and len(b) >= 12:
            p = rng.randrange(8, len(b) - 3)
            b[p:p + 4] = struct.pack("<I", rng.choice(BOUNDARY + (rng.randrange(len(b)),)))
        elif k == 3:
            del b[rng.randrange(8, len(b) + 1):]
            if len(b) >= 8:
                struct.pack_into("<I", b, 0, len(b))
        elif k == 4:  # bytes after the value, the root's size counting them
            b += bytes(rng.randrange(1, 9))
            struct.pack_into("<I", b, 0, len(b))
        else:
            for _ in range(rng.randrange(2, 6)):
                b[rng.randrange(len(b))] = rng.randrange(256)
        out.append(bytes(b))
    return out


def tight_limits(rng: random.Random, size: int) -> fbe.Limits:
    """A depth limit and a budget around what the input costs (docs/limits.md 3)."""
    return fbe.Limits(max_depth=rng.randrange(0, 6), budget_factor=0, budget_slack=rng.randrange(0, 4 * size + 64))


def least(reads: Any, hi: int) -> int:
    """The least n in [0, hi] with reads(n) true (reads(hi) is)."""
    lo = -1  # reads(lo) is false or lo is below the range
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if reads(mid):
            hi = mid
        else:
            lo = mid
    return hi


def python_reads(g: Group, qualified: str, data: bytes, limits: fbe.Limits, final: bool) -> bool:
    try:
        g.python_read(qualified, data, limits, final)
    except fbe.DecodeError:
        return False
    return True


def thresholds(g: Group, qualified: str, data: bytes, final: bool) -> None:
    """An input that reads, read with its least budget and depth and with one less (the Python
    reader's thresholds, found by bisection): the core must give the same verdicts."""
    slack = least(lambda n: python_reads(g, qualified, data, fbe.Limits(budget_factor=0, budget_slack=n), final),
                  fbe.Limits().budget(len(data)))
    depth = least(lambda n: python_reads(g, qualified, data, fbe.Limits(max_depth=n), final), fbe.MAX_DEPTH)
    for limits in (fbe.Limits(budget_factor=0, budget_slack=slack), fbe.Limits(budget_factor=0, budget_slack=slack - 1),
                   fbe.Limits(max_depth=depth), fbe.Limits(max_depth=depth - 1)):
        g.read(qualified, data, limits, final)


class Tally:
    def __init__(self) -> None:
        self.inputs = self.native_reads = self.native_writes = self.refused = 0


def exercise(g: Group, qualified: str, data: bytes, rng: random.Random, t: Tally, final: bool) -> None:
    """One input through both readers (default and tight limits), its mutants too; what reads is
    written back through both writers."""
    for d in [data] + mutants(data, rng, MUTANTS):
        for limits in (None, tight_limits(rng, len(d))):
            t.inputs += 1
            native, error = g.read(qualified, d, limits, final)
            t.native_reads += native is not None
            t.refused += error is not None
            if native is not None and limits is None:
                t.native_writes += g.write(qualified, native, final) is not None
                thresholds(g, qualified, d, final)


def older_bodies(g: Group, qualified: str, data: bytes) -> list[bytes]:
    """A versioned root of ``qualified`` as older writers write it: its body's size cut to each
    field's end (and below the base's body), the bytes after the cut left unread."""
    s = g.types[qualified][3]
    pos = struct.unpack_from("<I", data, 4)[0]
    size = struct.unpack_from("<I", data, pos)[0]
    cuts = {f.end for f in plan.of(g.schema).struct(qualified).fields} | {8, s.base_size - 1}
    out = []
    for cut in sorted(c for c in cuts if 8 <= c < size):
        b = bytearray(data)
        struct.pack_into("<I", b, pos, cut)
        out.append(bytes(b))
    return out


@pytest.fixture(scope="module")
def shared_group(tmp_path_factory: pytest.TempPathFactory) -> tuple[Group, Path]:
    s = shared_dir()
    if s is None:
        pytest.skip("reference files not found: set SHARED to the shared folder (default ../shared beside the repo)")
    out = tmp_path_factory.mktemp("native_shared")
    for name in ("proto", "protoex", "enums"):
        generate_into(s / "schemas" / f"{name}.fbe", out)
    return Group.of(s / "schemas" / "test.fbe", out), s


def test_vectors_and_their_mutants(shared_group: tuple[Group, Path]) -> None:
    g, shared = shared_group
    manifest = json.loads((shared / "vectors" / "MANIFEST.json").read_text(encoding="utf-8"))
    rng = random.Random(26)
    t = Tally()
    answered = []
    for c in manifest["cases"]:
        qualified = f"{c['package']}.{c['type']}"
        if qualified not in g.types:
            continue
        for f in c["files"]:
            if f["kind"] not in ("versioned", "final"):
                continue
            final = f["kind"] == "final"
            data = (shared / "vectors" / f["file"]).read_bytes()
            _mod, core, i, _s = g.types[qualified]
            native, error = g.read(qualified, data, None, final)
            assert error is None
            if core.covers(i):  # a covered type: the core answers the golden vector, and writes it back
                assert native is not None, f"{c['name']}: covered, but the core did not answer"
                assert g.write(qualified, native, final) is not None, f"{c['name']}: the core did not write it"
                answered.append(f["file"])
            exercise(g, qualified, data, rng, t, final)
    assert len(answered) >= 20, answered
    assert t.native_reads > t.inputs // 10 and t.refused > t.inputs // 10, vars(t)


@pytest.mark.parametrize("schema", ["trade.fbe", "tests/everything.fbe", "tests/hostile.fbe", "graph.fbe"])
def test_schema_defaults_and_their_mutants(schema: str, tmp_path: Path) -> None:
    g = Group.of(REPO / "schemas" / schema, tmp_path)
    rng = random.Random(schema)
    t = Tally()
    for qualified, (_mod, core, i, s) in g.types.items():
        if s.default_cost > 1 << 16:
            continue  # hostile.Wide and Holder: megabytes of defaults
        cls = g.cls(qualified)
        for final in (False, True):
            data = g.write(qualified, cls(), final)
            if data is None:
                data = cls().to_final() if final else cls().to_fbe()
            else:
                t.native_writes += 1
            exercise(g, qualified, data, rng, t, final)
    assert t.inputs and t.native_writes, vars(t)


def test_writer_refusals_fall_back_to_python(shared_group: tuple[Group, Path]) -> None:
    """Values the Python writer refuses (or that the core leaves to it) raise the Python error."""
    g, _ = shared_group
    mod, core, i, _s = g.types["proto.Order"]
    cases = [
        mod.Order(id=1 << 40), mod.Order(symbol=b"x"), mod.Order(price="1"), mod.Order(side=300),
        mod.Order(symbol="\udcff\ud800"), mod.Order(price=math.nan), mod.Order(id=True),
    ]
    for v in cases:
        g.write("proto.Order", v, False)
        g.write("proto.Order", v, True)
    assert core.to_fbe(i, mod.Order(id=1 << 40)) is None
    with pytest.raises(fbe.EncodeError, match="out of range"):
        mod.Order(id=1 << 40).to_fbe()


def test_numbers_of_every_python_type(shared_group: tuple[Group, Path]) -> None:
    """Integer and float fields given bools, int and float subclasses (an IntEnum, one with its own
    ``__float__``), the edges of every width (2^63 and beyond for uint64, below zero for unsigned)
    and ints too large for a double: the core writes struct.pack's bytes or leaves the value to
    Python, which writes or refuses it."""
    g, _ = shared_group
    cls = g.cls("test.StructSimple")

    class Int(int):
        def __float__(self) -> float:
            return 0.5

    class Float(float):
        pass

    side = g.types["proto.Order"][0].OrderSide.sell  # an IntEnum
    ints = [True, False, Int(7), side, 0, -1, 255, 256, -129, 65535, 1 << 31,
            (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, -(1 << 63), -(1 << 63) - 1]
    floats = [1, -3, 1 << 60, 10**400, True, Int(3), Float(2.5), side, -0.0, math.inf, 3.5e38, 1e-50, 2.5]
    answered = 0
    for name in ("f9", "f11", "f13", "f15", "f17", "f19", "f21", "f23", "f33", "f5", "f7"):
        for x in ints:
            value = cls(**{name: x})
            for final in (False, True):
                answered += g.write("test.StructSimple", value, final) is not None
    for name in ("f25", "f27"):
        for x in floats:
            value = cls(**{name: x})
            for final in (False, True):
                answered += g.write("test.StructSimple", value, final) is not None
    # the exact ints and floats within range are the core's (2^63..2^64-1 for uint64 and timestamp)
    assert g.write("test.StructSimple", cls(f23=(1 << 64) - 1), False) is not None
    assert g.write("test.StructSimple", cls(f27=1 << 60), True) is not None
    assert answered > 100


def test_the_model_classes_go_through_the_core(shared_group: tuple[Group, Path],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``AccountModel``/``AccountFinalModel`` serialize, deserialize and verify through the core: with
    the Python readers and writers taken away from the class's codec (the generated ``fbe_vw_``,
    ``fbe_vr_`` and ``fbe_fr_Account`` it was bound with, the final writer the runtime compiled), a
    covered value still goes both ways, and deserialize gives the size the Python reader gives (the
    root's size field)."""
    g, _ = shared_group
    mod = g.types["proto.Account"][0]
    value = mod.Account(name="Test", orders=[mod.Order(k, "EURUSD") for k in range(3)], asset=mod.Balance("EUR", 1.0))
    roots = {False: value.to_fbe(), True: value.to_final()}

    def python_called(*_args: Any) -> Any:
        raise AssertionError("the model called a Python reader or writer")

    codec = mod.Account.fbe_codec  # (what the models call: the module's functions are read once, by fbe.bind)
    monkeypatch.setattr(codec, "versioned", (python_called, python_called))
    monkeypatch.setattr(codec, "final_read", python_called)
    monkeypatch.setattr(codec, "final", (python_called, python_called))
    for final in (False, True):
        writer = g.model("proto.Account", final)
        assert writer.serialize(value) == len(roots[final]) and bytes(writer.buffer.buffer) == roots[final]
        reader = g.model("proto.Account", final)
        reader.attach(roots[final] if final else roots[final] + b"\0\0")  # a versioned buffer may hold more
        assert reader.verify()
        v, size = reader.deserialize()
        assert norm(v) == norm(value) and size == len(roots[final])


def test_older_bodies_of_a_root_that_does_not_read(shared_group: tuple[Group, Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A root of many older writers' bodies that runs out of budget (conformance's hostile
    old-bodies case) is refused without the constructor calls that make their missing fields (the
    Python reader, which raises the error, makes them); a root of such bodies that reads is read by
    the core, with them."""
    from limits import old_bodies

    g, _ = shared_group
    _mod, core, i, _s = g.types["test.StructVector"]
    simple = g.cls("test.StructSimple")
    made = []
    init = simple.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        init(self, *args, **kwargs)

    monkeypatch.setattr(simple, "__init__", counted)
    hostile = old_bodies(2000)
    assert core.from_fbe(i, hostile) is None and core.verify(i, hostile) is False
    assert not made, f"{len(made)} constructor calls for a root the core refuses"
    value = core.from_fbe(i, old_bodies(10))
    assert value is not None and len(made) == 10
    assert norm(value) == norm(g.python_read("test.StructVector", old_bodies(10), None, False))


def test_a_write_within_a_write(shared_group: tuple[Group, Path]) -> None:
    """Python code the core's writer calls (here a uuid's ``bytes``) may write a root through the
    core itself: the inner write has a writer of its own, and both roots are Python's bytes."""
    g, _ = shared_group
    mod, core, i, _s = g.types["proto.Account"]
    account = mod.Account(name="inner", orders=[mod.Order(1, "EURUSD")], asset=mod.Balance("EUR", 1.0))
    inner: list[bytes | None] = []

    class Writing(uuid.UUID):
        @property
        def bytes(self) -> bytes:
            inner.append(core.to_fbe(i, account))
            inner.append(core.to_final(i, account))
            return uuid.UUID(int=self.int).bytes

    value = g.cls("test.StructSimple")(f36=Writing(int=0x1234))
    for final in (False, True):
        inner.clear()
        assert g.write("test.StructSimple", value, final) is not None
        assert inner and all(b is not None for b in inner), "the inner writes were not answered"
        assert inner[0] == bytes(fbe.encode_versioned(mod.fbe_vw_Account, account))
        final_writer = fbe.final.FINAL_WRITERS(mod.Account)
        assert inner[1] == bytes(fbe.encode_final(final_writer, account, mod.Account.fbe_type))


def test_no_leak_over_many_calls(shared_group: tuple[Group, Path]) -> None:
    """Every entry point of the core, many times over the same values (declared and undeclared enum
    values, an input it refuses), leaves no Python object behind and does not grow the process: one
    reference leaked per call would be 50,000 objects (tracemalloc sees the core's Python
    allocations too)."""
    import resource
    import tracemalloc

    g, _ = shared_group
    mod, core, i, _s = g.types["proto.Account"]
    value = mod.Account(name="Test", orders=[mod.Order(k, "EURUSD") for k in range(3)], asset=mod.Balance("EUR", 1.0))
    odd = mod.Account(state=mod.State(0x40), orders=[mod.Order(1, "X", mod.OrderSide(7), mod.OrderType(9))])
    data, final, odd_data = value.to_fbe(), value.to_final(), odd.to_fbe()
    refused = data[:-1]

    def calls(n: int) -> None:
        for _ in range(n):
            core.from_fbe(i, data)
            core.to_fbe(i, value)
            core.from_final(i, final)
            core.to_final(i, value)
            core.verify(i, data)
            core.verify_final(i, final)
            core.from_fbe(i, odd_data)
            core.to_fbe(i, odd)
            core.from_fbe(i, refused)

    calls(20_000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    try:
        calls(100)
        traced = tracemalloc.get_traced_memory()[0]
        calls(50_000)
        traced = tracemalloc.get_traced_memory()[0] - traced
    finally:
        tracemalloc.stop()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert traced < 100_000, f"{traced} bytes of Python objects left over 450,000 calls"
    assert grown < 8_000, f"max RSS grew by {grown} KiB over 450,000 calls"


def test_cross_reads_newer_and_older_writers(shared_group: tuple[Group, Path], tmp_path: Path) -> None:
    """The vectors' cross reads (a protoex body read as proto's and the other way round): newer
    writers' longer bodies and older writers' shorter ones, answered by the core, and mutants."""
    proto, shared = shared_group
    protoex = Group.of(shared / "schemas" / "protoex.fbe", tmp_path)
    manifest = json.loads((shared / "vectors" / "MANIFEST.json").read_text(encoding="utf-8"))
    rng = random.Random(2611)
    t = Tally()
    for c in manifest["cross_reads"]["reads"]:
        g = protoex if c["read_as"] in protoex.types else proto
        data = (shared / "vectors" / c["file"]).read_bytes()
        final = ".final." in c["file"]  # the final model has no versions: those must be refused
        native, error = g.read(c["read_as"], data, None, final)
        assert (error is None and native is not None) if c["verify"] else error is not None, c
        exercise(g, c["read_as"], data, rng, t, final)
    assert t.native_reads > t.inputs // 10, vars(t)


def test_older_bodies_of_the_vectors(shared_group: tuple[Group, Path]) -> None:
    """Every versioned golden vector's root cut to each field's end: an older writer's body, whose
    missing fields get their defaults (and their default structs' cost)."""
    g, shared = shared_group
    manifest = json.loads((shared / "vectors" / "MANIFEST.json").read_text(encoding="utf-8"))
    rng = random.Random(2612)
    t = Tally()
    answered = 0
    for c in manifest["cases"]:
        qualified = f"{c['package']}.{c['type']}"
        for f in c["files"]:
            if qualified in g.types and f["kind"] == "versioned":
                cuts = older_bodies(g, qualified, (shared / "vectors" / f["file"]).read_bytes())
                for d in cuts:
                    native, error = g.read(qualified, d, None, False)
                    answered += native is not None
                    assert native is not None or error is not None, f"{c['name']}: read, but not by the core"
                for d in rng.sample(cuts, min(2, len(cuts))):  # mutants of a few
                    exercise(g, qualified, d, rng, t, False)
    assert answered >= 100, answered


RANDOM_SCHEMAS = ["tests/everything.fbe", "tests/chars.fbe", "trade.fbe"]
RANDOM_SHARED = {"test.StructOptional", "test.StructVector", "test.StructSet", "test.StructMap", "test.StructHash",
                 "test.StructHashEx"}
"""Of ../shared's test schema, the structs of optionals and collections (drawing the others' hundreds
of fields takes seconds a value)."""


@pytest.fixture(scope="module")
def random_groups(tmp_path_factory: pytest.TempPathFactory,
                  shared_group: tuple[Group, Path]) -> list[tuple[Group, Values, dict[str, Any]]]:
    """Each schema's group, its value builder and the strategy of each struct to draw (made once:
    Hypothesis validates a new strategy at its first draw)."""
    groups = [shared_group[0]]
    for name in RANDOM_SCHEMAS:
        groups.append(Group.of(REPO / "schemas" / name, tmp_path_factory.mktemp("native_random")))
    out = []
    for g in groups:
        packages = {p.name: p for p in g.schema.packages}
        strategies = Strategies(g.schema, allow_nan=True, max_depth=1)
        drawn = {q: strategies.struct(q) for q, (_m, _c, _i, s) in g.types.items()
                 if s.default_cost <= 1 << 12 and (not q.startswith("test.") or q in RANDOM_SHARED)}
        out.append((g, Values(packages, {p: g.schema for p in packages}, g.mods), drawn))
    return out


EXAMPLES = settings(max_examples=int(os.environ.get("FBE_NATIVE_EXAMPLES", "5")), deadline=None, derandomize=True,
                    phases=[Phase.explicit, Phase.reuse, Phase.generate], suppress_health_check=list(HealthCheck))
"""Hypothesis's settings here: ``FBE_NATIVE_EXAMPLES`` examples (default 5), no shrinking (a failure
names its value in full; shrinking values of hundreds of fields takes minutes)."""


@EXAMPLES
@given(data=st.data())
def test_random_values_through_both_paths(random_groups: list[tuple[Group, Values, dict[str, Any]]],
                                          data: st.DataObject) -> None:
    """Random values of every struct (sets, maps and hashes filled, in any order, optionals, nested
    structs): both writers give the same bytes in both models, both readers read them back alike,
    an older writer's cuts of the versioned root too."""
    rng = random.Random(data.draw(st.integers(0, 1 << 30), label="seed"))
    t = Tally()
    for g, values, drawn in random_groups:
        for qualified, strategy in drawn.items():
            s = g.types[qualified][3]
            value = values.build(s.ref(), data.draw(strategy, label=qualified))
            for final in (False, True):
                t.inputs += 1
                written = g.write(qualified, value, final)  # None: a NaN float, which Python writes
                t.native_writes += written is not None
                if written is None:
                    try:
                        written = value.to_final() if final else value.to_fbe()
                    except fbe.EncodeError:  # a decimal beyond 96 bits (the strategy rounds to 28 digits)
                        continue
                native, error = g.read(qualified, written, None, final)
                assert native is not None and error is None, qualified
                for d in mutants(written, rng, 3) + ([] if final else older_bodies(g, qualified, written)):
                    g.read(qualified, d, None, final)
    assert t.native_writes > t.inputs // 2, vars(t)


@EXAMPLES
@given(pair=schema_pair(), data=st.data())
def test_schema_evolution_through_both_paths(pair: tuple[str, str], data: st.DataObject, tmp_path_factory:
                                             pytest.TempPathFactory) -> None:
    """A random schema and a compatible newer version (tests/conformance/test_schema_evolution.py):
    values written by one version are read by the other through the core and the Python code alike."""
    folder = tmp_path_factory.mktemp("native_evolution")
    old, new = Version(folder, pair[0], "old"), Version(folder, pair[1], "new")
    groups = {v: Group(v.schema, {"evolved": v.module}) for v in (old, new)}
    for s_old in old.schema.main_package.structs:
        for writer, reader in ((old, new), (new, old)):
            value = data.draw(Strategies(writer.schema).struct(s_old.qualified), label=f"{s_old.name} value")
            written = writer.values.build(writer.schema.struct(s_old.qualified).ref(), value).to_fbe()
            native, error = groups[reader].read(s_old.qualified, written, None, False)
            assert native is not None and error is None, pair
