// Package vectors reads every golden vector of ../shared (SHARED) with the
// generated Go code in both binary models and writes it back byte for byte
// (unspecified bytes masked, hashes compared after a second read), and
// checks that every truncation is refused and no corruption panics.
// tests/go/test_go_generated.py builds it with registry_test.go, generated
// from the MANIFEST: the types by name.
package vectors

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// value is what the generated code gives every struct.
type value interface {
	MarshalFBE() ([]byte, error)
	UnmarshalFBE([]byte) error
	MarshalFinal() ([]byte, error)
	UnmarshalFinal([]byte) error
}

type manifest struct {
	Cases []struct {
		Name      string
		Package   string
		Type      string
		Roundtrip string
		Files     []struct {
			File             string
			Kind             string
			UnspecifiedBytes [][2]int `json:"unspecified_bytes"`
		}
	}
}

type model struct {
	read  func(value, []byte) error
	write func(value) ([]byte, error)
}

var models = map[string]model{
	"versioned": {func(v value, b []byte) error { return v.UnmarshalFBE(b) }, func(v value) ([]byte, error) { return v.MarshalFBE() }},
	"final":     {func(v value, b []byte) error { return v.UnmarshalFinal(b) }, func(v value) ([]byte, error) { return v.MarshalFinal() }},
}

func TestGoldenVectors(t *testing.T) {
	dir := os.Getenv("SHARED")
	if dir == "" {
		t.Skip("SHARED is not set: the golden vectors of ../shared are not checked")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "vectors", "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range m.Cases {
		make := registry[c.Package+"."+c.Type]
		if make == nil {
			t.Errorf("%s: no Go type %s.%s", c.Name, c.Package, c.Type)
			continue
		}
		for _, f := range c.Files {
			mdl, ok := models[f.Kind]
			if !ok {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, "vectors", f.File))
			if err != nil {
				t.Fatal(err)
			}
			v := make()
			if err := mdl.read(v, data); err != nil {
				t.Errorf("%s: read: %v", f.File, err)
				continue
			}
			out, err := mdl.write(v)
			if err != nil {
				t.Errorf("%s: write: %v", f.File, err)
				continue
			}
			want := append([]byte(nil), data...)
			for _, r := range f.UnspecifiedBytes {
				clear(want[r[0] : r[0]+r[1]])
			}
			if strings.Contains(c.Roundtrip, "hash entry order") {
				// A hash has no defined order: same size, and the same value read back.
				again := make()
				if len(out) != len(want) || mdl.read(again, out) != nil || !reflect.DeepEqual(again, v) {
					t.Errorf("%s: the hash does not round-trip", f.File)
				}
			} else if string(out) != string(want) {
				t.Errorf("%s: written back, the bytes differ (%d vs %d bytes)", f.File, len(out), len(want))
			}
			checked++
			truncations(t, f.File, data, func(b []byte) error { return mdl.read(make(), b) })
		}
	}
	t.Logf("%d vectors read and written back", checked)
}

// truncations: every prefix of a root is refused with a DecodeError; every
// single-byte change either reads or is refused, without a panic.
func truncations(t *testing.T, name string, data []byte, read func([]byte) error) {
	t.Helper()
	for n := range len(data) {
		err := read(append([]byte(nil), data[:n]...))
		var de *fbe.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s cut to %d bytes: %v", name, n, err)
			return
		}
	}
	for i := range data {
		for _, b := range []byte{0x00, 0xff, data[i] ^ 0x80} {
			c := append([]byte(nil), data...)
			c[i] = b
			var de *fbe.DecodeError
			if err := read(c); err != nil && !errors.As(err, &de) {
				t.Errorf("%s byte %d = %#x: %T %v", name, i, b, err, err)
				return
			}
		}
	}
}
