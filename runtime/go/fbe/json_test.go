package fbe

// JSON: a hand-written codec of proto.Account (the shape `fbec --go --json`
// generates) against the original's text of docs/format.md 8.2, the digits
// of doubles, string escapes, and every rule of docs/limits.md 7 with the
// error's type, path and offset.

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

func (v *order) writeJSON(j *JSONWriter) {
	j.Raw(`{"id":`)
	j.Int(int64(v.ID))
	j.Raw(`,"symbol":`)
	j.String(v.Symbol)
	j.Raw(`,"side":`)
	j.Uint(uint64(v.Side))
	j.Raw(`,"type":`)
	j.Uint(uint64(v.Type))
	j.Raw(`,"price":`)
	j.Float64(v.Price)
	j.Raw(`,"volume":`)
	j.Float64(v.Volume)
	j.Byte('}')
}

func (v *balance) writeJSON(j *JSONWriter) {
	j.Raw(`{"currency":`)
	j.String(v.Currency)
	j.Raw(`,"amount":`)
	j.Float64(v.Amount)
	j.Byte('}')
}

func (v *account) writeJSON(j *JSONWriter) {
	j.Raw(`{"id":`)
	j.Int(int64(v.ID))
	j.Raw(`,"name":`)
	j.String(v.Name)
	j.Raw(`,"state":`)
	j.Uint(uint64(v.State))
	j.Raw(`,"wallet":`)
	v.Wallet.writeJSON(j)
	j.Raw(`,"asset":`)
	if v.Asset == nil {
		j.Null()
	} else {
		v.Asset.writeJSON(j)
	}
	j.Raw(`,"orders":[`)
	for i := range v.Orders {
		if i > 0 {
			j.Byte(',')
		}
		v.Orders[i].writeJSON(j)
	}
	j.Raw(`]}`)
}

func (v *order) readJSON(r *JSONReader) {
	*v = order{}
	if !r.BeginStruct(26) {
		return
	}
	defer r.Leave()
	var seen [6]bool
	for r.More() {
		switch name := r.Name(); name {
		case "id":
			r.Once(&seen[0], name)
			v.ID = int32(r.Int(-2147483648, 2147483647, "id"))
		case "symbol":
			r.Once(&seen[1], name)
			v.Symbol = r.String("symbol")
		case "side":
			r.Once(&seen[2], name)
			v.Side = uint8(r.Uint(255, "side"))
		case "type":
			r.Once(&seen[3], name)
			v.Type = uint8(r.Uint(255, "type"))
		case "price":
			r.Once(&seen[4], name)
			v.Price = r.Float64("price")
		case "volume":
			r.Once(&seen[5], name)
			v.Volume = r.Float64("volume")
		default:
			r.Skip(name)
		}
	}
}

func (v *balance) readJSON(r *JSONReader) {
	*v = balance{}
	if !r.BeginStruct(12) {
		return
	}
	defer r.Leave()
	var seen [2]bool
	for r.More() {
		switch name := r.Name(); name {
		case "currency":
			r.Once(&seen[0], name)
			v.Currency = r.String("currency")
		case "amount":
			r.Once(&seen[1], name)
			v.Amount = r.Float64("amount")
		default:
			r.Skip(name)
		}
	}
}

func (v *account) readJSON(r *JSONReader) {
	*v = account{State: 11}
	if !r.BeginStruct(14) {
		return
	}
	defer r.Leave()
	var seen [6]bool
	for r.More() {
		switch name := r.Name(); name {
		case "id":
			r.Once(&seen[0], name)
			v.ID = int32(r.Int(-2147483648, 2147483647, "id"))
		case "name":
			r.Once(&seen[1], name)
			v.Name = r.String("name")
		case "state":
			r.Once(&seen[2], name)
			v.State = uint8(r.Uint(255, "state"))
		case "wallet":
			r.Once(&seen[3], name)
			v.Wallet.readJSON(r)
			if r.Failed() {
				r.Unwind("wallet")
				return
			}
		case "asset":
			r.Once(&seen[4], name)
			if r.Null() {
				v.Asset = nil
			} else {
				v.Asset = new(balance)
				v.Asset.readJSON(r)
				if r.Failed() {
					r.Unwind("asset")
					return
				}
			}
		case "orders":
			r.Once(&seen[5], name)
			if r.BeginArray("orders") {
				for i := 0; r.More(); i++ {
					v.Orders = Grow(v.Orders)
					v.Orders[i].readJSON(r)
					if r.Failed() {
						r.UnwindIndex(i)
						r.Unwind("orders")
						return
					}
				}
			}
		default:
			r.Skip(name)
		}
	}
	if !seen[3] {
		r.Spend(12, "wallet")
	}
}

func readAccountJSON(text string, lim *Limits) (account, error) {
	var v account
	var r JSONReader
	r.Begin([]byte(text), lim)
	v.readJSON(&r)
	r.End()
	r.Within("proto.Account")
	return v, r.Err()
}

// The README account of docs/format.md 8.2, as the original writes it.
const accountJSON = `{"id":1,"name":"Test","state":6,"wallet":{"currency":"USD","amount":1000.0},"asset":{"currency":"EUR","amount":100.0},` +
	`"orders":[{"id":1,"symbol":"EURUSD","side":0,"type":0,"price":1.23456,"volume":1000.0},` +
	`{"id":2,"symbol":"EURUSD","side":1,"type":1,"price":1.0,"volume":100.0},` +
	`{"id":3,"symbol":"EURUSD","side":0,"type":2,"price":1.5,"volume":10.0}]}`

func TestJSONAccountRoundTrip(t *testing.T) {
	v, err := readAccountJSON(accountJSON, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "Test" || v.Asset == nil || v.Asset.Amount != 100 || len(v.Orders) != 3 || v.Orders[0].Price != 1.23456 {
		t.Fatalf("%+v", v)
	}
	var j JSONWriter
	v.writeJSON(&j)
	if string(j.B) != accountJSON {
		t.Fatalf("written back:\n%s\n%s", j.B, accountJSON)
	}
	// white space anywhere, members in any order, unknown members skipped, missing ones defaulted
	v, err = readAccountJSON(" {\n\"orders\" : [ ] , \"x\": {\"a\": [1, {\"b\": null}]}, \"id\": 7 }\t", nil)
	if err != nil || v.ID != 7 || v.State != 11 || v.Orders != nil {
		t.Fatalf("%+v %v", v, err)
	}
}

// Doubles as RapidJSON master's Writer::Double writes them (docs/format.md 8.4).
func TestJSONDoubleText(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1000, "1000.0"}, {1.23456, "1.23456"}, {1e-7, "1e-7"},
		{100, "100.0"}, {9007199254740992, "9007199254740992.0"}, {1e20, "100000000000000000000.0"},
		{1e21, "1e21"}, {1.5, "1.5"}, {123456789.12345679, "123456789.12345679"}, {0.1, "0.1"},
		{0.000001234, "0.000001234"}, {5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e308"},
		{1e23, "9.999999999999999e22"}, {4.04925338542625e16, "40492533854262496.0"},
		{0.30000000000000004, "0.30000000000000004"}, {float64(float32(0.1)), "0.10000000149011612"},
		{float64(float32(123.456)), "123.45600128173828"}, {-2.5e-300, "-2.5e-300"},
	} {
		if got := string(AppendJSONDouble(nil, c.v)); got != c.want {
			t.Errorf("%v: %s, want %s", c.v, got, c.want)
		}
	}
	var j JSONWriter
	j.Float64(math.NaN())
	j.Float64(math.Inf(1))
	j.Float32(float32(math.Inf(-1)))
	if string(j.B) != `"NaN""Infinity""-Infinity"` {
		t.Errorf("non-finite: %s", j.B)
	}
}

// Every text reads back to its value, and is never shorter than the shortest text that does.
func TestJSONDoubleRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		v := math.Float64frombits(rng.Uint64())
		if rng.IntN(3) == 0 {
			v = float64(math.Float32frombits(rng.Uint32()))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		text := string(AppendJSONDouble(nil, v))
		back, err := strconv.ParseFloat(text, 64)
		if err != nil || back != v {
			t.Fatalf("%x: %s reads back as %v (%v)", math.Float64bits(v), text, back, err)
		}
		digits := func(s string) int {
			mant, _, _ := strings.Cut(strings.TrimLeft(s, "-"), "e")
			return len(strings.Trim(strings.Replace(mant, ".", "", 1), "0"))
		}
		if shortest := strconv.FormatFloat(v, 'g', -1, 64); v != 0 && digits(text) < digits(shortest) {
			t.Fatalf("%x: %s is shorter than %s", math.Float64bits(v), text, shortest)
		}
	}
}

// TestJSONAgainstPython compares with the Python runtime's output, written by
// tests/go/test_go_json.py into FBE_JSON_CASES: one case per line, kind, input
// and Python's answer separated by tabs (d: the JSON of a double given as its
// bits in hex; kd, kf: a double or float map key; dec: a decimal text read and
// written back, or "error").
func TestJSONAgainstPython(t *testing.T) {
	path := os.Getenv("FBE_JSON_CASES")
	if path == "" {
		t.Skip("FBE_JSON_CASES is not set: tests/go/test_go_json.py runs this test with Python's answers")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	n, failed := 0, 0
	for s.Scan() {
		kind, rest, _ := strings.Cut(s.Text(), "\t")
		input, want, _ := strings.Cut(rest, "\t")
		var got string
		switch kind {
		case "d", "kd", "kf":
			bits, err := strconv.ParseUint(input, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			var j JSONWriter
			switch kind {
			case "d":
				j.Float64(math.Float64frombits(bits))
			case "kd":
				j.KeyFloat64(math.Float64frombits(bits))
			default:
				j.KeyFloat32(math.Float32frombits(uint32(bits)))
			}
			got = strings.TrimSuffix(string(j.B), ":")
		case "dec":
			d, err := ParseDecimal(input)
			got = "error"
			if err == nil {
				got = string(appendDecimalText(nil, d))
			}
		default:
			t.Fatalf("unknown case kind %q", kind)
		}
		n++
		if got != want {
			if failed++; failed <= 20 {
				t.Errorf("%s %s: %s, Python %s", kind, input, got, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no cases")
	}
	t.Logf("%d cases compared with Python, %d differ", n, failed)
}

func TestJSONStringEscapes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain é €", `"plain é €"`},
		{"\"\\/\b\f\n\r\t\x01\x1f\x7f", `"\"\\/\b\f\n\r\t\u0001\u001F` + "\x7f" + `"`},
		{"\xff", `"\udcff"`}, {"a\xc3", `"a\udcc3"`}, {"\xc0\xaf", `"\udcc0\udcaf"`},
		{"\xed\xa0\x80", `"\udced\udca0\udc80"`}, {"\xf4\x90\x80\x80", `"\udcf4\udc90\udc80\udc80"`},
		{"café \x80\xfe", `"café \udc80\udcfe"`}, {"\uFFFD", "\"\uFFFD\""},
	} {
		got := string(AppendJSONString(nil, c.in))
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
			continue
		}
		// and back: the escapes are the bytes
		back, err := readAccountJSON(`{"name":`+got+`}`, nil)
		if err != nil || back.Name != c.in {
			t.Errorf("%s read back as %q (%v)", got, back.Name, err)
		}
	}
	// a valid UTF-8 sequence given as escapes of its bytes reads as those bytes
	if v, err := readAccountJSON(`{"name":"\udcc3\udca9\ud83d\ude00"}`, nil); err != nil || v.Name != "é😀" {
		t.Errorf("%q %v", v.Name, err)
	}
}

// docs/limits.md 7: what every JSON reader refuses, with the type, the path and the offset.
func TestJSONRefuses(t *testing.T) {
	deep := strings.Repeat("[", 385) + strings.Repeat("]", 385)
	for _, c := range []struct{ text, want string }{
		{`{"id":1,"id":2}`, `duplicate member name "id" (proto.Account.id, offset 8)`},
		{`{"x":1,"x":2}`, `duplicate member name "x" (proto.Account.x, offset 7)`},
		{`{"x":{"a":1,"a":2}}`, `duplicate member name "a" in a JSON object (proto.Account, offset 12)`},
		{`{"x":[{"a":[],"b":{},"a":0}]}`, `duplicate member name "a" in a JSON object (proto.Account, offset 21)`},
		{`{"wallet":{"currency":"A","currency":"B"}}`, `duplicate member name "currency" (proto.Account.wallet.currency, offset 26)`},
		{`{"name":"\ud800"}`, `lone surrogate \ud800 in a JSON string (only \udc80..\udcff stand for bytes) (proto.Account, offset 8)`},
		{`{"x":"\udc41"}`, `lone surrogate \udc41 in a JSON string (only \udc80..\udcff stand for bytes) (proto.Account, offset 5)`},
		{`{"\udfff":1}`, `lone surrogate \udfff in a JSON string (only \udc80..\udcff stand for bytes) (proto.Account, offset 1)`},
		{"{\"name\":\"\xc0\xaf\"}", `invalid JSON: the text is not valid UTF-8 at byte 9 (proto.Account, offset 9)`},
		{"{\"name\":\"\xed\xa0\x80\"}", `invalid JSON: the text is not valid UTF-8 at byte 9 (proto.Account, offset 9)`},
		{`{"x":` + deep + `}`, `invalid JSON: arrays and objects nested deeper than 384 (proto.Account, offset 388)`},
		{`{"id":1.5}`, `expected integer, got 1.5 (proto.Account.id, offset 6)`},
		{`{"id":2147483648}`, `2147483648 is out of range (-2147483648..2147483647) (proto.Account.id, offset 6)`},
		{`{"state":-1}`, `-1 is out of range (0..255) (proto.Account.state, offset 9)`},
		{`{"name":7}`, `expected string, got number (proto.Account.name, offset 8)`},
		{`{"wallet":{"amount":1e400}}`, `1e400 is out of range for double (proto.Account.wallet.amount, offset 20)`},
		{`{"wallet":[]}`, `expected object, got array (proto.Account.wallet, offset 10)`},
		{`{"orders":[{},{"price":"x"}]}`, `expected number, got string (proto.Account.orders[1].price, offset 23)`},
		{`{"orders":{}}`, `expected array, got object (proto.Account.orders, offset 10)`},
		{`[]`, `expected object, got array (proto.Account, offset 0)`},
		{`{"id":1} {}`, `invalid JSON: data after the value (proto.Account, offset 9)`},
		{`{"id":1`, `invalid JSON: the text ends before the value does (proto.Account, offset 7)`},
		{`{"id":NaN}`, `invalid JSON: invalid character 'N' at start of value (proto.Account, offset 6)`},
		{``, `invalid JSON: the text ends before the value does (proto.Account, offset 0)`},
	} {
		_, err := readAccountJSON(c.text, nil)
		var de *DecodeError
		if !errors.As(err, &de) || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
	// 384 levels of arrays and objects (the root's object and 383 arrays) are within the limit:
	// the document reads (the unknown member is skipped)
	if _, err := readAccountJSON(`{"x":`+strings.Repeat("[", 383)+strings.Repeat("]", 383)+`}`, nil); err != nil {
		t.Errorf("384 levels: %v", err)
	}
	// a set of map keys that are distinct bytes read as the same key elsewhere; here: member names
	// that are the same only after their escapes
	if _, err := readAccountJSON(`{"x":{"\u0061":1,"a":2}}`, nil); err == nil {
		t.Error(`"\u0061" and "a" are the same name`)
	}
	if _, err := readAccountJSON(`{"x":{"\udcff":1,"\udcfe":2}}`, nil); err != nil {
		t.Errorf(`"\udcff" and "\udcfe" are different names: %v`, err)
	}
}

// The decode budget of docs/limits.md 3: the least budget that reads a document is
// what its values cost; one byte less is refused, naming where.
func TestJSONBudget(t *testing.T) {
	least := func(text string) int {
		lim := DefaultLimits
		lim.BudgetFactor = 0
		for slack := range 100000 {
			lim.BudgetSlack = slack
			_, err := readAccountJSON(text, &lim)
			if err == nil {
				return slack
			}
			if !errors.Is(err, ErrBudget) {
				t.Fatalf("%s: %v", text, err)
			}
		}
		t.Fatalf("%s: never reads", text)
		return 0
	}
	for _, c := range []struct {
		text string
		cost int
	}{
		{`{}`, 14 + 12},            // the account, its default wallet
		{`{"wallet":{}}`, 14 + 12}, // the wallet read
		{`{"name":"abc","asset":{"currency":"EUR"}}`, 14 + 3 + 12 + 12 + 3},
		{accountJSON, 14 + 4 + 12 + 3 + 12 + 3 + 3*(26+6)}, // structs and string payloads
		{`{"orders":[{},{},{}],"x":["ignored"]}`, 14 + 12 + 3*26},
	} {
		if got := least(c.text); got != c.cost {
			t.Errorf("%s: least budget %d, want %d", c.text, got, c.cost)
		}
	}
	lim := DefaultLimits
	lim.BudgetFactor, lim.BudgetSlack = 0, 14+26+5
	_, err := readAccountJSON(`{"orders":[{"symbol":"EURUSD"},{},{}]}`, &lim)
	if err == nil || err.Error() != "decode budget exceeded (proto.Account.orders[0].symbol, offset 21)" {
		t.Errorf("%v", err)
	}
	// an error after More peeked the next element stops the loop (generated readers charge each
	// element of a vector of strings there: such a document hung before)
	var r JSONReader
	lim.BudgetSlack = 6
	r.Begin([]byte(`["a","b","c"]`), &lim)
	n := 0
	if r.BeginArray("f") {
		for ; r.More() && n < 10; n++ {
			r.Spend(4, "f")
			_ = r.String("f")
		}
	}
	if n != 2 || !errors.Is(r.Err(), ErrBudget) {
		t.Errorf("%d elements read: %v", n, r.Err())
	}
}

// docs/limits.md 1: structs nest at most MaxDepth deep (the root is level 1).
func TestJSONDepth(t *testing.T) {
	read := func(text string, maxDepth int) error {
		lim := DefaultLimits
		lim.MaxDepth = maxDepth
		_, err := readAccountJSON(text, &lim)
		return err
	}
	if err := read(`{"wallet":{}}`, 2); err != nil {
		t.Error(err)
	}
	err := read(`{"orders":[{}]}`, 1)
	if !errors.Is(err, ErrDepth) || err.Error() != "structs nested deeper than 1 (proto.Account.orders[0], offset 11)" {
		t.Errorf("%v", err)
	}
	var j JSONWriter
	j.MaxDepth = 1
	if j.Enter("a") && !j.Enter("b") && !errors.Is(j.Err(), ErrDepth) {
		t.Errorf("writer depth: %v", j.Err())
	}
}

func TestJSONKeys(t *testing.T) {
	var j JSONWriter
	j.KeyString("k\xff")
	j.KeyInt(-5)
	j.KeyUint(7)
	j.KeyBool(true)
	j.KeyFloat64(1.5)
	j.KeyFloat64(1e-7)
	j.KeyFloat32(0.1)
	j.KeyFloat64(math.Inf(-1))
	j.KeyDecimal(MustDecimal("-1.5"))
	j.KeyUUID(MustUUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
	j.KeyBytes([]byte{0xff, 0})
	want := `"k\udcff":"-5":"7":"1":"1.500000":"1e-7":"0.100000":"-Infinity":"-1.500000":` +
		`"6ba7b810-9dad-11d1-80b4-00c04fd430c8":"/wA=":`
	if string(j.B) != want {
		t.Errorf("\n got %s\nwant %s", j.B, want)
	}
	var r JSONReader
	r.Begin([]byte("{}"), nil)
	if r.KeyInt(" +12", -100, 100, "f") != 12 || r.KeyChar("-56", "f") != 200 || r.KeyUint("255", 255, "f") != 255 ||
		!r.KeyBool("true", "f") || r.KeyFloat64("0x1.8p1", "f") != 3 || r.KeyFloat64(" 1e-7", "f") != 1e-7 ||
		!math.IsInf(r.KeyFloat64("-inf", "f"), -1) ||
		string(r.KeyBytes(nil, "/wA=", "f")) != "\xff\x00" || r.Failed() {
		t.Errorf("keys: %v", r.Err())
	}
	for _, bad := range []func(){
		func() { r.KeyInt("1x", 0, 9, "f") }, func() { r.KeyUint("-1", 9, "f") }, func() { r.KeyInt("10", 0, 9, "f") },
		func() { r.KeyBool("yes", "f") }, func() { r.KeyFloat64("1e", "f") }, func() { r.KeyUUID("xyz", "f") },
	} {
		r.err = nil
		bad()
		if !r.Failed() {
			t.Error("a bad key was read")
		}
	}
}

func TestParseDecimalAsDecimalT(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1e1234567", "error"},  // 10^1234567: beyond 96 bits
		{"1e-1234567", "error"}, // more than 28 fraction digits: refused, never rounded (docs/format.md 2.4)
		{"0e-1234567", "0.000000"},
		{"7922816251426433759354395033.56", "error"}, // no decimal holds it
		{"7922816251426433759354395033.5", "7922816251426433759354395033.500000"},
		{"79228162514264337593543950335.5", "error"},
		{"+.5", "0.500000"}, {"5.", "5.000000"}, {"1.50000000", "1.500000"}, {"-0.0", "0.000000"},
		{".", "error"}, {"1e+", "error"}, {"0x1", "error"}, {" 1", "error"},
	} {
		d, err := ParseDecimal(c.in)
		got := "error"
		if err == nil {
			got = string(appendDecimalText(nil, d))
		}
		if got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
}

func TestUnquoteJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"`, "a\"\\/\b\f\n\r\té😀"}, {`"\udcff\udc80"`, "\xff\x80"},
	} {
		got, err := UnquoteJSON([]byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("%s: %q %v", c.in, got, err)
		}
	}
	for _, bad := range []string{`"\ud800"`, `"\ud800x"`, `"\x"`, `"\u12"`, `"\uzzzz"`, `x`, `"`} {
		if got, err := UnquoteJSON([]byte(bad)); err == nil {
			t.Errorf("%s read as %q", bad, got)
		}
	}
}

func TestAppendBase64Decode(t *testing.T) {
	for in, want := range map[string]string{"": "", "QQ==": "41", "QUI=": "4142", "QUJD": "414243", "/wA=": "ff00",
		"+/+/": "fbffbf"} {
		if got, ok := AppendBase64Decode(nil, in); !ok || hex.EncodeToString(got) != want {
			t.Errorf("%q: %x %v, want %s", in, got, ok, want)
		}
	}
	// docs/limits.md 7: the standard alphabet with padding and nothing else, one text per byte string
	for _, in := range []string{"A", "QQ", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\n==", "QQ==\r", "QQ==QQ==", "-_8=",
		"====", "Q===", "QQ==@", "QUJD!QUJD", "@@@@"} {
		if got, ok := AppendBase64Decode(nil, in); ok {
			t.Errorf("%q read as %x", in, got)
		}
	}
}

func TestTextWriter(t *testing.T) {
	var w TextWriter
	for _, v := range []float64{1000, 1.23456, 1e10, 1e-5, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		123456789, 0.0001, 100000, 1e6} {
		w.Float(v)
		w.Raw(",")
	}
	w.Decimal(MustDecimal("123.456"))
	w.Char('x')
	w.WChar(0x2041)
	w.String("a\"b")
	w.Bytes([]byte{1, 2, 3})
	w.Count(2, "<{")
	want := `1000,1.23456,1e+10,1e-05,-0,inf,-inf,nan,1.23457e+08,0.0001,100000,1e+06,123.456000'x''A'"a"b"bytes[3][2]<{`
	if string(w.B) != want {
		t.Errorf("\n got %s\nwant %s", w.B, want)
	}
	names := []FlagName[int8]{{Value: 0, Name: "none"}, {Value: 1, Name: "a"}, {Value: 2, Name: "b"}, {Value: 3, Name: "ab"},
		{Value: -128, Name: "top"}}
	if got := FlagsText[int8](-125, names); got != "a|b|ab|top" {
		t.Errorf("flags: %s", got)
	}
	if got := FlagsText[int8](0, names); got != "" {
		t.Errorf("flags 0: %q", got)
	}
	for v, want := range map[int8]string{0: "none", 3: "ab", -128: "top", 4: "<unknown>"} {
		if got := EnumText(v, names); got != want {
			t.Errorf("enum %d: %s, want %s", v, got, want)
		}
	}
}

// The README account (accountJSON, 349 bytes) read by the hand-written proto.Account reader
// above, into a value reused as a server reuses it (docs/go.md, JSON "Performance"): the reader's
// own allocations are the value's strings, the asset and the orders' array.
func BenchmarkJSONRead(b *testing.B) {
	data := []byte(accountJSON)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var v account
	for b.Loop() {
		var r JSONReader
		r.Begin(data, nil)
		v.readJSON(&r)
		r.End()
		if err := r.Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// The same text read by encoding/json's Unmarshal into a plain struct of the same fields:
// the standard library's own speed, for comparison.
func BenchmarkJSONReadStdlib(b *testing.B) {
	type order struct {
		ID     int32   `json:"id"`
		Symbol string  `json:"symbol"`
		Side   uint8   `json:"side"`
		Type   uint8   `json:"type"`
		Price  float64 `json:"price"`
		Volume float64 `json:"volume"`
	}
	type balance struct {
		Currency string  `json:"currency"`
		Amount   float64 `json:"amount"`
	}
	type account struct {
		ID     int32    `json:"id"`
		Name   string   `json:"name"`
		State  uint8    `json:"state"`
		Wallet balance  `json:"wallet"`
		Asset  *balance `json:"asset"`
		Orders []order  `json:"orders"`
	}
	data := []byte(accountJSON)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var v account
	for b.Loop() {
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
