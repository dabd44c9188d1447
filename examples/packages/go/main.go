// A user's program on the Go runtime module and the code fbec --go generated into gen/shop:
//
//	app write OUT         writes the sample shop.Order (versioned model) to OUT
//	app roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
package main

import (
	"log"
	"os"

	"example.com/app/gen/shop"
	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

func sample() *shop.Order {
	id, err := fbe.ParseUUID("123e4567-e89b-12d3-a456-426655440000")
	if err != nil {
		log.Fatal(err)
	}
	prices := map[string]fbe.Decimal{}
	for sku, text := range map[string]string{"A-1": "19.99", "B-2": "-0.000001", "C": "79228162514264337593543950335"} {
		if prices[sku], err = fbe.ParseDecimal(text); err != nil {
			log.Fatal(err)
		}
	}
	return &shop.Order{Cart: shop.Cart{
		Id:     id,
		Color:  shop.ColorBlue,
		Perm:   shop.PermRead | shop.PermWrite,
		Note:   fbe.Ptr(int32(-7)),
		Lines:  []shop.Line{{Sku: "A-1", Qty: 2}, {Sku: "Ünï", Qty: -3}},
		Prices: prices,
		At:     fbe.Timestamp(1_700_000_000_123_456_789),
	}}
}

func main() {
	order := sample()
	if os.Args[1] == "roundtrip" {
		data, err := os.ReadFile(os.Args[2])
		if err != nil {
			log.Fatal(err)
		}
		if err := order.UnmarshalFBE(data); err != nil {
			log.Fatal(err)
		}
	}
	out, err := order.MarshalFBE()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(os.Args[len(os.Args)-1], out, 0o644); err != nil {
		log.Fatal(err)
	}
}
