// Value descriptions (SHARED/vectors/README.md, "Value descriptions") for the js testee: a value
// described as typed JSON read into the generated classes and written back as one, driven by the
// IR of the conformance schemas (types.json, written by build.py) and the registry of classes.
import * as fbe from "@fbe-toolkit/fbe";

/** An IR type as `fbec --ir` writes it (docs/ir.md). */
export interface IrType {
  kind: string;
  name?: string;
  wire?: string;
  element?: IrType;
  key?: IrType;
  value?: IrType;
  length?: number;
}

/** A struct's fields, inherited first: schema name, TypeScript property and type. */
export type Structs = Record<string, { fields: { name: string; prop: string; type: IrType }[] }>;

type Classes = Record<string, unknown>;

const BIG = new Set(["int64", "uint64", "timestamp"]);

function byValue(t: IrType): boolean {
  return (t.kind === "primitive" && !["bytes", "uuid", "decimal"].includes(t.name!)) || t.kind === "enum" || t.kind === "flags";
}

function hexToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A decimal of the description's text: its digits after the point are the wire scale. */
function decimalOf(s: string): fbe.Decimal {
  const negative = s.startsWith("-");
  const body = negative || s.startsWith("+") ? s.slice(1) : s;
  const point = body.indexOf(".");
  const scale = point < 0 ? 0 : body.length - point - 1;
  const magnitude = BigInt(point < 0 ? body : body.slice(0, point) + body.slice(point + 1));
  return fbe.Decimal.fromParts(magnitude, scale, negative && magnitude !== 0n);
}

function real(v: unknown): number {
  if (typeof v === "string") return v === "NaN" ? NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : Number(v);
  return v as number;
}

/** A float or double of a description: written as a JSON number with a point or an exponent. */
export class Real {
  constructor(readonly value: number) {}
}

/** The shortest text that reads back to the same float (descriptions of floats). */
function floatText(v: number): Real {
  if (!Number.isFinite(v) || v === 0) return new Real(v);
  for (let p = 1; p <= 9; p++) {
    const x = Number(v.toPrecision(p));
    if (Math.fround(x) === v) return new Real(x);
  }
  return new Real(v);
}

/**
 * JSON text of a description: as JSON.stringify, but a Real always reads back as a float (a point
 * or an exponent: 36870406073740140.0, not the integer 36870406073740140), -0.0 keeps its sign,
 * and NaN and infinities are the bare words Python's json reads.
 */
export function describe(v: unknown): string {
  if (v instanceof Real) {
    const x = v.value;
    if (Number.isNaN(x)) return "NaN";
    if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (Object.is(x, -0)) return "-0.0";
    const text = String(x);
    return /[.e]/.test(text) ? text : text + ".0";
  }
  if (Array.isArray(v)) return "[" + v.map(describe).join(",") + "]";
  if (v !== null && typeof v === "object") {
    return "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ":" + describe(x)).join(",") + "}";
  }
  return JSON.stringify(v);
}

/**
 * A value a description holds that the runtime's types cannot (a decimal beyond 96 bits): the
 * error, and the field path where it is (`.price`, `.priceVector[1]`), put together on the way up.
 */
export class Unheld extends Error {
  constructor(
    readonly reason: unknown,
    readonly path: string,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** f(), an error it throws named at `step` in front of the path it already names. */
function at<T>(step: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof Unheld ? new Unheld(e.reason, step + e.path) : new Unheld(e, step);
  }
}

export class Values {
  constructor(
    private readonly structs: Structs,
    private readonly classes: Classes,
  ) {}

  /** The value of type t that the description d stands for. */
  read(t: IrType, d: unknown): unknown {
    // an optional's absence, or null where the type has none: the writers refuse that (docs/limits.md 8)
    if (d === null) return t.kind === "optional" ? undefined : null;
    switch (t.kind) {
      case "primitive":
        switch (t.name) {
          case "bool":
            return d as boolean;
          case "int64":
          case "uint64":
          case "timestamp":
            return BigInt(d as string);
          case "float":
            return Math.fround(real(d));
          case "double":
            return real(d);
          case "decimal":
            return decimalOf(d as string);
          case "string":
            return d as string;
          case "bytes":
            return hexToBytes(d as string);
          case "uuid":
            return fbe.Uuid.parse(d as string);
          default:
            return d as number;
        }
      case "enum":
      case "flags":
        return BIG.has(t.wire!) ? BigInt(d as string) : (d as number);
      case "struct":
        return this.readStruct(t.name!, d as Record<string, unknown>);
      case "optional":
        return this.read(t.element!, d);
      case "array":
      case "vector":
      case "list":
        return (d as unknown[]).map((x, i) => at(`[${i}]`, () => this.read(t.element!, x)));
      case "set": {
        const items = (d as unknown[]).map((x, i) => at(`[${i}]`, () => this.read(t.element!, x)));
        return byValue(t.element!) ? new Set(items) : items;
      }
      default: {
        const pairs = (d as [unknown, unknown][]).map(
          ([k, v], i) =>
            [at(`[${i}].key`, () => this.read(t.key!, k)), at(`[${i}].value`, () => this.read(t.value!, v))] as [unknown, unknown],
        );
        return byValue(t.key!) ? new Map(pairs) : pairs;
      }
    }
  }

  readStruct(qualified: string, d: Record<string, unknown>): unknown {
    const make = this.classes[qualified] as new () => Record<string, unknown>;
    const v = new make();
    for (const f of this.structs[qualified]!.fields) {
      if (f.name in d) v[f.prop] = at("." + f.name, () => this.read(f.type, d[f.name]));
    }
    return v;
  }

  /** The description of the value v of type t. */
  write(t: IrType, v: unknown): unknown {
    switch (t.kind) {
      case "primitive":
        switch (t.name) {
          case "int64":
          case "uint64":
          case "timestamp":
            return (v as bigint).toString();
          case "float":
            return floatText(v as number);
          case "double":
            return new Real(v as number);
          case "decimal":
          case "uuid":
            return String(v);
          case "bytes":
            return Array.from(v as Uint8Array, (b) => b.toString(16).padStart(2, "0")).join("");
          default:
            return v;
        }
      case "enum":
      case "flags":
        return typeof v === "bigint" ? v.toString() : v;
      case "struct":
        return this.writeStruct(t.name!, v as Record<string, unknown>);
      case "optional":
        return v === undefined ? null : this.write(t.element!, v);
      case "array":
      case "vector":
      case "list":
      case "set":
        return Array.from(v as Iterable<unknown>, (x) => this.write(t.element!, x));
      default:
        return Array.from(v as Iterable<[unknown, unknown]>, ([k, x]) => [this.write(t.key!, k), this.write(t.value!, x)]);
    }
  }

  writeStruct(qualified: string, v: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { "@type": qualified };
    for (const f of this.structs[qualified]!.fields) out[f.name] = this.write(f.type, v[f.prop]);
    return out;
  }
}
