"""The JSON rules shared with the C++ runtime where the original is wrong (docs/cpp-json-protocol.md,
runtime/cpp/include/fbe/json.h; docs/python.md "deliberate differences").

Each rule is checked on the jsonfmt helpers, on generated code and on the dynamic codec, writing
and reading, with the expected text written out.
"""

from __future__ import annotations

import math
import random
import struct
from decimal import Decimal
from pathlib import Path
from typing import Any

import fbe
import pytest
from fbe import jsonfmt
from fbe.dynamic import DynamicCodec
from fbe_testlib import compile_ir, generate_into, load_modules

SCHEMA = """\
package jsonrules

enum Color : byte { red = 1; green = 2; }
enum Signed : int16 { neg = -5; pos = 5; }
flags Bits : byte { a = 1; b = 2; }

struct Key { [key] int32 id; string name; }

struct Rules
{
    char c;
    char<char> ck;
    char! cs;
    float f;
    double d;
    double[] ds;
    decimal dec;
    decimal<decimal> deck;
    int32<Color> ek;
    int32<Bits> fk;
    int32<Signed> sk;
    int32<float> fkey;
    int32<double> dkey;
    string<Key> sm;
    string{Key} sh;
}
"""

# every member at its default: what Rules() writes
EMPTY = ('{"c":0,"ck":{},"cs":[],"f":0.0,"d":0.0,"ds":[],"dec":"0.000000","deck":{},"ek":{},"fk":{},"sk":{},'
         '"fkey":{},"dkey":{},"sm":[],"sh":[]}')


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, DynamicCodec]:
    out = tmp_path_factory.mktemp("jsonrules")
    path = out / "jsonrules.fbe"
    path.write_text(SCHEMA, encoding="utf-8")
    generate_into(path, out)
    return load_modules(out, ["jsonrules"])["jsonrules"], DynamicCodec(compile_ir(Path(path)))


def both(rules: tuple[Any, DynamicCodec], **fields: Any) -> str:
    """The JSON of a Rules value by generated code; the dynamic codec must write the same and both read it back."""
    m, dc = rules
    value = m.Rules(**fields)
    text = value.to_json()
    decoded = dc.decode(value.to_fbe(), "jsonrules.Rules")[0]
    assert dc.to_json(decoded, "jsonrules.Rules") == text
    back = m.Rules.from_json(text)
    assert back.to_json() == text
    assert dc.to_json(dc.from_json(text, "jsonrules.Rules"), "jsonrules.Rules") == text
    return text


def member(text: str, name: str) -> str:
    """The text of one member of Rules' JSON (members are in declaration order)."""
    names = ["c", "ck", "cs", "f", "d", "ds", "dec", "deck", "ek", "fk", "sk", "fkey", "dkey", "sm", "sh"]
    start = text.index(f'"{name}":') + len(name) + 3
    i = names.index(name)
    end = text.index(f',"{names[i + 1]}":') if i + 1 < len(names) else len(text) - 1
    return text[start:end]


def test_defaults(rules: tuple[Any, DynamicCodec]) -> None:
    assert both(rules) == EMPTY


# ---------------------------------------------------------------- char >= 0x80

def test_char_is_its_byte_value(rules: tuple[Any, DynamicCodec]) -> None:
    m, dc = rules
    text = both(rules, c=0xC8, ck={0xC8: 0x41, 0x41: 0xFF}, cs={0x41, 0xC8, 0x80, 0x7F})
    assert member(text, "c") == "200"                       # the original: 4294967240
    assert member(text, "ck") == '{"200":65,"65":255}'      # the original's key: "-56"; std::map<char> order
    assert member(text, "cs") == "[128,200,65,127]"         # std::set<char>: signed order
    # the original's forms are read too
    for js in ('{"c":4294967240,"ck":{"-56":4294967233}}', '{"c":200,"ck":{"200":193}}'):
        v = m.Rules.from_json(js)
        assert v.c == 0xC8 and v.ck == {0xC8: 0xC1}
        d = dc.from_json(js, "jsonrules.Rules")
        assert d["c"] == 0xC8 and d["ck"] == [(0xC8, 0xC1)]
    assert jsonfmt.get_char(4294967168, "c") == 0x80 and jsonfmt.get_char(255, "c") == 255
    assert jsonfmt.key_char("-128", "k") == 0x80 and jsonfmt.key_char("255", "k") == 0xFF


@pytest.mark.parametrize("bad", ["256", "300", "-1", "4294967167", "4294967296", "1.0", '"a"', "true"])
def test_char_out_of_range_is_an_error(rules: tuple[Any, DynamicCodec], bad: str) -> None:
    m, dc = rules
    with pytest.raises(fbe.DecodeError):
        m.Rules.from_json('{"c":' + bad + "}")
    with pytest.raises(fbe.DecodeError):
        dc.from_json('{"c":' + bad + "}", "jsonrules.Rules")


@pytest.mark.parametrize("key", ["256", "-129", "a", ""])
def test_char_key_out_of_range_is_an_error(key: str) -> None:
    with pytest.raises(fbe.DecodeError):
        jsonfmt.key_char(key, "k")


# ---------------------------------------------------------------- NaN and infinities

def test_nan_and_infinities_are_strings(rules: tuple[Any, DynamicCodec]) -> None:
    m, _ = rules
    inf = float("inf")
    text = both(rules, f=-inf, d=float("nan"), ds=[inf, -inf, float("nan"), 1.5])
    assert member(text, "f") == '"-Infinity"'
    assert member(text, "d") == '"NaN"'
    assert member(text, "ds") == '["Infinity","-Infinity","NaN",1.5]'
    v = m.Rules.from_json('{"f":"NaN","d":"-Infinity","ds":["Infinity",1e-7]}')
    assert math.isnan(v.f) and v.d == -inf and v.ds == [inf, 1e-7]
    assert [jsonfmt.json_float(x) for x in (inf, -inf)] == ['"Infinity"', '"-Infinity"']


@pytest.mark.parametrize("bad", ['"nan"', '"inf"', '"+Infinity"', '"1.5"', "NaN", "Infinity", "-Infinity", "1e400"])
def test_only_the_three_strings_are_read(rules: tuple[Any, DynamicCodec], bad: str) -> None:
    """Other strings are mistyped; the bare literals and a number beyond double are not JSON (RapidJSON)."""
    m, dc = rules
    for name in ("f", "d"):
        with pytest.raises(fbe.DecodeError):
            m.Rules.from_json(f'{{"{name}":{bad}}}')
        with pytest.raises(fbe.DecodeError):
            dc.from_json(f'{{"{name}":{bad}}}', "jsonrules.Rules")


def test_float_range(rules: tuple[Any, DynamicCodec]) -> None:
    m, dc = rules
    # the largest float: written as the original writes it, and read back (the original refuses it)
    for flt_max in (3.4028234663852886e38, -3.4028234663852886e38):
        text = both(rules, f=flt_max)
        assert member(text, "f") == jsonfmt.json_double(flt_max) == repr(flt_max).replace("e+", "e")
        assert m.Rules.from_json(text).f == flt_max
        assert dc.from_json(text, "jsonrules.Rules")["f"] == flt_max
    assert m.Rules.from_json('{"d":10000000000}').d == 1e10          # any JSON number is a double
    for bad in ("3.4028236e38", "-1e39"):
        with pytest.raises(fbe.DecodeError):
            m.Rules.from_json('{"f":' + bad + "}")


# ---------------------------------------------------------------- decimal

@pytest.mark.parametrize("value, text", [
    (Decimal("0.1"), "0.100000"),
    (Decimal("-123.456"), "-123.456000"),
    (Decimal("0.1234567890123456789012345678"), "0.1234567890123456789012345678"),
    (Decimal("123456.123456"), "123456.123456"),
    (Decimal("0.0000001"), "0.0000001"),                 # the original: "0.000000"
    (Decimal(79228162514264337593543950335), "79228162514264337593543950335.000000"),
    (Decimal(7), "7.000000"),
    (Decimal("1E+3"), "1000.000000"),
    (Decimal(0), "0.000000"),
    (Decimal("-0"), "0.000000"),                         # no sign on zero
    (Decimal("-0.000"), "0.000000"),
    (Decimal("0E-10"), "0.000000"),                      # the value as writers store it (docs/format.md 2.4):
    (Decimal("1.50000000"), "1.500000"),                 # no trailing fraction zeros
    (0.1, "0.100000"),                                   # a float: the original writer's conversion
    (1 / 3, "0.333333333333333"),
    (5, "5.000000"),
])
def test_decimal_is_exact(value: Any, text: str) -> None:
    assert jsonfmt.json_decimal(value) == f'"{text}"'


def test_decimal_members_and_keys(rules: tuple[Any, DynamicCodec]) -> None:
    m, _ = rules
    text = both(rules, dec=Decimal("0.1234567890123456789012345678"),
                deck={Decimal("-1.5"): Decimal("0.1"), Decimal(2): Decimal(0)})
    assert member(text, "dec") == '"0.1234567890123456789012345678"'
    assert member(text, "deck") == '{"-1.500000":"0.100000","2.000000":"0.000000"}'
    v = m.Rules.from_json('{"dec":"-123.456000","deck":{"0.1000":"1e2"}}')
    assert v.dec == Decimal("-123.456") and v.dec.as_tuple().exponent == -3   # trailing zeros removed, as C++
    assert v.deck == {Decimal("0.1"): Decimal(100)}


@pytest.mark.parametrize("text, value", [
    ("0.100000", "0.1"), ("-123.456000", "-123.456"), ("+2.50", "2.5"), (".5", "0.5"), ("5.", "5"),
    ("1e3", "1000"), ("1E-2", "0.01"), ("-0.0", "0"), ("0e5000", "0"),
    ("0.1234567890123456789012345678", "0.1234567890123456789012345678"),
    ("0.12345678901234567890123456780000", "0.1234567890123456789012345678"),  # more digits, but zeros
    ("1234567890123456789012345678e-28", "0.1234567890123456789012345678"),
    ("79228162514264337593543950335", "79228162514264337593543950335"),
    ("7.9228162514264337593543950335", "7.9228162514264337593543950335"),
    ("7.9228162514264337593543950335e28", "79228162514264337593543950335"),
    ("-0.000e-999999999999999999999999", "0"), ("0e99999999999999999999", "0"),
    ("1" + "0" * 28 + "e-28", "1"), ("0" * 63 + "1", "1"),                  # 64 characters
])
def test_decimal_text_is_read_exactly(text: str, value: str) -> None:
    d = jsonfmt.get_decimal(text, "dec")
    assert d == Decimal(value) and f"{d:f}" == value


@pytest.mark.parametrize("text", ["", ".", "abc", "1e", "1e+", " 1", "1 ", "1_0", "NaN", "Infinity", "0x10",
                                  "79228162514264337593543950336", "1e29"])
def test_bad_decimal_text_is_an_error(text: str) -> None:
    with pytest.raises(fbe.DecodeError):
        jsonfmt.get_decimal(text, "dec")


@pytest.mark.parametrize("text, error", [
    # no decimal holds the value exactly: refused, never rounded (docs/format.md 2.4)
    ("0.12345678901234567890123456785", "has more than 28 fraction digits"),
    ("0.00000000000000000000000000005", "has more than 28 fraction digits"),
    ("1.5e-30", "has more than 28 fraction digits"), ("1e-29", "has more than 28 fraction digits"),
    ("7922816251426433759354395033.56", "out of range: more than 96 bits"),  # 30 digits
    ("7.92281625142643375935439503355", "has more than 28 fraction digits"),
    ("79228162514264337593543950336", "out of range: more than 96 bits"),
    ("1e999999999999999999999", "out of range: more than 96 bits"),
    # longer than any decimal's text (docs/limits.md 7), whatever it holds
    ("0" * 64 + "1", "decimal text longer than 64 characters"),
    ("1." + "0" * 63, "decimal text longer than 64 characters"),
])
def test_decimal_text_no_decimal_holds_is_refused(text: str, error: str) -> None:
    with pytest.raises(fbe.DecodeError, match=error) as e:
        jsonfmt.get_decimal(text, "dec")
    assert len(str(e.value)) < 100         # the text is quoted cut to a short prefix


def test_decimal_text_time_is_linear() -> None:
    """A megabyte of digits is refused by its length before it is parsed (docs/limits.md 7)."""
    import time
    text = "1" * (1 << 20)
    started = time.process_time()  # CPU time: a busy machine stretches wall time, not this
    with pytest.raises(fbe.DecodeError, match=r'longer than 64 characters: "1{32}"\.\.\. \(dec\)$'):
        jsonfmt.get_decimal(text, "dec")
    assert time.process_time() - started < 0.1


def test_decimal_of_96_bits_or_more_is_refused(rules: tuple[Any, DynamicCodec]) -> None:
    """The original's decimals are doubles, so its JSON may hold 1e30; ours hold 96 bits: a clear error."""
    m, dc = rules
    text = '{"dec":"1000000000000000019884624838656.000000"}'   # the original's text of 1e30
    with pytest.raises(fbe.DecodeError, match=r"out of range: more than 96 bits.*dec"):
        m.Rules.from_json(text)
    with pytest.raises(fbe.DecodeError, match=r"out of range: more than 96 bits"):
        dc.from_json(text, "jsonrules.Rules")
    assert m.Rules.from_json('{"dec":"79228162514264337593543950335.000000"}').dec == (1 << 96) - 1


def test_decimal_from_a_json_number() -> None:
    """Accepted, read as a double and converted as the original writer converts a double (as C++)."""
    assert jsonfmt.get_decimal(0.1, "dec") == Decimal("0.1")
    assert jsonfmt.get_decimal(0.1234567890123456789, "dec") == Decimal("0.123456789012346")
    assert jsonfmt.get_decimal(10, "dec") == Decimal(10)
    for bad in (True, None, [1]):
        with pytest.raises(fbe.DecodeError):
            jsonfmt.get_decimal(bad, "dec")


# ---------------------------------------------------------------- enum / flags keys

def test_enum_and_flags_keys_are_numbers(rules: tuple[Any, DynamicCodec]) -> None:
    m, _ = rules
    text = both(rules, ek={m.Color.green: 2, m.Color.red: 1}, fk={m.Bits.a | m.Bits.b: 3, m.Bits(0): 0},
                sk={m.Signed.neg: -5, m.Signed.pos: 5})
    assert member(text, "ek") == '{"1":1,"2":2}'
    assert member(text, "fk") == '{"0":0,"3":3}'
    assert member(text, "sk") == '{"-5":-5,"5":5}'
    v = m.Rules.from_json('{"ek":{"2":7},"fk":{"1":8},"sk":{"-5":9}}')
    assert v.ek == {m.Color.green: 7} and v.fk == {m.Bits.a: 8} and v.sk == {m.Signed.neg: 9}
    for bad in ('{"ek":{"red":1}}', '{"ek":{"256":1}}', '{"sk":{"40000":1}}', '{"ek":{"-1":1}}'):
        with pytest.raises(fbe.DecodeError):
            m.Rules.from_json(bad)


# ---------------------------------------------------------------- struct keys

def test_struct_keys_are_pairs(rules: tuple[Any, DynamicCodec]) -> None:
    m, dc = rules
    a, b = m.Key(id=1, name="one"), m.Key(id=2, name="two")
    text = both(rules, sm={b: "B", a: "A"}, sh={a: "A"})
    assert member(text, "sm") == '[[{"id":1,"name":"one"},"A"],[{"id":2,"name":"two"},"B"]]'   # std::map order
    assert member(text, "sh") == '[[{"id":1,"name":"one"},"A"]]'
    v = m.Rules.from_json('{"sm":[[{"id":2,"name":"x"},"X"]],"sh":[]}')
    assert v.sm == {m.Key(id=2): "X"} and next(iter(v.sm)).name == "x" and v.sh == {}
    d = dc.from_json('{"sm":[[{"id":2,"name":"x"},"X"]]}', "jsonrules.Rules")
    assert d["sm"] == [({"@type": "jsonrules.Key", "id": 2, "name": "x"}, "X")]
    assert member(both(rules), "sm") == "[]" and member(both(rules), "sh") == "[]"


@pytest.mark.parametrize("bad", ["{}", '[{"id":1}]', '[[{"id":1}]]', '[[{"id":1},"a","b"]]', '[[1,"a"]]', "null"])
def test_struct_key_maps_need_the_pair_form(rules: tuple[Any, DynamicCodec], bad: str) -> None:
    m, dc = rules
    with pytest.raises(fbe.DecodeError):
        m.Rules.from_json('{"sm":' + bad + "}")
    with pytest.raises(fbe.DecodeError):
        dc.from_json('{"sm":' + bad + "}", "jsonrules.Rules")


# ---------------------------------------------------------------- float / double keys

@pytest.mark.parametrize("value, text", [
    (1.5, "1.500000"), (0.1, "0.100000"), (123.456, "123.456000"), (-0.0, "-0.000000"), (0.0, "0.000000"),
    (1e-7, "1e-7"),                          # the original: "0.000000" (keys collide)
    (1.0000001, "1.0000001"), (2.5e-10, "2.5e-10"), (1e300, f"{1e300:f}"),
    (float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity"),
])
def test_double_keys(value: float, text: str) -> None:
    assert jsonfmt.json_double_key(value) == f'"{text}"'
    back = jsonfmt.key_float(text, "k")
    if math.isnan(value):
        assert math.isnan(back)
    else:
        assert back == value and math.copysign(1, back) == math.copysign(1, value)


@pytest.mark.parametrize("value, text", [
    (1.5, "1.500000"), (0.1, "0.100000"), (123.456, "123.456001"),   # %f of the float widened to double
    (1e-7, "1.0000000116860974e-7"),                                  # else the double's text as a value
    (2e-7, "2.0000000233721948e-7"),                                  # (RapidJSON 1.1.0: ...949e-7)
])
def test_float_keys(value: float, text: str) -> None:
    f = jsonfmt.to_float32(value)
    assert jsonfmt.json_float_key(f) == f'"{text}"'
    assert jsonfmt.key_float32(text, "k") == f


def test_real_keys_in_structs(rules: tuple[Any, DynamicCodec]) -> None:
    m, _ = rules
    f = jsonfmt.to_float32
    text = both(rules, fkey={f(1e-7): 1, f(2e-7): 2, f(1.5): 3}, dkey={1e-7: 1, 2e-7: 2, -0.5: 3})
    assert member(text, "fkey") == '{"1.0000000116860974e-7":1,"2.0000000233721948e-7":2,"1.500000":3}'
    assert member(text, "dkey") == '{"-0.500000":3,"1e-7":1,"2e-7":2}'
    v = m.Rules.from_json('{"fkey":{"0.1":1,"NaN":2},"dkey":{"1e-7":1,"Infinity":2," 2.5":3,"0x10":4,"-inf":5}}')
    assert f(0.1) in v.fkey and any(math.isnan(k) for k in v.fkey)
    assert v.dkey == {1e-7: 1, float("inf"): 2, 2.5: 3, 16.0: 4, float("-inf"): 5}   # as strtod reads them
    for bad in ("", "1.5 ", "1e", "abc"):
        with pytest.raises(fbe.DecodeError):
            m.Rules.from_json('{"dkey":{"' + bad + '":1}}')


# ---------------------------------------------------------------- doubles: RapidJSON's digits

@pytest.mark.parametrize("value, text", [
    (4.04925338542625e16, "40492533854262496.0"),       # Grisu2 is not always the shortest text,
    (1e23, "9.999999999999999e22"),
    (3.6282152733170465e-75, "3.6282152733170464e-75"),  # nor the closest of its length
    (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e308"), (0.1, "0.1"), (100.0, "100.0"),
])
def test_double_digits_are_rapidjsons(value: float, text: str) -> None:
    assert jsonfmt.json_double(value) == text
    assert jsonfmt.json_double(-value) == "-" + text


# The original's text of the numbers in ../shared/vectors/proto_account_doubles_1 and _2 (RapidJSON
# master), with RapidJSON 1.1.0's text where it differs in the last place.
ORIGINAL_NUMBER_TEXTS = [
    "3.6480313701718416e125",   # 1.1.0: ...419e125
    "1.3382106728004534e71",    # 1.1.0: ...535e71
    "-3.4167076371479583e264",  # 1.1.0: ...585e264
    "-1.6064586481891585e150",  # 1.1.0: ...586e150
    "0.30000000000000004",      # 1.1.0: 0.30000000000000007
    "1.2345678901234567",       # 1.1.0: ...568
    "3.3341303851700567e-21",   # a float widened to double; 1.1.0: ...568e-21
    "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "123456789.12345679", "0.1",
    "9007199254740992.0", "4.9406564584124654e-300", "9.999999999999999e22", "6.02214076e23",
]


@pytest.mark.parametrize("text", ORIGINAL_NUMBER_TEXTS)
def test_double_digits_are_the_originals(text: str) -> None:
    value = float(text)
    assert jsonfmt.json_double(value) == text
    assert jsonfmt.json_double(-value) == (text[1:] if text[0] == "-" else "-" + text)


def test_float_values_are_their_double_text() -> None:
    # as the original (Writer::Double of the float widened): 17 digits where the double needs them
    assert jsonfmt.json_float(jsonfmt.to_float32(3.3341303851700567e-21)) == "3.3341303851700567e-21"
    assert jsonfmt.json_float(jsonfmt.to_float32(0.1)) == "0.10000000149011612"
    assert jsonfmt.json_float(jsonfmt.to_float32(1.5)) == "1.5"


def _digits_of(text: str) -> str:
    mant = text.lstrip("-").partition("e")[0]
    return mant.removesuffix(".0").replace(".", "").strip("0")


def test_any_double_or_float_reads_back_with_grisu2_digits() -> None:
    """Property: every finite double and float (bit patterns: subnormals, extremes, 17-digit values)
    is written as text that reads back to the same bits, with Grisu2's digits (the repr shortcut
    of json_double never changes them). tests/cpp/dtoa_test.cpp checks C++ prints the same text."""
    import hypothesis  # tools/requirements/test.txt
    st = hypothesis.strategies
    doubles = st.integers(0, (1 << 64) - 1).map(lambda b: struct.unpack("<d", struct.pack("<Q", b))[0])
    floats = st.integers(0, (1 << 32) - 1).map(lambda b: struct.unpack("<f", struct.pack("<I", b))[0])

    @hypothesis.settings(max_examples=3000, deadline=None)
    @hypothesis.given(st.one_of(doubles, floats, st.floats(allow_nan=False, allow_infinity=False)))
    def check(value: float) -> None:
        hypothesis.assume(math.isfinite(value))
        text = jsonfmt.json_double(value)
        back = float(text)
        assert struct.pack("<d", back) == struct.pack("<d", value), (value, text)
        if value != 0:
            digits, _ = jsonfmt._grisu2(abs(value))
            assert _digits_of(text) == digits.rstrip("0"), (value, text, digits)

    check()


def test_shortest_text_shortcut_agrees_with_grisu2() -> None:
    """json_double takes repr's digits when they surely are Grisu2's; check against Grisu2 itself."""
    rnd = random.Random(20261122)
    values = [rnd.uniform(-1e6, 1e6) for _ in range(3000)]
    values += [round(rnd.uniform(0, 1e6), rnd.randint(0, 8)) for _ in range(3000)]
    values += [struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(63)))[0] for _ in range(3000)]
    values += [float(rnd.randint(1, 10**6)) * 10.0 ** rnd.randint(-30, 30) for _ in range(3000)]
    for v in values:
        if math.isnan(v) or math.isinf(v) or v == 0:
            continue
        digits, k = jsonfmt._grisu2(abs(v))
        assert float(f"{digits}e{k}") == abs(v)
        text = jsonfmt.json_double(v)
        mant, _, _exp = text.lstrip("-").partition("e")
        got = (mant.removesuffix(".0")).replace(".", "").strip("0")
        assert got == digits.rstrip("0"), (v, text, digits, k)


ORDER_SCHEMA = """\
package keyorder

flags Bits { low = 1; high = 0x40000000; }

struct ByChar { [key] char c; }
struct ByBits { [key] Bits b; }

struct Sets
{
    ByChar! chars;
    ByBits! bits;
    Bits! masks;
    int32<Bits> byFlags;
    char! letters;
}
"""


def test_sets_and_maps_order_as_the_originals(tmp_path: Path) -> None:
    """docs/limits.md 7: sets and maps in ascending order as std::set and std::map hold them, a char as
    C++'s signed char and flags of a signed type by their signed value (Python holds them unsigned),
    also as a struct's [key] field; generated code writes the bytes fbe.dynamic writes."""
    path = tmp_path / "keyorder.fbe"
    path.write_text(ORDER_SCHEMA, encoding="utf-8")
    generate_into(path, tmp_path)
    m = load_modules(tmp_path, ["keyorder"])["keyorder"]
    dc = DynamicCodec(compile_ir(path))
    value = m.Sets(chars={m.ByChar(c=0x80), m.ByChar(c=1)},
                   bits={m.ByBits(b=m.Bits(1)), m.ByBits(b=m.Bits(0x80000001))},
                   masks={m.Bits(1), m.Bits(0x80000000)}, byFlags={m.Bits(1): 1, m.Bits(0x80000000): 2},
                   letters={0x41, 0x80})
    text = value.to_json()
    assert text == ('{"chars":[{"c":128},{"c":1}],"bits":[{"b":-2147483647},{"b":1}],"masks":[-2147483648,1],'
                    '"byFlags":{"-2147483648":2,"1":1},"letters":[128,65]}')
    # the text form in the same order (docs/format.md 9; a char byte >= 0x80 is a lone surrogate)
    assert str(value) == ("Sets(chars=[2]{ByChar(c='\udc80'),ByChar(c='\x01')},bits=[2]{ByBits(b=low),ByBits(b=low)},"
                          "masks=[2]{,low},byFlags=[2]<{->2,low->1}>,letters=[2]{'\udc80','A'})")
    for fmt, data in (("versioned", value.to_fbe()), ("final", value.to_final())):
        decoded = dc.decode(data, "keyorder.Sets", fmt)[0]
        assert bytes(dc.encode(decoded, "keyorder.Sets", fmt)) == data
        assert dc.to_json(decoded, "keyorder.Sets") == text
    assert m.Sets.from_json(text).to_json() == text
