// The Go conformance testee (conformance/testee_protocol.md): length-prefixed
// JSON requests on stdin, answers on stdout. It answers the binary models
// (versioned and final, in and out) and protocol streams (the package's
// Receiver or FinalReceiver) with the fbec --go code of every conformance
// schema (registry.go, written by build.py) and skips what the Go target does
// not generate yet (JSON, text, value descriptions).
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
	MarshalFBE() ([]byte, error)
	MarshalFinal() ([]byte, error)
}

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
	for name, make := range registry {
		m[fmt.Sprintf("%T", make())] = name
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

func answer(req *request) map[string]any {
	if req.Input.Format == "stream" || req.Input.Format == "final_stream" {
		var text string
		if err := json.Unmarshal(req.Input.Payload, &text); err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		data, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return map[string]any{"parse_error": "payload: " + err.Error()}
		}
		return receiveStream(req, data)
	}
	binaryFormat := map[string]bool{"versioned": true, "final": true}
	if !binaryFormat[req.Input.Format] || !binaryFormat[req.Output] {
		return map[string]any{"skipped": "the Go target reads and writes the binary models only so far (" +
			req.Input.Format + " -> " + req.Output + ")"}
	}
	make := registry[req.Package+"."+req.Type]
	if make == nil {
		return map[string]any{"skipped": "no Go type " + req.Package + "." + req.Type}
	}
	var text string
	if err := json.Unmarshal(req.Input.Payload, &text); err != nil {
		return map[string]any{"parse_error": "payload: " + err.Error()}
	}
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return map[string]any{"parse_error": "payload: " + err.Error()}
	}
	v := make()
	lim := limitsOf(req.Limits)
	if req.Input.Format == "versioned" {
		err = v.ReadFBE(data, lim)
	} else {
		err = v.ReadFinal(data, lim)
	}
	if err != nil {
		return map[string]any{"parse_error": err.Error()}
	}
	var out []byte
	if req.Output == "versioned" {
		out, err = v.MarshalFBE()
	} else {
		out, err = v.MarshalFinal()
	}
	if err != nil {
		return map[string]any{"serialize_error": err.Error()}
	}
	return map[string]any{"result": base64.StdEncoding.EncodeToString(out)}
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
		text, _ := json.Marshal(resp)
		binary.LittleEndian.PutUint32(size[:], uint32(len(text)))
		out.Write(size[:])
		out.Write(text)
		out.Flush()
	}
}
