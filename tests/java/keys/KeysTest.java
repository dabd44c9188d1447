// The duplicate-key rule of docs/limits.md 4 on the fbec --java code of tests/java/keys/keys.fbe
// (tests/java/junit_java.py): a set, map or hash holding the same key twice under the
// readers' rule (bytes and decimals by value, 1.5 and 1.50 alike, floats by value, -0.0 and 0.0
// alike, structs by their [key] fields, structs without keys all alike) is refused by every
// writer (versioned, final, JSON, the Senders) with an EncodeException naming the type, the
// field path and the two entries, and nothing written; such bytes or JSON text are refused by
// every reader; distinct keys in any Set or Map are written in the wire order and read back.

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.fbetoolkit.fbe.DecodeException;
import io.github.fbetoolkit.fbe.EncodeException;
import io.github.fbetoolkit.fbe.JsonWriter;
import io.github.fbetoolkit.fbe.Writer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import keys.Empty;
import keys.FinalSender;
import keys.Holder;
import keys.Labeled;
import keys.Outer;
import keys.Priced;
import keys.Sender;
import keys.Tagged;

import org.junit.jupiter.api.Test;

class KeysTest {
    static BigDecimal dec(String text) {
        return new BigDecimal(text);
    }

    static Tagged tagged(int... bytes) {
        Tagged t = new Tagged();
        t.tag = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            t.tag[i] = (byte) bytes[i];
        }
        return t;
    }

    static Priced priced(String price, Double weight) {
        Priced p = new Priced();
        p.price = dec(price);
        p.weight = weight;
        return p;
    }

    static Labeled labeled(String label, Tagged tag) {
        Labeled l = new Labeled();
        l.label = label;
        l.tagged = tag;
        return l;
    }

    /** A set that holds every object given, equal or not (as a user's set may). */
    static <T> Set<T> identitySet(List<T> items) {
        Set<T> s = Collections.newSetFromMap(new IdentityHashMap<>());
        s.addAll(items);
        return s;
    }

    static <K> Map<K, Integer> identityMap(List<K> keys) {
        Map<K, Integer> m = new IdentityHashMap<>();
        for (K k : keys) {
            m.put(k, m.size());
        }
        return m;
    }

    static <T> Set<T> linked(List<T> items) {
        return new LinkedHashSet<>(items);
    }

    static <K> Map<K, Integer> linkedMap(List<K> keys) {
        Map<K, Integer> m = new LinkedHashMap<>();
        for (K k : keys) {
            m.put(k, m.size());
        }
        return m;
    }

    /** A value that cannot be written: the field, the Holder holding two same keys, the reason. */
    record Bad(String field, Consumer<Holder> fill, String reason) {}

    static List<Bad> bads() {
        byte[] a = {1, 2};
        byte[] b = {1, 2};
        return List.of(
            new Bad("blobs", h -> h.blobs = new HashSet<>(List.of(a, b)), "two elements are the same, 0x0102 and 0x0102"),
            new Bad("byBlob", h -> h.byBlob = linkedMap(List.of(a, b)), "two entries have the same key, 0x0102 and 0x0102"),
            new Bad("hashBlob", h -> h.hashBlob = linkedMap(List.of(a, new byte[] {0}, b)),
                    "two entries have the same key, 0x0102 and 0x0102"),
            new Bad("decimals", h -> h.decimals = linked(List.of(dec("1.5"), dec("1.50"))),
                    "two elements are the same, 1.5 and 1.50"),
            new Bad("byDecimal", h -> h.byDecimal = linkedMap(List.of(dec("1.5"), dec("0"), dec("1.50"))),
                    "two entries have the same key, 1.5 and 1.50"),
            new Bad("hashDecimal", h -> h.hashDecimal = linkedMap(List.of(dec("2"), dec("1.5"), dec("1.50"))),
                    "two entries have the same key, 1.5 and 1.50"),
            new Bad("doubles", h -> h.doubles = linked(List.of(0.0, -0.0)), "two elements are the same, 0.0 and -0.0"),
            new Bad("floats", h -> h.floats = linked(List.of(-0.0f, 1.0f, 0.0f)), "two elements are the same, -0.0 and 0.0"),
            new Bad("hashDouble", h -> h.hashDouble = linkedMap(List.of(1.0, 0.0, -0.0)),
                    "two entries have the same key, 0.0 and -0.0"),
            new Bad("empties", h -> h.empties = identitySet(List.of(new Empty(), new Empty())),
                    "two elements are the same, Empty() and Empty()"),
            new Bad("hashEmpty", h -> h.hashEmpty = identityMap(List.of(new Empty(), new Empty())),
                    "two entries have the same key, Empty() and Empty()"),
            new Bad("tagged", h -> h.tagged = identitySet(List.of(tagged(1), tagged(2), tagged(1))),
                    "two elements are the same, Tagged(tag=bytes[1],n=0) and Tagged(tag=bytes[1],n=0)"),
            new Bad("priced", h -> h.priced = identitySet(List.of(priced("1.5", null), priced("1.50", null))),
                    "two elements are the same, Priced(price=1.500000,weight=null,n=0) and Priced(price=1.500000,weight=null,n=0)"),
            new Bad("byPriced", h -> h.byPriced = identityMap(List.of(priced("1.5", 0.0), priced("1.50", -0.0))),
                    "two entries have the same key, Priced(price=1.500000,weight=0,n=0) and Priced(price=1.500000,weight=-0,n=0)"),
            // a subclass is another class to equals: a LinkedHashMap holds both
            new Bad("hashPriced", h -> h.hashPriced = linkedMap(List.of(priced("3", 0.0), priced("1.5", 0.0),
                    new Priced() {
                        {
                            price = dec("1.50");
                            weight = -0.0;
                        }
                    })),
                    "two entries have the same key, Priced(price=1.500000,weight=0,n=0) and Priced(price=1.500000,weight=-0,n=0)"),
            new Bad("labeled", h -> h.labeled = identitySet(List.of(labeled(null, tagged(1)), labeled("", tagged(1)),
                    labeled(null, tagged(1)))), "two elements are the same, Labeled(label=null,tagged=Tagged(tag=bytes[1],"
                    + "n=0),n=0) and Labeled(label=null,tagged=Tagged(tag=bytes[1],n=0),n=0)"),
            new Bad("hashLabeled", h -> h.hashLabeled = identityMap(List.of(labeled("x", tagged(1)), labeled("x", tagged(1)))),
                    "two entries have the same key, Labeled(label=\"x\",tagged=Tagged(tag=bytes[1],n=0),n=0) and "
                    + "Labeled(label=\"x\",tagged=Tagged(tag=bytes[1],n=0),n=0)"),
            // a string holding escapes (U+DC80..U+DCFF) of bytes that form valid UTF-8 writes as those bytes
            new Bad("strings", h -> h.strings = linked(List.of("\u00e9", "\udcc3\udca9")),
                    "two elements are the same, \"\u00e9\" and \"\udcc3\udca9\""),
            new Bad("hashDecimal", h -> {                 // more keys than are compared pairwise, out of order
                List<BigDecimal> keys = new java.util.ArrayList<>();
                for (int i = 40; i > 0; i--) {
                    keys.add(BigDecimal.valueOf(i, 1));
                }
                keys.add(dec("2.50"));
                h.hashDecimal = linkedMap(keys);
            }, "two entries have the same key, 2.5 and 2.50"));
    }

    /** The message with its two entries the other way round (a set of identities has no order). */
    static String swapped(String message) {
        int comma = message.indexOf(", ");
        int and = message.indexOf(" and ");
        int end = message.lastIndexOf(" (");
        return message.substring(0, comma + 2) + message.substring(and + 5, end) + " and "
                + message.substring(comma + 2, and) + message.substring(end);
    }

    interface Write {
        void write(Outer o) throws IOException;
    }

    /** Every writer refuses o: the message, the kind, nothing written. */
    static void refused(Outer o, String message, String what) throws IOException {
        Writer w = new Writer();
        JsonWriter j = new JsonWriter();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        Sender sender = new Sender(stream);
        FinalSender finalSender = new FinalSender(stream);
        new Outer().writeFbe(w);
        Map<String, Write> writers = new LinkedHashMap<>();
        writers.put("toFbe", Outer::toFbe);
        writers.put("toFinal", Outer::toFinal);
        writers.put("toJson", Outer::toJson);
        writers.put("writeFbe", v -> v.writeFbe(w));
        writers.put("writeFinal", v -> v.writeFinal(w));
        writers.put("writeJson", v -> v.writeJson(j));
        writers.put("Sender", sender::send);
        writers.put("FinalSender", finalSender::send);
        for (Map.Entry<String, Write> e : writers.entrySet()) {
            try {
                e.getValue().write(o);
                fail(e.getKey() + " wrote " + what);
            } catch (EncodeException x) {
                assertTrue(x.getMessage().equals(message) || x.getMessage().equals(swapped(message)),
                      e.getKey() + " of " + what + ": " + x.getMessage() + "\n  wanted: " + message);
                assertTrue(x.kind() == EncodeException.Kind.DUPLICATE_KEY && x.type().equals("keys.Outer"), x.kind() + " " + x.type());
            }
        }
        assertTrue(w.size() == 0 && j.size() == 0 && stream.size() == 0 && sender.sentMessages() == 0,
              "something written of " + what);
    }

    @Test
    void writersRefuse() throws IOException {
        for (Bad bad : bads()) {
            Holder h = new Holder();
            bad.fill().accept(h);
            Outer o = new Outer();
            o.holders.add(new Holder());
            o.holders.add(h);
            refused(o, bad.reason() + " (keys.Outer.holders[1]." + bad.field() + ")", bad.field());
            o = new Outer();
            o.one = h;
            refused(o, bad.reason() + " (keys.Outer.one." + bad.field() + ")", bad.field());
            o = new Outer();
            o.byId.put(3, new Holder());
            o.byId.put(7, h);
            refused(o, bad.reason() + " (keys.Outer.byId[1]." + bad.field() + ")", bad.field());
        }
    }

    /** What the same keys are to Java's equality: equals and hashCode agree with the readers' rule. */
    @Test
    void equality() {
        assertTrue(new HashSet<>(List.of(priced("1.5", 0.0), priced("1.50", -0.0))).size() == 1, "Priced: 1.5 and 1.50, 0.0 and -0.0");
        assertTrue(priced("1.5", null).equals(priced("1.50", null)) && !priced("1.5", null).equals(priced("1.5", 0.0)),
              "an absent optional key is not a present one");
        assertTrue(!labeled(null, tagged(1)).equals(labeled("", tagged(1))), "null and \"\" labels differ");
        assertTrue(Priced.KEY_ORDER.compare(priced("2", null), priced("1", 5.0)) > 0
              && Priced.KEY_ORDER.compare(priced("1", null), priced("1", -1.0)) < 0, "by price, then absent weights first");
        Holder h = new Holder();
        h.hashDecimal.put(dec("1.5"), 1);
        h.hashDecimal.put(dec("1.50"), 2);
        h.doubles.add(0.0);
        h.doubles.add(-0.0);
        assertTrue(h.hashDecimal.size() == 1 && h.doubles.size() == 1, "the generated collections hold a key once");
    }

    /** Distinct keys in any Set or Map: written (in the wire order), read back the same. */
    @Test
    void distinctWritten() throws Exception {
        Holder h = new Holder();
        h.blobs = new HashSet<>(List.of(new byte[] {2}, new byte[] {1}, new byte[0]));
        h.byBlob = new HashMap<>(Map.of(new byte[] {9}, 1, new byte[] {8}, 2));
        h.decimals = linked(List.of(dec("2.5"), dec("-1"), dec("1.50")));
        h.hashDecimal = linkedMap(List.of(dec("3"), dec("1.50"), dec("2")));
        h.doubles = linked(List.of(1.0, -0.0, Double.NaN, -1.0));
        h.hashDouble = linkedMap(List.of(1.0, -0.0));
        h.empties = identitySet(List.of(new Empty()));
        h.tagged = identitySet(List.of(tagged(2), tagged(1), tagged()));
        h.priced = identitySet(List.of(priced("1.5", 1.0), priced("1.50", null), priced("1.5", -0.0)));
        h.hashPriced = identityMap(List.of(priced("1.5", 1.0), priced("1.50", null), priced("1.5", -0.0)));
        h.labeled = identitySet(List.of(labeled(null, tagged(1)), labeled("", tagged(1)), labeled(null, tagged(2))));
        h.hashLabeled = identityMap(List.of(labeled("b", tagged(1)), labeled("a", tagged(1))));
        h.strings = linked(List.of("b", "a", "\udcff"));
        Map<BigDecimal, Integer> many = new LinkedHashMap<>();
        for (int i = 40; i > 0; i--) {
            many.put(BigDecimal.valueOf(i, 1), i);
        }
        h.byDecimal = many;
        Outer o = new Outer();
        o.holders.add(h);
        Outer back = Outer.fromFbe(o.toFbe());
        Holder b = back.holders.get(0);
        assertTrue(back.toString().equals(Outer.fromFinal(o.toFinal()).toString())
              && back.toString().equals(Outer.fromJson(o.toJson()).toString()), "the models read the same:\n" + back);
        assertTrue(b.blobs.size() == 3 && b.priced.size() == 3 && b.labeled.size() == 3 && b.doubles.size() == 4
              && b.hashPriced.size() == 3 && b.byDecimal.size() == 40 && b.hashDecimal.keySet().equals(h.hashDecimal.keySet()),
              "every distinct key read back: " + b);
        assertTrue(b.toString().replace("1.500000->1,2.000000->2,3.000000->0", "3.000000->0,1.500000->1,2.000000->2")
              .replace("-0->1,1->0", "1->0,-0->1").equals(h.toString()), "the value read back:\n" + b + "\n" + h);
        assertArrayEquals(back.toFbe(), Outer.fromFbe(back.toFbe()).toFbe(), "written back the same");
    }

    /** data with the only occurrence of from replaced by to (of the same length). */
    static byte[] patch(byte[] data, byte[] from, byte[] to) {
        byte[] out = data.clone();
        int found = -1;
        for (int p = 0; p + from.length <= data.length; p++) {
            if (Arrays.equals(data, p, p + from.length, from, 0, from.length)) {
                assertTrue(found < 0, "one occurrence");
                found = p;
            }
        }
        assertTrue(found >= 0, "an occurrence of " + Arrays.toString(from));
        System.arraycopy(to, 0, out, found, to.length);
        return out;
    }

    static byte[] decimalBytes(String text) {
        Writer w = new Writer();
        w.alloc(16);
        w.putDecimal(0, dec(text));
        return Arrays.copyOf(w.buffer(), 16);
    }

    static byte[] doubleBytes(double v) {
        Writer w = new Writer();
        w.alloc(8);
        w.putF64(0, v);
        return Arrays.copyOf(w.buffer(), 8);
    }

    static byte[] floatBytes(float v) {
        Writer w = new Writer();
        w.alloc(4);
        w.putF32(0, v);
        return Arrays.copyOf(w.buffer(), 4);
    }

    interface Read {
        void read(byte[] data) throws DecodeException;
    }

    static void refusedRead(String what, String name, Read read, byte[] data, String field) {
        try {
            read.read(data);
            fail(name + " read " + what);
        } catch (DecodeException e) {
            assertTrue(e.kind() == DecodeException.Kind.DUPLICATE_KEY && e.path().equals("holders[0]." + field),
                  name + " of " + what + ": " + e.getMessage());
        }
    }

    /** Bytes and JSON text holding a key twice under the rule (two distinct keys written, one patched). */
    @Test
    void readersRefuse() {
        record Patch(String field, Consumer<Holder> fill, byte[] from, byte[] to, String jsonFrom, String jsonTo) {}
        List<Patch> patches = List.of(
            new Patch("decimals", h -> h.decimals = linked(List.of(dec("1.5"), dec("2.5"))), decimalBytes("2.5"),
                      decimalBytes("1.50"), "2.500000", "1.50"),
            new Patch("hashDecimal", h -> h.hashDecimal = linkedMap(List.of(dec("1.5"), dec("2.5"))), decimalBytes("2.5"),
                      decimalBytes("1.50"), "\"2.500000\"", "\"1.50\""),
            new Patch("byDecimal", h -> h.byDecimal = linkedMap(List.of(dec("1.5"), dec("2.5"))), decimalBytes("2.5"),
                      decimalBytes("1.50"), "\"2.500000\"", "\"1.50\""),
            new Patch("doubles", h -> h.doubles = linked(List.of(0.0, 1.0)), doubleBytes(1.0), doubleBytes(-0.0),
                      "1.0", "-0.0"),
            new Patch("floats", h -> h.floats = linked(List.of(0.0f, 1.0f)), floatBytes(1.0f), floatBytes(-0.0f),
                      "1.0", "-0.0"),
            new Patch("hashDouble", h -> h.hashDouble = linkedMap(List.of(0.0, 1.0)), doubleBytes(1.0), doubleBytes(-0.0),
                      "\"1.000000\"", "\"-0.000000\""),
            new Patch("priced", h -> h.priced = linked(List.of(priced("1.5", null), priced("2.5", null))),
                      decimalBytes("2.5"), decimalBytes("1.50"), "2.500000", "1.50"),
            new Patch("hashPriced", h -> h.hashPriced = linkedMap(List.of(priced("1.5", 0.0), priced("2.5", 0.0))),
                      decimalBytes("2.5"), decimalBytes("1.50"), "2.500000", "1.50"),
            new Patch("hashPriced", h -> h.hashPriced = linkedMap(List.of(priced("1.5", 0.0), priced("1.5", 1.0))),
                      doubleBytes(1.0), doubleBytes(-0.0), "\"weight\":1.0", "\"weight\":-0.0"));
        for (Patch p : patches) {
            Holder h = new Holder();
            p.fill().accept(h);
            Outer o = new Outer();
            o.holders.add(h);
            byte[] versioned = patch(o.toFbe(), p.from(), p.to());
            byte[] last = patch(o.toFinal(), p.from(), p.to());
            refusedRead(p.field(), "fromFbe", Outer::fromFbe, versioned, p.field());
            refusedRead(p.field(), "verifyFbe", Outer::verifyFbe, versioned, p.field());
            refusedRead(p.field(), "readFbe", new Outer()::readFbe, versioned, p.field());
            refusedRead(p.field(), "fromFinal", Outer::fromFinal, last, p.field());
            refusedRead(p.field(), "verifyFinal", Outer::verifyFinal, last, p.field());
            String json = o.toJson();
            assertTrue(json.indexOf(p.jsonFrom()) >= 0 && json.indexOf(p.jsonFrom()) == json.lastIndexOf(p.jsonFrom()),
                  p.jsonFrom() + " once in " + json);
            refusedRead(p.field(), "fromJson", d -> Outer.fromJson(d), json.replace(p.jsonFrom(), p.jsonTo())
                        .getBytes(StandardCharsets.UTF_8), p.field());
        }
    }
}
