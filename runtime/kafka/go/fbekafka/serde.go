package fbekafka

import (
	"fmt"
	"math"
	"slices"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Message is what fbec --go generates for a struct T, through its pointer: the versioned and the
// final root (docs/go.md).
type Message[T any] interface {
	*T
	MarshalFBE() ([]byte, error)
	ReadFBE(data []byte, lim *fbe.Limits) error
	MarshalFinal() ([]byte, error)
	ReadFinal(data []byte, lim *fbe.Limits) error
}

// Serde writes and reads values of one generated type T in records of one schema and model.
// It holds no state that changes: one Serde serves any number of goroutines.
type Serde[T any, P Message[T]] struct {
	schema Schema
	// accepted: the writer fingerprints besides the schema's own that Decode reads (Accepting)
	accepted []string
	// Limits bound what Decode reads (nil: fbe.DefaultLimits, docs/limits.md).
	Limits *fbe.Limits
	// maxValueBytes: the largest value Encode writes and Decode reads (WithMaxValueBytes)
	maxValueBytes int
	// header: the fbe header Encode writes (one slice for every record: franz-go only reads it)
	header []byte
	// gate: what Decode compares a record's fbe header with
	gate gate
}

// NoLimit is MaxValueBytes of a serde without a size limit of its own: franz-go's and the
// broker's (ProducerBatchMaxBytes, message.max.bytes) apply.
const NoLimit = math.MaxInt

// MaxValueBytesConfig names the size limit in its refusals, as the Java serde's config key.
const MaxValueBytesConfig = "fbe.max.value.bytes"

// NewSerde is the serde of T (a generated struct: NewSerde[proto.Account](schema)) for the
// schema's package, version, fingerprint and model.
func NewSerde[T any, P Message[T]](schema Schema) (*Serde[T, P], error) {
	if err := schema.Check(); err != nil {
		return nil, err
	}
	s := &Serde[T, P]{schema: schema, maxValueBytes: NoLimit, header: schema.HeaderValue()}
	s.gate = gate{model: schema.Model.code(), prefix: []byte(schema.Package + " "),
		accepted: [][32]byte{rawFingerprint(schema.Fingerprint)}}
	return s, nil
}

// WithMaxValueBytes is a serde like s with a limit on a value's size: Encode and Marshal refuse
// to write, Decode and Unmarshal to read (before decoding it) a value of more than bytes bytes,
// naming the size and the limit.
func (s *Serde[T, P]) WithMaxValueBytes(bytes int) (*Serde[T, P], error) {
	if bytes < 0 {
		return nil, fmt.Errorf("%s must not be negative, got %d", MaxValueBytesConfig, bytes)
	}
	c := *s
	c.maxValueBytes = bytes
	return &c, nil
}

// MaxValueBytes is the largest value the serde writes and reads (NoLimit: no limit of its own).
func (s *Serde[T, P]) MaxValueBytes() int {
	return s.maxValueBytes
}

func (s *Serde[T, P]) checkSize(size int, what string) error {
	if size > s.maxValueBytes {
		return fmt.Errorf("a %s value of %d bytes is larger than the limit of %d bytes (%s): not %s",
			s.schema, size, s.maxValueBytes, MaxValueBytesConfig, what)
	}
	return nil
}

// Accepting is a serde like s whose Decode also reads the records of these writer fingerprints
// (of the same package and model): the ones `fbec topic accept TOPIC.json SCHEMA` prints
// (docs/kafka.md "Compatible writers").
func (s *Serde[T, P]) Accepting(fingerprints ...string) (*Serde[T, P], error) {
	for _, f := range fingerprints {
		if !validFingerprint(f) {
			return nil, fmt.Errorf("a schema fingerprint is 64 lowercase hex digits (fbec fingerprint), got %s", f)
		}
	}
	c := *s
	c.accepted = append(slices.Clone(s.accepted), fingerprints...)
	c.gate.accepted = slices.Clone(s.gate.accepted)
	for _, f := range fingerprints {
		c.gate.accepted = append(c.gate.accepted, rawFingerprint(f))
	}
	return &c, nil
}

// Accepted is the writer fingerprints Decode reads: the schema's own and the accepted ones.
func (s *Serde[T, P]) Accepted() []string {
	return append([]string{s.schema.Fingerprint}, s.accepted...)
}

// Schema is the schema the serde writes and reads.
func (s *Serde[T, P]) Schema() Schema {
	return s.schema
}

// Encode sets r's value to v's message bytes in the serde's model and its fbe header to the
// serde's schema. A nil v is a tombstone: a nil value and no headers set.
func (s *Serde[T, P]) Encode(r *kgo.Record, v *T) error {
	if v == nil {
		r.Value = nil
		return nil
	}
	value, err := s.Marshal(v)
	if err != nil {
		return err
	}
	r.Value = value
	setHeader(r, s.header)
	return nil
}

// Marshal is v's message bytes in the serde's model, without a record; an error when they are
// larger than the serde's size limit.
func (s *Serde[T, P]) Marshal(v *T) ([]byte, error) {
	var data []byte
	var err error
	if s.schema.Model == Final {
		data, err = P(v).MarshalFinal()
	} else {
		data, err = P(v).MarshalFBE()
	}
	if err != nil {
		return nil, err
	}
	if err := s.checkSize(len(data), "written"); err != nil {
		return nil, err
	}
	return data, nil
}

// Decode is the message of r when r's fbe header names the serde's package and model and a
// fingerprint it accepts (its own or one given to Accepting) and its value is a valid message no
// larger than the size limit; else a *RecordError with r's topic, partition and offset and the
// reason. A nil value (a tombstone) is (nil, nil).
func (s *Serde[T, P]) Decode(r *kgo.Record) (*T, error) {
	if r.Value == nil {
		return nil, nil
	}
	if header := headerValue(r); !s.gate.accepts(header) {
		writer, err := ParseHeader(header)
		if err != nil {
			return nil, recordError(r, fmt.Errorf("a record this consumer of %s cannot check: %w", s.schema, err))
		}
		if differs := s.differs(writer); differs != "" {
			return nil, recordError(r, &SchemaError{Writer: writer, Reader: s.schema, Reason: differs})
		}
	}
	v, err := s.Unmarshal(r.Value)
	if err != nil {
		return nil, recordError(r, err)
	}
	return v, nil
}

// Unmarshal reads data as a message of the serde's model without a record, and so without the
// gate; an error names the schema and the runtime's reason (*fbe.DecodeError: field path and
// byte offset), or the size and the limit of a value larger than the serde's size limit.
func (s *Serde[T, P]) Unmarshal(data []byte) (*T, error) {
	if err := s.checkSize(len(data), "read"); err != nil {
		return nil, err
	}
	v := new(T)
	var err error
	if s.schema.Model == Final {
		err = P(v).ReadFinal(data, s.Limits)
	} else {
		err = P(v).ReadFBE(data, s.Limits)
	}
	if err != nil {
		return nil, fmt.Errorf("an invalid %s value of %d bytes: %w", s.schema, len(data), err)
	}
	return v, nil
}

func (s *Serde[T, P]) differs(writer Schema) string {
	switch {
	case writer.Package != s.schema.Package:
		return "another package"
	case writer.Model != s.schema.Model:
		return "another binary model"
	case !slices.Contains(s.Accepted(), writer.Fingerprint):
		return "another schema (fingerprints differ; fbec compat says whether the schemas are compatible)"
	}
	return ""
}

// SchemaError is why the gate refused a record: the schema its headers name (Writer) is not the
// consumer's (Reader).
type SchemaError struct {
	Writer, Reader Schema
	Reason         string // "another package", "another binary model" or "another schema (...)"
}

func (e *SchemaError) Error() string {
	return "a record written with " + e.Writer.String() + " cannot be read by " + e.Reader.String() + ": " + e.Reason
}

// RecordError is a record Decode refused: where it is and why (Err: a *SchemaError, a header
// missing or invalid, or the runtime's *fbe.DecodeError wrapped with the schema). Go on with
// the next record; nothing else is wrong with the client.
type RecordError struct {
	Topic     string
	Partition int32
	Offset    int64
	Err       error
}

func recordError(r *kgo.Record, err error) *RecordError {
	return &RecordError{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Err: err}
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("record %s[%d] at offset %d: %v", e.Topic, e.Partition, e.Offset, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }
