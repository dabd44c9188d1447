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

  def test_a_value_holding_itself_is_refused
    tree = Nesting::Tree.new(id: 1)
    tree.children << tree
    writers.each do |writer|
      error = assert_raises(Fbe::EncodeError) { tree.public_send(writer) }
      assert_equal "cannot write nesting.Tree: #{TOO_DEEP}", error.message
    end
  end
end
