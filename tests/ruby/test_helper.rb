# frozen_string_literal: true

# What every test of tests/ruby loads: the runtime (runtime/ruby/lib), the generated code of every
# schema (build/ruby/gen, written by tests/ruby/gen.py before the tests run) and minitest.

require 'json'
require 'minitest/autorun'

REPO = File.expand_path('../..', __dir__)
$LOAD_PATH.unshift(File.join(REPO, 'runtime', 'ruby', 'lib'))
require 'fbe'

GEN = ENV.fetch('FBE_RUBY_GEN', File.join(REPO, 'build', 'ruby', 'gen'))
SHARED = ENV.fetch('SHARED', File.expand_path('../shared', REPO))

# Loads the generated file of a package of a group of schemas (tests/ruby/gen.py).
def generated(group, package)
  path = File.join(GEN, group, "#{package}.rb")
  raise "#{path} is missing: run python tests/ruby/gen.py first (make test-ruby does)" unless File.exist?(path)

  require path
end

# Loads the trade model's package proto: schemas/trade.fbe is ../shared's proto.fbe (the same
# package and types), which the vector tests load; one process holds one of them, or every method
# and constant would be defined twice (ruby -w warns).
def generated_trade_model
  generated(File.exist?(File.join(GEN, 'shared', 'proto.rb')) ? 'shared' : 'trade', 'proto')
end

# Skips the test when ../shared is absent, and fails it when CI=true.
def need_shared(test)
  return if File.directory?(File.join(SHARED, 'vectors'))

  test.flunk("#{SHARED}/vectors is missing (CI=true)") if ENV['CI'] == 'true'
  test.skip("#{SHARED}/vectors is absent: the golden vectors are not checked")
end

# The checks of one golden case (a case of a MANIFEST.json: its versioned, final and text files in
# folder): each file read and verified, written back byte for byte (unspecified bytes masked; a
# hash's entries, in the order it holds, compared by their length and what they read back as),
# each model's value written in the other, and the text form equal to the file's.
module GoldenCase
  def masked(bytes, ranges)
    out = bytes.dup
    ranges.each { |at, n| out[at, n] = "\0" * n }
    out
  end

  def check_case(kase, folder, hashes: [])
    files = kase['files'].to_h { |f| [f['kind'], File.binread(File.join(folder, f['file']))] }
    ranges = kase['files'].find { |f| f['kind'] == 'versioned' }.fetch('unspecified_bytes', [])
    type = Object.const_get(kase['package'].capitalize).const_get(kase['type'])
    assert type.verify_fbe(files['versioned']), 'verify_fbe of the versioned vector'
    assert type.verify_final(files['final']), 'verify_final of the final vector'
    v = type.from_fbe(files['versioned'])
    f = type.from_final(files['final'])
    assert_equal v, f, 'both models read the same value'
    if hashes.include?(kase['name'])
      check_hash(type, files, v, f)
    else
      assert_equal masked(files['versioned'], ranges).unpack1('H*'), masked(v.to_fbe, ranges).unpack1('H*'), 'to_fbe'
      assert_equal files['final'].unpack1('H*'), f.to_final.unpack1('H*'), 'to_final'
      assert_equal files['final'].unpack1('H*'), v.to_final.unpack1('H*'), 'the versioned value written final'
      assert_equal files['text'].b, f.to_s.b, 'the text form'
      check_json(type, files, f) if files['json']
    end
  end

  def check_json(type, files, value)
    assert_equal files['json'], value.to_json.b, 'to_json'
    from_json = type.from_json(files['json'])
    assert_equal files['final'].unpack1('H*'), from_json.to_final.unpack1('H*'), 'from_json written final'
    assert_equal files['json'], from_json.to_json.b, 'from_json written back'
  end

  def check_hash(type, files, versioned, final)
    assert_equal files['versioned'].bytesize, versioned.to_fbe.bytesize
    assert_equal files['final'].bytesize, final.to_final.bytesize
    assert_equal versioned, type.from_fbe(versioned.to_fbe)
    assert_equal final, type.from_final(final.to_final)
    # a Hash keeps the order it was read in: the file's
    check_json(type, files, final) if files['json']
  end
end

# The seeded mutations of a binary root (mutation_test.rb, accel_read_test.rb): a bit flipped, a
# byte or a 32-bit field set to a boundary value (a 32-bit one sometimes plus its own position: an
# offset that points near itself), or the bytes cut short.
module ByteMutations
  BOUNDARY = [0, 1, 7, 8, 0x7F, 0x80, 0xFF].freeze
  BOUNDARY32 = [0, 1, 4, 8, 16, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF].freeze

  def mutate(bytes, random)
    out = bytes.dup
    case random.rand(4)
    when 0 then out.setbyte(at = random.rand(out.bytesize), out.getbyte(at) ^ (1 << random.rand(8)))
    when 1 then out.setbyte(random.rand(out.bytesize), BOUNDARY.sample(random:))
    when 2
      at = random.rand([out.bytesize - 3, 1].max)
      out[at, 4] = [BOUNDARY32.sample(random:) + (random.rand(2).zero? ? 0 : at)].pack('L<')[0, 4]
    else out = out.byteslice(0, random.rand(out.bytesize))
    end
    out.b
  end
end

# Ruby code the C accelerator runs in the middle of a read or write (an enum's from_wire,
# Fbe::Accel.plan, the decimal codec), made to run a test's block once after it, given the codec's
# Fbe::Writer when writing: such code, or another thread while it runs, can do anything to the input
# or output String (accel_read_test.rb, accel_test.rb).
module AccelHook
  class << self
    attr_accessor :block

    def run(writer = nil)
      block = self.block
      self.block = nil
      block&.call(writer)
    end
  end

  # Prepended to the Ruby code above (AccelHook.install).
  module Call
    def from_wire(value) = super.tap { AccelHook.run }
    def plan(klass) = super.tap { AccelHook.run }
    def read(reader, base, pos, field) = super.tap { AccelHook.run }
    def fread(reader, field) = super.tap { AccelHook.run }
    def write(writer, base, pos, value) = super.tap { AccelHook.run(writer) }
    def fwrite(writer, value) = super.tap { AccelHook.run(writer) }
  end

  def self.install(*modules)
    modules.each { |m| m.prepend(Call) unless m.include?(Call) }
  end
end
