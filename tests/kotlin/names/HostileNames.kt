// The value of tests/names/hostile_names.json in fbec --kotlin's code of the corpus of hostile names:
// read from the reference codec's JSON, written as its versioned and final bytes; each root read
// back and written back byte for byte, as its text form and as its JSON. Run by
// tests/kotlin/test_kotlin_names.py with the files of tests/names/hostile.py's write_vectors
// (versioned, final, text, JSON); prints one line per problem, exits 1 on any.

import `fun_`.static.import.Hostile
import java.io.File
import kotlin.system.exitProcess

fun main(args: Array<String>) {
    val (versioned, final, text, json) = args.map { File(it).readBytes() }
    val problems = mutableListOf<String>()
    fun expect(ok: Boolean, what: String) {
        if (!ok) problems += what
    }
    val fromJson = Hostile.fromJson(String(json, Charsets.UTF_8))
    expect(fromJson.toFbe().contentEquals(versioned), "JSON read, written versioned: not the reference bytes")
    expect(fromJson.toFinal().contentEquals(final), "JSON read, written final: not the reference bytes")
    expect(fromJson.toJson() == String(json, Charsets.UTF_8), "JSON read and written: not the reference JSON")
    for ((model, value) in listOf("versioned" to Hostile.fromFbe(versioned), "final" to Hostile.fromFinal(final))) {
        expect(value.toFbe().contentEquals(versioned), "$model read, written versioned: not the same bytes")
        expect(value.toFinal().contentEquals(final), "$model read, written final: not the same bytes")
        expect(value.toString() == String(text, Charsets.UTF_8), "$model read: not the reference text form")
        expect(value.toJson() == String(json, Charsets.UTF_8), "$model read: not the reference JSON")
    }
    problems.forEach { println("PROBLEM $it") }
    println("hostile names: ${problems.size} problems")
    if (problems.isNotEmpty()) exitProcess(1)
}
