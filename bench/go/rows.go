// Package tradebench measures our generated Go code (fbec --go, runtime/go)
// against the Go peers on the trade model of docs/benchmarks.md, in one run:
// google.golang.org/protobuf, vtprotobuf (a reused message, and its pools),
// tinylib/msgp (tuples), FlatBuffers and encoding/json.
//
// Every row converts from and to the same domain object, proto.Account as
// fbec generates it: serialize is domain object -> bytes, deserialize is
// bytes -> domain object (then every field is read, Touch), each reusing
// what a server would reuse (its buffer or builder, its message object, the
// domain object). make bench-go generates the peers' code (protoc with
// protoc-gen-go and protoc-gen-go-vtproto, msgp, flatc) and ours (fbec) into
// build/bench-go, where this module is built; docs/benchmarks.md ("Go").
package tradebench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	flatbuffers "github.com/google/flatbuffers/go"
	protoapi "google.golang.org/protobuf/proto"

	"fbebench/gen/fb"
	"fbebench/gen/pb"
	"fbebench/gen/proto"
	"fbebench/msgpacc"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// Row is one way of serializing the domain object. Serialize's bytes stay
// valid until its next call; Deserialize reads into a (reused by the caller);
// Verify is nil when the format has no verifier.
type Row struct {
	ID          string // the benchmark name: BenchmarkTrade/<ID>/<operation>
	Name        string // the table's
	Module      string // the Go module measured (its version is in go.mod), "" for ours and the standard library
	Missing     string // why the row is not available (then it has no functions)
	Serialize   func(a *proto.Account) ([]byte, error)
	Deserialize func(data []byte, a *proto.Account) error
	Verify      func(data []byte) error
}

// Rows are the benchmark's rows, each with its own reused state.
func Rows() []*Row {
	return []*Row{rowFBE(), rowFBEFinal(), rowFBEJSON(), rowProtobuf(), rowVT(), rowVTPool(), rowMsgp(),
		rowFlatBuffers(), rowJSON()}
}

// ---------------------------------------------------------------- ours

func rowFBE() *Row {
	var w fbe.Writer
	return &Row{
		ID: "fbe", Name: "FBE (ours)",
		Serialize:   func(a *proto.Account) ([]byte, error) { return a.AppendFBE(&w) },
		Deserialize: func(data []byte, a *proto.Account) error { return a.UnmarshalFBE(data) },
		Verify:      func(data []byte) error { return proto.VerifyFBEAccount(data, nil) },
	}
}

func rowFBEFinal() *Row {
	var w fbe.Writer
	return &Row{
		ID: "fbe-final", Name: "FBE final (ours)",
		Serialize:   func(a *proto.Account) ([]byte, error) { return a.AppendFinal(&w) },
		Deserialize: func(data []byte, a *proto.Account) error { return a.UnmarshalFinal(data) },
		Verify:      func(data []byte) error { return proto.VerifyFinalAccount(data, nil) },
	}
}

// jsonAppender is the fast path a generated type may offer next to MarshalJSON.
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// rowFBEJSON is our JSON (the FBE JSON format) when the generated code has it:
// MarshalJSON/UnmarshalJSON called directly (json.Marshal would compact the
// output once more), AppendJSON into a reused buffer when there is one.
func rowFBEJSON() *Row {
	row := &Row{ID: "fbe-json", Name: "FBE JSON (ours)"}
	var probe any = new(proto.Account)
	_, marshals := probe.(json.Marshaler)
	_, unmarshals := probe.(json.Unmarshaler)
	if !marshals || !unmarshals {
		row.Missing = "not available yet: the generated Go types have no MarshalJSON/UnmarshalJSON"
		return row
	}
	var buf []byte
	row.Serialize = func(a *proto.Account) ([]byte, error) {
		var v any = a
		if ap, ok := v.(jsonAppender); ok {
			var err error
			buf, err = ap.AppendJSON(buf[:0])
			return buf, err
		}
		return v.(json.Marshaler).MarshalJSON()
	}
	row.Deserialize = func(data []byte, a *proto.Account) error {
		var v any = a
		return v.(json.Unmarshaler).UnmarshalJSON(data)
	}
	return row
}

// ---------------------------------------------------------------- protobuf

// toPB fills the reused message m from a, reusing its sub-messages; newBalance
// and newOrder make the ones it lacks.
func toPB(a *proto.Account, m *pb.Account, newBalance func() *pb.Balance, newOrder func() *pb.Order) {
	m.Id, m.Name, m.State = a.Id, a.Name, uint32(a.State)
	if m.Wallet == nil {
		m.Wallet = newBalance()
	}
	m.Wallet.Currency, m.Wallet.Amount = a.Wallet.Currency, a.Wallet.Amount
	if a.Asset != nil {
		if m.Asset == nil {
			m.Asset = newBalance()
		}
		m.Asset.Currency, m.Asset.Amount = a.Asset.Currency, a.Asset.Amount
	} else {
		m.Asset = nil
	}
	m.Orders = fbe.Resize(m.Orders, len(a.Orders))
	for i := range a.Orders {
		o := &a.Orders[i]
		if m.Orders[i] == nil {
			m.Orders[i] = newOrder()
		}
		p := m.Orders[i]
		p.Id, p.Symbol, p.Side, p.Type = o.Id, o.Symbol, pb.OrderSide(o.Side), pb.OrderType(o.Type)
		p.Price, p.Volume = o.Price, o.Volume
	}
}

// fromPB reads every field of m into the domain object a (reused).
func fromPB(m *pb.Account, a *proto.Account) {
	a.Id, a.Name, a.State = m.Id, m.Name, proto.State(m.State)
	a.Wallet.Currency, a.Wallet.Amount = m.GetWallet().GetCurrency(), m.GetWallet().GetAmount()
	if m.Asset != nil {
		a.Asset = fbe.Reuse(a.Asset)
		a.Asset.Currency, a.Asset.Amount = m.Asset.Currency, m.Asset.Amount
	} else {
		a.Asset = nil
	}
	a.Orders = fbe.Resize(a.Orders, len(m.Orders))
	for i, p := range m.Orders {
		a.Orders[i] = proto.Order{Id: p.Id, Symbol: p.Symbol, Side: proto.OrderSide(p.Side),
			Type: proto.OrderType(p.Type), Price: p.Price, Volume: p.Volume}
	}
}

func newBalance() *pb.Balance { return new(pb.Balance) }
func newOrder() *pb.Order     { return new(pb.Order) }

// rowProtobuf: google.golang.org/protobuf (reflection-free fast paths of its
// generated code), a reused message and buffer (MarshalAppend), Unmarshal
// into a reused message (which it resets).
func rowProtobuf() *Row {
	out, in := new(pb.Account), new(pb.Account)
	var buf []byte
	return &Row{
		ID: "protobuf", Name: "protobuf-go", Module: "google.golang.org/protobuf",
		Serialize: func(a *proto.Account) ([]byte, error) {
			toPB(a, out, newBalance, newOrder)
			var err error
			buf, err = protoapi.MarshalOptions{}.MarshalAppend(buf[:0], out)
			return buf, err
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			if err := protoapi.Unmarshal(data, in); err != nil {
				return err
			}
			fromPB(in, a)
			return nil
		},
	}
}

// marshalVT writes m into buf, sized by SizeVT (vtprotobuf's fastest write).
func marshalVT(m *pb.Account, buf []byte) ([]byte, error) {
	n := m.SizeVT()
	buf = slices.Grow(buf[:0], n)[:n]
	_, err := m.MarshalToSizedBufferVT(buf)
	return buf, err
}

// rowVT: vtprotobuf with a reused message: ResetVT keeps sub-messages and the
// orders slice for UnmarshalVT.
func rowVT() *Row {
	out, in := new(pb.Account), new(pb.Account)
	var buf []byte
	return &Row{
		ID: "vtprotobuf", Name: "vtprotobuf (reuse)", Module: "github.com/planetscale/vtprotobuf",
		Serialize: func(a *proto.Account) ([]byte, error) {
			toPB(a, out, newBalance, newOrder)
			var err error
			buf, err = marshalVT(out, buf)
			return buf, err
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			in.ResetVT()
			if err := in.UnmarshalVT(data); err != nil {
				return err
			}
			fromPB(in, a)
			return nil
		},
	}
}

// rowVTPool: vtprotobuf's pools (features=pool for Account, Balance, Order): a
// message from the pool per operation, returned after it.
func rowVTPool() *Row {
	var buf []byte
	return &Row{
		ID: "vtprotobuf-pool", Name: "vtprotobuf (pool)", Module: "github.com/planetscale/vtprotobuf",
		Serialize: func(a *proto.Account) ([]byte, error) {
			m := pb.AccountFromVTPool()
			toPB(a, m, pb.BalanceFromVTPool, pb.OrderFromVTPool)
			var err error
			buf, err = marshalVT(m, buf)
			m.ReturnToVTPool()
			return buf, err
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			m := pb.AccountFromVTPool()
			defer m.ReturnToVTPool()
			if err := m.UnmarshalVT(data); err != nil {
				return err
			}
			fromPB(m, a)
			return nil
		},
	}
}

// ---------------------------------------------------------------- msgp

// rowMsgp: tinylib/msgp, structs as MessagePack arrays (msgpacc), MarshalMsg
// appending to a reused buffer, UnmarshalMsg into a reused mirror.
func rowMsgp() *Row {
	var out, in msgpacc.Account
	var buf []byte
	return &Row{
		ID: "msgp", Name: "msgp (tuple)", Module: "github.com/tinylib/msgp",
		Serialize: func(a *proto.Account) ([]byte, error) {
			out.Id, out.Name, out.State = a.Id, a.Name, uint8(a.State)
			out.Wallet = msgpacc.Balance{Currency: a.Wallet.Currency, Amount: a.Wallet.Amount}
			if a.Asset != nil {
				out.Asset = fbe.Reuse(out.Asset)
				*out.Asset = msgpacc.Balance{Currency: a.Asset.Currency, Amount: a.Asset.Amount}
			} else {
				out.Asset = nil
			}
			out.Orders = fbe.Resize(out.Orders, len(a.Orders))
			for i := range a.Orders {
				o := &a.Orders[i]
				out.Orders[i] = msgpacc.Order{Id: o.Id, Symbol: o.Symbol, Side: uint8(o.Side), Type: uint8(o.Type),
					Price: o.Price, Volume: o.Volume}
			}
			var err error
			buf, err = out.MarshalMsg(buf[:0])
			return buf, err
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			if _, err := in.UnmarshalMsg(data); err != nil {
				return err
			}
			a.Id, a.Name, a.State = in.Id, in.Name, proto.State(in.State)
			a.Wallet = proto.Balance{Currency: in.Wallet.Currency, Amount: in.Wallet.Amount}
			if in.Asset != nil {
				a.Asset = fbe.Reuse(a.Asset)
				*a.Asset = proto.Balance{Currency: in.Asset.Currency, Amount: in.Asset.Amount}
			} else {
				a.Asset = nil
			}
			a.Orders = fbe.Resize(a.Orders, len(in.Orders))
			for i := range in.Orders {
				o := &in.Orders[i]
				a.Orders[i] = proto.Order{Id: o.Id, Symbol: o.Symbol, Side: proto.OrderSide(o.Side),
					Type: proto.OrderType(o.Type), Price: o.Price, Volume: o.Volume}
			}
			return nil
		},
	}
}

// ---------------------------------------------------------------- FlatBuffers

// rowFlatBuffers: a reused Builder (Reset); reading goes through the tables
// in place (no verifier in the FlatBuffers Go runtime of flatc 2.0.8, so its
// reads trust the input, as docs/benchmarks.md says of the C++ row).
func rowFlatBuffers() *Row {
	b := flatbuffers.NewBuilder(512)
	var orders []flatbuffers.UOffsetT
	balance := func(x *proto.Balance) flatbuffers.UOffsetT {
		cur := b.CreateString(x.Currency)
		fb.BalanceStart(b)
		fb.BalanceAddCurrency(b, cur)
		fb.BalanceAddAmount(b, x.Amount)
		return fb.BalanceEnd(b)
	}
	return &Row{
		ID: "flatbuffers", Name: "FlatBuffers", Module: "github.com/google/flatbuffers",
		Serialize: func(a *proto.Account) ([]byte, error) {
			b.Reset()
			name := b.CreateString(a.Name)
			wallet := balance(&a.Wallet)
			var asset flatbuffers.UOffsetT
			if a.Asset != nil {
				asset = balance(a.Asset)
			}
			orders = orders[:0]
			for i := range a.Orders {
				o := &a.Orders[i]
				sym := b.CreateString(o.Symbol)
				fb.OrderStart(b)
				fb.OrderAddId(b, o.Id)
				fb.OrderAddSymbol(b, sym)
				fb.OrderAddSide(b, fb.OrderSide(o.Side))
				fb.OrderAddType(b, fb.OrderType(o.Type))
				fb.OrderAddPrice(b, o.Price)
				fb.OrderAddVolume(b, o.Volume)
				orders = append(orders, fb.OrderEnd(b))
			}
			fb.AccountStartOrdersVector(b, len(orders))
			for i := len(orders) - 1; i >= 0; i-- {
				b.PrependUOffsetT(orders[i])
			}
			vec := b.EndVector(len(orders))
			fb.AccountStart(b)
			fb.AccountAddId(b, a.Id)
			fb.AccountAddName(b, name)
			fb.AccountAddState(b, byte(a.State))
			fb.AccountAddWallet(b, wallet)
			if a.Asset != nil {
				fb.AccountAddAsset(b, asset)
			}
			fb.AccountAddOrders(b, vec)
			b.Finish(fb.AccountEnd(b))
			return b.FinishedBytes(), nil
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			if len(data) < 4 {
				return errors.New("flatbuffers: shorter than a root offset")
			}
			var acc fb.Account
			acc.Init(data, flatbuffers.GetUOffsetT(data))
			var bal fb.Balance
			var o fb.Order
			a.Id, a.Name, a.State = acc.Id(), string(acc.Name()), proto.State(acc.State())
			a.Wallet = proto.Balance{}
			if acc.Wallet(&bal) != nil {
				a.Wallet = proto.Balance{Currency: string(bal.Currency()), Amount: bal.Amount()}
			}
			if acc.Asset(&bal) != nil {
				a.Asset = fbe.Reuse(a.Asset)
				*a.Asset = proto.Balance{Currency: string(bal.Currency()), Amount: bal.Amount()}
			} else {
				a.Asset = nil
			}
			a.Orders = fbe.Resize(a.Orders, acc.OrdersLength())
			for j := range a.Orders {
				acc.Orders(&o, j)
				a.Orders[j] = proto.Order{Id: o.Id(), Symbol: string(o.Symbol()), Side: proto.OrderSide(o.Side()),
					Type: proto.OrderType(o.Type()), Price: o.Price(), Volume: o.Volume()}
			}
			return nil
		},
	}
}

// ---------------------------------------------------------------- encoding/json

type jsonOrder struct {
	Id     int32   `json:"id"`
	Symbol string  `json:"symbol"`
	Side   uint8   `json:"side"`
	Type   uint8   `json:"type"`
	Price  float64 `json:"price"`
	Volume float64 `json:"volume"`
}

type jsonBalance struct {
	Currency string  `json:"currency"`
	Amount   float64 `json:"amount"`
}

// jsonAccount mirrors the domain object with FBE's JSON member names (a
// mirror without methods: encoding/json's own reflection is what is measured,
// whatever the generated types implement).
type jsonAccount struct {
	Id     int32        `json:"id"`
	Name   string       `json:"name"`
	State  uint8        `json:"state"`
	Wallet jsonBalance  `json:"wallet"`
	Asset  *jsonBalance `json:"asset"`
	Orders []jsonOrder  `json:"orders"`
}

// rowJSON: encoding/json, an Encoder on a reused bytes.Buffer, Unmarshal into
// a reused mirror.
func rowJSON() *Row {
	var out, in jsonAccount
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	return &Row{
		ID: "encoding-json", Name: "encoding/json",
		Serialize: func(a *proto.Account) ([]byte, error) {
			out.Id, out.Name, out.State = a.Id, a.Name, uint8(a.State)
			out.Wallet = jsonBalance{a.Wallet.Currency, a.Wallet.Amount}
			if a.Asset != nil {
				out.Asset = fbe.Reuse(out.Asset)
				*out.Asset = jsonBalance{a.Asset.Currency, a.Asset.Amount}
			} else {
				out.Asset = nil
			}
			out.Orders = fbe.Resize(out.Orders, len(a.Orders))
			for i := range a.Orders {
				o := &a.Orders[i]
				out.Orders[i] = jsonOrder{o.Id, o.Symbol, uint8(o.Side), uint8(o.Type), o.Price, o.Volume}
			}
			buf.Reset()
			if err := enc.Encode(&out); err != nil {
				return nil, err
			}
			return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
		},
		Deserialize: func(data []byte, a *proto.Account) error {
			if err := json.Unmarshal(data, &in); err != nil {
				return err
			}
			a.Id, a.Name, a.State = in.Id, in.Name, proto.State(in.State)
			a.Wallet = proto.Balance{Currency: in.Wallet.Currency, Amount: in.Wallet.Amount}
			if in.Asset != nil {
				a.Asset = fbe.Reuse(a.Asset)
				*a.Asset = proto.Balance{Currency: in.Asset.Currency, Amount: in.Asset.Amount}
			} else {
				a.Asset = nil
			}
			a.Orders = fbe.Resize(a.Orders, len(in.Orders))
			for i := range in.Orders {
				o := &in.Orders[i]
				a.Orders[i] = proto.Order{Id: o.Id, Symbol: o.Symbol, Side: proto.OrderSide(o.Side),
					Type: proto.OrderType(o.Type), Price: o.Price, Volume: o.Volume}
			}
			return nil
		},
	}
}

// ---------------------------------------------------------------- the sample and the check

// Sample is the trade model's account (docs/benchmarks.md): id 1 "Test", state
// good, wallet USD 1000, asset EUR 100, three EURUSD orders.
func Sample() *proto.Account {
	a := proto.NewAccount()
	a.Id, a.Name, a.State = 1, "Test", proto.StateGood
	a.Wallet = proto.Balance{Currency: "USD", Amount: 1000}
	a.Asset = &proto.Balance{Currency: "EUR", Amount: 100}
	a.Orders = []proto.Order{
		{Id: 1, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeMarket, Price: 1.23456, Volume: 1000},
		{Id: 2, Symbol: "EURUSD", Side: proto.OrderSideSell, Type: proto.OrderTypeLimit, Price: 1.0, Volume: 100},
		{Id: 3, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeStop, Price: 1.5, Volume: 10},
	}
	return a
}

// SampleStrings is the number of non-empty strings of Sample: what reading it
// into a reused domain object must allocate (Go strings are immutable copies).
const SampleStrings = 6

// CheckAccounts are the accounts every row round-trips before it is timed:
// the sample, one without asset and with five orders, one with empty strings
// and no orders.
func CheckAccounts() []*proto.Account {
	noAsset := Sample()
	noAsset.Id, noAsset.Asset, noAsset.State = 2, nil, proto.StateBad
	for i := 4; i <= 5; i++ {
		noAsset.Orders = append(noAsset.Orders, proto.Order{Id: int32(i), Symbol: "GBPUSD",
			Side: proto.OrderSideSell, Type: proto.OrderTypeLimit, Price: 1.25 * float64(i), Volume: -2})
	}
	empty := proto.NewAccount()
	empty.Id = -7
	return []*proto.Account{Sample(), noAsset, empty}
}

// Difference is "" when a and b hold the same values (every field; an empty
// slice and nil alike), else the first field that differs.
func Difference(a, b *proto.Account) string {
	switch {
	case a.Id != b.Id, a.Name != b.Name, a.State != b.State:
		return fmt.Sprintf("id/name/state: %d %q %d vs %d %q %d", a.Id, a.Name, a.State, b.Id, b.Name, b.State)
	case a.Wallet != b.Wallet:
		return fmt.Sprintf("wallet: %+v vs %+v", a.Wallet, b.Wallet)
	case (a.Asset == nil) != (b.Asset == nil) || a.Asset != nil && *a.Asset != *b.Asset:
		return fmt.Sprintf("asset: %v vs %v", a.Asset, b.Asset)
	case !slices.Equal(a.Orders, b.Orders):
		return fmt.Sprintf("orders: %+v vs %+v", a.Orders, b.Orders)
	}
	return ""
}

// Touch reads every field of a (what a consumer of the message does; the same
// work for every row).
func Touch(a *proto.Account) int {
	n := int(a.Id) + len(a.Name) + int(a.State) + len(a.Wallet.Currency) + int(a.Wallet.Amount)
	if a.Asset != nil {
		n += len(a.Asset.Currency) + int(a.Asset.Amount)
	}
	for i := range a.Orders {
		o := &a.Orders[i]
		n += int(o.Id) + len(o.Symbol) + int(o.Side) + int(o.Type) + int(o.Price) + int(o.Volume)
	}
	return n
}

// Check round-trips every CheckAccounts account through the row, into a
// fresh and into a reused domain object, and checks that its verifier
// accepts its own message and refuses the message cut short. A row that
// fails is reported with the error and not timed.
func Check(r *Row) error {
	if r.Missing != "" {
		return errors.New(r.Missing)
	}
	reused := Sample()
	reused.Orders = append(reused.Orders, reused.Orders...) // a larger shape than any account read into it
	for _, want := range CheckAccounts() {
		data, err := r.Serialize(want)
		if err != nil {
			return fmt.Errorf("serialize account %d: %w", want.Id, err)
		}
		data = bytes.Clone(data)
		for _, into := range []*proto.Account{new(proto.Account), reused} {
			if err := r.Deserialize(data, into); err != nil {
				return fmt.Errorf("deserialize account %d: %w", want.Id, err)
			}
			if d := Difference(into, want); d != "" {
				return fmt.Errorf("account %d read back differs: %s", want.Id, d)
			}
		}
		if r.Verify == nil {
			continue
		}
		if err := r.Verify(data); err != nil {
			return fmt.Errorf("verify refused its own message (account %d): %w", want.Id, err)
		}
		if r.Verify(data[:len(data)-1]) == nil {
			return fmt.Errorf("verify accepted account %d cut short by one byte", want.Id)
		}
	}
	return nil
}
