package io.github.fbetoolkit.fbe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * Checks and reads one root (docs/format.md 3 and 4) under the limits of docs/limits.md: every
 * block inside the root, versioned blocks in allocation order (each starts at or after the end
 * of the block read before it, so no byte is decoded twice), every count bounded by the bytes
 * left, nesting bounded by the maximum depth and every value it materializes charged to the
 * decode budget. The first problem throws a {@link DecodeException}; generated readers put the
 * field path in front of it as it leaves them.
 *
 * <p>Positions are absolute indexes into the array; a root may start anywhere in it (a frame in
 * a receiver's buffer). Error offsets count from the root's first byte.
 */
public final class Reader {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] data;
    private final int start;
    private final int end;
    private final int maxDepth;
    private long budget;
    private int depth;
    private int mark;
    private int count;
    /** The final model's cursor: the position of the next value. */
    private int pos;

    private Reader(byte[] data, int start, int end, Limits limits) {
        this.data = data;
        this.start = start;
        this.end = end;
        this.maxDepth = limits.maxDepth();
        this.budget = limits.budget(end - start);
        this.mark = start + 8;
        this.pos = start + 8;
    }

    private static void checkRange(byte[] data, int offset, int length) {
        if (offset < 0 || length < 0 || offset > data.length - length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + offset + " + " + length + ") of an array of "
                    + data.length);
        }
    }

    /**
     * Starts reading a versioned root (docs/format.md 3.2): at least 16 bytes, a total size that
     * fits the bytes given. The top struct's slot is at {@link #base()} + 4.
     *
     * @param data   the buffer
     * @param offset the root's first byte
     * @param length the bytes given
     * @param limits the limits (docs/limits.md)
     * @return the reader
     * @throws DecodeException when the header is wrong
     */
    public static Reader versioned(byte[] data, int offset, int length, Limits limits) throws DecodeException {
        checkRange(data, offset, length);
        if (length < 8) {
            throw new DecodeException("versioned root shorter than 8 bytes", "", 0);
        }
        long total = (int) I32.get(data, offset) & 0xFFFFFFFFL;
        if (total < 16) {
            throw new DecodeException("versioned root size " + total + " below 16", "", 0);
        }
        if (total > length) {
            throw new DecodeException("versioned root size " + total + " beyond the buffer of " + length + " bytes", "", 0);
        }
        return new Reader(data, offset, offset + (int) total, limits);
    }

    /**
     * Starts reading a final root (docs/format.md 4.1, 5.2): at least 8 bytes, the expected type
     * id, a size that fits the bytes given. Its fields start at {@code base() + 8}.
     *
     * @param data   the buffer
     * @param offset the root's first byte
     * @param length the bytes given
     * @param typeId the expected type id
     * @param limits the limits (docs/limits.md)
     * @return the reader
     * @throws DecodeException when the header is wrong
     */
    public static Reader finalRoot(byte[] data, int offset, int length, int typeId, Limits limits)
            throws DecodeException {
        checkRange(data, offset, length);
        if (length < 8) {
            throw new DecodeException("final root shorter than 8 bytes", "", 0);
        }
        long size = (int) I32.get(data, offset) & 0xFFFFFFFFL;
        if (size < 8) {
            throw new DecodeException("final root size " + size + " below 8", "", 0);
        }
        int tid = (int) I32.get(data, offset + 4);
        if (tid != typeId) {
            throw new DecodeException("type id " + Integer.toUnsignedString(tid) + " where "
                    + Integer.toUnsignedString(typeId) + " was expected", "", 4);
        }
        if (size > length) {
            throw new DecodeException("final root size " + size + " beyond the buffer of " + length + " bytes", "", 0);
        }
        return new Reader(data, offset, offset + (int) size, limits);
    }

    /** @return the root's first byte: the base of the top struct's slot (at base + 4) */
    public int base() {
        return start;
    }

    /** @return the root's size in bytes */
    public int size() {
        return end - start;
    }

    private DecodeException fail(String reason, String field, int p) {
        return new DecodeException(reason, field, p < 0 ? -1 : p - start);
    }

    /**
     * Charges {@code cost} bytes for values materialized at {@code p} (default structs,
     * docs/limits.md 3).
     *
     * @param cost  the bytes
     * @param p     where
     * @param field the field
     * @throws DecodeException when the budget is exceeded
     */
    public void spend(long cost, int p, String field) throws DecodeException {
        budget -= cost;
        if (budget < 0) {
            throw new DecodeException(DecodeException.Kind.BUDGET, "decode budget exceeded", field, p - start);
        }
    }

    private void enter(long cost, int p) throws DecodeException {
        if (depth >= maxDepth) {
            throw new DecodeException(DecodeException.Kind.DEPTH, "structs nested deeper than " + maxDepth, "", p - start);
        }
        budget -= cost;
        if (budget < 0) {
            throw new DecodeException(DecodeException.Kind.BUDGET, "decode budget exceeded", "", p - start);
        }
        depth++;
    }

    /** Undoes a successful {@link #struct} or {@link #enter}. */
    public void leave() {
        depth--;
    }

    // ---------------------------------------------------------------- slots at absolute positions
    // Generated code reads a slot only inside a body or block the Reader checked.

    /** @param p position @return the slot's value (any non-zero byte is true) */
    public boolean bool(int p) {
        return data[p] != 0;
    }

    /** @param p position @return the slot's value */
    public byte i8(int p) {
        return data[p];
    }

    /** @param p position @return the slot's value (a byte 0..255) */
    public char ch(int p) {
        return (char) (data[p] & 0xFF);
    }

    /** @param p position @return the slot's value */
    public short i16(int p) {
        return (short) I16.get(data, p);
    }

    /** @param p position @return the slot's value */
    public int i32(int p) {
        return (int) I32.get(data, p);
    }

    /** @param p position @return the slot's value */
    public long i64(int p) {
        return (long) I64.get(data, p);
    }

    /**
     * A float bit for bit, but a signalling NaN (quiet bit clear) reads quieted, its sign and the rest
     * of its payload kept (docs/format.md 1): the value every language reads, as the widening to a
     * double makes it in those that hold a float as one.
     *
     * @param p position
     * @return the slot's value
     */
    public float f32(int p) {
        int bits = (int) I32.get(data, p);
        if ((bits & 0x7FFFFFFF) > 0x7F800000) {
            bits |= 0x00400000; // a NaN: the quiet bit set
        }
        return Float.intBitsToFloat(bits);
    }

    /** @param p position @return the slot's value */
    public double f64(int p) {
        return Double.longBitsToDouble((long) I64.get(data, p));
    }

    /** @param p position @return the slot's value */
    public UUID uuid(int p) {
        return new UUID((long) BE64.get(data, p), (long) BE64.get(data, p + 8));
    }

    /**
     * The decimal at p (docs/format.md 2.4).
     *
     * @param p     the position
     * @param field the field, for errors
     * @return the value, with the scale of its bytes
     * @throws DecodeException when the flags hold more than a scale 0..28 and a sign
     */
    public BigDecimal decimal(int p, String field) throws DecodeException {
        int flags = (int) I32.get(data, p + 12);
        String problem = Decimals.flagsError(flags);
        if (problem != null) {
            throw fail(problem, field, p);
        }
        return Decimals.fromParts((long) I64.get(data, p), (int) I32.get(data, p + 8), flags);
    }

    /**
     * Checks the decimal at p as {@link #decimal} does, without the value (verify).
     *
     * @param p     the position
     * @param field the field, for errors
     * @throws DecodeException when the flags hold more than a scale 0..28 and a sign
     */
    public void skipDecimal(int p, String field) throws DecodeException {
        String problem = Decimals.flagsError((int) I32.get(data, p + 12));
        if (problem != null) {
            throw fail(problem, field, p);
        }
    }

    /**
     * Checks the decimal at the cursor as {@link #finalDecimal} does, without the value (verify).
     *
     * @param field the field, for errors
     * @throws DecodeException beyond the root, or for flags beyond a scale 0..28 and a sign
     */
    public void finalSkipDecimal(String field) throws DecodeException {
        skipDecimal(fixed(16, field), field);
    }

    private long u32(int p) {
        return (int) I32.get(data, p) & 0xFFFFFFFFL;
    }

    // ---------------------------------------------------------------- versioned model

    private String backwards(String what, long p) {
        return what + " at " + (p - start) + " before the end of the previous block (" + (mark - start)
                + "): out-of-line blocks must follow each other in allocation order";
    }

    /**
     * Enters the struct whose body the slot points to (from base): the header (8 bytes inside the
     * root, body size at least 8 and inside the root, the expected type id, allocation order),
     * the depth and the budget. The caller reads the fields present (the body size is
     * {@code i32(body)}) and calls {@link #leave}. An error here is the struct's own: its path is
     * the field holding it, which the caller adds.
     *
     * @param base   the base of the slot
     * @param slot   the slot's absolute position
     * @param typeId the expected type id
     * @param cost   what the struct costs (docs/ir.md {@code decode_cost})
     * @return the body's position
     * @throws DecodeException when the struct is not there as it should be
     */
    public int struct(int base, int slot, int typeId, int cost) throws DecodeException {
        long off = u32(slot);
        if (off == 0) {
            throw fail("struct offset 0", "", slot);
        }
        long p = base + off;
        if (p < mark) {
            throw new DecodeException(backwards("struct body", p), "", p - start);
        }
        if (p + 8 > end) {
            throw new DecodeException("struct header beyond the end of the buffer", "", p - start);
        }
        int b = (int) p;
        long size = u32(b);
        if (size < 8) {
            throw fail("struct body size " + size + " below 8", "", b);
        }
        if (p + size > end) {
            throw fail("struct body of " + size + " bytes beyond the end of the buffer", "", b);
        }
        int tid = i32(b + 4);
        if (tid != typeId) {
            throw fail("type id " + Integer.toUnsignedString(tid) + " where " + Integer.toUnsignedString(typeId)
                    + " was expected", "", b);
        }
        mark = b + (int) size;
        enter(cost, b);
        return b;
    }

    /** Checks a length- or count-prefixed block at p: in allocation order, its 4 bytes inside. */
    private int block(String what, int base, int slot, String field) throws DecodeException {
        long off = u32(slot);
        if (off == 0) {
            return -1;
        }
        long p = base + off;
        if (p < mark) {
            throw new DecodeException(backwards(what, p), field, p - start);
        }
        if (p + 4 > end) {
            throw new DecodeException(what + " size beyond the end of the buffer", field, p - start);
        }
        return (int) p;
    }

    private int payload(String what, int base, int slot, String field) throws DecodeException {
        int p = block(what, base, slot, field);
        if (p < 0) {
            count = 0;
            return 0;
        }
        long n = u32(p);
        if (n > end - p - 4) {
            throw fail(what + " of " + n + " bytes beyond the end of the buffer", field, p);
        }
        mark = p + 4 + (int) n;
        spend(n, p, field);
        count = (int) n;
        return p + 4;
    }

    /**
     * The string whose block the slot points to (offset 0: empty).
     *
     * @param base  the base of the slot
     * @param slot  the slot's absolute position
     * @param field the field, for errors
     * @return the string ({@link Utf8})
     * @throws DecodeException when the block is not there as it should be
     */
    public String string(int base, int slot, String field) throws DecodeException {
        int p = payload("string", base, slot, field);
        return count == 0 ? "" : Utf8.decode(data, p, count);
    }

    /**
     * The bytes whose block the slot points to (offset 0: empty).
     *
     * @param base  the base of the slot
     * @param slot  the slot's absolute position
     * @param field the field, for errors
     * @return a copy of the bytes
     * @throws DecodeException when the block is not there as it should be
     */
    public byte[] bytes(int base, int slot, String field) throws DecodeException {
        int p = payload("bytes", base, slot, field);
        byte[] out = new byte[count];
        System.arraycopy(data, p, out, 0, count);
        return out;
    }

    /**
     * Checks the string whose block the slot points to as {@link #string} does, without making
     * the string (verify).
     *
     * @param base  the base of the slot
     * @param slot  the slot's absolute position
     * @param field the field, for errors
     * @throws DecodeException when the block is not there as it should be
     */
    public void skipString(int base, int slot, String field) throws DecodeException {
        payload("string", base, slot, field);
    }

    /**
     * Checks the bytes whose block the slot points to as {@link #bytes} does, without copying
     * them (verify).
     *
     * @param base  the base of the slot
     * @param slot  the slot's absolute position
     * @param field the field, for errors
     * @throws DecodeException when the block is not there as it should be
     */
    public void skipBytes(int base, int slot, String field) throws DecodeException {
        payload("bytes", base, slot, field);
    }

    /**
     * Checks the collection block the slot points to: a count, then that many slots of
     * {@code item} bytes, each element costing {@code cost} (0 for struct elements, charged as
     * structs). The count is {@link #count()} after the call.
     *
     * @param base  the base of the slot
     * @param slot  the slot's absolute position
     * @param item  the bytes of one element's slot (a map's: key and value slot)
     * @param cost  what one element costs (docs/limits.md 3)
     * @param field the field, for errors
     * @return the position of the first element slot
     * @throws DecodeException when the block is not there as it should be or costs too much
     */
    public int vector(int base, int slot, int item, int cost, String field) throws DecodeException {
        int p = block("collection", base, slot, field);
        if (p < 0) {
            count = 0;
            return 0;
        }
        long n = u32(p);
        if (n * item > end - p - 4) {
            throw fail("count " + n + " exceeds the buffer", field, p);
        }
        mark = p + 4 + (int) n * item;
        spend(n * cost, p, field);
        count = (int) n;
        return p + 4;
    }

    /** @return the count of the last {@link #vector} or {@link #finalCount} */
    public int count() {
        return count;
    }

    /**
     * Reads the optional slot: absent, or present with the position of its value slot of
     * {@code size} bytes (claimed in allocation order), which is the value's base.
     *
     * @param base  the base of the slot
     * @param slot  the optional slot's absolute position
     * @param size  the value slot's size
     * @param field the field, for errors
     * @return the value slot's position, or -1 when absent
     * @throws DecodeException when a present value is not there as it should be
     */
    public int optional(int base, int slot, int size, String field) throws DecodeException {
        if (data[slot] == 0) {
            return -1;
        }
        long off = u32(slot + 1);
        if (off == 0) {
            throw fail("present optional with offset 0", field, slot);
        }
        long p = base + off;
        if (p < mark) {
            throw new DecodeException(backwards("optional value", p), field, p - start);
        }
        if (p + size > end) {
            throw new DecodeException("value slot beyond the end of the buffer", field, p - start);
        }
        mark = (int) p + size;
        return (int) p;
    }

    /**
     * Refuses an entry whose key was read before (docs/limits.md 4).
     *
     * @param field the field
     * @param p     the entry's position
     * @return the exception to throw
     */
    public DecodeException duplicateKey(String field, int p) {
        return new DecodeException(DecodeException.Kind.DUPLICATE_KEY,
                "duplicate key: two entries read as the same key", field, p - start);
    }

    // ---------------------------------------------------------------- final model

    /**
     * Checks that the fields covered the root exactly (docs/format.md 5.2).
     *
     * @throws DecodeException when they did not
     */
    public void endFinal() throws DecodeException {
        if (pos != end) {
            throw new DecodeException("final root covers " + (pos - start) + " bytes, its size says " + (end - start),
                    "", 0);
        }
    }

    /** @return the final model's cursor (the position of the next value) */
    public int pos() {
        return pos;
    }

    /**
     * Claims the next {@code n} bytes of a final root (fixed-size values).
     *
     * @param n     the bytes
     * @param field the field, for errors
     * @return their position
     * @throws DecodeException when they are beyond the root
     */
    public int fixed(int n, String field) throws DecodeException {
        int p = pos;
        if (n > end - p) {
            throw fail("value beyond the end of the buffer", field, p);
        }
        pos = p + n;
        return p;
    }

    /**
     * Claims a run of fixed-size fields of a final root (docs/ir.md {@code runs}) with one bounds
     * check; the caller reads the fields with the slot methods at their offsets in the run. When
     * the root ends before the run does, the error is the one a field-by-field read gives: the
     * first field (or array element) that is not there, at its position.
     *
     * @param n      the bytes of the run
     * @param fields the run's fields in order, comma-separated: {@code name=size} or, for an
     *               array, {@code name=size*count} (size: of one element); read only on failure
     * @return the run's position
     * @throws DecodeException when the run is beyond the root
     */
    public int run(int n, String fields) throws DecodeException {
        int p = pos;
        if (n > end - p) {
            throw runBeyond(fields);
        }
        pos = p + n;
        return p;
    }

    private DecodeException runBeyond(String fields) {
        int p = pos;
        for (String f : fields.split(",")) {
            int eq = f.indexOf('=');
            int star = f.indexOf('*');
            String field = f.substring(0, eq);
            int size = Integer.parseInt(f, eq + 1, star < 0 ? f.length() : star, 10);
            int count = star < 0 ? 1 : Integer.parseInt(f, star + 1, f.length(), 10);
            for (int i = 0; i < count; i++) {
                if (size > end - p) {
                    return fail("value beyond the end of the buffer", field, p);
                }
                p += size;
            }
        }
        throw new IllegalArgumentException("the run " + fields + " fits in the root");
    }

    /**
     * Claims the next {@code n * size} bytes (a run of fixed-size elements).
     *
     * @param n     the count
     * @param size  the bytes of one
     * @param field the field, for errors
     * @return their position
     * @throws DecodeException when they are beyond the root
     */
    public int fixed(long n, int size, String field) throws DecodeException {
        int p = pos;
        if (n * size > end - p) {
            throw fail("value beyond the end of the buffer", field, p);
        }
        pos = p + (int) n * size;
        return p;
    }

    private int finalPayload(String what, String field) throws DecodeException {
        int p = pos;
        if (4 > end - p) {
            throw fail(what + " size beyond the end of the buffer", field, p);
        }
        long n = u32(p);
        if (n > end - p - 4) {
            throw fail(what + " of " + n + " bytes beyond the end of the buffer", field, p);
        }
        spend(n, p, field);
        pos = p + 4 + (int) n;
        count = (int) n;
        return p + 4;
    }

    /**
     * A length and the bytes of a string at the cursor.
     *
     * @param field the field, for errors
     * @return the string
     * @throws DecodeException when it is beyond the root or costs too much
     */
    public String finalString(String field) throws DecodeException {
        int p = finalPayload("string", field);
        return count == 0 ? "" : Utf8.decode(data, p, count);
    }

    /**
     * A length and the bytes at the cursor.
     *
     * @param field the field, for errors
     * @return a copy of the bytes
     * @throws DecodeException when they are beyond the root or cost too much
     */
    public byte[] finalBytes(String field) throws DecodeException {
        int p = finalPayload("bytes", field);
        byte[] out = new byte[count];
        System.arraycopy(data, p, out, 0, count);
        return out;
    }

    /**
     * Checks a string at the cursor as {@link #finalString} does, without making it (verify).
     *
     * @param field the field, for errors
     * @throws DecodeException when it is beyond the root or costs too much
     */
    public void finalSkipString(String field) throws DecodeException {
        finalPayload("string", field);
    }

    /**
     * Checks bytes at the cursor as {@link #finalBytes} does, without copying them (verify).
     *
     * @param field the field, for errors
     * @throws DecodeException when they are beyond the root or cost too much
     */
    public void finalSkipBytes(String field) throws DecodeException {
        finalPayload("bytes", field);
    }

    /**
     * Whether the budget left pays for {@code cost} bytes: generated code asks before it makes a value
     * whose default is large (docs/limits.md 3), and when not checks the value without making it (its
     * {@code fbeVerify}), which fails as its read would.
     *
     * @param cost what the value's default costs
     * @return true when the budget left covers it
     */
    public boolean affords(long cost) {
        return budget >= cost;
    }

    /**
     * A collection's count at the cursor, bounded by the bytes left.
     *
     * @param item  the fewest bytes one element takes (docs/ir.md {@code final_min_size})
     * @param cost  what one element costs (docs/limits.md 3)
     * @param field the field, for errors
     * @return the count
     * @throws DecodeException when the count exceeds what the bytes left can hold or costs too much
     */
    public int finalCount(int item, int cost, String field) throws DecodeException {
        int p = pos;
        if (4 > end - p) {
            throw fail("collection size beyond the end of the buffer", field, p);
        }
        long n = u32(p);
        if (n * item > end - p - 4) {
            throw fail("count " + n + " exceeds the buffer", field, p);
        }
        if (item == 0 && n > budget) {
            // elements that take no bytes (structs without any, docs/limits.md 3) cost at least 1
            // each: more than the budget left pays for are refused before an int count overflows
            throw new DecodeException(DecodeException.Kind.BUDGET, "decode budget exceeded", field, p - start);
        }
        spend(n * cost, p, field);
        pos = p + 4;
        count = (int) n;
        return count;
    }

    /**
     * An optional's presence byte at the cursor.
     *
     * @param field the field, for errors
     * @return whether the value follows
     * @throws DecodeException when the byte is beyond the root
     */
    public boolean finalHas(String field) throws DecodeException {
        if (pos >= end) {
            throw fail("optional flag beyond the end of the buffer", field, pos);
        }
        return data[pos++] != 0;
    }

    /**
     * Starts a final-model struct value costing {@code cost} bytes (depth and budget); the
     * caller reads the fields and calls {@link #leave}.
     *
     * @param cost what the struct costs (docs/ir.md {@code decode_cost})
     * @throws DecodeException beyond the maximum depth or the budget
     */
    public void enter(int cost) throws DecodeException {
        enter(cost, pos);
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public boolean finalBool(String field) throws DecodeException {
        return bool(fixed(1, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public byte finalI8(String field) throws DecodeException {
        return i8(fixed(1, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public char finalChar(String field) throws DecodeException {
        return ch(fixed(1, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public short finalI16(String field) throws DecodeException {
        return i16(fixed(2, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public int finalI32(String field) throws DecodeException {
        return i32(fixed(4, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public long finalI64(String field) throws DecodeException {
        return i64(fixed(8, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public float finalF32(String field) throws DecodeException {
        return f32(fixed(4, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public double finalF64(String field) throws DecodeException {
        return f64(fixed(8, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public UUID finalUuid(String field) throws DecodeException {
        return uuid(fixed(16, field));
    }

    /** @param field the field @return the value at the cursor @throws DecodeException beyond the root */
    public BigDecimal finalDecimal(String field) throws DecodeException {
        return decimal(fixed(16, field), field);
    }
}
