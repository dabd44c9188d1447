"""Build the Ruby conformance testee: `build.py OUT` generates the fbec --ruby --final --json --proto code
of every conformance schema into OUT/gen (one file per package), writes OUT/types.json (each struct's
class and fields and each enum's class, with the schema types main.rb reads and writes value
descriptions by, and each package's Receiver and FinalReceiver), the gem's C accelerator in OUT/ext
(runtime/ruby/ext/fbe_accel, as gem install builds it) and OUT/ruby_testee, the command that runs main.rb
with the runtime gem's lib (runtime/ruby/lib) and the accelerator on Debian's ruby: the testee writes
what a user's installed gem writes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path[:0] = [str(REPO / "compiler"), str(REPO / "conformance")]

from fbec.cli import main as fbec_main
from fbec.model import ir
from fbec.model.resolve import compile_schema
from fbec.syntax.diagnostics import Diagnostics
from fbec.targets.ruby.names import Idents

from schemas import package_sources


def describe_type(t: ir.Type) -> Any:
    """A schema type as main.rb reads it: [kind, ...]."""
    if isinstance(t, ir.Primitive):
        return ["primitive", t.name]
    if isinstance(t, ir.EnumRef):
        return [t.kind, t.name, t.wire]
    if isinstance(t, ir.StructRef):
        return ["struct", t.name]
    if isinstance(t, ir.Optional_):
        return ["optional", describe_type(t.element)]
    if isinstance(t, (ir.Array, ir.Sequence)):
        return [t.kind, describe_type(t.element)]
    assert isinstance(t, ir.Mapping)
    return [t.kind, describe_type(t.key), describe_type(t.value)]


def main(out: Path) -> int:
    out = out.resolve()
    ruby = shutil.which("ruby")
    if ruby is None:
        print("conformance-build-ruby: ruby is missing (make ruby-toolchain installs it)", file=sys.stderr)
        return 1
    gen = out / "gen"
    if gen.exists():
        shutil.rmtree(gen)
    gen.mkdir(parents=True)
    types: dict[str, Any] = {"structs": {}, "enums": {}, "packages": {}, "receivers": {}}
    for source in package_sources():
        if fbec_main([f"--input={source}", f"--output={gen}", "--ruby", "--final", "--json", "--proto", "-q"]) != 0:
            return 1
        own = compile_schema(str(source), [], Diagnostics())
        idents = Idents(own)
        p = own.main_package
        module = idents.module(p.name)
        types["packages"][p.name] = idents.file(p.name)
        types["receivers"][p.name] = [f"{module}::{idents.protocol(p.name, n)}" for n in ("Receiver", "FinalReceiver")]
        for e in p.enums + p.flags:
            types["enums"][e.qualified] = f"{module}::{idents.type(e.qualified)}"
        for s in p.structs:
            types["structs"][s.qualified] = {
                "class": f"{module}::{idents.type(s.qualified)}",
                "fields": [[f.name, idents.field(s.qualified, f.name), describe_type(f.type)] for f in s.all_fields]}
    (out / "types.json").write_text(json.dumps(types))
    ext = out / "ext"
    if ext.exists():
        shutil.rmtree(ext)
    ext.mkdir()
    extconf = REPO / "runtime" / "ruby" / "ext" / "fbe_accel" / "extconf.rb"
    for step in ([ruby, str(extconf)], ["make", "--no-print-directory"]):
        if subprocess.run(step, cwd=ext, stdout=subprocess.DEVNULL, check=False).returncode != 0:
            print(f"conformance-build-ruby: {' '.join(step)} failed in {ext}", file=sys.stderr)
            return 1
    if not (ext / "fbe_accel.so").exists():
        print("conformance-build-ruby: the C accelerator was not built (make ruby-toolchain installs "
              "ruby-dev and gcc)", file=sys.stderr)
        return 1
    command = out / "ruby_testee"
    command.write_text(f'#!/bin/sh\nexec "{ruby}" -I "{REPO / "runtime" / "ruby" / "lib"}" -I "{ext}" '
                       f'"{HERE / "main.rb"}" "{out}" "$@"\n')
    command.chmod(0o755)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "build" / "conformance" / "ruby")))
