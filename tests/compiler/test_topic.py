"""`fbec topic` (compiler/fbec/tools/topic.py, docs/kafka.md "Compatible writers"): a topic's schema
record refuses a breaking edit with compat's report, records an appended field, keeps a final topic
to one schema, and says which recorded fingerprints a consumer reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, run_fbec

TRADE = (REPO / "schemas" / "trade.fbe").read_text(encoding="utf-8")
APPENDED = TRADE.replace("    double volume = 0.0;\n", "    double volume = 0.0;\n    double tp = 10.0;\n", 1)
REMOVED = TRADE.replace("    string symbol;\n", "", 1)
RENAMED = TRADE.replace("    string symbol;\n", "    string ticker;\n", 1)


@pytest.fixture
def schemas(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in (("v1", TRADE), ("v2", APPENDED), ("removed", REMOVED), ("renamed", RENAMED)):
        assert text != TRADE or name == "v1"
        (tmp_path / name).mkdir()
        (tmp_path / name / "trade.fbe").write_text(text, encoding="utf-8")
        paths[name] = str(tmp_path / name / "trade.fbe")
    return paths


def fingerprint_of(capsys: pytest.CaptureFixture[str], path: str) -> str:
    status, out, _ = run_fbec(capsys, "fingerprint", path)
    assert status == 0
    return out.split()[-1]


def test_the_first_add_creates_the_record_with_the_schema_files(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "accounts.json"
    status, out, _ = run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    assert status == 0, out
    assert "created (versioned, FULL_TRANSITIVE), schema 1: proto 1.0" in out
    record = json.loads(topic.read_text(encoding="utf-8"))
    assert record["package"] == "proto" and record["model"] == "versioned"
    [entry] = record["schemas"]
    assert entry["fingerprint"] == fingerprint_of(capsys, schemas["v1"])
    assert entry["files"] == [{"name": "trade.fbe", "text": TRADE}]


def test_a_breaking_edit_is_refused_with_compats_report(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "accounts.json"
    run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    before = topic.read_text(encoding="utf-8")
    for action in ("check", "add"):
        status, out, _ = run_fbec(capsys, "topic", action, str(topic), schemas["removed"])
        assert status == 1, out
        assert "INCOMPATIBLE" in out
        assert "proto.Order.symbol: field proto.Order.symbol (string, position 2) removed" in out
    assert topic.read_text(encoding="utf-8") == before


def test_an_appended_field_is_accepted_and_recorded(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "accounts.json"
    run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    status, out, _ = run_fbec(capsys, "topic", "check", str(topic), schemas["v2"])
    assert status == 0 and "is compatible with" in out
    assert len(json.loads(topic.read_text(encoding="utf-8"))["schemas"]) == 1    # check writes nothing
    status, out, _ = run_fbec(capsys, "topic", "add", str(topic), schemas["v2"])
    assert status == 0 and "schema 2: proto 1.0" in out
    # adding a recorded schema again changes nothing
    status, out, _ = run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    assert status == 0 and "is schema 1 of" in out
    assert [e["fingerprint"] for e in json.loads(topic.read_text(encoding="utf-8"))["schemas"]] == [
        fingerprint_of(capsys, schemas["v1"]), fingerprint_of(capsys, schemas["v2"])]


def test_transitive_checks_every_recorded_schema_the_plain_level_the_latest(capsys, tmp_path, schemas) -> None:
    # Order.symbol renamed (a warning: recorded without --strict), then a field appended to that:
    # safe against the latest schema, a rename (breaking with --strict) against the first
    candidate = tmp_path / "candidate.fbe"
    added = RENAMED.replace("    double volume = 0.0;\n", "    double volume = 0.0;\n    double tp = 1.0;\n", 1)
    candidate.write_text(added, encoding="utf-8")
    results = {}
    for level in ("FULL", "FULL_TRANSITIVE", "BACKWARD", "FORWARD_TRANSITIVE", "NONE"):
        topic = tmp_path / f"{level}.json"
        assert run_fbec(capsys, "topic", "add", "--compatibility", level, str(topic), schemas["v1"])[0] == 0
        assert run_fbec(capsys, "topic", "add", str(topic), schemas["renamed"])[0] == 0
        results[level] = run_fbec(capsys, "topic", "check", "--strict", str(topic), str(candidate))[0]
    assert results == {"FULL": 0, "FULL_TRANSITIVE": 1, "BACKWARD": 0, "FORWARD_TRANSITIVE": 1, "NONE": 0}
    _status, out, _ = run_fbec(capsys, "topic", "check", "--strict", str(tmp_path / "FULL_TRANSITIVE.json"),
                              str(candidate))
    assert "against proto 1.0" in out and "renamed to ticker" in out


def test_final_refuses_any_change(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "final.json"
    status, out, _ = run_fbec(capsys, "topic", "add", "--model", "final", str(topic), schemas["v1"])
    assert status == 0 and "created (final" in out
    for edit in ("v2", "renamed"):
        status, out, _ = run_fbec(capsys, "topic", "add", str(topic), schemas[edit])
        assert status == 1 and "a final topic keeps one schema" in out
    version_only = tmp_path / "v1_1.fbe"
    version_only.write_text(TRADE.replace("version 1.0", "version 1.1"), encoding="utf-8")
    status, out, _ = run_fbec(capsys, "topic", "check", str(topic), str(version_only))
    assert status == 0 and "is schema 1 of" in out      # the version is not in the fingerprint
    status, out, _ = run_fbec(capsys, "topic", "accept", str(topic), schemas["v1"])
    assert out.split() == [fingerprint_of(capsys, schemas["v1"])]


def test_accept_lists_the_recorded_writers_a_consumer_reads(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "accounts.json"
    run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    run_fbec(capsys, "topic", "add", str(topic), schemas["v2"])
    v1, v2 = fingerprint_of(capsys, schemas["v1"]), fingerprint_of(capsys, schemas["v2"])
    status, out, _ = run_fbec(capsys, "topic", "accept", str(topic), schemas["v1"])
    assert status == 0 and out.split() == [v1, v2]        # an older reader skips the appended field
    status, out, _ = run_fbec(capsys, "topic", "accept", "--json", str(topic), schemas["v2"])
    assert json.loads(out) == [v2, v1]                    # a newer reader defaults it
    status, out, _ = run_fbec(capsys, "topic", "accept", str(topic), schemas["removed"])
    assert out.split() == [fingerprint_of(capsys, schemas["removed"])]


def test_usage_errors(capsys, tmp_path, schemas) -> None:
    topic = tmp_path / "accounts.json"
    status, _, err = run_fbec(capsys, "topic", "check", str(topic), schemas["v1"])
    assert status == 2 and "does not exist (fbec topic add creates it)" in err
    run_fbec(capsys, "topic", "add", str(topic), schemas["v1"])
    status, _, err = run_fbec(capsys, "topic", "add", "--model", "final", str(topic), schemas["v1"])
    assert status == 2 and "the topic's model is versioned, not final" in err
    other = tmp_path / "other.fbe"
    other.write_text(TRADE.replace("package proto", "package other"), encoding="utf-8")
    status, out, _ = run_fbec(capsys, "topic", "check", str(topic), str(other))
    assert status == 1 and "the schema's package is other, the topic's is proto" in out
    record = json.loads(topic.read_text(encoding="utf-8"))
    record["schemas"][0]["files"][0]["text"] += "\nstruct Extra { int32 x; }\n"
    topic.write_text(json.dumps(record), encoding="utf-8")
    status, _, err = run_fbec(capsys, "topic", "check", str(topic), schemas["v2"])
    assert status == 1 and "edited by hand" in err
