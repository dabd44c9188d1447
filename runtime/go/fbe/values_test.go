package fbe

import (
	"bytes"
	"math"
	"strings"
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

// The text of decimals as they come from a buffer: any scale (a byte), a sign on zero, zeros
// kept; the JSON text (at least 6 fraction digits) without allocating.
func TestDecimalText(t *testing.T) {
	for _, c := range []struct {
		d          Decimal
		text, json string
	}{
		{DecimalFromParts(0, 0, 0, false), "0", `"0.000000"`},
		{DecimalFromParts(0, 0, 2, true), "0.00", `"0.000000"`},
		{DecimalFromParts(150, 0, 2, false), "1.50", `"1.500000"`},
		{DecimalFromParts(5, 0, 3, true), "-0.005", `"-0.005000"`},
		{DecimalFromParts(1234567, 0, 7, false), "0.1234567", `"0.1234567"`},
		{DecimalFromParts(math.MaxUint64, math.MaxUint32, 0, false), "79228162514264337593543950335",
			`"79228162514264337593543950335.000000"`},
		{DecimalFromParts(1, 0, 40, false), "0." + strings.Repeat("0", 39) + "1", `"0.` + strings.Repeat("0", 39) + `1"`},
		{DecimalFromParts(7, 0, 255, false), "0." + strings.Repeat("0", 254) + "7", `"0.` + strings.Repeat("0", 254) + `7"`},
	} {
		var j JSONWriter
		if j.Decimal(c.d); c.d.String() != c.text || string(j.B) != c.json {
			t.Errorf("%v: %s, %s; want %s, %s", c.d, c.d.String(), j.B, c.text, c.json)
		}
	}
	j := JSONWriter{B: make([]byte, 0, 64)}
	d := DecimalFromParts(math.MaxUint64, math.MaxUint32, 9, true)
	if n := testing.AllocsPerRun(20, func() { j.B = j.B[:0]; j.Decimal(d) }); n != 0 {
		t.Errorf("JSONWriter.Decimal: %v allocations", n)
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
