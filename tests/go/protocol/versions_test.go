package protocol

// Frames across schema versions (docs/format.md 3.6): schemas/cpp-tests/vectors_old.fbe and
// vectors_new.fbe give Holder (type id 10) and its Edge the same ids, and the newer Edge has more
// fields. A newer Sender's frames are read by an older Receiver (the new fields are skipped) and an
// older Sender's by a newer Receiver (they take their defaults), in both models' versioned frames,
// fed one byte at a time.

import (
	"bytes"
	"testing"

	"fbegen/vectors_new"
	"fbegen/vectors_old"
)

func TestCrossVersionStreams(t *testing.T) {
	var newer bytes.Buffer
	holder := &vectors_new.Holder{Edges: []vectors_new.Edge{{Source: 1, Target: 2, Weight: 3, Note: "n"}, {Source: 4}}}
	if _, err := vectors_new.NewSender(&newer).SendHolder(holder); err != nil {
		t.Fatal(err)
	}
	var old []*vectors_old.Holder
	r := vectors_old.NewReceiver(vectors_old.HandlerFunc(func(v any) { old = append(old, v.(*vectors_old.Holder)) }))
	feed(t, r, newer.Bytes(), chunkings(newer.Bytes())["1-byte"])
	if len(old) != 1 || len(old[0].Edges) != 2 || old[0].Edges[0].Source != 1 || old[0].Edges[1].Source != 4 {
		t.Fatalf("newer frames read by an older receiver: %+v", old)
	}

	var older bytes.Buffer
	if _, err := vectors_old.NewSender(&older).SendHolder(old[0]); err != nil {
		t.Fatal(err)
	}
	var got []*vectors_new.Holder
	n := vectors_new.NewReceiver(vectors_new.HandlerFunc(func(v any) { got = append(got, v.(*vectors_new.Holder)) }))
	feed(t, n, older.Bytes(), chunkings(older.Bytes())["random1"])
	if len(got) != 1 || len(got[0].Edges) != 2 || got[0].Edges[0] != (vectors_new.Edge{Source: 1}) {
		t.Fatalf("older frames read by a newer receiver: %+v", got)
	}
}
