// Real Python clients (httpx) against real Node servers on 127.0.0.1 that count connections: each early
// close drainguard rewrites, before and after, and each bound of the drain against bodies that do not end.
// The connection counts are counted by the server; no latency is asserted (time limits are hang guards).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { rewritePython } from '../../../codemods/python/rewrite.js';
import { startHostileServer, type HostileMode, type HostileServer } from '../../support/python-hostile-server.mjs';
import { modernPython, pythonHttpxMissing, pythonTrioMissing, runPythonPlan } from '../../support/python-keepalive.mjs';
import { expectedMessages } from '../../support/sse-server.mjs';

const missing = pythonHttpxMissing();
const trioMissing = missing ?? pythonTrioMissing();
const modern = modernPython();
if (missing) console.log(`skipping the Python behaviour tests: ${missing}`);
else if (trioMissing) console.log(`skipping the trio runs: ${trioMissing}`);
if ('missing' in modern) console.log(`skipping the cancel-scope bounds on bodies that do not end: ${modern.missing}`);

const CALLS = 20;
const EVENTS = expectedMessages(2, 'sse');
const work = mkdtempSync(path.join(tmpdir(), 'drainguard-python-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const clientPath = (file: string): string => fileURLToPath(new URL(`../../support/python-clients/${file}`, import.meta.url));

/** What each bound needs declared (a pyproject.toml next to the rewritten client). */
const DECLARATIONS: Record<string, string> = {
  socket: '',
  anyio: '[project]\ndependencies = ["anyio>=4", "httpx>=0.27"]\n',
  trio: '[project]\ndependencies = ["trio>=0.22", "httpx>=0.27"]\n',
  asyncio: '[project]\nrequires-python = ">=3.11"\ndependencies = ["httpx>=0.27"]\n',
};
const BOUND_TEXT: Record<string, string> = {
  socket: 'threading.Timer(',
  anyio: 'with anyio.move_on_after(',
  trio: 'with trio.move_on_after(',
  asyncio: 'async with asyncio.timeout(',
};

/** The client rewritten by drainguard with the bound its declarations select, in a directory of its own. */
async function rewritten(file: string, bound: string, options: { drainTimeoutMs?: number; drainMaxBytes?: number } = {}): Promise<string> {
  const dir = path.join(work, `${path.basename(file, '.py')}-${bound}-${options.drainTimeoutMs ?? 'd'}-${options.drainMaxBytes ?? 'd'}`);
  mkdirSync(dir, { recursive: true });
  if (DECLARATIONS[bound]) writeFileSync(path.join(dir, 'pyproject.toml'), DECLARATIONS[bound]);
  const out = path.join(dir, file);
  const result = await rewritePython(readFileSync(clientPath(file), 'utf8'), { filePath: out, ...options });
  expect(result.sites.map((site) => site.status)).toEqual(result.sites.map(() => 'fixed'));
  expect(result.sites.length).toBeGreaterThan(0);
  expect(result.output).toContain(BOUND_TEXT[bound]);
  writeFileSync(out, result.output!);
  return out;
}

async function withServer<T>(mode: HostileMode, run: (server: HostileServer) => Promise<T>): Promise<T> {
  const server = await startHostileServer({ mode });
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

interface Shape {
  name: string;
  file: string;
  /** The bounds the rewrite can take in this module (always the socket shutdown, with no declarations). */
  bounds: string[];
  /** The async backend that runs it (sync clients ignore it). */
  backend: string;
  /** Connections the client's pool may hold (default 1): a client that never closes a response needs more to run on. */
  pool?: number;
}

const SHAPES: Shape[] = [
  { name: 'an SSE reader iterated directly, closed after the reply (MCP main)', file: 'sse_reader_direct.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'client.sse(), the reader iterated directly, break (MCP main, resumption)', file: 'sse_reader_resumption.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'aconnect_sse and aiter_sse(), break (MCP v1.x)', file: 'aconnect_sse_aiter.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'aclose() and return inside async with, reconnect on errors', file: 'anyio_aclose_reconnect.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'break out of async with client.stream() (asyncio)', file: 'asyncio_break.py', bounds: ['socket', 'asyncio'], backend: 'asyncio' },
  { name: 'an async generator breaks at [DONE], its finally closes (openai AsyncStream)', file: 'async_generator_finally.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'a sync generator breaks at [DONE], its finally closes (openai Stream)', file: 'sync_generator_finally.py', bounds: ['socket'], backend: 'sync' },
  { name: 'a flag set at the sentinel, the close on the flag (Speakeasy, sync)', file: 'flag_sentinel.py', bounds: ['socket'], backend: 'sync' },
  { name: 'a flag set at the sentinel, the close on the next chunk (Speakeasy, async)', file: 'flag_sentinel_async.py', bounds: ['socket', 'anyio'], backend: 'anyio-asyncio' },
  { name: 'a nested generator returns at [DONE] inside the with (Fern)', file: 'nested_generator.py', bounds: ['socket'], backend: 'sync' },
  { name: 'a loop broken on the stop event, the caller closes after', file: 'stop_event_caller.py', bounds: ['socket'], backend: 'sync' },
  { name: 'a held iterator read with __anext__(), closed at [DONE]', file: 'held_iterator.py', bounds: ['socket'], backend: 'asyncio' },
  { name: 'trio: aclose() and return', file: 'trio_aclose.py', bounds: ['socket', 'trio'], backend: 'trio' },
  { name: '[DONE] turned into StopIteration, the response never closed', file: 'stopiteration_at_done.py', bounds: ['socket'], backend: 'sync', pool: 100 },
];

(missing ? describe.skip : describe).each(SHAPES)('$name', ({ file, bounds, backend, pool }) => {
  const skip = backend === 'trio' && trioMissing !== null;
  it.skipIf(skip)(`before: about one connection per call; after (${bounds.join(', ')}): at most two over ${CALLS} calls, the same results`, async () => {
    const run = async (client: string) =>
      withServer('end', async (server) => {
        const { runs } = await runPythonPlan({ clientPath: client, plan: [{ url: server.url, calls: CALLS }], backend, pool });
        return { results: runs[0].results, connections: server.connections(), requests: server.requests() };
      });
    const before = await run(clientPath(file));
    expect(before.connections).toBeGreaterThanOrEqual(CALLS - 2);
    expect(before.results).toEqual(Array.from({ length: CALLS }, () => EVENTS));
    for (const bound of bounds) {
      const after = await run(await rewritten(file, bound));
      expect([bound, after.connections <= 2, after.requests]).toEqual([bound, true, CALLS]);
      expect(after.results).toEqual(before.results);
    }
  });
});

const HOSTILE: HostileMode[] = ['silent', 'trickle', 'reset'];

/**
 * Runs a rewritten client against a silent, a trickling and a resetting server (2 calls each, budget
 * 200 ms), then against a flooding one with a budget longer than the hang guard (60 s, 64 KiB): only the
 * byte limit can end that drain. Every call returns what the early close returned, the client closed
 * every response that did not end (the drain gave up and the original close ran), nothing reconnected.
 */
async function survivesHostileBodies(file: string, bound: string, backend: string, python?: string): Promise<void> {
  const bounded = await rewritten(file, bound, { drainTimeoutMs: 200 });
  const servers = await Promise.all(HOSTILE.map((mode) => startHostileServer({ mode })));
  try {
    const { runs } = await runPythonPlan({ clientPath: bounded, plan: servers.map((server) => ({ url: server.url, calls: 2 })), backend, python, timeoutMs: 30_000 });
    for (const [index, mode] of HOSTILE.entries()) {
      const server = servers[index];
      expect([mode, runs[index].results]).toEqual([mode, [EVENTS, EVENTS]]);
      expect([mode, server.requests()]).toEqual([mode, 2]);
      if (mode !== 'reset') await server.waitFor(() => server.closedByClient() === 2);
    }
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
  const byBytes = await rewritten(file, bound, { drainTimeoutMs: 60_000, drainMaxBytes: 64 * 1024 });
  await withServer('flood', async (server) => {
    const { runs } = await runPythonPlan({ clientPath: byBytes, plan: [{ url: server.url, calls: 2 }], backend, python, timeoutMs: 30_000 });
    expect(runs[0].results).toEqual([EVENTS, EVENTS]);
    await server.waitFor(() => server.closedByClient() === 2);
    // Generous: the byte limit is 64 KiB; what the server wrote on top sat in socket buffers.
    expect(server.bytesAfterTerminal()).toBeLessThan(64 * 1024 * 1024);
  });
}

describe.skipIf(missing !== null)('the socket-shutdown bound (sync code, and async code with no sound cancel scope) on bodies that do not end', () => {
  it('sync', () => survivesHostileBodies('stop_event_caller.py', 'socket', 'sync'));
  it.each(['asyncio', 'anyio-asyncio', 'anyio-trio', 'trio'])('async, under %s', async (backend) => {
    if (backend.endsWith('trio') && trioMissing) return;
    await survivesHostileBodies('sse_reader_direct.py', 'socket', backend);
  });
});

describe.skipIf('missing' in modern)('the cancel-scope bounds on bodies that do not end (httpcore >= 0.17.3, anyio >= 4)', () => {
  const python = 'python' in modern ? modern.python : undefined;
  it.each([
    ['anyio', 'sse_reader_direct.py', 'anyio-asyncio'],
    ['anyio', 'sse_reader_direct.py', 'anyio-trio'],
    ['trio', 'trio_aclose.py', 'trio'],
    ['asyncio', 'asyncio_break.py', 'asyncio'],
  ])('the %s bound: %s under %s', (bound, file, backend) => survivesHostileBodies(file, bound, backend, python));
});
