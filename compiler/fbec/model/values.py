"""Evaluation of literals as written in a schema: integers, chars, strings."""

from __future__ import annotations

import re
from decimal import Decimal

_SIMPLE_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"',
    "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?",
}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.DOTALL)
UUID_TEXT = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


class LiteralError(ValueError):
    pass


def unescape(body: str) -> str:
    """Interprets C-style escapes of a string or char literal body."""
    def replace(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] in "xuU":
            if int(e[1:], 16) > 0x10FFFF:
                raise LiteralError(f"escape '\\{e}' is beyond U+10FFFF, the last Unicode code point")
            return chr(int(e[1:], 16))
        if e[0].isdigit() and e[0] in "01234567" and (len(e) > 1 or e == "0"):
            return chr(int(e, 8))
        if e in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[e]
        raise LiteralError(f"unknown escape sequence '\\{e}'")
    return _ESCAPE.sub(replace, body)


def int_value(text: str) -> int:
    """Value of an INT token: decimal or 0x hex, optionally negative."""
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    value = int(digits, 0) if digits[:2].lower() == "0x" else int(digits, 10)
    return -value if negative else value


def is_hex(text: str) -> bool:
    return text.lstrip("-")[:2].lower() == "0x"


def char_value(text: str) -> int:
    """Code point of a CHAR token (`'a'`, `'\\n'`, `'\\x41'`); exactly one character."""
    chars = unescape(text[1:-1])
    if len(chars) != 1:
        raise LiteralError(f"char literal {text} must hold exactly one character")
    return ord(chars)


def string_value(text: str) -> str:
    """The text of a STRING token. A surrogate pair written as two escapes (`\\uD83D\\uDE00`) is one
    code point; a lone surrogate is refused: strings are UTF-8 on the wire, which cannot hold one."""
    value = unescape(text[1:-1]).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    lone = next((c for c in value if 0xD800 <= ord(c) <= 0xDFFF), None)
    if lone is not None:
        raise LiteralError(f"string literal {text} holds the lone surrogate U+{ord(lone):04X}, "
                           "which UTF-8 cannot encode (write a pair, or the character itself)")
    return value


def decimal_literal_problem(text: str) -> str | None:
    """Why a decimal literal is no value of the type, or None: the text rule of every runtime
    (docs/format.md 2.4: at most 64 characters, at most 28 fraction digits once trailing zeros are
    dropped, a magnitude below 2^96), which the generated code parses."""
    if len(text) > 64:
        return "longer than 64 characters"
    _, digits, exp = Decimal(text).as_tuple()
    assert isinstance(exp, int)
    n = len(digits)
    while n and digits[n - 1] == 0:
        n -= 1
        exp += 1
    if n and exp < -28:
        return "more than 28 fraction digits"
    if n and (n + max(exp, 0) > 29 or int("".join(map(str, digits[:n]))) * 10 ** max(exp, 0) >= 1 << 96):
        return "more than 96 bits"
    return None


def real_text(kind: str, text: str) -> str | None:
    """Normalises an INT or FLOAT token to a decimal literal for real-typed defaults."""
    if kind == "int":
        return str(int_value(text))
    if kind == "float":
        return text
    return None
