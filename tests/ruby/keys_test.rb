# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'everything')

# A key of two fields (everything.Route: [key] venue, weight, [key] leg): eql? and hash take venue and
# leg, never weight (== compares every field); sets and maps of routes are written ordered by venue,
# then leg (docs/format.md 3.4), whatever order they hold; two routes of one key are one key twice
# (docs/limits.md 4).
class KeysTest < Minitest::Test
  def route(venue, leg, weight = 0.0)
    Everything::Route.new(venue: +venue, leg:, weight:)
  end

  def test_two_key_fields_are_the_key_in_declaration_order
    assert route('a', 2, 1.0).eql?(route('a', 2, 9.0))
    assert_equal route('a', 2, 1.0).hash, route('a', 2, 9.0).hash
    refute_equal route('a', 2, 1.0), route('a', 2, 9.0)
    refute route('a', 2).eql?(route('a', 3))
    refute route('a', 2).eql?(route('b', 2))
    assert_equal 3, Set[route('b', 1), route('a', 2), route('a', 2, 5.0), route('a', -1)].size
  end

  def test_sets_and_maps_written_in_key_order
    routes = Everything::Routes.new(routes: Set[route('b', 1), route('a', 2), route('a', -1)],
                                    ranks: { route('b', 1) => 10, route('a', 2) => 20 })
    %i[fbe final].each do |model|
      back = Everything::Routes.public_send(:"from_#{model}", routes.public_send(:"to_#{model}"))
      assert_equal [['a', -1], ['a', 2], ['b', 1]], back.routes.map { |r| [r.venue, r.leg] }, model
      assert_equal [['a', 2], ['b', 1]], back.ranks.keys.map { |r| [r.venue, r.leg] }, model
    end
    assert_includes routes.to_json,
                    '"ranks":[[{"venue":"a","weight":0.0,"leg":2},20],[{"venue":"b","weight":0.0,"leg":1},10]]'
    twice = Everything::Routes.new(routes: [route('a', 2, 1.0), route('a', 2, 9.0)])
    error = assert_raises(Fbe::EncodeError) { twice.to_fbe }
    assert_includes error.message, 'everything.Routes.routes: two elements are the same'
    assert_equal 2, Everything::Routes.new(routes: [route('a', 2), route('a', 3)]).to_final.unpack1('@8V')
  end
end
