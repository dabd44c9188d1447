package fbe

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// Reader checks and reads one root (docs/format.md 3 and 4) under the limits
// of docs/limits.md: every block inside the root, versioned blocks in
// allocation order (each starts at or after the end of the block read before
// it, so no byte is decoded twice), every count bounded by the bytes left,
// nesting bounded by MaxDepth and every value it materializes charged to the
// decode budget.
//
// The first error wins and is kept (Err); after it every read returns a zero
// value and allocates nothing, so generated code checks Failed only where it
// would otherwise go on working (after a nested struct, inside loops).
// Verify is deserialize without the value: both use the same Reader, so
// verify accepts exactly what deserialize accepts (docs/limits.md 4).
type Reader struct {
	data     []byte // the root's bytes, cut to its size
	mark     int    // versioned: the end of the last out-of-line block read
	budget   int
	depth    int
	maxDepth int
	err      *DecodeError
	errLevel int // the struct level the error's path is relative to (see Unwind)
	// Pos is the final model's cursor: the position of the next value.
	Pos int
}

func (r *Reader) reset(data []byte, lim *Limits) {
	if lim == nil {
		lim = &DefaultLimits
	}
	r.data = data
	r.mark = 8
	r.budget = lim.Budget(len(data))
	r.depth = 0
	r.maxDepth = lim.MaxDepth
	r.err = nil
	r.Pos = 8
}

// Fail records an error at absolute offset off (-1: unknown) in field of
// the struct being read, unless one was recorded already.
func (r *Reader) Fail(msg, field string, off int) {
	r.failErr(msg, field, off, nil)
}

func (r *Reader) failErr(msg, field string, off int, err error) {
	if r.err == nil {
		r.err = &DecodeError{Msg: msg, Path: field, Offset: off, Err: err}
		r.errLevel = r.depth
	}
}

// failStruct records an error of the struct about to be entered: its path
// starts at the field that holds it, which the caller's Unwind adds.
func (r *Reader) failStruct(msg string, off int, err error) {
	if r.err == nil {
		r.err = &DecodeError{Msg: msg, Offset: off, Err: err}
		r.errLevel = r.depth + 1
	}
}

// Failed reports whether an error was recorded.
func (r *Reader) Failed() bool { return r.err != nil }

// Err is the recorded error, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Unwind puts field in front of the error's path ("wallet" + "amount") when
// the error happened inside the struct value that field holds (deeper than
// the struct being read now): generated code calls it after reading a
// struct-valued field, element or optional that failed. An error of the
// current struct's own fields, or an earlier one, is left as it is.
func (r *Reader) Unwind(field string) {
	if r.err != nil && r.errLevel > r.depth {
		r.err.Path = joinPath(field, r.err.Path)
		r.errLevel = r.depth
	}
}

// UnwindIndex puts an element index in front of the error's path ("[2]" +
// "price") under the same condition as Unwind; the collection's Unwind follows.
func (r *Reader) UnwindIndex(i int) {
	if r.err != nil && r.errLevel > r.depth {
		r.err.Path = joinPath("["+strconv.Itoa(i)+"]", r.err.Path)
	}
}

// Within names the root type of the error (generated Unmarshal calls it on failure).
func (r *Reader) Within(typeName string) {
	if r.err != nil && r.err.Type == "" {
		r.err.Type = typeName
	}
}

// Spend charges cost bytes for a value materialized at off (a default struct, docs/limits.md 3).
func (r *Reader) Spend(cost, off int, field string) {
	r.budget -= cost
	if r.budget < 0 {
		r.overBudget(field, off)
	}
}

// Affords reports whether the budget left pays for cost bytes: generated code asks before it makes a
// value whose default is large (docs/limits.md 3), and when not checks the value without making it
// (its FBEVerify function), which fails as its read would.
func (r *Reader) Affords(cost int) bool { return r.budget >= cost }

// overBudget records ErrBudget (out of line: Spend stays small enough to inline).
//
//go:noinline
func (r *Reader) overBudget(field string, off int) {
	r.failErr(ErrBudget.Error(), field, off, ErrBudget)
}

// enter is one struct value deeper at off, costing cost bytes.
func (r *Reader) enter(cost, off int) bool {
	if r.depth >= r.maxDepth || r.budget < cost {
		r.cannotEnter(cost, off)
		return false
	}
	r.budget -= cost
	r.depth++
	return true
}

// cannotEnter records why enter refused (out of line: enter stays small enough to inline).
//
//go:noinline
func (r *Reader) cannotEnter(cost, off int) {
	if r.depth >= r.maxDepth {
		r.failStruct("structs nested deeper than "+strconv.Itoa(r.maxDepth), off, ErrDepth)
		return
	}
	r.budget -= cost
	r.failStruct(ErrBudget.Error(), off, ErrBudget)
}

// Leave undoes a successful Struct or Enter (one that returned a body or true).
func (r *Reader) Leave() { r.depth-- }

func (r *Reader) u32(p int) int { return int(binary.LittleEndian.Uint32(r.data[p:])) }

// Slots at absolute positions. Generated code reads a slot only when it lies
// inside a body or block the Reader checked, so these do not check again.

func (r *Reader) Bool(p int) bool           { return r.data[p] != 0 }
func (r *Reader) U8(p int) uint8            { return r.data[p] }
func (r *Reader) I8(p int) int8             { return int8(r.data[p]) }
func (r *Reader) U16(p int) uint16          { return GetU16(r.data[p:]) }
func (r *Reader) I16(p int) int16           { return GetI16(r.data[p:]) }
func (r *Reader) U32(p int) uint32          { return GetU32(r.data[p:]) }
func (r *Reader) I32(p int) int32           { return GetI32(r.data[p:]) }
func (r *Reader) U64(p int) uint64          { return GetU64(r.data[p:]) }
func (r *Reader) I64(p int) int64           { return GetI64(r.data[p:]) }
func (r *Reader) F32(p int) float32         { return GetF32(r.data[p:]) }
func (r *Reader) F64(p int) float64         { return GetF64(r.data[p:]) }
func (r *Reader) Timestamp(p int) Timestamp { return GetTimestamp(r.data[p:]) }
func (r *Reader) UUID(p int) (u UUID)       { copy(u[:], r.data[p:p+16]); return }

// Decimal reads the decimal at p; flags beyond a scale 0..28 and the sign fail the read
// (docs/format.md 2.4), naming field, and give 0 (as does a read after an error: p may then
// lie beyond a run that was not there).
func (r *Reader) Decimal(p int, field string) Decimal {
	if r.err != nil {
		return Decimal{}
	}
	d := GetDecimal(r.data[p:])
	if d.flags&decimalReserved != 0 || d.flags&0xFF0000 > 28<<16 {
		r.Fail(decimalFlagsError(d.flags), field, p)
		return Decimal{}
	}
	return d
}

// SkipDecimal checks the decimal at p as Decimal does, without the value (generated verify code).
func (r *Reader) SkipDecimal(p int, field string) { r.Decimal(p, field) }

// Slots at the start of b: what the slot methods above read, for generated code that holds
// the bytes of a run of fixed-size fields (Run) and reads them at constant offsets, after one
// bounds check for the whole run.

func GetBool(b []byte) bool           { return b[0] != 0 }
func GetU8(b []byte) uint8            { return b[0] }
func GetI8(b []byte) int8             { return int8(b[0]) }
func GetU16(b []byte) uint16          { return binary.LittleEndian.Uint16(b) }
func GetI16(b []byte) int16           { return int16(binary.LittleEndian.Uint16(b)) }
func GetU32(b []byte) uint32          { return binary.LittleEndian.Uint32(b) }
func GetI32(b []byte) int32           { return int32(binary.LittleEndian.Uint32(b)) }
func GetU64(b []byte) uint64          { return binary.LittleEndian.Uint64(b) }
func GetI64(b []byte) int64           { return int64(binary.LittleEndian.Uint64(b)) }
func GetF64(b []byte) float64         { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }
func GetTimestamp(b []byte) Timestamp { return Timestamp(binary.LittleEndian.Uint64(b)) }
func GetUUID(b []byte) (u UUID)       { copy(u[:], b[:16]); return }

// GetF32 reads a float bit for bit, but a signalling NaN (quiet bit clear) reads quieted, its sign and
// the rest of its payload kept (docs/format.md 1): the value every language reads, as the widening to a
// double makes it in those that hold a float as one.
func GetF32(b []byte) float32 {
	bits := binary.LittleEndian.Uint32(b)
	if bits&0x7FFFFFFF > 0x7F800000 { // a NaN: the quiet bit set
		bits |= 0x00400000
	}
	return math.Float32frombits(bits)
}

// ---------------------------------------------------------------- versioned model

// BeginVersioned checks a versioned root's header (docs/format.md 3.2,
// docs/limits.md: at least 16 bytes, a total size that fits the buffer) and
// starts reading it with lim (nil: DefaultLimits). The top struct's slot is at 4 with base 0.
func (r *Reader) BeginVersioned(data []byte, lim *Limits) {
	n := len(data)
	if n < 8 {
		r.reset(nil, lim)
		r.Fail("versioned root shorter than 8 bytes", "", 0)
		return
	}
	total := int(binary.LittleEndian.Uint32(data))
	if total < 16 {
		r.reset(nil, lim)
		r.Fail("versioned root size "+strconv.Itoa(total)+" below 16", "", 0)
		return
	}
	if total > n {
		r.reset(nil, lim)
		r.Fail("versioned root size "+strconv.Itoa(total)+" beyond the buffer of "+strconv.Itoa(n)+" bytes", "", 0)
		return
	}
	r.reset(data[:total], lim)
}

// Size is the size of the root being read.
func (r *Reader) Size() int { return len(r.data) }

func (r *Reader) backwardsMsg(what string, p int) string {
	return what + " at " + strconv.Itoa(p) + " before the end of the previous block (" + strconv.Itoa(r.mark) +
		"): out-of-line blocks must follow each other in allocation order"
}

func (r *Reader) backwards(what string, p int, field string) {
	r.Fail(r.backwardsMsg(what, p), field, p)
}

// Struct enters the struct whose body the slot at absolute position slot
// points to (from base): it checks the header (8 bytes inside the root, body
// size at least 8 and inside the root, the expected type id, allocation
// order), the depth and the budget (cost: the struct's own charge,
// docs/limits.md 3). It returns the body's position and size, or size 0 on
// error; after a non-zero size the caller reads the fields present and calls Leave.
// An error here is the struct's own: the caller's Unwind names the field holding it.
func (r *Reader) Struct(base, slot int, typeID uint32, cost int) (body, size int) {
	if r.err != nil {
		return 0, 0
	}
	// Every check at once; structSlow says which one failed.
	d := r.data
	off := int(binary.LittleEndian.Uint32(d[slot:]))
	p := base + off
	if off != 0 && p >= r.mark && p+8 <= len(d) {
		h := d[p : p+8 : p+8]
		size = int(binary.LittleEndian.Uint32(h))
		if size >= 8 && p+size <= len(d) && binary.LittleEndian.Uint32(h[4:]) == typeID && r.depth < r.maxDepth &&
			r.budget >= cost {
			r.mark = p + size
			r.budget -= cost
			r.depth++
			return p, size
		}
	}
	return r.structSlow(base, slot, typeID, cost)
}

// structSlow is Struct one check at a time, failing with the first that does not hold.
//
//go:noinline
func (r *Reader) structSlow(base, slot int, typeID uint32, cost int) (body, size int) {
	off := r.u32(slot)
	if off == 0 {
		r.failStruct("struct offset 0", slot, nil)
		return 0, 0
	}
	p := base + off
	if p < r.mark {
		r.failStruct(r.backwardsMsg("struct body", p), p, nil)
		return 0, 0
	}
	if p+8 > len(r.data) {
		r.failStruct("struct header beyond the end of the buffer", p, nil)
		return 0, 0
	}
	size = r.u32(p)
	if size < 8 {
		r.failStruct("struct body size "+strconv.Itoa(size)+" below 8", p, nil)
		return 0, 0
	}
	if p+size > len(r.data) {
		r.failStruct("struct body of "+strconv.Itoa(size)+" bytes beyond the end of the buffer", p, nil)
		return 0, 0
	}
	if tid := r.U32(p + 4); tid != typeID {
		r.failStruct("type id "+strconv.FormatUint(uint64(tid), 10)+" where "+strconv.FormatUint(uint64(typeID), 10)+
			" was expected", p, nil)
		return 0, 0
	}
	r.mark = p + size
	if !r.enter(cost, p) {
		return 0, 0
	}
	return p, size
}

// block checks a length- or count-prefixed block at absolute position p: in
// allocation order and its 4 prefix bytes inside the root.
func (r *Reader) block(what string, p int, field string) bool {
	if p < r.mark {
		r.backwards(what, p, field)
		return false
	}
	if p+4 > len(r.data) {
		r.Fail(what+" size beyond the end of the buffer", field, p)
		return false
	}
	return true
}

// payload checks and claims the bytes of a string or bytes block at p, charging their length.
func (r *Reader) payload(what string, base, slot int, field string) (int, int) {
	if r.err != nil {
		return 0, 0
	}
	off := r.u32(slot)
	if off == 0 {
		return 0, 0
	}
	p := base + off
	if p < r.mark || p+4 > len(r.data) { // block's checks, inline
		r.block(what, p, field)
		return 0, 0
	}
	n := r.u32(p)
	if n > len(r.data)-p-4 {
		r.Fail(what+" of "+strconv.Itoa(n)+" bytes beyond the end of the buffer", field, p)
		return 0, 0
	}
	r.mark = p + 4 + n
	r.budget -= n
	if r.budget < 0 {
		r.overBudget(field, p)
		return 0, 0
	}
	return p + 4, n
}

// String reads the string whose block the slot points to (offset 0: empty).
// Its bytes are kept as they are (docs/limits.md says which readers check UTF-8).
func (r *Reader) String(base, slot int, field string) string {
	if r.err == nil { // payload's checks at once on the path that reads
		d := r.data
		off := int(binary.LittleEndian.Uint32(d[slot:]))
		p := base + off
		if off != 0 && p >= r.mark && p+4 <= len(d) {
			n := int(binary.LittleEndian.Uint32(d[p : p+4 : p+4]))
			if n <= len(d)-p-4 && n <= r.budget {
				r.mark = p + 4 + n
				r.budget -= n
				return string(d[p+4 : p+4+n])
			}
		}
	}
	p, n := r.payload("string", base, slot, field)
	return string(r.data[p : p+n])
}

// Blob reads the bytes whose block the slot points to into dst[:0] (a fresh slice when dst is too small).
func (r *Reader) Blob(dst []byte, base, slot int, field string) []byte {
	p, n := r.payload("bytes", base, slot, field)
	return append(dst[:0], r.data[p:p+n]...)
}

// SkipString checks and charges the string the slot points to as String
// does, without copying it (generated verify code).
func (r *Reader) SkipString(base, slot int, field string) { r.payload("string", base, slot, field) }

// SkipBlob is SkipString for bytes.
func (r *Reader) SkipBlob(base, slot int, field string) { r.payload("bytes", base, slot, field) }

// Vector checks the collection block the slot points to: n slots of item
// bytes (a map's: key and value slot) after the count, each element costing
// cost (docs/limits.md 3: 0 for struct elements, charged as structs). It
// returns the position of the first slot and the count (offset 0: empty).
func (r *Reader) Vector(base, slot, item, cost int, field string) (first, n int) {
	if r.err != nil {
		return 0, 0
	}
	off := r.u32(slot)
	if off == 0 {
		return 0, 0
	}
	p := base + off
	if !r.block("collection", p, field) {
		return 0, 0
	}
	n = r.u32(p)
	if n*item > len(r.data)-p-4 {
		r.Fail("count "+strconv.Itoa(n)+" exceeds the buffer", field, p)
		return 0, 0
	}
	r.mark = p + 4 + n*item
	r.Spend(n*cost, p, field)
	if r.err != nil {
		return 0, 0
	}
	return p + 4, n
}

// Optional reads the optional slot at absolute position slot: absent, or
// present with the position of its value slot of size bytes (claimed in
// allocation order), which is the value's base (docs/format.md 3.4).
func (r *Reader) Optional(base, slot, size int, field string) (int, bool) {
	if r.err != nil || r.data[slot] == 0 {
		return 0, false
	}
	off := r.u32(slot + 1)
	if off == 0 {
		r.Fail("present optional with offset 0", field, slot)
		return 0, false
	}
	p := base + off
	if p < r.mark {
		r.backwards("optional value", p, field)
		return 0, false
	}
	if p+size > len(r.data) {
		r.Fail("value slot beyond the end of the buffer", field, p)
		return 0, false
	}
	r.mark = p + size
	return p, true
}

// ---------------------------------------------------------------- final model

// BeginFinal checks a final root's header (docs/format.md 4.1, 5.2: at least
// 8 bytes, the expected type id, a size that fits the buffer) and starts
// reading its fields at Pos 8 with lim (nil: DefaultLimits).
func (r *Reader) BeginFinal(data []byte, typeID uint32, lim *Limits) {
	n := len(data)
	if n < 8 {
		r.reset(nil, lim)
		r.Fail("final root shorter than 8 bytes", "", 0)
		return
	}
	size := int(binary.LittleEndian.Uint32(data))
	if size < 8 {
		r.reset(nil, lim)
		r.Fail("final root size "+strconv.Itoa(size)+" below 8", "", 0)
		return
	}
	if tid := binary.LittleEndian.Uint32(data[4:]); tid != typeID {
		r.reset(nil, lim)
		r.Fail("type id "+strconv.FormatUint(uint64(tid), 10)+" where "+strconv.FormatUint(uint64(typeID), 10)+
			" was expected", "", 4)
		return
	}
	if size > n {
		r.reset(nil, lim)
		r.Fail("final root size "+strconv.Itoa(size)+" beyond the buffer of "+strconv.Itoa(n)+" bytes", "", 0)
		return
	}
	r.reset(data[:size], lim)
}

// EndFinal checks that the fields covered the root exactly (docs/format.md 5.2).
func (r *Reader) EndFinal() {
	if r.err == nil && r.Pos != len(r.data) {
		r.Fail("final root covers "+strconv.Itoa(r.Pos)+" bytes, its size says "+strconv.Itoa(len(r.data)), "", 0)
	}
}

// Fixed claims the next n bytes of a final root (a run of fixed-size fields)
// and returns their position; on error it returns -1 and the caller stops.
func (r *Reader) Fixed(n int, field string) int {
	if r.err != nil {
		return -1
	}
	p := r.Pos
	if n > len(r.data)-p {
		r.Fail("value beyond the end of the buffer", field, p)
		return -1
	}
	r.Pos = p + n
	return p
}

// Run claims the next n bytes of a final root, a run of fixed-size fields read at once
// (docs/ir.md "runs"), and returns them (GetI32 and its kin read the fields at their offsets);
// on error it returns nil and the caller stops.
// fields describes the run (name=size, or name=size*count for an array, comma-separated) and is
// read only when the run is not all there, to fail as Fixed field by field would: at the first
// field (or array element) that is not there, naming that field.
func (r *Reader) Run(n int, fields string) []byte {
	if r.err != nil {
		return nil
	}
	p := r.Pos
	if n > len(r.data)-p {
		r.runBeyond(fields)
		return nil
	}
	r.Pos = p + n
	return r.data[p : p+n : p+n]
}

// SkipRun claims a run as Run does, without its bytes (generated verify code).
func (r *Reader) SkipRun(n int, fields string) {
	if r.err == nil && n > len(r.data)-r.Pos {
		r.runBeyond(fields)
	}
	r.Pos += n
}

// runBeyond fails a Run that is not all there (out of line: Run stays small enough to inline).
//
//go:noinline
func (r *Reader) runBeyond(fields string) {
	for f := range strings.SplitSeq(fields, ",") {
		name, size, _ := strings.Cut(f, "=")
		size, count, _ := strings.Cut(size, "*")
		one, _ := strconv.Atoi(size)
		n := 1
		if count != "" {
			n, _ = strconv.Atoi(count)
		}
		for range n { // field by field, as Fixed claims them
			if r.Fixed(one, name) < 0 {
				return
			}
		}
	}
	panic("fbe: Reader.Run: the run " + fields + " fits in the root")
}

func (r *Reader) finalPayload(what, field string) (int, int) {
	if r.err != nil {
		return 0, 0
	}
	p := r.Pos
	if 4 > len(r.data)-p {
		r.Fail(what+" size beyond the end of the buffer", field, p)
		return 0, 0
	}
	n := r.u32(p)
	if n > len(r.data)-p-4 {
		r.Fail(what+" of "+strconv.Itoa(n)+" bytes beyond the end of the buffer", field, p)
		return 0, 0
	}
	r.Spend(n, p, field)
	if r.err != nil {
		return 0, 0
	}
	r.Pos = p + 4 + n
	return p + 4, n
}

// FinalString reads a length and the bytes of a string at Pos.
func (r *Reader) FinalString(field string) string {
	if d, p := r.data, r.Pos; r.err == nil && p+4 <= len(d) { // finalPayload's checks at once
		n := int(binary.LittleEndian.Uint32(d[p : p+4 : p+4]))
		if n <= len(d)-p-4 && n <= r.budget {
			r.budget -= n
			r.Pos = p + 4 + n
			return string(d[p+4 : p+4+n])
		}
	}
	p, n := r.finalPayload("string", field)
	return string(r.data[p : p+n])
}

// FinalBlob reads a length and the bytes at Pos into dst[:0].
func (r *Reader) FinalBlob(dst []byte, field string) []byte {
	p, n := r.finalPayload("bytes", field)
	return append(dst[:0], r.data[p:p+n]...)
}

// FinalSkipString checks, charges and passes the string at Pos as
// FinalString does, without copying it (generated verify code).
func (r *Reader) FinalSkipString(field string) { r.finalPayload("string", field) }

// FinalSkipBlob is FinalSkipString for bytes.
func (r *Reader) FinalSkipBlob(field string) { r.finalPayload("bytes", field) }

// FinalCount reads a collection's count at Pos; item is the fewest bytes
// one element takes (so a count cannot exceed what the bytes left could
// hold), cost what one element costs (docs/limits.md 3).
func (r *Reader) FinalCount(item, cost int, field string) int {
	if r.err != nil {
		return 0
	}
	p := r.Pos
	if 4 > len(r.data)-p {
		r.Fail("collection size beyond the end of the buffer", field, p)
		return 0
	}
	n := r.u32(p)
	if n*item > len(r.data)-p-4 {
		r.Fail("count "+strconv.Itoa(n)+" exceeds the buffer", field, p)
		return 0
	}
	r.Spend(n*cost, p, field)
	if r.err != nil {
		return 0
	}
	r.Pos = p + 4
	return n
}

// FinalHas reads an optional's presence byte at Pos.
func (r *Reader) FinalHas(field string) bool {
	if r.err != nil {
		return false
	}
	if r.Pos >= len(r.data) {
		r.Fail("optional flag beyond the end of the buffer", field, r.Pos)
		return false
	}
	r.Pos++
	return r.data[r.Pos-1] != 0
}

// Enter starts a final-model struct value costing cost bytes (depth and
// budget); after true the caller reads the fields and calls Leave.
func (r *Reader) Enter(cost int) bool {
	if r.err != nil {
		return false
	}
	return r.enter(cost, r.Pos)
}

// DuplicateKey refuses a map or hash entry whose key was read before (docs/limits.md: no reader
// keeps "the first" or "the last"); off is the entry's position.
func (r *Reader) DuplicateKey(field string, off int) {
	r.failErr("duplicate key", field, off, ErrDuplicate)
}
