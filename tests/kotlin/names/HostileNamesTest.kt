// The value of schemas/tests/hostile_names.json in fbec --kotlin's code of the corpus of hostile names:
// read from the reference codec's JSON, written as its versioned and final bytes; each root read
// back and written back byte for byte, as its text form and as its JSON. The files are those of
// tests/names/hostile.py's write_vectors, each named by a system property fbe.hostile.KIND
// (tests/kotlin/junit_kotlin.py writes them).

import `fun_`.static.import.Hostile
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import java.io.File

class HostileNamesTest {
    private fun file(kind: String) = File(System.getProperty("fbe.hostile.$kind")).readBytes()

    private val versioned = file("versioned")
    private val final = file("final")
    private val text = String(file("text"), Charsets.UTF_8)
    private val json = String(file("json"), Charsets.UTF_8)

    @Test
    fun readFromJson() {
        val value = Hostile.fromJson(json)
        assertArrayEquals(versioned, value.toFbe(), "JSON read, written versioned")
        assertArrayEquals(final, value.toFinal(), "JSON read, written final")
        assertEquals(json, value.toJson(), "JSON read and written")
    }

    @Test
    fun readFromBothModels() {
        for ((model, value) in listOf("versioned" to Hostile.fromFbe(versioned), "final" to Hostile.fromFinal(final))) {
            assertArrayEquals(versioned, value.toFbe(), "$model read, written versioned")
            assertArrayEquals(final, value.toFinal(), "$model read, written final")
            assertEquals(text, value.toString(), "$model read: the text form")
            assertEquals(json, value.toJson(), "$model read: the JSON")
        }
    }
}
