package io.github.fbetoolkit.fbe;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * FBE decimals (docs/format.md 2.4) as {@link BigDecimal}: a 96-bit magnitude, a scale 0..28 and
 * a sign, exact. Reading keeps the magnitude and scale of the bytes ({@code 1.50} stays
 * {@code 1.50}) and refuses flags beyond a scale 0..28 and the sign; writing stores the value
 * without trailing fraction zeros ({@code new BigDecimal("130.00")} as 130, scale 0), the one form
 * of each value; a value no decimal holds exactly (more than 28 fraction digits once trailing zeros
 * are dropped, a magnitude of 2^96 or more) cannot be written, it is never rounded.
 */
public final class Decimals {
    private Decimals() {}

    /** The longest decimal text {@link #parse} reads (docs/limits.md 7). */
    public static final int MAX_TEXT = 64;

    /** The flag bits that are neither the scale nor the sign. */
    private static final int RESERVED = 0x7F00FFFF;

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
        if (flagsError(flags) != null) {
            throw new IllegalArgumentException(flagsError(flags));
        }
        int scale = flags >>> 16 & 0xFF;
        boolean negative = flags < 0;
        if (hi == 0 && lo >= 0) {
            return BigDecimal.valueOf(negative ? -lo : lo, scale);
        }
        BigInteger m = BigInteger.valueOf(hi & 0xFFFFFFFFL).shiftLeft(64).or(BigInteger.valueOf(lo).and(MASK64));
        return new BigDecimal(negative ? m.negate() : m, scale);
    }

    /**
     * Why wire flags are refused (docs/format.md 2.4): a scale above 28 or reserved bits set.
     *
     * @param flags the flags word (scale in bits 16..23, sign in bit 31)
     * @return the reason ("decimal scale 29 above 28"), or null for a scale 0..28 and a sign
     */
    public static String flagsError(int flags) {
        int scale = flags >>> 16 & 0xFF;
        if (scale > 28) {
            return "decimal scale " + scale + " above 28";
        }
        if ((flags & RESERVED) != 0) {
            return String.format("decimal flags 0x%08X: reserved bits set", flags);
        }
        return null;
    }

    /**
     * The value as it is written (docs/format.md 2.4): without trailing fraction zeros, a scale of
     * 0..28 and a magnitude below 2^96; a value that has none is refused, never rounded.
     *
     * @param value the decimal
     * @return the value to write (the same object when it is in that form)
     * @throws EncodeException when no decimal holds the value exactly
     */
    public static BigDecimal wire(BigDecimal value) {
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal v = value;
        if (v.scale() > 0 && !v.unscaledValue().testBit(0)) { // an even magnitude may end in zeros
            v = v.stripTrailingZeros();
        }
        if (v.scale() > 28) {
            throw new EncodeException("decimal " + shortText(value) + " has more than 28 fraction digits");
        }
        if (v.scale() < 0) {
            if (v.precision() - v.scale() > 29) {
                throw new EncodeException("decimal " + shortText(value) + " out of range: more than 96 bits");
            }
            v = v.setScale(0, RoundingMode.UNNECESSARY);
        }
        if (v.unscaledValue().abs().compareTo(LIMIT) >= 0) {
            throw new EncodeException("decimal " + shortText(value) + " out of range: more than 96 bits");
        }
        return v;
    }

    /** At most 32 characters of a value's text, then "...", for an error message. */
    private static String shortText(BigDecimal value) {
        if (value.precision() > 32) {
            return value.round(new java.math.MathContext(8)).toString() + "...";
        }
        return value.toPlainString().length() > 32 ? value.toString() : value.toPlainString();
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
     * Reads exact decimal text {@code [+|-]digits[.digits][(e|E)[+|-]digits]} as every runtime of
     * the toolkit reads it (docs/format.md 2.4): at most {@link #MAX_TEXT} characters, and a value
     * some decimal holds (at most 28 fraction digits once trailing zeros are dropped, a magnitude
     * below 2^96), never rounded; the value has no trailing fraction zeros ({@code "1.50"} is 1.5).
     * Time linear in the text; an error quotes at most its first 32 characters.
     *
     * @param s the text
     * @return the value
     * @throws NumberFormatException for text of another form, or a value no decimal holds
     */
    public static BigDecimal parse(String s) {
        if (s.length() > MAX_TEXT) {
            throw new NumberFormatException("decimal text longer than " + MAX_TEXT + " characters: " + quotePrefix(s));
        }
        int n = s.length();
        int i = 0;
        boolean neg = i < n && s.charAt(i) == '-';
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        // the digits without leading zeros; fraction of them (zeros included) follow the point
        StringBuilder digits = new StringBuilder(n);
        int fraction = 0;
        boolean any = false;
        boolean point = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                any = true;
                if (digits.length() != 0 || c != '0') {
                    digits.append(c);
                }
                if (point) {
                    fraction++;
                }
            } else if (c == '.' && !point) {
                point = true;
            } else {
                break;
            }
        }
        long exponent = 0; // at most 62 digits of text: bounded here, what it means is decided below
        if (any && i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            boolean eneg = i < n && s.charAt(i) == '-';
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int first = i;
            for (; i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
                if (exponent < 1000000) {
                    exponent = exponent * 10 + (s.charAt(i) - '0');
                }
            }
            any = i > first;
            if (eneg) {
                exponent = -exponent;
            }
        }
        if (!any || i != n) {
            throw new NumberFormatException("invalid decimal " + quotePrefix(s));
        }
        if (digits.length() == 0) {
            return BigDecimal.ZERO;
        }
        // the value is digits * 10^power, the trailing zeros moved to the power
        long power = exponent - fraction;
        int count = digits.length();
        while (digits.charAt(count - 1) == '0') {
            count--;
            power++;
        }
        if (power < -28) {
            throw new NumberFormatException("decimal " + quotePrefix(s) + " has more than 28 fraction digits");
        }
        if (count + Math.max(power, 0) > 29) {
            throw new NumberFormatException("decimal " + quotePrefix(s) + " out of range: more than 96 bits");
        }
        BigInteger m = new BigInteger(digits.substring(0, count));
        if (power > 0) {
            m = m.multiply(BigInteger.TEN.pow((int) power));
        }
        if (m.compareTo(LIMIT) >= 0) {
            throw new NumberFormatException("decimal " + quotePrefix(s) + " out of range: more than 96 bits");
        }
        return new BigDecimal(neg ? m.negate() : m, (int) Math.max(-power, 0));
    }

    /**
     * Text in double quotes for an error message, cut to its first 32 characters (then "..."): an
     * error never quotes a whole hostile input (docs/limits.md 7).
     *
     * @param text the text
     * @return the quoted prefix
     */
    public static String quotePrefix(String text) {
        return text.length() > 32 ? "\"" + text.substring(0, 32) + "\"..." : "\"" + text + "\"";
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
