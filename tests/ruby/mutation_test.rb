# frozen_string_literal: true

require_relative 'test_helper'

%w[proto protoex test enums].each { |package| generated('shared', package) } if
  File.directory?(File.join(GEN, 'shared'))

# The seeded mutation suite every runtime passes (docs/limits.md 4): each golden vector, in both
# models, changed in many ways (bit flips, bytes and 32-bit fields set to boundary values,
# truncations) with a fixed seed. For every input the reader either gives a value or raises
# Fbe::DecodeError (nothing else: no NoMethodError, ArgumentError or RangeError from a bad offset),
# verify gives the read's verdict, and a value read writes and reads back to the same bytes.
class MutationTest < Minitest::Test
  MANIFEST = File.join(SHARED, 'vectors', 'MANIFEST.json')
  CASES = File.exist?(MANIFEST) ? JSON.parse(File.read(MANIFEST))['cases'] : []
  ROUNDS = Integer(ENV.fetch('FBE_MUTATIONS', '150'))
  include ByteMutations

  # [verdict, error text] of the read, and what a value read writes back.
  def outcome(type, data, final)
    value = final ? type.from_final(data) : type.from_fbe(data)
    ['ok', final ? value.to_final : value.to_fbe]
  rescue Fbe::DecodeError => e
    [e.message, nil]
  end

  def check(type, bytes, final, random)
    ROUNDS.times do
      data = mutate(bytes, random)
      verdict, written = outcome(type, data, final)
      verified = final ? type.verify_final(data) : type.verify_fbe(data)
      assert_equal verdict == 'ok', verified, "verify is not the read's verdict on #{data.unpack1('H*')}"
      next unless written

      assert_equal written, outcome(type, written, final)[1], "a value read does not read back: #{data.unpack1('H*')}"
    end
  end

  def test_manifest_is_read
    need_shared(self)
    assert_operator CASES.length, :>=, 28
  end

  CASES.each_with_index do |c, k|
    define_method("test_#{c['name']}") do
      need_shared(self)
      type = Object.const_get(c['package'].capitalize).const_get(c['type'])
      random = Random.new(k + 1)
      c['files'].each do |f|
        next unless %w[versioned final].include?(f['kind'])

        check(type, File.binread(File.join(SHARED, 'vectors', f['file'])), f['kind'] == 'final', random)
      end
    end
  end
end
