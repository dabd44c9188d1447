package fbe

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Decimal is an exact FBE decimal (docs/format.md 2.4): a 96-bit magnitude,
// a scale 0..28 and a sign, the value being ±magnitude / 10^scale. The zero
// value is 0. Values made by this package are normalised (no trailing
// fraction zeros, zero never negative); values read from a buffer keep the
// bytes they were read from (1.50 stays 1.50). Writers store every value
// normalised (PutDecimal): one value, one encoding. No Decimal holds a scale
// above 28: DecimalFromParts refuses one and the readers refuse the bytes.
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

// MaxDecimalText is the longest decimal text ParseDecimal reads (docs/limits.md 7).
const MaxDecimalText = 64

// decimalReserved are the flag bits of a decimal that are neither its scale nor its sign.
const decimalReserved = 0x7F00FFFF

// DecimalFromParts builds a decimal from its magnitude (hi:lo, 96 bits), scale and sign, exactly
// as given (1.50 stays 1.50). It panics on a scale above 28, which no decimal has
// (docs/format.md 2.4).
func DecimalFromParts(lo uint64, hi uint32, scale uint8, negative bool) Decimal {
	if scale > 28 {
		panic("fbe: DecimalFromParts: decimal scale " + strconv.Itoa(int(scale)) + " above 28")
	}
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

// decimalFlagsError is why a decimal's wire flags are refused (a scale above 28, reserved bits
// set: docs/format.md 2.4), or "".
func decimalFlagsError(flags uint32) string {
	if scale := flags >> 16 & 0xFF; scale > 28 {
		return "decimal scale " + strconv.Itoa(int(scale)) + " above 28"
	}
	if flags&decimalReserved != 0 {
		return fmt.Sprintf("decimal flags 0x%08X: reserved bits set", flags)
	}
	return ""
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
	if d.flags&0x7FFFFFFF == 0 && (d.flags == 0 || !d.IsZero()) {
		return d // no fraction, no sign on zero: the common case
	}
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

// ParseDecimal reads exact decimal text [+|-]digits[.digits][(e|E)[+|-]digits]
// as every runtime of the toolkit reads it (docs/format.md 2.4): at most
// MaxDecimalText characters, and a value some decimal holds (at most 28
// fraction digits once trailing zeros are dropped, a magnitude below 2^96),
// never rounded; the value has no trailing fraction zeros ("1.50" is 1.5).
// An error quotes at most the text's first 32 characters (docs/limits.md 7).
func ParseDecimal(s string) (Decimal, error) {
	if len(s) > MaxDecimalText {
		return Decimal{}, errors.New("decimal text longer than " + strconv.Itoa(MaxDecimalText) + " characters: " +
			quotePrefix(s))
	}
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	// the digits without leading zeros; fraction of them (zeros included) follow the point
	var digits [MaxDecimalText]byte
	count, fraction, any, point := 0, 0, false, false
	for ; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			any = true
			if count != 0 || c != '0' {
				digits[count] = c
				count++
			}
			if point {
				fraction++
			}
		} else if c == '.' && !point {
			point = true
		} else {
			break
		}
	}
	exponent := 0 // at most 62 digits of text: bounded here, what it means is decided below
	if any && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		eneg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		first := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if exponent < 1000000 {
				exponent = exponent*10 + int(s[i]-'0')
			}
		}
		any = i > first
		if eneg {
			exponent = -exponent
		}
	}
	if !any || i != len(s) {
		return Decimal{}, errors.New("invalid decimal " + quotePrefix(s))
	}
	if count == 0 {
		return Decimal{}, nil
	}
	// the value is digits[:count] * 10^power, the trailing zeros moved to the power
	power := exponent - fraction
	for digits[count-1] == '0' {
		count--
		power++
	}
	if power < -28 {
		return Decimal{}, errors.New("decimal " + quotePrefix(s) + " has more than 28 fraction digits")
	}
	outOfRange := errors.New("decimal " + quotePrefix(s) + " out of range: more than 96 bits")
	if count+max(power, 0) > 29 {
		return Decimal{}, outOfRange
	}
	var hi, lo uint64 // at most 29 digits: below 10^29 < 2^97, so hi*10 cannot wrap
	mul10add := func(digit uint64) {
		h1, l1 := bits.Mul64(lo, 10)
		var carry uint64
		lo, carry = bits.Add64(l1, digit, 0)
		hi = hi*10 + h1 + carry
	}
	for _, c := range digits[:count] {
		mul10add(uint64(c - '0'))
	}
	for range power {
		mul10add(0)
	}
	if hi >= 1<<32 {
		return Decimal{}, outOfRange
	}
	return DecimalFromParts(lo, uint32(hi), uint8(max(-power, 0)), neg), nil
}

// quotePrefix is text in double quotes for an error message, cut to its first 32 characters
// (then "..."): an error never quotes a whole hostile input (docs/limits.md 7).
func quotePrefix(text string) string {
	if len(text) > 32 {
		return strconv.Quote(text[:32]) + "..."
	}
	return strconv.Quote(text)
}

// PutDecimal writes the 16 wire bytes of d at b[0:16]: d normalised (no trailing fraction
// zeros), the one form of its value every writer stores (docs/format.md 2.4).
func PutDecimal(b []byte, d Decimal) {
	_ = b[15]
	d = d.Normalize()
	binary.LittleEndian.PutUint64(b, d.lo)
	binary.LittleEndian.PutUint32(b[8:], d.hi)
	binary.LittleEndian.PutUint32(b[12:], d.flags)
}

// GetDecimal reads the 16 wire bytes at b[0:16] as they are, unchecked (Reader.Decimal checks the
// flags).
func GetDecimal(b []byte) Decimal {
	_ = b[15]
	return Decimal{lo: binary.LittleEndian.Uint64(b), hi: binary.LittleEndian.Uint32(b[8:]), flags: binary.LittleEndian.Uint32(b[12:])}
}
