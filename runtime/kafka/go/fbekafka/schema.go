// Package fbekafka carries FBE messages in Kafka records of franz-go (github.com/twmb/franz-go/pkg/kgo),
// with the schema gate of docs/kafka.md: the record value is exactly the message bytes of the topic's
// model, and four headers name the schema that wrote them.
//
//	schema := fbekafka.Schema{Package: "proto", Version: "1.0", Fingerprint: fingerprint, Model: fbekafka.Versioned}
//	serde, err := fbekafka.NewSerde[proto.Account](schema)
//
//	record := &kgo.Record{Topic: "accounts"}
//	err = serde.Encode(record, account)          // the value and the four headers
//	client.Produce(ctx, record, nil)
//
//	fetches.EachRecord(func(r *kgo.Record) {
//		account, err := serde.Decode(r)          // a *RecordError: the offset and the reason
//		...
//	})
//
// A record whose headers name another package, model or fingerprint (or none) is refused with an
// error naming both schemas; a value that is not a valid message, with the runtime's
// *fbe.DecodeError (field path and byte offset). Either way the consumer goes on with the next
// record: nothing is skipped without an error.
package fbekafka

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Model is the binary model of a topic's values, the value of the fbe.model header.
type Model string

// The two models (docs/format.md 3 and 4).
const (
	Versioned Model = "versioned"
	Final     Model = "final"
)

// The header names (docs/kafka.md "Record headers").
const (
	PackageHeader     = "fbe.package"
	VersionHeader     = "fbe.version"
	FingerprintHeader = "fbe.fingerprint"
	ModelHeader       = "fbe.model"
)

// Schema is the schema a record is written with, as its headers carry it: the package, its
// version, the fingerprint `fbec fingerprint` prints, and the binary model.
type Schema struct {
	Package     string
	Version     string
	Fingerprint string
	Model       Model
}

// Check is nil when s can be written to headers: a package and a version, a fingerprint of 64
// lowercase hex digits and one of the two models.
func (s Schema) Check() error {
	if s.Package == "" || s.Version == "" {
		return fmt.Errorf("a schema has a package and a version, got %q and %q", s.Package, s.Version)
	}
	if !validFingerprint(s.Fingerprint) {
		return fmt.Errorf("a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got %s", s.Fingerprint)
	}
	if s.Model != Versioned && s.Model != Final {
		return fmt.Errorf("a schema's model is versioned or final, got %q", s.Model)
	}
	return nil
}

// WithModel is the same schema in the other binary model.
func (s Schema) WithModel(m Model) Schema {
	s.Model = m
	return s
}

// String is what error messages name: `proto 1.0 (versioned, fingerprint 6288...c7d2)`.
func (s Schema) String() string {
	return s.Package + " " + s.Version + " (" + string(s.Model) + ", fingerprint " + s.Fingerprint + ")"
}

// SetHeaders sets the four headers of r, replacing any of the same names.
func (s Schema) SetHeaders(r *kgo.Record) {
	kept := r.Headers[:0]
	for _, h := range r.Headers {
		switch h.Key {
		case PackageHeader, VersionHeader, FingerprintHeader, ModelHeader:
		default:
			kept = append(kept, h)
		}
	}
	r.Headers = append(kept,
		kgo.RecordHeader{Key: PackageHeader, Value: []byte(s.Package)},
		kgo.RecordHeader{Key: VersionHeader, Value: []byte(s.Version)},
		kgo.RecordHeader{Key: FingerprintHeader, Value: []byte(s.Fingerprint)},
		kgo.RecordHeader{Key: ModelHeader, Value: []byte(s.Model)})
}

// SchemaOf is the schema r's headers name (the last header of each name); an error when one is
// missing or holds no valid value.
func SchemaOf(r *kgo.Record) (Schema, error) {
	model, err := header(r, ModelHeader)
	if err != nil {
		return Schema{}, err
	}
	if Model(model) != Versioned && Model(model) != Final {
		return Schema{}, fmt.Errorf("header %s is '%s', not versioned or final", ModelHeader, model)
	}
	s := Schema{Model: Model(model)}
	if s.Package, err = header(r, PackageHeader); err != nil {
		return Schema{}, err
	}
	if s.Version, err = header(r, VersionHeader); err != nil {
		return Schema{}, err
	}
	if s.Fingerprint, err = header(r, FingerprintHeader); err != nil {
		return Schema{}, err
	}
	if !validFingerprint(s.Fingerprint) {
		return Schema{}, fmt.Errorf("header %s: a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got %s",
			FingerprintHeader, s.Fingerprint)
	}
	return s, nil
}

func header(r *kgo.Record, key string) (string, error) {
	for i := len(r.Headers) - 1; i >= 0; i-- {
		if r.Headers[i].Key == key && r.Headers[i].Value != nil {
			return string(r.Headers[i].Value), nil
		}
		if r.Headers[i].Key == key {
			break
		}
	}
	return "", fmt.Errorf("no %s header: the record was not written by an FBE serializer", key)
}

func validFingerprint(f string) bool {
	if len(f) != 64 {
		return false
	}
	for i := range len(f) {
		if c := f[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
