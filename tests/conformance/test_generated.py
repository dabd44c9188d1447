"""Random values of every type of the project's test schemas through every testee.

For each generated value (hypothesis, derandomized so CI is repeatable) and
each language: the language writes it in each format; every language
(itself included) reads those bytes and must write back the same bytes and
describe the same value. This is the cross matrix of issue 7 on values
nobody wrote by hand: empty and full collections, Unicode, extreme numbers,
deep nesting.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))

from agreement import has_hash
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics

# imported under another name: pytest would collect a module-level `test*` function as a test
from runner import Testee, _canonical
from strategies import Strategies

SCHEMA = REPO / "schemas" / "tests" / "everything.fbe"
EXAMPLES = 25

schema = compile_schema(str(SCHEMA), [], Diagnostics())
strategies = Strategies(schema)
STRUCTS = [s.qualified for p in schema.packages for s in p.structs]


def ask(testee: Testee, qualified: str, fmt_in: str, payload: Any, fmt_out: str) -> dict[str, Any]:
    package, _, name = qualified.rpartition(".")
    return testee.ask({"package": package, "type": name, "input": {"format": fmt_in, "payload": payload},
                       "output": fmt_out})


@pytest.mark.parametrize("qualified", STRUCTS)
@settings(max_examples=EXAMPLES, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_every_language_reads_what_every_language_writes(testees, qualified, data):
    value = data.draw(strategies.struct(qualified), label="value")
    unordered = has_hash(schema, qualified)
    for fmt in ("versioned", "final", "json"):
        written_by = {name: ask(t, qualified, "value", value, fmt) for name, t in testees.items()}
        # a testee that does not support a request yet answers "skipped"
        outcomes = {name: next(iter(a)) for name, a in written_by.items() if "skipped" not in a}
        # every language agrees whether the value can be written (JSON cannot hold struct map keys)
        assert len(set(outcomes.values())) == 1, f"languages disagree writing {fmt}: {written_by}"
        for writer_name, written in written_by.items():
            if "result" not in written:
                continue
            for reader_name, reader in testees.items():
                where = f"{writer_name} wrote {fmt}, {reader_name} read it"
                again = ask(reader, qualified, fmt, written["result"], fmt)
                if "skipped" in again:
                    continue
                assert "result" in again, f"{where}: {again}"
                if fmt != "json":
                    if not unordered:
                        assert again["result"] == written["result"], f"{where}: bytes differ"
                    described = ask(reader, qualified, fmt, written["result"], "value")
                    if "skipped" not in described:
                        assert "result" in described, f"{where}: {described}"
                        assert _canonical(described["result"]) == _canonical(value), where
                elif not unordered:
                    assert again["result"] == written["result"], f"{where}: JSON differs"
                else:
                    assert _canonical(json.loads(again["result"])) == _canonical(json.loads(written["result"])), where
