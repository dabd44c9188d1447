package io.github.fbetoolkit.fbe;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.UUID;

/**
 * The original's text form of values (its {@code operator<<}, docs/format.md 9): on one line,
 * without spaces, strings and chars as their raw bytes. Generated {@code toString()} methods
 * print a struct with these helpers. A char byte from 0x80 is held as U+DC80..U+DCFF, as strings
 * hold such bytes ({@link Utf8}), so {@code Utf8.bytes(text)} is what the original prints.
 */
public final class Text {
    private Text() {}

    private static final MathContext SIX = new MathContext(6, RoundingMode.HALF_EVEN);

    /**
     * A float or double as C's {@code %g} (precision 6, the original's stream formatting):
     * {@code 1000}, {@code 1.23456}, {@code 1e+10}, {@code 1e-05}, {@code -0}, {@code inf},
     * {@code nan}.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void g(StringBuilder t, double v) {
        if (Double.isNaN(v)) {
            t.append(Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan");
            return;
        }
        if (Double.isInfinite(v)) {
            t.append(v > 0 ? "inf" : "-inf");
            return;
        }
        if (Double.doubleToRawLongBits(v) < 0) {
            t.append('-');
        }
        if (v == 0) {
            t.append('0');
            return;
        }
        BigDecimal d = new BigDecimal(Math.abs(v)).round(SIX);
        int x = d.precision() - d.scale() - 1;          // the exponent of %e after rounding
        if (x >= -4 && x < 6) {
            t.append(strip(d.setScale(5 - x, RoundingMode.UNNECESSARY).toPlainString()));
        } else {
            t.append(strip(d.movePointLeft(x).setScale(5, RoundingMode.UNNECESSARY).toPlainString()));
            t.append(x < 0 ? "e-" : "e+");
            int e = Math.abs(x);
            if (e < 10) {
                t.append('0');
            }
            t.append(e);
        }
    }

    /** Trailing fraction zeros and a trailing point removed (what %g does). */
    private static String strip(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }

    /**
     * A double as C's {@code %f}: six fraction digits of its exact value, rounded half to even.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void f(StringBuilder t, double v) {
        if (Double.isNaN(v)) {
            t.append(Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan");
            return;
        }
        if (Double.isInfinite(v)) {
            t.append(v > 0 ? "inf" : "-inf");
            return;
        }
        if (Double.doubleToRawLongBits(v) < 0) {
            t.append('-');
        }
        t.append(new BigDecimal(Math.abs(v)).setScale(6, RoundingMode.HALF_EVEN).toPlainString());
    }

    /**
     * A decimal as the original prints it: {@code %f} of its double value.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void decimal(StringBuilder t, BigDecimal v) {
        f(t, Decimals.toDouble(v));
    }

    /**
     * A char: its byte between single quotes.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void ch(StringBuilder t, char v) {
        t.append('\'').append(raw(v & 0xFF)).append('\'');
    }

    /**
     * A wchar as the original prints it: only its low byte, between single quotes.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void wch(StringBuilder t, int v) {
        t.append('\'').append(raw(v & 0xFF)).append('\'');
    }

    private static char raw(int b) {
        return b < 0x80 ? (char) b : (char) (0xDC00 | b);
    }

    /**
     * A string between double quotes, as it is (no escaping).
     *
     * @param t the text so far
     * @param v the value
     */
    public static void string(StringBuilder t, String v) {
        t.append('"').append(v).append('"');
    }

    /**
     * A uuid's canonical text between double quotes.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void uuid(StringBuilder t, UUID v) {
        t.append('"').append(v).append('"');
    }

    /**
     * Bytes as their count: {@code bytes[N]}.
     *
     * @param t the text so far
     * @param v the value
     */
    public static void bytes(StringBuilder t, byte[] v) {
        t.append("bytes[").append(v.length).append(']');
    }

    /**
     * A collection's count and its opening bracket: {@code [3]} and {@code open}.
     *
     * @param t    the text so far
     * @param n    the count
     * @param open "[" for arrays and vectors, "<" lists, "{" sets, "<{" maps, "[{" hashes
     */
    public static void count(StringBuilder t, int n, String open) {
        t.append('[').append(n).append(']').append(open);
    }
}
