"""The command line: options of the original, --ir output, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest
from conftest import REPO, run_fbec
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
                        "protocol", "dispatch"}
    assert pkg["protocol"][:2] == ["everything.Note", "everything.PlaceOrder"]
    assert pkg["domain"] == "org.example.all" and pkg["offset"] == 1000
    assert pkg["version"] == {"major": 3, "minor": 14}
    struct = next(s for s in pkg["structs"] if s["name"] == "Everything")
    assert set(struct) == {"name", "qualified", "message", "type_id", "base", "hidden", "deprecated", "request",
                           "response", "rejects", "body_size", "base_size", "final_size", "final_min_size",
                           "height", "recursive", "fields", "all_fields", "keys", "runs"}
    f = struct["fields"][0]
    assert f == {"name": "id", "owner": "everything.Everything",
                 "type": {"kind": "primitive", "name": "int32", "size": 4, "final_size": 4, "final_min_size": 4},
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
        "everything.h", "everything_models.h", "everything_final_models.h", "everything_json.h",
        "everything_protocol.h", "everything_final_protocol.h"]
    written = tmp_path / "written"
    assert run_fbec(capsys, *options, f"--output={written}", "-q")[0] == 0
    assert sorted(out.splitlines()) == sorted(str(p).replace(str(written), str(listed))
                                              for p in written.iterdir())


def test_missing_input(capsys):
    status, _, err = run_fbec(capsys, "--ir", "--input=/nonexistent/x.fbe")
    assert status == 1 and err == "fbec: error: input file '/nonexistent/x.fbe' does not exist\n"


def test_nothing_to_generate(capsys):
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}")
    assert status == 1 and "choose what to generate" in err


def test_unavailable_target_says_so(capsys):
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}", "--swift", "-o", "/tmp")
    assert status == 1 and "--swift: not available" in err


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
    monkeypatch.setitem(sys.modules, "fbec.targets.kotlin", None)
    status, _, err = run_fbec(capsys, f"--input={EVERYTHING}", "--kotlin", "-o", "/tmp")
    assert status == 1 and "the Kotlin target is not implemented yet" in err
