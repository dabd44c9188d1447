/// <reference types="node" />
// Every golden vector of ../shared (SHARED) read with the generated TypeScript code in both
// binary models and written back byte for byte (unspecified bytes masked); hashes too, as a
// Map keeps the order it was read in. Every truncation is refused with a DecodeError, every
// single-byte corruption reads or is refused with a DecodeError (nothing else is thrown) and
// verify gives the error deserialize gives (undefined exactly when it reads).
// tests/js/test_js_generated.py builds it with registry.ts, generated from the MANIFEST.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

import { registry, type Codec, type Value } from "./registry.js";

interface ManifestFile {
  file: string;
  kind: string;
  unspecified_bytes?: [number, number][];
}
interface ManifestCase {
  name: string;
  package: string;
  type: string;
  files: ManifestFile[];
}

const shared = process.env["SHARED"];
const quick = process.env["VECTORS_QUICK"] === "1"; // round trips only

interface Model {
  read(codec: Codec, data: Uint8Array): Value;
  write(value: Value): Uint8Array;
  verify(codec: Codec, data: Uint8Array): fbe.DecodeError | undefined;
}

const models: Record<string, Model> = {
  versioned: {
    read: (c, d) => c.fromFbe(d),
    write: (v) => v.toFbe(),
    verify: (c, d) => c.verifyFbe(d),
  },
  final: {
    read: (c, d) => c.fromFinal(d),
    write: (v) => v.toFinal(),
    verify: (c, d) => c.verifyFinal(d),
  },
};

function outcome(read: () => unknown): string {
  try {
    read();
    return "ok";
  } catch (e) {
    if (e instanceof fbe.DecodeError) return e.message;
    throw e; // anything else is a bug of the reader
  }
}

test("golden vectors: read and written back byte for byte, truncations and corruptions", { skip: shared === undefined ? "SHARED is not set" : false }, () => {
  const dir = join(shared!, "vectors");
  const cases = (JSON.parse(readFileSync(join(dir, "MANIFEST.json"), "utf8")) as { cases: ManifestCase[] }).cases;
  let checked = 0;
  let corrupted = 0;
  let jsons = 0;
  let texts = 0;
  const writer = new fbe.Writer();
  for (const c of cases) {
    const codec = registry[c.package + "." + c.type];
    assert.ok(codec !== undefined, `${c.name}: no type ${c.package}.${c.type}`);
    for (const f of c.files) {
      const model = models[f.kind];
      if (model === undefined) continue;
      const data = new Uint8Array(readFileSync(join(dir, f.file)));
      const value = model.read(codec, data);
      const out = model.write(value);
      const want = data.slice();
      for (const [at, n] of f.unspecified_bytes ?? []) want.fill(0, at, at + n);
      assert.deepEqual(out, want, `${f.file}: written back, the bytes differ`);
      assert.equal(model.verify(codec, data), undefined, `${f.file}: verify`);
      // into a reused writer whose old bytes are all 0xFF: the same bytes (the Writer does not zero
      // what it allocates, the generated code writes every byte)
      writer.buffer.fill(0xff);
      const again = f.kind === "versioned" ? value.toFbe(writer) : value.toFinal(writer);
      assert.deepEqual(again.slice(), want, `${f.file}: written into a reused writer`);
      const txt = c.files.find((x) => x.kind === "text");
      if (txt !== undefined) {
        assert.deepEqual(fbe.encodeUtf8(value.toString()), new Uint8Array(readFileSync(join(dir, txt.file))), `${f.file}: text`);
        texts++;
      }
      const json = c.files.find((x) => x.kind === "json");
      if (json !== undefined) {
        const text = readFileSync(join(dir, json.file), "utf8");
        assert.equal(value.toJson(), text, `${f.file}: JSON`);
        // read back: the same value as the binary read, written as the same text (a hash's JSON object
        // may come back in another order: JavaScript objects put integer-like member names first)
        const back = codec.fromJson(text);
        assert.deepEqual(back, value, `${json.file}: read back`);
        if (!c.name.includes("hash")) assert.equal(back.toJson(), text, `${json.file}: read and written back`);
        assert.deepEqual(codec.fromJson(new TextEncoder().encode(text)), value, `${json.file}: read from bytes`);
        jsons++;
      }
      checked++;
      if (quick) continue;
      for (let n = 0; n < data.length; n++) {
        const cut = data.slice(0, n);
        const err = outcome(() => model.read(codec, cut));
        assert.notEqual(err, "ok", `${f.file} cut to ${n} bytes was read`);
        assert.equal(model.verify(codec, cut)?.message, err, `${f.file} cut to ${n}: verify`);
      }
      for (let i = 0; i < data.length; i++) {
        for (const x of [data[i]! ^ 0xff]) {
          const bad = data.slice();
          bad[i] = x & 0xff;
          const err = outcome(() => model.read(codec, bad));
          assert.equal(model.verify(codec, bad)?.message ?? "ok", err, `${f.file} byte ${i} = ${x}: verify`);
          corrupted++;
        }
      }
    }
  }
  assert.ok(checked >= 50, `only ${checked} vectors`);
  console.log(`${checked} vectors read and written back, ${jsons} as the original's JSON and ${texts} as its text byte for byte; ` +
    `${corrupted} corruptions read or refused with a DecodeError`);
});
