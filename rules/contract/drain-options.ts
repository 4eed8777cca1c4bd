import { asWritten } from './option-values.js';

/**
 * The drain's bounds, one contract for the JavaScript and the Python rewrite: a drain ends at EOF, after
 * `drainTimeoutMs` milliseconds, or after `drainMaxBytes` bytes, whichever comes first, and then does the
 * original close. 128 KiB is what undici's own `body.dump()` reads before it gives up on a body.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 1000;
export const DEFAULT_DRAIN_MAX_BYTES = 128 * 1024;
/**
 * The budget of a drain the caller waits for (one that runs before the caller gets control back: a generator whose
 * `finally` closes the response, a `with` block): long enough for a server that ends the body within a few ms of the
 * terminal event, short enough that a server holding the body open costs each call no more than this.
 */
export const DEFAULT_DRAIN_WAIT_MS = 50;

export interface DrainOptions {
  /** Time budget in ms; 0 = no time limit (such a fix is reported as unbounded). */
  drainTimeoutMs?: number;
  /** Byte limit of the drain; 0 = no byte limit. */
  drainMaxBytes?: number;
  /** Budget in ms of a drain the caller waits for (at most drainTimeoutMs); 0 = such drains get drainTimeoutMs too. */
  drainWaitMs?: number;
}

export interface DrainBounds {
  drainTimeoutMs: number;
  drainMaxBytes: number;
  /** Filled in by drainBounds(); absent where bounds are read back from an existing helper module (which does not record it). */
  drainWaitMs?: number;
}

/**
 * The bounds with their defaults filled in. A value may come as the user typed it (the jscodeshift transform's
 * `--drainTimeoutMs=500` is a string); one that is not a whole number >= 0 is a RangeError that quotes it.
 */
export function drainBounds(options: { drainTimeoutMs?: unknown; drainMaxBytes?: unknown; drainWaitMs?: unknown } = {}): DrainBounds {
  return {
    drainTimeoutMs: wholeNumber('drainTimeoutMs', options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS),
    drainMaxBytes: wholeNumber('drainMaxBytes', options.drainMaxBytes ?? DEFAULT_DRAIN_MAX_BYTES),
    drainWaitMs: wholeNumber('drainWaitMs', options.drainWaitMs ?? DEFAULT_DRAIN_WAIT_MS),
  };
}

/**
 * How long a drain the caller waits for may take: `drainWaitMs`, never more than `drainTimeoutMs`. `drainTimeoutMs` 0
 * (no time bound) drops it too, as an explicit request for an unbounded drain; `drainWaitMs` 0 gives such drains the
 * whole `drainTimeoutMs`.
 */
export function callerWaitMs(bounds: DrainBounds): number {
  const wait = bounds.drainWaitMs ?? DEFAULT_DRAIN_WAIT_MS;
  if (bounds.drainTimeoutMs === 0) return 0;
  if (wait === 0) return bounds.drainTimeoutMs;
  return Math.min(wait, bounds.drainTimeoutMs);
}

function wholeNumber(name: string, raw: unknown): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number >= 0, got ${asWritten(raw)}`);
  }
  return value;
}
