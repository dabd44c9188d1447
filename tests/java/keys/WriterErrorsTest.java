// Writers' errors name the root type, the field path and what the field holds (docs/limits.md 8,
// issue 23 item 4) on the fbec --java code of tests/java/keys/keys.fbe: a null where the type has
// none, a string holding a lone surrogate and a decimal beyond 96 bits are refused by every writer
// (versioned, final, JSON, the Senders) with an EncodeException of kind INVALID naming the field
// (the generated fbeExplain, run after the write failed), and nothing written. Before, a null was a
// bare NullPointerException and the others named the root type only.

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.fbetoolkit.fbe.EncodeException;
import io.github.fbetoolkit.fbe.JsonWriter;
import io.github.fbetoolkit.fbe.Writer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import keys.FinalSender;
import keys.Holder;
import keys.Outer;
import keys.Priced;
import keys.Sender;

import org.junit.jupiter.api.Test;

class WriterErrorsTest {
    interface Write {
        void write(Outer o) throws IOException;
    }

    /** Every writer refuses o with message, an INVALID EncodeException of keys.Outer; nothing written. */
    static void refused(Outer o, String message) throws IOException {
        Writer w = new Writer();
        JsonWriter j = new JsonWriter();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        Sender sender = new Sender(stream);
        FinalSender finalSender = new FinalSender(stream);
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
                fail(e.getKey() + " wrote it: " + message);
            } catch (EncodeException x) {
                assertEquals(message, x.getMessage(), e.getKey());
                assertTrue(x.kind() == EncodeException.Kind.INVALID && x.type().equals("keys.Outer"), x.kind() + " " + x.type());
            }
        }
        assertTrue(w.size() == 0 && j.size() == 0 && stream.size() == 0 && sender.sentMessages() == 0,
                "something written: " + message);
    }

    static Outer one(Consumer<Holder> fill) {
        Holder h = new Holder();
        fill.accept(h);
        Outer o = new Outer();
        o.one = h;
        return o;
    }

    @Test
    void aNullNamesTheFieldAndTheTypeExpected() throws IOException {
        Outer o = new Outer();
        o.holders.add(null);
        refused(o, "expected keys.Holder, got null (keys.Outer.holders[0])");
        refused(one(h -> h.blobs = null), "expected set, got null (keys.Outer.one.blobs)");
        refused(one(h -> h.hashString.put("a", null)), "expected int32, got null (keys.Outer.one.hashString[0])");
        o = new Outer();
        o.byId.put(1, null);
        refused(o, "expected keys.Holder, got null (keys.Outer.byId[0])");
    }

    @Test
    void aStringOrADecimalNoReaderReadsNamesItsField() throws IOException {
        refused(one(h -> h.strings.add("ok\ud800")), "string holds the lone surrogate U+D800 at index 2, which stands"
                + " for no byte (only U+DC80..U+DCFF stand for the bytes 0x80..0xFF) (keys.Outer.one.strings[0])");
        Priced p = new Priced();
        p.price = new BigDecimal("1e40");
        Holder h = new Holder();
        h.priced.add(p);
        Outer o = new Outer();
        o.holders.add(new Holder());
        o.holders.add(h);
        refused(o, "decimal 1E+40 out of range: more than 96 bits (keys.Outer.holders[1].priced[0].price)");
    }
}
