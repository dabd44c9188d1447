// Runs inside headless Chromium (tests/js/browser/run.mjs): the fbec --javascript --final --proto
// code of $SHARED's schemas, as generated, with the runtime's dist/ (import map), reads every golden
// vector of the MANIFEST in both models and writes it back byte for byte (unspecified bytes masked),
// and the original's protocol streams go through the generated Receivers one byte at a time.
import * as fbe from "@fbe-toolkit/fbe";

const packages = {};
for (const name of ["enums", "proto", "protoex", "test"]) packages[name] = await import(`/gen/${name}.js`);

async function bytes(path) {
  return new Uint8Array(await (await fetch(path)).arrayBuffer());
}

function same(a, b, mask) {
  if (a.length !== b.length) return false;
  const x = a.slice(), y = b.slice();
  for (const [start, length] of mask) {
    x.fill(0, start, start + length);
    y.fill(0, start, start + length);
  }
  return x.every((v, i) => v === y[i]);
}

const manifest = await (await fetch("/vectors/MANIFEST.json")).json();
const failures = [];
let checked = 0;
for (const c of manifest.cases) {
  const type = packages[c.package]?.[c.type];
  if (type === undefined) continue;
  for (const f of c.files) {
    if (f.kind !== "versioned" && f.kind !== "final") continue;
    const data = await bytes(`/vectors/${f.file}`);
    try {
      const value = f.kind === "versioned" ? type.fromFbe(data) : type.fromFinal(data);
      const out = f.kind === "versioned" ? value.toFbe() : value.toFinal();
      if (!same(data, out, f.kind === "versioned" ? (f.unspecified_bytes ?? []) : [])) failures.push(`${c.name} ${f.kind}: written back differs`);
      checked++;
    } catch (e) {
      failures.push(`${c.name} ${f.kind}: ${e}`);
    }
  }
}

let messages = 0;
for (const p of manifest.protocol) {
  const stream = await bytes(`/vectors/${p.file}`);
  const got = [];
  const handler = { onMessage: (m) => got.push(String(m)) };
  const r = p.kind.endsWith("final") ? new packages.proto.FinalReceiver(handler) : new packages.proto.Receiver(handler);
  for (let i = 0; i < stream.length; i++) r.receive(stream.buffer.slice(i, i + 1)); // ArrayBuffers, as a WebSocket gives
  const expected = (await (await fetch(`/vectors/${p.text_file}`)).text()).trimEnd().split("\n");
  if (got.join("\n") !== expected.join("\n")) failures.push(`${p.name}: ${JSON.stringify(got)}`);
  messages += got.length;
}

window.result = { checked, messages, failures, userAgent: navigator.userAgent, decodeError: typeof fbe.DecodeError };
