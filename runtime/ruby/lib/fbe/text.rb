# frozen_string_literal: true

module Fbe
  # The text form (docs/format.md 9): what the original's operator<< prints, built as binary bytes
  # (a char prints its raw byte).
  module Text
    module_function

    # C's %g (C++ streams' default for float and double).
    def g(value)
      return value.positive? ? 'inf' : '-inf' if value.infinite?
      return value.to_s.start_with?('-') ? '-nan' : 'nan' if value.nan?

      format('%g', value)
    end

    # C's %f of a decimal's double: how the original prints a decimal.
    def decimal(value)
      f = value.to_f
      return f.positive? ? 'inf' : '-inf' if f.infinite?

      format('%f', f)
    end

    # A char (or a wchar's low byte) in single quotes, raw.
    def char(value)
      "'#{(value & 0xFF).chr}'"
    end

    # A string in double quotes, unescaped, as bytes.
    def string(value)
      "\"#{value.b}\""
    end

    # A struct's text, `Name(field=value,...)`: String#to_s of the bytes, UTF-8 where they are.
    def finish(bytes)
      bytes.force_encoding(Encoding::UTF_8)
    end
  end
end
