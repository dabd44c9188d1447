package protocol

// The original's sender streams ($SHARED/vectors/protocol.fbe.bin and protocol.final.bin: OrderMessage,
// BalanceMessage, AccountMessage) through the generated proto Receiver and FinalReceiver whole, in
// 1-byte and in random chunks; written back by the generated Senders byte for byte; forwarded
// unchanged by the Proxy.

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"fbegen/proto"
)

func shared(t *testing.T, name string) []byte {
	t.Helper()
	dir := os.Getenv("SHARED")
	if dir == "" {
		t.Skip("SHARED is not set: the original's protocol streams are not available")
	}
	b, err := os.ReadFile(filepath.Join(dir, "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resend writes every received message back with a Sender of the same model.
type resend struct {
	t   *testing.T
	out interface {
		SendOrderMessage(*proto.OrderMessage) (int, error)
		SendBalanceMessage(*proto.BalanceMessage) (int, error)
		SendAccountMessage(*proto.AccountMessage) (int, error)
	}
	names []string
}

func (s *resend) OnOrderMessage(v *proto.OrderMessage) {
	s.names = append(s.names, "order")
	s.check(s.out.SendOrderMessage(v))
}

func (s *resend) OnBalanceMessage(v *proto.BalanceMessage) {
	s.names = append(s.names, "balance")
	s.check(s.out.SendBalanceMessage(v))
}

func (s *resend) OnAccountMessage(v *proto.AccountMessage) {
	s.names = append(s.names, "account:"+v.Body.Name)
	s.check(s.out.SendAccountMessage(v))
}

func (s *resend) check(_ int, err error) {
	if err != nil {
		s.t.Fatal(err)
	}
}

func TestOriginalStreams(t *testing.T) {
	for _, c := range []struct {
		file  string
		final bool
	}{{"protocol.fbe.bin", false}, {"protocol.final.bin", true}} {
		stream := shared(t, c.file)
		for name, chunks := range chunkings(stream) {
			var out bytes.Buffer
			h := &resend{t: t}
			var r receiver
			if c.final {
				h.out = proto.NewFinalSender(&out)
				r = proto.NewFinalReceiver(h)
			} else {
				h.out = proto.NewSender(&out)
				r = proto.NewReceiver(h)
			}
			feed(t, r, stream, chunks)
			if got := h.names; len(got) != 3 || got[0] != "order" || got[1] != "balance" || got[2] != "account:Test" {
				t.Fatalf("%s %s: %v", c.file, name, got)
			}
			if !bytes.Equal(out.Bytes(), stream) {
				t.Fatalf("%s %s: the messages sent back differ from the original's stream", c.file, name)
			}
		}
	}
}

type forward struct {
	out    bytes.Buffer
	frames int
}

func (f *forward) OnOrderMessageFrame(b []byte)   { f.frames++; f.out.Write(b) }
func (f *forward) OnBalanceMessageFrame(b []byte) { f.frames++; f.out.Write(b) }
func (f *forward) OnAccountMessageFrame(b []byte) { f.frames++; f.out.Write(b) }

func TestProxyForwardsFrames(t *testing.T) {
	stream := shared(t, "protocol.fbe.bin")
	for name, chunks := range chunkings(stream) {
		f := &forward{}
		feed(t, proto.NewProxy(f), stream, chunks)
		if f.frames != 3 || !bytes.Equal(f.out.Bytes(), stream) {
			t.Fatalf("%s: %d frames forwarded", name, f.frames)
		}
	}
}
