// A request whose response has no id field (tests/java/generated/requests.fbe): the Client waits
// for the response as docs/format.md 7.6 says, as the Go and TypeScript Clients do (base.client_answers
// decides it for every target): request(value, timeoutMillis) gives a future, the request is pending
// until its timeout or reset(), and the response, which carries no id to match it by, goes to the
// notify handler. Run by tests/kotlin/junit_kotlin.py.

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import requests.Ask
import requests.Client
import requests.Handler
import requests.Pong
import requests.Sender
import java.io.ByteArrayOutputStream
import java.util.concurrent.CancellationException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException

class RequestsTest {
    private fun failure(future: CompletableFuture<Pong>): Throwable {
        try {
            future.get(5, TimeUnit.SECONDS)
        } catch (e: ExecutionException) {
            return e.cause ?: e
        } catch (e: CancellationException) {
            return e
        }
        throw AssertionError("the request did not fail")
    }

    @Test
    fun waitsForAResponseWithoutId() {
        val notified = mutableListOf<Any>()
        val toServer = ByteArrayOutputStream()
        val client =
            Client(
                toServer,
                object : Handler {
                    override fun onMessage(value: Any) {
                        notified += value
                    }
                },
            )
        val ask = Ask()
        val pong: CompletableFuture<Pong> = client.request(ask, 0)
        assertEquals(ask.id, Ask.fromFbe(toServer.toByteArray()).id, "sent")
        assertEquals(1, client.pendingRequests, "pending")

        val toClient = ByteArrayOutputStream()
        Sender(toClient).send(Pong(n = 7))
        client.receive(toClient.toByteArray())
        assertTrue(notified.size == 1 && (notified[0] as Pong).n == 7) { "the response goes to notify: $notified" }
        assertEquals(1, client.pendingRequests, "still pending: nothing answered it")

        client.reset()
        assertTrue(failure(pong) is CancellationException) { "reset" }
        assertTrue(failure(client.request(Ask(), 50)) is TimeoutException) { "timeout" }
        assertEquals(0, client.pendingRequests, "nothing pending")
    }
}
