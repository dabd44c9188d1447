// The duplicate-key rule of docs/limits.md 4 on the fbec --kotlin code of tests/java/keys/keys.fbe
// (the schema of tests/java/keys/KeysTest.java; run by tests/kotlin/junit_kotlin.py): a
// set, map or hash holding the same key twice under the readers' rule (bytes and decimals by value,
// 1.5 and 1.50 alike, floats by value, -0.0 and 0.0 alike, structs by their [key] fields, structs
// without keys all alike) is refused by every writer (versioned, final, JSON, the Senders) with an
// EncodeException naming the type, the field path and the two entries, and nothing written; such
// bytes or JSON text are refused by every reader; distinct keys in any Set or Map are written in
// the wire order and read back.

import io.github.fbetoolkit.fbe.DecodeException
import io.github.fbetoolkit.fbe.EncodeException
import io.github.fbetoolkit.fbe.JsonWriter
import io.github.fbetoolkit.fbe.Writer
import keys.Empty
import keys.FinalSender
import keys.Holder
import keys.Labeled
import keys.Outer
import keys.Priced
import keys.Sender
import keys.Tagged
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.math.BigDecimal
import java.util.Collections
import java.util.IdentityHashMap

class KeysTest {
    private fun dec(text: String) = BigDecimal(text)

    private fun tagged(vararg bytes: Int) = Tagged(tag = ByteArray(bytes.size) { bytes[it].toByte() })

    private fun priced(price: String, weight: Double?) = Priced(price = dec(price), weight = weight)

    /** A set that holds every object given, equal or not (as a user's set may). */
    private fun <T> identitySet(vararg items: T): MutableSet<T> =
        Collections.newSetFromMap(IdentityHashMap<T, Boolean>()).apply { addAll(items) }

    private fun <K> identityMap(vararg keys: K): MutableMap<K, Int> =
        IdentityHashMap<K, Int>().apply { keys.forEach { put(it, size) } }

    private fun <K> linkedMap(vararg keys: K): MutableMap<K, Int> =
        LinkedHashMap<K, Int>().apply { keys.forEach { put(it, size) } }

    /** 4.0, 3.9, ... 0.1: more keys than are compared pairwise, out of order. */
    private fun tenths(): List<BigDecimal> = (40 downTo 1).map { BigDecimal.valueOf(it.toLong(), 1) }

    /** A value that cannot be written: the field, the Holder holding two same keys, the reason. */
    private class Bad(val field: String, val fill: (Holder) -> Unit, val reason: String)

    private fun bads(): List<Bad> {
        val a = byteArrayOf(1, 2)
        val b = byteArrayOf(1, 2)
        val same = "two elements are the same"
        val sameKey = "two entries have the same key"
        val tag1 = "Tagged(tag=bytes[1],n=0)"
        return listOf(
            Bad("blobs", { it.blobs = linkedSetOf(a, b) }, "$same, 0x0102 and 0x0102"),
            Bad("byBlob", { it.byBlob = linkedMap(a, b) }, "$sameKey, 0x0102 and 0x0102"),
            Bad("hashBlob", { it.hashBlob = linkedMap(a, byteArrayOf(0), b) }, "$sameKey, 0x0102 and 0x0102"),
            Bad("decimals", { it.decimals = linkedSetOf(dec("1.5"), dec("1.50")) }, "$same, 1.5 and 1.50"),
            Bad("byDecimal", { it.byDecimal = linkedMap(dec("1.5"), dec("0"), dec("1.50")) }, "$sameKey, 1.5 and 1.50"),
            Bad("hashDecimal", {
                it.hashDecimal = linkedMap(dec("2"), dec("1.5"), dec("1.50"))
            }, "$sameKey, 1.5 and 1.50"),
            Bad("doubles", { it.doubles = linkedSetOf(0.0, -0.0) }, "$same, 0.0 and -0.0"),
            Bad("floats", { it.floats = linkedSetOf(-0.0f, 1.0f, 0.0f) }, "$same, -0.0 and 0.0"),
            Bad("hashDouble", { it.hashDouble = linkedMap(1.0, 0.0, -0.0) }, "$sameKey, 0.0 and -0.0"),
            Bad("empties", { it.empties = identitySet(Empty(), Empty()) }, "$same, Empty() and Empty()"),
            Bad("hashEmpty", { it.hashEmpty = identityMap(Empty(), Empty()) }, "$sameKey, Empty() and Empty()"),
            Bad("tagged", { it.tagged = identitySet(tagged(1), tagged(2), tagged(1)) }, "$same, $tag1 and $tag1"),
            Bad(
                "priced",
                { it.priced = identitySet(priced("1.5", null), priced("1.50", null)) },
                "$same, Priced(price=1.500000,weight=null,n=0) and Priced(price=1.500000,weight=null,n=0)",
            ),
            Bad(
                "byPriced",
                { it.byPriced = identityMap(priced("1.5", 0.0), priced("1.50", -0.0)) },
                "$sameKey, Priced(price=1.500000,weight=0,n=0) and Priced(price=1.500000,weight=-0,n=0)",
            ),
            // a subclass is another class to equals: a LinkedHashMap holds both
            Bad(
                "hashPriced",
                {
                    it.hashPriced = linkedMap(
                        priced("3", 0.0),
                        priced("1.5", 0.0),
                        object : Priced(dec("1.50"), -0.0) {},
                    )
                },
                "$sameKey, Priced(price=1.500000,weight=0,n=0) and Priced(price=1.500000,weight=-0,n=0)",
            ),
            Bad(
                "labeled",
                {
                    it.labeled = identitySet(Labeled(null, tagged(1)), Labeled("", tagged(1)), Labeled(null, tagged(1)))
                },
                "$same, Labeled(label=null,tagged=$tag1,n=0) and Labeled(label=null,tagged=$tag1,n=0)",
            ),
            Bad(
                "hashLabeled",
                { it.hashLabeled = identityMap(Labeled("x", tagged(1)), Labeled("x", tagged(1))) },
                "$sameKey, Labeled(label=\"x\",tagged=$tag1,n=0) and Labeled(label=\"x\",tagged=$tag1,n=0)",
            ),
            // a string holding escapes (U+DC80..U+DCFF) of bytes that form valid UTF-8 writes as those bytes
            Bad("strings", {
                it.strings = linkedSetOf("\u00e9", "\udcc3\udca9")
            }, "$same, \"\u00e9\" and \"\udcc3\udca9\""),
            // more keys than are compared pairwise, out of order
            Bad(
                "hashDecimal",
                { it.hashDecimal = linkedMap(*(tenths() + dec("2.50")).toTypedArray()) },
                "$sameKey, 2.5 and 2.50",
            ),
        )
    }

    /** The message with its two entries the other way round (a set of identities has no order). */
    private fun swapped(message: String): String {
        val comma = message.indexOf(", ")
        val and = message.indexOf(" and ")
        val end = message.lastIndexOf(" (")
        return message.substring(0, comma + 2) + message.substring(and + 5, end) + " and " +
            message.substring(comma + 2, and) + message.substring(end)
    }

    /** Every writer refuses o: the message, the kind, nothing written. */
    private fun refused(o: Outer, message: String, what: String) {
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
                throw AssertionError("$name wrote $what")
            } catch (e: EncodeException) {
                assertTrue(e.message == message || e.message == swapped(message)) {
                    "$name of $what: ${e.message}\n  wanted: $message"
                }
                assertTrue(e.kind() == EncodeException.Kind.DUPLICATE_KEY && e.type() == "keys.Outer") {
                    "${e.kind()} ${e.type()}"
                }
            }
        }
        assertTrue(w.size() == 0 && j.size() == 0 && stream.size() == 0 && sender.sentMessages() == 0L) {
            "something written of $what"
        }
    }

    @Test
    fun writersRefuse() {
        for (bad in bads()) {
            val h = Holder()
            bad.fill(h)
            refused(
                Outer(holders = mutableListOf(Holder(), h)),
                "${bad.reason} (keys.Outer.holders[1].${bad.field})",
                bad.field,
            )
            refused(Outer(one = h), "${bad.reason} (keys.Outer.one.${bad.field})", bad.field)
            val byId = Outer()
            byId.byId[3] = Holder()
            byId.byId[7] = h
            refused(byId, "${bad.reason} (keys.Outer.byId[1].${bad.field})", bad.field)
        }
    }

    /** What the same keys are to Kotlin's equality: equals and hashCode agree with the readers' rule. */
    @Test
    fun equality() {
        assertTrue(hashSetOf(priced("1.5", 0.0), priced("1.50", -0.0)).size == 1) {
            "Priced: 1.5 and 1.50, 0.0 and -0.0"
        }
        assertTrue(priced("1.5", null) == priced("1.50", null) && priced("1.5", null) != priced("1.5", 0.0)) {
            "an absent optional key is not a present one"
        }
        assertTrue(Labeled(null, tagged(1)) != Labeled("", tagged(1))) { "null and \"\" labels differ" }
        assertTrue(Priced.KEY_ORDER.compare(priced("2", null), priced("1", 5.0)) > 0) { "by price" }
        assertTrue(Priced.KEY_ORDER.compare(priced("1", null), priced("1", -1.0)) < 0) { "absent weights first" }
        val h = Holder()
        h.hashDecimal[dec("1.5")] = 1
        h.hashDecimal[dec("1.50")] = 2
        h.doubles += 0.0
        h.doubles += -0.0
        assertTrue(h.hashDecimal.size == 1 && h.doubles.size == 1) { "the generated collections hold a key once" }
    }

    /** Distinct keys in any Set or Map: written (in the wire order), read back the same. */
    @Test
    fun distinctWritten() {
        val h = Holder(
            blobs = hashSetOf(byteArrayOf(2), byteArrayOf(1), byteArrayOf()),
            byBlob = hashMapOf(byteArrayOf(9) to 1, byteArrayOf(8) to 2),
            decimals = linkedSetOf(dec("2.5"), dec("-1"), dec("1.50")),
            byDecimal = linkedMap(*tenths().toTypedArray()),
            hashDecimal = linkedMap(dec("3"), dec("1.50"), dec("2")),
            doubles = linkedSetOf(1.0, -0.0, Double.NaN, -1.0),
            hashDouble = linkedMap(1.0, -0.0),
            empties = identitySet(Empty()),
            tagged = identitySet(tagged(2), tagged(1), tagged()),
            priced = identitySet(priced("1.5", 1.0), priced("1.50", null), priced("1.5", -0.0)),
            hashPriced = identityMap(priced("1.5", 1.0), priced("1.50", null), priced("1.5", -0.0)),
            labeled = identitySet(Labeled(null, tagged(1)), Labeled("", tagged(1)), Labeled(null, tagged(2))),
            hashLabeled = identityMap(Labeled("b", tagged(1)), Labeled("a", tagged(1))),
            strings = linkedSetOf("b", "a", "\udcff"),
        )
        val o = Outer(holders = mutableListOf(h))
        val back = Outer.fromFbe(o.toFbe())
        val b = back.holders[0]
        assertTrue(
            back.toString() == Outer.fromFinal(o.toFinal()).toString() &&
                back.toString() == Outer.fromJson(o.toJson()).toString(),
        ) {
            "the models read the same:\n$back"
        }
        assertTrue(
            b.blobs.size == 3 &&
                b.priced.size == 3 &&
                b.labeled.size == 3 &&
                b.doubles.size == 4 &&
                b.hashPriced.size == 3 &&
                b.byDecimal.size == 40 &&
                b.hashDecimal.keys == h.hashDecimal.keys,
        ) { "every distinct key read back: $b" }
        val text = b.toString().replace("1.500000->1,2.000000->2,3.000000->0", "3.000000->0,1.500000->1,2.000000->2")
            .replace("-0->1,1->0", "1->0,-0->1")
        assertTrue(text == h.toString()) { "the value read back:\n$b\n$h" }
        assertTrue(Outer.fromFbe(back.toFbe()).toFbe().contentEquals(back.toFbe())) { "written back the same" }
    }

    /** data with the only occurrence of from replaced by to (of the same length). */
    private fun patch(data: ByteArray, from: ByteArray, to: ByteArray): ByteArray {
        val found = (0..data.size - from.size).filter { p -> data.copyOfRange(p, p + from.size).contentEquals(from) }
        assertTrue(found.size == 1) { "one occurrence of ${from.toList()}: $found" }
        return data.copyOf().also { to.copyInto(it, found[0]) }
    }

    private fun bytesOf(size: Int, put: (Writer) -> Unit): ByteArray {
        val w = Writer()
        w.alloc(size)
        put(w)
        return w.buffer().copyOf(size)
    }

    private fun decimalBytes(text: String) = bytesOf(16) { it.putDecimal(0, dec(text)) }

    private fun doubleBytes(v: Double) = bytesOf(8) { it.putF64(0, v) }

    private fun floatBytes(v: Float) = bytesOf(4) { it.putF32(0, v) }

    private fun refusedRead(what: String, name: String, data: ByteArray, read: (ByteArray) -> Unit) {
        try {
            read(data)
            throw AssertionError("$name read $what")
        } catch (e: DecodeException) {
            assertTrue(e.kind() == DecodeException.Kind.DUPLICATE_KEY && e.path() == "holders[0].$what") {
                "$name of $what: ${e.message}"
            }
        }
    }

    private class Patch(
        val field: String,
        val fill: (Holder) -> Unit,
        val from: ByteArray,
        val to: ByteArray,
        val jsonFrom: String,
        val jsonTo: String,
    )

    /** Bytes and JSON text holding a key twice under the rule (two distinct keys written, one patched). */
    @Test
    fun readersRefuse() {
        val d15 = decimalBytes("2.5") to decimalBytes("1.50")
        val patches = listOf(
            Patch("decimals", {
                it.decimals = linkedSetOf(dec("1.5"), dec("2.5"))
            }, d15.first, d15.second, "2.500000", "1.50"),
            Patch("hashDecimal", {
                it.hashDecimal = linkedMap(dec("1.5"), dec("2.5"))
            }, d15.first, d15.second, "\"2.500000\"", "\"1.50\""),
            Patch("byDecimal", {
                it.byDecimal = linkedMap(dec("1.5"), dec("2.5"))
            }, d15.first, d15.second, "\"2.500000\"", "\"1.50\""),
            Patch("doubles", {
                it.doubles = linkedSetOf(0.0, 1.0)
            }, doubleBytes(1.0), doubleBytes(-0.0), "1.0", "-0.0"),
            Patch("floats", {
                it.floats = linkedSetOf(0.0f, 1.0f)
            }, floatBytes(1.0f), floatBytes(-0.0f), "1.0", "-0.0"),
            Patch(
                "hashDouble",
                { it.hashDouble = linkedMap(0.0, 1.0) },
                doubleBytes(1.0),
                doubleBytes(-0.0),
                "\"1.000000\"",
                "\"-0.000000\"",
            ),
            Patch("priced", {
                it.priced = linkedSetOf(priced("1.5", null), priced("2.5", null))
            }, d15.first, d15.second, "2.500000", "1.50"),
            Patch("hashPriced", {
                it.hashPriced = linkedMap(priced("1.5", 0.0), priced("2.5", 0.0))
            }, d15.first, d15.second, "2.500000", "1.50"),
            Patch(
                "hashPriced",
                { it.hashPriced = linkedMap(priced("1.5", 0.0), priced("1.5", 1.0)) },
                doubleBytes(1.0),
                doubleBytes(-0.0),
                "\"weight\":1.0",
                "\"weight\":-0.0",
            ),
        )
        for (p in patches) {
            val h = Holder()
            p.fill(h)
            val o = Outer(holders = mutableListOf(h))
            val versioned = patch(o.toFbe(), p.from, p.to)
            val final = patch(o.toFinal(), p.from, p.to)
            refusedRead(p.field, "fromFbe", versioned) { Outer.fromFbe(it) }
            refusedRead(p.field, "verifyFbe", versioned) { Outer.verifyFbe(it) }
            refusedRead(p.field, "fromFinal", final) { Outer.fromFinal(it) }
            refusedRead(p.field, "verifyFinal", final) { Outer.verifyFinal(it) }
            val json = o.toJson()
            assertTrue(json.indexOf(p.jsonFrom) >= 0 && json.indexOf(p.jsonFrom) == json.lastIndexOf(p.jsonFrom)) {
                "${p.jsonFrom} once in $json"
            }
            refusedRead(p.field, "fromJson", json.replace(p.jsonFrom, p.jsonTo).toByteArray()) { Outer.fromJson(it) }
        }
    }
}
