/// <reference types="node" />
// schemas/tests/hostile_names.fbe (every target language's keywords, the generated code's and the
// runtimes' names, fields named like their types, names that differ only by case) compiles and
// round-trips: the value of schemas/tests/hostile_names.json read from JSON, written in both
// models with the bytes of the reference codec (expected.json, written by
// tests/js/test_js_generated.py from tests/names/hostile.py), read back to the same value, written
// back as the same JSON and printed as the same text. Run on the --typescript output and on the
// --javascript output.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Hostile } from "./import.js";

const expected = JSON.parse(readFileSync(new URL("./expected.json", import.meta.url), "utf8")) as {
  json: string;
  versioned: string;
  final: string;
  text: string;
};

const hex = (data: Uint8Array) => Buffer.from(data).toString("hex");

test("hostile names: JSON, versioned and final round trips", () => {
  const v = Hostile.fromJson(expected.json);
  assert.equal(v.toJson(), expected.json);
  const versioned = v.toFbe();
  assert.equal(hex(versioned), expected.versioned);
  assert.equal(Hostile.verifyFbe(versioned), undefined);
  const fromFbe = Hostile.fromFbe(versioned);
  assert.deepEqual(fromFbe, v);
  assert.equal(fromFbe.toJson(), expected.json);
  const final = v.toFinal();
  assert.equal(hex(final), expected.final);
  assert.equal(Hostile.verifyFinal(final), undefined);
  const fromFinal = Hostile.fromFinal(final);
  assert.deepEqual(fromFinal, v);
  assert.equal(fromFinal.toJson(), expected.json);
  assert.equal(String(fromFinal), expected.text);
  assert.equal(String(fromFbe), expected.text);
});
