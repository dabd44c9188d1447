// No reader makes a value before the budget pays for it (docs/limits.md 3, issue 21 item 3): JS built a
// struct's default (a Wide: 1,000,000 numbers) before the budget check refused the input, so a
// 16-byte versioned body of int32[100000000] ran 60 s and took 6 GB. Counted here by the arrays of
// Wide's length that Array.prototype.fill fills: the generated default is new Array(n).fill(0).
// And a value is read into the default its parent made (a struct field, a fixed array's elements):
// no default is made twice nor kept alive beside the value read in its place.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fbe from "@fbe-toolkit/fbe";
import { Holder, Wide, Wides } from "./hostile.js";

const LENGTH = 1000000;

function defaultsMade(read: () => unknown): { made: number; error: unknown; arrays: unknown[][]; value: unknown } {
  const fill = Array.prototype.fill;
  const arrays: unknown[][] = [];
  Array.prototype.fill = function (this: unknown[], ...args: Parameters<typeof fill>) {
    if (this.length === LENGTH) arrays.push(this);
    return fill.apply(this, args);
  } as typeof fill;
  try {
    const value = read();
    return { made: arrays.length, error: undefined, arrays, value };
  } catch (e) {
    return { made: arrays.length, error: e, arrays, value: undefined };
  } finally {
    Array.prototype.fill = fill;
  }
}

function bytes(...words: number[]): Uint8Array {
  const out = new Uint8Array(4 * words.length);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(4 * i, w, true));
  return out;
}

const olderWide = bytes(16, 8, 8, Wide.fbeType);                 // a root of an older writer's 8-byte body
const olderHolder = bytes(16, 8, 8, Holder.fbeType);
const olderWides = bytes(36, 8, 12, Wides.fbeType, 12, 1, 20, 8, Wide.fbeType);   // one element, 8 bytes

function refusedUnmade(read: () => unknown, verify: () => unknown): void {
  const { made, error } = defaultsMade(read);
  assert.ok(error instanceof fbe.DecodeError, String(error));
  assert.match(error.message, /decode budget exceeded/);
  assert.equal(made, 0, "a default made before the budget refused it");
  const verified = verify();
  assert.ok(verified instanceof fbe.DecodeError);
  assert.equal(verified.message, error.message);
}

test("an older body's 4 MB of defaults are refused before they are made", () => {
  refusedUnmade(() => Wide.fromFbe(olderWide), () => Wide.verifyFbe(olderWide));
  refusedUnmade(() => Wides.fromFbe(olderWides), () => Wides.verifyFbe(olderWides));
  refusedUnmade(() => Holder.fromFbe(olderHolder), () => Holder.verifyFbe(olderHolder));
});

test("the defaults a struct holds are checked before it is made, in every format", () => {
  const final = bytes(8, Holder.fbeType);       // no Wide: refused by the budget before the bytes run out
  refusedUnmade(() => Holder.fromFinal(final), () => Holder.verifyFinal(final));
  const { made, error } = defaultsMade(() => Holder.fromJson("{}"));
  assert.ok(error instanceof fbe.DecodeError && /decode budget exceeded/.test(error.message), String(error));
  assert.equal(made, 0);
});

test("a budget that pays for the defaults reads them", () => {
  const limits = { ...fbe.DEFAULT_LIMITS, budgetSlack: 4_000_100 };
  const { made, error } = defaultsMade(() => {
    const holder = Holder.fromFbe(olderHolder, limits);
    assert.equal(holder.wide.values.length, LENGTH);
    assert.equal(Wides.fromFbe(olderWides, limits).items[0]?.values[LENGTH - 1], 0);
    Holder.fromJson("{}", limits);
  });
  assert.equal(error, undefined);
  assert.ok(made >= 3, `${made}`);
});

test("a value is read into the default its parent made: one Wide per Holder read, in every format", () => {
  const holder = new Holder();
  holder.wide.values[LENGTH - 1] = 7;
  const limits = { ...fbe.DEFAULT_LIMITS, budgetSlack: 4_000_100 };     // maybe and byId are absent: their defaults are charged
  const reads: [string, () => Holder][] = [
    ["versioned", ((data) => () => Holder.fromFbe(data, limits))(holder.toFbe())],
    ["final", ((data) => () => Holder.fromFinal(data, limits))(holder.toFinal())],
    ["json", ((text) => () => Holder.fromJson(text, limits))(holder.toJson())],
  ];
  for (const [format, read] of reads) {
    const { made, error, arrays, value } = defaultsMade(read);
    assert.equal(error, undefined, `${format}: ${String(error)}`);
    // before: 2, the Holder's default Wide kept while Wide.fbeRead made and filled a second one
    assert.equal(made, 1, `${format}: ${made} Wide defaults made for one Holder`);
    const got = value as Holder;
    assert.equal(got.wide.values[LENGTH - 1], 7, format);
    assert.equal(got.wide.values, arrays[0], `${format}: the values were not read into the default's array`);
  }
});
