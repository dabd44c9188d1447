package fbe

import (
	"cmp"
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

// Compare orders decimals by their exact value: -1, 0 or +1 as d is less than, equal to or
// greater than o. Values equal whatever their bytes are the same (1.5 and 1.50, -0 and 0): the
// order and the sameness of sets and maps (docs/limits.md 4), as C++'s decimal_t and Python's
// decimal.Decimal compare. Every scale a buffer can hold (0..255) is compared exactly.
func (d Decimal) Compare(o Decimal) int {
	dz, oz := d.IsZero(), o.IsZero()
	if dz && oz {
		return 0
	}
	dn, on := d.flags>>31 != 0 && !dz, o.flags>>31 != 0 && !oz
	if dn != on {
		if dn {
			return -1
		}
		return 1
	}
	c := compareMagnitudes(d, o)
	if dn {
		return -c
	}
	return c
}

// Equal reports whether d and o are the same value (Compare(o) == 0), whatever their bytes.
func (d Decimal) Equal(o Decimal) bool { return d.Compare(o) == 0 }

// Normalize is d without trailing fraction zeros, the sign of zero or bits beyond scale and
// sign: the one Decimal of d's value, so that == on normalized values is Equal (1.50 is 1.5).
// A Go map keyed by Decimal holds keys normalized: the readers normalize the keys they read.
func (d Decimal) Normalize() Decimal {
	if d.IsZero() {
		return Decimal{}
	}
	hi, lo, scale := d.hi, d.lo, uint8(d.flags>>16)
	for scale > 0 {
		h, l, r := divmod10(hi, lo)
		if r != 0 {
			break
		}
		hi, lo = h, l
		scale--
	}
	return DecimalFromParts(lo, hi, scale, d.flags>>31 != 0)
}

// compareMagnitudes compares |d| and |o| exactly: the magnitude of the smaller scale is
// multiplied by 10^(difference of the scales) in 192 bits (96 bits times 10^28 fits).
func compareMagnitudes(d, o Decimal) int {
	sd, so := uint8(d.flags>>16), uint8(o.flags>>16)
	if sd == so {
		if c := cmp.Compare(d.hi, o.hi); c != 0 {
			return c
		}
		return cmp.Compare(d.lo, o.lo)
	}
	if sd > so {
		return -compareMagnitudes(o, d)
	}
	// sd < so: d has the smaller scale
	if d.IsZero() {
		if o.IsZero() {
			return 0
		}
		return -1
	}
	diff := int(so - sd)
	if diff > 28 { // |d| >= 10^-sd > 2^96 * 10^-so > |o|
		return 1
	}
	w := [3]uint64{d.lo, uint64(d.hi), 0}
	for diff > 0 {
		step := min(diff, 19)
		m := pow10u[step]
		var carry uint64
		for i := range w {
			h, l := bits.Mul64(w[i], m)
			var c uint64
			w[i], c = bits.Add64(l, carry, 0)
			carry = h + c
		}
		diff -= step
	}
	if w[2] != 0 || w[1] > uint64(o.hi) {
		return 1
	}
	if w[1] < uint64(o.hi) {
		return -1
	}
	return cmp.Compare(w[0], o.lo)
}

// divmod10 divides the 96-bit magnitude by 10.
func divmod10(hi uint32, lo uint64) (uint32, uint64, uint64) {
	qh := hi / 10
	r := uint64(hi % 10)
	ql, rem := bits.Div64(r, lo, 10)
	return qh, ql, rem
}

// String is the exact value in plain decimal notation ("-123.456", "0.001"), scale digits after the point.
func (d Decimal) String() string { return string(d.appendText(nil)) }

// appendText appends String's text without allocating (but to grow dst).
func (d Decimal) appendText(dst []byte) []byte {
	var digits [29 + 256]byte // 29 digits of 96 bits; a scale read from a buffer may be up to 255
	i := len(digits)
	hi, lo := d.hi, d.lo
	for hi != 0 || lo != 0 {
		var r uint64
		hi, lo, r = divmod10(hi, lo)
		i--
		digits[i] = byte('0' + r)
	}
	scale := int(uint8(d.flags >> 16))
	for len(digits)-i <= scale { // at least one digit before the point
		i--
		digits[i] = '0'
	}
	if d.flags>>31 != 0 && !d.IsZero() {
		dst = append(dst, '-')
	}
	point := len(digits) - scale
	dst = append(dst, digits[i:point]...)
	if scale > 0 {
		dst = append(dst, '.')
		dst = append(dst, digits[point:]...)
	}
	return dst
}

// ParseDecimal reads exact decimal text [+|-]digits[.digits][e[+|-]digits]
// as the C++ runtime's decimal_t and Python's fbe.jsonfmt.parse_decimal
// read it, so every language reads the same text to the same value: more
// than 28 fraction digits round half to even; fraction digits that do not
// fit in 96 bits are dropped (rounded by the first digit dropped); trailing
// fraction zeros are dropped (as the original writer stores decimals); an
// integer part of 2^96 or more is an error, and so is text of another form.
func ParseDecimal(s string) (Decimal, error) {
	text := s
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	digitsFrom := func(from int) int {
		for from < len(s) && s[from] >= '0' && s[from] <= '9' {
			from++
		}
		return from
	}
	end := digitsFrom(i)
	intPart := s[i:end]
	frac := ""
	if end < len(s) && s[end] == '.' {
		start := end + 1
		end = digitsFrom(start)
		frac = s[start:end]
	}
	exponent := 0
	if end < len(s) && (s[end] == 'e' || s[end] == 'E') {
		start := end + 1
		eneg := false
		if start < len(s) && (s[start] == '+' || s[start] == '-') {
			eneg = s[start] == '-'
			start++
		}
		end = digitsFrom(start)
		if end == start {
			return Decimal{}, errors.New("invalid decimal \"" + text + "\"")
		}
		// as decimal_t, which stops growing the exponent past 100000: its first six significant digits
		e := strings.TrimLeft(s[start:end], "0")
		for _, c := range []byte(e[:min(len(e), 6)]) {
			exponent = exponent*10 + int(c-'0')
		}
		if eneg {
			exponent = -exponent
		}
	}
	if end != len(s) || (intPart == "" && frac == "") {
		return Decimal{}, errors.New("invalid decimal \"" + text + "\"")
	}
	outOfRange := errors.New("decimal \"" + text + "\" out of range: more than 96 bits")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return Decimal{}, nil
	}
	scale := len(frac) - exponent
	if scale < 0 {
		if len(digits)-scale > 29 {
			return Decimal{}, outOfRange
		}
		digits += strings.Repeat("0", -scale)
		scale = 0
	}
	roundUp := false
	if scale > 28 {
		drop := scale - 28
		if drop > len(digits) {
			return Decimal{}, nil
		}
		keep := len(digits) - drop
		dropped := digits[keep:]
		digits = digits[:keep]
		scale = 28
		rest := strings.Trim(dropped[1:], "0") != ""
		odd := digits != "" && (digits[len(digits)-1]-'0')&1 == 1
		roundUp = dropped[0] > '5' || (dropped[0] == '5' && (rest || odd))
	}
	// the magnitude (hi:lo) of digits plus roundUp, while it needs more than 96 bits: drop a fraction digit
	var hi, lo uint64
	for {
		hi, lo = 0, 0
		fits := len(digits) <= 29
		if fits {
			for _, c := range []byte(digits) {
				h1, l1 := bits.Mul64(lo, 10)
				var carry uint64
				lo, carry = bits.Add64(l1, uint64(c-'0'), 0)
				hi = hi*10 + h1 + carry
			}
			if roundUp {
				var carry uint64
				lo, carry = bits.Add64(lo, 1, 0)
				hi += carry
			}
			fits = hi < 1<<32
		}
		if fits {
			break
		}
		if scale == 0 {
			return Decimal{}, outOfRange
		}
		roundUp = digits[len(digits)-1] >= '5'
		digits = digits[:len(digits)-1]
		scale--
	}
	if hi == 0 && lo == 0 {
		return Decimal{}, nil
	}
	for scale > 0 {
		h, l, r := divmod10(uint32(hi), lo)
		if r != 0 {
			break
		}
		hi, lo = uint64(h), l
		scale--
	}
	return DecimalFromParts(lo, uint32(hi), uint8(scale), neg), nil
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
