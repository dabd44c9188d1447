// Package keys (the generated code of tests/go/keys/keys.fbe, with this file beside it:
// tests/go/test_go_generated.py) checks docs/limits.md 4 on every kind of key Go sets and maps can
// hold twice: sets are slices and maps keyed by bytes or structs are []fbe.Pair, so a value can
// hold a key twice; every writer (versioned, final, JSON, the Sender) refuses it with an
// *fbe.EncodeError naming the type and the field path and writes nothing, and every reader
// refuses such data. Keys in order cost the writers no allocation.
package keys

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// root is what the generated roots have in common.
type root interface {
	MarshalFBE() ([]byte, error)
	AppendFBE(*fbe.Writer) ([]byte, error)
	MarshalFinal() ([]byte, error)
	AppendFinal(*fbe.Writer) ([]byte, error)
	AppendJSON([]byte) ([]byte, error)
	UnmarshalFBE([]byte) error
	UnmarshalFinal([]byte) error
	ReadJSON([]byte, *fbe.Limits) error
}

// send sends v through a Sender that queues its frames: what it sends, and the error.
func send(v root, final bool) ([]byte, error) {
	var s interface {
		Buffered() []byte
	}
	var err error
	if final {
		fs := NewFinalSender(nil)
		s = fs
		switch x := v.(type) {
		case *Holder:
			_, err = fs.SendHolder(x)
		case *Scalars:
			_, err = fs.SendScalars(x)
		case *Outer:
			_, err = fs.SendOuter(x)
		}
	} else {
		vs := NewSender(nil)
		s = vs
		switch x := v.(type) {
		case *Holder:
			_, err = vs.SendHolder(x)
		case *Scalars:
			_, err = vs.SendScalars(x)
		case *Outer:
			_, err = vs.SendOuter(x)
		}
	}
	return s.Buffered(), err
}

// each is f of every rank (and its index in the slice).
func each[T any](ranks []int, f func(rank, index int) T) []T {
	if ranks == nil {
		return nil
	}
	out := make([]T, len(ranks))
	for i, r := range ranks {
		out[i] = f(r, i)
	}
	return out
}

func pairs[K any](ranks []int, key func(rank int) K) []fbe.Pair[K, int32] {
	return each(ranks, func(r, i int) fbe.Pair[K, int32] { return fbe.Pair[K, int32]{Key: key(r), Value: int32(i)} })
}

func tagged(r, i int) Tagged { return Tagged{Tag: []byte{byte(r), 't'}, N: int32(i)} }

// labeled of rank 0 has no label, the others the same label and the rank's tag: in key order.
func labeled(r int) Labeled {
	v := Labeled{Tagged: tagged(r, 0), N: int32(r)}
	if r > 0 {
		label := "l"
		v.Label = &label
	}
	return v
}

// A set or a map held as pairs, filled from ranks: rank r is the r-th value of the key type in
// the order sets and maps are written (docs/ir.md "order"); most is the highest rank there is.
type field struct {
	root, name string
	maps       bool
	most       int
	fill       func(ranks []int) root
}

var fields = []field{
	{"keys.Scalars", "ints", false, 99, func(r []int) root {
		return &Scalars{Ints: each(r, func(x, _ int) int32 { return int32(x*10 - 50) })}
	}},
	{"keys.Scalars", "bigs", false, 99, func(r []int) root {
		return &Scalars{Bigs: each(r, func(x, _ int) uint64 { return uint64(x)<<56 | 1<<63 })}
	}},
	{"keys.Scalars", "doubles", false, 99, func(r []int) root {
		return &Scalars{Doubles: each(r, func(x, _ int) float64 { return float64(x) - 10.5 })}
	}},
	{"keys.Scalars", "strings", false, 99, func(r []int) root {
		return &Scalars{Strings: each(r, func(x, _ int) string { return fmt.Sprintf("s%02d", x) })}
	}},
	{"keys.Scalars", "chars", false, 99, func(r []int) root { // C++'s signed char: 0x80 first
		return &Scalars{Chars: each(r, func(x, _ int) byte { return byte(0x80 + x) })}
	}},
	{"keys.Scalars", "bools", false, 1, func(r []int) root {
		return &Scalars{Bools: each(r, func(x, _ int) bool { return x == 1 })}
	}},
	{"keys.Scalars", "uuids", false, 99, func(r []int) root {
		return &Scalars{Uuids: each(r, func(x, _ int) fbe.UUID { return fbe.UUID{0: byte(x), 15: 1} })}
	}},
	{"keys.Scalars", "decimals", false, 99, func(r []int) root {
		return &Scalars{Decimals: each(r, func(x, _ int) fbe.Decimal { return fbe.MustDecimal(strconv.Itoa(x-50) + ".25") })}
	}},
	{"keys.Scalars", "times", false, 99, func(r []int) root {
		return &Scalars{Times: each(r, func(x, _ int) fbe.Timestamp { return fbe.Timestamp(x) * 1000 })}
	}},
	{"keys.Scalars", "colors", false, 99, func(r []int) root {
		return &Scalars{Colors: each(r, func(x, _ int) Color { return Color(x) })}
	}},
	{"keys.Scalars", "bits", false, 99, func(r []int) root {
		return &Scalars{Bits: each(r, func(x, _ int) Bits { return Bits(x) })}
	}},
	{"keys.Holder", "blobs", false, 99, func(r []int) root {
		return &Holder{Blobs: each(r, func(x, _ int) []byte { return []byte{byte(x), 'b'} })}
	}},
	{"keys.Holder", "byBlob", true, 99, func(r []int) root {
		return &Holder{ByBlob: pairs(r, func(x int) []byte { return []byte{byte(x)} })}
	}},
	{"keys.Holder", "hashBlob", true, 99, func(r []int) root {
		return &Holder{HashBlob: pairs(r, func(x int) []byte { return []byte{'h', byte(x)} })}
	}},
	{"keys.Holder", "empties", false, 0, func(r []int) root {
		return &Holder{Empties: each(r, func(int, int) Empty { return Empty{} })}
	}},
	{"keys.Holder", "byEmpty", true, 0, func(r []int) root {
		return &Holder{ByEmpty: pairs(r, func(int) Empty { return Empty{} })}
	}},
	{"keys.Holder", "tagged", false, 99, func(r []int) root { return &Holder{Tagged: each(r, tagged)} }},
	{"keys.Holder", "labeled", false, 99, func(r []int) root {
		return &Holder{Labeled: each(r, func(x, _ int) Labeled { return labeled(x) })}
	}},
	{"keys.Holder", "byLabeled", true, 99, func(r []int) root { return &Holder{ByLabeled: pairs(r, labeled)} }},
}

func count(from, to int) []int {
	var out []int
	for r := from; r != to; {
		out = append(out, r)
		if from < to {
			r++
		} else {
			r--
		}
	}
	return out
}

// The ranks of each value and the indexes of the two elements that are the same (-1: none).
var cases = []struct {
	ranks []int
	i, k  int
}{
	{nil, -1, -1},
	{[]int{0}, -1, -1},
	{[]int{0, 1}, -1, -1},
	{[]int{1, 0}, -1, -1},
	{count(19, -1), -1, -1}, // out of order beyond the pairwise check
	{[]int{0, 0}, 0, 1},
	{[]int{1, 0, 1}, 0, 2},
	{[]int{0, 1, 1}, 1, 2},
	{append(count(0, 20), 5), 5, 20},
}

// checkRefused asserts that a writer refused v: no bytes, an *fbe.EncodeError wrapping
// fbe.ErrDuplicate whose text is want.
func checkRefused(t *testing.T, what string, data []byte, err error, want string) {
	t.Helper()
	var ee *fbe.EncodeError
	if len(data) != 0 || !errors.As(err, &ee) || !errors.Is(err, fbe.ErrDuplicate) || err.Error() != want {
		t.Errorf("%s: %d bytes, %v; want no bytes and %q", what, len(data), err, want)
	}
}

// writeAll writes v in every way there is: nil errors and the bytes read back, or every way
// refused with want.
func writeAll(t *testing.T, name string, v root, want string) {
	t.Helper()
	var w fbe.Writer
	prior, _ := (&Holder{}).AppendFBE(&w) // the reused Writer held a root
	prior = bytes.Clone(prior)
	if len(prior) == 0 {
		t.Fatal("an empty Holder not written")
	}
	type write struct {
		name  string
		write func(root) ([]byte, error)
		read  func(root, []byte) error
	}
	for _, x := range []write{
		{"MarshalFBE", root.MarshalFBE, root.UnmarshalFBE},
		{"AppendFBE", func(v root) ([]byte, error) { return v.AppendFBE(&w) }, root.UnmarshalFBE},
		{"MarshalFinal", root.MarshalFinal, root.UnmarshalFinal},
		{"AppendFinal", func(v root) ([]byte, error) { return v.AppendFinal(&w) }, root.UnmarshalFinal},
		{"AppendJSON", func(v root) ([]byte, error) {
			out, err := v.AppendJSON([]byte("x="))
			if !bytes.HasPrefix(out, []byte("x=")) {
				t.Errorf("%s AppendJSON: dst's bytes lost: %q", name, out)
			}
			return bytes.TrimPrefix(out, []byte("x=")), err
		}, func(r root, data []byte) error { return r.ReadJSON(data, nil) }},
	} {
		data, err := x.write(v)
		if want != "" {
			checkRefused(t, name+" "+x.name, data, err, want)
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", name, x.name, err)
			continue
		}
		data = bytes.Clone(data)
		// distinct keys in any order read back, to a value that writes the same bytes
		back := reflect.New(reflect.TypeOf(v).Elem()).Interface().(root)
		if err := x.read(back, data); err != nil {
			t.Errorf("%s %s: read back: %v", name, x.name, err)
		} else if again, err := x.write(back); err != nil || !bytes.Equal(again, data) {
			t.Errorf("%s %s: read back and written again: %v\n%x\n%x", name, x.name, err, again, data)
		}
	}
	data, err := json.Marshal(v)
	if want != "" && (data != nil || !errors.Is(err, fbe.ErrDuplicate) || !strings.Contains(err.Error(), want)) {
		t.Errorf("%s json.Marshal: %s, %v; want %q", name, data, err, want)
	} else if want == "" && err != nil {
		t.Errorf("%s json.Marshal: %v", name, err)
	}
	for _, final := range []bool{false, true} {
		sent, err := send(v, final)
		if want != "" {
			checkRefused(t, fmt.Sprintf("%s Sender (final %v)", name, final), sent, err, want)
		} else if err != nil || len(sent) == 0 {
			t.Errorf("%s Sender (final %v): %d bytes, %v", name, final, len(sent), err)
		}
	}
	if next, err := (&Holder{}).AppendFBE(&w); err != nil || !bytes.Equal(next, prior) {
		t.Errorf("%s: the Writer is not reusable after a refusal: %v", name, err)
	}
}

// Every writer refuses a set holding an element twice and a map held as pairs holding a key
// twice, whatever the order, and writes distinct keys in any order (readers read them back).
func TestWritersRefuseTheSameKeyTwice(t *testing.T) {
	for _, f := range fields {
		what := "two elements are the same"
		if f.maps {
			what = "two entries have the same key"
		}
		for _, c := range cases {
			if len(c.ranks) > 0 && slices.Max(c.ranks) > f.most {
				continue
			}
			want := ""
			if c.k >= 0 {
				want = fmt.Sprintf("%s, [%d] and [%d] (%s.%s)", what, c.i, c.k, f.root, f.name)
			}
			writeAll(t, fmt.Sprintf("%s %v", f.name, c.ranks), f.fill(c.ranks), want)
		}
	}
	// bytes by their value (nil and empty are the same), keys by the [key] fields only
	label := "x"
	writeAll(t, "nil and empty bytes", &Holder{Blobs: [][]byte{nil, {}}},
		"two elements are the same, [0] and [1] (keys.Holder.blobs)")
	writeAll(t, "same tag, other n", &Holder{Tagged: []Tagged{{Tag: []byte("a"), N: 1}, {Tag: []byte("a"), N: 2}}},
		"two elements are the same, [0] and [1] (keys.Holder.tagged)")
	other := label
	writeAll(t, "same label text", &Holder{Labeled: []Labeled{{Label: &label}, {Label: &other, N: 1}}},
		"two elements are the same, [0] and [1] (keys.Holder.labeled)")
	writeAll(t, "null and a label", &Holder{Labeled: []Labeled{{Label: &label}, {}}}, "")
	// a Go map holds each key once: nothing to refuse
	writeAll(t, "a Go map", &Scalars{ByName: map[string]int32{"a": 1, "b": 2}}, "")
	// -0 and 0 are the same double key
	writeAll(t, "-0 and 0", &Scalars{Doubles: []float64{0, negativeZero()}},
		"two elements are the same, [0] and [1] (keys.Scalars.doubles)")
}

func negativeZero() float64 {
	z := 0.0
	return -z
}

// The error names the path from the root: through collections, optionals and map values.
func TestWriterErrorPaths(t *testing.T) {
	for _, c := range []struct {
		v    *Outer
		want string
	}{
		{&Outer{Holders: []Holder{{}, {Empties: []Empty{{}, {}}}}},
			"two elements are the same, [0] and [1] (keys.Outer.holders[1].empties)"},
		{&Outer{Scalars: &Scalars{Ints: []int32{1, 2, 1}}},
			"two elements are the same, [0] and [2] (keys.Outer.scalars.ints)"},
		{&Outer{ById: map[int32]Holder{9: {}, 3: {ByBlob: pairs([]int{1, 1}, func(int) []byte { return nil })}}},
			"two entries have the same key, [0] and [1] (keys.Outer.byId[0].byBlob)"},
		{&Outer{ById: map[int32]Holder{3: {}, 9: {ByLabeled: pairs([]int{2, 1, 2}, labeled)}}},
			"two entries have the same key, [0] and [2] (keys.Outer.byId[1].byLabeled)"},
	} {
		writeAll(t, c.want, c.v, c.want)
	}
}

// Keys in the order they are written cost the writers no allocation (docs/go.md: the reuse paths).
func TestSortedKeysWriteWithoutAllocations(t *testing.T) {
	ranks := count(0, 20)
	s, h := &Scalars{}, &Holder{}
	for _, f := range fields {
		r := ranks
		if f.most < len(r)-1 {
			r = count(0, f.most+1)
		}
		switch v := f.fill(r).(type) {
		case *Scalars:
			reflect.ValueOf(s).Elem().FieldByName(strings.ToUpper(f.name[:1]) + f.name[1:]).
				Set(reflect.ValueOf(v).Elem().FieldByName(strings.ToUpper(f.name[:1]) + f.name[1:]))
		case *Holder:
			reflect.ValueOf(h).Elem().FieldByName(strings.ToUpper(f.name[:1]) + f.name[1:]).
				Set(reflect.ValueOf(v).Elem().FieldByName(strings.ToUpper(f.name[:1]) + f.name[1:]))
		}
	}
	var w fbe.Writer
	buf := make([]byte, 0, 64<<10)
	for _, v := range []root{s, h} {
		if _, err := v.AppendFBE(&w); err != nil {
			t.Fatal(err)
		}
		if _, err := v.AppendFinal(&w); err != nil {
			t.Fatal(err)
		}
		for name, write := range map[string]func(){
			"AppendFBE":   func() { _, _ = v.AppendFBE(&w) },
			"AppendFinal": func() { _, _ = v.AppendFinal(&w) },
			"AppendJSON":  func() { _, _ = v.AppendJSON(buf[:0]) },
		} {
			if n := testing.AllocsPerRun(50, write); n != 0 {
				t.Errorf("%T %s: %v allocations, want 0", v, name, n)
			}
		}
	}
}

// emptiesVersioned is a versioned Holder with n Empty elements and m Empty keys, written as the
// generated writer writes (TestReadersRefuseTheSameKeyTwice checks it against that writer for one
// of each), which refuses two of either.
func emptiesVersioned(n, m int) []byte {
	var w fbe.Writer
	w.BeginVersioned()
	b := w.Struct(0, 4, 40, Holder{}.TypeID())
	w.Vector(b, b+8, 0, 4)
	w.Vector(b, b+12, 0, 8)
	w.Vector(b, b+16, 0, 8)
	e := w.Vector(b, b+20, n, 4)
	for i := range n {
		w.Struct(b, e+4*i, 8, Empty{}.TypeID())
	}
	p := w.Vector(b, b+24, m, 8)
	for i := range m {
		w.Struct(b, p+8*i, 8, Empty{}.TypeID())
		w.PutI32(p+8*i+4, int32(i))
	}
	w.Vector(b, b+28, 0, 4)
	w.Vector(b, b+32, 0, 4)
	w.Vector(b, b+36, 0, 8)
	data, _ := w.EndVersioned()
	return data
}

// emptiesFinal is emptiesVersioned in the final model.
func emptiesFinal(n, m int) []byte {
	var w fbe.Writer
	w.BeginFinal()
	w.AppendCount(0)
	w.AppendCount(0)
	w.AppendCount(0)
	w.AppendCount(n)
	w.AppendCount(m)
	for i := range m {
		w.AppendI32(int32(i))
	}
	w.AppendCount(0)
	w.AppendCount(0)
	w.AppendCount(0)
	data, _ := w.EndFinal(Holder{}.TypeID())
	return data
}

// Every reader refuses the same key twice: buffers of two distinct keys with the second key's
// bytes made the first's (the writers write no such buffer), and two structs without [key] fields
// built as the writer would; JSON likewise.
func TestReadersRefuseTheSameKeyTwice(t *testing.T) {
	one := &Holder{Empties: []Empty{{}}, ByEmpty: []fbe.Pair[Empty, int32]{{}}}
	if data, _ := one.MarshalFBE(); !bytes.Equal(data, emptiesVersioned(1, 1)) {
		t.Fatalf("emptiesVersioned is not what the writer writes:\n%x\n%x", data, emptiesVersioned(1, 1))
	}
	if data, _ := one.MarshalFinal(); !bytes.Equal(data, emptiesFinal(1, 1)) {
		t.Fatalf("emptiesFinal is not what the writer writes:\n%x\n%x", data, emptiesFinal(1, 1))
	}
	a, b := []byte("dupA"), []byte("dupB")
	label := "x"
	patched := []struct {
		field string
		v     Holder
	}{
		{"blobs", Holder{Blobs: [][]byte{a, b}}},
		{"byBlob", Holder{ByBlob: []fbe.Pair[[]byte, int32]{{Key: a, Value: 1}, {Key: b, Value: 1}}}},
		{"hashBlob", Holder{HashBlob: []fbe.Pair[[]byte, int32]{{Key: a, Value: 1}, {Key: b, Value: 2}}}},
		{"tagged", Holder{Tagged: []Tagged{{Tag: a, N: 1}, {Tag: b, N: 2}}}},
		{"labeled", Holder{Labeled: []Labeled{{Label: &label, Tagged: Tagged{Tag: a}}, {Label: &label, Tagged: Tagged{Tag: b}}}}},
		{"byLabeled", Holder{ByLabeled: []fbe.Pair[Labeled, int32]{{Key: Labeled{Tagged: Tagged{Tag: a}}}, {Key: Labeled{Tagged: Tagged{Tag: b}}}}}},
	}
	type model struct {
		name   string
		read   func(*Holder, []byte) error
		verify func([]byte, *fbe.Limits) error
	}
	models := []model{
		{"versioned", (*Holder).UnmarshalFBE, VerifyFBEHolder},
		{"final", (*Holder).UnmarshalFinal, VerifyFinalHolder},
	}
	refused := func(field, name string, good, bad []byte, m model) {
		t.Helper()
		want := "duplicate key (keys.Holder." + field
		var back Holder
		if err := m.read(&back, good); err != nil || m.verify(good, nil) != nil {
			t.Errorf("%s %s: distinct keys refused: %v, %v", field, name, err, m.verify(good, nil))
		}
		if err := m.read(&back, bad); err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, fbe.ErrDuplicate) {
			t.Errorf("%s %s: read %v, want %q", field, name, err, want)
		}
		if err := m.verify(bad, nil); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s %s: verify %v, want %q", field, name, err, want)
		}
	}
	for _, c := range patched {
		for i, write := range []func() ([]byte, error){c.v.MarshalFBE, c.v.MarshalFinal} {
			good, err := write()
			if err != nil || bytes.Count(good, b) != 1 {
				t.Fatalf("%s: %v, %d markers", c.field, err, bytes.Count(good, b))
			}
			refused(c.field, models[i].name, good, bytes.Replace(good, b, a, 1), models[i])
		}
		text, err := c.v.AppendJSON(nil)
		old, new := fbe.AppendJSONString(nil, "ZHVwQg=="), fbe.AppendJSONString(nil, "ZHVwQQ==") // Base64 of dupB, dupA
		if err != nil || bytes.Count(text, old) != 1 {
			t.Fatalf("%s json: %s %v", c.field, text, err)
		}
		checkJSON(t, c.field, text, bytes.Replace(text, old, new, 1))
	}
	refused("empties", "versioned", emptiesVersioned(1, 0), emptiesVersioned(2, 0), models[0])
	refused("byEmpty", "versioned", emptiesVersioned(0, 1), emptiesVersioned(0, 2), models[0])
	refused("empties", "final", emptiesFinal(1, 0), emptiesFinal(2, 0), models[1])
	refused("byEmpty", "final", emptiesFinal(0, 1), emptiesFinal(0, 2), models[1])
	checkJSON(t, "empties", []byte(`{"empties":[{}]}`), []byte(`{"empties":[{},{}]}`))
	checkJSON(t, "byEmpty", []byte(`{"byEmpty":[[{},1]]}`), []byte(`{"byEmpty":[[{},1],[{},2]]}`))
}

func checkJSON(t *testing.T, field string, good, bad []byte) {
	t.Helper()
	var back Holder
	if err := json.Unmarshal(good, &back); err != nil {
		t.Errorf("%s json: distinct keys refused: %v", field, err)
	}
	if err := json.Unmarshal(bad, &back); err == nil || !strings.Contains(err.Error(), "read as the same") ||
		!strings.Contains(err.Error(), "(keys.Holder."+field) {
		t.Errorf("%s json: %s read: %v", field, bad, err)
	}
}

// dec is the decimal of the given magnitude, scale and sign exactly as given (1.50 is dec(150, 2)).
func dec(m uint64, scale uint8) fbe.Decimal { return fbe.DecimalFromParts(m, 0, scale, false) }

// Decimals are the same key when their values are (1.5 and 1.50, -0 and 0; docs/limits.md 4), as
// C++ and Python compare them: every writer refuses a set, a Go map or a struct key holding one
// value twice, whatever its bytes; values that differ beyond a double's digits are distinct.
func TestDecimalKeysByValue(t *testing.T) {
	oneHalf, oneHalf0 := dec(15, 1), dec(150, 2)
	negZero := fbe.DecimalFromParts(0, 0, 3, true)
	two, two0 := dec(2, 0), dec(20, 1)
	for _, c := range []struct {
		name string
		v    *Scalars
		want string
	}{
		{"1.5 and 1.50", &Scalars{Decimals: []fbe.Decimal{oneHalf, oneHalf0}},
			"two elements are the same, [0] and [1] (keys.Scalars.decimals)"},
		{"0 and -0.000", &Scalars{Decimals: []fbe.Decimal{dec(1, 0), {}, negZero}},
			"two elements are the same, [1] and [2] (keys.Scalars.decimals)"},
		{"map 1.5 and 1.50", &Scalars{ByDecimal: map[fbe.Decimal]int32{two: 0, oneHalf: 1, oneHalf0: 2}},
			"two entries have the same key, [0] and [1] (keys.Scalars.byDecimal)"},
		{"hash 0 and -0.000", &Scalars{HashDecimal: map[fbe.Decimal]int32{{}: 1, negZero: 2}},
			"two entries have the same key, [0] and [1] (keys.Scalars.hashDecimal)"},
		{"struct keys 1.5 and 1.50", &Scalars{Priced: []Priced{{Price: oneHalf, N: 1}, {Price: oneHalf0, N: 2}}},
			"two elements are the same, [0] and [1] (keys.Scalars.priced)"},
		{"optional keys 2 and 2.0", &Scalars{Priced: []Priced{{Limit: &two}, {Limit: &two0}}},
			"two elements are the same, [0] and [1] (keys.Scalars.priced)"},
		{"map struct keys", &Scalars{ByPriced: []fbe.Pair[Priced, int32]{{Key: Priced{Price: two}}, {Key: Priced{Price: two0}}}},
			"two entries have the same key, [0] and [1] (keys.Scalars.byPriced)"},
		// distinct: beyond a double's digits, a null limit and a limit, other [key] fields
		{"0.1 and 0.1+1e-28", &Scalars{
			Decimals:  []fbe.Decimal{fbe.MustDecimal("0.1"), fbe.MustDecimal("0.1000000000000000000000000001")},
			ByDecimal: map[fbe.Decimal]int32{fbe.MustDecimal("0.1"): 1, fbe.MustDecimal("0.1000000000000000000000000001"): 2},
			Priced:    []Priced{{Price: two}, {Price: two, Limit: &two}, {Price: oneHalf, Limit: &oneHalf}},
		}, ""},
	} {
		writeAll(t, c.name, c.v, c.want)
	}
	// a key held as 1.50 is written as 1.5 (docs/format.md 2.4: the one form of a value), and a
	// decimal key read into a Go map is held normalized: bytes of 1.50 are found as 1.5
	data, err := (&Scalars{ByDecimal: map[fbe.Decimal]int32{oneHalf0: 7}}).MarshalFBE()
	if err != nil || !bytes.Contains(data, decimalBytes(oneHalf)) {
		t.Fatalf("1.50 as the one key: %v", err)
	}
	data = bytes.Replace(data, decimalBytes(oneHalf), decimalBytes(oneHalf0), 1)
	var back Scalars
	if err := back.UnmarshalFBE(data); err != nil || back.ByDecimal[oneHalf] != 7 || len(back.ByDecimal) != 1 {
		t.Errorf("1.50 read as a map key: %v, %v", err, back.ByDecimal)
	}
}

// decimalBytes are the 16 wire bytes of d's parts as they are (1.50 as 1.50: what another writer
// may write; ours write d.Normalize()).
func decimalBytes(d fbe.Decimal) []byte {
	lo, hi, scale, negative := d.Parts()
	b := binary.LittleEndian.AppendUint64(nil, lo)
	b = binary.LittleEndian.AppendUint32(b, hi)
	flags := uint32(scale) << 16
	if negative {
		flags |= 1 << 31
	}
	return binary.LittleEndian.AppendUint32(b, flags)
}

// The keys of a decimal map in the order every writer writes them: by exact value, as C++'s
// std::map<decimal_t> and Python's sorted() of decimal.Decimal (not by a double, which takes
// 0.1 and 0.1000000000000000000000000001 for one value), whatever their scales.
func TestDecimalKeysWrittenByValue(t *testing.T) {
	texts := []string{"-79228162514264337593543950335", "-1", "-0.1000000000000000000000000001", "-0.1", "0",
		"0.0000000000000000000000000001", "0.1", "0.1000000000000000000000000001", "0.10000000000000000000000001",
		"1", "1.0000000000000000000000000001", "7.9228162514264337593543950335", "79228162514264337593543950335"}
	order := make([]fbe.Decimal, len(texts))
	v := &Scalars{ByDecimal: map[fbe.Decimal]int32{}, HashDecimal: map[fbe.Decimal]int32{}}
	for i, s := range texts {
		order[i] = fbe.MustDecimal(s)
		v.ByDecimal[order[i]] = int32(i)
		v.HashDecimal[order[i]] = int32(i)
	}
	order[9] = dec(10, 1) // 1 as 1.0: between the same neighbours
	delete(v.ByDecimal, fbe.MustDecimal("1"))
	v.ByDecimal[order[9]] = 9
	for name, write := range map[string]func() ([]byte, error){"MarshalFBE": v.MarshalFBE, "MarshalFinal": v.MarshalFinal} {
		for range 5 { // Go's map order differs from run to run
			data, err := write()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			at := -1
			for i, d := range order {
				next := bytes.Index(data[at+1:], decimalBytes(d.Normalize())) // as the writers store it
				if next < 0 {
					t.Fatalf("%s: %s not written in order after %s", name, d, order[max(i-1, 0)])
				}
				at += 1 + next
			}
		}
	}
	text, err := v.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	// the values are the ranks: in order, 0 to 12
	at := bytes.Index(text, []byte(`"byDecimal":{`))
	for i := range order {
		next := bytes.Index(text[at+1:], fmt.Appendf(nil, `":%d`, i))
		if at < 0 || next < 0 {
			t.Fatalf("JSON map keys not in order at %s:\n%s", order[i], text)
		}
		at += 1 + next
	}
}

// Every reader refuses a set, map or hash holding 1.5 and 1.50, or 0 and -0, as two keys: buffers
// of two distinct keys with the second key's bytes made 1.50 (-0) (the writers write no such
// buffer); the Receiver refuses such a frame; JSON likewise.
func TestReadersRefuseDecimalKeysOfOneValue(t *testing.T) {
	marker, same := dec(25, 1), dec(150, 2) // 2.5 becomes 1.50, the value of 1.5 already there
	zero, negZero := dec(0, 0), fbe.DecimalFromParts(0, 0, 3, true)
	for _, c := range []struct {
		field string
		v     *Scalars
		to    fbe.Decimal
	}{
		{"decimals", &Scalars{Decimals: []fbe.Decimal{dec(15, 1), marker}}, same},
		{"decimals", &Scalars{Decimals: []fbe.Decimal{zero, marker}}, negZero},
		{"byDecimal", &Scalars{ByDecimal: map[fbe.Decimal]int32{dec(15, 1): 1, marker: 2}}, same},
		{"hashDecimal", &Scalars{HashDecimal: map[fbe.Decimal]int32{dec(15, 1): 1, marker: 2}}, same},
		{"priced", &Scalars{Priced: []Priced{{Price: dec(15, 1)}, {Price: marker}}}, same},
		{"priced", &Scalars{Priced: []Priced{{Price: zero, Limit: &zero}, {Price: zero, Limit: &marker}}}, negZero},
		{"byPriced", &Scalars{ByPriced: []fbe.Pair[Priced, int32]{{Key: Priced{Price: dec(15, 1)}}, {Key: Priced{Price: marker}}}}, same},
	} {
		want := "duplicate key (keys.Scalars." + c.field
		for _, m := range []struct {
			name   string
			write  func() ([]byte, error)
			read   func(*Scalars, []byte) error
			verify func([]byte, *fbe.Limits) error
		}{
			{"versioned", c.v.MarshalFBE, (*Scalars).UnmarshalFBE, VerifyFBEScalars},
			{"final", c.v.MarshalFinal, (*Scalars).UnmarshalFinal, VerifyFinalScalars},
		} {
			good, err := m.write()
			if err != nil || bytes.Count(good, decimalBytes(marker)) != 1 {
				t.Fatalf("%s %s: %v", c.field, m.name, err)
			}
			bad := bytes.Replace(good, decimalBytes(marker), decimalBytes(c.to), 1)
			var back Scalars
			if err := m.read(&back, good); err != nil || m.verify(good, nil) != nil {
				t.Errorf("%s %s: distinct keys refused: %v, %v", c.field, m.name, err, m.verify(good, nil))
			}
			if err := m.read(&back, bad); err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, fbe.ErrDuplicate) {
				t.Errorf("%s %s %s: read %v, want %q", c.field, m.name, c.to, err, want)
			}
			if err := m.verify(bad, nil); err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s %s %s: verify %v, want %q", c.field, m.name, c.to, err, want)
			}
		}
		// the same through a Receiver: the frame is refused, the next one delivered
		sent, err := send(c.v, false)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Replace(sent, decimalBytes(marker), decimalBytes(c.to), 1)
		var got []any
		r := NewReceiver(HandlerFunc(func(v any) { got = append(got, v) }))
		var errs []error
		r.OnError = func(err error) { errs = append(errs, err) }
		if err := r.Receive(append(bad, sent...)); err != nil || len(got) != 1 || len(errs) != 1 ||
			!errors.Is(errs[0], fbe.ErrDuplicate) {
			t.Errorf("%s Receiver: %v, %d delivered, errors %v", c.field, err, len(got), errs)
		}
	}
	// JSON: decimal texts of one value
	for _, c := range []struct{ good, bad string }{
		{`{"decimals":["1.5","2.5"]}`, `{"decimals":["1.5","1.50"]}`},
		{`{"decimals":["0","1"]}`, `{"decimals":["0","-0.000"]}`},
		{`{"decimals":[1.5,"2.5"]}`, `{"decimals":[1.5,"1.50"]}`},
		{`{"byDecimal":{"1.5":1,"2.5":2}}`, `{"byDecimal":{"1.5":1,"1.50":2}}`},
		{`{"hashDecimal":{"0":1,"1":2}}`, `{"hashDecimal":{"0":1,"-0.0":2}}`},
		{`{"priced":[{"price":"1.5"},{"price":"2.5"}]}`, `{"priced":[{"price":"1.5"},{"price":"1.50"}]}`},
		{`{"byPriced":[[{"price":"2"},1],[{"price":"2.5"},2]]}`, `{"byPriced":[[{"price":"2"},1],[{"price":"2.00"},2]]}`},
	} {
		var back Scalars
		if err := back.ReadJSON([]byte(c.good), nil); err != nil {
			t.Errorf("%s: %v", c.good, err)
		}
		if err := back.ReadJSON([]byte(c.bad), nil); err == nil || !strings.Contains(err.Error(), "the same") {
			t.Errorf("%s: %v", c.bad, err)
		}
	}
}
