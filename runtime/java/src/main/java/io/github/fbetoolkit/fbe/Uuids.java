package io.github.fbetoolkit.fbe;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * FBE uuids (docs/format.md 2.3) as {@link UUID}: 16 bytes in the order of the text form, which
 * is {@code getMostSignificantBits()} then {@code getLeastSignificantBits()}, each big-endian.
 */
public final class Uuids {
    private Uuids() {}

    /** The nil uuid (schema constant {@code uuid0}). */
    public static final UUID NIL = new UUID(0, 0);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Object LOCK = new Object();
    private static long last;
    private static int clock = -1;
    private static long node;

    /**
     * The original's lenient parser: '-', '{' and '}' are skipped anywhere, the rest is read in
     * pairs of hex digits of either case, reading stops after 16 bytes and a short text leaves
     * the rest zero.
     *
     * @param s the text
     * @return the uuid
     * @throws IllegalArgumentException for a character that is not a hex digit
     */
    public static UUID parse(String s) {
        byte[] u = new byte[16];
        int i = 0;
        boolean half = false;
        int acc = 0;
        for (int k = 0; k < s.length() && i < 16; k++) {
            char c = s.charAt(k);
            if (c == '-' || c == '{' || c == '}') {
                continue;
            }
            int v = Character.digit(c, 16);
            if (v < 0 || c > 'f') {
                throw new IllegalArgumentException("invalid hex digit '" + c + "' in uuid \"" + s + "\"");
            }
            if (half) {
                u[i++] = (byte) (acc << 4 | v);
            } else {
                acc = v;
            }
            half = !half;
        }
        return of(u, 0);
    }

    /**
     * The uuid of 16 bytes in text order.
     *
     * @param b    the bytes
     * @param from the first byte
     * @return the uuid
     */
    public static UUID of(byte[] b, int from) {
        long msb = 0;
        long lsb = 0;
        for (int k = 0; k < 8; k++) {
            msb = msb << 8 | (b[from + k] & 0xFF);
            lsb = lsb << 8 | (b[from + 8 + k] & 0xFF);
        }
        return new UUID(msb, lsb);
    }

    /**
     * Orders uuids by their 16 bytes (the order of FBE sets and maps; {@link UUID#compareTo}
     * compares signed halves).
     *
     * @param a one uuid
     * @param b another
     * @return negative, zero or positive
     */
    public static int compare(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    /**
     * A random uuid (schema constant {@code uuid4}).
     *
     * @return a new uuid
     */
    public static UUID uuid4() {
        return UUID.randomUUID();
    }

    /**
     * A time-based uuid (schema constant {@code uuid1}) with a random node id.
     *
     * @return a new uuid
     */
    public static UUID uuid1() {
        long t;
        int clk;
        long nd;
        synchronized (LOCK) {
            if (clock < 0) {
                byte[] r = new byte[8];
                RANDOM.nextBytes(r);
                long n = 0;
                for (int k = 0; k < 6; k++) {
                    n = n << 8 | (r[k] & 0xFF);
                }
                node = n | 0x010000000000L;       // multicast bit: not a real MAC address (RFC 4122 4.5)
                clock = ((r[6] & 0xFF) << 8 | (r[7] & 0xFF)) & 0x3FFF;
            }
            // 100 ns intervals since 1582-10-15
            t = Timestamps.now() / 100 + 0x01b21dd213814000L;
            if (t <= last) {
                t = last + 1;
            }
            last = t;
            clk = clock;
            nd = node;
        }
        long msb = (t & 0xFFFFFFFFL) << 32 | (t >>> 32 & 0xFFFF) << 16 | 0x1000 | (t >>> 48 & 0x0FFF);
        long lsb = (long) (0x8000 | clk) << 48 | nd;
        return new UUID(msb, lsb);
    }
}
