package io.github.fbetoolkit.fbe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * FBE decimals (docs/format.md 2.4) as {@link BigDecimal}: a 96-bit magnitude, a scale 0..28 and
 * a sign, exact. Reading keeps the magnitude and scale of the bytes ({@code 1.50} stays
 * {@code 1.50}); writing stores a value's unscaled value and scale, a scale above 28 rounded half
 * to even to 28, a negative scale multiplied out, and fraction digits that do not fit in 96 bits
 * dropped (rounded); a value of 2^96 or more cannot be written.
 */
public final class Decimals {
    private Decimals() {}

    /** The largest magnitude plus one: 2^96. */
    private static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(96);
    private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final double[] POW10 = new double[29];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /**
     * The decimal of the 16 wire bytes {@code lo, hi, flags}.
     *
     * @param lo    the low 64 bits of the magnitude
     * @param hi    the high 32 bits
     * @param flags scale in bits 16..23, sign in bit 31
     * @return the value
     */
    public static BigDecimal fromParts(long lo, int hi, int flags) {
        int scale = flags >>> 16 & 0xFF;
        boolean negative = flags < 0;
        if (hi == 0 && lo >= 0) {
            return BigDecimal.valueOf(negative ? -lo : lo, scale);
        }
        BigInteger m = BigInteger.valueOf(hi & 0xFFFFFFFFL).shiftLeft(64).or(BigInteger.valueOf(lo).and(MASK64));
        return new BigDecimal(negative ? m.negate() : m, scale);
    }

    /**
     * The value as it is written: scale within 0..28 and a magnitude below 2^96.
     *
     * @param value the decimal
     * @return the value to write (the same object when it fits)
     * @throws EncodeException when the integer part needs more than 96 bits
     */
    public static BigDecimal wire(BigDecimal value) {
        BigDecimal v = value;
        if (v.scale() > 28) {
            v = v.setScale(28, RoundingMode.HALF_EVEN);
        } else if (v.scale() < 0) {
            v = v.setScale(0, RoundingMode.UNNECESSARY);
        }
        while (v.unscaledValue().abs().compareTo(LIMIT) >= 0) {
            if (v.scale() == 0) {
                throw new EncodeException("decimal " + value.toPlainString() + " out of range: more than 96 bits");
            }
            v = v.setScale(v.scale() - 1, RoundingMode.HALF_UP);
        }
        return v;
    }

    /**
     * The low 64 bits of a wire value's magnitude.
     *
     * @param wire a value from {@link #wire}
     * @return the bits
     */
    public static long lo(BigDecimal wire) {
        BigInteger m = wire.unscaledValue().abs();
        return m.bitLength() < 64 ? m.longValue() : m.and(MASK64).longValue();
    }

    /**
     * The high 32 bits of a wire value's magnitude.
     *
     * @param wire a value from {@link #wire}
     * @return the bits
     */
    public static int hi(BigDecimal wire) {
        BigInteger m = wire.unscaledValue().abs();
        return m.bitLength() <= 64 ? 0 : m.shiftRight(64).intValue();
    }

    /**
     * The flags word of a wire value: scale and sign (zero is never negative).
     *
     * @param wire a value from {@link #wire}
     * @return the flags
     */
    public static int flags(BigDecimal wire) {
        return wire.scale() << 16 | (wire.signum() < 0 ? 0x80000000 : 0);
    }

    /**
     * A double as the original writer converts it (docs/format.md 2.4, at most 15 significant
     * digits), so the bytes match the original's.
     *
     * @param v the double
     * @return the decimal
     */
    public static BigDecimal fromDouble(double v) {
        long b = Double.doubleToRawLongBits(v);
        int x = (int) (b >>> 52 & 0x7FF) - 1022;
        if (x < -94 || x > 96) {
            return BigDecimal.ZERO;
        }
        boolean neg = b < 0;
        double d = Math.abs(v);
        int p = 14 - ((x * 19728) >> 16);
        if (p >= 0) {
            p = Math.min(p, 28);
            d *= POW10[p];
        } else if (p != -1 || d >= 1e15) {
            d /= POW10[-p];
        } else {
            p = 0;
        }
        if (d < 1e14 && p < 28) {
            d *= 10;
            p++;
        }
        long m = (long) d;
        double f = d - (double) m;
        if (f > 0.5 || (f == 0.5 && (m & 1) != 0)) {
            m++;
        }
        if (m == 0) {
            return BigDecimal.ZERO;
        }
        if (p < 0) {
            BigInteger big = BigInteger.valueOf(m).multiply(BigInteger.TEN.pow(-p));
            return new BigDecimal(neg ? big.negate() : big, 0);
        }
        int budget = Math.min(14, p);
        int[] steps = {8, 4, 2, 1};
        long[] divs = {100000000L, 10000L, 100L, 10L};
        for (int k = 0; k < steps.length; k++) {
            if (steps[k] <= budget && m % divs[k] == 0) {
                m /= divs[k];
                p -= steps[k];
                budget -= steps[k];
            }
        }
        return BigDecimal.valueOf(neg ? -m : m, p);
    }

    /**
     * Exact decimal text {@code [+|-]digits[.digits][e[+|-]digits]} read as every language of the
     * toolkit reads it (the C++ runtime's decimal_t, Python's fbe.jsonfmt.parse_decimal, Go's
     * ParseDecimal): more than 28 fraction digits round half to even, fraction digits that do
     * not fit in 96 bits are dropped (rounded by the first digit dropped), trailing fraction
     * zeros are dropped.
     *
     * @param s the text
     * @return the value
     * @throws NumberFormatException for text of another form, or an integer part of 2^96 or more
     */
    public static BigDecimal parse(String s) {
        int i = 0;
        int n = s.length();
        boolean neg = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        int end = digits(s, i);
        String intPart = s.substring(i, end);
        String frac = "";
        if (end < n && s.charAt(end) == '.') {
            int start = end + 1;
            end = digits(s, start);
            frac = s.substring(start, end);
        }
        int exponent = 0;
        if (end < n && (s.charAt(end) == 'e' || s.charAt(end) == 'E')) {
            int start = end + 1;
            boolean eneg = false;
            if (start < n && (s.charAt(start) == '+' || s.charAt(start) == '-')) {
                eneg = s.charAt(start) == '-';
                start++;
            }
            end = digits(s, start);
            if (end == start) {
                throw new NumberFormatException("invalid decimal \"" + s + "\"");
            }
            String e = stripLeading(s.substring(start, end));
            for (int k = 0; k < Math.min(e.length(), 6); k++) {      // as decimal_t: six significant digits
                exponent = exponent * 10 + (e.charAt(k) - '0');
            }
            if (eneg) {
                exponent = -exponent;
            }
        }
        if (end != n || (intPart.isEmpty() && frac.isEmpty())) {
            throw new NumberFormatException("invalid decimal \"" + s + "\"");
        }
        String digits = stripLeading(intPart + frac);
        if (digits.isEmpty()) {
            return BigDecimal.ZERO;
        }
        int scale = frac.length() - exponent;
        if (scale < 0) {
            if (digits.length() - scale > 29) {
                throw new NumberFormatException("decimal \"" + s + "\" out of range: more than 96 bits");
            }
            digits = digits + "0".repeat(-scale);
            scale = 0;
        }
        boolean roundUp = false;
        if (scale > 28) {
            int drop = scale - 28;
            if (drop > digits.length()) {
                return BigDecimal.ZERO;
            }
            int keep = digits.length() - drop;
            String dropped = digits.substring(keep);
            digits = digits.substring(0, keep);
            scale = 28;
            boolean rest = !dropped.substring(1).replace("0", "").isEmpty();
            boolean odd = !digits.isEmpty() && ((digits.charAt(digits.length() - 1) - '0') & 1) == 1;
            roundUp = dropped.charAt(0) > '5' || (dropped.charAt(0) == '5' && (rest || odd));
        }
        BigInteger m;
        while (true) {
            m = digits.isEmpty() ? BigInteger.ZERO : new BigInteger(digits);
            if (roundUp) {
                m = m.add(BigInteger.ONE);
            }
            if (m.compareTo(LIMIT) < 0) {
                break;
            }
            if (scale == 0) {
                throw new NumberFormatException("decimal \"" + s + "\" out of range: more than 96 bits");
            }
            roundUp = digits.charAt(digits.length() - 1) >= '5';
            digits = digits.substring(0, digits.length() - 1);
            scale--;
        }
        if (m.signum() == 0) {
            return BigDecimal.ZERO;
        }
        while (scale > 0) {
            BigInteger[] qr = m.divideAndRemainder(BigInteger.TEN);
            if (qr[1].signum() != 0) {
                break;
            }
            m = qr[0];
            scale--;
        }
        return new BigDecimal(neg ? m.negate() : m, scale);
    }

    private static int digits(String s, int from) {
        int i = from;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    private static String stripLeading(String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '0') {
            i++;
        }
        return s.substring(i);
    }

    /**
     * The original reader's conversion to a double: (low 64 bits + high 32 bits * 2^64) / 10^scale,
     * negated when negative.
     *
     * @param v the decimal
     * @return the double
     */
    public static double toDouble(BigDecimal v) {
        BigDecimal w = wire(v);
        long lo = lo(w);
        double low = lo >= 0 ? (double) lo : (double) (lo >>> 1 | (lo & 1)) * 2.0;     // as an unsigned 64-bit value
        double f = (low + (double) (hi(w) & 0xFFFFFFFFL) * 18446744073709551616.0) / POW10[w.scale()];
        return w.signum() < 0 ? -f : f;
    }
}
