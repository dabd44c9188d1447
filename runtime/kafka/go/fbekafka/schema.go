// Package fbekafka carries FBE messages in Kafka records of franz-go (github.com/twmb/franz-go/pkg/kgo),
// with the schema gate of docs/kafka.md: the record value is exactly the message bytes of the topic's
// model, and one header, fbe, names the schema that wrote them.
//
//	schema := fbekafka.Schema{Package: proto.FBEPackage, Version: proto.FBEVersion, Fingerprint: proto.FBEFingerprint,
//		Model: fbekafka.Versioned} // the generated package's constants
//	serde, err := fbekafka.NewSerde[proto.Account](schema)
//
//	record := &kgo.Record{Topic: "accounts"}
//	err = serde.Encode(record, account)          // the value and the fbe header
//	client.Produce(ctx, record, nil)
//
//	fetches.EachRecord(func(r *kgo.Record) {
//		account, err := serde.Decode(r)          // a *RecordError: the offset and the reason
//		...
//	})
//
// A record whose header names another package, model or fingerprint (or none) is refused with an
// error naming both schemas; a value that is not a valid message, with the runtime's
// *fbe.DecodeError (field path and byte offset). Either way the consumer goes on with the next
// record: nothing is skipped without an error.
package fbekafka

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Model is the binary model of a topic's values.
type Model string

// The two models (docs/format.md 3 and 4).
const (
	Versioned Model = "versioned"
	Final     Model = "final"
)

// code is the model's byte in the fbe header: 0 versioned, 1 final.
func (m Model) code() byte {
	if m == Final {
		return 1
	}
	return 0
}

// The header (docs/kafka.md "Record headers"): its key and the layout version, its first byte.
const (
	Header = "fbe"
	Layout = 1
)

const (
	// nameOffset is where the package and version start: after the layout, the model and the
	// fingerprint's 32 bytes.
	nameOffset = 34
	// minLength is the shortest valid header: a package and a version of one byte each and the
	// space between.
	minLength = nameOffset + 3
)

// Schema is the schema a record is written with, as its fbe header carries it: the package, its
// version, the fingerprint `fbec fingerprint` prints, and the binary model.
type Schema struct {
	Package     string
	Version     string
	Fingerprint string
	Model       Model
}

// Check is nil when s can be written to a header: a package without spaces and a version, a
// fingerprint of 64 lowercase hex digits and one of the two models.
func (s Schema) Check() error {
	if s.Package == "" || strings.Contains(s.Package, " ") || s.Version == "" {
		return fmt.Errorf("a schema has a package without spaces and a version, got '%s' and '%s'", s.Package, s.Version)
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

// HeaderValue is the value of the fbe header (a new slice): the layout version 1, the model (0
// versioned, 1 final), the fingerprint's 32 bytes and "PACKAGE VERSION" in UTF-8. s is Check'ed
// first (NewSerde does).
func (s Schema) HeaderValue() []byte {
	raw, _ := hex.DecodeString(s.Fingerprint)
	value := make([]byte, 0, nameOffset+len(s.Package)+1+len(s.Version))
	value = append(value, Layout, s.Model.code())
	value = append(value, raw...)
	return append(append(append(value, s.Package...), ' '), s.Version...)
}

// SetHeaders sets r's fbe header, replacing any of that name.
func (s Schema) SetHeaders(r *kgo.Record) {
	setHeader(r, s.HeaderValue())
}

func setHeader(r *kgo.Record, value []byte) {
	kept := r.Headers[:0]
	for _, h := range r.Headers {
		if h.Key != Header {
			kept = append(kept, h)
		}
	}
	r.Headers = append(kept, kgo.RecordHeader{Key: Header, Value: value})
}

// SchemaOf is the schema r's fbe header names (the last of that name); an error when it is
// missing or malformed.
func SchemaOf(r *kgo.Record) (Schema, error) {
	return ParseHeader(headerValue(r))
}

// headerValue is the value of r's last fbe header, nil when it has none.
func headerValue(r *kgo.Record) []byte {
	for i := len(r.Headers) - 1; i >= 0; i-- {
		if r.Headers[i].Key == Header {
			return r.Headers[i].Value
		}
	}
	return nil
}

// ParseHeader is the schema an fbe header's value names; an error with the texts of docs/kafka.md
// when the value is nil or malformed.
func ParseHeader(value []byte) (Schema, error) {
	switch {
	case value == nil:
		return Schema{}, fmt.Errorf("no %s header: the record was not written by an FBE serializer", Header)
	case len(value) == 0:
		return Schema{}, fmt.Errorf("header %s is empty", Header)
	case value[0] != Layout:
		return Schema{}, fmt.Errorf("header %s has layout version %d, not %d", Header, value[0], Layout)
	case len(value) < minLength:
		return Schema{}, fmt.Errorf("header %s is too short: %d bytes, layout %d has at least %d", Header, len(value), Layout, minLength)
	case value[1] > 1:
		return Schema{}, fmt.Errorf("header %s has model %d, not 0 (versioned) or 1 (final)", Header, value[1])
	case !utf8.Valid(value[nameOffset:]):
		return Schema{}, fmt.Errorf("header %s's package and version are not UTF-8", Header)
	}
	name := string(value[nameOffset:])
	pkg, version, _ := strings.Cut(name, " ")
	if pkg == "" || version == "" {
		return Schema{}, fmt.Errorf("header %s's package and version are '%s', not 'PACKAGE VERSION'", Header, name)
	}
	s := Schema{Package: pkg, Version: version, Fingerprint: hex.EncodeToString(value[2:nameOffset]), Model: Versioned}
	if value[1] == 1 {
		s.Model = Final
	}
	return s, nil
}

// gate compares an fbe header's bytes with a reader's schema, without making a string: the path
// every record a consumer reads takes.
type gate struct {
	model    byte
	prefix   []byte // "PACKAGE "
	accepted [][32]byte
}

func (g *gate) accepts(value []byte) bool {
	name := nameOffset + len(g.prefix)
	if len(value) <= name || value[0] != Layout || value[1] != g.model ||
		!bytes.Equal(value[nameOffset:name], g.prefix) {
		return false
	}
	fingerprint := [32]byte(value[2:nameOffset])
	for _, f := range g.accepted {
		if f == fingerprint {
			return utf8.Valid(value[name:])
		}
	}
	return false
}

func rawFingerprint(f string) [32]byte {
	var raw [32]byte
	hex.Decode(raw[:], []byte(f))
	return raw
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
