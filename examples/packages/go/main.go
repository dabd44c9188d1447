// Reads a shop.Order (versioned model) from the file named first and writes it back to the second.
package main

import (
	"log"
	"os"

	"example.com/app/gen/shop"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	var order shop.Order
	if err := order.UnmarshalFBE(data); err != nil {
		log.Fatal(err)
	}
	out, err := order.MarshalFBE()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(os.Args[2], out, 0o644); err != nil {
		log.Fatal(err)
	}
}
