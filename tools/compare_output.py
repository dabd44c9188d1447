#!/usr/bin/env python3
"""Compare what fbec generates in this tree with what it generated at another revision.

A refactoring of a target (issue 22's passes) must leave its output byte-identical, or change it on
purpose in its own commit. The golden tests hold one option set per schema; this compares every
schema of `schemas/`, `tests/`, `examples/` and `../shared/schemas` under all eight combinations of
--final, --json and --proto, for the targets named:

    python3 tools/compare_output.py --target go                  # this tree against main
    python3 tools/compare_output.py --target cpp --target rust --base HEAD~3 --diff 40

The base revision's compiler is taken with `git archive` into a temporary folder; each tree
generates in a process of its own (`fbec.cli.main`, one call per schema, target and option set).
Exit status 0 when every file is the same, 1 when any differs (listed, with --diff the first lines
of each unified diff), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import difflib
import io
import itertools
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTION_SETS = [list(flags) for n in range(4) for flags in itertools.combinations(("--final", "--json", "--proto"), n)]

# Run in the compiler's own process: generate every job into OUT/<job>/ and print the failures as JSON.
GENERATE = """
import contextlib, io, json, sys
from fbec.cli import main
jobs, out = json.loads(sys.argv[1]), sys.argv[2]
failed = {}
for name, args in jobs.items():
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["-q", *args, f"--output={out}/{name}"])
    if status != 0:
        failed[name] = f"exit {status}: {err.getvalue().strip()}"
print(json.dumps(failed))
"""


def schemas(tree: Path) -> list[Path]:
    found = [p for folder in ("schemas", "tests", "examples") for p in sorted((tree / folder).rglob("*.fbe"))]
    shared = tree.parent / "shared" / "schemas"
    return found + (sorted(shared.rglob("*.fbe")) if shared.is_dir() else [])


def jobs(tree: Path, targets: list[str]) -> dict[str, list[str]]:
    """Each job's folder name (target, schema, options) and its fbec arguments."""
    out = {}
    for target in targets:
        for schema in schemas(tree):
            where = schema.relative_to(tree.parent if "shared" in schema.parts else tree)
            for flags in OPTION_SETS:
                name = f"{target}/{str(where).replace('/', '_')}/{''.join(f[2] for f in flags) or 'plain'}"
                out[name] = [f"--{target}", *flags, f"--input={schema}"]
    return out


def generate(compiler: Path, work: dict[str, list[str]], out: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(compiler)}
    done = subprocess.run([sys.executable, "-c", GENERATE, json.dumps(work), str(out)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"compare_output: fbec in {compiler} failed:\n{done.stderr}")
    failed: dict[str, str] = json.loads(done.stdout.splitlines()[-1])
    return failed


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", required=True, help="a target of fbec (cpp, go, ...)")
    parser.add_argument("--base", default="main", help="the revision to compare with (default: main)")
    parser.add_argument("--diff", type=int, default=0, metavar="N", help="print the first N lines of each diff")
    args = parser.parse_args()
    work = jobs(ROOT, args.target)
    with tempfile.TemporaryDirectory(prefix="compare_output.") as tmp:
        base_tree = Path(tmp) / "base"
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "compiler"], capture_output=True,
                                 check=False)
        if archive.returncode != 0:
            print(f"compare_output: no revision {args.base!r}: {archive.stderr.decode().strip()}", file=sys.stderr)
            return 2
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(base_tree, filter="data")
        failed = {"base": generate(base_tree / "compiler", work, Path(tmp) / "old"),
                  "this tree": generate(ROOT / "compiler", work, Path(tmp) / "new")}
        old, new = files(Path(tmp) / "old"), files(Path(tmp) / "new")
    differ = [name for name in sorted(old.keys() | new.keys()) if old.get(name) != new.get(name)]
    for name in differ:
        if name not in old or name not in new:
            print(f"only in {'this tree' if name in new else args.base}: {name}")
            continue
        print(f"differs: {name}")
        if args.diff:
            lines = difflib.unified_diff(old[name].decode(errors="replace").splitlines(),
                                         new[name].decode(errors="replace").splitlines(), lineterm="", n=1)
            print("\n".join(itertools.islice(lines, 2, 2 + args.diff)))
    failures = {name: (failed["base"].get(name), failed["this tree"].get(name))
                for name in failed["base"].keys() | failed["this tree"].keys()}
    changed = {name: why for name, why in failures.items() if why[0] != why[1]}
    for name, (before, after) in sorted(changed.items()):
        print(f"fbec's verdict changed: {name}: {args.base}: {before or 'ok'}; this tree: {after or 'ok'}")
    print(f"{len(work)} generations ({len(failures)} refused by fbec in either tree), {len(new)} files: "
          f"{len(differ)} differ, {len(changed)} verdicts changed (against {args.base})")
    return 1 if differ or changed else 0


if __name__ == "__main__":
    sys.exit(main())
