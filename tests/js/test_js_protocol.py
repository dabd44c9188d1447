"""The protocol of fbec --typescript --proto and --javascript --proto (issue 17) against runtime/js:
tests/js/client.test.ts (the Client of tests/everything.fbe in both models, frames across schema
versions) and, with ../shared, tests/js/streams.test.ts (the original's protocol streams in every
chunking through the generated Receivers, Senders and Proxy), each run on the TypeScript output
and on the JavaScript output (typechecked against its .d.ts). Run by `make test-js`."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_js_generated import COMPILER_OPTIONS, NODE, REPO, SHARED, generate, link_runtime, tsc

# A global reject (*market.Failure, listed by A) fails the pending request of its id whatever its type (B).
CALLS = """
package calls
import market

message Done
{
    uuid [id] = uuid1;
}

[request]
[response(Done)]
[reject(*market.Failure)]
message A
{
    uuid [id] = uuid1;
}

[request]
[response(Done)]
message B
{
    uuid [id] = uuid1;
}
"""

SCHEMAS = [REPO / "schemas" / "tests" / "market.fbe", REPO / "schemas" / "tests" / "everything.fbe",
           REPO / "schemas" / "cpp-tests" / "vectors_old.fbe", REPO / "schemas" / "cpp-tests" / "vectors_new.fbe"]


def test_generated_protocol(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared = (SHARED / "vectors" / "protocol.fbe.bin").is_file()
    (tmp_path / "schemas").mkdir()
    shutil.copy(REPO / "schemas" / "tests" / "market.fbe", tmp_path / "schemas")
    (tmp_path / "schemas" / "calls.fbe").write_text(CALLS)
    schemas = [*SCHEMAS, tmp_path / "schemas" / "calls.fbe"]
    tests = ["client.test.ts"]
    if shared:
        schemas += [SHARED / "schemas" / "proto.fbe", SHARED / "schemas" / "protoex.fbe"]
        tests.append("streams.test.ts")
    for language in ("typescript", "javascript"):
        out = tmp_path / language
        generate(schemas, out, capsys, language)
        for t in tests:
            shutil.copy(REPO / "tests" / "js" / t, out)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    link_runtime(tmp_path)
    tsc(tmp_path, {**COMPILER_OPTIONS, "types": ["node"], "outDir": "out", "rootDir": "."},
        ["typescript/*.ts", "javascript/*.ts"])
    for js in (tmp_path / "javascript").glob("*.js"):      # the JavaScript runs as generated
        shutil.copy(js, tmp_path / "out" / "javascript")
    for language in ("typescript", "javascript"):
        r = subprocess.run([NODE, "--test", f"out/{language}/"], cwd=tmp_path, capture_output=True, text=True,
                           check=False, env={**os.environ, "SHARED": str(SHARED)})
        assert r.returncode == 0, language + ":\n" + r.stdout[-8000:] + r.stderr
        tail = [line for line in r.stdout.splitlines() if line.startswith(("# pass", "# fail"))]
        print(language, tail)
        assert "# fail 0" in tail, r.stdout[-3000:]
    if not shared:
        pytest.skip(f"the original's protocol streams not found under {SHARED} (set SHARED): client tests only")
