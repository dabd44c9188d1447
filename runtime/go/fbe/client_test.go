package fbe

// Request and SendRequest, what a generated Client's Request<Message> methods
// are: the send, the answer matched by id, and a context that has ended.

import (
	"context"
	"errors"
	"testing"
	"time"
)

type ping struct{ id UUID }

type pong struct{ id UUID }

type refusal struct{ id UUID }

func (refusal) TypeID() uint32 { return 7 }

type notice struct{ id UUID }

func (notice) TypeID() uint32 { return 8 }

func TestSendRequest(t *testing.T) {
	var sent []*ping
	send := func(v *ping) (int, error) {
		sent = append(sent, v)
		return 16, nil
	}
	v := &ping{}
	if err := SendRequest(context.Background(), send, v); err != nil || len(sent) != 1 || sent[0] != v {
		t.Fatalf("send: %v %v", err, sent)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SendRequest(ctx, send, v); !errors.Is(err, context.Canceled) || len(sent) != 1 {
		t.Fatalf("ended context: %v, %d sent", err, len(sent))
	}
	failed := errors.New("closed")
	broken := func(*ping) (int, error) { return 0, failed }
	if err := SendRequest(context.Background(), broken, v); !errors.Is(err, failed) {
		t.Fatalf("send error: %v", err)
	}
}

func TestRequest(t *testing.T) {
	var q Requests
	id := NewUUID4()
	// the response arrives while the request waits (here: as it is sent)
	answer := func(v *ping) (int, error) {
		if !q.Answer(v.id, &pong{v.id}, false) {
			t.Errorf("no request of id %v pending", v.id)
		}
		return 16, nil
	}
	got, err := Request[*pong](context.Background(), &q, "test.Ping", id, answer, &ping{id}, refusal{}.TypeID())
	if err != nil || got.id != id || q.Len() != 0 {
		t.Fatalf("response: %v %v, %d pending", got, err, q.Len())
	}
	failed := errors.New("closed")
	broken := func(*ping) (int, error) { return 0, failed }
	var re *RequestError
	if _, err := Request[*pong](context.Background(), &q, "test.Ping", id, broken, &ping{id}); !errors.As(err, &re) ||
		!errors.Is(err, failed) || re.Request != "test.Ping" || q.Len() != 0 {
		t.Fatalf("send error: %v, %d pending", err, q.Len())
	}
}

// A message whose type id is among the request's rejects fails it; another one (here of a type
// id not listed) answers nothing and the request keeps waiting.
func TestRequestRejects(t *testing.T) {
	var q Requests
	id := NewUUID4()
	reject := func(v *ping) (int, error) {
		if q.Answer(v.id, &notice{v.id}, false) {
			t.Errorf("a notice answered the request")
		}
		if !q.Answer(v.id, &refusal{v.id}, false) {
			t.Errorf("the refusal did not answer the request")
		}
		return 16, nil
	}
	var rej *RejectError
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := Request[*pong](ctx, &q, "test.Ping", id, reject, &ping{id}, refusal{}.TypeID())
	if !errors.As(err, &rej) || rej.Value.(*refusal).id != id || q.Len() != 0 {
		t.Fatalf("reject: %v, %d pending", err, q.Len())
	}
}
