# frozen_string_literal: true

require 'bigdecimal'
require 'securerandom'

module Fbe
  # decimal: a BigDecimal holding the exact value of the wire's 96-bit magnitude, scale and sign
  # (docs/format.md 2.4).
  module Decimal
    RESERVED = 0x7F00FFFF
    SIGN = 0x80000000
    MAX_MAGNITUDE = 1 << 96
    MAX_SCALE = 28
    ZERO = BigDecimal('0')

    module_function

    # The value of magnitude (low 64 bits, high 32 bits) and flags; a DecodeError for a scale
    # above 28 or a reserved bit set.
    def decode(low, high, flags, field = nil, pos = nil)
      raise DecodeError.new(format('decimal flags 0x%08x: reserved bits set', flags), nil, field, pos) if
        flags & RESERVED != 0

      scale = (flags >> 16) & 0xFF
      raise DecodeError.new("decimal scale #{scale} above 28", nil, field, pos) if scale > MAX_SCALE

      magnitude = low | (high << 64)
      return ZERO if magnitude.zero?

      value = scale.zero? ? BigDecimal(magnitude) : BigDecimal("#{magnitude}e-#{scale}")
      (flags & SIGN).zero? ? value : -value
    end

    # [low 64 bits, high 32 bits, flags] of a value (BigDecimal, Integer, or a Float converted as the
    # original converts a double), without trailing fraction zeros; an EncodeError for a value no
    # decimal holds exactly.
    def encode(value)
      return from_double(value) if value.is_a?(Float)

      value = BigDecimal(value) if value.is_a?(Integer) || value.is_a?(String) || value.is_a?(Rational)
      raise EncodeError, "decimal expected, got #{value.class}" unless value.is_a?(BigDecimal)
      raise EncodeError, "decimal #{value} is not a number" unless value.finite?
      return [0, 0, 0] if value.zero?

      sign, digits, _base, exponent = value.split
      digits = digits.sub(/0+\z/, '')
      magnitude, scale = trimmed(digits.to_i, digits.length - exponent)
      raise EncodeError, "decimal #{value.to_s('F')} has more than 28 fraction digits" if scale > MAX_SCALE
      raise EncodeError, "decimal #{value.to_s('F')} out of range: more than 96 bits" if magnitude >= MAX_MAGNITUDE

      [magnitude & 0xFFFFFFFFFFFFFFFF, magnitude >> 64, (scale << 16) | (sign.negative? ? SIGN : 0)]
    end

    # The original's conversion of a double to a decimal (docs/format.md 2.4, steps 1-9).
    def from_double(value)
      bits = [value].pack('E').unpack1('Q<')
      x = ((bits >> 52) & 0x7FF) - 1022
      return [0, 0, 0] if x < -94 || x > 96

      digits, scale = scaled(value.abs, 14 - ((x * 19_728) >> 16))
      magnitude = digits.round(half: :even).to_i
      return [0, 0, 0] if magnitude.zero?

      magnitude, scale = trimmed(magnitude, scale)
      while scale.positive? && (magnitude % 10).zero?
        magnitude /= 10
        scale -= 1
      end
      [magnitude & 0xFFFFFFFFFFFFFFFF, magnitude >> 64, (scale << 16) | (bits >> 63 == 1 ? SIGN : 0)]
    end

    # Steps 4 and 5: the double scaled by 10^p (in binary64 arithmetic), and p.
    def scaled(double, power)
      if power >= 0
        power = [power, 28].min
        double *= 10.0**power
      elsif power != -1 || double >= 1e15
        double /= 10.0**-power
      else
        power = 0
      end
      return [double * 10, power + 1] if double < 1e14 && power < 28

      [double, power]
    end

    # Step 8: a negative scale multiplied out, or at most min(scale, 14) trailing zeros dropped in
    # steps of 8, 4, 2 and 1.
    def trimmed(magnitude, scale)
      return [magnitude * (10**-scale), 0] if scale.negative?

      limit = [scale, 14].min
      [8, 4, 2, 1].each do |step|
        while limit >= step && (magnitude % (10**step)).zero?
          magnitude /= 10**step
          scale -= step
          limit -= step
        end
      end
      [magnitude, scale]
    end

    # The double the original keeps (what the text form prints with %f).
    def to_f(value)
      value.to_f
    end

    # A decimal from text: [+|-]digits[.digits][(e|E)[+|-]digits], at most 64 characters, exact.
    def parse(text)
      unless text.length <= 64 && text.match?(/\A[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\z/)
        raise DecodeError, "invalid decimal #{text.inspect}"
      end

      value = BigDecimal(text)
      encode(value)
      value
    rescue EncodeError => e
      raise DecodeError, e.message
    end
  end

  # uuid: a String in the canonical lowercase text ("123e4567-e89b-12d3-a456-426655440000"),
  # 16 bytes on the wire in the order of the text (docs/format.md 2.3).
  module Uuid
    NIL = '00000000-0000-0000-0000-000000000000'

    module_function

    # The 16 bytes of a uuid's text, read as the original reads it: '-', '{' and '}' skipped, pairs
    # of hex digits, at most 16 bytes, a short text zero-filled.
    def to_bytes(text)
      hex = text.to_s.delete('-{}')
      raise EncodeError, "invalid uuid #{text.inspect}" unless hex.match?(/\A[0-9a-fA-F]*\z/)

      [hex[0, 32].ljust(32, '0')].pack('H*')
    end

    # The canonical text of 16 bytes.
    def from_bytes(bytes)
      hex = bytes.unpack1('H*')
      "#{hex[0, 8]}-#{hex[8, 4]}-#{hex[12, 4]}-#{hex[16, 4]}-#{hex[20, 12]}"
    end

    # A random (version 4) uuid.
    def uuid4
      SecureRandom.uuid
    end

    # A time-based (version 1) uuid: the 100 ns intervals since 1582-10-15, a random clock sequence and node.
    def uuid1
      t = (Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond) / 100) + 0x01B21DD213814000
      seq = SecureRandom.random_number(0x4000) | 0x8000
      node = SecureRandom.random_bytes(6).unpack1('H*').to_i(16) | 0x010000000000
      format('%08x-%04x-%04x-%04x-%012x', t & 0xFFFFFFFF, (t >> 32) & 0xFFFF, ((t >> 48) & 0x0FFF) | 0x1000, seq,
             node)
    end
  end

  # timestamp: an Integer of nanoseconds since the epoch (u64 on the wire).
  module Timestamp
    module_function

    # Now, in nanoseconds since the epoch (the schema's `utc`).
    def utc
      Process.clock_gettime(Process::CLOCK_REALTIME, :nanosecond)
    end

    # The Time of a timestamp.
    def to_time(nanoseconds)
      Time.at(nanoseconds / 1_000_000_000, nanoseconds % 1_000_000_000, :nsec, in: 'UTC')
    end

    # The timestamp of a Time.
    def from_time(time)
      (time.to_i * 1_000_000_000) + time.nsec
    end
  end
end
