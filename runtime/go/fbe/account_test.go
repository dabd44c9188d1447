package fbe

// A hand-written codec of proto.Account (the shape `fbec --go` generates),
// checked byte for byte against the original's buffers of docs/format.md 3.7
// and 4.3: the runtime's allocation order, offsets and checks in one place.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type order struct {
	ID            int32
	Symbol        string
	Side, Type    uint8
	Price, Volume float64
}

type balance struct {
	Currency string
	Amount   float64
}

type account struct {
	ID     int32
	Name   string
	State  uint8
	Wallet balance
	Asset  *balance
	Orders []order
}

func writeBalance(w *Writer, base, slot int, v *balance) {
	b := w.Struct(base, slot, 20, 2)
	w.String(b, b+8, v.Currency)
	w.PutF64(b+12, v.Amount)
}

func writeAccount(w *Writer, base, slot int, v *account) {
	b := w.Struct(base, slot, 30, 3)
	w.PutI32(b+8, v.ID)
	w.String(b, b+12, v.Name)
	w.PutU8(b+16, v.State)
	writeBalance(w, b, b+17, &v.Wallet)
	if v.Asset != nil {
		s := w.Optional(b, b+21, 4)
		writeBalance(w, s, s, v.Asset)
	}
	e := w.Vector(b, b+26, len(v.Orders), 4)
	for i := range v.Orders {
		o := &v.Orders[i]
		ob := w.Struct(b, e+4*i, 34, 1)
		w.PutI32(ob+8, o.ID)
		w.String(ob, ob+12, o.Symbol)
		w.PutU8(ob+16, o.Side)
		w.PutU8(ob+17, o.Type)
		w.PutF64(ob+18, o.Price)
		w.PutF64(ob+26, o.Volume)
	}
}

func readBalance(r *Reader, base, slot int, v *balance) {
	b, n := r.Struct(base, slot, 2, 12)
	if n == 0 {
		return
	}
	if n >= 12 {
		v.Currency = r.String(b, b+8, "currency")
	}
	if n >= 20 {
		v.Amount = r.F64(b + 12)
	}
	r.Leave()
}

func readAccount(r *Reader, base, slot int, v *account) {
	b, n := r.Struct(base, slot, 3, 14)
	if n == 0 {
		return
	}
	defer r.Leave()
	if n >= 12 {
		v.ID = r.I32(b + 8)
	}
	if n >= 16 {
		v.Name = r.String(b, b+12, "name")
	}
	if n >= 17 {
		v.State = r.U8(b + 16)
	}
	if n >= 21 {
		readBalance(r, b, b+17, &v.Wallet)
		if r.Failed() {
			r.Unwind("wallet")
			return
		}
	}
	v.Asset = nil
	if n >= 26 {
		if s, ok := r.Optional(b, b+21, 4, "asset"); ok {
			v.Asset = new(balance)
			readBalance(r, s, s, v.Asset)
			if r.Failed() {
				r.Unwind("asset")
				return
			}
		}
	}
	v.Orders = v.Orders[:0]
	if n >= 30 {
		e, count := r.Vector(b, b+26, 4, 0, "orders")
		for i := range count {
			var o order
			ob, on := r.Struct(b, e+4*i, 1, 26)
			if on == 0 {
				r.UnwindIndex(i)
				r.Unwind("orders")
				return
			}
			if on >= 34 { // an older writer's shorter body keeps the defaults (the generated code checks per field)
				o.ID = r.I32(ob + 8)
				o.Symbol = r.String(ob, ob+12, "symbol")
				o.Side, o.Type = r.U8(ob+16), r.U8(ob+17)
				o.Price, o.Volume = r.F64(ob+18), r.F64(ob+26)
			}
			r.Leave()
			if r.Failed() {
				r.UnwindIndex(i)
				r.Unwind("orders")
				return
			}
			v.Orders = append(v.Orders, o)
		}
	}
}

func finalBalance(w *Writer, v *balance) {
	w.AppendString(v.Currency)
	w.AppendF64(v.Amount)
}

func finalAccount(w *Writer, v *account) {
	w.AppendI32(v.ID)
	w.AppendString(v.Name)
	w.AppendU8(v.State)
	finalBalance(w, &v.Wallet)
	w.AppendBool(v.Asset != nil)
	if v.Asset != nil {
		finalBalance(w, v.Asset)
	}
	w.AppendCount(len(v.Orders))
	for i := range v.Orders {
		o := &v.Orders[i]
		w.AppendI32(o.ID)
		w.AppendString(o.Symbol)
		w.AppendU8(o.Side)
		w.AppendU8(o.Type)
		w.AppendF64(o.Price)
		w.AppendF64(o.Volume)
	}
}

func readFinalBalance(r *Reader, v *balance) {
	if !r.Enter(12) {
		return
	}
	v.Currency = r.FinalString("currency")
	if p := r.Fixed(8, "amount"); p >= 0 {
		v.Amount = r.F64(p)
	}
	r.Leave()
}

func readFinalAccount(r *Reader, v *account) {
	if !r.Enter(14) {
		return
	}
	defer r.Leave()
	if p := r.Fixed(4, "id"); p >= 0 {
		v.ID = r.I32(p)
	}
	v.Name = r.FinalString("name")
	if p := r.Fixed(1, "state"); p >= 0 {
		v.State = r.U8(p)
	}
	readFinalBalance(r, &v.Wallet)
	r.Unwind("wallet")
	v.Asset = nil
	if r.FinalHas("asset") {
		v.Asset = new(balance)
		readFinalBalance(r, v.Asset)
		r.Unwind("asset")
	}
	count := r.FinalCount(26, 0, "orders")
	v.Orders = v.Orders[:0]
	for i := range count {
		var o order
		if !r.Enter(26) {
			r.UnwindIndex(i)
			r.Unwind("orders")
			return
		}
		if p := r.Fixed(4, "id"); p >= 0 {
			o.ID = r.I32(p)
		}
		o.Symbol = r.FinalString("symbol")
		if p := r.Fixed(18, "side"); p >= 0 {
			o.Side, o.Type, o.Price, o.Volume = r.U8(p), r.U8(p+1), r.F64(p+2), r.F64(p+10)
		}
		r.Leave()
		if r.Failed() {
			r.UnwindIndex(i)
			r.Unwind("orders")
			return
		}
		v.Orders = append(v.Orders, o)
	}
}

var sampleAccount = account{
	ID: 1, Name: "Test", State: 6,
	Wallet: balance{"USD", 1000},
	Asset:  &balance{"EUR", 100},
	Orders: []order{{1, "EURUSD", 0, 0, 1.23456, 1000}, {2, "EURUSD", 1, 1, 1, 100}, {3, "EURUSD", 0, 2, 1.5, 10}},
}

func marshalAccount(w *Writer, v *account) []byte {
	w.BeginVersioned()
	writeAccount(w, 0, 4, v)
	b, err := w.EndVersioned()
	if err != nil {
		panic(err)
	}
	return b
}

func unmarshalAccount(data []byte, lim *Limits) (account, error) {
	var r Reader
	var v account
	r.BeginVersioned(data, lim)
	readAccount(&r, 0, 4, &v)
	r.Within("proto.Account")
	return v, r.Err()
}

func marshalFinalAccount(w *Writer, v *account) []byte {
	w.BeginFinal()
	finalAccount(w, v)
	b, err := w.EndFinal(3)
	if err != nil {
		panic(err)
	}
	return b
}

func unmarshalFinalAccount(data []byte, lim *Limits) (account, error) {
	var r Reader
	var v account
	r.BeginFinal(data, 3, lim)
	readFinalAccount(&r, &v)
	r.EndFinal()
	r.Within("proto.Account")
	return v, r.Err()
}

// sharedVector is a golden vector of ../shared (SHARED), or a skip naming the variable.
func sharedVector(t *testing.T, name string) []byte {
	t.Helper()
	dir := os.Getenv("SHARED")
	if dir == "" {
		t.Skip("SHARED is not set: the golden vectors of ../shared are not available")
	}
	b, err := os.ReadFile(filepath.Join(dir, "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAccountVersionedBytes(t *testing.T) {
	var w Writer
	got := marshalAccount(&w, &sampleAccount)
	if len(got) != 252 {
		t.Fatalf("size %d, want 252 (docs/format.md 3.7)", len(got))
	}
	// docs/format.md 3.7: the header, the body, the name and the order slots.
	for _, c := range []struct {
		at   int
		want []byte
	}{
		{0x00, []byte{0xfc, 0, 0, 0, 8, 0, 0, 0, 0x1e, 0, 0, 0, 3, 0, 0, 0}},
		{0x1d, []byte{1, 0x41, 0, 0, 0, 0x60, 0, 0, 0, 4, 0, 0, 0, 'T', 'e', 's', 't'}},
		{0x68, []byte{3, 0, 0, 0, 0x70, 0, 0, 0}},
	} {
		if !bytes.Equal(got[c.at:c.at+len(c.want)], c.want) {
			t.Errorf("at %#x: % x, want % x", c.at, got[c.at:c.at+len(c.want)], c.want)
		}
	}
	back, err := unmarshalAccount(got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again := marshalAccount(&Writer{}, &back); !bytes.Equal(again, got) {
		t.Fatal("read back and written again, the bytes differ")
	}
}

func TestAccountMatchesOriginal(t *testing.T) {
	var w Writer
	if want := sharedVector(t, "proto_account.fbe.bin"); !bytes.Equal(marshalAccount(&w, &sampleAccount), want) {
		t.Error("versioned bytes differ from the original's")
	}
	if want := sharedVector(t, "proto_account.final.bin"); !bytes.Equal(marshalFinalAccount(&w, &sampleAccount), want) {
		t.Error("final bytes differ from the original's")
	}
}

func TestAccountFinalBytes(t *testing.T) {
	var w Writer
	got := marshalFinalAccount(&w, &sampleAccount)
	want := []byte{0x98, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 'T', 'e', 's', 't', 6, 3, 0, 0, 0, 'U', 'S', 'D'}
	if len(got) != 152 || !bytes.Equal(got[:len(want)], want) {
		t.Fatalf("final root % x", got[:min(len(got), 40)])
	}
	back, err := unmarshalFinalAccount(got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(marshalFinalAccount(&Writer{}, &back), got) {
		t.Fatal("read back and written again, the bytes differ")
	}
}

func TestWriterReuseAllocatesNothing(t *testing.T) {
	var w Writer
	marshalAccount(&w, &sampleAccount)
	if n := testing.AllocsPerRun(100, func() { marshalAccount(&w, &sampleAccount) }); n != 0 {
		t.Errorf("versioned serialize into a reused Writer: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { marshalFinalAccount(&w, &sampleAccount) }); n != 0 {
		t.Errorf("final serialize into a reused Writer: %v allocs, want 0", n)
	}
}

// Every truncation of a valid root is refused by both models, and never panics.
func TestTruncationsRefused(t *testing.T) {
	var w Writer
	v := append([]byte(nil), marshalAccount(&w, &sampleAccount)...)
	f := append([]byte(nil), marshalFinalAccount(&w, &sampleAccount)...)
	for n := range len(v) {
		cut := append([]byte(nil), v[:n]...)
		if _, err := unmarshalAccount(cut, nil); err == nil {
			t.Errorf("versioned root cut to %d bytes accepted", n)
		}
	}
	for n := range len(f) {
		cut := append([]byte(nil), f[:n]...)
		if _, err := unmarshalFinalAccount(cut, nil); err == nil {
			t.Errorf("final root cut to %d bytes accepted", n)
		}
	}
}

// Every single-byte corruption either reads or fails with a DecodeError; none panics.
func TestCorruptionsNeverPanic(t *testing.T) {
	var w Writer
	v := append([]byte(nil), marshalAccount(&w, &sampleAccount)...)
	f := append([]byte(nil), marshalFinalAccount(&w, &sampleAccount)...)
	for _, root := range [][]byte{v, f} {
		for i := range root {
			for _, b := range []byte{0, 1, 0x7f, 0x80, 0xff} {
				c := append([]byte(nil), root...)
				c[i] = b
				for _, err := range []error{func() error { _, e := unmarshalAccount(c, nil); return e }(),
					func() error { _, e := unmarshalFinalAccount(c, nil); return e }()} {
					var de *DecodeError
					if err != nil && !errors.As(err, &de) {
						t.Fatalf("byte %d = %#x: %T %v", i, b, err, err)
					}
				}
			}
		}
	}
}

func TestDecodeErrorsNameTypeFieldOffset(t *testing.T) {
	var w Writer
	base := append([]byte(nil), marshalAccount(&w, &sampleAccount)...)
	cases := []struct {
		name  string
		patch func([]byte)
		want  string
	}{
		{"order count", func(b []byte) { b[0x68] = 0xff; b[0x69] = 0xff }, "count 65535 exceeds the buffer (proto.Account.orders, offset 104)"},
		{"second order's type id", func(b []byte) { b[0xa4+4] = 9 }, "type id 9 where 1 was expected (proto.Account.orders[1], offset 164)"},
		{"wallet offset 0", func(b []byte) { copy(b[0x19:], []byte{0, 0, 0, 0}) }, "struct offset 0 (proto.Account.wallet, offset 25)"},
		{"name backwards", func(b []byte) { b[0x14] = 2 }, "string at 10 before the end of the previous block (38): out-of-line blocks must follow each other in allocation order (proto.Account.name, offset 10)"},
		{"total size", func(b []byte) { b[0] = 0xfd }, "versioned root size 253 beyond the buffer of 252 bytes (proto.Account, offset 0)"},
	}
	for _, c := range cases {
		b := append([]byte(nil), base...)
		c.patch(b)
		_, err := unmarshalAccount(b, nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\n want %s", c.name, err, c.want)
		}
	}
	// A string in the wallet: the path goes through the struct field.
	b := append([]byte(nil), base...)
	b[0x2e+8] = 0xff // wallet.currency's offset points beyond the root
	if _, err := unmarshalAccount(b, nil); err == nil || !strings.Contains(err.Error(), "proto.Account.wallet.currency") {
		t.Errorf("wallet.currency: %v", err)
	}
}

func TestBudgetAndDepth(t *testing.T) {
	var w Writer
	data := append([]byte(nil), marshalAccount(&w, &sampleAccount)...)
	// The account's charges (docs/limits.md 3): the structs 14 + 12 + 12 + 3 * 26, the strings
	// 4 + 3 + 3 + 3 * 6, the order elements 0 (structs) = 144.
	lim := DefaultLimits
	lim.BudgetFactor, lim.BudgetSlack = 0, 144
	if _, err := unmarshalAccount(data, &lim); err != nil {
		t.Fatalf("budget 144: %v", err)
	}
	lim.BudgetSlack = 143
	_, err := unmarshalAccount(data, &lim)
	if !errors.Is(err, ErrBudget) {
		t.Fatalf("budget 143: %v", err)
	}
	final := marshalFinalAccount(&w, &sampleAccount)
	if _, err := unmarshalFinalAccount(final, &lim); !errors.Is(err, ErrBudget) {
		t.Fatalf("final, budget 143: %v", err)
	}
	lim.BudgetSlack = 144
	if _, err := unmarshalFinalAccount(final, &lim); err != nil {
		t.Fatalf("final, budget 162: %v", err)
	}
	lim = DefaultLimits
	lim.MaxDepth = 1 // the account is level 1, its wallet level 2
	if _, err := unmarshalAccount(data, &lim); !errors.Is(err, ErrDepth) || !strings.Contains(err.Error(), "wallet") {
		t.Fatalf("depth 1: %v", err)
	}
	lim.MaxDepth = 2
	if _, err := unmarshalAccount(data, &lim); err != nil {
		t.Fatalf("depth 2: %v", err)
	}
}

func TestWriterDepth(t *testing.T) {
	w := Writer{MaxDepth: 2}
	w.BeginVersioned()
	for level := 1; level <= 3; level++ {
		if entered := w.Enter("a.A"); entered != (level <= 2) {
			t.Fatalf("level %d of a limit of 2: entered %v", level, entered)
		}
	}
	if _, err := w.EndVersioned(); !errors.Is(err, ErrDepth) || err.Error() != "structs nested deeper than 2 (a.A)" {
		t.Fatalf("%v", err)
	}
	w.Reset()
	if w.Err() != nil {
		t.Fatal("Reset keeps the error")
	}
}

// FuzzAccount: any bytes either read or fail with a DecodeError, never panic, and what reads
// writes back to bytes that read and write back to the same bytes (`go test -fuzz FuzzAccount ./fbe`; plain
// `go test` runs the seeds).
func FuzzAccount(f *testing.F) {
	var w Writer
	f.Add(append([]byte(nil), marshalAccount(&w, &sampleAccount)...), false)
	f.Add(append([]byte(nil), marshalFinalAccount(&w, &sampleAccount)...), true)
	f.Add([]byte{16, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0}, false)
	f.Fuzz(func(t *testing.T, data []byte, final bool) {
		read, write := unmarshalAccount, marshalAccount
		if final {
			read, write = unmarshalFinalAccount, marshalFinalAccount
		}
		v, err := read(data, nil)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		var w Writer
		first := append([]byte(nil), write(&w, &v)...)
		again, err := read(first, nil)
		if err != nil {
			t.Fatalf("written back, it does not read: %v", err)
		}
		if second := write(&w, &again); !bytes.Equal(first, second) { // bytes: NaNs compare unequal as values
			t.Fatalf("written back and read again, the bytes differ")
		}
	})
}

// Run claims a run of fixed-size fields at once (its bytes) and, when the root ends inside it, fails as Fixed
// field by field (array elements one by one) would: at the first field not there, with its name
// and position (docs/ir.md "runs"; generated final readers and verify call it).
func TestRunFailsAtTheField(t *testing.T) {
	const layout = "a=4,b=2*3,c=1" // 11 bytes
	root := func(size int) []byte {
		b := make([]byte, size)
		binary.LittleEndian.PutUint32(b, uint32(size))
		binary.LittleEndian.PutUint32(b[4:], 7)
		return b
	}
	for size := 8; size <= 8+11+2; size++ {
		var run, each Reader
		run.BeginFinal(root(size), 7, nil)
		each.BeginFinal(root(size), 7, nil)
		p := run.Run(11, layout)
		q := each.Fixed(4, "a")
		for range 3 {
			each.Fixed(2, "b")
		}
		each.Fixed(1, "c")
		if size >= 19 {
			if len(p) != 11 || &p[0] != &run.data[8] || run.Err() != nil || run.Pos != 19 || q != 8 {
				t.Errorf("root of %d: Run %x, %v, Pos %d", size, p, run.Err(), run.Pos)
			}
			continue
		}
		if p != nil || run.Err() == nil || each.Err() == nil || run.Err().Error() != each.Err().Error() {
			t.Errorf("root of %d: Run %x, %v; field by field %v", size, p, run.Err(), each.Err())
		}
		if run.Run(1, "x=1") != nil {
			t.Errorf("root of %d: Run after an error", size)
		}
	}
}
