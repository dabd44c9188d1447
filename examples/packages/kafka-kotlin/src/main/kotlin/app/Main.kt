package app

import io.github.fbetoolkit.kafka.FbeRecordException
import io.github.fbetoolkit.kafka.FbeSchema
import io.github.fbetoolkit.kafka.FbeSerde
import org.apache.kafka.common.header.internals.RecordHeaders
import shop.Fbe
import shop.Order
import java.io.File
import kotlin.system.exitProcess

private const val TOPIC = "orders"

/**
 * A user's Kotlin program on the FBE Kafka serde (io.github.fbetoolkit:fbe-kafka) and the code
 * fbec --kotlin generated into src/main/kotlin, without a broker: the Serializer and Deserializer
 * called as a KafkaProducer and a KafkaConsumer call them, with the record's headers.
 *
 * The serde's schema is the generated object Fbe's (`FbeSchema.of(Fbe::class.java)`); SCHEMA is the
 * line `fbec fingerprint shop.fbe` prints ("shop VERSION FINGERPRINT"), which it must be.
 * `write SCHEMA IN VALUE HEADER` serializes the shop.Order of IN (versioned model) and writes the
 * record's value and its fbe header's value; `read SCHEMA VALUE HEADER OUT` deserializes a record of
 * that value and fbe header and writes the Order to OUT (a refused record: its reason on stderr,
 * exit status 1).
 */
fun main(args: Array<String>) {
    val schema = FbeSchema.of(Fbe::class.java)
    check(args[1] == "${schema.packageName()} ${schema.version()} ${schema.fingerprint()}") {
        "the code was generated from $schema, not from ${args[1]}"
    }
    val serde = FbeSerde.of(schema, Order::toFbe, Order::fromFbe)
    if (args[0] == "write") {
        val order = Order.fromFbe(File(args[2]).readBytes())
        val headers = RecordHeaders()
        File(args[3]).writeBytes(serde.serializer().serialize(TOPIC, headers, order))
        File(args[4]).writeBytes(headers.lastHeader(FbeSchema.HEADER).value())
        return
    }
    val headers = RecordHeaders().add(FbeSchema.HEADER, File(args[3]).readBytes())
    val order =
        try {
            serde.deserializer().deserialize(TOPIC, headers, File(args[2]).readBytes())
        } catch (e: FbeRecordException) {
            System.err.println(e.message)
            exitProcess(1)
        }
    File(args[4]).writeBytes(order.toFbe())
}
