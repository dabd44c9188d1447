package fbe

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
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

// The text of decimals as they come from a buffer: a sign on zero, zeros kept; the JSON text (the
// value as the writers store it, no trailing fraction zeros, then at least 6 fraction digits)
// without allocating.
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
		{DecimalFromParts(150000000, 0, 8, false), "1.50000000", `"1.500000"`},
		{DecimalFromParts(1, 0, 28, false), "0." + strings.Repeat("0", 27) + "1", `"0.` + strings.Repeat("0", 27) + `1"`},
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
		{"0.10000000000000000000000000000000", "0.1"}, // more than 28 fraction digits, but zeros
		{"7.9228162514264337593543950335e28", "79228162514264337593543950335"},
		{"0e99999999999999999999", "0"}, {strings.Repeat("0", 63) + "1", "1"},
	} {
		d, err := ParseDecimal(c.in)
		if err != nil || d.String() != c.want {
			t.Errorf("ParseDecimal(%q) = %s, %v; want %s", c.in, d, err, c.want)
		}
	}
	// docs/format.md 2.4: what no decimal holds is refused, never rounded; docs/limits.md 7: at
	// most 64 characters, an error quoting 32 at most
	for _, c := range []struct{ in, err string }{
		{"", `invalid decimal ""`}, {"x", `invalid decimal "x"`}, {"1.2.3", `invalid decimal "1.2.3"`},
		{"1e", `invalid decimal "1e"`}, {"--1", `invalid decimal "--1"`},
		{"79228162514264337593543950336", `decimal "79228162514264337593543950336" out of range: more than 96 bits`},
		{"0.00000000000000000000000000015", `decimal "0.00000000000000000000000000015" has more than 28 fraction digits`},
		{"5e-30", `decimal "5e-30" has more than 28 fraction digits`},
		{strings.Repeat("1", 1<<20), `decimal text longer than 64 characters: "11111111111111111111111111111111"...`},
	} {
		if _, err := ParseDecimal(c.in); err == nil || err.Error() != c.err {
			t.Errorf("ParseDecimal(%.40q): %v, want %s", c.in, err, c.err)
		}
	}
	d, _ := ParseDecimal("-123.456")
	if d.Float64() != -123.456 {
		t.Errorf("Float64: %v", d.Float64())
	}
}

// docs/format.md 2.4: no Decimal holds a scale above 28, and writers store the normalised form.
func TestDecimalScaleAndWireForm(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("DecimalFromParts accepted scale 29")
			}
		}()
		DecimalFromParts(1, 0, 29, false)
	}()
	for _, c := range []struct {
		d    Decimal
		want []byte
	}{
		{DecimalFromParts(150, 0, 2, false), []byte{15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}},
		{DecimalFromParts(0, 0, 3, true), make([]byte, 16)},
		{DecimalFromFloat64(0.9999999999999999), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		var b [16]byte
		PutDecimal(b[:], c.d)
		if !bytes.Equal(b[:], c.want) {
			t.Errorf("PutDecimal(%v) = % x, want % x", c.d, b, c.want)
		}
	}
	var r Reader
	for _, c := range []struct {
		flags uint32
		err   string
	}{
		{29 << 16, "decimal scale 29 above 28 (f, offset 8)"},
		{1<<31 | 255<<16, "decimal scale 255 above 28 (f, offset 8)"},
		{2<<16 | 1, "decimal flags 0x00020001: reserved bits set (f, offset 8)"},
		{2<<16 | 1<<24, "decimal flags 0x01020000: reserved bits set (f, offset 8)"},
	} {
		data := make([]byte, 24)
		binary.LittleEndian.PutUint32(data[20:], c.flags)
		r.BeginFinal(append([]byte{24, 0, 0, 0, 1, 0, 0, 0}, data[8:]...), 1, nil)
		if d := r.Decimal(8, "f"); !d.IsZero() || r.Err() == nil || r.Err().Error() != c.err {
			t.Errorf("flags %#x: %v, %v; want %s", c.flags, d, r.Err(), c.err)
		}
	}
}

// Decimals compare by their exact value (docs/limits.md 4: 1.5 and 1.50, -0 and 0 are the same
// key; C++'s decimal_t and Python's decimal.Decimal order them alike), at every scale a buffer can
// hold, against math/big's exact fractions; Normalize gives the one Decimal of each value.
func TestDecimalCompare(t *testing.T) {
	rat := func(d Decimal) *big.Rat {
		lo, hi, scale, neg := d.Parts()
		m := new(big.Int).Lsh(new(big.Int).SetUint64(uint64(hi)), 64)
		m.Or(m, new(big.Int).SetUint64(lo))
		if neg {
			m.Neg(m)
		}
		return new(big.Rat).SetFrac(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	}
	const max96 = 1<<32 - 1
	for _, c := range []struct {
		a, b Decimal
		want int
	}{
		{MustDecimal("1.5"), DecimalFromParts(150, 0, 2, false), 0},
		{Decimal{}, DecimalFromParts(0, 0, 7, true), 0},                                   // -0 and 0
		{DecimalFromParts(5, 0, 1, false), Decimal{lo: 5, flags: 1<<16 | 1<<5}, 0},        // a bit beyond scale and sign
		{DecimalFromParts(1, 0, 0, false), DecimalFromParts(1<<63, max96, 28, false), -1}, // 1 < 7.92...
		{DecimalFromParts(1, 0, 27, false), DecimalFromParts(1, 0, 28, false), 1},
		{DecimalFromParts(1, 0, 0, false), DecimalFromParts(^uint64(0), max96, 28, false), -1},
		{DecimalFromParts(0, 0, 0, false), DecimalFromParts(1, 0, 28, false), -1},
		{DecimalFromParts(1, 0, 28, true), DecimalFromParts(0, 0, 0, false), -1},
		{MustDecimal("-2"), MustDecimal("-1.99999999999999999999999"), -1},
		// beyond a double's digits: the same double, different values
		{MustDecimal("0.1000000000000000000000000001"), MustDecimal("0.1"), 1},
	} {
		for _, x := range [][2]Decimal{{c.a, c.b}, {c.b, c.a}} {
			want := c.want
			if x[0] != c.a {
				want = -want
			}
			if got := x[0].Compare(x[1]); got != want || got != rat(x[0]).Cmp(rat(x[1])) {
				t.Errorf("%v.Compare(%v) = %d, want %d", x[0], x[1], got, want)
			}
			if x[0].Equal(x[1]) != (want == 0) || (x[0].Normalize() == x[1].Normalize()) != (want == 0) {
				t.Errorf("%v and %v: Equal %v, normalized %v and %v", x[0], x[1], x[0].Equal(x[1]), x[0].Normalize(), x[1].Normalize())
			}
		}
	}
	// random parts: magnitudes with trailing zeros, small and large, every scale
	rng := rand.New(rand.NewPCG(1, 2))
	part := func() Decimal {
		var lo uint64
		var hi uint32
		switch rng.IntN(4) {
		case 0:
			lo = uint64(rng.IntN(20))
		case 1:
			lo = uint64(rng.IntN(1000)) * pow10u[rng.IntN(17)]
		default:
			lo, hi = rng.Uint64(), rng.Uint32()
		}
		scale := rng.IntN(29)
		d := DecimalFromParts(lo, hi, uint8(scale), rng.IntN(2) == 0)
		d.flags |= uint32(rng.IntN(2)) << 3 // a bit beyond scale and sign: no part of the value
		return d
	}
	for range 50000 {
		a := part()
		b := a
		if rng.IntN(2) == 0 {
			b = part()
		} else if s := uint8(b.flags >> 16); s < 28 { // the same value at one scale more, when it fits
			if h, l := bits.Mul64(b.lo, 10); (uint64(b.hi)*10+h)>>32 == 0 {
				b = DecimalFromParts(l, uint32(uint64(b.hi)*10+h), s+1, b.flags>>31 != 0)
			}
		}
		want := rat(a).Cmp(rat(b))
		if got := a.Compare(b); got != want {
			t.Fatalf("%x.Compare(%x) = %d, want %d", a, b, got, want)
		}
		if (a.Normalize() == b.Normalize()) != (want == 0) || rat(a.Normalize()).Cmp(rat(a)) != 0 {
			t.Fatalf("%x, %x: normalized %x, %x (compare %d)", a, b, a.Normalize(), b.Normalize(), want)
		}
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

// A reader's map read into a value that held one: Empty keeps the map (what was in it gone),
// or makes one when there is none.
func TestEmptyKeepsTheMapCleared(t *testing.T) {
	m := map[int32]string{1: "a", 2: "b"}
	kept := m
	Empty(&kept, 4)
	kept[3] = "c"
	if len(kept) != 1 || len(m) != 1 || m[3] != "c" {
		t.Fatalf("Empty of a map holding 2: %v (the map itself now %v)", kept, m)
	}
	var none map[string]float64
	if Empty(&none, 2); none == nil || len(none) != 0 {
		t.Fatalf("Empty of nil: %v", none)
	}
}
