/**
 * The limits of every reader and writer (docs/limits.md): the same rules and
 * the same default numbers in every language of the toolkit.
 */

/** The deepest struct nesting a reader accepts and a writer writes (the root is level 1). */
export const MAX_DEPTH = 128;
/** A decode may materialize this many bytes per input byte... */
export const BUDGET_FACTOR = 8;
/** ... plus this many. */
export const BUDGET_SLACK = 4096;
/** The largest protocol frame a Receiver accepts (64 MiB). */
export const MAX_FRAME_SIZE = 64 * 1024 * 1024;

/** The options of one reader (docs/limits.md, section 5). */
export interface Limits {
  readonly maxDepth: number;
  readonly budgetFactor: number;
  readonly budgetSlack: number;
  readonly maxFrameSize: number;
}

/** The limits of docs/limits.md. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxDepth: MAX_DEPTH,
  budgetFactor: BUDGET_FACTOR,
  budgetSlack: BUDGET_SLACK,
  maxFrameSize: MAX_FRAME_SIZE,
});

/** The default limits with some of them changed: `limits({ maxDepth: 16 })`. */
export function limits(changes: Partial<Limits>): Limits {
  return Object.freeze({ ...DEFAULT_LIMITS, ...changes });
}

/** The decode budget in bytes of an input of `inputSize` bytes (docs/limits.md 3). */
export function budgetOf(lim: Limits, inputSize: number): number {
  return lim.budgetFactor * inputSize + lim.budgetSlack;
}
