package fbe

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"strings"
)

// Decimal is an exact FBE decimal (docs/format.md 2.4): a 96-bit magnitude,
// a scale 0..28 and a sign, the value being ±magnitude / 10^scale. The zero
// value is 0. Values made by this package are normalised as the original
// writer normalises them (no trailing fraction zeros, zero never negative);
// values read from a buffer keep the bytes they were read from.
type Decimal struct {
	lo    uint64
	hi    uint32
	flags uint32 // scale << 16 | sign << 31, as on the wire
}

var pow10f = func() (t [29]float64) {
	t[0] = 1
	for i := 1; i < len(t); i++ {
		t[i] = t[i-1] * 10
	}
	return
}()

// DecimalFromParts builds a decimal from its magnitude (hi:lo, 96 bits), scale and sign, exactly as given.
func DecimalFromParts(lo uint64, hi uint32, scale uint8, negative bool) Decimal {
	flags := uint32(scale) << 16
	if negative {
		flags |= 1 << 31
	}
	return Decimal{lo: lo, hi: hi, flags: flags}
}

// Parts are the decimal's magnitude (hi:lo), scale and sign.
func (d Decimal) Parts() (lo uint64, hi uint32, scale uint8, negative bool) {
	return d.lo, d.hi, uint8(d.flags >> 16), d.flags>>31 != 0
}

// DecimalFromFloat64 converts a double as the original writer does
// (docs/format.md 2.4, 15 significant digits), so the bytes match its.
func DecimalFromFloat64(v float64) Decimal {
	b := math.Float64bits(v)
	x := int((b>>52)&0x7ff) - 1022
	if x < -94 || x > 96 {
		return Decimal{}
	}
	neg := b>>63 != 0
	d := math.Abs(v)
	p := 14 - ((x * 19728) >> 16)
	if p >= 0 {
		p = min(p, 28)
		d *= pow10f[p]
	} else if p != -1 || d >= 1e15 {
		d /= pow10f[-p]
	} else {
		p = 0
	}
	if d < 1e14 && p < 28 {
		d *= 10
		p++
	}
	m := uint64(d)
	f := d - float64(m)
	if f > 0.5 || (f == 0.5 && m&1 != 0) {
		m++
	}
	if m == 0 {
		return Decimal{}
	}
	if p < 0 {
		// m * 10^-p, exact in 96 bits (x <= 96 keeps the value below 2^96).
		var hi, lo uint64 = 0, m
		for range -p {
			h1, l1 := bits.Mul64(lo, 10)
			hi = hi*10 + h1
			lo = l1
		}
		return DecimalFromParts(lo, uint32(hi), 0, neg)
	}
	budget := min(14, p)
	for _, z := range [...]struct {
		n   int
		div uint64
	}{{8, 100000000}, {4, 10000}, {2, 100}, {1, 10}} {
		if z.n <= budget && m%z.div == 0 {
			m /= z.div
			p -= z.n
			budget -= z.n
		}
	}
	return DecimalFromParts(m, 0, uint8(p), neg)
}

// Float64 is the original reader's conversion: (lo + hi * 2^64) / 10^scale, negated when the sign is set.
func (d Decimal) Float64() float64 {
	scale := int(uint8(d.flags >> 16))
	den := math.Pow10(scale)
	if scale < len(pow10f) {
		den = pow10f[scale]
	}
	f := (float64(d.lo) + float64(d.hi)*18446744073709551616.0) / den
	if d.flags>>31 != 0 {
		return -f
	}
	return f
}

// IsZero reports whether the magnitude is 0.
func (d Decimal) IsZero() bool { return d.lo == 0 && d.hi == 0 }

// divmod10 divides the 96-bit magnitude by 10.
func divmod10(hi uint32, lo uint64) (uint32, uint64, uint64) {
	qh := hi / 10
	r := uint64(hi % 10)
	ql, rem := bits.Div64(r, lo, 10)
	return qh, ql, rem
}

// String is the exact value in plain decimal notation ("-123.456", "0.001"), scale digits after the point.
func (d Decimal) String() string {
	var digits [40]byte
	i := len(digits)
	hi, lo := d.hi, d.lo
	for hi != 0 || lo != 0 {
		var r uint64
		hi, lo, r = divmod10(hi, lo)
		i--
		digits[i] = byte('0' + r)
	}
	s := string(digits[i:])
	scale := int(uint8(d.flags >> 16))
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if d.flags>>31 != 0 && !d.IsZero() {
		s = "-" + s
	}
	return s
}

var errDecimalSyntax = errors.New("invalid decimal")

// ParseDecimal reads an exact decimal ("-123.456", "1e-3", "100"): more
// than 28 fraction digits round half to even, trailing fraction zeros are
// dropped (as the original writer stores them), and a magnitude of 2^96 or
// more is an error.
func ParseDecimal(s string) (Decimal, error) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, ok := parseSmallInt(s[i+1:])
		if !ok {
			return Decimal{}, errDecimalSyntax
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" {
		return Decimal{}, errDecimalSyntax
	}
	all := intPart + frac
	scale := len(frac) - exp
	for _, c := range []byte(all) {
		if c < '0' || c > '9' {
			return Decimal{}, errDecimalSyntax
		}
	}
	all = strings.TrimLeft(all, "0")
	for scale < 0 { // a positive exponent beyond the digits: append zeros
		all += "0"
		scale++
	}
	round := byte(0) // the first dropped digit; sticky marks non-zero digits after it
	sticky := false
	for scale > 28 {
		if len(all) == 0 { // every digit lies below 10^-29: what was dropped is all sticky
			sticky = sticky || round != 0
			round = 0
			scale = 28
			break
		}
		if round != 0 {
			sticky = true
		}
		round = all[len(all)-1] - '0'
		all = all[:len(all)-1]
		scale--
	}
	// round is the most significant dropped digit, sticky tells whether any digit below it was non-zero.
	var hi, lo uint64
	for _, c := range []byte(all) {
		h1, l1 := bits.Mul64(lo, 10)
		var carry uint64
		lo, carry = bits.Add64(l1, uint64(c-'0'), 0)
		hi = hi*10 + h1 + carry
		if hi >= 1<<32 {
			return Decimal{}, errors.New("decimal does not fit in 96 bits")
		}
	}
	if round > 5 || (round == 5 && (sticky || lo&1 != 0)) {
		var carry uint64
		lo, carry = bits.Add64(lo, 1, 0)
		hi += carry
		if hi >= 1<<32 {
			return Decimal{}, errors.New("decimal does not fit in 96 bits")
		}
	}
	for scale > 0 {
		h, l, r := divmod10(uint32(hi), lo)
		if r != 0 {
			break
		}
		hi, lo = uint64(h), l
		scale--
	}
	if hi == 0 && lo == 0 {
		return Decimal{}, nil
	}
	return DecimalFromParts(lo, uint32(hi), uint8(scale), neg), nil
}

func parseSmallInt(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// PutDecimal writes the 16 wire bytes of d at b[0:16].
func PutDecimal(b []byte, d Decimal) {
	_ = b[15]
	binary.LittleEndian.PutUint64(b, d.lo)
	binary.LittleEndian.PutUint32(b[8:], d.hi)
	binary.LittleEndian.PutUint32(b[12:], d.flags)
}

// GetDecimal reads the 16 wire bytes at b[0:16] as they are.
func GetDecimal(b []byte) Decimal {
	_ = b[15]
	return Decimal{lo: binary.LittleEndian.Uint64(b), hi: binary.LittleEndian.Uint32(b[8:]), flags: binary.LittleEndian.Uint32(b[12:])}
}
