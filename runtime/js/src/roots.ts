/**
 * The roots of a generated struct class (docs/format.md 3.2, 4.1 and 8): its
 * `toFbe`/`fromFbe`/`verifyFbe` and, with --final, `toFinal`/`fromFinal`/
 * `verifyFinal`, with --json `toJson`/`fromJson`, call these with the class,
 * which writes, reads and checks the fields (`fbeWrite`, `fbeRead`,
 * `fbeVerify`, the final twins, `fbeWriteJson` and `fbeReadJson`).
 * A writer's error names the field that does not hold what its type allows
 * (`refused`), a reader's the root type (`rootOf`).
 */

import { DecodeError, rootOf } from "./errors.js";
import { refused } from "./explain.js";
import { JsonWriter } from "./json.js";
import { JsonReader } from "./json_reader.js";
import type { Limits } from "./limits.js";
import { Reader } from "./reader.js";
import { Writer } from "./writer.js";

/** A generated struct class, as its versioned roots call it. */
export interface VersionedClass<T> {
  readonly fbeName: string;
  fbeWrite(w: Writer, base: number, slot: number, v: T): void;
  fbeRead(r: Reader, base: number, slot: number): T;
  fbeVerify(r: Reader, base: number, slot: number): void;
}

/** A generated struct class, as its final roots call it (code generated with --final). */
export interface FinalClass<T> {
  readonly fbeName: string;
  readonly fbeType: number;
  fbeWriteFinal(w: Writer, v: T): void;
  fbeReadFinal(r: Reader): T;
  fbeVerifyFinal(r: Reader): void;
}

/** A generated struct class, as its JSON roots call it (code generated with --json). */
export interface JsonClass<T> {
  readonly fbeName: string;
  fbeWriteJson(j: JsonWriter, v: T): void;
  fbeReadJson(r: JsonReader, x: unknown): T;
}

/** `v` as a versioned root, into `writer` when given (its buffer, overwritten by its next use). */
export function toFbe<T extends object>(cls: VersionedClass<T>, v: T, writer?: Writer): Uint8Array {
  const w = writer ?? new Writer();
  w.beginVersioned();
  try {
    cls.fbeWrite(w, 0, 4, v);
    w.endVersioned();
  } catch (e) {
    throw refused(e, cls.fbeName, v);
  }
  return w.bytes();
}

/** The value of the versioned root in `data`; a DecodeError names what is wrong, where and why. */
export function fromFbe<T>(cls: VersionedClass<T>, data: Uint8Array, limits?: Limits): T {
  try {
    return cls.fbeRead(Reader.versioned(data, limits), 0, 4);
  } catch (e) {
    throw rootOf(e, cls.fbeName);
  }
}

/** Undefined exactly when fromFbe of `data` succeeds, else its DecodeError (docs/limits.md 4). */
export function verifyFbe<T>(cls: VersionedClass<T>, data: Uint8Array, limits?: Limits): DecodeError | undefined {
  try {
    cls.fbeVerify(Reader.versioned(data, limits), 0, 4);
    return undefined;
  } catch (e) {
    return refusal(e, cls.fbeName);
  }
}

/** What verify returns for `e`, thrown checking a root of `type`: a DecodeError naming it; anything else is thrown. */
function refusal(e: unknown, type: string): DecodeError {
  if (e instanceof DecodeError) return rootOf(e, type) as DecodeError;
  throw rootOf(e, type);
}

/** `v` as a final root, into `writer` when given (as toFbe). */
export function toFinal<T extends object>(cls: FinalClass<T>, v: T, writer?: Writer): Uint8Array {
  const w = writer ?? new Writer();
  w.beginFinal();
  try {
    cls.fbeWriteFinal(w, v);
    w.endFinal(cls.fbeType);
  } catch (e) {
    throw refused(e, cls.fbeName, v);
  }
  return w.bytes();
}

/** The value of the final root in `data`; a DecodeError names what is wrong, where and why. */
export function fromFinal<T>(cls: FinalClass<T>, data: Uint8Array, limits?: Limits): T {
  try {
    const r = Reader.final(data, cls.fbeType, limits);
    const v = cls.fbeReadFinal(r);
    r.endFinal();
    return v;
  } catch (e) {
    throw rootOf(e, cls.fbeName);
  }
}

/** Undefined exactly when fromFinal of `data` succeeds, else its DecodeError (docs/limits.md 4). */
export function verifyFinal<T>(cls: FinalClass<T>, data: Uint8Array, limits?: Limits): DecodeError | undefined {
  try {
    const r = Reader.final(data, cls.fbeType, limits);
    cls.fbeVerifyFinal(r);
    r.endFinal();
    return undefined;
  } catch (e) {
    return refusal(e, cls.fbeName);
  }
}

/** `v` as FBE JSON (docs/format.md 8): compact, the original's text. */
export function toJson<T extends object>(cls: JsonClass<T>, v: T): string {
  const j = new JsonWriter();
  try {
    cls.fbeWriteJson(j, v);
  } catch (e) {
    throw refused(e, cls.fbeName, v);
  }
  return j.text;
}

/** The value of FBE JSON text (or its UTF-8 bytes); a DecodeError names what is wrong and where. */
export function fromJson<T>(cls: JsonClass<T>, text: string | Uint8Array, limits?: Limits): T {
  try {
    const r = JsonReader.parse(text, limits);
    return cls.fbeReadJson(r, r.root);
  } catch (e) {
    throw rootOf(e, cls.fbeName);
  }
}
