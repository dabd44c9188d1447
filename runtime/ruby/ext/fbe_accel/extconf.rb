# frozen_string_literal: true

# The optional C accelerator of the fbe gem (fbe_accel.c, docs/ruby.md "The C accelerator"): gem
# install builds it when Ruby's headers and a C compiler are at hand; otherwise it writes a Makefile
# that builds nothing, and the gem runs in pure Ruby.
require 'rbconfig'

# Whether the extension can be built here (mkmf loaded and set up when it can).
def accelerator_buildable?
  return false unless File.exist?(File.join(RbConfig::CONFIG['rubyhdrdir'], 'ruby.h'))

  require 'mkmf'
  # rubocop:disable Style/GlobalVars
  # Ruby's headers as system headers: -Wextra would warn about their unused parameters.
  $INCFLAGS = $INCFLAGS.gsub(/-I(\$\((?:arch_)?hdrdir\))/, '-isystem \1')
  $CFLAGS << ' -Wall -Wextra'
  # rubocop:enable Style/GlobalVars
  try_compile('int main(void) { return 0; }')
rescue RuntimeError # mkmf: "The compiler failed to generate an executable file."
  false
end

if accelerator_buildable?
  create_makefile('fbe_accel')
else
  warn 'fbe: no C compiler or no Ruby headers: the C accelerator is not built (the gem runs in pure Ruby)'
  File.write('Makefile', "all install clean distclean:\n\t@:\n")
end
