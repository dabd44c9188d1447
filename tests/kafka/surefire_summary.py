#!/usr/bin/env python3
"""The closing line of make test-kafka: the JUnit results Maven Surefire wrote (target/surefire-reports
of a module) as `<name>: N passed, N failed, N skipped`, the summary tools/run_suites.py counts.

    python tests/kafka/surefire_summary.py NAME MODULE_DIR

A module whose reports are missing (the build failed before the tests) counts nothing; make's
exit status says it failed.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def main(name: str, module: str) -> int:
    passed = failed = skipped = 0
    for report in sorted((Path(module) / "target" / "surefire-reports").glob("TEST-*.xml")):
        suite = ET.parse(report).getroot()
        tests, skips = int(suite.get("tests", 0)), int(suite.get("skipped", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        passed += tests - bad - skips
        failed += bad
        skipped += skips
    print(f"{name}: {passed} passed, {failed} failed, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
