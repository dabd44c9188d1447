"""Every crate that builds the fbe runtime by path locks the runtime's dependencies as the runtime does.

bench/rust, examples/rust, fuzz/rust and runtime/python-native depend on
runtime/rust by path and build with --locked. When the runtime gains or
bumps a dependency and one of their Cargo.lock files is not updated with it,
that crate's build fails only minutes into make test (or, worse, fuzzes and
benchmarks other dependency code than the runtime ships). This check finds it
in a second: the fbe package's dependency closure, as (name, version) pairs,
is the same in every lock that holds the fbe package.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # tools/requirements/test.txt installs tomli on Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
RUNTIME_LOCK = REPO / "runtime" / "rust" / "Cargo.lock"


def fbe_closure(lock: Path) -> set[tuple[str, str]] | None:
    """The (name, version) of the fbe package and everything it depends on, or None if the lock has no fbe."""
    packages = tomllib.loads(lock.read_text(encoding="utf-8"))["package"]
    by_name: dict[str, list[dict]] = {}
    for package in packages:
        by_name.setdefault(package["name"], []).append(package)
    if "fbe" not in by_name:
        return None

    def resolve(dependency: str) -> dict:
        # A lock spells a dependency "name", or "name version" when it holds several versions of it.
        name, _, version = dependency.partition(" ")
        found = [p for p in by_name[name] if not version or p["version"] == version]
        assert len(found) == 1, f"{lock}: dependency {dependency!r} resolves to {len(found)} packages"
        return found[0]

    seen: set[tuple[str, str]] = set()
    todo = [by_name["fbe"][0]]
    while todo:
        package = todo.pop()
        key = (package["name"], package["version"])
        if key not in seen:
            seen.add(key)
            todo.extend(resolve(d) for d in package.get("dependencies", []))
    return seen


LOCKS = sorted(
    lock for lock in REPO.glob("**/Cargo.lock")
    if lock != RUNTIME_LOCK and not {"build", "target", "node_modules"} & set(lock.relative_to(REPO).parts)
)


def test_runtime_lock_holds_fbe() -> None:
    assert fbe_closure(RUNTIME_LOCK), f"{RUNTIME_LOCK} has no fbe package"


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: str(p.relative_to(REPO)))
def test_lock_agrees_with_runtime(lock: Path) -> None:
    theirs = fbe_closure(lock)
    if theirs is None:
        return  # a crate that does not build the runtime (runtime/rust-build runs fbec only)
    ours = fbe_closure(RUNTIME_LOCK)
    assert ours is not None
    missing, extra = sorted(ours - theirs), sorted(theirs - ours)
    assert not missing and not extra, (
        f"{lock.relative_to(REPO)} locks the fbe runtime's dependencies differently from runtime/rust/Cargo.lock:\n"
        f"  only in runtime/rust: {missing}\n  only in {lock.relative_to(REPO)}: {extra}\n"
        "update it (cargo update -p <crate> in that folder) in the same commit as the runtime's change"
    )
