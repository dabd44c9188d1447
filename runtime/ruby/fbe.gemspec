# frozen_string_literal: true

require_relative 'lib/fbe/version'

Gem::Specification.new do |spec|
  spec.name = 'fbe'
  spec.version = Fbe::VERSION
  spec.summary = 'Fast Binary Encoding runtime: the versioned and final binary models, verify and the text form'
  spec.description = 'The runtime of the Ruby code that fbec --ruby generates from FBE schemas: buffers, the ' \
                     'versioned and final models with verify, exact 96-bit decimals, uuids, timestamps and the ' \
                     'limits every FBE reader keeps on hostile input.'
  spec.authors = ['FBE toolkit authors']
  spec.license = 'MIT'
  spec.files = Dir['lib/**/*.rb'] + Dir['ext/**/*.{c,rb}']
  # The optional C accelerator (docs/ruby.md): built when a C compiler and Ruby's headers are at hand.
  spec.extensions = ['ext/fbe_accel/extconf.rb']
  spec.require_paths = ['lib']
  spec.required_ruby_version = '>= 3.1'
  # bigdecimal: a default gem of Ruby 3.1 to 3.3, a bundled one from 3.4 on (no registry needed)
  spec.metadata['rubygems_mfa_required'] = 'true'
end
