// The Kotlin TCP example (docs/kotlin.md "Protocol"): a server and a client of the generated rpc
// protocol (fbec --kotlin --final --proto of examples/cpp/tcp/rpc.fbe) over java.nio socket
// channels, one thread per connection, as the Java example (examples/java). Reads go through
// SocketChannel.read and writes through Channels.newOutputStream (a channel's streams from
// Channels share one lock: a thread blocked reading its InputStream would stop the replies).
//
//   TcpExample                      a server on a free port of 127.0.0.1 and a client against it
//   TcpExample serve PORT           the server alone
//   TcpExample connect HOST:PORT    the client alone
//   add "final" to use final-model frames (both sides must agree)
//
// The server answers each Ping with a Pong of its id, accepts a PlaceOrder (OrderAccepted) or
// rejects it when its quantity is not positive (OrderRejected), prints each Notice and drops a
// client that sends a bad frame or a frame above 1 MiB. The client sends MESSAGES pings (100 by
// default), one good and one bad order and a notice, checks every answer and exits 1 on any
// problem.

import io.github.fbetoolkit.fbe.FrameException
import io.github.fbetoolkit.fbe.FrameReceiver
import io.github.fbetoolkit.fbe.Limits
import io.github.fbetoolkit.fbe.RejectException
import rpc.Client
import rpc.FinalClient
import rpc.FinalReceiver
import rpc.FinalSender
import rpc.Handler
import rpc.Notice
import rpc.OrderAccepted
import rpc.OrderRejected
import rpc.Ping
import rpc.PlaceOrder
import rpc.Pong
import rpc.Receiver
import rpc.Sender
import rpc.Side
import java.io.IOException
import java.io.OutputStream
import java.io.UncheckedIOException
import java.net.InetSocketAddress
import java.nio.ByteBuffer
import java.nio.channels.AsynchronousCloseException
import java.nio.channels.Channels
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread
import kotlin.system.exitProcess

/** The server's answers, as frames of the connection's model. */
class Replies(out: OutputStream, private val finalModel: Boolean) {
    private val sender by lazy { Sender(out) }
    private val finalSender by lazy { FinalSender(out) }

    fun send(message: Pong) {
        if (finalModel) finalSender.send(message) else sender.send(message)
    }

    fun send(message: OrderAccepted) {
        if (finalModel) finalSender.send(message) else sender.send(message)
    }

    fun send(message: OrderRejected) {
        if (finalModel) finalSender.send(message) else sender.send(message)
    }
}

/** One connection: read frames, answer through the Sender, drop the client on a bad frame. */
fun serveConnection(channel: SocketChannel, finalModel: Boolean) {
    try {
        channel.use {
            val replies = Replies(Channels.newOutputStream(channel), finalModel)
            val handler = object : Handler {
                override fun onReceive(value: Ping) =
                    replies.send(Pong(id = value.id, sequence = value.sequence, payload = value.payload))

                override fun onReceive(value: PlaceOrder) = if (value.quantity > 0) {
                    replies.send(OrderAccepted(id = value.id, price = value.price, quantity = value.quantity))
                } else {
                    replies.send(OrderRejected(id = value.id, reason = "quantity ${value.quantity} is not positive"))
                }

                override fun onReceive(value: Notice) = println("server: notice \"${value.text}\"")
            }
            val receiver: FrameReceiver = if (finalModel) FinalReceiver(handler) else Receiver(handler)
            receiver.limits(Limits.DEFAULT.withMaxFrameSize(1 shl 20))
            val buffer = ByteBuffer.allocate(64 shl 10)
            while (true) {
                val n = channel.read(buffer.clear())
                if (n <= 0) break
                receiver.receive(buffer.array(), 0, n)
            }
        }
    } catch (e: FrameException) {
        println("server: client dropped: ${e.message}")
    } catch (e: IOException) {
        println("server: connection closed: ${e.message}")
    } catch (e: UncheckedIOException) {
        println("server: connection closed: ${e.message}")
    }
}

fun serve(server: ServerSocketChannel, finalModel: Boolean) {
    while (server.isOpen) {
        val channel = try {
            server.accept()
        } catch (e: IOException) {
            return // closed
        }
        thread(isDaemon = true, name = "fbe-connection") { serveConnection(channel, finalModel) }
    }
}

/** What the client needs of the generated Client or FinalClient. */
class Requests(out: OutputStream, private val finalModel: Boolean) {
    private val notify = object : Handler {
        override fun onMessage(value: Any) = println("client: notification $value")
    }
    private val client by lazy { Client(out, notify) }
    private val finalClient by lazy { FinalClient(out, notify) }

    fun ping(p: Ping): CompletableFuture<Pong> =
        if (finalModel) finalClient.request(p, TIMEOUT) else client.request(p, TIMEOUT)

    fun order(o: PlaceOrder): CompletableFuture<OrderAccepted> =
        if (finalModel) finalClient.request(o, TIMEOUT) else client.request(o, TIMEOUT)

    fun notice(n: Notice) = if (finalModel) finalClient.request(n) else client.request(n)

    fun receive(chunk: ByteArray, length: Int) =
        if (finalModel) finalClient.receive(chunk, 0, length) else client.receive(chunk, 0, length)

    fun reset() = if (finalModel) finalClient.reset() else client.reset()

    companion object {
        const val TIMEOUT = 5000L
    }
}

/** Runs the client against address; returns the number of problems. */
fun connect(address: InetSocketAddress, finalModel: Boolean, messages: Int): Int {
    SocketChannel.open(address).use { channel ->
        val client = Requests(Channels.newOutputStream(channel), finalModel)
        thread(isDaemon = true, name = "fbe-client-reader") {
            try {
                val buffer = ByteBuffer.allocate(64 shl 10)
                while (true) {
                    val n = channel.read(buffer.clear())
                    if (n <= 0) break
                    client.receive(buffer.array(), n)
                }
            } catch (e: AsynchronousCloseException) {
                // the client closed the connection
            } catch (e: IOException) {
                println("client: $e")
            } catch (e: FrameException) {
                println("client: $e")
            }
            client.reset() // fails what is still pending at once
        }
        val start = System.nanoTime()
        val pings = List(messages) { Ping(sequence = it.toLong(), payload = "ping $it") }
        val pongs = pings.map { client.ping(it) }
        var problems = 0
        for ((i, future) in pongs.withIndex()) {
            val pong = future.get(10, TimeUnit.SECONDS)
            if (pong.id != pings[i].id || pong.sequence != i.toLong() || pong.payload != "ping $i") {
                println("client: wrong pong $pong")
                problems++
            }
        }
        println("client: $messages pings answered in ${(System.nanoTime() - start) / 1_000_000} ms")
        val good = PlaceOrder(symbol = "EURUSD", side = Side.buy, price = 1.25, quantity = 100.0)
        val accepted = client.order(good).get(10, TimeUnit.SECONDS)
        println("client: accepted $accepted")
        if (accepted.quantity != 100.0 || accepted.id != good.id) problems++
        try {
            client.order(PlaceOrder(symbol = "EURUSD", quantity = -1.0)).get(10, TimeUnit.SECONDS)
            println("client: a bad order was accepted")
            problems++
        } catch (e: ExecutionException) {
            val cause = e.cause
            if (cause is RejectException) {
                println("client: rejected ${cause.value()}")
            } else {
                println("client: $cause")
                problems++
            }
        }
        client.notice(Notice(text = "bye"))
        return problems
    }
}

fun main(args: Array<String>) {
    val a = args.toMutableList()
    val finalModel = a.remove("final")
    val messages = System.getenv("MESSAGES")?.toInt() ?: 100
    when (a.firstOrNull()) {
        "serve" -> {
            val server = ServerSocketChannel.open().bind(InetSocketAddress("127.0.0.1", a[1].toInt()))
            println("server: listening on ${server.localAddress}${if (finalModel) " (final)" else ""}")
            serve(server, finalModel)
            return
        }
        "connect" -> {
            val (host, port) = a[1].split(":")
            exitProcess(if (connect(InetSocketAddress(host, port.toInt()), finalModel, messages) == 0) 0 else 1)
        }
    }
    var problems = 0
    for (model in if (finalModel) listOf(true) else listOf(false, true)) {
        ServerSocketChannel.open().use { server ->
            server.bind(InetSocketAddress("127.0.0.1", 0))
            thread(isDaemon = true, name = "fbe-server") { serve(server, model) }
            println("server: listening on ${server.localAddress}${if (model) " (final model)" else ""}")
            problems += connect(server.localAddress as InetSocketAddress, model, messages)
        }
    }
    println(if (problems == 0) "tcp example: ok" else "tcp example: $problems problems")
    exitProcess(if (problems == 0) 0 else 1)
}
