# frozen_string_literal: true

require_relative 'test_helper'

generated('ruby_tests', 'nesting')

# The writers' depth check (docs/limits.md 1, Fbe::Nesting): a root of an unbounded struct is walked
# before it is written, bounded structs below it included; bounded roots are not walked.
class NestingTest < Minitest::Test
  TOO_DEEP = 'structs nested deeper than 128'

  # A chain of trees, the innermost (at level `trees`) holding mid.
  def chain(trees, mid: nil, by_id: {})
    node = Nesting::Tree.new(id: trees, mid:, by_id:)
    (trees - 1).times { |k| node = Nesting::Tree.new(id: k, children: [node]) }
    node
  end

  def mid
    Nesting::Mid.new(leaf: Nesting::Leaf.new(id: 1))
  end

  def writers
    %i[to_fbe to_final to_json]
  end

  def reader(writer)
    { to_fbe: :from_fbe, to_final: :from_final, to_json: :from_json }.fetch(writer)
  end

  def test_bounded_levels_below_an_unbounded_root
    assert_equal 2, Nesting::Mid::FBE_LEVELS
    assert_nil Nesting::Tree::FBE_LEVELS
    writers.each do |writer|
      fits = chain(126, mid:)
      read = reader(writer)
      assert_equal fits, Nesting::Tree.public_send(read, fits.public_send(writer))
      error = assert_raises(Fbe::EncodeError) { chain(127, mid:).public_send(writer) }
      assert_equal "cannot write nesting.Leaf: #{TOO_DEEP}", error.message
      error = assert_raises(Fbe::EncodeError) { chain(128, by_id: { 1 => mid }).public_send(writer) }
      assert_equal "cannot write nesting.Mid: #{TOO_DEEP}", error.message
      deep_leaves = chain(127, mid: Nesting::Mid.new(leaves: [Nesting::Leaf.new]))
      error = assert_raises(Fbe::EncodeError) { deep_leaves.public_send(writer) }
      assert_equal "cannot write nesting.Leaf: #{TOO_DEEP}", error.message
      # levels the schema allows (mid) but the value does not hold are not counted
      assert_equal chain(128), Nesting::Tree.public_send(read, chain(128).public_send(writer))
    end
  end

  # Limits take any max_depth, Ruby's stack does not: a root nested deeper than the stack holds is
  # refused with the readers' DecodeError (docs/limits.md 1), by every reader, accelerated or not (the
  # C readers leave such depths to Ruby), never a SystemStackError.
  def test_nesting_deeper_than_the_stack_is_a_decode_error
    levels = 100_000
    limits = Fbe::Limits.new(max_depth: 10 * levels)
    tid = Nesting::Tree::FBE_TYPE_ID
    # versioned: each body (25 bytes: size, type, id, children, mid, byId) then its children (one slot)
    body = (0...levels - 1).map { |k| [25, tid, k, 25].pack('VVl<V') + ("\0" * 9) + [1, 33].pack('VV') }.join
    body << [25, tid, levels, 0].pack('VVl<V') << ("\0" * 9)
    versioned = [8 + body.bytesize, 8].pack('VV') + body
    # final: id, children (a count and the child), then mid (absent) and byId (empty) of each level
    fields = ([0, 1].pack('l<V') * (levels - 1)) + [levels, 0].pack('l<V') + (("\0" * 5) * levels)
    final = [8 + fields.bytesize, tid].pack('VV') + fields
    json = "#{'{"id":1,"children":[' * levels}{}#{']}' * levels}"
    { from_fbe: versioned, from_final: final, from_json: json }.each do |read, data|
      error = assert_raises(Fbe::DecodeError, read.to_s) { Nesting::Tree.public_send(read, data, limits:) }
      assert_match(/nested deeper than the stack holds \(max_depth #{10 * levels}\)/, error.message, read.to_s)
    end
    refute Nesting::Tree.verify_fbe(versioned, limits:)
    refute Nesting::Tree.verify_final(final, limits:)
    # within the default limits the same roots are refused by the depth check
    error = assert_raises(Fbe::DecodeError) { Nesting::Tree.from_final(final) }
    assert_match(/nested deeper than 128/, error.message)
  end

  def test_a_value_holding_itself_is_refused
    tree = Nesting::Tree.new(id: 1)
    tree.children << tree
    writers.each do |writer|
      error = assert_raises(Fbe::EncodeError) { tree.public_send(writer) }
      assert_equal "cannot write nesting.Tree: #{TOO_DEEP}", error.message
    end
  end
end
