package io.github.fbetoolkit.fbe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The Reader's checks of docs/limits.md on hand-made roots. */
class ReaderTest {
    /** A versioned root holding one struct (type 7) with one string slot, body size 12. */
    private static byte[] root(int stringOffset, int length) {
        Writer w = new Writer();
        w.beginVersioned();
        int b = w.struct(0, 4, 12, 7);
        w.string(b, b + 8, "abc");
        w.endVersioned();
        byte[] out = w.toByteArray();
        out[b + 8] = (byte) stringOffset;
        if (length >= 0) {
            out[20] = (byte) length;
        }
        return out;
    }

    private static String read(byte[] data, Limits limits) throws DecodeException {
        Reader r = Reader.versioned(data, 0, data.length, limits);
        int b = r.struct(r.base(), r.base() + 4, 7, 4);
        String s = r.string(b, b + 8, "name");
        r.leave();
        return s;
    }

    @Test
    void readsWhatTheWriterWrote() throws DecodeException {
        assertEquals("abc", read(root(12, -1), Limits.DEFAULT));
    }

    @Test
    void refusesRootsTheBytesCannotHold() {
        byte[] data = root(12, -1);
        DecodeException e = assertThrows(DecodeException.class, () -> Reader.versioned(data, 0, data.length - 1,
                Limits.DEFAULT));
        assertEquals("versioned root size 27 beyond the buffer of 26 bytes (offset 0)", e.getMessage());
        assertThrows(DecodeException.class, () -> Reader.versioned(new byte[15], 0, 15, Limits.DEFAULT));
        assertThrows(IndexOutOfBoundsException.class, () -> Reader.versioned(data, 20, 10, Limits.DEFAULT));
    }

    @Test
    void refusesLengthsBeyondTheRoot() {
        DecodeException e = assertThrows(DecodeException.class, () -> read(root(12, 200), Limits.DEFAULT));
        assertEquals("string of 200 bytes beyond the end of the buffer (name, offset 20)", e.getMessage());
        assertEquals(DecodeException.Kind.MALFORMED, e.kind());
    }

    @Test
    void refusesBlocksOutOfAllocationOrder() {
        // the string's offset points back into the struct's own body
        DecodeException e = assertThrows(DecodeException.class, () -> read(root(4, -1), Limits.DEFAULT));
        assertEquals("name", e.path());
        assertEquals(12, e.offset());
    }

    @Test
    void chargesTheBudget() throws DecodeException {
        byte[] data = root(12, -1);
        // 27 bytes of input, factor 0: the slack alone pays for the struct (4) and the string (3)
        assertEquals("abc", read(data, new Limits(128, 0, 7, 1 << 20)));
        DecodeException e = assertThrows(DecodeException.class, () -> read(data, new Limits(128, 0, 6, 1 << 20)));
        assertEquals(DecodeException.Kind.BUDGET, e.kind());
    }

    @Test
    void boundsTheDepth() {
        DecodeException e = assertThrows(DecodeException.class, () -> read(root(12, -1), Limits.DEFAULT.withMaxDepth(0)));
        assertEquals(DecodeException.Kind.DEPTH, e.kind());
        assertEquals("structs nested deeper than 0 (offset 8)", e.getMessage());
    }

    @Test
    void pathsGrowAsTheErrorLeavesNestedReaders() {
        DecodeException e = new DecodeException("struct offset 0", "", 40);
        e.at("price").at("orders", 2).at("account").within("proto.Message");
        assertEquals("struct offset 0 (proto.Message.account.orders[2].price, offset 40)", e.getMessage());
    }
}
