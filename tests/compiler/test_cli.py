"""The command line: options of the original, --ir output, clear errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import types

import pytest
from conftest import REPO, run_fbec
from fbec import cli
from fbec.targets.base import GeneratedFile, Options

EVERYTHING = str(REPO / "schemas/tests/everything.fbe")


def test_ir_json_shape(capsys):
    status, out, _ = run_fbec(capsys, "--ir", f"--input={EVERYTHING}")
    assert status == 0
    data = json.loads(out)
    assert data["version"] == 1 and data["main"] == "everything"
    assert set(data) == {"version", "main", "primitives", "text_brackets", "packages"}
    pkg = data["packages"][-1]
    assert set(pkg) == {"name", "file", "domain", "offset", "version", "imports", "enums", "flags", "structs",
                        "protocol", "dispatch", "plan"}
    assert pkg["protocol"][:2] == ["everything.Note", "everything.PlaceOrder"]
    assert pkg["domain"] == "org.example.all" and pkg["offset"] == 1000
    assert pkg["version"] == {"major": 3, "minor": 14}
    struct = next(s for s in pkg["structs"] if s["name"] == "Everything")
    assert set(struct) == {"name", "qualified", "message", "type_id", "base", "hidden", "deprecated", "request",
                           "response", "rejects", "body_size", "base_size", "final_size", "final_min_size",
                           "height", "recursive", "decode_cost", "default_cost", "fields", "all_fields", "keys",
                           "runs", "plan"}
    assert set(struct["plan"]) == {"bounded", "nests", "levels", "fields", "final_steps", "final_claims",
                                    "final_fixed_size"}
    f = struct["fields"][0]
    assert f == {"name": "id", "owner": "everything.Everything",
                 "type": {"kind": "primitive", "name": "int32", "size": 4, "final_size": 4, "final_min_size": 4,
                          "element_cost": 4, "default_cost": 0},
                 "offset": 8, "key": True, "id": False, "hidden": False, "deprecated": False,
                 "default": {"kind": "int", "value": 42}, "reset_of": None, "final_offset": 0}


def test_ir_to_output_folder(tmp_path, capsys):
    status, out, _ = run_fbec(capsys, "--ir", f"--input={EVERYTHING}", f"--output={tmp_path}", "-q")
    assert status == 0 and out == ""
    assert json.loads((tmp_path / "everything.ir.json").read_text())["main"] == "everything"


def test_list_outputs_names_what_generation_writes(tmp_path, capsys):
    listed = tmp_path / "listed"
    options = ("--cpp", "--final", "--json", "--proto", f"--input={EVERYTHING}")
    status, out, _ = run_fbec(capsys, *options, f"--output={listed}", "--list-outputs")
    assert status == 0 and not listed.exists()          # nothing written
    assert [line.rsplit("/", 1)[1] for line in out.splitlines()] == [
        "everything.h", "everything_models.h", "everything_field_models.h", "everything_final_models.h",
        "everything_json.h", "everything_protocol.h", "everything_final_protocol.h"]
    written = tmp_path / "written"
    assert run_fbec(capsys, *options, f"--output={written}", "-q")[0] == 0
    assert sorted(out.splitlines()) == sorted(str(p).replace(str(written), str(listed))
                                              for p in written.iterdir())


def test_package_prefix_puts_java_and_kotlin_packages_under_it(tmp_path, capsys):
    """--package-prefix: the Java and Kotlin code of one schema under other packages (the prefix
    before the domain), references to imported packages too; refused without --java/--kotlin or
    when it is not a dotted name."""
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "lib.fbe").write_text("domain com.example\npackage lib\nstruct B { int32 x; }\n")
    (schemas / "top.fbe").write_text("domain com.example\npackage top\nimport lib\nstruct T { lib.B b; }\n")
    out = tmp_path / "out"
    status, _, _ = run_fbec(capsys, "--java", "--kotlin", "--package-prefix=bench.kt", f"--input={schemas / 'top.fbe'}",
                            f"--output={out}", "-q")
    assert status == 0
    java = (out / "bench/kt/com/example/top/T.java").read_text()
    kotlin = (out / "bench/kt/com/example/top/T.kt").read_text()
    assert "package bench.kt.com.example.top;" in java and "bench.kt.com.example.lib.B b" in java
    assert "package bench.kt.com.example.top\n" in kotlin and "b: bench.kt.com.example.lib.B" in kotlin
    assert sorted(p.name for p in out.iterdir()) == ["bench"]
    assert run_fbec(capsys, "--cpp", "--package-prefix=x", f"--input={schemas / 'top.fbe'}", f"--output={out}")[0] == 2
    status, _, err = run_fbec(capsys, "--java", "--package-prefix=x..y", f"--input={schemas / 'top.fbe'}",
                              f"--output={out}")
    assert status == 2 and "not a dotted name" in err


def test_rust_serde_derives_serde_under_the_feature(tmp_path, capsys):
    """--rust-serde: every Rust struct and flags type derives serde's traits under the crate's
    feature `serde` (docs/rust.md, Serde), an enum has them from `fbe::serde_enum!` (its name or its
    number), and the fields holding strings of their own write them as text (`fbe::serde_text`);
    without it no serde at all; refused without --rust."""
    (tmp_path / "s.fbe").write_text("package s\nenum E { a; }\nflags F { x = 1; }\n"
                                    "struct T { E e; F f; string s; string?[] o; int32<string> m; U u; bytes b; }\n"
                                    "struct U { string{int32} h; }\n")
    derive = '#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]'
    text = '#[cfg_attr(feature = "serde", serde(serialize_with = "fbe::serde_text"))]'
    for option, derives, count in (("--rust-serde", 3, 4), (None, 0, 0)):
        out = tmp_path / str(count)
        status, _, _ = run_fbec(capsys, "--rust", *[option] * bool(option), f"--input={tmp_path / 's.fbe'}",
                                f"--output={out}", "-q")
        code = (out / "s.rs").read_text()
        assert status == 0 and code.count(derive) == derives  # T, U and F
        assert code.count(text) == count  # s, o, m and U.h, not T.u (U writes its own) nor bytes
        assert code.count('#[cfg(feature = "serde")]\nfbe::serde_enum!(E, i32, A);\n') == bool(count)
        assert ('#[cfg_attr(feature = "serde", serde(transparent))]' in code) == bool(count)
        assert option or "serde" not in code
    assert run_fbec(capsys, "--go", "--rust-serde", f"--input={tmp_path / 's.fbe'}", f"--output={tmp_path}")[0] == 2


def test_missing_input(capsys):
    status, _, err = run_fbec(capsys, "--ir", "--input=/nonexistent/x.fbe")
    assert status == 2 and err == "fbec: error: input file '/nonexistent/x.fbe' does not exist (see fbec --help)\n"


def test_nothing_to_generate(capsys):
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}")
    assert status == 2
    assert err == ("fbec: error: choose what to generate: --ir or a language (--cpp, --python, --go, --java, "
                   "--typescript, --javascript, --kotlin, --rust, --csharp, --ruby) (see fbec --help)\n")
    assert run_fbec(capsys, "--input=x.fbe")[0] == 2          # usage comes before looking for the file


def test_unavailable_target_says_so(capsys):
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}", "--swift", "-o", "/tmp")
    assert status == 2 and err.startswith("fbec: error: --swift: not supported: fbec checks the code it generates "
                                          "by compiling and running it")


def test_runs_from_source_tree_as_module():
    done = subprocess.run([sys.executable, "-m", "fbec", "--ir", f"--input={EVERYTHING}"],
                          cwd=REPO / "compiler", capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["version"] == 1


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        run_fbec(capsys, "--version")
    assert done.value.code == 0 and capsys.readouterr().out.startswith("fbec ")


def test_original_options_reach_the_target(tmp_path, capsys, monkeypatch):
    seen = {}

    def generate(schema, options):
        seen["options"], seen["main"] = options, schema.main
        return [GeneratedFile("sub/x.txt", "generated\n")]

    monkeypatch.setitem(sys.modules, "fbec.targets.ruby", types.SimpleNamespace(generate=generate))
    status, out, _ = run_fbec(capsys, f"--input={EVERYTHING}", f"--output={tmp_path}", "--ruby", "--final",
                              "--json", "--sender", "-n", "2", "-t")
    assert status == 0
    assert seen["main"] == "everything"
    assert seen["options"] == Options(final=True, json=True, proto=True, indent=2, tabs=True)
    assert (tmp_path / "sub/x.txt").read_text() == "generated\n"
    assert out == f"Generated: {tmp_path / 'sub/x.txt'}\n"
    # unchanged output is not rewritten (keeps build systems incremental) and -q silences the listing
    status, out, _ = run_fbec(capsys, f"--input={EVERYTHING}", f"--output={tmp_path}", "--ruby", "-q")
    assert status == 0 and out == ""


def test_target_not_implemented(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "fbec.targets.csharp", None)
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}", "--csharp", "-o", "/tmp")
    assert status == 2 and err == ("fbec: error: --csharp: the C# target is planned, not available yet; "
                                   "fbec generates C++ (--cpp) and Python (--python) and Go (--go) and Java (--java) "
                                   "and TypeScript (--typescript) and JavaScript (--javascript) and Kotlin (--kotlin) "
                                   "and Rust (--rust) and C# (--csharp) and Ruby (--ruby)\n")


def test_help_lists_what_works_and_says_what_is_planned(capsys):
    with pytest.raises(SystemExit) as done:
        run_fbec(capsys, "--help")
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "--cpp" in out and "--python" in out and "--go" in out and "--java" in out and "--kotlin" in out
    for hidden in ("--swift",):
        assert f"  {hidden} " not in out and f"[{hidden}]" not in out       # not offered as an option
    flat = " ".join(out.split())
    for lang, title in (("cpp", "C++"), ("python", "Python"), ("go", "Go"), ("java", "Java"),
                        ("typescript", "TypeScript"), ("rust", "Rust"), ("ruby", "Ruby")):
        assert f"--{lang} generate {title} code " in flat + " "     # complete: no note
    assert ("--javascript generate JavaScript code (ES modules with .d.ts declarations, the code of --typescript)"
            in flat)
    assert "--kotlin generate Kotlin code (on the Java runtime)" in flat
    assert "--csharp generate C# code (on Mono and .NET)" in flat
    assert "progress" not in flat and " yet)" not in flat and "; no " not in flat
    assert "Planned languages" not in flat                             # every language of the original but Swift
    assert "Swift (--swift): not supported:" in flat
    assert ("Exit status: 0 success; 1 errors in the schema (diagnostics) or a failed check (malformed data, "
            "an incompatible change, unformatted files); 2 usage errors") in flat


@pytest.mark.parametrize("lang", sorted(cli.TARGETS))
def test_every_target_generates_what_the_help_promises(capsys, tmp_path, lang):
    """The help says every target generates JSON (--json) and the protocol (--proto): a target that
    stops doing so must get a note (the notes once said "no JSON or protocol" long after Rust had both)."""
    schema = REPO / "schemas/tests/market.fbe"
    assert run_fbec(capsys, f"--input={schema}", f"--{lang}", "--final", "--json", "--proto",
                    f"--output={tmp_path}")[0] == 0
    text = "\n".join(p.read_text() for p in tmp_path.rglob("*") if p.is_file())
    for word in ("Sender", "Receiver", "Proxy", "Client"):
        assert re.search(rf"\b{word}\b", text), f"--{lang} --proto wrote no {word}"
    assert "json" in text.lower(), f"--{lang} --json wrote nothing of JSON"


def test_exit_status_two_for_usage(capsys, tmp_path):
    assert run_fbec(capsys, "--ir")[0] == 2                                   # no --input
    assert run_fbec(capsys, "--ir", f"--input={EVERYTHING}", "-n", "-1")[0] == 2
    assert run_fbec(capsys, f"--input={EVERYTHING}", "--swift", "--cpp", f"--output={tmp_path}")[0] == 2
    assert not any(tmp_path.iterdir())                                        # nothing written
    with pytest.raises(SystemExit) as done:
        run_fbec(capsys, "--ir", "--no-such-option")
    assert done.value.code == 2
    (tmp_path / "bad.fbe").write_text("package p\nstruct S { Foo f; }\n")
    assert run_fbec(capsys, "--ir", f"--input={tmp_path / 'bad.fbe'}")[0] == 1   # diagnostics


def _complete(script: str, *words: str) -> list[str]:
    """What bash completion offers after `fbec WORDS...` (the last word is the one being completed)."""
    line = " ".join(["fbec", *words])
    program = (f"{script}\nCOMP_LINE={line!r}; COMP_WORDS=(fbec {' '.join(repr(w) for w in words)}); "
               f"COMP_CWORD={len(words)}; _fbec; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True, cwd=REPO)
    return [w for w in done.stdout.splitlines() if w]


def test_bash_completion_script(capsys):
    status, script, _ = run_fbec(capsys, "--completion", "bash")
    assert status == 0 and "complete -F _fbec fbec" in script
    assert _complete(script, "--py") == ["--python"]
    assert _complete(script, "--g") == ["--go"]
    assert _complete(script, "--j") == ["--java", "--javascript", "--json"]
    assert _complete(script, "--k") == ["--kotlin"]
    assert _complete(script, "--r") == ["--rust", "--ruby", "--rust-serde"]
    assert _complete(script, "--cs") == ["--csharp"]
    assert set(_complete(script, "")) >= {"decode", "encode", "compat", "format", "--input", "--cpp"}
    assert _complete(script, "--input", "schemas/tr") == ["schemas/trade.fbe"]
    assert _complete(script, "--input", "=", "schemas/tr") == ["schemas/trade.fbe"]    # --input=schemas/tr
    assert _complete(script, "decode", "--model", "=", "") == ["versioned", "final"]
    assert _complete(script, "encode", "--to", "b") == ["base64"]
    assert "--strict" in _complete(script, "compat", "--")
    assert _complete(script, "format", "--ch") == ["--check"]


def test_a_name_no_renaming_can_reach_is_refused(tmp_path, capsys):
    """Java and Kotlin: a class of the derived struct's package is named by its full name where a field
    inherited from another package's base hides its simple name; when another inherited field hides
    the first part of that name too, fbec refuses the schema, naming the clash (docs/java.md "Names")."""
    (tmp_path / "lib.fbe").write_text("package lib\nstruct Base { int32 side; int32 top; }\n")
    (tmp_path / "top.fbe").write_text("package top\nimport lib\nenum side { buy; sell; }\n"
                                      "struct D : lib.Base { side s = side.sell; }\n")
    (tmp_path / "mid.fbe").write_text("package mid\nimport lib\nenum side { buy; sell; }\n"
                                      "struct D : lib.Base { side s = side.sell; }\n")
    out = tmp_path / "out"
    for lang in ("--java", "--kotlin"):
        assert run_fbec(capsys, lang, f"--input={tmp_path / 'mid.fbe'}", f"--output={out}", "-q")[0] == 0
        status, _, err = run_fbec(capsys, lang, f"--input={tmp_path / 'top.fbe'}", f"--output={out}", "-q")
        assert status == 1, err
        assert err == (f"fbec: error: {lang}: top.side cannot be named where fields 'side' and 'top' are inherited "
                       "from another package: rename one of them in the schema\n")
    assert "top = mid.side.sell" not in (out / "mid" / "D.java").read_text()
    assert "public mid.side s = mid.side.sell;" in (out / "mid" / "D.java").read_text()
    assert "var s: mid.side = mid.side.sell" in (out / "mid" / "D.kt").read_text()
