package io.github.fbetoolkit.fbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * FBE strings are bytes (docs/format.md 2.5) and may hold sequences that are not UTF-8. A Java
 * {@code String} holds each byte that is not part of a valid UTF-8 sequence (0x80..0xFF) as the
 * lone low surrogate U+DC80..U+DCFF, as Python's {@code surrogateescape} (PEP 383) and as the
 * JSON rule of docs/limits.md 7, so every string reads and writes back to the same bytes. Any
 * other lone surrogate stands for no byte and cannot be written ({@link EncodeException}).
 */
public final class Utf8 {
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;

    private Utf8() {}

    /**
     * The first byte of {@code data[from, end)} from 0x80 (a byte that is not ASCII), or end: eight
     * bytes at a time while eight can be read in the array (a short string at once, the bytes past
     * its end masked off), then byte by byte.
     */
    static int ascii(byte[] data, int from, int end) {
        int i = from;
        while (i <= data.length - 8) {
            long high = (long) I64.get(data, i) & HIGH_BITS;
            int left = end - i;
            if (left < 8) {
                high &= (1L << (left << 3)) - 1;
            }
            if (high != 0) {
                return i + (Long.numberOfTrailingZeros(high) >>> 3);
            }
            if (left <= 8) {
                return end;
            }
            i += 8;
        }
        while (i < end && data[i] >= 0) {
            i++;
        }
        return i;
    }

    /**
     * The bytes {@code data[from, from + n)} as a string (invalid bytes as U+DC80..U+DCFF).
     *
     * @param data the buffer
     * @param from the first byte
     * @param n    the number of bytes
     * @return the string
     */
    @SuppressWarnings("deprecation")
    public static String decode(byte[] data, int from, int n) {
        int end = from + n;
        int i = ascii(data, from, end);
        if (i == end) {
            // ASCII: the bytes are the characters. String(byte[], int hibyte, int, int) with hibyte 0
            // copies them as String(data, from, n, ISO_8859_1) does, but is small enough for the JIT
            // to inline (the charset constructor is not: a call per string read)
            return new String(data, 0, from, n);
        }
        if (valid(data, i, end)) {
            return new String(data, from, n, StandardCharsets.UTF_8);
        }
        StringBuilder out = new StringBuilder(n);
        for (int k = from; k < i; k++) {
            out.append((char) data[k]);
        }
        while (i < end) {
            int b = data[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int len = sequence(data, i, end);
            if (len == 0) {
                out.append((char) (0xDC00 | b));
                i++;
            } else {
                int cp = codePoint(data, i, len);
                out.appendCodePoint(cp);
                i += len;
            }
        }
        return out.toString();
    }

    /** Whether {@code data[from, end)} is valid UTF-8. */
    static boolean valid(byte[] data, int from, int end) {
        int i = from;
        while (i < end) {
            if (data[i] >= 0) {
                i = ascii(data, i, end);
                continue;
            }
            int len = sequence(data, i, end);
            if (len == 0) {
                return false;
            }
            i += len;
        }
        return true;
    }

    /**
     * The length of the valid UTF-8 sequence starting with a lead byte at {@code i} (Unicode table
     * 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
     */
    static int sequence(byte[] data, int i, int end) {
        int b0 = data[i] & 0xFF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            return i + 1 < end && continuation(data[i + 1], 0x80, 0xBF) ? 2 : 0;
        }
        if (b0 >= 0xE0 && b0 <= 0xEF) {
            int lo = b0 == 0xE0 ? 0xA0 : 0x80;
            int hi = b0 == 0xED ? 0x9F : 0xBF;
            return i + 2 < end && continuation(data[i + 1], lo, hi) && continuation(data[i + 2], 0x80, 0xBF) ? 3 : 0;
        }
        if (b0 >= 0xF0 && b0 <= 0xF4) {
            int lo = b0 == 0xF0 ? 0x90 : 0x80;
            int hi = b0 == 0xF4 ? 0x8F : 0xBF;
            return i + 3 < end && continuation(data[i + 1], lo, hi) && continuation(data[i + 2], 0x80, 0xBF)
                    && continuation(data[i + 3], 0x80, 0xBF) ? 4 : 0;
        }
        return 0;
    }

    private static boolean continuation(byte b, int lo, int hi) {
        int v = b & 0xFF;
        return v >= lo && v <= hi;
    }

    private static int codePoint(byte[] data, int i, int len) {
        int b0 = data[i] & 0xFF;
        switch (len) {
            case 2:
                return (b0 & 0x1F) << 6 | (data[i + 1] & 0x3F);
            case 3:
                return (b0 & 0x0F) << 12 | (data[i + 1] & 0x3F) << 6 | (data[i + 2] & 0x3F);
            default:
                return (b0 & 0x07) << 18 | (data[i + 1] & 0x3F) << 12 | (data[i + 2] & 0x3F) << 6 | (data[i + 3] & 0x3F);
        }
    }

    /**
     * Where the {@code units}-th UTF-16 unit of valid UTF-8 text starts: a byte offset from a
     * count of characters (a sequence of 4 bytes is two units).
     *
     * @param data  valid UTF-8
     * @param units the UTF-16 units before the place
     * @return its byte offset (the text's length when units is beyond it)
     */
    static int byteOffset(byte[] data, long units) {
        int i = 0;
        for (long k = 0; k < units && i < data.length; ) {
            int b = data[i] & 0xFF;
            int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
            k += len == 4 ? 2 : 1;
            i += len;
        }
        return Math.min(i, data.length);
    }

    /**
     * The first byte of {@code data[from, end)} that is not part of a valid UTF-8 sequence.
     *
     * @param data the buffer
     * @param from the first byte
     * @param end  the end
     * @return its position, or -1 when all of it is valid UTF-8
     */
    public static int invalidAt(byte[] data, int from, int end) {
        int i = from;
        while (i < end) {
            if (data[i] >= 0) {
                i = ascii(data, i, end);
                continue;
            }
            int len = sequence(data, i, end);
            if (len == 0) {
                return i;
            }
            i += len;
        }
        return -1;
    }

    /**
     * The number of bytes {@link #encode} writes for {@code s}.
     *
     * @param s the string
     * @return its size in bytes
     * @throws EncodeException when {@code s} holds a lone surrogate other than U+DC80..U+DCFF
     */
    public static int length(String s) {
        int n = s.length();
        int size = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                size += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                size += 2;      // 4 bytes for two chars
                i++;
            } else if (Character.isSurrogate(c)) {
                if (c < 0xDC80 || c > 0xDCFF) {
                    throw lone(c, i);
                }
                // one raw byte for one char
            } else {
                size += 2;
            }
        }
        return size;
    }

    /**
     * Writes the bytes of {@code s} at {@code data[p]} (room for {@link #length} bytes is there).
     *
     * @param s    the string
     * @param data the buffer
     * @param p    the first byte
     * @return the position after the last byte written
     */
    public static int encode(String s, byte[] data, int p) {
        int n = s.length();
        int i = 0;
        for (; i < n; i++) {        // ASCII, the common case
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            data[p + i] = (byte) c;
        }
        return i == n ? p + n : encode(s, i, data, p + i);
    }

    private static EncodeException lone(char c, int i) {
        return new EncodeException("string holds the lone surrogate U+" + Integer.toHexString(c).toUpperCase()
                + " at index " + i + ", which stands for no byte (only U+DC80..U+DCFF stand for the bytes 0x80..0xFF)");
    }

    private static int encode(String s, int from, byte[] data, int p) {
        int n = s.length();
        for (int i = from; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                data[p++] = (byte) c;
            } else if (c < 0x800) {
                data[p++] = (byte) (0xC0 | c >> 6);
                data[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                data[p++] = (byte) (0xF0 | cp >> 18);
                data[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                data[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                data[p++] = (byte) (0x80 | cp & 0x3F);
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                data[p++] = (byte) c;      // an escaped raw byte
            } else if (Character.isSurrogate(c)) {
                throw lone(c, i);
            } else {
                data[p++] = (byte) (0xE0 | c >> 12);
                data[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                data[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return p;
    }

    /**
     * The bytes of {@code s}.
     *
     * @param s the string
     * @return its bytes
     */
    public static byte[] bytes(String s) {
        byte[] out = new byte[length(s)];
        encode(s, out, 0);
        return out;
    }
}
