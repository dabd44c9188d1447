package tcp

// The TCP example's server and client talking over 127.0.0.1, and hostile clients: clients that
// never read their replies, connections that send half a frame header declaring 64 MiB, a frame
// above MaxFrameSize, the connection limit, idle connections and a -final mismatch. After each, a
// good client is still served and the server's heap stayed bounded. The hostile clients every
// language's example faces, slow ones included, are tests/tcp_examples (docs/tcp-examples.md),
// which make example-go-test runs against this server too.
//
// make test runs these on a shared machine, whose load can stall any goroutine for seconds. So no
// test waits a fixed short time for something to happen: it polls for it with the generous bound
// patience, which only a failing test reaches, and what a test proves by timing (the server drops
// a connection idle for IdleTimeout, and not one that is not) is judged on the times it observed.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// logs collects what the server said.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) with(text string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, text) {
			out = append(out, line)
		}
	}
	return out
}

// patience bounds every wait for something that is to happen soon: only a failing test waits
// this long.
const patience = 60 * time.Second

// waitUntil polls cond until it holds, failing the test after patience.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", patience, what)
		}
	}
}

func (l *logs) waitFor(t *testing.T, text string, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got := l.with(text); len(got) >= n {
			return got
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Fatalf("the server did not say %q %d times: %q", text, n, l.lines)
	return nil
}

func start(t *testing.T, cfg Config) (*Server, *logs) {
	t.Helper()
	l := &logs{}
	cfg.Logf = l.Logf
	s, err := Listen("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.Serve(false) }()
	t.Cleanup(func() { _ = s.Close() })
	return s, l
}

func goodClient(t *testing.T, s *Server, final bool) {
	t.Helper()
	cfg := DefaultClientConfig
	cfg.Messages, cfg.Final, cfg.Timeout = 2000, final, patience
	res, err := RunClient(s.Addr().String(), cfg)
	if err != nil || res.Answered != 2000 || res.Rejected != 134 || !res.Heartbeat {
		t.Fatalf("the good client was not served: %v (%v)", err, res)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func dial(t *testing.T, s *Server) *net.TCPConn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c.(*net.TCPConn)
}

// closedByPeer reads and discards until the peer closes (true) or patience runs out (false).
func closedByPeer(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(patience))
	buf := make([]byte, 64<<10)
	for {
		if _, err := c.Read(buf); err != nil {
			var ne net.Error
			return !(errors.As(err, &ne) && ne.Timeout())
		}
	}
}

// ping is rpc.Ping as a versioned frame, written by hand as a hostile client would: root header,
// body of 8 + uuid 16 + int64 8 + string slot 4 = 36 bytes, then the payload.
func ping(sequence int64, payload []byte) []byte {
	f := make([]byte, 8+36+4, 8+36+4+len(payload))
	binary.LittleEndian.PutUint32(f, uint32(len(f)+len(payload)))
	binary.LittleEndian.PutUint32(f[4:], 8)
	binary.LittleEndian.PutUint32(f[8:], 36)
	binary.LittleEndian.PutUint32(f[12:], 2)
	id := fbe.NewUUID4()
	copy(f[16:], id[:])
	binary.LittleEndian.PutUint64(f[32:], uint64(sequence))
	binary.LittleEndian.PutUint32(f[40:], 36)
	binary.LittleEndian.PutUint32(f[44:], uint32(len(payload)))
	return append(f, payload...)
}

func TestLoopback(t *testing.T) {
	for _, final := range []bool{false, true} {
		cfg := DefaultConfig
		cfg.Final = final
		s, l := start(t, cfg)
		goodClient(t, s, final)
		if s.Requests() != 2001 || len(l.lines) != 0 {
			t.Fatalf("final=%v: %d requests, %q", final, s.Requests(), l.lines)
		}
	}
}

// Clients that pipeline Pings and never read the Pongs: once the socket buffers are full the
// server's writes stall, it stops reading them (their own sends stall), and drops them after
// IdleTimeout; a good client is served meanwhile and the heap stays bounded.
//
// Each never-reading client writes until its write fails: it is not to give up before the server
// does (a client that stopped writing early would be dropped as idle instead, which is what this
// test once saw under load with 1-second write deadlines), and its write must fail because the
// server closed the connection, not because patience ran out.
func TestNeverReadingClients(t *testing.T) {
	cfg := DefaultConfig
	cfg.IdleTimeout = 2 * time.Second
	s, l := start(t, cfg)
	var burst []byte
	for i := range 1000 {
		burst = append(burst, ping(int64(i), make([]byte, 1000))...)
	}
	base := heapInUse()
	const readers, limit = 4, 64 << 20
	var sent [readers]atomic.Int64
	var ended [readers]error
	var wg sync.WaitGroup
	for i := range readers {
		c := dial(t, s)
		_ = c.SetReadBuffer(16 << 10)
		_ = c.SetWriteBuffer(16 << 10)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent[i].Load() < limit {
				_ = c.SetWriteDeadline(time.Now().Add(patience))
				n, err := c.Write(burst[sent[i].Load()%int64(len(burst)):])
				sent[i].Add(int64(n))
				if err != nil {
					ended[i] = err
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	waitUntil(t, "every never-reading client to send", func() bool {
		for i := range sent {
			if sent[i].Load() == 0 {
				return false
			}
		}
		return true
	})
	goodClient(t, s, false)
	// Per connection the server holds a 64 KiB read buffer, a 64 KiB reply buffer and a frame: the
	// heap is sampled until the server has dropped them all.
	var grown int64
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-time.After(100 * time.Millisecond):
		}
		grown = max(grown, int64(heapInUse())-int64(base))
	}
	if grown > 8<<20 {
		t.Fatalf("the server's heap grew by %d bytes", grown)
	}
	for i, err := range ended {
		if n := sent[i].Load(); n >= limit {
			t.Fatalf("reader %d sent %d bytes: the server kept reading it", i, n)
		}
		if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("reader %d: the server neither read it nor dropped it for %v: %v", i, patience, err)
		}
	}
	t.Logf("never-reading clients sent %d %d %d %d bytes before the server dropped them",
		sent[0].Load(), sent[1].Load(), sent[2].Load(), sent[3].Load())
	if got := l.waitFor(t, "the client does not read them", readers); len(got) != readers || len(l.lines) != readers {
		t.Fatalf("%q", l.lines)
	}
}

// Connections that send a frame size declaring 64 MiB in two reads and then a few bytes: nothing is
// allocated for what they declared. A size above MaxFrameSize drops its connection at once.
func TestSplitHeaders(t *testing.T) {
	cfg := DefaultConfig
	cfg.MaxFrameSize = 64 << 20
	cfg.FrameTimeout = patience // the partial frames wait as long as the test takes
	s, l := start(t, cfg)
	base := heapInUse()
	declared := binary.LittleEndian.AppendUint32(nil, 64<<20)
	conns := make([]*net.TCPConn, 40)
	for i := range conns {
		conns[i] = dial(t, s)
		if _, err := conns[i].Write(declared[:2]); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the server to serve 40 connections", func() bool { return s.Open() == 40 })
	// Most likely the first halves are read on their own after this; if the load delays a
	// server's read, it reads the two halves at once and the test checks a little less.
	time.Sleep(200 * time.Millisecond)
	for _, c := range conns {
		if _, err := c.Write(append(declared[2:], make([]byte, 12)...)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	goodClient(t, s, false)
	// 40 connections of two 64 KiB buffers and 16 bytes of frame; 40 reservations would be 2.5 GiB.
	if grown := int64(heapInUse()) - int64(base); grown > 16<<20 {
		t.Fatalf("the server's heap grew by %d bytes", grown)
	}
	if len(l.lines) != 0 {
		t.Fatalf("unexpected messages %q", l.lines)
	}
	big := dial(t, s)
	if _, err := big.Write(append(binary.LittleEndian.AppendUint32(nil, 64<<20+1), make([]byte, 12)...)); err != nil {
		t.Fatal(err)
	}
	if !closedByPeer(big) {
		t.Fatal("a frame above MaxFrameSize did not close its connection")
	}
	if got := l.waitFor(t, "frame too large", 1); len(got) != 1 || !strings.Contains(got[0], "above the maximum 67108864") {
		t.Fatalf("%q", got)
	}
}

// Over MaxConnections, every open connection between frames, a new connection is closed at once,
// with one message per episode.
func TestConnectionLimit(t *testing.T) {
	cfg := DefaultConfig
	cfg.MaxConnections = 4
	s, l := start(t, cfg)
	held := make([]*net.TCPConn, 4)
	reply := make([]byte, len(ping(0, nil)))
	for i := range held {
		held[i] = dial(t, s)
		// A request answered: the connection is between frames, not one a new connection evicts.
		if _, err := held[i].Write(ping(0, nil)); err != nil {
			t.Fatal(err)
		}
		if _, err := readFull(held[i], reply); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the server to serve 4 connections", func() bool { return s.Open() == 4 })
	for range 3 {
		if !closedByPeer(dial(t, s)) {
			t.Fatal("a connection over MaxConnections was not closed")
		}
	}
	if got := l.waitFor(t, "max_connections", 1); len(got) != 1 || s.Refused() != 3 {
		t.Fatalf("%q, %d refused", l.lines, s.Refused())
	}
	_ = held[0].Close()
	waitUntil(t, "the server to see a close", func() bool { return s.Open() < 4 })
	goodClient(t, s, false)
}

// A silent connection is closed after IdleTimeout; one that sends a request now and then is not.
//
// A steady client sends a request every IdleTimeout/5 for 3 IdleTimeouts and reads each reply. The
// server can only be right to close it if the steady client itself left IdleTimeout between two
// requests; the client measures its longest gap (from the start of one request's write to the end
// of the next one's, which contains the server's wait), and only when a stalled machine made that
// gap IdleTimeout or more is the attempt void and made again.
func TestIdleTimeout(t *testing.T) {
	cfg := DefaultConfig
	cfg.IdleTimeout = 500 * time.Millisecond
	s, l := start(t, cfg)
	silent := dial(t, s)
	const attempts = 5
	void := 0
	for {
		gap, err := steadyClient(t, s, cfg.IdleTimeout)
		if err == nil {
			break
		}
		if gap < cfg.IdleTimeout {
			t.Fatalf("the steady client was closed though it never left more than %v between requests: %v", gap, err)
		}
		if void++; void == attempts {
			t.Fatalf("%d attempts void: the load stalled the steady client for %v (IdleTimeout %v)", attempts, gap, cfg.IdleTimeout)
		}
		t.Logf("attempt void: the steady client was stalled for %v (IdleTimeout %v)", gap, cfg.IdleTimeout)
	}
	if !closedByPeer(silent) {
		t.Fatal("a silent connection was not closed")
	}
	got := l.waitFor(t, "idle for 500ms", 1+void)
	if len(got) != 1+void || len(l.with(silent.LocalAddr().String()+": dropping the connection: idle for 500ms")) != 1 {
		t.Fatalf("%q", l.lines)
	}
}

// steadyClient sends a request every idle/5 for 3 idle, and reads every reply: nil when every one
// was answered, with the longest time between two requests (the first counted from the dial).
func steadyClient(t *testing.T, s *Server, idle time.Duration) (time.Duration, error) {
	t.Helper()
	begin := time.Now()
	steady := dial(t, s)
	defer steady.Close()
	reply := make([]byte, len(ping(0, []byte("steady"))))
	var longest time.Duration
	for i := range 15 {
		sending := time.Now()
		_ = steady.SetWriteDeadline(time.Now().Add(patience))
		if _, err := steady.Write(ping(int64(i), []byte("steady"))); err != nil {
			return max(longest, time.Since(begin)), fmt.Errorf("request %d: %w", i, err)
		}
		longest = max(longest, time.Since(begin))
		_ = steady.SetReadDeadline(time.Now().Add(patience))
		if _, err := readFull(steady, reply); err != nil {
			return longest, fmt.Errorf("the reply to request %d: %w", i, err)
		}
		begin = sending
		time.Sleep(idle / 5)
	}
	return longest, nil
}

func readFull(c net.Conn, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := c.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// One end with -final, the other without: the server drops the connection with one message naming
// the likely cause, and the client notices at once (long before its request timeouts).
func TestFinalMismatch(t *testing.T) {
	for _, serverFinal := range []bool{false, true} {
		cfg := DefaultConfig
		cfg.Final = serverFinal
		s, l := start(t, cfg)
		ccfg := DefaultClientConfig
		ccfg.Final, ccfg.Timeout = !serverFinal, patience
		begin := time.Now()
		_, err := RunClient(s.Addr().String(), ccfg)
		if !errors.Is(err, ErrServerClosed) || time.Since(begin) >= ccfg.Timeout {
			t.Fatalf("server final=%v: %v after %v", serverFinal, err, time.Since(begin))
		}
		got := l.waitFor(t, "dropping the connection", 1)
		if len(got) != 1 || !strings.Contains(got[0], "-final") {
			t.Fatalf("server final=%v: %q", serverFinal, got)
		}
	}
}
