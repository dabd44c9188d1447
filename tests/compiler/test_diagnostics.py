"""Bad schemas: each asserts the exact first diagnostic (position and message) and the exit status.

The input file is always `p.fbe` in a temporary folder; extra files are imported packages.
"""

from __future__ import annotations

import pytest

# (name, schema text, extra files, exit status, first diagnostic line)
CASES = [
    ('unknown_type',
     'package p\nstruct S { Foo f; }\n',
     {}, 1, "p.fbe:2:12: error: unknown type 'Foo'"),
    ('unknown_qualified_type',
     'package p\nimport q\nstruct S { q.Nope f; }\n',
     {'q.fbe': 'package q\n'}, 1, "p.fbe:3:12: error: unknown type 'q.Nope' in package 'q'"),
    ('package_not_imported',
     'package p\nstruct S { q.Foo f; }\n',
     {}, 1, "p.fbe:2:12: error: unknown type 'q.Foo': package 'q' is not imported (add 'import q')"),
    ('duplicate_type',
     'package p\nstruct S {}\nenum S { a; }\n',
     {}, 1, "p.fbe:3:6: error: duplicate type name 'S' (first declared at line 2)"),
    ('duplicate_field',
     'package p\nstruct S { int32 a; string a; }\n',
     {}, 1, "p.fbe:2:28: error: duplicate field name 'a' in struct 'S'"),
    ('duplicate_enum_value',
     'package p\nenum E { a; b; a; }\n',
     {}, 1, "p.fbe:2:16: error: duplicate value name 'a' in enum 'E'"),
    ('duplicate_flags_value',
     'package p\nflags F { a = 1; a = 2; }\n',
     {}, 1, "p.fbe:2:18: error: duplicate value name 'a' in flags 'F'"),
    ('circular_import',
     'package p\nimport q\n',
     {'q.fbe': 'package q\nimport p\n'}, 1, 'q.fbe:2:8: error: circular import: p.fbe -> q.fbe -> p.fbe'),
    ('circular_inheritance',
     'package p\nstruct A : B {}\nstruct B : A {}\n',
     {}, 1, 'p.fbe:2:8: error: circular inheritance: A -> B -> A'),
    ('self_inheritance',
     'package p\nstruct A : A {}\n',
     {}, 1, 'p.fbe:2:8: error: circular inheritance: A -> A'),
    ('missing_import',
     'package p\nimport nowhere\n',
     {}, 1, "p.fbe:2:8: error: cannot find imported package 'nowhere': no nowhere.fbe in ."),
    ('duplicate_import',
     'package p\nimport q\nimport q\n',
     {'q.fbe': 'package q\n'}, 1, "p.fbe:3:8: error: duplicate import of package 'q'"),
    ('type_number_collision_warning',
     'package p\nstruct A(5) {}\nstruct B(5) {}\n',
     {}, 0, "p.fbe:3:10: warning: type number 5 of 'B' is also used by 'A'"),
    ('enum_value_out_of_range',
     'package p\nenum E : byte { a = 256; }\n',
     {}, 1, "p.fbe:2:21: error: value 256 of enum 'E.a' is out of range for byte (0..255)"),
    ('enum_value_negative_unsigned',
     'package p\nenum E : uint16 { a = -1; }\n',
     {}, 1, "p.fbe:2:23: error: value -1 of enum 'E.a' is out of range for uint16 (0..65535)"),
    ('enum_implicit_overflow',
     'package p\nenum E : int8 { a = 127; b; }\n',
     {}, 1, "p.fbe:2:26: error: value 128 of enum 'E.b' is out of range for int8 (-128..127)"),
    ('flags_value_out_of_range',
     'package p\nflags F : uint8 { a = 0x100; }\n',
     {}, 1, "p.fbe:2:23: error: value 256 of flags 'F.a' is out of range for uint8 (0..255)"),
    ('flags_without_value',
     'package p\nflags F { a; }\n',
     {}, 1, "p.fbe:2:11: error: flags value 'a' needs '= value'"),
    ('flags_char_base',
     'package p\nflags F : char { a = 1; }\n',
     {}, 1, ("p.fbe:2:11: error: flags 'F' cannot be based on 'char'; use one of byte, int16, int32, int64, int8, "
             "uint16, uint32, uint64, uint8")),
    ('enum_bad_base',
     'package p\nenum E : double { a; }\n',
     {}, 1, ("p.fbe:2:10: error: enum 'E' cannot be based on 'double'; use one of byte, char, int16, int32, int64, "
             "int8, uint16, uint32, uint64, uint8, wchar")),
    ('enum_forward_reference',
     'package p\nenum E { a = b; b; }\n',
     {}, 1, "p.fbe:2:14: error: 'b' is not a value declared earlier in enum 'E'"),
    ('enum_combined_with_bar',
     'package p\nenum E { a; b; c = a | b; }\n',
     {}, 1, "p.fbe:2:20: error: enum values cannot be combined with '|' (enum 'E'); use flags"),
    ('default_wrong_type_string',
     'package p\nstruct S { int32 x = "text"; }\n',
     {}, 1, "p.fbe:2:22: error: cannot use a string as the default of field 'x' of type int32"),
    ('default_wrong_type_int',
     'package p\nstruct S { string s = 5; }\n',
     {}, 1, "p.fbe:2:23: error: cannot use the integer 5 as the default of field 's' of type string"),
    ('default_wrong_type_bool',
     'package p\nstruct S { int32 x = true; }\n',
     {}, 1, "p.fbe:2:22: error: cannot use 'true' as the default of field 'x' of type int32"),
    ('default_out_of_range',
     'package p\nstruct S { uint8 x = 300; }\n',
     {}, 1, "p.fbe:2:22: error: default 300 of field 'x' is out of range for uint8 (0..255)"),
    ('default_decimal_more_than_28_fraction_digits',     # docs/format.md 2.4: what no decimal holds
     'package p\nstruct S { decimal d = 1.5e-28; }\n',
     {}, 1, ("p.fbe:2:24: error: cannot use the number 1.5e-28 (more than 28 fraction digits: no decimal holds it, "
            "docs/format.md 2.4) as the default of field 'd' of type decimal")),
    ('default_decimal_beyond_96_bits',
     'package p\nstruct S { decimal d = 79228162514264337593543950336; }\n',
     {}, 1, ("p.fbe:2:24: error: cannot use the number 79228162514264337593543950336 (more than 96 bits: no decimal "
            "holds it, docs/format.md 2.4) as the default of field 'd' of type decimal")),
    ('default_null_not_optional',
     'package p\nstruct S { int32 x = null; }\n',
     {}, 1, "p.fbe:2:22: error: field 'x' of type int32 cannot be null (only optional fields can)"),
    ('default_min_on_double',
     'package p\nstruct S { double x = min; }\n',
     {}, 1, "p.fbe:2:23: error: 'min' is only defined for integer types, not double (field 'x')"),
    ('default_epoch_on_int',
     'package p\nstruct S { int64 x = epoch; }\n',
     {}, 1, "p.fbe:2:22: error: cannot use 'epoch' as the default of field 'x' of type int64"),
    ('default_bad_uuid',
     'package p\nstruct S { uuid u = "not-a-uuid"; }\n',
     {}, 1, "p.fbe:2:21: error: 'not-a-uuid' is not a uuid (expected xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)"),
    ('default_string_lone_surrogate',      # a string is UTF-8 on the wire: every target crashed writing it
     'package p\nstruct S { string s = "x\\uD800y"; }\n',
     {}, 1, ('p.fbe:2:23: error: string literal "x\\uD800y" holds the lone surrogate U+D800, which UTF-8 cannot '
            'encode (write a pair, or the character itself)')),
    ('default_string_surrogates_reversed',
     'package p\nstruct S { string s = "\\uDE00\\uD83D"; }\n',
     {}, 1, ('p.fbe:2:23: error: string literal "\\uDE00\\uD83D" holds the lone surrogate U+DE00, which UTF-8 cannot '
            'encode (write a pair, or the character itself)')),
    ('default_char_beyond_unicode',
     "package p\nstruct S { wchar c = '\\U00110000'; }\n",
     {}, 1, "p.fbe:2:22: error: escape '\\U00110000' is beyond U+10FFFF, the last Unicode code point"),
    ('default_enum_wrong_type',
     'package p\nenum A { x; }\nenum B { y; }\nstruct S { A a = B.y; }\n',
     {}, 1, "p.fbe:4:18: error: 'B.y' is a value of p.B, but field 'a' has type p.A"),
    ('default_enum_unknown_value',
     'package p\nenum A { x; }\nstruct S { A a = A.z; }\n',
     {}, 1, "p.fbe:3:18: error: enum 'p.A' has no value 'z'"),
    ('default_on_struct',
     'package p\nstruct T {}\nstruct S { T t = 5; }\n',
     {}, 1, "p.fbe:3:18: error: cannot use the integer 5 as the default of field 't' of type p.T"),
    ('default_bar_on_int',
     'package p\nenum A { x; }\nstruct S { int32 v = A.x | A.x; }\n',
     {}, 1, "p.fbe:3:22: error: cannot use a '|' combination as the default of field 'v' of type int32"),
    ('key_on_collection',
     'package p\nstruct S { [key] int32[] v; }\n',
     {}, 1, "p.fbe:2:12: error: [key] is not allowed on collection field 'v'"),
    ('array_size_zero',
     'package p\nstruct S { int32[0] a; }\n',
     {}, 1, 'p.fbe:2:18: error: array size must be greater than zero, found 0'),
    ('array_size_hex',
     'package p\nstruct S { int32[0x4] a; }\n',
     {}, 1, "p.fbe:2:18: error: array size must be a decimal integer (the original reads '0x4' as 0)"),
    ('two_id_fields',
     'package p\nstruct S { uuid [id]; int32 x; uuid [id]; }\n',
     {}, 1, "p.fbe:2:37: error: struct 'S' can have only one [id] field"),
    ('unterminated_string',
     'package p\nstruct S { string s = "abc; }\n',
     {}, 1, 'p.fbe:2:23: error: unterminated string literal'),
    ('unterminated_comment',
     'package p\n/* never closed\nstruct S {}\n',
     {}, 1, 'p.fbe:2:1: error: unterminated block comment'),
    ('unterminated_char',
     "package p\nenum E : char { a = 'x; }\n",
     {}, 1, 'p.fbe:2:21: error: unterminated char literal'),
    ('unexpected_token_field',
     'package p\nstruct S { int32 a }\n',
     {}, 1, "p.fbe:2:20: error: expected '=' or ';' after field 'a', found '}'"),
    ('unexpected_token_declaration',
     'package p\nstrukt S {}\n',
     {}, 1, ("p.fbe:2:1: error: expected 'enum', 'flags', 'struct', 'message' or '[request]' for a declaration, "
             "found identifier 'strukt'; did you mean 'struct'?")),
    ('missing_package',
     'struct S {}\n',
     {}, 1, "p.fbe:1:1: error: expected 'domain' or 'package' at the start of the schema, found identifier 'struct'"),
    ('import_after_declaration',
     'package p\nstruct S {}\nimport q\n',
     {}, 1, "p.fbe:3:1: error: 'import' must come before the first declaration"),
    ('unknown_character',
     'package p\nstruct S { int32 a; } $\n',
     {}, 1, "p.fbe:2:23: error: unexpected character '$'"),
    ('reserved_word_as_name',
     'package p\nstruct S { int32 string; }\n',
     {}, 1, "p.fbe:2:18: error: 'string' is a reserved word and cannot be used as a field name"),
    ('optional_set_element',
     'package p\nstruct S { int32?! s; }\n',
     {}, 1, 'p.fbe:2:18: error: set elements cannot be optional'),
    ('optional_map_key',
     'package p\nstruct S { int32<string?> m; }\n',
     {}, 1, 'p.fbe:2:24: error: map keys cannot be optional'),
    ('base_without_base',
     'package p\nstruct S(base) {}\n',
     {}, 1, "p.fbe:2:8: error: '(base)' needs a base struct: struct S(base) : Base"),
    ('negative_offset',
     'package p offset -5\n',
     {}, 1, 'p.fbe:1:18: error: package offset must not be negative, found -5'),
    ('hex_offset',
     'package p offset 0x10\n',
     {}, 1, "p.fbe:1:18: error: package offset must be a decimal integer (the original compiler reads '0x10' as 0)"),
    ('negative_type_number',
     'package p\nstruct S(-1) {}\n',
     {}, 1, 'p.fbe:2:10: error: struct type number must not be negative, found -1'),
    ('version_not_float',
     'package p\nversion 3\n',
     {}, 1, "p.fbe:2:9: error: expected a version 'major.minor' after 'version', found integer '3'"),
    ('duplicate_reject',
     ('package p\n[request]\n[response(R)]\n[reject(E, E)]\nmessage Q { uuid [id] = uuid1; }\n'
      'message R { uuid [id] = uuid1; }\nmessage E { uuid [id] = uuid1; }\n'),
     {}, 1, "p.fbe:4:12: error: duplicate reject 'E'"),
    ('request_without_id',
     'package p\n[request]\n[response(R)]\nmessage Q { int32 x; }\nmessage R { uuid [id] = uuid1; }\n',
     {}, 1, ("p.fbe:4:9: error: request 'Q' with a response or rejects needs a uuid field 'id' "
             "(write: uuid [id] = uuid1;)")),
    ('recursive_struct_by_value',
     'package p\nstruct N { int32 v; N next; }\n',
     {}, 1, "p.fbe:2:23: error: 'N' contains itself through field 'next'; use a collection (T[]) for recursive data"),
    ('base_is_enum',
     'package p\nenum E { a; }\nstruct S : E {}\n',
     {}, 1, "p.fbe:3:12: error: 'E' is an enum and cannot be a base of 'S'"),
    ('char_literal_too_long',
     "package p\nenum E : char { a = 'ab'; }\n",
     {}, 1, "p.fbe:2:21: error: char literal 'ab' must hold exactly one character"),
    ('field_hides_inherited',
     'package p\nstruct A { int32 x; }\nstruct B : A { int32 x; }\n',
     {}, 1, "p.fbe:3:22: error: field 'x' of 'B' hides the inherited field of 'A'"),
    ('misspelled_base_type',
     'package p\nstruct S { Strin s; }\n',
     {}, 1, "p.fbe:2:12: error: unknown type 'Strin'; did you mean 'string'?"),
    ('misspelled_struct',
     'package p\nstruct Order {}\nstruct S { Ordr[] o; }\n',
     {}, 1, "p.fbe:3:12: error: unknown type 'Ordr'; did you mean 'Order'?"),
    ('messages_share_type_number',
     'package p\nmessage A(5) { int32 x; }\nmessage B(5) { int32 y; }\n',
     {}, 1, ("p.fbe:3:11: error: message 'B' has type number 5, as message 'A' has: the Receiver of package 'p' "
            "could not tell them apart")),
    ('message_numbered_like_an_earlier_one',
     'package p\nmessage A { int32 x; }\nmessage B(1) { int32 y; }\n',
     {}, 1, ("p.fbe:3:11: error: message 'B' has type number 1, as message 'A' has: the Receiver of package 'p' "
            "could not tell them apart")),
    # docs/format.md 7.6: a response without an id never answers its request (it goes to notify)
    ('response_without_id_warning',
     'package p\nmessage Pong { int32 n; }\n[request]\n[response(Pong)]\nmessage Ask { uuid [id] = uuid1; }\n',
     {}, 0, ("p.fbe:4:11: warning: response 'Pong' of request 'Ask' has no uuid field 'id': it never answers the "
             "request, which ends by its timeout or reset()")),
    ('message_and_struct_share_type_number_warning',
     'package p\nmessage A(3) { int32 x; }\nstruct B(3) { int32 y; }\n',
     {}, 0, "p.fbe:3:10: warning: type number 3 of 'B' is also used by 'A'"),
    ('array_size_beyond_32_bits',
     'package p\nstruct S { int32[4294967296] x; }\n',
     {}, 1, "p.fbe:2:18: error: array size 4294967296 is beyond the format's 32-bit sizes (at most 4294967295)"),
    ('body_beyond_32_bits',   # 65 arrays of 64 MiB, the largest a frame holds
     ('package p\nstruct S { ' + ' '.join(f'int64[8388608] x{i};' for i in range(65))
      + ' }\nstruct T : S { int32 y; }\n'),
     {}, 1, ("p.fbe:2:8: error: struct 'S' has a body of 4362076168 bytes, beyond the format's 32-bit sizes "
            "(at most 4294967295)")),
    ('final_size_beyond_32_bits',
     'package p\nstruct A { int64[8388608] x; }\nstruct S { ' + ' '.join(f'A a{i};' for i in range(65)) + ' }\n',
     {}, 1, ("p.fbe:3:8: error: struct 'S' takes 4362076160 bytes in the final model, beyond the format's 32-bit "
            "sizes (at most 4294967295)")),
    # issue 21 item 3: what no frame holds can never be sent, and every value of the type holds it
    ('array_beyond_the_largest_frame',
     'package p\nstruct S { int32[16777217] a; }\n',
     {}, 1, ("p.fbe:2:18: error: array field 'a' of struct 'S' takes at least 67108868 bytes, more than the largest "
             "frame (67108864 bytes, 64 MiB): no value of it can ever be sent")),
    ('array_of_structs_beyond_the_largest_frame',   # a struct element takes its fixed final size, else 1 byte
     'package p\nstruct E {}\nstruct T { int64 x; }\nmessage S { E[67108864] e; T[8388609] t; }\n',
     {}, 1, ("p.fbe:4:30: error: array field 't' of message 'S' takes at least 67108872 bytes, more than the "
             "largest frame (67108864 bytes, 64 MiB): no value of it can ever be sent")),
    ('struct_beyond_the_largest_frame',
     'package p\nstruct S { int32[16777216] a; byte b; }\n',
     {}, 1, ("p.fbe:2:8: error: struct 'S' takes 67108865 bytes in the final model, more than the largest frame "
             "(67108864 bytes, 64 MiB): no value of it can ever be sent")),
    ('type_id_beyond_32_bits',
     'package p offset 4294967295\nstruct A { int32 x; }\n',
     {}, 1, ("p.fbe:2:8: error: type number of 'A' is 4294967296 (package offset 4294967295 + 1), beyond the "
             "format's 32-bit type ids (at most 4294967295)")),
    ('number_suffix',
     'package p\nstruct S { int32[3x] a; }\n',
     {}, 1, "p.fbe:2:19: error: invalid suffix on number '3'"),
]


@pytest.mark.parametrize("name,text,extra,status,first", CASES, ids=[c[0] for c in CASES])
def test_bad_schema(compile_files, name, text, extra, status, first):
    code, out, err = compile_files({"p.fbe": text, **extra}, main_file="p.fbe")
    assert code == status
    diagnostics = [line for line in err.splitlines() if ": error: " in line or ": warning: " in line]
    assert diagnostics, err
    assert diagnostics[0] == first
    assert "Traceback" not in err
    if status:
        assert out == "", "no IR may be written when compilation fails"


def test_response_with_an_inherited_id_is_not_warned_of(compile_files):
    """docs/format.md 7.6: a response whose id a base gives it answers its request: no warning."""
    text = ("package p\nstruct Reply { uuid [id] = uuid1; }\nmessage Pong : Reply { int32 n; }\n"
            "[request]\n[response(Pong)]\nmessage Ask { uuid [id] = uuid1; }\n")
    code, _, err = compile_files({"p.fbe": text})
    assert (code, err) == (0, "")


def test_caret_points_at_the_column(compile_files):
    code, _, err = compile_files({"p.fbe": "package p\nstruct S { Foo f; }\n"})
    assert code == 1
    assert err.splitlines() == [
        "p.fbe:2:12: error: unknown type 'Foo'",
        "    struct S { Foo f; }",
        "               ^",
    ]


def test_several_errors_in_one_run(compile_files):
    text = "package p\nenum E : byte { a = 300; }\nstruct S { Foo f; int32[0] g; string s = 5; }\n"
    code, _, err = compile_files({"p.fbe": text})
    assert code == 1
    assert [line for line in err.splitlines() if ": error: " in line] == [
        "p.fbe:2:21: error: value 300 of enum 'E.a' is out of range for byte (0..255)",
        "p.fbe:3:12: error: unknown type 'Foo'",
        "p.fbe:3:25: error: array size must be greater than zero, found 0",
        "p.fbe:3:42: error: cannot use the integer 5 as the default of field 's' of type string",
    ]


def test_several_syntax_errors_in_one_run(compile_files):
    text = "package p\nstruct A { int32 a }\nstruct B { int32 b = ; }\nstruct C { int32 c; }\n"
    code, _, err = compile_files({"p.fbe": text})
    assert code == 1
    assert [line for line in err.splitlines() if ": error: " in line] == [
        "p.fbe:2:20: error: expected '=' or ';' after field 'a', found '}'",
        "p.fbe:3:22: error: expected a value for field 'b', found ';'",
    ]


def test_not_utf8(compile_files, tmp_path):
    (tmp_path / "p.fbe").write_bytes(b"package p\nstruct S { string s = \"\xff\"; }\n")
    code, _, err = compile_files({}, main_file="p.fbe")
    assert code == 1
    assert err.startswith("fbec: error: cannot read 'p.fbe': not UTF-8 text")



def test_unterminated_string_adds_no_error_at_end_of_file(compile_files):
    code, _, err = compile_files({"p.fbe": 'package p\nstruct S { string s = "abc; }\n'})
    assert code == 1
    assert err.splitlines() == [
        "p.fbe:2:23: error: unterminated string literal",
        '    struct S { string s = "abc; }',
        "                          ^",
    ]


def test_end_of_file_is_shown_after_the_last_line(compile_files):
    code, _, err = compile_files({"p.fbe": "package p\nstruct S { int32 x;\n\n"})
    assert code == 1
    assert err.splitlines() == [
        "p.fbe:2:20: error: expected '}' to close struct 'S', found end of file",
        "    struct S { int32 x;",
        "                       ^",
    ]


def test_long_line_is_cut_around_the_caret(compile_files):
    fields = " ".join(f"int32 f{i};" for i in range(2000))
    more = fields.replace(" f", " g")
    code, _, err = compile_files({"p.fbe": f"package p\nstruct S {{ {fields} Foo x; {more} }}\n"})
    assert code == 1
    head, source, caret = err.splitlines()
    column = len("struct S { ") + len(fields) + 2
    assert head == f"p.fbe:2:{column}: error: unknown type 'Foo'"
    assert len(source) < 120 and source.startswith("    ...") and source.endswith("...")
    assert source[caret.index("^"):].startswith("Foo x;")
