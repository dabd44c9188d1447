# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'decimals')
generated('project', 'everything')
generated('project', 'hostile')
generated('project', 'recursive')
%w[proto protoex test enums].each { |package| generated('shared', package) } if
  File.directory?(File.join(GEN, 'shared'))

# The readers of the C accelerator (runtime/ruby/ext/fbe_accel, docs/ruby.md "The C accelerator"):
# Fbe::Accel.from_fbe, from_final, verify_fbe and verify_final against the pure-Ruby readers
# (from_fbe_pure, from_final_pure, fbe_versioned and fbe_final) on the golden vectors, on values of
# every type, on reads across versions and on seeded mutations, both models. Whenever the C reader
# gives a value, the pure-Ruby reader gives the same one (same classes, encodings and float bits:
# Marshal.dump and the final bytes); C verify takes what the C read takes; and from_fbe,
# from_final and verify, which fall back to Ruby where C leaves the input, give the pure verdict,
# value and error (class and message). Under tight limits the C reader accepts exactly at the
# smallest budget and depth the pure reader accepts: both charge the same. make test-ruby runs it
# with the accelerator loaded and with FBE_PURE_RUBY=1, where the public readers are the pure ones
# and what C takes is not asserted (accel_test.rb checks that the accelerator is loaded as expected).
class AccelReadTest < Minitest::Test
  MANIFEST = File.join(SHARED, 'vectors', 'MANIFEST.json')
  CASES = File.exist?(MANIFEST) ? JSON.parse(File.read(MANIFEST))['cases'] : []
  MUTATIONS = 1600
  include ByteMutations

  # What a value is, to the bit: its Marshal form (classes, instance variables in order, encodings)
  # and its final bytes (float bits). Its strings are copied first: whether two equal frozen strings
  # (a hash's keys) are one object depends on Ruby's table of interned strings, not on the reader.
  def snapshot(value)
    final = begin
      value.to_final_pure.unpack1('H*')
    rescue StandardError => e
      [e.class, e.message]
    end
    [Marshal.dump(unshared(value)), final]
  end

  # The value with every String a new object of the same bytes, encoding and frozen state.
  def unshared(value)
    case value
    when String then value.frozen? ? String.new(value).freeze : String.new(value)
    when Array then value.map { |item| unshared(item) }
    when Hash then value.to_h { |key, item| [unshared(key), unshared(item)] }
    when Set then value.class.new(value.map { |item| unshared(item) })
    when Integer, Float, Symbol, NilClass, TrueClass, FalseClass, BigDecimal then value
    else
      copy = value.class.allocate
      value.instance_variables.each do |name|
        copy.instance_variable_set(name, unshared(value.instance_variable_get(name)))
      end
      value.frozen? ? copy.freeze : copy
    end
  end

  # [:ok, snapshot] of the value the block reads, or the class and message of its error.
  def outcome
    [:ok, snapshot(yield)]
  rescue StandardError => e
    [e.class, e.message]
  end

  def pure(type, data, final, limits)
    outcome { final ? type.from_final_pure(data, limits:) : type.from_fbe_pure(data, limits:) }
  end

  def public_read(type, data, final, limits)
    outcome { final ? type.from_final(data, limits:) : type.from_fbe(data, limits:) }
  end

  # The C reader's value (as a snapshot), or nil when it leaves the input to Ruby (or is not loaded).
  def fast(type, data, final, limits)
    return nil unless Fbe.accelerated?

    value = final ? Fbe::Accel.from_final(type, data, limits) : Fbe::Accel.from_fbe(type, data, limits)
    value.nil? ? nil : [:ok, snapshot(value)]
  end

  def fast_verify(type, data, final, limits)
    return nil unless Fbe.accelerated?

    final ? Fbe::Accel.verify_final(type, data, limits) : Fbe::Accel.verify_fbe(type, data, limits)
  end

  # Checks one input; returns [whether pure Ruby reads it, whether C reads it].
  def check(type, data, final, limits: nil, what: nil)
    what ||= "#{type} #{final ? 'final' : 'versioned'} #{data.unpack1('H*')[0, 400]}"
    expected = pure(type, data, final, limits)
    taken = fast(type, data, final, limits)
    assert_equal expected, taken, "the C reader's value differs: #{what}" if taken
    assert_equal !taken.nil?, fast_verify(type, data, final, limits) == true, "C verify is not C read's: #{what}"
    assert_equal expected, public_read(type, data, final, limits), "from_#{final ? 'final' : 'fbe'}: #{what}"
    verified = final ? type.verify_final(data, limits:) : type.verify_fbe(data, limits:)
    assert_equal expected[0] == :ok, verified, "verify is not the read's verdict: #{what}"
    [expected[0] == :ok, !taken.nil?]
  end

  def type_of(package, name)
    Object.const_get(package.capitalize).const_get(name)
  end

  # [type, bytes, final, name] of each golden vector in each model.
  def vectors
    CASES.flat_map do |c|
      type = type_of(c['package'], c['type'])
      c['files'].filter_map do |f|
        next unless %w[versioned final].include?(f['kind'])

        [type, File.binread(File.join(SHARED, 'vectors', f['file'])), f['kind'] == 'final', c['name']]
      end
    end
  end

  def test_golden_vectors_read_by_c_as_by_ruby
    need_shared(self)
    list = vectors
    assert_operator list.length, :>=, 56
    list.each do |type, bytes, final, name|
      ok, taken = check(type, bytes, final, what: name)
      assert ok, "the pure reader refuses the golden vector #{name}"
      assert taken || !Fbe.accelerated?, "the C reader leaves #{name} (#{final ? 'final' : 'versioned'}) to Ruby"
    end
  end

  # The vectors of one version of the proto package read as the other: a newer body (protoex read
  # as proto) is C's, an older one (proto read as protoex: defaults, charged field by field) Ruby's.
  def test_reads_across_versions
    need_shared(self)
    newer = 0
    CASES.each do |c|
      other = { 'proto' => 'Protoex', 'protoex' => 'Proto' }[c['package']]
      next unless other && Object.const_get(other).const_defined?(c['type'], false)

      type = Object.const_get(other).const_get(c['type'])
      c['files'].each do |f|
        next unless f['kind'] == 'versioned'

        _, taken = check(type, File.binread(File.join(SHARED, 'vectors', f['file'])), false,
                         what: "#{c['name']} as #{type}")
        newer += 1 if taken
      end
    end
    assert_operator newer, :>=, 1, 'no newer body read by the C reader' if Fbe.accelerated?
  end

  def seeds
    order = Proto::Order.new(id: 1, symbol: +'EURUSD', side: Proto::OrderSide::SELL, price: 1.5, volume: 2.0)
    [Everything::Everything.new, Everything::Derived.new, Everything::ImportedBase.new, Everything::Note.new,
     Everything::Empty.new, Everything::Fixed.new,
     Decimals::Prices.new(price_vector: [BigDecimal('1.25')], maybe_price: BigDecimal(3)),
     Recursive::Node.new(id: 1, children: [Recursive::Node.new(id: 2, children: [Recursive::Node.new(id: 3)])]),
     Proto::Account.new(id: 7, name: +'A', wallet: Proto::Balance.new(currency: +'USD', amount: 1.0),
                        asset: Proto::Balance.new, orders: [order, order]),
     Proto::Account.new(id: -1, name: +"\xFF\xFE not UTF-8", state: Proto::State.new(0xFF),
                        orders: [Proto::Order.new(side: Proto::OrderSide.from_wire(9), price: Float::NAN,
                                                  volume: -0.0)])]
  end

  def test_values_of_every_type_read_by_c_as_by_ruby
    seeds.each do |value|
      [[value.to_fbe_pure, false], [value.to_final_pure, true]].each do |bytes, final|
        ok, taken = check(value.class, bytes, final)
        model = final ? 'final' : 'versioned'
        assert ok && (taken || !Fbe.accelerated?), "#{value.class} (#{model}): pure #{ok}, C #{taken}"
      end
    end
  end

  # A mutation of mutation_test.rb's, or a 32-bit field moved by a few (an offset or size just off).
  def mutate_more(bytes, random)
    at = 8 + random.rand([bytes.bytesize - 11, 1].max)
    return mutate(bytes, random) unless random.rand(5).zero? && at + 4 <= bytes.bytesize

    out = bytes.dup
    out[at, 4] = [(out.unpack1('L<', offset: at) + random.rand(-8..8)) & 0xFFFFFFFF].pack('L<')
    out
  end

  def inputs
    list = vectors.map { |type, bytes, final, _| [type, bytes, final] }
    list + seeds.flat_map { |v| [[v.class, v.to_fbe_pure, false], [v.class, v.to_final_pure, true]] }
  end

  def test_seeded_mutations_read_by_c_as_by_ruby
    random = Random.new(28)
    list = inputs
    counts = Hash.new(0)
    MUTATIONS.times do |i|
      type, bytes, final = list[i % list.length]
      (1 + random.rand(2)).times { bytes = mutate_more(bytes, random) if bytes.bytesize.positive? }
      ok, taken = check(type, bytes, final)
      counts[[final, ok, taken]] += 1
    end
    [false, true].each do |final|
      read = counts[[final, true, true]] + counts[[final, true, false]]
      refused = counts[[final, false, false]]
      assert_operator refused, :>=, 100, "too few mutations refused (#{final ? 'final' : 'versioned'}): #{counts}"
      next unless Fbe.accelerated?

      assert_operator counts[[final, true, true]] * 3, :>, read * 2, "the C reader left most reads to Ruby: #{counts}"
    end
  end

  # The smallest limit (found with the pure reader) at which the input reads: the C reader reads it
  # there and leaves it to Ruby one below.
  def threshold(type, bytes, final, low, high)
    while low < high
      mid = (low + high) / 2
      pure(type, bytes, final, yield(mid))[0] == :ok ? high = mid : low = mid + 1
    end
    low
  end

  def test_budget_and_depth_charged_as_the_pure_reader_charges_them
    need_shared(self)
    vectors.each do |type, bytes, final, name|
      budget = ->(slack) { Fbe::Limits.new(budget_factor: 0, budget_slack: slack) }
      least = threshold(type, bytes, final, 0, 1 << 24, &budget)
      error, text = pure(type, bytes, final, budget.call(least - 1))
      assert_equal [Fbe::DecodeError, Fbe::BUDGET_EXCEEDED], [error, text.sub(/ \(.*/, '')], "#{name}: one below"
      next unless Fbe.accelerated?

      refute_nil fast(type, bytes, final, budget.call(least)), "#{name}: C refuses the budget #{least} Ruby reads in"
      assert_nil fast(type, bytes, final, budget.call(least - 1)), "#{name}: C reads in the budget #{least - 1}"
      depth = ->(levels) { Fbe::Limits.new(max_depth: levels) }
      levels = threshold(type, bytes, final, 1, 128, &depth)
      assert_operator levels, :>=, 1
      refute_nil fast(type, bytes, final, depth.call(levels)), "#{name}: C refuses depth #{levels}"
      assert_nil fast(type, bytes, final, depth.call(levels - 1)), "#{name}: C reads at depth #{levels - 1}"
    end
  end

  # A count of 4G structs that take no bytes (a final Empties root of 12 bytes) sizes no allocation:
  # each element is paid for as it is read, and the budget refuses the 131st (limits_test.rb).
  def test_a_count_sizes_no_allocation
    empties = ->(count) { [12, Hostile::Empties::FBE_TYPE_ID, count].pack('L<L<L<') }
    assert_equal 130, Hostile::Empties.from_final(empties.call(130)).items.length
    assert_raises(Fbe::DecodeError) { Hostile::Empties.from_final(empties.call(0xFFFFFFFF)) }
    return unless Fbe.accelerated?

    assert_equal 130, Fbe::Accel.from_final(Hostile::Empties, empties.call(130), nil).items.length
    assert_nil Fbe::Accel.from_final(Hostile::Empties, empties.call(0xFFFFFFFF), nil)
    assert_nil Fbe::Accel.verify_final(Hostile::Empties, empties.call(0xFFFFFFFF), nil)
  end

  # A class's plan finds its instance variables without making a value: Wide's default holds an
  # int32[1000000].
  def test_a_plan_makes_no_default_value
    GC.disable
    before = GC.stat(:malloc_increase_bytes)
    assert_equal %i[@values], Fbe::Accel.variables(Hostile::Wide)
    assert_operator GC.stat(:malloc_increase_bytes) - before, :<, 1 << 20
  ensure
    GC.enable
  end

  # Fbe::Accel.plan wrapped by Ruby code (anyone can redefine it) to give plans made wrong.
  module WrongPlan
    class << self
      attr_accessor :change # the right plan (unfrozen) => a wrong one; nil: plans as made
    end

    def plan(klass)
      right = super
      change = WrongPlan.change
      change && right ? change.call(thaw(right)) : right
    end

    def thaw(plan) = plan.is_a?(Array) ? plan.map { |part| thaw(part) } : plan
  end

  def frozen(plan) = plan.is_a?(Array) ? plan.map { |part| frozen(part) }.freeze : plan

  # The plan with the codec plan of its first field of kind replaced by the block's (its slot kept).
  def with_codec(plan, kind)
    field = plan.find { |f| f.is_a?(Array) && f[2][0] == kind }
    field[2] = yield field[2]
    plan
  end

  # The C code trusts no plan it has not checked: a plan Ruby code made wrong (not frozen, a slot past
  # the body, a scalar of another size, a number that is no Fixnum, a Hash or class that is none, a
  # plan that holds itself...) is refused, the values go through pure Ruby, and nothing is written or
  # read where it points (ASan: make ruby-accel-asan).
  def test_plans_made_wrong_by_ruby_code_are_not_trusted
    return unless Fbe.accelerated?

    type = Everything::Everything
    value = type.new(id: 7, f17: +'text', f38: [1.5, 2.5], f36: [1, 2, 3])
    versioned = value.to_fbe_pure
    final = value.to_final_pure
    refute_nil Fbe::Accel.to_fbe(value), 'the right plan is taken'
    endless = [Fbe::Accel::OPTIONAL, 5]
    (endless << endless).freeze
    a = Fbe::Accel
    changes = {
      'not frozen' => ->(p) { p },
      'a slot past the body' => ->(p) { frozen(p.tap { p[4][1] = p[0] + 64 }) },
      'a slot across the end of the body' => ->(p) { frozen(p.tap { p[4][1] = p[0] - 2 }) },
      'a body size beyond a Fixnum' => ->(p) { frozen(p.tap { p[0] = 1 << 70 }) },
      'a type id that is no Integer' => ->(p) { frozen(p.tap { p[1] = '7' }) },
      'the plan of another class' => ->(p) { frozen(p.tap { p[3] = Everything::Derived }) },
      'a field that is no instance variable' => ->(p) { frozen(p.tap { p[4][0] = :id }) },
      'an integer of 16 bytes' => ->(p) { frozen(with_codec(p, a::INT) { |c| [a::INT, 16, c[2]] }) },
      'an enum without its Hash' => ->(p) { frozen(with_codec(p, a::ENUM) { |c| c[0, 4] + [[]] }) },
      'a struct of no class' => ->(p) { frozen(with_codec(p, a::STRUCT) { |_| [a::STRUCT, 4, :Counted] }) },
      'an array longer than its slot' => ->(p) { frozen(with_codec(p, a::ARRAY) { |c| c[0, 3] + [c[3] + 100] }) },
      'an unknown kind' => ->(p) { frozen(with_codec(p, a::BOOL) { |_| [99, 1] }) },
      'a plan that holds itself' => lambda { |p|
        frozen(with_codec(p, a::OPTIONAL) { |_| :endless }).map do |f|
          f.is_a?(Array) && f[2] == :endless ? [*f[0, 2], endless, f[3]].freeze : f
        end.freeze
      }
    }
    Fbe::Accel.singleton_class.prepend(WrongPlan) unless Fbe::Accel.singleton_class.include?(WrongPlan)
    changes.each do |what, change|
      WrongPlan.change = change
      Fbe::Accel.forget(type)
      assert_nil Fbe::Accel.to_fbe(value), what
      assert_nil Fbe::Accel.to_final(value), what
      assert_nil Fbe::Accel.from_fbe(type, versioned, nil), what
      assert_nil Fbe::Accel.from_final(type, final, nil), what
      assert_nil Fbe::Accel.verify_fbe(type, versioned, nil), what
      assert_equal [versioned, final], [value.to_fbe, value.to_final], what
      assert_equal [value, value], [type.from_fbe(versioned), type.from_final(final)], what
    end
  ensure
    WrongPlan.change = nil
    Fbe::Accel.forget(Everything::Everything) if Fbe.accelerated?
  end

  def test_inputs_c_leaves_to_ruby
    data = Proto::Order.new(id: 5, symbol: +'EURUSD').to_fbe
    assert_raises(NoMethodError) { Proto::Order.from_fbe(nil) }
    utf8 = data.dup.force_encoding(Encoding::UTF_8)
    assert_equal Proto::Order.from_fbe_pure(utf8), Proto::Order.from_fbe(utf8)
    odd = Fbe::Limits.new(budget_factor: 8.5)
    if Fbe.accelerated?
      assert_nil Fbe::Accel.from_fbe(Proto::Order, nil, nil)
      assert_equal Proto::Order.from_fbe_pure(utf8), Fbe::Accel.from_fbe(Proto::Order, utf8, nil)
      assert_nil Fbe::Accel.from_fbe(Proto::Order, data, odd), 'limits that are not Integers are Ruby\'s'
    end
    assert_equal Proto::Order.from_fbe_pure(data, limits: odd), Proto::Order.from_fbe(data, limits: odd)
    error = assert_raises(Fbe::DecodeError) { Proto::Order.from_fbe(data.byteslice(0, data.bytesize - 1)) }
    assert_equal error.message, assert_raises(Fbe::DecodeError) {
      Proto::Order.from_fbe_pure(data.byteslice(0, data.bytesize - 1))
    }.message
  end

  # Ruby code that runs during a C read (an enum's from_wire, the first Fbe::Accel.plan of a class, a
  # codec, the readers of the limits) and shortens the input or grows it (its bytes moved): the C reader
  # reads no byte where the input was (ASan: make ruby-accel-asan) and none beyond it: it leaves a
  # shortened input to Ruby, and reads a grown one as the bytes it held.
  def test_ruby_code_that_changes_the_input_during_a_read
    return unless Fbe.accelerated?

    AccelHook.install(Proto::OrderSide.singleton_class, Fbe::Accel.singleton_class, Fbe::Types::Decimal)
    order = Proto::Order.new(id: 1, symbol: +'EURUSD', side: Proto::OrderSide.from_wire(9), price: 1.5)
    orders = [order] + ([Proto::Order.new(symbol: +('S' * 900))] * 3)
    account = Proto::Account.new(id: 7, name: +('A' * 300), orders:)
    prices = Decimals::Prices.new(price_vector: (1..40).map { |i| BigDecimal(i) }, price_list: [BigDecimal(7)] * 40)
    [[account, nil], [account, :plan], [account, :limits], [prices, nil]].each do |value, where|
      [false, true].each do |final|
        changed_during_a_read(value, final, where, :shorten) { |data| data.replace(data.byteslice(0, 40)) }
        changed_during_a_read(value, final, where, :grow) { |data| data << ("\0" * 100_000) }
      end
    end
  ensure
    AccelHook.block = nil
  end

  # Reads value's root (final or versioned) in C with the block run on the input where: after the enum's
  # from_wire or the decimal codec (nil), the class's plan (:plan), or the limits' max_depth (:limits).
  def changed_during_a_read(value, final, where, change, &block)
    # written twice: a copy (dup) would share the input's bytes, which would outlive its change
    expected = pure(value.class, final ? value.to_final_pure : value.to_fbe_pure, final, nil)
    data = final ? value.to_final_pure : value.to_fbe_pure
    assert_equal expected, fast(value.class, data, final, nil), 'unchanged' # and every plan made
    what = "#{value.class} #{final ? 'final' : 'versioned'} input #{change} at #{where || 'a Ruby read'}"
    limits = Fbe::Limits.new
    ran = false
    hook = lambda do |_|
      ran = true
      block.call(data)
    end
    if where == :limits
      limits.define_singleton_method(:max_depth) { super().tap { hook.call(nil) } }
    else
      AccelHook.block = hook
    end
    Fbe::Accel.forget(Proto::Order) if where == :plan
    taken = fast(value.class, data, final, limits)
    assert ran, "#{what}: the change was not made"
    change == :grow ? assert_equal(expected, taken, what) : assert(taken.nil?, "#{what}: C read a value")
  end
end
