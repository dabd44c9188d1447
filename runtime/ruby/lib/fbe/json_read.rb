# frozen_string_literal: true

require 'json'

module Fbe
  # Reading JSON under the rules of docs/limits.md 7, on the standard json library's parser: a
  # document is valid UTF-8 without a byte order mark, nests at most 3 x max_depth arrays and
  # objects, holds no member twice, and no lone surrogate escape but \udc80..\udcff, which stand
  # for the raw bytes 0x80..0xFF. Every value made is charged against the decode budget of the
  # text's length (docs/limits.md 3).
  module JsonRead
    # The number -0 of a document (JsonRead.negative_zeros): -0.0 where a float or double reads
    # it, 0 where an integer does.
    NEGATIVE_ZERO = Object.new.freeze

    # The fractions of a document holding -0: Float's, but -0.0, which was -0.
    module NegativeZero
      def self.try_convert(text)
        text == '-0.0' ? NEGATIVE_ZERO : BigDecimal(text).to_f
      end
    end

    # An object of the document: a member given twice is refused (no reader keeps the first or the last).
    class Members < Hash
      def []=(name, value)
        raise DecodeError, "duplicate member #{Fbe::JsonRead.quoted(name)}" if key?(name)

        super
      end
    end

    SURROGATE = /\xED[\xA0-\xBF][\x80-\xBF]/n
    # A high surrogate escape that no low surrogate escape follows (the parser would pair
    # \ud83d\ud83d into one character), not itself escaped by a backslash.
    LONE_HIGH = /(?<!\\)(?:\\\\)*\\u[dD][89abAB]\h\h(?!\\u[dD][c-fC-F]\h\h)/
    # A backslash escape JSON does not have (the parser reads \x as x), not itself escaped.
    UNKNOWN_ESCAPE = %r{(?<!\\)(?:\\\\)*\\[^"\\/bfnrtu]}
    # A string, or a slash outside strings: a comment, which the parser would skip.
    SLASH_TOKENS = %r{"(?:[^"\\]|\\.)*"|/}m
    BOM = "\xEF\xBB\xBF".b.freeze
    # The number -0 (which Ruby's parser reads as the Integer 0) and the number -0.0, outside strings.
    BARE_NEGATIVE_ZERO = /(?<![0-9eE.])-0(?![0-9.eE])/
    ZERO_TOKENS = /"(?:[^"\\]|\\.)*"|(?<![0-9eE.])-0(?:\.0)?(?![0-9.eE])/m
    NONFINITE = { 'NaN' => Float::NAN, 'Infinity' => Float::INFINITY, '-Infinity' => -Float::INFINITY }.freeze
    FLT_MAX = 3.4028234663852886e38
    MAX_DECIMAL_TEXT = 64
    DECIMAL_TEXT = /\A([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\z/
    BASE64 = %r{\A(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?\z}
    INT_KEY = /\A[ \t\n\v\f\r]*[+-]?[0-9]+\z/
    REAL_KEY = /\A[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\z/

    module_function

    # The document's tree and the reader that charges what is made from it.
    def parse(text, limits = nil)
      data = Fbe.binary(text)
      reader = Reader.new(data, nil, limits)
      raise DecodeError, 'JSON text starts with a byte order mark' if data.start_with?(BOM)

      utf8 = data.dup.force_encoding(Encoding::UTF_8)
      raise DecodeError, 'JSON text is not valid UTF-8' unless utf8.valid_encoding?

      refuse_extensions(utf8)
      options = { object_class: Members, max_nesting: 3 * reader.max_depth, create_additions: false }
      if utf8.match?(BARE_NEGATIVE_ZERO)
        utf8 = negative_zeros(utf8)
        options[:decimal_class] = NegativeZero
      end
      tree = JSON.parse(utf8, **options)
      [utf8.match?(/\\u[dD][c-fC-F]/) ? unescape(tree) : tree, reader]
    rescue JSON::NestingError
      raise DecodeError, "JSON arrays and objects nested deeper than #{3 * reader.max_depth}"
    rescue SystemStackError # a max_depth deeper than Ruby's stack holds (docs/limits.md 1)
      raise DecodeError, "JSON arrays and objects nested deeper than the stack holds (max_depth #{reader.max_depth})"
    rescue JSON::ParserError => e
      raise DecodeError, "invalid JSON: #{e.message[0, 80]}"
    end

    # What the parser would read but JSON does not have: a lone high surrogate escape, another
    # escape than JSON's, a comment (docs/limits.md 7: a document is the JSON text and nothing else).
    def refuse_extensions(text)
      if text.include?('\\')
        lone = text.include?('\\u') && text[LONE_HIGH]
        raise DecodeError, "lone surrogate escape #{lone[-6..]}" if lone

        unknown = text[UNKNOWN_ESCAPE]
        raise DecodeError, "invalid JSON: escape #{unknown[-2..]}" if unknown
      end
      raise DecodeError, 'invalid JSON: a comment' if text.include?('/') && text.scan(SLASH_TOKENS).include?('/')
    end

    # The text with each number -0 spelled -0.0 and each -0.0 spelled -0.00, so that the parser, its
    # fractions read by NegativeZero.try_convert, gives NEGATIVE_ZERO for -0 (docs/limits.md 7:
    # negative zero in a float or double, 0 in an integer).
    def negative_zeros(text)
      text.gsub(ZERO_TOKENS) do |t|
        case t
        when '-0' then '-0.0'
        when '-0.0' then '-0.00'
        else t
        end
      end
    end

    # The tree with every \udc80..\udcff escape as its raw byte; any other lone surrogate is refused.
    def unescape(node)
      case node
      when String then bytes(node)
      when Array then node.map { |e| unescape(e) }
      when Hash then node.each_with_object(Members.new) { |(k, v), out| out[bytes(k)] = unescape(v) }
      else node
      end
    end

    def bytes(text)
      return text unless text.b.match?(SURROGATE)

      text.b.gsub(SURROGATE) do |s|
        code = 0xD000 | ((s.getbyte(1) & 0x3F) << 6) | (s.getbyte(2) & 0x3F)
        raise DecodeError, format('lone surrogate escape \\u%04x', code) unless code.between?(0xDC80, 0xDCFF)

        (code & 0xFF).chr
      end.force_encoding(Encoding::UTF_8)
    end

    # Text in double quotes for an error message, cut to its first 32 characters (then ...).
    def quoted(text)
      "\"#{text[0, 32]}\"#{text.length > 32 ? '...' : ''}"
    end

    # A map key in an error's JSON path, cut as #quoted cuts it: "[AAPL]", "[AAAA...]".
    def key_step(key)
      "[#{key[0, 32]}#{key.length > 32 ? '...' : ''}]"
    end

    def mismatch(what, value, field)
      DecodeError.new("JSON #{what} expected, got #{value.class}", nil, field)
    end

    def integer(value, range, field)
      value = 0 if value.equal?(NEGATIVE_ZERO)
      raise mismatch('integer', value, field) unless value.is_a?(Integer)
      raise DecodeError.new("JSON integer #{value} out of range", nil, field) unless range.cover?(value)

      value
    end

    def double(value, field)
      case value
      when Float
        raise DecodeError.new("JSON number #{value} out of double range", nil, field) if value.infinite?

        value
      when NEGATIVE_ZERO then -0.0
      when Integer
        value.to_f.tap { |d| raise DecodeError.new('JSON number out of double range', nil, field) if d.infinite? }
      when String
        NONFINITE.fetch(value) { raise mismatch('number', value, field) }
      else raise mismatch('number', value, field)
      end
    end

    def single(value, field)
      d = double(value, field)
      raise DecodeError.new("JSON number #{d} out of float range", nil, field) if d.finite? && d.abs > FLT_MAX

      [d].pack('e').unpack1('e')
    end

    def string(value, field)
      raise mismatch('string', value, field) unless value.is_a?(String)

      value
    end

    # Exact decimal text (docs/format.md 2.4): at most 64 characters, a value a decimal holds.
    def decimal_text(text, field)
      value = BigDecimal(decimal_parts(text, field))
      Fbe::Decimal.encode(value)
      value.zero? ? Fbe::Decimal::ZERO : value
    rescue EncodeError => e
      raise DecodeError.new(e.message.sub(/decimal \S+/, "decimal #{quoted(text)}"), nil, field)
    end

    # The text BigDecimal reads of decimal text: sign, digits, fraction and exponent made explicit.
    def decimal_parts(text, field)
      if text.length > MAX_DECIMAL_TEXT
        raise DecodeError.new("decimal text longer than #{MAX_DECIMAL_TEXT} characters: #{quoted(text)}", nil, field)
      end

      m = DECIMAL_TEXT.match(text)
      raise DecodeError.new("invalid decimal #{quoted(text)}", nil, field) if m.nil? || "#{m[2]}#{m[3]}".empty?

      "#{m[1]}#{m[2].empty? ? '0' : m[2]}.#{m[3].to_s.empty? ? '0' : m[3]}e#{m[4] || 0}"
    end

    def decimal(value, field)
      return decimal_text(value, field) if value.is_a?(String)

      value = 0 if value.equal?(NEGATIVE_ZERO)
      raise mismatch('string', value, field) unless value.is_a?(Numeric)

      d = value.to_f
      raise DecodeError.new("JSON number #{value} out of decimal range", nil, field) if d.infinite?

      low, high, flags = Fbe::Decimal.from_double(d)
      Fbe::Decimal.decode(low, high, flags)
    end

    def uuid(value, field)
      text = string(value, field)
      raise DecodeError.new("invalid uuid #{quoted(text)}", nil, field) unless text.delete('-{}').match?(/\A\h*\z/)

      Fbe::Uuid.from_bytes(Fbe::Uuid.to_bytes(text))
    end

    # Bytes from standard Base64 with padding and nothing else, each byte string one text.
    def base64(value, field)
      text = string(value, field)
      raise DecodeError.new('invalid base64', nil, field) unless text.match?(BASE64)

      text.unpack1('m0')
    end

    def array(value, field)
      raise mismatch('array', value, field) unless value.is_a?(Array)

      value
    end

    def object(value, field)
      raise mismatch('object', value, field) unless value.is_a?(Hash)

      value
    end

    # An integer map key as C's strtoll reads the whole text, in the range.
    def integer_key(key, range, field)
      raise DecodeError.new("invalid integer key #{quoted(key)}", nil, field) unless key.match?(INT_KEY)

      value = key.to_i
      raise DecodeError.new("integer key #{quoted(key)} out of range", nil, field) unless range.cover?(value)

      value
    end

    def double_key(key, field)
      return NONFINITE[key] if NONFINITE.key?(key)

      text = key.lstrip
      raise DecodeError.new("invalid number key #{quoted(key)}", nil, field) unless text.match?(REAL_KEY)

      Float(text.sub(/\A([+-]?)\./, '\10.').sub(/\.(?=[eE]|\z)/, '.0'))
    end
  end
end
