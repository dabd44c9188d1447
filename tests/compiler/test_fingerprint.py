"""The schema fingerprint (fbec.model.fingerprint, `fbec fingerprint`, docs/kafka.md): it changes
with every fact of a package's wire contract and with nothing else."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import REPO, run_fbec
from fbec.model.fingerprint import canonical, fingerprint
from fbec.model.resolve import compile_reported

BASE = """\
package demo
version 1.0

enum Side : byte { buy; sell; }
flags Mode : int32 { a = 0x1; b = 0x2; }

struct Order(1)
{
    [key] int32 id;
    string symbol;
    Side side = sell;
    double price = 1.5;
}

message Account
{
    int32 uid;
    Order[] orders;
    Mode mode;
}
"""

# The same schema with comments, blank lines, another layout, another version and the
# attributes that do not reach the wire ([hidden], [deprecated]).
SAME_CONTRACT = """\
/* a block comment */
package demo
version 2.7   // the version travels in its own header

// sides
enum Side : byte
{
    buy;
    [deprecated] sell;
}
flags Mode : int32 { a = 0x1;   b = 0x2; }

[hidden]
struct Order(1) {
    [key] int32 id;     // the key
    string symbol;


    Side side = sell;
    double price = 1.5;
}

message Account { int32 uid; Order[] orders; Mode mode; }
"""

# Each edit of BASE changes a fact of the wire contract (or of the JSON form: names).
CHANGES = {
    "field retyped": ("int32 uid;", "int64 uid;"),
    "field renamed": ("int32 uid;", "int32 user;"),
    "field appended": ("Mode mode;\n}", "Mode mode;\n    bool active;\n}"),
    "fields reordered": ("string symbol;\n    Side side = sell;", "Side side = sell;\n    string symbol;"),
    "field removed": ("    string symbol;\n", ""),
    "optional": ("string symbol;", "string? symbol;"),
    "collection kind": ("Order[] orders;", "Order() orders;"),
    "array length": ("Order[] orders;", "Order[2] orders;"),
    "enum value renumbered": ("enum Side : byte { buy; sell; }", "enum Side : byte { buy = 1; sell; }"),
    "enum value added": ("enum Side : byte { buy; sell; }", "enum Side : byte { buy; sell; hold; }"),
    "enum underlying type": ("enum Side : byte", "enum Side : int16"),
    "flags value": ("b = 0x2;", "b = 0x4;"),
    "type number": ("struct Order(1)", "struct Order(7)"),
    "default": ("double price = 1.5;", "double price = 2.5;"),
    "key": ("[key] int32 id;", "int32 id;"),
    "struct renamed": ("Order", "Trade"),
    "package renamed": ("package demo", "package demo2"),
}


def _fingerprint(tmp_path: Path, text: str, name: str = "demo.fbe", package: str | None = None) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    schema = compile_reported(str(path), [])
    assert schema is not None, text
    return fingerprint(schema, package)


def test_comments_layout_version_and_hidden_attributes_do_not_change_it(tmp_path: Path) -> None:
    assert _fingerprint(tmp_path, SAME_CONTRACT, "a.fbe") == _fingerprint(tmp_path, BASE, "b.fbe")


@pytest.mark.parametrize("what", sorted(CHANGES))
def test_every_wire_fact_changes_it(tmp_path: Path, what: str) -> None:
    old, new = CHANGES[what]
    assert old in BASE
    changed = BASE.replace(old, new)
    assert _fingerprint(tmp_path, changed, "a.fbe") != _fingerprint(tmp_path, BASE, "b.fbe"), what


def test_an_imported_package_is_part_of_the_contract(tmp_path: Path) -> None:
    (tmp_path / "money.fbe").write_text("package money\nstruct Money { int64 units; }\n", encoding="utf-8")
    main = "package shop\nimport money\nstruct Price(1) { money.Money value; }\n"
    before = _fingerprint(tmp_path, main, "shop.fbe")
    (tmp_path / "money.fbe").write_text("package money\nstruct Money { int32 units; }\n", encoding="utf-8")
    assert _fingerprint(tmp_path, main, "shop.fbe") != before


def test_the_hashed_bytes_are_canonical_json(tmp_path: Path) -> None:
    path = tmp_path / "demo.fbe"
    path.write_text(BASE, encoding="utf-8")
    schema = compile_reported(str(path), [])
    assert schema is not None
    data = canonical(schema, "demo")
    doc = json.loads(data)
    assert data == json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert doc["format"] == 1 and doc["package"] == "demo" and list(doc["packages"]) == ["demo"]


def test_the_trade_model_fingerprint_is_recorded(capsys: pytest.CaptureFixture[str]) -> None:
    # Fingerprints are recorded by deployments (docs/kafka.md): a change of what is hashed changes
    # them all, and must come with FINGERPRINT_FORMAT bumped and this value updated on purpose.
    status, out, _ = run_fbec(capsys, "fingerprint", str(REPO / "schemas" / "trade.fbe"))
    assert status == 0
    assert out == "proto 1.0 628824befa3858a459701efa8e08fe647cebd2c46a88209de72df32611eac7d2\n"
    status, out, _ = run_fbec(capsys, "fingerprint", "--json", str(REPO / "schemas" / "trade.fbe"))
    assert status == 0 and json.loads(out)["packages"][0]["version"] == "1.0"


def test_a_missing_schema_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_fbec(capsys, "fingerprint", str(tmp_path / "nope.fbe"))
    assert status == 2 and "does not exist" in err


# A package's constants in a target's output: its name, then its fingerprint (docs/kafka.md).
CONSTANTS = re.compile(r'\b(?:PACKAGE|FBEPackage|FBE_PACKAGE)\s*=\s*"(\w+)"[\s\S]*?'
                       r'\b(?:FINGERPRINT|FBEFingerprint|FBE_FINGERPRINT)\s*=\s*"([0-9a-f]{64})"')


@pytest.mark.parametrize("target", ["java", "kotlin", "go", "python", "typescript", "javascript"])
def test_the_generated_code_carries_what_fbec_fingerprint_prints(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    # everything.fbe imports market: each package's code (market's generated from its own schema,
    # or with the importer's where the target writes every package) names its own fingerprint.
    schemas = REPO / "schemas" / "tests"
    status, out, _ = run_fbec(capsys, "fingerprint", f"-I{schemas}", str(schemas / "everything.fbe"))
    assert status == 0
    printed = {package: fp for package, _, fp in (line.split() for line in out.splitlines())}
    assert sorted(printed) == ["everything", "market"]
    for schema in ("market.fbe", "everything.fbe"):
        status, _, err = run_fbec(capsys, "-q", f"--{target}", f"--input={schemas / schema}", f"--import={schemas}",
                                  f"--output={tmp_path}")
        assert status == 0, err
    found: dict[str, set[str]] = {}
    for f in tmp_path.rglob("*"):
        if f.is_file():
            for package, fp in CONSTANTS.findall(f.read_text(encoding="utf-8")):
                found.setdefault(package, set()).add(fp)
    assert found == {package: {fp} for package, fp in printed.items()}
