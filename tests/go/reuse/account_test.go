// Package proto (the generated code of schemas/trade.fbe, with this file
// beside it: tests/go/test_go_generated.py) checks the allocations of the
// reuse paths of docs/go.md on proto.Account: serializing into a reused
// fbe.Writer allocates nothing, reading into a reused value allocates only
// its strings when the shape does not grow, verify allocates nothing.
package proto

import (
	"reflect"
	"testing"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// sample is the benchmarks' account (docs/benchmarks.md): 6 non-empty strings.
func sample() *Account {
	a := NewAccount()
	a.Id, a.Name, a.State = 1, "Test", StateGood
	a.Wallet = Balance{Currency: "USD", Amount: 1000}
	a.Asset = &Balance{Currency: "EUR", Amount: 100}
	a.Orders = []Order{
		{Id: 1, Symbol: "EURUSD", Side: OrderSideBuy, Type: OrderTypeMarket, Price: 1.23456, Volume: 1000},
		{Id: 2, Symbol: "EURUSD", Side: OrderSideSell, Type: OrderTypeLimit, Price: 1.0, Volume: 100},
		{Id: 3, Symbol: "EURUSD", Side: OrderSideBuy, Type: OrderTypeStop, Price: 1.5, Volume: 10},
	}
	return a
}

const sampleStrings = 6 // Name, Wallet.Currency, Asset.Currency, 3 × Symbol

type codec struct {
	name   string
	append func(*Account, *fbe.Writer) ([]byte, error)
	read   func(*Account, []byte) error
	verify func([]byte, *fbe.Limits) error
}

var codecs = []codec{
	{"versioned", (*Account).AppendFBE, (*Account).UnmarshalFBE, VerifyFBEAccount},
	{"final", (*Account).AppendFinal, (*Account).UnmarshalFinal, VerifyFinalAccount},
}

func TestAccountReuseAllocations(t *testing.T) {
	a := sample()
	for _, c := range codecs {
		var w fbe.Writer
		data, err := c.append(a, &w)
		if err != nil {
			t.Fatal(err)
		}
		data = append([]byte(nil), data...)
		if n := testing.AllocsPerRun(100, func() { _, _ = c.append(a, &w) }); n != 0 {
			t.Errorf("%s: serialize into a reused Writer: %v allocs, want 0", c.name, n)
		}

		// A value that held a larger account (more orders) keeps its slices and its asset pointer.
		var v Account
		big := sample()
		big.Orders = append(big.Orders, big.Orders...)
		bigData, _ := c.append(big, new(fbe.Writer))
		if err := c.read(&v, bigData); err != nil {
			t.Fatal(err)
		}
		asset, orders := v.Asset, &v.Orders[0]
		if n := testing.AllocsPerRun(100, func() { _ = c.read(&v, data) }); n != sampleStrings {
			t.Errorf("%s: deserialize into a reused value: %v allocs, want %d (its strings)", c.name, n, sampleStrings)
		}
		if v.Asset != asset || &v.Orders[0] != orders {
			t.Errorf("%s: the read did not reuse the asset and the orders", c.name)
		}
		if !reflect.DeepEqual(&v, a) {
			t.Errorf("%s: read back %+v, want %+v", c.name, v, a)
		}
		// The strings are copies: changing the buffer afterwards changes none of them.
		scratch := append([]byte(nil), data...)
		_ = c.read(&v, scratch)
		clear(scratch)
		if !reflect.DeepEqual(&v, a) {
			t.Errorf("%s: the strings read share the buffer's bytes", c.name)
		}

		// Read again after a value without asset and orders: the pointer is let go (nil is absent).
		noAsset := sample()
		noAsset.Asset, noAsset.Orders = nil, noAsset.Orders[:0]
		small, _ := c.append(noAsset, new(fbe.Writer))
		if err := c.read(&v, small); err != nil || v.Asset != nil || len(v.Orders) != 0 {
			t.Errorf("%s: after a smaller account: %v %+v", c.name, err, v)
		}

		if err := c.verify(data, nil); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = c.verify(data, nil) }); n != 0 {
			t.Errorf("%s: verify: %v allocs, want 0", c.name, n)
		}
		if c.verify(data[:len(data)-1], nil) == nil {
			t.Errorf("%s: verify accepted a truncated account", c.name)
		}
	}
}
