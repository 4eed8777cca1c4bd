// The two checks a drain fix needs in a maintainer's own CI, for any test runner (they throw
// node:assert's AssertionError, which vitest, jest and node:test all report): the connection is reused
// over N calls, and a call returns promptly, and lets go of the body, whatever follows the terminal event.
import { AssertionError } from 'node:assert';
import { performance } from 'node:perf_hooks';
import type { CountingServer, ServerStats } from './counting-server.js';
import { HOSTILE_MODES, type HostileMode, type StreamServerOptions } from './options.js';
import { startStreamServer } from './stream-server.js';

/** One call of the client under test against `url` (the server's URL); it may return a promise. */
export type Call = (url: string) => unknown;

export interface ReuseOptions {
  /** Calls, one after the other, each made once the previous body has ended (default 10). */
  calls?: number;
  /**
   * The most connections the calls may open (default 2: a fixed client needs 1, but on a loaded machine
   * a call may start before the client has taken in the previous body's end; an early close needs ≈ calls).
   */
  maxConnections?: number;
  /** A server to call (its counts are reset first; it is not closed), or the options of a stream server the helper starts (mode 'end'). */
  server?: CountingServer | Omit<StreamServerOptions, 'mode'>;
  /** Bound on each call (default 10000 ms): a call that does not settle fails the check. */
  callTimeoutMs?: number;
}

export interface ReuseReport extends ServerStats {
  calls: number;
  /** What each call returned, in order. */
  results: unknown[];
}

export interface PromptReturnOptions {
  /** How long a call may take, and how long after it returned the client may still hold the body (default 2000 ms). */
  withinMs?: number;
  /** The bodies to try (default all: silent, trickle, flood, endless, reset). */
  modes?: readonly HostileMode[];
  /** Options of the stream servers the helper starts (everything but the mode). */
  server?: Omit<StreamServerOptions, 'mode'>;
}

export interface PromptReturn {
  mode: HostileMode;
  /** What the call returned. */
  value: unknown;
  /** How long it took, in ms (shown, never asserted by drainguard's own tests). */
  ms: number;
}

const DESCRIBE: Record<HostileMode, string> = {
  silent: 'a body held open silently after its terminal event',
  trickle: 'a body that trickles keep-alive comments after its terminal event',
  flood: 'a body that floods bytes after its terminal event',
  endless: 'a body that sends one line that never ends after its terminal event',
  reset: 'a connection reset after the terminal event',
};

const isCountingServer = (server: ReuseOptions['server']): server is CountingServer => typeof server === 'object' && 'stats' in server;

/** Settles with the call's outcome, or 'timeout' after ms; the call's own rejection is always handled. */
async function settleWithin(call: Call, url: string, ms: number): Promise<{ value: unknown } | { error: unknown } | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = Promise.resolve()
    .then(() => call(url))
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const describeError = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until every body so far has ended: the server wrote it to its end, or the client closed it (at most timeoutMs). */
async function bodiesEnded(server: CountingServer, timeoutMs: number): Promise<void> {
  await server.waitFor((s) => s.finished + s.closedEarly >= s.requests, timeoutMs).catch(() => {});
}

/** After a body's end, the moment a client takes to put the connection back in its pool. */
const BODY_END_GRACE_MS = 5;
/** After the last call, the time for closes to reach the server and for connections a client opens after a destroyed one to be counted. */
const SETTLE_MS = 100;

/**
 * Calls `call(url)` `calls` times, one after the other, against a server whose bodies end shortly
 * after their terminal event, and asserts that they were made over at most `maxConnections` TCP
 * connections, as the server counted them. Each call is made once the previous body has ended: a
 * client that drains after handing the result over has then put its connection back in the pool.
 */
export async function expectConnectionReuse(call: Call, options: ReuseOptions = {}): Promise<ReuseReport> {
  const { calls = 10, maxConnections = 2, callTimeoutMs = 10_000 } = options;
  if (!Number.isInteger(calls) || calls < 1) throw new RangeError(`expectConnectionReuse: calls must be a whole number of at least 1, got ${calls}`);
  const given = options.server;
  const server = isCountingServer(given) ? given : await startStreamServer({ ...given, mode: 'end' });
  try {
    server.reset();
    const results: unknown[] = [];
    for (let i = 0; i < calls; i++) {
      if (i > 0) {
        await bodiesEnded(server, callTimeoutMs);
        await sleep(BODY_END_GRACE_MS);
      }
      const outcome = await settleWithin(call, server.url, callTimeoutMs);
      if (outcome === 'timeout') throw new AssertionError({ message: `call ${i + 1} of ${calls} did not return within ${callTimeoutMs} ms` });
      if ('error' in outcome) throw new AssertionError({ message: `call ${i + 1} of ${calls} failed: ${describeError(outcome.error)}` });
      results.push(outcome.value);
    }
    await sleep(SETTLE_MS);
    await bodiesEnded(server, 2000);
    const stats = server.stats();
    if (stats.connections > maxConnections) {
      const early = stats.closedEarly > 0 ? ` and closed ${stats.closedEarly} of the ${stats.requests} response bodies before their end` : '';
      throw new AssertionError({
        message:
          `expected ${calls} calls to reuse their connection (at most ${maxConnections} connections), but the server accepted ${stats.connections} TCP connections${early}: ` +
          'read each body to its end after the terminal event (a drain bounded by time and bytes) so the connection goes back to the pool',
        actual: stats.connections,
        expected: maxConnections,
        operator: '<=',
      });
    }
    return { ...stats, calls, results };
  } finally {
    if (server !== given) await server.close();
  }
}

/**
 * For each mode, starts a server whose body does that after its terminal event, calls `call(url)`
 * once, and asserts that it returns a value within `withinMs` and, where the server never ends the
 * body, that the client closes it within `withinMs` after returning (a bounded drain, not a leak).
 */
export async function expectPromptReturn(call: Call, options: PromptReturnOptions = {}): Promise<PromptReturn[]> {
  const { withinMs = 2000, modes = HOSTILE_MODES } = options;
  const report: PromptReturn[] = [];
  for (const mode of modes) {
    if (!HOSTILE_MODES.includes(mode)) throw new RangeError(`expectPromptReturn: unknown mode '${mode}' (use ${HOSTILE_MODES.join(', ')})`);
    const server = await startStreamServer({ ...options.server, mode });
    try {
      const started = performance.now();
      const outcome = await settleWithin(call, server.url, withinMs);
      const ms = performance.now() - started;
      if (outcome === 'timeout') {
        const bound = mode === 'flood' || mode === 'endless' ? 'by time and by bytes' : 'by time';
        throw new AssertionError({
          message: `against ${DESCRIBE[mode]}, the call did not return within ${withinMs} ms: bound the drain after the terminal event ${bound}`,
        });
      }
      if ('error' in outcome) {
        throw new AssertionError({
          message: `against ${DESCRIBE[mode]}, the call failed (${describeError(outcome.error)}): an error after the terminal event must not reach the caller`,
        });
      }
      if (mode !== 'reset') {
        const released = await server.waitFor((s) => s.closedEarly >= s.requests, withinMs).then(
          () => true,
          () => false,
        );
        if (!released) {
          throw new AssertionError({
            message: `against ${DESCRIBE[mode]}, the call returned but still held the body open ${withinMs} ms later: the drain needs a time budget that closes the body`,
          });
        }
      }
      report.push({ mode, value: outcome.value, ms });
    } finally {
      await server.close();
    }
  }
  return report;
}
