/// <reference types="node" />
// Writers' errors name the root type, the field path and the type the field expects (docs/limits.md 8,
// issue 23 item 4), as Python's do: toFbe, toFinal, toJson and the Senders of tests/js/errors.fbe.
// The writers stay on their fast path; fbe.refused walks the value against the generated fbeFields()
// only after one failed.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

import { Cart, FinalSender, Line, Sender } from "./shop.js";

const bad = <T>(v: unknown): T => v as T;

const CASES: Array<[Partial<Cart>, string]> = [
  // the cases: "42 is not a valid int64 value (shop.Cart)", "a undefined is not a valid string value"
  [{ id: bad(42) }, "expected a bigint (int64), got number 42 (shop.Cart.id)"],
  [{ name: bad(undefined) }, "expected a string, got undefined (shop.Cart.name)"],
  [{ lines: bad([1]) }, "expected shop.Line, got number 1 (shop.Cart.lines[0])"],
  [{ lines: [new Line({ sku: "a" }), new Line({ qty: 1.5 })] }, "expected an integer (int32), got number 1.5 (shop.Cart.lines[1].qty)"],
  [{ lines: [new Line({ qty: 2 ** 31 })] }, "2147483648 is out of range for int32 (shop.Cart.lines[0].qty)"],
  [{ name: 5 as unknown as string }, "expected a string, got number 5 (shop.Cart.name)"],
  [{ name: "\ud800" }, "the string holds the lone surrogate U+D800 at index 0 (only U+DC80..U+DCFF, escaped bytes, can be written) (shop.Cart.name)"],
  [{ extra: bad("x") }, 'expected shop.Line, got string "x" (shop.Cart.extra)'],
  [{ kind: bad(300) }, "300 is out of range for shop.Kind (uint8) (shop.Cart.kind)"],
  [{ marks: bad(-40000) }, "-40000 is out of range for shop.Marks (int16) (shop.Cart.marks)"],
  [{ weight: bad("heavy") }, 'expected a number (double), got string "heavy" (shop.Cart.weight)'],
  [{ names: new Map([[1, bad(2)]]) }, "expected a string, got number 2 (shop.Cart.names[1])"],
  [{ names: new Map([[bad(2 ** 40), "x"]]) }, "1099511627776 is out of range for int32 (shop.Cart.names[0] (the key))"],
  [{ names: new Map([[1, "x"]]), kinds: [0, bad(-1)] }, "-1 is out of range for shop.Kind (uint8) (shop.Cart.kinds[1])"],
  [{ price: bad("1.5") }, 'expected an fbe.Decimal (decimal), got string "1.5" (shop.Cart.price)'],
  [{ pair: [1] }, "expected 2 elements, got 1 (shop.Cart.pair)"],
  [{ pair: [1, 256] }, "256 is out of range for byte (shop.Cart.pair[1])"],
  [{ ref: bad("not-a-uuid") }, 'expected an fbe.Uuid (uuid), got string "not-a-uuid" (shop.Cart.ref)'],
  [{ blob: bad([1, 2]) }, "expected a Uint8Array (bytes), got Array (shop.Cart.blob)"],
  [{ paid: bad(1) }, "expected a boolean (bool), got number 1 (shop.Cart.paid)"],
  [{ at: bad(-1n) }, "-1 is out of range for timestamp (shop.Cart.at)"],
  [{ kinds: bad(new Set([0])) }, "expected an array, got Set (shop.Cart.kinds)"],
];

function writers(v: Cart): Array<[string, () => unknown]> {
  return [
    ["toFbe", () => v.toFbe()],
    ["toFinal", () => v.toFinal()],
    ["Sender", () => new Sender().send(v)],
    ["FinalSender", () => new FinalSender().send(v)],
  ];
}

test("every binary writer names the type, the field path and the type expected", () => {
  for (const [fields, message] of CASES) {
    for (const [name, write] of writers(new Cart(fields))) {
      assert.throws(write, (e: unknown) => {
        assert.ok(e instanceof fbe.EncodeError, `${name}: ${String(e)}`);
        assert.equal(e.message, message, name);
        assert.equal(e.type, "shop.Cart");
        return true;
      });
    }
  }
});

test("toJson refuses what the binary writers refuse, with the same error", () => {
  // before, JsonWriter wrote 42 for an int64, "heavy" for a double, 300 for a uint8 enum...
  for (const [fields, message] of CASES) {
    assert.throws(() => new Cart(fields).toJson(), (e: unknown) => {
      assert.ok(e instanceof fbe.EncodeError, `toJson: ${String(e)}`);
      assert.equal(e.message, message, "toJson");
      return true;
    });
  }
  for (const [fields, message] of [
    [{ id: bad(NaN) }, "expected a bigint (int64), got number NaN (shop.Cart.id)"],
    [{ names: new Map([[bad(NaN), "x"]]) }, "expected an integer (int32), got number NaN (shop.Cart.names[0] (the key))"],
    [{ lines: [new Line({ qty: NaN })] }, "expected an integer (int32), got number NaN (shop.Cart.lines[0].qty)"],
  ] as Array<[Partial<Cart>, string]>) {
    for (const [name, write] of [["toJson", () => new Cart(fields).toJson()], ...writers(new Cart(fields))] as const) {
      assert.throws(write, (e: unknown) => e instanceof fbe.EncodeError && e.message === message, name);
    }
  }
});

test("errors the walk does not explain keep the writer's own, with the root type", () => {
  // a writer's reused buffer stays usable after a refusal
  const w = new fbe.Writer();
  assert.throws(() => new Cart({ id: bad(1) }).toFbe(w), fbe.EncodeError);
  const good = new Cart({ id: 7n, lines: [new Line({ sku: "s", qty: 3 })] });
  assert.deepEqual(Cart.fromFbe(good.toFbe(w)), good);
  assert.deepEqual(Cart.fromFinal(good.toFinal(w)), good);
});
