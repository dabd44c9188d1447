# frozen_string_literal: true

# Conformance testee for Ruby (conformance/testee_protocol.md): answers the runner's requests on
# stdin/stdout with the fbec --ruby code of every conformance schema and the runtime gem fbe.
# `ruby main.rb OUT`, where OUT holds what conformance/testees/ruby/build.py wrote: gen/*.rb and
# types.json (each struct's class and fields, each enum's class, with their schema types).

require 'base64'
require 'bigdecimal'
require 'json'
require 'set'
require 'fbe'

# JSON text JSON.generate writes as it is: a string holding bytes that are not UTF-8, which
# Fbe::Json.string writes as \udcXY escapes (the runner reads them back as the same bytes).
RawJson = Struct.new(:text) do
  def to_json(*)
    text
  end
end

# A description that fits its type but holds what no Ruby value of it holds (docs/limits.md 8).
# #at is its path below the root (".orders[1].symbol").
class Unheld < StandardError
  attr_reader :at

  def initialize(at, reason)
    @at = at
    super(reason)
  end
end

# Typed value descriptions (the vectors' README) <-> generated objects, driven by types.json.
class Values
  INT64_AS_STRING = %w[int64 uint64 timestamp].freeze

  def initialize(folder)
    @types = JSON.parse(File.read(File.join(folder, 'types.json')))
    @types['packages'].each_value { |file| require File.join(folder, 'gen', file) }
    @classes = {}
  end

  def package?(name)
    @types['packages'].key?(name)
  end

  def struct?(qualified)
    @types['structs'].key?(qualified)
  end

  # The generated Receiver (final: FinalReceiver) of a package.
  def receiver(package, final)
    Object.const_get(@types['receivers'][package][final ? 1 : 0])
  end

  # The generated class of a struct, enum or flags type.
  def cls(qualified)
    @classes[qualified] ||= Object.const_get(@types['structs'].dig(qualified, 'class') || @types['enums'][qualified])
  end

  # description -> object; at is the path to it (".orders[1].symbol"). Null where the type has none
  # is left to the writers, which refuse it naming the field (docs/limits.md 8).
  def build(type, desc, at = '')
    return nil if desc.nil? && type[0] != 'primitive'

    case type[0]
    when 'primitive' then primitive(type[1], desc, at)
    when 'enum', 'flags' then cls(type[1]).from_wire(Integer(desc))
    when 'struct' then struct(type[1], desc, at)
    when 'optional' then build(type[1], desc, at)
    when 'array', 'vector', 'list' then desc.each_with_index.map { |x, i| build(type[1], x, "#{at}[#{i}]") }
    when 'set' then desc.each_with_index.to_set { |x, i| build(type[1], x, "#{at}[#{i}]") }
    else desc.to_h { |k, v| [build(type[1], k, "#{at}[#{k}]"), build(type[2], v, "#{at}[#{k}]")] }
    end
  end

  def struct(qualified, desc, at)
    fields = @types['structs'][qualified]['fields']
    values = fields.to_h { |name, attr, type| [attr.to_sym, build(type, desc.fetch(name), "#{at}.#{name}")] }
    cls(qualified).new(**values)
  end

  def primitive(name, desc, at)
    return nil if desc.nil?

    case name
    when 'bool' then desc == true
    when 'float' then [Float(desc)].pack('e').unpack1('e')
    when 'double' then Float(desc)
    when 'decimal' then BigDecimal(desc)
    when 'string' then text(desc, at)
    when 'uuid' then desc
    when 'bytes' then [desc].pack('H*')
    else Integer(desc)
    end
  end

  # A description's string as from_json reads it: each \udc80..\udcff escape the byte 0x80..0xFF;
  # any other lone surrogate (read by the parser, or by serve, as its three encoded bytes) stands for
  # no byte, which no Ruby string holds: refused as a writer refuses it.
  def text(desc, at)
    Fbe::JsonRead.bytes(desc)
  rescue Fbe::DecodeError => e
    raise Unheld.new(at, "a string holding no byte: #{e.reason}")
  end

  # object -> description
  def describe(type, v)
    case type[0]
    when 'primitive' then describe_primitive(type[1], v)
    when 'enum', 'flags' then INT64_AS_STRING.include?(type[2]) ? v.number.to_s : v.number
    when 'struct' then describe_struct(type[1], v)
    when 'optional' then v.nil? ? nil : describe(type[1], v)
    when 'set' then wire_order(type[1], v).map { |x| describe(type[1], x) }
    when 'array', 'vector', 'list' then v.map { |x| describe(type[1], x) }
    else v.map { |k, x| [describe(type[1], k), describe(type[2], x)] }
    end
  end

  def describe_struct(qualified, v)
    out = { '@type' => qualified }
    @types['structs'][qualified]['fields'].each { |name, attr, type| out[name] = describe(type, v.public_send(attr)) }
    out
  end

  def describe_primitive(name, v)
    case name
    when *INT64_AS_STRING then v.to_s
    when 'float' then shortest_float32(v)
    when 'decimal' then decimal(v)
    when 'bytes' then v.unpack1('H*')
    when 'string' then v.valid_encoding? ? v : RawJson.new(Fbe::Json.string(v))
    else v
    end
  end

  # The elements of a set in the order they are written: ascending (structs by their [key] fields).
  def wire_order(type, set)
    type[0] == 'struct' ? set.sort_by(&:fbe_key) : set.sort
  rescue ArgumentError, NoMethodError
    set.to_a
  end

  # The shortest decimal that reads back as the same binary32 value.
  def shortest_float32(value)
    return value if value.nan? || value.infinite? || value.zero?

    (1..9).each do |digits|
      candidate = format("%.#{digits}g", value).to_f
      return candidate if [candidate].pack('e').unpack1('e') == value
    end
    value
  end

  # The exact value with as many fraction digits as the wire scale: the runtime writes a decimal
  # without trailing fraction zeros.
  def decimal(v)
    return '0' if v.zero?

    v.frac.zero? ? v.to_i.to_s : v.to_s('F')
  end
end

# One request's answer (a Hash).
class Testee
  def initialize(values)
    @values = values
  end

  def answer(req)
    package = req['package']
    return { 'skipped' => "package #{package} is not compiled into this testee" } unless @values.package?(package)

    qualified = "#{package}.#{req['type']}"
    input = req['input']
    limits = req['limits'] && Fbe::Limits.new(**req['limits'].transform_keys(&:to_sym))
    format = input['format']
    return receive_stream(package, Base64.strict_decode64(input['payload']), format == 'final_stream', limits) if
      %w[stream final_stream].include?(format)
    return { 'skipped' => "no struct #{qualified}" } unless @values.struct?(qualified)

    cls = @values.cls(qualified)
    return verify(cls, input, limits) if req['output'] == 'verify'

    value = read(cls, qualified, input, limits)
    return value if value.is_a?(Hash)

    write(qualified, value, req['output'])
  end

  private

  # Feeds a protocol stream to the package's Receiver in one call: the messages it delivered and the
  # frames it reported, in order (a lost stream ends the list with its error).
  def receive_stream(package, data, final, limits)
    events = []
    receiver = @values.receiver(package, final).new(limits:)
    receiver.on_error = ->(error) { events << { 'error' => error.message } }
    receiver.define_singleton_method(:on_receive) { |value| events << { 'message' => value.class::FBE_NAME } }
    begin
      receiver.receive(data)
    rescue Fbe::FrameError => e
      events << { 'error' => e.message }
    end
    { 'result' => events }
  end

  def read(cls, qualified, input, limits)
    payload = input['payload']
    case input['format']
    when 'versioned' then cls.from_fbe(Base64.strict_decode64(payload), limits:)
    when 'final' then cls.from_final(Base64.strict_decode64(payload), limits:)
    when 'json' then cls.from_json(payload, limits:)
    when 'value' then build_value(qualified, payload)
    else { 'skipped' => "unknown input format #{input['format']}" }
    end
  rescue Fbe::DecodeError => e
    { 'parse_error' => e.message }
  end

  def build_value(qualified, payload)
    @values.build(['struct', qualified], payload)
  rescue Unheld => e
    { 'serialize_error' => "cannot encode #{qualified}#{e.at}: #{e.message}" }
  rescue Fbe::EncodeError, ArgumentError, TypeError, KeyError => e
    { 'serialize_error' => "the value description does not fit: #{e.message}" }
  end

  def write(qualified, value, output)
    case output
    when 'versioned' then { 'result' => Base64.strict_encode64(value.to_fbe) }
    when 'final' then { 'result' => Base64.strict_encode64(value.to_final) }
    when 'json' then { 'result' => value.to_json }
    when 'text' then { 'result' => Base64.strict_encode64(value.to_s.b) }
    when 'value' then { 'result' => @values.describe(['struct', qualified], value) }
    else { 'skipped' => "unknown output format #{output}" }
    end
  rescue Fbe::EncodeError => e
    { 'serialize_error' => e.message }
  end

  # The verdict of verify_fbe/verify_final (a walk of the bytes that makes no value) and, where it
  # refuses, the text of the read's error (the read gives the reason; verify gives only the verdict).
  def verify(cls, input, limits)
    format = input['format']
    return { 'skipped' => "verify reads binary input, not #{format}" } unless %w[versioned final].include?(format)

    data = Base64.strict_decode64(input['payload'])
    ok = format == 'versioned' ? cls.verify_fbe(data, limits:) : cls.verify_final(data, limits:)
    return { 'result' => 'ok' } if ok

    format == 'versioned' ? cls.from_fbe(data, limits:) : cls.from_final(data, limits:)
    { 'parse_error' => 'verify is false where the read succeeds' }
  rescue Fbe::DecodeError => e
    { 'parse_error' => e.message }
  end
end

# The answer with what it used: the bytes of the objects and malloc'd memory made while answering
# (the collector held off, so nothing made is freed: an upper bound of the peak) and the wall time.
def measured
  GC.start
  GC.disable
  objects = GC.stat(:total_allocated_objects)
  malloced = GC.stat(:malloc_increase_bytes)
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  reply = yield
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
  peak = ((GC.stat(:total_allocated_objects) - objects) * GC::INTERNAL_CONSTANTS[:RVALUE_SIZE]) +
         (GC.stat(:malloc_increase_bytes) - malloced)
  reply.merge('measured' => { 'peak_bytes' => peak, 'seconds' => seconds })
ensure
  GC.enable
end

# A request read as its strings are written: a lone high surrogate escape, which Ruby's parser refuses
# (and a lone low one, which it reads so), as its three encoded bytes, for Values#text to refuse.
# A request the parser refuses anyway is answered, not fatal.
def request(body)
  body = body.b.gsub(Fbe::JsonRead::LONE_HIGH) { |e| e[0...-6] + [e[-4..].hex].pack('U').b } if body.include?('\\u')
  JSON.parse(body.force_encoding(Encoding::UTF_8), allow_nan: true)
rescue JSON::ParserError => e
  { 'reply' => { 'parse_error' => "UNEXPECTED the request is not JSON: #{e.message[0, 80]}" } }
end

def serve(testee)
  input = $stdin.binmode
  output = $stdout.binmode
  loop do
    head = input.read(4)
    break if head.nil? || head.bytesize < 4

    req = request(input.read(head.unpack1('L<')))
    break if req['quit']

    reply = req['reply'] || begin
      req['measure'] ? measured { testee.answer(req) } : testee.answer(req)
    rescue StandardError, SystemStackError => e # a bug in the testee or the runtime: report it, keep serving
      kind = req.dig('input', 'format') == 'value' ? 'serialize_error' : 'parse_error'
      { kind => "UNEXPECTED #{e.class}: #{e.message}" }
    end
    body = JSON.generate(reply, allow_nan: true).b
    output.write([body.bytesize].pack('L<'), body)
    output.flush
  end
end

serve(Testee.new(Values.new(ARGV.fetch(0))))
