/// <reference types="node" />
// A schema of JavaScript's reserved words and the generated code's own names (names.fbe, written by
// tests/js/test_js_generated.py) compiles and round-trips in both models; a recursive struct is
// read back 128 levels deep and refused at 129 by the writers and by the readers under a lower
// limit, with the field path; errors name the type, the field path and the offset.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as fbe from "@fbe-toolkit/fbe";

import { Bits, Kind, Map_, Node, Object_, Secret, Weird, constructor_, textOfKind } from "./names.js";

function sample(): Weird {
  return new Weird({
    type: 7,
    function: "f",
    constructor_: Kind.default,
    toString_: Bits.all,
    import: true,
    v: 1, w: 2, r: 3, b: 4, n: 5, e: 6, fbe: 1.5, prototype: 8, slot: 9, data: 10, limits: 11,
    toFbe_: [Kind.undefined, Kind.constructor_],
    fbeKey_: new Map([["b", 2], ["a", 1]]),
    raw: [[new Uint8Array([1]), new Uint8Array([2, 3])]],
    __proto___: 12n,
    toJson__: 13, // toJson_ is taken by the schema's own field of that name
    toJson_: 14,
  });
}

test("reserved names: fields, enum values and types escaped with a trailing underscore", () => {
  const v = sample();
  assert.equal(v.constructor, Weird);
  assert.equal(typeof v.toJson, "function");
  assert.equal(JSON.parse(v.toJson()).toJson, 13);
  assert.equal(Kind.constructor_, 2);
  assert.equal(Object.getPrototypeOf(Bits), Object.prototype);
  for (const [write, read] of [
    [(x: Weird) => x.toFbe(), (d: Uint8Array) => Weird.fromFbe(d)],
    [(x: Weird) => x.toFinal(), (d: Uint8Array) => Weird.fromFinal(d)],
  ] as const) {
    const data = write(v);
    const back = read(data);
    assert.deepEqual(back, v);
    assert.deepEqual(write(back), data);
    assert.deepEqual([...back.fbeKey_.keys()], ["a", "b"]); // read in the written order: ascending
  }
  assert.equal(new Map_().constructor, Map_);
  // the text form: the base's fields as its own value, a hidden field's value as ***, the schema's names
  const secret = new Secret({ size: 1, password: "p", constructor_: Kind.default });
  assert.equal(secret.toString(), "Secret(Map(size=1),password=***,constructor=default)");
  assert.equal(textOfKind(Kind.__proto___), "__proto__");
  assert.equal(textOfKind(42), "<unknown>"); // a value not declared is kept, and printed so
  assert.equal(new Object_({ x: new constructor_({ y: 3 }) }).x.y, 3);
});

function chain(levels: number): Node {
  let n = new Node({ id: levels });
  for (let i = levels - 1; i >= 1; i--) n = new Node({ id: i, children: [n] });
  return n;
}

test("depth: 128 levels read back, 129 refused by the writers, a lower limit refused by the readers", () => {
  for (const [write, read] of [
    [(x: Node) => x.toFbe(), (d: Uint8Array, l?: fbe.Limits) => Node.fromFbe(d, l)],
    [(x: Node) => x.toFinal(), (d: Uint8Array, l?: fbe.Limits) => Node.fromFinal(d, l)],
  ] as const) {
    const data = write(chain(128));
    let n = read(data);
    for (let i = 1; i < 128; i++) n = n.children[0]!;
    assert.equal(n.id, 128);
    assert.throws(() => write(chain(129)), (e: unknown) => {
      assert.ok(e instanceof fbe.EncodeError);
      assert.equal(e.limit, "depth");
      assert.equal(e.type, "names.Node");
      assert.equal(e.path, Array.from({ length: 128 }, () => "children[0]").join("."));
      assert.match(e.message, /^structs nested deeper than 128 \(names\.Node\.children\[0\]\.children\[0\]\./);
      return true;
    });
    assert.throws(() => read(data, fbe.limits({ maxDepth: 127 })), (e: unknown) => {
      assert.ok(e instanceof fbe.DecodeError);
      assert.equal(e.limit, "depth");
      assert.equal(e.type, "names.Node");
      assert.equal(e.path, Array.from({ length: 127 }, () => "children[0]").join("."));
      return true;
    });
  }
});

test("errors name the type, the field path and the offset", () => {
  const v = new Node({ id: 1, children: [new Node({ id: 2, label: "x" }), new Node({ id: 3, label: "yz" })] });
  const data = v.toFbe();
  // the second child's label (its block, then its children's empty vector, end the buffer): its length beyond the buffer
  const bad = data.slice();
  new DataView(bad.buffer).setUint32(data.length - 10, 1000, true);
  const err = Node.verifyFbe(bad);
  assert.ok(err instanceof fbe.DecodeError);
  assert.equal(err.type, "names.Node");
  assert.equal(err.path, "children[1].label");
  assert.equal(err.offset, data.length - 10);
  assert.match(err.message, /^string of 1000 bytes beyond the end of the buffer \(names\.Node\.children\[1\]\.label, offset \d+\)$/);
  assert.throws(() => Node.fromFbe(bad), (e: unknown) => e instanceof fbe.DecodeError && e.message === err.message);
  // final: the same string's length (before "yz", the child's empty children and absent next, the
  // root's absent next)
  const fin = v.toFinal();
  const cut = fin.slice();
  new DataView(cut.buffer).setUint32(fin.length - 12, 1000, true);
  assert.match(Node.verifyFinal(cut)?.message ?? "", /^string of 1000 bytes beyond the end of the buffer \(names\.Node\.children\[1\]\.label, offset \d+\)$/);
  // a budget of too few bytes names the limit
  const small = Node.verifyFbe(data, fbe.limits({ budgetFactor: 0, budgetSlack: 3 }));
  assert.equal(small?.limit, "budget");
});

test("duplicate keys are refused; fixed arrays must have their length", () => {
  const v = sample();
  const data = v.toFinal();
  // the map fbeKey_ holds "a" then "b" (ascending): make the second key "a" too
  const at = Buffer.from(data).indexOf(Buffer.from([1, 0, 0, 0, 0x62]));
  assert.ok(at > 0);
  const dup = data.slice();
  dup[at + 4] = 0x61;
  assert.match(Weird.verifyFinal(dup)?.message ?? "", /duplicate key.*names\.Weird\.fbeKey/);
  const x = new Object_();
  x.fixed = [1];
  assert.throws(() => x.toFbe(), (e: unknown) => e instanceof fbe.EncodeError && e.message === "expected 2 elements, got 1 (names.Object.fixed)");
});

test("JSON: read back, the shared rules (docs/limits.md 7), errors with the member path", () => {
  const v = sample();
  const text = v.toJson();
  assert.deepEqual(Weird.fromJson(text), v);
  assert.equal(Weird.fromJson(text).toJson(), text);
  const refused = (json: string | Uint8Array, message: RegExp, read: (t: string | Uint8Array) => unknown = (t) => Node.fromJson(t)) =>
    assert.throws(() => read(json), (e: unknown) => e instanceof fbe.DecodeError && message.test(e.message), String(json));
  refused('{"children":[{"label":5}]}', /^JSON string expected, got number \(names\.Node\.children\[0\]\.label\)$/);
  refused('{"id":2147483648}', /^JSON integer 2147483648 out of range \(names\.Node\.id\)$/);
  refused('{"id":1.0}', /JSON integer expected, got number/);
  refused('{"id":1,"id":2}', /^invalid JSON: duplicate member name "id" at text offset 8 \(names\.Node\)$/);
  refused('{"id":1,"\\u0069d":1}', /duplicate member name "id"/); // the same name and value, escaped
  refused('{"children":[{"label":"a","label":"a"}]}', /duplicate member name "label"/);
  // refused by the parse, wherever it is (docs/limits.md 7): in a member nobody reads too
  refused('{"label":"\\ud800"}', /^lone surrogate \\ud800 in a JSON string .*\(names\.Node\)$/);
  refused('{"unknown":{"\\udc41":1}}', /^lone surrogate \\udc41 in a JSON string .*\(names\.Node\)$/);
  refused(new Uint8Array([0x7b, 0x22, 0x6c, 0x61, 0x62, 0x65, 0x6c, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]), /not valid UTF-8 at byte 10/);
  refused("[".repeat(100000) + "]".repeat(100000), /^invalid JSON: arrays and objects nested deeper than 384 at text offset 384 \(names\.Node\)$/);
  refused('{"x":1', /invalid JSON/);
  refused('{"byInt":{"1":"a","01":"b"}}', /^two map keys read as the same key \(names\.Object\.byInt\)$/, (t) => Object_.fromJson(t));
  assert.deepEqual(Object_.fromJson('{"byInt":{"2":"b","1":"a"}}').byInt, new Map([[1, "a"], [2, "b"]]));
  assert.equal(Node.fromJson('{"label":"a\\udcffb"}').label, "a\udcffb"); // the byte 0xFF
  assert.deepEqual(Array.from(fbe.encodeUtf8("a\udcffb")), [0x61, 0xff, 0x62]);
  assert.equal(Node.fromFbe(new Node({ label: "a\udcffb" }).toFbe()).label, "a\udcffb");
  // depth: 128 levels written and read, 129 refused by the writer, a lower limit by the reader with the path
  const deep = chain(128).toJson();
  assert.equal(Node.fromJson(deep).children[0]!.id, 2);
  assert.throws(() => chain(129).toJson(), (e: unknown) =>
    e instanceof fbe.EncodeError && e.limit === "depth" && e.path === Array.from({ length: 128 }, () => "children[0]").join("."));
  assert.throws(() => Node.fromJson(deep, fbe.limits({ maxDepth: 127 })), (e: unknown) =>
    e instanceof fbe.DecodeError && e.limit === "depth" && e.path === Array.from({ length: 127 }, () => "children[0]").join("."));
  // the budget: 8 bytes per input byte plus the slack; omitted members' default structs are charged
  assert.throws(() => Weird.fromJson("{}", fbe.limits({ budgetFactor: 0, budgetSlack: 10 })), (e: unknown) =>
    e instanceof fbe.DecodeError && e.limit === "budget");
});
