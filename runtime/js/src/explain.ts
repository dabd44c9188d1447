/**
 * Why a writer refused a value, in the user's words: the root type, the
 * field path and the type the field expects (`expected shop.Line, got
 * number 1 (shop.Cart.lines[0])`, docs/limits.md 8).
 *
 * The writers stay on their fast path: they check only what they must to
 * write correct bytes, and their errors name the slot's type at best
 * (`42 is not a valid int64 value`). Only after a root writer (toFbe,
 * toFinal, toJson, a Sender) failed does `refused` walk the value against
 * the generated `fbeFields()` of its class and name the first field that
 * does not hold what its type allows.
 */

import { Decimal } from "./decimal.js";
import { EncodeError } from "./errors.js";
import { Uuid } from "./uuid.js";

/**
 * A generated struct class, as the walks of its fields see it (this one and
 * the text form's, text.ts): its schema name, its fields and, when it has
 * [key] fields, their order.
 */
export interface StructClass {
  readonly fbeName: string;
  fbeFields(): readonly FieldSpec[];
  fbeCompareKey?(a: never, b: never): number;
}

/**
 * A field's type as generated code states it for the walks: the primitive's
 * schema name (`"int32"`, `"string"`...), an enum or flags `["enum",
 * "shop.Kind", "uint8", textOfKind]` (its wire type and text function), a
 * struct `["struct", "shop.Line", Line]`, an
 * optional `["optional", T]`, a fixed array `["array", T, n]`, a vector,
 * list or set `["vector" | "list" | "set", T, cost]` and a map or hash
 * `["map" | "hash", K, V, cost]` (cost: what a reader charges for each item,
 * docs/limits.md 3; the JSON walk's, json_fields.ts).
 */
export type TypeSpec =
  | string
  | readonly ["enum", string, string, (v: never) => string]
  | readonly ["struct", string, StructClass]
  | readonly ["optional", TypeSpec]
  | readonly ["array", TypeSpec, number]
  | readonly ["vector" | "list" | "set", TypeSpec, number]
  | readonly ["map" | "hash", TypeSpec, TypeSpec, number];

/**
 * A field's schema name, its type and, when the generator renamed it or the
 * field is hidden (its text form `***`), its property, then `"hidden"`.
 */
export type FieldSpec =
  | readonly [string, TypeSpec]
  | readonly [string, TypeSpec, string]
  | readonly [string, TypeSpec, string, "hidden"];

/** The range of each integer primitive that is a number (and of enums by their wire type). */
export const INT_RANGES: Record<string, readonly [number, number]> = {
  byte: [0, 0xff], uint8: [0, 0xff], int8: [-0x80, 0x7f], char: [0, 0xff], wchar: [0, 0xffffffff],
  uint16: [0, 0xffff], int16: [-0x8000, 0x7fff], uint32: [0, 0xffffffff], int32: [-0x80000000, 0x7fffffff],
};
/** The range of each integer that is a bigint. */
export const BIGINT_RANGES: Record<string, readonly [bigint, bigint]> = {
  int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n], timestamp: [0n, 2n ** 64n - 1n],
};

function shown(v: unknown): string {
  let text: string;
  if (typeof v === "string") text = JSON.stringify(v);
  else if (typeof v === "bigint") text = v + "n";
  else text = String(v);
  return text.length <= 40 ? text : text.slice(0, 37) + "...";
}

/** What the value is: `number 1`, `string "7"`, `undefined`, `Object`, `shop.Line`'s class name. */
function got(v: unknown): string {
  if (v === undefined || v === null) return "got " + v;
  if (typeof v === "object" || typeof v === "function") {
    const ctor = (v as { constructor?: { name?: string } }).constructor;
    return "got " + (ctor?.name || "an object");
  }
  return "got " + typeof v + " " + shown(v);
}

/** A problem found: the path below the value walked and what is wrong there. */
type Found = readonly [string, string];

function lone(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    } else if (c >= 0xdc80 && c <= 0xdcff) continue;
    return i;
  }
  return -1;
}

function integer(v: unknown, wire: string, name: string): Found | undefined {
  const big = BIGINT_RANGES[wire];
  if (big !== undefined) {
    if (typeof v !== "bigint") return ["", "expected a bigint (" + name + "), " + got(v)];
    return v < big[0] || v > big[1] ? ["", v + " is out of range for " + name] : undefined;
  }
  const [lo, hi] = INT_RANGES[wire] ?? [-Infinity, Infinity];
  if (typeof v !== "number" || !Number.isInteger(v)) return ["", "expected an integer (" + name + "), " + got(v)];
  return v < lo || v > hi ? ["", v + " is out of range for " + name] : undefined;
}

function primitive(v: unknown, t: string): Found | undefined {
  switch (t) {
    case "bool":
      return typeof v === "boolean" ? undefined : ["", "expected a boolean (bool), " + got(v)];
    case "float":
    case "double":
      return typeof v === "number" ? undefined : ["", "expected a number (" + t + "), " + got(v)];
    case "decimal":
      return v instanceof Decimal ? undefined : ["", "expected an fbe.Decimal (decimal), " + got(v)];
    case "uuid":
      return v instanceof Uuid ? undefined : ["", "expected an fbe.Uuid (uuid), " + got(v)];
    case "bytes":
      return v instanceof Uint8Array ? undefined : ["", "expected a Uint8Array (bytes), " + got(v)];
    case "string": {
      if (typeof v !== "string") return ["", "expected a string, " + got(v)];
      const i = lone(v);
      return i < 0 ? undefined : ["", "the string holds the lone surrogate U+" +
        v.charCodeAt(i).toString(16).toUpperCase() + " at index " + i +
        " (only U+DC80..U+DCFF, escaped bytes, can be written)"];
    }
  }
  return integer(v, t, t);
}

function elements(v: unknown, kind: string): Iterable<unknown> | undefined {
  if (Array.isArray(v)) return v;
  return kind === "set" && v instanceof Set ? v : undefined;
}

function within(at: string, found: Found | undefined): Found | undefined {
  return found === undefined ? undefined : [at + found[0], found[1]];
}

/** The first part of `v` that type `t` does not allow, or undefined. */
function problem(v: unknown, t: TypeSpec): Found | undefined {
  if (typeof t === "string") return primitive(v, t);
  switch (t[0]) {
    case "enum":
      return integer(v, t[2], t[1] + " (" + t[2] + ")");
    case "struct":
      return struct(v, t[1], t[2]);
    case "optional":
      return v === undefined ? undefined : problem(v, t[1]);
    case "array":
    case "vector":
    case "list":
    case "set": {
      const all = elements(v, t[0]);
      if (all === undefined) return ["", "expected " + (t[0] === "set" ? "a Set or an array" : "an array") + ", " + got(v)];
      if (t[0] === "array" && (v as unknown[]).length !== t[2]) {
        return ["", "expected " + t[2] + " elements, got " + (v as unknown[]).length];
      }
      let i = 0;
      for (const x of all) {
        const found = within("[" + i + "]", problem(x, t[1]));
        if (found !== undefined) return found;
        i++;
      }
      return undefined;
    }
    case "map":
    case "hash": {
      const entries = v instanceof Map ? v.entries() : Array.isArray(v) ? v : undefined;
      if (entries === undefined) return ["", "expected a Map or an array of [key, value] pairs, " + got(v)];
      let i = 0;
      for (const entry of entries as Iterable<unknown>) {
        if (!Array.isArray(entry) || entry.length !== 2) return ["[" + i + "]", "expected a [key, value] pair, " + got(entry)];
        const found = within("[" + i + "] (the key)", problem(entry[0], t[1])) ??
          within("[" + shown(entry[0]) + "]", problem(entry[1], t[2]));
        if (found !== undefined) return found;
        i++;
      }
      return undefined;
    }
  }
}

function struct(v: unknown, type: string, cls: StructClass): Found | undefined {
  if (!(v instanceof (cls as unknown as new () => object))) return ["", "expected " + type + ", " + got(v)];
  for (const [name, t, property] of cls.fbeFields()) {
    const found = problem((v as Record<string, unknown>)[property ?? name], t);
    if (found !== undefined) return ["." + name + found[0], found[1]];
  }
  return undefined;
}

/**
 * The error a root writer throws for `e`, raised writing `value` of the
 * struct `type` (`"shop.Cart"`): an EncodeError naming the first field of
 * `value` that does not hold what its type allows, its path and the type
 * expected; when every field does, `e` with the root type named (an
 * EncodeError: depth, duplicate keys...; anything else goes on unchanged).
 */
export function refused(e: unknown, type: string, value: object): unknown {
  if (e instanceof EncodeError || e instanceof TypeError || e instanceof RangeError) {
    const cls = value.constructor as unknown as StructClass;
    const found = typeof cls.fbeFields === "function" ? struct(value, type, cls) : undefined;
    if (found !== undefined) {
      const error = new EncodeError(found[1], found[0].replace(/^\./, ""), undefined, type);
      error.cause = e;
      return error;
    }
  }
  if (e instanceof EncodeError) e.of(type);
  return e;
}
