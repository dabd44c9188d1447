// The TCP example of the C# target: an rpc server and client (examples/cpp/tcp/rpc.fbe, generated with
// `fbec --csharp --final --proto` into gen/Rpc.cs) over System.Net.Sockets, a thread per connection.
//
//   mono TcpExample.exe                          a server on a free port and a client, in both models
//   mono TcpExample.exe serve [--port 5000] [--final] [--max-connections 256] [--max-frame-size 1048576]
//                             [--idle-timeout 60] [--frame-timeout 10]
//   mono TcpExample.exe connect 127.0.0.1:5000 [--final] [--messages 100]
//
// What a client cannot do to the server (docs/tcp-examples.md, the policy of every example server):
//   - make it buffer without bound: replies are written with blocking sends, so a client that does not read
//     them stops being read itself once the socket buffers are full (backpressure), and is dropped when a
//     send stalls for the idle timeout;
//   - make it allocate what it has not sent: a partial frame holds only the bytes received (Fbe.Receiver), and
//     a frame size above --max-frame-size drops the client;
//   - hold a connection forever: the idle timeout without a byte read closes it;
//   - hold a slot by sending slowly: a frame must be whole --frame-timeout after its first byte (the first
//     frame: after the accept), or the connection is closed;
//   - exhaust it with connections: at --max-connections a new connection takes the slot of the connection
//     that has waited longest for a frame to complete; when every open connection is between frames, the new
//     one is closed as soon as it is accepted (one message per episode).
// A bad frame drops its client with one message; the rest of what it sent is not processed. For a frame that
// makes no sense in the server's model the client first gets the model notice (docs/format.md 7.4).

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Fbe;
using Mono.Unix;
using Mono.Unix.Native;

namespace Examples
{
    /// <summary>The server's limits: every one is an option of <c>serve</c>.</summary>
    public sealed class Config
    {
        public int MaxConnections = 256;
        public long MaxFrameSize = 1 << 20;
        /// <summary>No byte read, or a reply send stalled, this long closes the connection; zero: never.</summary>
        public TimeSpan IdleTimeout = TimeSpan.FromSeconds(60);
        /// <summary>A frame not whole this long after its first byte (the first: after the accept); zero: never.</summary>
        public TimeSpan FrameTimeout = TimeSpan.FromSeconds(10);
        public bool Final;
    }

    /// <summary>Accepts connections and answers rpc requests: Ping with Pong, PlaceOrder with OrderAccepted (or
    /// OrderRejected when its symbol is empty or its quantity not positive), Notice with a Heartbeat.</summary>
    public sealed class Server
    {
        public const int ReadBufferSize = 64 << 10;

        private readonly Config _config;
        private readonly TcpListener _listener;
        private readonly Stopwatch _clock = Stopwatch.StartNew();
        private readonly object _lock = new object();
        private readonly HashSet<Connection> _open = new HashSet<Connection>();
        // One message per episode at MaxConnections: an episode ends when fewer than three quarters are open.
        private bool _evicting, _refusing, _closed;
        private long _sessions, _refused, _evicted, _requests;

        public Server(Config config, int port)
        {
            _config = config;
            _listener = new TcpListener(IPAddress.Loopback, port);
            _listener.Start(512);
        }

        public int Port { get { return ((IPEndPoint)_listener.LocalEndpoint).Port; } }

        /// <summary>The closing line of counts.</summary>
        public string Counts
        {
            get
            {
                return "server: " + Interlocked.Read(ref _sessions) + " session(s), " + Interlocked.Read(ref _refused)
                       + " refused over max_connections, " + Interlocked.Read(ref _evicted) + " evicted, "
                       + Interlocked.Read(ref _requests) + " requests, bye";
            }
        }

        /// <summary>Accepts connections until Close, a thread each.</summary>
        public void Serve()
        {
            while (true)
            {
                Socket socket;
                try
                {
                    socket = _listener.AcceptSocket();
                }
                catch (Exception) when (Volatile.Read(ref _closed))
                {
                    return;
                }
                catch (SocketException)
                {
                    Thread.Sleep(100);  // out of file descriptors and the like: retry shortly
                    continue;
                }
                var connection = Admit(socket);
                if (connection != null)
                    new Thread(connection.Run, 256 << 10) { IsBackground = true }.Start();
            }
        }

        /// <summary>Stops accepting and ends every connection.</summary>
        public void Close()
        {
            lock (_lock)
            {
                _closed = true;
                foreach (var c in _open)
                    c.End();
            }
            _listener.Stop();
        }

        /// <summary>A time of the server's clock, never 0 (0: a connection between frames).</summary>
        internal long Now { get { return _clock.ElapsedTicks + 1; } }

        internal TimeSpan Since(long time)
        {
            return TimeSpan.FromSeconds((double)(Now - time) / Stopwatch.Frequency);
        }

        internal void Log(string line)
        {
            Console.Error.WriteLine(line);
        }

        internal void Answered()
        {
            Interlocked.Increment(ref _requests);
        }

        /// <summary>Registers a new connection, at MaxConnections in the slot of the one that has waited longest for a
        /// frame; closes it when every open connection is between frames.</summary>
        private Connection Admit(Socket socket)
        {
            lock (_lock)
            {
                if (_closed)
                {
                    socket.Close();
                    return null;
                }
                int max = _config.MaxConnections;
                if (_open.Count >= max)
                {
                    Connection victim = null;
                    foreach (var c in _open)
                    {
                        long since = c.WaitingSince;
                        if (since != 0 && (victim == null || since < victim.WaitingSince))
                            victim = c;
                    }
                    if (victim != null)
                    {
                        _evicted++;
                        if (!_evicting)
                            Log("server: " + _open.Count + " connections open (max_connections): a new one evicts the one "
                                + "waiting longest for a frame");
                        _evicting = true;
                        _open.Remove(victim);  // its thread ends without a message
                        victim.End();
                    }
                }
                if (_open.Count >= max)
                {
                    _refused++;
                    if (!_refusing)
                        Log("server: " + _open.Count + " connections open (max_connections), each between frames: closing "
                            + "new ones until one ends");
                    _refusing = true;
                    socket.Close();
                    return null;
                }
                if (_open.Count < max - max / 4)
                    _evicting = _refusing = false;  // the episode is over
                var connection = new Connection(this, _config, socket);
                _open.Add(connection);
                _sessions++;
                return connection;
            }
        }

        internal void Forget(Connection c)
        {
            lock (_lock)
                _open.Remove(c);
        }
    }

    /// <summary>One client's connection: reads into a 64 KiB buffer, feeds Fbe.Receiver (any fragmentation), and
    /// answers through the generated Sender into a buffer sent after each read, so the replies to a burst of requests
    /// go out in a few sends.</summary>
    internal sealed class Connection
    {
        private readonly Server _server;
        private readonly Config _config;
        private readonly Socket _socket;
        private readonly string _peer;
        private readonly Fbe.Receiver _receiver;
        private readonly Rpc.Sender _sender;
        private readonly MemoryStream _replies = new MemoryStream();
        private long _waitingSince;  // since when a frame is due (the accept, a frame's first byte); 0: between frames
        private int _frames;
        private string _drop;        // why the connection ends, from the receiver
        private bool _notice;        // the client's frame made no sense: send it the model notice
        private volatile bool _ended;

        public Connection(Server server, Config config, Socket socket)
        {
            _server = server;
            _config = config;
            _socket = socket;
            _peer = socket.RemoteEndPoint.ToString();
            _waitingSince = server.Now;
            bool final = config.Final;
            _receiver = new Fbe.Receiver(final, new Limits { MaxFrameSize = config.MaxFrameSize })
            {
                Message = Handle,
                Error = Refuse,
            };
            _receiver.Register(Rpc.Ping.TypeId, "rpc.Ping", final ? (Func<byte[], int, Limits, object>)Rpc.Ping.FromFinal : Rpc.Ping.FromFbe);
            _receiver.Register(Rpc.PlaceOrder.TypeId, "rpc.PlaceOrder",
                final ? (Func<byte[], int, Limits, object>)Rpc.PlaceOrder.FromFinal : Rpc.PlaceOrder.FromFbe);
            _receiver.Register(Rpc.Notice.TypeId, "rpc.Notice", final ? (Func<byte[], int, Limits, object>)Rpc.Notice.FromFinal : Rpc.Notice.FromFbe);
            _sender = new Rpc.Sender(final, (b, offset, count) =>
            {
                _replies.Write(b, offset, count);
                return count;
            });
        }

        public long WaitingSince { get { return Interlocked.Read(ref _waitingSince); } }

        /// <summary>Ends the connection from another thread (eviction, Close): its thread ends without a message.</summary>
        public void End()
        {
            _ended = true;
            try
            {
                _socket.Shutdown(SocketShutdown.Both);
            }
            catch (Exception e) when (e is SocketException || e is ObjectDisposedException)
            {
                // already closed
            }
        }

        private void Handle(string name, object message)
        {
            _frames++;
            try
            {
                var ping = message as Rpc.Ping;
                var order = message as Rpc.PlaceOrder;
                var notice = message as Rpc.Notice;
                if (ping != null)
                    _sender.Send(new Rpc.Pong { Id = ping.Id, Sequence = ping.Sequence, Payload = ping.Payload });
                else if (order != null && order.Symbol.Length == 0)
                    _sender.Send(new Rpc.OrderRejected { Id = order.Id, Reason = "empty symbol" });
                else if (order != null && !(order.Quantity > 0))
                    _sender.Send(new Rpc.OrderRejected { Id = order.Id, Reason = "quantity must be positive" });
                else if (order != null)
                    _sender.Send(new Rpc.OrderAccepted { Id = order.Id, Order = _frames, Price = order.Price, Quantity = order.Quantity });
                else if (notice != null)
                    _sender.Send(new Rpc.Heartbeat { Time = new Timestamp((ulong)notice.Text.Length) });
                _server.Answered();
            }
            catch (Exception e)  // a handler's exception ends this connection only
            {
                _drop = "handling " + name + ": " + e.Message;
                _receiver.Stop();
            }
        }

        private void Refuse(string reason)
        {
            _receiver.Stop();  // the rest of what the client sent is not processed
            string hint = _config.Final
                ? " (this server reads final-model frames: was the client started without --final?)"
                : " (this server reads versioned frames: was the client started with --final?)";
            switch (_receiver.LastError)
            {
                case FrameError.TooLarge:
                    _drop = "frame too large: a frame size above the maximum " + _config.MaxFrameSize + " bytes";
                    break;
                case FrameError.UnknownType:
                    _drop = "unknown type: " + reason + hint;
                    _notice = true;
                    break;
                case FrameError.BadHeader:
                case FrameError.TooSmall:
                    _drop = reason + hint;
                    _notice = true;
                    break;
                case FrameError.ModelNotice:
                    _drop = "the client refused our frames: " + reason;
                    break;
                default:
                    _drop = "bad frame: " + reason;
                    break;
            }
        }

        private void Drop(string reason)
        {
            _server.Log("server: " + _peer + ": dropping the connection: " + reason);
        }

        public void Run()
        {
            try
            {
                _socket.NoDelay = true;
                _socket.SendTimeout = Milliseconds(_config.IdleTimeout);
                Serve();
            }
            catch (Exception e) when (_ended && (e is SocketException || e is ObjectDisposedException))
            {
                // evicted, or the server closes
            }
            finally
            {
                _server.Forget(this);
                _socket.Close();
            }
        }

        private static int Milliseconds(TimeSpan t)
        {
            return t <= TimeSpan.Zero ? 0 : (int)Math.Max(1, Math.Ceiling(Math.Min(t.TotalMilliseconds, int.MaxValue)));
        }

        private void Serve()
        {
            var buffer = new byte[Server.ReadBufferSize];
            bool framed = false;  // a frame completed
            while (true)
            {
                // The read waits the idle timeout at most, and no longer than the frame waited for is due.
                bool idle = _config.IdleTimeout > TimeSpan.Zero;
                TimeSpan wait = _config.IdleTimeout;
                long since = WaitingSince;
                bool frameDue = since != 0 && _config.FrameTimeout > TimeSpan.Zero;
                if (frameDue)
                {
                    TimeSpan left = _config.FrameTimeout - _server.Since(since);
                    if (!idle || left < wait)
                        wait = left;
                    frameDue = !idle || left < _config.IdleTimeout;  // the frame's deadline comes first
                }
                int n = 0;
                bool timedOut = (idle || frameDue) && wait <= TimeSpan.Zero;
                if (!timedOut)
                {
                    _socket.ReceiveTimeout = idle || frameDue ? Milliseconds(wait) : 0;
                    try
                    {
                        n = _socket.Receive(buffer);
                    }
                    catch (SocketException e) when (e.SocketErrorCode == SocketError.TimedOut || e.SocketErrorCode == SocketError.WouldBlock)
                    {
                        timedOut = true;
                    }
                }
                if (timedOut)
                {
                    if (_ended)
                        return;
                    if (!frameDue)
                        Drop("idle for " + Seconds(_config.IdleTimeout) + " (nothing read)");
                    else if (_server.Since(since) >= _config.FrameTimeout)
                        Drop("frame timeout: no whole frame " + Seconds(_config.FrameTimeout) + " after "
                             + (framed ? "its first byte" : "the connection opened"));
                    else
                        continue;  // woke a moment early
                    return;
                }
                if (n == 0)
                    return;  // the client left, or evicted
                int frames = _frames;
                _receiver.Receive(buffer, 0, n);
                // A frame completed: the wait for the next one begins with its first byte.
                if (_frames > frames)
                {
                    framed = true;
                    Interlocked.Exchange(ref _waitingSince, _receiver.Pending > 0 ? _server.Now : 0);
                }
                else if (WaitingSince == 0)
                    Interlocked.Exchange(ref _waitingSince, _server.Now);
                if (!SendReplies())
                    return;
                if (_drop != null)
                {
                    Drop(_drop);
                    if (_notice)
                        SendNotice();
                    return;
                }
            }
        }

        /// <summary>Sends the replies of the last read; false when the client does not read them.</summary>
        private bool SendReplies()
        {
            if (_replies.Length == 0)
                return true;
            try
            {
                _socket.Send(_replies.GetBuffer(), 0, (int)_replies.Length, SocketFlags.None);
                _replies.SetLength(0);
                return true;
            }
            catch (SocketException e) when (!_ended)
            {
                if (e.SocketErrorCode == SocketError.TimedOut || e.SocketErrorCode == SocketError.WouldBlock)
                    Drop("replies not read for " + Seconds(_config.IdleTimeout) + " (the client does not read them)");
                else if (e.SocketErrorCode != SocketError.ConnectionReset && e.SocketErrorCode != SocketError.Shutdown)
                    Drop("sending: " + e.Message);
                return false;
            }
        }

        /// <summary>The model notice after the replies sent so far, then the sending side closed. Closing with the client's
        /// bytes unread would reset the connection and the client would lose the notice: what arrives is read and dropped
        /// until the client closes, a second at most.</summary>
        private void SendNotice()
        {
            try
            {
                _socket.SendTimeout = 1000;
                _socket.Send(BitConverter.GetBytes(_config.Final ? 2u : 1u));
                _socket.Shutdown(SocketShutdown.Send);
                var sink = new byte[4096];
                var deadline = Stopwatch.StartNew();
                while (deadline.ElapsedMilliseconds < 1000)
                {
                    _socket.ReceiveTimeout = (int)Math.Max(1, 1000 - deadline.ElapsedMilliseconds);
                    if (_socket.Receive(sink) == 0)
                        return;
                }
            }
            catch (SocketException)
            {
                // the client is gone, or the second is over
            }
        }

        private static string Seconds(TimeSpan t)
        {
            return t.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture) + " s";
        }
    }

    /// <summary>The example's client: the generated Rpc.Client over a socket, a thread feeding it what the server
    /// sends.</summary>
    public static class ClientRun
    {
        /// <summary>Pings (all in flight at once, every Pong checked), an order accepted, one rejected, a Notice and
        /// its Heartbeat; returns what happened, or throws why not.</summary>
        public static string Run(string host, int port, bool final, int messages)
        {
            using (var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            {
                socket.NoDelay = true;
                socket.Connect(host, port);
                string ended = null;  // why the stream ended: the server's model notice
                int heartbeats = 0;
                var client = new Rpc.Client(final, Limits.Default, (b, offset, count) =>
                {
                    socket.Send(b, offset, count, SocketFlags.None);
                    return count;
                });
                client.OnError += reason => ended = client.Receiver.Stopped ? reason : ended;
                client.OnHeartbeat += h => Interlocked.Increment(ref heartbeats);
                var reader = new Thread(() =>
                {
                    var buffer = new byte[64 << 10];
                    try
                    {
                        int n;
                        while ((n = socket.Receive(buffer)) > 0)
                            client.Receive(buffer, 0, n);
                    }
                    catch (SocketException)
                    {
                        // the connection ended: Reset fails what is pending
                    }
                    client.Reset();
                }) { IsBackground = true };
                reader.Start();
                var timeout = TimeSpan.FromSeconds(10);
                try
                {
                    var clock = Stopwatch.StartNew();
                    var pongs = new List<Task<Rpc.Pong>>();
                    for (int i = 0; i < messages; i++)
                        pongs.Add(client.RequestAsync(new Rpc.Ping { Sequence = i, Payload = "ping " + i }, timeout));
                    for (int i = 0; i < messages; i++)
                        if (pongs[i].GetAwaiter().GetResult().Sequence != i)
                            throw new InvalidDataException("a Pong of another sequence for Ping " + i);
                    double ms = clock.Elapsed.TotalMilliseconds;
                    var accepted = client.RequestAsync(new Rpc.PlaceOrder
                    {
                        Symbol = "EURUSD", Side = Rpc.Side.Buy, Price = 1.0845, Quantity = 1000,
                    }, timeout).GetAwaiter().GetResult();
                    string rejected = "not rejected";
                    try
                    {
                        client.RequestAsync(new Rpc.PlaceOrder { Symbol = "EURUSD", Side = Rpc.Side.Sell, Price = 1.0845 }, timeout)
                            .GetAwaiter().GetResult();
                    }
                    catch (RejectException e)
                    {
                        rejected = ((Rpc.OrderRejected)e.Value).Reason;
                    }
                    client.Request(new Rpc.Notice { Text = "hello" });
                    var due = Stopwatch.StartNew();
                    while (Volatile.Read(ref heartbeats) < 1 && due.Elapsed < timeout && reader.IsAlive)
                        Thread.Sleep(5);
                    if (Volatile.Read(ref heartbeats) < 1)
                        throw new TimeoutException("no Heartbeat for the Notice");
                    return (final ? "final" : "versioned") + ": " + messages + " pings in " + ms.ToString("0.0", CultureInfo.InvariantCulture)
                           + " ms, order " + accepted.Order + " accepted at " + accepted.Price.ToString(CultureInfo.InvariantCulture)
                           + ", one rejected (" + rejected + "), " + heartbeats + " heartbeat";
                }
                catch (Exception e) when (!(e is InvalidDataException))
                {
                    reader.Join(2000);  // the server's model notice may be on its way
                    if (ended != null)
                        throw new IOException(ended);
                    throw;
                }
                finally
                {
                    try
                    {
                        socket.Shutdown(SocketShutdown.Send);
                    }
                    catch (SocketException)
                    {
                        // already gone
                    }
                    reader.Join(2000);
                }
            }
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            Console.SetOut(TextWriter.Synchronized(new StreamWriter(Console.OpenStandardOutput()) { AutoFlush = true }));
            Console.SetError(TextWriter.Synchronized(new StreamWriter(Console.OpenStandardError()) { AutoFlush = true }));
            var positional = new List<string>();
            var config = new Config();
            int port = 5000, messages = 100;
            try
            {
                for (int i = 0; i < args.Length; i++)
                {
                    switch (args[i])
                    {
                        case "--final": config.Final = true; break;
                        case "--port": port = Whole(args[++i], 0); break;
                        case "--messages": messages = Whole(args[++i], 1); break;
                        case "--max-connections": config.MaxConnections = Whole(args[++i], 1); break;
                        case "--max-frame-size": config.MaxFrameSize = Whole(args[++i], 1); break;
                        case "--idle-timeout": config.IdleTimeout = Duration(args[++i]); break;
                        case "--frame-timeout": config.FrameTimeout = Duration(args[++i]); break;
                        default:
                            if (args[i].StartsWith("--", StringComparison.Ordinal))
                                throw new ArgumentException("unknown option " + args[i]);
                            positional.Add(args[i]);
                            break;
                    }
                }
            }
            catch (Exception e) when (e is ArgumentException || e is IndexOutOfRangeException)
            {
                Console.Error.WriteLine("usage: TcpExample.exe [serve [--port N] [--final] [--max-connections N] [--max-frame-size B] "
                                        + "[--idle-timeout S] [--frame-timeout S] | connect HOST:PORT [--final] [--messages N]] ("
                                        + e.Message + ")");
                return 2;
            }
            string command = positional.Count > 0 ? positional[0] : null;
            if (command == "serve")
                return Serve(config, port);
            if (command == "connect")
            {
                string address = positional.Count > 1 ? positional[1] : "127.0.0.1:5000";
                int colon = address.LastIndexOf(':');
                try
                {
                    Console.WriteLine(ClientRun.Run(address.Substring(0, colon), int.Parse(address.Substring(colon + 1), CultureInfo.InvariantCulture),
                                                    config.Final, messages));
                    return 0;
                }
                catch (Exception e)
                {
                    Console.Error.WriteLine("client: " + e.Message);
                    return 1;
                }
            }
            foreach (bool final in new[] { false, true })
            {
                var server = new Server(new Config { Final = final }, 0);
                new Thread(server.Serve) { IsBackground = true }.Start();
                Console.WriteLine(ClientRun.Run("127.0.0.1", server.Port, final, messages));
                server.Close();
            }
            return 0;
        }

        private static int Serve(Config config, int port)
        {
            var server = new Server(config, port);
            Console.WriteLine("listening on 127.0.0.1:" + server.Port + (config.Final ? " (final-model frames)" : ""));
            var signals = new[] { new UnixSignal(Signum.SIGTERM), new UnixSignal(Signum.SIGINT) };
            new Thread(server.Serve) { IsBackground = true }.Start();
            UnixSignal.WaitAny(signals);
            server.Close();
            Console.WriteLine(server.Counts);
            return 0;
        }

        private static int Whole(string text, int least)
        {
            int n;
            if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out n) || n < least)
                throw new ArgumentException(text + " is not a whole number of at least " + least);
            return n;
        }

        private static TimeSpan Duration(string text)
        {
            double seconds;
            if (!double.TryParse(text, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out seconds) || seconds > 1e9)
                throw new ArgumentException(text + " is not a number of seconds");
            return TimeSpan.FromSeconds(seconds);
        }
    }
}
