"""Builds what `make test-csharp` runs (build/csharp): the runtime Fbe.dll (runtime/csharp/src), the
fbec --csharp --final output of every schema (schemas/**/*.fbe and ../shared's, each with the schemas
it imports) compiled with mcs -warnaserror into one assembly per schema, and the NUnit tests
(tests/csharp/*.cs) into Tests.dll (ClientTest.cs on schemas/tests/everything.fbe's protocol,
RequestsTest.cs on tests/java/generated/requests.fbe's, gen/requests.dll). ../shared's schemas are
also Shared.dll, which the vector tests load by reflection (absent when ../shared is: the tests then
say so); the hostile-names corpus's value (tests/names/hostile.py, by the reference codec) is written
as vectors in hostile/ beside it, which the same tests read with gen/tests_hostile_names.dll.

    python tests/csharp/build.py [build folder]
    python tests/csharp/build.py --summary TestResult.xml   # nunit-console's result as make's closing line
    python tests/csharp/build.py --testee build/conformance/csharp   # the conformance testee
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
sys.path.insert(0, str(REPO / "compiler"))
sys.path.insert(0, str(REPO / "runtime" / "python"))
sys.path.insert(0, str(REPO / "tests" / "names"))

from fbec.cli import main as fbec_main
from hostile import write_vectors

MCS = ["mcs", "-langversion:7", "-warn:4", "-warnaserror", "-nologo", "-debug-"]
CLI = Path("/usr/lib/cli")
REQUESTS = REPO / "tests" / "java" / "generated" / "requests.fbe"     # a request whose response has no id
REFERENCES = [CLI / "nunit.framework-2.6.3" / "nunit.framework.dll",
              CLI / "Newtonsoft.Json-5.0" / "Newtonsoft.Json.dll"]


def mcs(out: Path, sources: list[Path], references: list[Path], library: bool = True) -> None:
    command = [*MCS, f"-target:{'library' if library else 'exe'}", f"-out:{out}",
               *(f"-r:{r}" for r in references), *map(str, sources)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"build.py: mcs failed for {out.name}:\n{result.stdout}{result.stderr}")


def build_runtime(out: Path) -> None:
    """out/Fbe.dll by the runtime's own Makefile, the rule a user runs (docs/csharp.md)."""
    result = subprocess.run(["make", "-s", "-C", str(REPO / "runtime" / "csharp"),
                             f"OUT={out}", f"NEWTONSOFT={REFERENCES[1]}"],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"build.py: make -C runtime/csharp failed:\n{result.stdout}{result.stderr}")


def schema_with_imports(schema: Path) -> list[Path]:
    """The schema and the schemas it imports (`import x` is x.fbe beside it), transitively."""
    out: list[Path] = []
    todo = [schema]
    while todo:
        s = todo.pop()
        if s not in out:
            out.append(s)
            todo += [s.parent / f"{m}.fbe" for m in re.findall(r"^import\s+(\w+)", s.read_text(), re.MULTILINE)]
    return out


def generate(schemas: list[Path], out: Path) -> list[Path]:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for s in schemas:
        if fbec_main(["-q", "--csharp", "--final", "--json", "--proto", f"--input={s}", f"--output={out}"]) != 0:
            sys.exit(f"build.py: fbec --csharp failed on {s}")
    return sorted(out.glob("*.cs"))


def summary(result: Path) -> None:
    """`test-csharp: N passed, N failed, N skipped` of an NUnit 2.6 result file (tools/run_suites.py reads it)."""
    r = ET.parse(result).getroot().attrib
    failed = sum(int(r.get(k, 0)) for k in ("errors", "failures", "invalid"))
    passed = int(r["total"]) - failed - int(r.get("inconclusive", 0))
    print(f"test-csharp: {passed} passed, {failed} failed, {r.get('not-run', 0)} skipped")


def build_testee(out: Path, fbe: Path) -> None:
    """The conformance testee (conformance/testees/csharp) in `out`: fbec --csharp's code of every
    conformance schema (conformance/schemas.py, with their imports) as Generated.dll, their IR (fbec
    --ir, which the testee walks value descriptions with) and the script csharp_testee that starts it."""
    sys.path.insert(0, str(REPO / "conformance"))
    from schemas import conformance_schemas

    schemas = [s for schema in conformance_schemas() for s in schema_with_imports(schema)]
    schemas = list(dict.fromkeys(schemas))
    mcs(out / "Generated.dll", generate(schemas, out / "gen"), [fbe, REFERENCES[1]])
    ir = out / "ir"
    shutil.rmtree(ir, ignore_errors=True)
    ir.mkdir(parents=True)
    for k, s in enumerate(schemas):
        if fbec_main(["-q", "--ir", f"--input={s}", f"--output={ir / str(k)}"]) != 0:
            sys.exit(f"build.py: fbec --ir failed on {s}")
    for r in (fbe, REFERENCES[1]):
        if r.resolve() != (out / r.name).resolve():
            shutil.copy(r, out / r.name)
    mcs(out / "Testee.exe", sorted((REPO / "conformance" / "testees" / "csharp").glob("*.cs")),
        [fbe, REFERENCES[1], Path("System.Numerics.dll")], library=False)
    script = out / "csharp_testee"
    script.write_text('#!/bin/sh\nd="$(dirname "$0")"\nexec mono "$d/Testee.exe" "$d/Generated.dll" "$d"/ir/*/*.json\n')
    script.chmod(0o755)
    print(f"build.py: the conformance testee in {script}")


def main() -> None:
    if sys.argv[1:2] == ["--summary"]:
        summary(Path(sys.argv[2]))
        return
    if sys.argv[1:2] == ["--testee"]:
        out = Path(sys.argv[2]).resolve()
        out.mkdir(parents=True, exist_ok=True)
        build_runtime(out)
        build_testee(out, out / "Fbe.dll")
        return
    build = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "build" / "csharp").resolve()
    build.mkdir(parents=True, exist_ok=True)
    fbe = build / "Fbe.dll"
    build_runtime(build)
    schemas = sorted((REPO / "schemas").rglob("*.fbe"))
    shared = sorted((SHARED / "schemas").glob("*.fbe")) if (SHARED / "schemas").is_dir() else []
    for schema in schemas:
        name = schema.relative_to(REPO / "schemas").with_suffix("").as_posix().replace("/", "_")
        sources = generate(schema_with_imports(schema), build / "gen" / name)
        mcs(build / "gen" / f"{name}.dll", sources, [fbe, REFERENCES[1]])
    write_vectors(build / "hostile")     # the hostile names' value by the reference codec, as ../shared's vectors
    if shared:
        mcs(build / "Shared.dll", generate(shared, build / "gen" / "shared"), [fbe, REFERENCES[1]])
    elif (build / "Shared.dll").exists():
        (build / "Shared.dll").unlink()
    for r in REFERENCES:
        shutil.copy(r, build / r.name)
    # the Client's tests use everything.fbe's generated protocol and RequestsTest requests.fbe's (a response without id)
    mcs(build / "gen" / "requests.dll", generate([REQUESTS], build / "gen" / "requests"), [fbe, REFERENCES[1]])
    protocols = [build / "gen" / "tests_everything.dll", build / "gen" / "requests.dll"]
    for p in protocols:
        shutil.copy(p, build / p.name)
    mcs(build / "Tests.dll", sorted((REPO / "tests" / "csharp").glob("*.cs")),
        [fbe, *REFERENCES, Path("System.Numerics.dll"), *(build / p.name for p in protocols)])
    print(f"build.py: Fbe.dll, {len(schemas)} project schemas{', the shared schemas' if shared else ''} "
          f"and Tests.dll in {build}")


if __name__ == "__main__":
    main()
