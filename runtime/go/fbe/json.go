package fbe

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

// JSONWriter appends FBE JSON (docs/format.md 8) to a byte slice: compact,
// members in declaration order, byte-identical to the original's output for
// every value the original writes correctly. Generated FBEWriteJSON methods
// write a struct's members with it; AppendJSON and MarshalJSON start and
// finish. Where the original is wrong the rules are the C++ and Python
// runtimes' (docs/cpp-json-protocol.md):
//
//   - a char is its byte value 0..255 (the original went through a signed char);
//   - NaN and infinities are the strings "NaN", "Infinity", "-Infinity";
//   - a decimal is its exact text with at least 6 fraction digits ("123.456000");
//   - enum and flags map keys are their number, bytes keys their Base64 text,
//     and a map whose key is a struct is an array of [key, value] pairs;
//   - float/double map keys are C's %f when that reads back to the same value,
//     otherwise the shortest text that does;
//   - a string may hold any bytes: each byte that is not part of valid UTF-8
//     is written as the escape \udcXY (docs/limits.md 7), so the output is
//     valid UTF-8 and reads back to the same bytes.
//
// The zero value is ready to use; set B to append to an existing slice.
//
// The first error (a value nested deeper than MaxDepth, a set holding an
// element twice) is kept in Err: the generated code stops writing and
// Result drops the text.
type JSONWriter struct {
	B        []byte // the text written so far
	MaxDepth int    // deepest struct nesting written (0: MaxDepth); nobody writes what no reader reads
	depth    int
	writeErr
}

// Enter goes one struct level deeper; false (and Err set) beyond MaxDepth.
// Generated code calls it only for structs that can nest without a bound.
func (j *JSONWriter) Enter(typeName string) bool {
	j.depth++
	limit := j.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	if j.depth > limit {
		j.tooDeep(limit, typeName)
		return false
	}
	return true
}

// Leave undoes Enter.
func (j *JSONWriter) Leave() { j.depth-- }

// Near reports whether a struct value up to levels levels high (itself included), written
// at the current level, could go beyond MaxDepth: then Fits checks the levels it holds
// (as Writer.Near).
func (j *JSONWriter) Near(levels int) bool {
	limit := j.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	return j.depth+levels > limit
}

// Fits checks a struct value of typeName holding levels struct levels (itself included)
// written at the current level: false (and Err set, as Enter) beyond MaxDepth.
func (j *JSONWriter) Fits(levels int, typeName string) bool {
	if !j.Near(levels) {
		return true
	}
	limit := j.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	j.tooDeep(limit, typeName)
	return false
}

// Raw appends text as it is (member names and punctuation of generated code).
func (j *JSONWriter) Raw(text string) { j.B = append(j.B, text...) }

// Byte appends one character of punctuation.
func (j *JSONWriter) Byte(c byte) { j.B = append(j.B, c) }

// Null appends null (an absent optional).
func (j *JSONWriter) Null() { j.B = append(j.B, "null"...) }

// Bool appends true or false.
func (j *JSONWriter) Bool(v bool) { j.B = strconv.AppendBool(j.B, v) }

// Int appends a signed integer (integers, enums and flags are JSON integers).
func (j *JSONWriter) Int(v int64) { j.B = strconv.AppendInt(j.B, v, 10) }

// Uint appends an unsigned integer (also char, wchar and timestamp).
func (j *JSONWriter) Uint(v uint64) { j.B = strconv.AppendUint(j.B, v, 10) }

// Float64 appends a double as RapidJSON master writes it (AppendJSONDouble);
// NaN and infinities as the strings "NaN", "Infinity", "-Infinity".
func (j *JSONWriter) Float64(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		j.B = append(j.B, '"')
		j.B = AppendJSONDouble(j.B, v)
		j.B = append(j.B, '"')
		return
	}
	j.B = AppendJSONDouble(j.B, v)
}

// Float32 appends a float widened to double first, as the original
// (123.456f is 123.45600128173828).
func (j *JSONWriter) Float32(v float32) { j.Float64(float64(v)) }

// Decimal appends a decimal as a string of its exact value with at least 6
// fraction digits and no sign on zero ("123.456000", the original's %f
// text whenever that was exact).
func (j *JSONWriter) Decimal(v Decimal) {
	j.B = append(j.B, '"')
	j.B = appendDecimalText(j.B, v)
	j.B = append(j.B, '"')
}

// UUID appends a uuid's canonical text as a string.
func (j *JSONWriter) UUID(v UUID) {
	j.B = append(j.B, '"')
	j.B = appendUUID(j.B, v)
	j.B = append(j.B, '"')
}

// String appends a string literal escaped as RapidJSON escapes (`"`, `\`
// and control characters; `/` and non-ASCII raw), each byte that is not
// part of valid UTF-8 as \udcXY.
func (j *JSONWriter) String(s string) { j.B = AppendJSONString(j.B, s) }

// Bytes appends standard Base64 with padding, as a string.
func (j *JSONWriter) Bytes(b []byte) {
	j.B = append(j.B, '"')
	j.B = base64.StdEncoding.AppendEncode(j.B, b)
	j.B = append(j.B, '"')
}

// Map keys: each appends the key as a member name and the colon.

// KeyString appends a string key.
func (j *JSONWriter) KeyString(k string) {
	j.B = AppendJSONString(j.B, k)
	j.B = append(j.B, ':')
}

// KeyInt appends a signed integer key (also enums and flags of signed types).
func (j *JSONWriter) KeyInt(k int64) {
	j.B = append(j.B, '"')
	j.B = strconv.AppendInt(j.B, k, 10)
	j.B = append(j.B, '"', ':')
}

// KeyUint appends an unsigned integer key (also char, wchar, timestamp, enums and flags of unsigned types).
func (j *JSONWriter) KeyUint(k uint64) {
	j.B = append(j.B, '"')
	j.B = strconv.AppendUint(j.B, k, 10)
	j.B = append(j.B, '"', ':')
}

// KeyBool appends "1" or "0", as the original.
func (j *JSONWriter) KeyBool(k bool) {
	if k {
		j.B = append(j.B, `"1":`...)
	} else {
		j.B = append(j.B, `"0":`...)
	}
}

// KeyFloat64 appends a double key: C's %f (the original's text) when it
// reads back to the same value, otherwise the text of Float64, so keys stay
// distinct and exact.
func (j *JSONWriter) KeyFloat64(k float64) { j.realKey(k, false) }

// KeyFloat32 appends a float key: as KeyFloat64, %f checked by reading it back as a float.
func (j *JSONWriter) KeyFloat32(k float32) { j.realKey(float64(k), true) }

func (j *JSONWriter) realKey(k float64, f32 bool) {
	j.B = append(j.B, '"')
	if math.IsNaN(k) || math.IsInf(k, 0) {
		j.B = AppendJSONDouble(j.B, k)
	} else {
		start := len(j.B)
		j.B = strconv.AppendFloat(j.B, k, 'f', 6, 64)
		back, _ := strconv.ParseFloat(string(j.B[start:]), 64)
		same := back == k
		if f32 {
			same = float32(back) == float32(k)
		}
		if !same || math.Signbit(back) != math.Signbit(k) {
			j.B = AppendJSONDouble(j.B[:start], k)
		}
	}
	j.B = append(j.B, '"', ':')
}

// KeyDecimal appends a decimal key (the text of Decimal).
func (j *JSONWriter) KeyDecimal(k Decimal) {
	j.Decimal(k)
	j.B = append(j.B, ':')
}

// KeyUUID appends a uuid key.
func (j *JSONWriter) KeyUUID(k UUID) {
	j.UUID(k)
	j.B = append(j.B, ':')
}

// KeyBytes appends a bytes key as its Base64 text.
func (j *JSONWriter) KeyBytes(k []byte) {
	j.Bytes(k)
	j.B = append(j.B, ':')
}

// Result is the text written and the first error: the text is dropped when
// there is one (the value cannot be written).
func (j *JSONWriter) Result(start int) ([]byte, error) {
	if j.err != nil {
		return j.B[:start], j.err
	}
	return j.B, nil
}

const hexUpper = "0123456789ABCDEF"
const hexLower = "0123456789abcdef"

// jsonSafe marks the ASCII bytes a string literal holds as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// AppendJSONString appends s as a JSON string literal: `"`, `\` and control
// characters escaped as RapidJSON escapes them (\b \t \n \f \r, others
// \u00XX), valid UTF-8 sequences as they are, and each byte that is not part
// of one as the escape \udcXY (U+DC80..U+DCFF, Python's surrogateescape;
// docs/limits.md 7).
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexUpper[c>>4], hexUpper[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', 'd', 'c', hexLower[c>>4], hexLower[c&15])
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendDecimalText appends the exact text of d as the writers store it (normalised: no trailing
// fraction zeros, docs/format.md 2.4) with at least 6 fraction digits, no sign on zero.
func appendDecimalText(dst []byte, d Decimal) []byte {
	d = d.Normalize()
	dst = d.appendText(dst)
	fraction := int(uint8(d.flags >> 16))
	if fraction == 0 {
		dst = append(dst, '.')
	}
	for ; fraction < 6; fraction++ {
		dst = append(dst, '0')
	}
	return dst
}

// appendUUID appends the canonical text of u.
func appendUUID(dst []byte, u UUID) []byte {
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexLower[b>>4], hexLower[b&15])
	}
	return dst
}
