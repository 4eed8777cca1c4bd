// The bounds of a background drain, and their check. The defaults are the ones `drainguard fix` writes into
// source (rules/contract/drain-options.ts); the transport imports nothing of the project, so they are repeated.

/** Bytes read after the abort before the drain gives up and destroys the socket (128 KiB). */
export const DEFAULT_MAX_BYTES = 131_072;
/** Milliseconds after the abort before the drain gives up and destroys the socket. */
export const DEFAULT_TIMEOUT_MS = 1000;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** How a drain that ran ended. */
export type DrainOutcome = 'eof' | 'max-bytes' | 'timeout' | 'error';

/** What `onDrain` is told once a background drain is over. */
export interface DrainReport {
  /** 'eof': the body ended and the connection went back to the pool; the others destroyed the socket. */
  outcome: DrainOutcome;
  /** Body bytes read and discarded after the abort. */
  bytes: number;
  /** `origin` and `path` of the request, as dispatched. */
  origin: string;
  path: string;
  /** The error that ended the drain when outcome is 'error' (a reset, a body timeout). */
  error?: Error;
}

export interface DrainOnAbortOptions {
  /** Body bytes to read after the abort, at most (default 131072). 0 turns the drain off. */
  maxBytes?: number;
  /** Milliseconds to wait for the end of the body after the abort, at most (default 1000). 0 turns the drain off. */
  timeoutMs?: number;
  /** Called once a background drain is over, with how it ended (for logs and tests); an error it throws is ignored. */
  onDrain?: (report: DrainReport) => void;
}

export interface DrainBounds {
  maxBytes: number;
  timeoutMs: number;
  onDrain: ((report: DrainReport) => void) | undefined;
}

function wholeNumber(name: string, value: unknown, max: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) return value;
  throw new RangeError(`drainOnAbort: '${name}' must be a whole number from 0 to ${max}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
}

/** The options with their defaults; a RangeError (TypeError for onDrain) that quotes a wrong value. */
export function drainBounds(options: DrainOnAbortOptions = {}): DrainBounds {
  if (typeof options !== 'object' || options === null) throw new TypeError('drainOnAbort: the options must be an object');
  const { maxBytes = DEFAULT_MAX_BYTES, timeoutMs = DEFAULT_TIMEOUT_MS, onDrain } = options;
  if (onDrain !== undefined && typeof onDrain !== 'function') throw new TypeError("drainOnAbort: 'onDrain' must be a function");
  return {
    maxBytes: wholeNumber('maxBytes', maxBytes, Number.MAX_SAFE_INTEGER),
    timeoutMs: wholeNumber('timeoutMs', timeoutMs, MAX_TIMER_MS),
    onDrain,
  };
}
