// A user's program on the fbekafka module (franz-go record helpers) and the code
// fbec --go --final generated into gen/shop, without a broker: a *kgo.Record as a producer sends
// it and as a consumer hands it over, its value and its fbe header.
//
// SCHEMA is the line `fbec fingerprint shop.fbe` prints: "shop VERSION FINGERPRINT".
//
//	app write SCHEMA IN VALUE HEADER  encodes the shop.Order of IN (versioned model) into a record
//	                                  and writes its value and its fbe header's value
//	app read SCHEMA VALUE HEADER OUT  decodes a record of that value and fbe header and writes the
//	                                  Order to OUT; a refused record: its reason on stderr, exit 1
package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"example.com/app/gen/shop"
	"github.com/fbe-toolkit/fbe/runtime/kafka/go/fbekafka"
	"github.com/twmb/franz-go/pkg/kgo"
)

const topic = "orders"

func readFile(name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		log.Fatal(err)
	}
	return data
}

func writeFile(name string, data []byte) {
	if err := os.WriteFile(name, data, 0o644); err != nil {
		log.Fatal(err)
	}
}

func main() {
	if len(os.Args) != 6 {
		log.Fatal("usage: app write SCHEMA IN VALUE HEADER | app read SCHEMA VALUE HEADER OUT")
	}
	line := strings.Fields(os.Args[2])
	if len(line) != 3 {
		log.Fatalf("SCHEMA is 'PACKAGE VERSION FINGERPRINT', got %q", os.Args[2])
	}
	schema := fbekafka.Schema{Package: line[0], Version: line[1], Fingerprint: line[2], Model: fbekafka.Versioned}
	serde, err := fbekafka.NewSerde[shop.Order](schema)
	if err != nil {
		log.Fatal(err)
	}
	if os.Args[1] == "write" {
		order, err := serde.Unmarshal(readFile(os.Args[3]))
		if err != nil {
			log.Fatal(err)
		}
		record := &kgo.Record{Topic: topic}
		if err := serde.Encode(record, order); err != nil {
			log.Fatal(err)
		}
		writeFile(os.Args[4], record.Value)
		for _, h := range record.Headers {
			if h.Key == fbekafka.Header {
				writeFile(os.Args[5], h.Value)
			}
		}
		return
	}
	record := &kgo.Record{Topic: topic, Value: readFile(os.Args[3]),
		Headers: []kgo.RecordHeader{{Key: fbekafka.Header, Value: readFile(os.Args[4])}}}
	order, err := serde.Decode(record)
	var refused *fbekafka.RecordError
	if errors.As(err, &refused) {
		fmt.Fprintln(os.Stderr, refused.Err)
		os.Exit(1)
	}
	if err != nil {
		log.Fatal(err)
	}
	out, err := order.MarshalFBE()
	if err != nil {
		log.Fatal(err)
	}
	writeFile(os.Args[5], out)
}
