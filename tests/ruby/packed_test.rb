# frozen_string_literal: true

require_relative 'test_helper'

generated_trade_model
generated('project', 'everything')

# What the generated writers pack at once (a struct body, a stretch of final fields) and the readers
# unpack at once (a run of fixed fields): the same checks and errors as field by field, and an older
# writer's shorter body read field by field.
class PackedTest < Minitest::Test
  def order(**fields)
    Proto::Order.new(id: 1, symbol: +'EURUSD', side: Proto::OrderSide::SELL, price: 1.5, volume: 2.0, **fields)
  end

  def refused(value, message)
    %i[to_fbe to_final].each do |write|
      error = assert_raises(Fbe::EncodeError, write) { value.public_send(write) }
      assert_match(message, error.message, write)
    end
  end

  def test_a_value_its_slot_cannot_hold_is_refused
    refused(order(id: 1 << 31), /int32 value 2147483648 out of range/)
    refused(order(id: -(1 << 31) - 1), /int32 value -2147483649 out of range/)
    refused(order(id: 1 << 70), /int32 value 1180591620717411303424 out of range/)
    refused(order(id: 1.0), /int32 value 1.0 out of range/)
    refused(order(side: Proto::OrderSide.from_wire(256)), /uint8 value 256 out of range/)
    refused(order(price: 'x'), /double: a number expected, got "x"/)
    refused(order(symbol: 7), /string expected, got 7/)
    refused(Proto::Account.new(state: Proto::State.new(1 << 8) | 7, name: nil), /string expected, got nil/)
  end

  def test_a_string_of_another_encoding_is_written_as_utf8
    value = order(symbol: 'é€'.encode('UTF-16LE'))
    [Proto::Order.from_fbe(value.to_fbe), Proto::Order.from_final(value.to_final)].each do |read|
      assert_equal 'é€', read.symbol
      assert_equal Encoding::UTF_8, read.symbol.encoding
    end
  end

  def test_the_values_read_back
    value = Proto::Account.new(id: -7, name: +'név', state: Proto::State::BAD,
                               asset: Proto::Balance.new(currency: +'EUR', amount: -0.5), orders: [order, order(id: 2)])
    assert_equal value, Proto::Account.from_fbe(value.to_fbe)
    assert_equal value, Proto::Account.from_final(value.to_final)
    assert_same Proto::State::BAD, Proto::Account.from_fbe(value.to_fbe).state
    assert_equal 'invalid', Proto::State.from_wire(1).to_s
    assert_equal 0x81, Proto::State.from_wire(0x81).to_i
  end

  # A versioned Order root whose body (an older writer's) ends after size bytes of the 34 of today's.
  def older_order(size)
    body = [size, Proto::Order::FBE_TYPE_ID, 9, size].pack('L<L<l<L<')
    body += [1, 1, 2.5, 4.0].pack('CCEE')[0, size - 16] if size > 16
    data = "#{body}#{[3].pack('L<')}ABC"
    [8 + data.bytesize, 8].pack('L<L<') + data
  end

  def test_an_older_body_reads_the_fields_it_holds
    read = Proto::Order.from_fbe(older_order(16))
    assert_equal [9, 'ABC', Proto::OrderSide::BUY, Proto::OrderType::MARKET, 0.0, 0.0],
                 [read.id, read.symbol, read.side, read.type, read.price, read.volume]
    read = Proto::Order.from_fbe(older_order(26))
    assert_equal [9, 'ABC', Proto::OrderSide::SELL, Proto::OrderType::LIMIT, 2.5, 0.0],
                 [read.id, read.symbol, read.side, read.type, read.price, read.volume]
    read = Proto::Order.from_fbe(older_order(34))
    assert_equal [Proto::OrderSide::SELL, Proto::OrderType::LIMIT, 2.5, 4.0],
                 [read.side, read.type, read.price, read.volume]
  end

  # docs/format.md 1: a float NaN's sign and payload survive a write and a read, which Array#pack('e')
  # (writing every NaN as 0x7FC00000) lost: a field of a generated writer's pack (Everything.f13) in
  # each writer, and the float codec (an optional's or a collection's value). What rounds to the largest
  # float, which Array#pack('e') writes as infinity, is written as C's conversion (the accelerator's) writes it.
  def test_a_float_keeps_its_bits
    nans = %w[fff6e979 7fc00001 ffffffff ffc00000]
    rounded = { 3.4028235e38 => '7f7fffff', -3.4028235677973362e38 => 'ff7fffff', 3.4028235677973366e38 => '7f800000',
                -1e39 => 'ff800000', Float::INFINITY => '7f800000', 10**39 => '7f800000', 1.5 => '3fc00000' }
    nans.each { |bits| rounded[[bits].pack('H*').reverse.unpack1('e')] = bits }
    rounded.each { |number, bits| assert_equal bits, Fbe::Types::FLOAT.bytes(number).reverse.unpack1('H*'), number }
    readers = { to_fbe: :from_fbe, to_fbe_pure: :from_fbe, to_final: :from_final, to_final_pure: :from_final }
    readers.each do |write, read|
      at = Everything::Everything.new(f13: 1.5).public_send(write).index([1.5].pack('e'))
      rounded.each do |number, bits|
        data = Everything::Everything.new(f13: number).public_send(write)
        assert_equal bits, data.byteslice(at, 4).reverse.unpack1('H*'), "#{write} #{number}"
        assert_equal data, Everything::Everything.public_send(read, data).public_send(write), write
      end
    end
  end

  def test_a_run_cut_short_names_its_first_missing_field
    data = order.to_final
    cut = data[0, data.bytesize - 9]
    cut[0, 4] = [cut.bytesize].pack('L<')
    error = assert_raises(Fbe::DecodeError) { Proto::Order.from_final(cut) }
    assert_equal 'value beyond the end of the buffer (proto.Order.price, offset 24)', error.message
  end
end
