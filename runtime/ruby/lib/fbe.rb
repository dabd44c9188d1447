# frozen_string_literal: true

# The runtime of the Ruby code fbec --ruby generates (docs/ruby.md).
#
# Generated classes hold the schema's values; what every type shares lives here:
# the buffers (Fbe::Writer, Fbe::Reader), the codec of each kind of type (Fbe::Types),
# decimals, uuids and timestamps, the roots of both models (Fbe.serialize ...), the
# text form, and the limits of docs/limits.md that every reader keeps.
module Fbe
end

require_relative 'fbe/version'
require_relative 'fbe/errors'
require_relative 'fbe/limits'
require_relative 'fbe/values'
require_relative 'fbe/buffer'
require_relative 'fbe/text'
require_relative 'fbe/json'
require_relative 'fbe/json_read'
require_relative 'fbe/enum'
require_relative 'fbe/types'
require_relative 'fbe/struct'
require_relative 'fbe/explain'
require_relative 'fbe/nesting'
require_relative 'fbe/protocol'
require_relative 'fbe/accel'
