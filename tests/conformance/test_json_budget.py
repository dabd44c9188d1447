"""The JSON decode budget charges the same in every language (docs/limits.md 3).

For each document, every testee's least budget (``budget_factor`` 0, the smallest
``budget_slack`` with which the document reads; one less is refused with "decode budget
exceeded") is the same: the same costs for structs, defaults of omitted members, string and
bytes payloads (keys too) and collection elements, in C++ and Python alike.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))
sys.path.insert(0, str(REPO / "tests" / "python"))

import limits
import runner
from fbe_testlib import generate_into, load_modules


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("everything_budget")
    generate_into(REPO / "schemas" / "tests" / "everything.fbe", out)
    return load_modules(out, ["market", "everything"])


def everything_documents(modules: Any) -> list[str]:
    ev, market = modules["everything"], modules["market"]
    full = ev.Everything(
        f17="caf\u00e9 \udcff", f24=b"\x00\x01\x02", f33="opt", f35=ev.Counted(), f37=["a", None],
        f38=[1.5, 2.5], f39=[None, ev.Counted()], f40=["x", "yz"], f41={1, 2},
        f43={7: "seven", 8: ""}, f44={"key": None, "k2": ev.Counted()}, f47=3,
        f46={market.Instrument(): ev.Counted()}, f49={b"\xff\x00": 1}, f50={b"ab": "cd"})
    text = full.to_json()
    # the same value with its struct members and a collection omitted: their defaults are charged
    partial = text.replace('"f29":', '"x29":').replace('"f30":', '"x30":').replace('"f40":', '"x40":')
    assert partial != text
    return ["{}", text, partial]


def least_budget(testee: runner.Testee, package: str, type_name: str, text: str) -> int:
    def reads(slack: int) -> bool:
        answer = testee.ask({"package": package, "type": type_name, "input": {"format": "json", "payload": text},
                             "output": "json", "limits": {"budget_factor": 0, "budget_slack": slack}})
        if "result" in answer:
            return True
        assert "decode budget exceeded" in answer.get("parse_error", ""), f"{testee.name}: {answer}"
        return False

    lo, hi = 0, 1 << 20            # reads(hi); not reads(lo - 1)
    assert reads(hi), f"{testee.name} refuses {text[:80]} with a budget of {hi}"
    while lo < hi:
        mid = (lo + hi) // 2
        if reads(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def test_every_language_charges_the_same(testees, modules) -> None:
    documents = [("everything", "Everything", d) for d in everything_documents(modules)]
    documents += [("test", "StructVector", limits.empty_objects(10)),
                  ("test", "StructVector", limits.honest_struct_vector_json(3))]
    for package, type_name, text in documents:
        least = {name: least_budget(t, package, type_name, text) for name, t in testees.items()}
        assert len(set(least.values())) == 1, f"{package}.{type_name} {text[:80]}...: {least}"
        assert 0 < next(iter(least.values()))
