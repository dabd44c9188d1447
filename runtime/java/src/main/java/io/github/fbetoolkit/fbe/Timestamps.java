package io.github.fbetoolkit.fbe;

import java.time.Instant;

/**
 * FBE timestamps (docs/format.md 2.2): nanoseconds since 1970-01-01 00:00:00 UTC as an unsigned
 * 64-bit number, held in a {@code long}; these helpers convert from and to {@link Instant}.
 */
public final class Timestamps {
    private Timestamps() {}

    private static final long NANOS = 1_000_000_000L;

    /**
     * The time now (schema constant {@code utc}).
     *
     * @return nanoseconds since the epoch
     */
    public static long now() {
        return of(Instant.now());
    }

    /**
     * An instant as a timestamp.
     *
     * @param t an instant at or after the epoch, before 2554
     * @return nanoseconds since the epoch
     * @throws ArithmeticException when the instant does not fit
     */
    public static long of(Instant t) {
        if (t.getEpochSecond() < 0) {
            throw new ArithmeticException("instant " + t + " is before the epoch");
        }
        long s = t.getEpochSecond();
        if (Long.compareUnsigned(s, Long.divideUnsigned(-1L, NANOS)) > 0) {
            throw new ArithmeticException("instant " + t + " beyond 64-bit nanoseconds");
        }
        long v = s * NANOS + t.getNano();
        if (Long.compareUnsigned(v, s * NANOS) < 0) {
            throw new ArithmeticException("instant " + t + " beyond 64-bit nanoseconds");
        }
        return v;
    }

    /**
     * A timestamp as an instant (unsigned: every value is after the epoch).
     *
     * @param nanos nanoseconds since the epoch
     * @return the instant
     */
    public static Instant toInstant(long nanos) {
        return Instant.ofEpochSecond(Long.divideUnsigned(nanos, NANOS), Long.remainderUnsigned(nanos, NANOS));
    }
}
