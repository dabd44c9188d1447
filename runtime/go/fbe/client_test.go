package fbe

// Request and SendRequest, what a generated Client's Request<Message> methods
// are: the send, the answer matched by id, and a context that has ended.

import (
	"context"
	"errors"
	"testing"
)

type ping struct{ id UUID }

type pong struct{ id UUID }

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
	match := func(v any) AnswerKind {
		if _, ok := v.(*pong); ok {
			return AnswerResponse
		}
		return AnswerNone
	}
	// the response arrives while the request waits (here: as it is sent)
	answer := func(v *ping) (int, error) {
		if !q.Answer(v.id, &pong{v.id}, false) {
			t.Errorf("no request of id %v pending", v.id)
		}
		return 16, nil
	}
	got, err := Request[*pong](context.Background(), &q, "test.Ping", id, match, answer, &ping{id})
	if err != nil || got.id != id || q.Len() != 0 {
		t.Fatalf("response: %v %v, %d pending", got, err, q.Len())
	}
	failed := errors.New("closed")
	broken := func(*ping) (int, error) { return 0, failed }
	var re *RequestError
	if _, err := Request[*pong](context.Background(), &q, "test.Ping", id, match, broken, &ping{id}); !errors.As(err, &re) ||
		!errors.Is(err, failed) || re.Request != "test.Ping" || q.Len() != 0 {
		t.Fatalf("send error: %v, %d pending", err, q.Len())
	}
}
