package fbe

import (
	"errors"
	"strconv"
	"strings"
)

// ErrBudget is wrapped by the DecodeError of a decode that exceeded its budget (docs/limits.md 3).
var ErrBudget = errors.New("decode budget exceeded")

// ErrDepth is wrapped by the errors of values nested deeper than Limits.MaxDepth (docs/limits.md 1).
var ErrDepth = errors.New("structs nested too deep")

// ErrDuplicate is wrapped by the errors of sets holding an element twice and of maps holding a
// key twice (docs/limits.md 4): the writers refuse to write them, the readers to read them.
var ErrDuplicate = errors.New("the same key twice")

// DecodeError is why a buffer cannot be decoded: what was wrong, the
// qualified schema type being read ("proto.Account"), the field path from
// that type ("orders[2].price", filled in as the error unwinds) and the
// absolute byte offset (-1 when unknown).
type DecodeError struct {
	Msg    string
	Type   string
	Path   string
	Offset int
	Err    error // ErrBudget, ErrDepth or nil
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	var where []string
	switch {
	case e.Type != "" && e.Path != "":
		where = append(where, e.Type+"."+e.Path)
	case e.Type != "":
		where = append(where, e.Type)
	case e.Path != "":
		where = append(where, e.Path)
	}
	if e.Offset >= 0 {
		where = append(where, "offset "+strconv.Itoa(e.Offset))
	}
	if len(where) > 0 {
		b.WriteString(" (" + strings.Join(where, ", ") + ")")
	}
	return b.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// EncodeError is why a value cannot be encoded: a struct nested deeper than
// Limits.MaxDepth, a set holding an element twice, a string longer than 4 GiB...
// Type is the root type written and Path the field path from it
// ("orders[1].tags"), as a DecodeError's.
type EncodeError struct {
	Msg  string
	Type string
	Path string
	Err  error
}

func (e *EncodeError) Error() string {
	where := e.Type
	if e.Path != "" {
		where += "." + e.Path
	}
	if where == "" {
		return e.Msg
	}
	return e.Msg + " (" + where + ")"
}

func (e *EncodeError) Unwrap() error { return e.Err }

// joinPath puts an outer field name in front of a path: "orders[2]" + "price".
func joinPath(outer, inner string) string {
	switch {
	case inner == "":
		return outer
	case outer == "":
		return inner
	case inner[0] == '[':
		return outer + inner
	}
	return outer + "." + inner
}

// writeErr is the first error of a Writer or JSONWriter and the field path it
// names. Generated writers stop at an error of their own fields (SameElements,
// SameKeys) and, after writing a struct value that failed, put the field that
// holds it in front of the path (Unwind, UnwindIndex) and stop too; the root
// names its type (Within). Errors of sizes beyond 32 bits (Fail) do not stop
// the writing and name no field.
type writeErr struct {
	err       error
	unwinding bool // err is an *EncodeError whose Path is completed on the way out
}

// Err is the first error of the writes since the writer was reset, or nil.
func (e *writeErr) Err() error { return e.err }

// Failed reports whether an error was recorded.
func (e *writeErr) Failed() bool { return e.err != nil }

// Fail records err unless an error was recorded already.
func (e *writeErr) Fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

// failField records the error of a field of the struct being written.
func (e *writeErr) failField(err *EncodeError) {
	if e.err == nil {
		e.err = err
		e.unwinding = true
	}
}

// tooDeep records a struct of typeName entered beyond limit levels; the caller stops and the
// fields that hold it are put in front (Unwind).
//
//go:noinline
func (e *writeErr) tooDeep(limit int, typeName string) {
	e.failField(&EncodeError{Msg: "structs nested deeper than " + strconv.Itoa(limit), Type: typeName, Err: ErrDepth})
}

// SameElements refuses the set in field whose elements i and k are the same (docs/limits.md 4:
// no reader reads it; Repeated and its kin find them).
func (e *writeErr) SameElements(field string, i, k int) {
	e.failField(&EncodeError{Msg: "two elements are the same, [" + strconv.Itoa(i) + "] and [" + strconv.Itoa(k) + "]",
		Path: field, Err: ErrDuplicate})
}

// SameKeys refuses the map in field whose entries i and k have the same key (docs/limits.md 4).
func (e *writeErr) SameKeys(field string, i, k int) {
	e.failField(&EncodeError{Msg: "two entries have the same key, [" + strconv.Itoa(i) + "] and [" + strconv.Itoa(k) + "]",
		Path: field, Err: ErrDuplicate})
}

// Unwind puts field in front of the error's path ("orders" + "[1].tags") after the struct value
// that field holds failed.
func (e *writeErr) Unwind(field string) {
	if ee, ok := e.err.(*EncodeError); ok && e.unwinding {
		ee.Path = joinPath(field, ee.Path)
	}
}

// UnwindIndex puts an element index in front of the error's path ("[1]" + "tags"); the
// collection's Unwind follows.
func (e *writeErr) UnwindIndex(i int) {
	if ee, ok := e.err.(*EncodeError); ok && e.unwinding {
		ee.Path = joinPath("["+strconv.Itoa(i)+"]", ee.Path)
	}
}

// Within names the root type written (the generated roots call it): the path is from it.
func (e *writeErr) Within(typeName string) {
	if e.err == nil {
		return
	}
	if ee, ok := e.err.(*EncodeError); ok && (e.unwinding || ee.Type == "") {
		ee.Type = typeName
		e.unwinding = false
	}
}
