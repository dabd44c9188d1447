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

# Skips the test when ../shared is absent, and fails it when CI=true.
def need_shared(test)
  return if File.directory?(File.join(SHARED, 'vectors'))

  test.flunk("#{SHARED}/vectors is missing (CI=true)") if ENV['CI'] == 'true'
  test.skip("#{SHARED}/vectors is absent: the golden vectors are not checked")
end
