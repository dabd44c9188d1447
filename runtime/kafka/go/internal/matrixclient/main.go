// Command matrixclient is the Go client of the cross-language Kafka tests (tests/kafka/test_matrix.py):
// proto.Account messages of schemas/trade.fbe through the fbekafka serde.
//
//	matrixclient encode MODEL            JSON lines in, the hex of each message's bytes out
//	matrixclient produce MODEL TOPIC     JSON lines in, a record each to partition 0, in order
//	matrixclient consume MODEL TOPIC N   the first N records of partition 0, a line each:
//	                                     "OFFSET HEX JSON", or "OFFSET refused REASON"
//
// MODEL is versioned or final; the broker is FBE_KAFKA_BOOTSTRAP; the schema is the one the
// generated package's constants name (proto.FBEPackage, FBEVersion, FBEFingerprint).
package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/fbe-toolkit/fbe/runtime/kafka/go/fbekafka"
	"github.com/fbe-toolkit/fbe/runtime/kafka/go/internal/gen/proto"
	"github.com/twmb/franz-go/pkg/kgo"
)

const timeout = 60 * time.Second

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "matrixclient:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 2 {
		return errors.New("usage: matrixclient encode|produce|consume MODEL [TOPIC [N]]")
	}
	schema := fbekafka.Schema{Package: proto.FBEPackage, Version: proto.FBEVersion, Fingerprint: proto.FBEFingerprint,
		Model: fbekafka.Model(args[1])}
	serde, err := fbekafka.NewSerde[proto.Account](schema)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	switch {
	case args[0] == "encode" && len(args) == 2:
		return readMessages(func(a *proto.Account) error {
			value, err := serde.Marshal(a)
			if err == nil {
				_, err = fmt.Fprintln(out, hex.EncodeToString(value))
			}
			return err
		})
	case args[0] == "produce" && len(args) == 3:
		return produce(serde, args[2])
	case args[0] == "consume" && len(args) == 4:
		n, err := strconv.Atoi(args[3])
		if err != nil {
			return err
		}
		return consume(serde, args[2], n, out)
	}
	return fmt.Errorf("unknown command %v", args)
}

func readMessages(each func(*proto.Account) error) error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<24)
	for in.Scan() {
		a := new(proto.Account)
		if err := a.UnmarshalJSON(in.Bytes()); err != nil {
			return err
		}
		if err := each(a); err != nil {
			return err
		}
	}
	return in.Err()
}

func client(opts ...kgo.Opt) (*kgo.Client, error) {
	return kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(os.Getenv("FBE_KAFKA_BOOTSTRAP"))}, opts...)...)
}

func produce(serde *fbekafka.Serde[proto.Account, *proto.Account], topic string) error {
	var records []*kgo.Record
	if err := readMessages(func(a *proto.Account) error {
		r := &kgo.Record{Topic: topic}
		records = append(records, r)
		return serde.Encode(r, a)
	}); err != nil {
		return err
	}
	cl, err := client(kgo.AllowAutoTopicCreation())
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return cl.ProduceSync(ctx, records...).FirstErr()
}

func consume(serde *fbekafka.Serde[proto.Account, *proto.Account], topic string, n int, out *bufio.Writer) error {
	cl, err := client(kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	read := 0
	for read < n {
		fetches := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("read %d of %d records of %s: %w", read, n, topic, err)
		}
		if errs := fetches.Errors(); len(errs) > 0 {
			return fmt.Errorf("fetch %s[%d]: %w", errs[0].Topic, errs[0].Partition, errs[0].Err)
		}
		for _, r := range fetches.Records() {
			if read == n {
				break
			}
			read++
			a, err := serde.Decode(r)
			if err != nil {
				fmt.Fprintf(out, "%d refused %v\n", r.Offset, errors.Unwrap(err))
				continue
			}
			text, err := a.MarshalJSON()
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%d %s %s\n", r.Offset, hex.EncodeToString(r.Value), text)
		}
	}
	return nil
}
