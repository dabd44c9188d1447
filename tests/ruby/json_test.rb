# frozen_string_literal: true

require_relative 'test_helper'

# JSON numbers as RapidJSON master's Writer::Double prints them (docs/format.md 8.4), the same
# text as the Python runtime's fbe.jsonfmt on the doubles tests/ruby/gen.py drew (random bit
# patterns, 17-digit decimals, floats widened, short decimals and whole numbers), and the examples
# of format.md.
class JsonTest < Minitest::Test
  EXAMPLES = [
    [100.0, '100.0'], [9_007_199_254_740_992.0, '9007199254740992.0'], [1e20, '100000000000000000000.0'],
    [1.5, '1.5'], [123_456_789.12345679, '123456789.12345679'], [0.1, '0.1'], [0.000001234, '0.000001234'],
    [1e21, '1e21'], [1e-7, '1e-7'], [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e308'],
    [1e23, '9.999999999999999e22'], [4.04925338542625e16, '40492533854262496.0'], [0.0, '0.0'], [-0.0, '-0.0'],
    [Float::NAN, '"NaN"'], [Float::INFINITY, '"Infinity"'], [-Float::INFINITY, '"-Infinity"']
  ].freeze

  def test_the_examples_of_the_format
    EXAMPLES.each { |value, text| assert_equal text, Fbe::Json.double(value), value.to_s }
  end

  def test_the_python_runtimes_digits
    pairs = JSON.parse(File.read(File.join(GEN, 'doubles.json')))
    assert_operator pairs.length, :>, 40_000
    wrong = pairs.reject { |bits, text| Fbe::Json.double([bits].pack('H*').unpack1('E')) == text }
    assert_empty wrong.first(5)
  end

  def test_strings_are_escaped_as_rapidjson_does
    assert_equal '"a\\"b\\\\c\\n\\t\\u0001/é"', Fbe::Json.string("a\"b\\c\n\t\u0001/é")
    assert_equal '"x\\udcff"', Fbe::Json.string("x\xFF".b)
    assert_equal '"\\u000F\\u001F"', Fbe::Json.string("\u000f\u001f")
  end

  def test_decimals_have_six_fraction_digits_at_least
    assert_equal '123.456000', Fbe::Json.decimal(BigDecimal('123.456'))
    assert_equal '0.1234567890123456789012345678', Fbe::Json.decimal(BigDecimal('0.1234567890123456789012345678'))
    assert_equal '0.000000', Fbe::Json.decimal(BigDecimal('-0'))
    assert_equal '1.500000', Fbe::Json.decimal(BigDecimal('1.50'))
  end
end
