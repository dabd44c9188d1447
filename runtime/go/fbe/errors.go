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
// Limits.MaxDepth, a string longer than 4 GiB...
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
