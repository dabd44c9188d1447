package io.github.fbetoolkit.fbe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The value helpers of the runtime: decimal, uuid, timestamp and string rules of docs/format.md. */
class ValuesTest {
    private static String hex(BigDecimal v) {
        Writer w = new Writer();
        w.putDecimal(w.alloc(16), v);
        return HexFormat.of().formatHex(w.toByteArray());
    }

    @Test
    void decimalsFromDoublesAreTheOriginals() {
        // docs/format.md 2.4's examples
        assertEquals(new BigDecimal("0.1"), Decimals.fromDouble(0.1));
        assertEquals(new BigDecimal("-123.456"), Decimals.fromDouble(-123.456));
        assertEquals(new BigDecimal("0.333333333333333"), Decimals.fromDouble(1.0 / 3));
        assertEquals(new BigDecimal("100000000000000000000"), Decimals.fromDouble(1e20));
        assertEquals(BigDecimal.ZERO, Decimals.fromDouble(1e-29));
        assertEquals(BigDecimal.ZERO, Decimals.fromDouble(Double.NaN));
        assertEquals(BigDecimal.ZERO, Decimals.fromDouble(8e28));
    }

    @Test
    void decimalWireBytes() {
        // magnitude 123456 (0x1e240), scale 3, negative
        assertEquals("40e20100000000000000000000000380", hex(new BigDecimal("-123.456")));
        assertEquals("00000000000000000000000000000000", hex(BigDecimal.ZERO));
        BigDecimal max = new BigDecimal("79228162514264337593543950335");     // 2^96 - 1
        assertEquals("ffffffffffffffffffffffff00000000", hex(max));
        assertThrows(EncodeException.class, () -> hex(max.add(BigDecimal.ONE)));
        // docs/format.md 2.4: the value without trailing fraction zeros (a negative scale multiplied
        // out), whatever scale the BigDecimal has; what no decimal holds is refused, never rounded
        assertEquals(hex(new BigDecimal("1200")), hex(new BigDecimal("1.2E+3")));
        assertEquals("82000000000000000000000000000000", hex(new BigDecimal("130.00")));
        assertEquals("0f000000000000000000000000000100", hex(new BigDecimal("1.50")));
        assertEquals(hex(new BigDecimal("1.5")), hex(new BigDecimal("1.5000000000000000000000000000000000")));
        assertEquals("00000000000000000000000000000000", hex(new BigDecimal("-0.000")));
        assertThrows(EncodeException.class, () -> hex(new BigDecimal("1.5E-28").setScale(29)));
        assertThrows(EncodeException.class, () -> hex(new BigDecimal("1E+29")));
        Reader r = readerOf(hex(new BigDecimal("-123.456")));
        assertDoesNotThrow(() -> assertEquals(new BigDecimal("-123.456"), r.decimal(16, "f")));
    }

    @Test
    void decimalFlagsBeyondScaleAndSignAreRefused() {
        // docs/format.md 2.4: a scale above 28 or a reserved bit set
        for (String[] c : new String[][] {
            {"00001d00", "decimal scale 29 above 28 (f, offset 16)"},
            {"0000ff80", "decimal scale 255 above 28 (f, offset 16)"},
            {"01000100", "decimal flags 0x00010001: reserved bits set (f, offset 16)"},
            {"00000201", "decimal flags 0x01020000: reserved bits set (f, offset 16)"},
        }) {
            Reader r = readerOf("0f00000000000000" + "00000000" + c[0]); // magnitude 15, then the flags
            DecodeException e = assertThrows(DecodeException.class, () -> r.decimal(16, "f"));
            assertEquals(c[1], e.getMessage());
            assertThrows(DecodeException.class, () -> r.skipDecimal(16, "f"));
        }
        assertThrows(IllegalArgumentException.class, () -> Decimals.fromParts(1, 0, 29 << 16));
    }

    private static Reader readerOf(String payloadHex) {
        byte[] p = HexFormat.of().parseHex(payloadHex);
        byte[] root = new byte[16 + p.length];
        root[0] = (byte) root.length;
        System.arraycopy(p, 0, root, 16, p.length);
        try {
            return Reader.versioned(root, 0, root.length, Limits.DEFAULT);
        } catch (DecodeException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void decimalsParseAsEveryLanguage() {
        assertEquals(new BigDecimal("123.456"), Decimals.parse("123.456000"));
        assertEquals(new BigDecimal("-1E+3").setScale(0), Decimals.parse("-1e3"));
        assertEquals(new BigDecimal("0.0000000000000000000000000001"), Decimals.parse("1e-28"));
        assertEquals(new BigDecimal("0.1"), Decimals.parse("0.10000000000000000000000000000000"));
        assertEquals(BigDecimal.ZERO, Decimals.parse("0e-99999999999999999999"));
        // docs/format.md 2.4: what no decimal holds is refused, never rounded; docs/limits.md 7: at
        // most 64 characters, an error quoting 32 at most, in time linear in the text
        for (String[] c : new String[][] {
            {"1e-30", "decimal \"1e-30\" has more than 28 fraction digits"},
            {"0.12345678901234567890123456785", "decimal \"0.12345678901234567890123456785\" has more than 28 fraction digits"},
            {"79228162514264337593543950336", "decimal \"79228162514264337593543950336\" out of range: more than 96 bits"},
            {"1.2.3", "invalid decimal \"1.2.3\""},
            {"e5", "invalid decimal \"e5\""},
            {"1".repeat(1 << 20), "decimal text longer than 64 characters: \"11111111111111111111111111111111\"..."},
        }) {
            assertEquals(c[1], assertThrows(NumberFormatException.class, () -> Decimals.parse(c[0])).getMessage());
        }
    }

    @Test
    void uuidsInTextOrder() {
        UUID u = Uuids.parse("{123E4567-e89b-12d3-a456-426655440000}");
        assertEquals("123e4567-e89b-12d3-a456-426655440000", u.toString());
        Writer w = new Writer();
        w.putUuid(w.alloc(16), u);
        assertEquals("123e4567e89b12d3a456426655440000", HexFormat.of().formatHex(w.toByteArray()));
        assertEquals(new UUID(0x1200000000000000L, 0), Uuids.parse("12"));
        assertThrows(IllegalArgumentException.class, () -> Uuids.parse("12x4"));
        UUID a = Uuids.parse("80000000-0000-0000-0000-000000000000");
        UUID b = Uuids.parse("7fffffff-0000-0000-0000-000000000000");
        assertTrue(Uuids.compare(a, b) > 0, "bytes order, not UUID.compareTo's signed halves");
        UUID t1 = Uuids.uuid1();
        UUID t2 = Uuids.uuid1();
        assertEquals(1, t1.version());
        assertEquals(2, t1.variant());
        assertTrue(!t1.equals(t2));
        assertEquals(4, Uuids.uuid4().version());
    }

    @Test
    void timestampsAreUnsignedNanoseconds() {
        Instant t = Instant.parse("2024-01-02T03:04:05.123456789Z");
        assertEquals(t, Timestamps.toInstant(Timestamps.of(t)));
        assertEquals(Instant.parse("2554-07-21T23:34:33.709551615Z"), Timestamps.toInstant(-1L));
        assertThrows(ArithmeticException.class, () -> Timestamps.of(Instant.parse("1969-12-31T23:59:59Z")));
        assertTrue(Timestamps.now() > Timestamps.of(Instant.parse("2024-01-01T00:00:00Z")));
    }

    @Test
    void stringsKeepEveryByte() {
        byte[][] cases = {
            "plain".getBytes(StandardCharsets.UTF_8), "caf\u00e9 \u20ac \ud83d\ude00".getBytes(StandardCharsets.UTF_8),
            {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82, 0x41},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {0x61, (byte) 0xF0, (byte) 0x9F},
        };
        for (byte[] c : cases) {
            String s = Utf8.decode(c, 0, c.length);
            assertArrayEquals(c, Utf8.bytes(s), s);
        }
        assertEquals("\udcc0\udcaf", Utf8.decode(new byte[] {(byte) 0xC0, (byte) 0xAF}, 0, 2));
        assertEquals("caf\u00e9", Utf8.decode("caf\u00e9".getBytes(StandardCharsets.UTF_8), 0, 5));
        Random random = new Random(1);
        for (int k = 0; k < 2000; k++) {
            byte[] c = new byte[random.nextInt(12)];
            random.nextBytes(c);
            assertArrayEquals(c, Utf8.bytes(Utf8.decode(c, 0, c.length)));
        }
        EncodeException e = assertThrows(EncodeException.class, () -> Utf8.length("a\ud800b"));
        assertTrue(e.getMessage().contains("U+D800"), e.getMessage());
        assertThrows(EncodeException.class, () -> Utf8.length("\udc41"));
    }

    @Test
    void asciiScanFindsTheFirstHighByte() {
        // Utf8.ascii reads eight bytes at a time, past the range's end while the array has them:
        // every range of arrays up to 40 bytes with at most two high bytes placed anywhere
        Random random = new Random(2);
        for (int k = 0; k < 20000; k++) {
            byte[] data = new byte[random.nextInt(41)];
            for (int i = 0; i < data.length; i++) {
                data[i] = (byte) random.nextInt(0x80);
            }
            for (int h = random.nextInt(3); h > 0 && data.length > 0; h--) {
                data[random.nextInt(data.length)] = (byte) (0x80 | random.nextInt(0x80));
            }
            int from = random.nextInt(data.length + 1);
            int end = from + random.nextInt(data.length - from + 1);
            int expected = from;
            while (expected < end && data[expected] >= 0) {
                expected++;
            }
            assertEquals(expected, Utf8.ascii(data, from, end), () -> HexFormat.of().formatHex(data) + " " + from + ".." + end);
        }
    }

    @Test
    void comparatorsFollowTheWireOrder() {
        assertTrue(Compare.U8.compare((byte) 0xFF, (byte) 1) > 0);
        assertTrue(Compare.U64.compare(-1L, 1L) > 0);
        assertTrue(Compare.CHAR.compare((char) 0x80, 'a') < 0, "char orders as C++'s signed char");
        assertTrue(Compare.STRING.compare("\uffff", "\ud83d\ude00") < 0, "by UTF-8 bytes, not UTF-16 units");
        assertTrue(Compare.BYTES.compare(new byte[] {(byte) 0x80}, new byte[] {1}) > 0);
        assertEquals(0, Compare.F64.compare(-0.0, 0.0), "-0.0 and 0.0 are the same key");
        assertEquals(0, Compare.F32.compare(Float.NaN, Float.NaN));
        assertTrue(Compare.f64(-1.0, -0.0) < 0 && Compare.f32(Float.NaN, 1e30f) > 0);
        assertTrue(Compare.optional(null, null, 1) < 0 && Compare.optional(Compare.U32, -1, 1) > 0);
        assertEquals(0, Compare.optional(null, new BigDecimal("1.5"), new BigDecimal("1.50")));
    }

    private static BigDecimal dec(String text) {
        return new BigDecimal(text);
    }

    private static <K> Map<K, Integer> map(List<K> keys, Map<K, Integer> into) {
        for (K k : keys) {
            into.put(k, into.size());
        }
        return into;
    }

    @Test
    void writersRefuseTheSameKeyTwice() {
        TreeSet<BigDecimal> sorted = new TreeSet<>(List.of(dec("2"), dec("1.5"), dec("1.50")));
        assertSame(sorted, Compare.distinct(sorted, null, "f"), "a sorted set of the order is itself");
        assertEquals(List.of(dec("1"), dec("2")), Compare.distinct(new LinkedHashSet<>(List.of(dec("2"), dec("1"))), null, "f"));
        EncodeException e = assertThrows(EncodeException.class,
                () -> Compare.distinct(new LinkedHashSet<>(List.of(dec("1.50"), dec("2"), dec("1.5"))), null, "f"));
        assertEquals("two elements are the same, 1.50 and 1.5 (f)", e.getMessage());
        assertEquals(EncodeException.Kind.DUPLICATE_KEY, e.kind());
        e = assertThrows(EncodeException.class, () -> Compare.distinct(
                new LinkedHashSet<>(List.of(new byte[] {1}, new byte[] {1})), Compare.BYTES, "blobs"));
        assertEquals("two elements are the same, 0x01 and 0x01 (blobs)", e.getMessage());
        e = assertThrows(EncodeException.class, () -> Compare.distinct(map(List.of(0.0, -0.0), new LinkedHashMap<>()),
                Compare.F64, "m"));
        assertEquals("two entries have the same key, 0.0 and -0.0 (m)", e.getMessage());
        TreeMap<Double, Integer> tree = new TreeMap<>(Compare.F64);
        assertSame(tree.entrySet(), Compare.distinct(tree, Compare.F64, "m"));
        // hashes keep their order: in increasing order, out of order (pairwise), many out of order (a sorted copy)
        Map<BigDecimal, Integer> hash = map(List.of(dec("1"), dec("2"), dec("3")), new LinkedHashMap<>());
        assertSame(hash.entrySet(), Compare.distinctHash(hash, null, "h"));
        Map<BigDecimal, Integer> twice = map(List.of(dec("3"), dec("1.5"), dec("2"), dec("1.50")), new LinkedHashMap<>());
        e = assertThrows(EncodeException.class, () -> Compare.distinctHash(twice, null, "h"));
        assertEquals("two entries have the same key, 1.5 and 1.50 (h)", e.getMessage());
        List<BigDecimal> keys = new ArrayList<>();
        for (int i = 40; i > 0; i--) {
            keys.add(BigDecimal.valueOf(i));
        }
        Map<BigDecimal, Integer> many = map(keys, new LinkedHashMap<>());
        assertSame(many.entrySet(), Compare.distinctHash(many, null, "h"));
        many.put(dec("7.0"), 0);
        e = assertThrows(EncodeException.class, () -> Compare.distinctHash(many, null, "h"));
        assertEquals("two entries have the same key, 7 and 7.0 (h)", e.getMessage());
        Map<byte[], Integer> identity = map(List.of(new byte[] {2}, new byte[] {1}, new byte[] {2}), new IdentityHashMap<>());
        e = assertThrows(EncodeException.class, () -> Compare.distinctHash(identity, Compare.BYTES, "h"));
        assertEquals("two entries have the same key, 0x02 and 0x02 (h)", e.getMessage());
        // the path and the type, as the generated writers put them in front
        assertEquals("two elements are the same, 0x01 and 0x01 (keys.Outer.holders[1].blobs)",
                assertThrows(EncodeException.class, () -> {
                    try {
                        Compare.distinct(new LinkedHashSet<>(List.of(new byte[] {1}, new byte[] {1})), Compare.BYTES, "blobs");
                    } catch (EncodeException x) {
                        throw x.at("holders", 1).within("keys.Outer");
                    }
                }).getMessage());
        // strings by their bytes: escapes of bytes that form valid UTF-8 are those characters; long texts cut
        String x = "x".repeat(100);
        e = assertThrows(EncodeException.class, () -> Compare.distinct(
                new LinkedHashSet<>(List.of(x + "\u00e9", x + "\udcc3\udca9")), Compare.STRING, "s"));
        String cut = "\"" + x.substring(0, 76) + "...";
        assertEquals("two elements are the same, " + cut + " and " + cut + " (s)", e.getMessage());
    }
}
