# frozen_string_literal: true

# A seeded mutation fuzzer of the fbec --ruby readers and receivers (docs/ruby.md "Fuzzing").
#
#   ruby -Iruntime/ruby/lib fuzz/ruby/fuzzer.rb GEN [--seconds 60] [--inputs N] [--seed S]
#       [--target readers,json,receiver] [--crashes DIR]
#
# GEN is a folder of tests/ruby/gen.py (its `project` group, and `shared` when ../shared is there).
# Seeds: every golden vector of ../shared/vectors (versioned, final, JSON) and values of the
# project's schemas/tests/everything.fbe, and streams of their messages. Each input is one or more
# mutations of a seed (bit flips, boundary bytes and 32-bit fields, spans deleted, repeated or
# inserted, truncations, two seeds spliced), and is checked:
#
#   readers   from_fbe/from_final give a value or Fbe::DecodeError and nothing else, verify gives the
#             read's verdict, and a value read writes bytes that read back and write the same;
#   json      from_json gives a value or Fbe::DecodeError, and a value read writes JSON that reads
#             back to the same final bytes;
#   receiver  a Receiver (versioned and final) and a Proxy fed the stream whole and in random chunks
#             report the same messages and errors in the same order, raise nothing but
#             Fbe::FrameError (a lost stream), never buffer more than a frame's bytes received, and
#             every message delivered writes and reads back to the same bytes.
#
# Each input has 10 seconds. A failing input is written to the crashes folder
# (ruby-TARGET-SHA1.bin, with the type or model in ruby-TARGET-SHA1.txt) and the run fails; the
# closing line is `fuzz-ruby: N passed, N failed, 0 skipped` (N targets).

require 'digest'
require 'fileutils'
require 'json'
require 'optparse'
require 'timeout'
require 'fbe'

# The fuzzer: mutations, seeds, checks and the runner.
module FbeFuzz
  BOUNDARY = [0, 1, 7, 8, 0x7F, 0x80, 0xFF].freeze
  BOUNDARY32 = [0, 1, 2, 4, 8, 16, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF].freeze
  TOKENS = '{}[]:,"\\0123456789.eE-+ tfnul'.bytes.freeze
  SECONDS_PER_INPUT = 10

  # An input the checks refused.
  class Finding < StandardError
    attr_reader :data, :what

    def initialize(message, data, what)
      super(message)
      @data = data
      @what = what
    end
  end

  # Byte mutations of one seed (or of two, spliced).
  class Mutator
    def initialize(random)
      @random = random
    end

    def rand(*args)
      @random.rand(*args)
    end

    # One to three mutations stacked.
    def mutate(bytes, other = nil, tokens: false)
      out = bytes.b
      rand(1..3).times { out = once(out, other, tokens) }
      out
    end

    def once(out, other, tokens)
      return out.b if out.empty?

      at = rand(out.bytesize)
      kind = rand(tokens ? 9 : 8)
      (kind < 3 || kind == 8 ? byte_edit(out, at, kind) : span_edit(out, at, kind, other || out)).b
    end

    def byte_edit(out, at, kind)
      case kind
      when 0 then flip(out, at)
      when 1 then out.setbyte(at, BOUNDARY.sample(random: @random))
      when 2 then return field32(out)
      else out.setbyte(at, TOKENS.sample(random: @random))
      end
      out
    end

    def span_edit(out, at, kind, other)
      case kind
      when 3 then out.byteslice(0, at)
      when 4 then out.byteslice(0, at) + out.byteslice(at + rand(1..16)..).to_s
      when 5 then out.byteslice(0, at) + out.byteslice(at, rand(1..64)) + out.byteslice(at..)
      when 6 then splice(out, other, at)
      else out.byteslice(0, at) + Array.new(rand(1..8)) { rand(256) }.pack('C*') + out.byteslice(at..)
      end
    end

    def flip(out, at)
      out.setbyte(at, out.getbyte(at) ^ (1 << rand(8)))
    end

    # A 32-bit field set to a boundary value, or to one relative to its position (an offset).
    def field32(out)
      return out if out.bytesize < 4

      at = rand(out.bytesize - 3)
      value = BOUNDARY32.sample(random: @random) + (rand(2).zero? ? 0 : at)
      out[at, 4] = [value & 0xFFFFFFFF].pack('L<')
      out
    end

    def splice(out, other, at)
      from = rand(other.bytesize)
      out.byteslice(0, at) + other.byteslice(from, rand(1..256)).to_s
    end

    # The pieces of data, cut at random (single bytes often).
    def chunks(data)
      pieces = []
      at = 0
      while at < data.bytesize
        n = rand(3).zero? ? 1 : rand(1..64)
        pieces << data.byteslice(at, n)
        at += n
      end
      pieces
    end
  end

  # The seeds: [type, versioned bytes, final bytes, json text] of each value, and streams.
  class Seeds
    attr_reader :values, :messages

    def initialize(shared)
      @values = []
      @messages = { false => [], true => [] }
      project
      vectors(shared)
    end

    def project
      everything = Everything::Everything.new(f38: [1.5, -0.0], f40: %w[a b], f41: Set[3, 1],
                                              f44: { 'k' => Everything::Counted.new(a: 7) })
      add(everything)
      [Everything::Note.new(text: 'note'), Everything::Ping.new(sequence: 9),
       Everything::PlaceOrder.new(instrument: Market::Instrument.new(symbol: 'EURUSD')),
       Everything::Rejected.new(reason: 'no'), Market::Failure.new(reason: 'down')].each do |m|
        add(m)
        @messages[false] << [Everything, m.to_fbe]
        @messages[true] << [Everything, m.to_final]
      end
    end

    def add(value)
      @values << [value.class, value.to_fbe, value.to_final, value.to_json]
    end

    def vectors(shared)
      manifest = File.join(shared, 'vectors', 'MANIFEST.json')
      return unless File.exist?(manifest)

      JSON.parse(File.read(manifest))['cases'].each do |c|
        type = Object.const_get(c['package'].capitalize).const_get(c['type'])
        files = c['files'].to_h { |f| [f['kind'], File.binread(File.join(shared, 'vectors', f['file']))] }
        @values << [type, files['versioned'], files['final'], files['json']]
        message(type, files) if c['package'] == 'proto'
      end
    end

    # proto's Order, Balance and Account vectors in their messages.
    def message(type, files)
      name = "#{type.name.split('::').last}Message"
      return unless Proto.const_defined?(name)

      m = Proto.const_get(name).new(body: type.from_fbe(files['versioned']))
      @messages[false] << [Proto, m.to_fbe]
      @messages[true] << [Proto, m.to_final]
    end
  end

  # The checks of each target.
  module Checks
    module_function

    def readers(type, data, final)
      written = read(type, data, final)
      verified = final ? type.verify_final(data) : type.verify_fbe(data)
      raise "verify says #{verified} where the read says #{written ? 'ok' : 'no'}" if verified != !written.nil?
      return unless written

      again = read(type, written, final)
      raise 'a value read does not read back to the same bytes' unless again == written
    end

    # What the value read writes, or nil when the read refused the input.
    def read(type, data, final)
      value = final ? type.from_final(data) : type.from_fbe(data)
      final ? value.to_final : value.to_fbe
    rescue Fbe::DecodeError
      nil
    end

    def json(type, text)
      value = from_json(type, text)
      return unless value

      again = type.from_json(value.to_json)
      raise 'a value read from JSON does not write JSON that reads back' unless again.to_final == value.to_final
    end

    def from_json(type, text)
      type.from_json(text)
    rescue Fbe::DecodeError
      nil
    end

    # [events, largest buffered] of a Receiver (or Proxy) fed pieces: the message types delivered and
    # the errors (a lost stream ends the list).
    def feed(receiver, pieces)
      events = []
      receiver.on_error = ->(e) { events << "#{e.kind}: #{e.message}" }
      sink = ->(value) { events << message(value) }
      receiver.define_singleton_method(:on_receive) { |value| sink.call(value) }
      receiver.define_singleton_method(:on_proxy) { |frame| sink.call(frame.message) }
      most = 0
      pieces.each do |piece|
        receiver.receive(piece)
        most = [most, receiver.pending_size].max
      end
      [events, most]
    rescue Fbe::FrameError => e
      raise "a lost stream raised a #{e.kind} error" unless e.lost?

      [events << "#{e.kind}: #{e.message}", most]
    end

    # A delivered message's type, after checking that it writes and reads back to the same bytes.
    def message(value)
      bytes = value.to_fbe
      raise "a #{value.class} delivered does not read back" unless value.class.from_fbe(bytes).to_fbe == bytes

      value.class.name
    end

    def receiver(package, data, final, mutator)
      limits = Fbe::Limits.new(max_frame_size: 1 << 16)
      kinds = [final ? package::FinalReceiver : package::Receiver]
      kinds << package::Proxy unless final
      kinds.each do |kind|
        whole, = feed(kind.new(limits:), [data])
        chunked, most = feed(kind.new(limits:), mutator.chunks(data))
        raise "#{kind}: whole #{whole.inspect[0, 300]} but in chunks #{chunked.inspect[0, 300]}" if whole != chunked
        raise "#{kind} buffered #{most} bytes" if most > limits.max_frame_size
      end
    end
  end

  # Runs the targets for a time or a number of inputs each.
  class Runner
    TARGETS = %w[readers json receiver].freeze

    def initialize(seeds, seed:, crashes:)
      @seeds = seeds
      @seed = seed
      @crashes = crashes
    end

    # [target, inputs run, finding or nil] of each target.
    def run(targets, seconds: nil, inputs: nil)
      targets.map do |target|
        mutator = Mutator.new(Random.new(@seed))
        deadline = seconds && (Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds)
        count = 0
        finding = nil
        until (inputs && count >= inputs) || (deadline && Process.clock_gettime(Process::CLOCK_MONOTONIC) >= deadline)
          count += 1
          finding = one(target, mutator)
          break if finding
        end
        [target, count, finding]
      end
    end

    def one(target, mutator)
      data, what, check = input(target, mutator)
      Timeout.timeout(SECONDS_PER_INPUT) { check.call }
      nil
    rescue StandardError, SystemStackError => e # Timeout::Error is a StandardError
      keep(target, data, what, e)
    end

    # [input, what it is, its check] of one input of the target.
    def input(target, mutator)
      values = @seeds.values
      type, versioned, final, json = values.sample(random: Random.new(mutator.rand(1 << 30)))
      case target
      when 'readers'
        model = mutator.rand(2).zero?
        seed = model ? final : versioned
        data = mutator.mutate(seed, seed)
        [data, "#{type} #{model ? 'final' : 'versioned'}", -> { Checks.readers(type, data, model) }]
      when 'json'
        text = mutator.mutate(json || type.new.to_json, tokens: true)
        [text, "#{type} json", -> { Checks.json(type, text) }]
      else stream(mutator)
      end
    end

    def stream(mutator)
      model = mutator.rand(2).zero?
      messages = @seeds.messages[model]
      package = messages.sample(random: Random.new(mutator.rand(1 << 30)))[0]
      frames = Array.new(mutator.rand(1..6)) do
        messages.select { |p, _| p == package }.sample(random: Random.new(mutator.rand(1 << 30)))[1]
      end
      clean = frames.join
      data = mutator.mutate(clean, clean)
      [data, "#{package} #{model ? 'final' : 'versioned'} stream",
       -> { Checks.receiver(package, data, model, mutator) }]
    end

    def keep(target, data, what, error)
      name = "ruby-#{target}-#{Digest::SHA1.hexdigest(data)}"
      FileUtils.mkdir_p(@crashes)
      File.binwrite(File.join(@crashes, "#{name}.bin"), data)
      File.write(File.join(@crashes, "#{name}.txt"), "#{what}\n#{error.class}: #{error.message}\n")
      "#{what}: #{error.class}: #{error.message} (input #{File.join(@crashes, "#{name}.bin")})"
    end
  end

  # Loads the generated code of GEN's groups.
  def self.load(gen)
    %w[market everything].each { |p| require File.join(gen, 'project', p) }
    return unless File.directory?(File.join(gen, 'shared'))

    %w[proto protoex test enums].each { |p| require File.join(gen, 'shared', p) }
  end

  def self.options(argv)
    options = { seconds: nil, inputs: nil, seed: Random.new_seed % (1 << 31), targets: Runner::TARGETS,
                crashes: File.expand_path('../../build/fuzz/crashes', __dir__) }
    OptionParser.new do |o|
      o.on('--seconds S', Float) { |v| options[:seconds] = v }
      o.on('--inputs N', Integer) { |v| options[:inputs] = v }
      o.on('--seed S', Integer) { |v| options[:seed] = v }
      o.on('--target LIST', Array) { |v| options[:targets] = v }
      o.on('--crashes DIR') { |v| options[:crashes] = v }
    end.parse!(argv)
    options[:seconds] = 10.0 unless options[:seconds] || options[:inputs]
    options
  end

  def self.main(argv)
    options = options(argv)
    load(File.expand_path(argv.fetch(0)))
    shared = ENV.fetch('SHARED', File.expand_path('../../../shared', __dir__))
    runner = Runner.new(Seeds.new(shared), seed: options[:seed], crashes: options[:crashes])
    results = runner.run(options[:targets], seconds: options[:seconds], inputs: options[:inputs])
    results.each do |target, count, finding|
      puts "fuzz-ruby: #{target}: #{count} inputs (seed #{options[:seed]})#{": FAILED #{finding}" if finding}"
    end
    failed = results.count { |_, _, finding| finding }
    puts "fuzz-ruby: #{results.size - failed} passed, #{failed} failed, 0 skipped"
    failed.zero? ? 0 : 1
  end
end

exit(FbeFuzz.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
