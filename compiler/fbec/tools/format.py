"""`fbec format`: rewrite schemas in one canonical layout, keeping every comment.

    fbec format [--check] [--diff] [--stdout] FILE|DIR...

The layout (the one of the original's bundled schemas):

* header lines (`domain`, `package ... offset N`, `version`, `import`) one per
  line, blank lines between them kept (at most one); one blank line before
  the first declaration and between declarations;
* `[request]`, `[response(...)]` and `[reject(...)]` on lines of their own,
  then `[hidden] [deprecated] struct Name(+10) : Base`, the opening brace on
  the next line, one field or value per line indented by four spaces, the
  closing brace alone;
* one space around `:`, `=` and `|`, none inside a type (`double?<string>`),
  `, ` between reject names; literals exactly as written;
* comments stay where they are: a comment after code on the same line stays
  there (one space before it), other comments get the indentation of what
  follows; the text of a comment is never changed. Blank lines inside a
  body are kept (at most one).

Formatting is idempotent, and the formatted schema compiles to the same IR.
Exit status: 0 done (with --check: already formatted), 1 --check found files
to reformat or a file does not parse (it is left untouched), 2 a file that
cannot be read.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

from ..syntax.diagnostics import Diagnostics
from ..syntax.lexer import ATTR, EOF, IDENT, PUNCT, Comment, Token, tokenize_with_comments
from ..syntax.parser import parse

INDENT = "    "
HEADER = ("domain", "package", "version", "import")


class FormatError(Exception):
    pass


def _key(pos: object) -> tuple[int, int]:
    return (pos.line, pos.column)  # type: ignore[attr-defined]


class Formatter:
    def __init__(self, tokens: list[Token], comments: list[Comment]) -> None:
        self.t = tokens
        self.k = 0
        self.comments = comments
        self.c = 0
        self.out: list[str] = []
        self.depth = 0
        self.last_line = 0          # source line of the last thing emitted (token or comment end)
        self.fresh_body = False     # just opened a brace: no blank line before the first item

    # ------------------------------------------------------------ tokens

    @property
    def tok(self) -> Token:
        return self.t[self.k]

    def _is(self, text: str, off: int = 0) -> bool:
        t = self.t[min(self.k + off, len(self.t) - 1)]
        return t.kind in (PUNCT, IDENT, ATTR) and t.text == text

    def _take(self) -> Token:
        t = self.t[self.k]
        if t.kind == EOF:
            raise FormatError(f"unexpected end of file at {t.position}")
        self.k += 1
        return t

    def _take_text(self, text: str) -> Token:
        if not self._is(text):
            raise FormatError(f"expected '{text}' at {self.tok.position}")
        return self._take()

    # ------------------------------------------------------------ output

    def _blank(self) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")

    def _leading(self, force_blank: bool = False) -> None:
        """Comments before the next token, each on its own line."""
        nxt = _key(self.tok.position)
        first = True
        while self.c < len(self.comments) and _key(self.comments[self.c].position) < nxt:
            cm = self.comments[self.c]
            self.c += 1
            if first and force_blank or cm.position.line - self.last_line > 1 and not self.fresh_body:
                self._blank()
            first = False
            self.fresh_body = False
            self.out.append(INDENT * self.depth + cm.text)
            self.last_line = cm.end_line
        if first and force_blank:
            self._blank()

    def _line(self, text: str, first: Token, last: Token) -> None:
        """One output line for the tokens first..last, with the comments that trail it."""
        if first.position.line - self.last_line > 1 and not self.fresh_body and self.out and self.out[-1] != "":
            self._blank()
        self.fresh_body = False
        line = INDENT * self.depth + text
        nxt = _key(self.tok.position)
        end_line = last.position.line
        while self.c < len(self.comments):
            cm = self.comments[self.c]
            if _key(cm.position) >= nxt or cm.position.line > end_line:
                break
            self.c += 1
            line += " " + cm.text
            end_line = max(end_line, cm.end_line)
        self.out.append(line)
        self.last_line = end_line

    # ------------------------------------------------------------ pieces

    def _dotted(self) -> str:
        parts = [self._take().text]
        while self._is(".") and self.t[self.k + 1].kind == IDENT:
            self._take()
            parts.append(self._take().text)
        return ".".join(parts)

    def _value(self) -> str:
        """`atom { '|' name }` with one space around `|`."""
        t = self.tok
        atoms = [self._dotted() if t.kind == IDENT else self._take().text]
        while self._is("|"):
            self._take()
            atoms.append(self._dotted())
        return " | ".join(atoms)

    def _type(self) -> str:
        text = self._dotted()
        while self.tok.kind == PUNCT and self.tok.text in "?~!":
            text += self._take().text
        if self._is("["):
            text += self._take().text
            while not self._is("]"):
                text += self._take().text
            text += self._take().text
        elif self._is("(") and self._is(")", 1):
            text += self._take().text + self._take().text
        elif self._is("<") or self._is("{"):
            close = ">" if self._is("<") else "}"
            text += self._take().text + self._dotted() + self._take_text(close).text
        return text

    # ------------------------------------------------------------ file

    def run(self) -> str:
        seen_header = False
        while self.tok.kind == IDENT and self.tok.text in HEADER and not self._is(".", 1):
            self._leading()
            first = self.tok
            word = self._take().text
            if word == "domain" or word == "import":
                text = f"{word} {self._dotted()}"
            elif word == "package":
                text = f"package {self._take().text}"
                if self._is("offset"):
                    self._take()
                    text += f" offset {self._take().text}"
            else:
                text = f"version {self._take().text}"
            self._line(text, first, self.t[self.k - 1])
            seen_header = True
        while self.tok.kind != EOF:
            self._leading(force_blank=seen_header or bool(self.out))
            self._declaration()
            seen_header = True
        self._leading(force_blank=False)
        while self.out and self.out[-1] == "":
            self.out.pop()
        return "\n".join(self.out) + "\n"

    def _declaration(self) -> None:
        if self._is("[") and self._is("request", 1):
            first = self.tok
            self._take()
            self._take()
            self._take_text("]")
            self._line("[request]", first, self.t[self.k - 1])
            while self._is("[") and self.t[self.k + 1].text in ("response", "reject"):
                self._leading()
                first = self.tok
                self._take()
                which = self._take().text
                self._take_text("(")
                names = []
                while True:
                    star = "*" if self._is("*") else ""
                    if star:
                        self._take()
                    names.append(star + self._dotted())
                    if not self._is(","):
                        break
                    self._take()
                self._take_text(")")
                self._take_text("]")
                self._line(f"[{which}({', '.join(names)})]", first, self.t[self.k - 1])
            self._leading()
        first = self.tok
        words: list[str] = []
        while self.tok.kind == ATTR:
            words.append(self._take().text)
        keyword = self._take().text
        if keyword not in ("enum", "flags", "struct", "message"):
            raise FormatError(f"expected a declaration at {first.position}")
        head = f"{keyword} {self._take().text}"
        if self._is("("):
            inner = ""
            self._take()
            while not self._is(")"):
                inner += self._take().text
            self._take()
            head += f"({inner})"
        if self._is(":"):
            self._take()
            head += " : " + self._dotted()
        self._line(" ".join(words + [head]), first, self.t[self.k - 1])
        self._leading()
        brace = self._take_text("{")
        self._line("{", brace, brace)
        self.depth += 1
        self.fresh_body = True
        while not self._is("}"):
            self._leading()
            if self._is("}"):
                break
            self._item(keyword in ("enum", "flags"))
        self._leading()                  # comments after the last item, at the body's indentation
        self.fresh_body = False
        self.depth -= 1
        close = self._take_text("}")
        self.last_line = close.position.line - 1    # never a blank line before '}'
        self._line("}", close, close)

    def _item(self, enum_value: bool) -> None:
        first = self.tok
        words: list[str] = []
        while self.tok.kind == ATTR and self.tok.text in ("[hidden]", "[deprecated]", "[key]"):
            words.append(self._take().text)
        if enum_value:
            words.append(self._take().text)
        else:
            words.append(self._type())
            words.append(self._take().text)       # the name or [id]
        text = " ".join(words)
        if self._is("="):
            self._take()
            text += " = " + self._value()
        self._take_text(";")
        self._line(text + ";", first, self.t[self.k - 1])


def format_text(text: str, path: str = "<schema>") -> str:
    """The canonical layout of a schema; raises FormatError when it does not parse."""
    diag = Diagnostics()
    parse(path, text, diag)
    if diag.has_errors:
        raise FormatError(diag.render())
    tokens, comments = tokenize_with_comments(path, text, Diagnostics())
    return Formatter(tokens, comments).run()


# ---------------------------------------------------------------- command line

def _files(paths: list[str]) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(d, f) for d, _, names in os.walk(p) for f in names if f.endswith(".fbe"))
        else:
            out.append(p)
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fbec format", description="Rewrite .fbe schemas in the canonical layout, keeping comments.",
        epilog="Example: fbec format --check schemas/. Exit status: 0 done (with --check: nothing to change), "
               "1 files to reformat (--check) or a file that does not parse, 2 a file that cannot be read.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="schema files or folders (all *.fbe inside)")
    p.add_argument("--check", action="store_true",
                   help="change nothing; exit 1 and list the files that are not formatted (for CI)")
    p.add_argument("--diff", action="store_true", help="with --check: also print a unified diff")
    p.add_argument("--stdout", action="store_true", help="print the formatted text instead of rewriting files")
    return p


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in _files(args.paths):
        try:
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print(f"fbec format: error: cannot read '{path}': {e}", file=sys.stderr)
            status = 2
            continue
        try:
            new = format_text(text.replace("\r\n", "\n"), path)
        except FormatError as e:
            print(f"{e}\nfbec format: error: '{path}' does not parse; left unchanged", file=sys.stderr)
            status = 1
            continue
        if args.stdout:
            sys.stdout.write(new)
        elif args.check:
            if new != text:
                print(f"would reformat {path}")
                if args.diff:
                    sys.stdout.writelines(difflib.unified_diff(
                        text.splitlines(True), new.splitlines(True), path, path + " (formatted)"))
                status = max(status, 1)
        elif new != text:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(new)
            print(f"formatted {path}")
    return status

