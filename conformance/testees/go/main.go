// The Go conformance testee (conformance/testee_protocol.md): length-prefixed
// JSON requests on stdin, answers on stdout. It reads the binary models,
// JSON and value descriptions and writes the binary models, JSON, the text
// form and value descriptions, and feeds protocol streams to the package's
// Receiver or FinalReceiver, with the fbec --go --final --json --proto code of
// every conformance schema (values.go and registry.go, written by build.py).
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

// value is what the generated code gives every struct.
type value interface {
	ReadFBE([]byte, *fbe.Limits) error
	ReadFinal([]byte, *fbe.Limits) error
	ReadJSON([]byte, *fbe.Limits) error
	MarshalFBE() ([]byte, error)
	MarshalFinal() ([]byte, error)
	AppendJSON([]byte) ([]byte, error)
	String() string
}

// rawJSON is a result that is JSON text already (a value description).
type rawJSON []byte

type request struct {
	Quit    bool   `json:"quit"`
	Package string `json:"package"`
	Type    string `json:"type"`
	Input   struct {
		Format  string          `json:"format"`
		Payload json.RawMessage `json:"payload"`
	} `json:"input"`
	Output  string         `json:"output"`
	Limits  map[string]int `json:"limits"`
	Measure bool           `json:"measure"`
}

func limitsOf(m map[string]int) *fbe.Limits {
	lim := fbe.DefaultLimits
	for k, v := range m {
		switch k {
		case "max_depth":
			lim.MaxDepth = v
		case "budget_factor":
			lim.BudgetFactor = v
		case "budget_slack":
			lim.BudgetSlack = v
		case "max_frame_size":
			lim.MaxFrameSize = v
		}
	}
	return &lim
}

// streamReceiver is a generated Receiver or FinalReceiver.
type streamReceiver interface {
	Receive(data []byte) error
	Broken() error
}

// qualified names the schema type of a generated value ("*proto.OrderMessage" -> "proto.OrderMessage").
var qualified = func() map[string]string {
	m := map[string]string{}
	for name, e := range registry {
		m[fmt.Sprintf("%T", e.make())] = name
	}
	return m
}()

// receiveStream feeds a protocol stream to the package's Receiver in one call and lists what it
// did: each message delivered, each frame refused (Receive stops at a bad frame; Receive(nil) goes
// on with the bytes after it), and a stream it had to give up.
func receiveStream(req *request, data []byte) map[string]any {
	newReceiver := receivers[req.Package]
	if newReceiver == nil {
		return map[string]any{"skipped": "package " + req.Package + " has no Receiver in this testee"}
	}
	events := []map[string]string{}
	r := newReceiver(req.Input.Format == "final_stream", limitsOf(req.Limits), func(v any) {
		events = append(events, map[string]string{"message": qualified[fmt.Sprintf("%T", v)]})
	})
	for err := r.Receive(data); err != nil; err = r.Receive(nil) {
		events = append(events, map[string]string{"error": err.Error()})
		if r.Broken() != nil {
			break
		}
	}
	return map[string]any{"result": events}
}

// payloadText is a request's payload string, its \udcXY escapes the raw
// bytes they stand for (the runner's text of a document that is not UTF-8).
func payloadText(payload json.RawMessage) (string, error) {
	return fbe.UnquoteJSON(payload)
}

func answer(req *request) (resp map[string]any) {
	if req.Input.Format == "stream" || req.Input.Format == "final_stream" {
		text, err := payloadText(req.Input.Payload)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		data, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		return receiveStream(req, data)
	}
	e, ok := registry[req.Package+"."+req.Type]
	if !ok {
		return map[string]any{"skipped": "no Go type " + req.Package + "." + req.Type}
	}
	defer func() {
		if p := recover(); p != nil {
			if b, isBad := p.(badValue); isBad {
				where := " (" + req.Package + "." + req.Type + b.path + ")"
				if b.unheld {
					resp = map[string]any{"serialize_error": b.msg + where}
				} else {
					resp = map[string]any{"serialize_error": "UNEXPECTED value description: " + b.msg + where}
				}
				return
			}
			panic(p)
		}
	}()
	v := e.make()
	lim := limitsOf(req.Limits)
	var err error
	switch req.Input.Format {
	case "versioned", "final":
		var text string
		if text, err = payloadText(req.Input.Payload); err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		data, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		switch {
		case req.Output == "verify" && req.Input.Format == "versioned":
			err = e.verifyFBE(data, lim)
		case req.Output == "verify":
			err = e.verifyFinal(data, lim)
		case req.Input.Format == "versioned":
			err = v.ReadFBE(data, lim)
		default:
			err = v.ReadFinal(data, lim)
		}
		if err != nil {
			return map[string]any{"parse_error": err.Error()}
		}
		if req.Output == "verify" {
			return map[string]any{"result": "ok"}
		}
	case "json":
		text, err := payloadText(req.Input.Payload)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		if err := v.ReadJSON([]byte(text), lim); err != nil {
			return map[string]any{"parse_error": err.Error()}
		}
	case "value":
		d, err := description(req.Input.Payload)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		vAt = vAt[:0]
		e.from(d, v)
	default:
		return map[string]any{"skipped": "unknown input format " + req.Input.Format}
	}
	var out []byte
	switch req.Output {
	case "versioned":
		out, err = v.MarshalFBE()
	case "final":
		out, err = v.MarshalFinal()
	case "json":
		if out, err = v.AppendJSON(nil); err == nil {
			return map[string]any{"result": string(out)}
		}
	case "text":
		out = []byte(v.String())
	case "value":
		var d describer
		e.to(&d, v)
		return map[string]any{"result": rawJSON(d.b)}
	default:
		return map[string]any{"skipped": "unknown output format " + req.Output}
	}
	if err != nil {
		return map[string]any{"serialize_error": err.Error()}
	}
	return map[string]any{"result": base64.StdEncoding.EncodeToString(out)}
}

// encode is an answer as JSON; a value description is given as it is (its
// NaN and infinities are Python's, which encoding/json would refuse).
func encode(resp map[string]any) []byte {
	if raw, ok := resp["result"].(rawJSON); ok {
		delete(resp, "result")
		rest, _ := json.Marshal(resp)
		text := append([]byte(`{"result":`), raw...)
		if len(rest) > 2 {
			text = append(append(text, ','), rest[1:len(rest)-1]...)
		}
		return append(text, '}')
	}
	text, _ := json.Marshal(resp)
	return text
}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		var size [4]byte
		if _, err := io.ReadFull(in, size[:]); err != nil {
			return
		}
		body := make([]byte, binary.LittleEndian.Uint32(size[:]))
		if _, err := io.ReadFull(in, body); err != nil {
			return
		}
		var req request
		var resp map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			resp = map[string]any{"parse_error": "request: " + err.Error()}
		} else if req.Quit {
			return
		} else {
			var before runtime.MemStats
			if req.Measure {
				runtime.GC()
				runtime.ReadMemStats(&before)
			}
			start := time.Now()
			resp = answer(&req)
			if req.Measure {
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				// Bytes allocated while answering: an upper bound of the peak heap growth.
				resp["measured"] = map[string]any{"peak_bytes": after.TotalAlloc - before.TotalAlloc,
					"seconds": time.Since(start).Seconds()}
			}
		}
		text := encode(resp)
		binary.LittleEndian.PutUint32(size[:], uint32(len(text)))
		out.Write(size[:])
		out.Write(text)
		out.Flush()
	}
}
