"""Names in the C++ target (docs/cpp.md "Names"): fbec --cpp's code of the corpus of hostile names
(schemas/tests/hostile_names.fbe) compiles with g++ -Wall -Wextra -Wpedantic -Wshadow -Wconversion
-Werror (every header: models, final models, JSON, protocol with every class template
instantiated), and its value reads and writes back byte for byte in both models, as text and as
JSON (the vectors of the reference codec: tests/names/hostile.py). Run by `make test-cpp-generator`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.cpp.names import Idents, escape

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "names"))

import hostile

MAIN = r"""
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<uint8_t> read_file(const char* path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int failed = 0;

void expect(bool ok, const char* what)
{
    if (!ok) {
        std::printf("PROBLEM %s\n", what);
        ++failed;
    }
}

bool same(const uint8_t* data, std::size_t size, const std::vector<uint8_t>& bytes)
{
    return size == bytes.size() && std::equal(bytes.begin(), bytes.end(), data);
}

template <class M>
void check(const char* model, const std::vector<uint8_t>& data, const std::vector<uint8_t>& versioned,
           const std::vector<uint8_t>& final_bytes, const std::string& text, const std::string& json)
{
    M reader;
    reader.attach(data);
    Type back;
    expect(reader.verify() && reader.deserialize(back) == data.size(), model);
    std::ostringstream printed;
    printed << back;
    expect(printed.str() == text, "read: the text form");
    expect(FBE::JSON::to_string(back) == json, "read: the JSON");
    Versioned versioned_writer;
    versioned_writer.serialize(back);
    expect(same(versioned_writer.buffer().data(), versioned_writer.buffer().size(), versioned),
           "read, written versioned");
    Final final_writer;
    final_writer.serialize(back);
    expect(same(final_writer.buffer().data(), final_writer.buffer().size(), final_bytes), "read, written final");
}

} // namespace

int main(int, char** argv)
{
    const std::vector<uint8_t> versioned = read_file(argv[1]);
    const std::vector<uint8_t> final_bytes = read_file(argv[2]);
    const std::vector<uint8_t> text_bytes = read_file(argv[3]);
    const std::vector<uint8_t> json_bytes = read_file(argv[4]);
    const std::string text(text_bytes.begin(), text_bytes.end());
    const std::string json(json_bytes.begin(), json_bytes.end());
    Type value;
    expect(FBE::JSON::from_string(json, value), "JSON read");
    expect(FBE::JSON::to_string(value) == json, "JSON read and written");
    Versioned writer;
    writer.serialize(value);
    expect(same(writer.buffer().data(), writer.buffer().size(), versioned), "JSON read, written versioned");
    Final final_writer;
    final_writer.serialize(value);
    expect(same(final_writer.buffer().data(), final_writer.buffer().size(), final_bytes), "JSON read, written final");
    std::ostringstream printed;
    printed << value;
    expect(printed.str() == text, "JSON read: the text form");
    check<Versioned>("versioned read", versioned, versioned, final_bytes, text, json);
    check<Final>("final read", final_bytes, versioned, final_bytes, text, json);
    std::printf("hostile names: %d problems\n", failed);
    return failed;
}
"""


def test_hostile_names_compile_and_round_trip(tmp_path: Path) -> None:
    if shutil.which("g++") is None:
        pytest.fail("g++ not installed (make test-cpp-generator installs it)")
    gen = tmp_path / "gen"
    hostile.generate(gen, "--cpp", "--final", "--json", "--proto")
    names = Idents(compile_schema(str(hostile.SCHEMA), [str(hostile.IMPORTS)], Diagnostics()))
    package = escape(hostile.ROOT.rpartition(".")[0])
    lines = [f'#include "{p.name}"' for p in sorted(gen.iterdir())]
    for cls in ("Sender", "Receiver", "Proxy", "Client", "FinalSender", "FinalReceiver", "FinalClient"):
        lines.append(f"template class FBE::{package}::{cls}<FBE::WriteBuffer>;")
    lines += [f"using Type = ::{package}::{names.type(hostile.ROOT)};",
              f"using Versioned = FBE::{package}::{names.model(hostile.ROOT)}<>;",
              f"using Final = FBE::{package}::{names.model(hostile.ROOT, True)}<>;"]
    (tmp_path / "main.cpp").write_text("\n".join(lines) + MAIN)
    build = subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion",
                            "-Wsign-conversion", "-Werror", "-I", str(gen),
                            "-I", str(REPO / "runtime" / "cpp" / "include"),
                            str(tmp_path / "main.cpp"), "-o", str(tmp_path / "main")],
                           capture_output=True, text=True, timeout=1800, check=False)
    assert build.returncode == 0, build.stderr[:6000]
    v = hostile.write_vectors(tmp_path / "shared")
    run = subprocess.run([str(tmp_path / "main"), *(str(v[k]) for k in ("versioned", "final", "text", "json"))],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0 and "hostile names: 0 problems" in run.stdout, run.stdout[-6000:] + run.stderr[-2000:]
