# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'hostile')
generated('project', 'recursive')
generated('shared', 'test') if File.directory?(File.join(GEN, 'shared'))

# The limits of docs/limits.md with their defaults, on the shapes of conformance/limits.py.
class LimitsTest < Minitest::Test
  # A final Empties root of count elements in 12 bytes: each empty struct costs 32 (limits.md 3).
  def empties(count)
    [12, Hostile::Empties::FBE_TYPE_ID, count].pack('L<L<L<')
  end

  def test_structs_that_take_no_bytes_cost_32_each
    assert_equal 130, Hostile::Empties.from_final(empties(130)).items.length
    error = assert_raises(Fbe::DecodeError) { Hostile::Empties.from_final(empties(131)) }
    assert_match(/decode budget exceeded/, error.message)
    refute Hostile::Empties.verify_final(empties(131))
    refute Hostile::Empties.verify_final(empties(0xFFFFFFFF))
  end

  # A 36-byte versioned Wides whose one element is an older writer's 8-byte body: its default
  # (int32[1000000], a struct value costing 4,000,000) is charged when the reader enters it, before
  # anything is made, so the default budget refuses it.
  def wides
    body = [12, Hostile::Wides::FBE_TYPE_ID, 12].pack('L<L<L<')
    [36, 8].pack('L<L<') + body + [1, 20].pack('L<L<') + [8, Hostile::Wide::FBE_TYPE_ID].pack('L<L<')
  end

  def test_a_default_is_charged_before_it_is_made
    error = assert_raises(Fbe::DecodeError) { Hostile::Wides.from_fbe(wides) }
    assert_equal 'decode budget exceeded (hostile.Wide, offset 28)', error.message
    paid = Hostile::Wides.from_fbe(wides, limits: Fbe::Limits.new(budget_slack: 4_100_000))
    assert_equal [0] * 1_000_000, paid.items[0].values
  end

  def chain(depth)
    node = Recursive::Node.new(id: depth)
    (depth - 1).times { |k| node = Recursive::Node.new(id: k, children: [node]) }
    node
  end

  def test_depth
    deepest = chain(128)
    [[deepest.to_fbe, :from_fbe], [deepest.to_final, :from_final]].each do |data, read|
      assert_equal deepest, Recursive::Node.public_send(read, data)
      error = assert_raises(Fbe::DecodeError) do
        Recursive::Node.public_send(read, data, limits: Fbe::Limits.new(max_depth: 127))
      end
      assert_match(/structs nested deeper than 127 \(recursive\.Node, offset \d+\)/, error.message)
    end
    error = assert_raises(Fbe::EncodeError) { chain(129).to_fbe }
    assert_equal 'cannot write recursive.Node: structs nested deeper than 128', error.message
    assert_raises(Fbe::EncodeError) { chain(129).to_final }
  end

  def test_struct_offset_zero_is_refused
    data = chain(2).to_fbe
    honest = Recursive::Node.from_fbe(data)
    assert_equal chain(2), honest
    vector = data.unpack1('L<', offset: 8 + 16) + 8 # the children's block, from the root body
    broken = data.dup
    broken[vector + 4, 4] = "\0\0\0\0"
    error = assert_raises(Fbe::DecodeError) { Recursive::Node.from_fbe(broken) }
    assert_equal "struct offset 0 (recursive.Node.children, offset #{vector + 4})", error.message
  end

  def test_a_repeated_key_is_refused
    need_shared(self)
    value = Test::StructSet.new(f1: Set[1, 2])
    data = value.to_final
    assert_equal value, Test::StructSet.from_final(data)
    at = data.index([2].pack('C'), 12)
    data.setbyte(at, 1)
    error = assert_raises(Fbe::DecodeError) { Test::StructSet.from_final(data) }
    assert_match(/\Aduplicate key: two entries read as the same key \(test\.StructSet\.f1, offset 8\)/, error.message)
  end
end
