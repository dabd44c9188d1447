# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'hostile')
generated('project', 'recursive')
%w[proto test].each { |package| generated('shared', package) } if File.directory?(File.join(GEN, 'shared'))

# Reading JSON under the rules of docs/limits.md 7 (the golden vectors' JSON files are read in
# vectors_test.rb): each refusal names what is wrong.
class JsonReadTest < Minitest::Test
  def refused(type, text, message)
    error = assert_raises(Fbe::DecodeError) { type.from_json(text) }
    assert_match message, error.message
  end

  def test_the_document_rules
    refused(Recursive::Node, '{"id":1,"id":2}', /\Aduplicate member "id"\z/)
    refused(Recursive::Node, "\xEF\xBB\xBF{}".b, /byte order mark/)
    refused(Recursive::Node, "{\"label\":\"\xC0\xAF\"}".b, /not valid UTF-8/)
    refused(Recursive::Node, '{"label":"\\udc41"}', /lone surrogate escape \\udc41/)
    refused(Recursive::Node, '{"label":"\\ud83d\\ud83d"}', /lone surrogate escape \\ud83d/)
    refused(Recursive::Node, '{"zzz":"\\\\\\ud83d"}', /lone surrogate escape \\ud83d/)
    assert_equal '\\ud83d', Recursive::Node.from_json('{"label":"\\\\ud83d"}').label
    assert_equal "\u{1F600}", Recursive::Node.from_json('{"label":"\\ud83d\\ude00"}').label
    refused(Recursive::Node, "#{'[' * 385}#{']' * 385}", /nested deeper than 384/)
    refused(Recursive::Node, '{"id":1.5}', /JSON integer expected, got Float \(recursive\.Node\.id\)/)
    refused(Recursive::Node, '{"id":2147483648}', /JSON integer 2147483648 out of range/)
    assert_equal "\xFF\xC3\xA9".b, Recursive::Node.from_json('{"label":"\\udcff\\udcc3\\udca9"}').label.b
    assert_equal 'é', Recursive::Node.from_json('{"label":"\\udcc3\\udca9"}').label
  end

  # The json library's parser skips /* */ and // comments and reads an unknown escape (\x) as its
  # letter; a document is JSON text and nothing else (docs/limits.md 7), as Python's json refuses them.
  def test_comments_and_unknown_escapes_are_refused
    refused(Recursive::Node, '{"id":1 /* c */}', /\Ainvalid JSON: a comment\z/)
    refused(Recursive::Node, "{\"id\":1 // c\n}", /\Ainvalid JSON: a comment\z/)
    refused(Recursive::Node, '{"label":"\\x"}', /\Ainvalid JSON: escape \\x\z/)
    refused(Recursive::Node, '{"zzz":"\\\\\\q"}', /\Ainvalid JSON: escape \\q\z/)
    assert_equal 'a/b//*c*/', Recursive::Node.from_json('{"label":"a\\/b//*c*/"}').label
    assert_equal '\\x', Recursive::Node.from_json('{"label":"\\\\x"}').label
  end

  # docs/limits.md 8: the root type and the path of members, indexes and keys to what is wrong.
  def test_errors_name_the_json_path
    refused(Recursive::Node, '{"children":[{},{"children":[{"id":"x"}]}]}',
            /\(recursive\.Node\.children\[1\]\.children\[0\]\.id\)\z/)
    refused(Recursive::Node, '{"children":[{},5]}', /object expected, got Integer \(recursive\.Node\.children\[1\]\)\z/)
    refused(Recursive::Node, '[]', /JSON object expected, got Array \(recursive\.Node\)\z/)
    refused(Recursive::Node, '{"children":[{"label":"\\udc41"}]}', /\Alone surrogate escape \\udc41\z/)
    return unless defined?(Test::StructMap)

    refused(Test::StructMap, '{"f9":{"7":{"f1":3}}}', /expected, got Integer \(test\.StructMap\.f9\[7\]\.f1\)\z/)
    refused(Test::StructMap, '{"f1":{"x":3}}', /invalid integer key "x" \(test\.StructMap\.f1\[x\]\)\z/)
    refused(Test::StructMap, %({"f1":{"#{'x' * 40}":3}}), /\(test\.StructMap\.f1\[x{32}\.\.\.\]\)\z/)
  end

  def nested(depth)
    "#{'{"children":[' * (depth - 1)}{}#{']}' * (depth - 1)}"
  end

  def test_struct_levels_are_counted_as_in_the_binary_readers
    assert_equal 128, depth(Recursive::Node.from_json(nested(128)))
    refused(Recursive::Node, nested(129), /structs nested deeper than 128/)
  end

  def depth(node)
    node.children.empty? ? 1 : 1 + depth(node.children[0])
  end

  def test_a_large_default_is_charged
    refused(Hostile::Wides, '{"items":[{}]}', /decode budget exceeded \(hostile\.Wides\.items\[0\]\)/)
    assert_empty Hostile::Wides.from_json('{"items":[]}').items
    paid = Hostile::Wides.from_json('{"items":[{}]}', limits: Fbe::Limits.new(budget_slack: 4_100_000))
    assert_equal 1_000_000, paid.items[0].values.length
  end

  def test_values_of_the_test_schema
    need_shared(self)
    refused(Test::StructBytes, '{"f1":"QR=="}', /invalid base64 \(test\.StructBytes\.f1\)/)
    refused(Test::StructBytes, '{"f1":"QQ"}', /invalid base64/)
    assert_equal 'A', Test::StructBytes.from_json('{"f1":"QQ=="}').f1
    refused(Test::StructArray, '{"f1":[1,2,3]}', /expected 2 elements, got 3 \(test\.StructArray\.f1\)/)
    refused(Test::StructMap, '{"f1":{"1":1,"01":2}}', /two map keys read as the same key/)
    refused(Test::StructSet, '{"f1":[1,1]}', /two set elements read as the same element/)
    refused(Proto::Balance, "{\"amount\":1,\"currency\":\"#{'x' * 10}\",\"x\":{\"a\":1,\"a\":1}}",
            /duplicate member "a"/)
  end

  # -0 is negative zero in a double and 0 in an integer; -0.0 is no integer (docs/limits.md 7).
  def test_negative_zero
    need_shared(self)
    order = Proto::Order.from_json('{"id":-0,"symbol":"-0","price":-0,"volume":-0.0}')
    assert_equal [0, '-0'], [order.id, order.symbol]
    assert_equal [-Float::INFINITY, -Float::INFINITY], [1 / order.price, 1 / order.volume]
    order = Proto::Order.from_json('{"id":-0,"price":1e-0,"volume":2.50}')
    assert_equal [1.0, 2.5], [order.price, order.volume]
    refused(Proto::Order, '{"id":-0.0,"price":-0}', /JSON integer expected, got Float \(proto\.Order\.id\)/)
  end

  def test_decimal_text
    need_shared(self)
    long = '1' * 65
    refused(Test::StructSimple, "{\"f30\":\"#{long}\"}",
            /decimal text longer than 64 characters: "#{'1' * 32}"\.\.\. \(test\.StructSimple\.f30\)/)
    refused(Test::StructSimple, '{"f30":"1e-29"}', /more than 28 fraction digits/)
    refused(Test::StructSimple, '{"f30":"79228162514264337593543950336"}', /out of range: more than 96 bits/)
    assert_equal BigDecimal('0.1'), Test::StructSimple.from_json('{"f30":"0.10000000000000000000000000000000"}').f30
  end
end
