# frozen_string_literal: true

require_relative 'test_helper'

%w[proto protoex test enums].each { |package| generated('shared', package) } if
  File.directory?(File.join(GEN, 'shared'))

# The seeded mutation suite of the JSON reader: each golden vector's JSON changed 100 times with a
# fixed seed (a value replaced by one of another kind; a byte replaced by a JSON token character or
# a random byte, a span deleted or repeated, a truncation). Each document is read as a value or
# refused with Fbe::DecodeError and nothing else, and a value read writes JSON that reads back to
# the same final bytes.
class JsonMutationTest < Minitest::Test
  MANIFEST = File.join(SHARED, 'vectors', 'MANIFEST.json')
  CASES = File.exist?(MANIFEST) ? JSON.parse(File.read(MANIFEST))['cases'] : []
  ROUNDS = Integer(ENV.fetch('FBE_MUTATIONS', '100'))
  TOKENS = '{}[]:,"\\0123456789.eE-+ tfnul'.bytes.freeze

  VALUES = [0, -1, 1.5, 'x', '', [], {}, nil, true, [1], { 'a' => 1 }, 2**64, -2**63].freeze

  # The document with one value (a member's, an element's) replaced by another kind of value.
  def replaced(text, random)
    tree = JSON.parse(text)
    nodes = []
    walk = lambda do |node|
      children = node.is_a?(Hash) ? node.keys.map { |k| [node, k] } : node.each_index.map { |i| [node, i] }
      children.each do |parent, key|
        nodes << [parent, key]
        walk.call(parent[key]) if parent[key].is_a?(Hash) || parent[key].is_a?(Array)
      end
    end
    walk.call(tree)
    return text if nodes.empty?

    parent, key = nodes.sample(random:)
    parent[key] = VALUES.sample(random:)
    JSON.generate(tree)
  end

  def mutate(text, random)
    return replaced(text, random) if random.rand(2).zero?

    out = text.b
    at = random.rand(out.bytesize)
    case random.rand(5)
    when 0 then out.setbyte(at, TOKENS.sample(random:))
    when 1 then out.setbyte(at, random.rand(256))
    when 2 then out[at, random.rand(1..8)] = ''
    when 3 then out.insert(at, out.byteslice(at, random.rand(1..16)))
    else out = out.byteslice(0, at)
    end
    out
  end

  def check(type, text, random)
    ROUNDS.times do
      data = mutate(text, random)
      begin
        value = type.from_json(data)
      rescue Fbe::DecodeError
        next
      end
      assert_equal value.to_final, type.from_json(value.to_json).to_final, "JSON read back differs: #{data}"
    end
  end

  CASES.each_with_index do |c, k|
    file = c['files'].find { |f| f['kind'] == 'json' }
    next unless file

    define_method("test_#{c['name']}") do
      need_shared(self)
      type = Object.const_get(c['package'].capitalize).const_get(c['type'])
      check(type, File.binread(File.join(SHARED, 'vectors', file['file'])), Random.new(k + 1))
    end
  end
end
