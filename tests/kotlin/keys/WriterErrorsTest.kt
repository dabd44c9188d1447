// Writers' errors name the root type, the field path and what the field holds (docs/limits.md 8,
// issue 23 item 4) on the fbec --kotlin code of tests/java/keys/keys.fbe: a string holding a lone
// surrogate and a decimal beyond 96 bits are refused by every writer (versioned, final, JSON, the
// Senders) with an EncodeException of kind INVALID naming the field (the generated fbeExplain, run
// after the write failed), and nothing written. Before, the error named the root type only.

import io.github.fbetoolkit.fbe.EncodeException
import io.github.fbetoolkit.fbe.JsonWriter
import io.github.fbetoolkit.fbe.Writer
import keys.FinalSender
import keys.Holder
import keys.Outer
import keys.Priced
import keys.Sender
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.math.BigDecimal

class WriterErrorsTest {
    /** Every writer refuses o with message, an INVALID EncodeException of keys.Outer; nothing written. */
    private fun refused(o: Outer, message: String) {
        val w = Writer()
        val j = JsonWriter()
        val stream = ByteArrayOutputStream()
        val sender = Sender(stream)
        val finalSender = FinalSender(stream)
        val writers = listOf<Pair<String, (Outer) -> Any>>(
            "toFbe" to { it.toFbe() },
            "toFinal" to { it.toFinal() },
            "toJson" to { it.toJson() },
            "writeFbe" to { it.writeFbe(w) },
            "writeFinal" to { it.writeFinal(w) },
            "writeJson" to { it.writeJson(j) },
            "Sender" to { sender.send(it) },
            "FinalSender" to { finalSender.send(it) },
        )
        for ((name, write) in writers) {
            try {
                write(o)
                throw AssertionError("$name wrote it: $message")
            } catch (e: EncodeException) {
                assertEquals(message, e.message, name)
                assertTrue(e.kind() == EncodeException.Kind.INVALID && e.type() == "keys.Outer") {
                    "${e.kind()} ${e.type()}"
                }
            }
        }
        assertTrue(w.size() == 0 && j.size() == 0 && stream.size() == 0 && sender.sentMessages() == 0L) {
            "something written: $message"
        }
    }

    @Test
    fun aStringOrADecimalNoReaderReadsNamesItsField() {
        val h = Holder()
        h.strings.add("ok\ud800")
        refused(
            Outer(one = h),
            "string holds the lone surrogate U+D800 at index 2, which stands for no byte (only U+DC80..U+DCFF " +
                "stand for the bytes 0x80..0xFF) (keys.Outer.one.strings[0])",
        )
        val priced = Holder()
        priced.priced.add(Priced(price = BigDecimal("1e40")))
        val o = Outer()
        o.holders.add(Holder())
        o.holders.add(priced)
        refused(o, "decimal 1E+40 out of range: more than 96 bits (keys.Outer.holders[1].priced[0].price)")
    }
}
