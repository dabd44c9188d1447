// A user's program on the Go runtime module and the code fbec --go generated into gen/shop:
//
//	app write OUT         writes the sample shop.Order (versioned model) to OUT
//	app roundtrip IN OUT  reads a shop.Order from IN and writes it back to OUT
//	app serve             serves one client on 127.0.0.1 (a free port, printed as
//	                      "listening on HOST:PORT"): every Order it sends (fbec --go --proto's
//	                      protocol) is sent back to it; exits when the client closes
package main

import (
	"fmt"
	"log"
	"net"
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

// echo sends every Order it receives back to its client.
type echo struct {
	shop.BaseHandler
	out *shop.Sender
}

func (e echo) OnOrder(v *shop.Order) {
	if _, err := e.out.SendOrder(v); err != nil {
		log.Fatal(err)
	}
}

func serve() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("listening on", ln.Addr())
	conn, err := ln.Accept()
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	receiver := shop.NewReceiver(echo{out: shop.NewSender(conn)})
	if _, err := receiver.ReadFrom(conn); err != nil { // until the client closes
		log.Fatal(err)
	}
}

func main() {
	if os.Args[1] == "serve" {
		serve()
		return
	}
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
