"""The JSON rules every reader and writer shares (docs/limits.md, "JSON"): duplicate member names,
nesting depth, and strings whose bytes are not valid UTF-8. The same cases run in C++
(tests/cpp_proto/json_test.cpp) and across languages (tests/conformance/test_json_strings.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe import jsonfmt
from fbe.dynamic import DynamicCodec
from fbe_testlib import REPO, compile_ir, generate_into, load_modules

SCHEMA = """\
package jsonlimits

struct Item { [key] int32 id; string name; }

struct Box
{
    int32 id;
    string text;
    double d;
    float f;
    bytes b;
    string<int32> names;
    Item[] items;
    string<string> tags;
}
"""


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, DynamicCodec]:
    out = tmp_path_factory.mktemp("jsonlimits")
    path = out / "jsonlimits.fbe"
    path.write_text(SCHEMA, encoding="utf-8")
    generate_into(path, out)
    return load_modules(out, ["jsonlimits"])["jsonlimits"], DynamicCodec(compile_ir(Path(path)))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, DynamicCodec]:
    """schemas/cpp-tests/recursive.fbe: Node { [key] int32 id; string label; Node[] children; }"""
    out = tmp_path_factory.mktemp("recursive")
    path = REPO / "schemas" / "cpp-tests" / "recursive.fbe"
    generate_into(path, out)
    return load_modules(out, ["recursive"])["recursive"], DynamicCodec(compile_ir(path))


def refused(box: tuple[Any, DynamicCodec], text: str | bytes, what: str) -> None:
    m, dc = box
    with pytest.raises(fbe.DecodeError, match=what):
        m.Box.from_json(text)
    with pytest.raises(fbe.DecodeError, match=what):
        dc.from_json(text, "jsonlimits.Box")


# ---------------------------------------------------------------- duplicate member names

@pytest.mark.parametrize("text", [
    '{"id":1,"id":666}',                                  # issue 13: C++ kept the first, Python the last
    '{"items":[{"id":1,"id":2}]}',                        # in a nested struct
    '{"names":{"1":"a","1":"b"}}',                        # in a map
    '{"unknown":{"x":1,"x":1}}',                          # anywhere in the document
    '{"id":1,"\\u0069d":2}',                              # the same name spelt with an escape
])
def test_duplicate_member_names_are_refused(box: tuple[Any, DynamicCodec], text: str) -> None:
    refused(box, text, "duplicate member name")


def test_map_keys_read_as_the_same_key_are_refused(box: tuple[Any, DynamicCodec]) -> None:
    """"1" and "01" are one int32 key: neither the first nor the last may win silently."""
    refused(box, '{"names":{"1":"a","01":"b"}}', "same key")


# ---------------------------------------------------------------- nesting depth

def chain(m: Any, depth: int) -> Any:
    """A Node tree `depth` structs deep (the root is depth 1)."""
    node = m.Node(id=depth)
    for i in range(depth - 1, 0, -1):
        node = m.Node(id=i, children=[node])
    return node


def chain_json(depth: int) -> str:
    return "".join(f'{{"id":{i},"children":[' for i in range(1, depth)) + f'{{"id":{depth}}}' + "]}" * (depth - 1)


def test_json_nesting_is_refused_before_parsing() -> None:
    """issue 13: '[' * 1000000 + ']' * 1000000 (2 MB) must be refused quickly, without recursion."""
    text = "[" * 1000000 + "]" * 1000000
    # CPU time of this process, not wall time: a busy machine stretches the one, not the other
    # (0.12 s here; a parse that recursed or built the nested lists would take far more)
    start = time.process_time()
    with pytest.raises(fbe.DecodeError, match="deeper than 384"):
        jsonfmt.parse(text)
    assert time.process_time() - start < 2.0
    jsonfmt.parse("[" * 384 + "]" * 384)
    with pytest.raises(fbe.DecodeError, match="deeper than 384"):
        jsonfmt.parse("[" * 385 + "]" * 385)
    # brackets inside strings do not count
    assert jsonfmt.parse('["' + "[" * 1000 + '"]') == ["[" * 1000]


def test_from_json_refuses_what_the_binary_readers_refuse(tree: tuple[Any, DynamicCodec]) -> None:
    m, dc = tree
    ok = chain(m, fbe.MAX_DEPTH)
    assert m.Node.from_fbe(ok.to_fbe()).fbe_equal(ok)
    assert m.Node.from_json(chain_json(fbe.MAX_DEPTH)).fbe_equal(ok)
    dc.from_json(chain_json(fbe.MAX_DEPTH), "recursive.Node")
    for depth in (fbe.MAX_DEPTH + 1, 150, 20000):
        with pytest.raises(fbe.DecodeError, match="deeper"):
            m.Node.from_json(chain_json(depth))
        with pytest.raises(fbe.DecodeError, match="deeper"):
            dc.from_json(chain_json(depth), "recursive.Node")
    # the reader's own limit (docs/limits.md, configuration per reader) is the one that counts
    node, depth = m.Node.from_json(chain_json(150), limits=fbe.Limits(max_depth=150)), 1
    while node.children:
        node, depth = node.children[0], depth + 1
    assert depth == node.id == 150


def test_writers_refuse_what_no_reader_reads(tree: tuple[Any, DynamicCodec]) -> None:
    m, dc = tree
    ok = chain(m, fbe.MAX_DEPTH)
    assert m.Node.from_json(ok.to_json()).fbe_equal(ok)
    assert m.Node.from_final(ok.to_final()).fbe_equal(ok)
    deep = chain(m, fbe.MAX_DEPTH + 1)
    for write in (deep.to_fbe, deep.to_final, deep.to_json, lambda: m.NodeModel().serialize(deep),
                  lambda: m.NodeFinalModel().serialize(deep), lambda: m.Sender().send(deep)):
        with pytest.raises(fbe.EncodeError, match="Node: structs nested deeper than 128"):
            write()
    described = dc.decode(ok.to_fbe(), "recursive.Node")[0]
    described = {"@type": "recursive.Node", "id": 0, "label": "", "children": [described]}
    with pytest.raises(fbe.EncodeError, match="deeper"):
        dc.to_json(described, "recursive.Node")


# ---------------------------------------------------------------- strings that are not valid UTF-8

BYTES = [b"\xff", b"a\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"caf\xc3\xa9 \x80\xfe", b"\xf4\x90\x80\x80"]


@pytest.mark.parametrize("raw", BYTES)
def test_invalid_bytes_are_written_as_udcxy_escapes_and_read_back(box: tuple[Any, DynamicCodec], raw: bytes) -> None:
    m, dc = box
    text = raw.decode("utf-8", "surrogateescape")       # as the binary readers give it
    value = m.Box(text=text, tags={text: text})
    json_text = value.to_json()
    json_text.encode("utf-8")                            # valid UTF-8, no raw surrogate
    expected = "".join(f"\\udc{b:02x}" if 0xDC80 <= ord(c) <= 0xDCFF and (b := ord(c) - 0xDC00) else c for c in text)
    assert f'"text":"{expected}"' in json_text
    back = m.Box.from_json(json_text.encode("utf-8"))
    assert back.text.encode("utf-8", "surrogateescape") == raw
    assert m.Box.from_fbe(back.to_fbe()).fbe_equal(value)
    d = dc.from_json(json_text, "jsonlimits.Box")
    assert d["text"] == text and dc.to_json(d, "jsonlimits.Box") == json_text


def test_the_escapes_of_valid_utf8_bytes_read_as_the_character(box: tuple[Any, DynamicCodec]) -> None:
    m, _ = box
    assert m.Box.from_json('{"text":"\\udcc3\\udca9"}').text == "é"   # the bytes C3 A9


@pytest.mark.parametrize("text", ['"\\ud800"', '"\\udc41"', '"\\udfff"', '"\\udbff x"', '"\\ud800\\u0041"'])
def test_other_lone_surrogate_escapes_are_refused(box: tuple[Any, DynamicCodec], text: str) -> None:
    refused(box, '{"text":' + text + "}", "surrogate")


@pytest.mark.parametrize("raw", [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xe2\x82"])
def test_documents_that_are_not_valid_utf8_are_refused(box: tuple[Any, DynamicCodec], raw: bytes) -> None:
    refused(box, b'{"text":"' + raw + b'"}', "not valid UTF-8")
    refused(box, ('{"text":"' + raw.decode("utf-8", "surrogateescape") + '"}'), "not valid UTF-8")


@pytest.mark.parametrize("text", [b"\xef\xbb\xbf{}", "\ufeff{}", b'{\x00"\x00}\x00', b"\xff\xfe{\x00}\x00"])
def test_only_utf8_without_a_byte_order_mark_is_json(box: tuple[Any, DynamicCodec], text: str | bytes) -> None:
    """docs/limits.md 7: json.detect_encoding took UTF-16 and skipped a UTF-8 byte order mark."""
    refused(box, text, "byte order mark|not valid UTF-8|invalid JSON")


def test_minus_zero_is_negative_zero_in_floats_and_zero_in_integers(box: tuple[Any, DynamicCodec]) -> None:
    """docs/limits.md 7: json reads -0 as the int 0, which lost the sign."""
    m, dc = box
    for read in (m.Box.from_json('{"id":-0,"d":-0,"f":-0}'), dc.from_json('{"id":-0,"d":-0,"f":-0}', "jsonlimits.Box")):
        d, f, i = (read.d, read.f, read.id) if not isinstance(read, dict) else (read["d"], read["f"], read["id"])
        assert str(d) == str(f) == "-0.0" and i == 0 and type(i) is int
    assert '"id":0,"text":"","d":-0.0,"f":-0.0,' in m.Box.from_json('{"id":-0,"d":-0,"f":-0}').to_json()
    assert str(m.Box.from_json('{"d":-0e0}').d) == "-0.0" and str(m.Box.from_json('{"d":0}').d) == "0.0"


@pytest.mark.parametrize("text", ["A", "QQ", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\\n==", "QQ==QQ==", "-_8=", "====",
                                  "Q===", "QQ==@", "@@@@"])
def test_bytes_are_strict_base64(box: tuple[Any, DynamicCodec], text: str) -> None:
    """docs/limits.md 7: standard Base64 with padding and nothing else; the original reads up to the first
    character outside the alphabet."""
    refused(box, '{"b":"' + text + '"}', "invalid base64")


def test_each_byte_string_has_one_base64_text(box: tuple[Any, DynamicCodec]) -> None:
    m, dc = box
    for raw in (b"", b"A", b"AB", b"ABC", b"\xfb\xff\xbf", bytes(range(256))):
        text = m.Box(b=raw).to_json()
        assert m.Box.from_json(text).b == raw
        assert bytes(dc.from_json(text, "jsonlimits.Box")["b"]) == raw


def test_surrogate_pairs_are_characters(box: tuple[Any, DynamicCodec]) -> None:
    m, _ = box
    assert m.Box.from_json('{"text":"\\ud83d\\ude00"}').text == "\U0001F600"
    assert m.Box(text="\U0001F600").to_json() == \
        '{"id":0,"text":"\U0001F600","d":0.0,"f":0.0,"b":"","names":{},"items":[],"tags":{}}'


def test_strings_that_hold_no_bytes_cannot_be_written(box: tuple[Any, DynamicCodec]) -> None:
    """U+D800 (or U+DC41) stands for no byte: the binary writers refuse it, so does JSON."""
    m, _ = box
    for bad in ("\ud800", "x\udc41"):
        with pytest.raises(fbe.EncodeError):
            m.Box(text=bad).to_fbe()
        with pytest.raises(fbe.EncodeError, match="surrogate"):
            m.Box(text=bad).to_json()


# ---------------------------------------------------------------- errors name the member path (issue 14 item 4)

@pytest.mark.parametrize("text, message", [
    ('{"children":[{"id":2},{"id":3,"children":[{"label":7}]}]}',
     "JSON string expected, got int (recursive.Node.children[1].children[0].label)"),
    ('{"id":"1"}', "JSON integer expected, got str (recursive.Node.id)"),
    ('{"children":[5]}', "JSON object expected, got int (recursive.Node.children)"),
    ('{"children":[{"id":1,"id":2}]}', "duplicate member name 'id' in a JSON object"),
])
def test_decode_errors_name_the_member_path(tree: tuple[Any, DynamicCodec], text: str, message: str) -> None:
    m, _ = tree
    with pytest.raises(fbe.DecodeError) as info:
        m.Node.from_json(text)
    assert str(info.value) == message
