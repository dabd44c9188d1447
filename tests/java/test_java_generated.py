"""The Java target: fbec --java's output for every schema (the project's and ../shared's) compiles
with javac -Xlint:all -Werror against runtime/java, reads every golden vector in both models and
writes it back byte for byte, refuses truncations and reads corruptions to a value or a
DecodeException only and prints the original's text (tests/java/vectors/VectorsCheck.java), and looks as Java users expect. Run
by `make test-java`, which installs the JDK."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
JAVAC = os.environ.get("JAVAC") or shutil.which("javac") or "/usr/bin/javac"
JAVA = str(Path(JAVAC).resolve().parent / "java")
sys.path.insert(0, str(REPO / "tools"))

import java_runtime


def javac(sources: list[Path], classpath: list[str], out: Path) -> subprocess.CompletedProcess[str]:
    listing = out.with_suffix(".sources")
    listing.write_text("\n".join(str(s) for s in sources) + "\n")
    return subprocess.run([JAVAC, "-Xlint:all", "-Werror", "-encoding", "UTF-8", "-d", str(out),
                           "-cp", os.pathsep.join(str(p) for p in classpath), f"@{listing}"],
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def runtime() -> str:
    """runtime/java's classes, compiled as its pom compiles them, and its dependencies (jackson-core):
    the classpath of generated code."""
    assert Path(JAVAC).exists(), f"no javac at {JAVAC} (set JAVAC; make test-java installs the JDK)"
    return java_runtime.classpath()


def schema_files() -> list[Path]:
    """The original's schemas first (their imports resolve among them), then the project's."""
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    return shared + sorted((REPO / "schemas").rglob("*.fbe"))


def java_package_of(path: Path) -> str:
    domain = name = ""
    for line in path.read_text().splitlines():
        words = line.split()
        if words[:1] == ["domain"]:
            domain = words[1]
        if words[:1] == ["package"]:
            name = words[1]
    return f"{domain}.{name}" if domain else name


def groups(files: list[Path]) -> list[dict[str, Path]]:
    """The schemas spread over as few compilations as their Java packages allow (schemas/trade.fbe
    and ../shared's proto.fbe are both com.chronoxor.proto)."""
    out: list[dict[str, Path]] = []
    for f in files:
        name = java_package_of(f)
        home = next((g for g in out if name not in g), None)
        if home is None:
            home = {}
            out.append(home)
        home[name] = f
    return out


def generate(files: list[Path], out: Path, capsys: pytest.CaptureFixture[str]) -> list[Path]:
    for f in files:
        assert fbec_main([f"--input={f}", f"--output={out}", "--java", "--final", "--json", "-q"]) == 0, \
            capsys.readouterr().err
    capsys.readouterr()
    return sorted(out.rglob("*.java"))


def test_generated_java_compiles_without_warnings(tmp_path: Path, runtime: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for i, group in enumerate(groups(schema_files())):
        src = tmp_path / f"g{i}"
        sources = generate(list(group.values()), src, capsys)
        assert sources, f"nothing generated for {sorted(group)}"
        r = javac(sources, [runtime], tmp_path / f"c{i}")
        assert r.returncode == 0, f"javac -Xlint:all -Werror ({sorted(group)}):\n{r.stdout}{r.stderr}"


def test_golden_vectors_read_and_written_back(tmp_path: Path, runtime: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.is_file():
        pytest.skip(f"golden vectors not found at {manifest} (set SHARED)")
    sources = generate(sorted((SHARED / "schemas").glob("*.fbe")), tmp_path / "src", capsys)
    sources.append(REPO / "tests" / "java" / "vectors" / "VectorsCheck.java")
    r = javac(sources, [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = []
    for c in json.loads(manifest.read_text())["cases"]:
        files = {f["kind"]: f for f in c["files"]}
        mask = ",".join(f"{a}:{n}" for a, n in files["versioned"].get("unspecified_bytes", []))
        schema = SHARED / c["schema"]
        lines.append("\t".join([f"{java_package_of(schema)}.{c['type']}",
                                str(SHARED / "vectors" / files["versioned"]["file"]),
                                str(SHARED / "vectors" / files["final"]["file"]), mask,
                                str(SHARED / "vectors" / files["text"]["file"]),
                                str(SHARED / "vectors" / files["json"]["file"]) if "json" in files else ""]))
    (tmp_path / "cases.txt").write_text("\n".join(lines) + "\n")
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "VectorsCheck",
                        str(tmp_path / "cases.txt")], capture_output=True, text=True, check=False, timeout=600)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    summary = r.stdout.strip().splitlines()[-1]
    jsons = sum(1 for line in lines if not line.endswith("\t"))
    assert f"{2 * len(lines)} vectors read and written back, {2 * len(lines)} texts" in summary, summary
    assert f" {2 * jsons} JSON texts as the original's, {jsons} JSON texts read and written back" in summary, summary
    assert summary.endswith(" 0 problems"), summary
    counts = [int(word.replace(",", "")) for word in summary.split() if word.replace(",", "").isdigit()]
    checked = counts[0] + counts[2] + counts[3]     # vectors, truncations, corruptions
    assert f" {checked} verified as deserialize, {checked} read into a reused value as fresh (" in summary, summary
    print(summary)


USAGE = r"""
import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.State;
import io.github.fbetoolkit.fbe.DecodeException;

public final class Usage {
    private Usage() {}

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    public static void main(String[] args) throws Exception {
        Account a = new Account();
        check(a.state.equals(State.initialized.or(State.bad)) && a.state.value() == 11, "defaults: " + a.state);
        check(a.asset == null && a.orders.isEmpty() && a.name.isEmpty(), "empty defaults");
        a.id = 1;
        a.name = "Test";
        a.wallet.currency = "USD";
        a.wallet.amount = 1000;
        a.asset = new Balance();
        Order o = new Order();
        o.id = 7;
        o.symbol = "EURUSD";
        o.side = OrderSide.sell;
        a.orders.add(o);
        byte[] data = a.toFbe();
        Account b = Account.fromFbe(data);
        check(b.orders.get(0).side == OrderSide.sell && b.orders.get(0).symbol.equals("EURUSD"), "round trip");
        check(b.equals(a) && b.hashCode() == a.hashCode(), "equal by the [key] id");
        check(OrderSide.of((byte) 9).toString().equals("<unknown>") && OrderSide.of((byte) 9).value() == 9,
              "undeclared enum values are kept");
        check(Account.fromFinal(a.toFinal()).wallet.amount == 1000.0, "final round trip");
        Account.verifyFbe(data);
        Account.verifyFinal(a.toFinal());
        // reading into a reused value keeps its objects while the shape does not grow
        Account reused = Account.fromFbe(data);
        Order kept = reused.orders.get(0);
        Balance asset = reused.asset;
        java.util.List<Order> orders = reused.orders;
        a.orders.add(new Order());
        reused.readFbe(a.toFbe());
        check(reused.orders == orders && reused.orders.get(0) == kept && reused.asset == asset
              && reused.orders.size() == 2, "reused objects kept, a second order added");
        a.orders.remove(1);
        a.asset = null;
        reused.readFinal(a.toFinal());
        check(reused.orders == orders && reused.orders.get(0) == kept && reused.orders.size() == 1
              && reused.asset == null && reused.toString().equals(a.toString()), "shrunk: " + reused);
        try {
            reused.readFbe(java.util.Arrays.copyOf(data, data.length - 1));
            throw new AssertionError("a cut root read");
        } catch (DecodeException e) {
            check(reused.toString().equals(new Account().toString()), "reset after an error: " + reused);
        }
        data[data.length - 10] = 99;             // the order's symbol length: beyond the root
        try {
            Account.verifyFbe(data);
            throw new AssertionError("a corrupt length verified");
        } catch (DecodeException e) {
            check(e.getMessage().startsWith("string of 99 bytes beyond the end of the buffer (proto.Account.orders[0].symbol, offset "),
                  e.getMessage());
        }
        try {
            Account.fromFbe(data);
            throw new AssertionError("a corrupt length read");
        } catch (DecodeException e) {
            check(e.getMessage().startsWith("string of 99 bytes beyond the end of the buffer (proto.Account.orders[0].symbol, offset "),
                  e.getMessage());
        }
        System.out.println("usage ok");
    }
}
"""


def test_generated_types_are_plain_java(tmp_path: Path, runtime: str, capsys: pytest.CaptureFixture[str]) -> None:
    """proto.Account (schemas/trade.fbe): public fields with the schema's defaults, flags and enum
    value classes, a nullable optional, a java.util List, equality over the [key] field, both
    models, and a DecodeException naming type, field path and offset."""
    sources = generate([REPO / "schemas" / "trade.fbe"], tmp_path / "src", capsys)
    (tmp_path / "Usage.java").write_text(USAGE)
    r = javac([*sources, tmp_path / "Usage.java"], [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-ea", "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "Usage"],
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0 and "usage ok" in r.stdout, r.stdout + r.stderr


NAMES = """
package names
enum Kind : byte { new; default; value; of; None; }
flags Bits : byte { or = 1; and = 2; has = 4; all = or | and | has; }
struct String { [key] int32 class; }
struct List { int32 int; String String; }
struct Weird : List
{
    [key] int32 o;
    string other;
    Kind TYPE_ID;
    Bits KEY_ORDER;
    bool? import;
    int32 v; int32 w; int32 r; int32 b; int32 n; int32 e; int32 h; int32 c; int32 data_; int32 slot;
    Kind[] this;
    int32<string> data;
    bytes<bytes> raw;
    String! strings;
}
message Reader { Weird lambda; }
struct r { int32 x; r? next; }
"""

NAMES_CHECK = r"""
import names.*;

public final class NamesCheck {
    private NamesCheck() {}

    public static void main(String[] args) throws Exception {
        Weird v = new Weird();
        v.int_ = 1;
        v.String__.class_ = 2; // String_ is the class of the struct String
        v.o = 3;
        v.other = "x";
        v.TYPE_ID_ = Kind.new_;
        v.KEY_ORDER_ = Bits.all;
        v.import_ = true;
        v.e = 4;
        v.this_.add(Kind.value_);
        v.this_.add(Kind.of((byte) 9));
        v.data.put("b", 2);
        v.data.put("a", 1);
        v.raw.put(new byte[] {1}, new byte[] {2, 3});
        String_ s = new String_();
        s.class_ = 5;
        v.strings.add(s);
        Reader_ m = new Reader_();
        m.lambda = v;
        r_ chain = new r_();
        chain.next = new r_();
        chain.next.x = 6;
        for (boolean versioned : new boolean[] {true, false}) {
            byte[] data = versioned ? m.toFbe() : m.toFinal();
            Reader_ back = versioned ? Reader_.fromFbe(data) : Reader_.fromFinal(data);
            Weird w = back.lambda;
            if (w.int_ != 1 || w.String__.class_ != 2 || w.o != 3 || !w.other.equals("x") || w.TYPE_ID_ != Kind.new_
                    || !w.KEY_ORDER_.equals(Bits.all) || !w.import_ || w.e != 4 || w.this_.get(1).value() != 9
                    || !w.data.keySet().iterator().next().equals("a") || w.raw.get(new byte[] {1})[1] != 3
                    || w.strings.iterator().next().class_ != 5 || !java.util.Arrays.equals(data, versioned ? back.toFbe()
                    : back.toFinal())) {
                throw new AssertionError("round trip of names");
            }
        }
        if (r_.fromFbe(chain.toFbe()).next.x != 6 || !Kind.value_.toString().equals("value")) {
            throw new AssertionError("r");
        }
        System.out.println("names ok");
    }
}
"""


def test_schema_of_java_names_compiles_and_round_trips(tmp_path: Path, runtime: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Keywords, the classes the generated code uses (String, List, Reader), its static members
    (TYPE_ID, KEY_ORDER), the enum classes' members (value, of, or) and its locals (v, w, r, b, n,
    e...) as schema names: everything compiles and round-trips in both models."""
    schema = tmp_path / "names.fbe"
    schema.write_text(NAMES)
    sources = generate([schema], tmp_path / "src", capsys)
    (tmp_path / "NamesCheck.java").write_text(NAMES_CHECK)
    r = javac([*sources, tmp_path / "NamesCheck.java"], [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "NamesCheck"],
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0 and "names ok" in r.stdout, r.stdout + r.stderr


def test_protocol_streams_of_the_original(tmp_path: Path, runtime: str, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/java/protocol/ProtocolCheck.java: the original's Sender streams through the generated
    Receiver and FinalReceiver whole, byte by byte and in random chunks, sent back byte for byte
    by the generated Senders, forwarded unchanged by the Proxy; frames above the maximum skipped,
    below the minimum fatal."""
    streams = [SHARED / "vectors" / "protocol.fbe.bin", SHARED / "vectors" / "protocol.final.bin"]
    if not all(s.is_file() for s in streams):
        pytest.skip(f"protocol streams not found in {SHARED}/vectors (set SHARED)")
    for f in ("proto.fbe",):
        assert fbec_main([f"--input={SHARED / 'schemas' / f}", f"--output={tmp_path / 'src'}", "--java", "--final",
                          "--proto", "-q"]) == 0
    capsys.readouterr()
    sources = sorted((tmp_path / "src").rglob("*.java"))
    sources.append(REPO / "tests" / "java" / "protocol" / "ProtocolCheck.java")
    r = javac(sources, [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "ProtocolCheck",
                        *map(str, streams)], capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0 and "47 streams received and sent back" in r.stdout, r.stdout + r.stderr


def test_client_requests(tmp_path: Path, runtime: str, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/java/protocol/ClientCheck.java on the generated Client and FinalClient of
    schemas/tests/everything.fbe: response by id, reject, global reject, timeout, reset,
    notifications, a request without response."""
    for f in ("market.fbe", "everything.fbe"):
        assert fbec_main([f"--input={REPO / 'schemas' / 'tests' / f}", f"--output={tmp_path / 'src'}", "--java",
                          "--final", "--proto", "-q"]) == 0
    capsys.readouterr()
    sources = sorted((tmp_path / "src").rglob("*.java"))
    sources.append(REPO / "tests" / "java" / "protocol" / "ClientCheck.java")
    r = javac(sources, [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "ClientCheck"],
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0 and "client ok" in r.stdout, r.stdout + r.stderr


RUNS = """
package runs
struct Run { int32 a; int16[3] b; byte c; string s; double d; bool e; }
"""

RUNS_CHECK = r"""
import io.github.fbetoolkit.fbe.DecodeException;
import runs.Run;

public final class RunsCheck {
    private RunsCheck() {}

    static String outcome(byte[] data, boolean verify) {
        try {
            if (verify) {
                Run.verifyFinal(data);
            } else {
                Run.fromFinal(data);
            }
            return "ok";
        } catch (DecodeException e) {
            return e.getMessage();
        }
    }

    public static void main(String[] args) {
        Run v = new Run();
        v.s = "xyz";
        byte[] data = v.toFinal();
        for (int n = 8; n <= data.length; n++) {
            byte[] cut = java.util.Arrays.copyOf(data, n);
            cut[0] = (byte) n;   // the root's size says n: it ends inside its fields
            System.out.println(n + "\t" + outcome(cut, false) + "\t" + outcome(cut, true));
        }
    }
}
"""


def test_final_runs_fail_at_the_field(tmp_path: Path, runtime: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The final readers claim a run of fixed-size fields (docs/ir.md runs) with one check; a root
    that ends inside the run fails as a field-by-field read does: at the first field, or array
    element, that is not there, with its name and position. Read and verify agree."""
    schema = tmp_path / "runs.fbe"
    schema.write_text(RUNS)
    sources = generate([schema], tmp_path / "src", capsys)
    assert "r.run(11, " in (tmp_path / "src" / "runs" / "Run.java").read_text()
    (tmp_path / "RunsCheck.java").write_text(RUNS_CHECK)
    r = javac([*sources, tmp_path / "RunsCheck.java"], [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "RunsCheck"],
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    # the fields from the root's first byte: a at 8, b's elements at 12, 14, 16, c at 18, s (its
    # size at 19, its 3 bytes at 23), d at 26, e at 34; the root is 35 bytes
    starts = [("a", 8, 4), ("b", 12, 2), ("b", 14, 2), ("b", 16, 2), ("c", 18, 1), ("d", 26, 8), ("e", 34, 1)]
    seen = 0
    for line in r.stdout.splitlines():
        n, read, verify = line.split("\t")
        assert read == verify, line
        beyond = [(f, p) for f, p, size in starts if p + size > int(n)]
        if int(n) == 35:
            assert read == "ok", line
        elif beyond and not 19 <= int(n) < 26:
            f, p = beyond[0]
            assert read == f"value beyond the end of the buffer (runs.Run.{f}, offset {p})", line
            seen += 1
    assert seen == 20, r.stdout


def test_duplicate_keys_refused(tmp_path: Path, runtime: str, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/java/keys/KeysCheck.java on tests/java/keys/keys.fbe (docs/limits.md 4): a set, map or hash
    holding the same key twice under the readers' rule (bytes and decimals by value, floats with
    -0.0 as 0.0, structs by their [key] fields, structs without keys all alike) is refused by every
    writer (toFbe, toFinal, toJson, the reused writers, the Senders) with the type, field path and
    the two entries, nothing written; such bytes and JSON are refused by every reader; distinct keys
    in any Set or Map are written and read back."""
    assert fbec_main([f"--input={HERE / 'keys' / 'keys.fbe'}", f"--output={tmp_path / 'src'}", "--java", "--final",
                      "--json", "--proto", "-q"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    sources = [*sorted((tmp_path / "src").rglob("*.java")), HERE / "keys" / "KeysCheck.java"]
    r = javac(sources, [runtime], tmp_path / "classes")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([JAVA, "-ea", "-cp", os.pathsep.join([str(tmp_path / "classes"), str(runtime)]), "KeysCheck"],
                       capture_output=True, text=True, check=False, timeout=120)
    assert r.returncode == 0 and "keys ok" in r.stdout, r.stdout + r.stderr
    print(r.stdout.strip())
