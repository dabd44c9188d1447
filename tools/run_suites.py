#!/usr/bin/env python3
"""Runs make test suites and adds up their results.

    tools/run_suites.py --label "make test" --logs build/test-results --make make SUITE...
        [--lane "SUITE..."]...

Each SUITE is a make target, run as `make SUITE` with its output kept in
<logs>/<SUITE>.log. The SUITEs run one after the other, their output shown as
it comes; then the lanes run side by side, each its suites one after the
other, a suite's output shown whole when it ends (suites that share a build
folder or a package cache go in one lane). A failing suite does not stop the
run. Every test
runner of the project closes with a summary line; the ones of a suite's log
are added up:

  pytest        `3 passed, 1 skipped, 2 xfailed in 4.1s` (xfailed counts as
                skipped, xpassed as passed, errors as failed)
  ctest         `100% tests passed, 0 tests failed out of 57`, then the
                `(Skipped)` and `(Disabled)` lines of "The following tests
                did not run"
  minitest      `103 runs, 9 assertions, 1 failures, 0 errors, 2 skips`
                (Ruby; failures and errors as failed)
  other tools   `<name>: N passed, N failed, N skipped` (the conformance
                runner, `fbe_bench --check`, the fuzz targets); the
                conformance runner's `(K unexpected)` are its failures, the
                rest of its failed cases are known ones and count as skipped

A suite that exits non-zero without a counted failure (a build step failed)
counts one failure; a suite that counted no test at all fails too, and so
does each pytest or ctest run in it that found no test. Under CI=true a
skipped test is a failed one (a test skips only for what a user's checkout
may lack, ../shared; CI has it all), the conformance runner's known failures
apart. The line
before the last says how long the run took; the last is the total,
`<label>: N passed, N failed, N skipped`; the exit status
is 1 when anything failed. Standard library only: it runs before the
project's virtual environment exists.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

PYTEST_SUMMARY = re.compile(
    r"^=*\s*((?:\d+ (?:passed|failed|skipped|xfailed|xpassed|errors?|deselected|warnings?|rerun)(?:, )?)+)"
    r" in [\d.]+s(?: \([^)]*\))?\s*=*$")
PYTEST_COUNT = re.compile(r"(\d+) (\w+)")
PYTEST_NOTHING = re.compile(r"^=*\s*no tests ran in [\d.]+s\s*=*$")
CTEST_NOTHING = re.compile(r"^No tests were found!*$")
CTEST_SUMMARY = re.compile(r"^\d+% tests passed, (\d+) tests? failed out of (\d+)$")
CTEST_NOT_RUN = re.compile(r"^\s*\d+ - \S+ \((Skipped|Disabled)\)$")
MINITEST_SUMMARY = re.compile(r"^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips$")
TOOL_SUMMARY = re.compile(r"^[a-z][\w.-]*: (\d+) passed, (\d+) failed, (\d+) skipped(?: \((\d+) unexpected\))?")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    known: int = 0       # of the skipped: the conformance runner's known failures
    empty_runs: int = 0  # runners that found no test at all (not part of the totals)

    def add(self, other: Counts) -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped

    def total(self) -> int:
        return self.passed + self.failed + self.skipped

    def __str__(self) -> str:
        return f"{self.passed} passed, {self.failed} failed, {self.skipped} skipped"


def count_log(lines: list[str]) -> Counts:
    """Adds up the summary lines of every test runner in one suite's output."""
    counts = Counts()
    for raw in lines:
        line = ANSI.sub("", raw.rstrip("\n"))
        if PYTEST_NOTHING.match(line) or CTEST_NOTHING.match(line):
            counts.empty_runs += 1
        elif m := PYTEST_SUMMARY.match(line):
            for number, word in PYTEST_COUNT.findall(m.group(1)):
                n = int(number)
                if word in ("passed", "xpassed"):
                    counts.passed += n
                elif word in ("failed", "error", "errors"):
                    counts.failed += n
                elif word in ("skipped", "xfailed"):
                    counts.skipped += n
        elif m := CTEST_SUMMARY.match(line):
            failed, total = int(m.group(1)), int(m.group(2))
            counts.failed += failed
            counts.passed += total - failed
        elif m := CTEST_NOT_RUN.match(line):
            # Listed after ctest's summary line, where a skipped test was
            # counted as passed and a disabled one not at all.
            if m.group(1) == "Skipped":
                counts.passed -= 1
            counts.skipped += 1
        elif m := MINITEST_SUMMARY.match(line):
            # Ruby's minitest counts runs; a failure, an error and a skip are each one of them.
            runs, failures, errors, skips = (int(g) for g in m.groups())
            counts.passed += runs - failures - errors - skips
            counts.failed += failures + errors
            counts.skipped += skips
        elif m := TOOL_SUMMARY.match(line):
            passed, failed, skipped = int(m.group(1)), int(m.group(2)), int(m.group(3))
            if m.group(4) is not None:
                # The conformance runner: its failures include the known ones
                # (conformance/failures/), which count as skipped like xfail.
                unexpected = int(m.group(4))
                known = max(failed - unexpected, 0)
                skipped += known
                counts.known += known
                failed = unexpected
            counts.passed += passed
            counts.failed += failed
            counts.skipped += skipped
    return counts


def run_suite(make: list[str], suite: str, log_path: Path, show: bool) -> tuple[int, list[str]]:
    """Runs `make SUITE`, keeping its output in log_path and, when show is set, showing it as it
    comes."""
    lines: list[str] = []
    with open(log_path, "w", encoding="utf-8") as log, subprocess.Popen(
            [*make, suite], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, errors="replace", bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if show:
                sys.stdout.write(line)
                sys.stdout.flush()
            log.write(line)
            log.flush()
            lines.append(line)
    return proc.returncode, lines


def verdict(suite: str, status: int, lines: list[str], logs: Path, ci: bool, seconds: float) -> tuple[Counts, str]:
    """A suite's counts and its line of the report."""
    counts = count_log(lines)
    notes = []
    if status != 0 and counts.failed == 0:
        counts.failed = 1
        notes.append(f"exit status {status} (see {logs / suite}.log)")
    elif counts.total() == 0:
        counts.failed = 1
        notes.append("it ran no test")
    elif counts.empty_runs:
        counts.failed += counts.empty_runs
        notes.append(f"{counts.empty_runs} of its test runs found no test")
    if ci and counts.skipped > counts.known:
        skipped = counts.skipped - counts.known
        counts.skipped -= skipped
        counts.failed += skipped
        notes.append(f"{skipped} skipped under CI=true")
    # Indented: a line of the report is never read as a tool's summary line.
    line = f"  {suite}: {counts} ({seconds:.0f}s)"
    if notes:
        line += "; failed: " + ", ".join(notes)
    return counts, line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", default="make test", help="name of the closing line")
    parser.add_argument("--logs", type=Path, default=Path("build/test-results"), help="folder of the suite logs")
    parser.add_argument("--make", default="make", help="the make command (split like a shell does)")
    parser.add_argument("--lane", action="append", default=[], metavar="SUITES",
                        help="suites (separated by spaces) run in order beside the other lanes, after the SUITEs")
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="make targets, run in this order first")
    args = parser.parse_args()
    make = shlex.split(args.make)
    lanes = [lane.split() for lane in args.lane if lane.split()]
    order = [*args.suites, *(suite for lane in lanes for suite in lane)]
    if not order:
        parser.error("no suite to run")
    args.logs.mkdir(parents=True, exist_ok=True)

    ci = os.environ.get("CI") == "true"
    results: dict[str, tuple[Counts, str]] = {}
    printing = threading.Lock()
    begun = time.monotonic()

    def run(suite: str, show: bool) -> None:
        with printing:
            print(f"==> {suite}" + ("" if show else " (its output follows when it ends)"), flush=True)
        started = time.monotonic()
        status, lines = run_suite(make, suite, args.logs / f"{suite}.log", show)
        counts, line = verdict(suite, status, lines, args.logs, ci, time.monotonic() - started)
        with printing:
            if not show:
                print(f"==> {suite} (output)", flush=True)
                sys.stdout.writelines(lines)
            print(f"<=={line[1:]}", flush=True)
        results[suite] = counts, line

    for suite in args.suites:
        run(suite, show=True)
    def run_lane(lane: list[str]) -> None:
        for suite in lane:
            run(suite, show=len(lanes) == 1)

    threads = [threading.Thread(target=run_lane, args=(lane,)) for lane in lanes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    total = Counts()
    for suite in order:
        total.add(results[suite][0])
    report = [results[suite][1] for suite in order]
    took = f"{args.label} took {time.monotonic() - begun:.0f} s of wall time"
    print("\n" + "\n".join(report))
    print(took)
    print(f"{args.label}: {total}")
    (args.logs / "summary.txt").write_text("\n".join(report) + f"\n{took}\n{args.label}: {total}\n",
                                          encoding="utf-8")
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main())
