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

  def masked(bytes, ranges)
    out = bytes.dup
    ranges.each { |at, n| out[at, n] = "\0" * n }
    out
  end

  def vector(name)
    File.binread(File.join(SHARED, 'vectors', name))
  end

  def type_of(kase)
    Object.const_get(kase['package'].capitalize).const_get(kase['type'])
  end

  def test_manifest_is_read
    need_shared(self)
    assert_operator CASES.length, :>=, 28
  end

  CASES.each do |c|
    define_method("test_#{c['name']}") { check(c) }
  end

  def check(kase)
    need_shared(self)
    files = kase['files'].to_h { |f| [f['kind'], f] }
    type = type_of(kase)
    versioned = vector(files['versioned']['file'])
    final = vector(files['final']['file'])
    text = vector(files['text']['file'])
    ranges = files['versioned'].fetch('unspecified_bytes', [])

    assert type.verify_fbe(versioned), 'verify_fbe of the versioned vector'
    assert type.verify_final(final), 'verify_final of the final vector'
    v = type.from_fbe(versioned)
    f = type.from_final(final)
    assert_equal v, f, 'both models read the same value'
    written = v.to_fbe
    if HASHES.include?(kase['name'])
      assert_equal versioned.bytesize, written.bytesize
      assert_equal final.bytesize, f.to_final.bytesize
      assert_equal v, type.from_fbe(written)
      assert_equal f, type.from_final(f.to_final)
    else
      assert_equal masked(versioned, ranges).unpack1('H*'), masked(written, ranges).unpack1('H*'), 'to_fbe'
      assert_equal final.unpack1('H*'), f.to_final.unpack1('H*'), 'to_final'
      assert_equal final.unpack1('H*'), v.to_final.unpack1('H*'), 'the versioned value written final'
      assert_equal text.b, f.to_s.b, 'the text form'
    end
  end
end
