// Package msgpacc mirrors the trade model (schemas/trade.fbe) for the msgp row of
// bench/go: tinylib/msgp generates trade_gen.go beside this file at build time
// (make bench-go), every struct encoded as a MessagePack array (tuple).
package msgpacc

//msgp:tuple Order Balance Account

// Order mirrors proto.Order.
type Order struct {
	Id     int32
	Symbol string
	Side   uint8
	Type   uint8
	Price  float64
	Volume float64
}

// Balance mirrors proto.Balance.
type Balance struct {
	Currency string
	Amount   float64
}

// Account mirrors proto.Account: Asset nil is absent (MessagePack nil).
type Account struct {
	Id     int32
	Name   string
	State  uint8
	Wallet Balance
	Asset  *Balance
	Orders []Order
}
