"""One verdict everywhere: mutated and amplified binary roots through every testee (conformance/agreement.py).

The quick run of make conformance: a few hundred inputs of a fixed seed. Every built testee must give
each input the same verdict (accept, refuse, unwritable), write back what it accepted as the same
bytes, verify as it reads, and never crash or hang. The disagreements known today are listed in
conformance/failures/agreement.txt, with the reason; the list only shrinks. The long run prints the
table per testee: `make agreement N=100000`.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))

import agreement
import runner

EVERY_TESTEE = {"python", "python-dynamic", "cpp", "go", "java", "js", "kotlin"}


def test_every_testee_gives_one_verdict(testees):
    _, answers, disagreements = agreement.run(agreement.QUICK_SEED, agreement.QUICK_COUNT, testees)
    known = runner.load_failures(agreement.KNOWN.stem)
    unexpected = [agreement.describe(d) for d in disagreements if d.input.id not in known]
    assert not unexpected, f"{len(unexpected)} disagreements:\n" + "\n".join(unexpected)
    verdicts = {a.verdict for got in answers.values() for a in got}
    assert {"accept", "refuse"} <= verdicts, "the inputs must hold both accepted and refused roots"
    if set(testees) >= EVERY_TESTEE:       # with some testees missing, a listed disagreement may not show
        agreeing = set(known) - {d.input.id for d in disagreements}
        assert not agreeing, f"listed in {agreement.KNOWN} but every testee agrees now: remove {sorted(agreeing)}"


def _answer(verdict: str, data: bytes = b"", verify: str | None = None) -> agreement.Answer:
    return agreement.Answer(verdict, base64.b64encode(data).decode() if verdict == "accept" else "why", verify)


def test_compare_finds_every_kind_of_disagreement():
    """compare() itself: another verdict, other bytes, a verify that is not the read, a crash."""
    pool = agreement.vector_seeds() or agreement.project_seeds()
    seed = next(s for s in pool if s.type == "Order" or s.package == "market")
    inp = agreement.Input("0:0", seed, "none", seed.data)
    same = {"a": _answer("accept", seed.data), "b": _answer("accept", seed.data)}
    cases = {
        "verdict": {"a": _answer("accept", seed.data), "b": _answer("refuse")},
        "value": {"a": _answer("accept", seed.data), "b": _answer("accept", seed.data[:-1] + b"\x01")},
        "verify": {"a": _answer("refuse"), "b": _answer("refuse", verify="verify answered ...")},
        "failed": {"a": _answer("refuse"), "b": _answer("failed")},
    }
    assert agreement.compare([inp], {k: [v] for k, v in same.items()}) == []
    for kind, got in cases.items():
        found = agreement.compare([inp], {k: [v] for k, v in got.items()})
        assert len(found) == 1 and found[0].kind.startswith(kind), (kind, found)


def test_inputs_are_made_again_from_their_id():
    pool = agreement.all_seeds()
    a, b = agreement.make_input(5, 123, pool), agreement.make_input(5, 123, pool)
    assert (a.data, a.how, a.seed.name) == (b.data, b.how, b.seed.name)
    assert agreement.make_input(5, 124, pool).data != a.data
