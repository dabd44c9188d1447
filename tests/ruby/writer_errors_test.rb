# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'chars')
generated('project', 'decimals')
generated('project', 'everything')
generated('project', 'recursive')
generated_trade_model

# A value the format cannot hold is refused by every writer with an Fbe::EncodeError naming the
# struct and the field path in the schema's names (docs/limits.md 8, Fbe::Explain), wherever it is.
class WriterErrorsTest < Minitest::Test
  HUGE = BigDecimal('1e40')

  def assert_refused(value, path, reason)
    %i[to_fbe to_final to_json].each do |writer|
      error = assert_raises(Fbe::EncodeError, writer.to_s) { value.public_send(writer) }
      assert_equal "cannot encode #{path}: #{reason}", error.message, writer.to_s
    end
  end

  def test_decimal_in_a_field_a_vector_and_an_optional_in_a_vector
    too_big = 'decimal 10000000000000000000000000000000000000000.0 out of range: more than 96 bits'
    assert_refused Decimals::Prices.new(price: HUGE), 'decimals.Prices.price', too_big
    assert_refused Decimals::Prices.new(price_vector: [BigDecimal(1), HUGE]), 'decimals.Prices.priceVector[1]', too_big
    assert_refused Decimals::Prices.new(maybe_prices: [nil, HUGE]), 'decimals.Prices.maybePrices[1]', too_big
    assert_refused Decimals::Prices.new(maybe_price: HUGE), 'decimals.Prices.maybePrice', too_big
    assert_refused Decimals::Prices.new(id_by_price: { HUGE => 1 }), 'decimals.Prices.idByPrice[0.1e41]', too_big
  end

  def test_nested_structs_and_maps
    value = Everything::Everything.new(f44: { 'a' => Everything::Counted.new(a: 1 << 40) })
    assert_refused value, 'everything.Everything.f44["a"].a', 'int32 value 1099511627776 out of range ' \
                                                              '-2147483648..2147483647'
    value = Everything::Everything.new(f30: Market::Instrument.new(symbol: 7))
    assert_refused value, 'everything.Everything.f30.symbol', 'string expected, got 7'
    value = Everything::Everything.new(f38: [1.5, 'x'])
    assert_refused value, 'everything.Everything.f38[1]', 'double: a number expected, got "x"'
  end

  # An enum field given an Integer is written as that wire value by every writer, and refused by
  # every writer when its wire type does not hold it.
  def test_enum_given_an_integer
    value = Everything::Everything.new(f25: 2)
    assert_equal Everything::Everything.from_fbe(value.to_fbe).to_final,
                 Everything::Everything.from_json(value.to_json).to_final
    assert_refused Everything::Everything.new(f25: 300), 'everything.Everything.f25',
                   'uint8 value 300 out of range 0..255'
  end

  # Integers are compared in place before the pack that writes them (which would wrap one out of
  # range), declared enum values looked up, flags values packed as their bits: what is out of range
  # or of no such kind still goes through its codec, which refuses it.
  def test_scalars_checked_in_place
    assert_refused Everything::Everything.new(f5: 128), 'everything.Everything.f5',
                   'int8 value 128 out of range -128..127'
    assert_refused Everything::Everything.new(f12: 1 << 64), 'everything.Everything.f12',
                   'uint64 value 18446744073709551616 out of range 0..18446744073709551615'
    assert_refused Everything::Everything.new(f9: 1.0), 'everything.Everything.f9',
                   'int32 value 1.0 out of range -2147483648..2147483647'
    assert_refused Everything::Everything.new(f25: Everything::EByte.new(256)), 'everything.Everything.f25',
                   'uint8 value 256 out of range 0..255'
    assert_refused Everything::Everything.new(f17: :text), 'everything.Everything.f17', 'string expected, got :text'
    written = Everything::Everything.new(f17: 'тест'.encode('UTF-16LE'), f25: Everything::EByte.from_wire(200),
                                         f27: Everything::FByte::ONE | Everything::FByte.new(0x80))
    [%i[to_fbe from_fbe], %i[to_final from_final]].each do |write, read|
      back = Everything::Everything.public_send(read, written.public_send(write))
      assert_equal ['тест', 200, 0x81], [back.f17, back.f25.to_i, back.f27.to_i]
    end
  end

  # A float or double field is packed unchecked (Array#pack refuses what is no Numeric): the
  # writers' error is still Fbe::EncodeError naming the field, inside a nested struct too.
  def test_float_and_double_given_no_number
    assert_refused Everything::Everything.new(f13: 'x'), 'everything.Everything.f13',
                   'float: a number expected, got "x"'
    assert_refused Everything::Everything.new(f14: nil), 'everything.Everything.f14',
                   'double: a number expected, got nil'
    assert_refused Proto::Account.new(wallet: Proto::Balance.new(amount: :p)), 'proto.Account.wallet.amount',
                   'double: a number expected, got :p'
    assert_refused Proto::Account.new(orders: [Proto::Order.new, Proto::Order.new(volume: '1')]),
                   'proto.Account.orders[1].volume', 'double: a number expected, got "1"'
  end

  # nil where a struct is required, in a field or a vector: refused by every writer (the JSON writer
  # called fbe_json on it: NoMethodError).
  def test_nil_struct
    assert_refused Proto::Account.new(wallet: nil), 'proto.Account.wallet', 'Proto::Balance expected, got NilClass'
    assert_refused Proto::Account.new(orders: [Proto::Order.new, nil]), 'proto.Account.orders[1]',
                   'Proto::Order expected, got NilClass'
    assert_refused Proto::Account.new(asset: 5), 'proto.Account.asset', 'Proto::Balance expected, got Integer'
  end

  # An enum or flags field holding neither a value of its class nor an Integer (a String, nil, a
  # value of another enum) is refused by every writer, not written as its to_i.
  def test_enum_or_flags_given_something_else
    assert_refused Everything::Everything.new(f25: 'c'), 'everything.Everything.f25',
                   'Everything::EByte or an Integer expected, got "c"'
    assert_refused Everything::Everything.new(f26: nil), 'everything.Everything.f26',
                   'Market::Side or an Integer expected, got nil'
    assert_refused Everything::Everything.new(f27: Everything::EByte::C), 'everything.Everything.f27',
                   'Everything::FByte or an Integer expected, got #<Everything::EByte c(17)>'
    assert_refused Everything::Everything.new(f34: 2.0), 'everything.Everything.f34',
                   'Everything::EByte or an Integer expected, got 2.0'
    assert_refused Chars::GradeKeys.new(grades: Set['x']), 'chars.GradeKeys.grades[0]',
                   'Chars::Grade or an Integer expected, got "x"'
    assert_refused Chars::GradeKeys.new(count_by_grade: { nil => 1 }), 'chars.GradeKeys.countByGrade[nil]',
                   'Chars::Grade or an Integer expected, got nil'
  end

  # Every reader refuses a set or map holding a key twice (docs/limits.md 4), so the writers refuse to
  # write one: a Ruby Set or Hash holds an Integer and the enum's value of that number, or one uuid in
  # two cases, as two.
  def test_a_key_twice
    twice = 'two elements are the same, [0] and [1] in the written order'
    assert_refused Chars::GradeKeys.new(grades: Set[1, Chars::Grade::LOW]), 'chars.GradeKeys.grades', twice
    keys_twice = "two entries' keys are the same, [0] and [1] in the written order"
    assert_refused Chars::GradeKeys.new(count_by_grade: { 1 => 5, Chars::Grade::LOW => 6 }),
                   'chars.GradeKeys.countByGrade', keys_twice
    uuid = '123e4567-e89b-12d3-a456-426655440000'
    assert_refused Everything::Everything.new(f45: { uuid => 'a'.b, uuid.upcase => 'b'.b }),
                   'everything.Everything.f45', keys_twice
    distinct = Chars::GradeKeys.new(grades: Set[1, Chars::Grade::MID],
                                    count_by_grade: { 1 => 5, Chars::Grade::MID => 6 })
    assert_equal [Chars::Grade::LOW, Chars::Grade::MID], Chars::GradeKeys.from_fbe(distinct.to_fbe).grades.to_a
  end

  def test_too_deep_keeps_the_writers_message
    node = Recursive::Node.new(id: 0)
    129.times { |k| node = Recursive::Node.new(id: k, children: [node]) }
    error = assert_raises(Fbe::EncodeError) { node.to_fbe }
    assert_equal 'cannot write recursive.Node: structs nested deeper than 128', error.message
  end
end
