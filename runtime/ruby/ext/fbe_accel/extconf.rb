# frozen_string_literal: true

# The optional C accelerator of the fbe gem (fbe_accel.c, docs/ruby.md "The C accelerator"): gem
# install builds it when Ruby's headers, a C compiler and a 64-bit long are at hand; otherwise it
# writes a Makefile that builds nothing, and the gem runs in pure Ruby.
require 'rbconfig'

# Why the extension cannot be built here, or nil when it can (mkmf loaded and set up).
def unbuildable
  return 'no Ruby headers' unless File.exist?(File.join(RbConfig::CONFIG['rubyhdrdir'], 'ruby.h'))

  require 'mkmf'
  # rubocop:disable Style/GlobalVars
  # Ruby's headers as system headers: -Wextra would warn about their unused parameters.
  $INCFLAGS = $INCFLAGS.gsub(/-I(\$\((?:arch_)?hdrdir\))/, '-isystem \1')
  $CFLAGS << ' -Wall -Wextra'
  # rubocop:enable Style/GlobalVars
  return 'no C compiler' unless try_compile('int main(void) { return 0; }')

  # fbe_accel.c computes positions and Fixnums in long (a static assertion says so): LLP64 (Windows)
  # and 32-bit platforms run in pure Ruby
  'a long of fewer than 64 bits' unless (check_sizeof('long') || 0) >= 8
rescue RuntimeError # mkmf: "The compiler failed to generate an executable file."
  'no C compiler'
end

why = unbuildable
if why.nil?
  create_makefile('fbe_accel')
else
  warn "fbe: #{why}: the C accelerator is not built (the gem runs in pure Ruby)"
  File.write('Makefile', "all install clean distclean:\n\t@:\n")
end
