// The Java TCP example (docs/java.md "Protocol"): a server and a client of the generated rpc
// protocol (fbec --java --final --proto of examples/cpp/tcp/rpc.fbe) over java.nio socket
// channels, one thread per connection. Reads go through SocketChannel.read and writes through
// Channels.newOutputStream: a channel's InputStream and OutputStream from Channels share one lock,
// so a thread blocked reading would stop the replies.
//
//   java TcpExample                      a server on a free port of 127.0.0.1 and a client against it
//   java TcpExample serve PORT           the server alone
//   java TcpExample connect HOST:PORT    the client alone
//   add "final" to use final-model frames (both sides must agree)
//
// The server answers each Ping with a Pong of its id, accepts a PlaceOrder (OrderAccepted) or
// rejects it when its quantity is not positive (OrderRejected), prints each Notice and drops a
// client that sends a bad frame or a frame above 1 MiB. The client sends MESSAGES pings (100 by
// default), one good and one bad order and a notice, checks every answer and exits 1 on any
// problem.

import io.github.fbetoolkit.fbe.FrameException;
import io.github.fbetoolkit.fbe.FrameReceiver;
import io.github.fbetoolkit.fbe.Limits;
import io.github.fbetoolkit.fbe.RejectException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import rpc.Client;
import rpc.FinalClient;
import rpc.FinalReceiver;
import rpc.FinalSender;
import rpc.Handler;
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
            } else {
                s.send((OrderRejected) m);
            }
        };
    }

    /** One connection: read frames, answer through the Sender, drop the client on a bad frame. */
    static void serveConnection(SocketChannel channel, boolean finalModel) {
        try (channel) {
            OutputStream out = Channels.newOutputStream(channel);
            Reply reply = replies(out, finalModel);
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
                }

                void answer(Object message) {
                    try {
                        reply.send(message);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            };
            FrameReceiver receiver = finalModel ? new FinalReceiver(handler) : new Receiver(handler);
            receiver.limits(Limits.DEFAULT.withMaxFrameSize(1 << 20));
            ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
            for (int n; (n = channel.read(buffer.clear())) > 0;) {
                receiver.receive(buffer.array(), 0, n);
            }
        } catch (FrameException e) {
            System.out.println("server: client dropped: " + e.getMessage());
        } catch (IOException | java.io.UncheckedIOException e) {
            System.out.println("server: connection closed: " + e.getMessage());
        }
    }

    static void serve(ServerSocketChannel server, boolean finalModel) {
        while (server.isOpen()) {
            try {
                SocketChannel channel = server.accept();
                Thread t = new Thread(() -> serveConnection(channel, finalModel), "fbe-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;         // closed
            }
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
            Thread reader = new Thread(() -> {
                try {
                    ByteBuffer buffer = ByteBuffer.allocate(64 << 10);
                    for (int n; (n = channel.read(buffer.clear())) > 0;) {
                        client.receive(buffer.array(), 0, n);
                    }
                } catch (AsynchronousCloseException e) {
                    // the client closed the connection
                } catch (IOException | FrameException e) {
                    System.out.println("client: " + e);
                }
                client.reset();         // fails what is still pending at once
            }, "fbe-client-reader");
            reader.setDaemon(true);
            reader.start();
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
    }

    public static void main(String[] args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        boolean finalModel = a.remove("final");
        int messages = Integer.parseInt(System.getenv().getOrDefault("MESSAGES", "100"));
        if (!a.isEmpty() && a.get(0).equals("serve")) {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(a.get(1))));
            System.out.println("server: listening on " + server.getLocalAddress() + (finalModel ? " (final)" : ""));
            serve(server, finalModel);
            return;
        }
        if (!a.isEmpty() && a.get(0).equals("connect")) {
            String[] hp = a.get(1).split(":");
            System.exit(connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), finalModel, messages) == 0 ? 0 : 1);
        }
        int problems = 0;
        for (boolean fin : finalModel ? new boolean[] {true} : new boolean[] {false, true}) {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress("127.0.0.1", 0));
                Thread t = new Thread(() -> serve(server, fin), "fbe-server");
                t.setDaemon(true);
                t.start();
                System.out.println("server: listening on " + server.getLocalAddress() + (fin ? " (final model)" : ""));
                problems += connect((InetSocketAddress) server.getLocalAddress(), fin, messages);
            }
        }
        System.out.println(problems == 0 ? "tcp example: ok" : "tcp example: " + problems + " problems");
        System.exit(problems == 0 ? 0 : 1);
    }
}
