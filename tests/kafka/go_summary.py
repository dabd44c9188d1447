#!/usr/bin/env python3
"""The closing line of a `go test -json` run: its output shown as go test prints it, then
`<name>: N passed, N failed, N skipped`, the summary tools/run_suites.py counts.

    go test -json ./... | python tests/kafka/go_summary.py NAME

Counted are the tests without subtests (a parent passes or fails with its subtests); a package
that fails to build counts one failure. The exit status is 0: go test's says whether it failed.
"""

from __future__ import annotations

import json
import sys


def main(name: str) -> int:
    results: dict[str, str] = {}   # "package test" -> pass, fail or skip
    build_failures = 0
    for line in sys.stdin:
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            sys.stdout.write(line)          # what the go command prints besides the events
            continue
        action = event.get("Action")
        if action == "output" or action == "build-output":
            sys.stdout.write(event.get("Output", ""))
        elif action in ("pass", "fail", "skip"):
            test = event.get("Test")
            if test:
                results[f"{event.get('Package')} {test}"] = action
            elif action == "fail" and not any(k.startswith(f"{event.get('Package')} ") for k in results):
                build_failures += 1
        sys.stdout.flush()
    parents = {key.rsplit("/", 1)[0] for key in results if "/" in key.split(" ", 1)[1]}
    leaves = [action for key, action in results.items() if key not in parents]
    passed, failed, skipped = (leaves.count(a) for a in ("pass", "fail", "skip"))
    print(f"{name}: {passed} passed, {failed + build_failures} failed, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
