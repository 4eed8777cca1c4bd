import { asWritten } from './option-values.js';

/**
 * The drain's bounds, one contract for the JavaScript and the Python rewrite: a drain ends at EOF, after
 * `drainTimeoutMs` milliseconds, or after `drainMaxBytes` bytes, whichever comes first, and then does the
 * original close. 128 KiB is what undici's own `body.dump()` reads before it gives up on a body.
 */
export const DEFAULT_DRAIN_TIMEOUT_MS = 1000;
export const DEFAULT_DRAIN_MAX_BYTES = 128 * 1024;

export interface DrainOptions {
  /** Time budget in ms; 0 = no time limit (such a fix is reported as unbounded). */
  drainTimeoutMs?: number;
  /** Byte limit of the drain; 0 = no byte limit. */
  drainMaxBytes?: number;
}

export interface DrainBounds {
  drainTimeoutMs: number;
  drainMaxBytes: number;
}

/**
 * The bounds with their defaults filled in. A value may come as the user typed it (the jscodeshift transform's
 * `--drainTimeoutMs=500` is a string); one that is not a whole number >= 0 is a RangeError that quotes it.
 */
export function drainBounds(options: { drainTimeoutMs?: unknown; drainMaxBytes?: unknown } = {}): DrainBounds {
  return {
    drainTimeoutMs: wholeNumber('drainTimeoutMs', options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS),
    drainMaxBytes: wholeNumber('drainMaxBytes', options.drainMaxBytes ?? DEFAULT_DRAIN_MAX_BYTES),
  };
}

function wholeNumber(name: string, raw: unknown): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole number >= 0, got ${asWritten(raw)}`);
  }
  return value;
}
