// The Java TCP example (docs/java.md "Protocol"): a server and a client of the generated rpc
// protocol (fbec --java --final --proto of examples/cpp/tcp/rpc.fbe) over java.nio socket
// channels, one thread per connection. Reads go through SocketChannel.read and writes through
// Channels.newOutputStream: a channel's InputStream and OutputStream from Channels share one lock,
// so a thread blocked reading would stop the replies.
//
//   java TcpExample [--final]                 a server on a free port of 127.0.0.1 and a client
//                                             against it (both models without --final)
//   java TcpExample serve [--port 5000] [--final] [--max-connections 256]
//        [--max-frame-size 1048576] [--idle-timeout 60] [--frame-timeout 10]
//                                             the server alone; prints "listening on HOST:PORT",
//                                             and a closing line of counts on SIGTERM or SIGINT
//   java TcpExample connect HOST:PORT [--final]   the client alone
//
// The server answers each Ping with a Pong of its id, accepts a PlaceOrder (OrderAccepted) or
// rejects it when its quantity is not positive (OrderRejected) and prints each Notice. What a
// client cannot do to it is the policy of every example server (docs/tcp-examples.md):
//
//   - make it buffer without bound: replies are written with blocking writes by the connection's
//     own thread, so a client that does not read them stops being read itself once the socket
//     buffers are full, and is dropped after the idle timeout;
//   - make it allocate what it has not sent: a partial frame holds only the bytes received, and a
//     frame size above --max-frame-size drops the client (docs/limits.md 6);
//   - hold a connection forever: --idle-timeout without a byte read or written closes it;
//   - hold a slot by sending slowly: a frame must be whole --frame-timeout after its first byte
//     (the first frame: after the accept), or the connection is closed;
//   - exhaust it with connections or threads: at --max-connections a new connection takes the
//     slot (and the thread) of the connection that has waited longest for a frame to complete;
//     when every open connection is between frames, the new one is closed at once.
//
// A bad frame, or an exception of a handler, drops the client with one message; the rest of what
// it sent is not processed. One watchdog thread closes the connections whose time is up: closing
// a channel ends the read or write its thread is blocked in.
//
// The client sends MESSAGES pings (100 by default), one good and one bad order and a notice,
// checks every answer and exits 1 on any problem.

import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.RejectException;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import rpc.Client;
import rpc.FinalClient;
import rpc.FinalReceiver;
import rpc.FinalSender;
import rpc.Handler;
import rpc.Heartbeat;
import rpc.Notice;
import rpc.OrderAccepted;
import rpc.OrderRejected;
import rpc.Ping;
import rpc.PlaceOrder;
import rpc.Pong;
import rpc.Receiver;
import rpc.Sender;
import rpc.Side;

public final class TcpExample {
    private TcpExample() {}

    /** The server's limits (docs/tcp-examples.md); each is an option of {@code serve}. */
    static final class Config {
        /** Connections open at once; one more evicts the one waiting longest for a frame, or is refused. */
        int maxConnections = 256;
        /** The largest accepted frame: the rpc messages are small, so well below the receivers' 64 MiB. */
        int maxFrameSize = 1 << 20;
        /** Nanoseconds without a byte read or written before a connection is closed; 0: never. */
        long idleTimeout = TimeUnit.SECONDS.toNanos(60);
        /** Nanoseconds after a frame's first byte (the first frame: the accept) by which it must be whole; 0: never. */
        long frameTimeout = TimeUnit.SECONDS.toNanos(10);
        /** Final-model frames (the client must speak them too). */
        boolean finalModel;
        /** Why a connection was dropped, and other news. */
        Consumer<String> log = System.err::println;
    }

    /** Sends one message of the rpc package as a frame of the connection's model. */
    interface Reply {
        void send(Object message) throws IOException;
    }

    static Reply replies(OutputStream out, boolean finalModel) {
        if (finalModel) {
            FinalSender s = new FinalSender(out);
            return m -> {
                if (m instanceof Pong) {
                    s.send((Pong) m);
                } else if (m instanceof OrderAccepted) {
                    s.send((OrderAccepted) m);
                } else if (m instanceof Heartbeat) {
                    s.send((Heartbeat) m);
                } else {
                    s.send((OrderRejected) m);
                }
            };
        }
        Sender s = new Sender(out);
        return m -> {
            if (m instanceof Pong) {
                s.send((Pong) m);
            } else if (m instanceof OrderAccepted) {
                s.send((OrderAccepted) m);
            } else if (m instanceof Heartbeat) {
                s.send((Heartbeat) m);
            } else {
                s.send((OrderRejected) m);
            }
        };
    }

    /** Accepts connections and serves each on its own thread, within the limits of its Config. */
    static final class Server implements AutoCloseable {
        /** {@link Connection#waitingSince} of a connection between frames. */
        static final long BETWEEN_FRAMES = Long.MIN_VALUE;
        /** Connections the kernel queues before they are accepted. */
        static final int BACKLOG = 1024;

        final Config config;
        final AtomicLong sessions = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong evicted = new AtomicLong();
        final AtomicLong requests = new AtomicLong();
        private final ServerSocketChannel channel;
        private final ScheduledExecutorService watchdog;
        private final Set<Connection> open = new HashSet<>(); // guarded by this
        // One message per episode at maxConnections for each, not one per connection: an episode
        // ends when fewer than three quarters of maxConnections are open.
        private boolean evicting;
        private boolean refusing;

        Server(Config config, int port) throws IOException {
            this.config = config;
            // A backlog for bursts of connections (the default, 50, refuses them before accept).
            channel = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", port), BACKLOG);
            watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "fbe-watchdog");
                t.setDaemon(true);
                return t;
            });
            long tick = Math.min(config.idleTimeout > 0 ? config.idleTimeout : Long.MAX_VALUE,
                    config.frameTimeout > 0 ? config.frameTimeout : Long.MAX_VALUE) / 10;
            tick = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(tick, TimeUnit.SECONDS.toNanos(1)));
            watchdog.scheduleAtFixedRate(this::closeOverdue, tick, tick, TimeUnit.NANOSECONDS);
        }

        InetSocketAddress address() throws IOException {
            return (InetSocketAddress) channel.getLocalAddress();
        }

        /** Accepts until closed. */
        void serve() {
            while (channel.isOpen()) {
                SocketChannel accepted;
                try {
                    accepted = channel.accept();
                } catch (IOException e) {
                    if (!channel.isOpen()) {
                        return; // closed
                    }
                    config.log.accept("server: accept: " + e.getMessage());
                    sleep(100); // out of file descriptors and the like: retry shortly rather than spin
                    continue;
                }
                Connection c = admit(accepted);
                if (c != null) {
                    Thread t = new Thread(c::run, "fbe-connection " + c.peer);
                    t.setDaemon(true);
                    t.start();
                }
            }
        }

        /**
         * Registers the channel, at maxConnections in the slot of the connection that has waited
         * longest for a frame; null (the channel closed) when every open connection is between frames.
         */
        private synchronized Connection admit(SocketChannel accepted) {
            if (open.size() >= config.maxConnections) {
                Connection victim = null;
                long oldest = 0;
                for (Connection c : open) {
                    long since = c.waitingSince.get();
                    if (since != BETWEEN_FRAMES && (victim == null || since - oldest < 0)) {
                        victim = c;
                        oldest = since;
                    }
                }
                if (victim != null) {
                    evicted.incrementAndGet();
                    if (!evicting) {
                        config.log.accept("server: " + open.size()
                                + " connections open (max_connections): a new one evicts the one waiting longest for a frame");
                    }
                    evicting = true;
                    open.remove(victim);
                    victim.close(null); // its thread ends without a message
                }
            }
            if (open.size() >= config.maxConnections) {
                refused.incrementAndGet();
                if (!refusing) {
                    config.log.accept("server: " + open.size()
                            + " connections open (max_connections), each between frames: closing new ones until one ends");
                }
                refusing = true;
                closeQuietly(accepted);
                return null;
            }
            if (open.size() < config.maxConnections - config.maxConnections / 4) {
                evicting = false; // the episode is over
                refusing = false;
            }
            Connection c = new Connection(this, accepted);
            open.add(c);
            sessions.incrementAndGet();
            return c;
        }

        synchronized void closed(Connection c) {
            open.remove(c);
        }

        /** The watchdog: closes the connections whose frame or idle time is up. */
        private void closeOverdue() {
            List<Connection> all;
            synchronized (this) {
                all = new ArrayList<>(open);
            }
            long now = System.nanoTime();
            for (Connection c : all) {
                long since = c.waitingSince.get();
                if (config.frameTimeout > 0 && since != BETWEEN_FRAMES && now - since >= config.frameTimeout) {
                    c.close("frame timeout: no whole frame " + TimeUnit.NANOSECONDS.toMillis(config.frameTimeout)
                            + " ms after " + (c.framed ? "its first byte" : "the connection opened"));
                } else if (config.idleTimeout > 0 && now - c.lastActivity >= config.idleTimeout) {
                    long idle = TimeUnit.NANOSECONDS.toMillis(config.idleTimeout);
                    c.close(c.writing ? "does not read its replies (a write stalled for " + idle + " ms)"
                            : "idle for " + idle + " ms (nothing read or written)");
                }
            }
        }

        @Override
        public void close() {
            watchdog.shutdownNow();
            closeQuietly(channel);
            List<Connection> all;
            synchronized (this) {
                all = new ArrayList<>(open);
            }
            for (Connection c : all) {
                c.close(null);
            }
        }

        String counts() {
            return "server: " + sessions.get() + " session(s), " + refused.get() + " refused over max_connections, "
                    + evicted.get() + " evicted, " + requests.get() + " requests, bye";
        }
    }

    /** One connection: read frames, answer through the Sender, drop the client on a bad frame. */
    static final class Connection {
        final String peer;
        /** System.nanoTime() since which a frame is awaited (the accept, or the frame's first byte), or BETWEEN_FRAMES. */
        final AtomicLong waitingSince = new AtomicLong(System.nanoTime());
        volatile long lastActivity = System.nanoTime();
        /** A frame completed. */
        volatile boolean framed;
        /** Blocked writing replies. */
        volatile boolean writing;
        private final Server server;
        private final SocketChannel channel;
        private final AtomicBoolean closed = new AtomicBoolean();

        Connection(Server server, SocketChannel channel) {
            this.server = server;
            this.channel = channel;
            String name;
            try {
                InetSocketAddress remote = (InetSocketAddress) channel.getRemoteAddress();
                name = remote.getAddress().getHostAddress() + ":" + remote.getPort();
            } catch (IOException | RuntimeException e) {
                name = "(unknown peer)";
            }
            peer = name;
        }

        /** Closes the connection, once; with a reason, says why. */
        void close(String reason) {
            if (closed.compareAndSet(false, true)) {
                if (reason != null) {
                    server.config.log.accept("server: " + peer + ": dropping the connection: " + reason);
                }
                closeQuietly(channel);
            }
        }

        /**
         * Drops the client whose frame made no sense in the server's model after the model notice
         * (docs/format.md 7.4) and the replies before it. Closing with the client's bytes unread would
         * reset the connection and the client would lose the notice: what arrives is read and dropped
         * until the client closes (a second at most).
         */
        void notice(OutputStream out, FrameException e) throws IOException {
            server.config.log.accept("server: " + peer + ": dropping the connection: " + e.getMessage()
                    + mismatchHint(e, server.config.finalModel));
            out.write(FrameReceiver.modelNotice(server.config.finalModel));
            out.flush();
            channel.shutdownOutput();
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            server.watchdog.schedule(() -> closeQuietly(channel), 1, TimeUnit.SECONDS);
            ByteBuffer rest = ByteBuffer.allocate(4096);
            while (channel.read(rest.clear()) > 0) {
                // dropped
            }
        }

        /** Counts the bytes written as activity, and marks the time a write is blocked. */
        private final class Activity extends FilterOutputStream {
            Activity(OutputStream out) {
                super(out);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                writing = true;
                try {
                    out.write(b, off, len);
                } finally {
                    writing = false;
                    lastActivity = System.nanoTime();
                }
            }
        }

        void run() {
            Config config = server.config;
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                // The replies to one read leave in one write, flushed after the read is handled.
                OutputStream out = new BufferedOutputStream(new Activity(Channels.newOutputStream(channel)), 64 << 10);
                Reply reply = replies(out, config.finalModel);
                Handler handler = new Handler() {
                    @Override
                    public void onReceive(Ping ping) {
                        Pong pong = new Pong();
                        pong.id = ping.id;
                        pong.sequence = ping.sequence;
                        pong.payload = ping.payload;
                        answer(pong);
                    }

                    @Override
                    public void onReceive(PlaceOrder order) {
                        if (order.quantity > 0) {
                            OrderAccepted ok = new OrderAccepted();
                            ok.id = order.id;
                            ok.price = order.price;
                            ok.quantity = order.quantity;
                            answer(ok);
                        } else {
                            OrderRejected no = new OrderRejected();
                            no.id = order.id;
                            no.reason = "quantity " + order.quantity + " is not positive";
                            answer(no);
                        }
                    }

                    @Override
                    public void onReceive(Notice notice) {
                        System.out.println("server: notice \"" + notice.text + "\"");
                        Heartbeat heartbeat = new Heartbeat(); // as every example server answers a Notice
                        heartbeat.time = notice.text.length();
                        answer(heartbeat);
                    }

                    void answer(Object message) {
                        server.requests.incrementAndGet();
                        try {
                            reply.send(message);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                };
                FrameReceiver receiver = config.finalModel ? new FinalReceiver(handler) : new Receiver(handler);
                receiver.limits(Limits.DEFAULT.withMaxFrameSize(config.maxFrameSize));
                ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
                for (int n; (n = channel.read(buffer.clear())) > 0;) {
                    lastActivity = System.nanoTime();
                    int unfinished = receiver.pending() + n; // pending after this read if no frame completes
                    try {
                        receiver.receive(buffer.array(), 0, n);
                    } catch (FrameException e) {
                        if (senseless(e)) {
                            notice(out, e);
                            return;
                        }
                        throw e;
                    }
                    // A frame completed when fewer bytes are pending; the wait for the next one
                    // begins with its first byte.
                    int pending = receiver.pending();
                    if (pending < unfinished) {
                        framed = true;
                        waitingSince.set(pending > 0 ? lastActivity : Server.BETWEEN_FRAMES);
                    } else {
                        waitingSince.compareAndSet(Server.BETWEEN_FRAMES, lastActivity);
                    }
                    out.flush();
                }
            } catch (FrameException e) {
                close(e.getMessage() + mismatchHint(e, config.finalModel));
            } catch (AsynchronousCloseException e) {
                // closed by the watchdog, an eviction or the server: already said
            } catch (IOException | java.io.UncheckedIOException e) {
                close(closed.get() ? null : "connection error: " + e.getMessage());
            } catch (RuntimeException e) {
                close("exception: " + e);
            } finally {
                close(null);
                server.closed(this);
            }
        }
    }

    /** Whether the client's frame made no sense in the server's model: it gets the model notice (docs/format.md 7.4). */
    static boolean senseless(FrameException e) {
        switch (e.kind()) {
            case BAD_HEADER:
            case UNKNOWN_TYPE:
            case FRAME_TOO_SMALL:
                return true;
            default:
                return false;
        }
    }

    /** Names the likely cause of frames that make no sense: the two ends disagree on --final. */
    static String mismatchHint(FrameException e, boolean finalModel) {
        if (!senseless(e)) {
            return "";
        }
        return finalModel ? " (this server reads final-model frames: was the client started without --final?)"
                : " (this server reads versioned frames: was the client started with --final?)";
    }

    static void closeQuietly(java.nio.channels.Channel c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing: nothing left to do
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a client needs of the generated Client or FinalClient. */
    interface Requests {
        CompletableFuture<Pong> ping(Ping p);

        CompletableFuture<OrderAccepted> order(PlaceOrder o);

        void notice(Notice n) throws IOException;

        void receive(byte[] chunk, int offset, int length) throws FrameException;

        void reset();
    }

    static Requests client(OutputStream out, boolean finalModel) {
        Handler notify = new Handler() {
            @Override
            public void onMessage(Object value) {
                System.out.println("client: notification " + value);
            }
        };
        long timeout = 5000;
        if (finalModel) {
            FinalClient c = new FinalClient(out, notify);
            return new Requests() {
                public CompletableFuture<Pong> ping(Ping p) {
                    return c.request(p, timeout);
                }

                public CompletableFuture<OrderAccepted> order(PlaceOrder o) {
                    return c.request(o, timeout);
                }

                public void notice(Notice n) throws IOException {
                    c.request(n);
                }

                public void receive(byte[] chunk, int offset, int length) throws FrameException {
                    c.receive(chunk, offset, length);
                }

                public void reset() {
                    c.reset();
                }
            };
        }
        Client c = new Client(out, notify);
        return new Requests() {
            public CompletableFuture<Pong> ping(Ping p) {
                return c.request(p, timeout);
            }

            public CompletableFuture<OrderAccepted> order(PlaceOrder o) {
                return c.request(o, timeout);
            }

            public void notice(Notice n) throws IOException {
                c.request(n);
            }

            public void receive(byte[] chunk, int offset, int length) throws FrameException {
                c.receive(chunk, offset, length);
            }

            public void reset() {
                c.reset();
            }
        };
    }

    /** Runs the client against address; returns the number of problems. */
    static int connect(InetSocketAddress address, boolean finalModel, int messages) throws Exception {
        try (SocketChannel channel = SocketChannel.open(address)) {
            Requests client = client(Channels.newOutputStream(channel), finalModel);
            // Why the connection ended: a bad frame of the server, or its model notice naming both
            // models (docs/format.md 7.4).
            AtomicReference<String> why = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try {
                    ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
                    for (int n; (n = channel.read(buffer.clear())) > 0;) {
                        client.receive(buffer.array(), 0, n);
                    }
                    why.compareAndSet(null, "the server closed the connection before the response came");
                } catch (ClosedChannelException e) {
                    // the client closed the connection: while this thread read (an
                    // AsynchronousCloseException) or before it read again
                } catch (IOException | FrameException e) {
                    why.compareAndSet(null, e.getMessage());
                }
                client.reset();         // fails what is still pending at once
            }, "fbe-client-reader");
            reader.setDaemon(true);
            reader.start();
            try {
                int problems = converse(client, messages);
                // A graceful close: the server reads the end of the stream and closes its side, which
                // the reader sees. Closing at once could leave the server's last bytes unread here,
                // and the kernel would reset the connection: the server would log a reset.
                channel.shutdownOutput();
                reader.join(TimeUnit.SECONDS.toMillis(2));
                return problems;
            } catch (ExecutionException | CancellationException | TimeoutException e) {
                String reason = why.get();
                System.err.println("client: " + (reason != null ? reason : e.toString()));
                return 1;
            }
        }
    }

    /** The client's requests: every reply checked; returns the number of problems. */
    static int converse(Requests client, int messages) throws Exception {
        long start = System.nanoTime();
        List<CompletableFuture<Pong>> pongs = new ArrayList<>();
        List<Ping> pings = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            Ping p = new Ping();
            p.sequence = i;
            p.payload = "ping " + i;
            pings.add(p);
            pongs.add(client.ping(p));
        }
        int problems = 0;
        for (int i = 0; i < messages; i++) {
            Pong pong = pongs.get(i).get(10, TimeUnit.SECONDS);
            if (!pong.id.equals(pings.get(i).id) || pong.sequence != i || !pong.payload.equals("ping " + i)) {
                System.out.println("client: wrong pong " + pong);
                problems++;
            }
        }
        long micros = (System.nanoTime() - start) / 1000;
        System.out.println("client: " + messages + " pings answered in " + micros / 1000 + " ms");
        PlaceOrder good = new PlaceOrder();
        good.symbol = "EURUSD";
        good.side = Side.buy;
        good.price = 1.25;
        good.quantity = 100;
        OrderAccepted accepted = client.order(good).get(10, TimeUnit.SECONDS);
        System.out.println("client: accepted " + accepted);
        problems += accepted.quantity == 100 && accepted.id.equals(good.id) ? 0 : 1;
        PlaceOrder bad = new PlaceOrder();
        bad.symbol = "EURUSD";
        bad.quantity = -1;
        try {
            client.order(bad).get(10, TimeUnit.SECONDS);
            System.out.println("client: a bad order was accepted");
            problems++;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RejectException) {
                System.out.println("client: rejected " + ((RejectException) e.getCause()).value());
            } else {
                System.out.println("client: " + e.getCause());
                problems++;
            }
        }
        Notice notice = new Notice();
        notice.text = "bye";
        client.notice(notice);
        return problems;
    }

    /** The options of {@code serve}, or an exception naming the bad one. */
    static Config options(List<String> args, int[] port) {
        Config config = new Config();
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            if (option.equals("--final")) {
                config.finalModel = true;
                continue;
            }
            if (i + 1 == args.size()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args.get(++i);
            switch (option) {
                case "--port":
                    port[0] = whole(option, value, 0, 65535);
                    break;
                case "--max-connections":
                    config.maxConnections = whole(option, value, 1, Integer.MAX_VALUE);
                    break;
                case "--max-frame-size":
                    config.maxFrameSize = whole(option, value, 1, Integer.MAX_VALUE);
                    break;
                case "--idle-timeout":
                    config.idleTimeout = seconds(option, value);
                    break;
                case "--frame-timeout":
                    config.frameTimeout = seconds(option, value);
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + option);
            }
        }
        return config;
    }

    static int whole(String option, String value, int least, int most) {
        try {
            int n = Integer.parseInt(value);
            if (n >= least && n <= most) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " " + value + ": a whole number from " + least + " to " + most);
    }

    /** Seconds (fractions allowed) as nanoseconds. */
    static long seconds(String option, String value) {
        try {
            double s = Double.parseDouble(value);
            if (s >= 0 && s <= 1e9) {
                return Math.round(s * 1e9);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(option + " " + value + ": a number of seconds");
    }

    public static void main(String[] args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        int messages = Integer.parseInt(System.getenv().getOrDefault("MESSAGES", "100"));
        if (!a.isEmpty() && a.get(0).equals("serve")) {
            int[] port = {5000};
            Config config;
            try {
                config = options(a.subList(1, a.size()), port);
            } catch (IllegalArgumentException e) {
                System.err.println("TcpExample serve: " + e.getMessage());
                System.exit(2);
                return;
            }
            Server server = new Server(config, port[0]);
            InetSocketAddress at = server.address();
            System.out.println("listening on " + at.getAddress().getHostAddress() + ":" + at.getPort()
                    + (config.finalModel ? " (final-model frames)" : ""));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                System.out.println(server.counts());
            }, "fbe-shutdown"));
            server.serve();
            return;
        }
        boolean finalModel = a.remove("--final");
        if (!a.isEmpty() && a.get(0).equals("connect")) {
            String[] hp = a.get(1).split(":");
            System.exit(connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), finalModel, messages) == 0 ? 0 : 1);
        }
        int problems = 0;
        for (boolean fin : finalModel ? new boolean[] {true} : new boolean[] {false, true}) {
            Config config = new Config();
            config.finalModel = fin;
            try (Server server = new Server(config, 0)) {
                Thread t = new Thread(server::serve, "fbe-server");
                t.setDaemon(true);
                t.start();
                System.out.println("server: listening on " + server.address() + (fin ? " (final model)" : ""));
                problems += connect(server.address(), fin, messages);
            }
        }
        System.out.println(problems == 0 ? "tcp example: ok" : "tcp example: " + problems + " problems");
        System.exit(problems == 0 ? 0 : 1);
    }
}
