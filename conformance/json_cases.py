"""One verdict and one value for every JSON document, signed flags and unknown frames (issue 21,
items 5 to 7; docs/limits.md 7 and 6): cases every testee runs (conformance/limits.py adds them).

A JSON case reads a document and, when it is accepted, checks pieces of the JSON the testee writes
back (`"f25":-0.0`): every language must write exactly these bytes. Binary results are compared
byte for byte, stream cases by their events.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable
from typing import Any

from limits import LimitCase, _json, _stream, order_message

P = struct.pack


def contains(expected: tuple[str, ...], got: Any) -> bool:
    """The JSON a testee wrote holds every expected piece (compared as UTF-8 bytes)."""
    text = got if isinstance(got, bytes) else str(got).encode()
    return all(piece.encode() in text for piece in expected)


def _case(suite: str, name: str, request: dict[str, Any], *written: str) -> LimitCase:
    """A document every testee refuses (nothing written) or reads and writes back with these pieces."""
    return LimitCase(f"json/{suite}/{name}", f"json: {suite}", request, "result" if written else "parse_error",
                     result=written or None, compare=contains if written else None)


def _simple(text: str) -> dict[str, Any]:
    return _json("test", "StructSimple", text)


def lone_surrogates() -> list[LimitCase]:
    """Lone surrogate escapes are refused wherever they are in the document, unknown members and member
    names included (\\udc80..\\udcff stand for bytes)."""
    s = "lone surrogates"
    return [
        _case(s, "unknown-member-high", _simple(r'{"id":1,"zzz":"\ud800"}')),
        _case(s, "unknown-member-low", _simple(r'{"id":1,"zzz":"\udc41"}')),
        _case(s, "unknown-member-in-array", _simple(r'{"id":1,"zzz":[1,"\udfff"]}')),
        _case(s, "member-name", _simple(r'{"id":1,"\ud800":1}')),
        _case(s, "unknown-member-name", _simple(r'{"id":1,"zzz":{"\udc41":1}}')),
        _case(s, "high-then-high", _simple(r'{"id":1,"zzz":"\ud83d\ud83d"}')),
        _case(s, "unknown-member-pair", _simple(r'{"id":1,"zzz":"\ud83d\ude00"}'), '"id":1,'),
        _case(s, "unknown-member-byte", _simple(r'{"id":1,"zzz":"\udcff","\udcc3":{"\udc80":1}}'), '"id":1,'),
    ]


def not_json() -> list[LimitCase]:
    """What lenient parsers read beyond RFC 8259 is refused: comments, escapes JSON has not, single
    quotes, unquoted names, trailing commas, leading zeros, NaN and Infinity, a second document."""
    s = "not json"
    cases = [_case(s, name, _simple(text)) for name, text in (
        ("block-comment", '{"id":1 /* c */}'), ("line-comment", '{"id":1 // c\n}'),
        ("unknown-escape", '{"id":1,"f31":"\\x"}'), ("unknown-escape-in-unknown-member", '{"id":1,"zzz":"\\q"}'),
        ("single-quotes", "{'id':1}"), ("unquoted-name", '{id:1}'), ("trailing-comma-object", '{"id":1,}'),
        ("trailing-comma-array", '{"id":1,"zzz":[1,]}'), ("leading-zero", '{"id":01}'), ("nan", '{"id":1,"f27":NaN}'),
        ("infinity", '{"id":1,"f27":Infinity}'), ("plus-sign", '{"id":+1}'), ("two-documents", '{"id":1} {"id":2}'),
        ("empty", ''), ("blank", ' \n'))]
    return cases + [_case(s, "escapes-of-json", _simple('{"id":1,"f31":"\\"\\\\\\/\\b\\f\\n\\r\\t"}'),
                          '"f31":"\\"\\\\/\\b\\f\\n\\r\\t"')]


def byte_order_mark() -> list[LimitCase]:
    """A byte order mark is not JSON (RFC 8259 8.1: senders must not add one)."""
    s = "byte order mark"
    return [
        _case(s, "leading", _simple('\ufeff{"id":1}')),
        _case(s, "after-space", _simple(' \ufeff{"id":1}')),
        _case(s, "in-a-string", _simple('{"id":1,"f31":"\ufeffa"}'), '"f31":"\ufeffa"'),
    ]


def base64_text() -> list[LimitCase]:
    """Bytes are standard Base64 with padding and nothing else (RFC 4648 4), each byte string one text
    (the unused bits zero, RFC 4648 3.5)."""
    s = "base64"
    cases = [_case(s, name, _json("test", "StructBytes", f'{{"f1":"{text}"}}'))
             for name, text in (("one-char", "A"), ("junk", "@@@@"), ("unpadded", "QQ"), ("short-padding", "QQ="),
                                ("pad-bits", "QR=="), ("pad-bits-one", "QUJ="), ("space", "Q Q=="),
                                ("newline", "QQ\\n=="), ("padding-inside", "QQ==QQ=="), ("url-safe", "-_8="),
                                ("only-padding", "===="), ("three-pads", "Q==="), ("trailing-junk", "QQ==@"))]
    cases += [_case(s, name, _json("test", "StructBytes", f'{{"f1":"{text}"}}'), f'"f1":"{text}"')
              for name, text in (("empty", ""), ("one-byte", "QQ=="), ("two-bytes", "QUI="), ("three-bytes", "QUJD"),
                                 ("all-bits", "+/+/"))]
    return cases + [
        _case(s, "optional-junk", _json("test", "StructBytes", '{"f2":"@@@@"}')),
        _case(s, "key-one-char", _json("everything", "Everything", '{"f50":{"A":"x"}}')),
        _case(s, "key-pad-bits", _json("everything", "Everything", '{"f50":{"QR==":"x"}}')),
        _case(s, "key", _json("everything", "Everything", '{"f50":{"QUI=":"x"}}'), '"f50":{"QUI=":"x"}'),
    ]


def fixed_arrays() -> list[LimitCase]:
    """A fixed array holds exactly its length."""
    s = "fixed arrays"
    return [
        _case(s, "longer", _json("test", "StructArray", '{"f1":[1,2,3]}')),
        _case(s, "shorter", _json("test", "StructArray", '{"f1":[1]}')),
        _case(s, "empty", _json("test", "StructArray", '{"f1":[]}')),
        _case(s, "optional-longer", _json("test", "StructArray", '{"f2":[1,null,2]}')),
        _case(s, "structs-shorter", _json("test", "StructArray", '{"f9":[{}]}')),
        _case(s, "exact", _json("test", "StructArray", '{"f1":[1,2],"f2":[null,3]}'), '"f1":[1,2],"f2":[null,3],'),
    ]


def negative_zero() -> list[LimitCase]:
    """-0 is negative zero in a float or double; an integer field reads it as 0."""
    s = "negative zero"
    return [
        _case(s, "float-double", _simple('{"id":1,"f25":-0,"f27":-0}'), '"f25":-0.0,', '"f27":-0.0,'),
        _case(s, "fraction", _simple('{"id":1,"f25":-0.0,"f27":-0e0}'), '"f25":-0.0,', '"f27":-0.0,'),
        _case(s, "optional", _json("test", "StructOptional", '{"f136":-0,"f139":-0}'), '"f136":-0.0,',
              '"f139":-0.0,'),
        _case(s, "vector", _json("everything", "Everything", '{"f38":[-0,0,-0]}'), '"f38":[-0.0,0.0,-0.0]'),
        _case(s, "integers", _simple('{"id":-0,"f17":-0,"f19":-0}'), '"id":0,', '"f17":0,', '"f19":0,'),
    ]


def escaped_strings() -> list[LimitCase]:
    """A string is its bytes: \\udcXY escapes that spell valid UTF-8 are that character, and every
    writer writes it as the character."""
    s = "escaped strings"
    return [
        _case(s, "two-byte", _simple(r'{"id":1,"f31":"\udcc3\udca9"}'), '"f31":"\u00e9"'),
        _case(s, "three-byte", _simple(r'{"id":1,"f31":"a\udce2\udc82\udcacb"}'), '"f31":"a\u20acb"'),
        _case(s, "four-byte", _simple(r'{"id":1,"f31":"\udcf0\udc9f\udc98\udc80"}'), '"f31":"\U0001f600"'),
        _case(s, "lone-byte", _simple(r'{"id":1,"f31":"\udcc3"}'), r'"f31":"\udcc3"'),
        _case(s, "byte-then-char", _simple(r'{"id":1,"f31":"\udcc3\u00a9"}'), r'"f31":"\udcc3' + '\u00a9"'),
        _case(s, "map-key", _json("test", "StructHash", r'{"f1":{"\udcc3\udca9":1}}'), '"f1":{"\u00e9":1}'),
        # a value description (testee_protocol.md) writes the string by the same rule: valid JSON, the byte as \udcc3
        LimitCase(f"json/{s}/lone-byte-value", f"json: {s}",
                  dict(_simple(r'{"id":1,"f31":"a\udcc3"}'), output="value"), "result", result="a\udcc3",
                  compare=lambda expected, got: isinstance(got, dict) and got.get("f31") == expected),
    ]


def signed_flags() -> list[LimitCase]:
    """Flags of a signed type are JSON numbers in the type's range, and a set of them is sorted by the
    signed value, as the original's std::set."""
    s = "signed flags"
    flags = _json("test", "StructSet", '{"f3":[4,1,-1632129793]}')
    set_final = P("<IIIIIiiiI", 36, 132, 0, 0, 3, -1632129793, 1, 4, 0)
    set_versioned = P("<IIIIIIII", 60, 8, 24, 132, 24, 28, 32, 48) + set_final[8:]
    from_final = {"package": "test", "type": "StructSet", "output": "json",
                  "input": {"format": "final", "payload": base64.b64encode(set_final).decode()}}
    return [
        _case(s, "set-json", flags, '"f3":[-1632129793,1,4]'),
        LimitCase(f"json/{s}/set-final", f"json: {s}", dict(flags, output="final"), "result", result=set_final),
        LimitCase(f"json/{s}/set-versioned", f"json: {s}", dict(flags, output="versioned"), "result",
                  result=set_versioned),
        _case(s, "set-from-final", from_final, '"f3":[-1632129793,1,4]'),
        _case(s, "unsigned-form", _json("test", "StructSet", '{"f3":[2662837503]}')),
        _case(s, "all-bits-unsigned", _json("test", "StructSet", '{"f3":[4294967295]}')),
        _case(s, "below-range", _json("test", "StructSet", '{"f3":[-2147483649]}')),
        _case(s, "map-value", _json("test", "StructMap", '{"f7":{"1":-1632129793}}'), '"f7":{"1":-1632129793}'),
        _case(s, "map-value-unsigned", _json("test", "StructMap", '{"f7":{"1":2662837503}}')),
        _case(s, "field", _json("test", "StructNested", '{"f1004":-1,"f1005":-2147483648}'),
              '"f1004":-1,', '"f1005":-2147483648,'),
    ]


def container_order() -> list[LimitCase]:
    """Sets and maps are written in ascending order (as std::set and std::map), whatever order they were
    read in."""
    s = "container order"
    return [
        _case(s, "set-bytes", _json("test", "StructSet", '{"f1":[168,3,167]}'), '"f1":[3,167,168]'),
        _case(s, "set-enums", _json("test", "StructSet", '{"f2":[2,1]}'), '"f2":[1,2]'),
        _case(s, "set-structs", _json("test", "StructSet", '{"f4":[{"id":5},{"id":-2}]}'), '"f4":[{"id":-2,',
              '},{"id":5,'),
        _case(s, "map-keys", _json("test", "StructMap", '{"f1":{"2":1,"-1":2,"1":3}}'), '"f1":{"-1":2,"1":3,"2":1}'),
        *two_key_order(s),
        *char_order(s),
    ]


def two_key_order(s: str) -> list[LimitCase]:
    """A struct keyed by two fields (everything.Route: [key] venue, weight, [key] leg) orders by venue, then
    leg, and is the same key when both are, whatever its weight (docs/format.md 3.4): a set and a map
    of them written back in that order, in JSON and in the final model; two routes with one venue and
    leg refused as one key twice (docs/limits.md 4)."""
    def route(venue: str, weight: int, leg: int) -> str:
        return f'{{"venue":"{venue}","weight":{weight}.0,"leg":{leg}}}'

    scrambled = [route("b", 1, 1), route("a", 2, 2), route("a", 3, -1)]
    ordered = [scrambled[2], scrambled[1], scrambled[0]]
    routes = _json("everything", "Routes", '{"routes":[' + ",".join(scrambled) + "]}")
    ranks = _json("everything", "Routes", '{"ranks":[' + ",".join(f"[{r},{n}]" for r, n in zip(scrambled, (10, 20, 30)))
                  + "]}")
    written_ranks = ",".join(f"[{r},{n}]" for r, n in zip(ordered, (30, 20, 10)))
    # size 71, type 1034; routes: count 3, then (venue, weight, leg) each; ranks and names: empty
    final = bytes.fromhex("470000000a040000" "03000000"
                          "01000000" "61" "0000000000000840" "ffffffff"
                          "01000000" "61" "0000000000000040" "02000000"
                          "01000000" "62" "000000000000f03f" "01000000"
                          "00000000" "00000000")
    twice = _json("everything", "Routes", '{"routes":[' + route("a", 1, 2) + "," + route("a", 2, 2) + "]}")
    return [
        _case(s, "set-structs-two-keys", routes, '"routes":[' + ",".join(ordered) + "]"),
        _case(s, "map-structs-two-keys", ranks, f'"ranks":[{written_ranks}]'),
        LimitCase(f"json/{s}/set-structs-two-keys-final", f"json: {s}", dict(routes, output="final"), "result",
                  result=final),
        _case(s, "set-structs-two-keys-twice", twice),
    ]


def char_order(s: str) -> list[LimitCase]:
    """A char orders as C++'s signed char, 0x80..0xFF before 0x00..0x7F (schemas/tests/chars.fbe), in
    JSON and both binary models, whether it was read from JSON or from a final root in byte order."""
    chars = _json("chars", "CharKeys", '{"letters":[1,200,127,128],"countByLetter":{"1":1,"200":2,"127":3,"128":4}}')
    final = bytes.fromhex("2800000001000000" "0400000080c8017f" "04000000" "8004000000" "c802000000" "0101000000"
                          "7f03000000")
    versioned = P("<IIIIII", 56, 8, 16, 1, 16, 24) + final[8:]
    in_byte_order = bytes.fromhex("2800000001000000" "04000000017f80c8" "04000000" "0101000000" "7f03000000"
                                  "8004000000" "c802000000")
    from_final = {"package": "chars", "type": "CharKeys", "output": "json",
                  "input": {"format": "final", "payload": base64.b64encode(in_byte_order).decode()}}
    written = ('"letters":[128,200,1,127]', '"countByLetter":{"128":4,"200":2,"1":1,"127":3}')
    return [
        _case(s, "chars-json", chars, *written),
        LimitCase(f"json/{s}/chars-final", f"json: {s}", dict(chars, output="final"), "result", result=final),
        LimitCase(f"json/{s}/chars-versioned", f"json: {s}", dict(chars, output="versioned"), "result",
                  result=versioned),
        _case(s, "chars-from-final", from_final, *written),
        *grade_order(s),
    ]


def grade_order(s: str) -> list[LimitCase]:
    """An enum of char orders as its stored uint8, unsigned: 0x80..0xFF after 0x00..0x7F, unlike a char
    (schemas/tests/chars.fbe), in JSON and both binary models, read from JSON or a final root."""
    grades = _json("chars", "GradeKeys", '{"grades":[200,1,128,127],"countByGrade":{"200":2,"1":1,"128":4,"127":3}}')
    final = bytes.fromhex("2800000002000000" "04000000017f80c8" "04000000" "0101000000" "7f03000000"
                          "8004000000" "c802000000")
    versioned = P("<IIIIII", 56, 8, 16, 2, 16, 24) + final[8:]
    in_other_order = bytes.fromhex("2800000002000000" "04000000c880017f" "04000000" "c802000000" "8004000000"
                                   "0101000000" "7f03000000")
    from_final = {"package": "chars", "type": "GradeKeys", "output": "json",
                  "input": {"format": "final", "payload": base64.b64encode(in_other_order).decode()}}
    written = ('"grades":[1,127,128,200]', '"countByGrade":{"1":1,"127":3,"128":4,"200":2}')
    return [
        _case(s, "grades-json", grades, *written),
        LimitCase(f"json/{s}/grades-final", f"json: {s}", dict(grades, output="final"), "result", result=final),
        LimitCase(f"json/{s}/grades-versioned", f"json: {s}", dict(grades, output="versioned"), "result",
                  result=versioned),
        _case(s, "grades-from-final", from_final, *written),
    ]


RULES: tuple[Callable[[], list[LimitCase]], ...] = (
    lone_surrogates, not_json, byte_order_mark, base64_text, fixed_arrays, negative_zero, escaped_strings, signed_flags,
    container_order,
)


def json_cases() -> list[LimitCase]:
    return [c for rule in RULES for c in rule()]


def frame_cases() -> list[LimitCase]:
    """A well-formed frame whose type no message has is reported and skipped (docs/format.md 7.4)."""
    s = "limits: frames"
    good = order_message()
    unknown = bytearray(good)
    struct.pack_into("<I", unknown, 12, 999)          # the body's type id
    final_good = final_order_message()
    final_unknown = bytearray(final_good)
    struct.pack_into("<I", final_unknown, 4, 999)
    final = {"format": "final_stream"}
    return [
        LimitCase("frames/unknown-type-then-good-frame", s, _stream(bytes(unknown) + good), "result",
                  events=["error", "proto.OrderMessage"]),
        LimitCase("frames/good-frame-then-unknown-type", s, _stream(good + bytes(unknown)), "result",
                  events=["proto.OrderMessage", "error"]),
        LimitCase("frames/final-unknown-type-then-good-frame", s,
                  dict(_stream(bytes(final_unknown) + final_good),
                       input=dict(final, payload=base64.b64encode(bytes(final_unknown) + final_good).decode())),
                  "result", events=["error", "proto.OrderMessage"]),
    ]


def final_order_message() -> bytes:
    """proto.OrderMessage{body: Order{id 7, symbol "EURUSD"}} as a final frame."""
    symbol = b"EURUSD"
    order = P("<iI", 7, len(symbol)) + symbol + P("<BBdd", 0, 0, 1.5, 100.0)
    return P("<II", 8 + len(order), 1) + order
