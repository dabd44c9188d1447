// The fbec --kotlin --proto code of schemas/tests/everything.fbe as a user would drive it: a Sender's
// stream read back by a Receiver whole and byte by byte, the final twins, a Proxy handing on the
// frames it verified, a bad frame reported and skipped, and a Client's requests answered, rejected
// (by the request's own reject and by a global one), timed out and cancelled. Run by
// tests/kotlin/junit_kotlin.py.

import io.github.fbetoolkit.fbe.RejectException
import org.example.all.everything.Accepted
import org.example.all.everything.Client
import org.example.all.everything.FinalReceiver
import org.example.all.everything.FinalSender
import org.example.all.everything.Handler
import org.example.all.everything.Note
import org.example.all.everything.Ping
import org.example.all.everything.PlaceOrder
import org.example.all.everything.Proxy
import org.example.all.everything.ProxyHandler
import org.example.all.everything.Receiver
import org.example.all.everything.Rejected
import org.example.all.everything.Sender
import org.example.market.Failure
import org.example.market.Instrument
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.util.concurrent.CancellationException
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException

class ProtocolTest {
    /** Every message a Receiver delivers, by its own method. */
    class Recorder : Handler {
        val seen = mutableListOf<Any>()

        override fun onReceive(value: Note) {
            seen += value
        }

        override fun onReceive(value: PlaceOrder) {
            seen += value
        }

        override fun onMessage(value: Any) {
            seen += value
        }
    }

    private fun messages(): List<Any> = listOf(
        PlaceOrder(instrument = Instrument(symbol = "EURUSD", digits = 4)),
        Ping(sequence = 7),
        Accepted(),
        Failure(reason = "closed"),
    )

    @Test
    fun streams() {
        val out = ByteArrayOutputStream()
        val sender = Sender(out)
        val finalOut = ByteArrayOutputStream()
        val finalSender = FinalSender(finalOut)
        val sent = messages()
        val sizes = sent.map { m ->
            when (m) {
                is PlaceOrder -> sender.send(m).also { finalSender.send(m) }
                is Ping -> sender.send(m).also { finalSender.send(m) }
                is Accepted -> sender.send(m).also { finalSender.send(m) }
                is Failure -> sender.send(m).also { finalSender.send(m) }
                else -> error("not a message: $m")
            }
        }
        assertTrue(sender.sentMessages() == 4L) { "sent ${sender.sentMessages()}" }
        val stream = out.toByteArray()
        for (chunk in listOf(stream.size, 1, 7)) {
            val r = Recorder()
            val receiver = Receiver(r)
            for (p in stream.indices step chunk) receiver.receive(stream, p, minOf(chunk, stream.size - p))
            assertTrue(r.seen.map { it.toString() } == sent.map { it.toString() }) { "chunks of $chunk: ${r.seen}" }
        }
        val r = Recorder()
        FinalReceiver(r).receive(finalOut.toByteArray())
        assertTrue(r.seen.map { it.toString() } == sent.map { it.toString() }) { "final: ${r.seen}" }
        assertTrue(finalOut.size() < stream.size) { "the final stream is the smaller" }

        // a Proxy hands on each verified frame unchanged
        val forwarded = ByteArrayOutputStream()
        val names = mutableListOf<String>()
        val proxy = Proxy(object : ProxyHandler {
            override fun onPlaceOrderFrame(frame: ByteArray, offset: Int, size: Int) {
                names += "PlaceOrder"
                onFrame(PlaceOrder.TYPE_ID, frame, offset, size)
            }

            override fun onFrame(typeId: Int, frame: ByteArray, offset: Int, size: Int) {
                forwarded.write(frame, offset, size)
            }
        })
        proxy.receive(stream)
        assertTrue(forwarded.toByteArray().contentEquals(stream) && names == listOf("PlaceOrder")) { "proxy: $names" }

        // a frame whose body does not decode is reported and skipped: the Ping frame's body offset
        // (its bytes 4..7, from the frame's first byte) points beyond the frame
        val errors = mutableListOf<String>()
        val damaged = stream.copyOf()
        damaged[sizes[0] + 4] = 0x7F
        damaged[sizes[0] + 5] = 0x7F
        val rec = Recorder()
        val receiver = Receiver(rec)
        receiver.onError { errors += it.message ?: "" }
        receiver.receive(damaged)
        assertTrue(errors.size == 1 && rec.seen.size == 3) { "bad frame: $errors ${rec.seen}" }
    }

    @Test
    fun requests() {
        val toServer = ByteArrayOutputStream()
        val notified = Recorder()
        val client = Client(toServer, notified)
        val toClient = ByteArrayOutputStream()
        val server = Sender(toClient)
        val orders = mutableListOf<PlaceOrder>()
        val serverSide = Receiver(object : Handler {
            override fun onReceive(value: PlaceOrder) {
                orders += value
            }
        })

        val accepted = client.request(PlaceOrder(instrument = Instrument(symbol = "A")))
        val rejected = client.request(PlaceOrder(instrument = Instrument(symbol = "B")))
        val failed = client.request(PlaceOrder(instrument = Instrument(symbol = "C")))
        // long enough to be pending at the count below on a loaded machine (1 ms expired first there)
        val late = client.request(PlaceOrder(instrument = Instrument(symbol = "D")), timeoutMillis = 1000)
        val cancelled = client.request(PlaceOrder(instrument = Instrument(symbol = "E")))
        client.request(Ping(sequence = 1))
        assertTrue(client.pendingRequests == 5) { "pending ${client.pendingRequests}" }
        serverSide.receive(toServer.toByteArray())
        assertTrue(orders.map { it.instrument.symbol } == listOf("A", "B", "C", "D", "E")) { "server: $orders" }
        server.send(Accepted(id = orders[0].id))
        server.send(Rejected(id = orders[1].id, reason = "no"))
        server.send(Failure(id = orders[2].id, reason = "down"))
        server.send(Accepted()) // answers nothing: notified
        client.receive(toClient.toByteArray())
        assertTrue(accepted.get(5, TimeUnit.SECONDS).id == orders[0].id) { "accepted" }
        for ((future, reason) in listOf(rejected to "no", failed to "down")) {
            try {
                future.get(5, TimeUnit.SECONDS)
                throw AssertionError("a rejected request completed")
            } catch (e: ExecutionException) {
                val value = (e.cause as RejectException).value()
                assertTrue(value.toString().contains("reason=\"$reason\"")) { "rejected by $value" }
            }
        }
        try {
            late.get(5, TimeUnit.SECONDS)
            throw AssertionError("a request completed without its response")
        } catch (e: ExecutionException) {
            assertTrue(e.cause is TimeoutException) { "timeout: ${e.cause}" }
        }
        client.reset()
        assertTrue(cancelled.isCompletedExceptionally && client.pendingRequests == 0) { "reset" }
        try {
            cancelled.get()
        } catch (e: ExecutionException) {
            assertTrue(e.cause is CancellationException) { "cancelled: ${e.cause}" }
        } catch (e: CancellationException) {
            // as the future reports it
        }
        assertTrue(notified.seen.size == 1 && notified.seen[0] is Accepted) { "notified: ${notified.seen}" }
    }
}
