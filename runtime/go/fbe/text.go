package fbe

import (
	"math"
	"strconv"
)

// TextWriter appends the original's text form of values (its operator<<,
// docs/format.md 9): on one line, without spaces, strings and chars as their
// raw bytes. Generated String methods print a struct with it:
//
//	Account(id=1,name="Test",state=initialized|bad,wallet=Balance(currency="USD",amount=1000),asset=null,orders=[0][])
//
// The zero value is ready to use.
type TextWriter struct {
	B []byte // the text written so far
}

// Raw appends text as it is (names and punctuation of generated code).
func (t *TextWriter) Raw(text string) { t.B = append(t.B, text...) }

// Bool appends true or false.
func (t *TextWriter) Bool(v bool) { t.B = strconv.AppendBool(t.B, v) }

// Int appends a signed integer in decimal.
func (t *TextWriter) Int(v int64) { t.B = strconv.AppendInt(t.B, v, 10) }

// Uint appends an unsigned integer in decimal (byte and uint8 too).
func (t *TextWriter) Uint(v uint64) { t.B = strconv.AppendUint(t.B, v, 10) }

// Float appends a float or double as C's %g (precision 6, the default
// stream formatting of the original): 1000, 1.23456, 1e+10, 1e-05, -0, inf, nan.
func (t *TextWriter) Float(v float64) {
	switch {
	case math.IsNaN(v):
		t.B = append(t.B, "nan"...)
	case math.IsInf(v, 1):
		t.B = append(t.B, "inf"...)
	case math.IsInf(v, -1):
		t.B = append(t.B, "-inf"...)
	default:
		t.B = strconv.AppendFloat(t.B, v, 'g', 6, 64)
	}
}

// Decimal appends a decimal as the original prints it: C's %f of its double value.
func (t *TextWriter) Decimal(v Decimal) {
	t.B = strconv.AppendFloat(t.B, v.Float64(), 'f', 6, 64)
}

// Char appends a char: the raw byte between single quotes.
func (t *TextWriter) Char(v byte) { t.B = append(t.B, '\'', v, '\'') }

// WChar appends a wchar as the original prints it: only its low byte, between single quotes.
func (t *TextWriter) WChar(v uint32) { t.B = append(t.B, '\'', byte(v), '\'') }

// String appends a string between double quotes, its bytes as they are (no escaping).
func (t *TextWriter) String(s string) {
	t.B = append(t.B, '"')
	t.B = append(t.B, s...)
	t.B = append(t.B, '"')
}

// UUID appends a uuid's canonical text between double quotes.
func (t *TextWriter) UUID(v UUID) {
	t.B = append(t.B, '"')
	t.B = appendUUID(t.B, v)
	t.B = append(t.B, '"')
}

// Bytes appends bytes as their count: bytes[N].
func (t *TextWriter) Bytes(b []byte) {
	t.B = append(t.B, "bytes["...)
	t.B = strconv.AppendInt(t.B, int64(len(b)), 10)
	t.B = append(t.B, ']')
}

// Count appends a collection's count and its opening bracket: [3] and open
// ("[" for arrays and vectors, "<" lists, "{" sets, "<{" maps, "[{" hashes).
func (t *TextWriter) Count(n int, open string) {
	t.B = append(t.B, '[')
	t.B = strconv.AppendInt(t.B, int64(n), 10)
	t.B = append(t.B, ']')
	t.B = append(t.B, open...)
}

// Integer is the underlying type of an enum or flags.
type Integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// FlagName is one declared constant of a flags or enum type.
type FlagName[T Integer] struct {
	Value T
	Name  string
}

// EnumText is the text form of an enum: the name of the constant of v's
// value, else <unknown> (docs/format.md 9, as the original). names holds
// each value once, with the first name declared for it.
func EnumText[T Integer](v T, names []FlagName[T]) string {
	for _, n := range names {
		if n.Value == v {
			return n.Name
		}
	}
	return "<unknown>"
}

// FlagsText is the text form of flags: the names of the declared constants
// whose bits are all set in v, in declaration order, joined by "|";
// constants worth 0 never print and undeclared bits vanish, so 0 prints as
// nothing (docs/format.md 9, as the original).
func FlagsText[T Integer](v T, names []FlagName[T]) string {
	var b []byte
	for _, f := range names {
		if f.Value != 0 && v&f.Value == f.Value {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, f.Name...)
		}
	}
	return string(b)
}
