/**
 * Errors naming what was wrong, where (the schema type, the field path and
 * the byte offset) and why (docs/limits.md 8).
 */

/** What kind of limit a decode or encode ran into, if any. */
export type LimitKind = "budget" | "depth";

function joinPath(outer: string, inner: string): string {
  if (inner === "") return outer;
  if (outer === "") return inner;
  return inner.startsWith("[") ? outer + inner : outer + "." + inner;
}

function where(type: string, path: string, offset: number): string {
  const parts: string[] = [];
  if (type !== "" && path !== "") parts.push(type + "." + path);
  else if (type !== "" || path !== "") parts.push(type + path);
  if (offset >= 0) parts.push("offset " + offset);
  return parts.length > 0 ? " (" + parts.join(", ") + ")" : "";
}

/**
 * Why a buffer cannot be decoded: the problem in plain words (`reason`), the
 * qualified schema type being read (`"proto.Account"`), the field path from
 * that type (`"orders[2].price"`, filled in as the error leaves nested
 * values) and the absolute byte offset (-1 when unknown). `limit` says which
 * limit was exceeded, if one was.
 */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  readonly reason: string;
  type: string;
  path: string;
  readonly offset: number;
  readonly limit: LimitKind | undefined;

  constructor(reason: string, path = "", offset = -1, limit?: LimitKind, type = "") {
    super(reason + where(type, path, offset));
    this.reason = reason;
    this.type = type;
    this.path = path;
    this.offset = offset;
    this.limit = limit;
  }

  /** Puts an outer field name (or `[index]`) in front of the path, as the error leaves a nested value. */
  within(field: string): this {
    this.path = joinPath(field, this.path);
    this.message = this.reason + where(this.type, this.path, this.offset);
    return this;
  }

  /** Names the root type being read (once). */
  of(type: string): this {
    if (this.type === "") {
      this.type = type;
      this.message = this.reason + where(this.type, this.path, this.offset);
    }
    return this;
  }
}

/**
 * Why a value cannot be encoded: a struct nested deeper than the depth limit,
 * a string holding a lone surrogate that is not an escaped byte, a fixed
 * array of the wrong length, a value out of its type's range...
 */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
  readonly reason: string;
  type: string;
  path: string;
  readonly limit: LimitKind | undefined;

  constructor(reason: string, path = "", limit?: LimitKind, type = "") {
    super(reason + where(type, path, -1));
    this.reason = reason;
    this.type = type;
    this.path = path;
    this.limit = limit;
  }

  /** Puts an outer field name in front of the path. */
  within(field: string): this {
    this.path = joinPath(field, this.path);
    this.message = this.reason + where(this.type, this.path, -1);
    return this;
  }

  /** Names the root type being written (once). */
  of(type: string): this {
    if (this.type === "") {
      this.type = type;
      this.message = this.reason + where(this.type, this.path, -1);
    }
    return this;
  }
}

/**
 * Generated code's catch clause around a nested value: a DecodeError or
 * EncodeError gets `field` in front of its path; anything else is a bug and
 * goes on unchanged.
 */
export function within(e: unknown, field: string): unknown {
  if (e instanceof DecodeError || e instanceof EncodeError) e.within(field);
  return e;
}

/** `within` for element `index` of a collection field: `orders[2]`. */
export function withinIndex(e: unknown, field: string, index: number): unknown {
  if (e instanceof DecodeError || e instanceof EncodeError) e.within(field + "[" + index + "]");
  return e;
}

/** Generated roots' catch clause: names the root type of a DecodeError or EncodeError. */
export function rootOf(e: unknown, type: string): unknown {
  if (e instanceof DecodeError || e instanceof EncodeError) e.of(type);
  return e;
}

/** `a`, to write as a fixed array `T[n]`: refused when it holds another number of elements. */
export function checkLength<T>(a: readonly T[], n: number): readonly T[] {
  if (a.length !== n) throw new EncodeError("fixed array of " + n + " elements holds " + a.length);
  return a;
}

/** `a`, to write as a vector or list: refused when not an array (JSON iterates it; the binary writers take its length). */
export function checkArray<T>(a: readonly T[]): readonly T[] {
  if (!Array.isArray(a)) throw new EncodeError("a vector or list must be an array");
  return a;
}
