package fbe

// Requests, responses and rejects (docs/format.md 7.6): conventions on top of
// a Sender and a Receiver, nothing on the wire. A request waits for the
// message of its response type with the same `id`, or fails on a reject of
// the same id, when its context ends, or on Reset.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrReset fails every request pending when its Client is Reset (the
// original's "Reset client!"): a connection that closed, for example.
var ErrReset = errors.New("client reset: the request was not answered")

// ErrDuplicateRequest fails a pending request when another one is sent with its id: the first can never be answered.
var ErrDuplicateRequest = errors.New("another request was sent with the same id")

// RejectError is a request refused by a reject message of its id
// (`[reject(E)]`); Value is that message (*E). Its text is the message's
// (its String method when it has one).
type RejectError struct {
	Value any
}

func (e *RejectError) Error() string { return fmt.Sprint(e.Value) }

// RequestError is a request that got no response: Request names the
// request message type, ID its id, and Err why (a *RejectError, ErrReset,
// ErrDuplicateRequest, context.DeadlineExceeded — the original's "Timeout!" —
// or context.Canceled, or the Sender's error).
type RequestError struct {
	Request string
	ID      UUID
	Err     error
}

func (e *RequestError) Error() string {
	return e.Request + " " + e.ID.String() + ": " + e.Err.Error()
}

func (e *RequestError) Unwrap() error { return e.Err }

// answerKind is what a received message is to a pending request.
type answerKind int

const (
	answerNone     answerKind = iota // not an answer of the request
	answerResponse                   // its response: completes it
	answerReject                     // one of its rejects: fails it with a *RejectError
)

type pendingRequest struct {
	done  chan struct{}
	match func(any) answerKind // the response and reject types of the request
	value any
	err   error
}

// Requests are the requests of a Client waiting for their response, by id.
// Safe for concurrent use: requests are sent from any goroutine while one
// goroutine feeds the Client's Receiver.
type Requests struct {
	mu      sync.Mutex
	pending map[UUID]*pendingRequest
}

// Len is the number of pending requests.
func (q *Requests) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}

func (q *Requests) add(id UUID, match func(any) answerKind) *pendingRequest {
	p := &pendingRequest{done: make(chan struct{}), match: match}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending == nil {
		q.pending = make(map[UUID]*pendingRequest)
	}
	if old := q.pending[id]; old != nil {
		old.err = ErrDuplicateRequest
		close(old.done)
	}
	q.pending[id] = p
	return p
}

// forget removes p if it is still the pending request of id.
func (q *Requests) forget(id UUID, p *pendingRequest) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending[id] == p {
		delete(q.pending, id)
	}
}

// Answer completes the pending request of id with v when v is its response,
// or fails it with a *RejectError when v is one of its rejects; global (a
// reject listed as `*E`, docs/format.md 7.6) fails the request of id whatever
// its type. It reports whether a request took v; generated Clients hand a
// message nobody took to their Notify handler.
func (q *Requests) Answer(id UUID, v any, global bool) bool {
	q.mu.Lock()
	p := q.pending[id]
	kind := answerNone
	if p != nil {
		kind = p.match(v)
		if kind == answerNone && global {
			kind = answerReject
		}
	}
	if kind == answerNone {
		q.mu.Unlock()
		return false
	}
	delete(q.pending, id)
	q.mu.Unlock()
	if kind == answerReject {
		p.err = &RejectError{Value: v}
	} else {
		p.value = v
	}
	close(p.done)
	return true
}

// Reset fails every pending request with ErrReset.
func (q *Requests) Reset() {
	q.Fail(ErrReset)
}

// Fail fails every pending request with err: why the connection ended (the
// other end's model notice, a *FrameError naming both models: docs/format.md
// 7.4).
func (q *Requests) Fail(err error) {
	q.mu.Lock()
	pending := q.pending
	q.pending = nil
	q.mu.Unlock()
	for _, p := range pending {
		p.err = err
		close(p.done)
	}
}

// Request registers the request v of id, sends it with send (a generated
// Send<Message> method) and waits for its answer: the response (of type R),
// or a *RequestError wrapping a *RejectError, ErrReset, the context's error
// (a deadline is the request's timeout) or the send's error. rejects are the
// type ids (TypeID) of the messages that reject it. Generated Request<Message>
// methods call it; the Client's Receiver must be fed by another goroutine
// meanwhile.
func Request[R, V any](ctx context.Context, q *Requests, name string, id UUID, send func(V) (int, error), v V,
	rejects ...uint32) (R, error) {
	var zero R
	p := q.add(id, func(answer any) answerKind {
		if _, ok := answer.(R); ok {
			return answerResponse
		}
		if m, ok := answer.(interface{ TypeID() uint32 }); ok && slices.Contains(rejects, m.TypeID()) {
			return answerReject
		}
		return answerNone
	})
	if _, err := send(v); err != nil {
		q.forget(id, p)
		return zero, &RequestError{Request: name, ID: id, Err: err}
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		q.forget(id, p)
		select {
		case <-p.done: // answered meanwhile
		default:
			return zero, &RequestError{Request: name, ID: id, Err: ctx.Err()}
		}
	}
	if p.err != nil {
		return zero, &RequestError{Request: name, ID: id, Err: p.err}
	}
	return p.value.(R), nil
}

// SendRequest sends the request v with send (a generated Send<Message>
// method) unless ctx has ended: a request without response is done once
// sent. Generated Request<Message> methods of such requests call it.
func SendRequest[V any](ctx context.Context, send func(V) (int, error), v V) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := send(v)
	return err
}
