// Value descriptions (vectors/README.md, "Value descriptions"): the typed JSON of the vectors'
// MANIFEST that every testee reads and writes. The generated Values.kt (values.py) reads a struct's
// fields with the helpers of D from what Jackson parsed and writes them with a JsonGenerator. A
// description that does not fit its type throws BadValue: Main.kt reports it as a serialize error.

import com.fasterxml.jackson.core.JsonGenerator
import com.fasterxml.jackson.databind.JsonNode
import io.github.fbetoolkit.fbe.JsonWriter
import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode
import java.util.HexFormat

/** A struct's reading from a description and writing as one (Values.kt has one per struct). */
class Described(val read: (JsonNode) -> Any, val write: (JsonGenerator, Any) -> Unit)

class BadValue(message: String) : RuntimeException(message)

object D {
    fun struct(d: JsonNode, qualified: String) {
        val type = d.path("@type").asText()
        if (!d.isObject || type != qualified) throw BadValue("expected an object of $qualified, got $d")
    }

    fun list(d: JsonNode, n: Int): JsonNode {
        if (!d.isArray || (n >= 0 && d.size() != n)) throw BadValue("expected a list of $n, got $d")
        return d
    }

    fun bool(d: JsonNode): Boolean {
        if (!d.isBoolean) throw BadValue("expected a bool, got $d")
        return d.booleanValue()
    }

    /** An integer of a JSON number, or of a string (64-bit integers), within lo..hi. */
    fun int(d: JsonNode, lo: Long, hi: Long): Long {
        val text = when {
            d.isTextual -> d.textValue()
            d.isIntegralNumber -> d.asText()
            else -> ""
        }
        val v = text.toLongOrNull() ?: throw BadValue("expected an integer, got $d")
        if (v < lo || v > hi) throw BadValue("integer $d out of range")
        return v
    }

    /** A JSON number (NaN and the infinities as Python's json writes them: bare words). */
    fun real(d: JsonNode): Double {
        if (!d.isNumber) throw BadValue("expected a number, got $d")
        return d.doubleValue()
    }

    fun text(d: JsonNode): String {
        if (!d.isTextual) throw BadValue("expected a string, got $d")
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
