package protocol

// The generated Client of tests/everything (which imports tests/market): requests answered by
// their response, failed by a reject, by a global reject of the imported package, by their
// context's deadline and by Reset; requests without response; notifications; both models.

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"fbegen/everything"
	"fbegen/market"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// server answers PlaceOrder by the instrument's symbol: "reject", "fail" (a market.Failure),
// "silent" (no answer), anything else is accepted; it counts Pings.
type server struct {
	everything.BaseHandler
	send  func(any)
	pings int
}

func (s *server) OnPlaceOrder(v *everything.PlaceOrder) {
	switch v.Instrument.Symbol {
	case "reject":
		s.send(&everything.Rejected{Id: v.Id, Reason: "no"})
	case "fail":
		s.send(&market.Failure{Id: v.Id, Reason: "market closed"})
	case "silent":
	default:
		s.send(&everything.Accepted{Id: v.Id})
	}
}

func (s *server) OnPing(*everything.Ping) { s.pings++ }

// patience bounds the waits for what is to happen soon (a request's 30 ms timeout, a response
// sent by another goroutine): only a failing test waits this long, and a machine under load does
// not make the test fail.
const patience = 60 * time.Second

// client is what the test needs of Client and FinalClient.
type client interface {
	RequestPlaceOrder(ctx context.Context, v *everything.PlaceOrder) (*everything.Accepted, error)
	RequestPing(ctx context.Context, v *everything.Ping) error
	PendingRequests() int
	Reset()
	io.Writer
}

// pair connects a client to a server in memory: each side's Sender writes into the other's Receiver.
func pair(t *testing.T, final bool, notify everything.Handler) (client, *server) {
	srv := &server{}
	if final {
		c := everything.NewFinalClient(nil, notify)
		out := everything.NewFinalSender(c)
		srv.send = func(v any) { send(t, out, v) }
		c.FinalSender.Out = everything.NewFinalReceiver(srv)
		return c, srv
	}
	c := everything.NewClient(nil, notify)
	out := everything.NewSender(c)
	srv.send = func(v any) { send(t, out, v) }
	c.Sender.Out = everything.NewReceiver(srv)
	return c, srv
}

// send sends one of the messages the server answers with.
func send(t *testing.T, out interface {
	SendAccepted(*everything.Accepted) (int, error)
	SendRejected(*everything.Rejected) (int, error)
	SendMarketFailure(*market.Failure) (int, error)
	SendNote(*everything.Note) (int, error)
}, v any) {
	var err error
	switch m := v.(type) {
	case *everything.Accepted:
		_, err = out.SendAccepted(m)
	case *everything.Rejected:
		_, err = out.SendRejected(m)
	case *market.Failure:
		_, err = out.SendMarketFailure(m)
	case *everything.Note:
		_, err = out.SendNote(m)
	}
	if err != nil {
		t.Error(err)
	}
}

func order(symbol string) *everything.PlaceOrder {
	v := everything.NewPlaceOrder()
	v.Instrument.Symbol = symbol
	return v
}

func TestClientRequests(t *testing.T) {
	for _, final := range []bool{false, true} {
		var notified []any
		c, srv := pair(t, final, everything.HandlerFunc(func(v any) { notified = append(notified, v) }))
		ctx := context.Background()

		req := order("EURUSD")
		resp, err := c.RequestPlaceOrder(ctx, req)
		if err != nil || resp.Id != req.Id {
			t.Fatalf("final=%v: response %v %v", final, resp, err)
		}

		req = order("reject")
		_, err = c.RequestPlaceOrder(ctx, req)
		var rej *fbe.RejectError
		var re *fbe.RequestError
		if !errors.As(err, &rej) || !errors.As(err, &re) || re.ID != req.Id || re.Request != "everything.PlaceOrder" {
			t.Fatalf("final=%v: reject: %v", final, err)
		}
		if r, ok := rej.Value.(*everything.Rejected); !ok || r.Reason != "no" {
			t.Fatalf("final=%v: reject value %#v", final, rej.Value)
		}

		_, err = c.RequestPlaceOrder(ctx, order("fail")) // *market.Failure: a global reject of the import
		if !errors.As(err, &rej) {
			t.Fatalf("final=%v: global reject: %v", final, err)
		}
		if f, ok := rej.Value.(*market.Failure); !ok || f.Reason != "market closed" {
			t.Fatalf("final=%v: %#v", final, rej.Value)
		}

		timeout, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		start := time.Now()
		_, err = c.RequestPlaceOrder(timeout, order("silent"))
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > patience || c.PendingRequests() != 0 {
			t.Fatalf("final=%v: timeout: %v, %d pending", final, err, c.PendingRequests())
		}

		done := make(chan error)
		go func() {
			_, err := c.RequestPlaceOrder(ctx, order("silent"))
			done <- err
		}()
		for c.PendingRequests() == 0 {
			time.Sleep(time.Millisecond)
		}
		c.Reset()
		if err := <-done; !errors.Is(err, fbe.ErrReset) {
			t.Fatalf("final=%v: reset: %v", final, err)
		}

		if err := c.RequestPing(ctx, everything.NewPing()); err != nil || srv.pings != 1 {
			t.Fatalf("final=%v: ping: %v %d", final, err, srv.pings)
		}

		// What answers no pending request is a notification: a server push, a late response.
		if len(notified) != 0 {
			t.Fatalf("final=%v: notified %v", final, notified)
		}
		srv.send(everything.NewNote())
		srv.send(&everything.Accepted{Id: req.Id})
		if len(notified) != 2 {
			t.Fatalf("final=%v: notified %v", final, notified)
		}
		if n, ok := notified[0].(*everything.Note); !ok || n.Text != "hi \"there\"\n" {
			t.Fatalf("final=%v: %#v", final, notified[0])
		}
		if _, ok := notified[1].(*everything.Accepted); !ok {
			t.Fatalf("final=%v: %#v", final, notified[1])
		}
	}
}

// A response of another type with the id of a pending request does not answer it.
func TestClientMatchesResponseType(t *testing.T) {
	var notified []any
	c, srv := pair(t, false, everything.HandlerFunc(func(v any) { notified = append(notified, v) }))
	req := order("silent")
	go func() {
		for c.PendingRequests() == 0 {
			time.Sleep(time.Millisecond)
		}
		srv.send(&everything.Rejected{Id: fbe.NewUUID4()}) // another id: a notification
		srv.send(&everything.Accepted{Id: req.Id})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	resp, err := c.RequestPlaceOrder(ctx, req)
	if err != nil || resp.Id != req.Id || len(notified) != 1 {
		t.Fatalf("%v %v %v", resp, err, notified)
	}
}

// A request that cannot be sent fails at once with the Sender's error.
func TestClientSendError(t *testing.T) {
	c := everything.NewClient(failing{}, nil)
	_, err := c.RequestPlaceOrder(context.Background(), order("x"))
	if !errors.Is(err, errBroken) || c.PendingRequests() != 0 {
		t.Fatalf("%v, %d pending", err, c.PendingRequests())
	}
}

var errBroken = errors.New("broken pipe")

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errBroken }
