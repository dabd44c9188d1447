"""Tokens as docs/schema.md section 2 describes them, and the lexer's own fixes."""

from __future__ import annotations

import pytest
from fbec.model.values import char_value, int_value, string_value
from fbec.syntax.diagnostics import Diagnostics
from fbec.syntax.lexer import ATTR, CHAR, EOF, FLOAT, IDENT, INT, PUNCT, STRING, tokenize


def kinds(text):
    diag = Diagnostics()
    toks = tokenize("t.fbe", text, diag)
    assert not diag.items, diag.render()
    return [(t.kind, t.text) for t in toks if t.kind != EOF]


@pytest.mark.parametrize("text", ["/** doc */", "/* a * b */", "/*\n * text\n */", "/* x ***/", "/**/"])
def test_block_comments_may_contain_stars(text):
    assert kinds(text + " package") == [(IDENT, "package")]


@pytest.mark.parametrize("text,kind", [
    ("-128", INT), ("0x0444", INT), ("-0x7F", INT), ("1.0", FLOAT), (".5e3", FLOAT), ("-1.", FLOAT),
    ("-123.456e+123", FLOAT), ("1e5", FLOAT), ("42", INT),
])
def test_numbers(text, kind):
    assert kinds(text) == [(kind, text)]


def test_integer_values():
    assert [int_value(t) for t in ("-128", "0x0444", "-0x7F", "0")] == [-128, 0x444, -0x7F, 0]


def test_dotted_names_are_not_numbers():
    assert kinds("proto.Order") == [(IDENT, "proto"), (PUNCT, "."), (IDENT, "Order")]


def test_attributes_are_single_tokens():
    assert kinds("[key] [id] [hidden] [deprecated] [ request ]") == [
        (ATTR, "[key]"), (ATTR, "[id]"), (ATTR, "[hidden]"), (ATTR, "[deprecated]"),
        (PUNCT, "["), (IDENT, "request"), (PUNCT, "]")]


def test_strings_and_chars():
    assert kinds(r'"a\"b" '"'!' '\\n'") == [(STRING, r'"a\"b"'), (CHAR, "'!'"), (CHAR, r"'\n'")]
    assert string_value(r'"a\"b\t\x41\u0444"') == 'a"b\tA\u0444'
    # a surrogate pair written as two escapes is one code point (its UTF-8 is 4 bytes, as the character's)
    assert string_value(r'"\uD83D\uDE00"') == "\U0001F600" == string_value(r'"\U0001F600"')
    assert [char_value(c) for c in ("'!'", r"'\n'", r"'\0'", r"'\x7f'", "'\u0444'")] == [33, 10, 0, 127, 0x444]


def test_positions_count_lines_and_columns():
    diag = Diagnostics()
    toks = tokenize("t.fbe", "package p\n  struct S {}", diag)
    assert [(t.text, t.position.line, t.position.column) for t in toks[:4]] == [
        ("package", 1, 1), ("p", 1, 9), ("struct", 2, 3), ("S", 2, 10)]
