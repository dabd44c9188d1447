package fbe

import (
	"bytes"
	"cmp"
	"slices"
)

// Pair is one entry of a map or hash whose key Go cannot use as a map key
// (bytes, structs): generated code holds such a map as a []Pair[K, V], in
// the order it is written (docs/format.md 3.4).
type Pair[K, V any] struct {
	Key   K
	Value V
}

// Ptr is a pointer to a copy of v (an optional's value).
func Ptr[T any](v T) *T { return &v }

// MustDecimal is ParseDecimal of a literal that is known to be valid (generated defaults); it panics otherwise.
func MustDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic("fbe.MustDecimal(" + s + "): " + err.Error())
	}
	return d
}

// MustUUID is ParseUUID of a literal that is known to be valid (generated defaults); it panics otherwise.
func MustUUID(s string) UUID {
	u, err := ParseUUID(s)
	if err != nil {
		panic("fbe.MustUUID(" + s + "): " + err.Error())
	}
	return u
}

// Resize is s with length n, keeping its elements and capacity when n fits
// (a reader reusing a value's slices allocates only when the shape grows).
func Resize[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// SortedKeys are the keys of m in ascending order by compare: a map is
// written in its keys' order (docs/format.md 3.4; a hash too, so the bytes
// do not depend on Go's map iteration).
func SortedKeys[K comparable, V any](m map[K]V, compare func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	return keys
}

// Sorted is a set as it is written: s when its elements come in ascending order by compare,
// else a sorted copy, so that a set is written in ascending order (as std::set, as every language
// writes it: docs/limits.md 7) whatever order it was built or read in.
func Sorted[T any](s []T, compare func(a, b T) int) []T {
	if slices.IsSortedFunc(s, compare) {
		return s
	}
	return slices.SortedFunc(slices.Values(s), compare)
}

// SortedBy is Sorted of elements ordered through pointers (CompareBytes, a struct's FBEKeyCompare).
func SortedBy[T any](s []T, compare func(a, b *T) int) []T {
	for k := 1; k < len(s); k++ {
		if compare(&s[k-1], &s[k]) > 0 {
			out := slices.Clone(s)
			slices.SortFunc(out, func(a, b T) int { return compare(&a, &b) })
			return out
		}
	}
	return s
}

// SortedPairs is Sorted of a map held as pairs (keys of bytes or structs), by its keys.
func SortedPairs[K, V any](s []Pair[K, V], compare func(a, b *K) int) []Pair[K, V] {
	for k := 1; k < len(s); k++ {
		if compare(&s[k-1].Key, &s[k].Key) > 0 {
			out := slices.Clone(s)
			slices.SortFunc(out, func(a, b Pair[K, V]) int { return compare(&a.Key, &b.Key) })
			return out
		}
	}
	return s
}

// CompareChar orders char values as C++'s signed char (0x80..0xFF first), as the original's sets and maps.
func CompareChar(a, b byte) int { return cmp.Compare(int8(a), int8(b)) }

// CompareBool orders false before true.
func CompareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// CompareUUID orders uuids by their bytes.
func CompareUUID(a, b UUID) int { return bytes.Compare(a[:], b[:]) }

// CompareDecimal orders decimals by their exact value, as C++'s decimal_t and Python's
// decimal.Decimal (a.Compare(b)): 1.5 and 1.50 are the same key (docs/limits.md 4).
func CompareDecimal(a, b Decimal) int { return a.Compare(b) }

// Reuse is p, or a new T when p is nil: a reader keeps the optional values
// of the value it reads into (reading into a reused value allocates nothing
// when the shape does not grow).
func Reuse[T any](p *T) *T {
	if p == nil {
		return new(T)
	}
	return p
}

// Empty clears the map *m, or makes it with room for n entries when it is nil: a reader keeps the
// maps of the value it reads into.
func Empty[M ~map[K]V, K comparable, V any](m *M, n int) {
	if *m == nil {
		*m = make(M, n)
	} else {
		clear(*m)
	}
}

// Grow is s one element longer, reusing the element beyond its length when the capacity holds one
// (a reader of struct elements grows as elements arrive, never by a count it has not read yet).
func Grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s[:len(s)+1]
	}
	var zero T
	return append(s, zero)
}
