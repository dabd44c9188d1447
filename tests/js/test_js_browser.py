"""The generated JavaScript in a browser (issue 17): fbec --javascript --final --json --proto of
../shared's schemas, as generated, with runtime/js's dist/ under an import map, run by Debian's
headless Chromium driven by playwright-core (tests/js/browser: run.mjs serves the files through
request routing, no server and no network; page.js runs in the page): every golden vector of the
MANIFEST read and written back byte for byte in both models, and the original's protocol streams
through the generated Receivers one byte at a time, fed as ArrayBuffers as a WebSocket gives them.
`make test-js` installs chromium (tools/need-apt.sh) and playwright-core (npm ci in tests/js/browser)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fbec.cli import main as fbec_main

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))
HERE = REPO / "tests" / "js" / "browser"
NODE = os.environ.get("NODE") or shutil.which("node") or "node"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def test_generated_javascript_in_headless_chromium(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = SHARED / "vectors" / "MANIFEST.json"
    if not manifest.is_file():
        pytest.skip(f"golden vectors not found at {manifest} (set SHARED)")
    assert Path(CHROMIUM).is_file(), f"{CHROMIUM} not found: make test-js installs Debian's chromium"
    playwright = HERE / "node_modules" / "playwright-core"
    assert playwright.is_dir(), "playwright-core not installed: make test-js runs npm ci"
    assert (REPO / "runtime" / "js" / "dist" / "index.js").is_file(), "runtime/js is not built (make test-js builds it)"
    for name in ("enums", "proto", "protoex", "test"):
        assert fbec_main([f"--input={SHARED / 'schemas' / (name + '.fbe')}", f"--output={tmp_path}", "--javascript",
                          "--final", "--json", "--proto", "-q"]) == 0, capsys.readouterr().err
    r = subprocess.run([NODE, str(HERE / "run.mjs"), str(tmp_path), str(REPO / "runtime" / "js"), str(SHARED)],
                       capture_output=True, text=True, timeout=300, check=False,
                       env={**os.environ, "CHROMIUM": CHROMIUM})
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    result = json.loads(r.stdout.strip().splitlines()[-1])
    m = json.loads(manifest.read_text())
    vectors = sum(1 for c in m["cases"] if c["package"] in ("enums", "proto", "protoex", "test")
                  for f in c["files"] if f["kind"] in ("versioned", "final"))
    print(f"chromium ({result.get('userAgent')}): {result.get('checked')} vectors, {result.get('messages')} messages")
    assert result["failures"] == [] and result["pageErrors"] == [], result
    assert result["checked"] == vectors > 0
    assert result["messages"] == sum(len(p["messages"]) for p in m["protocol"])
