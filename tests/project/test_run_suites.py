"""tools/run_suites.py: the closing line of `make test` adds up every runner's summary."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import run_suites


def counts(text: str) -> tuple[int, int, int]:
    c = run_suites.count_log(text.splitlines(keepends=True))
    return c.passed, c.failed, c.skipped


def test_pytest_summaries():
    assert counts("342 passed, 2 xfailed in 61.26s (0:01:01)\n") == (342, 0, 2)
    assert counts("== 3 failed, 5 passed, 1 skipped, 2 warnings, 1 error in 4.00s ==\n") == (5, 4, 1)
    assert counts("\x1b[32m1 passed, 1 xpassed in 0.10s\x1b[0m\n") == (2, 0, 0)
    assert counts("no tests ran in 0.01s\n") == (0, 0, 0)
    assert run_suites.count_log(["no tests ran in 0.01s\n", "No tests were found!!!\n"]).empty_runs == 2
    # A test's own output that merely mentions counts is no summary.
    assert counts("assert '3 passed in 1s' == x\n") == (0, 0, 0)


def test_ctest_summary_then_tests_that_did_not_run():
    log = """\
67% tests passed, 1 tests failed out of 3

Total Test time (real) =   0.02 sec

The following tests did not run:
\t  2 - skip (Skipped)
\t  3 - off (Disabled)

The following tests FAILED:
\t  4 - bad (Failed)
"""
    # ok passed, skip skipped (ctest counted it as passed), off disabled, bad failed
    assert counts(log) == (1, 1, 2)
    assert counts("100% tests passed, 0 tests failed out of 57\n") == (57, 0, 0)


def test_minitest_summary():
    assert counts("103 runs, 13340 assertions, 0 failures, 0 errors, 0 skips\n") == (103, 0, 0)
    assert counts("10 runs, 20 assertions, 2 failures, 1 errors, 3 skips\n") == (4, 3, 3)


def test_tool_summaries_and_known_conformance_failures():
    assert counts("bench: 14 passed, 0 failed, 2 skipped\n") == (14, 0, 2)
    # 3 failed cases, 1 of them unexpected: the other 2 are listed known failures
    assert counts("conformance: 900 passed, 3 failed, 4 skipped (1 unexpected) in 9.0s\n") == (900, 1, 6)
    assert counts("conformance: 900 passed, 0 failed, 0 skipped (2 unexpected) in 9.0s\n") == (900, 2, 0)
    assert counts("fuzz: 4 passed, 0 failed, 0 skipped\n") == (4, 0, 0)


def run_tool(tmp_path: Path, *args: str, ci: str = "") -> subprocess.CompletedProcess[str]:
    """tools/run_suites.py over the Makefile in tmp_path, its logs under tmp_path/logs."""
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "run_suites.py"), "--logs", str(tmp_path / "logs"),
         "--make", f"make --no-print-directory -C {tmp_path}", *args],
        check=False, capture_output=True, text=True, timeout=60, env=dict(os.environ, CI=ci))


def test_every_suite_runs_and_the_total_is_the_last_line(tmp_path: Path):
    (tmp_path / "Makefile").write_text(
        "ok:\n\t@echo '2 passed, 1 skipped in 0.1s'\n"
        "failing:\n\t@echo '1 failed, 3 passed in 0.1s'; exit 1\n"
        "broken:\n\t@echo 'cc: error'; exit 2\n"
        "empty:\n\t@echo 'nothing here'\n"
        "half:\n\t@echo '3 passed in 0.1s'; echo 'No tests were found!!!'\n"
        "later:\n\t@echo '100% tests passed, 0 tests failed out of 4'\n", encoding="utf-8")
    done = run_tool(tmp_path, "--label", "make test", "ok", "failing", "broken", "empty", "half", "later")
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    # failing: 1; broken: exit status without a counted failure; empty: ran no test
    assert lines[-1] == "make test: 12 passed, 4 failed, 1 skipped"
    assert any(line.startswith("  broken: 0 passed, 1 failed, 0 skipped") and "exit status 2" in line for line in lines)
    assert any(line.startswith("  empty: 0 passed, 1 failed, 0 skipped") and "ran no test" in line for line in lines)
    assert any(line.startswith("  half: 3 passed, 1 failed, 0 skipped") and "1 of its test runs found no test" in line
               for line in lines)
    assert (tmp_path / "logs" / "later.log").read_text(encoding="utf-8").startswith("100% tests passed")


def test_all_passing_exits_zero(tmp_path: Path):
    (tmp_path / "Makefile").write_text("ok:\n\t@echo '2 passed in 0.1s'\n", encoding="utf-8")
    done = run_tool(tmp_path, "--label", "make check", "ok")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "make check: 2 passed, 0 failed, 0 skipped"


def test_under_ci_a_skipped_test_fails_but_a_known_conformance_failure_does_not(tmp_path: Path):
    (tmp_path / "Makefile").write_text(
        "shared:\n\t@echo '5 passed, 2 skipped in 0.1s'\n"
        "conformance:\n\t@echo 'conformance: 9 passed, 3 failed, 0 skipped (0 unexpected) in 1.0s'\n", encoding="utf-8")
    user = run_tool(tmp_path, "shared", "conformance")
    assert user.returncode == 0 and user.stdout.splitlines()[-1] == "make test: 14 passed, 0 failed, 5 skipped"
    ci = run_tool(tmp_path, "shared", "conformance", ci="true")
    lines = ci.stdout.splitlines()
    assert ci.returncode == 1 and lines[-1] == "make test: 14 passed, 2 failed, 3 skipped"
    assert any(line.startswith("  shared: 5 passed, 2 failed, 0 skipped") and "2 skipped under CI=true" in line
               for line in lines)


def test_lanes_run_side_by_side_and_report_in_order(tmp_path: Path):
    # slow and quick wait for each other through files: they finish only when run at the same time
    (tmp_path / "Makefile").write_text(
        "first:\n\t@echo '1 passed in 0.1s'\n"
        "slow:\n\t@touch slow.began; for i in $$(seq 100); do [ -e quick.began ] && break; sleep 0.1; done;"
        " [ -e quick.began ] && echo '2 passed in 0.1s'\n"
        "quick:\n\t@touch quick.began; for i in $$(seq 100); do [ -e slow.began ] && break; sleep 0.1; done;"
        " [ -e slow.began ] && echo '3 passed in 0.1s'\n"
        "after:\n\t@echo '1 failed in 0.1s'; exit 1\n", encoding="utf-8")
    done = run_tool(tmp_path, "--label", "make test", "first", "--lane", "slow after", "--lane", "quick")
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert lines[-1] == "make test: 6 passed, 1 failed, 0 skipped"
    assert lines[-2].startswith("make test took ")
    assert [line.split(":")[0].strip() for line in lines[-6:-2]] == ["first", "slow", "after", "quick"]
    # a lane's suite shows its output whole, after the line that says it began
    assert lines.index("2 passed in 0.1s") > lines.index("==> slow (its output follows when it ends)")
