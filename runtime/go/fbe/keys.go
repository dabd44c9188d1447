package fbe

import (
	"bytes"
	"cmp"
)

// Sets and maps hold each key once (docs/limits.md 4): Go sets are slices
// and maps keyed by bytes or structs are []Pair slices, which can hold a key
// twice. The readers refuse such data and the writers refuse to write it,
// both through the functions below, so what one refuses the other refuses.
//
// Each returns the indexes i < k of two elements that are the same, or
// -1, -1 when every element is there once. Elements that come strictly
// increasing, as sets and maps are written (docs/ir.md "order"), cost one
// comparison each and no allocation; any other order is checked pairwise up
// to smallSet elements and through a Go map beyond (which allocates).

// smallSet is the longest slice checked pairwise when it is not in order.
const smallSet = 16

// Repeated checks a set of elements Go compares with == and orders with <
// (integers, floats, strings, enums and flags, timestamps).
func Repeated[T cmp.Ordered](s []T) (int, int) {
	for k := 1; k < len(s); k++ {
		if !(s[k-1] < s[k]) {
			return repeated(s)
		}
	}
	return -1, -1
}

// RepeatedFunc checks a set of elements Go compares with ==, in the order of
// compare (CompareChar, CompareBool, CompareUUID). Decimals: RepeatedDecimal.
func RepeatedFunc[T comparable](s []T, compare func(a, b T) int) (int, int) {
	for k := 1; k < len(s); k++ {
		if compare(s[k-1], s[k]) >= 0 {
			return repeated(s)
		}
	}
	return -1, -1
}

// RepeatedDecimal checks a set of decimals, the same when their values are (Decimal.Compare:
// 1.5 and 1.50, -0 and 0), in their order by value; also the sorted keys of a map keyed by
// Decimal, whose Go map can hold both 1.5 and 1.50 built from their parts.
func RepeatedDecimal(s []Decimal) (int, int) {
	for k := 1; k < len(s); k++ {
		if s[k-1].Compare(s[k]) >= 0 {
			return repeatedKey(s, DecimalKey)
		}
	}
	return -1, -1
}

func repeated[T comparable](s []T) (int, int) {
	if len(s) <= smallSet {
		for k := 1; k < len(s); k++ {
			for i := range k {
				if s[i] == s[k] {
					return i, k
				}
			}
		}
		return -1, -1
	}
	seen := make(map[T]int, len(s))
	for k, x := range s {
		if i, dup := seen[x]; dup {
			return i, k
		}
		seen[x] = k
	}
	return -1, -1
}

// RepeatedKey checks a set of elements Go cannot compare with ==: key is
// what two elements are the same by (BytesKey, a struct's generated FBEKey,
// SameKey for structs without [key] fields) and compare their order (CompareBytes,
// the generated FBEKeyCompare, CompareSame).
func RepeatedKey[T any, K comparable](s []T, key func(*T) K, compare func(a, b *T) int) (int, int) {
	for k := 1; k < len(s); k++ {
		if compare(&s[k-1], &s[k]) >= 0 {
			return repeatedKey(s, key)
		}
	}
	return -1, -1
}

func repeatedKey[T any, K comparable](s []T, key func(*T) K) (int, int) {
	if len(s) <= smallSet {
		for k := 1; k < len(s); k++ {
			x := key(&s[k])
			for i := range k {
				if key(&s[i]) == x {
					return i, k
				}
			}
		}
		return -1, -1
	}
	seen := make(map[K]int, len(s))
	for k := range s {
		x := key(&s[k])
		if i, dup := seen[x]; dup {
			return i, k
		}
		seen[x] = k
	}
	return -1, -1
}

// RepeatedPairKey is RepeatedKey of the keys of a map held as pairs (keys of bytes or structs).
func RepeatedPairKey[K, V any, C comparable](s []Pair[K, V], key func(*K) C, compare func(a, b *K) int) (int, int) {
	for k := 1; k < len(s); k++ {
		if compare(&s[k-1].Key, &s[k].Key) >= 0 {
			return repeatedPairKey(s, key)
		}
	}
	return -1, -1
}

func repeatedPairKey[K, V any, C comparable](s []Pair[K, V], key func(*K) C) (int, int) {
	if len(s) <= smallSet {
		for k := 1; k < len(s); k++ {
			x := key(&s[k].Key)
			for i := range k {
				if key(&s[i].Key) == x {
					return i, k
				}
			}
		}
		return -1, -1
	}
	seen := make(map[C]int, len(s))
	for k := range s {
		x := key(&s[k].Key)
		if i, dup := seen[x]; dup {
			return i, k
		}
		seen[x] = k
	}
	return -1, -1
}

// DecimalKey is the key a decimal is compared by as a set element, map key or [key] field: its
// value (Normalize), so 1.5 and 1.50 are the same key.
func DecimalKey(d *Decimal) Decimal { return d.Normalize() }

// BytesKey is the key bytes are compared by as a set element or map key: their value.
func BytesKey(b *[]byte) string { return string(*b) }

// CompareBytes orders bytes as the wire does: by their bytes, a prefix first.
func CompareBytes(a, b *[]byte) int { return bytes.Compare(*a, *b) }

// SameKey is the key of a struct without [key] fields: every value is the same key, so a set of
// them holds at most one (docs/limits.md 4), as C++ and Python compare them.
func SameKey[T any](*T) struct{} { return struct{}{} }

// CompareSame is the order of structs without [key] fields: all equal.
func CompareSame[T any](*T, *T) int { return 0 }

// MaybeKey is the key of an optional [key] field: every null is the same key (Has false), a
// value is compared by its key.
type MaybeKey[K comparable] struct {
	Has bool
	Key K
}

// OptionalKey is the key of an optional [key] field of a type Go compares with ==.
func OptionalKey[T comparable](p *T) MaybeKey[T] {
	if p == nil {
		return MaybeKey[T]{}
	}
	return MaybeKey[T]{true, *p}
}

// OptionalKeyOf is the key of an optional [key] field compared by key (bytes: BytesKey, a
// struct: its FBEKey or SameKey).
func OptionalKeyOf[T any, K comparable](p *T, key func(*T) K) MaybeKey[K] {
	if p == nil {
		return MaybeKey[K]{}
	}
	return MaybeKey[K]{true, key(p)}
}

// CompareOptional orders optional [key] fields: null first, values by compare.
func CompareOptional[T any](a, b *T, compare func(a, b T) int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return compare(*a, *b)
}

// CompareOptionalOf is CompareOptional of structs, ordered by their [key] fields.
func CompareOptionalOf[T any](a, b *T, compare func(a, b *T) int) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return compare(a, b)
}
