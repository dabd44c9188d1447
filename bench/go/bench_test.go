package tradebench

import (
	"bytes"
	"testing"

	"fbebench/gen/proto"
)

var sink int

// TestRows checks every row before anything is timed (make test-go runs it):
// the round trips and verifiers of Check, and the allocations of our reuse
// paths (docs/go.md): 0 to serialize into a reused Writer, the sample's
// strings only to deserialize into a reused object, 0 to verify. It prints a
// "row" line per row for bench/go/report.py.
func TestRows(t *testing.T) {
	a := Sample()
	for _, r := range Rows() {
		if r.Missing != "" {
			t.Logf("row\t%s\t%s\tmissing\t%s", r.ID, r.Name, r.Missing)
			continue
		}
		if err := Check(r); err != nil {
			t.Errorf("row\t%s\t%s\tfailed\t%v", r.ID, r.Name, err)
			continue
		}
		t.Logf("row\t%s\t%s\tok\t", r.ID, r.Name)
		if r.ID != "fbe" && r.ID != "fbe-final" {
			continue
		}
		data, _ := r.Serialize(a)
		data = bytes.Clone(data)
		var v proto.Account
		if err := r.Deserialize(data, &v); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = r.Serialize(a) }); n != 0 {
			t.Errorf("%s: serialize: %v allocs/op, want 0", r.ID, n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = r.Deserialize(data, &v) }); n != SampleStrings {
			t.Errorf("%s: deserialize into a reused object: %v allocs/op, want %d (its strings)", r.ID, n, SampleStrings)
		}
		if n := testing.AllocsPerRun(100, func() { _ = r.Verify(data) }); n != 0 {
			t.Errorf("%s: verify: %v allocs/op, want 0", r.ID, n)
		}
	}
}

// BenchmarkTrade times every row that passes Check: serialize (domain object
// -> bytes), deserialize (bytes -> the reused domain object, then Touch) and
// verify where the format has a verifier; each serialize reports the message
// size as msg-bytes.
func BenchmarkTrade(b *testing.B) {
	a := Sample()
	for _, r := range Rows() {
		if err := Check(r); err != nil {
			b.Logf("%s: not timed: %v", r.ID, err)
			continue
		}
		data, err := r.Serialize(a)
		if err != nil {
			b.Fatal(err)
		}
		data = bytes.Clone(data)
		b.Run(r.ID+"/serialize", func(b *testing.B) {
			b.ReportAllocs()
			loopSerialize(b, r, a)
			b.ReportMetric(float64(len(data)), "msg-bytes")
		})
		b.Run(r.ID+"/deserialize", func(b *testing.B) {
			b.ReportAllocs()
			var v proto.Account
			_ = r.Deserialize(data, &v) // warm: the object is reused, as a server reuses its own
			loopDeserialize(b, r, data, &v)
		})
		if r.Verify != nil {
			b.Run(r.ID+"/verify", func(b *testing.B) {
				b.ReportAllocs()
				loopVerify(b, r, data)
			})
		}
	}
}

// The timed loops (out of line, so a profile names them).

//go:noinline
func loopSerialize(b *testing.B, r *Row, a *proto.Account) {
	for b.Loop() {
		if _, err := r.Serialize(a); err != nil {
			b.Fatal(err)
		}
	}
}

//go:noinline
func loopDeserialize(b *testing.B, r *Row, data []byte, v *proto.Account) {
	for b.Loop() {
		if err := r.Deserialize(data, v); err != nil {
			b.Fatal(err)
		}
		sink += Touch(v)
	}
}

//go:noinline
func loopVerify(b *testing.B, r *Row, data []byte) {
	for b.Loop() {
		if err := r.Verify(data); err != nil {
			b.Fatal(err)
		}
	}
}
