package io.github.fbetoolkit.fbe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

/** The text form's numbers: C's %g and %f (docs/format.md 9), which Java's Formatter does not give. */
class TextTest {
    private static String g(double v) {
        StringBuilder t = new StringBuilder();
        Text.g(t, v);
        return t.toString();
    }

    private static String f(double v) {
        StringBuilder t = new StringBuilder();
        Text.f(t, v);
        return t.toString();
    }

    @Test
    void gIsCsPercentG() {
        String[][] cases = {
            {"1000", "1000"}, {"1.23456", "1.23456"}, {"1e10", "1e+10"}, {"1e-5", "1e-05"}, {"0.0001", "0.0001"},
            {"123456789", "1.23457e+08"}, {"999999.5", "1e+06"}, {"100000", "100000"}, {"1e6", "1e+06"},
            {"-2.5", "-2.5"}, {"1.7976931348623157e308", "1.79769e+308"}, {"4.9e-324", "4.94066e-324"},
            {"0.000123456789", "0.000123457"}, {"123456.5", "123456"}, {"123457.5", "123458"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], g(Double.parseDouble(c[0])), c[0]);
        }
        assertEquals("-0", g(-0.0));
        assertEquals("0", g(0.0));
        assertEquals("inf", g(Double.POSITIVE_INFINITY));
        assertEquals("-inf", g(Double.NEGATIVE_INFINITY));
        assertEquals("nan", g(Double.NaN));
        assertEquals("0.1", g(0.1f), "a float widened keeps six digits");
    }

    @Test
    void fIsCsPercentF() {
        assertEquals("123.456000", f(123.456));
        assertEquals("0.150000", f(0.15));
        assertEquals("0.000000", f(0.0000004999));
        assertEquals("-0.000000", f(-1e-9));
        assertEquals("100000000000000000000.000000", f(1e20));
        assertEquals("2.675000", f(2.675), "the exact binary value, 2.67499999...");
        assertEquals("0.125000", f(0.125));
        StringBuilder t = new StringBuilder();
        Text.decimal(t, new BigDecimal("-123.456"));
        assertEquals("-123.456000", t.toString());
    }
}
