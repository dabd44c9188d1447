package io.github.fbetoolkit.fbe;

/**
 * The JSON text of a double (docs/format.md 8.4), as the original writes it with RapidJSON
 * master's {@code Writer::Double}: the digits of the Grisu2 algorithm (F. Loitsch, "Printing
 * floating-point numbers quickly and accurately with integers", PLDI 2010) with RapidJSON
 * master's rounding of the last digit, in RapidJSON's layout. The text reads back to the same
 * value but is not always the shortest such text, which {@link Double#toString} aims for (and
 * lays out differently): {@code 1e23} is {@code 9.999999999999999e22},
 * {@code 4.04925338542625e16} is {@code 40492533854262496.0}. A port of the Go runtime's
 * dtoa.go (itself the C++ runtime's fbe/dtoa.h); the tests compare it with the Python runtime's
 * fbe.jsonfmt on random bit patterns.
 *
 * <p>Layout, for digits d1..dn times 10^k and kk = n + k:
 *
 * <pre>
 * k &gt;= 0 and kk &lt;= 21     integer digits and ".0"      100.0, 9007199254740992.0
 * 0 &lt; kk &lt;= 21            a fraction                   12.5, 123456789.12345679
 * -6 &lt; kk &lt;= 0            "0." and leading zeros       0.1, 0.001234
 * otherwise               exponent form, no "+"        5e-324, 1.7976931348623157e308
 * </pre>
 *
 * Zero is {@code 0.0} or {@code -0.0}.
 */
public final class Dtoa {
    private Dtoa() {}

    /** 10^(8i - 348) for i = 0..86 as f * 2^e, f the 64-bit significand rounded to nearest (RapidJSON's table). */
    private static final long[] POWER_F = {
        0xFA8FD5A0081C0288L, 0xBAAEE17FA23EBF76L, 0x8B16FB203055AC76L, 0xCF42894A5DCE35EAL, 0x9A6BB0AA55653B2DL,
        0xE61ACF033D1A45DFL, 0xAB70FE17C79AC6CAL, 0xFF77B1FCBEBCDC4FL, 0xBE5691EF416BD60CL, 0x8DD01FAD907FFC3CL,
        0xD3515C2831559A83L, 0x9D71AC8FADA6C9B5L, 0xEA9C227723EE8BCBL, 0xAECC49914078536DL, 0x823C12795DB6CE57L,
        0xC21094364DFB5637L, 0x9096EA6F3848984FL, 0xD77485CB25823AC7L, 0xA086CFCD97BF97F4L, 0xEF340A98172AACE5L,
        0xB23867FB2A35B28EL, 0x84C8D4DFD2C63F3BL, 0xC5DD44271AD3CDBAL, 0x936B9FCEBB25C996L, 0xDBAC6C247D62A584L,
        0xA3AB66580D5FDAF6L, 0xF3E2F893DEC3F126L, 0xB5B5ADA8AAFF80B8L, 0x87625F056C7C4A8BL, 0xC9BCFF6034C13053L,
        0x964E858C91BA2655L, 0xDFF9772470297EBDL, 0xA6DFBD9FB8E5B88FL, 0xF8A95FCF88747D94L, 0xB94470938FA89BCFL,
        0x8A08F0F8BF0F156BL, 0xCDB02555653131B6L, 0x993FE2C6D07B7FACL, 0xE45C10C42A2B3B06L, 0xAA242499697392D3L,
        0xFD87B5F28300CA0EL, 0xBCE5086492111AEBL, 0x8CBCCC096F5088CCL, 0xD1B71758E219652CL, 0x9C40000000000000L,
        0xE8D4A51000000000L, 0xAD78EBC5AC620000L, 0x813F3978F8940984L, 0xC097CE7BC90715B3L, 0x8F7E32CE7BEA5C70L,
        0xD5D238A4ABE98068L, 0x9F4F2726179A2245L, 0xED63A231D4C4FB27L, 0xB0DE65388CC8ADA8L, 0x83C7088E1AAB65DBL,
        0xC45D1DF942711D9AL, 0x924D692CA61BE758L, 0xDA01EE641A708DEAL, 0xA26DA3999AEF774AL, 0xF209787BB47D6B85L,
        0xB454E4A179DD1877L, 0x865B86925B9BC5C2L, 0xC83553C5C8965D3DL, 0x952AB45CFA97A0B3L, 0xDE469FBD99A05FE3L,
        0xA59BC234DB398C25L, 0xF6C69A72A3989F5CL, 0xB7DCBF5354E9BECEL, 0x88FCF317F22241E2L, 0xCC20CE9BD35C78A5L,
        0x98165AF37B2153DFL, 0xE2A0B5DC971F303AL, 0xA8D9D1535CE3B396L, 0xFB9B7CD9A4A7443CL, 0xBB764C4CA7A44410L,
        0x8BAB8EEFB6409C1AL, 0xD01FEF10A657842CL, 0x9B10A4E5E9913129L, 0xE7109BFBA19C0C9DL, 0xAC2820D9623BF429L,
        0x80444B5E7AA7CF85L, 0xBF21E44003ACDD2DL, 0x8E679C2F5E44FF8FL, 0xD433179D9C8CB841L, 0x9E19DB92B4E31BA9L,
        0xEB96BF6EBADF77D9L, 0xAF87023B9BF0EE6BL,
    };
    private static final short[] POWER_E = {
        -1220, -1193, -1166, -1140, -1113, -1087, -1060, -1034, -1007, -980, -954, -927, -901, -874, -847, -821,
        -794, -768, -741, -715, -688, -661, -635, -608, -582, -555, -529, -502, -475, -449, -422, -396, -369, -343,
        -316, -289, -263, -236, -210, -183, -157, -130, -103, -77, -50, -24, 3, 30, 56, 83, 109, 136, 162, 189, 216,
        242, 269, 295, 322, 348, 375, 402, 428, 455, 481, 508, 534, 561, 588, 614, 641, 667, 694, 720, 747, 774,
        800, 827, 853, 880, 907, 933, 960, 986, 1013, 1039, 1066,
    };

    /** 10^0 .. 10^19 (10^19 is above 2^63: these are unsigned). */
    private static final long[] POW10 = new long[20];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /**
     * The JSON text of a double: {@link #append}'s text as a string.
     *
     * @param value the double
     * @return its text ({@code NaN}, {@code Infinity}, {@code -Infinity} unquoted for those)
     */
    public static String toJson(double value) {
        byte[] out = new byte[32];
        int n = append(out, 0, value);
        return new String(out, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * Writes the JSON text of a double at {@code dst[p]} (room for 25 bytes is there): Grisu2's
     * digits in RapidJSON's layout. NaN and infinities have no JSON number ({@link JsonWriter}
     * writes them as the strings "NaN", "Infinity", "-Infinity"); given one, this writes that
     * text unquoted.
     *
     * @param dst   the buffer
     * @param p     the first byte
     * @param value the double
     * @return the position after the text
     */
    public static int append(byte[] dst, int p, double value) {
        if (Double.isNaN(value)) {
            return ascii(dst, p, "NaN");
        }
        if (Double.isInfinite(value)) {
            return ascii(dst, p, value < 0 ? "-Infinity" : "Infinity");
        }
        long b = Double.doubleToRawLongBits(value);
        if (b < 0) {
            dst[p++] = '-';
            b &= Long.MAX_VALUE;
        }
        if (b == 0) {
            return ascii(dst, p, "0.0");
        }
        double magnitude = Double.longBitsToDouble(b);
        if (magnitude < 9007199254740992.0) {
            // An integer below 2^53 is exact and its ulp is at most 1: no other number of as few
            // digits lies in its rounding interval, so Grisu2's digits are its decimal digits.
            long integer = (long) magnitude;
            if ((double) integer == magnitude) {
                p = digits(dst, p, integer);
                dst[p++] = '.';
                dst[p++] = '0';
                return p;
            }
        }
        byte[] digits = new byte[24];
        long nk = grisu2(b, digits);
        int n = (int) (nk >>> 32);
        int k = (int) nk;
        int kk = n + k;         // 10^(kk-1) <= value < 10^kk
        if (k >= 0 && kk <= 21) {
            System.arraycopy(digits, 0, dst, p, n);
            p += n;
            for (int i = 0; i < k; i++) {
                dst[p++] = '0';
            }
            dst[p++] = '.';
            dst[p++] = '0';
            return p;
        }
        if (kk > 0 && kk <= 21) {
            System.arraycopy(digits, 0, dst, p, kk);
            p += kk;
            dst[p++] = '.';
            System.arraycopy(digits, kk, dst, p, n - kk);
            return p + n - kk;
        }
        if (kk > -6 && kk <= 0) {
            dst[p++] = '0';
            dst[p++] = '.';
            for (int i = 0; i < -kk; i++) {
                dst[p++] = '0';
            }
            System.arraycopy(digits, 0, dst, p, n);
            return p + n;
        }
        dst[p++] = digits[0];
        if (n > 1) {
            dst[p++] = '.';
            System.arraycopy(digits, 1, dst, p, n - 1);
            p += n - 1;
        }
        dst[p++] = 'e';
        int x = kk - 1;
        if (x < 0) {
            dst[p++] = '-';
            x = -x;
        }
        return digits(dst, p, x);
    }

    private static int ascii(byte[] dst, int p, String s) {
        for (int i = 0; i < s.length(); i++) {
            dst[p++] = (byte) s.charAt(i);
        }
        return p;
    }

    /** Writes the decimal digits of {@code v >= 0}. */
    static int digits(byte[] dst, int p, long v) {
        int n = 1;
        for (long x = v; x >= 10; x /= 10) {
            n++;
        }
        int end = p + n;
        for (int i = end - 1; i >= p; i--) {
            dst[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return end;
    }

    /** The upper 64 bits of the unsigned 128-bit product, rounded half up (DiyFp::operator*). */
    private static long multiplyHigh(long a, long b) {
        long hi = Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
        long lo = a * b;
        return hi + (lo >>> 63);
    }

    /** The number of decimal digits of x (below 10^9 for the exponents the cached power gives), at most 9. */
    private static int integerDigits(long x) {
        int n = 1;
        while (n < 9 && x >= POW10[n]) {
            n++;
        }
        return n;
    }

    private static boolean below(long a, long b) {
        return Long.compareUnsigned(a, b) < 0;
    }

    /**
     * Lowers the last digit while the result stays inside the interval (rest + unit &lt;= delta)
     * and gets closer to the scaled value, which lies distance below the interval's top.
     */
    private static void roundTowardsValue(byte[] digits, int n, long delta, long rest, long unit, long distance) {
        while (below(rest, distance) && !below(delta - rest, unit)
                && (below(rest + unit, distance) || below(rest + unit - distance, distance - rest))) {
            digits[n - 1]--;
            rest += unit;
        }
    }

    /**
     * The Grisu2 digits of a finite value &gt; 0 (given as its bits) into digits: returns the number
     * of digits in the high 32 bits and the decimal exponent k (value ~ digits * 10^k) in the low 32.
     */
    private static long grisu2(long b, byte[] digits) {
        int biased = (int) (b >>> 52);
        long f = b & ((1L << 52) - 1);
        int e = -1074;
        if (biased != 0) {
            f += 1L << 52;
            e = biased - 1075;
        }
        // The rounding interval: its ends are half an ulp away (a quarter below a power of two),
        // scaled to the upper end's exponent.
        long upperF = (f << 1) + 1;
        int shiftUpper = Long.numberOfLeadingZeros(upperF);
        upperF <<= shiftUpper;
        int upperE = e - 1 - shiftUpper;
        long lowerF;
        int lowerE;
        if (f == 1L << 52) {
            lowerF = (f << 2) - 1;
            lowerE = e - 2;
        } else {
            lowerF = (f << 1) - 1;
            lowerE = e - 1;
        }
        lowerF <<= lowerE - upperE;

        // A cached power c = 10^-k brings the upper end's exponent into [-60, -32]; k is chosen
        // as RapidJSON chooses it (the digits depend on that choice).
        double dk = (double) (-61 - upperE) * 0.30102999566398114 + 347;
        int ik = (int) dk;
        if (dk - ik > 0.0) {
            ik++;
        }
        int index = (ik >> 3) + 1;
        int k = 348 - 8 * index;
        long cF = POWER_F[index];
        int cE = POWER_E[index];

        int shiftW = Long.numberOfLeadingZeros(f);
        long wF = multiplyHigh(f << shiftW, cF);
        long topF = multiplyHigh(upperF, cF);
        int topE = upperE + cE + 64;
        long bottom = multiplyHigh(lowerF, cF) + 1;
        topF--;
        long delta = topF - bottom;

        // Digits of the top end until the rest fits in the interval.
        int shift = -topE;
        long one = 1L << shift;
        long distance = topF - wF;
        long integral = topF >>> shift;
        long fraction = topF & (one - 1);
        int n = 0;
        for (int kappa = integerDigits(integral); kappa > 0;) {
            kappa--;
            long unit = POW10[kappa];
            long d = integral / unit;
            integral %= unit;
            if (d != 0 || n != 0) {
                digits[n++] = (byte) ('0' + d);
            }
            long rest = (integral << shift) + fraction;
            if (!below(delta, rest)) {
                k += kappa;
                roundTowardsValue(digits, n, delta, rest, POW10[kappa] << shift, distance);
                return (long) n << 32 | (k & 0xFFFFFFFFL);
            }
        }
        for (int places = 1;; places++) {
            fraction *= 10;
            delta *= 10;
            int d = (int) (fraction >>> shift);
            if (d != 0 || n != 0) {
                digits[n++] = (byte) ('0' + d);
            }
            fraction &= one - 1;
            if (below(fraction, delta)) {
                k -= places;
                // distance is scaled by 10^places like delta and rest (RapidJSON 1.1.0 scaled it
                // only up to 10^8 and used 0 beyond: the wrong last digit)
                long scaled = places < 20 ? distance * POW10[places] : 0;
                roundTowardsValue(digits, n, delta, fraction, one, scaled);
                return (long) n << 32 | (k & 0xFFFFFFFFL);
            }
        }
    }
}
