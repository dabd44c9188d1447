package protocol

// FuzzGeneratedReceiver: any byte stream through the generated Receiver, FinalReceiver, Proxy and
// Client of tests/everything (which imports tests/market), whole, in single bytes and in random
// chunks. For any stream: no panic; the same messages and errors in every chunking; the Client
// and the Proxy see what the Receiver sees; each message delivered writes back to a frame that
// reads back and writes the same bytes. `go test` runs the seeds; make fuzz-go-receiver runs it
// (tests/go/protocol/setup.py sets up the module).

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"fbegen/everything"
	"fbegen/market"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

type codec interface {
	MarshalFBE() ([]byte, error)
	MarshalFinal() ([]byte, error)
}

// sender is what seeds sends with: everything.Sender or FinalSender.
type sender interface {
	SendNote(*everything.Note) (int, error)
	SendPlaceOrder(*everything.PlaceOrder) (int, error)
	SendAccepted(*everything.Accepted) (int, error)
	SendRejected(*everything.Rejected) (int, error)
	SendPing(*everything.Ping) (int, error)
	SendMarketFailure(*market.Failure) (int, error)
}

// seeds: every message of the package and of its import, in one model.
func seeds(final bool) []byte {
	var out bytes.Buffer
	var s sender = everything.NewSender(&out)
	if final {
		s = everything.NewFinalSender(&out)
	}
	_, _ = s.SendNote(everything.NewNote())
	_, _ = s.SendPlaceOrder(everything.NewPlaceOrder())
	_, _ = s.SendAccepted(everything.NewAccepted())
	_, _ = s.SendRejected(&everything.Rejected{Reason: "no"})
	_, _ = s.SendPing(&everything.Ping{Sequence: 7})
	_, _ = s.SendMarketFailure(&market.Failure{Reason: "closed"})
	return out.Bytes()
}

func FuzzGeneratedReceiver(f *testing.F) {
	for _, final := range []bool{false, true} {
		s := seeds(final)
		f.Add(s, final, int64(1))
		f.Add(append([]byte{0xff, 0xff, 0, 0}, s...), final, int64(2))
		f.Add(append(append([]byte(nil), s[:20]...), 3, 0, 0, 0), final, int64(3))
	}
	f.Fuzz(func(t *testing.T, stream []byte, final bool, seed int64) {
		lim := fbe.DefaultLimits
		lim.MaxFrameSize = 1 << 12
		one := run(t, stream, final, "receiver", &lim, nil)
		for name, chunks := range map[string][]int{"1-byte": chunkings(stream)["1-byte"], "random": randomChunks(stream, seed)} {
			if got := run(t, stream, final, "receiver", &lim, chunks); got != one {
				t.Fatalf("%s chunks change the events:\n%s\n%s", name, one, got)
			}
		}
		if got := run(t, stream, final, "client", &lim, randomChunks(stream, seed+1)); got != one {
			t.Fatalf("the Client saw:\n%s\nthe Receiver:\n%s", got, one)
		}
		if !final {
			if got := run(t, stream, final, "proxy", &lim, nil); got != frames(one) {
				t.Fatalf("the Proxy saw:\n%s\nthe Receiver:\n%s", got, one)
			}
		}
	})
}

func randomChunks(stream []byte, seed int64) []int {
	c := chunkings(stream)["random1"]
	if seed%2 == 0 {
		c = chunkings(stream)["random2"]
	}
	return c
}

// run feeds stream (chunks nil: whole) and lists what was delivered and refused.
func run(t *testing.T, stream []byte, final bool, kind string, lim *fbe.Limits, chunks []int) string {
	var events []string
	deliver := func(v any) {
		events = append(events, fmt.Sprintf("%T", v))
		roundTrip(t, v.(codec), final)
	}
	var r interface {
		Receive([]byte) error
		Broken() error
	}
	switch {
	case kind == "proxy":
		p := everything.NewProxy(proxyFunc(func(frame []byte) { events = append(events, "frame") }))
		p.Limits = lim
		r = p
	case kind == "client" && final:
		c := everything.NewFinalClient(nil, everything.HandlerFunc(deliver))
		c.Limits = lim
		r = c
	case kind == "client":
		c := everything.NewClient(nil, everything.HandlerFunc(deliver))
		c.Limits = lim
		r = c
	case final:
		x := everything.NewFinalReceiver(everything.HandlerFunc(deliver))
		x.Limits = lim
		r = x
	default:
		x := everything.NewReceiver(everything.HandlerFunc(deliver))
		x.Limits = lim
		r = x
	}
	if chunks == nil {
		chunks = []int{len(stream)}
	}
	rest := stream
	for _, n := range chunks {
		err := r.Receive(rest[:n])
		rest = rest[n:]
		for err != nil && r.Broken() == nil {
			events = append(events, "error: "+err.Error())
			err = r.Receive(nil)
		}
		if err != nil {
			events = append(events, "lost: "+err.Error())
			break
		}
	}
	return strings.Join(events, "\n")
}

// frames is a Receiver's list as the Proxy's: each message a "frame".
func frames(events string) string {
	lines := strings.Split(events, "\n")
	for i, e := range lines {
		if e != "" && !strings.HasPrefix(e, "error: ") && !strings.HasPrefix(e, "lost: ") {
			lines[i] = "frame"
		}
	}
	return strings.Join(lines, "\n")
}

type proxyFunc func(frame []byte)

func (f proxyFunc) OnNoteFrame(b []byte)          { f(b) }
func (f proxyFunc) OnPlaceOrderFrame(b []byte)    { f(b) }
func (f proxyFunc) OnAcceptedFrame(b []byte)      { f(b) }
func (f proxyFunc) OnRejectedFrame(b []byte)      { f(b) }
func (f proxyFunc) OnPingFrame(b []byte)          { f(b) }
func (f proxyFunc) OnMarketFailureFrame(b []byte) { f(b) }

// roundTrip: a delivered message writes back to bytes that read back and write the same bytes.
func roundTrip(t *testing.T, v codec, final bool) {
	write := codec.MarshalFBE
	if final {
		write = codec.MarshalFinal
	}
	first, err := write(v)
	if err != nil {
		t.Fatalf("%T delivered but not written back: %v", v, err)
	}
	first = append([]byte(nil), first...)
	var got []any
	var r interface{ Receive([]byte) error }
	if final {
		r = everything.NewFinalReceiver(everything.HandlerFunc(func(x any) { got = append(got, x) }))
	} else {
		r = everything.NewReceiver(everything.HandlerFunc(func(x any) { got = append(got, x) }))
	}
	if err := r.Receive(first); err != nil || len(got) != 1 {
		t.Fatalf("%T written back does not read: %v", v, err)
	}
	if second, _ := write(got[0].(codec)); !bytes.Equal(first, second) {
		t.Fatalf("%T written back and read again: the bytes differ", v)
	}
}
