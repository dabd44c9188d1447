"""The Go target's output for every schema (the project's and ../shared's) is gofmt-clean,
go vet-clean and staticcheck-clean against runtime/go (docs/targets.md 9). Run by `make test-go`, which needs Go."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fbec.cli import main as fbec_main
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.base import Options

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
# staticcheck (honnef.co/go/tools), installed by `make test-go` into build/go-tools
STATICCHECK = os.environ.get("STATICCHECK") or shutil.which("staticcheck") or ""
GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}


def schema_files() -> list[Path]:
    """The original's schemas first (their imports resolve among them), then the project's."""
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    return shared + sorted((REPO / "schemas").rglob("*.fbe"))


def package_of(path: Path) -> str:
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["package"]:
            return words[1]
    raise AssertionError(f"{path}: no package line")


def modules(files: list[Path]) -> list[dict[str, Path]]:
    """The schemas spread over as few Go modules as their package names allow (trade.fbe and
    ../shared's proto.fbe are both package proto): each module's packages import each other."""
    out: list[dict[str, Path]] = []
    for f in files:
        name = package_of(f)
        home = next((m for m in out if name not in m), None)
        if home is None:
            home = {}
            out.append(home)
        home[name] = f
    return out


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=GO_ENV, capture_output=True, text=True, check=False)


def test_generated_go_is_gofmt_and_vet_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert Path(GO).exists(), f"no go command at {GO} (set GO)"
    assert STATICCHECK and Path(STATICCHECK).exists(), "no staticcheck (set STATICCHECK; make test-go installs it)"
    gofmt = str(Path(GO).parent / "gofmt")
    groups = modules(schema_files())
    assert groups, "no schemas found"
    for i, group in enumerate(groups):
        root = tmp_path / f"m{i}"
        root.mkdir()
        for f in group.values():
            args = [f"--input={f}", f"--output={root}", "--go", "--final", "--json", "--proto"]
            assert fbec_main(args) == 0, capsys.readouterr().err
        (root / "go.mod").write_text(
            "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
            f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
        r = run([gofmt, "-l", "."], root)
        assert r.returncode == 0 and r.stdout == "", f"gofmt -l ({sorted(group)}):\n{r.stdout}{r.stderr}"
        r = run([GO, "vet", "./..."], root)
        assert r.returncode == 0, f"go vet ({sorted(group)}):\n{r.stdout}{r.stderr}"
        r = run([STATICCHECK, "./..."], root)
        assert r.returncode == 0, f"staticcheck ({sorted(group)}):\n{r.stdout}{r.stderr}"
    capsys.readouterr()


def test_the_sketch_of_docs_targets_md_is_gofmt_clean(tmp_path: Path) -> None:
    """docs/targets.md's first Go target (tests/compiler/test_toolkit.py runs it) writes what gofmt would."""
    doc = (REPO / "docs" / "targets.md").read_text()
    sketch = next(block for block in re.findall(r"```python\n(.*?)```", doc, re.DOTALL) if "def go_type(" in block)
    target: dict[str, Any] = {}
    exec(compile(sketch, "docs/targets.md", "exec"), target)  # noqa: S102 (our own documentation's code)
    for schema in ("schemas/trade.fbe", "schemas/tests/everything.fbe"):
        (file,) = target["generate"](compile_schema(str(REPO / schema), [], Diagnostics()), Options())
        path = tmp_path / file.path.replace("/", "_")
        path.write_text(file.text)
        r = run([str(Path(GO).parent / "gofmt"), "-l", "-e", str(path)], tmp_path)
        assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr


def test_generated_types_compile_as_go_users_expect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """proto.Account in Go: exported fields, typed flags constants, a pointer optional, a slice,
    NewAccount() with the schema's defaults (State = initialized | bad)."""
    proto = SHARED / "schemas" / "proto.fbe"
    if not proto.is_file():
        pytest.skip(f"reference schemas not found at {SHARED}/schemas (set SHARED)")
    assert fbec_main([f"--input={proto}", f"--output={tmp_path}", "--go"]) == 0
    capsys.readouterr()
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (tmp_path / "proto" / "proto_test.go").write_text('''package proto

import "testing"

func TestAccountDefaults(t *testing.T) {
	a := NewAccount()
	if StateInitialized|StateBad != 11 || a.State != 11 || a.Asset != nil || len(a.Orders) != 0 {
		t.Fatalf("%+v", a)
	}
	a.Orders = append(a.Orders, Order{Id: 1, Symbol: "EURUSD", Side: OrderSideSell, Price: 1.5})
	a.Asset = &Balance{Currency: "EUR", Amount: 100}
	a.Reset()
	if a.Asset != nil || len(a.Orders) != 0 || cap(a.Orders) == 0 || (Account{}).TypeID() != 3 {
		t.Fatalf("Reset: %+v", a)
	}
}
''')
    r = run([GO, "test", "./..."], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_account_reuse_paths_allocate_only_strings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/reuse on the generated proto.Account of schemas/trade.fbe (testing.AllocsPerRun):
    0 allocations to serialize into a reused fbe.Writer, only the 6 strings to deserialize into
    a reused value (its asset pointer and orders slice kept), 0 to verify; both models."""
    assert fbec_main([f"--input={REPO / 'schemas' / 'trade.fbe'}", f"--output={tmp_path}", "--go", "--final"]) == 0
    capsys.readouterr()
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    shutil.copy(REPO / "tests" / "go" / "reuse" / "account_test.go", tmp_path / "proto")
    r = run([GO, "test", "-count=1", "-v", "-run", "TestAccountReuseAllocations", "./proto"], tmp_path)
    assert r.returncode == 0 and "--- PASS: TestAccountReuseAllocations" in r.stdout, r.stdout[-6000:] + r.stderr


RUNS = """
package runs
enum Kind : int16 { a = 1; b = 2; }
struct Packed
{
    string name;
    int32 x = 7;
    int16[3] arr;
    Kind kind = Kind.b;
    byte y;
    double z;
    string tail;
}
"""


def test_final_runs_read_and_fail_at_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A final root's run of fixed-size fields with an array in it (docs/ir.md "runs"): read with
    one Reader.Run and written back; a root whose size ends at any byte of the run fails, in the
    read and in verify, at the first field (array element) not there, naming it, as a field by
    field read does (fails when Run reports the run's start or a wrong field)."""
    schema = tmp_path / "runs.fbe"
    schema.write_text(RUNS)
    assert fbec_main([f"--input={schema}", f"--output={tmp_path}", "--go", "--final"]) == 0
    capsys.readouterr()
    code = (tmp_path / "runs" / "runs.go").read_text()
    assert 'r.Run(21, "x=4,arr=2*3,kind=2,y=1,z=8")' in code, code
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (tmp_path / "runs" / "runs_test.go").write_text('''package runs

import (
	"encoding/binary"
	"fmt"
	"testing"
)

func TestRuns(t *testing.T) {
	v := Packed{Name: "nm", X: -5, Arr: [3]int16{1, -2, 3}, Kind: KindA, Y: 9, Z: 2.5, Tail: "t"}
	data, err := v.MarshalFinal()
	if err != nil {
		t.Fatal(err)
	}
	var back Packed
	if err := back.UnmarshalFinal(data); err != nil || back != v {
		t.Fatalf("%v %+v", err, back)
	}
	for k := 8; k < len(data); k++ { // the root's size ending at byte k
		b := append([]byte(nil), data[:k]...)
		binary.LittleEndian.PutUint32(b, uint32(k))
		fmt.Printf("cut %d: %v | %v\\n", k, back.UnmarshalFinal(b), VerifyFinalPacked(b, nil))
	}
}
''')
    r = run([GO, "test", "-count=1", "-v", "./runs"], tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    # the layout from the root's start: 8 header, name (4 + 2), then the run at 14, then tail
    fields = [("x", 4, 1), ("arr", 2, 3), ("kind", 2, 1), ("y", 1, 1), ("z", 8, 1)]
    cuts = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in r.stdout.splitlines()
            if line.startswith("cut ")}
    for k in range(14, 14 + 21):
        at = 14
        for name, size, count in fields:
            missing = next((at + i * size for i in range(count) if at + (i + 1) * size > k), None)
            if missing is not None:
                break
            at += size * count
        want = f"value beyond the end of the buffer (runs.Packed.{name}, offset {missing})"
        assert cuts[f"cut {k}"] == f"{want} | {want}", (k, cuts[f"cut {k}"])


def test_golden_vectors_read_and_written_back_in_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/vectors: every MANIFEST case of ../shared in both models, read and written back
    byte for byte by the generated code (into a fresh value and into one reused across the cases
    of its type), and the truncation/corruption suite, where verify must agree with deserialize."""
    import json
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.is_file():
        pytest.skip(f"golden vectors not found at {manifest} (set SHARED)")
    for f in sorted((SHARED / "schemas").glob("*.fbe")):
        assert fbec_main([f"--input={f}", f"--output={tmp_path}", "--go", "--final", "--json"]) == 0
    capsys.readouterr()
    (tmp_path / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (tmp_path / "vectors").mkdir()
    shutil.copy(REPO / "tests" / "go" / "vectors" / "vectors_test.go", tmp_path / "vectors")
    cases = json.loads(manifest.read_text())["cases"]
    types = sorted({(c["package"], c["type"]) for c in cases})
    registry = ["package vectors", "", "import ("]
    registry += [f'\t"fbegen/{p}"' for p in sorted({p for p, _ in types})]
    registry += [")", "", "var registry = map[string]entry{"]
    registry += [f'\t"{p}.{t}": {{func() value {{ return new({p}.{t}) }}, {p}.VerifyFBE{t}, {p}.VerifyFinal{t}}},'
                 for p, t in types]
    registry += ["}", ""]
    (tmp_path / "vectors" / "registry_test.go").write_text("\n".join(registry))
    r = run([GO, "test", "-count=1", "-v", "-run", "TestGolden", "./vectors"], tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    assert "vectors read and written back" in r.stdout
    assert "JSON files byte-identical" in r.stdout


NAMES = """
package names
enum Kind { type; func; range; None; nil; }
flags Bits : byte { map = 1; chan = 2; all = map | chan; }
struct Weird
{
    [key] int32 type;
    string func;
    Kind String;
    Bits Reset;
    bool? import;
    int32 v;
    int32 w;
    int32 r;
    int32 b;
    int32 n;
    double fbe;
    Kind[] e;
    int32<string> slot;
    bytes<bytes> raw;
}
message Writer { Weird lambda; }
struct Node { int32 id; string label; Node[] children; Node? next; }
message Client { int32 id; }
message Handler { string text; }
struct Twig { int32 y; }
struct Leaf { int32 x; Twig? twig; Twig[] twigs; Twig<int32> byid; }
message Tree { Tree[] children; Leaf leaf; Twig tip; }
"""

GO_NAMES_TEST = """package names

import (
\t"bytes"
\t"encoding/json"
\t"errors"
\t"fmt"
\t"reflect"
\t"strings"
\t"testing"

\t"github.com/fbe-toolkit/fbe/runtime/go/fbe"
)

func sample() *Weird {
\tv := NewWeird()
\tv.Type, v.Func, v.String_, v.Reset_ = 7, "f", KindRange, BitsAll
\tv.Import = fbe.Ptr(true)
\tv.V, v.W, v.R, v.B, v.N, v.Fbe = 1, 2, 3, 4, 5, 1.5
\tv.E = []Kind{KindNil, KindType}
\tv.Slot = map[string]int32{"b": 2, "a": 1}
\tv.Raw = []fbe.Pair[[]byte, []byte]{{Key: []byte{1}, Value: []byte{2, 3}}}
\treturn v
}

func TestGoNamesRoundTrip(t *testing.T) {
\tmsg := Writer{Lambda: *sample()}
\tfor _, m := range []struct {
\t\twrite func(*Writer) ([]byte, error)
\t\tread  func(*Writer, []byte) error
\t}{
\t\t{(*Writer).MarshalFBE, (*Writer).UnmarshalFBE},
\t\t{(*Writer).MarshalFinal, (*Writer).UnmarshalFinal},
\t} {
\t\tdata, err := m.write(&msg)
\t\tif err != nil {
\t\t\tt.Fatal(err)
\t\t}
\t\tvar back Writer
\t\tif err := m.read(&back, data); err != nil || !reflect.DeepEqual(back, msg) {
\t\t\tt.Fatalf("%v\\n%+v\\n%+v", err, back, msg)
\t\t}
\t}
}

// chain is a Node nested depth levels deep through children.
func chain(depth int) *Node {
\troot := &Node{Id: 1}
\tfor n, i := root, 1; i < depth; i++ {
\t\tn.Children = []Node{{Id: int32(i + 1)}}
\t\tn = &n.Children[0]
\t}
\treturn root
}

// docs/limits.md 1: writers refuse and readers refuse what nests deeper than MaxDepth.
func TestDepthLimit(t *testing.T) {
\tdata, err := chain(128).MarshalFBE()
\tif err != nil {
\t\tt.Fatal(err)
\t}
\tvar back Node
\tif err := back.UnmarshalFBE(data); err != nil || !reflect.DeepEqual(&back, chain(128)) {
\t\tt.Fatalf("128 levels: %v", err)
\t}
\t// the writers name the path to the struct one level too deep and write nothing
\twantPath := "structs nested deeper than 128 (names.Node" + strings.Repeat(".children[0]", 128) + ")"
\tif data, err := chain(129).MarshalFBE(); !errors.Is(err, fbe.ErrDepth) || data != nil || err.Error() != wantPath {
\t\tt.Fatalf("129 levels written: %d bytes, %v", len(data), err)
\t}
\tif data, err := chain(129).MarshalFinal(); !errors.Is(err, fbe.ErrDepth) || data != nil || err.Error() != wantPath {
\t\tt.Fatalf("129 levels written (final): %d bytes, %v", len(data), err)
\t}
\tlim := fbe.DefaultLimits
\tlim.MaxDepth = 127
\terr = back.ReadFBE(data, &lim)
\tif !errors.Is(err, fbe.ErrDepth) || VerifyFBENode(data, &lim) == nil {
\t\tt.Fatalf("128 levels read with a limit of 127: %v", err)
\t}
\tconst want = "structs nested deeper than 127 (names.Node.children[0]"
\tif got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
\t\tt.Fatalf("error path: %s", got)
\t}
\tfinal, _ := chain(128).MarshalFinal()
\tif err := back.ReadFinal(final, &lim); !errors.Is(err, fbe.ErrDepth) {
\t\tt.Fatalf("final, limit 127: %v", err)
\t}
}

// grove is a Tree nested depth levels deep through children: the last one's Leaf and Twig
// are one level deeper, and its Leaf holds a Twig one more level down when twig is set.
func grove(depth int, twig bool) *Tree {
\troot := &Tree{}
\tn := root
\tfor i := 1; i < depth; i++ {
\t\tn.Children = []Tree{{}}
\t\tn = &n.Children[0]
\t}
\tif twig {
\t\tn.Leaf.Twig = &Twig{Y: 1}
\t}
\treturn root
}

// docs/limits.md 1 below a recursive struct: the bounded structs a Tree holds count as the
// readers count them (a Twig the Leaf may hold only when it holds one), in every writer.
func TestDepthBelowRecursive(t *testing.T) {
\tvar out bytes.Buffer
\tsender, final := NewSender(&out), NewFinalSender(&out)
\twriters := []struct {
\t\tname  string
\t\twrite func(*Tree) ([]byte, error)
\t\tread  func(*Tree, []byte, *fbe.Limits) error
\t}{
\t\t{"MarshalFBE", (*Tree).MarshalFBE, (*Tree).ReadFBE},
\t\t{"MarshalFinal", (*Tree).MarshalFinal, (*Tree).ReadFinal},
\t\t{"AppendJSON", func(v *Tree) ([]byte, error) { return v.AppendJSON(nil) }, (*Tree).ReadJSON},
\t\t{"Sender", func(v *Tree) ([]byte, error) {
\t\t\tout.Reset()
\t\t\t_, err := sender.SendTree(v)
\t\t\treturn out.Bytes(), err
\t\t}, nil},
\t\t{"FinalSender", func(v *Tree) ([]byte, error) {
\t\t\tout.Reset()
\t\t\t_, err := final.SendTree(v)
\t\t\treturn out.Bytes(), err
\t\t}, nil},
\t}
\tlim := fbe.DefaultLimits
\tlim.MaxDepth = 127
\tstem := "names.Tree" + strings.Repeat(".children[0]", 126)
\tfor _, m := range writers {
\t\t// 127 Trees: the last Leaf and Twig are level 128, the Leaf's Twig 129.
\t\tfor _, v := range []*Tree{grove(127, false), grove(126, true)} {
\t\t\tdata, err := m.write(v)
\t\t\tif err != nil || len(data) == 0 {
\t\t\t\tt.Fatalf("%s, 128 levels: %v", m.name, err)
\t\t\t}
\t\t\tif m.read == nil {
\t\t\t\tcontinue
\t\t\t}
\t\t\tvar back Tree
\t\t\tif err := m.read(&back, data, nil); err != nil {
\t\t\t\tt.Fatalf("%s, 128 levels read: %v", m.name, err)
\t\t\t}
\t\t\tif again, err := m.write(&back); err != nil || !bytes.Equal(again, data) {
\t\t\t\tt.Fatalf("%s, 128 levels written back: %v", m.name, err)
\t\t\t}
\t\t\tif err := m.read(&back, data, &lim); !errors.Is(err, fbe.ErrDepth) {
\t\t\t\tt.Fatalf("%s, 128 levels read with a limit of 127: %v", m.name, err)
\t\t\t}
\t\t}
\t\tfor _, c := range []struct {
\t\t\tv    *Tree
\t\t\tpath string
\t\t}{
\t\t\t{grove(128, false), stem + ".children[0].leaf"},
\t\t\t{grove(127, true), stem + ".leaf"},
\t\t} {
\t\t\tdata, err := m.write(c.v)
\t\t\twant := "structs nested deeper than 128 (" + c.path + ")"
\t\t\tif !errors.Is(err, fbe.ErrDepth) || len(data) != 0 || err.Error() != want {
\t\t\t\tt.Fatalf("%s, 129 levels written: %d bytes, %v", m.name, len(data), err)
\t\t\t}
\t\t}
\t}
\t// the Leaf's walk counts the Twigs of its slice and map too
\tv := grove(127, false)
\tn := &v.Children[0]
\tfor len(n.Children) > 0 {
\t\tn = &n.Children[0]
\t}
\tn.Leaf.Byid = map[int32]Twig{1: {}}
\tif _, err := v.MarshalFBE(); !errors.Is(err, fbe.ErrDepth) {
\t\tt.Fatalf("a Twig in a map at level 129: %v", err)
\t}
\tn.Leaf.Byid, n.Leaf.Twigs = nil, []Twig{{}}
\tif _, err := v.MarshalFinal(); !errors.Is(err, fbe.ErrDepth) {
\t\tt.Fatalf("a Twig in a slice at level 129: %v", err)
\t}
}

// docs/limits.md 4: verify accepts exactly what deserialize reads, over truncations and corruptions.
func TestVerifyIsDeserialize(t *testing.T) {
\tdata, _ := (&Writer{Lambda: *sample()}).MarshalFBE()
\tfor i := range data {
\t\tfor _, b := range []byte{0, 1, 0x80, 0xff} {
\t\t\tc := append([]byte(nil), data...)
\t\t\tc[i] = b
\t\t\tvar v Writer
\t\t\tif (v.UnmarshalFBE(c) == nil) != (VerifyFBEWriter(c, nil) == nil) {
\t\t\t\tt.Fatalf("byte %d = %#x: verify and deserialize disagree", i, b)
\t\t\t}
\t\t}
\t}
}

// Protocol names a schema type takes get a trailing underscore: the messages Client and Handler.
func TestProtocolNames(t *testing.T) {
	var got []any
	var out bytes.Buffer
	c := NewClient_(&out, HandlerFunc(func(v any) { got = append(got, v) }))
	if _, err := c.SendHandler(&Handler{Text: "h"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendClient(&Client{Id: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(out.Bytes()); err != nil || len(got) != 2 {
		t.Fatalf("%v %v", err, got)
	}
	var _ Handler_ = BaseHandler{}
}

// Serializing into a reused Writer allocates nothing (a struct without maps).
// JSON (docs/format.md 8): json.Marshal writes the FBE JSON and json.Unmarshal reads it (values,
// pointers and fields of other structs); fmt prints the text form (String).
func TestJSONAndText(t *testing.T) {
\tv := sample()
\tconst want = `{"type":7,"func":"f","String":2,"Reset":3,"import":true,"v":1,"w":2,"r":3,"b":4,"n":5,` +
\t\t`"fbe":1.5,"e":[4,0],"slot":{"a":1,"b":2},"raw":{"AQ==":"AgM="}}`
\tfor _, x := range []any{v, *v} {
\t\tif data, err := json.Marshal(x); err != nil || string(data) != want {
\t\t\tt.Fatalf("json.Marshal(%T): %s %v", x, data, err)
\t\t}
\t}
\tif data, err := v.AppendJSON([]byte("x=")); err != nil || string(data) != "x="+want {
\t\tt.Fatalf("AppendJSON: %s %v", data, err)
\t}
\touter, err := json.Marshal(struct{ W Writer }{Writer{Lambda: *v}})
\tif err != nil || string(outer) != `{"W":{"lambda":`+want+`}}` {
\t\tt.Fatalf("in a struct: %s %v", outer, err)
\t}
\tvar back struct{ W Writer }
\tif err := json.Unmarshal(outer, &back); err != nil || !reflect.DeepEqual(back.W.Lambda, *v) {
\t\tt.Fatalf("json.Unmarshal: %v\\n%+v\\n%+v", err, back.W.Lambda, *v)
\t}
\tvar w Weird
\terr = json.Unmarshal([]byte(`{"type":1,"type":2}`), &w)
\tif err == nil || !strings.Contains(err.Error(), `duplicate member name "type" (names.Weird.type, offset 10)`) {
\t\tt.Fatalf("duplicate member: %v", err)
\t}
\tconst text = `Weird(type=7,func="f",String=range,Reset=map|chan|all,import=true,v=1,w=2,r=3,b=4,n=5,` +
\t\t`fbe=1.5,e=[2][nil,type],slot=[2]<{"a"->1,"b"->2}>,raw=[1]<{bytes[1]->bytes[2]}>)`
\tif got := fmt.Sprint(*v); got != text {
\t\tt.Fatalf("text:\\n%s\\n%s", got, text)
\t}
\tif got := fmt.Sprint(KindNone, Kind(9), BitsAll, Bits(0)); got != "None <unknown> map|chan|all " {
\t\tt.Fatalf("enum and flags text: %q", got)
\t}
}

// docs/limits.md 1 in JSON: 128 levels are written and read, 129 are refused by the writer, and a
// reader with a limit of 127 names the path.
func TestJSONDepthLimit(t *testing.T) {
\tdata, err := chain(128).AppendJSON(nil)
\tif err != nil {
\t\tt.Fatal(err)
\t}
\tvar back Node
\tif err := back.UnmarshalJSON(data); err != nil || !reflect.DeepEqual(&back, chain(128)) {
\t\tt.Fatalf("128 levels: %v", err)
\t}
\tif data, err := chain(129).AppendJSON(nil); !errors.Is(err, fbe.ErrDepth) || len(data) != 0 ||
\t\terr.Error() != "structs nested deeper than 128 (names.Node"+strings.Repeat(".children[0]", 128)+")" {
\t\tt.Fatalf("129 levels written: %d bytes, %v", len(data), err)
\t}
\tif _, err := json.Marshal(chain(129)); !errors.Is(err, fbe.ErrDepth) {
\t\tt.Fatalf("129 levels, json.Marshal: %v", err)
\t}
\tlim := fbe.DefaultLimits
\tlim.MaxDepth = 127
\terr = back.ReadJSON(data, &lim)
\tconst want = "structs nested deeper than 127 (names.Node.children[0].children[0]"
\tif !errors.Is(err, fbe.ErrDepth) || !strings.HasPrefix(err.Error(), want) {
\t\tt.Fatalf("128 levels read with a limit of 127: %v", err)
\t}
}

func TestReuseAllocations(t *testing.T) {
\tv := chain(3)
\tvar w fbe.Writer
\t_, _ = v.AppendFBE(&w)
\tif n := testing.AllocsPerRun(50, func() { _, _ = v.AppendFBE(&w) }); n != 0 {
\t\tt.Errorf("AppendFBE: %v allocs", n)
\t}
\tif n := testing.AllocsPerRun(50, func() { _, _ = v.AppendFinal(&w) }); n != 0 {
\t\tt.Errorf("AppendFinal: %v allocs", n)
\t}
}
"""


def test_go_reserved_names_depth_verify_and_reuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A schema of Go keywords and of the generated code's own names (fields String, Reset, v, w, r...;
    a message named Writer) compiles and round-trips in both models; a recursive struct is refused
    beyond MaxDepth by writers and readers with the path in the error; verify agrees with
    deserialize; serializing into a reused Writer allocates nothing."""
    (tmp_path / "names.fbe").write_text(NAMES)
    out = tmp_path / "gen"
    args = [f"--input={tmp_path / 'names.fbe'}", f"--output={out}", "--go", "--final", "--json", "--proto"]
    assert fbec_main(args) == 0
    capsys.readouterr()
    (out / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (out / "names" / "names_test.go").write_text(GO_NAMES_TEST)
    r = run([GO, "vet", "./..."], out)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([GO, "test", "-count=1", "./..."], out)
    assert r.returncode == 0 and "ok  \tfbegen/names" in r.stdout, r.stdout[-6000:] + r.stderr


def protocol_module(root: Path, schemas: list[Path], tests: list[str]) -> None:
    """A module of the fbec --go --final --proto code of schemas and tests/go/protocol's named tests."""
    for f in schemas:
        assert fbec_main([f"--input={f}", f"--output={root}", "--go", "--final", "--proto", "-q"]) == 0
    (root / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    (root / "protocol").mkdir()
    for name in tests:
        shutil.copy(REPO / "tests" / "go" / "protocol" / name, root / "protocol")


def test_protocol_client_and_versions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/protocol: the generated Client of tests/everything (responses, rejects, the imported
    package's global reject, context deadlines, Reset, requests without response, notifications; both
    models), frames across schema versions (cpp-tests/vectors_old and vectors_new) and the seeds of
    FuzzGeneratedReceiver (Receiver, FinalReceiver, Proxy and Client over any stream)."""
    schemas = REPO / "schemas"
    protocol_module(tmp_path, [schemas / "tests" / "market.fbe", schemas / "tests" / "everything.fbe",
                               schemas / "cpp-tests" / "vectors_old.fbe", schemas / "cpp-tests" / "vectors_new.fbe"],
                    ["chunks_test.go", "client_test.go", "versions_test.go", "fuzz_test.go"])
    capsys.readouterr()
    r = run([GO, "vet", "./protocol"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([GO, "test", "-count=1", "-v", "./protocol"], tmp_path)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    for name in ("TestClientRequests", "TestClientMatchesResponseType", "TestClientSendError",
                 "TestCrossVersionStreams", "FuzzGeneratedReceiver"):
        assert f"--- PASS: {name}" in r.stdout


def test_protocol_original_streams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/protocol/streams_test.go: the original's sender streams through the generated proto
    Receiver and FinalReceiver whole, in 1-byte and random chunks, sent back byte for byte, and
    forwarded unchanged by the Proxy."""
    proto = SHARED / "schemas" / "proto.fbe"
    if not (SHARED / "vectors" / "protocol.fbe.bin").is_file() or not proto.is_file():
        pytest.skip(f"the original's protocol streams not found at {SHARED}/vectors (set SHARED)")
    protocol_module(tmp_path, [proto], ["chunks_test.go", "streams_test.go"])
    capsys.readouterr()
    r = subprocess.run([GO, "test", "-count=1", "-v", "./protocol"], cwd=tmp_path,
                       env={**GO_ENV, "SHARED": str(SHARED)}, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    for name in ("TestOriginalStreams", "TestProxyForwardsFrames"):
        assert f"--- PASS: {name}" in r.stdout


def test_go_keys_twice_refused_by_writers_and_readers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/go/keys on the generated code of tests/go/keys/keys.fbe (docs/limits.md 4): a set (a
    slice) holding an element twice, or a map held as pairs holding a key twice, of every key kind
    (integers, floats, strings, chars, bools, uuids, decimals, timestamps, enums, flags, bytes,
    structs with [key] fields of bytes, optionals and structs, structs without [key] fields) is
    refused by every writer (MarshalFBE/AppendFBE, MarshalFinal/AppendFinal, AppendJSON,
    json.Marshal, the Senders) with the type, the field path and the two indexes, nothing written,
    in any order and beyond the pairwise check; distinct keys in any order are written and read
    back; keys in order are written without allocating; every reader (both models, verify, JSON)
    refuses such data."""
    out = tmp_path / "gen"
    args = [f"--input={REPO / 'tests' / 'go' / 'keys' / 'keys.fbe'}", f"--output={out}", "--go", "--final", "--json",
            "--proto"]
    assert fbec_main(args) == 0
    capsys.readouterr()
    (out / "go.mod").write_text(
        "module fbegen\n\ngo 1.26\n\nrequire github.com/fbe-toolkit/fbe/runtime/go v0.0.0\n\n"
        f"replace github.com/fbe-toolkit/fbe/runtime/go => {REPO / 'runtime' / 'go'}\n")
    shutil.copy(REPO / "tests" / "go" / "keys" / "keys_test.go", out / "keys")
    r = run([GO, "vet", "./..."], out)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([GO, "test", "-count=1", "-v", "./..."], out)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr
    for name in ("TestWritersRefuseTheSameKeyTwice", "TestWriterErrorPaths", "TestSortedKeysWriteWithoutAllocations",
                 "TestReadersRefuseTheSameKeyTwice"):
        assert f"--- PASS: {name}" in r.stdout
