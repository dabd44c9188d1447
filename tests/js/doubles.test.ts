/// <reference types="node" />
// The JSON text of doubles, floats and float map keys against Python's fbe.jsonfmt on the same
// values (doubles.json, written by tests/js/test_js_generated.py from random bit patterns and
// the hard cases of docs/format.md 8.4): the same digits in both runtimes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

interface Sample {
  bits: string; // the double's 64 bits, hex
  double: string; // json_double (NaN and infinities quoted)
  key: string; // json_double_key (quoted)
  floatKey: string | null; // json_float_key (quoted) of the value as a float, when it is one
}

test("JSON numbers are Python's (RapidJSON master's digits)", () => {
  const samples = JSON.parse(readFileSync(new URL("./doubles.json", import.meta.url), "utf8")) as Sample[];
  const view = new DataView(new ArrayBuffer(8));
  for (const s of samples) {
    view.setBigUint64(0, BigInt("0x" + s.bits));
    const v = view.getFloat64(0);
    const j = new fbe.JsonWriter();
    j.double(v);
    j.keyDouble(v);
    if (s.floatKey !== null) j.keyFloat(v);
    const want = s.double + `${s.key}:` + (s.floatKey ?? "") + (s.floatKey === null ? "" : ":");
    assert.equal(j.text, want, `${s.bits} (${v})`);
  }
  assert.ok(samples.length > 10000);
});
