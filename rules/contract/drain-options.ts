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

/** The bounds with their defaults filled in; a value that is not a whole number >= 0 is a RangeError. */
export function drainBounds(options: DrainOptions = {}): DrainBounds {
  const bounds = { drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS, drainMaxBytes: options.drainMaxBytes ?? DEFAULT_DRAIN_MAX_BYTES };
  for (const [name, value] of Object.entries(bounds)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${value}`);
  }
  return bounds;
}
