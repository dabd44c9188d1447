// Package fbe is the Go runtime of the FBE toolkit: the buffers, scalar
// codecs, decimal/uuid/timestamp types, limits and errors that code generated
// by `fbec --go` builds on (docs/format.md is the wire format, docs/limits.md
// the hostile-input policy).
//
// Import path: github.com/fbe-toolkit/fbe/runtime/go/fbe (the module is
// runtime/go of the toolkit's repository; no cgo, no dependencies beyond the
// standard library).
//
// Generated code is straight-line field code at the offsets the compiler
// computed; everything else lives here:
//
//   - Writer appends to one growing buffer in the original's allocation
//     order (docs/format.md 3.5), for the versioned and the final model.
//   - Reader checks and reads a buffer: every block inside the buffer and in
//     allocation order, every count bounded by the bytes left, nesting bounded
//     by Limits.MaxDepth and everything it materializes charged to the decode
//     budget (docs/limits.md). Its first error wins and is kept: later reads
//     return zero values, so generated code checks Err once at the end.
package fbe
