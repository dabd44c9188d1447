"""Schema evolution through the versioned model (docs/format.md 3.6): fields appended by a newer
writer are skipped by an older reader; fields missing from an older writer get their defaults."""

from __future__ import annotations

from typing import Any

import fbe
import pytest
from fbe_testlib import generate_into, load_modules

V1 = """
package evo
enum Kind : byte { a; b; }
struct Sub { int32 n = 3; }
struct S { [key] int32 id; string name = "v1"; }
message M { S s; S? t; S[] list; }
"""

V2 = """
package evo
enum Kind : byte { a; b; c; }
struct Sub { int32 n = 3; string more = "m"; }
struct S {
    [key] int32 id; string name = "v1"; double price = 2.5; Sub sub; Sub? opt; int32[] nums; Kind kind = Kind.b;
}
message M { S s; S? t; S[] list; string note = "new"; }
"""


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    mods = []
    for name, text in (("v1", V1), ("v2", V2)):
        folder = tmp_path_factory.mktemp(name)
        (folder / "evo.fbe").write_text(text)
        generate_into(folder / "evo.fbe", folder)
        mods.append(load_modules(folder, ["evo"])["evo"])
    return mods[0], mods[1]


def test_newer_writer_older_reader(versions: tuple[Any, Any]) -> None:
    v1, v2 = versions
    new = v2.M(s=v2.S(id=1, name="x", price=9.0, sub=v2.Sub(n=4, more="q"), opt=v2.Sub(), nums=[1, 2]),
               t=v2.S(id=2), list_=[v2.S(id=3, kind=v2.Kind.c)], note="hello")
    data = new.to_fbe()
    model = v1.MModel()
    model.attach(data)
    assert model.verify()
    old, size = model.deserialize()
    assert size == len(data)
    assert (old.s.id, old.s.name, old.t.id, [s.id for s in old.list_]) == (1, "x", 2, [3])
    assert old.to_fbe() == v1.M(s=v1.S(id=1, name="x"), t=v1.S(id=2, name="v1"), list_=[v1.S(id=3)]).to_fbe()


def test_older_writer_newer_reader(versions: tuple[Any, Any]) -> None:
    v1, v2 = versions
    data = v1.M(s=v1.S(id=1, name="x"), t=None, list_=[v1.S(id=5)]).to_fbe()
    model = v2.MModel()
    model.attach(data)
    assert model.verify()
    new, _ = model.deserialize()
    assert new.note == "new" and new.t is None
    for s in (new.s, new.list_[0]):
        assert s.price == 2.5 and s.sub.fbe_equal(v2.Sub()) and s.opt is None and s.nums == [] and s.kind == v2.Kind.b
    assert new.s.name == "x" and new.list_[0].id == 5


def test_final_model_is_not_versioned(versions: tuple[Any, Any]) -> None:
    v1, v2 = versions
    data = v2.M(s=v2.S(id=1)).to_final()
    model = v1.MFinalModel()
    model.attach(data)
    assert not model.verify()  # the type id matches but the sizes do not
    with pytest.raises(fbe.DecodeError):
        v2.M.from_final(v1.M().to_final())
