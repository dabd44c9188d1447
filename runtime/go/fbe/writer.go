package fbe

import (
	"encoding/binary"
	"math"
)

// Writer builds one root in one growing buffer, in the original's allocation
// order (docs/format.md 3.5): nothing is inserted in the middle and nothing
// allocated ahead. A Writer is reused: Reset keeps the buffer's capacity, so
// serializing into a warm Writer allocates nothing.
//
// Versioned code allocates blocks (Alloc, Struct, String, Vector, Optional)
// and fills slots at absolute positions (Put*); final code appends (Append*).
// The first error (a value nested too deep, a set holding an element twice,
// a string over 4 GiB) is kept in Err: the generated code stops writing and
// the roots return no bytes.
type Writer struct {
	buf      []byte
	depth    int
	MaxDepth int // deepest struct nesting written (0: MaxDepth); nobody writes what no reader reads
	writeErr
}

// Reset empties the buffer (keeping its capacity) and clears the error.
//
// The bytes of the buffer's capacity beyond its length are always zero:
// Reset clears what was written (one clear), so Alloc hands out zeroed
// blocks without clearing each one, and the bytes returned are capped at
// their length, so appending to them never writes into the Writer's buffer.
func (w *Writer) Reset() {
	clear(w.buf)
	w.buf = w.buf[:0]
	w.depth = 0
	w.writeErr = writeErr{}
}

// Bytes is the buffer written so far; it is overwritten by the next use of the Writer.
func (w *Writer) Bytes() []byte { return w.buf[:len(w.buf):len(w.buf)] }

// Len is the number of bytes written so far.
func (w *Writer) Len() int { return len(w.buf) }

// Enter goes one struct level deeper; false (and Err set) beyond MaxDepth.
// Generated code calls it only for structs that can nest without a bound.
func (w *Writer) Enter(typeName string) bool {
	w.depth++
	limit := w.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	if w.depth > limit {
		w.tooDeep(limit, typeName)
		return false
	}
	return true
}

// Leave undoes Enter.
func (w *Writer) Leave() { w.depth-- }

// Near reports whether a struct value up to levels levels high (itself included), written
// at the current level, could go beyond MaxDepth: then Fits checks the levels it holds.
// Generated code calls it where a struct that can nest without a bound writes a bounded one.
func (w *Writer) Near(levels int) bool {
	limit := w.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	return w.depth+levels > limit
}

// Fits checks a struct value of typeName holding levels struct levels (itself included)
// written at the current level: false (and Err set, as Enter) beyond MaxDepth.
func (w *Writer) Fits(levels int, typeName string) bool {
	if !w.Near(levels) {
		return true
	}
	limit := w.MaxDepth
	if limit == 0 {
		limit = MaxDepth
	}
	w.tooDeep(limit, typeName)
	return false
}

// Alloc appends n zero bytes and returns their position.
func (w *Writer) Alloc(n int) int {
	p := len(w.buf)
	if n <= cap(w.buf)-p {
		w.buf = w.buf[:p+n] // zero already (see Reset)
		return p
	}
	w.buf = append(w.buf, make([]byte, n)...) // a new array: zero beyond the new length too
	return p
}

// Slots at absolute positions (little-endian, docs/format.md 1).

func (w *Writer) PutBool(p int, v bool) {
	if v {
		w.buf[p] = 1
	} else {
		w.buf[p] = 0
	}
}
func (w *Writer) PutU8(p int, v uint8)   { w.buf[p] = v }
func (w *Writer) PutI8(p int, v int8)    { w.buf[p] = uint8(v) }
func (w *Writer) PutU16(p int, v uint16) { binary.LittleEndian.PutUint16(w.buf[p:], v) }
func (w *Writer) PutI16(p int, v int16)  { binary.LittleEndian.PutUint16(w.buf[p:], uint16(v)) }
func (w *Writer) PutU32(p int, v uint32) { binary.LittleEndian.PutUint32(w.buf[p:], v) }
func (w *Writer) PutI32(p int, v int32)  { binary.LittleEndian.PutUint32(w.buf[p:], uint32(v)) }
func (w *Writer) PutU64(p int, v uint64) { binary.LittleEndian.PutUint64(w.buf[p:], v) }
func (w *Writer) PutI64(p int, v int64)  { binary.LittleEndian.PutUint64(w.buf[p:], uint64(v)) }
func (w *Writer) PutF32(p int, v float32) {
	binary.LittleEndian.PutUint32(w.buf[p:], math.Float32bits(v))
}
func (w *Writer) PutF64(p int, v float64) {
	binary.LittleEndian.PutUint64(w.buf[p:], math.Float64bits(v))
}
func (w *Writer) PutTimestamp(p int, v Timestamp) {
	binary.LittleEndian.PutUint64(w.buf[p:], uint64(v))
}
func (w *Writer) PutUUID(p int, v UUID)       { copy(w.buf[p:p+16], v[:]) }
func (w *Writer) PutDecimal(p int, v Decimal) { PutDecimal(w.buf[p:], v) }

// ---------------------------------------------------------------- versioned model

// BeginVersioned starts a versioned root (docs/format.md 3.2): 8 header
// bytes, the top struct's slot at 4 with base 0.
func (w *Writer) BeginVersioned() {
	w.Reset()
	w.Alloc(8)
}

// EndVersioned stores the root's total size; it returns the root, or nil and
// the first error.
func (w *Writer) EndVersioned() ([]byte, error) {
	w.PutU32(0, uint32(len(w.buf)))
	if w.err != nil {
		return nil, w.err
	}
	return w.Bytes(), nil
}

// offset stores at slot the distance from base to p (a block just allocated, so never 0).
func (w *Writer) offset(base, slot, p int) {
	d := p - base
	if d > math.MaxUint32 {
		w.failSize("root larger than 4 GiB")
	}
	binary.LittleEndian.PutUint32(w.buf[slot:], uint32(d))
}

// failSize records a size beyond the format's 32 bits (out of line: the hot paths stay inlined).
//
//go:noinline
func (w *Writer) failSize(msg string) {
	w.Fail(&EncodeError{Msg: msg})
}

// Struct allocates a struct body of bodySize bytes, stores its offset in the
// slot at absolute position slot (relative to base) and writes its header;
// it returns the body's position, the base of its fields.
func (w *Writer) Struct(base, slot, bodySize int, typeID uint32) int {
	p := len(w.buf)
	if bodySize > cap(w.buf)-p || p > math.MaxUint32 {
		return w.structSlow(base, slot, bodySize, typeID)
	}
	w.buf = w.buf[:p+bodySize] // zero already (see Reset)
	h := w.buf[p : p+8]
	binary.LittleEndian.PutUint32(h, uint32(bodySize))
	binary.LittleEndian.PutUint32(h[4:], typeID)
	binary.LittleEndian.PutUint32(w.buf[slot:], uint32(p-base))
	return p
}

// structSlow is Struct when the buffer grows or the root passes 4 GiB.
//
//go:noinline
func (w *Writer) structSlow(base, slot, bodySize int, typeID uint32) int {
	p := w.Alloc(bodySize)
	w.offset(base, slot, p)
	w.PutU32(p, uint32(bodySize))
	w.PutU32(p+4, typeID)
	return p
}

// String allocates a length-prefixed string and stores its offset in the slot (docs/format.md 3.4).
func (w *Writer) String(base, slot int, s string) {
	p := len(w.buf)
	if 4+len(s) > cap(w.buf)-p || p > math.MaxUint32 || uint64(len(s)) > math.MaxUint32 {
		w.stringSlow(base, slot, s)
		return
	}
	w.buf = w.buf[:p+4+len(s)]
	blk := w.buf[p:]
	binary.LittleEndian.PutUint32(blk, uint32(len(s)))
	copy(blk[4:], s)
	binary.LittleEndian.PutUint32(w.buf[slot:], uint32(p-base))
}

// stringSlow is String when the buffer grows or a size passes 4 GiB.
//
//go:noinline
func (w *Writer) stringSlow(base, slot int, s string) {
	p := w.lengthBlock(len(s))
	copy(w.buf[p+4:], s)
	w.offset(base, slot, p)
}

// Blob is String for bytes.
func (w *Writer) Blob(base, slot int, b []byte) {
	p := w.lengthBlock(len(b))
	copy(w.buf[p+4:], b)
	w.offset(base, slot, p)
}

func (w *Writer) lengthBlock(n int) int {
	if uint64(n) > math.MaxUint32 {
		w.failSize("string or bytes longer than 4 GiB")
		n = 0
	}
	p := w.Alloc(4 + n)
	binary.LittleEndian.PutUint32(w.buf[p:], uint32(n))
	return p
}

// Vector allocates a collection block of n slots of item bytes each (a map's
// item is a key slot and a value slot), zeroed, stores its offset and the
// count, and returns the absolute position of the first slot. The elements'
// base stays the slot's base (docs/format.md 3.4).
func (w *Writer) Vector(base, slot, n, item int) int {
	if uint64(n) > math.MaxUint32 {
		w.Fail(&EncodeError{Msg: "collection of more than 2^32 elements"})
		n = 0
	}
	p := w.Alloc(4 + n*item)
	w.PutU32(p, uint32(n))
	w.offset(base, slot, p)
	return p + 4
}

// Optional marks the optional slot at absolute position slot present,
// allocates its value slot of size bytes and returns the value slot's
// position: the value's base. An absent optional is left as allocated (zeros).
func (w *Writer) Optional(base, slot, size int) int {
	p := w.Alloc(size)
	w.buf[slot] = 1
	w.offset(base, slot+1, p)
	return p
}

// ---------------------------------------------------------------- final model

// BeginFinal starts a final root (docs/format.md 4.1): size and type id come at EndFinal.
func (w *Writer) BeginFinal() {
	w.Reset()
	w.Alloc(8)
}

// EndFinal stores the root's size and type id; it returns the root, or nil
// and the first error.
func (w *Writer) EndFinal(typeID uint32) ([]byte, error) {
	w.PutU32(0, uint32(len(w.buf)))
	w.PutU32(4, typeID)
	if w.err != nil {
		return nil, w.err
	}
	return w.Bytes(), nil
}

func (w *Writer) AppendBool(v bool) {
	var b byte
	if v {
		b = 1
	}
	w.buf = append(w.buf, b)
}
func (w *Writer) AppendU8(v uint8)   { w.buf = append(w.buf, v) }
func (w *Writer) AppendI8(v int8)    { w.buf = append(w.buf, uint8(v)) }
func (w *Writer) AppendU16(v uint16) { w.buf = binary.LittleEndian.AppendUint16(w.buf, v) }
func (w *Writer) AppendI16(v int16)  { w.buf = binary.LittleEndian.AppendUint16(w.buf, uint16(v)) }
func (w *Writer) AppendU32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *Writer) AppendI32(v int32)  { w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(v)) }
func (w *Writer) AppendU64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *Writer) AppendI64(v int64)  { w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v)) }
func (w *Writer) AppendF32(v float32) {
	w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(v))
}
func (w *Writer) AppendF64(v float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
}
func (w *Writer) AppendTimestamp(v Timestamp) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v))
}
func (w *Writer) AppendUUID(v UUID) { w.buf = append(w.buf, v[:]...) }
func (w *Writer) AppendDecimal(v Decimal) {
	p := w.Alloc(16)
	PutDecimal(w.buf[p:], v)
}

// AppendCount appends a collection's count (final model).
func (w *Writer) AppendCount(n int) {
	if uint64(n) > math.MaxUint32 {
		w.Fail(&EncodeError{Msg: "collection of more than 2^32 elements"})
	}
	w.AppendU32(uint32(n))
}

// AppendString appends a length and the bytes of s (final model).
func (w *Writer) AppendString(s string) {
	p := w.lengthBlock(len(s))
	copy(w.buf[p+4:], s)
}

// AppendBlob appends a length and the bytes of b (final model).
func (w *Writer) AppendBlob(b []byte) {
	p := w.lengthBlock(len(b))
	copy(w.buf[p+4:], b)
}
