#!/usr/bin/env python3
"""Runs a long benchmark phase and says how far it is, every few seconds.

    bench/progress.py LABEL [--total N] [--output LOG] (--lines FILE REGEX | --files DIR GLOB | --percent FILE)
                      -- COMMAND...

The phase's own output goes to LOG (else where it would go); this prints
`LABEL: k/N, 42s` when the count moves (at most every --every seconds, 15 by
default) and every 4 × --every seconds anyway, where the count is the number of lines of FILE matching REGEX (a
benchmark finished), of files in DIR matching GLOB (callgrind dumps), or the
last `[ NN%]` of a CMake build log. Exits with COMMAND's status.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

PERCENT = re.compile(r"^\[\s*(\d+)%\]")


def count(args: argparse.Namespace) -> int | None:
    """How far the phase is, or None before its output exists."""
    try:
        if args.lines:
            path, regex = args.lines
            pattern = re.compile(regex)
            with open(path, encoding="utf-8", errors="replace") as f:
                return sum(1 for line in f if pattern.search(line))
        if args.files:
            folder, glob = args.files
            return sum(1 for _ in Path(folder).glob(glob))
        with open(args.percent, encoding="utf-8", errors="replace") as f:
            last = None
            for line in f:
                if m := PERCENT.match(line):
                    last = int(m.group(1))
            return last
    except FileNotFoundError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("label")
    parser.add_argument("--total", type=int, help="count at the end (omitted with --percent)")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--lines", nargs=2, metavar=("FILE", "REGEX"))
    how.add_argument("--files", nargs=2, metavar=("DIR", "GLOB"))
    how.add_argument("--percent", metavar="FILE")
    parser.add_argument("--output", help="file that gets the command's stdout and stderr")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between two progress lines (15)")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("give the command after --")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1:]

    started = time.monotonic()
    shown = None
    last_print = started
    log = open(args.output, "w", encoding="utf-8") if args.output else None  # noqa: SIM115 (closed below)
    with subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT if log else None) as proc:
        while True:
            try:
                proc.wait(timeout=1.0)
                finished = True
            except subprocess.TimeoutExpired:
                finished = False
            now = time.monotonic()
            value = count(args)
            # A line when the count moved (at most every --every s), and one every
            # 4 × --every s anyway, so a long step (one big compile) still shows life.
            due = now - last_print >= args.every and (value != shown or now - last_print >= 4 * args.every)
            if value is not None and (finished or due):
                if finished and value == shown:
                    break
                of = "%" if args.percent else (f"/{args.total}" if args.total else "")
                print(f"{args.label}: {value}{of}, {now - started:.0f}s", flush=True)
                shown, last_print = value, now
            if finished:
                break
    if log:
        log.close()
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
