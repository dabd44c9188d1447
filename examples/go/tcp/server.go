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
//   - hold a slot by sending slowly: a frame must be whole FrameTimeout after
//     its first byte (the first frame: after the accept), or the connection
//     is closed;
//   - exhaust it with connections: at MaxConnections a new connection takes
//     the slot of the connection that has waited longest for a frame to
//     complete; when every open connection is between frames, the new one is
//     closed as soon as it is accepted (one message per episode).
//
// The policy is the same in every language's example: docs/tcp-examples.md.
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
	// MaxConnections open at once; one more evicts the connection waiting longest for a frame,
	// or is closed right after accept when every one is between frames.
	MaxConnections int
	// MaxFrameSize is the largest accepted frame (a request): a client declaring more is dropped.
	// The rpc messages are small, so well below the Receiver's own 64 MiB default.
	MaxFrameSize int
	// IdleTimeout closes a connection with no byte read for this long, or whose reply
	// writes stall this long (a client that does not read); 0 = never.
	IdleTimeout time.Duration
	// FrameTimeout closes a connection whose frame is not whole this long after its first byte
	// (the first frame: after the accept); 0 = never.
	FrameTimeout time.Duration
	// Final: speak final-model frames (the client must too).
	Final bool
	// Logf reports why a connection was dropped (nil: the standard logger on stderr).
	Logf func(format string, args ...any)
}

// DefaultConfig is the server's defaults.
var DefaultConfig = Config{MaxConnections: 256, MaxFrameSize: 1 << 20, IdleTimeout: 60 * time.Second,
	FrameTimeout: 10 * time.Second}

// Server accepts connections and answers rpc requests: Ping with Pong, PlaceOrder with
// OrderAccepted (or OrderRejected when its quantity is not positive or its symbol empty),
// Notice with a Heartbeat.
type Server struct {
	cfg   Config
	ln    net.Listener
	epoch time.Time // the clock of waiting.since
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]*waiting
	// One message per episode at MaxConnections for each, not one per connection: an episode
	// ends when fewer than three quarters of MaxConnections are open.
	evicting, refusing bool
	closed             bool
	sessions           atomic.Int64
	refused            atomic.Int64
	evicted            atomic.Int64
	requests           atomic.Int64
}

// waiting is since when a connection waits for a frame to complete (its accept, or the frame's
// first byte), as Server.monotonic; 0 when it is between frames.
type waiting struct{ since atomic.Int64 }

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
	return &Server{cfg: cfg, ln: ln, epoch: time.Now(), conns: map[net.Conn]*waiting{}}, nil
}

// Addr is where the server listens.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Sessions, Refused and Requests count the connections served, those refused over
// MaxConnections and the requests answered.
func (s *Server) Sessions() int64 { return s.sessions.Load() }

// Refused is the number of connections closed over MaxConnections.
func (s *Server) Refused() int64 { return s.refused.Load() }

// Evicted is the number of connections closed at MaxConnections for a new one.
func (s *Server) Evicted() int64 { return s.evicted.Load() }

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
		w := s.admit(conn)
		if w == nil {
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serve(conn, w)
		}()
		if once {
			_ = s.ln.Close()
			s.wg.Wait()
			return nil
		}
	}
}

// admit registers conn, at MaxConnections in the slot of the connection that has waited longest
// for a frame; it closes conn when every open connection is between frames. The new connection
// waits for its first frame from now.
func (s *Server) admit(conn net.Conn) *waiting {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = conn.Close()
		return nil
	}
	if len(s.conns) >= s.cfg.MaxConnections {
		if victim := s.slowest(); victim != nil {
			s.evicted.Add(1)
			if !s.evicting {
				s.cfg.Logf("server: %d connections open (max_connections): a new one evicts the one waiting longest for a frame",
					len(s.conns))
			}
			s.evicting = true
			delete(s.conns, victim) // its goroutine ends without a message: its reads fail with net.ErrClosed
			_ = victim.Close()
		}
	}
	if len(s.conns) >= s.cfg.MaxConnections {
		s.refused.Add(1)
		if !s.refusing {
			s.cfg.Logf("server: %d connections open (max_connections), each between frames: closing new ones until one ends",
				len(s.conns))
		}
		s.refusing = true
		_ = conn.Close()
		return nil
	}
	if len(s.conns) < s.cfg.MaxConnections-s.cfg.MaxConnections/4 {
		s.evicting, s.refusing = false, false // the episode is over
	}
	w := &waiting{}
	w.since.Store(s.monotonic())
	s.conns[conn] = w
	s.sessions.Add(1)
	return w
}

// slowest is the open connection that has waited longest for a frame, or nil when every one is
// between frames. s.mu is held.
func (s *Server) slowest() net.Conn {
	var victim net.Conn
	var oldest int64
	for c, w := range s.conns {
		if since := w.since.Load(); since != 0 && (victim == nil || since < oldest) {
			victim, oldest = c, since
		}
	}
	return victim
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

// monotonic is a time of s's clock in nanoseconds, never 0 (0 means "between frames").
func (s *Server) monotonic() int64 { return int64(time.Since(s.epoch)) + 1 }

func (s *Server) serve(conn net.Conn, w *waiting) {
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
	var in interface {
		Receive([]byte) error
		Pending() int
	}
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
	framed := false // a frame completed
	for {
		// The read waits IdleTimeout at most, and no longer than the frame waited for is due.
		var deadline, frameDue time.Time
		if s.cfg.IdleTimeout > 0 {
			deadline = time.Now().Add(s.cfg.IdleTimeout)
		}
		if since := w.since.Load(); since != 0 && s.cfg.FrameTimeout > 0 {
			frameDue = s.epoch.Add(time.Duration(since-1) + s.cfg.FrameTimeout)
			if deadline.IsZero() || frameDue.Before(deadline) {
				deadline = frameDue
			}
		}
		_ = conn.SetReadDeadline(deadline)
		n, err := conn.Read(buf)
		if n > 0 {
			unfinished := in.Pending() + n // pending after this read if no frame completes
			if ferr := in.Receive(buf[:n]); ferr != nil {
				drop("%v%s", ferr, mismatchHint(ferr, s.cfg.Final))
				if senseless(ferr) {
					s.notice(conn, out)
				}
				return
			}
			// A frame completed when fewer bytes are pending; the wait for the next one begins
			// with its first byte.
			if pending := in.Pending(); pending < unfinished {
				framed = true
				if pending > 0 {
					w.since.Store(s.monotonic())
				} else {
					w.since.Store(0)
				}
			} else if w.since.Load() == 0 {
				w.since.Store(s.monotonic())
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
			return // the client left, Close, or evicted
		case errors.Is(err, os.ErrDeadlineExceeded) && !frameDue.IsZero() && !time.Now().Before(frameDue):
			after := "the connection opened"
			if framed {
				after = "its first byte"
			}
			drop("frame timeout: no whole frame %v after %s", s.cfg.FrameTimeout, after)
			return
		case errors.Is(err, os.ErrDeadlineExceeded):
			drop("idle for %v (nothing read)", s.cfg.IdleTimeout)
			return
		default:
			drop("reading: %v", err)
			return
		}
	}
}

// senseless says whether the client's frame made no sense in the server's model: the client gets
// the model notice (docs/format.md 7.4).
func senseless(err error) bool {
	var fe *fbe.FrameError
	return errors.As(err, &fe) && (fe.Kind == fbe.BadHeader || fe.Kind == fbe.UnknownType || fe.Kind == fbe.FrameTooSmall)
}

// notice sends the model notice after the replies written so far and closes the sending side.
// Closing with the client's bytes unread would reset the connection and the client would lose the
// notice: what arrives is read and dropped until the client closes (a second at most).
func (s *Server) notice(conn net.Conn, out *bufio.Writer) {
	_ = conn.SetDeadline(time.Now().Add(time.Second))
	_, _ = out.Write(fbe.ModelNoticeBytes(s.cfg.Final))
	if out.Flush() != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	_, _ = io.Copy(io.Discard, conn)
}

// mismatchHint names the likely cause of frames that make no sense: the two ends disagree on -final.
func mismatchHint(err error, final bool) string {
	if !senseless(err) {
		return ""
	}
	if final {
		return " (this server reads final-model frames: was the client started without -final?)"
	}
	return " (this server reads versioned frames: was the client started with -final?)"
}
