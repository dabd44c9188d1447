# frozen_string_literal: true

require_relative 'test_helper'

%w[proto protoex test enums].each { |package| generated('shared', package) } if
  File.directory?(File.join(GEN, 'shared'))

# Every case of ../shared/vectors/MANIFEST.json in both models: each file read, verified and
# written back byte for byte (the unspecified bytes of absent optionals masked; a hash's entries
# in the order it holds, so its bytes are compared by their length and what they read back as),
# each model's value written in the other, and the text form as the original printed it.
class VectorsTest < Minitest::Test
  MANIFEST = File.join(SHARED, 'vectors', 'MANIFEST.json')
  CASES = File.exist?(MANIFEST) ? JSON.parse(File.read(MANIFEST))['cases'] : []
  HASHES = %w[test_struct_hash test_struct_hashex].freeze

  include GoldenCase

  def test_manifest_is_read
    need_shared(self)
    assert_operator CASES.length, :>=, 28
  end

  CASES.each do |c|
    define_method("test_#{c['name']}") do
      need_shared(self)
      check_case(c, File.join(SHARED, 'vectors'), hashes: HASHES)
    end
  end
end
