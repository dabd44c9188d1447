// Value descriptions (vectors/README.md, "Value descriptions"): the typed
// JSON of the vectors' MANIFEST that every testee reads and writes. The
// generated values.go reads a struct's fields with the v* functions below
// (from what encoding/json decoded with UseNumber) and writes them with a
// describer. A description that does not fit its type panics: answer()
// reports it as a serialize error.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
	"github.com/go-json-experiment/json/jsontext"
)

// entry is a registered struct: a new value, reading one from a description, describing one,
// and verifying its versioned and final roots.
type entry struct {
	make        func() value
	from        func(src any, v value)
	to          func(d *describer, v value)
	verifyFBE   func(data []byte, lim *fbe.Limits) error
	verifyFinal func(data []byte, lim *fbe.Limits) error
}

// badValue is a description that does not fit its type (a testee's failure), or one that fits but
// holds what the runtime's types cannot (unheld: a decimal beyond 96 bits, a string holding a lone
// surrogate, null where the type has none), refused as a writer refuses it; path is where it is
// (".priceVector[1]").
type badValue struct {
	msg, path string
	unheld    bool
}

func bad(format string, args ...any) {
	panic(badValue{fmt.Sprintf(format, args...), strings.Join(vAt, ""), false})
}

func unheld(format string, args ...any) {
	panic(badValue{fmt.Sprintf(format, args...), strings.Join(vAt, ""), true})
}

// expected refuses src, which is not a value of the type: null, which no Go value of a type
// without null holds, as a writer refuses it (docs/limits.md 8); anything else as the testee's
// own failure.
func expected(what string, src any) {
	if src == nil {
		unheld("expected %s, got null", what)
	}
	bad("expected %s, got %v", what, src)
}

// noByte is a description's string holding a lone surrogate that stands for no byte (only
// \udc80..\udcff stand for the bytes 0x80..0xff): no Go string holds it.
type noByte struct{ err error }

// description reads a value description as encoding/json with UseNumber would (objects, lists,
// json.Number, strings, bools, nil), but its strings as the runtime's JSON reader reads them
// (fbe.UnquoteJSON: \udcXY is the byte 0xXY, any other lone surrogate a noByte), where
// encoding/json gives U+FFFD for both.
func description(payload []byte) (any, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(payload), jsontext.AllowInvalidUTF8(true))
	var read func() (any, error)
	text := func() (any, error) {
		raw, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		s, err := fbe.UnquoteJSON(raw)
		if err != nil {
			return noByte{err}, nil
		}
		return s, nil
	}
	read = func() (any, error) {
		switch dec.PeekKind() {
		case '"':
			return text()
		case '0':
			raw, err := dec.ReadValue()
			return json.Number(raw), err
		case '{', '[':
			open, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			m, l := map[string]any{}, []any{}
			for dec.PeekKind() != '}' && dec.PeekKind() != ']' {
				var name any
				if open.Kind() == '{' {
					if name, err = text(); err != nil {
						return nil, err
					}
				}
				x, err := read()
				if err != nil {
					return nil, err
				}
				switch n := name.(type) {
				case nil:
					l = append(l, x)
				case string:
					m[n] = x
				default:
					return nil, n.(noByte).err
				}
			}
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			if open.Kind() == '{' {
				return m, nil
			}
			return l, nil
		}
		t, err := dec.ReadToken()
		switch t.Kind() {
		case 't', 'f':
			return t.Bool(), err
		}
		return nil, err
	}
	return read()
}

// vAt is the field path of the value being read, a step per field (".price") and element ("[1]").
var vAt []string

func vEnter(step string) { vAt = append(vAt, step) }

func vIndex(i int) { vAt = append(vAt, "["+strconv.Itoa(i)+"]") }

func vLeave() { vAt = vAt[:len(vAt)-1] }

func vObject(src any, qualified string) map[string]any {
	m, ok := src.(map[string]any)
	if !ok {
		expected("an object of "+qualified, src)
	}
	if t, _ := m["@type"].(string); t != qualified {
		bad("expected @type %s, got %v", qualified, m["@type"])
	}
	return m
}

func vList(src any, n int) []any {
	l, ok := src.([]any)
	if src == nil {
		expected("a list", src)
	}
	if !ok || (n >= 0 && len(l) != n) {
		bad("expected a list of %d, got %v", n, src)
	}
	return l
}

func vBool(src any) bool {
	b, ok := src.(bool)
	if !ok {
		expected("a bool", src)
	}
	return b
}

// integer is the text of an integer: a JSON number, or a string (64-bit integers).
func integer(src any) string {
	switch x := src.(type) {
	case json.Number:
		return string(x)
	case string:
		return x
	}
	expected("an integer", src)
	return ""
}

func vInt(src any, lo, hi int64) int64 {
	v, err := strconv.ParseInt(integer(src), 10, 64)
	if err != nil || v < lo || v > hi {
		bad("integer %v out of range", src)
	}
	return v
}

func vUint(src any, hi uint64) uint64 {
	v, err := strconv.ParseUint(integer(src), 10, 64)
	if err != nil || v > hi {
		bad("integer %v out of range", src)
	}
	return v
}

func vFloat64(src any) float64 {
	n, ok := src.(json.Number)
	if !ok {
		expected("a number", src)
	}
	v, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		bad("number %v: %v", src, err)
	}
	return v
}

// vFloat32 is the number rounded to binary32 (vectors/README.md: the shortest text that reads back).
func vFloat32(src any) float32 { return float32(vFloat64(src)) }

// vDecimal reads the exact decimal text, its scale the number of fraction digits ("1.50": scale 2).
func vDecimal(src any) fbe.Decimal {
	s, ok := src.(string)
	if !ok {
		expected("a decimal string", src)
	}
	neg := strings.HasPrefix(s, "-")
	digits, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	mag, ok := new(big.Int).SetString(digits+frac, 10)
	switch {
	case !ok:
		bad("invalid decimal %q", s)
	case mag.BitLen() > 96:
		unheld("decimal %s out of range: more than 96 bits", s)
	case len(frac) > 28:
		unheld("decimal %s has more than 28 fraction digits", s)
	}
	lo := new(big.Int).And(mag, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(mag, 64).Uint64()
	return fbe.DecimalFromParts(lo, uint32(hi), uint8(len(frac)), neg && mag.Sign() != 0)
}

func vString(src any) string {
	switch s := src.(type) {
	case string:
		return s
	case noByte:
		unheld("cannot write the string: %v", s.err)
	}
	expected("a string", src)
	return ""
}

func vBytes(src any) []byte {
	b, err := hex.DecodeString(vString(src))
	if err != nil {
		bad("bytes %v: %v", src, err)
	}
	return b
}

func vUUID(src any) fbe.UUID {
	u, err := fbe.ParseUUID(vString(src))
	if err != nil {
		bad("uuid %v: %v", src, err)
	}
	return u
}

// describer writes a value description as JSON text. Doubles are the
// shortest text that reads back (Python's repr), floats the shortest that
// reads back as the same binary32, 64-bit integers strings, bytes hex.
type describer struct {
	b []byte
}

func (d *describer) Begin(qualified string) {
	d.b = append(d.b, `{"@type":`...)
	d.b = strconv.AppendQuote(d.b, qualified)
}

func (d *describer) Key(name string) {
	d.b = append(d.b, ',')
	d.b = strconv.AppendQuote(d.b, name)
	d.b = append(d.b, ':')
}

func (d *describer) Open(c byte)  { d.b = append(d.b, c) }
func (d *describer) Close(c byte) { d.b = append(d.b, c) }
func (d *describer) Comma(i int) {
	if i > 0 {
		d.b = append(d.b, ',')
	}
}
func (d *describer) Null()           { d.b = append(d.b, "null"...) }
func (d *describer) Bool(v bool)     { d.b = strconv.AppendBool(d.b, v) }
func (d *describer) Int(v int64)     { d.b = strconv.AppendInt(d.b, v, 10) }
func (d *describer) Uint(v uint64)   { d.b = strconv.AppendUint(d.b, v, 10) }
func (d *describer) Int64(v int64)   { d.b = strconv.AppendQuote(d.b, strconv.FormatInt(v, 10)) }
func (d *describer) Uint64(v uint64) { d.b = strconv.AppendQuote(d.b, strconv.FormatUint(v, 10)) }

// real writes a number as Python's json module writes a float (NaN, Infinity, -Infinity included).
func (d *describer) real(v float64, bits int) {
	switch {
	case math.IsNaN(v):
		d.b = append(d.b, "NaN"...)
	case math.IsInf(v, 1):
		d.b = append(d.b, "Infinity"...)
	case math.IsInf(v, -1):
		d.b = append(d.b, "-Infinity"...)
	default:
		d.b = strconv.AppendFloat(d.b, v, 'g', -1, bits)
	}
}

func (d *describer) Float32(v float32) { d.real(float64(v), 32) }
func (d *describer) Float64(v float64) { d.real(v, 64) }

func (d *describer) Decimal(v fbe.Decimal) {
	if v.IsZero() {
		d.b = append(d.b, `"0"`...)
		return
	}
	d.b = strconv.AppendQuote(d.b, v.String())
}

// String writes the string as JSON (its bytes that are not UTF-8 as \udcXY, as Python's surrogateescape).
func (d *describer) String(s string) { d.b = fbe.AppendJSONString(d.b, s) }
func (d *describer) Bytes(b []byte)  { d.b = strconv.AppendQuote(d.b, hex.EncodeToString(b)) }
func (d *describer) UUID(u fbe.UUID) { d.b = strconv.AppendQuote(d.b, u.String()) }
