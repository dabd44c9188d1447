package io.github.fbetoolkit.fbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The JSON writer's text (docs/format.md 8) and the reader's rules (docs/limits.md 7). */
class JsonTest {
    private static String write(java.util.function.Consumer<JsonWriter> f) {
        JsonWriter j = new JsonWriter(4);
        f.accept(j);
        return j.toString();
    }

    @Test
    void doublesHaveRapidJsonMastersDigits() {
        Object[][] cases = {
            {0.0, "0.0"}, {-0.0, "-0.0"}, {1000.0, "1000.0"}, {1.23456, "1.23456"}, {1e-7, "1e-7"},
            {1e21, "1e21"}, {1e20, "100000000000000000000.0"}, {5e-324, "5e-324"},
            {1.7976931348623157e308, "1.7976931348623157e308"}, {1e23, "9.999999999999999e22"},
            {4.04925338542625e16, "40492533854262496.0"}, {0.1 + 0.2, "0.30000000000000004"},
            {(double) 0.1f, "0.10000000149011612"}, {(double) 123.456f, "123.45600128173828"},
            {0.000001234, "0.000001234"}, {123456789.12345679, "123456789.12345679"},
            {9007199254740992.0, "9007199254740992.0"}, {-2.5, "-2.5"}, {1e-6, "0.000001"},
        };
        for (Object[] c : cases) {
            assertEquals(c[1], Dtoa.toJson((Double) c[0]), String.valueOf(c[0]));
        }
        assertEquals("\"NaN\"", write(j -> j.f64(Double.NaN)));
        assertEquals("\"-Infinity\"", write(j -> j.f32(Float.NEGATIVE_INFINITY)));
    }

    @Test
    void stringsAreEscapedAsRapidJsonAndBytesAsLowSurrogates() {
        assertEquals("\"a\\\"b\\\\c/\\b\\f\\n\\r\\t\\u0001\\u001F\u007f\"",
                write(j -> j.string("a\"b\\c/\b\f\n\r\t\u0001\u001f\u007f")));
        assertEquals("\"caf\u00e9 \u20ac \ud83d\ude00\"", write(j -> j.string("caf\u00e9 \u20ac \ud83d\ude00")));
        byte[][] raw = {{(byte) 0xFF}, {'a', (byte) 0xC3}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}};
        String[] escaped = {"\\udcff", "a\\udcc3", "\\udcc0\\udcaf", "\\udced\\udca0\\udc80"};
        for (int i = 0; i < raw.length; i++) {
            String s = Utf8.decode(raw[i], 0, raw[i].length);
            assertEquals("\"" + escaped[i] + "\"", write(j -> j.string(s)));
        }
        // a byte held as U+DCxx next to characters above U+FFFF: written from the bytes
        assertEquals("\"\ud83d\ude00\\udcff\\n\"", write(j -> j.string("\ud83d\ude00\udcff\n")));
        // escapes of bytes that form UTF-8 are written as that character
        assertEquals("\"\u00e9\"", write(j -> j.string("\udcc3\udca9")));
        assertThrows(EncodeException.class, () -> write(j -> j.string("x\ud800")));
        assertThrows(EncodeException.class, () -> write(j -> j.string("\udc41")));
    }

    @Test
    void valuesAndKeys() {
        assertEquals("\"123.456000\"", write(j -> j.decimal(new BigDecimal("123.456"))));
        assertEquals("\"-0.000001\"", write(j -> j.decimal(new BigDecimal("-0.000001"))));
        // the value as the binary writers store it, no trailing fraction zeros (docs/format.md 2.4)
        assertEquals("\"1.500000\"", write(j -> j.decimal(new BigDecimal("1.50000000"))));
        assertEquals("\"130.000000\"", write(j -> j.decimal(new BigDecimal("130.00"))));
        assertEquals("\"0.1234567890123456789012345678\"", write(j -> j.decimal(new BigDecimal("0.1234567890123456789012345678"))));
        assertEquals("\"100.000000\"", write(j -> j.decimal(new BigDecimal("1E+2"))));
        assertEquals("\"0.000000\"", write(j -> j.decimal(new BigDecimal("-0.000"))));
        assertEquals("\"AAEC/w==\"", write(j -> j.bytes(new byte[] {0, 1, 2, -1})));
        assertEquals("\"\"", write(j -> j.bytes(new byte[0])));
        assertEquals("\"12345678-9abc-def0-0fed-cba987654321\"",
                write(j -> j.uuid(UUID.fromString("12345678-9abc-def0-0fed-cba987654321"))));
        assertEquals("18446744073709551615,4294967295,65535,255,200,-9223372036854775808", write(j -> {
            j.u64(-1L);
            j.raw(',');
            j.u32(-1);
            j.raw(',');
            j.u16((short) -1);
            j.raw(',');
            j.u8((byte) -1);
            j.raw(',');
            j.ch((char) 0xC8);
            j.raw(',');
            j.i64(Long.MIN_VALUE);
        }));
        assertEquals("\"1.500000\":\"1e-7\":\"-0.000000\":\"0.100000\":\"NaN\":\"1\":\"AP8=\":", write(j -> {
            j.keyF64(1.5);
            j.keyF64(1e-7);
            j.keyF64(-0.0);
            j.keyF32(0.1f);
            j.keyF64(Double.NaN);
            j.keyBool(true);
            j.keyBytes(new byte[] {0, -1});
        }));
        assertEquals("\"0.100000\":", write(j -> j.keyF64(0.1)), "%f that reads back");
    }

    @Test
    void writersRefuseWhatNoReaderReads() {
        JsonWriter j = new JsonWriter();
        j.maxDepth(2);
        j.enter("t.Node");
        j.enter("t.Node");
        EncodeException e = assertThrows(EncodeException.class, () -> j.enter("t.Node"));
        assertTrue(e.getMessage().contains("t.Node"), e.getMessage());
    }

    // ---------------------------------------------------------------- reading

    /** A struct of one int32 "n", a string "s", a vector of ints "v" and a nested struct "c". */
    static final class Node {
        int n;
        String s = "";
        List<Integer> v = new ArrayList<>();
        Node c;

        static void read(JsonReader r, Node v) throws DecodeException {
            r.beginStruct(12);
            for (String name; (name = r.member()) != null;) {
                switch (name) {
                    case "n":
                        v.n = (int) r.integer(Integer.MIN_VALUE, Integer.MAX_VALUE, "n");
                        break;
                    case "s":
                        v.s = r.string("s");
                        break;
                    case "v":
                        r.beginArray("v");
                        while (r.more()) {
                            r.spend(4, "v");
                            v.v.add((int) r.integer(Integer.MIN_VALUE, Integer.MAX_VALUE, "v"));
                        }
                        break;
                    case "c":
                        if (r.nil()) {
                            v.c = null;
                        } else {
                            Node x = new Node();
                            try {
                                read(r, x);
                            } catch (DecodeException e) {
                                throw e.at("c");
                            }
                            v.c = x;
                        }
                        break;
                    default:
                        r.skip();
                        break;
                }
            }
            r.leave();
        }
    }

    private static Node read(String text) throws DecodeException {
        return read(text, Limits.DEFAULT);
    }

    private static Node read(String text, Limits limits) throws DecodeException {
        return JsonReader.read(JsonReader.utf8(text), limits, new Node(), Node::read, "t.Node");
    }

    private static DecodeException refused(String text) {
        return assertThrows(DecodeException.class, () -> read(text));
    }

    @Test
    void readsMembersInAnyOrderAndSkipsUnknownOnes() throws DecodeException {
        Node n = read(" {\"x\":{\"y\":[1,{\"z\":null}]},\"s\":\"a\\u00e9\\udcff\",\"n\":-5,\"v\":[1,2],\"c\":{\"n\":7}} ");
        assertEquals(-5, n.n);
        assertArrayEquals(new byte[] {'a', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF}, Utf8.bytes(n.s));
        assertEquals(List.of(1, 2), n.v);
        assertEquals(7, n.c.n);
        assertNull(read("{\"c\":null}").c);
        assertEquals("\u00e9", read("{\"s\":\"\\udcc3\\udca9\"}").s, "escapes of bytes forming UTF-8 read as that character");
        assertEquals("\ud83d\ude00", read("{\"s\":\"\\ud83d\\ude00\"}").s);
    }

    @Test
    void refusesWhatEveryLanguageRefuses() {
        assertTrue(refused("{\"n\":1,\"n\":2}").getMessage().startsWith("duplicate member name \"n\""));
        assertTrue(refused("{\"x\":{\"a\":1,\"a\":1}}").getMessage().startsWith("duplicate member name \"a\""));
        assertTrue(refused("{\"s\":\"\\ud800\"}").getMessage().contains("lone surrogate"));
        assertTrue(refused("{\"s\":\"\\udc41\"}").getMessage().contains("lone surrogate"));
        assertTrue(refused("{\"x\":\"\\udfff\"}").getMessage().contains("lone surrogate"), "in skipped values too");
        assertTrue(refused("{} {}").getMessage().contains("data after the value"));
        assertTrue(refused("{\"n\":1").getMessage().contains("ends before"));
        assertTrue(refused("").getMessage().contains("ends before"));
        assertTrue(refused("\ufeff{}").getMessage().contains("byte order mark"), "Jackson skips it; no other language");
        DecodeException e = refused("{\"n\":2147483648}");
        assertEquals("2147483648 is out of range (-2147483648..2147483647) (t.Node.n, offset 5)", e.getMessage());
        assertTrue(refused("{\"n\":1.0}").getMessage().startsWith("expected integer, got 1.0"));
        assertTrue(refused("{\"n\":\"1\"}").getMessage().startsWith("expected integer, got string"));
        e = refused("{\"s\":\"\u00e9\u20ac\ud83d\ude00\",\"n\":\"1\"}");
        assertEquals(21, e.offset(), "a byte offset: the string before it is 2 + 3 + 4 bytes of 4 UTF-16 units");
        e = refused("{\"s\":\"\u00e9\u20ac\",\"n\":1");
        assertTrue(e.getMessage().contains("ends before"), e.getMessage());
        e = refused("{\"c\":{\"c\":{\"s\":5}}}");
        assertEquals("c.c.s", e.path());
        assertEquals("t.Node", e.type());
        assertEquals(15, e.offset());
        e = refused("{\"c\":{\"c\":[]}}");
        assertEquals("c.c", e.path());
        assertTrue(e.getMessage().startsWith("expected object, got array"));
        byte[] bad = {'{', '"', 's', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'};
        e = assertThrows(DecodeException.class, () -> JsonReader.read(bad, Limits.DEFAULT, new Node(), Node::read, "t.Node"));
        assertTrue(e.getMessage().contains("not valid UTF-8 at byte 6"), e.getMessage());
        assertThrows(DecodeException.class, () -> JsonReader.utf8("{\"s\":\"\ud800\"}"));
    }

    @Test
    void depthAndNesting() throws DecodeException {
        StringBuilder deep = new StringBuilder();
        deep.append("{\"c\":".repeat(127)).append("{}").append("}".repeat(127));
        read(deep.toString());
        DecodeException e = refused("{\"c\":".repeat(128) + "{}" + "}".repeat(128));
        assertEquals(DecodeException.Kind.DEPTH, e.kind());
        assertEquals("c" + ".c".repeat(127), e.path());
        e = refused("{\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}");
        assertTrue(e.getMessage().contains("nested deeper than 384"), e.getMessage());
        read("{\"x\":" + "[".repeat(383) + "]".repeat(383) + "}");
        assertThrows(DecodeException.class, () -> read("{\"c\":{\"c\":{}}}", Limits.DEFAULT.withMaxDepth(2)));
    }

    @Test
    void budget() throws DecodeException {
        Limits none = Limits.DEFAULT.withBudgetFactor(0);
        String text = "{\"s\":\"abc\",\"v\":[1,2],\"c\":{}}";
        // 12 (root) + 3 (string) + 2 * 4 (elements) + 12 (c)
        read(text, none.withBudgetSlack(35));
        DecodeException e = assertThrows(DecodeException.class, () -> read(text, none.withBudgetSlack(34)));
        assertEquals(DecodeException.Kind.BUDGET, e.kind());
        assertTrue(e.getMessage().startsWith("decode budget exceeded"), e.getMessage());
    }

    @Test
    void valuesAndKeysRead() throws DecodeException {
        assertEquals(-1L, number("18446744073709551615", r -> r.unsigned(-1L, "f")));
        assertEquals(0L, number("-0", r -> r.unsigned(255, "f")));
        assertThrows(DecodeException.class, () -> number("256", r -> r.unsigned(255, "f")));
        assertEquals((long) 0xC8, number("4294967240", r -> (long) r.ch("f")));
        assertEquals((long) 0xC8, number("200", r -> (long) r.ch("f")));
        assertThrows(DecodeException.class, () -> number("256", r -> (long) r.ch("f")));
        assertThrows(DecodeException.class, () -> number("1e400", r -> (long) r.f64("f")));
        assertThrows(DecodeException.class, () -> number("3.5e38", r -> (long) r.f32("f")));
        assertEquals(Float.floatToIntBits(Float.MAX_VALUE), number("3.4028234663852886e38", r -> Float.floatToIntBits(r.f32("f"))));
        JsonReader r = reader("0");
        assertEquals(7, r.keyInt(" +7", -128, 127, "f"));
        assertThrows(DecodeException.class, () -> r.keyInt("7 ", -128, 127, "f"));
        assertThrows(DecodeException.class, () -> r.keyUnsigned("-0", 255, "f"));
        assertEquals((char) 0x80, r.keyChar("-128", "f"));
        assertEquals(1.5, r.keyF64("1.500000", "f"));
        assertEquals(1e-7, r.keyF64(" 1e-7", "f"));
        assertEquals(3.0, r.keyF64("0x1.8p1", "f"));
        assertEquals(16.0, r.keyF64("0x10", "f"));
        assertEquals(Double.NEGATIVE_INFINITY, r.keyF64("-inf", "f"));
        assertThrows(DecodeException.class, () -> r.keyF64("1f", "f"));
        assertThrows(DecodeException.class, () -> r.keyF64("1e", "f"));
        assertArrayEquals(new byte[] {0, -1}, JsonReader.base64("AP8="));
        assertArrayEquals(new byte[] {'A'}, JsonReader.base64("QQ=="));
        assertArrayEquals(new byte[] {}, JsonReader.base64(""));
        // docs/limits.md 7: the standard alphabet with padding and nothing else, one text per byte string
        for (String bad : new String[] {"AP8", "YWI=garbage", "A", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\n==", "QQ==QQ==",
            "-_8=", "====", "Q===", "@@@@"}) {
            assertNull(JsonReader.base64(bad), bad);
        }
    }

    private interface Read {
        long read(JsonReader r) throws DecodeException;
    }

    private static JsonReader reader(String text) throws DecodeException {
        JsonReader[] out = new JsonReader[1];
        JsonReader.read(JsonReader.utf8(text), Limits.DEFAULT, out, (r, v) -> {
            v[0] = r;
            r.skip();
        }, "t");
        return out[0];
    }

    private static long number(String text, Read f) throws DecodeException {
        long[] out = new long[1];
        JsonReader.read(text.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT, out, (r, v) -> v[0] = f.read(r), "t");
        return out[0];
    }
}
