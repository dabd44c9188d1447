package fbekafka

import (
	"context"
	"encoding/binary"
	"errors"
	"reflect"
	"slices"

	"github.com/twmb/franz-go/pkg/kgo"
)

// The dead-letter topic's suffix and the headers a dead letter carries besides the record's own:
// Spring Kafka's names, as the Java module's FbeDeadLetters writes them (docs/kafka.md "Hostile
// records").
const (
	DeadLetterSuffix  = ".DLT"
	OriginalTopic     = "kafka_dlt-original-topic"
	OriginalPartition = "kafka_dlt-original-partition" // a 4-byte big-endian integer
	OriginalOffset    = "kafka_dlt-original-offset"    // an 8-byte big-endian integer
	ExceptionFqcn     = "kafka_dlt-exception-fqcn"
	ExceptionMessage  = "kafka_dlt-exception-message"
)

// DeadLetterTopic is the dead-letter topic of a topic: accounts.DLT.
func DeadLetterTopic(topic string) string {
	return topic + DeadLetterSuffix
}

// DeadLetter is the record that carries r, refused for reason, to its dead-letter topic: r's key,
// value and headers as the consumer received them, to the same partition number, with the five
// headers naming where it came from and why: the type of reason (its package path included) and
// its text; for a *RecordError (Decode's refusal), the text of the reason it carries, without the
// record's place, as the Java helper writes the message of FbeRecordException.
func DeadLetter(r *kgo.Record, reason error) *kgo.Record {
	fqcn, message := typeName(reason), reason.Error()
	var refused *RecordError
	if errors.As(reason, &refused) {
		fqcn, message = typeName(refused), refused.Err.Error()
	}
	headers := append(slices.Clone(r.Headers),
		kgo.RecordHeader{Key: OriginalTopic, Value: []byte(r.Topic)},
		kgo.RecordHeader{Key: OriginalPartition, Value: binary.BigEndian.AppendUint32(nil, uint32(r.Partition))},
		kgo.RecordHeader{Key: OriginalOffset, Value: binary.BigEndian.AppendUint64(nil, uint64(r.Offset))},
		kgo.RecordHeader{Key: ExceptionFqcn, Value: []byte(fqcn)},
		kgo.RecordHeader{Key: ExceptionMessage, Value: []byte(message)})
	return &kgo.Record{Topic: DeadLetterTopic(r.Topic), Partition: r.Partition, Key: r.Key, Value: r.Value,
		Headers: headers}
}

// PublishDeadLetter produces DeadLetter(r, reason) with client and waits until the broker has it.
// The record keeps r's partition number only when the client was made with
// kgo.RecordPartitioner(kgo.ManualPartitioner()); the dead-letter topic is created like any other
// (this does not create it).
//
//	account, err := serde.Decode(r)
//	if err != nil {
//		if err := fbekafka.PublishDeadLetter(ctx, dlt, r, err); err != nil { ... }
//		return // go on with the next record
//	}
func PublishDeadLetter(ctx context.Context, client *kgo.Client, r *kgo.Record, reason error) error {
	return client.ProduceSync(ctx, DeadLetter(r, reason)).FirstErr()
}

// typeName is the full name of an error's type, its package path included:
// github.com/fbe-toolkit/fbe/runtime/kafka/go/fbekafka.RecordError for a *RecordError.
func typeName(err error) string {
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}
