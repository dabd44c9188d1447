"""Strings whose bytes are not valid UTF-8, through every testee's JSON (docs/limits.md, "JSON").

Every language writes the same JSON text for them (each byte outside a valid UTF-8 sequence as
the escape \\udcXY), and every language reads every language's text back to the same bytes. A
document with other lone surrogate escapes, raw invalid UTF-8 or a duplicate member name is
refused by all.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "conformance"))
sys.path.insert(0, str(REPO / "tests" / "python"))

import runner
from fbe_testlib import generate_into, load_modules

# the bytes of a string, and how every writer escapes them in JSON
CASES = [
    (b"\xff", "\\udcff"),
    (b"a\xc3", "a\\udcc3"),
    (b"\xc0\xaf", "\\udcc0\\udcaf"),                      # overlong "/"
    (b"\xed\xa0\x80", "\\udced\\udca0\\udc80"),           # an encoded surrogate
    ("café ".encode() + b"\x80\xfe", "café \\udc80\\udcfe"),
    (b"\xf4\x90\x80\x80", "\\udcf4\\udc90\\udc80\\udc80"),  # above U+10FFFF
    ("plain é €".encode(), "plain é €"),
]


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("everything_strings")
    generate_into(REPO / "schemas" / "tests" / "everything.fbe", out)
    return load_modules(out, ["market", "everything"])["everything"]


def ask(testee: runner.Testee, fmt_in: str, payload: Any, fmt_out: str) -> dict[str, Any]:
    return testee.ask({"package": "everything", "type": "Everything", "input": {"format": fmt_in, "payload": payload},
                       "output": fmt_out})


@pytest.mark.parametrize("raw, escaped", CASES)
def test_every_language_writes_the_same_escapes_and_reads_back_the_bytes(testees, everything, raw, escaped) -> None:
    text = raw.decode("utf-8", "surrogateescape")
    value = everything.Everything(f17=text, f43={7: text}, f44={text: None})
    binary = base64.b64encode(value.to_fbe()).decode("ascii")
    answers = {name: ask(t, "versioned", binary, "json") for name, t in testees.items()}
    for name, answer in answers.items():
        assert "result" in answer, f"{name}: {answer}"
        assert f'"f17":"{escaped}"' in answer["result"], name
        assert f'"f43":{{"7":"{escaped}"}}' in answer["result"], name
        assert f'"f44":{{"{escaped}":null}}' in answer["result"], name
    assert len({a["result"] for a in answers.values()}) == 1, "languages write different JSON"
    json_text = next(iter(answers.values()))["result"]
    for name in answers:
        back = ask(testees[name], "json", json_text, "versioned")
        assert "result" in back, f"{name}: {back}"
        decoded = everything.Everything.from_fbe(base64.b64decode(back["result"]))
        assert decoded.f17.encode("utf-8", "surrogateescape") == raw, name
        assert [v.encode("utf-8", "surrogateescape") for v in decoded.f43.values()] == [raw], name
        assert [k.encode("utf-8", "surrogateescape") for k in decoded.f44] == [raw], name


@pytest.mark.parametrize("member", [
    '"f17":"\\ud800"', '"f17":"\\udc41"', '"f17":"\\udfff"',   # lone surrogates that are no byte
    '"f1":true,"f1":false',                                   # a duplicate member name
])
def test_every_language_refuses_the_same_documents(testees, member) -> None:
    for name, t in testees.items():
        answer = ask(t, "json", "{" + member + "}", "versioned")
        assert "parse_error" in answer, f"{name} accepted {{{member}}}: {answer}"
