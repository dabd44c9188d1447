// Package fuzzgo fuzzes the generated Go readers (fuzz/go/build.py sets it up
// with registry_test.go: every struct of the generated packages). An input's
// first byte picks the type, the rest is the buffer. For any input:
//
//   - reading either succeeds or fails with an *fbe.DecodeError (no panic, no
//     other error);
//   - verify gives exactly the error the read gives (nil when it reads);
//   - what reads writes back, and the bytes written read and write back the
//     same bytes;
//   - reading into a value reused across inputs (its slices, maps and optional
//     pointers kept from the input before) writes back the same bytes (but for
//     the defaults that are new every time, utc and uuid1/uuid4, of fields an
//     older writer left out).
//
// Seeds: every type's default value in the model, and the golden vectors of
// SHARED when it is set.
package fuzzgo

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

type value interface {
	MarshalFBE() ([]byte, error)
	UnmarshalFBE([]byte) error
	MarshalFinal() ([]byte, error)
	UnmarshalFinal([]byte) error
}

type entry struct {
	name        string
	make        func() value
	verify      func([]byte, *fbe.Limits) error
	verifyFinal func([]byte, *fbe.Limits) error
}

type model struct {
	kind   string // the MANIFEST's kind of file
	read   func(value, []byte) error
	write  func(value) ([]byte, error)
	verify func(entry) func([]byte, *fbe.Limits) error
}

var versioned = model{"versioned",
	func(v value, b []byte) error { return v.UnmarshalFBE(b) },
	func(v value) ([]byte, error) { return v.MarshalFBE() },
	func(e entry) func([]byte, *fbe.Limits) error { return e.verify }}

var final = model{"final",
	func(v value, b []byte) error { return v.UnmarshalFinal(b) },
	func(v value) ([]byte, error) { return v.MarshalFinal() },
	func(e entry) func([]byte, *fbe.Limits) error { return e.verifyFinal }}

func FuzzVersioned(f *testing.F) { fuzz(f, versioned) }
func FuzzFinal(f *testing.F)     { fuzz(f, final) }

func fuzz(f *testing.F, m model) {
	if len(types) > 256 {
		f.Fatalf("%d types: one byte picks the type", len(types))
	}
	index := map[string]int{}
	for i, e := range types {
		index[e.name] = i
		data, err := m.write(e.make())
		if err != nil {
			f.Fatalf("%s: %v", e.name, err)
		}
		f.Add(append([]byte{byte(i)}, data...))
	}
	addVectors(f, m, index)
	reused := make([]value, len(types))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 {
			return
		}
		k := int(in[0]) % len(types)
		e, data := types[k], in[1:]
		v := e.make()
		err := m.read(v, data)
		var de *fbe.DecodeError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("%s: read failed without a DecodeError: %T %v", e.name, err, err)
		}
		verr := m.verify(e)(data, nil)
		if (err == nil) != (verr == nil) || err != nil && err.Error() != verr.Error() {
			t.Fatalf("%s: deserialize says %v, verify says %v", e.name, err, verr)
		}
		if err != nil {
			return
		}
		out, err := m.write(v)
		if err != nil {
			t.Fatalf("%s: read, but not written back: %v", e.name, err)
		}
		again := e.make()
		if err := m.read(again, out); err != nil {
			t.Fatalf("%s: written back, not read again: %v", e.name, err)
		}
		if out2, err := m.write(again); err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("%s: read again, written back differently (%v)", e.name, err)
		}
		if reused[k] == nil {
			reused[k] = e.make()
		}
		if err := m.read(reused[k], data); err != nil {
			t.Fatalf("%s: read into a reused value: %v", e.name, err)
		}
		out3, err := m.write(reused[k])
		if err != nil {
			t.Fatalf("%s: read into a reused value, not written back: %v", e.name, err)
		}
		if !bytes.Equal(out, out3) {
			// Fields an older writer left out take their defaults, and some defaults are new
			// every time (utc, uuid1, uuid4): the bytes must differ only when two fresh reads
			// around the reused one differ too.
			fresh := e.make()
			_ = m.read(fresh, data)
			if out4, _ := m.write(fresh); bytes.Equal(out, out4) {
				t.Fatalf("%s: read into a reused value, written back differently", e.name)
			}
		}
	})
}

// addVectors seeds the corpus with the golden vectors of SHARED of the model's kind.
func addVectors(f *testing.F, m model, index map[string]int) {
	dir := os.Getenv("SHARED")
	if dir == "" {
		return
	}
	raw, err := os.ReadFile(filepath.Join(dir, "vectors", "MANIFEST.json"))
	if err != nil {
		return
	}
	var manifest struct {
		Cases []struct {
			Package, Type string
			Files         []struct{ File, Kind string }
		}
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		f.Fatal(err)
	}
	for _, c := range manifest.Cases {
		i, ok := index[c.Package+"."+c.Type]
		if !ok {
			continue
		}
		for _, file := range c.Files {
			if file.Kind != m.kind {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, "vectors", file.File))
			if err != nil {
				f.Fatal(err)
			}
			f.Add(append([]byte{byte(i)}, data...))
		}
	}
}
