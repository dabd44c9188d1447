package fbe

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// JSONReader reads FBE JSON (docs/format.md 8.3) token by token with the
// tokenizer of github.com/go-json-experiment/json/jsontext (encoding/json/v2's
// jsontext, docs/go.md), under the rules of docs/limits.md that every
// language shares, with the same defaults:
//
//   - the text must be valid UTF-8 (overlong forms, encoded surrogates and
//     truncated sequences are refused);
//   - arrays and objects nest at most 3 * MaxDepth deep, structs at most
//     MaxDepth (the root is level 1), refused before going deeper;
//   - no object holds a member name twice, whether a struct reads it or not;
//     two map keys that read as the same key ("1" and "01") and a set
//     holding an element twice are refused too;
//   - a string escape \udcXY (U+DC80..U+DCFF) is the raw byte 0xXY, as
//     JSONWriter writes it; any other lone surrogate escape is refused;
//   - every value read is charged to the decode budget of BudgetFactor *
//     text size + BudgetSlack bytes, at the costs of docs/limits.md 3;
//   - each value must have its field's JSON type and fit its range; a
//     member that is missing leaves the field at its default, unknown
//     members are skipped.
//
// As Reader, the first error wins and is kept (Err): after it every read
// returns a zero value and the generated code returns, naming the path
// (type, members and indexes) on the way out; the offset is the byte in the
// text where the problem was found.
//
// Begin borrows a tokenizer and its buffers from a pool and End gives them
// back, so reading a text allocates the strings and slices of the value
// read, and little else.
type JSONReader struct {
	data       []byte
	st         *jsonState
	dec        *jsontext.Decoder
	tokStart   int // where the token read last (or the one More found) starts in the text
	budget     int
	depth      int // struct levels
	maxDepth   int
	nesting    int // arrays and objects open
	maxNesting int
	err        *DecodeError
	errLevel   int
}

// jsonState is what a JSONReader borrows from jsonStates between Begin and End.
type jsonState struct {
	text  bytes.Buffer // the text: jsontext reads a bytes.Buffer in place
	dec   jsontext.Decoder
	names []nameSet   // member names of the objects open, by nesting (unknown members, skipped values)
	skip  []uint8     // the containers open in a value being skipped (inArray, expectName, expectValue)
	cache [256]string // member names read before, by a hash of their text (JSONReader.name)
}

var jsonStates = sync.Pool{New: func() any { return new(jsonState) }}

// jsonOptions: the reader checks member names itself (a struct's members
// once each, and the rest of docs/limits.md 7 with its own messages) and the
// UTF-8 of the whole text before the tokenizer sees it; it reads escapes
// \udc80..\udcff itself (UnquoteJSON), which the tokenizer would refuse.
var jsonOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// nameSet holds the member names of one object that no struct field took,
// to refuse one twice: a list while short, a map beyond.
type nameSet struct {
	list []string
	set  map[string]struct{}
}

func (s *nameSet) reset() {
	s.list = s.list[:0]
	s.set = nil
}

// add records name; false when it was there already.
func (s *nameSet) add(name string) bool {
	if s.set != nil {
		if _, dup := s.set[name]; dup {
			return false
		}
		s.set[name] = struct{}{}
		return true
	}
	for _, n := range s.list {
		if n == name {
			return false
		}
	}
	if len(s.list) < 16 {
		s.list = append(s.list, name)
		return true
	}
	s.set = make(map[string]struct{}, 2*len(s.list))
	for _, n := range s.list {
		s.set[n] = struct{}{}
	}
	s.set[name] = struct{}{}
	return true
}

// Begin starts reading the JSON text data with lim (nil: DefaultLimits):
// the decode budget is that of len(data) bytes.
func (r *JSONReader) Begin(data []byte, lim *Limits) {
	if lim == nil {
		lim = &DefaultLimits
	}
	r.release()
	*r = JSONReader{data: data, budget: lim.Budget(len(data)), maxDepth: lim.MaxDepth, maxNesting: 3 * lim.MaxDepth}
	if !utf8.Valid(data) {
		bad := 0
		for bad < len(data) {
			c, size := utf8.DecodeRune(data[bad:])
			if c == utf8.RuneError && size == 1 {
				break
			}
			bad += size
		}
		r.Fail("invalid JSON: the text is not valid UTF-8 at byte "+strconv.Itoa(bad), "", bad)
		return
	}
	st := jsonStates.Get().(*jsonState)
	st.text = *bytes.NewBuffer(data)
	st.dec.Reset(&st.text, jsonOptions...)
	st.names, st.skip = st.names[:0], st.skip[:0]
	r.st, r.dec = st, &st.dec
}

// End checks that nothing but white space follows the value read, and ends
// the reading: the reader reads nothing more (Err, Within and Begin remain).
func (r *JSONReader) End() {
	defer r.release()
	if r.err != nil {
		return
	}
	start := int(r.dec.InputOffset())
	if _, err := r.dec.ReadToken(); err != io.EOF {
		r.Fail("invalid JSON: data after the value", "", skipSpace(r.data, start))
	}
}

// release gives the borrowed tokenizer back, holding no reference to the text.
func (r *JSONReader) release() {
	if r.st == nil {
		return
	}
	r.st.text = bytes.Buffer{}
	r.st.dec.Reset(&r.st.text, jsonOptions...)
	jsonStates.Put(r.st)
	r.st, r.dec = nil, nil
}

// Fail records an error at text offset off (-1: unknown) in field of the
// struct being read, unless one was recorded already.
func (r *JSONReader) Fail(msg, field string, off int) { r.failErr(msg, field, off, nil) }

func (r *JSONReader) failErr(msg, field string, off int, err error) {
	if r.err == nil {
		r.err = &DecodeError{Msg: msg, Path: field, Offset: off, Err: err}
		r.errLevel = r.depth
	}
}

// failStruct records an error of the struct about to be entered: its path
// starts at the field that holds it, which the caller's Unwind adds.
func (r *JSONReader) failStruct(msg string, off int, err error) {
	if r.err == nil {
		r.err = &DecodeError{Msg: msg, Offset: off, Err: err}
		r.errLevel = r.depth + 1
	}
}

// Failed reports whether an error was recorded.
func (r *JSONReader) Failed() bool { return r.err != nil }

// Err is the recorded error, or nil.
func (r *JSONReader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Unwind puts field in front of the error's path when the error happened
// inside the struct value that field holds (deeper than the struct being
// read now), as Reader.Unwind.
func (r *JSONReader) Unwind(field string) {
	if r.err != nil && r.errLevel > r.depth {
		r.err.Path = joinPath(field, r.err.Path)
		r.errLevel = r.depth
	}
}

// UnwindIndex puts an element index in front of the error's path ("[2]"),
// under the same condition as Unwind; the collection's Unwind follows.
func (r *JSONReader) UnwindIndex(i int) {
	if r.err != nil && r.errLevel > r.depth {
		r.err.Path = joinPath("["+strconv.Itoa(i)+"]", r.err.Path)
	}
}

// UnwindKey puts a map key in front of the error's path ("[EUR]"), as UnwindIndex.
func (r *JSONReader) UnwindKey(key string) {
	if r.err != nil && r.errLevel > r.depth {
		r.err.Path = joinPath("["+key+"]", r.err.Path)
	}
}

// Within names the root type of the error (generated ReadJSON calls it).
func (r *JSONReader) Within(typeName string) {
	if r.err != nil && r.err.Type == "" {
		r.err.Type = typeName
	}
}

// Spend charges cost bytes for a value materialized (a collection element,
// the defaults of a struct's missing members: docs/limits.md 3).
func (r *JSONReader) Spend(cost int, field string) {
	r.budget -= cost
	if r.budget < 0 {
		r.failErr(ErrBudget.Error(), field, r.tokStart, ErrBudget)
	}
}

// Affords reports whether the budget left pays for cost bytes: generated code asks before it makes a
// value whose default is large (docs/limits.md 3), and when not charges it (Spend), which fails.
func (r *JSONReader) Affords(cost int) bool { return r.budget >= cost }

// ---------------------------------------------------------------- tokens

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, p int) int {
	for p < len(data) && isSpace(data[p]) {
		p++
	}
	return p
}

// token is a token read: its kind ('n' null, 'f' false, 't' true, '"'
// string, '0' number, '{', '}', '[', ']') and, for a string or a number, its
// JSON text (a string's quotes and escapes included), valid until the next read.
type token struct {
	kind jsontext.Kind
	raw  []byte
}

// next reads the next token; false after an error.
func (r *JSONReader) next() (token, bool) {
	if r.err != nil {
		return token{}, false
	}
	r.tokStart = r.nextStart()
	var t token
	var err error
	switch r.dec.PeekKind() {
	case '"', '0':
		var v jsontext.Value
		v, err = r.dec.ReadValue()
		t = token{v.Kind(), v}
	default: // a delimiter, a literal, or what is wrong
		var tok jsontext.Token
		tok, err = r.dec.ReadToken()
		t.kind = tok.Kind()
	}
	if err != nil {
		r.syntaxError(err)
		return token{}, false
	}
	switch t.kind {
	case '{', '[':
		r.nesting++
		if r.nesting > r.maxNesting {
			r.Fail("invalid JSON: arrays and objects nested deeper than "+strconv.Itoa(r.maxNesting), "", r.tokStart)
			return token{}, false
		}
	case '}', ']':
		r.nesting--
	case '"':
		// a lone surrogate escape is refused wherever the string is, read or skipped
		if bytes.IndexByte(t.raw, '\\') >= 0 && hasSurrogateEscape(t.raw) {
			if _, err := UnquoteJSON(t.raw); err != nil {
				r.Fail(err.Error(), "", r.tokStart)
				return token{}, false
			}
		}
	}
	return t, true
}

// nextStart is where the next token starts: after white space and the `,`
// or `:` before it.
func (r *JSONReader) nextStart() int {
	p := int(r.dec.InputOffset())
	for p < len(r.data) && (isSpace(r.data[p]) || r.data[p] == ',' || r.data[p] == ':') {
		p++
	}
	return p
}

// syntaxError records what the tokenizer found wrong, where it found it.
func (r *JSONReader) syntaxError(err error) {
	var syntax *jsontext.SyntacticError
	switch {
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		r.Fail("invalid JSON: the text ends before the value does", "", len(r.data))
	case errors.As(err, &syntax) && syntax.Err != nil:
		r.Fail("invalid JSON: "+syntax.Err.Error(), "", int(syntax.ByteOffset))
	default:
		r.Fail("invalid JSON: "+err.Error(), "", r.tokStart)
	}
}

// text is the FBE string of a string token (UnquoteJSON when it has escapes).
func (r *JSONReader) text(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	s, _ := UnquoteJSON(raw) // next refused what it cannot read
	return s
}

// name is the string of a member name's token: the same string each time
// the same name comes (the borrowed state's cache), so the names of a text
// allocate once, not once per member.
func (r *JSONReader) name(raw []byte) string {
	b := raw[1 : len(raw)-1]
	if len(b) > 64 || bytes.IndexByte(b, '\\') >= 0 {
		return r.text(raw)
	}
	h := uint32(2166136261) // FNV-1a
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	cached := &r.st.cache[h%uint32(len(r.st.cache))]
	if *cached != string(b) {
		*cached = string(b)
	}
	return *cached
}

// hasSurrogateEscape reports whether a string literal holds an escape \uD800..\uDFFF.
func hasSurrogateEscape(raw []byte) bool {
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if raw[i] == 'u' && i+4 < len(raw) && (raw[i+1] == 'd' || raw[i+1] == 'D') && strings.IndexByte("89abcdefABCDEF", raw[i+2]) >= 0 {
			return true
		}
	}
	return false
}

// hexValue is the value of four hex digits, -1 when one is not a hex digit.
func hexValue(h []byte) rune {
	var v rune
	for _, c := range h {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			v |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v |= rune(c - 'A' + 10)
		default:
			return -1
		}
	}
	return v
}

// UnquoteJSON is the FBE string a JSON string literal stands for (quotes
// included, its syntax valid): the escapes decoded, a surrogate pair as its
// code point and a lone \udc80..\udcff as the byte 0x80..0xff
// (docs/limits.md 7, as JSONWriter writes bytes that are not UTF-8); any
// other lone surrogate is an error. encoding/json would give U+FFFD for both.
func UnquoteJSON(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errors.New("not a JSON string literal")
	}
	raw = raw[1 : len(raw)-1]
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", errors.New("not a JSON string literal")
		}
		e := raw[i+1]
		i += 2
		switch e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+4 > len(raw) {
				return "", errors.New("not a JSON string literal")
			}
			u := hexValue(raw[i : i+4])
			if u < 0 {
				return "", errors.New("not a JSON string literal")
			}
			i += 4
			switch {
			case utf16.IsSurrogate(u) && u < 0xDC00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u':
				if low := hexValue(raw[i+2 : i+6]); low >= 0xDC00 && low <= 0xDFFF {
					out = utf8.AppendRune(out, utf16.DecodeRune(u, low))
					i += 6
					continue
				}
				return "", loneSurrogate(u)
			case u >= 0xDC80 && u <= 0xDCFF:
				out = append(out, byte(u-0xDC00))
			case utf16.IsSurrogate(u):
				return "", loneSurrogate(u)
			default:
				out = utf8.AppendRune(out, u)
			}
		case '"', '\\', '/':
			out = append(out, e)
		default:
			return "", errors.New("not a JSON string literal")
		}
	}
	return string(out), nil
}

func loneSurrogate(u rune) error {
	return errors.New("lone surrogate \\u" + strconv.FormatInt(int64(u), 16) + " in a JSON string (only \\udc80..\\udcff stand for bytes)")
}

// kind names a token's JSON type in plain words.
func kind(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '0':
		return "number"
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// mismatch records that the value read is not of the JSON type expected.
func (r *JSONReader) mismatch(want string, t token, field string) {
	r.Fail("expected "+want+", got "+kind(t.kind), field, r.tokStart)
}

// ---------------------------------------------------------------- structure

// BeginStruct reads the `{` of a struct value costing cost bytes (its own
// charge, docs/limits.md 3) one struct level deeper. After true the caller
// reads the members (More, Name) and calls Leave; the error of a value that
// is no object, too deep or beyond the budget is the struct's own (the
// caller's Unwind names the field holding it).
func (r *JSONReader) BeginStruct(cost int) bool {
	t, ok := r.next()
	if !ok {
		return false
	}
	if t.kind != '{' {
		r.failStruct("expected object, got "+kind(t.kind), r.tokStart, nil)
		return false
	}
	if r.depth >= r.maxDepth {
		r.failStruct("structs nested deeper than "+strconv.Itoa(r.maxDepth), r.tokStart, ErrDepth)
		return false
	}
	r.budget -= cost
	if r.budget < 0 {
		r.failStruct(ErrBudget.Error(), r.tokStart, ErrBudget)
		return false
	}
	r.depth++
	r.openNames()
	return true
}

// Leave undoes a successful BeginStruct.
func (r *JSONReader) Leave() { r.depth-- }

// openNames starts the name set of the object just opened.
func (r *JSONReader) openNames() {
	st := r.st
	for len(st.names) < r.nesting {
		st.names = append(st.names, nameSet{})
	}
	st.names[r.nesting-1].reset()
}

// More reports whether the object or array being read holds another member
// or element (then the offset of an error is where that starts); at its end
// it consumes the closing `}` or `]`.
func (r *JSONReader) More() bool {
	if r.err != nil {
		return false
	}
	switch r.dec.PeekKind() {
	case '}', ']', 0: // the end, or what is wrong (next records it)
		r.next()
		return false
	}
	r.tokStart = r.nextStart()
	return true
}

// Name reads the next member name of an object.
func (r *JSONReader) Name() string {
	t, ok := r.next()
	if !ok || t.kind != '"' {
		return ""
	}
	return r.name(t.raw)
}

// Once marks a struct's member as read; a second member of that name is an error.
func (r *JSONReader) Once(seen *bool, name string) {
	if *seen {
		r.Fail("duplicate member name \""+name+"\"", name, r.tokStart)
	}
	*seen = true
}

// Skip skips the value of a member no field of the struct takes (unknown
// members are ignored), refusing a second member of that name and, in the
// value, what every reader refuses (duplicate member names, nesting, strings).
func (r *JSONReader) Skip(name string) {
	if r.err == nil && !r.st.names[r.nesting-1].add(name) {
		r.Fail("duplicate member name \""+name+"\"", name, r.tokStart)
		return
	}
	r.skipValue()
}

// skipValue reads a value and everything in it without keeping it.
func (r *JSONReader) skipValue() {
	st := r.st
	base := len(st.skip)
	defer func() { st.skip = st.skip[:base] }()
	for {
		t, ok := r.next()
		if !ok {
			return
		}
		top := len(st.skip) - 1
		if top >= base && st.skip[top] == expectName {
			if t.kind == '"' {
				if name := r.name(t.raw); !st.names[r.nesting-1].add(name) {
					r.Fail("duplicate member name \""+name+"\" in a JSON object", "", r.tokStart)
					return
				}
				st.skip[top] = expectValue
				continue
			}
			st.skip = st.skip[:top] // the object's `}`
		} else {
			switch t.kind {
			case '{':
				r.openNames()
				st.skip = append(st.skip, expectName)
				continue
			case '[':
				st.skip = append(st.skip, inArray)
				continue
			case ']':
				st.skip = st.skip[:top]
			}
		}
		// a value ended: the whole value, or one in an object that expects a name next
		if len(st.skip) == base {
			return
		}
		if st.skip[len(st.skip)-1] == expectValue {
			st.skip[len(st.skip)-1] = expectName
		}
	}
}

// What a container being skipped expects next.
const (
	inArray     = iota // an element or `]`
	expectName         // an object's member name or `}`
	expectValue        // an object's member value
)

// BeginArray reads the `[` of a collection (an array, vector, list or set,
// or a map of struct keys); after true the caller reads the elements while
// More.
func (r *JSONReader) BeginArray(field string) bool {
	t, ok := r.next()
	if !ok {
		return false
	}
	if t.kind != '[' {
		r.mismatch("array", t, field)
		return false
	}
	return true
}

// BeginObject reads the `{` of a map or hash whose keys are member names;
// after true the caller reads the entries while More (the key with Name).
func (r *JSONReader) BeginObject(field string) bool {
	t, ok := r.next()
	if !ok {
		return false
	}
	if t.kind != '{' {
		r.mismatch("object", t, field)
		return false
	}
	r.openNames()
	return true
}

// Element is More for a fixed array of n elements at index i: false at the
// end, and an error when the array holds more than n.
func (r *JSONReader) Element(i, n int, field string) bool {
	if !r.More() {
		return false
	}
	if i >= n {
		r.Fail("expected "+strconv.Itoa(n)+" elements, got more", field, r.tokStart)
		return false
	}
	return true
}

// EndArray checks that a fixed array held exactly n elements (i were read).
func (r *JSONReader) EndArray(i, n int, field string) {
	if r.err == nil && i != n {
		r.Fail("expected "+strconv.Itoa(n)+" elements, got "+strconv.Itoa(i), field, r.tokStart)
	}
}

// BeginPair reads the `[` of a [key, value] pair (a map whose key is a struct).
func (r *JSONReader) BeginPair(field string) bool {
	t, ok := r.next()
	if !ok {
		return false
	}
	if t.kind != '[' {
		r.Fail("expected a [key, value] pair, got "+kind(t.kind), field, r.tokStart)
		return false
	}
	return true
}

// EndPair reads the `]` after a pair's key and value.
func (r *JSONReader) EndPair(field string) {
	t, ok := r.next()
	if !ok {
		return
	}
	if t.kind != ']' {
		r.Fail("expected a [key, value] pair, got more than two elements", field, r.tokStart)
	}
}

// Null reads a null (an absent optional) when one comes next.
func (r *JSONReader) Null() bool {
	if r.err != nil || r.dec.PeekKind() != 'n' {
		return false
	}
	r.next()
	return true
}

// DuplicateKey refuses a map whose keys read as the same key ("1" and "01"):
// neither the first nor the last may win (docs/limits.md 7).
func (r *JSONReader) DuplicateKey(field string) {
	r.failErr("two map keys read as the same key", field, r.tokStart, ErrDuplicate)
}

// DuplicateElement refuses a set holding an element twice (docs/limits.md 7).
func (r *JSONReader) DuplicateElement(field string) {
	r.failErr("two set elements read as the same element", field, r.tokStart, ErrDuplicate)
}

// ---------------------------------------------------------------- values

// Bool reads true or false.
func (r *JSONReader) Bool(field string) bool {
	t, ok := r.next()
	if !ok {
		return false
	}
	if t.kind != 't' && t.kind != 'f' {
		r.mismatch("boolean", t, field)
	}
	return t.kind == 't'
}

// number reads a JSON number's text.
func (r *JSONReader) number(want, field string) ([]byte, bool) {
	t, ok := r.next()
	if !ok {
		return nil, false
	}
	if t.kind != '0' {
		r.mismatch(want, t, field)
		return nil, false
	}
	return t.raw, true
}

func isInteger(text []byte) bool { return !bytes.ContainsAny(text, ".eE") }

// Int reads a JSON integer in lo..hi (an integer field takes no fraction or exponent).
func (r *JSONReader) Int(lo, hi int64, field string) int64 {
	text, ok := r.number("integer", field)
	if !ok {
		return 0
	}
	if !isInteger(text) {
		r.Fail("expected integer, got "+string(text), field, r.tokStart)
		return 0
	}
	v, err := strconv.ParseInt(string(text), 10, 64)
	if err != nil || v < lo || v > hi {
		r.Fail(string(text)+" is out of range ("+strconv.FormatInt(lo, 10)+".."+strconv.FormatInt(hi, 10)+")", field, r.tokStart)
		return 0
	}
	return v
}

// Uint reads a JSON integer in 0..hi.
func (r *JSONReader) Uint(hi uint64, field string) uint64 {
	text, ok := r.number("integer", field)
	if !ok {
		return 0
	}
	if !isInteger(text) {
		r.Fail("expected integer, got "+string(text), field, r.tokStart)
		return 0
	}
	v, err := strconv.ParseUint(string(text), 10, 64)
	if string(text) == "-0" {
		v, err = 0, nil
	}
	if err != nil || v > hi {
		r.Fail(string(text)+" is out of range (0.."+strconv.FormatUint(hi, 10)+")", field, r.tokStart)
		return 0
	}
	return v
}

// Char reads a char: its byte value 0..255, or the original's signed-char
// output for bytes from 0x80 (4294967168..4294967295).
func (r *JSONReader) Char(field string) byte {
	text, ok := r.number("integer", field)
	if !ok {
		return 0
	}
	v, err := strconv.ParseUint(string(text), 10, 32)
	if err != nil || !isInteger(text) || (v > 0xFF && v < 0xFFFFFF80) {
		r.Fail(string(text)+" is out of range for char", field, r.tokStart)
		return 0
	}
	return byte(v)
}

var nonFinite = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}

// Float64 reads a double: any JSON number, or the strings "NaN",
// "Infinity", "-Infinity". A number beyond the double range is an error.
func (r *JSONReader) Float64(field string) float64 {
	t, ok := r.next()
	if !ok {
		return 0
	}
	switch t.kind {
	case '0':
		v, err := strconv.ParseFloat(string(t.raw), 64)
		if err != nil {
			r.Fail(string(t.raw)+" is out of range for double", field, r.tokStart)
			return 0
		}
		return v
	case '"':
		if v, special := nonFinite[r.text(t.raw)]; special {
			return v
		}
	}
	r.mismatch("number", t, field)
	return 0
}

// Float32 reads a float: Float64 rounded to binary32; a finite number beyond
// the float range is an error (3.4028234663852886e38, the largest float, reads).
func (r *JSONReader) Float32(field string) float32 {
	v := r.Float64(field)
	if math.Abs(v) > math.MaxFloat32 && !math.IsInf(v, 0) {
		r.Fail(strconv.FormatFloat(v, 'g', -1, 64)+" is out of range for float", field, r.tokStart)
		return 0
	}
	return float32(v)
}

// Decimal reads a decimal: its exact text (ParseDecimal), or a JSON
// number taken as a double and converted as the original writer converts
// one (15 digits). A value of 2^96 or more is an error.
func (r *JSONReader) Decimal(field string) Decimal {
	t, ok := r.next()
	if !ok {
		return Decimal{}
	}
	switch t.kind {
	case '0':
		v, err := strconv.ParseFloat(string(t.raw), 64)
		if err != nil {
			r.Fail(quotePrefix(string(t.raw))+" is out of range for decimal", field, r.tokStart)
			return Decimal{}
		}
		return DecimalFromFloat64(v)
	case '"':
		d, err := ParseDecimal(r.text(t.raw))
		if err != nil {
			r.Fail(err.Error(), field, r.tokStart)
		}
		return d
	}
	r.mismatch("decimal", t, field)
	return Decimal{}
}

// str reads a string token.
func (r *JSONReader) str(want, field string) (string, bool) {
	t, ok := r.next()
	if !ok {
		return "", false
	}
	if t.kind != '"' {
		r.mismatch(want, t, field)
		return "", false
	}
	return r.text(t.raw), true
}

// UUID reads a uuid from its text (ParseUUID: the original's lenient parser).
func (r *JSONReader) UUID(field string) UUID {
	s, ok := r.str("uuid", field)
	if !ok {
		return UUID{}
	}
	u, err := ParseUUID(s)
	if err != nil {
		r.Fail("invalid uuid \""+s+"\"", field, r.tokStart)
	}
	return u
}

// String reads a string, charged its length in bytes.
func (r *JSONReader) String(field string) string {
	s, ok := r.str("string", field)
	if ok {
		r.Spend(len(s), field)
	}
	return s
}

// Bytes reads Base64 text into dst[:0], charged the decoded length.
func (r *JSONReader) Bytes(dst []byte, field string) []byte {
	s, ok := r.str("bytes", field)
	if !ok {
		return dst[:0]
	}
	if dst, ok = AppendBase64Decode(dst[:0], s); !ok {
		r.Fail("invalid base64", field, r.tokStart)
		return dst
	}
	r.Spend(len(dst), field)
	return dst
}

// AppendBase64Decode appends the bytes of Base64 text: the standard alphabet
// with padding and nothing else (RFC 4648 4), the unused bits of the last
// character zero (3.5), so each byte string has one text (docs/limits.md 7).
// Any other text (the original reads up to the first character outside the
// alphabet) gives false.
func AppendBase64Decode(dst []byte, text string) ([]byte, bool) {
	if strings.ContainsAny(text, "\r\n") { // the one thing the strict decoder skips
		return dst, false
	}
	out, err := base64.StdEncoding.Strict().AppendDecode(dst, []byte(text))
	return out, err == nil
}

// ---------------------------------------------------------------- map keys

// Each reads a map key from its member-name text (Name), as the C++ and
// Python runtimes read it.

// KeyString is a string key, charged its length.
func (r *JSONReader) KeyString(key, field string) string {
	r.Spend(len(key), field)
	return key
}

// keyInteger is the text of an integer key as C's strtoll reads a whole
// text: leading white space, a sign, digits.
func keyInteger(key string) (string, bool) {
	i := 0
	for i < len(key) && (isSpace(key[i]) || key[i] == '\v' || key[i] == '\f') {
		i++
	}
	text := key[i:]
	digits := strings.TrimLeft(text, "+-")
	if len(text)-len(digits) > 1 || digits == "" {
		return "", false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return strings.TrimPrefix(text, "+"), true
}

// KeyInt is a signed integer key in lo..hi.
func (r *JSONReader) KeyInt(key string, lo, hi int64, field string) int64 {
	text, ok := keyInteger(key)
	if !ok {
		r.Fail("invalid integer key \""+key+"\"", field, r.tokStart)
		return 0
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil || v < lo || v > hi {
		r.Fail("integer key \""+key+"\" out of range", field, r.tokStart)
		return 0
	}
	return v
}

// KeyUint is an unsigned integer key in 0..hi (no sign `-`).
func (r *JSONReader) KeyUint(key string, hi uint64, field string) uint64 {
	text, ok := keyInteger(key)
	if !ok || strings.HasPrefix(text, "-") {
		r.Fail("invalid integer key \""+key+"\"", field, r.tokStart)
		return 0
	}
	v, err := strconv.ParseUint(text, 10, 64)
	if err != nil || v > hi {
		r.Fail("integer key \""+key+"\" out of range", field, r.tokStart)
		return 0
	}
	return v
}

// KeyChar is a char key: 0..255, or the original's signed form -128..-1.
func (r *JSONReader) KeyChar(key, field string) byte {
	return byte(r.KeyInt(key, -128, 255, field))
}

// KeyBool is "1" or "true", "0" or "false".
func (r *JSONReader) KeyBool(key, field string) bool {
	switch key {
	case "1", "true":
		return true
	case "0", "false":
		return false
	}
	r.Fail("invalid bool key \""+key+"\"", field, r.tokStart)
	return false
}

// KeyFloat64 is a double key: "NaN", "Infinity", "-Infinity" or a number's
// text, read as C's strtod reads a whole text (leading white space, inf,
// nan, hexadecimal).
func (r *JSONReader) KeyFloat64(key, field string) float64 {
	if v, special := nonFinite[key]; special {
		return v
	}
	text := strings.TrimLeft(key, " \t\n\v\f\r")
	if v, ok := parseCFloat(text); ok {
		return v
	}
	r.Fail("invalid number key \""+key+"\"", field, r.tokStart)
	return 0
}

// KeyFloat32 is KeyFloat64 rounded to binary32.
func (r *JSONReader) KeyFloat32(key, field string) float32 {
	return float32(r.KeyFloat64(key, field))
}

// parseCFloat reads the whole text as C's strtod: decimal (with an optional
// fraction and exponent), inf, infinity, nan (any case) or hexadecimal.
func parseCFloat(text string) (float64, bool) {
	body := strings.TrimLeft(text, "+-")
	if len(text)-len(body) > 1 || body == "" {
		return 0, false
	}
	switch strings.ToLower(body) {
	case "inf", "infinity", "nan":
		v, err := strconv.ParseFloat(text, 64)
		return v, err == nil
	}
	hex := len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')
	digits, point, exponent := 0, false, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case hex && i < 2:
		case c >= '0' && c <= '9', hex && !exponent && strings.IndexByte("abcdefABCDEF", c) >= 0:
			digits++
		case c == '.' && !point && !exponent:
			point = true
		case !exponent && digits > 0 && (!hex && (c == 'e' || c == 'E') || hex && (c == 'p' || c == 'P')):
			exponent = true
			rest := strings.TrimLeft(body[i+1:], "+-")
			if len(body)-i-1-len(rest) > 1 || rest == "" || strings.Trim(rest, "0123456789") != "" {
				return 0, false
			}
			i = len(body)
		default:
			return 0, false
		}
	}
	if digits == 0 {
		return 0, false
	}
	if hex && !exponent {
		text += "p0"
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return v, true
}

// KeyDecimal is a decimal key (ParseDecimal).
func (r *JSONReader) KeyDecimal(key, field string) Decimal {
	d, err := ParseDecimal(key)
	if err != nil {
		r.Fail(err.Error(), field, r.tokStart)
	}
	return d
}

// KeyUUID is a uuid key.
func (r *JSONReader) KeyUUID(key, field string) UUID {
	u, err := ParseUUID(key)
	if err != nil {
		r.Fail("invalid uuid key \""+key+"\"", field, r.tokStart)
	}
	return u
}

// KeyBytes is a bytes key read from its Base64 text into dst[:0], charged its length.
func (r *JSONReader) KeyBytes(dst []byte, key, field string) []byte {
	dst, ok := AppendBase64Decode(dst[:0], key)
	if !ok {
		r.Fail("invalid base64 key \""+key+"\"", field, r.tokStart)
		return dst
	}
	r.Spend(len(dst), field)
	return dst
}
