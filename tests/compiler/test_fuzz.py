"""Property tests of the front end: on any input fbec reports diagnostics or generates code, never a traceback.

Three sources of schemas: random token streams (mostly invalid: the lexer, the parser's recovery and
the diagnostics' rendering), random well-formed declarations (the resolver and both targets), and
random deep chains of structs (the depth limits).
"""

from __future__ import annotations

import os
from pathlib import Path

from fbec.cli import main
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import CompileError, Diagnostics
from fbec.targets import cpp, python
from fbec.targets.base import Options
from fbec.tools.format import FormatError, format_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

WORDS = ["package", "p", "import", "q", "offset", "version", "domain", "enum", "flags", "struct", "message",
         "base", "true", "false", "null", "epoch", "utc", "uuid0", "uuid1", "uuid4", "min", "max", "int32", "uint8",
         "byte", "char", "wchar", "bool", "double", "float", "decimal", "string", "bytes", "timestamp", "uuid",
         "int64", "S", "T", "E", "F", "x", "y", "Strin", "request", "response", "reject", "id", "key", "std", "FBE"]
PUNCTUATION = list(",.:;+*=|!?~()[]<>{}")
LITERALS = ["0", "1", "-1", "42", "0x10", "0x", "3x", "1.5", "-.5", "1e400", "4294967296", "99999999999999999999",
            "'a'", "'\\n'", "'ab'", "'", '"text"', '"\\q"', '"', '"unterminated', "/*", "*/", "//", "[id]", "[key]",
            "[hidden]", "[deprecated]", "$", "\u00e9", "\t", "\0"]
TOKENS = st.sampled_from(WORDS + PUNCTUATION + LITERALS)
SEPARATORS = st.sampled_from([" ", " ", "\n", "", "\r\n"])

PRIMITIVES = ["bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
              "uint64", "float", "double", "decimal", "string", "bytes", "timestamp", "uuid"]
SUFFIXES = ["", "?", "[]", "()", "!", "[2]", "[9]", "<int32>", "{string}", "?[]", "~"]
DEFAULTS = ["", " = 0", " = 1", " = -1", " = 2.5", " = true", ' = "s"', " = null", " = E.a", " = F.a | F.b", " = max",
            " = epoch", " = uuid1", " = 'c'", " = 300"]


def _check(text: str, tmp: Path) -> None:
    """Compile `text`; errors must be diagnostics, and a schema that compiles must generate in both targets."""
    path = tmp / "p.fbe"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    diag = Diagnostics()
    try:
        schema = compile_schema(str(path), [], diag)
    except CompileError:
        assert diag.has_errors
        diag.render()
        return
    diag.render()
    options = Options(final=True, json=True, proto=True)
    for target in (cpp, python):
        assert target.generate(schema, options)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(TOKENS, SEPARATORS), max_size=60))
def test_random_token_streams(tmp_path: Path, tokens: list[tuple[str, str]]) -> None:
    text = "".join(t + s for t, s in tokens)
    for prefix in ("", "package p\n"):
        _check(prefix + text, tmp_path)
        try:
            format_text(prefix + text)
        except FormatError:
            pass


def _mostly(draw: st.DrawFn, good: list[str], bad: list[str]) -> str:
    """One of `good`; in a schema drawn to hold mistakes, one time in ten one of `bad` (so about half
    the schemas get past the resolver into the targets)."""
    if bad and draw(st.shared(st.booleans(), key="with mistakes")) and draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(bad))
    return draw(st.sampled_from(good))


@st.composite
def declarations(draw: st.DrawFn) -> str:
    """A schema of well-formed declarations; now and then a type, name, number or default is wrong."""
    out = [f"package p offset {draw(st.sampled_from([0, 10, 1000]))}"]
    enum_base = _mostly(draw, ["int32", "byte", "int8", "uint16"], ["double"])
    enum_value = _mostly(draw, ["5", "20", "'x'"], ["a", "300", "-1"])
    flags_base = _mostly(draw, ["int32", "uint8"], ["char"])
    out.append(f"enum E : {enum_base} {{ a; b = {enum_value}; c; }}")
    out.append(f"flags F : {flags_base} {{ a = 1; b = 2; c = a | b; }}")
    names = [f"S{i}" for i in range(draw(st.integers(1, 6)))]
    for i, name in enumerate(names):
        keyword = draw(st.sampled_from(["struct", "message"]))
        number = _mostly(draw, ["", "", f"({i + 1})", "(+5)"], ["(1)", "(base)", "(0)"])
        base = _mostly(draw, [""] * 3 + [f" : {n}" for n in names[:i]], [f" : {n}" for n in names[i:]])
        fields = []
        for k in range(draw(st.integers(0, 5))):
            element = _mostly(draw, PRIMITIVES + names[:i] + ["E", "F"], names[i:] + ["Nope"])
            suffix = draw(st.sampled_from(SUFFIXES))
            key = _mostly(draw, [""], ["[key] "])
            default = _mostly(draw, [""] * 4, DEFAULTS)
            field = _mostly(draw, [f"{name.lower()}_{k}"], [f"f{k}"])        # f0: may hide a base's field
            fields.append(f"{key}{element}{suffix} {field}{default};")
        request = _mostly(draw, ["", ""], ["[request]\n", f"[request]\n[response({names[0]})]\n"])
        out.append(f"{request}{keyword} {name}{number}{base} {{ {' '.join(fields)} }}")
    return "\n".join(out) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(declarations())
def test_random_declarations(tmp_path: Path, text: str) -> None:
    _check(text, tmp_path)


LINKS = ["S{j} s;", "S{j}? s;", "S{j}[] s;", "S{j}[2] s;", "int32<S{j}> s;", "S{j}{{string}} s;"]


@st.composite
def chains(draw: st.DrawFn) -> str:
    """Structs S0..Sn, each above the one before through a field or a base, maybe with a cycle back."""
    n = draw(st.integers(2, 300))
    decls = ["struct S0 { int32 x; }"]
    for i in range(1, n):
        if draw(st.integers(0, 3)) == 0:
            decls.append(f"struct S{i} : S{i - 1} {{ int32 x{i}; }}")
        else:
            decls.append(f"struct S{i} {{ {draw(st.sampled_from(LINKS)).format(j=i - 1)} }}")
    if draw(st.booleans()):
        decls[0] = f"struct S0 {{ S{n - 1}[] back; }}"                  # recursive data through a collection
    if draw(st.booleans()):
        decls.reverse()
    return "package p\n" + "\n".join(decls) + "\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chains())
def test_deep_chains(tmp_path: Path, text: str) -> None:
    _check(text, tmp_path)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_command_line_on_any_text(tmp_path: Path, capsys, text: str) -> None:
    """The whole command: exit status 0 or 1 and no traceback, whatever the file holds."""
    (tmp_path / "p.fbe").write_text(text, encoding="utf-8", errors="surrogateescape")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        status = main(["--input=p.fbe", "--output=out", "-q", "--cpp", "--python", "--final", "--json", "--proto"])
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert status in (0, 1) and "Traceback" not in err
