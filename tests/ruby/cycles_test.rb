# frozen_string_literal: true

require_relative 'test_helper'

generated('ruby_tests', 'cycles')

# Structs that hold each other (tests/ruby/cycles.fbe) load, and read and write in both models:
# a codec of a struct declared but not yet defined asks its sizes when first used.
class CyclesTest < Minitest::Test
  def value
    inner = Cycles::Left.new(id: 3)
    Cycles::Left.new(id: 1, rights: [Cycles::Right.new(id: 2, left: inner)], pair: [nil, Cycles::Right.new(id: 4)],
                     by_id: { 5 => Cycles::Right.new(id: 5) })
  end

  def test_both_models
    assert_equal value, Cycles::Left.from_fbe(value.to_fbe)
    assert_equal value, Cycles::Left.from_final(value.to_final)
    assert_equal value, Cycles::Left.from_json(value.to_json)
    assert_equal 'Left(id=1,rights=[1][Right(id=2,left=Left(id=3,rights=[0][],pair=[2][null,null],byId=[0]<{}>),' \
                 'lefts=[0][])],pair=[2][null,Right(id=4,left=null,lefts=[0][])],' \
                 'byId=[1]<{5->Right(id=5,left=null,lefts=[0][])}>)', value.to_s
  end
end
