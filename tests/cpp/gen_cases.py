#!/usr/bin/env python3
"""Writes the C++ tests of the golden vectors that the conformance runner does not make (GoogleTest).

    gen_cases.py --shared DIR --output cases.cpp

Reads DIR/vectors/MANIFEST.json and the IR of every schema it names (through
fbec's front end) and emits the cross-version reads, the protocol frames
(each message built from its `value`, the typed JSON of vectors/README.md)
and a table of readers of every case for the hostile-input tests. Expected
bytes and texts are read from $SHARED/vectors at run time. Each case's
bytes, text, JSON and value in both models are checked by
conformance/runner.py through the C++ testee (conformance/testees/cpp).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from decimal import Decimal
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "compiler"))

from fbec.model.ir import Schema, Type
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.cpp.common import cpp_type, field_ident, int_literal, model_ident, qualified, string_literal
from fbec.targets.cpp.names import escape, naming


def load_schema(path: str) -> Schema:
    return compile_schema(path, [], Diagnostics())


class ValueBuilder:
    """C++ expressions for typed-JSON values of one schema."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def expr(self, t: Type, v: Any, depth: int) -> str:
        kind = t.kind
        if kind == "optional":
            return "std::nullopt" if v is None else f"{cpp_type(t)}({self.expr(t.element, v, depth)})"
        if kind == "primitive":
            return self.primitive(t.name, v)
        if kind in ("enum", "flags"):
            wire = "int64_t" if t.wire.startswith("int") else "uint64_t"
            return f"static_cast<{qualified(t.name)}>({int_literal(int(v), wire)})"
        if kind == "struct":
            return self.struct(v, depth)
        if kind == "array":
            return f"{cpp_type(t)}{{{{{', '.join(self.expr(t.element, x, depth) for x in v)}}}}}"
        if kind in ("vector", "list", "set"):
            return f"{cpp_type(t)}{{{', '.join(self.expr(t.element, x, depth) for x in v)}}}"
        if kind in ("map", "hash"):
            pairs = list(v)
            if kind == "hash":
                # libstdc++ iterates a small unordered_map in reverse insertion
                # order: inserting the wire order reversed reproduces it.
                pairs.reverse()
            items = ", ".join(f"{{{self.expr(t.key, k, depth)}, {self.expr(t.value, x, depth)}}}" for k, x in pairs)
            return f"{cpp_type(t)}{{{items}}}"
        raise ValueError(kind)

    @staticmethod
    def primitive(name: str, v: Any) -> str:
        if name == "bool":
            return "true" if v else "false"
        if name in ("byte", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "timestamp"):
            cpp = {"byte": "uint8_t", "timestamp": "uint64_t"}.get(name, name + "_t")
            literal = int_literal(int(v), cpp)
            return literal if cpp in ("int64_t", "uint64_t") else f"{cpp}({literal})"
        if name == "char":
            return f"static_cast<char>({int(v)})"
        if name == "wchar":
            return f"static_cast<wchar_t>({int(v)})"
        if name == "float":
            return f"{float(v)!r}f"
        if name == "double":
            return repr(float(v))
        if name == "decimal":
            d = Decimal(v)
            sign, digits, exponent = d.as_tuple()
            magnitude = int("".join(map(str, digits))) if digits else 0
            scale = -exponent if exponent < 0 else 0
            magnitude *= 10 ** max(exponent, 0)
            lo, hi = magnitude & ((1 << 64) - 1), magnitude >> 64
            return f"FBE::decimal_t::from_parts(UINT64_C({lo}), {hi}u, {scale}u, {'true' if sign else 'false'})"
        if name == "string":
            return f"std::string({string_literal(v)}, {len(v.encode('utf-8'))})"
        if name == "bytes":
            data = bytes.fromhex(v)
            return "FBE::buffer_t{" + ", ".join(f"0x{b:02x}" for b in data) + "}"
        if name == "uuid":
            return f'FBE::uuid_t("{v}")'
        raise ValueError(name)

    def struct(self, v: dict[str, Any], depth: int) -> str:
        with naming(self.schema):
            return self._struct(v, depth)

    def _struct(self, v: dict[str, Any], depth: int) -> str:
        s = self.schema.struct(v["@type"])
        pad = "    " * (depth + 1)
        name = f"v{depth}"  # nested lambdas get their own name (-Wshadow)
        lines = ["[] {", f"{pad}{qualified(s.qualified)} {name};"]
        for f in s.all_fields:
            lines.append(f"{pad}{name}.{field_ident(f)} = {self.expr(f.type, v[f.name], depth + 1)};")
        lines.append(f"{pad}return {name};")
        lines.append("    " * depth + "}()")
        return "\n".join(lines)


def model_names(schema: Schema, qualified_name: str) -> dict[str, str]:
    package = escape(qualified_name.rpartition(".")[0])
    with naming(schema):
        return {"type": qualified(qualified_name),
                "model": f"FBE::{package}::{model_ident(qualified_name)}",
                "final": f"FBE::{package}::{model_ident(qualified_name, True)}"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()

    with open(os.path.join(args.shared, "vectors", "MANIFEST.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    schemas: dict[str, Schema] = {}

    def schema_of(path: str) -> Schema:
        if path not in schemas:
            schemas[path] = load_schema(os.path.join(args.shared, path))
        return schemas[path]

    proto = schema_of("schemas/proto.fbe")
    protoex = schema_of("schemas/protoex.fbe")
    by_package = {"proto": proto, "protoex": protoex}

    out: list[str] = [
        "// Generated by tests/cpp/gen_cases.py from MANIFEST.json of the golden vectors. Do not edit.",
        "",
        '#include "conformance.h"',
        "",
        '#include "enums_final_models.h"',
        '#include "enums_models.h"',
        '#include "proto_final_models.h"',
        '#include "proto_models.h"',
        '#include "protoex_final_models.h"',
        '#include "protoex_models.h"',
        '#include "test_final_models.h"',
        '#include "test_models.h"',
        "",
        "namespace {",
        "",
    ]
    readers: list[str] = []

    for case in manifest["cases"]:
        type_name = f"{case['package']}.{case['type']}"
        by_package[case["package"]] = schema_of(case["schema"])
        names = model_names(by_package[case["package"]], type_name)
        files = {f["kind"]: f for f in case["files"]}
        readers.append(f'    {{"{case["name"]}", "{files["versioned"]["file"]}", "{files["final"]["file"]}", '
                       f'&read_versioned<{names["model"]}, {names["type"]}>, '
                       f'&read_final<{names["final"]}, {names["type"]}>}},')

    out.append("// Reads of vectors with another version of the schema (MANIFEST cross_reads).")
    for i, read in enumerate(manifest["cross_reads"]["reads"]):
        _package, _, _name = read["read_as"].rpartition(".")
        names = model_names(by_package[read["read_as"].rpartition(".")[0]], read["read_as"])
        final = read["file"].endswith(".final.bin")
        model = names["final"] if final else names["model"]
        test_name = read["file"].replace(".", "_") + "_as_" + read["read_as"].replace(".", "_")
        out.append(f"TEST(CrossReads, {test_name})")
        out.append("{")
        out.append(f'    check_cross_read<{model}<FBE::ReadBuffer>, {names["type"]}>("{read["file"]}", '
                   f'{"true" if read["verify"] else "false"}, {read["deserialize_returns"]}, '
                   f'{string_literal(read["expected_text"])});')
        out.append("}")
        out.append("")

    out.append("// Frames of the protocol streams, read with the message models.")
    for stream in manifest["protocol"]:
        final = "final" in stream["kind"]
        for k, message in enumerate(stream["messages"]):
            type_name = message["type"]
            if "." not in type_name:
                type_name = f"{stream.get('package', 'proto')}.{type_name}"
            schema = by_package[type_name.rpartition(".")[0]]
            names = model_names(schema, type_name)
            builder = ValueBuilder(schema)
            model = names["final"] if final else names["model"]
            out.append(f"TEST(ProtocolFrames, {stream['file'].replace('.', '_')}_{k})")
            out.append("{")
            out.append(f"    const {names['type']} value = {builder.struct(message['value'], 1)};")
            out.append(f'    check_frame<{model}>("{stream["file"]}", "{stream["text_file"]}", {k}, '
                       f'{message["offset"]}, {message["size"]}, value);')
            out.append("}")
            out.append("")

    out.append("} // namespace")
    out.append("")
    out.append("// Every case with its readers, for the hostile-input tests (hostile.cpp).")
    out.append("const std::vector<VectorReaders>& vector_readers()")
    out.append("{")
    out.append("    static const std::vector<VectorReaders> readers = {")
    out.extend("    " + r for r in readers)
    out.append("    };")
    out.append("    return readers;")
    out.append("}")
    text = "\n".join(out) + "\n"

    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    try:
        with open(args.output, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
