"""Generated output equals the checked-in golden files (tests/golden/README.md).

A change of generated code shows here as a diff; when it is intended, run
`make update-golden` and explain the diff in the commit message.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from golden import (
    GOLDEN,
    SHARED,
    SHARED_PREFIX,
    TARGETS,
    Schema,
    files_below,
    generate,
    project_schemas,
    shared_schemas,
)

DIFF_LINES = 80        # per file: enough to see the change, short enough to read


def _cases() -> list[object]:
    cases: list[object] = []
    shared = shared_schemas()
    for target in TARGETS:
        for schema in project_schemas() + shared:
            cases.append(pytest.param(target, schema, id=f"{target}-{schema.name}"))
        if not shared:
            cases.append(pytest.param(target, None, id=f"{target}-{SHARED_PREFIX}",
                                      marks=pytest.mark.skip(
                                          reason=f"reference schemas not found at {SHARED}/schemas "
                                                 "(set SHARED to the shared folder): their golden files "
                                                 "are not checked")))
    return cases


def compare_trees(expected_dir: Path, actual_dir: Path) -> list[str]:
    """Differences between the golden folder and fresh output, as readable report lines."""
    expected, actual = files_below(expected_dir), files_below(actual_dir)
    problems: list[str] = []
    for name in sorted(expected.keys() - actual.keys()):
        problems.append(f"{name}: in the golden files but no longer generated")
    for name in sorted(actual.keys() - expected.keys()):
        problems.append(f"{name}: generated but not in the golden files")
    for name in sorted(expected.keys() & actual.keys()):
        old = expected[name].read_text(encoding="utf-8")
        new = actual[name].read_text(encoding="utf-8")
        if old == new:
            continue
        diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(),
                                         f"golden/{name}", f"generated/{name}", lineterm="", n=2))
        shown = diff[:DIFF_LINES]
        if len(diff) > DIFF_LINES:
            shown.append(f"... {len(diff) - DIFF_LINES} more diff lines")
        problems.append(f"{name}: differs\n" + "\n".join(shown))
    return problems


@pytest.mark.parametrize(("target", "schema"), _cases())
def test_generated_output_matches_golden(target: str, schema: Schema, tmp_path: Path) -> None:
    golden_dir = GOLDEN / target / schema.name
    assert golden_dir.is_dir(), f"no golden files at {golden_dir}: run `make update-golden`"
    generate(target, schema, tmp_path)
    problems = compare_trees(golden_dir, tmp_path)
    if problems:
        pytest.fail(f"fbec output for {schema.input} ({target}) differs from {golden_dir}; if intended, "
                    "run `make update-golden` and explain the diff in the commit message:\n\n"
                    + "\n\n".join(problems), pytrace=False)


def test_no_golden_files_without_a_schema() -> None:
    """A removed or renamed schema leaves no stale golden folder behind."""
    known = {s.name for s in project_schemas()}
    have_shared = bool(shared_schemas())
    known |= {s.name for s in shared_schemas()}
    stale = []
    for target in TARGETS:
        assert (GOLDEN / target).is_dir(), f"no golden files for target {target}: run `make update-golden`"
        for name in files_below(GOLDEN / target):
            if name.startswith(SHARED_PREFIX + "/") and not have_shared:
                continue
            if not any(name.startswith(k + "/") for k in known):
                stale.append(f"{target}/{name}")
    assert not stale, f"golden files of no current schema (run `make update-golden`): {stale}"


def test_compare_trees_reports_each_kind_of_difference(tmp_path: Path) -> None:
    golden, fresh = tmp_path / "golden", tmp_path / "fresh"
    for folder, files in ((golden, {"a.h": "x\ny\n", "gone.h": "1\n"}), (fresh, {"a.h": "x\nz\n", "new.h": "2\n"})):
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    report = compare_trees(golden, fresh)
    assert report[0] == "gone.h: in the golden files but no longer generated"
    assert report[1] == "new.h: generated but not in the golden files"
    assert report[2].startswith("a.h: differs\n--- golden/a.h\n+++ generated/a.h")
    assert "-y\n+z" in report[2]
    assert len(report) == 3


def test_the_readme_lists_every_target_with_its_options() -> None:
    readme = (GOLDEN / "README.md").read_text(encoding="utf-8")
    rows = {}
    for line in readme.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 2:
            rows[cells[0]] = cells[1].split("`")[0].strip()
    assert rows == {target: " ".join(options) for target, options in TARGETS.items()}
