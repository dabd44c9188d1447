"""Inputs on which conformance/agreement.py found one language reading otherwise than the others
(issue 21), kept as cases every testee runs (conformance/limits.py adds them): the rule each broke is
checked in every language from then on, not only in the runtime that was fixed.

* older bodies (docs/format.md 3.6): a body too small for all its inherited fields reads none of
  them. `everything.ImportedBase : market.Instrument` (inherited `symbol`, `digits`; own `price`)
  with a body of 12 bytes, whose one slot points at the string "a", reads its defaults (Ruby read
  "a": 29:3114); with a body of 16 bytes it reads both inherited fields.
* float bits (docs/format.md 1): a float NaN's sign and payload survive a read and a write, in a
  field (`test.StructSimple.f25`, `f26`), in an optional's value (`test.StructOptional.f136`), and
  in those of a set's element, a map's and a hash's value, in both models (Ruby's Array#pack wrote
  every NaN as 0x7FC00000: 29:6069, 29:11456). A signalling float NaN (quiet bit clear) reads
  quieted, sign and the rest of its payload kept, in the same places: 0x7F800001 is written back as
  0x7FC00001 (Python, JavaScript and Ruby hold a float as a double, whose widening sets the bit; C++
  and Go wrote it back bit for bit).
* found inputs: the agreement run's inputs themselves, listed in agreement_regressions.txt
  (`SEED:I package type format hex`), read and written back as fbe.dynamic reads and writes them.

Expected bytes are made by fbe.dynamic (the runner's codec), or are the input's own.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

P = struct.pack
HERE = Path(__file__).resolve().parent
REGRESSIONS = HERE / "agreement_regressions.txt"
NANS = (0xFFF6E979, 0x7FC00001, 0xFFFFFFFF, 0xFFC00000)   # quiet NaNs: negative, with payloads, all ones
SIGNALLING_NANS = (0x7F800001, 0xFFA00000, 0xFFBFFFFF, 0x7F812345)   # quiet bit clear: read quieted
QUIET_BIT = 0x00400000


def _codec(package: str) -> Any:
    """The runner's codec (fbe.dynamic) of the conformance schema of a package: test or everything."""
    from limits import _everything_codec, _test_codec  # limits.py imports this module

    return {"test": _test_codec, "everything": _everything_codec}[package]()


def older_base_bodies() -> list[tuple[str, bytes, dict[str, Any]]]:
    """(name, versioned everything.ImportedBase root, the value every reader reads from it)."""
    default = _codec("everything").default("everything.ImportedBase")
    text = P("<I", 1) + b"a"

    def root(fields: bytes) -> bytes:
        body = P("<II", 8 + len(fields), 1022) + fields
        return P("<II", 8 + len(body) + len(text), 8) + body + text
    return [("body-12-of-16-inherited", root(P("<I", 12)), default),
            ("body-16-holds-inherited", root(P("<Ii", 16, 7)), dict(default, symbol="a", digits=7))]


def float_nans() -> list[tuple[str, str, str, bytes, bytes]]:
    """(type, format, name, root, root written back): values whose float fields hold NaNs (written as
    1.5 and 2.5 by fbe.dynamic, whose bytes are then replaced): test.StructSimple's f25 and f26,
    test.StructOptional's f136 and f137 (optionals), the same StructSimple as a set's element and a
    map's value, and the optionals of a StructNested as a hash's value (written by other code than a
    struct field in Ruby). A quiet NaN is written back as read; a signalling one with its quiet bit set."""
    codec = _codec("test")
    one, two = P("<f", 1.5), P("<f", 2.5)
    simple = dict(codec.default("test.StructSimple"), f25=1.5, f26=2.5)
    nested = dict(codec.default("test.StructNested"), f136=1.5, f137=2.5)
    values = {"StructSimple": simple, "StructOptional": dict(codec.default("test.StructOptional"), f136=1.5, f137=2.5),
              "StructSet": dict(codec.default("test.StructSet"), f4=[simple]),
              "StructMap": dict(codec.default("test.StructMap"), f9=[(7, simple)]),
              "StructHashEx": dict(codec.default("test.StructHashEx"),
                                   f1=[(codec.default("test.StructSimple"), nested)])}
    out = []
    for type_, value in values.items():
        for fmt in ("versioned", "final"):
            data = bytes(codec.encode(value, f"test.{type_}", fmt))
            assert data.count(one) == data.count(two) == 1, (type_, fmt)
            for nans in (NANS, SIGNALLING_NANS):
                for first, second in zip(nans[::2], nans[1::2]):
                    name = f"{first:08x}-{second:08x}"
                    root = data.replace(one, P("<I", first)).replace(two, P("<I", second))
                    back = data.replace(one, P("<I", first | QUIET_BIT)).replace(two, P("<I", second | QUIET_BIT))
                    out.append((type_, fmt, name, root, back))
    return out


def regressions() -> list[tuple[str, str, str, str, bytes]]:
    """The inputs of agreement_regressions.txt: (SEED:I, package, type, format, bytes)."""
    out = []
    for line in REGRESSIONS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            input_id, package, type_, fmt, data = line.split()
            out.append((input_id, package, type_, fmt, bytes.fromhex(data)))
    return out


def agreement_cases(add: Callable[..., None]) -> None:
    """Adds the cases through limits.py's `add(name, suite, request, expect, **kw)`."""
    from limits import _binary  # limits.py imports this module: its helpers are taken here

    everything = _codec("everything")
    for name, data, value in older_base_bodies():
        expected = bytes(everything.encode(value, "everything.ImportedBase", "versioned"))
        add(f"older bodies/ImportedBase.versioned/{name}", "agreement: older bodies",
            _binary("everything", "ImportedBase", "versioned", data), "result", result=expected)
    for type_, fmt, name, data, back in float_nans():
        add(f"float bits/{type_}.{fmt}/{name}", "agreement: float bits", _binary("test", type_, fmt, data), "result",
            result=back)
    for input_id, package, type_, fmt, data in regressions():
        codec = _codec(package)
        value, _ = codec.decode(data, f"{package}.{type_}", fmt, check=True)
        expected = bytes(codec.encode(value, f"{package}.{type_}", fmt))
        add(f"found inputs/{type_}.{fmt}/{input_id}", "agreement: found inputs", _binary(package, type_, fmt, data),
            "result", result=expected)
