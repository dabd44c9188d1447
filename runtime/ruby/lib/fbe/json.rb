# frozen_string_literal: true

require 'json'

module Fbe
  # JSON in the original's text (docs/format.md 8): compact, numbers as RapidJSON master's
  # Writer::Double prints them (Grisu2 digits, format.md 8.4), strings escaped as RapidJSON does.
  module Json
    M64 = (1 << 64) - 1
    ESCAPES = { '"' => '\\"', '\\' => '\\\\', "\b" => '\\b', "\t" => '\\t', "\n" => '\\n', "\f" => '\\f',
                "\r" => '\\r' }.freeze
    NONFINITE = { 'NaN' => '"NaN"', 'Infinity' => '"Infinity"', '-Infinity' => '"-Infinity"' }.freeze

    module_function

    # 10^k as a 64-bit significand (rounded to nearest) and binary exponent.
    def cached_power(power)
      num, den = power >= 0 ? [10**power, 1] : [1, 10**-power]
      e = num.bit_length - den.bit_length - 64
      loop do
        n, d = e >= 0 ? [num, den << e] : [num << -e, den]
        if n < d << 63 then e -= 1
        elsif n >= d << 64 then e += 1
        else
          return [((2 * n) + d) / (2 * d), e]
        end
      end
    end

    # RapidJSON's table (internal/diyfp.h): 10^-348, 10^-340, ..., 10^340.
    CACHED_POWERS = Array.new(87) { |i| cached_power(-348 + (8 * i)) }.freeze

    # DiyFp multiplication: the high 64 bits of the product, rounded.
    def mul(left, right)
      p = left * right
      ((p >> 64) + ((p >> 63) & 1)) & M64
    end

    # RapidJSON master's Grisu2 (internal/dtoa.h) of a finite value > 0: [digits, k], the value
    # about digits * 10^k. Not always the shortest text: the digits the original prints.
    def grisu2(value) # rubocop:disable Metrics
      bits = [value].pack('E').unpack1('Q<')
      biased = (bits >> 52) & 0x7FF
      f = bits & 0xFFFFFFFFFFFFF
      if biased.zero?
        e = -1074
      else
        f += 1 << 52
        e = biased - 1075
      end
      pf = (f << 1) + 1
      pe = e - 1
      while (pf & (1 << 53)).zero?
        pf <<= 1
        pe -= 1
      end
      pf <<= 10
      pe -= 10
      mf, me = f == 1 << 52 ? [(f << 2) - 1, e - 2] : [(f << 1) - 1, e - 1]
      mf <<= me - pe
      s = 64 - f.bit_length
      wf = f << s
      dk = ((-61 - pe) * 0.30102999566398114) + 347
      k = dk.to_i
      k += 1 if dk - k > 0.0
      index = (k >> 3) + 1
      big_k = 348 - (index << 3)
      cf, ce = CACHED_POWERS[index]
      w_f = mul(wf, cf)
      wp_f = mul(pf, cf) - 1
      wp_e = pe + ce + 64
      wm_f = mul(mf, cf) + 1
      delta = wp_f - wm_f
      shift = -wp_e
      wp_w = wp_f - w_f
      top = [(wp_f >> shift).to_s.length, 9].min - 1
      fits = lambda do |j|
        next wp_f % ((10**j) << shift) <= delta if j >= 0

        scale = 10**-j
        ((wp_f * scale) & ((1 << shift) - 1)) < delta * scale
      end
      estimate = (Math.log10(delta) - (shift * 0.30102999566398120)).floor
      hi = fits.call(0) ? top : -1
      j = hi >= 0 ? [[hi, estimate].min, 0].max : [hi, estimate].min
      j -= 1 until fits.call(j)
      j += 1 while j < hi && fits.call(j + 1)
      if j >= 0
        unit = (10**j) << shift
        d, rest = wp_f.divmod(unit)
        dl = delta
        rl = rest
        tk = unit
        w = wp_w
      else
        mult = 10**-j
        d, rest = (wp_f * mult).divmod(1 << shift)
        dl = (delta * mult) & M64
        rl = rest & M64
        tk = 1 << shift
        w = -j < 20 ? (wp_w * mult) & M64 : 0
      end
      while rl < w && dl - rl >= tk && (rl + tk < w || w - rl > rl + tk - w)
        d -= 1
        rl += tk
      end
      [d.to_s, big_k + j]
    end

    # Float#to_s's digits (the shortest that read back, from C) as [digits, k] when Grisu2 gives
    # the same ones, else nil. For a normal double whose shortest text has at most 15 digits, that
    # text is the only one of its length between the rounding boundaries; Grisu2 finds it unless it
    # lies within Grisu2's error (below 2^-61 of the value) of a boundary, which is checked exactly.
    def shortest(value)
      return nil if value < Float::MIN

      if value < 9_007_199_254_740_992.0 && value == value.floor
        # A whole number below 2^53 is within half a unit in the last place (at most 0.5) of no
        # other text as short: its own digits.
        digits, k = trimmed(value.to_i, 0)
        return [digits.to_s, k]
      end
      text = value.to_s
      return nil if text.length > 21 # more than 15 digits

      mantissa, exponent = text.split('e')
      digits, k = trimmed(mantissa.delete('.').to_i, exponent.to_i - (mantissa.length - mantissa.index('.') - 1))
      digits < 10**15 && clear_of_boundaries?(value, digits, k) ? [digits.to_s, k] : nil
    end

    # digits * 10^k without the trailing zeros of digits.
    def trimmed(digits, k)
      while (digits % 10).zero?
        digits /= 10
        k += 1
      end
      [digits, k]
    end

    # Whether digits * 10^k is farther than 2^-58 of the value from both rounding boundaries of value.
    def clear_of_boundaries?(value, digits, k)
      fraction, exponent = Math.frexp(value)
      f = (fraction * (1 << 53)).to_i
      e = exponent - 55 # value = 4f * 2^e; the boundaries are (4f +- 2) * 2^e, or 4f - 1 below a power of 2
      below = f == 1 << 52 && value > Float::MIN ? (4 * f) - 1 : (4 * f) - 2
      decimal = k >= 0 ? digits * (10**k) : digits
      scale = k >= 0 ? 1 : 10**-k
      decimal <<= -e if e.negative?
      shift = e.positive? ? e : 0
      upper = (((4 * f) + 2) * scale) << shift
      lower = (below * scale) << shift
      margin = upper >> 58
      decimal < upper - margin && decimal > lower + margin
    end

    # A double as RapidJSON master's Writer::Double prints it; NaN and infinities as the strings
    # "NaN", "Infinity" and "-Infinity".
    def double(value)
      return nonfinite(value) unless value.finite?
      return value.to_s.start_with?('-') ? '-0.0' : '0.0' if value.zero?

      magnitude = value.abs
      digits, k = shortest(magnitude) || grisu2(magnitude)
      text = layout(digits, k)
      value.negative? ? "-#{text}" : text
    end

    def nonfinite(value)
      return NONFINITE['NaN'] if value.nan?

      NONFINITE[value.positive? ? 'Infinity' : '-Infinity']
    end

    # The forms of format.md 8.4 of digits * 10^k.
    def layout(digits, k)
      n = digits.length
      kk = n + k
      if k >= 0 && kk <= 21 then "#{digits}#{'0' * k}.0"
      elsif kk.positive? && kk <= 21 then "#{digits[0, kk]}.#{digits[kk..]}"
      elsif kk > -6 && kk <= 0 then "0.#{'0' * -kk}#{digits}"
      elsif n == 1 then "#{digits}e#{kk - 1}"
      else
        "#{digits[0]}.#{digits[1..]}e#{kk - 1}"
      end
    end

    # A JSON string literal escaped as RapidJSON does (`/` and non-ASCII raw); a byte that is not
    # part of valid UTF-8 is written as the escape \udcXY (as the Python runtime writes it).
    def string(value)
      escaped = value.b.gsub(/["\\\x00-\x1f]/n) { |ch| ESCAPES[ch] || format('\\u%04X', ch.ord) }
      escaped = escaped.force_encoding(Encoding::UTF_8)
      escaped = escaped.scrub { |bad| bad.bytes.map { |b| format('\\udc%02x', b) }.join } unless escaped.valid_encoding?
      "\"#{escaped}\""
    end

    # The exact text of a decimal with at least 6 fraction digits, no sign on zero (the original's
    # %f text whenever that was exact).
    def decimal(value)
      low, high, flags = Fbe::Decimal.encode(value)
      magnitude = low | (high << 64)
      scale = (flags >> 16) & 0xFF
      digits = magnitude.to_s
      if scale.positive?
        digits = digits.rjust(scale + 1, '0')
        digits = "#{digits[0...-scale]}.#{digits[-scale..]}"
        digits += '0' * (6 - scale) if scale < 6
      else
        digits += '.000000'
      end
      (flags & Fbe::Decimal::SIGN).zero? || magnitude.zero? ? digits : "-#{digits}"
    end

    # A float or double map key: C's %f when it reads back to the same value, else the number's text.
    def real_key(value, single)
      return double(value) unless value.finite?

      text = format('%f', value)
      back = Float(text)
      back = [back].pack('e').unpack1('e') if single
      same = back == value && (back.to_s.start_with?('-') == value.to_s.start_with?('-'))
      same ? "\"#{text}\"" : "\"#{double(value)}\""
    end
  end
end
