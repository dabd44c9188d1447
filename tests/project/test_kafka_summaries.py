"""The closing lines of make test-kafka's Go and Java suites (tests/kafka/go_summary.py,
tests/kafka/surefire_summary.py): what they count, read back as tools/run_suites.py reads them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import run_suites


def go_summary(*events: dict[str, str]) -> tuple[str, tuple[int, int, int]]:
    stdin = "".join(json.dumps(e) + "\n" for e in events)
    out = subprocess.run([sys.executable, str(REPO / "tests/kafka/go_summary.py"), "kafka-go"], input=stdin,
                         capture_output=True, text=True, check=True).stdout
    c = run_suites.count_log(out.splitlines(keepends=True))
    return out, (c.passed, c.failed, c.skipped)


def test_go_summary_counts_the_tests_without_subtests():
    out, counts = go_summary(
        {"Action": "output", "Package": "a/b", "Output": "=== RUN   TestA\n"},
        {"Action": "pass", "Package": "a/b", "Test": "TestA/x"},
        {"Action": "fail", "Package": "a/b", "Test": "TestA/y"},
        {"Action": "fail", "Package": "a/b", "Test": "TestA"},
        {"Action": "skip", "Package": "a/b", "Test": "TestB"},
        {"Action": "pass", "Package": "a/c", "Test": "TestA"},
        {"Action": "fail", "Package": "a/b"},
        {"Action": "pass", "Package": "a/c"})
    assert out.startswith("=== RUN   TestA\n")
    assert out.endswith("kafka-go: 2 passed, 1 failed, 1 skipped\n")
    assert counts == (2, 1, 1)


def test_go_summary_counts_a_package_that_does_not_build_as_a_failure():
    out, counts = go_summary(
        {"Action": "build-output", "ImportPath": "a/b", "Output": "a/b/x.go:1: syntax error\n"},
        {"Action": "fail", "Package": "a/b"})
    assert "syntax error" in out
    assert counts == (0, 1, 0)


def test_surefire_summary_adds_up_the_reports(tmp_path: Path):
    reports = tmp_path / "target" / "surefire-reports"
    reports.mkdir(parents=True)
    (reports / "TEST-A.xml").write_text('<testsuite tests="6" failures="1" errors="1" skipped="1"/>')
    (reports / "TEST-B.xml").write_text('<testsuite tests="2" failures="0" errors="0" skipped="0"/>')
    out = subprocess.run([sys.executable, str(REPO / "tests/kafka/surefire_summary.py"), "kafka-java",
                          str(tmp_path)], capture_output=True, text=True, check=True).stdout
    assert out == "kafka-java: 5 passed, 2 failed, 1 skipped\n"
