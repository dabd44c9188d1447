package fbe

// The protocol layer's framing (docs/format.md 7, docs/limits.md 6) with the
// hand-written proto.Account codec of account_test.go as the one message
// (type id 3): chunking, every kind of bad frame, the two error modes, the
// frame size limit before allocation, and the Sender.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// accounts dispatches proto.Account frames (type id 3) and records what happened.
type accounts struct {
	final  bool
	got    []account
	events []string
}

func (d *accounts) DispatchFrame(typeID uint32, frame []byte, lim *Limits) (bool, error) {
	if typeID != 3 {
		return false, nil
	}
	read := unmarshalAccount
	if d.final {
		read = unmarshalFinalAccount
	}
	v, err := read(frame, lim)
	if err != nil {
		return true, err
	}
	d.got = append(d.got, v)
	d.events = append(d.events, "account")
	return true, nil
}

// feed runs a stream through a Receiver in the given chunks, going on after each bad frame as a
// caller that logs and continues would (Receive(nil) resumes), until the stream is lost.
func (d *accounts) feed(r *Receiver, stream []byte, chunks []int) {
	for _, n := range chunks {
		err := r.Feed(stream[:n], d, d.final)
		stream = stream[n:]
		for err != nil {
			d.events = append(d.events, "error: "+err.Error())
			if r.Broken() != nil {
				return
			}
			err = r.Feed(nil, d, d.final)
		}
	}
}

func whole(stream []byte) []int { return []int{len(stream)} }

func ones(stream []byte) []int {
	c := make([]int, len(stream))
	for i := range c {
		c[i] = 1
	}
	return c
}

func random(stream []byte, seed int64) []int {
	rng := rand.New(rand.NewSource(seed))
	var c []int
	for left := len(stream); left > 0; {
		n := min(left, 1+rng.Intn(40))
		c = append(c, n)
		left -= n
	}
	return c
}

func frames(final bool, n int) []byte {
	var w Writer
	var out []byte
	for i := range n {
		a := sampleAccount
		a.ID = int32(i + 1)
		if final {
			out = append(out, marshalFinalAccount(&w, &a)...)
		} else {
			out = append(out, marshalAccount(&w, &a)...)
		}
	}
	return out
}

func TestReceiverChunks(t *testing.T) {
	for _, final := range []bool{false, true} {
		stream := frames(final, 5)
		for name, chunks := range map[string][]int{
			"whole": whole(stream), "1-byte": ones(stream), "random": random(stream, 1), "random2": random(stream, 2),
		} {
			d := &accounts{final: final}
			var r Receiver
			d.feed(&r, stream, chunks)
			if len(d.got) != 5 || len(d.events) != 5 || r.Pending() != 0 || r.ReceivedMessages() != 5 {
				t.Fatalf("final=%v %s: %v, pending %d", final, name, d.events, r.Pending())
			}
			for i, a := range d.got {
				if a.ID != int32(i+1) || a.Name != "Test" || len(a.Orders) != 3 || a.Asset == nil {
					t.Fatalf("final=%v %s: message %d %+v", final, name, i, a)
				}
			}
		}
	}
}

// A stream of: a good frame, a frame too large for the limit, a bad header, an unknown type, a
// body that does not decode, a good frame. Every chunking gives the same events.
func TestReceiverBadFrames(t *testing.T) {
	good := frames(false, 1)
	large := make([]byte, 300)
	binary.LittleEndian.PutUint32(large, 300)
	badHeader := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(badHeader[4:], uint32(len(good))) // struct offset outside the frame
	unknown := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(unknown[12:], 99)
	invalid := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(invalid[8+17:], 0) // wallet: struct offset 0
	var stream []byte
	for _, f := range [][]byte{good, large, badHeader, unknown, invalid, good} {
		stream = append(stream, f...)
	}
	want := []string{"account", "frame too large", "bad frame header", "unknown type", "invalid body", "account"}
	lim := DefaultLimits
	lim.MaxFrameSize = 256
	for name, chunks := range map[string][]int{
		"whole": whole(stream), "1-byte": ones(stream), "random": random(stream, 3),
	} {
		d := &accounts{}
		r := Receiver{Limits: &lim}
		d.feed(&r, stream, chunks)
		if len(d.events) != len(want) {
			t.Fatalf("%s: %q", name, d.events)
		}
		for i, w := range want {
			if !strings.Contains(d.events[i], w) {
				t.Fatalf("%s: event %d is %q, want %q", name, i, d.events[i], w)
			}
		}
		if r.ReceiveErrors() != 4 || r.ReceivedMessages() != 2 {
			t.Fatalf("%s: counters %d %d", name, r.ReceiveErrors(), r.ReceivedMessages())
		}
	}
	// The invalid body names the type, the field and the offset; the frame error where the frame is.
	d := &accounts{}
	r := Receiver{OnError: func(err error) {
		var fe *FrameError
		var de *DecodeError
		if !errors.As(err, &fe) || !errors.Is(err, ErrFrame) {
			t.Fatalf("%T %v", err, err)
		}
		if fe.Kind != InvalidBody {
			return
		}
		if !errors.As(err, &de) || de.Type != "proto.Account" || de.Path != "wallet" || fe.Offset != int64(len(good)) {
			t.Fatalf("%v (%+v)", err, fe)
		}
		d.events = append(d.events, err.Error())
	}}
	if err := r.Feed(append(append([]byte(nil), good...), append(invalid, good...)...), d, false); err != nil {
		t.Fatal(err) // OnError set: Feed goes on
	}
	if len(d.events) != 3 || d.events[1] != "invalid body: type id 3, frame of 252 bytes skipped: struct offset 0 "+
		"(proto.Account.wallet, offset 25) (frame at stream offset 252)" {
		t.Fatalf("%q", d.events)
	}
}

// docs/limits.md 6: a frame size below the minimum loses the stream until Reset.
func TestReceiverFrameTooSmall(t *testing.T) {
	for _, final := range []bool{false, true} {
		good := frames(final, 1)
		minimum := MinVersionedFrame
		if final {
			minimum = MinFinalFrame
		}
		small := []byte{byte(minimum - 1), 0, 0, 0}
		stream := append(append(append([]byte(nil), good...), small...), good...)
		for name, chunks := range map[string][]int{"whole": whole(stream), "1-byte": ones(stream)} {
			d := &accounts{final: final}
			var r Receiver
			d.feed(&r, stream, chunks)
			if len(d.events) != 2 || d.events[0] != "account" || !strings.Contains(d.events[1], "frame too small") {
				t.Fatalf("final=%v %s: %q", final, name, d.events)
			}
			var fe *FrameError
			if err := r.Feed(good, d, final); !errors.As(err, &fe) || fe.Kind != FrameTooSmall {
				t.Fatalf("after the stream was lost: %v", err)
			}
			r.Reset()
			if err := r.Feed(good, d, final); err != nil || len(d.got) != 2 {
				t.Fatalf("after Reset: %v, %d", err, len(d.got))
			}
		}
	}
}

// With OnError nil, Feed stops at the first bad frame; the bytes after it wait for the next Feed.
func TestReceiverStopsAtFirstError(t *testing.T) {
	good := frames(false, 1)
	unknown := append([]byte(nil), good...)
	binary.LittleEndian.PutUint32(unknown[12:], 99)
	d := &accounts{}
	var r Receiver
	err := r.Feed(append(append(append([]byte(nil), unknown...), good...), good...), d, false)
	var fe *FrameError
	if !errors.As(err, &fe) || fe.Kind != UnknownType || len(d.got) != 0 {
		t.Fatalf("%v, %d delivered", err, len(d.got))
	}
	if err := r.Feed(good[:10], d, false); err != nil || len(d.got) != 2 || r.Pending() != 10 {
		t.Fatalf("resumed: %v, %d delivered, %d pending", err, len(d.got), r.Pending())
	}
	if err := r.Feed(good[10:], d, false); err != nil || len(d.got) != 3 {
		t.Fatalf("%v %d", err, len(d.got))
	}
}

// docs/limits.md 6: a frame is never allocated ahead of its bytes. Headers declaring 64 MiB and a
// few bytes cost what arrived; a size above MaxFrameSize is skipped as its bytes arrive.
func TestReceiverAllocatesOnlyWhatArrives(t *testing.T) {
	var before, after runtime.MemStats
	receivers := make([]Receiver, 40)
	d := &accounts{}
	runtime.ReadMemStats(&before)
	for i := range receivers {
		head := []byte{0, 0, 0, 4, 1, 2, 3, 4, 5, 6, 7, 8} // 64 MiB declared
		if err := receivers[i].Feed(head[:2], d, false); err != nil {
			t.Fatal(err)
		}
		if err := receivers[i].Feed(head[2:], d, false); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Fatalf("40 declared frames of 64 MiB allocated %d bytes", grown)
	}
	if receivers[0].Pending() != 12 {
		t.Fatalf("pending %d", receivers[0].Pending())
	}
	// 4 GiB declared, then 64 KiB: refused, skipped, never buffered.
	var r Receiver
	var reported []error
	r.OnError = func(err error) { reported = append(reported, err) }
	stream := append([]byte{0xff, 0xff, 0xff, 0xff}, make([]byte, 1<<16)...)
	chunks := random(stream, 4)
	runtime.ReadMemStats(&before)
	for _, n := range chunks {
		if err := r.Feed(stream[:n], d, false); err != nil {
			t.Fatal(err)
		}
		stream = stream[n:]
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<10 || r.Pending() != 0 || len(reported) != 1 {
		t.Fatalf("allocated %d, pending %d, reported %v", grown, r.Pending(), reported)
	}
	if !strings.Contains(reported[0].Error(), "frame size 4294967295 is above the maximum 67108864") {
		t.Fatal(reported[0])
	}
}

// A large frame's buffer is let go once the frame is done: an idle connection costs little.
func TestReceiverReleasesLargeBuffers(t *testing.T) {
	a := sampleAccount
	a.Name = strings.Repeat("x", 1<<20)
	var w Writer
	frame := marshalAccount(&w, &a)
	d := &accounts{}
	var r Receiver
	for _, n := range random(frame, 5) {
		if err := r.Feed(frame[:n], d, false); err != nil {
			t.Fatal(err)
		}
		frame = frame[n:]
	}
	if len(d.got) != 1 || len(d.got[0].Name) != 1<<20 || cap(r.pending) > keepCapacity {
		t.Fatalf("%d delivered, pending capacity %d", len(d.got), cap(r.pending))
	}
}

func TestReceiverPump(t *testing.T) {
	stream := frames(true, 7)
	d := &accounts{final: true}
	var r Receiver
	n, err := r.Pump(iotest{bytes.NewReader(stream)}, d, true)
	if err != nil || n != int64(len(stream)) || len(d.got) != 7 {
		t.Fatalf("%d %v %d", n, err, len(d.got))
	}
}

// iotest reads at most 3 bytes at a time.
type iotest struct{ r io.Reader }

func (s iotest) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), 3)]) }

func TestSender(t *testing.T) {
	var s Sender
	for i := range 3 {
		a := sampleAccount
		a.ID = int32(i + 1)
		n, err := s.SendFrame(func(w *Writer) ([]byte, error) { writeAccountRoot(w, &a); return w.EndVersioned() })
		if err != nil || n != 252 {
			t.Fatal(n, err)
		}
	}
	if !bytes.Equal(s.Buffered(), frames(false, 3)) || s.SentMessages() != 3 {
		t.Fatal("queued frames differ")
	}
	var out bytes.Buffer
	s.Out = &out
	s.Reset()
	a := sampleAccount
	send := func(w *Writer) ([]byte, error) { writeAccountRoot(w, &a); return w.EndVersioned() }
	if _, err := s.SendFrame(send); err != nil || out.Len() != 252 || len(s.Buffered()) != 0 {
		t.Fatal(err, out.Len())
	}
	if n := testing.AllocsPerRun(100, func() { out.Reset(); _, _ = s.SendFrame(send) }); n != 0 {
		t.Fatalf("a warm Sender allocates %v times per message", n)
	}
	// A writer's error (nesting too deep) sends nothing.
	deep := func(w *Writer) ([]byte, error) {
		w.Fail(&EncodeError{Msg: "too deep", Err: ErrDepth})
		return nil, w.Err()
	}
	out.Reset()
	if _, err := s.SendFrame(deep); !errors.Is(err, ErrDepth) || out.Len() != 0 {
		t.Fatal(err)
	}
}

func writeAccountRoot(w *Writer, a *account) {
	w.BeginVersioned()
	writeAccount(w, 0, 4, a)
}

// FuzzReceiver: any stream in any chunking either delivers frames or reports FrameErrors, never
// panics, and delivers the same messages and errors whatever the chunking (`go test -fuzz
// FuzzReceiver ./fbe`; plain `go test` runs the seeds).
func FuzzReceiver(f *testing.F) {
	f.Add(frames(false, 2), false, int64(1))
	f.Add(frames(true, 2), true, int64(2))
	f.Add(append([]byte{0xff, 0xff, 0xff, 0xff}, frames(false, 1)...), false, int64(3))
	f.Add(append(frames(true, 1), 7, 0, 0, 0), true, int64(4))
	f.Fuzz(func(t *testing.T, stream []byte, final bool, seed int64) {
		lim := DefaultLimits
		lim.MaxFrameSize = 1 << 12
		run := func(chunks []int) []string {
			d := &accounts{final: final}
			r := Receiver{Limits: &lim}
			d.feed(&r, stream, chunks)
			for _, e := range d.events {
				if e != "account" && !strings.HasPrefix(e, "error: ") {
					t.Fatalf("event %q", e)
				}
			}
			if r.Pending() >= lim.MaxFrameSize {
				t.Fatalf("%d bytes pending", r.Pending())
			}
			return d.events
		}
		one := run(whole(stream))
		for _, other := range [][]string{run(ones(stream)), run(random(stream, seed))} {
			if strings.Join(one, "\n") != strings.Join(other, "\n") {
				t.Fatalf("chunking changes the events:\n%q\n%q", one, other)
			}
		}
	})
}
