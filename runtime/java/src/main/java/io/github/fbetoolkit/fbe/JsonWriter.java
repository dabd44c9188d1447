package io.github.fbetoolkit.fbe;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * Writes FBE JSON (docs/format.md 8) as UTF-8 into one growing {@code byte[]}: compact, members
 * in declaration order, byte-identical to the original's output for every value the original
 * writes correctly. Generated {@code fbeWriteJson} methods write a struct's members with it;
 * {@code toJson()} and {@code writeJson(JsonWriter)} start and finish. Where the original is
 * wrong the rules are the C++, Python and Go runtimes' (docs/cpp-json-protocol.md):
 *
 * <ul>
 *   <li>a char is its byte value 0..255 (the original went through a signed char);
 *   <li>NaN and infinities are the strings "NaN", "Infinity", "-Infinity";
 *   <li>a decimal is its exact text with at least 6 fraction digits ("123.456000");
 *   <li>enum and flags map keys are their number, bytes keys their Base64 text, and a map whose
 *       key is a struct is an array of [key, value] pairs (generated code);
 *   <li>float/double map keys are C's %f when that reads back to the same value, otherwise the
 *       text of a double value;
 *   <li>a string may hold any bytes ({@link Utf8}): each byte that is not part of valid UTF-8
 *       is written as the escape &#92;udcXY (docs/limits.md 7), so the output is valid UTF-8 and
 *       reads back to the same bytes.
 * </ul>
 *
 * <p>The text is written here, not with Jackson's {@code JsonGenerator}: the original's bytes
 * need RapidJSON's escapes, RapidJSON master's number digits ({@link Dtoa}) and the
 * &#92;udcXY escapes of bytes, which the generator would each have to be talked out of (it escapes
 * characters above U+FFFF as a pair of surrogate escapes where RapidJSON writes their UTF-8, and
 * spells a lone surrogate's escape in upper case). Reading, where a
 * hand-written parser would be a liability, is Jackson's ({@link JsonReader}).
 *
 * <p>Not safe for concurrent use; reuse one per thread ({@link #reset}) to write without
 * allocating.
 */
public final class JsonWriter {
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] BASE64 =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".getBytes(StandardCharsets.ISO_8859_1);
    /** The escape of each ASCII character in a string literal: 0 none, 'u' a six-character escape, else a backslash and that byte. */
    private static final byte[] ESCAPE = new byte[128];

    static {
        for (int c = 0; c < 0x20; c++) {
            ESCAPE[c] = 'u';
        }
        ESCAPE['\b'] = 'b';
        ESCAPE['\f'] = 'f';
        ESCAPE['\n'] = 'n';
        ESCAPE['\r'] = 'r';
        ESCAPE['\t'] = 't';
        ESCAPE['"'] = '"';
        ESCAPE['\\'] = '\\';
    }

    private byte[] buf;
    private int size;
    private int depth;
    private int maxDepth = Limits.MAX_DEPTH;

    /** A writer with a small buffer that grows as needed. */
    public JsonWriter() {
        this(256);
    }

    /**
     * A writer whose buffer starts with {@code capacity} bytes.
     *
     * @param capacity the initial capacity
     */
    public JsonWriter(int capacity) {
        buf = new byte[Math.max(capacity, 32)];
    }

    /** Empties the buffer, keeping its capacity. */
    public void reset() {
        size = 0;
        depth = 0;
    }

    /** @return the buffer; its first {@link #size} bytes are the UTF-8 text written */
    public byte[] buffer() {
        return buf;
    }

    /** @return the number of bytes written */
    public int size() {
        return size;
    }

    /** @return a copy of the bytes written */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** @return the text written (valid UTF-8 by construction, so nothing is lost) */
    @Override
    public String toString() {
        return new String(buf, 0, size, StandardCharsets.UTF_8);
    }

    /**
     * Sets the deepest struct nesting written (default 128): nobody writes what no reader reads.
     *
     * @param value the maximum depth
     */
    public void maxDepth(int value) {
        maxDepth = value;
    }

    /**
     * Goes one struct level deeper (generated code calls it only for structs that can nest
     * without a bound).
     *
     * @param type the qualified schema type being written
     * @throws EncodeException beyond the maximum depth
     */
    public void enter(String type) {
        if (++depth > maxDepth) {
            throw new EncodeException(EncodeException.Kind.DEPTH, "cannot write " + type + " as JSON: structs nested deeper than "
                    + maxDepth, "");
        }
    }

    /** Undoes {@link #enter}. */
    public void leave() {
        depth--;
    }

    private void need(long n) {
        if (buf.length - size >= n) {
            return;
        }
        long want = Math.max((long) buf.length * 2, size + n);
        if (want > Integer.MAX_VALUE - 8) {
            if (size + n > Integer.MAX_VALUE - 8) {
                throw new EncodeException("JSON text larger than 2 GiB");
            }
            want = Integer.MAX_VALUE - 8;
        }
        buf = Arrays.copyOf(buf, (int) want);
    }

    // ---------------------------------------------------------------- punctuation and values

    /**
     * Appends ASCII text as it is (member names and punctuation of generated code).
     *
     * @param text the text, every character below 0x80
     */
    public void raw(String text) {
        int n = text.length();
        need(n);
        for (int i = 0; i < n; i++) {
            buf[size++] = (byte) text.charAt(i);
        }
    }

    /**
     * Appends one character of punctuation.
     *
     * @param c an ASCII character
     */
    public void raw(char c) {
        need(1);
        buf[size++] = (byte) c;
    }

    /** Appends {@code null} (an absent optional). */
    public void nil() {
        raw("null");
    }

    /**
     * Appends {@code true} or {@code false}.
     *
     * @param v the value
     */
    public void bool(boolean v) {
        raw(v ? "true" : "false");
    }

    /**
     * Appends a signed integer (int8..int64, signed enums and flags).
     *
     * @param v the value
     */
    public void i64(long v) {
        need(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                raw("-9223372036854775808");
                return;
            }
            buf[size++] = '-';
            v = -v;
        }
        size = Dtoa.digits(buf, size, v);
    }

    /**
     * Appends an unsigned 64-bit integer (uint64, timestamp).
     *
     * @param v the value's bits
     */
    public void u64(long v) {
        if (v >= 0) {
            i64(v);
        } else {
            raw(Long.toUnsignedString(v));
        }
    }

    /**
     * Appends an unsigned 32-bit integer (uint32, wchar).
     *
     * @param v the value's bits
     */
    public void u32(int v) {
        i64(v & 0xFFFFFFFFL);
    }

    /**
     * Appends an unsigned 16-bit integer.
     *
     * @param v the value's bits
     */
    public void u16(short v) {
        i64(v & 0xFFFF);
    }

    /**
     * Appends an unsigned byte (byte, uint8).
     *
     * @param v the value's bits
     */
    public void u8(byte v) {
        i64(v & 0xFF);
    }

    /**
     * Appends a char as its byte value 0..255 (its low byte is what the wire holds).
     *
     * @param v the value
     */
    public void ch(char v) {
        i64(v & 0xFF);
    }

    /**
     * Appends a double as RapidJSON master writes it ({@link Dtoa}); NaN and infinities as the
     * strings "NaN", "Infinity", "-Infinity".
     *
     * @param v the value
     */
    public void f64(double v) {
        need(32);
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            buf[size++] = '"';
            size = Dtoa.append(buf, size, v);
            buf[size++] = '"';
            return;
        }
        size = Dtoa.append(buf, size, v);
    }

    /**
     * Appends a float widened to double first, as the original (123.456f is 123.45600128173828).
     *
     * @param v the value
     */
    public void f32(float v) {
        f64(v);
    }

    /**
     * Appends a decimal as a string of its exact value with at least 6 fraction digits and no
     * sign on zero ("123.456000": the original's %f text whenever that was exact).
     *
     * @param v the value
     */
    public void decimal(BigDecimal v) {
        raw('"');
        raw(decimalText(v));
        raw('"');
    }

    /**
     * The exact text of a decimal as the binary writers store it (without trailing fraction
     * zeros, docs/format.md 2.4), with at least 6 fraction digits, no sign on zero.
     *
     * @param v the value
     * @return the text
     * @throws EncodeException when no decimal holds the value exactly
     */
    public static String decimalText(BigDecimal v) {
        BigDecimal w = Decimals.wire(v);
        String digits = w.unscaledValue().abs().toString();
        int scale = w.scale();
        StringBuilder out = new StringBuilder(digits.length() + 10);
        if (w.signum() < 0) {
            out.append('-');
        }
        if (scale == 0) {
            return out.append(digits).append(".000000").toString();
        }
        if (digits.length() <= scale) {
            out.append("0.");
            out.append("0".repeat(scale - digits.length()));
            out.append(digits);
        } else {
            out.append(digits, 0, digits.length() - scale).append('.').append(digits, digits.length() - scale, digits.length());
        }
        for (int i = scale; i < 6; i++) {
            out.append('0');
        }
        return out.toString();
    }

    /**
     * Appends a uuid's canonical text as a string.
     *
     * @param v the value
     */
    public void uuid(UUID v) {
        need(38);
        buf[size++] = '"';
        long msb = v.getMostSignificantBits();
        long lsb = v.getLeastSignificantBits();
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                buf[size++] = '-';
            }
            int b = (int) ((i < 8 ? msb >>> (56 - 8 * i) : lsb >>> (56 - 8 * (i - 8))) & 0xFF);
            buf[size++] = HEX_LOWER[b >> 4];
            buf[size++] = HEX_LOWER[b & 15];
        }
        buf[size++] = '"';
    }

    /**
     * Appends standard Base64 with padding, as a string.
     *
     * @param v the bytes
     */
    public void bytes(byte[] v) {
        int n = v.length;
        need(4 * ((n + 2) / 3) + 2);
        buf[size++] = '"';
        int i = 0;
        for (; i + 3 <= n; i += 3) {
            int x = (v[i] & 0xFF) << 16 | (v[i + 1] & 0xFF) << 8 | (v[i + 2] & 0xFF);
            buf[size++] = BASE64[x >>> 18];
            buf[size++] = BASE64[x >>> 12 & 63];
            buf[size++] = BASE64[x >>> 6 & 63];
            buf[size++] = BASE64[x & 63];
        }
        if (n - i == 1) {
            int x = (v[i] & 0xFF) << 16;
            buf[size++] = BASE64[x >>> 18];
            buf[size++] = BASE64[x >>> 12 & 63];
            buf[size++] = '=';
            buf[size++] = '=';
        } else if (n - i == 2) {
            int x = (v[i] & 0xFF) << 16 | (v[i + 1] & 0xFF) << 8;
            buf[size++] = BASE64[x >>> 18];
            buf[size++] = BASE64[x >>> 12 & 63];
            buf[size++] = BASE64[x >>> 6 & 63];
            buf[size++] = '=';
        }
        buf[size++] = '"';
    }

    /**
     * Appends a string literal escaped as RapidJSON escapes it ({@code "}, {@code \} and control
     * characters: \b \t \n \f \r, others &#92;u00XX; {@code /} and non-ASCII raw UTF-8), each byte
     * that is not part of valid UTF-8 (held as U+DC80..U+DCFF, {@link Utf8}) as &#92;udcXY.
     *
     * @param s the string
     * @throws EncodeException when s holds a lone surrogate that stands for no byte
     */
    public void string(String s) {
        int n = s.length();
        int start = size;
        need(3L * n + 2);
        buf[size++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                byte e = ESCAPE[c];
                if (e == 0) {
                    buf[size++] = (byte) c;
                } else {
                    need(6L + 3L * (n - i));
                    escape(c, e);
                }
            } else if (c < 0x800) {
                buf[size++] = (byte) (0xC0 | c >> 6);
                buf[size++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isSurrogate(c)) {
                // a character above U+FFFF, or a byte that is not UTF-8: written from the bytes
                size = start;
                byteString(Utf8.bytes(s));
                return;
            } else {
                buf[size++] = (byte) (0xE0 | c >> 12);
                buf[size++] = (byte) (0x80 | c >> 6 & 0x3F);
                buf[size++] = (byte) (0x80 | c & 0x3F);
            }
        }
        buf[size++] = '"';
    }

    private void escape(char c, byte e) {
        buf[size++] = '\\';
        if (e == 'u') {
            buf[size++] = 'u';
            buf[size++] = '0';
            buf[size++] = '0';
            buf[size++] = HEX_UPPER[c >> 4];
            buf[size++] = HEX_UPPER[c & 15];
        } else {
            buf[size++] = e;
        }
    }

    /** A string literal of an FBE string's bytes: valid UTF-8 sequences raw, other bytes as &#92;udcXY. */
    private void byteString(byte[] b) {
        need(6L * b.length + 2);      // six bytes for every byte at most
        buf[size++] = '"';
        int i = 0;
        while (i < b.length) {
            int c = b[i];
            if (c >= 0) {
                byte e = ESCAPE[c];
                if (e == 0) {
                    buf[size++] = (byte) c;
                } else {
                    escape((char) c, e);
                }
                i++;
                continue;
            }
            int len = Utf8.sequence(b, i, b.length);
            if (len == 0) {
                buf[size++] = '\\';
                buf[size++] = 'u';
                buf[size++] = 'd';
                buf[size++] = 'c';
                buf[size++] = HEX_LOWER[(c & 0xFF) >> 4];
                buf[size++] = HEX_LOWER[c & 15];
                i++;
            } else {
                System.arraycopy(b, i, buf, size, len);
                size += len;
                i += len;
            }
        }
        buf[size++] = '"';
    }

    // ---------------------------------------------------------------- map keys
    // Each appends the key as a member name and the colon.

    /**
     * Appends a string key.
     *
     * @param k the key
     */
    public void keyString(String k) {
        string(k);
        raw(':');
    }

    /**
     * Appends a signed integer key (also enums and flags of signed types).
     *
     * @param k the key
     */
    public void keyI64(long k) {
        raw('"');
        i64(k);
        raw("\":");
    }

    /**
     * Appends an unsigned 64-bit integer key (uint64, timestamp, enums and flags of uint64).
     *
     * @param k the key's bits
     */
    public void keyU64(long k) {
        raw('"');
        u64(k);
        raw("\":");
    }

    /**
     * Appends a bool key: "1" or "0", as the original.
     *
     * @param k the key
     */
    public void keyBool(boolean k) {
        raw(k ? "\"1\":" : "\"0\":");
    }

    /**
     * Appends a double key: C's %f (the original's text) when it reads back to the same value,
     * otherwise the text of {@link #f64}, so keys stay distinct and exact.
     *
     * @param k the key
     */
    public void keyF64(double k) {
        realKey(k, false);
    }

    /**
     * Appends a float key: as {@link #keyF64}, %f checked by reading it back as a float.
     *
     * @param k the key
     */
    public void keyF32(float k) {
        realKey(k, true);
    }

    private void realKey(double k, boolean f32) {
        raw('"');
        if (Double.isNaN(k) || Double.isInfinite(k)) {
            need(32);
            size = Dtoa.append(buf, size, k);
        } else {
            String text = realKeyText(k);
            double back = Double.parseDouble(text);
            boolean same = f32 ? (float) back == (float) k : back == k;
            if (same && (Double.doubleToRawLongBits(back) < 0) == (Double.doubleToRawLongBits(k) < 0)) {
                raw(text);
            } else {
                need(32);
                size = Dtoa.append(buf, size, k);
            }
        }
        raw("\":");
    }

    private static String realKeyText(double k) {
        StringBuilder t = new StringBuilder();
        Text.f(t, k);
        return t.toString();
    }

    /**
     * Appends a decimal key (the text of {@link #decimal}).
     *
     * @param k the key
     */
    public void keyDecimal(BigDecimal k) {
        decimal(k);
        raw(':');
    }

    /**
     * Appends a uuid key.
     *
     * @param k the key
     */
    public void keyUuid(UUID k) {
        uuid(k);
        raw(':');
    }

    /**
     * Appends a bytes key as its Base64 text.
     *
     * @param k the key
     */
    public void keyBytes(byte[] k) {
        bytes(k);
        raw(':');
    }
}
