// Reads every golden vector with the fbec --kotlin code and writes it back byte for byte, in both
// models; refuses every truncation; reads every single-byte corruption to a value or a
// DecodeException and nothing else, and writes what it reads back to bytes that read back the
// same; on the vector, every truncation and every corruption, verify (which builds no value) gives
// exactly what deserialize gives: success, or a DecodeException of the same kind and message (type,
// field path, offset); reading into one reused value (readFbe/readFinal: the value of the last read,
// of another shape) gives what a fresh read gives, and after a refused input the reused value is
// reset to the defaults. The cases are a file the system property fbe.vectors names, one per line,
// tab-separated: qualified type, versioned file, final file, unspecified byte ranges of the
// versioned file as start:length,...; Registry.kt (CODECS: every struct's roots) and the cases are
// written by tests/kotlin/junit_kotlin.py. A test per case and model, failing with the problems found.

import io.github.fbetoolkit.fbe.DecodeException
import io.github.fbetoolkit.fbe.Limits
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.TestFactory
import java.io.File

/** A generated struct's roots of both models (Registry.kt has one per struct). */
class Codec(
    val fromFbe: (ByteArray, Limits) -> Any,
    val fromFinal: (ByteArray, Limits) -> Any,
    val toFbe: (Any) -> ByteArray,
    val toFinal: (Any) -> ByteArray,
    val verifyFbe: (ByteArray, Limits) -> Unit,
    val verifyFinal: (ByteArray, Limits) -> Unit,
    val readFbe: (Any, ByteArray, Limits) -> Unit,
    val readFinal: (Any, ByteArray, Limits) -> Unit,
    val make: () -> Any,
)

/** One model of a struct: how it reads, verifies, reads into a value and writes; its reused value. */
class Model(
    val name: String,
    val read: (ByteArray) -> Any,
    val write: (Any) -> ByteArray,
    val verify: (ByteArray) -> Unit,
    val readInto: (Any, ByteArray) -> Unit,
    val make: () -> Any,
) {
    val reused = make()
}

/** What one test finds wrong with one case and model. */
class Check {
    val problems = mutableListOf<String>()

    fun problem(what: String) {
        problems += what
    }

    /** What reading gives: the value (as the bytes it writes), or the exception's kind and message. */
    fun outcome(m: Model, read: () -> Any): String = try {
        "value " + m.write(read()).contentToString()
    } catch (e: DecodeException) {
        "refused ${e.kind()} ${e.message}"
    } catch (e: Exception) {
        "threw $e"
    }

    /**
     * Reads data fresh, verifies it and reads it into the model's reused value: verify must give what
     * the fresh read gives (success, or the same error), the reused value the same value or error.
     */
    fun compare(what: String, m: Model, data: ByteArray) {
        val fresh = outcome(m) { m.read(data) }
        val checked = outcome(m) {
            m.verify(data)
            m.make()
        }
        if (!(if (fresh.startsWith("value ")) checked.startsWith("value ") else checked == fresh)) {
            problem("$what: verify gives $checked where deserialize gives $fresh")
        }
        val reused = outcome(m) {
            m.readInto(m.reused, data)
            m.reused
        }
        if (!reused.startsWith("value ")) {
            val reset = m.make().toString()
            if (reset == m.make().toString() && m.reused.toString() != reset) {
                problem("$what: the reused value is not reset after $reused: ${m.reused}")
            }
        }
        // where two fresh reads differ too, fields an older writer did not write take defaults made
        // from the clock or at random (utc, uuid1, uuid4), and the values cannot be compared
        if (reused != fresh && !(fresh.startsWith("value ") && fresh != outcome(m) { m.read(data) })) {
            problem("$what: reading into a reused value gives $reused where a fresh read gives $fresh")
        }
    }

    fun check(name: String, m: Model, data: ByteArray, mask: List<IntRange>) {
        val v = try {
            m.read(data)
        } catch (e: DecodeException) {
            problem("$name ${m.name}: does not read: ${e.message}")
            return
        }
        compare("$name ${m.name}", m, data)
        val back = m.write(v)
        if (!masked(back, mask).contentEquals(masked(data, mask))) {
            problem("$name ${m.name}: written back differently (${back.size} bytes for ${data.size})")
            return
        }
        for (n in data.indices) {
            val cut = data.copyOf(n)
            try {
                m.read(cut)
                problem("$name ${m.name}: the first $n bytes read")
            } catch (e: DecodeException) {
                // refused, as it must be
            }
            compare("$name ${m.name} cut to $n", m, cut)
            m.readInto(m.reused, data) // the next cut is read into a value of the whole vector's shape
        }
        for (p in data.indices) {
            for (x in intArrayOf(0x01, 0x80, 0xFF)) {
                val bad = data.clone()
                bad[p] = (bad[p].toInt() xor x).toByte()
                compare("$name ${m.name} byte $p ^ $x", m, bad)
                val w = try {
                    m.read(bad)
                } catch (e: DecodeException) {
                    continue
                } catch (e: Throwable) {
                    problem("$name ${m.name}: byte $p ^ $x threw $e")
                    continue
                }
                val once = m.write(w)
                val twice = m.write(m.read(once))
                if (!once.contentEquals(twice)) {
                    problem("$name ${m.name}: byte $p ^ $x read, but what it writes reads back differently")
                }
            }
        }
    }

    companion object {
        fun masked(data: ByteArray, mask: List<IntRange>): ByteArray {
            val out = data.clone()
            for (range in mask) {
                for (k in range) {
                    if (k < out.size) out[k] = 0
                }
            }
            return out
        }
    }
}

class VectorsTest {
    /** A test per case and model: fails with the problems Check finds (the first 50). */
    @TestFactory
    fun goldenVectors(): List<DynamicTest> {
        val tests = mutableListOf<DynamicTest>()
        for (line in File(System.getProperty("fbe.vectors")).readLines()) {
            val f = line.split("\t")
            val mask = if (f[3].isEmpty()) {
                emptyList()
            } else {
                f[3].split(",").map { r ->
                    val (start, length) = r.split(":").map(String::toInt)
                    start until start + length
                }
            }
            for (model in listOf("versioned", "final")) {
                tests += dynamicTest("${f[0]} $model") {
                    val codec = CODECS[f[0]] ?: error("no generated type ${f[0]}")
                    val check = Check()
                    if (model == "versioned") {
                        val m = Model(
                            "versioned",
                            { codec.fromFbe(it, Limits.DEFAULT) },
                            codec.toFbe,
                            { codec.verifyFbe(it, Limits.DEFAULT) },
                            { v, d -> codec.readFbe(v, d, Limits.DEFAULT) },
                            codec.make,
                        )
                        check.check(f[0], m, File(f[1]).readBytes(), mask)
                    } else {
                        val m = Model(
                            "final",
                            { codec.fromFinal(it, Limits.DEFAULT) },
                            codec.toFinal,
                            { codec.verifyFinal(it, Limits.DEFAULT) },
                            { v, d -> codec.readFinal(v, d, Limits.DEFAULT) },
                            codec.make,
                        )
                        check.check(f[0], m, File(f[2]).readBytes(), emptyList())
                    }
                    assertEquals(emptyList<String>(), check.problems.take(50), "${f[0]} $model")
                }
            }
        }
        assertFalse(tests.isEmpty(), "no vector cases")
        return tests
    }
}
