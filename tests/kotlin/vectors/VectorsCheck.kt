// Reads every golden vector with the fbec --kotlin code and writes it back byte for byte, in both
// models; refuses every truncation; reads every single-byte corruption to a value or a
// DecodeException and nothing else, and writes what it reads back to bytes that read back the
// same. Run by tests/kotlin/test_kotlin_generated.py with a list of cases (one per line,
// tab-separated: qualified type, versioned file, final file, unspecified byte ranges of the
// versioned file as start:length,...) and a Registry.kt it writes (CODECS: every struct's roots).
// Prints one line per problem and a summary; exits 1 on any problem.

import io.github.fbetoolkit.fbe.DecodeException
import io.github.fbetoolkit.fbe.Limits
import java.io.File
import kotlin.system.exitProcess

/** A generated struct's roots of both models (Registry.kt has one per struct). */
class Codec(
    val fromFbe: (ByteArray, Limits) -> Any,
    val fromFinal: (ByteArray, Limits) -> Any,
    val toFbe: (Any) -> ByteArray,
    val toFinal: (Any) -> ByteArray,
)

/** One model of a struct: how it reads and writes. */
class Model(val name: String, val read: (ByteArray) -> Any, val write: (Any) -> ByteArray)

class Check {
    val problems = mutableListOf<String>()
    var vectors = 0
    var truncations = 0
    var corruptions = 0
    var corruptionsRead = 0

    fun problem(what: String) {
        problems += what
        println("PROBLEM $what")
    }

    fun check(name: String, m: Model, data: ByteArray, mask: List<IntRange>) {
        val v = try {
            m.read(data)
        } catch (e: DecodeException) {
            problem("$name ${m.name}: does not read: ${e.message}")
            return
        }
        val back = m.write(v)
        if (!masked(back, mask).contentEquals(masked(data, mask))) {
            problem("$name ${m.name}: written back differently (${back.size} bytes for ${data.size})")
            return
        }
        vectors++
        for (n in data.indices) {
            try {
                m.read(data.copyOf(n))
                problem("$name ${m.name}: the first $n bytes read")
            } catch (e: DecodeException) {
                truncations++
            }
        }
        for (p in data.indices) {
            for (x in intArrayOf(0x01, 0x80, 0xFF)) {
                val bad = data.clone()
                bad[p] = (bad[p].toInt() xor x).toByte()
                corruptions++
                val w = try {
                    m.read(bad)
                } catch (e: DecodeException) {
                    continue
                } catch (e: Throwable) {
                    problem("$name ${m.name}: byte $p ^ $x threw $e")
                    continue
                }
                corruptionsRead++
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

fun main(args: Array<String>) {
    val check = Check()
    for (line in File(args[0]).readLines()) {
        if (line.isBlank()) continue
        val f = line.split("\t")
        val codec = CODECS[f[0]] ?: error("no generated type ${f[0]}")
        val mask = if (f[3].isEmpty()) {
            emptyList()
        } else {
            f[3].split(",").map { r ->
                val (start, length) = r.split(":").map(String::toInt)
                start until start + length
            }
        }
        val versioned = Model("versioned", { codec.fromFbe(it, Limits.DEFAULT) }, codec.toFbe)
        val final = Model("final", { codec.fromFinal(it, Limits.DEFAULT) }, codec.toFinal)
        check.check(f[0], versioned, File(f[1]).readBytes(), mask)
        check.check(f[0], final, File(f[2]).readBytes(), emptyList())
    }
    println(
        "${check.vectors} vectors read and written back, ${check.truncations} truncations refused, " +
            "${check.corruptions} corruptions read or refused (${check.corruptionsRead} read and written back), " +
            "${check.problems.size} problems",
    )
    exitProcess(if (check.problems.isEmpty()) 0 else 1)
}
