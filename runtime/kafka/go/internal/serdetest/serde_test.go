package fbekafka_test

// The serde through a real broker, the one FBE_KAFKA_BOOTSTRAP names (make kafka-go runs the tests
// under tests/kafka/broker.py), and the schema of schemas/trade.fbe generated into internal/gen,
// whose constants name it (FBE_KAFKA_FINGERPRINT holds what fbec fingerprint prints for it).
//
// The tests live in a package of their own, not beside fbekafka: `go mod tidy` in a user's module
// that requires fbekafka resolves the imports of fbekafka's tests too, and internal/gen is generated
// here, not in the module a user gets (tests/package/test_consumers.py runs that tidy).

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
	"github.com/fbe-toolkit/fbe/runtime/kafka/go/fbekafka"
	evolved "github.com/fbe-toolkit/fbe/runtime/kafka/go/internal/evolved/proto"
	"github.com/fbe-toolkit/fbe/runtime/kafka/go/internal/gen/proto"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const wait = 60 * time.Second

var topics atomic.Int32

func versioned(t *testing.T) fbekafka.Schema {
	t.Helper()
	return fbekafka.Schema{Package: proto.FBEPackage, Version: proto.FBEVersion, Fingerprint: proto.FBEFingerprint,
		Model: fbekafka.Versioned}
}

func TestTheGeneratedPackageNamesTheSchemaFbecFingerprintPrints(t *testing.T) {
	fingerprint := os.Getenv("FBE_KAFKA_FINGERPRINT")
	if fingerprint == "" {
		t.Fatal("no FBE_KAFKA_FINGERPRINT: make kafka-go passes fbec fingerprint's of schemas/trade.fbe")
	}
	got := []string{proto.FBEPackage, proto.FBEVersion, proto.FBEFingerprint}
	if want := []string{"proto", "1.0", fingerprint}; !slices.Equal(got, want) {
		t.Fatalf("the generated package names %v, fbec fingerprint prints %v", got, want)
	}
}

func serde(t *testing.T, schema fbekafka.Schema) *fbekafka.Serde[proto.Account, *proto.Account] {
	t.Helper()
	s, err := fbekafka.NewSerde[proto.Account](schema)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func account(id int32) *proto.Account {
	a := proto.NewAccount()
	a.Id = id
	a.Name = fmt.Sprintf("Account %d \u00e9\u20ac", id)
	a.Wallet.Currency = "USD"
	a.Wallet.Amount = 1000.5 + float64(id)
	a.Asset = &proto.Balance{Currency: "EUR", Amount: 10}
	for i := range int32(3) {
		side := proto.OrderSideBuy
		if i%2 == 1 {
			side = proto.OrderSideSell
		}
		a.Orders = append(a.Orders, proto.Order{Id: id*10 + i, Symbol: "EURUSD", Side: side,
			Type: proto.OrderTypeLimit, Price: 1.23456 + float64(i), Volume: 1000 * float64(i)})
	}
	return a
}

func bootstrap(t *testing.T) string {
	t.Helper()
	b := os.Getenv("FBE_KAFKA_BOOTSTRAP")
	if b == "" {
		t.Fatal("no FBE_KAFKA_BOOTSTRAP: run the tests under tests/kafka/broker.py run -- (make kafka-go does)")
	}
	return b
}

func client(t *testing.T, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap(t))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// topic creates a topic of one partition, named after the language.
func topic(t *testing.T) string {
	t.Helper()
	return createTopic(t, fmt.Sprintf("go-test-%d-%d", topics.Add(1), time.Now().UnixNano()))
}

func createTopic(t *testing.T, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := kadm.NewClient(client(t)).CreateTopic(ctx, 1, 1, nil, name); err != nil {
		t.Fatal(err)
	}
	return name
}

func produce(t *testing.T, records ...*kgo.Record) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := client(t).ProduceSync(ctx, records...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

func encoded[T any, P fbekafka.Message[T]](t *testing.T, s *fbekafka.Serde[T, P], topic string, accounts ...*T) []*kgo.Record {
	t.Helper()
	var records []*kgo.Record
	for _, a := range accounts {
		r := &kgo.Record{Topic: topic, Key: []byte("k")}
		if err := s.Encode(r, a); err != nil {
			t.Fatal(err)
		}
		records = append(records, r)
	}
	return records
}

// consume reads the topic from its start until want records are decoded; each refused record
// adds its error to refused, and the loop goes on with the next one.
func consume[T any, P fbekafka.Message[T]](t *testing.T, s *fbekafka.Serde[T, P], topic string, want int) (
	got []*T, records []*kgo.Record, refused []*fbekafka.RecordError) {
	t.Helper()
	cl := client(t, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for len(got) < want && ctx.Err() == nil {
		fetches := cl.PollFetches(ctx)
		for _, e := range fetches.Errors() {
			if !errors.Is(e.Err, context.DeadlineExceeded) {
				t.Fatalf("fetch %s[%d]: %v", e.Topic, e.Partition, e.Err)
			}
		}
		fetches.EachRecord(func(r *kgo.Record) {
			a, err := s.Decode(r)
			var re *fbekafka.RecordError
			switch {
			case errors.As(err, &re):
				refused = append(refused, re)
			case err != nil:
				t.Fatalf("Decode's error is not a *RecordError: %v", err)
			default:
				got = append(got, a)
				records = append(records, r)
			}
		})
	}
	return got, records, refused
}

func header(r *kgo.Record, key string) string {
	for _, h := range r.Headers {
		if h.Key == key {
			return string(h.Value)
		}
	}
	return "<none>"
}

func TestRoundTripBothModels(t *testing.T) {
	for _, model := range []fbekafka.Model{fbekafka.Versioned, fbekafka.Final} {
		t.Run(string(model), func(t *testing.T) {
			s := serde(t, versioned(t).WithModel(model))
			name := topic(t)
			sent := []*proto.Account{account(1), account(2), account(3)}
			produce(t, encoded(t, s, name, sent...)...)
			got, records, refused := consume(t, s, name, len(sent))
			if len(refused) != 0 {
				t.Fatalf("refused: %v", refused)
			}
			if len(got) != len(sent) {
				t.Fatalf("read %d of %d records", len(got), len(sent))
			}
			for i, r := range records {
				if got[i].String() != sent[i].String() {
					t.Errorf("record %d: %s, sent %s", i, got[i], sent[i])
				}
				want, err := s.Marshal(sent[i])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(r.Value, want) {
					t.Errorf("record %d: the value is not exactly the message bytes", i)
				}
				if len(r.Headers) != 1 || r.Headers[0].Key != fbekafka.Header ||
					!slices.Equal(r.Headers[0].Value, s.Schema().HeaderValue()) {
					t.Errorf("record %d: headers %v, want the one fbe header of %s", i, r.Headers, s.Schema())
				}
			}
		})
	}
}

func TestAForeignSchemaIsRefusedNamingBothAndTheConsumerGoesOn(t *testing.T) {
	own := versioned(t)
	name := topic(t)
	foreign := fbekafka.Schema{Package: "proto", Version: "2.0", Fingerprint: strings.Repeat("ab", 32), Model: fbekafka.Versioned}
	noHeaders, err := account(3).MarshalFBE()
	if err != nil {
		t.Fatal(err)
	}
	records := slices.Concat(
		encoded(t, serde(t, foreign), name, account(1)),
		encoded(t, serde(t, own.WithModel(fbekafka.Final)), name, account(2)),
		[]*kgo.Record{{Topic: name, Value: noHeaders}},
		encoded(t, serde(t, own), name, account(4)))
	produce(t, records...)
	got, read, refused := consume(t, serde(t, own), name, 1)
	if len(got) != 1 || read[0].Offset != 3 || got[0].String() != account(4).String() {
		t.Fatalf("read %v", got)
	}
	if len(refused) != 3 {
		t.Fatalf("refused %d records, want 3: %v", len(refused), refused)
	}
	for i, e := range refused {
		if e.Offset != int64(i) || e.Topic != name || e.Partition != 0 {
			t.Errorf("refused record %d at %s[%d]@%d", i, e.Topic, e.Partition, e.Offset)
		}
	}
	var schemaErr *fbekafka.SchemaError
	if !errors.As(refused[0], &schemaErr) || schemaErr.Writer != foreign || schemaErr.Reader != own {
		t.Errorf("refused[0] is not the SchemaError of both schemas: %v", refused[0])
	}
	for i, want := range []string{
		"a record written with proto 2.0 (versioned, fingerprint " + foreign.Fingerprint +
			") cannot be read by proto 1.0 (versioned, fingerprint " + own.Fingerprint + "): another schema",
		"a record written with proto 1.0 (final, fingerprint " + own.Fingerprint + ") cannot be read by " +
			own.String() + ": another binary model",
		"a record this consumer of " + own.String() + " cannot check: no fbe header",
	} {
		if msg := refused[i].Err.Error(); !strings.HasPrefix(msg, want) {
			t.Errorf("refused[%d]: %s\nwant it to start with %s", i, msg, want)
		}
	}
	if msg := refused[0].Error(); !strings.HasPrefix(msg, "record "+name+"[0] at offset 0: a record written with proto 2.0") {
		t.Errorf("refused[0].Error() does not name the record: %s", msg)
	}
}

func TestAnInvalidValueIsRefusedWithItsOffsetAndReasonAndTheConsumerGoesOn(t *testing.T) {
	own := versioned(t)
	s := serde(t, own)
	name := topic(t)
	good, err := account(1).MarshalFBE()
	if err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(good)
	bad[4] = 0x7f // the root's type id
	var records []*kgo.Record
	for _, value := range [][]byte{good[:len(good)-5], bad, {}} {
		r := &kgo.Record{Topic: name, Value: value}
		own.SetHeaders(r)
		records = append(records, r)
	}
	produce(t, append(records, encoded(t, s, name, account(2))...)...)
	got, read, refused := consume(t, s, name, 1)
	if len(got) != 1 || read[0].Offset != 3 || got[0].String() != account(2).String() {
		t.Fatalf("read %v", got)
	}
	if len(refused) != 3 {
		t.Fatalf("refused %d records, want 3: %v", len(refused), refused)
	}
	for i, e := range refused {
		msg := e.Err.Error()
		var decodeErr *fbe.DecodeError
		if e.Offset != int64(i) || !strings.HasPrefix(msg, "an invalid "+own.String()+" value of ") ||
			!strings.Contains(msg, "offset") || !errors.As(e, &decodeErr) {
			t.Errorf("refused[%d] at offset %d: %s", i, e.Offset, msg)
		}
	}
	if refused[0].Err.Error() == refused[1].Err.Error() {
		t.Errorf("a truncated value and a wrong type id give one reason: %s", refused[0].Err)
	}
}

// The gate without a broker: the header written, replaced and read back, and what refuses a schema.
func TestHeaders(t *testing.T) {
	own := versioned(t)
	r := &kgo.Record{Headers: []kgo.RecordHeader{{Key: "trace", Value: []byte("1")}, {Key: fbekafka.Header, Value: []byte("x")}}}
	own.SetHeaders(r)
	if len(r.Headers) != 2 || r.Headers[0].Key != "trace" || len(r.Headers[1].Value) != 43 {
		t.Fatalf("headers %v", r.Headers)
	}
	if back, err := fbekafka.SchemaOf(r); err != nil || back != own {
		t.Fatalf("SchemaOf: %v, %v", back, err)
	}
	for _, bad := range []fbekafka.Schema{
		own.WithModel("flat"),
		{Package: "proto", Version: "1.0", Fingerprint: strings.ToUpper(own.Fingerprint), Model: fbekafka.Final},
		{Package: "", Version: "1.0", Fingerprint: own.Fingerprint, Model: fbekafka.Final},
		{Package: "pro to", Version: "1.0", Fingerprint: own.Fingerprint, Model: fbekafka.Final},
		{Package: "proto", Version: "", Fingerprint: own.Fingerprint, Model: fbekafka.Final},
	} {
		if _, err := fbekafka.NewSerde[proto.Account](bad); err == nil {
			t.Errorf("NewSerde(%v) accepted", bad)
		}
	}
	s := serde(t, own)
	if a, err := s.Decode(&kgo.Record{}); a != nil || err != nil {
		t.Errorf("a tombstone: %v, %v", a, err)
	}
	tomb := &kgo.Record{}
	if err := s.Encode(tomb, nil); err != nil || tomb.Value != nil || len(tomb.Headers) != 0 {
		t.Errorf("Encode(nil): %v, %v", tomb, err)
	}
}

// The accepted fingerprints without a broker: a record of another fingerprint is read only by a
// serde that accepts it, and never in another model.
func TestAcceptingReadsTheGivenWriterFingerprints(t *testing.T) {
	own := versioned(t)
	other := fbekafka.Schema{Package: "proto", Version: "1.1", Fingerprint: strings.Repeat("ab", 32), Model: fbekafka.Versioned}
	r := &kgo.Record{Offset: 7}
	if err := serde(t, other).Encode(r, account(1)); err != nil {
		t.Fatal(err)
	}
	var refused *fbekafka.SchemaError
	if _, err := serde(t, own).Decode(r); !errors.As(err, &refused) || refused.Writer != other {
		t.Fatalf("a serde without the fingerprint: %v", err)
	}
	accepting, err := serde(t, own).Accepting(other.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if got := accepting.Accepted(); !slices.Equal(got, []string{own.Fingerprint, other.Fingerprint}) {
		t.Errorf("Accepted: %v", got)
	}
	if a, err := accepting.Decode(r); err != nil || a.String() != account(1).String() {
		t.Errorf("a serde accepting the fingerprint: %v, %v", a, err)
	}
	final := &kgo.Record{}
	if err := serde(t, other.WithModel(fbekafka.Final)).Encode(final, account(2)); err != nil {
		t.Fatal(err)
	}
	if _, err := accepting.Decode(final); err == nil || !strings.HasSuffix(err.Error(), "another binary model") {
		t.Errorf("another model: %v", err)
	}
	if _, err := accepting.Accepting("AB"); err == nil {
		t.Error("Accepting took an invalid fingerprint")
	}
}

// readAndCommit is a consumer of the group that reads count records, one a poll, commits after
// the last and leaves the group; the offsets and values it read.
func readAndCommit(t *testing.T, s *fbekafka.Serde[proto.Account, *proto.Account], topic, group string, count int) (
	offsets []int64, values []string) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bootstrap(t)), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.DisableAutoCommit(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for len(offsets) < count && ctx.Err() == nil {
		fetches := cl.PollRecords(ctx, 1)
		for _, e := range fetches.Errors() {
			if !errors.Is(e.Err, context.DeadlineExceeded) {
				t.Fatalf("fetch %s[%d]: %v", e.Topic, e.Partition, e.Err)
			}
		}
		for _, r := range fetches.Records() {
			a, err := s.Decode(r)
			if err != nil {
				t.Fatal(err)
			}
			offsets = append(offsets, r.Offset)
			values = append(values, a.String())
			if len(offsets) == count {
				if err := cl.CommitRecords(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if len(offsets) != count {
		t.Fatalf("read %d of %d records before the deadline", len(offsets), count)
	}
	return offsets, values
}

// A consumer of a group restarted after committing three of six records reads exactly the other
// three: what was committed is not read again (franz-go's at-least-once delivery).
func TestARestartedConsumerResumesAtItsCommittedOffset(t *testing.T) {
	s := serde(t, versioned(t))
	name := topic(t)
	var sent []*proto.Account
	var want []string
	for id := range int32(6) {
		sent = append(sent, account(id+1))
		want = append(want, account(id+1).String())
	}
	produce(t, encoded(t, s, name, sent...)...)
	group := name + "-group"
	first, values := readAndCommit(t, s, name, group, 3)
	second, more := readAndCommit(t, s, name, group, 3)
	if !slices.Equal(first, []int64{0, 1, 2}) || !slices.Equal(second, []int64{3, 4, 5}) {
		t.Fatalf("offsets read %v then %v, want [0 1 2] then [3 4 5]", first, second)
	}
	if !slices.Equal(append(values, more...), want) {
		t.Errorf("values read are not the six sent, in order")
	}
}

// The size limit without a broker: Encode refuses to write and Decode to read (a *RecordError
// with the record's place) a value larger than the limit, with its size and the limit, in the
// Java serde's words; the gate still comes first, and a value at the limit passes.
func TestASizeLimitRefusesLargerValuesBothWays(t *testing.T) {
	own := versioned(t)
	big := account(7)
	for range 50 {
		big.Orders = append(big.Orders, big.Orders[0])
	}
	data, err := serde(t, own).Marshal(big)
	if err != nil {
		t.Fatal(err)
	}
	if serde(t, own).MaxValueBytes() != fbekafka.NoLimit {
		t.Errorf("a new serde's limit is %d", serde(t, own).MaxValueBytes())
	}
	if _, err := serde(t, own).WithMaxValueBytes(-1); err == nil || err.Error() != "fbe.max.value.bytes must not be negative, got -1" {
		t.Errorf("WithMaxValueBytes(-1): %v", err)
	}
	limit := len(data) - 1
	limited, err := serde(t, own).WithMaxValueBytes(limit)
	if err != nil {
		t.Fatal(err)
	}
	if accepting, err := limited.Accepting(strings.Repeat("ab", 32)); err != nil || accepting.MaxValueBytes() != limit {
		t.Errorf("Accepting drops the limit: %v", err)
	}
	want := fmt.Sprintf("a %s value of %d bytes is larger than the limit of %d bytes (fbe.max.value.bytes): not ", own, len(data), limit)

	r := &kgo.Record{Topic: "go-size", Partition: 2, Offset: 9}
	if err := limited.Encode(r, big); err == nil || err.Error() != want+"written" {
		t.Errorf("Encode of %d bytes: %v", len(data), err)
	}
	if r.Value != nil || len(r.Headers) != 0 {
		t.Errorf("a refused Encode set the record: %d bytes, %d headers", len(r.Value), len(r.Headers))
	}

	r.Value = data
	own.SetHeaders(r)
	_, err = limited.Decode(r)
	var refused *fbekafka.RecordError
	if !errors.As(err, &refused) || refused.Topic != "go-size" || refused.Partition != 2 || refused.Offset != 9 ||
		refused.Err.Error() != want+"read" || err.Error() != "record go-size[2] at offset 9: "+want+"read" {
		t.Errorf("Decode of %d bytes: %v", len(data), err)
	}
	if _, err := limited.Unmarshal(data); err == nil || err.Error() != want+"read" {
		t.Errorf("Unmarshal of %d bytes: %v", len(data), err)
	}

	foreign := &kgo.Record{Value: data}
	fbekafka.Schema{Package: "proto", Version: "2.0", Fingerprint: strings.Repeat("ab", 32), Model: fbekafka.Versioned}.SetHeaders(foreign)
	var schemaErr *fbekafka.SchemaError
	if _, err := limited.Decode(foreign); !errors.As(err, &schemaErr) {
		t.Errorf("a foreign record over the limit: %v, not the gate's refusal", err)
	}

	atLimit, _ := serde(t, own).WithMaxValueBytes(len(data))
	got := &kgo.Record{}
	if err := atLimit.Encode(got, big); err != nil {
		t.Fatal(err)
	}
	if back, err := atLimit.Decode(got); err != nil || len(back.Orders) != len(big.Orders) {
		t.Errorf("a value at the limit: %v", err)
	}
}

// acceptedBy is the list `fbec topic accept` printed for a schema of the evolution case's topic
// record (make kafka-go passes FBE_KAFKA_ACCEPT for schemas/trade.fbe, FBE_KAFKA_ACCEPT_EVOLVED for
// the same with Account.note appended, version 1.1).
func acceptedBy(t *testing.T, env string) []string {
	t.Helper()
	fingerprints := strings.Split(os.Getenv(env), ",")
	if len(fingerprints) != 2 {
		t.Fatalf("%s is %q, want two fingerprints (make kafka-go passes fbec topic accept's list)", env, os.Getenv(env))
	}
	return fingerprints
}

// evolvedAccount is account(id) in the evolved schema, with its appended field set.
func evolvedAccount(t *testing.T, id int32, note string) *evolved.Account {
	t.Helper()
	data, err := account(id).MarshalFBE()
	if err != nil {
		t.Fatal(err)
	}
	a := new(evolved.Account)
	if err := a.ReadFBE(data, nil); err != nil {
		t.Fatal(err)
	}
	a.Note = note
	return a
}

// The evolution case through the broker, both ways: a producer on the newer schema (a field
// appended) and one on the older write a topic; a consumer on the older schema refuses the newer
// writer's record naming both schemas until it is given its topic record's accepted fingerprints,
// then reads it (the field it does not know skipped); a consumer on the newer schema reads both,
// the older writer's record with the field at its default.
func TestAConsumerReadsTheNewerAndOlderWritersItsTopicRecordAccepts(t *testing.T) {
	own := versioned(t)
	older := acceptedBy(t, "FBE_KAFKA_ACCEPT")
	newer := acceptedBy(t, "FBE_KAFKA_ACCEPT_EVOLVED")
	if older[0] != own.Fingerprint || !slices.Equal(newer, []string{older[1], older[0]}) {
		t.Fatalf("fbec topic accept: %v for trade.fbe, %v for the evolved schema", older, newer)
	}
	evolvedSchema := fbekafka.Schema{Package: evolved.FBEPackage, Version: evolved.FBEVersion,
		Fingerprint: evolved.FBEFingerprint, Model: fbekafka.Versioned}
	if evolvedSchema.Version != "1.1" || evolvedSchema.Fingerprint != newer[0] {
		t.Fatalf("the evolved package names %v, fbec topic accept %v", evolvedSchema, newer)
	}
	newerSerde, err := fbekafka.NewSerde[evolved.Account](evolvedSchema)
	if err != nil {
		t.Fatal(err)
	}
	name := topic(t)
	produce(t, slices.Concat(encoded(t, newerSerde, name, evolvedAccount(t, 1, "from the newer producer")),
		encoded(t, serde(t, own), name, account(2)))...)

	got, read, refused := consume(t, serde(t, own), name, 1)
	if len(refused) != 1 || refused[0].Offset != 0 || len(got) != 1 || read[0].Offset != 1 {
		t.Fatalf("the older consumer without the accepted fingerprints: refused %v, read %d", refused, len(got))
	}
	want := "a record written with " + evolvedSchema.String() + " cannot be read by " + own.String() + ": another schema"
	if msg := refused[0].Err.Error(); !strings.HasPrefix(msg, want) {
		t.Errorf("refused: %s\nwant it to start with %s", msg, want)
	}

	olderSerde, err := serde(t, own).Accepting(older[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	got, _, refused = consume(t, olderSerde, name, 2)
	if len(refused) != 0 || len(got) != 2 || got[0].String() != account(1).String() || got[1].String() != account(2).String() {
		t.Fatalf("the older consumer with the accepted fingerprints: refused %v, read %v", refused, got)
	}

	newerReader, err := newerSerde.Accepting(newer[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	back, _, refused := consume(t, newerReader, name, 2)
	if len(refused) != 0 || len(back) != 2 || back[0].Note != "from the newer producer" || back[1].Note != "evolved" {
		t.Fatalf("the newer consumer: refused %v, read %v", refused, back)
	}
	if back[1].Id != 2 || back[1].Name != account(2).Name || len(back[1].Orders) != 3 {
		t.Errorf("the older writer's record read by the newer consumer: %v", back[1])
	}
}

// bigAccount is account(9) with orders more orders: about 40 bytes each.
func bigAccount(orders int) *proto.Account {
	a := account(9)
	for range orders {
		a.Orders = append(a.Orders, a.Orders[0])
	}
	return a
}

// The size limit and the dead letters through the broker: a serde with a limit refuses to write a
// larger value; one without writes it; a consumer with the limit refuses that record (and a
// truncated one) with its place and the reason, publishes each to TOPIC.DLT with PublishDeadLetter
// and reads the next record; the dead letters hold the raw values, the original headers, Spring's
// headers of place and reason.
func TestRefusedRecordsGoToTheDeadLetterTopicWithTheirPlaceAndReasonAndTheConsumerGoesOn(t *testing.T) {
	own := versioned(t)
	const limit = 1024
	limited, err := serde(t, own).WithMaxValueBytes(limit)
	if err != nil {
		t.Fatal(err)
	}
	big, err := serde(t, own).Marshal(bigAccount(50))
	if err != nil {
		t.Fatal(err)
	}
	tooLarge := fmt.Sprintf("a %s value of %d bytes is larger than the limit of %d bytes (fbe.max.value.bytes): not ", own, len(big), limit)
	name := topic(t)
	if err := limited.Encode(&kgo.Record{Topic: name}, bigAccount(50)); err == nil || err.Error() != tooLarge+"written" {
		t.Fatalf("Encode with the limit: %v", err)
	}
	good, err := account(3).MarshalFBE()
	if err != nil {
		t.Fatal(err)
	}
	truncated := &kgo.Record{Topic: name, Key: []byte("k"), Value: good[:20]}
	own.SetHeaders(truncated)
	produce(t, slices.Concat(encoded(t, limited, name, account(1)), encoded(t, serde(t, own), name, bigAccount(50)),
		[]*kgo.Record{truncated}, encoded(t, limited, name, account(2)))...)
	dlt := createTopic(t, fbekafka.DeadLetterTopic(name))

	letters := client(t, kgo.RecordPartitioner(kgo.ManualPartitioner()))
	cl := client(t, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{name: {0: kgo.NewOffset().AtStart()}}))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var got []*proto.Account
	var refused []*fbekafka.RecordError
	for len(got) < 2 && ctx.Err() == nil {
		cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
			a, err := limited.Decode(r)
			var re *fbekafka.RecordError
			if errors.As(err, &re) {
				refused = append(refused, re)
				if err := fbekafka.PublishDeadLetter(ctx, letters, r, err); err != nil {
					t.Fatal(err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, a)
		})
	}
	if len(got) != 2 || got[0].String() != account(1).String() || got[1].String() != account(2).String() {
		t.Fatalf("read %v", got)
	}
	for i, e := range refused {
		if e.Topic != name || e.Partition != 0 || e.Offset != int64(i+1) {
			t.Errorf("refused record %d at %s[%d]@%d", i, e.Topic, e.Partition, e.Offset)
		}
	}
	if len(refused) != 2 {
		t.Fatalf("refused %v", refused)
	}
	if refused[0].Err.Error() != tooLarge+"read" || !strings.HasPrefix(refused[1].Err.Error(), "an invalid "+own.String()) {
		t.Errorf("refused for %q and %q", refused[0].Err, refused[1].Err)
	}

	dead := fetch(t, dlt, 2)
	for i, r := range dead {
		if !slices.Equal(r.Value, [][]byte{big, truncated.Value}[i]) || r.Partition != 0 || string(r.Key) != "k" {
			t.Errorf("dead letter %d: %d bytes, partition %d, key %q", i, len(r.Value), r.Partition, r.Key)
		}
		if writer, err := fbekafka.SchemaOf(r); err != nil || writer != own {
			t.Errorf("dead letter %d: the original headers: %v, %v", i, writer, err)
		}
		for key, want := range map[string]string{
			fbekafka.OriginalTopic:     name,
			fbekafka.OriginalPartition: "\x00\x00\x00\x00",
			fbekafka.OriginalOffset:    string([]byte{0, 0, 0, 0, 0, 0, 0, byte(i + 1)}),
			fbekafka.ExceptionFqcn:     "github.com/fbe-toolkit/fbe/runtime/kafka/go/fbekafka.RecordError",
			fbekafka.ExceptionMessage:  refused[i].Err.Error(),
		} {
			if h := header(r, key); h != want {
				t.Errorf("dead letter %d: header %s is %q, want %q", i, key, h, want)
			}
		}
	}
}

// fetch reads the first want records of a topic as they are.
func fetch(t *testing.T, topic string, want int) []*kgo.Record {
	t.Helper()
	cl := client(t, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var records []*kgo.Record
	for len(records) < want && ctx.Err() == nil {
		records = append(records, cl.PollFetches(ctx).Records()...)
	}
	if len(records) != want {
		t.Fatalf("%s: %d records, want %d", topic, len(records), want)
	}
	return records
}

// headerCases are the lines of tests/kafka/header_cases.txt of a kind, split at their tabs: the
// header every serializer writes and what every deserializer says of a malformed one (the Java,
// Python and JavaScript tests read the same file).
func headerCases(t *testing.T, kind string) [][]string {
	t.Helper()
	data, err := os.ReadFile("../../../../../tests/kafka/header_cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]string
	for line := range strings.Lines(string(data)) {
		if fields := strings.Split(strings.TrimSuffix(line, "\n"), "\t"); fields[0] == kind {
			cases = append(cases, fields)
		}
	}
	return cases
}

func TestTheHeaderIsTheBytesOfTheLayout(t *testing.T) {
	cases := headerCases(t, "write")
	if len(cases) != 3 {
		t.Fatalf("%d write cases", len(cases))
	}
	for _, c := range cases {
		f := strings.Split(c[1], " ")
		s := fbekafka.Schema{Package: f[0], Version: f[1], Model: fbekafka.Model(f[2]), Fingerprint: f[3]}
		if got := hex.EncodeToString(s.HeaderValue()); got != c[2] {
			t.Errorf("%s: header %s, want %s", c[1], got, c[2])
		}
		if back, err := fbekafka.ParseHeader(s.HeaderValue()); err != nil || back != s {
			t.Errorf("%s: read back as %v, %v", c[1], back, err)
		}
	}
}

func TestAMalformedHeaderIsRefusedWithTheTextOfEveryLanguage(t *testing.T) {
	own := fbekafka.Schema{Package: "proto", Version: "1.0", Fingerprint: strings.Repeat("cd", 32), Model: fbekafka.Versioned}
	s, err := serde(t, own).Accepting(strings.Repeat("ab", 32))
	if err != nil {
		t.Fatal(err)
	}
	value, err := proto.NewAccount().MarshalFBE()
	if err != nil {
		t.Fatal(err)
	}
	cases := headerCases(t, "refuse")
	if len(cases) != 16 {
		t.Fatalf("%d refuse cases", len(cases))
	}
	for _, c := range append(cases, []string{"refuse", "-", "no fbe header: the record was not written by an FBE serializer"}) {
		r := &kgo.Record{Value: value, Headers: []kgo.RecordHeader{{Key: "trace", Value: []byte{1}}}}
		if c[1] != "-" {
			header, err := hex.DecodeString(c[1])
			if err != nil {
				t.Fatal(err)
			}
			r.Headers = append(r.Headers, kgo.RecordHeader{Key: fbekafka.Header, Value: append([]byte{}, header...)})
		}
		var refused *fbekafka.RecordError
		if _, err := s.Decode(r); !errors.As(err, &refused) ||
			refused.Err.Error() != "a record this consumer of "+own.String()+" cannot check: "+c[2] {
			t.Errorf("header %s: %v\nwant %s", c[1], err, c[2])
		}
	}
}

// The gate compares bytes: an accepted writer of another version and non-ASCII text is read,
// another model or package (one a prefix of the other's) is refused naming both.
func TestTheGateReadsItsAcceptedWritersAndRefusesTheOthersNamingBoth(t *testing.T) {
	own := versioned(t)
	foreign := strings.Repeat("ab", 32)
	s, err := serde(t, own).Accepting(foreign)
	if err != nil {
		t.Fatal(err)
	}
	value, _ := account(1).MarshalFBE()
	newer := fbekafka.Schema{Package: "proto", Version: "1.1 \u00e9", Fingerprint: foreign, Model: fbekafka.Versioned}
	r := &kgo.Record{Value: value}
	newer.SetHeaders(r)
	if a, err := s.Decode(r); err != nil || a.String() != account(1).String() {
		t.Errorf("an accepted writer: %v, %v", a, err)
	}
	for _, other := range []fbekafka.Schema{newer.WithModel(fbekafka.Final),
		{Package: "protos", Version: "1.0", Fingerprint: foreign, Model: fbekafka.Versioned},
		{Package: "prot", Version: "1.0", Fingerprint: foreign, Model: fbekafka.Versioned}} {
		other.SetHeaders(r)
		var refused *fbekafka.SchemaError
		if _, err := s.Decode(r); !errors.As(err, &refused) || refused.Writer != other || refused.Reader != own {
			t.Errorf("%s: %v", other, err)
		}
	}
}
