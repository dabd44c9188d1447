// Unit tests of the runtime's pieces (node --test). The generated code's tests are tests/js.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  compareChar,
  compareDecimal,
  compareFloat,
  compareString,
  compareValue,
  Decimal,
  DecodeError,
  decodeUtf8,
  DEFAULT_LIMITS,
  encodeUtf8,
  EncodeError,
  elementsInOrder,
  fromBase64,
  JsonReader,
  type JsonObject,
  entriesInOrder,
  keyOf,
  keysOf,
  limits,
  Reader,
  readJsonField,
  repeated,
  sortedKeys,
  Uuid,
  Writer,
} from "../src/index.js";

test("limits have the defaults of docs/limits.md", () => {
  assert.deepEqual({ ...DEFAULT_LIMITS }, { maxDepth: 128, budgetFactor: 8, budgetSlack: 4096, maxFrameSize: 64 << 20 });
  assert.equal(limits({ maxDepth: 3 }).maxDepth, 3);
  assert.equal(limits({ maxDepth: 3 }).budgetSlack, 4096);
});

test("decimal from a double is the original's conversion (format.md 2.4)", () => {
  const cases: [number, string][] = [
    [0.1, "0.1"], [-123.456, "-123.456"], [1 / 3, "0.333333333333333"], [1e20, "100000000000000000000"],
    [1e-29, "0"], [1000, "1000"], [0, "0"], [Infinity, "0"], [NaN, "0"], [123.456, "123.456"],
  ];
  for (const [v, text] of cases) assert.equal(Decimal.fromNumber(v).toString(), text, String(v));
  const d = Decimal.fromNumber(-123.456);
  assert.equal(d.magnitude, 123456n);
  assert.equal(d.scale, 3);
  assert.equal(d.negative, true);
});

test("decimal parse is exact or refused, as the other runtimes (docs/format.md 2.4)", () => {
  assert.equal(Decimal.parse("123.4560").toString(), "123.456");
  assert.equal(Decimal.parse("-0.000").toString(), "0");
  assert.equal(Decimal.parse("79228162514264337593543950335").toString(), "79228162514264337593543950335");
  assert.equal(Decimal.parse("1e3").toString(), "1000");
  assert.equal(Decimal.parse("7.9228162514264337593543950335").toString(), "7.9228162514264337593543950335");
  assert.equal(Decimal.parse("0.10000000000000000000000000000000").toString(), "0.1");
  assert.equal(Decimal.parse("0e99999999999999999999").toString(), "0");
  assert.equal(Decimal.parse("1.5").compare(Decimal.parse("1.50")), 0);
  assert.equal(Decimal.parse("-2").compare(Decimal.parse("1")), -1);
  // what no decimal holds is refused, never rounded; at most 64 characters (docs/limits.md 7)
  const refused: Array<[string, ErrorConstructor, string]> = [
    ["79228162514264337593543950336", RangeError, 'decimal "79228162514264337593543950336" out of range: more than 96 bits'],
    ["0.00000000000000000000000000015", RangeError, 'decimal "0.00000000000000000000000000015" has more than 28 fraction digits'],
    ["7.92281625142643375935439503359", RangeError, 'decimal "7.92281625142643375935439503359" has more than 28 fraction digits'],
    ["1.2.3", SyntaxError, 'invalid decimal "1.2.3"'],
    ["", SyntaxError, 'invalid decimal ""'],
    ["1".repeat(1 << 20), RangeError, 'decimal text longer than 64 characters: "11111111111111111111111111111111"...'],
  ];
  for (const [text, type, message] of refused) assert.throws(() => Decimal.parse(text), { name: type.name, message });
});

test("decimals: no scale above 28, the one form on the wire (docs/format.md 2.4)", () => {
  assert.throws(() => Decimal.fromParts(1n, 29, false), RangeError);
  assert.equal(Decimal.flagsError(29 << 16), "decimal scale 29 above 28");
  assert.equal(Decimal.flagsError((2 << 16) | 0x01000000), "decimal flags 0x01020000: reserved bits set");
  assert.equal(Decimal.flagsError(0x801c0000 | 0), undefined);
  const b = new Uint8Array(16);
  const v = new DataView(b.buffer);
  Decimal.fromParts(150n, 2, false).write(v, 0);
  assert.deepEqual(Array.from(b), [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
  Decimal.fromParts(0n, 3, true).write(v, 0);
  assert.deepEqual(Array.from(b), new Array(16).fill(0));
});

test("uuid text, lenient parse, versions", () => {
  const u = Uuid.parse("123e4567-e89b-12d3-a456-426655440000");
  assert.deepEqual(Array.from(u.bytes), [0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0, 0]);
  assert.equal(u.toString(), "123e4567-e89b-12d3-a456-426655440000");
  assert.equal(Uuid.parse("{123E4567E89B12D3A456426655440000}").toString(), u.toString());
  assert.equal(Uuid.parse("12").toString(), "12000000-0000-0000-0000-000000000000");
  assert.throws(() => Uuid.parse("xyz"), SyntaxError);
  assert.equal(Uuid.v4().bytes[6]! >> 4, 4);
  const a = Uuid.v1();
  const b = Uuid.v1();
  assert.equal(a.bytes[6]! >> 4, 1);
  assert.notEqual(a.toString(), b.toString());
});

test("strings hold any bytes (surrogateescape) and write them back", () => {
  const samples = [
    [0x41, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80],
    [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80],
    Array.from({ length: 100 }, (_, i) => (i * 37) & 0xff),
  ];
  for (const s of samples) {
    const bytes = new Uint8Array(s);
    const text = decodeUtf8(bytes);
    assert.deepEqual(Array.from(encodeUtf8(text)), s);
  }
  assert.equal(decodeUtf8(new Uint8Array([0xc0, 0xaf])), "\udcc0\udcaf");
  assert.throws(() => encodeUtf8("a\ud800b"), EncodeError);
  assert.equal(encodeUtf8("x".repeat(100) + "é").length, 102);
});

test("key order: signed char, strings by UTF-8 bytes", () => {
  assert.ok(compareChar(0x80, 0x01) < 0);
  assert.ok(compareString("\uffff", "\u{10000}") < 0); // UTF-16 order would say otherwise
  assert.ok(compareString("a", "ab") < 0);
  assert.deepEqual(sortedKeys(new Map([[3, 0], [1, 0], [2, 0]]), (a, b) => a - b), [1, 2, 3]);
  assert.notEqual(keysOf(1, "a"), keysOf("1", "a"));
});

test("the key comparison: a total order, 0 exactly for the same key (docs/limits.md 4)", () => {
  assert.equal(compareValue(-0, 0), 0);
  assert.equal(compareValue(NaN, NaN), 0);
  assert.ok(compareValue(NaN, Infinity) > 0 && compareValue(Infinity, NaN) < 0);
  assert.equal(compareFloat(0.1, 0.1 + 1e-12), 0); // one float once written
  assert.ok(compareValue(0.1, 0.1 + 1e-12) < 0);
  const d = (m: bigint, scale: number, negative = false) => Decimal.fromParts(m, scale, negative);
  assert.equal(compareDecimal(d(15n, 1), d(150n, 2)), 0); // 1.5 and 1.50: by value, as C++, Python and Java
  assert.equal(compareDecimal(d(0n, 0, true), Decimal.ZERO), 0);
  assert.ok(compareDecimal(d(15n, 1, true), d(149n, 2, true)) < 0);
  assert.ok(compareDecimal(d(2n, 0), d(1999n, 3)) > 0);
  assert.equal(keyOf(d(15n, 1)), keyOf(d(1500n, 3)));
  assert.equal(keyOf(d(0n, 5, true)), keyOf(Decimal.ZERO));
  assert.notEqual(keyOf(d(15n, 1)), keyOf(d(15n, 2)));
  assert.equal(keyOf({}), "k"); // a struct without [key] fields: the empty key
});

test("repeated: in order one comparison each, else pairwise or by sorted indexes, the same answer", () => {
  let calls = 0;
  const counted = (a: number, b: number) => (calls++, compareValue(a, b));
  const up = Array.from({ length: 100 }, (_, i) => i);
  assert.equal(repeated(up, counted), undefined);
  assert.equal(calls, 99);
  for (const n of [3, 8, 9, 40]) {
    // every pair (i, k) of a shuffled run: the least k repeating an earlier item, its first
    const base = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    assert.equal(repeated(base, compareValue), undefined);
    for (let k = 1; k < n; k++) {
      for (let i = 0; i < k; i++) {
        const a = base.slice();
        a[k] = a[i]!;
        let want: [number, number] | undefined;
        for (let y = 1; y < n && want === undefined; y++) for (let x = 0; x < y && want === undefined; x++) if (a[x] === a[y]) want = [x, y];
        assert.deepEqual(repeated(a, compareValue), want, `${n}: ${a}`);
      }
    }
  }
});

test("writers' order: the input itself when ascending, else a sorted copy, refused with the indexes", () => {
  const s = [1, 2, 3];
  assert.equal(elementsInOrder(s, compareValue, "f"), s);
  const down = [3, 2, 1];
  assert.deepEqual(elementsInOrder(down, compareValue, "f"), [1, 2, 3]);
  assert.deepEqual(down, [3, 2, 1]); // not sorted in place
  assert.deepEqual(elementsInOrder(new Set([2, 1]), compareValue, "f"), [1, 2]);
  const many = Array.from({ length: 20 }, (_, i) => 20 - i);
  many.push(7);
  assert.throws(() => elementsInOrder(many, compareValue, "f"), (e: unknown) =>
    e instanceof EncodeError && e.message === "two elements are the same, [13] and [20] (f)");
  assert.deepEqual(entriesInOrder(new Map([[2, "b"], [1, "a"]]), compareValue, "m"), [[1, "a"], [2, "b"]]);
  assert.throws(() => entriesInOrder([[Uuid.parse("01"), 1], [Uuid.parse("01"), 2]], (a, b) => a.compare(b), "m"),
    /^EncodeError: two entries have the same key, \[0\] and \[1\] \(m\)$/);
});

/** A hand-written root of one struct {int32 a; string b;} (type 7): the generated code's pattern. */
function writeRoot(a: number, b: string): Uint8Array {
  const w = new Writer(8);
  w.beginVersioned();
  const body = w.struct(0, 4, 16, 7);
  w.putI32(body + 8, a);
  w.string(body, body + 12, b);
  w.endVersioned();
  return w.toBytes();
}

function readRoot(data: Uint8Array, lim = DEFAULT_LIMITS): [number, string] {
  const r = Reader.versioned(data, lim);
  const b = r.struct(0, 4, 7, 8);
  const out: [number, string] = [r.i32(b + 8), r.string(b, b + 12, "b")];
  r.leave();
  return out;
}

test("writer and reader: a versioned root, every truncation and corruption refused with DecodeError", () => {
  const data = writeRoot(-5, "héllo");
  assert.deepEqual(Array.from(data.subarray(0, 8)), [34, 0, 0, 0, 8, 0, 0, 0]);
  assert.deepEqual(readRoot(data), [-5, "héllo"]);
  for (let n = 0; n < data.length; n++) {
    const cut = data.slice(0, n);
    if (n >= 4) new DataView(cut.buffer).setUint32(0, n, true);
    assert.throws(() => readRoot(cut), DecodeError, "truncated to " + n);
  }
  for (let i = 0; i < data.length; i++) {
    for (const x of [0x00, 0xff, 0x80]) {
      const bad = data.slice();
      bad[i] = x;
      try {
        readRoot(bad);
      } catch (e) {
        assert.ok(e instanceof DecodeError, String(e));
      }
    }
  }
});

test("decode errors name the field and offset; the budget is charged", () => {
  const data = writeRoot(1, "x".repeat(100));
  const big = limits({ budgetFactor: 0, budgetSlack: 99 });
  assert.throws(() => readRoot(data, big), (e: unknown) => {
    assert.ok(e instanceof DecodeError);
    assert.equal(e.limit, "budget");
    assert.equal(e.path, "b");
    assert.equal(e.offset, 24);
    assert.match(e.message, /decode budget exceeded \(b, offset 24\)/);
    return true;
  });
  assert.deepEqual(readRoot(data, limits({ budgetFactor: 0, budgetSlack: 108 })), [1, "x".repeat(100)]);
  const zero = data.slice();
  zero[4] = 0;
  assert.throws(() => readRoot(zero), /struct offset 0 \(offset 4\)/);
});

test("writer refuses nesting deeper than its limit", () => {
  const w = new Writer(16, 2);
  w.enter();
  w.enter();
  assert.throws(() => w.enter(), (e: unknown) => e instanceof EncodeError && e.limit === "depth");
});

test("writers refuse values their slots cannot hold exactly", () => {
  const w = new Writer();
  w.beginFinal();
  const refused: [() => void, RegExp][] = [
    [() => w.appendI32(2 ** 31), /^2147483648 is not a valid int32 value$/],
    [() => w.appendI32(1.5), /^1.5 is not a valid int32 value$/],
    [() => w.appendU8(256), /uint8/],
    [() => w.appendI8(-129), /int8/],
    [() => w.appendU16(-1), /uint16/],
    [() => w.appendU32(2 ** 32), /uint32/],
    [() => w.appendI64(1 as unknown as bigint), /^1 is not a valid int64 value$/],
    [() => w.appendU64(-1n), /uint64/],
    [() => w.appendI64(2n ** 63n), /int64/],
    [() => w.appendF64("1" as unknown as number), /^a string is not a valid floating-point value$/],
    [() => w.appendBool(1 as unknown as boolean), /bool/],
    [() => w.appendString(7 as unknown as string), /string/],
    [() => w.appendBlob([1] as unknown as Uint8Array), /bytes/],
    [() => w.appendUuid("x" as unknown as Uuid), /uuid/],
    [() => w.appendDecimal(1 as unknown as Decimal), /decimal/],
  ];
  for (const [write, message] of refused) {
    assert.throws(write, (e: unknown) => e instanceof EncodeError && message.test(e.message));
  }
  w.appendI32(-(2 ** 31));
  w.appendU64(2n ** 64n - 1n);
  w.appendI8(-128);
  w.appendF32(1e300); // rounds to Infinity as a float, as C++ does
  assert.equal(w.size, 8 + 4 + 8 + 1 + 4);
});

test("JSON numbers exact through JSON.parse: integer form, 64 bits, doubles; strings beginning with a tab", () => {
  const read = (text: string) => JsonReader.parse(text);
  const r = read('{"a":1,"b":1.0,"c":9007199254740993,"d":-0,"e":1e2,"f":0.1,"g":-1234567890123456789,"h":123456789012345}');
  const o = r.root as Record<string, unknown>;
  assert.equal(r.int(o["a"], -10, 10, "a"), 1);
  assert.throws(() => r.int(o["b"], -10, 10, "b"), /^DecodeError: JSON integer expected, got number \(b\)$/);
  assert.throws(() => r.int(o["e"], 0, 1000, "e"), /JSON integer expected, got number/);
  assert.equal(r.double(o["b"], "b"), 1);
  assert.equal(r.double(o["e"], "e"), 100);
  assert.equal(r.double(o["f"], "f"), 0.1);
  assert.equal(r.int64(o["c"], -(1n << 63n), (1n << 63n) - 1n, "c"), 9007199254740993n);
  assert.equal(r.int64(o["g"], -(1n << 63n), (1n << 63n) - 1n, "g"), -1234567890123456789n);
  assert.throws(() => r.int64(o["g"], 0n, (1n << 64n) - 1n, "g"), /^DecodeError: JSON integer -1234567890123456789 out of range \(g\)$/);
  assert.equal(r.int64(o["h"], 0n, (1n << 64n) - 1n, "h"), 123456789012345n);
  assert.ok(Object.is(r.int(o["d"], -1, 1, "d"), 0)); // an integer -0 is 0
  assert.ok(Object.is(r.double(o["d"], "d"), -0)); // a double -0 stays -0
  assert.ok(r.decimal(o["f"], "f").equals(Decimal.fromNumber(0.1))); // a number is taken as a double (the original)
  // string values beginning with a tab (which marks a number's text) read as they are
  const t = read('["\\t1.5","\\u00095","\\t\\tx","\\t",1.5,"1.5"]');
  assert.deepEqual((t.root as unknown[]).slice(0, 4).map((x) => t.string(x, "s")), ["\t1.5", "\t5", "\t\tx", "\t"]);
  assert.throws(() => t.string((t.root as unknown[])[4], "s"), /JSON string expected, got number/);
  assert.throws(() => t.double((t.root as unknown[])[5], "d"), /JSON number expected, got string/);
  // what is not JSON stays not JSON (a number where a member name goes, a number's bad form), with the text's offsets
  for (const bad of ['{1.5:2}', '{"a":1,2.5:3}', '[1.]', '[01.5]', '[.5]', '[1.5 2.5]', '{"a":-}', '1.5e', '[1.5]x']) {
    assert.throws(() => read(bad), (e: unknown) => e instanceof DecodeError && e.message.startsWith("invalid JSON"), bad);
  }
  assert.deepEqual(read("  1.25 ").root, "\t1.25");
  assert.throws(() => read('[1,{"a":1.5,"b":2, "a":3}]'), /^DecodeError: invalid JSON: duplicate member name "a" at text offset 19$/);
  assert.throws(() => read('{"a":{"x":1},"\\u0061":2}'), /duplicate member name "a"/);
  assert.equal(Object.keys(read('{"__proto__":1,"constructor":2}').root as object).length, 2);
});

test("the whole document: lone surrogates anywhere, strings as their bytes, strict Base64 (docs/limits.md 7)", () => {
  for (const bad of ['{"zzz":"\\ud800"}', '{"\\ud800":1}', '{"zzz":{"\\udc41":1}}', '[1,["\\udfff"]]', '"\\ud83d\\ud83d"']) {
    assert.throws(() => JsonReader.parse(bad), /lone surrogate/, bad);
  }
  assert.ok(JsonReader.parse('{"zzz":"\\ud83d\\ude00","\\udcc3":"\\udcff"}'));
  const r = JsonReader.parse('["\\udcc3\\udca9","a\\udce2\\udc82\\udcacb","\\udcc3","\\udcc3\\u00a9"]');
  const strings = (r.root as unknown[]).map((x) => r.string(x, "s"));
  assert.deepEqual(strings, ["\u00e9", "a\u20acb", "\udcc3", "\udcc3\u00a9"]); // as the binary readers hold the bytes
  assert.equal(r.keyString("\udcc3\udca9", "k"), "\u00e9");
  for (const [text, bytes] of [["", []], ["QQ==", [65]], ["QUI=", [65, 66]], ["+/+/", [0xfb, 0xff, 0xbf]]] as const) {
    assert.deepEqual(Array.from(fromBase64(text)), bytes);
  }
  for (const bad of ["A", "QQ", "QQ=", "QR==", "QUJ=", "Q Q==", "QQ\n==", "QQ==QQ==", "-_8=", "====", "Q===", "QQ==@", "@@@@"]) {
    assert.throws(() => fromBase64(bad, "b"), /^DecodeError: invalid base64 \(b\)$/, bad);
  }
});

test("JSON: a collection's struct item that is refused is named by its index or its key", () => {
  // a struct class as generated code hands it to the walk: its reader refuses an item whose "ok" is false
  const Item = {
    fbeName: "t.Item",
    fbeFields: () => [],
    fbeReadJson(_r: JsonReader, x: unknown): unknown {
      if ((x as { ok: boolean }).ok) return x;
      throw new DecodeError("refused", "ok");
    },
  };
  const r = JsonReader.parse('{"v":[{"ok":true},{"ok":false}],"m":{"a":{"ok":true},"b":{"ok":false}}}');
  const o = r.root as JsonObject;
  const refused = (path: string) => (e: unknown) => e instanceof DecodeError && e.path === path;
  assert.throws(() => readJsonField(r, "v", ["vector", ["struct", "t.Item", Item], 0], o["v"], undefined),
    refused("v[1].ok"));
  assert.throws(() => readJsonField(r, "v", ["set", ["optional", ["struct", "t.Item", Item]], 0], o["v"], undefined),
    refused("v[1].ok"));
  assert.throws(() => readJsonField(r, "m", ["map", "string", ["struct", "t.Item", Item], 0], o["m"], undefined),
    refused("m[b].ok"));
});
