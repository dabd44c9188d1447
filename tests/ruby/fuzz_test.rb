# frozen_string_literal: true

require_relative 'test_helper'
require_relative '../../fuzz/ruby/fuzzer'

FbeFuzz.load(GEN)

# The short fixed-seed run of the mutation fuzzer (fuzz/ruby/fuzzer.rb; make fuzz runs it for
# FUZZ_SECONDS with a new seed): the same inputs every run, over the readers, the JSON reader and the
# receivers, with the seeds of schemas/tests/everything.fbe and, when ../shared is there, its vectors.
class FuzzTest < Minitest::Test
  INPUTS = Integer(ENV.fetch('FBE_FUZZ_INPUTS', '1500'))

  FbeFuzz::Runner::TARGETS.each do |target|
    define_method("test_#{target}") do
      runner = FbeFuzz::Runner.new(FbeFuzz::Seeds.new(SHARED), seed: 1,
                                                               crashes: File.join(REPO, 'build', 'fuzz', 'crashes'))
      (_, count, finding), = runner.run([target], inputs: INPUTS)
      assert_nil finding
      assert_equal INPUTS, count
    end
  end
end
