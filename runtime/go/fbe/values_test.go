package fbe

import (
	"bytes"
	"math"
	"testing"
)

func TestDecimalFromFloat64(t *testing.T) {
	// docs/format.md 2.4's examples, then edges of the conversion.
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0.1, "0.1"}, {-123.456, "-123.456"}, {1.0 / 3, "0.333333333333333"},
		{1e20, "100000000000000000000"}, {1e-29, "0"}, {0, "0"}, {math.Copysign(0, -1), "0"},
		{1000, "1000"}, {1.23456, "1.23456"}, {math.Inf(1), "0"}, {math.NaN(), "0"},
		{7.9e28, "79000000000000000000000000000"}, {8e28, "0"},
	} {
		d := DecimalFromFloat64(c.in)
		if got := d.String(); got != c.want {
			t.Errorf("DecimalFromFloat64(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	// The exact bytes of -123.456: magnitude 123456, scale 3, sign.
	var b [16]byte
	PutDecimal(b[:], DecimalFromFloat64(-123.456))
	want := []byte{0x40, 0xe2, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0x80}
	if !bytes.Equal(b[:], want) {
		t.Errorf("-123.456: % x, want % x", b, want)
	}
	if GetDecimal(b[:]) != DecimalFromFloat64(-123.456) {
		t.Error("GetDecimal(PutDecimal(d)) != d")
	}
}

func TestParseDecimal(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"123.4560", "123.456"}, {"-0.001", "-0.001"}, {"1e3", "1000"}, {"1.5e-3", "0.0015"},
		{"0.00", "0"}, {"-0", "0"}, {"79228162514264337593543950335", "79228162514264337593543950335"},
		{"0.00000000000000000000000000015", "0.0000000000000000000000000002"},  // 29 digits: half to even, up
		{"0.00000000000000000000000000025", "0.0000000000000000000000000002"},  // half to even, down
		{"0.000000000000000000000000000251", "0.0000000000000000000000000003"}, // above half
		{"5e-30", "0"},
	} {
		d, err := ParseDecimal(c.in)
		if err != nil || d.String() != c.want {
			t.Errorf("ParseDecimal(%q) = %s, %v; want %s", c.in, d, err, c.want)
		}
	}
	for _, bad := range []string{"", "x", "1.2.3", "79228162514264337593543950336", "1e", "--1"} {
		if _, err := ParseDecimal(bad); err == nil {
			t.Errorf("ParseDecimal(%q) accepted", bad)
		}
	}
	d, _ := ParseDecimal("-123.456")
	if d.Float64() != -123.456 {
		t.Errorf("Float64: %v", d.Float64())
	}
}

func TestUUID(t *testing.T) {
	const text = "123e4567-e89b-12d3-a456-426655440000"
	u, err := ParseUUID(text)
	want := UUID{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0, 0}
	if err != nil || u != want || u.String() != text {
		t.Fatalf("ParseUUID: %v %v %s", u, err, u)
	}
	// The original's leniency (docs/format.md 2.3): braces and dashes anywhere, either case, short texts.
	if v, err := ParseUUID("{123E4567E89B-12d3a456-426655440000}"); err != nil || v != want {
		t.Errorf("lenient: %v %v", v, err)
	}
	if v, err := ParseUUID("12-3e"); err != nil || v != (UUID{0x12, 0x3e}) {
		t.Errorf("short: %v %v", v, err)
	}
	if _, err := ParseUUID("12g4"); err == nil {
		t.Error("non-hex digit accepted")
	}
	a, b := NewUUID1(), NewUUID1()
	if a == b || a[6]>>4 != 1 || NewUUID4()[6]>>4 != 4 {
		t.Errorf("uuid1/uuid4 versions: %s %s", a, b)
	}
}

func TestTimestamp(t *testing.T) {
	ts := Timestamp(1_500_000_000_123_456_789)
	if TimestampOf(ts.Time()) != ts || ts.Time().Year() != 2017 {
		t.Errorf("round trip through time.Time: %v", ts.Time())
	}
}

func TestHasDuplicate(t *testing.T) {
	long := make([]int, 40)
	for i := range long {
		long[i] = i
	}
	if HasDuplicate([]int{1, 2, 3}) || HasDuplicate(long) || HasDuplicate([]string(nil)) {
		t.Error("a duplicate found where there is none")
	}
	long[39] = 7
	if !HasDuplicate([]int{1, 2, 1}) || !HasDuplicate(long) {
		t.Error("a duplicate missed")
	}
}

// A reused Writer hands out zeroed blocks (absent optionals, unwritten slots) although Alloc
// does not clear them: Reset clears what was written; appending to the returned bytes never
// writes into the Writer's buffer.
func TestWriterReuseGivesZeroedBlocks(t *testing.T) {
	var w Writer
	for round := range 3 {
		w.BeginVersioned()
		p := w.Alloc(100)
		for i := range 100 {
			if w.buf[p+i] != 0 {
				t.Fatalf("round %d: byte %d of a new block is %#x", round, i, w.buf[p+i])
			}
			w.PutU8(p+i, 0xff)
		}
		out, err := w.EndVersioned()
		if err != nil || len(out) != 108 || cap(out) != len(out) {
			t.Fatalf("round %d: %d bytes, cap %d, %v", round, len(out), cap(out), err)
		}
		_ = append(out, 0xee) // must not land in the Writer's spare capacity
		w.BeginFinal()
		w.AppendU64(^uint64(0))
		if q := w.Alloc(8); w.buf[q] != 0 || w.buf[q+7] != 0 {
			t.Fatalf("round %d: block after appends not zero", round)
		}
	}
}
