// The Kotlin TCP example (docs/kotlin.md "Protocol"): a server and a client of the generated rpc
// protocol (fbec --kotlin --final --proto of examples/cpp/tcp/rpc.fbe) over java.nio socket
// channels, one thread per connection, as the Java example (examples/java). Reads go through
// SocketChannel.read and writes through Channels.newOutputStream (a channel's streams from
// Channels share one lock: a thread blocked reading its InputStream would stop the replies).
//
//   TcpExample [--final]                 a server on a free port of 127.0.0.1 and a client against
//                                        it (both models without --final)
//   TcpExample serve [--port 5000] [--final] [--max-connections 256]
//        [--max-frame-size 1048576] [--idle-timeout 60] [--frame-timeout 10]
//                                        the server alone; prints "listening on HOST:PORT", and a
//                                        closing line of counts on SIGTERM or SIGINT
//   TcpExample connect HOST:PORT [--final]   the client alone
//
// The server answers each Ping with a Pong of its id, accepts a PlaceOrder (OrderAccepted) or
// rejects it when its quantity is not positive (OrderRejected) and prints each Notice. What a
// client cannot do to it is the policy of every example server (docs/tcp-examples.md), kept as the
// Java example keeps it: blocking writes by the connection's own thread (a client that does not
// read its replies stops being read, and is dropped after the idle timeout), --max-frame-size,
// --idle-timeout, --frame-timeout (a frame must be whole that long after its first byte, the first
// frame after the accept) and --max-connections (a new connection takes the slot of the one that
// has waited longest for a frame; when every open connection is between frames it is closed at
// once). One watchdog thread closes the connections whose time is up: closing a channel ends the
// read or write its thread is blocked in. A bad frame, or an exception of a handler, drops the
// client with one message.
//
// The client sends MESSAGES pings (100 by default), one good and one bad order and a notice,
// checks every answer and exits 1 on any problem.

import io.github.fbetoolkit.fbe.FrameException
import io.github.fbetoolkit.fbe.FrameReceiver
import io.github.fbetoolkit.fbe.Limits
import io.github.fbetoolkit.fbe.RejectException
import rpc.Client
import rpc.FinalClient
import rpc.FinalReceiver
import rpc.FinalSender
import rpc.Handler
import rpc.Heartbeat
import rpc.Notice
import rpc.OrderAccepted
import rpc.OrderRejected
import rpc.Ping
import rpc.PlaceOrder
import rpc.Pong
import rpc.Receiver
import rpc.Sender
import rpc.Side
import java.io.BufferedOutputStream
import java.io.FilterOutputStream
import java.io.IOException
import java.io.OutputStream
import java.io.UncheckedIOException
import java.net.InetSocketAddress
import java.net.StandardSocketOptions
import java.nio.ByteBuffer
import java.nio.channels.AsynchronousCloseException
import java.nio.channels.Channel
import java.nio.channels.Channels
import java.nio.channels.ClosedChannelException
import java.nio.channels.ServerSocketChannel
import java.nio.channels.SocketChannel
import java.util.concurrent.CancellationException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.AtomicReference
import kotlin.concurrent.thread
import kotlin.system.exitProcess

/** The server's limits (docs/tcp-examples.md); each is an option of `serve`. Timeouts in nanoseconds, 0: never. */
data class Config(
    /** Connections open at once; one more evicts the one waiting longest for a frame, or is refused. */
    val maxConnections: Int = 256,
    /** The largest accepted frame: the rpc messages are small, so well below the receivers' 64 MiB. */
    val maxFrameSize: Int = 1 shl 20,
    /** Without a byte read or written this long, a connection is closed. */
    val idleTimeout: Long = TimeUnit.SECONDS.toNanos(60),
    /** A frame must be whole this long after its first byte (the first frame: the accept). */
    val frameTimeout: Long = TimeUnit.SECONDS.toNanos(10),
    /** Final-model frames (the client must speak them too). */
    val finalModel: Boolean = false,
    /** Why a connection was dropped, and other news. */
    val log: (String) -> Unit = System.err::println,
)

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

    fun send(message: Heartbeat) {
        if (finalModel) finalSender.send(message) else sender.send(message)
    }
}

private fun closeQuietly(channel: Channel) {
    try {
        channel.close()
    } catch (e: IOException) {
        // closing: nothing left to do
    }
}

/** Accepts connections and serves each on its own thread, within the limits of its Config. */
class Server(val config: Config, port: Int) : AutoCloseable {
    val sessions = AtomicLong()
    val refused = AtomicLong()
    val evicted = AtomicLong()
    val requests = AtomicLong()

    // A backlog for bursts of connections (the default, 50, refuses them before accept).
    private val channel = ServerSocketChannel.open().bind(InetSocketAddress("127.0.0.1", port), BACKLOG)
    internal val watchdog = Executors.newSingleThreadScheduledExecutor { r ->
        Thread(r, "fbe-watchdog").apply { isDaemon = true }
    }
    private val open = HashSet<Connection>() // guarded by this

    // One message per episode at maxConnections for each, not one per connection: an episode ends
    // when fewer than three quarters of maxConnections are open.
    private var evicting = false
    private var refusing = false

    init {
        val tick = (
            minOf(
                if (config.idleTimeout > 0) config.idleTimeout else Long.MAX_VALUE,
                if (config.frameTimeout > 0) config.frameTimeout else Long.MAX_VALUE,
            ) / 10
            ).coerceIn(TimeUnit.MILLISECONDS.toNanos(10), TimeUnit.SECONDS.toNanos(1))
        watchdog.scheduleAtFixedRate(::closeOverdue, tick, tick, TimeUnit.NANOSECONDS)
    }

    val address: InetSocketAddress get() = channel.localAddress as InetSocketAddress

    /** Accepts until closed. */
    fun serve() {
        while (channel.isOpen) {
            val accepted = try {
                channel.accept()
            } catch (e: IOException) {
                if (!channel.isOpen) return // closed
                config.log("server: accept: ${e.message}")
                Thread.sleep(100) // out of file descriptors and the like: retry shortly rather than spin
                continue
            }
            val connection = admit(accepted) ?: continue
            thread(isDaemon = true, name = "fbe-connection ${connection.peer}") { connection.run() }
        }
    }

    /**
     * Registers the channel, at maxConnections in the slot of the connection that has waited longest
     * for a frame; null (the channel closed) when every open connection is between frames.
     */
    @Synchronized
    private fun admit(accepted: SocketChannel): Connection? {
        if (open.size >= config.maxConnections) {
            var victim: Connection? = null
            var oldest = 0L
            for (c in open) {
                val since = c.waitingSince.get()
                if (since != BETWEEN_FRAMES && (victim == null || since - oldest < 0)) {
                    victim = c
                    oldest = since
                }
            }
            if (victim != null) {
                evicted.incrementAndGet()
                if (!evicting) {
                    config.log(
                        "server: ${open.size} connections open (max_connections): " +
                            "a new one evicts the one waiting longest for a frame",
                    )
                }
                evicting = true
                open.remove(victim)
                victim.close(null) // its thread ends without a message
            }
        }
        if (open.size >= config.maxConnections) {
            refused.incrementAndGet()
            if (!refusing) {
                config.log(
                    "server: ${open.size} connections open (max_connections), each between frames: " +
                        "closing new ones until one ends",
                )
            }
            refusing = true
            closeQuietly(accepted)
            return null
        }
        if (open.size < config.maxConnections - config.maxConnections / 4) {
            evicting = false // the episode is over
            refusing = false
        }
        return Connection(this, accepted).also {
            open.add(it)
            sessions.incrementAndGet()
        }
    }

    @Synchronized
    fun closed(connection: Connection) {
        open.remove(connection)
    }

    @Synchronized
    private fun snapshot(): List<Connection> = open.toList()

    /** The watchdog: closes the connections whose frame or idle time is up. */
    private fun closeOverdue() {
        val now = System.nanoTime()
        val frameLimit = TimeUnit.NANOSECONDS.toMillis(config.frameTimeout)
        val idleLimit = TimeUnit.NANOSECONDS.toMillis(config.idleTimeout)
        for (c in snapshot()) {
            val since = c.waitingSince.get()
            if (config.frameTimeout > 0 && since != BETWEEN_FRAMES && now - since >= config.frameTimeout) {
                val after = if (c.framed) "its first byte" else "the connection opened"
                c.close("frame timeout: no whole frame $frameLimit ms after $after")
            } else if (config.idleTimeout > 0 && now - c.lastActivity >= config.idleTimeout) {
                c.close(
                    if (c.writing) {
                        "does not read its replies (a write stalled for $idleLimit ms)"
                    } else {
                        "idle for $idleLimit ms (nothing read or written)"
                    },
                )
            }
        }
    }

    override fun close() {
        watchdog.shutdownNow()
        closeQuietly(channel)
        for (c in snapshot()) c.close(null)
    }

    fun counts() = "server: ${sessions.get()} session(s), ${refused.get()} refused over max_connections, " +
        "${evicted.get()} evicted, ${requests.get()} requests, bye"

    companion object {
        /** Connection.waitingSince of a connection between frames. */
        const val BETWEEN_FRAMES = Long.MIN_VALUE

        /** Connections the kernel queues before they are accepted. */
        const val BACKLOG = 1024
    }
}

/** One connection: read frames, answer through the Sender, drop the client on a bad frame. */
class Connection(private val server: Server, private val channel: SocketChannel) {
    val peer: String = try {
        val remote = channel.remoteAddress as InetSocketAddress
        "${remote.address.hostAddress}:${remote.port}"
    } catch (e: IOException) {
        "(unknown peer)"
    }

    /** System.nanoTime() since which a frame is awaited (the accept, or the frame's first byte), or BETWEEN_FRAMES. */
    val waitingSince = AtomicLong(System.nanoTime())

    @Volatile var lastActivity = System.nanoTime()

    /** A frame completed. */
    @Volatile var framed = false

    /** Blocked writing replies. */
    @Volatile var writing = false

    private val closed = AtomicBoolean()

    /** Closes the connection, once; with a reason, says why. */
    fun close(reason: String?) {
        if (closed.compareAndSet(false, true)) {
            if (reason != null) server.config.log("server: $peer: dropping the connection: $reason")
            closeQuietly(channel)
        }
    }

    /**
     * Drops the client whose frame made no sense in the server's model after the model notice
     * (docs/format.md 7.4) and the replies before it. Closing with the client's bytes unread would
     * reset the connection and the client would lose the notice: what arrives is read and dropped
     * until the client closes (a second at most).
     */
    private fun notice(out: OutputStream, e: FrameException) {
        val hint = mismatchHint(e, server.config.finalModel)
        server.config.log("server: $peer: dropping the connection: ${e.message}$hint")
        out.write(FrameReceiver.modelNotice(server.config.finalModel))
        out.flush()
        channel.shutdownOutput()
        if (!closed.compareAndSet(false, true)) return
        server.watchdog.schedule({ closeQuietly(channel) }, 1, TimeUnit.SECONDS)
        val rest = ByteBuffer.allocate(4096)
        while (channel.read(rest.clear()) > 0) {
            // dropped
        }
    }

    /** Counts the bytes written as activity, and marks the time a write is blocked. */
    private inner class Activity(out: OutputStream) : FilterOutputStream(out) {
        override fun write(b: ByteArray, off: Int, len: Int) {
            writing = true
            try {
                out.write(b, off, len)
            } finally {
                writing = false
                lastActivity = System.nanoTime()
            }
        }
    }

    fun run() {
        val config = server.config
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true)
            // The replies to one read leave in one write, flushed after the read is handled.
            val out = BufferedOutputStream(Activity(Channels.newOutputStream(channel)), 64 shl 10)
            val replies = Replies(out, config.finalModel)
            val handler = object : Handler {
                override fun onReceive(value: Ping) =
                    answer { replies.send(Pong(id = value.id, sequence = value.sequence, payload = value.payload)) }

                override fun onReceive(value: PlaceOrder) = answer {
                    if (value.quantity > 0) {
                        replies.send(OrderAccepted(id = value.id, price = value.price, quantity = value.quantity))
                    } else {
                        replies.send(
                            OrderRejected(id = value.id, reason = "quantity ${value.quantity} is not positive"),
                        )
                    }
                }

                // as every example server answers a Notice
                override fun onReceive(value: Notice) = answer {
                    println("server: notice \"${value.text}\"")
                    replies.send(Heartbeat(time = value.text.length.toLong()))
                }

                private fun answer(reply: () -> Unit) {
                    server.requests.incrementAndGet()
                    reply()
                }
            }
            val receiver: FrameReceiver = if (config.finalModel) FinalReceiver(handler) else Receiver(handler)
            receiver.limits(Limits.DEFAULT.withMaxFrameSize(config.maxFrameSize))
            val buffer = ByteBuffer.allocate(64 shl 10)
            while (true) {
                val n = channel.read(buffer.clear())
                if (n <= 0) break
                lastActivity = System.nanoTime()
                val unfinished = receiver.pending() + n // pending after this read if no frame completes
                try {
                    receiver.receive(buffer.array(), 0, n)
                } catch (e: FrameException) {
                    if (!senseless(e)) throw e
                    notice(out, e)
                    return
                }
                // A frame completed when fewer bytes are pending; the wait for the next one begins with its first byte.
                val pending = receiver.pending()
                if (pending < unfinished) {
                    framed = true
                    waitingSince.set(if (pending > 0) lastActivity else Server.BETWEEN_FRAMES)
                } else {
                    waitingSince.compareAndSet(Server.BETWEEN_FRAMES, lastActivity)
                }
                out.flush()
            }
        } catch (e: FrameException) {
            close(e.message + mismatchHint(e, config.finalModel))
        } catch (e: AsynchronousCloseException) {
            // closed by the watchdog, an eviction or the server: already said
        } catch (e: IOException) {
            close(if (closed.get()) null else "connection error: ${e.message}")
        } catch (e: UncheckedIOException) {
            close(if (closed.get()) null else "connection error: ${e.message}")
        } catch (e: RuntimeException) {
            close("exception: $e")
        } finally {
            close(null)
            server.closed(this)
        }
    }
}

/** Whether the client's frame made no sense in the server's model: it gets the model notice (docs/format.md 7.4). */
fun senseless(e: FrameException): Boolean = when (e.kind()) {
    FrameException.Kind.BAD_HEADER, FrameException.Kind.UNKNOWN_TYPE, FrameException.Kind.FRAME_TOO_SMALL -> true
    else -> false
}

/** Names the likely cause of frames that make no sense: the two ends disagree on --final. */
fun mismatchHint(e: FrameException, finalModel: Boolean): String = when {
    !senseless(e) -> ""
    finalModel -> " (this server reads final-model frames: was the client started without --final?)"
    else -> " (this server reads versioned frames: was the client started with --final?)"
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
        // Why the connection ended: a bad frame of the server, or its model notice naming both
        // models (docs/format.md 7.4).
        val why = AtomicReference<String>()
        thread(isDaemon = true, name = "fbe-client-reader") {
            try {
                val buffer = ByteBuffer.allocate(64 shl 10)
                while (true) {
                    val n = channel.read(buffer.clear())
                    if (n <= 0) break
                    client.receive(buffer.array(), n)
                }
                why.compareAndSet(null, "the server closed the connection before the response came")
            } catch (e: ClosedChannelException) {
                // the client closed the connection: while this thread read (an
                // AsynchronousCloseException) or before it read again
            } catch (e: IOException) {
                why.compareAndSet(null, e.message)
            } catch (e: FrameException) {
                why.compareAndSet(null, e.message)
            }
            client.reset() // fails what is still pending at once
        }
        return try {
            converse(client, messages)
        } catch (e: ExecutionException) {
            System.err.println("client: ${why.get() ?: e}")
            1
        } catch (e: CancellationException) {
            System.err.println("client: ${why.get() ?: e}")
            1
        } catch (e: TimeoutException) {
            System.err.println("client: ${why.get() ?: e}")
            1
        }
    }
}

/** The client's requests: every reply checked; returns the number of problems. */
fun converse(client: Requests, messages: Int): Int {
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

/** The options of `serve` as a Config and a port, or an IllegalArgumentException naming the bad one. */
fun options(args: List<String>): Pair<Config, Int> {
    var config = Config()
    var port = 5000
    var i = 0
    while (i < args.size) {
        val option = args[i++]
        if (option == "--final") {
            config = config.copy(finalModel = true)
            continue
        }
        require(i < args.size) { "$option needs a value" }
        val value = args[i++]
        when (option) {
            "--port" -> port = whole(option, value, 0, 65535)
            "--max-connections" -> config = config.copy(maxConnections = whole(option, value, 1, Int.MAX_VALUE))
            "--max-frame-size" -> config = config.copy(maxFrameSize = whole(option, value, 1, Int.MAX_VALUE))
            "--idle-timeout" -> config = config.copy(idleTimeout = seconds(option, value))
            "--frame-timeout" -> config = config.copy(frameTimeout = seconds(option, value))
            else -> throw IllegalArgumentException("unknown option $option")
        }
    }
    return config to port
}

fun whole(option: String, value: String, least: Int, most: Int): Int = value.toIntOrNull()?.takeIf { it in least..most }
    ?: throw IllegalArgumentException("$option $value: a whole number from $least to $most")

/** Seconds (fractions allowed) as nanoseconds. */
fun seconds(option: String, value: String): Long =
    value.toDoubleOrNull()?.takeIf { it in 0.0..1e9 }?.let { Math.round(it * 1e9) }
        ?: throw IllegalArgumentException("$option $value: a number of seconds")

fun main(args: Array<String>) {
    val a = args.toMutableList()
    val messages = System.getenv("MESSAGES")?.toInt() ?: 100
    if (a.firstOrNull() == "serve") {
        val (config, port) = try {
            options(a.drop(1))
        } catch (e: IllegalArgumentException) {
            System.err.println("TcpExample serve: ${e.message}")
            exitProcess(2)
        }
        val server = Server(config, port)
        val at = server.address
        val model = if (config.finalModel) " (final-model frames)" else ""
        println("listening on ${at.address.hostAddress}:${at.port}$model")
        Runtime.getRuntime().addShutdownHook(
            Thread({
                server.close()
                println(server.counts())
            }, "fbe-shutdown"),
        )
        server.serve()
        return
    }
    val finalModel = a.remove("--final")
    if (a.firstOrNull() == "connect") {
        val (host, port) = a[1].split(":")
        exitProcess(if (connect(InetSocketAddress(host, port.toInt()), finalModel, messages) == 0) 0 else 1)
    }
    var problems = 0
    for (model in if (finalModel) listOf(true) else listOf(false, true)) {
        Server(Config(finalModel = model), 0).use { server ->
            thread(isDaemon = true, name = "fbe-server") { server.serve() }
            println("server: listening on ${server.address}${if (model) " (final model)" else ""}")
            problems += connect(server.address, model, messages)
        }
    }
    println(if (problems == 0) "tcp example: ok" else "tcp example: $problems problems")
    exitProcess(if (problems == 0) 0 else 1)
}
