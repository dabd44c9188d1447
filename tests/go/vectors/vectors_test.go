// Package vectors reads every golden vector of ../shared (SHARED) with the
// generated Go code in both binary models and writes it back byte for byte
// (unspecified bytes masked, hashes compared after a second read), and
// checks that every truncation is refused, no corruption panics and verify
// gives the error deserialize gives (nil exactly when it reads). Each vector
// is also read into a value reused across the cases of its type (its slices,
// maps and optional pointers kept from the case before) and must write back
// the same bytes. The JSON and text the generated code writes are the
// original's byte for byte (TestGoldenJSONAndText).
// tests/go/test_go_generated.py builds it with registry_test.go, generated
// from the MANIFEST: the types by name.
package vectors

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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
	AppendJSON([]byte) ([]byte, error)
	UnmarshalJSON([]byte) error
	String() string
}

// entry is a registered type: its constructor and its two generated verify functions.
type entry struct {
	make        func() value
	verify      func([]byte, *fbe.Limits) error
	verifyFinal func([]byte, *fbe.Limits) error
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
	read   func(value, []byte) error
	write  func(value) ([]byte, error)
	verify func(entry) func([]byte, *fbe.Limits) error
}

var models = map[string]model{
	"versioned": {func(v value, b []byte) error { return v.UnmarshalFBE(b) }, func(v value) ([]byte, error) { return v.MarshalFBE() },
		func(e entry) func([]byte, *fbe.Limits) error { return e.verify }},
	"final": {func(v value, b []byte) error { return v.UnmarshalFinal(b) }, func(v value) ([]byte, error) { return v.MarshalFinal() },
		func(e entry) func([]byte, *fbe.Limits) error { return e.verifyFinal }},
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
	reused := map[string]value{} // per model and type, the value the previous case read into
	for _, c := range m.Cases {
		e, ok := registry[c.Package+"."+c.Type]
		if !ok {
			t.Errorf("%s: no Go type %s.%s", c.Name, c.Package, c.Type)
			continue
		}
		make := e.make
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
			if err := mdl.verify(e)(data, nil); err != nil {
				t.Errorf("%s: verify: %v", f.File, err)
			}
			key := f.Kind + " " + c.Package + "." + c.Type
			if reused[key] == nil {
				reused[key] = make()
			}
			if err := mdl.read(reused[key], data); err != nil {
				t.Errorf("%s: read into a reused value: %v", f.File, err)
			} else if again, _ := mdl.write(reused[key]); string(again) != string(out) {
				t.Errorf("%s: read into a reused value, written back, the bytes differ", f.File)
			}
			checked++
			truncations(t, f.File, data, func(b []byte) error { return mdl.read(make(), b) }, mdl.verify(e))
		}
	}
	t.Logf("%d vectors read and written back", checked)
}

// truncations: every prefix of a root is refused with a DecodeError; every
// single-byte change either reads or is refused, without a panic; verify
// answers each as deserialize does, with the same error.
func truncations(t *testing.T, name string, data []byte, read func([]byte) error, verify func([]byte, *fbe.Limits) error) {
	t.Helper()
	for n := range len(data) {
		cut := append([]byte(nil), data[:n]...)
		err := read(cut)
		var de *fbe.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s cut to %d bytes: %v", name, n, err)
			return
		}
		if !sameError(err, verify(cut, nil)) {
			t.Errorf("%s cut to %d bytes: deserialize %v, verify %v", name, n, err, verify(cut, nil))
			return
		}
	}
	for i := range data {
		for _, b := range []byte{0x00, 0xff, data[i] ^ 0x80} {
			c := append([]byte(nil), data...)
			c[i] = b
			var de *fbe.DecodeError
			err := read(c)
			if err != nil && !errors.As(err, &de) {
				t.Errorf("%s byte %d = %#x: %T %v", name, i, b, err, err)
				return
			}
			if !sameError(err, verify(c, nil)) {
				t.Errorf("%s byte %d = %#x: deserialize %v, verify %v", name, i, b, err, verify(c, nil))
				return
			}
		}
	}
}

// sameError: both nil, or both errors with the same message (type, path, offset and reason).
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Error() == b.Error()
}

// TestGoldenJSONAndText: for every MANIFEST case, the value read from the
// versioned file prints the .txt file and writes the .json file byte for byte
// (hashes: the same bytes in any order, the same JSON members); the .json
// file read and written back is itself; the JSON written reads back to the
// same value; truncations of the JSON (about a hundred each) are refused with a DecodeError.
func TestGoldenJSONAndText(t *testing.T) {
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
	texts, jsons := 0, 0
	for _, c := range m.Cases {
		make := registry[c.Package+"."+c.Type].make
		files := map[string][]byte{}
		for _, f := range c.Files {
			data, err := os.ReadFile(filepath.Join(dir, "vectors", f.File))
			if err != nil {
				t.Fatal(err)
			}
			files[f.Kind] = data
		}
		unordered := strings.Contains(c.Roundtrip, "hash entry order")
		v := make()
		if err := v.UnmarshalFBE(files["versioned"]); err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if want, ok := files["text"]; ok {
			got := []byte(v.String())
			if unordered {
				slices.Sort(got)
				want = slices.Clone(want)
				slices.Sort(want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: text\n got %q\nwant %q", c.Name, got, files["text"])
			}
			texts++
		}
		want, ok := files["json"]
		if !ok {
			continue
		}
		got, err := v.AppendJSON(nil)
		if err != nil || !sameJSON(got, want, unordered) {
			t.Errorf("%s: JSON (%v)\n got %s\nwant %s", c.Name, err, got, want)
		}
		back := make()
		if err := back.UnmarshalJSON(got); err != nil || !reflect.DeepEqual(back, v) {
			t.Errorf("%s: our JSON read back: %v\n%+v\n%+v", c.Name, err, back, v)
		}
		original := make()
		if err := original.UnmarshalJSON(want); err != nil {
			t.Errorf("%s: the original's JSON: %v", c.Name, err)
		} else if again, err := original.AppendJSON(nil); err != nil || !sameJSON(again, want, unordered) {
			t.Errorf("%s: the original's JSON written back (%v)\n got %s\nwant %s", c.Name, err, again, want)
		}
		for n := 0; n < len(want); n += 1 + len(want)/97 {
			var de *fbe.DecodeError
			if err := make().UnmarshalJSON(want[:n]); !errors.As(err, &de) {
				t.Errorf("%s: JSON cut to %d bytes: %v", c.Name, n, err)
				break
			}
		}
		jsons++
	}
	if texts == 0 || jsons == 0 {
		t.Fatalf("%d texts and %d JSON files checked", texts, jsons)
	}
	t.Logf("%d texts and %d JSON files byte-identical", texts, jsons)
}

// sameJSON: the same bytes, or for a value holding a hash the same JSON value (members in any order).
func sameJSON(got, want []byte, unordered bool) bool {
	if !unordered {
		return bytes.Equal(got, want)
	}
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal(want, &b) == nil && reflect.DeepEqual(a, b)
}
