# frozen_string_literal: true

require_relative 'test_helper'
require 'tmpdir'

generated('project', 'chars')
generated('project', 'decimals')
generated('project', 'everything')
generated('project', 'recursive')
generated_trade_model
%w[protoex test enums].each { |package| generated('shared', package) } if
  File.directory?(File.join(GEN, 'shared'))

# The C accelerator (runtime/ruby/ext/fbe_accel, docs/ruby.md "The C accelerator"): make test-ruby
# runs every test twice, with it (FBE_ACCEL_EXPECTED=1, the extension on the load path) and without
# it (FBE_PURE_RUBY=1). Here to_fbe and to_final (the accelerator when loaded) are compared with
# to_fbe_pure and to_final_pure (the pure-Ruby writers) on the golden vectors' values and on seeded
# mutations of values of every type: the same bytes, or the same error (class and message).
class AccelTest < Minitest::Test
  MANIFEST = File.join(SHARED, 'vectors', 'MANIFEST.json')
  CASES = File.exist?(MANIFEST) ? JSON.parse(File.read(MANIFEST))['cases'] : []

  def test_loaded_as_the_run_expects
    assert Fbe.accelerated?, 'the C accelerator is not loaded' if ENV['FBE_ACCEL_EXPECTED'] == '1'
    refute Fbe.accelerated?, 'FBE_PURE_RUBY=1 and the accelerator is loaded' if ENV['FBE_PURE_RUBY'] == '1'
  end

  # extconf.rb as gem install runs it, in an empty folder, with mkmf's size of long given (nil: as
  # measured): [the Makefile it writes, what it printed to stderr].
  def extconf(long_size)
    extconf = File.join(REPO, 'runtime', 'ruby', 'ext', 'fbe_accel', 'extconf.rb')
    Dir.mktmpdir do |dir|
      stub = File.join(dir, 'long_size.rb')
      File.write(stub, "require 'mkmf'\n" \
                       "MakeMakefile.prepend(Module.new { define_method(:check_sizeof) { |*| #{long_size} } })\n")
      # no Open3 (its reader threads trip ASan's thread teardown in make ruby-accel-asan), no LD_PRELOAD
      log = File.join(dir, 'stderr')
      ok = system({ 'LD_PRELOAD' => nil }, RbConfig.ruby, *(long_size ? ["-r#{stub}"] : []), extconf,
                  chdir: dir, out: File::NULL, err: log)
      assert ok, File.read(log)
      [File.read(File.join(dir, 'Makefile')), File.read(log)]
    end
  end

  # fbe_accel.c computes in long and needs 64 bits of it (a static assertion): where long is shorter
  # (LLP64, 32-bit platforms) extconf.rb builds nothing and the gem runs in pure Ruby.
  def test_built_only_where_long_has_64_bits
    makefile, = extconf(nil)
    assert_includes makefile, 'TARGET = fbe_accel'
    makefile, err = extconf(4)
    assert_equal "all install clean distclean:\n\t@:\n", makefile
    assert_includes err, 'fbe: a long of fewer than 64 bits: the C accelerator is not built'
  end

  def seeds
    order = Proto::Order.new(id: 1, symbol: +'EURUSD', side: Proto::OrderSide::SELL, price: 1.5, volume: 2.0)
    [Everything::Everything.new, Everything::Derived.new, Everything::ImportedBase.new, Everything::Note.new,
     Everything::Empty.new, Decimals::Prices.new(price_vector: [BigDecimal('1.25')], maybe_price: BigDecimal(3)),
     Recursive::Node.new(id: 1, children: [Recursive::Node.new(id: 2)]),
     Proto::Account.new(id: 7, name: +'A', wallet: Proto::Balance.new(currency: +'USD', amount: 1.0),
                        asset: Proto::Balance.new, orders: [order, order])] + vector_values
  end

  def vector_values
    CASES.filter_map do |c|
      file = c['files'].find { |f| f['kind'] == 'versioned' }
      type = Object.const_get(c['package'].capitalize).const_get(c['type'])
      type.from_fbe(File.binread(File.join(SHARED, 'vectors', file['file'])))
    rescue NameError
      nil
    end
  end

  WRITERS = { to_fbe: :to_fbe_pure, to_final: :to_final_pure }.freeze

  def outcome(value, writer)
    [:ok, value.public_send(writer).unpack1('H*')]
  rescue StandardError => e
    [e.class, e.message]
  end

  # What each writer makes of the value: [writer, outcome] of every writer and its pure-Ruby twin.
  def outcomes(value)
    WRITERS.flat_map { |fast, pure| [[fast, outcome(value, pure)], [fast, outcome(value, fast)]] }.each_slice(2)
  end

  # With the accelerator loaded, the C writer takes every seed (it leaves none to Ruby) and writes
  # what the pure-Ruby writer writes.
  def test_vectors_and_seeds_written_the_same_by_both_writers
    seeds.each do |value|
      outcomes(value).each { |(writer, pure), (_, fast)| assert_equal pure, fast, "#{writer} of #{value.class}" }
      next unless Fbe.accelerated?

      refute_nil Fbe::Accel.to_fbe(value), "the versioned C writer left #{value.class} to Ruby"
      refute_nil Fbe::Accel.to_final(value), "the final C writer left #{value.class} to Ruby"
    end
  end

  # Values that a generated writer accepts, wraps or refuses, put in place of a random field (or a
  # random element of a collection field) of a random struct in a seed's tree.
  MUTANTS = [
    nil, true, false, 0, 1, -1, 127, 128, -129, 255, 256, 0xFFFF, 0x10000, -0x8001, 0x7FFFFFFF, 0x80000000,
    -0x80000001, 0xFFFFFFFF, 0x100000000, (1 << 62) - 1, 1 << 62, -(1 << 62) - 1, (1 << 63) - 1, 1 << 63,
    -(1 << 63), -(1 << 63) - 1, (1 << 64) - 1, 1 << 64, 1.5, -0.0, Float::NAN, Float::INFINITY, 1e300,
    Rational(1, 3), BigDecimal('2.5'), +'', +'abc', 'é'.encode('ISO-8859-1'), 'ab'.encode('UTF-16LE'),
    "\xFF\xFE".b, "bad \xC3".dup.force_encoding('UTF-8'), 'US'.encode('US-ASCII'), :symbol, [], [1, 2], [nil],
    ['a', 1], [1.5, 2], {}, { 1 => 2 }, { 'a' => 'b' }, Set[1, 2], Object.new, Proto::OrderSide::BUY,
    Proto::State::GOOD, Proto::State.new(0xFF), Everything::EInt8.from_wire(-1), Everything::EuInt64.from_wire(1 << 63),
    Proto::Balance.new, Proto::Order.new, Everything::Derived.new, Everything::Fixed.new, Market::Instrument.new
  ].freeze

  def structs_in(value, out = [])
    return out unless value.is_a?(Fbe::Value) && out.length < 64

    out << value
    value.fbe_values.each do |v|
      items = v.is_a?(Hash) ? v.keys + v.values : Array(v)
      items.each { |e| structs_in(e, out) } if v.is_a?(Enumerable) || v.is_a?(Fbe::Value)
    end
    out
  end

  def mutate(value, random)
    target = structs_in(value).sample(random:)
    names = target.instance_variables
    return if names.empty?

    name = names.sample(random:)
    current = target.instance_variable_get(name)
    mutant = MUTANTS.sample(random:)
    if current.is_a?(Array) && !current.empty? && random.rand(2) == 0
      current[random.rand(current.length)] = mutant
    else
      target.instance_variable_set(name, mutant)
    end
  end

  def test_seeded_mutations_written_the_same_by_both_writers
    random = Random.new(1)
    originals = seeds
    taken = written = 0
    1500.times do |i|
      value = Marshal.load(Marshal.dump(originals[i % originals.length]))
      (1 + random.rand(3)).times { mutate(value, random) }
      outcomes(value).each do |(writer, pure), (_, fast)|
        assert_equal pure, fast, "#{writer} of mutation #{i} of #{value.class}"
        next unless pure[0] == :ok

        written += 1
        taken += 1 if Fbe.accelerated? && Fbe::Accel.public_send(writer, value)
      end
    end
    assert_operator taken * 3, :>, written * 2, 'the C writers left most values to Ruby' if Fbe.accelerated?
  end

  # Ruby code a C writer calls (here the decimal codec, after Everything's second decimal) that shortens
  # the output String: the C writer writes nothing where the String no longer reaches (ASan: make
  # ruby-accel-asan) and leaves the value to Ruby, which writes it (the codec then leaves it be); that
  # copies it (a copy shares its bytes): the C writer writes the pure writer's bytes, none into the copy.
  def test_a_codec_that_shortens_or_copies_the_output
    return unless Fbe.accelerated?

    AccelHook.install(Fbe::Types::Decimal)
    value = Everything::Everything.new
    { to_fbe: value.to_fbe_pure, to_final: value.to_final_pure }.each do |writer, bytes|
      shorten = ->(w) { w.buffer.clear << ('x' * 30) }
      AccelHook.block = ->(_) { AccelHook.block = shorten }
      assert_nil Fbe::Accel.public_send(writer, value), "#{writer}: C wrote a value"
      assert_nil AccelHook.block, "#{writer}: the output was not shortened"
      AccelHook.block = ->(_) { AccelHook.block = shorten }
      assert_equal bytes.unpack1('H*'), value.public_send(writer).unpack1('H*'), writer
      copy = nil
      AccelHook.block = ->(w) { copy = [w.buffer.dup, w.buffer.unpack1('H*')] }
      assert_equal bytes.unpack1('H*'), Fbe::Accel.public_send(writer, value).unpack1('H*'), writer
      assert_equal copy[1], copy[0].unpack1('H*'), "#{writer}: the copy changed"
    end
  ensure
    AccelHook.block = nil
  end
end
