package io.github.fbetoolkit.fbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A reused Writer: strings written in one pass, roots of both models one after the other. */
class WriterTest {
    /** A versioned root: one struct (type 7, body 17) with a string slot and an absent optional. */
    private static int versioned(Writer w, String s) {
        w.beginVersioned();
        int b = w.struct(0, 4, 17, 7);
        w.string(b, b + 8, s);
        return w.endVersioned();
    }

    private static byte[] fresh(String s) {
        Writer w = new Writer();
        versioned(w, s);
        return w.toByteArray();
    }

    @Test
    void stringsOfEveryKindAreWrittenAsTheirUtf8() {
        for (String s : new String[] {"", "abc", "é", "€uro", "\ud83d\ude00", "a\udc80b", "x".repeat(70000)}) {
            Writer w = new Writer(16);
            w.beginFinal();
            w.appendString(s);
            w.endFinal(1);
            byte[] out = w.toByteArray();
            byte[] utf8 = Utf8.bytes(s);
            assertEquals(utf8.length, out[8] & 0xFF | (out[9] & 0xFF) << 8 | (out[10] & 0xFF) << 16);
            assertArrayEquals(utf8, java.util.Arrays.copyOfRange(out, 12, out.length));
        }
    }

    @Test
    void aVersionedRootAfterLongerFinalRootsIsTheFreshWritersBytes() {
        Writer w = new Writer(16);
        for (int round = 0; round < 3; round++) {
            w.beginFinal();
            for (int i = 0; i < 40; i++) {
                w.appendI64(-1L);            // a longer final root leaves non-zero bytes behind
            }
            w.appendString("€".repeat(20));
            w.endFinal(1);
            int n = versioned(w, "ab");
            assertArrayEquals(fresh("ab"), java.util.Arrays.copyOf(w.buffer(), n));
        }
    }

    @Test
    void aRefusedStringLeavesTheWriterAsItWas() {
        Writer w = new Writer(16);
        w.beginVersioned();
        int b = w.struct(0, 4, 17, 7);
        int size = w.size();
        assertThrows(EncodeException.class, () -> w.string(b, b + 8, "ab\ud800cd"));
        assertEquals(size, w.size());
        w.string(b, b + 8, "ab");
        w.endVersioned();
        assertArrayEquals(fresh("ab"), w.toByteArray());
    }
}
