package fuzzgo

// FuzzJSON fuzzes the generated JSON readers (fbec --go --json): an input's
// first byte picks the type, the rest is the JSON text. For any input:
//
//   - reading either succeeds or fails with an *fbe.DecodeError (no panic, no
//     other error, docs/limits.md 7);
//   - what reads writes JSON that reads back and writes the same text again;
//   - the value read, written in the versioned model and read back, writes
//     that same JSON (JSON and binary hold the same value).
//
// Seeds: every type's default value as JSON, and the JSON files of the golden
// vectors of SHARED when it is set.

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// jsonValue is what fbec --go --json adds to every struct.
type jsonValue interface {
	value
	AppendJSON([]byte) ([]byte, error)
	UnmarshalJSON([]byte) error
}

func FuzzJSON(f *testing.F) {
	index := map[string]int{}
	for i, e := range types {
		index[e.name] = i
		text, err := e.make().(jsonValue).AppendJSON(nil)
		if err != nil {
			f.Fatalf("%s: %v", e.name, err)
		}
		f.Add(append([]byte{byte(i)}, text...))
	}
	addVectors(f, model{kind: "json"}, index)
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		e, text := types[int(in[0])%len(types)], in[1:]
		v := e.make().(jsonValue)
		err := v.UnmarshalJSON(text)
		var de *fbe.DecodeError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("%s: read failed without a DecodeError: %T %v", e.name, err, err)
		}
		if err != nil {
			return
		}
		out, err := v.AppendJSON(nil)
		if err != nil {
			t.Fatalf("%s: read, but not written back: %v", e.name, err)
		}
		again := e.make().(jsonValue)
		if err := again.UnmarshalJSON(out); err != nil {
			t.Fatalf("%s: written back, not read again: %v\n%s", e.name, err, out)
		}
		if out2, err := again.AppendJSON(nil); err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("%s: read again, written back differently (%v)\n%s\n%s", e.name, err, out, out2)
		}
		data, err := v.MarshalFBE()
		if err != nil {
			t.Fatalf("%s: read from JSON, not written in the versioned model: %v", e.name, err)
		}
		binary := e.make().(jsonValue)
		if err := binary.UnmarshalFBE(data); err != nil {
			t.Fatalf("%s: read from JSON, its versioned bytes do not read: %v", e.name, err)
		}
		if out3, err := binary.AppendJSON(nil); err != nil || !bytes.Equal(out, out3) {
			t.Fatalf("%s: through the versioned model, written back differently (%v)\n%s\n%s", e.name, err, out, out3)
		}
	})
}
