// The Kotlin conformance testee (conformance/testee_protocol.md): length-prefixed JSON requests on
// stdin, answers on stdout, one long-lived JVM for every request. It answers the binary models
// (versioned and final, in and out), JSON in and out, the text form of what it reads and protocol
// streams (each package's generated Receiver or FinalReceiver) with the fbec --kotlin --final
// --json --proto code of every conformance schema (Registry.kt, written by build.py), and value
// descriptions in and out (Values.kt, written by build.py's values.py, over Describe.kt).

import com.fasterxml.jackson.core.json.JsonReadFeature
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.json.JsonMapper
import com.fasterxml.jackson.databind.node.ObjectNode
import com.fasterxml.jackson.databind.util.RawValue
import io.github.fbetoolkit.fbe.DecodeException
import io.github.fbetoolkit.fbe.EncodeException
import io.github.fbetoolkit.fbe.FrameException
import io.github.fbetoolkit.fbe.JsonReader
import io.github.fbetoolkit.fbe.Limits
import io.github.fbetoolkit.fbe.Utf8
import java.io.BufferedInputStream
import java.io.BufferedOutputStream
import java.io.DataInputStream
import java.io.EOFException
import java.io.InputStream
import java.io.StringWriter
import java.lang.management.ManagementFactory
import java.util.Base64

/** What the generated code gives every struct (Registry.kt has one per struct). */
class Codec(
    val fromFbe: (ByteArray, Limits) -> Any,
    val fromFinal: (ByteArray, Limits) -> Any,
    val toFbe: (Any) -> ByteArray,
    val toFinal: (Any) -> ByteArray,
    val fromJson: (ByteArray, Limits) -> Any,
    val toJson: (Any) -> String,
    val verifyFbe: (ByteArray, Limits) -> Unit,
    val verifyFinal: (ByteArray, Limits) -> Unit,
)

// value descriptions hold NaN and the infinities as bare words
private val JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()

private val INPUTS = setOf("versioned", "final", "json", "value")

private val OUTPUTS = setOf("versioned", "final", "json", "text", "value", "verify")

fun limitsOf(node: JsonNode?): Limits {
    var limits = Limits.DEFAULT
    if (node == null || !node.isObject) return limits
    for ((key, value) in node.properties()) {
        val v = value.asInt()
        limits = when (key) {
            "max_depth" -> limits.withMaxDepth(v)
            "budget_factor" -> limits.withBudgetFactor(v)
            "budget_slack" -> limits.withBudgetSlack(v)
            "max_frame_size" -> limits.withMaxFrameSize(v)
            else -> limits
        }
    }
    return limits
}

fun answer(kind: String, text: String): ObjectNode = JSON.createObjectNode().put(kind, text)

/** Feeds a protocol stream to the package's Receiver in one call and lists what it did. */
fun stream(req: JsonNode, data: ByteArray, limits: Limits): ObjectNode {
    val make = RECEIVERS[req.path("package").asText()]
        ?: return answer("skipped", "package ${req.path("package").asText()} has no Receiver in this testee")
    val out = JSON.createObjectNode()
    val events = out.putArray("result")
    val receiver = make(req.path("input").path("format").asText() == "final_stream") { v ->
        events.addObject().put("message", NAMES[v.javaClass.name])
    }
    receiver.limits(limits)
    receiver.onError { e -> events.addObject().put("error", e.message) }
    try {
        receiver.receive(data)
    } catch (e: FrameException) {
        // a lost stream: reported to the error handler already
    }
    return out
}

fun answer(req: JsonNode): ObjectNode {
    val format = req.path("input").path("format").asText()
    val output = req.path("output").asText()
    if (format == "stream" || format == "final_stream") {
        val data = try {
            Base64.getDecoder().decode(req.path("input").path("payload").asText())
        } catch (e: IllegalArgumentException) {
            return answer("parse_error", "payload: ${e.message}")
        }
        return stream(req, data, limitsOf(req.get("limits")))
    }
    if (format !in INPUTS || output !in OUTPUTS) return answer("skipped", "unknown formats $format -> $output")
    val name = req.path("package").asText() + "." + req.path("type").asText()
    val codec = CODECS[name] ?: return answer("skipped", "no Kotlin type $name")
    val described = VALUES.getValue(name)
    if (output == "verify") {
        if (format != "versioned" && format != "final") {
            return answer("skipped", "verify reads binary input, not $format")
        }
        return try {
            read(codec, format, req, verify = true)
            answer("result", "ok")
        } catch (e: ParseError) {
            answer("parse_error", e.message ?: "")
        }
    }
    val value = if (format == "value") {
        try {
            described.read(req.path("input").path("payload"))
        } catch (e: BadValue) {
            val refusal = "${e.message} ($name${e.path})"
            return answer("serialize_error", if (e.unheld) refusal else "UNEXPECTED value description: $refusal")
        } catch (e: IllegalArgumentException) {
            return answer("serialize_error", "UNEXPECTED value description: ${e.message}")
        }
    } else {
        try {
            read(codec, format, req)
        } catch (e: ParseError) {
            return answer("parse_error", e.message ?: "")
        }
    }
    return try {
        if (output == "json") return answer("result", codec.toJson(value))
        if (output == "value") {
            val text = StringWriter()
            JSON.factory.createGenerator(text).use { described.write(it, value) }
            return JSON.createObjectNode().putRawValue("result", RawValue(text.toString()))
        }
        val out = when (output) {
            "versioned" -> codec.toFbe(value)
            "final" -> codec.toFinal(value)
            else -> Utf8.bytes(value.toString()) // the text form, the original's bytes
        }
        answer("result", Base64.getEncoder().encodeToString(out))
    } catch (e: EncodeException) {
        answer("serialize_error", e.message ?: "")
    }
}

/** A payload that does not read: the answer is a parse error. */
class ParseError(message: String) : Exception(message)

/** The value of a binary or JSON payload (with [verify], a binary payload verified, no value built). */
fun read(codec: Codec, format: String, req: JsonNode, verify: Boolean = false): Any {
    val payload = req.path("input").path("payload").asText()
    val data = try {
        // JSON text comes as a JSON string: its UTF-8 bytes are the text (a lone surrogate in it is refused)
        if (format == "json") JsonReader.utf8(payload) else Base64.getDecoder().decode(payload)
    } catch (e: IllegalArgumentException) {
        throw ParseError("payload: ${e.message}")
    } catch (e: DecodeException) {
        throw ParseError("payload: ${e.message}")
    }
    val limits = limitsOf(req.get("limits"))
    return try {
        when (format) {
            "versioned" -> if (verify) codec.verifyFbe(data, limits) else codec.fromFbe(data, limits)
            "final" -> if (verify) codec.verifyFinal(data, limits) else codec.fromFinal(data, limits)
            else -> codec.fromJson(data, limits)
        }
    } catch (e: DecodeException) {
        throw ParseError(e.message ?: "")
    }
}

fun readSize(input: InputStream): Int {
    val b = input.readNBytes(4)
    if (b.size < 4) throw EOFException()
    return (b[0].toInt() and 0xFF) or ((b[1].toInt() and 0xFF) shl 8) or ((b[2].toInt() and 0xFF) shl 16) or
        ((b[3].toInt() and 0xFF) shl 24)
}

fun main() {
    val input = DataInputStream(BufferedInputStream(System.`in`))
    val out = BufferedOutputStream(System.out)
    val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
    val self = Thread.currentThread().id
    while (true) {
        val body = try {
            ByteArray(readSize(input)).also { input.readFully(it) }
        } catch (e: EOFException) {
            return
        }
        val req = try {
            JSON.readTree(body)
        } catch (e: java.io.IOException) {
            null
        }
        if (req != null && req.path("quit").asBoolean(false)) return
        val resp = if (req == null || !req.isObject) {
            answer("parse_error", "request: not a JSON object")
        } else {
            val measure = req.path("measure").asBoolean(false)
            val before = if (measure) threads.getThreadAllocatedBytes(self) else 0L
            val start = System.nanoTime()
            // anything but a DecodeException is a bug: the testee dies, the runner says so
            answer(req).also {
                if (measure) {
                    // bytes allocated while answering: an upper bound of the peak heap growth
                    it.putObject("measured")
                        .put("peak_bytes", threads.getThreadAllocatedBytes(self) - before)
                        .put("seconds", (System.nanoTime() - start) / 1e9)
                }
            }
        }
        val text = JSON.writeValueAsBytes(resp)
        val n = text.size
        out.write(byteArrayOf(n.toByte(), (n shr 8).toByte(), (n shr 16).toByte(), (n shr 24).toByte()))
        out.write(text)
        out.flush()
    }
}
