package tcp

// The TCP example's server and client talking over 127.0.0.1, and hostile clients (as
// tests/cpp_proto/tcp_hostile_clients.py does for the C++ example): clients that never read their
// replies, connections that send half a frame header declaring 64 MiB, a frame above
// MaxFrameSize, the connection limit, idle connections and a -final mismatch. After each, a good
// client is still served and the server's heap stayed bounded.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
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

func (l *logs) waitFor(t *testing.T, text string, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got := l.with(text); len(got) >= n {
			return got
		}
	}
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
	cfg.Messages, cfg.Final = 2000, final
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

// closedByPeer reads and discards until the peer closes (true) or seconds pass (false).
func closedByPeer(c net.Conn, seconds float64) bool {
	_ = c.SetReadDeadline(time.Now().Add(time.Duration(seconds * float64(time.Second))))
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
func TestNeverReadingClients(t *testing.T) {
	cfg := DefaultConfig
	cfg.IdleTimeout = 2 * time.Second
	s, l := start(t, cfg)
	base := heapInUse()
	var burst []byte
	for i := range 1000 {
		burst = append(burst, ping(int64(i), make([]byte, 1000))...)
	}
	const readers, limit = 4, 64 << 20
	sent := make([]int, readers)
	var wg sync.WaitGroup
	for i := range readers {
		c := dial(t, s)
		_ = c.SetReadBuffer(16 << 10)
		_ = c.SetWriteBuffer(16 << 10)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sent[i] < limit {
				_ = c.SetWriteDeadline(time.Now().Add(time.Second))
				n, err := c.Write(burst[sent[i]%len(burst):])
				sent[i] += n
				if err != nil {
					return // stalled (or dropped)
				}
			}
		}()
	}
	wg.Wait()
	for i, n := range sent {
		if n >= limit {
			t.Fatalf("reader %d sent %d bytes: the server kept reading it", i, n)
		}
	}
	goodClient(t, s, false)
	// Per connection the server holds a 64 KiB read buffer, a 64 KiB reply buffer and a frame.
	if grown := int64(heapInUse()) - int64(base); grown > 8<<20 {
		t.Fatalf("the server's heap grew by %d bytes", grown)
	}
	t.Logf("never-reading clients sent %v bytes before their sends stalled", sent)
	l.waitFor(t, "the client does not read them", readers)
}

// Connections that send a frame size declaring 64 MiB in two reads and then a few bytes: nothing is
// allocated for what they declared. A size above MaxFrameSize drops its connection at once.
func TestSplitHeaders(t *testing.T) {
	cfg := DefaultConfig
	cfg.MaxFrameSize = 64 << 20
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
	time.Sleep(200 * time.Millisecond) // the first halves are read on their own
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
	if !closedByPeer(big, 5) {
		t.Fatal("a frame above MaxFrameSize did not close its connection")
	}
	if got := l.waitFor(t, "frame too large", 1); len(got) != 1 || !strings.Contains(got[0], "above the maximum 67108864") {
		t.Fatalf("%q", got)
	}
}

// Over MaxConnections a new connection is closed at once, with one message per episode.
func TestConnectionLimit(t *testing.T) {
	cfg := DefaultConfig
	cfg.MaxConnections = 4
	s, l := start(t, cfg)
	held := make([]*net.TCPConn, 4)
	for i := range held {
		held[i] = dial(t, s)
	}
	for s.Sessions() < 4 {
		time.Sleep(time.Millisecond)
	}
	for range 3 {
		if !closedByPeer(dial(t, s), 5) {
			t.Fatal("a connection over MaxConnections was not closed")
		}
	}
	if got := l.waitFor(t, "max_connections", 1); len(got) != 1 || s.Refused() != 3 {
		t.Fatalf("%q, %d refused", l.lines, s.Refused())
	}
	_ = held[0].Close()
	for s.Sessions()-s.Refused() > 4 { // wait for the server to see the close
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	goodClient(t, s, false)
}

// A silent connection is closed after IdleTimeout; one that sends a request now and then is not.
func TestIdleTimeout(t *testing.T) {
	cfg := DefaultConfig
	cfg.IdleTimeout = 500 * time.Millisecond
	s, l := start(t, cfg)
	silent := dial(t, s)
	steady := dial(t, s)
	reply := make([]byte, len(ping(0, []byte("steady"))))
	for i := range 5 { // 1.5 s in all, never 0.5 s without a request
		if _, err := steady.Write(ping(int64(i), []byte("steady"))); err != nil {
			t.Fatal(err)
		}
		_ = steady.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := readFull(steady, reply); err != nil {
			t.Fatalf("the steady client was closed after %d requests: %v", i, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if !closedByPeer(silent, 3) {
		t.Fatal("a silent connection was not closed")
	}
	if got := l.waitFor(t, "idle for 500ms", 1); len(got) != 1 {
		t.Fatalf("%q", l.lines)
	}
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
		ccfg.Final = !serverFinal
		begin := time.Now()
		_, err := RunClient(s.Addr().String(), ccfg)
		if !errors.Is(err, ErrServerClosed) || time.Since(begin) > 3*time.Second {
			t.Fatalf("server final=%v: %v after %v", serverFinal, err, time.Since(begin))
		}
		got := l.waitFor(t, "dropping the connection", 1)
		if len(got) != 1 || !strings.Contains(got[0], "-final") {
			t.Fatalf("server final=%v: %q", serverFinal, got)
		}
	}
}
