"""Recursive-descent parser for the grammar of docs/schema.md section 3.

A syntax error names what was expected and what was found. The parser then
skips to the next declaration and goes on, so one run reports every
independent error.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from . import ast
from .diagnostics import Diagnostics, Position
from .lexer import ATTR, CHAR, EOF, FLOAT, IDENT, INT, PUNCT, STRING, Lexer, Token

BASE_TYPES = frozenset((
    "bool", "byte", "bytes", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
    "uint32", "int64", "uint64", "float", "double", "decimal", "string", "timestamp", "uuid"))
RESERVED = frozenset(("enum", "flags", "struct", "message", "base",
                      "true", "false", "null", "epoch", "utc", "uuid0", "uuid1", "uuid4")) | BASE_TYPES
VALUE_KEYWORDS = frozenset(("true", "false", "null", "epoch", "utc", "uuid0", "uuid1", "uuid4"))
DECLARATION_START = frozenset(("enum", "flags", "struct", "message"))


class _SyntaxError(Exception):
    pass


def _alternatives(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


class Parser:
    def __init__(self, path: str, text: str, diagnostics: Diagnostics) -> None:
        self.path, self.diag = path, diagnostics
        lexer = Lexer(path, text, diagnostics)
        self.toks: list[Token] = lexer.tokens()
        # After an unterminated literal or comment the rest of the text is not what was meant:
        # what is missing at the end of file is a consequence, not another error.
        self.quiet_at_end = lexer.unterminated
        self.k = 0

    # ------------------------------------------------------------ token helpers

    @property
    def tok(self) -> Token:
        return self.toks[self.k]

    def _look(self, n: int = 1) -> Token:
        return self.toks[min(self.k + n, len(self.toks) - 1)]

    def _next(self) -> Token:
        t = self.tok
        if t.kind != EOF:
            self.k += 1
        return t

    def _is(self, text: str, tok: Token | None = None) -> bool:
        t = tok or self.tok
        return t.kind in (PUNCT, IDENT, ATTR) and t.text == text

    def _accept(self, text: str) -> Token | None:
        if self._is(text):
            return self._next()
        return None

    def _fail(self, expected: Sequence[str], context: str = "") -> _SyntaxError:
        where = f" {context}" if context else ""
        if self.tok.kind == EOF and self.quiet_at_end:
            return _SyntaxError()
        hint = ""
        if self.tok.kind == IDENT:      # a misspelled keyword: `strukt` -> did you mean 'struct'?
            words = [e.strip("'") for e in expected if e.startswith("'") and e[1:-1].isidentifier()]
            close = difflib.get_close_matches(self.tok.text, words, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
        self.diag.error(f"expected {_alternatives(list(expected))}{where}, found {self.tok.describe()}{hint}",
                        self.tok.position)
        return _SyntaxError()

    def _expect(self, text: str, context: str = "") -> Token:
        if self._is(text):
            return self._next()
        raise self._fail([f"'{text}'"], context)

    def _name(self, what: str, context: str = "") -> ast.Name:
        t = self.tok
        if t.kind == IDENT and t.text not in RESERVED:
            self._next()
            return ast.Name(t.text, t.position)
        if t.kind == IDENT:
            self.diag.error(f"'{t.text}' is a reserved word and cannot be used as {what}", t.position)
            raise _SyntaxError()
        raise self._fail([what], context)

    def _type_name(self, what: str, context: str = "") -> ast.Name:
        first = self._name(what, context)
        parts = [first.text]
        while self._is(".") and self._look().kind == IDENT:
            self._next()
            parts.append(self._name("a name after '.'").text)
        return ast.Name(".".join(parts), first.position)

    def _literal(self, kinds: Sequence[str], what: str, context: str = "") -> ast.Literal:
        t = self.tok
        if t.kind in kinds:
            self._next()
            return ast.Literal(t.kind, t.text, t.position)
        raise self._fail([what], context)

    def _sync_declaration(self) -> None:
        """Skips to the start of the next top-level declaration."""
        depth = 0
        while self.tok.kind != EOF:
            t = self.tok
            if depth == 0 and t.kind == IDENT and t.text in DECLARATION_START and self.k > 0:
                prev = self.toks[self.k - 1]
                if prev.kind != IDENT:
                    return
            if depth == 0 and t.kind == ATTR and t.text in ("[hidden]", "[deprecated]"):
                return
            if t.text == "{" and t.kind == PUNCT:
                depth += 1
            elif t.text == "}" and t.kind == PUNCT:
                depth -= 1
                if depth <= 0:
                    self._next()
                    return
            self._next()

    # ------------------------------------------------------------ file

    def parse(self) -> ast.SchemaFile:
        out = ast.SchemaFile(self.path)
        try:
            self._header(out)
        except _SyntaxError:
            self._sync_declaration()
        while self.tok.kind != EOF:
            start = self.k
            try:
                self._statement(out)
            except _SyntaxError:
                if self.k == start:
                    self._next()
                self._sync_declaration()
        return out

    def _header(self, out: ast.SchemaFile) -> None:
        if self._accept("domain"):
            out.domain = self._type_name("a domain name", "after 'domain'")
        if not self._is("package"):
            raise self._fail(["'package'"] if out.domain else ["'domain'", "'package'"],
                             "at the start of the schema")
        self._next()
        out.package = self._name("a package name", "after 'package'")
        if self._accept("offset"):
            out.offset = self._literal([INT], "an integer offset", "after 'offset'")
        if self._accept("version"):
            out.version = self._literal([FLOAT], "a version 'major.minor'", "after 'version'")
        while self._is("import"):
            self._next()
            out.imports.append(self._name("a package name", "after 'import'"))

    def _attributes(self) -> ast.Attributes:
        hidden = deprecated = False
        while self.tok.kind == ATTR and self.tok.text in ("[hidden]", "[deprecated]"):
            if self._next().text == "[hidden]":
                hidden = True
            else:
                deprecated = True
        return ast.Attributes(hidden, deprecated)

    def _statement(self, out: ast.SchemaFile) -> None:
        if self._is("[") and self._is("request", self._look()):
            out.structs.append(self._request())
            return
        if self._is("import") or self._is("package") or self._is("domain") or self._is("version"):
            self.diag.error(f"'{self.tok.text}' must come before the first declaration", self.tok.position)
            raise _SyntaxError()
        position = self.tok.position
        attrs = self._attributes()
        if self._is("enum") or self._is("flags"):
            out.enums.append(self._enum(attrs, position))
        elif self._is("struct") or self._is("message"):
            out.structs.append(self._struct(attrs, position))
        else:
            raise self._fail(["'enum'", "'flags'", "'struct'", "'message'", "'[request]'"], "for a declaration")

    # ------------------------------------------------------------ enum / flags

    def _enum(self, attrs: ast.Attributes, position: Position) -> ast.EnumDecl:
        kind = self._next().text
        name = self._name(f"a {kind} name", f"after '{kind}'")
        base = None
        if self._accept(":"):
            t = self.tok
            if t.kind != IDENT:
                raise self._fail(["an integer type"], f"after ':' in {kind} '{name.text}'")
            self._next()
            base = ast.Name(t.text, t.position)
        self._expect("{", f"to open {kind} '{name.text}'")
        values: list[ast.EnumValueDecl] = []
        while not self._is("}"):
            if self.tok.kind == EOF:
                raise self._fail(["'}'"], f"to close {kind} '{name.text}'")
            vattrs = self._attributes()
            vname = self._name(f"a {kind} value name", f"in {kind} '{name.text}'")
            value = None
            if self._accept("="):
                value = self._value(f"for {kind} value '{vname.text}'")
            elif self.tok.kind not in (PUNCT,) or self.tok.text != ";":
                raise self._fail(["'='", "';'"], f"after {kind} value '{vname.text}'")
            self._expect(";", f"after {kind} value '{vname.text}'")
            values.append(ast.EnumValueDecl(vname, value, vattrs))
        self._next()
        return ast.EnumDecl(kind, name, base, tuple(values), attrs, position)

    def _value(self, context: str) -> ast.ValueExpr:
        position = self.tok.position
        t = self.tok
        if t.kind in (INT, FLOAT, CHAR, STRING):
            self._next()
            atoms = [ast.Literal({INT: "int", FLOAT: "float", CHAR: "char", STRING: "string"}[t.kind],
                                 t.text, t.position)]
        elif t.kind == IDENT and t.text in VALUE_KEYWORDS:
            self._next()
            atoms = [ast.Literal("name", t.text, t.position)]
        elif t.kind == IDENT:
            n = self._type_name("a value", context)
            atoms = [ast.Literal("name", n.text, n.position)]
        else:
            raise self._fail(["a value"], context)
        while self._accept("|"):
            if self.tok.kind == IDENT and self.tok.text not in RESERVED:
                n = self._type_name("a name", "after '|'")
                atoms.append(ast.Literal("name", n.text, n.position))
            else:
                raise self._fail(["a name"], "after '|'")
        return ast.ValueExpr(tuple(atoms), position)

    # ------------------------------------------------------------ struct / message

    def _request(self) -> ast.StructDecl:
        position = self.tok.position
        self._next()                                         # [
        self._next()                                         # request
        self._expect("]", "after '[request'")
        response: ast.Name | None = None
        rejects: list[ast.RejectDecl] = []
        while self._is("[") and self._look().kind == IDENT and self._look().text in ("response", "reject"):
            self._next()
            which = self._next().text
            self._expect("(", f"after '[{which}'")
            if which == "response":
                if response is not None:
                    self.diag.error("duplicate [response(...)] attribute", self.tok.position)
                response = self._type_name("a message type", "in [response(...)]")
            else:
                first = True
                while True:
                    star = bool(self._accept("*")) if first else False
                    rejects.append(ast.RejectDecl(self._type_name("a message type", "in [reject(...)]"), star))
                    first = False
                    if not self._accept(","):
                        break
            self._expect(")", f"to close [{which}(...)]")
            self._expect("]", f"after [{which}(...)")
        attrs = self._attributes()
        if not (self._is("struct") or self._is("message")):
            raise self._fail(["'struct'", "'message'"], "after [request]")
        decl = self._struct(attrs, position)
        return ast.StructDecl(decl.message, decl.name, decl.numbering, decl.base, decl.fields, decl.attributes,
                              decl.position, True, response, tuple(rejects))

    def _struct(self, attrs: ast.Attributes, position: Position) -> ast.StructDecl:
        keyword = self._next().text
        name = self._name(f"a {keyword} name", f"after '{keyword}'")
        numbering: tuple[str, ast.Literal | None] | None = None
        if self._accept("("):
            if self._accept("+"):
                numbering = ("shift", self._literal([INT], "an integer", "after '(+'"))
            elif self._is("base"):
                self._next()
                numbering = ("base", None)
            else:
                numbering = ("fixed", self._literal([INT], "a type number, '+N' or 'base'", "after '('"))
            self._expect(")", "to close the type number")
        base = None
        if self._accept(":"):
            base = self._type_name("a base struct name", "after ':'")
        if numbering is not None and numbering[0] == "base" and base is None:
            self.diag.error(f"'(base)' needs a base struct: {keyword} {name.text}(base) : Base", name.position)
        self._expect("{", f"to open {keyword} '{name.text}'")
        fields: list[ast.FieldDecl] = []
        while not self._is("}"):
            if self.tok.kind == EOF:
                raise self._fail(["'}'"], f"to close {keyword} '{name.text}'")
            fields.append(self._field(name.text))
        self._next()
        return ast.StructDecl(keyword == "message", name, numbering, base, tuple(fields), attrs, position)

    def _field(self, owner: str) -> ast.FieldDecl:
        position = self.tok.position
        attrs = self._attributes()
        key = False
        if self.tok.kind == ATTR and self.tok.text == "[key]":
            self._next()
            key = True
        ftype = self._field_type(owner)
        is_id = False
        if self.tok.kind == ATTR and self.tok.text == "[id]":
            t = self._next()
            name = ast.Name("id", t.position)
            is_id = True
            if key:
                self.diag.error("[key] and [id] cannot be combined ([id] is a key already)", t.position)
        elif self.tok.kind == ATTR and self.tok.text == "[key]":
            self.diag.error("[key] must come before the field type", self.tok.position)
            raise _SyntaxError()
        else:
            name = self._name("a field name", f"in struct '{owner}'")
        default = None
        if self._accept("="):
            default = self._value(f"for field '{name.text}'")
        elif not self._is(";"):
            raise self._fail(["'='", "';'"], f"after field '{name.text}'")
        self._expect(";", f"after field '{name.text}'")
        return ast.FieldDecl(name, ftype, key, is_id, default, attrs, position)

    def _element_type(self, owner: str) -> ast.Name:
        t = self.tok
        if t.kind == IDENT and t.text in BASE_TYPES:
            self._next()
            return ast.Name(t.text, t.position)
        if t.kind == IDENT and t.text not in RESERVED:
            return self._type_name("a type")
        raise self._fail(["a field type", "'}'"], f"in struct '{owner}'")

    def _field_type(self, owner: str) -> ast.TypeExpr:
        position = self.tok.position
        element = self._element_type(owner)
        if self._accept("~"):
            return ast.TypeExpr(element, True, "reset", position=position)
        if self._is("!"):
            self._next()
            return ast.TypeExpr(element, False, "set", position=position)
        optional = bool(self._accept("?"))
        if self._is("!"):
            self.diag.error("set elements cannot be optional", self.tok.position)
            raise _SyntaxError()
        if self._accept("["):
            if self._accept("]"):
                return ast.TypeExpr(element, optional, "vector", position=position)
            size = self._literal([INT], "an array size or ']'", "after '['")
            self._expect("]", "to close the array size")
            return ast.TypeExpr(element, optional, "array", array_size=size, position=position)
        if self._is("(") and self._is(")", self._look()):
            self._next()
            self._next()
            return ast.TypeExpr(element, optional, "list", position=position)
        for opening, closing, kind in (("<", ">", "map"), ("{", "}", "hash")):
            if self._accept(opening):
                key = self._element_type(owner)
                if self._is("?"):
                    self.diag.error(f"{kind} keys cannot be optional", self.tok.position)
                    raise _SyntaxError()
                self._expect(closing, f"to close the {kind} key type")
                return ast.TypeExpr(element, optional, kind, key=key, position=position)
        return ast.TypeExpr(element, optional, None, position=position)


def parse(path: str, text: str, diagnostics: Diagnostics) -> ast.SchemaFile:
    diagnostics.add_source(path, text)
    return Parser(path, text, diagnostics).parse()
