// Value descriptions (vectors/README.md, "Value descriptions"): the typed JSON of the vectors'
// MANIFEST that every testee reads and writes. The generated Values.kt (values.py) reads a struct's
// fields with the helpers of D from what Jackson parsed and writes them with a JsonGenerator. A
// description that does not fit its type throws BadValue: Main.kt reports it as a serialize error.
// Null where the type has none is one no Kotlin value holds (its types are not nullable): refused as
// the writers refuse what they cannot write, naming the field (docs/limits.md 8).

import com.fasterxml.jackson.core.JsonGenerator
import com.fasterxml.jackson.databind.JsonNode
import io.github.fbetoolkit.fbe.JsonWriter
import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode
import java.util.HexFormat

/** A struct's reading from a description and writing as one (Values.kt has one per struct). */
class Described(val read: (JsonNode) -> Any, val write: (JsonGenerator, Any) -> Unit)

/**
 * A description that does not fit its type (the testee's failure), or one holding what no Kotlin value
 * of the type holds (unheld: null where the type has none), refused as a writer refuses it; path is
 * where it is (".orders[1]").
 */
class BadValue(message: String, val unheld: Boolean = false, val path: String = "") : RuntimeException(message)

object D {
    /** What read() gives, an error it throws named at step (".name", "[1]") in front of its path. */
    fun <T> at(step: String, read: () -> T): T = try {
        read()
    } catch (e: BadValue) {
        throw BadValue(e.message ?: "", e.unheld, step + e.path)
    }

    /** Refuses d, which is not what the type holds: null as a writer's refusal, anything else as a BadValue. */
    fun expected(what: String, d: JsonNode): Nothing = if (d.isNull) {
        throw BadValue("expected $what, got null", unheld = true)
    } else {
        throw BadValue("expected $what, got $d")
    }

    fun struct(d: JsonNode, qualified: String) {
        val type = d.path("@type").asText()
        if (!d.isObject || type != qualified) expected("an object of $qualified", d)
    }

    fun list(d: JsonNode, n: Int): JsonNode {
        if (d.isNull) expected("a list", d)
        if (!d.isArray || (n >= 0 && d.size() != n)) throw BadValue("expected a list of $n, got $d")
        return d
    }

    fun bool(d: JsonNode): Boolean {
        if (!d.isBoolean) expected("a bool", d)
        return d.booleanValue()
    }

    /** An integer of a JSON number, or of a string (64-bit integers), within lo..hi. */
    fun int(d: JsonNode, lo: Long, hi: Long): Long {
        val text = when {
            d.isTextual -> d.textValue()
            d.isIntegralNumber -> d.asText()
            else -> ""
        }
        val v = text.toLongOrNull() ?: expected("an integer", d)
        if (v < lo || v > hi) throw BadValue("integer $d out of range")
        return v
    }

    /** A JSON number (NaN and the infinities as Python's json writes them: bare words). */
    fun real(d: JsonNode): Double {
        if (!d.isNumber) expected("a number", d)
        return d.doubleValue()
    }

    fun text(d: JsonNode): String {
        if (!d.isTextual) expected("a string", d)
        return d.textValue()
    }

    fun hex(d: JsonNode): ByteArray = try {
        HexFormat.of().parseHex(text(d))
    } catch (e: IllegalArgumentException) {
        throw BadValue("expected hexadecimal digits, got $d")
    }

    fun hex(b: ByteArray): String = HexFormat.of().formatHex(b)

    /**
     * A string as the JSON rule of docs/limits.md 7 writes it (the runtime's JsonWriter): a byte that is not
     * UTF-8, held as U+DC80..U+DCFF, as the escape \udcXY, which Jackson's writer refuses as a lone surrogate.
     */
    fun string(g: JsonGenerator, v: String) {
        val j = JsonWriter()
        j.string(v)
        g.writeRawValue(j.toString())
    }

    /**
     * A double as a JSON number that reads back to it (a point or an exponent, -0.0 with its
     * sign), NaN and the infinities as the bare words Python's json reads.
     */
    fun doubleText(v: Double): String = when {
        v.isNaN() -> "NaN"
        v.isInfinite() -> if (v > 0) "Infinity" else "-Infinity"
        else -> v.toString()
    }

    /** The shortest decimal that reads back to the float (vectors/README.md), as doubleText writes it. */
    fun floatText(v: Float): String {
        if (v.isNaN() || v.isInfinite() || v == 0.0f) return doubleText(v.toDouble())
        val exact = BigDecimal(v.toDouble())
        for (digits in 1 until 9) {
            val d = exact.round(MathContext(digits, RoundingMode.HALF_EVEN))
            if (d.toFloat() == v) return doubleText(d.toDouble())
        }
        return doubleText(v.toDouble())
    }
}
