package fbe

import (
	"bytes"
	"cmp"
	"errors"
	"math"
	"testing"
)

type keyed struct{ id int32 }

func keyedKey(v *keyed) int32      { return v.id }
func keyedCompare(a, b *keyed) int { return cmp.Compare(a.id, b.id) }
func pairsOf(keys ...string) (s []Pair[[]byte, int]) {
	for i, k := range keys {
		s = append(s, Pair[[]byte, int]{[]byte(k), i})
	}
	return s
}

// Every Repeated function finds the first element that repeats an earlier one (i < k), in order
// or not, short or beyond smallSet (the map path), and finds nothing in distinct elements.
func TestRepeated(t *testing.T) {
	long := make([]int32, 40)
	for i := range long {
		long[i] = int32(i)
	}
	shuffled := append([]int32(nil), long...)
	shuffled[0], shuffled[39] = shuffled[39], shuffled[0]
	for _, c := range []struct {
		name string
		s    []int32
		i, k int
	}{
		{"nil", nil, -1, -1},
		{"one", []int32{5}, -1, -1},
		{"increasing", []int32{1, 2, 3}, -1, -1},
		{"decreasing", []int32{3, 2, 1}, -1, -1},
		{"adjacent", []int32{1, 2, 2, 3}, 1, 2},
		{"apart", []int32{3, 1, 2, 3}, 0, 3},
		{"long", long, -1, -1},
		{"long shuffled", shuffled, -1, -1},
		{"long repeated", append(append([]int32(nil), long...), 7), 7, 40},
	} {
		if i, k := Repeated(c.s); i != c.i || k != c.k {
			t.Errorf("Repeated %s: %d, %d, want %d, %d", c.name, i, k, c.i, c.k)
		}
		ks := make([]keyed, len(c.s))
		for j, x := range c.s {
			ks[j] = keyed{id: x}
		}
		if i, k := RepeatedKey(ks, keyedKey, keyedCompare); i != c.i || k != c.k {
			t.Errorf("RepeatedKey %s: %d, %d, want %d, %d", c.name, i, k, c.i, c.k)
		}
		ps := make([]Pair[keyed, bool], len(c.s))
		for j, x := range c.s {
			ps[j].Key = keyed{id: x}
		}
		if i, k := RepeatedPairKey(ps, keyedKey, keyedCompare); i != c.i || k != c.k {
			t.Errorf("RepeatedPairKey %s: %d, %d, want %d, %d", c.name, i, k, c.i, c.k)
		}
	}
	// floats: -0 and 0 are the same key (as std::set and a Python set take them); NaN is no key
	// twice (docs/limits.md 4, an open point)
	if i, k := Repeated([]float64{-1, 0, 1, 0}); i != 1 || k != 3 {
		t.Errorf("0 twice: %d, %d", i, k)
	}
	if _, k := Repeated([]float64{0, math.Copysign(0, -1)}); k != 1 {
		t.Error("-0 and 0 taken for two keys")
	}
	if _, k := Repeated([]string{"b", "a", "ab"}); k != -1 {
		t.Error("distinct strings")
	}
	// char in C++'s signed order: 0x80 before 0x00 is increasing, and one comparison each
	calls := 0
	signed := func(a, b byte) int { calls++; return CompareChar(a, b) }
	if _, k := RepeatedFunc([]byte{0x80, 0xff, 0, 0x7f}, signed); k != -1 || calls != 3 {
		t.Errorf("signed chars: %d, %d comparisons", k, calls)
	}
	if i, k := RepeatedFunc([]bool{false, true, false}, CompareBool); i != 0 || k != 2 {
		t.Errorf("bools: %d, %d", i, k)
	}
	u := UUID{1}
	if i, k := RepeatedFunc([]UUID{{}, u, {2}, u}, CompareUUID); i != 1 || k != 3 {
		t.Errorf("uuids: %d, %d", i, k)
	}
	// decimals by value: 1.5 and 1.50, -0 and 0 are the same; in order by value one comparison each
	d, d2 := MustDecimal("1.5"), DecimalFromParts(150, 0, 2, false)
	for _, c := range []struct {
		s    []Decimal
		i, k int
	}{
		{[]Decimal{MustDecimal("-2"), d, MustDecimal("0.1"), d}, 1, 3},
		{[]Decimal{MustDecimal("-2"), d, MustDecimal("0.1"), d2}, 1, 3},
		{[]Decimal{d, d2}, 0, 1},
		{[]Decimal{{}, DecimalFromParts(0, 0, 3, true)}, 0, 1},
		{[]Decimal{MustDecimal("0.1"), MustDecimal("0.1000000000000000000000000001")}, -1, -1},
		{[]Decimal{MustDecimal("-1"), {}, d}, -1, -1},
	} {
		if i, k := RepeatedDecimal(c.s); i != c.i || k != c.k {
			t.Errorf("decimals %v: %d, %d, want %d, %d", c.s, i, k, c.i, c.k)
		}
	}
	many := make([]Decimal, 40) // beyond the pairwise check, out of order
	for i := range many {
		many[i] = DecimalFromParts(uint64(40-i)*10, 0, 1, false)
	}
	if _, k := RepeatedDecimal(many); k != -1 {
		t.Error("40 distinct decimals")
	}
	many[30] = DecimalFromParts(uint64(40-5), 0, 0, false) // 35 is 350 at scale 1, many[5]
	if i, k := RepeatedDecimal(many); i != 5 || k != 30 {
		t.Errorf("40 decimals, 35 twice: %d, %d", i, k)
	}
	// bytes by their value: nil and empty are the same
	blobs := [][]byte{nil, []byte("a"), {}}
	if i, k := RepeatedKey(blobs, BytesKey, CompareBytes); i != 0 || k != 2 {
		t.Errorf("nil and empty bytes: %d, %d", i, k)
	}
	if i, k := RepeatedPairKey(pairsOf("a", "b", "c", "b"), BytesKey, CompareBytes); i != 1 || k != 3 {
		t.Errorf("bytes keys: %d, %d", i, k)
	}
	// structs without [key] fields are all the same key: at most one
	type empty struct{}
	if i, k := RepeatedKey([]empty{{}, {}}, SameKey[empty], CompareSame[empty]); i != 0 || k != 1 {
		t.Errorf("two keyless structs: %d, %d", i, k)
	}
	if _, k := RepeatedKey([]empty{{}}, SameKey[empty], CompareSame[empty]); k != -1 {
		t.Error("one keyless struct")
	}
	// optionals: null first, then by value; every null the same key
	one, two := int32(1), int32(2)
	if CompareOptional(nil, &one, cmp.Compare[int32]) >= 0 || CompareOptional(&two, &one, cmp.Compare[int32]) <= 0 ||
		CompareOptional[int32](nil, nil, cmp.Compare[int32]) != 0 || CompareOptionalOf(&keyed{}, nil, keyedCompare) <= 0 {
		t.Error("optional order")
	}
	if none := OptionalKey[int32](nil); none != (MaybeKey[int32]{}) || OptionalKey(&one) == none ||
		OptionalKeyOf(&keyed{id: 1}, keyedKey) != OptionalKey(&one) {
		t.Error("optional keys")
	}
	if CompareBytes(&[]byte{1}, &[]byte{1, 0}) >= 0 || !bytes.Equal([]byte(BytesKey(&[]byte{1})), []byte{1}) {
		t.Error("bytes order")
	}
}

// Keys in order cost no allocation; out of order beyond smallSet, the map may allocate.
func TestRepeatedAllocations(t *testing.T) {
	ints := make([]int64, 1000)
	blobs := make([][]byte, 1000)
	pairs := make([]Pair[[]byte, int], 1000)
	for i := range ints {
		ints[i] = int64(i)
		blobs[i] = []byte{byte(i >> 8), byte(i)}
		pairs[i].Key = blobs[i]
	}
	small := [][]byte{[]byte("b"), []byte("a")}
	if n := testing.AllocsPerRun(20, func() {
		Repeated(ints)
		RepeatedKey(blobs, BytesKey, CompareBytes)
		RepeatedPairKey(pairs, BytesKey, CompareBytes)
		RepeatedKey(small, BytesKey, CompareBytes)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// A writer's error names the root type and the field path the generated code unwinds; the roots
// return no bytes; an error of a size names no field (its writing goes on) and is not unwound.
func TestWriterErrorPath(t *testing.T) {
	var w Writer
	w.BeginVersioned()
	w.SameElements("tags", 0, 2)
	w.SameKeys("ignored", 1, 3) // the first error wins
	w.UnwindIndex(1)
	w.Unwind("orders")
	w.Within("proto.Account")
	data, err := w.EndVersioned()
	const want = "two elements are the same, [0] and [2] (proto.Account.orders[1].tags)"
	if data != nil || !errors.Is(err, ErrDuplicate) || err.Error() != want {
		t.Fatalf("%d bytes, %v; want %q", len(data), err, want)
	}
	w.Unwind("later") // after Within nothing is put in front
	if err.Error() != want {
		t.Fatalf("unwound after Within: %v", err)
	}
	w.BeginFinal()
	if w.Err() != nil {
		t.Fatal("BeginFinal keeps the error")
	}
	w.AppendCount(1 << 33)
	w.Unwind("f")
	w.Within("a.B")
	if data, err := w.EndFinal(1); data != nil || err.Error() != "collection of more than 2^32 elements (a.B)" {
		t.Fatalf("size error: %d bytes, %v", len(data), err)
	}
	j := JSONWriter{B: []byte("x")}
	j.Raw("[1,")
	j.SameKeys("m", 0, 1)
	j.Unwind("outer")
	j.Within("a.B")
	if out, err := j.Result(1); string(out) != "x" || err.Error() != "two entries have the same key, [0] and [1] (a.B.outer.m)" {
		t.Fatalf("JSON: %q, %v", out, err)
	}
}
