// Helpers to measure connection reuse of a client: load its `callOnce`, run N sequential calls, and
// do that against a fresh counting server (optionally behind the delay proxy). Used by the bench and
// by the behaviour tests (the original clients here, the codemod's rewrites in the codemod's tests).
// Plain ESM with a .d.mts beside it.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSseServer } from './sse-server.mjs';
import { startDelayProxy } from './delay-proxy.mjs';
import { createDispatcher } from './undici-agent.mjs';

let loads = 0;

/**
 * Load a client: a function is returned as is; a path (absolute, or relative to the cwd) or a
 * file: URL is imported and its `exportName` export (default `callOnce`) returned. Each load is a
 * module of its own (a query in its URL), so the client's module state (a request counter) starts
 * afresh, as in a process of its own: the test files of a vitest worker share the modules they load.
 * @param {string | URL | import('./keepalive.d.mts').ClientFn} client
 * @param {string} [exportName]
 * @returns {Promise<import('./keepalive.d.mts').ClientFn>}
 */
export async function loadClient(client, exportName = 'callOnce') {
  if (typeof client === 'function') return client;
  const href =
    client instanceof URL ? client.href : client.startsWith('file:') ? client : pathToFileURL(isAbsolute(client) ? client : resolve(client)).href;
  const own = new URL(href);
  own.searchParams.set('load', String(++loads));
  const mod = await import(own.href);
  const fn = mod[exportName] ?? (exportName === 'callOnce' ? mod.default : undefined);
  if (typeof fn !== 'function') throw new Error(`${href} has no function export "${exportName}"`);
  return fn;
}

/**
 * Nearest-rank percentile (p in 0..100) of a list of numbers; NaN for an empty list.
 * @param {number[]} values
 * @param {number} p
 */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, timeout]).finally(() => clearTimeout(timer)));
}

/**
 * Call `client(url, ...args)` n times, one after the other (each bounded by `callTimeoutMs`).
 * @param {string | URL | import('./keepalive.d.mts').ClientFn} client
 * @param {string} url
 * @param {number} n
 * @param {import('./keepalive.d.mts').RunOptions} [options]
 * @returns {Promise<import('./keepalive.d.mts').RunResult>}
 */
export async function runSequentialCalls(client, url, n, options = {}) {
  const { args = [], exportName = 'callOnce', callTimeoutMs = 10_000, pauseMs = 0 } = options;
  if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new RangeError(`n must be a whole number 0..100000, got ${n}`);
  const fn = await loadClient(client, exportName);
  /** @type {unknown[]} */
  const results = [];
  /** @type {number[]} */
  const latenciesMs = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    results.push(await withTimeout(Promise.resolve(fn(url, ...args)), callTimeoutMs, `call ${i + 1} of ${n}`));
    latenciesMs.push(performance.now() - started);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { results, latenciesMs };
}

/**
 * Start a fresh counting server (and, with `rttMs`/`tls`, the delay proxy in front of it), run `calls`
 * sequential calls of the client against it, let the connections settle, and report what the server
 * counted. Everything it started is closed before it returns (also on failure).
 * @param {string | URL | import('./keepalive.d.mts').ClientFn} client
 * @param {import('./keepalive.d.mts').MeasureOptions} [options]
 * @returns {Promise<import('./keepalive.d.mts').Measurement>}
 */
export async function measureKeepAlive(client, options = {}) {
  const { calls = 20, peer = 'node', server: serverOptions = {}, rttMs, tls = false, args = [], settleMs = 100 } = options;
  const fn = await loadClient(client, options.exportName);
  // The MCP peer (and the SDK behind it) is loaded only when asked for.
  const server =
    peer === 'mcp' ? await (await import('./mcp-server.mjs')).startMcpServer(serverOptions) : await startSseServer(serverOptions);
  /** @type {import('./delay-proxy.d.mts').DelayProxy | undefined} */
  let proxy;
  /** @type {import('./undici-agent.d.mts').Dispatcher | undefined} */
  let dispatcher;
  try {
    if (rttMs !== undefined || tls) proxy = await startDelayProxy({ target: server.url, rttMs: rttMs ?? 0, tls });
    /** @type {import('./undici-agent.d.mts').BodyCount[]} */
    const bodies = [];
    dispatcher = await createDispatcher({ ca: proxy?.ca, countBytes: bodies });
    const url = proxy?.url ?? server.url;
    // The first argument after the url is fetch's init; a dispatcher of our own keeps the pool fresh.
    const [init, ...rest] = args;
    const callArgs = dispatcher ? [{ .../** @type {object} */ (init ?? {}), dispatcher }, ...rest] : args;
    const run = await runSequentialCalls(fn, url, calls, { args: callArgs, callTimeoutMs: options.callTimeoutMs, pauseMs: options.pauseMs });
    // Let closes reach the server and undici's spare connections (it reconnects after a destroyed
    // socket) be counted, then wait until every request is either finished or closed by the client.
    await new Promise((r) => setTimeout(r, settleMs + 2 * (rttMs ?? 0)));
    await server
      .waitFor(() => server.finished() + server.closedByClient() >= server.requests(), 2000)
      .catch(() => {});
    return {
      url,
      connections: server.connections(),
      requests: server.requests(),
      bodies,
      closedByClient: server.closedByClient(),
      results: run.results,
      latenciesMs: run.latenciesMs,
      tls: proxy?.tls ?? false,
      tlsSkipReason: proxy?.tlsSkipReason,
    };
  } finally {
    await dispatcher?.close().catch(() => {});
    await proxy?.close();
    await server.close();
  }
}
