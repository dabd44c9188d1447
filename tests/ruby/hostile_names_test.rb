# frozen_string_literal: true

require_relative 'test_helper'

generated('project', 'import')

# The hostile-names corpus (schemas/tests/hostile_names.fbe: every target language's keywords, the
# generated code's and the runtimes' names, names that differ only by case) compiles, loads and
# reads and writes its value (hostile_names.json, as golden vectors of the reference codec written
# by tests/ruby/gen.py) byte for byte in both models and as text.
class HostileNamesTest < Minitest::Test
  include GoldenCase

  FOLDER = File.join(GEN, 'hostile', 'vectors')

  def test_the_value_reads_and_writes_byte_for_byte
    cases = JSON.parse(File.read(File.join(FOLDER, 'MANIFEST.json')))['cases']
    assert_equal 1, cases.length
    check_case(cases[0], FOLDER)
  end

  def test_renamed_identifiers
    assert_includes Import::Hostile.instance_method(:initialize).parameters.map(&:last), :class_
    assert Import::Word.const_defined?(:BEGIN_)
    assert_equal 'BEGIN', Import::Word::BEGIN_.to_s
  end
end
