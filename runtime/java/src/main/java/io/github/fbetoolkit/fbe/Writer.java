package io.github.fbetoolkit.fbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

/**
 * Builds one root in one growing buffer, in the original's allocation order (docs/format.md
 * 3.5): nothing is inserted in the middle and nothing allocated ahead. A Writer is meant to be
 * reused: {@link #reset} keeps the buffer, so a warm Writer allocates nothing for the bytes.
 *
 * <p>Versioned code allocates blocks ({@link #alloc}, {@link #struct}, {@link #string},
 * {@link #vector}, {@link #optional}) and fills slots at absolute positions ({@code put*});
 * final code appends ({@code append*}). While a versioned root is written the bytes of the
 * buffer beyond {@link #size} are zero, so a block is allocated without clearing it; a final root
 * writes every byte it takes, so {@link #beginFinal} does not clear what an earlier root left.
 */
public final class Writer {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[] buf;
    private int size;
    private int depth;
    /** Bytes from size up to dirty may be non-zero (left by a final root, cleared by reset). */
    private int dirty;
    private int maxDepth = Limits.MAX_DEPTH;

    /** A writer with a small buffer that grows as needed. */
    public Writer() {
        this(256);
    }

    /**
     * A writer whose buffer starts with {@code capacity} bytes.
     *
     * @param capacity the initial capacity
     */
    public Writer(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    /** Empties the buffer, keeping its capacity. */
    public void reset() {
        Arrays.fill(buf, 0, Math.max(size, dirty), (byte) 0);
        size = 0;
        dirty = 0;
        depth = 0;
    }

    /** @return the buffer; its first {@link #size} bytes are what was written */
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
            throw new EncodeException(EncodeException.Kind.DEPTH, "cannot write " + type + ": structs nested deeper than " + maxDepth, "");
        }
    }

    /** Undoes {@link #enter}. */
    public void leave() {
        depth--;
    }

    /**
     * Writes s as length-prefixed UTF-8 at the end, a short string in one pass: room for the most
     * bytes it can take (3 a char) is made first and only the bytes written are kept, so the rest
     * stays zero.
     * A refused string (a lone surrogate) leaves the writer as it was.
     *
     * @param s the string
     * @return the position of its length
     */
    private int appendUtf8(String s) {
        if (s.length() > ONE_PASS) {
            return appendExact(s);
        }
        int most = 4 + 3 * s.length();
        if (most > buf.length - size) {
            grow(most);
        }
        int p = size;
        int end;
        try {
            end = Utf8.encode(s, buf, p + 4);
        } catch (EncodeException e) {
            Arrays.fill(buf, p, p + most, (byte) 0);
            throw e;
        }
        putI32(p, end - p - 4);
        size = end;
        return p;
    }

    /** Longer strings are measured first (room for 3 bytes a char would be too much). */
    private static final int ONE_PASS = 1 << 16;

    private int appendExact(String s) {
        int n = Utf8.length(s);
        int p = alloc(4 + n);
        putI32(p, n);
        Utf8.encode(s, buf, p + 4);
        return p;
    }

    private void grow(int need) {
        long want = Math.max((long) buf.length * 2, (long) size + need);
        if (want > Integer.MAX_VALUE - 8) {
            if ((long) size + need > Integer.MAX_VALUE - 8) {
                throw new EncodeException("root larger than 2 GiB");
            }
            want = Integer.MAX_VALUE - 8;
        }
        buf = Arrays.copyOf(buf, (int) want);
    }

    /**
     * Appends {@code n} zero bytes.
     *
     * @param n the number of bytes
     * @return their position
     */
    public int alloc(int n) {
        if (n > buf.length - size) {
            grow(n);
        }
        int p = size;
        size += n;
        return p;
    }

    // ---------------------------------------------------------------- slots at absolute positions

    /** @param p position @param v value */
    public void putBool(int p, boolean v) {
        buf[p] = (byte) (v ? 1 : 0);
    }

    /** @param p position @param v value */
    public void putI8(int p, byte v) {
        buf[p] = v;
    }

    /** @param p position @param v value (the low byte of a {@code char}) */
    public void putChar(int p, char v) {
        buf[p] = (byte) v;
    }

    /** @param p position @param v value */
    public void putI16(int p, short v) {
        I16.set(buf, p, v);
    }

    /** @param p position @param v value */
    public void putI32(int p, int v) {
        I32.set(buf, p, v);
    }

    /** @param p position @param v value */
    public void putI64(int p, long v) {
        I64.set(buf, p, v);
    }

    /** @param p position @param v value (bit for bit: NaN payloads survive) */
    public void putF32(int p, float v) {
        I32.set(buf, p, Float.floatToRawIntBits(v));
    }

    /** @param p position @param v value (bit for bit) */
    public void putF64(int p, double v) {
        I64.set(buf, p, Double.doubleToRawLongBits(v));
    }

    /** @param p position @param v value (16 bytes in text order) */
    public void putUuid(int p, UUID v) {
        BE64.set(buf, p, v.getMostSignificantBits());
        BE64.set(buf, p + 8, v.getLeastSignificantBits());
    }

    /** @param p position @param v value (16 bytes, docs/format.md 2.4) */
    public void putDecimal(int p, BigDecimal v) {
        BigDecimal w = Decimals.wire(v);
        I64.set(buf, p, Decimals.lo(w));
        I32.set(buf, p + 8, Decimals.hi(w));
        I32.set(buf, p + 12, Decimals.flags(w));
    }

    // ---------------------------------------------------------------- versioned model

    /** Starts a versioned root (docs/format.md 3.2): 8 header bytes, the top struct's slot at 4. */
    public void beginVersioned() {
        reset();
        alloc(8);
    }

    /**
     * Stores the root's total size.
     *
     * @return the root's size
     */
    public int endVersioned() {
        putI32(0, size);
        return size;
    }

    /**
     * Allocates a struct body, stores its offset in the slot (from base) and writes its header.
     *
     * @param base     the base of the slot
     * @param slot     the slot's absolute position
     * @param bodySize the body size (docs/ir.md {@code body_size})
     * @param typeId   the struct's type id
     * @return the body's position, the base of its fields
     */
    public int struct(int base, int slot, int bodySize, int typeId) {
        int p = alloc(bodySize);
        putI32(slot, p - base);
        putI32(p, bodySize);
        putI32(p + 4, typeId);
        return p;
    }

    /**
     * Allocates a length-prefixed string and stores its offset in the slot.
     *
     * @param base the base of the slot
     * @param slot the slot's absolute position
     * @param s    the string
     */
    public void string(int base, int slot, String s) {
        int p = appendUtf8(s);
        putI32(slot, p - base);
    }

    /**
     * Allocates length-prefixed bytes and stores their offset in the slot.
     *
     * @param base the base of the slot
     * @param slot the slot's absolute position
     * @param b    the bytes
     */
    public void bytes(int base, int slot, byte[] b) {
        int p = alloc(4 + b.length);
        putI32(p, b.length);
        System.arraycopy(b, 0, buf, p + 4, b.length);
        putI32(slot, p - base);
    }

    /**
     * Allocates a collection block of {@code n} zeroed slots of {@code item} bytes (a map's item
     * is a key and a value slot), stores its offset and the count.
     *
     * @param base the base of the slot (the elements' base too)
     * @param slot the slot's absolute position
     * @param n    the count
     * @param item the bytes of one slot
     * @return the position of the first element slot
     */
    public int vector(int base, int slot, int n, int item) {
        int p = alloc(4 + n * item);
        putI32(p, n);
        putI32(slot, p - base);
        return p + 4;
    }

    /**
     * Marks the optional slot present, allocates its value slot and stores its offset.
     *
     * @param base the base of the slot
     * @param slot the optional slot's absolute position
     * @param size the value slot's size
     * @return the value slot's position: the value's base
     */
    public int optional(int base, int slot, int size) {
        int p = alloc(size);
        buf[slot] = 1;
        putI32(slot + 1, p - base);
        return p;
    }

    // ---------------------------------------------------------------- final model

    /** Starts a final root (docs/format.md 4.1): size and type id come at {@link #endFinal}. */
    public void beginFinal() {
        dirty = Math.max(dirty, size);
        size = 0;
        depth = 0;
        alloc(8);
    }

    /**
     * Stores the root's size and type id.
     *
     * @param typeId the root struct's type id
     * @return the root's size
     */
    public int endFinal(int typeId) {
        putI32(0, size);
        putI32(4, typeId);
        return size;
    }

    /** @param v value */
    public void appendBool(boolean v) {
        putBool(alloc(1), v);
    }

    /** @param v value */
    public void appendI8(byte v) {
        putI8(alloc(1), v);
    }

    /** @param v value */
    public void appendChar(char v) {
        putChar(alloc(1), v);
    }

    /** @param v value */
    public void appendI16(short v) {
        putI16(alloc(2), v);
    }

    /** @param v value */
    public void appendI32(int v) {
        putI32(alloc(4), v);
    }

    /** @param v value */
    public void appendI64(long v) {
        putI64(alloc(8), v);
    }

    /** @param v value */
    public void appendF32(float v) {
        putF32(alloc(4), v);
    }

    /** @param v value */
    public void appendF64(double v) {
        putF64(alloc(8), v);
    }

    /** @param v value */
    public void appendUuid(UUID v) {
        putUuid(alloc(16), v);
    }

    /** @param v value */
    public void appendDecimal(BigDecimal v) {
        putDecimal(alloc(16), v);
    }

    /** @param n a collection's count */
    public void appendCount(int n) {
        putI32(alloc(4), n);
    }

    /** @param s a string: its length and bytes */
    public void appendString(String s) {
        appendUtf8(s);
    }

    /** @param b bytes: their length and the bytes */
    public void appendBytes(byte[] b) {
        int p = alloc(4 + b.length);
        putI32(p, b.length);
        System.arraycopy(b, 0, buf, p + 4, b.length);
    }

    /**
     * Checks a fixed array's length before it is written.
     *
     * @param length the array's length
     * @param n      the schema's length
     * @param field  the field's schema name (the roots put the type and the path in front)
     * @throws EncodeException when they differ
     */
    public static void checkLength(int length, int n, String field) {
        if (length != n) {
            throw new EncodeException(EncodeException.Kind.INVALID,
                    "an array of " + length + " elements where the schema says " + n, field);
        }
    }
}
