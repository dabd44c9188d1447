// Package tcp is the TCP example of the Go target: an rpc server and client
// (../cpp/tcp/rpc.fbe, generated with `fbec --go --final --proto` into
// ../gen/rpc) over the standard library's net package.
//
// The server runs one goroutine per connection. It reads into a 64 KiB
// buffer, feeds what arrives to the generated Receiver (any fragmentation),
// and the handlers answer through the generated Sender into a bufio.Writer
// flushed after each read, so the replies to a burst of requests go out in
// a few writes. What a client cannot do to the server (Config):
//
//   - make it buffer without bound: replies are written with blocking
//     writes, so a client that does not read its replies stops being read
//     itself once the socket buffers are full (backpressure), and is dropped
//     when a write stalls for IdleTimeout;
//   - make it allocate what it has not sent: a partial frame holds only the
//     bytes received, and a frame size above MaxFrameSize drops the client
//     (fbe.Receiver, docs/limits.md 6);
//   - hold a connection forever: IdleTimeout without a byte read closes it;
//   - exhaust it with connections: above MaxConnections a new connection is
//     closed as soon as it is accepted (one message per episode).
//
// A bad frame (too large, too small, unknown type, a body that does not
// decode) drops the client with one message; the rest of what it sent is
// not processed.
package tcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fbe-toolkit/fbe/examples/go/gen/rpc"
	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// ReadBufferSize is the bytes of each socket read (one buffer per connection).
const ReadBufferSize = 64 << 10

// Config is the server's limits; every one is a flag of `go run ./cmd/tcp -serve`.
type Config struct {
	// MaxConnections open at once; one more is closed right after accept.
	MaxConnections int
	// MaxFrameSize is the largest accepted frame (a request): a client declaring more is dropped.
	// The rpc messages are small, so well below the Receiver's own 64 MiB default.
	MaxFrameSize int
	// IdleTimeout closes a connection with no byte read for this long, or whose reply
	// writes stall this long (a client that does not read); 0 = never.
	IdleTimeout time.Duration
	// Final: speak final-model frames (the client must too).
	Final bool
	// Logf reports why a connection was dropped (nil: the standard logger on stderr).
	Logf func(format string, args ...any)
}

// DefaultConfig is the server's defaults.
var DefaultConfig = Config{MaxConnections: 256, MaxFrameSize: 1 << 20, IdleTimeout: 60 * time.Second}

// Server accepts connections and answers rpc requests: Ping with Pong, PlaceOrder with
// OrderAccepted (or OrderRejected when its quantity is not positive or its symbol empty),
// Notice with a Heartbeat.
type Server struct {
	cfg      Config
	ln       net.Listener
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	atLimit  bool
	closed   bool
	sessions atomic.Int64
	refused  atomic.Int64
	requests atomic.Int64
}

// Listen starts a server on addr ("127.0.0.1:0" picks a free port); Serve accepts.
func Listen(addr string, cfg Config) (*Server, error) {
	if cfg.MaxConnections <= 0 || cfg.MaxFrameSize <= 0 {
		return nil, errors.New("MaxConnections and MaxFrameSize must be positive")
	}
	if cfg.Logf == nil {
		logger := log.New(os.Stderr, "", 0)
		cfg.Logf = logger.Printf
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Server{cfg: cfg, ln: ln, conns: map[net.Conn]struct{}{}}, nil
}

// Addr is where the server listens.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Sessions, Refused and Requests count the connections served, those refused over
// MaxConnections and the requests answered.
func (s *Server) Sessions() int64 { return s.sessions.Load() }

// Refused is the number of connections closed over MaxConnections.
func (s *Server) Refused() int64 { return s.refused.Load() }

// Requests is the number of requests answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Open is the number of connections open now (served, not yet ended).
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

// Serve accepts connections until Close; once (the -once flag) stops after the first
// connection and returns when it ends.
func (s *Server) Serve(once bool) error {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(100 * time.Millisecond) // out of file descriptors and the like: retry shortly
				continue
			}
			return err
		}
		if !s.admit(conn) {
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(conn)
		}()
		if once {
			_ = s.ln.Close()
			s.wg.Wait()
			return nil
		}
	}
}

// admit registers conn, or closes it over MaxConnections.
func (s *Server) admit(conn net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.conns) >= s.cfg.MaxConnections || s.closed {
		s.refused.Add(1)
		if !s.atLimit { // one message per episode, not one per refused connection
			s.cfg.Logf("server: %d connections open (max_connections): closing new ones until one ends", len(s.conns))
		}
		s.atLimit = true
		_ = conn.Close()
		return false
	}
	s.atLimit = false
	s.conns[conn] = struct{}{}
	s.sessions.Add(1)
	return true
}

// Close stops accepting, closes every connection and waits for their goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

// replier is what a session sends: rpc.Sender or rpc.FinalSender.
type replier interface {
	SendPong(*rpc.Pong) (int, error)
	SendOrderAccepted(*rpc.OrderAccepted) (int, error)
	SendOrderRejected(*rpc.OrderRejected) (int, error)
	SendHeartbeat(*rpc.Heartbeat) (int, error)
}

// session is the Handler of one connection's Receiver.
type session struct {
	rpc.BaseHandler
	server *Server
	out    replier
	err    error // the first write error
	orders int64
}

func (h *session) sent(_ int, err error) {
	if err != nil && h.err == nil {
		h.err = err
	}
	h.server.requests.Add(1)
}

func (h *session) OnPing(v *rpc.Ping) {
	h.sent(h.out.SendPong(&rpc.Pong{Id: v.Id, Sequence: v.Sequence, Payload: v.Payload}))
}

func (h *session) OnPlaceOrder(v *rpc.PlaceOrder) {
	switch {
	case v.Symbol == "":
		h.sent(h.out.SendOrderRejected(&rpc.OrderRejected{Id: v.Id, Reason: "empty symbol"}))
	case v.Quantity <= 0:
		h.sent(h.out.SendOrderRejected(&rpc.OrderRejected{Id: v.Id, Reason: "quantity must be positive"}))
	default:
		h.orders++
		h.sent(h.out.SendOrderAccepted(&rpc.OrderAccepted{Id: v.Id, Order: h.orders, Price: v.Price, Quantity: v.Quantity}))
	}
}

func (h *session) OnNotice(v *rpc.Notice) {
	h.sent(h.out.SendHeartbeat(&rpc.Heartbeat{Time: fbe.Timestamp(len(v.Text))}))
}

// deadlineWriter gives every write to the connection IdleTimeout to complete.
type deadlineWriter struct {
	conn    net.Conn
	timeout time.Duration
}

func (w deadlineWriter) Write(p []byte) (int, error) {
	if w.timeout > 0 {
		_ = w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
	}
	return w.conn.Write(p)
}

func (s *Server) serve(conn net.Conn) {
	defer func() {
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
		_ = conn.Close()
	}()
	peer := conn.RemoteAddr().String()
	drop := func(format string, args ...any) {
		s.cfg.Logf("server: %s: dropping the connection: %s", peer, fmt.Sprintf(format, args...))
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	out := bufio.NewWriterSize(deadlineWriter{conn, s.cfg.IdleTimeout}, ReadBufferSize)
	lim := fbe.DefaultLimits
	lim.MaxFrameSize = s.cfg.MaxFrameSize
	h := &session{server: s}
	var in interface{ Receive([]byte) error }
	if s.cfg.Final {
		h.out = rpc.NewFinalSender(out)
		r := rpc.NewFinalReceiver(h)
		r.Limits = &lim
		in = r
	} else {
		h.out = rpc.NewSender(out)
		r := rpc.NewReceiver(h)
		r.Limits = &lim
		in = r
	}
	buf := make([]byte, ReadBufferSize)
	for {
		if s.cfg.IdleTimeout > 0 {
			_ = conn.SetReadDeadline(time.Now().Add(s.cfg.IdleTimeout))
		}
		n, err := conn.Read(buf)
		if n > 0 {
			if ferr := in.Receive(buf[:n]); ferr != nil {
				drop("%v%s", ferr, mismatchHint(ferr, s.cfg.Final))
				return
			}
			if h.err == nil {
				h.err = out.Flush()
			}
			if h.err != nil {
				if errors.Is(h.err, os.ErrDeadlineExceeded) {
					drop("replies not read for %v (the client does not read them)", s.cfg.IdleTimeout)
				} else if !errors.Is(h.err, net.ErrClosed) {
					drop("writing: %v", h.err)
				}
				return
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
			return // the client left, or Close
		case errors.Is(err, os.ErrDeadlineExceeded):
			drop("idle for %v (nothing read)", s.cfg.IdleTimeout)
			return
		default:
			drop("reading: %v", err)
			return
		}
	}
}

// mismatchHint names the likely cause of frames that make no sense: the two ends disagree on -final.
func mismatchHint(err error, final bool) string {
	var fe *fbe.FrameError
	if !errors.As(err, &fe) || (fe.Kind != fbe.BadHeader && fe.Kind != fbe.UnknownType && fe.Kind != fbe.FrameTooSmall) {
		return ""
	}
	if final {
		return " (this server reads final-model frames: was the client started without -final?)"
	}
	return " (this server reads versioned frames: was the client started with -final?)"
}
