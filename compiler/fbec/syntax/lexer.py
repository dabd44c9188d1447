"""Tokenizer for `.fbe` schema text (docs/schema.md section 2).

Differences from the original lexer, on purpose: block comments may contain
`*` (`/** doc */`, ` * text` lines), and unterminated strings, chars and
comments are reported where they start.
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import Diagnostics, Position

IDENT, INT, FLOAT, CHAR, STRING, PUNCT, ATTR, EOF = (
    "identifier", "integer", "float", "char", "string", "punctuation", "attribute", "end of file")

PUNCTUATION = set(",.:;+*=|!?~()[]<>{}")
ATTRIBUTES = ("[id]", "[key]", "[hidden]", "[deprecated]")


@dataclass(frozen=True)
class Comment:
    """A comment as written (`// text` or `/* text */`), kept only when asked (`keep_comments`)."""
    text: str
    position: Position     # where it starts
    end_line: int          # the line of its last character

    @property
    def block(self) -> bool:
        return self.text.startswith("/*")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str          # the token as written (for STRING/CHAR: with quotes)
    position: Position

    def describe(self) -> str:
        if self.kind == EOF:
            return "end of file"
        if self.kind in (PUNCT, ATTR):
            return f"'{self.text}'"
        return f"{self.kind} '{self.text}'"


def _is_ident_start(c: str) -> bool:
    return c.isascii() and (c.isalpha() or c == "_")


def _is_ident_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


class Lexer:
    def __init__(self, path: str, text: str, diagnostics: Diagnostics, keep_comments: bool = False) -> None:
        self.path, self.text, self.diag = path, text, diagnostics
        self.i, self.line, self.col = 0, 1, 1
        self.keep_comments = keep_comments
        self.comments: list[Comment] = []     # filled only with keep_comments
        self.unterminated = False             # a literal or comment ran to its line's or the file's end

    def _pos(self) -> Position:
        return Position(self.path, self.line, self.col)

    def _peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.text[j] if j < len(self.text) else ""

    def _advance(self, n: int = 1) -> str:
        start = self.i
        for _ in range(n):
            if self.i >= len(self.text):
                break
            if self.text[self.i] == "\n":
                self.line, self.col = self.line + 1, 1
            else:
                self.col += 1
            self.i += 1
        return self.text[start:self.i]

    def tokens(self) -> list[Token]:
        out: list[Token] = []
        while True:
            tok = self._next()
            if tok is None:
                continue
            out.append(tok)
            if tok.kind == EOF:
                return out

    def _next(self) -> Token | None:
        c = self._peek()
        if c == "":
            return Token(EOF, "", self._end_position())
        if c in " \t\r\n\b\v\f":
            self._advance()
            return None
        pos = self._pos()
        if c == "/" and self._peek(1) == "/":
            start = self.i
            while self._peek() not in ("", "\n"):
                self._advance()
            if self.keep_comments:
                self.comments.append(Comment(self.text[start:self.i].rstrip(), pos, pos.line))
            return None
        if c == "/" and self._peek(1) == "*":
            start = self.i
            self._advance(2)
            while not (self._peek() == "*" and self._peek(1) == "/"):
                if self._peek() == "":
                    self.diag.error("unterminated block comment", pos)
                    self.unterminated = True
                    return None
                self._advance()
            self._advance(2)
            if self.keep_comments:
                self.comments.append(Comment(self.text[start:self.i], pos, self.line))
            return None
        if _is_ident_start(c):
            start = self.i
            while _is_ident_char(self._peek()):
                self._advance()
            return Token(IDENT, self.text[start:self.i], pos)
        if c.isdigit() or (c in "-." and (self._peek(1).isdigit() or
                                          (c == "-" and self._peek(1) == "." and self._peek(2).isdigit()))):
            return self._number(pos)
        if c == '"':
            return self._quoted(pos, '"', STRING, "string")
        if c == "'":
            return self._quoted(pos, "'", CHAR, "char")
        if c == "[":
            for attr in ATTRIBUTES:
                if self.text.startswith(attr, self.i):
                    self._advance(len(attr))
                    return Token(ATTR, attr, pos)
        if c in PUNCTUATION:
            self._advance()
            return Token(PUNCT, c, pos)
        self._advance()
        self.diag.error(f"unexpected character {c!r}", pos)
        return None

    def _end_position(self) -> Position:
        """Where the end of file is reported: just after the last character of the last line that
        has one, so a diagnostic there can show a source line."""
        body = self.text.rstrip("\r\n")
        if not body:
            return Position(self.path, 1, 1)
        line = body.count("\n") + 1
        return Position(self.path, line, len(body) - body.rfind("\n"))

    def _number(self, pos: Position) -> Token:
        start = self.i
        if self._peek() == "-":
            self._advance()
        if self._peek() == "0" and self._peek(1) in ("x", "X"):
            self._advance(2)
            digits = self.i
            while self._peek() and self._peek() in "0123456789abcdefABCDEF":
                self._advance()
            if self.i == digits:
                self.diag.error("hexadecimal literal needs at least one digit after '0x'", pos)
            return self._end_number(Token(INT, self.text[start:self.i], pos))
        is_float = False
        while self._peek().isdigit():
            self._advance()
        if self._peek() == "." and not _is_ident_start(self._peek(1)):
            is_float = True
            self._advance()
            while self._peek().isdigit():
                self._advance()
        if self._peek() in ("e", "E") and (self._peek(1).isdigit() or
                                           (self._peek(1) in "+-" and self._peek(2).isdigit())):
            is_float = True
            self._advance(2)
            while self._peek().isdigit():
                self._advance()
        return self._end_number(Token(FLOAT if is_float else INT, self.text[start:self.i], pos))

    def _end_number(self, tok: Token) -> Token:
        if _is_ident_char(self._peek()):
            bad = self._pos()
            while _is_ident_char(self._peek()):
                self._advance()
            self.diag.error(f"invalid suffix on number '{tok.text}'", bad)
        return tok

    def _quoted(self, pos: Position, quote: str, kind: str, what: str) -> Token:
        start = self.i
        self._advance()
        while True:
            c = self._peek()
            if c in ("", "\n"):
                self.diag.error(f"unterminated {what} literal", pos)
                self.unterminated = True
                return Token(kind, self.text[start:self.i] + quote, pos)
            if c == "\\":
                self._advance(2)
                continue
            self._advance()
            if c == quote:
                return Token(kind, self.text[start:self.i], pos)


def tokenize(path: str, text: str, diagnostics: Diagnostics) -> list[Token]:
    return Lexer(path, text, diagnostics).tokens()


def tokenize_with_comments(path: str, text: str, diagnostics: Diagnostics) -> tuple[list[Token], list[Comment]]:
    """The tokens and, in source order, every comment with its position (for the formatter)."""
    lexer = Lexer(path, text, diagnostics, keep_comments=True)
    return lexer.tokens(), lexer.comments
