package fbe

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
